// EventArchive: the station's events (alarm changes included) in a SQLite database in WAL mode beside
// the recordings (`<recordingDirectory>/events.sqlite` by default), kept across restarts and queried by
// time range, severity, kind, stream and text. One writer (the station, through EventStore); any number
// of readers (the GUI's event history, tools) may open the same file read-only at the same time.
#pragma once

#include "core/common/result.hpp"
#include "core/events/event.hpp"

#include <cstdint>
#include <limits>
#include <memory>
#include <optional>
#include <ostream>
#include <span>
#include <string>
#include <vector>

namespace telestation::events {

struct EventFilter {
    std::int64_t fromNs = std::numeric_limits<std::int64_t>::min(); // inclusive
    std::int64_t toNs = std::numeric_limits<std::int64_t>::max();   // exclusive
    std::optional<Severity> minSeverity;  // this severity and above
    std::optional<EventKind> kind;
    std::string stream;                   // exact; "" = any
    // A substring of text, parameter, packet type or detail; "" = any. Case-insensitive for ASCII
    // letters (SQLite's LIKE); other letters match as written.
    std::string text;
    std::size_t limit = 10'000;           // at most this many rows
    bool newestFirst = false;             // false: oldest first (from fromNs); true: newest first (back from toNs)

    // Where a row sits in the archive's order (time, then id). Paging: set `after` to the last row of
    // the previous page to get the rows that follow it in this filter's direction. Events often share
    // a timestamp (one tick's batch), so a time alone would skip or repeat some at a page boundary.
    struct Position {
        std::int64_t timeNs = 0;
        std::int64_t id = 0;
    };
    std::optional<Position> after;
};

// An event as stored: the archive's own id (unique across runs) with the event.
struct ArchivedEvent {
    std::int64_t id = 0;
    Event event;
    [[nodiscard]] EventFilter::Position position() const noexcept { return {event.timeNs, id}; }
};

class EventArchive {
public:
    // Opens or creates the archive (WAL, schema version checked: a foreign or newer file is an error that
    // names the file). readOnly: for viewers; fails if the file does not exist.
    [[nodiscard]] static Result<EventArchive> open(const std::string& path, bool readOnly = false);
    EventArchive(EventArchive&&) noexcept;
    EventArchive& operator=(EventArchive&&) noexcept;
    ~EventArchive();

    // Appends the events in one transaction (all or none). Fails, writing nothing, when the file was
    // deleted or replaced since it was opened (SQLite would go on writing into the deleted file).
    [[nodiscard]] Status append(std::span<const Event> events);
    [[nodiscard]] Result<std::vector<ArchivedEvent>> query(const EventFilter& filter) const;
    // Deletes events older than cutoffNs; returns how many.
    [[nodiscard]] Result<std::uint64_t> deleteOlderThan(std::int64_t cutoffNs);
    [[nodiscard]] Result<std::uint64_t> count() const;
    [[nodiscard]] const std::string& path() const noexcept;

private:
    struct Impl;
    explicit EventArchive(std::unique_ptr<Impl> impl);
    std::unique_ptr<Impl> m_impl;
};

// CSV with a header row (time as ISO 8601 UTC with ns, severity, kind, stream, packet type, parameter,
// detail, text, count, amount, value, limit, limit state, user); fields quoted per RFC 4180 (CRLF
// line ends; a field with a comma, quote, CR or LF in quotes, its quotes doubled). NaN: an empty field.
void writeCsv(std::span<const ArchivedEvent> events, std::ostream& out);

} // namespace telestation::events
