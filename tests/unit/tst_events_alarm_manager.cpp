// AlarmManager: the alarm state machine transition by transition (raise, escalation and re-alarm,
// back to normal, acknowledgement, reactivation, shelving and its end), the exact Alarm events each
// change reports, operator errors, the list's order, the counts, storm summaries, loss and stale
// alarms, and one run with the event thread and the GUI thread at it together. Every time is an
// argument: no clock, no sleep.
#include "core/events/alarm.hpp"

#include "core/decode/decoded_value.hpp"

#include <QtTest>

#include <atomic>
#include <cstdint>
#include <set>
#include <string>
#include <thread>
#include <vector>

namespace telestation::events {
char* toString(Severity s) { return qstrdup(severityName(s).data()); }
char* toString(AlarmState s) { return qstrdup(alarmStateName(s).data()); }
char* toString(EventKind k) { return qstrdup(eventKindName(k).data()); }
} // namespace telestation::events

using namespace telestation;
using namespace telestation::events;
using decode::LimitState;

namespace {

using U64 = std::uint64_t;

constexpr std::int64_t kT0 = 1'700'000'000'000'000'000;
constexpr std::int64_t kSecond = 1'000'000'000;
constexpr std::int64_t kMinute = 60 * kSecond;
constexpr std::int64_t kHour = 60 * kMinute;
constexpr const char* kCpu = "Packet5.CPU_LOAD";

// The engine's words for limit states, from the decoder itself so the two cannot drift apart.
std::string stateName(LimitState s) { return std::string(decode::limitStateName(s)); }

Severity severityOf(LimitState s)
{
    switch (s) {
    case LimitState::YellowLow:
    case LimitState::YellowHigh: return Severity::Warning;
    case LimitState::Invalid: return Severity::Error;
    default: return Severity::Critical;
    }
}

Event violation(const char* parameter, LimitState state, double value, double limit, std::int64_t timeNs,
                U64 count = 1, U64 amount = 1)
{
    Event e;
    e.timeNs = timeNs;
    e.kind = EventKind::LimitViolation;
    e.severity = severityOf(state);
    e.stream = "tm";
    e.packetType = "Packet5";
    e.parameter = parameter;
    e.limitState = stateName(state);
    e.value = value;
    e.limit = limit;
    e.count = count;
    e.amount = amount;
    return e;
}

Event cleared(const char* parameter, double value, std::int64_t timeNs, U64 count = 1, U64 amount = 0)
{
    Event e;
    e.timeNs = timeNs;
    e.kind = EventKind::LimitCleared;
    e.stream = "tm";
    e.packetType = "Packet5";
    e.parameter = parameter;
    e.limitState = stateName(LimitState::Normal);
    e.value = value;
    e.count = count;
    e.amount = amount;
    return e;
}

Event streamEvent(EventKind kind, const char* stream, U64 amount, std::int64_t timeNs)
{
    Event e;
    e.timeNs = timeNs;
    e.kind = kind;
    e.severity = Severity::Warning;
    e.stream = stream;
    e.amount = amount;
    return e;
}

// The one listed alarm (fails the test when there is not exactly one).
Alarm only(const AlarmManager& m)
{
    const auto list = m.alarms();
    if (list.size() != 1)
        qFatal("expected one listed alarm, found %zu", list.size());
    return list.front();
}

bool contains(const std::string& text, const char* part) { return text.find(part) != std::string::npos; }

} // namespace

