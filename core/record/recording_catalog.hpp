// The recording catalog: a SQLite database (WAL) in the recording directory that lists every segment
// file with its stream, time range, packet counts per APID and state. The segment files are the truth
// and the catalog their index: opening it brings it in line with the files (catalog_repair.cpp) —
// segments still marked open after a crash are rescanned (intact ones, a truncated last record
// included, become closed; ones with a bad record damaged — their intact records stay readable either
// way), files without an entry are added from their contents, entries whose file is gone are marked
// damaged, and a catalog that is not a readable database (corrupt, truncated, garbage) is moved aside
// and rebuilt from the files. repairs() says what was done.
#pragma once

#include "core/common/result.hpp"
#include "core/record/segment_file.hpp"

#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <vector>

namespace telestation::record {

enum class SegmentState : std::uint8_t { Open, Closed, Damaged };

struct SegmentInfo {
    std::int64_t id = 0;              // catalog key, assigned by addSegment
    std::string file;                 // file name, relative to the recording directory
    std::string streamName;
    std::uint64_t sequence = 0;       // per stream, from 1
    std::int64_t firstTimeNs = 0;     // receive time of the first / last record (0 when empty)
    std::int64_t lastTimeNs = 0;
    std::uint64_t packets = 0;
    std::uint64_t bytes = 0;          // file size
    SegmentState state = SegmentState::Open;
    std::string problem;              // why damaged, or the note about a truncated last record
    std::map<std::uint16_t, std::uint64_t> apidPackets;
    friend bool operator==(const SegmentInfo&, const SegmentInfo&) = default;
};

class RecordingCatalog {
public:
    // Opens (creating when missing) `directory`/catalog.sqlite and brings it in line with the segment
    // files (see above). Errors (unwritable directory, another application's database, a newer schema)
    // name the path.
    [[nodiscard]] static Result<std::unique_ptr<RecordingCatalog>> open(const std::string& directory);
    ~RecordingCatalog();

    [[nodiscard]] Result<std::int64_t> addSegment(const SegmentInfo& info);
    [[nodiscard]] Status updateSegment(const SegmentInfo& info); // by id
    [[nodiscard]] Status removeSegment(std::int64_t id);
    // Rescans the segments of `stream` still marked open (as open() does for all): for a recorder about
    // to take the stream over from one that could not close them (a full disk failed the catalog too).
    [[nodiscard]] Status recoverOpenSegments(const std::string& stream);
    // What open() repaired, one line each (also logged): "" when the catalog and the files agreed.
    [[nodiscard]] const std::vector<std::string>& repairs() const noexcept;
    [[nodiscard]] std::vector<SegmentInfo> segments() const;     // by stream name, then sequence
    // Segments whose time range overlaps [fromNs, toNs].
    [[nodiscard]] std::vector<SegmentInfo> segmentsBetween(std::int64_t fromNs, std::int64_t toNs) const;
    [[nodiscard]] const std::string& directory() const noexcept;

private:
    struct Impl;
    explicit RecordingCatalog(std::unique_ptr<Impl> impl);
    std::unique_ptr<Impl> m_impl;
};

} // namespace telestation::record
