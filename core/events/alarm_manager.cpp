// AlarmManager: events in, alarms and Alarm events out (see alarm.hpp for the choices an operator
// sees). One mutex around everything: the engine's event thread feeds events while the GUI thread
// acknowledges and reads; there are tens of alarms, not millions, so a linear search is enough.
#include "core/events/alarm.hpp"

#include <algorithm>
#include <array>
#include <charconv>
#include <cmath>
#include <numeric>
#include <tuple>

namespace telestation::events {

namespace {

constexpr std::int64_t kSecondNs = 1'000'000'000;
constexpr std::int64_t kMinuteNs = 60 * kSecondNs;
constexpr std::int64_t kHourNs = 60 * kMinuteNs;

constexpr std::array<std::string_view, 4> kStateNames{
    "active unacknowledged", "active acknowledged", "back to normal unacknowledged", "shelved"};
constexpr std::array<std::string_view, 3> kSourceNames{"parameter", "loss", "stale"};

// Locale-independent on purpose: Qt sets the process's locale, and "97,3" is not what an archive
// search or a test expects.
std::string number(double value)
{
    if (std::isnan(value))
        return "not a number";
    std::array<char, 32> buf{};
    const auto [end, ec] = std::to_chars(buf.data(), buf.data() + buf.size(), value, std::chars_format::general, 6);
    return ec == std::errc{} ? std::string(buf.data(), end) : std::string("?");
}

// "red high" → "RED HIGH"; ASCII only, whatever the locale.
std::string upper(std::string_view s)
{
    std::string out(s);
    std::ranges::transform(out, out.begin(), [](char c) { return c >= 'a' && c <= 'z' ? char(c - 'a' + 'A') : c; });
    return out;
}

// "15 min", "1 h", "90 s": the shelf times the GUI offers read as the operator chose them.
std::string duration(std::int64_t ns)
{
    if (ns % kHourNs == 0)
        return std::to_string(ns / kHourNs) + " h";
    if (ns % kMinuteNs == 0)
        return std::to_string(ns / kMinuteNs) + " min";
    return number(static_cast<double>(ns) / kSecondNs) + " s";
}

// What the alarm is about, as the first words of every sentence about it.
std::string subject(const Alarm& a)
{
    switch (a.source) {
    case AlarmSource::Parameter: return a.parameter + " alarm";
    case AlarmSource::StreamLoss: return "stream " + a.stream + " loss alarm";
    case AlarmSource::StreamStale: return "stream " + a.stream + " stale alarm";
    }
    return "alarm";
}

// What is wrong: "RED HIGH, value 97.3 (limit 95)", "12 packets lost or dropped", "no packets".
std::string condition(const Alarm& a)
{
    switch (a.source) {
    case AlarmSource::Parameter: {
        std::string out = upper(a.limitState) + ", value " + number(a.currentValue);
        if (!std::isnan(a.limit))
            out += " (limit " + number(a.limit) + ")";
        return out;
    }
    case AlarmSource::StreamLoss: return std::to_string(a.violations) + " packets lost or dropped";
    case AlarmSource::StreamStale: return "no packets";
    }
    return {};
}

// "... by alice: 'known, payload warming up'": Event has no comment field, so the text carries it.
std::string byWhom(std::string_view user, std::string_view comment)
{
    std::string out;
    if (!user.empty())
        out += " by " + std::string(user);
    if (!comment.empty())
        out += ": '" + std::string(comment) + "'";
    return out;
}

Event alarmEvent(const Alarm& a, std::int64_t timeNs, std::string_view detail, std::string text,
                 std::string_view user = {})
{
    return Event{.timeNs = timeNs, .severity = a.severity, .kind = EventKind::Alarm, .stream = a.stream,
                 .packetType = a.packetType, .parameter = a.parameter, .detail = std::string(detail),
                 .text = std::move(text), .value = a.currentValue, .limit = a.limit,
                 .limitState = a.limitState, .user = std::string(user)};
}

// The event for a change that leaves the alarm listed: detail = the state it shows now.
Event stateEvent(const Alarm& a, std::int64_t timeNs, std::string text, std::string_view user = {})
{
    return alarmEvent(a, timeNs, alarmStateName(a.state(timeNs)), std::move(text), user);
}

Error noAlarm(std::uint64_t id)
{
    return Error{"no alarm " + std::to_string(id) + " (it may have been cleared already)", {}};
}

// The list's order: most severe (latched) first, then the newest, then the latest raised.
bool listedBefore(const Alarm& a, const Alarm& b)
{
    return std::tuple(a.severity, a.lastNs, a.id) > std::tuple(b.severity, b.lastNs, b.id);
}

} // namespace

std::string_view alarmStateName(AlarmState state) noexcept
{
    const auto i = static_cast<std::size_t>(state);
    return i < kStateNames.size() ? kStateNames[i] : "?";
}

std::string_view alarmSourceName(AlarmSource source) noexcept
{
    const auto i = static_cast<std::size_t>(source);
    return i < kSourceNames.size() ? kSourceNames[i] : "?";
}

AlarmState Alarm::state(std::int64_t nowNs) const noexcept
{
    if (shelvedUntilNs != 0 && nowNs < shelvedUntilNs)
        return AlarmState::Shelved;
    if (!active)
        return AlarmState::ClearedUnacknowledged; // a listed alarm back to normal is unacknowledged
    return acknowledged ? AlarmState::ActiveAcknowledged : AlarmState::ActiveUnacknowledged;
}

std::uint32_t AlarmCounts::totalUnacknowledged() const noexcept
{
    return std::accumulate(unacknowledged.begin(), unacknowledged.end(), std::uint32_t{0});
}

std::uint32_t AlarmCounts::totalActive() const noexcept
{
    return std::accumulate(active.begin(), active.end(), std::uint32_t{0});
}

std::vector<Event> AlarmManager::onEvent(const Event& event)
{
    std::vector<Event> out;
    std::lock_guard lock(m_mutex);
    switch (event.kind) {
    case EventKind::LimitViolation:
        // A single event that forgot its amount still stands for one violation.
        violate(AlarmSource::Parameter, event, event.severity, std::max<std::uint64_t>(event.amount, 1), out);
        break;
    case EventKind::LimitCleared: limitCleared(event, out); break;
    case EventKind::SequenceGap:
    case EventKind::QueueDrop:
    case EventKind::KernelDrop: violate(AlarmSource::StreamLoss, event, Severity::Warning, event.amount, out); break;
    case EventKind::StreamStale:
        violate(AlarmSource::StreamStale, event, Severity::Error, std::max<std::uint64_t>(event.count, 1), out);
        break;
    case EventKind::StreamResumed:
        if (Alarm* a = find(AlarmSource::StreamStale, event.stream, {}))
            backToNormal(*a, event.timeNs, out);
        break;
    default: break; // Alarm (our own output) and the kinds that raise no alarm
    }
    return out;
}

std::vector<Event> AlarmManager::tick(std::int64_t nowNs)
{
    std::vector<Event> out;
    std::lock_guard lock(m_mutex);
    for (Alarm& a : m_alarms) {
        if (a.shelvedUntilNs == 0 || nowNs < a.shelvedUntilNs)
            continue;
        a.shelvedUntilNs = 0;
        ++m_version;
        out.push_back(stateEvent(a, nowNs, subject(a) + " unshelved (shelf time ended)"));
    }
    // Ids first: backToNormal may remove the alarm from the vector being walked.
    std::vector<std::uint64_t> quiet;
    for (const Alarm& a : m_alarms)
        if (a.source == AlarmSource::StreamLoss && a.active && nowNs - a.lastNs >= kLossQuietNs)
            quiet.push_back(a.id);
    for (const std::uint64_t id : quiet)
        backToNormal(*findId(id), nowNs, out);
    return out;
}

Result<Event> AlarmManager::acknowledge(std::uint64_t id, std::string_view user, std::string_view comment,
                                        std::int64_t nowNs)
{
    std::lock_guard lock(m_mutex);
    Alarm* a = findId(id);
    if (a == nullptr)
        return noAlarm(id);
    if (a->acknowledged)
        return Error{subject(*a) + " (" + std::to_string(id) + ") is already acknowledged", {}};
    return acknowledgeLocked(*a, user, comment, nowNs);
}

std::vector<Event> AlarmManager::acknowledgeAll(std::string_view user, std::string_view comment, std::int64_t nowNs)
{
    std::vector<Event> out;
    std::lock_guard lock(m_mutex);
    // A sorted copy, walked by id: acknowledging an alarm back to normal removes it from m_alarms.
    std::vector<Alarm> order = m_alarms;
    std::sort(order.begin(), order.end(), listedBefore);
    for (const Alarm& a : order)
        if (!a.acknowledged)
            out.push_back(acknowledgeLocked(*findId(a.id), user, comment, nowNs));
    return out;
}

Result<Event> AlarmManager::shelve(std::uint64_t id, std::int64_t durationNs, std::string_view user,
                                   std::string_view comment, std::int64_t nowNs)
{
    std::lock_guard lock(m_mutex);
    Alarm* a = findId(id);
    if (a == nullptr)
        return noAlarm(id);
    if (durationNs <= 0)
        return Error{"cannot shelve " + subject(*a) + " for " + std::to_string(durationNs)
                         + " ns: the shelf time must be positive", {}};
    a->shelvedUntilNs = nowNs + durationNs;
    a->acknowledgedBy = user;
    a->comment = comment;
    ++m_version;
    return stateEvent(*a, nowNs, subject(*a) + " shelved for " + duration(durationNs) + byWhom(user, comment), user);
}

Result<Event> AlarmManager::unshelve(std::uint64_t id, std::string_view user, std::int64_t nowNs)
{
    std::lock_guard lock(m_mutex);
    Alarm* a = findId(id);
    if (a == nullptr)
        return noAlarm(id);
    if (a->state(nowNs) != AlarmState::Shelved)
        return Error{subject(*a) + " (" + std::to_string(id) + ") is not shelved", {}};
    a->shelvedUntilNs = 0;
    ++m_version;
    return stateEvent(*a, nowNs, subject(*a) + " unshelved" + byWhom(user, {}), user);
}

std::vector<Alarm> AlarmManager::alarms() const
{
    std::lock_guard lock(m_mutex);
    std::vector<Alarm> out = m_alarms;
    std::sort(out.begin(), out.end(), listedBefore);
    return out;
}

AlarmCounts AlarmManager::counts(std::int64_t nowNs) const
{
    AlarmCounts counts;
    std::lock_guard lock(m_mutex);
    for (const Alarm& a : m_alarms) {
        if (a.state(nowNs) == AlarmState::Shelved) {
            ++counts.shelved;
            continue;
        }
        const auto i = static_cast<std::size_t>(a.severity);
        if (a.active)
            ++counts.active[i];
        if (!a.acknowledged)
            ++counts.unacknowledged[i];
    }
    return counts;
}

std::uint64_t AlarmManager::version() const
{
    std::lock_guard lock(m_mutex);
    return m_version;
}

// ---- helpers; the caller holds m_mutex ----

Alarm* AlarmManager::find(AlarmSource source, std::string_view stream, std::string_view parameter)
{
    const auto it = std::find_if(m_alarms.begin(), m_alarms.end(), [&](const Alarm& a) {
        return a.source == source && a.stream == stream && a.parameter == parameter;
    });
    return it == m_alarms.end() ? nullptr : &*it;
}

Alarm* AlarmManager::findId(std::uint64_t id)
{
    const auto it = std::find_if(m_alarms.begin(), m_alarms.end(), [id](const Alarm& a) { return a.id == id; });
    return it == m_alarms.end() ? nullptr : &*it;
}

void AlarmManager::remove(std::uint64_t id)
{
    std::erase_if(m_alarms, [id](const Alarm& a) { return a.id == id; });
    ++m_version;
}

// A violation (or loss, or stale report) of `source`: raises the alarm, or updates the listed one and
// reports what the operator must see: active again, or a rise in severity.
void AlarmManager::violate(AlarmSource source, const Event& event, Severity severity, std::uint64_t violations,
                           std::vector<Event>& out)
{
    const bool isParameter = source == AlarmSource::Parameter;
    Alarm* a = find(source, event.stream, isParameter ? std::string_view(event.parameter) : std::string_view());
    if (a == nullptr) {
        Alarm& raised = raise(source, event, severity, violations);
        out.push_back(stateEvent(raised, event.timeNs, subject(raised) + " raised: " + condition(raised)));
        return;
    }
    const bool silent = a->state(event.timeNs) == AlarmState::Shelved;
    const bool wasActive = a->active;
    const bool rose = severity > a->severity;
    a->active = true;
    a->lastNs = event.timeNs;
    a->currentSeverity = severity;
    a->violations += violations;
    if (isParameter) {
        a->currentValue = event.value;
        a->limit = event.limit;
        a->limitState = event.limitState;
    }
    if (rose) { // ISA-18.2 re-alarm: more severe than what the operator acknowledged
        a->severity = severity;
        a->acknowledged = false;
    }
    ++m_version;
    if (silent || (wasActive && !rose))
        return; // repeated violations are not reported: they would flood the log
    const std::string what = wasActive ? " severity raised to " + std::string(severityName(severity)) : " active again";
    out.push_back(stateEvent(*a, event.timeNs, subject(*a) + what + ": " + condition(*a)));
}

Alarm& AlarmManager::raise(AlarmSource source, const Event& event, Severity severity, std::uint64_t violations)
{
    Alarm a;
    a.id = m_nextId++;
    a.source = source;
    a.stream = event.stream;
    if (source == AlarmSource::Parameter) {
        a.packetType = event.packetType;
        a.parameter = event.parameter;
        a.triggerValue = a.currentValue = event.value;
        a.limit = event.limit;
        a.limitState = event.limitState;
    }
    a.severity = a.currentSeverity = severity;
    a.firstNs = a.lastNs = event.timeNs;
    a.violations = violations;
    ++m_version;
    return m_alarms.emplace_back(std::move(a));
}

// A parameter back to normal. A summary whose amount is not 0 also stands for violations that came
// and went in it: they are counted (raising the alarm if none is listed) before the return to normal.
void AlarmManager::limitCleared(const Event& event, std::vector<Event>& out)
{
    Alarm* a = find(AlarmSource::Parameter, event.stream, event.parameter);
    if (a == nullptr && event.amount == 0)
        return;
    if (a == nullptr) {
        a = &raise(AlarmSource::Parameter, event, std::max(event.severity, Severity::Warning), event.amount);
        a->active = false;
        out.push_back(stateEvent(*a, event.timeNs, subject(*a) + " raised and back to normal, unacknowledged: "
                                     + std::to_string(event.amount) + " violations in a storm"));
        return;
    }
    a->violations += event.amount;
    a->lastNs = event.timeNs;
    a->currentValue = event.value;
    a->limitState = event.limitState;
    ++m_version;
    backToNormal(*a, event.timeNs, out);
}

// Back to normal: an acknowledged alarm is over and leaves the list; an unacknowledged one stays until
// the operator acknowledges it.
void AlarmManager::backToNormal(Alarm& alarm, std::int64_t nowNs, std::vector<Event>& out)
{
    if (!alarm.active)
        return;
    alarm.active = false;
    ++m_version;
    if (alarm.acknowledged) {
        const std::string text = subject(alarm) + " cleared: back to normal and acknowledged";
        out.push_back(alarmEvent(alarm, nowNs, kAlarmClearedDetail, text));
        remove(alarm.id);
        return;
    }
    if (alarm.state(nowNs) == AlarmState::Shelved)
        return;
    out.push_back(stateEvent(alarm, nowNs, subject(alarm) + " back to normal, unacknowledged"));
}

Event AlarmManager::acknowledgeLocked(Alarm& alarm, std::string_view user, std::string_view comment,
                                      std::int64_t nowNs)
{
    alarm.acknowledged = true;
    alarm.acknowledgedBy = user;
    alarm.comment = comment;
    alarm.acknowledgedNs = nowNs;
    ++m_version;
    if (!alarm.active) { // back to normal and now acknowledged: over
        Event e = alarmEvent(alarm, nowNs, kAlarmClearedDetail,
                             subject(alarm) + " acknowledged and cleared" + byWhom(user, comment), user);
        remove(alarm.id);
        return e;
    }
    // The event keeps the severity acknowledged; the latch restarts from what the operator has now
    // seen, so that a later rise alarms again.
    Event e = stateEvent(alarm, nowNs, subject(alarm) + " acknowledged" + byWhom(user, comment), user);
    alarm.severity = alarm.currentSeverity;
    return e;
}

} // namespace telestation::events