class TestEventsAlarmManager : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void names()
    {
        QCOMPARE(alarmStateName(AlarmState::ActiveUnacknowledged), "active unacknowledged");
        QCOMPARE(alarmStateName(AlarmState::ActiveAcknowledged), "active acknowledged");
        QCOMPARE(alarmStateName(AlarmState::ClearedUnacknowledged), "back to normal unacknowledged");
        QCOMPARE(alarmStateName(AlarmState::Shelved), "shelved");
        QCOMPARE(alarmSourceName(AlarmSource::Parameter), "parameter");
        QCOMPARE(alarmSourceName(AlarmSource::StreamLoss), "loss");
        QCOMPARE(alarmSourceName(AlarmSource::StreamStale), "stale");
    }

    // A violation with no listed alarm raises one and reports exactly one event that says so.
    void raiseReportsTheAlarm()
    {
        AlarmManager m;
        const U64 v0 = m.version();
        const auto events = m.onEvent(violation(kCpu, LimitState::RedHigh, 97.3, 95, kT0));
        QCOMPARE(events.size(), 1u);
        const Event& e = events.front();
        QCOMPARE(e.kind, EventKind::Alarm);
        QCOMPARE(e.severity, Severity::Critical);
        QCOMPARE(e.timeNs, kT0);
        QCOMPARE(e.stream, "tm");
        QCOMPARE(e.packetType, "Packet5");
        QCOMPARE(e.parameter, kCpu);
        QCOMPARE(e.detail, "active unacknowledged");
        QCOMPARE(e.text, "Packet5.CPU_LOAD alarm raised: RED HIGH, value 97.3 (limit 95)");
        QCOMPARE(e.value, 97.3);
        QCOMPARE(e.limit, 95.0);
        QCOMPARE(e.limitState, "red high");
        QVERIFY(e.user.empty());
        QVERIFY(m.version() > v0);

        const Alarm a = only(m);
        QCOMPARE(a.id, 1u);
        QCOMPARE(a.source, AlarmSource::Parameter);
        QCOMPARE(a.state(kT0), AlarmState::ActiveUnacknowledged);
        QCOMPARE(a.severity, Severity::Critical);
        QCOMPARE(a.currentSeverity, Severity::Critical);
        QVERIFY(a.active);
        QVERIFY(!a.acknowledged);
        QCOMPARE(a.firstNs, kT0);
        QCOMPARE(a.lastNs, kT0);
        QCOMPARE(a.triggerValue, 97.3);
        QCOMPARE(a.currentValue, 97.3);
        QCOMPARE(a.limit, 95.0);
        QCOMPARE(a.limitState, "red high");
        QCOMPARE(a.violations, 1u);
    }

    // Unexpected states and invalid values read as what they are (no limit, not a number).
    void raiseTextForStatesAndInvalidValues()
    {
        AlarmManager m;
        auto e = m.onEvent(violation("Packet5.MODE", LimitState::Unexpected, 7, std::nan(""), kT0));
        QCOMPARE(e.size(), 1u);
        QCOMPARE(e[0].severity, Severity::Critical);
        QCOMPARE(e[0].text, "Packet5.MODE alarm raised: UNEXPECTED STATE, value 7");
        e = m.onEvent(violation("Packet5.TEMP", LimitState::Invalid, std::nan(""), std::nan(""), kT0));
        QCOMPARE(e.size(), 1u);
        QCOMPARE(e[0].severity, Severity::Error);
        QCOMPARE(e[0].text, "Packet5.TEMP alarm raised: INVALID, value not a number");
    }

    // Repeated violations of the same or a lower severity update the alarm without a report.
    void repeatedViolationsAreSilent()
    {
        AlarmManager m;
        QCOMPARE(m.onEvent(violation(kCpu, LimitState::RedHigh, 97, 95, kT0)).size(), 1u);
        const U64 v1 = m.version();
        QVERIFY(m.onEvent(violation(kCpu, LimitState::RedHigh, 98, 95, kT0 + kSecond)).empty());
        QVERIFY(m.onEvent(violation(kCpu, LimitState::YellowHigh, 91, 90, kT0 + 2 * kSecond)).empty());
        QVERIFY(m.version() > v1); // value updates are visible in alarms()
        const Alarm a = only(m);
        QCOMPARE(a.id, 1u);
        QCOMPARE(a.violations, 3u);
        QCOMPARE(a.firstNs, kT0);
        QCOMPARE(a.lastNs, kT0 + 2 * kSecond);
        QCOMPARE(a.triggerValue, 97.0);
        QCOMPARE(a.currentValue, 91.0);
        QCOMPARE(a.limit, 90.0);
        QCOMPARE(a.limitState, "yellow high");
        QCOMPARE(a.severity, Severity::Critical); // latched
        QCOMPARE(a.currentSeverity, Severity::Warning);
    }

    // Yellow → red is reported; an acknowledged alarm becomes unacknowledged again (ISA-18.2
    // re-alarm). An acknowledgement restarts the latch from the current severity.
    void escalationReAlarmsAnAcknowledgedAlarm()
    {
        AlarmManager m;
        QCOMPARE(m.onEvent(violation(kCpu, LimitState::YellowHigh, 91, 90, kT0)).size(), 1u);
        QVERIFY(m.acknowledge(1, "alice", "", kT0 + kSecond).ok());
        QCOMPARE(only(m).state(kT0 + kSecond), AlarmState::ActiveAcknowledged);

        auto events = m.onEvent(violation(kCpu, LimitState::RedHigh, 97.3, 95, kT0 + 2 * kSecond));
        QCOMPARE(events.size(), 1u);
        QCOMPARE(events[0].kind, EventKind::Alarm);
        QCOMPARE(events[0].severity, Severity::Critical);
        QCOMPARE(events[0].detail, "active unacknowledged");
        QCOMPARE(events[0].text, "Packet5.CPU_LOAD alarm severity raised to critical: RED HIGH, value 97.3 (limit 95)");
        Alarm a = only(m);
        QCOMPARE(a.id, 1u);
        QCOMPARE(a.state(kT0 + 2 * kSecond), AlarmState::ActiveUnacknowledged);
        QCOMPARE(a.severity, Severity::Critical);

        // Back down to yellow: silent, the latch holds red.
        QVERIFY(m.onEvent(violation(kCpu, LimitState::YellowHigh, 92, 90, kT0 + 3 * kSecond)).empty());
        QCOMPARE(only(m).severity, Severity::Critical);
        // Acknowledged while yellow: the event keeps the severity acknowledged, the latch restarts.
        const auto ack = m.acknowledge(1, "alice", "", kT0 + 4 * kSecond);
        QVERIFY(ack.ok());
        QCOMPARE(ack->severity, Severity::Critical);
        QCOMPARE(only(m).severity, Severity::Warning);
        // So red again is news.
        events = m.onEvent(violation(kCpu, LimitState::RedHigh, 99, 95, kT0 + 5 * kSecond));
        QCOMPARE(events.size(), 1u);
        QVERIFY(contains(events[0].text, "severity raised to critical"));
        QCOMPARE(only(m).state(kT0 + 5 * kSecond), AlarmState::ActiveUnacknowledged);
    }

    // Back to normal before anyone acknowledged: listed until acknowledged.
    void backToNormalUnacknowledgedStaysListed()
    {
        AlarmManager m;
        (void)m.onEvent(violation(kCpu, LimitState::RedHigh, 97, 95, kT0));
        const auto events = m.onEvent(cleared(kCpu, 50, kT0 + kSecond));
        QCOMPARE(events.size(), 1u);
        QCOMPARE(events[0].kind, EventKind::Alarm);
        QCOMPARE(events[0].severity, Severity::Critical);
        QCOMPARE(events[0].detail, "back to normal unacknowledged");
        QCOMPARE(events[0].text, "Packet5.CPU_LOAD alarm back to normal, unacknowledged");
        const Alarm a = only(m);
        QVERIFY(!a.active);
        QCOMPARE(a.state(kT0 + kSecond), AlarmState::ClearedUnacknowledged);
        QCOMPARE(a.currentValue, 50.0);
        QCOMPARE(a.limitState, "normal");
        // A second "normal" changes nothing.
        QVERIFY(m.onEvent(cleared(kCpu, 51, kT0 + 2 * kSecond)).empty());
    }

    // Limits disabled ("none") ends the violation as "normal" does.
    void limitsDisabledIsBackToNormal()
    {
        AlarmManager m;
        (void)m.onEvent(violation(kCpu, LimitState::YellowHigh, 91, 90, kT0));
        Event e = cleared(kCpu, 91, kT0 + kSecond);
        e.limitState = stateName(LimitState::None);
        QCOMPARE(m.onEvent(e).size(), 1u);
        QCOMPARE(only(m).state(kT0 + kSecond), AlarmState::ClearedUnacknowledged);
        QCOMPARE(only(m).limitState, "none");
    }

    void acknowledgeAfterBackToNormalRemoves()
    {
        AlarmManager m;
        (void)m.onEvent(violation(kCpu, LimitState::RedHigh, 97, 95, kT0));
        (void)m.onEvent(cleared(kCpu, 50, kT0 + kSecond));
        const auto ack = m.acknowledge(1, "alice", "seen", kT0 + 2 * kSecond);
        QVERIFY(ack.ok());
        QCOMPARE(ack->kind, EventKind::Alarm);
        QCOMPARE(ack->detail, std::string(kAlarmClearedDetail));
        QCOMPARE(ack->user, "alice");
        QCOMPARE(ack->text, "Packet5.CPU_LOAD alarm acknowledged and cleared by alice: 'seen'");
        QVERIFY(m.alarms().empty());
        QCOMPARE(m.counts(kT0 + 2 * kSecond).totalUnacknowledged(), 0u);
    }

    void acknowledgeActiveThenBackToNormalRemoves()
    {
        AlarmManager m;
        (void)m.onEvent(violation(kCpu, LimitState::RedHigh, 97, 95, kT0));
        const auto ack = m.acknowledge(1, "alice", "known, payload warming up", kT0 + kSecond);
        QVERIFY(ack.ok());
        QCOMPARE(ack->detail, "active acknowledged");
        QCOMPARE(ack->user, "alice");
        QCOMPARE(ack->severity, Severity::Critical);
        QCOMPARE(ack->timeNs, kT0 + kSecond);
        QCOMPARE(ack->text, "Packet5.CPU_LOAD alarm acknowledged by alice: 'known, payload warming up'");
        const Alarm a = only(m);
        QCOMPARE(a.state(kT0 + kSecond), AlarmState::ActiveAcknowledged);
        QCOMPARE(a.acknowledgedBy, "alice");
        QCOMPARE(a.comment, "known, payload warming up");
        QCOMPARE(a.acknowledgedNs, kT0 + kSecond);

        const auto events = m.onEvent(cleared(kCpu, 50, kT0 + 2 * kSecond));
        QCOMPARE(events.size(), 1u);
        QCOMPARE(events[0].detail, std::string(kAlarmClearedDetail));
        QCOMPARE(events[0].text, "Packet5.CPU_LOAD alarm cleared: back to normal and acknowledged");
        QVERIFY(m.alarms().empty());
        // The next violation is a new alarm: ids are never reused.
        QCOMPARE(m.onEvent(violation(kCpu, LimitState::RedHigh, 97, 95, kT0 + 3 * kSecond)).size(), 1u);
        QCOMPARE(only(m).id, 2u);
    }

    void violationAfterBackToNormalReactivatesTheSameAlarm()
    {
        AlarmManager m;
        (void)m.onEvent(violation(kCpu, LimitState::YellowHigh, 91, 90, kT0));
        (void)m.onEvent(cleared(kCpu, 50, kT0 + kSecond));
        const auto events = m.onEvent(violation(kCpu, LimitState::YellowHigh, 92, 90, kT0 + 2 * kSecond));
        QCOMPARE(events.size(), 1u);
        QCOMPARE(events[0].detail, "active unacknowledged");
        QCOMPARE(events[0].text, "Packet5.CPU_LOAD alarm active again: YELLOW HIGH, value 92 (limit 90)");
        const Alarm a = only(m);
        QCOMPARE(a.id, 1u);
        QVERIFY(a.active);
        QCOMPARE(a.violations, 2u);
        QCOMPARE(a.firstNs, kT0);
        QCOMPARE(a.lastNs, kT0 + 2 * kSecond);
    }

    // Errors name the alarm, change nothing, and the GUI can tell "already acknowledged" apart.
    void operatorErrors()
    {
        AlarmManager m;
        (void)m.onEvent(violation(kCpu, LimitState::RedHigh, 97, 95, kT0));
        const auto unknown = m.acknowledge(42, "alice", "", kT0);
        QVERIFY(!unknown.ok());
        QVERIFY(contains(unknown.error().message, "42"));
        QVERIFY(!m.shelve(42, kHour, "alice", "", kT0).ok());
        QVERIFY(contains(m.unshelve(42, "alice", kT0).error().message, "42"));

        QVERIFY(m.acknowledge(1, "alice", "", kT0).ok());
        const U64 v = m.version();
        const auto again = m.acknowledge(1, "bob", "", kT0 + kSecond);
        QVERIFY(!again.ok());
        QVERIFY(contains(again.error().message, "already acknowledged"));
        QVERIFY(contains(again.error().message, kCpu));
        const auto notShelved = m.unshelve(1, "bob", kT0);
        QVERIFY(!notShelved.ok());
        QVERIFY(contains(notShelved.error().message, "not shelved"));
        QVERIFY(!m.shelve(1, 0, "bob", "", kT0).ok());
        QCOMPARE(m.version(), v);
        QCOMPARE(only(m).acknowledgedBy, "alice");
    }

    // A shelved alarm updates silently, counts only as shelved, and tick() ends the shelf with its
    // underlying state — unacknowledged again when it rose while shelved.
    void shelveHidesUntilTickEndsTheShelf()
    {
        AlarmManager m;
        (void)m.onEvent(violation(kCpu, LimitState::YellowHigh, 91, 90, kT0));
        QVERIFY(m.acknowledge(1, "alice", "", kT0).ok());
        const auto shelved = m.shelve(1, 15 * kMinute, "bob", "maintenance", kT0 + kSecond);
        QVERIFY(shelved.ok());
        QCOMPARE(shelved->detail, "shelved");
        QCOMPARE(shelved->user, "bob");
        QCOMPARE(shelved->text, "Packet5.CPU_LOAD alarm shelved for 15 min by bob: 'maintenance'");
        const std::int64_t end = kT0 + kSecond + 15 * kMinute;
        QCOMPARE(only(m).shelvedUntilNs, end);
        QCOMPARE(only(m).state(end - 1), AlarmState::Shelved);
        QCOMPARE(only(m).state(end), AlarmState::ActiveAcknowledged);

        QVERIFY(m.onEvent(violation(kCpu, LimitState::RedHigh, 97, 95, kT0 + 2 * kSecond)).empty());
        Alarm a = only(m);
        QCOMPARE(a.severity, Severity::Critical);
        QCOMPARE(a.currentValue, 97.0);
        QCOMPARE(a.violations, 2u);
        const AlarmCounts c = m.counts(kT0 + 3 * kSecond);
        QCOMPARE(c.shelved, 1u);
        QCOMPARE(c.totalUnacknowledged(), 0u);
        QCOMPARE(c.totalActive(), 0u);

        QVERIFY(m.tick(end - 1).empty());
        const auto events = m.tick(end);
        QCOMPARE(events.size(), 1u);
        QCOMPARE(events[0].kind, EventKind::Alarm);
        QCOMPARE(events[0].detail, "active unacknowledged");
        QCOMPARE(events[0].text, "Packet5.CPU_LOAD alarm unshelved (shelf time ended)");
        QCOMPARE(only(m).shelvedUntilNs, 0);
        QCOMPARE(m.counts(end).unacknowledged[static_cast<int>(Severity::Critical)], 1u);
        QVERIFY(m.tick(end + kHour).empty());
    }

    void unshelveByHand()
    {
        AlarmManager m;
        (void)m.onEvent(violation(kCpu, LimitState::RedHigh, 97, 95, kT0));
        QVERIFY(m.shelve(1, 8 * kHour, "bob", "", kT0).ok());
        const auto events = m.unshelve(1, "carol", kT0 + kMinute);
        QVERIFY(events.ok());
        QCOMPARE(events->detail, "active unacknowledged");
        QCOMPARE(events->user, "carol");
        QCOMPARE(events->text, "Packet5.CPU_LOAD alarm unshelved by carol");
        QCOMPARE(only(m).state(kT0 + kMinute), AlarmState::ActiveUnacknowledged);
        QVERIFY(m.tick(kT0 + 9 * kHour).empty()); // nothing left to expire
    }

    // Shelving an alarm back to normal is allowed; going back to normal on the shelf is silent; an
    // alarm both back to normal and acknowledged leaves the list at once, shelved or not.
    void shelvedAlarmsBackToNormal()
    {
        AlarmManager m;
        (void)m.onEvent(violation(kCpu, LimitState::RedHigh, 97, 95, kT0));
        (void)m.onEvent(cleared(kCpu, 50, kT0 + kSecond));
        QVERIFY(m.shelve(1, kHour, "bob", "", kT0 + 2 * kSecond).ok());
        const auto all = m.acknowledgeAll("alice", "", kT0 + 3 * kSecond);
        QCOMPARE(all.size(), 1u);
        QCOMPARE(all[0].detail, std::string(kAlarmClearedDetail));
        QVERIFY(m.alarms().empty());
        QVERIFY(m.tick(kT0 + 2 * kHour).empty());

        // Shelved while active, back to normal on the shelf: silent, seen when the shelf ends.
        (void)m.onEvent(violation("Packet5.TEMP", LimitState::YellowLow, 1, 2, kT0));
        QVERIFY(m.shelve(2, kHour, "bob", "", kT0).ok());
        QVERIFY(m.onEvent(cleared("Packet5.TEMP", 5, kT0 + kSecond)).empty());
        const auto ended = m.tick(kT0 + kHour);
        QCOMPARE(ended.size(), 1u);
        QCOMPARE(ended[0].detail, "back to normal unacknowledged");

        // Acknowledged on the shelf, then back to normal: removed, and the removal is reported.
        (void)m.onEvent(violation("Packet5.VOLT", LimitState::RedLow, 1, 2, kT0));
        QVERIFY(m.shelve(3, kHour, "bob", "", kT0).ok());
        QVERIFY(m.acknowledge(3, "alice", "", kT0 + kSecond).ok());
        const auto removed = m.onEvent(cleared("Packet5.VOLT", 5, kT0 + 2 * kSecond));
        QCOMPARE(removed.size(), 1u);
        QCOMPARE(removed[0].detail, std::string(kAlarmClearedDetail));
        QCOMPARE(m.alarms().size(), 1u); // Packet5.TEMP only
    }

    // acknowledgeAll: every unacknowledged alarm, shelved ones included, in the list's order; the
    // acknowledged one is left alone; each event carries user and comment.
    void acknowledgeAllTakesEveryUnacknowledgedAlarm()
    {
        AlarmManager m;
        (void)m.onEvent(violation("Packet5.A", LimitState::YellowHigh, 1, 0, kT0));          // id 1
        (void)m.onEvent(violation("Packet5.B", LimitState::RedHigh, 1, 0, kT0 + 1));         // id 2
        (void)m.onEvent(violation("Packet5.C", LimitState::RedHigh, 1, 0, kT0 + 2));         // id 3
        (void)m.onEvent(violation("Packet5.D", LimitState::YellowHigh, 1, 0, kT0 + 3));      // id 4
        QVERIFY(m.acknowledge(2, "bob", "", kT0 + 10).ok());
        QVERIFY(m.shelve(3, kHour, "bob", "", kT0 + 10).ok());
        (void)m.onEvent(cleared("Packet5.D", 0, kT0 + 11));
        const auto events = m.acknowledgeAll("alice", "shift handover", kT0 + 20);
        QCOMPARE(events.size(), 3u);
        QCOMPARE(events[0].parameter, "Packet5.C"); // red first
        QCOMPARE(events[1].parameter, "Packet5.D"); // then the newest yellow
        QCOMPARE(events[2].parameter, "Packet5.A");
        for (const Event& e : events) {
            QCOMPARE(e.kind, EventKind::Alarm);
            QCOMPARE(e.user, "alice");
            QVERIFY(contains(e.text, "by alice: 'shift handover'"));
        }
        QCOMPARE(events[1].detail, std::string(kAlarmClearedDetail)); // D was back to normal
        const auto list = m.alarms();
        QCOMPARE(list.size(), 3u);
        for (const Alarm& a : list)
            QVERIFY(a.acknowledged);
        QVERIFY(m.acknowledgeAll("alice", "", kT0 + 30).empty());
    }

    // Most severe (latched) first, then the newest first.
    void alarmsOrder()
    {
        AlarmManager m;
        (void)m.onEvent(violation("Packet5.A", LimitState::YellowHigh, 1, 0, kT0 + 1));
        (void)m.onEvent(violation("Packet5.B", LimitState::RedHigh, 1, 0, kT0 + 2));
        (void)m.onEvent(violation("Packet5.C", LimitState::YellowLow, 1, 0, kT0 + 3));
        (void)m.onEvent(violation("Packet5.D", LimitState::Invalid, 1, 0, kT0 + 4));
        (void)m.onEvent(violation("Packet5.E", LimitState::RedLow, 1, 0, kT0 + 5));
        // A rises to red, then falls back to yellow: latched red, and the newest.
        (void)m.onEvent(violation("Packet5.A", LimitState::RedHigh, 1, 0, kT0 + 6));
        (void)m.onEvent(violation("Packet5.A", LimitState::YellowHigh, 1, 0, kT0 + 7));
        std::vector<std::string> order;
        for (const Alarm& a : m.alarms())
            order.push_back(a.parameter);
        const std::vector<std::string> expected{"Packet5.A", "Packet5.E", "Packet5.B", "Packet5.D", "Packet5.C"};
        QCOMPARE(order, expected);
    }

    void countsPerSeverity()
    {
        AlarmManager m;
        (void)m.onEvent(violation("Packet5.A", LimitState::YellowHigh, 1, 0, kT0));  // 1 active unack
        (void)m.onEvent(violation("Packet5.B", LimitState::RedHigh, 1, 0, kT0));     // 2 active ack
        (void)m.onEvent(violation("Packet5.C", LimitState::RedHigh, 1, 0, kT0));     // 3 back to normal unack
        (void)m.onEvent(violation("Packet5.D", LimitState::RedHigh, 1, 0, kT0));     // 4 shelved
        (void)m.onEvent(streamEvent(EventKind::StreamStale, "tm", 0, kT0));           // 5 error, active unack
        QVERIFY(m.acknowledge(2, "alice", "", kT0).ok());
        (void)m.onEvent(cleared("Packet5.C", 0, kT0));
        QVERIFY(m.shelve(4, kHour, "alice", "", kT0).ok());
        const AlarmCounts c = m.counts(kT0 + kSecond);
        const auto warning = static_cast<int>(Severity::Warning);
        const auto error = static_cast<int>(Severity::Error);
        const auto critical = static_cast<int>(Severity::Critical);
        QCOMPARE(c.unacknowledged[warning], 1u);
        QCOMPARE(c.unacknowledged[error], 1u);
        QCOMPARE(c.unacknowledged[critical], 1u); // C
        QCOMPARE(c.active[warning], 1u);
        QCOMPARE(c.active[error], 1u);
        QCOMPARE(c.active[critical], 1u);         // B
        QCOMPARE(c.shelved, 1u);
        QCOMPARE(c.totalUnacknowledged(), 3u);
        QCOMPARE(c.totalActive(), 3u);
        // The shelf over (by time alone, before any tick), D counts again.
        QCOMPARE(m.counts(kT0 + kHour).active[critical], 2u);
        QCOMPARE(m.counts(kT0 + kHour).shelved, 0u);
    }

    // A storm summary stands for `amount` violations: 412 transitions, 206 of them into violation.
    void stormSummaryCountsItsViolations()
    {
        AlarmManager m;
        auto events = m.onEvent(violation(kCpu, LimitState::RedHigh, 97, 95, kT0, 412, 206));
        QCOMPARE(events.size(), 1u);
        QCOMPARE(only(m).violations, 206u);
        QVERIFY(m.onEvent(violation(kCpu, LimitState::RedHigh, 98, 95, kT0 + kSecond, 412, 206)).empty());
        QCOMPARE(only(m).violations, 412u);
        QCOMPARE(only(m).currentValue, 98.0);
        // A summary ending in normal still counts the violations in it.
        events = m.onEvent(cleared(kCpu, 50, kT0 + 2 * kSecond, 412, 206));
        QCOMPARE(events.size(), 1u);
        QCOMPARE(events[0].detail, "back to normal unacknowledged");
        QCOMPARE(only(m).violations, 618u);

        // With no alarm listed, violations that came and went in one summary are not lost.
        AlarmManager fresh;
        events = fresh.onEvent(cleared(kCpu, 50, kT0, 412, 206));
        QCOMPARE(events.size(), 1u);
        QCOMPARE(events[0].detail, "back to normal unacknowledged");
        QVERIFY(contains(events[0].text, "206 violations"));
        const Alarm a = only(fresh);
        QCOMPARE(a.violations, 206u);
        QCOMPARE(a.state(kT0), AlarmState::ClearedUnacknowledged);
        QCOMPARE(a.severity, Severity::Warning);
    }

    // One loss alarm per stream for gaps and drops: packets summed, back to normal after
    // kLossQuietNs without loss.
    void lossAlarmReturnsAfterQuiet()
    {
        AlarmManager m;
        auto events = m.onEvent(streamEvent(EventKind::SequenceGap, "tm", 12, kT0));
        QCOMPARE(events.size(), 1u);
        QCOMPARE(events[0].severity, Severity::Warning);
        QCOMPARE(events[0].stream, "tm");
        QVERIFY(events[0].parameter.empty());
        QCOMPARE(events[0].text, "stream tm loss alarm raised: 12 packets lost or dropped");
        QVERIFY(m.onEvent(streamEvent(EventKind::QueueDrop, "tm", 5, kT0 + kSecond)).empty());
        QVERIFY(m.onEvent(streamEvent(EventKind::KernelDrop, "tm", 3, kT0 + 2 * kSecond)).empty());
        QCOMPARE(m.onEvent(streamEvent(EventKind::SequenceGap, "hk", 1, kT0)).size(), 1u); // its own
        QCOMPARE(m.alarms().size(), 2u);
        const Alarm a = m.alarms()[0].stream == "tm" ? m.alarms()[0] : m.alarms()[1];
        QCOMPARE(a.source, AlarmSource::StreamLoss);
        QCOMPARE(a.violations, 20u);

        const std::int64_t quiet = kT0 + 2 * kSecond + AlarmManager::kLossQuietNs;
        events = m.tick(quiet - 1);
        QCOMPARE(events.size(), 1u); // hk's, quiet since kT0
        QCOMPARE(events[0].stream, "hk");
        events = m.tick(quiet);
        QCOMPARE(events.size(), 1u);
        QCOMPARE(events[0].stream, "tm");
        QCOMPARE(events[0].detail, "back to normal unacknowledged");
        QCOMPARE(events[0].text, "stream tm loss alarm back to normal, unacknowledged");
        QVERIFY(m.tick(quiet + kHour).empty());
        QCOMPARE(m.acknowledgeAll("alice", "", quiet).size(), 2u);
        QVERIFY(m.alarms().empty());
    }

    void staleAlarmAndResume()
    {
        AlarmManager m;
        QVERIFY(m.onEvent(streamEvent(EventKind::StreamResumed, "tm", 0, kT0)).empty());
        auto events = m.onEvent(streamEvent(EventKind::StreamStale, "tm", 0, kT0));
        QCOMPARE(events.size(), 1u);
        QCOMPARE(events[0].severity, Severity::Error);
        QCOMPARE(events[0].text, "stream tm stale alarm raised: no packets");
        QCOMPARE(only(m).source, AlarmSource::StreamStale);
        QVERIFY(m.tick(kT0 + kHour).empty()); // staleness ends by StreamResumed, not by time
        events = m.onEvent(streamEvent(EventKind::StreamResumed, "tm", 0, kT0 + kMinute));
        QCOMPARE(events.size(), 1u);
        QCOMPARE(events[0].detail, "back to normal unacknowledged");
        QCOMPARE(events[0].text, "stream tm stale alarm back to normal, unacknowledged");
        QCOMPARE(only(m).state(kT0 + kMinute), AlarmState::ClearedUnacknowledged);
    }

    // The manager's own output and kinds that raise no alarm change nothing.
    void otherEventsAreIgnored()
    {
        AlarmManager m;
        const U64 v = m.version();
        for (const EventKind kind : {EventKind::Alarm, EventKind::Station, EventKind::QueueWarning,
                                     EventKind::LimitEdited, EventKind::Duplicate, EventKind::Recording}) {
            Event e = violation(kCpu, LimitState::RedHigh, 97, 95, kT0);
            e.kind = kind;
            QVERIFY(m.onEvent(e).empty());
        }
        QVERIFY(m.onEvent(cleared(kCpu, 50, kT0)).empty()); // normal with no alarm listed
        QVERIFY(m.alarms().empty());
        QCOMPARE(m.version(), v);
    }

    // The event thread feeds 10,000 violations (yellow and red by turns) while the GUI thread
    // acknowledges everything and reads counts and the list. Checks the end state, not timing.
    void concurrentFeedAndAcknowledge()
    {
        constexpr int kParameters = 10;
        constexpr int kViolations = 10'000;
        AlarmManager m;
        std::atomic<bool> fed{false};
        int raised = 0;
        std::thread feeder([&] {
            for (int i = 0; i < kViolations; ++i) {
                const std::string name = "Packet5.P" + std::to_string(i % kParameters);
                const LimitState s = (i / kParameters) % 2 ? LimitState::RedHigh : LimitState::YellowHigh;
                for (const Event& e : m.onEvent(violation(name.c_str(), s, i, 0, kT0 + i)))
                    raised += contains(e.text, "alarm raised:") ? 1 : 0;
            }
            fed = true;
        });
        bool consistent = true;
        int reads = 0;
        while (!fed || reads == 0) {
            (void)m.acknowledgeAll("alice", "", kT0);
            const AlarmCounts c = m.counts(kT0);
            const auto list = m.alarms();
            consistent = consistent && c.totalActive() <= kParameters && list.size() <= kParameters
                && c.totalUnacknowledged() <= list.size();
            ++reads;
        }
        feeder.join();
        QVERIFY(consistent);
        QCOMPARE(raised, kParameters);
        const auto list = m.alarms();
        QCOMPARE(list.size(), std::size_t(kParameters));
        std::set<U64> ids;
        for (const Alarm& a : list) {
            QCOMPARE(a.violations, U64(kViolations / kParameters));
            ids.insert(a.id);
        }
        QCOMPARE(ids, (std::set<U64>{1, 2, 3, 4, 5, 6, 7, 8, 9, 10}));
        QVERIFY(m.version() >= U64(kViolations));
        (void)m.acknowledgeAll("alice", "", kT0 + kViolations);
        QCOMPARE(m.counts(kT0 + kViolations).totalUnacknowledged(), 0u);
        QCOMPARE(m.counts(kT0 + kViolations).totalActive(), std::uint32_t(kParameters));
    }
};

QTEST_GUILESS_MAIN(TestEventsAlarmManager)
#include "tst_events_alarm_manager.moc"
