// The station's writer of the event archive. Storage failing must never stop the station: every
// failure becomes one event the operator sees, events wait in memory, and storage is tried again.
#include "core/events/event_store.hpp"

#include <algorithm>
#include <filesystem>
#include <limits>
#include <system_error>
#include <utility>

namespace telestation::events {
namespace {

namespace fs = std::filesystem;

constexpr std::int64_t kNsPerDay = 86'400'000'000'000;

// nowNs comes from callers: sums saturate rather than wrap, whatever a test or a clock hands in.
std::int64_t addSaturating(std::int64_t a, std::int64_t b)
{
    if (b > 0 && a > std::numeric_limits<std::int64_t>::max() - b)
        return std::numeric_limits<std::int64_t>::max();
    if (b < 0 && a < std::numeric_limits<std::int64_t>::min() - b)
        return std::numeric_limits<std::int64_t>::min();
    return a + b;
}

} // namespace

EventStore::EventStore(std::string path, int retentionDays)
    : m_path(std::move(path))
    , m_retentionDays(retentionDays)
{ }

std::vector<Event> EventStore::store(std::span<const Event> events, std::int64_t nowNs)
{
    std::vector<Event> reports;
    try {
        if (m_healthy && !m_archive) { // the first call
            if (auto st = openArchive(nowNs, reports); !st)
                stop(st.error(), nowNs, reports);
        }
        if (m_healthy) {
            if (auto st = m_archive->append(events); !st) {
                stop(st.error(), nowNs, reports);
            } else {
                m_stored += events.size();
                if (nowNs >= m_nextRetentionNs)
                    applyRetention(nowNs, reports);
                return reports;
            }
        }
        keep(events, nowNs, reports);
        if (nowNs >= m_nextTryNs)
            retry(nowNs, reports);
    } catch (...) {
        // Only memory exhaustion gets here (every failure of the archive is a Status). The station goes
        // on: storage stops as after any failure, and the reports made so far still go out.
        const bool wasHealthy = m_healthy;
        m_healthy = false;
        m_archive.reset();
        m_nextTryNs = addSaturating(nowNs, kRetryNs);
        try {
            m_lastError = "out of memory";
            if (wasHealthy)
                reports.push_back(report(Severity::Error, "event storage stopped: out of memory", nowNs));
        } catch (...) {
        }
    }
    return reports;
}

Status EventStore::openArchive(std::int64_t nowNs, std::vector<Event>& reports)
{
    const fs::path parent = fs::path(m_path).parent_path();
    if (!parent.empty()) {
        std::error_code ec;
        fs::create_directories(parent, ec);
        if (ec)
            return Error{"cannot create the directory " + parent.string() + ": " + ec.message(), {m_path, 0, 0}};
    }
    auto archive = EventArchive::open(m_path);
    if (!archive)
        return archive.error();
    m_archive.emplace(std::move(*archive));
    // Due at the first open; after an outage the hourly schedule goes on, so that a retention that
    // fails (a disk still too full to delete) warns once an hour, not at every retry.
    if (nowNs >= m_nextRetentionNs)
        applyRetention(nowNs, reports);
    return {};
}

void EventStore::applyRetention(std::int64_t nowNs, std::vector<Event>& reports)
{
    m_nextRetentionNs = addSaturating(nowNs, kRetentionPeriodNs);
    if (m_retentionDays <= 0 || !m_archive)
        return;
    const std::int64_t keepNs = m_retentionDays > std::numeric_limits<std::int64_t>::max() / kNsPerDay
                                    ? std::numeric_limits<std::int64_t>::max()
                                    : m_retentionDays * kNsPerDay;
    auto deleted = m_archive->deleteOlderThan(addSaturating(nowNs, -keepNs));
    // Storing goes on: an archive that keeps more than it should is not worth stopping for. The next
    // hour tries again (and says so again).
    if (!deleted)
        reports.push_back(report(Severity::Warning,
                                 "event retention: cannot delete events older than " + std::to_string(m_retentionDays)
                                     + " days: " + deleted.error().toString() + "; tried again in an hour",
                                 nowNs));
}

void EventStore::keep(std::span<const Event> events, std::int64_t nowNs, std::vector<Event>& reports)
{
    const std::size_t room = kPendingMax - std::min(kPendingMax, m_pending.size());
    const std::size_t taken = std::min(room, events.size());
    m_pending.insert(m_pending.end(), events.begin(), events.begin() + static_cast<std::ptrdiff_t>(taken));
    const std::size_t dropped = events.size() - taken;
    if (dropped == 0)
        return;
    m_notStored += dropped;
    if (m_overflowReported)
        return;
    m_overflowReported = true;
    reports.push_back(report(Severity::Error,
                             "event storage: " + std::to_string(kPendingMax)
                                 + " events wait in memory for the archive, the most that are kept; events from now on"
                                   " are lost until storage resumes",
                             nowNs));
}

void EventStore::stop(const Error& error, std::int64_t nowNs, std::vector<Event>& reports)
{
    m_healthy = false;
    m_archive.reset();
    m_lastError = error.toString();
    m_nextTryNs = addSaturating(nowNs, kRetryNs);
    m_overflowReported = false;
    m_notStoredAtStop = m_notStored;
    reports.push_back(report(Severity::Error,
                             "event storage stopped: " + m_lastError + ". New events wait in memory (up to "
                                 + std::to_string(kPendingMax) + ") and storing is tried again every "
                                 + std::to_string(kRetryNs / 1'000'000'000) + " s",
                             nowNs));
}

// Opens the archive again (the file may be new, or back) and writes what waited, in the order it came.
// Failing again says nothing more: the operator has been told, and lastError() has the latest reason.
void EventStore::retry(std::int64_t nowNs, std::vector<Event>& reports)
{
    m_nextTryNs = addSaturating(nowNs, kRetryNs);
    m_archive.reset();
    if (auto st = openArchive(nowNs, reports); !st) {
        m_lastError = st.error().toString();
        return;
    }
    if (auto st = m_archive->append(m_pending); !st) {
        m_lastError = st.error().toString();
        m_archive.reset();
        return;
    }
    const std::size_t written = m_pending.size();
    m_stored += written;
    m_pending.clear();
    m_pending.shrink_to_fit(); // an outage may have held a lot
    m_healthy = true;
    std::string text = "event storage resumed: " + std::to_string(written) + " events written that had waited";
    if (const std::uint64_t lost = m_notStored - m_notStoredAtStop; lost > 0)
        text += "; " + std::to_string(lost) + " events were not stored (more than " + std::to_string(kPendingMax)
                + " waited)";
    reports.push_back(report(Severity::Info, std::move(text), nowNs));
}

Event EventStore::report(Severity severity, std::string text, std::int64_t nowNs) const
{
    Event e;
    e.timeNs = nowNs;
    e.severity = severity;
    e.kind = EventKind::EventStorage;
    e.detail = m_path;
    e.text = std::move(text);
    return e;
}

bool EventStore::healthy() const noexcept { return m_healthy; }
std::uint64_t EventStore::stored() const noexcept { return m_stored; }
std::uint64_t EventStore::notStored() const noexcept { return m_notStored; }
std::size_t EventStore::pending() const noexcept { return m_pending.size(); }
const std::string& EventStore::path() const noexcept { return m_path; }
const std::string& EventStore::lastError() const noexcept { return m_lastError; }

} // namespace telestation::events
