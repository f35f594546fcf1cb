// Event: one thing an operator should know happened — a sequence gap, a queue above its warning
// threshold, a stream gone quiet, a parameter into red, a recording segment rolled over, an alarm
// acknowledged. What the event log shows, the archive stores, `--events-out` writes and the alarms
// are made from. Plain data; any thread.
#pragma once

#include <cmath>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace telestation::events {

// Ordered: a higher value is more severe. Limits: yellow → Warning, red and unexpected states →
// Critical, a value that is not a number → Error.
enum class Severity : std::uint8_t { Info, Warning, Error, Critical };
inline constexpr int kSeverityCount = 4;

// What happened. The names (eventKindName) are the archive's, the JSON lines' and the filters' words.
enum class EventKind : std::uint8_t {
    Station,          // the station started, stopped, a setting changed
    Stream,           // a stream started, stopped, connected, disconnected, failed to open
    SequenceGap,      // amount = packets lost
    Duplicate,        // amount = duplicate packets
    OutOfOrder,       // a late arrival (amount = packets)
    SequenceReset,    // a count far behind the newest: the sender restarted its counter
    Malformed,        // a packet dropped as malformed; detail = the reason
    FramingError,     // TCP: an implausible header where a packet should start (amount = errors)
    KernelDrop,       // UDP: datagrams the kernel dropped (amount)
    QueueWarning,     // a queue's depth crossed its warning threshold (detail = queue name)
    QueueWarningCleared, // ... and fell back below it
    QueueDrop,        // packets dropped because a queue was full (amount, detail = queue name)
    StreamStale,      // no packet for the stream's stale time
    StreamResumed,    // packets again after a stale period
    LimitViolation,   // a parameter into yellow or red, an unexpected state, an invalid value
    LimitCleared,     // a parameter back within its limits
    LimitEdited,      // an operator changed or disabled a parameter's limits (audit trail)
    Recording,        // a segment rolled over, recording started or resumed
    RecordingError,   // recording stopped by a failure (disk full, write error)
    Playback,         // a playback started or finished
    Forward,          // a forward destination went down or came back
    Alarm,            // an alarm changed state: raised, acknowledged, shelved, unshelved, cleared
    EventStorage,     // the event archive failed or came back
};
inline constexpr int kEventKindCount = static_cast<int>(EventKind::EventStorage) + 1;

[[nodiscard]] std::string_view severityName(Severity severity) noexcept;    // "info", "warning", "error", "critical"
[[nodiscard]] std::string_view eventKindName(EventKind kind) noexcept;      // "sequenceGap", ...
[[nodiscard]] std::optional<Severity> parseSeverity(std::string_view name) noexcept;
[[nodiscard]] std::optional<EventKind> parseEventKind(std::string_view name) noexcept;

struct Event {
    std::uint64_t number = 0;   // 1, 2, ... in the order the station reported them (per station run)
    std::int64_t timeNs = 0;    // when it happened (realtime clock, ns since the Unix epoch)
    Severity severity = Severity::Info;
    EventKind kind = EventKind::Station;
    std::string stream;         // "" for the station as a whole; "a, b" for a forward destination several streams share
    std::string packetType;     // the packet type's name where one applies, else ""
    std::string parameter;      // the parameter's qualified name for limits and alarms, else ""
    std::string detail;         // what tells sources of one kind apart: "APID 7", a queue's name, a reason
    std::string text;           // what the operator reads: a whole sentence, numbers with units
    // How many events of its kind and source this line stands for: 1, or more for a summary that
    // merged a storm ("APID 7: 412 gaps, 9,870 packets lost in the last second").
    std::uint64_t count = 1;
    // The kind's quantity summed over `count`: packets lost, dropped, duplicated; 0 when none applies.
    std::uint64_t amount = 0;
    // Limits: the value that made the transition and the limit it crossed (NaN when none applies).
    double value = std::nan("");
    double limit = std::nan("");
    std::string limitState;     // limits: the new state's name (decode::limitStateName), else ""
    std::string user;           // who: the local user for operator actions, else ""
};

// Field by field; two NaNs in the same field count as equal (round trips through the archive).
[[nodiscard]] bool operator==(const Event& a, const Event& b) noexcept;

// Who is at the keyboard, for operator actions: the local user's login name (uid N when it has none).
[[nodiscard]] std::string localUserName();

// The event as one JSON object on one line (no newline): every field by name, NaNs left out. Used by
// `--events-out`, the archive's CSV export and the tests.
[[nodiscard]] std::string toJsonLine(const Event& event);

} // namespace telestation::events
