// EventStore: the station's side of the event archive. Takes every batch of events from the station's
// event thread; a failure (disk full, file removed, permissions) stops storage and reports it as an
// EventStorage event, never stopping the station; events that arrive meanwhile wait in memory (up to
// kPendingMax, then counted as not stored) and storage is tried again every kRetryNs. Applies the
// retention (days) when opened and once an hour. Time comes from the callers (nowNs), so that tests
// drive retries and retention without waiting. One thread; never throws.
#pragma once

#include "core/events/event.hpp"
#include "core/events/event_archive.hpp"

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

namespace telestation::events {

class EventStore {
public:
    static constexpr std::size_t kPendingMax = 100'000;
    static constexpr std::int64_t kRetryNs = 30'000'000'000;
    static constexpr std::int64_t kRetentionPeriodNs = 3'600'000'000'000; // retention runs once an hour

    // Opens nothing yet: the first store() creates the directory and opens the archive, so that a
    // failure to open is reported like any other. retentionDays <= 0: keep events forever.
    EventStore(std::string path, int retentionDays);

    // Stores a batch (may be empty: time passing drives retries and retention). Returns EventStorage
    // events to report (storage stopped with the reason, storage resumed, events not stored): one when
    // storage stops, one when the pending events overflow, one when it resumes.
    [[nodiscard]] std::vector<Event> store(std::span<const Event> events, std::int64_t nowNs);
    [[nodiscard]] bool healthy() const noexcept;
    [[nodiscard]] std::uint64_t stored() const noexcept;
    [[nodiscard]] std::uint64_t notStored() const noexcept;  // dropped after kPendingMax
    [[nodiscard]] std::size_t pending() const noexcept;      // waiting in memory for the archive
    [[nodiscard]] const std::string& path() const noexcept;
    [[nodiscard]] const std::string& lastError() const noexcept; // the latest failure, kept after a resume

private:
    Status openArchive(std::int64_t nowNs, std::vector<Event>& reports);
    void applyRetention(std::int64_t nowNs, std::vector<Event>& reports);
    void keep(std::span<const Event> events, std::int64_t nowNs, std::vector<Event>& reports);
    void stop(const Error& error, std::int64_t nowNs, std::vector<Event>& reports);
    void retry(std::int64_t nowNs, std::vector<Event>& reports);
    [[nodiscard]] Event report(Severity severity, std::string text, std::int64_t nowNs) const;

    std::string m_path;
    int m_retentionDays;
    std::optional<EventArchive> m_archive;
    std::vector<Event> m_pending;
    bool m_healthy = true;
    bool m_overflowReported = false;      // the "not stored" report of this outage was made
    std::int64_t m_nextTryNs = 0;
    std::int64_t m_nextRetentionNs = 0;
    std::uint64_t m_stored = 0, m_notStored = 0;
    std::uint64_t m_notStoredAtStop = 0;  // m_notStored when this outage began
    std::string m_lastError;
};

} // namespace telestation::events
