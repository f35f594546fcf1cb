// Alarms in the spirit of ISA-18.2 (as Yamcs keeps them): one alarm per parameter out of limits and
// per stream for loss and for staleness. An alarm is raised by an event, stays until it is both back
// to normal and acknowledged, and can be shelved (hidden from the operator's attention) for a while.
// AlarmManager turns events into alarms and every alarm change into an event of kind Alarm, so the
// event log, the archive and `--events-out` see alarm history like any other event. Thread-safe.
#pragma once

#include "core/common/result.hpp"
#include "core/events/event.hpp"

#include <array>
#include <cstdint>
#include <mutex>
#include <string>
#include <string_view>
#include <vector>

namespace telestation::events {

enum class AlarmSource : std::uint8_t { Parameter, StreamLoss, StreamStale };

// The operator's view of an alarm. Shelved hides the others for a while; when the shelf time ends the
// alarm shows its underlying state again.
enum class AlarmState : std::uint8_t {
    ActiveUnacknowledged, // out of normal, nobody has acknowledged it
    ActiveAcknowledged,   // out of normal, acknowledged
    ClearedUnacknowledged,// back to normal, but nobody acknowledged it yet (it stays listed)
    Shelved,
};
[[nodiscard]] std::string_view alarmStateName(AlarmState state) noexcept; // "active unacknowledged", ...
[[nodiscard]] std::string_view alarmSourceName(AlarmSource source) noexcept; // "parameter", "loss", "stale"

struct Alarm {
    std::uint64_t id = 0;            // unique within a station run, never reused
    AlarmSource source = AlarmSource::Parameter;
    std::string stream;
    std::string packetType;          // parameter alarms
    std::string parameter;           // parameter alarms: the qualified name
    Severity severity = Severity::Warning;        // the most severe since raised (latched until acknowledged)
    Severity currentSeverity = Severity::Warning; // now (while active)
    bool active = true;              // out of normal now
    bool acknowledged = false;
    std::int64_t shelvedUntilNs = 0; // 0: not shelved
    std::int64_t firstNs = 0;        // raised
    std::int64_t lastNs = 0;         // the latest violation (or loss, or stale report)
    double triggerValue = std::nan(""); // the value that raised it (parameter alarms)
    double currentValue = std::nan(""); // the latest value an event carried
    std::string limitState;          // parameter alarms: the latest limit state's name
    std::uint64_t violations = 0;    // transitions out of normal (loss alarms: packets lost or dropped)
    std::string acknowledgedBy, comment; // the latest acknowledgement's or shelving's user and comment
    std::int64_t acknowledgedNs = 0;

    [[nodiscard]] AlarmState state(std::int64_t nowNs) const noexcept;
};

// Counts for the status bar and the headless status line.
struct AlarmCounts {
    std::array<std::uint32_t, kSeverityCount> unacknowledged{}; // per severity (index = Severity)
    std::array<std::uint32_t, kSeverityCount> active{};         // per severity, acknowledged or not
    std::uint32_t shelved = 0;
    [[nodiscard]] std::uint32_t totalUnacknowledged() const noexcept;
    [[nodiscard]] std::uint32_t totalActive() const noexcept;
};

class AlarmManager {
public:
    // A loss alarm returns to normal after this long without a further loss event.
    static constexpr std::int64_t kLossQuietNs = 10'000'000'000;

    // Feeds one event (any kind; those that concern alarms: LimitViolation, LimitCleared,
    // SequenceGap, QueueDrop, KernelDrop, StreamStale, StreamResumed). Returns the Alarm events to report
    // (raised, severity raised, back to normal). Events of kind Alarm are ignored.
    [[nodiscard]] std::vector<Event> onEvent(const Event& event);
    // Time passing: shelves that expire, loss alarms that have been quiet for kLossQuietNs.
    [[nodiscard]] std::vector<Event> tick(std::int64_t nowNs);

    // Operator actions; each returns the Alarm event to report (with `user` and `comment`), or an
    // error naming the alarm that does not exist. Acknowledging an alarm that is back to normal
    // removes it from the list.
    [[nodiscard]] Result<Event> acknowledge(std::uint64_t id, std::string_view user, std::string_view comment, std::int64_t nowNs);
    [[nodiscard]] std::vector<Event> acknowledgeAll(std::string_view user, std::string_view comment, std::int64_t nowNs);
    [[nodiscard]] Result<Event> shelve(std::uint64_t id, std::int64_t durationNs, std::string_view user,
                                       std::string_view comment, std::int64_t nowNs);
    [[nodiscard]] Result<Event> unshelve(std::uint64_t id, std::string_view user, std::int64_t nowNs);

    // The alarms listed now (active, or back to normal and not yet acknowledged), most severe first,
    // then the newest first.
    [[nodiscard]] std::vector<Alarm> alarms() const;
    [[nodiscard]] AlarmCounts counts(std::int64_t nowNs) const;
    // Changes so far (any alarm raised, changed or removed): a cheap check before taking alarms().
    [[nodiscard]] std::uint64_t version() const;

private:
    mutable std::mutex m_mutex;
    std::vector<Alarm> m_alarms;
    std::uint64_t m_nextId = 1;
    std::uint64_t m_version = 0;
};

} // namespace telestation::events
