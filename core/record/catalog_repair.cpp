// Bringing the recording catalog in line with the segment files, which are the truth (the catalog is
// their index): segments a crash left open are rescanned, files without an entry (a catalog lost,
// rebuilt, or missing its last commits after a power loss) are added from their contents, entries whose
// file is gone are marked damaged, and a damaged catalog file is moved aside so that a new one can be
// built. Every change is logged and noted for the station's events.
#include "core/record/catalog_detail.hpp"
#include "core/record/record_detail.hpp"

#include <spdlog/spdlog.h>

#include <algorithm>
#include <array>
#include <charconv>
#include <ctime>
#include <filesystem>
#include <optional>
#include <set>
#include <system_error>

namespace telestation::record::detail {
namespace {

namespace fs = std::filesystem;

constexpr std::string_view kMissingFile = "the segment file is missing";
constexpr std::string_view kAdded = "added from the file (it had no catalog entry)";
constexpr std::array<std::string_view, 2> kJournalSuffixes{"-wal", "-shm"};

void note(std::vector<std::string>& notes, std::string text)
{
    spdlog::warn("recording catalog: {}", text);
    notes.push_back(std::move(text));
}

std::string utcStamp()
{
    const std::time_t now = std::time(nullptr);
    std::tm utc{};
    gmtime_r(&now, &utc);
    char stamp[32];
    std::strftime(stamp, sizeof stamp, "%Y%m%dT%H%M%SZ", &utc);
    return stamp;
}

// `from` renamed to `to`, or to `to`.N when that exists already (two repairs within one second).
Status moveAside(const fs::path& from, const fs::path& to)
{
    fs::path target = to;
    std::error_code ec;
    for (int n = 2; fs::exists(target, ec); ++n)
        target = to.string() + "." + std::to_string(n);
    fs::rename(from, target, ec);
    if (ec)
        return Error{"cannot move the damaged catalog aside: " + ec.message(), {from.string(), 0, 0}};
    return {};
}

// A segment's counts, time range and state as its file gives them; `why` says what brought it here.
void describeFromFile(SegmentInfo& info, const std::string& path, std::string_view why)
{
    std::error_code ec;
    if (const auto size = fs::file_size(path, ec); !ec && endsInsideHeader(path, size)) {
        // A crash while the file was created, before its header was written: no records, nothing damaged.
        info.state = SegmentState::Closed;
        info.problem = std::string(why) + "; truncated last record: the file ends inside its header (after " + std::to_string(size)
            + " bytes)";
        info.packets = 0;
        info.apidPackets.clear();
        info.firstTimeNs = info.lastTimeNs = 0;
        info.bytes = size;
        return;
    }
    auto summary = summarizeSegment(path);
    if (!summary) {
        info.state = SegmentState::Damaged;
        info.problem = std::string(why) + "; cannot read: " + summary.error().toString();
        info.packets = 0;
        info.apidPackets.clear();
        info.firstTimeNs = info.lastTimeNs = 0;
        const auto size = fs::file_size(path, ec);
        info.bytes = ec ? 0 : size;
        return;
    }
    setFromSummary(info, *summary);
    const SegmentScan& scan = summary->scan;
    switch (scan.end) {
    case SegmentEnd::Clean:
        info.state = SegmentState::Closed;
        info.problem = std::string(why);
        break;
    case SegmentEnd::TruncatedRecord:
        info.state = SegmentState::Closed;
        info.problem = std::string(why) + "; truncated last record: " + scan.problem;
        break;
    case SegmentEnd::Damaged:
        info.state = SegmentState::Damaged;
        info.problem = std::string(why) + "; damaged: " + scan.problem;
        break;
    }
}

std::string counted(const SegmentInfo& info)
{
    return std::to_string(info.packets) + (info.packets == 1 ? " record" : " records");
}

} // namespace

void setAsideOrphanJournal(const std::string& directory, std::vector<std::string>& notes)
{
    const fs::path db = fs::path(directory) / kCatalogFile;
    std::error_code ec;
    if (fs::exists(db, ec))
        return;
    const std::string stamp = utcStamp();
    for (const std::string_view suffix : kJournalSuffixes) {
        const fs::path journal = db.string() + std::string(suffix);
        if (!fs::exists(journal, ec))
            continue;
        if (auto st = moveAside(journal, db.string() + ".orphan-" + stamp + std::string(suffix)); !st)
            note(notes, st.error().toString());
        else
            note(notes, journal.filename().string() + " without its catalog moved aside (as " + std::string(kCatalogFile)
                            + ".orphan-" + stamp + std::string(suffix) + ")");
    }
}

Status setAsideDamagedCatalog(const std::string& directory, const std::string& why, std::vector<std::string>& notes)
{
    const fs::path db = fs::path(directory) / kCatalogFile;
    const std::string aside = db.string() + ".corrupt-" + utcStamp();
    if (auto st = moveAside(db, aside); !st)
        return st;
    std::error_code ec;
    for (const std::string_view suffix : kJournalSuffixes) {
        const fs::path journal = db.string() + std::string(suffix);
        if (fs::exists(journal, ec))
            if (auto st = moveAside(journal, aside + std::string(suffix)); !st)
                return st;
    }
    note(notes, "the catalog was damaged (" + why + "): moved aside as " + fs::path(aside).filename().string()
                    + " and rebuilt from the segment files");
    return {};
}

Status recoverOpen(RecordingCatalog& catalog, const std::string& stream, std::vector<std::string>& notes)
{
    for (auto& info : catalog.segments()) {
        if (info.state != SegmentState::Open || (!stream.empty() && info.streamName != stream))
            continue;
        const std::string path = (fs::path(catalog.directory()) / info.file).string();
        std::error_code ec;
        if (!fs::exists(path, ec)) {
            // The entry is written before its file is created: a crash in between leaves it alone.
            if (auto st = catalog.removeSegment(info.id); !st)
                return st;
            note(notes, info.file + " was listed but never created: its entry removed");
            continue;
        }
        // Open at open(): the station ended without closing it; later: its recorder failed to close it.
        describeFromFile(info, path, stream.empty() ? "recovered after an unclean shutdown"
                                                    : "recovered after its recording failed to close it");
        if (auto st = catalog.updateSegment(info); !st)
            return st;
        note(notes, info.file + " " + info.problem + " (" + counted(info) + ")");
    }
    return {};
}

Status reconcileWithFiles(RecordingCatalog& catalog, std::vector<std::string>& notes)
{
    const fs::path directory(catalog.directory());
    std::set<std::string> listed;
    for (auto& info : catalog.segments()) {
        listed.insert(info.file);
        std::error_code ec;
        if (fs::exists(directory / info.file, ec) || info.problem == kMissingFile)
            continue;
        info.state = SegmentState::Damaged;
        info.problem = std::string(kMissingFile);
        if (auto st = catalog.updateSegment(info); !st)
            return st;
        note(notes, info.file + ": " + std::string(kMissingFile) + " (it had " + counted(info) + ")");
    }

    std::vector<std::string> unlisted;
    std::error_code ec;
    for (const auto& entry : fs::directory_iterator(directory, ec)) {
        const std::string name = entry.path().filename().string();
        if (name.ends_with(kSegmentExtension) && entry.is_regular_file(ec) && !listed.contains(name))
            unlisted.push_back(name);
    }
    if (ec)
        return Error{"cannot list the recording directory: " + ec.message(), {directory.string(), 0, 0}};
    std::sort(unlisted.begin(), unlisted.end());
    // One note for the files that read cleanly (a rebuild may add thousands), one each for the others.
    std::uint64_t added = 0, records = 0;
    for (const std::string& name : unlisted) {
        SegmentInfo info;
        info.file = name;
        const std::string path = (directory / name).string();
        if (auto reader = SegmentReader::open(path)) {
            info.streamName = (*reader)->header().streamName;
            info.sequence = (*reader)->header().sequence;
        } else if (auto parts = parseSegmentFileName(name)) {
            info.streamName = parts->stream;
            info.sequence = parts->sequence;
        } else {
            note(notes, name + " is not a segment this catalog can list (" + reader.error().message + "): left alone");
            continue;
        }
        describeFromFile(info, path, kAdded);
        if (auto id = catalog.addSegment(info); !id) {
            note(notes, name + " cannot be listed: " + id.error().message);
            continue;
        }
        ++added;
        records += info.packets;
        if (info.state != SegmentState::Closed || info.problem != kAdded)
            note(notes, name + " " + info.problem + " (" + counted(info) + ")");
    }
    if (added > 0)
        note(notes, std::to_string(added) + " segment file" + (added == 1 ? "" : "s") + " with "
                        + std::to_string(records) + " records had no catalog entry: added from their contents");
    return {};
}

} // namespace telestation::record::detail
