// The recording catalog: a SQLite database (WAL) in the recording directory that lists every segment
// file with its stream, time range, packet counts per APID and state. Opening it after a crash
// rescans segments still marked open: intact ones (a truncated last record is expected) become closed,
// ones with a bad record become damaged — their intact records stay readable either way.
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
    // Opens (creating when missing) `directory`/catalog.sqlite; then recovers segments left open.
    // Errors (unwritable directory, a file that is not a catalog, a newer schema) name the path.
    [[nodiscard]] static Result<std::unique_ptr<RecordingCatalog>> open(const std::string& directory);
    ~RecordingCatalog();

    [[nodiscard]] Result<std::int64_t> addSegment(const SegmentInfo& info);
    [[nodiscard]] Status updateSegment(const SegmentInfo& info); // by id
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
