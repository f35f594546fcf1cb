// EventArchive: the station's events (alarm changes included) in a SQLite database in WAL mode beside
// the recordings (`<recordingDirectory>/events.sqlite` by default), kept across restarts and queried by
// time range, severity, kind, stream and text. One writer (the station); any number of readers (the
// GUI's event history, tools) may open the same file read-only at the same time.
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
    std::string text;                     // a case-insensitive substring of text, parameter, packet type or detail; "" = any
    std::size_t limit = 10'000;           // at most this many rows
    bool newestFirst = false;             // false: oldest first (from fromNs); true: newest first (back from toNs)
};

// An event as stored: the archive's own id (unique across runs) with the event.
struct ArchivedEvent {
    std::int64_t id = 0;
    Event event;
};

class EventArchive {
public:
    // Opens or creates the archive (WAL, schema version checked: a foreign or newer file is an error that
    // names the file). readOnly: for viewers; fails if the file does not exist.
    [[nodiscard]] static Result<EventArchive> open(const std::string& path, bool readOnly = false);
    EventArchive(EventArchive&&) noexcept;
    EventArchive& operator=(EventArchive&&) noexcept;
    ~EventArchive();

    // Appends the events in one transaction (all or none).
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
// detail, text, count, amount, value, limit, limit state, user); fields quoted per RFC 4180.
void writeCsv(std::span<const ArchivedEvent> events, std::ostream& out);

// EventStore: the station's side of the archive. Takes every batch of events from the station's event
// thread; a failure (disk full, file removed, permissions) stops storage and reports it as an
// EventStorage event, never stopping the station; events that arrive meanwhile wait in memory (up to
// kPendingMax, then counted as not stored) and storage is tried again every kRetryNs. Applies the
// retention (days) when opened and once an hour.
class EventStore {
public:
    static constexpr std::size_t kPendingMax = 100'000;
    static constexpr std::int64_t kRetryNs = 30'000'000'000;

    EventStore(std::string path, int retentionDays);
    // Stores a batch (may be empty: time passing drives retries and retention). Returns EventStorage
    // events to report (storage stopped with the reason, storage resumed, events not stored).
    [[nodiscard]] std::vector<Event> store(std::span<const Event> events, std::int64_t nowNs);
    [[nodiscard]] bool healthy() const noexcept;
    [[nodiscard]] std::uint64_t stored() const noexcept;
    [[nodiscard]] std::uint64_t notStored() const noexcept;  // dropped after kPendingMax
    [[nodiscard]] const std::string& path() const noexcept;
    [[nodiscard]] const std::string& lastError() const noexcept;

private:
    std::string m_path;
    int m_retentionDays;
    std::optional<EventArchive> m_archive;
    std::vector<Event> m_pending;
    bool m_healthy = true;
    std::int64_t m_nextTryNs = 0;
    std::int64_t m_nextRetentionNs = 0;
    std::uint64_t m_stored = 0, m_notStored = 0;
    std::string m_lastError;
};

} // namespace telestation::events
