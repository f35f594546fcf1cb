// Fuzz target: a recording directory whose catalog.sqlite is corrupt or hostile — opened the two ways
// the station opens one: read-only for playback (record::PlaybackSource, played to its end) and
// read-write by record::RecordingCatalog (schema and version checks, recovery of segments left open),
// then listed. The directory also holds the segment file the seed catalogs list; beside the directory
// lies another segment, which no catalog row may reach ("../outside.tsrec").
//
// Input: the catalog.sqlite file. Everything else the last input left in the directory (SQLite's
// -wal/-shm/-journal files, catalogs moved aside) is removed before each input.
// Checks: playback finishes and plays nothing from outside the directory; the catalog's time-range
// query returns a subset of its segment list.
#include "core/record/playback.hpp"
#include "core/record/recording_catalog.hpp"
#include "tests/fuzz/fuzz_support.hpp"

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <limits>

using namespace telestation;
using namespace telestation::record;

namespace {

const std::string& recordingDir()
{
    static const std::string dir = [] {
        std::string d = fuzz::scratchDir() + "/recording";
        std::filesystem::create_directory(d);
        fuzz::writeExampleSegment(d + "/" + fuzz::kExampleSegmentName);
        fuzz::writeExampleSegment(fuzz::scratchDir() + "/" + fuzz::kOutsideSegmentName, fuzz::kOutsideSegmentApid);
        return d;
    }();
    return dir;
}

void play(const std::string& dir)
{
    auto source = PlaybackSource::open(dir, {});
    if (!source)
        return;
    std::uint64_t total = 0;
    for (const auto& s : (*source)->segments())
        total += s.packets;
    for (std::uint64_t polls = 0; !(*source)->finished(); ++polls) {
        fuzz::check(polls <= total + (*source)->segments().size() + 1, "playback does not finish");
        (void)(*source)->poll(std::chrono::milliseconds(0), [](const RecordMeta& meta, std::span<const std::uint8_t>) {
            fuzz::check(meta.apid != fuzz::kOutsideSegmentApid, "playback read a segment outside the recording directory");
        });
    }
}

void list(const std::string& dir)
{
    auto catalog = RecordingCatalog::open(dir);
    if (!catalog)
        return;
    const auto all = (*catalog)->segments();
    const auto some = (*catalog)->segmentsBetween(std::numeric_limits<std::int64_t>::min() + 1,
                                                  std::numeric_limits<std::int64_t>::max());
    fuzz::check(some.size() <= all.size(), "a time range gives more segments than the whole catalog");
    for (const auto& s : some)
        fuzz::check(std::find(all.begin(), all.end(), s) != all.end(), "a time range gives a segment the list lacks");
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    const std::string& dir = recordingDir();
    // What the last input left — SQLite's journals, catalogs moved aside as corrupt or orphaned — goes,
    // or the directory grows by one file per damaged input and every open scans them all.
    std::error_code ec;
    for (const auto& entry : std::filesystem::directory_iterator(dir, ec))
        if (entry.path().filename() != fuzz::kExampleSegmentName)
            fuzz::removeFile(entry.path().string());
    fuzz::writeFile(dir + "/catalog.sqlite", {data, size});
    play(dir);
    list(dir);
    return 0;
}
