// Playback of recordings: the records of a recording directory (its catalog.sqlite and segment files) or of
// one segment file, delivered in receive-time order, as fast as possible or paced at N times real time,
// with a selection by stream, segment and receive-time range. The station's file:// source reads through
// this; io::parseEndpoint checks the URL's query and playbackOptionsFromQuery() turns it into options.
//
// Order: the selected segments of each stream are read one after the other (by first receive time, then
// sequence); the streams are merged by receive time (the earliest pending record of all streams goes
// first; equal times go to the stream whose segments start first). One segment reader per stream is open
// at a time. Records within a segment keep their file order even if their times go backwards.
//
// Damage is not fatal: a segment that cannot be opened, ends inside a record (truncated) or has a record
// that fails its CRC or framing (damaged) is reported in PlaybackProgress::problem; every intact record
// before the damage is played and playback goes on with the stream's next segment.
#pragma once

#include "core/common/result.hpp"
#include "core/common/time_text.hpp"
#include "core/record/recording_catalog.hpp"
#include "core/record/segment_file.hpp"

#include <chrono>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace telestation::record {

struct PlaybackOptions {
    double speed = 0;                  // 0 = as fast as possible; 1 = real time; N = N times real time
    std::int64_t fromNs = 0;           // receive-time range, inclusive; 0 = open end
    std::int64_t toNs = 0;
    std::vector<std::string> streams;  // recorded stream names to replay (empty = all)
    std::vector<std::string> segments; // segment file names to replay (empty = all the above select)
    bool repeat = false;               // the station plays the selection again from its start when done
                                       // (PlaybackSource itself plays it once)
    friend bool operator==(const PlaybackOptions&, const PlaybackOptions&) = default;
};

// A consistent-enough snapshot for displays: each counter is read atomically, not all of them together.
struct PlaybackProgress {
    std::uint64_t recordsTotal = 0;   // intact records in the selected segments (catalog counts or a scan;
                                      // corrected to what was read once a segment ends)
    std::uint64_t recordsPlayed = 0;  // delivered
    std::uint64_t recordsSkipped = 0; // read from a selected segment but outside the time range
    std::uint64_t segmentsTotal = 0;
    std::uint64_t segmentsDone = 0;
    bool finished = false;
    std::string problem;              // "" or "FILE: what" per damaged/truncated/unreadable segment, "; "-joined

    // (played + skipped) / total in 0..1; 1 once finished (also for an empty selection).
    [[nodiscard]] double fraction() const noexcept;
};

// Integer ns since the Unix epoch ("1795348800000000000") or ISO-8601 UTC with an optional fraction of 1..9
// digits ("2026-11-22T12:00:00Z", "2026-11-22T12:00:00.25Z"); nothing before 1970 or past 64-bit ns.
using text::parseTimeNs; // core/common/time_text.hpp

// The options of a file:// URL's query (io::Endpoint::query: speed, from, to, stream — stream may repeat).
// Errors name the key and value; unknown keys are errors, as in io::parseEndpoint.
[[nodiscard]] Result<PlaybackOptions>
playbackOptionsFromQuery(std::span<const std::pair<std::string, std::string>> query);

// Reads a recording for playback. poll() and the destructor belong to one thread (the source's reader
// thread); progress() and finished() may be called from any thread.
class PlaybackSource {
public:
    using Deliver = std::function<void(const RecordMeta&, std::span<const std::uint8_t>)>;

    // path: a recording directory (it must have a catalog.sqlite; the catalog is only read, never
    // written or recovered, so that a recording can be played while it is written and from read-only
    // media) or one segment file (.tsrec; scanned once for its record count). Errors name the path: a
    // missing path, a directory without a catalog, a file that is not a segment, an option out of range
    // (speed < 0, fromNs > toNs), or a stream / segment name the recording does not have. A recording
    // whose selection is empty (no segments, or none in the time range) is not an error: it has zero
    // records and is finished at the first poll().
    [[nodiscard]] static Result<std::unique_ptr<PlaybackSource>> open(const std::string& path,
                                                                      const PlaybackOptions& options);
    ~PlaybackSource();
    PlaybackSource(const PlaybackSource&) = delete;
    PlaybackSource& operator=(const PlaybackSource&) = delete;

    // Delivers the next records to `deliver(meta, payload)` (the payload is valid during the call) and
    // returns how many; 0 with finished() true at the end. Speed 0: up to maxRecords at once. Speed > 0:
    // each record is due at (wall time of the first delivered record) + (its receive time - the first
    // one's) / speed, never earlier; poll() waits for a due time only while it has delivered nothing in
    // this call, and never past `timeout` (then it returns 0, not finished), so the calling thread can
    // stop. A consumer that falls behind gets the overdue records at once (playback catches up, it does
    // not drift). Records outside the time range are skipped without waiting. No allocation per record
    // in steady state (one read buffer per open segment, the payload vector reused).
    std::size_t poll(std::chrono::milliseconds timeout, const Deliver& deliver, std::size_t maxRecords = 256);

    // After the caller held playback for `paused` (it did not poll): records keep their spacing from
    // where playback stopped instead of catching up. Same thread as poll(); no effect at speed 0.
    void shiftClock(std::chrono::nanoseconds paused) noexcept;

    // During a `deliver` call: the recorded stream the record belongs to (its segment's stream name).
    [[nodiscard]] std::string_view deliveringStream() const noexcept;

    [[nodiscard]] PlaybackProgress progress() const; // any thread
    [[nodiscard]] bool finished() const noexcept;   // any thread
    // The selected segments, sorted by first receive time then sequence, as the catalog lists them; for
    // an OPEN segment (being written, or left by a crash) and for a single file, counts and times come
    // from a scan.
    [[nodiscard]] const std::vector<SegmentInfo>& segments() const noexcept;

private:
    struct Impl;
    explicit PlaybackSource(std::unique_ptr<Impl> impl);
    std::unique_ptr<Impl> m_impl;
};

} // namespace telestation::record
