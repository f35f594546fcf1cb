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
// "active unacknowledged", "active acknowledged", "back to normal unacknowledged", "shelved".
[[nodiscard]] std::string_view alarmStateName(AlarmState state) noexcept;
[[nodiscard]] std::string_view alarmSourceName(AlarmSource source) noexcept; // "parameter", "loss", "stale"

struct Alarm {
    std::uint64_t id = 0;            // unique within a station run, never reused
    AlarmSource source = AlarmSource::Parameter;
    std::string stream;
    std::string packetType;          // parameter alarms
    std::string parameter;           // parameter alarms: the qualified name
    // The most severe since raised or since the latest acknowledgement (an acknowledgement resets it to
    // currentSeverity, so that a later rise above what the operator acknowledged alarms again).
    Severity severity = Severity::Warning;
    Severity currentSeverity = Severity::Warning; // the latest violation's
    bool active = true;              // out of normal now
    bool acknowledged = false;
    std::int64_t shelvedUntilNs = 0; // 0: not shelved
    std::int64_t firstNs = 0;        // raised
    std::int64_t lastNs = 0;         // the latest violation (or loss, or stale report)
    double triggerValue = std::nan(""); // the value that raised it (parameter alarms)
    double currentValue = std::nan(""); // the latest value an event carried
    double limit = std::nan("");        // the limit the latest violation crossed (NaN: none, e.g. a state)
    std::string limitState;          // parameter alarms: the latest limit state's name
    std::uint64_t violations = 0;    // transitions out of normal (loss alarms: packets lost or dropped)
    std::string acknowledgedBy, comment; // the latest acknowledgement's or shelving's user and comment
    std::int64_t acknowledgedNs = 0;

    // Shelved while nowNs < shelvedUntilNs, else the underlying state.
    [[nodiscard]] AlarmState state(std::int64_t nowNs) const noexcept;
};

// Counts for the status bar and the headless status line, per latched severity. A shelved alarm counts
// under `shelved` only: shelving takes it out of the operator's attention.
struct AlarmCounts {
    std::array<std::uint32_t, kSeverityCount> unacknowledged{}; // per severity (index = Severity)
    std::array<std::uint32_t, kSeverityCount> active{};         // per severity, acknowledged or not
    std::uint32_t shelved = 0;
    [[nodiscard]] std::uint32_t totalUnacknowledged() const noexcept;
    [[nodiscard]] std::uint32_t totalActive() const noexcept;
};

// Every change is reported as an Event of kind Alarm: severity = the alarm's (latched) severity;
// stream, packetType, parameter, value (the current value), limit and limitState of the alarm;
// detail = the state after the change (alarmStateName) or kAlarmClearedDetail when the change removed
// it from the list; text = a sentence for the operator that carries the user and the comment of an
// operator action (Event has no comment field); number = 0 (the station numbers events).
//
// Choices an operator sees:
// - One alarm per stream and parameter for limits (severity from the event: yellow Warning, red and
//   unexpected states Critical, invalid Error), one per stream for loss (Warning; sequence gaps, queue
//   and kernel drops together, `violations` = packets) and one per stream for staleness (Error).
// - Repeated violations of the same or a lower severity update the alarm silently (no flood); a rise
//   in severity is reported and makes an acknowledged alarm unacknowledged again (re-alarm).
// - While shelved, an alarm keeps updating its fields (an escalation still makes it unacknowledged
//   underneath) but events report nothing about it, except its removal; when the shelf ends it shows
//   its underlying state. An alarm that is both back to normal and acknowledged is removed at once,
//   shelved or not.
// - A storm summary (count > 1) counts `amount` violations; a LimitCleared summary whose amount is
//   not 0 stands for violations that came and went: it raises (or keeps) the alarm back to normal
//   and unacknowledged, so that the operator still sees they happened.
inline constexpr std::string_view kAlarmClearedDetail = "cleared";

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
    // error naming the alarm: one that does not exist (any more), one already acknowledged (so the GUI
    // can say so), one not shelved, a shelf time that is not positive. Acknowledging an alarm that is
    // back to normal removes it from the list. The GUI's "acknowledge selected" calls acknowledge()
    // per alarm.
    [[nodiscard]] Result<Event> acknowledge(std::uint64_t id, std::string_view user, std::string_view comment, std::int64_t nowNs);
    // Every listed unacknowledged alarm, shelved ones included ("all" means all), in alarms() order.
    [[nodiscard]] std::vector<Event> acknowledgeAll(std::string_view user, std::string_view comment, std::int64_t nowNs);
    // Shelves for durationNs from nowNs (any alarm, back to normal included; shelving a shelved alarm
    // sets a new end). The shelf ends by tick() or unshelve().
    [[nodiscard]] Result<Event> shelve(std::uint64_t id, std::int64_t durationNs, std::string_view user,
                                       std::string_view comment, std::int64_t nowNs);
    [[nodiscard]] Result<Event> unshelve(std::uint64_t id, std::string_view user, std::int64_t nowNs);

    // The alarms listed now (active, or back to normal and not yet acknowledged), most severe first,
    // then the newest first.
    [[nodiscard]] std::vector<Alarm> alarms() const;
    [[nodiscard]] AlarmCounts counts(std::int64_t nowNs) const;
    // Changes so far (any alarm raised, changed or removed, a value update included): a cheap check
    // before taking alarms().
    [[nodiscard]] std::uint64_t version() const;

private:
    // Helpers of onEvent and tick; the caller holds m_mutex.
    Alarm* find(AlarmSource source, std::string_view stream, std::string_view parameter);
    Alarm* findId(std::uint64_t id);
    void remove(std::uint64_t id);
    Alarm& raise(AlarmSource source, const Event& event, Severity severity, std::uint64_t violations);
    void violate(AlarmSource source, const Event& event, Severity severity, std::uint64_t violations,
                 std::vector<Event>& out);
    void limitCleared(const Event& event, std::vector<Event>& out);
    void backToNormal(Alarm& alarm, std::int64_t nowNs, std::vector<Event>& out);
    [[nodiscard]] Event acknowledgeLocked(Alarm& alarm, std::string_view user, std::string_view comment,
                                          std::int64_t nowNs);

    mutable std::mutex m_mutex;
    std::vector<Alarm> m_alarms;
    std::uint64_t m_nextId = 1;
    std::uint64_t m_version = 0;
};

} // namespace telestation::events
