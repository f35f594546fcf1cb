// Fuzz target: a recording segment file (.tsrec) as playback reads it — record::scanSegment() (what
// the catalog's crash recovery and playback's count use) and record::PlaybackSource on the file,
// played to its end as fast as possible (the station's file:// source).
//
// Input: a mode byte, then the segment file (format version 1 or 2). Mode bit 0 set: the header's and
// every record's CRC-32C are recomputed before the file is written (records followed by their length
// fields), so that mutations reach what lies behind the checksums; clear: the bytes are written as
// they are.
// Checks: playback delivers exactly the intact records the scan counted, each within the largest
// payload, and finishes.
#include "core/record/playback.hpp"
#include "core/record/record_detail.hpp"
#include "tests/fuzz/fuzz_support.hpp"

#include <chrono>
#include <vector>

using namespace telestation;
using namespace telestation::record;

namespace {

// The file's CRCs made right, as a writer would have written them.
void fixChecksums(std::vector<std::uint8_t>& file)
{
    if (file.size() < 12)
        return;
    const std::size_t headerSize = detail::load<std::uint32_t>(&file[8]) == 1 ? kFileHeaderSizeVersion1 : kFileHeaderSize;
    if (file.size() < headerSize)
        return;
    detail::store(&file[headerSize - 4], crc32c(std::span(file).first(headerSize - 4)));
    for (std::size_t at = headerSize; at + detail::kRecordHeaderSize <= file.size();) {
        const std::size_t end = at + detail::kRecordHeaderSize + detail::load<std::uint32_t>(&file[at + 4]);
        if (end + 4 > file.size())
            return;
        detail::store(&file[end], crc32c(std::span(file).subspan(at + 4, end - at - 4)));
        at = end + 4;
    }
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    fuzz::FuzzInput in(data, size);
    const bool fix = (in.byte() & 1) != 0;
    const auto rest = in.rest();
    std::vector<std::uint8_t> file(rest.begin(), rest.end());
    if (fix)
        fixChecksums(file);
    static const std::string path = fuzz::scratchDir() + "/segment.tsrec";
    fuzz::writeFile(path, file);

    const auto scan = scanSegment(path);
    auto source = PlaybackSource::open(path, {});
    if (!source)
        return 0;
    fuzz::check(scan.ok(), "playback opened a file the scan refused");
    std::uint64_t delivered = 0;
    const auto deliver = [&](const RecordMeta&, std::span<const std::uint8_t> payload) {
        fuzz::check(payload.size() <= detail::kMaxPayload, "a payload above the largest");
        ++delivered;
    };
    for (std::uint64_t polls = 0; !(*source)->finished(); ++polls) {
        fuzz::check(polls <= scan->records + 1, "playback does not finish");
        (void)(*source)->poll(std::chrono::milliseconds(0), deliver);
    }
    const auto progress = (*source)->progress();
    fuzz::check(delivered == scan->records, "playback delivered other records than the scan counted");
    fuzz::check(progress.recordsPlayed == delivered && progress.recordsSkipped == 0, "playback progress is wrong");
    return 0;
}
