// The station's events end to end over loopback (issue 14): every fault the simulator injects becomes
// events whose counts are exactly what was injected, storms merged into one line a second per source;
// a parameter driven across its limits reports each transition in order with its value and the limit
// crossed and its alarm goes through its states; operators' limit edits apply at once and are
// audited; queues, stale streams and recording rollovers are reported; the archive keeps the events
// across a restart and an unwritable one never stops the station.
#include "core/ccsds/space_packet.hpp"
#include "core/events/event_archive.hpp"
#include "core/pipeline/station.hpp"
#include "sim/engine/sim_stream.hpp"
#include "tests/support/raw_packets.hpp"
#include "tests/support/sim_traffic.hpp"
#include "tests/support/station_fixture.hpp"
#include "tests/support/wait_until.hpp"

#include <QTemporaryDir>
#include <QtTest>

#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <spdlog/sinks/ostream_sink.h>
#include <spdlog/spdlog.h>

#include <algorithm>
#include <fstream>
#include <sstream>

using namespace telestation;
using namespace std::chrono_literals;
using events::Event;
using events::EventKind;

namespace {

using u64 = std::uint64_t;
using test::settle;
using test::startStation;
using test::streamStats;
using test::trainingDatabase;
using test::typeStats;
using test::waitUntil;
using test::runPhases;

constexpr const char* kFlow = "Packet5.COOLANT_FLOW_RATE"; // LIMITS 20 30 150 180 (red low, yellow low, yellow high, red high)

struct Tally {
    u64 lines = 0, count = 0, amount = 0;
};

Tally tally(const std::vector<Event>& events, EventKind kind, std::string_view stream = "tm")
{
    Tally t;
    for (const auto& e : events)
        if (e.kind == kind && e.stream == stream) {
            ++t.lines;
            t.count += e.count;
            t.amount += e.amount;
        }
    return t;
}

std::vector<Event> ofKinds(const std::vector<Event>& events, std::initializer_list<EventKind> kinds)
{
    std::vector<Event> out;
    for (const auto& e : events)
        if (std::find(kinds.begin(), kinds.end(), e.kind) != kinds.end())
            out.push_back(e);
    return out;
}

// Everything the station has reported so far, storm summaries still open included.
std::vector<Event> allEvents(pipeline::Station& st)
{
    st.flushEvents();
    return st.events(0);
}

config::StationProfile oneStream(const std::string& source, const QTemporaryDir& dir)
{
    return test::stationProfile(dir, {test::streamProfile("tm", source)});
}

// A simulator run of `values` of COOLANT_FLOW_RATE (one per packet, calibrated) to the stream "tm".
sim::StreamSummary sendFlowValues(pipeline::Station& st, const std::vector<double>& values, double pps)
{
    return test::sendValues(st, "tm", kFlow, values, pps);
}

} // namespace

Q_DECLARE_METATYPE(sim::FaultConfig)

class TestPipelineEvents : public QObject {
    Q_OBJECT

private slots:
    void faultsBecomeExactEvents_data();
    void faultsBecomeExactEvents();
    void stormOfGapsIsBoundedAndExact();
    void limitTransitionsInOrderAndTheAlarm();
    void aSawtoothRampCrossesEachLimitOnce();
    void eventsKeptButNotLoggedWhenAsked_data();
    void eventsKeptButNotLoggedWhenAsked();
    void limitEditsApplyAtOnceAndAreAudited();
    void queueWarningsAndDrops();
    void kernelDropsAreEvents();
    void unexpectedStateOfAnEnumeration();
    void staleStreamAndBack();
    void recordingRolloverAndResume();
    void archiveKeepsEventsAcrossRestart();
    void unwritableArchiveNeverStopsTheStation();
};

void TestPipelineEvents::faultsBecomeExactEvents_data()
{
    QTest::addColumn<QString>("source");
    QTest::addColumn<sim::FaultConfig>("faults");
    sim::FaultConfig drops;
    drops.drop = 0.05;
    sim::FaultConfig duplicates;
    duplicates.duplicate = 0.05;
    sim::FaultConfig reorder;
    reorder.reorder = 0.05;
    sim::FaultConfig corrupt;
    corrupt.corruptHeader = 0.05;
    QTest::newRow("drops") << QStringLiteral("udp://127.0.0.1:0") << drops;
    QTest::newRow("duplicates") << QStringLiteral("udp://127.0.0.1:0") << duplicates;
    QTest::newRow("reorder") << QStringLiteral("tcp-listen://127.0.0.1:0") << reorder; // TCP keeps the order sent
    QTest::newRow("corrupt headers") << QStringLiteral("udp://127.0.0.1:0") << corrupt;
}

// The simulator injects faults at 5% of 2,000 packets (~0.4 s): the events of each kind add up exactly to
// the faults injected, and the storm is merged (fewer lines than faults, at most one a second after the
// first).
void TestPipelineEvents::faultsBecomeExactEvents()
{
    QFETCH(QString, source);
    QFETCH(sim::FaultConfig, faults);
    QTemporaryDir dir;
    auto station = startStation(oneStream(source.toStdString(), dir), trainingDatabase());
    QVERIFY(station);
    auto& st = *station;
    auto sim = test::simulator(test::traffic(test::streamAddress(st, "tm"), {"Packet5"}, std::nullopt, 5000),
                               trainingDatabase());
    QVERIFY(runPhases(*sim, {{{}, 200}, {faults, 2000}, {{}, 300}}));
    const auto summary = sim->summary();
    QCOMPARE(summary.notSent, u64{0});
    QVERIFY(settle(st, "tm", summary.sent.packets));
    const auto snap = st.snapshot();
    const auto* s = streamStats(snap, "tm");
    QVERIFY(s);
    QCOMPARE(s->kernelDrops, u64{0}); // else the exact comparisons below mean nothing
    const auto* t = typeStats(*s, "Packet5");
    QVERIFY(t);
    const auto events = allEvents(st);

    const auto check = [&](EventKind kind, u64 injected, u64 amount) {
        const Tally k = tally(events, kind);
        QVERIFY2(injected > 0, "the simulator injected no fault");
        QCOMPARE(k.count, injected);
        QCOMPARE(k.amount, amount);
        QVERIFY(k.lines >= 1);
        QVERIFY2(k.lines < k.count || k.count == 1, "a storm must be merged");
        QVERIFY(k.lines <= 4); // the first at once, then a summary a second: the run lasts about a second
    };
    if (faults.drop > 0) {
        // Each run of drops is one gap; the packets lost are the packets dropped.
        check(EventKind::SequenceGap, t->counters.sequenceErrors, summary.faults.dropped);
    } else if (faults.duplicate > 0) {
        check(EventKind::Duplicate, summary.faults.duplicated, summary.faults.duplicated);
        QCOMPARE(tally(events, EventKind::SequenceGap).count, u64{0});
    } else if (faults.reorder > 0) {
        // A swapped pair: a gap of one, then the late packet (the loss taken back).
        check(EventKind::OutOfOrder, summary.faults.reordered, summary.faults.reordered);
        check(EventKind::SequenceGap, summary.faults.reordered, summary.faults.reordered);
        QCOMPARE(t->counters.packetsLost, u64{0});
    } else {
        check(EventKind::Malformed, summary.faults.corruptedHeaders, summary.faults.corruptedHeaders);
        for (const auto& e : ofKinds(events, {EventKind::Malformed})) {
            QCOMPARE(QString::fromStdString(e.detail), QStringLiteral("header: version not 0"));
            QVERIFY2(e.text.find("APID 7") != std::string::npos, e.text.c_str());
        }
    }
    // Each line names where it happened; a summary says how much in words.
    for (const auto& e : events) {
        if (e.kind == EventKind::SequenceGap || e.kind == EventKind::Duplicate || e.kind == EventKind::OutOfOrder) {
            QCOMPARE(QString::fromStdString(e.detail), QStringLiteral("APID 7"));
            QCOMPARE(QString::fromStdString(e.packetType), QStringLiteral("Packet5"));
            QVERIFY(e.severity == events::Severity::Warning);
            if (e.count > 1)
                QVERIFY2(e.text.find("in the last") != std::string::npos, e.text.c_str());
        }
    }
}

// Every packet a gap (sequence counts stepping by two), as fast as a socket sends: the gap events stay
// at one line per second after the first, and their counts add up to every gap the station counted.
void TestPipelineEvents::stormOfGapsIsBoundedAndExact()
{
    QTemporaryDir dir;
    auto profile = oneStream("udp://127.0.0.1:0", dir);
    config::PacketSettings passThru;
    passThru.packet = "HK_Status";
    passThru.mode = config::ProcessingMode::PassThru;
    profile.streams[0].packets.push_back(passThru);
    profile.queues.networkPacketQueueSize = 32768;
    profile.queues.networkPacketQueueWarningThreshold = 32768;
    auto station = startStation(profile, trainingDatabase());
    QVERIFY(station);
    auto& st = *station;
    const mdb::PacketDef* def = trainingDatabase().findPacket("HK_Status");
    QVERIFY(def);
    constexpr u64 kPackets = 200'000;
    std::vector<std::vector<std::uint8_t>> packets;
    for (std::uint16_t c = 0; c < 8192; ++c)
        packets.push_back(test::buildPacket(*def, static_cast<std::uint16_t>(2 * c)));
    test::UdpSender sender(st.localPort("tm"));
    const auto started = std::chrono::steady_clock::now();
    for (u64 i = 0; i < kPackets; ++i)
        QVERIFY(sender.send(packets[i % packets.size()]));
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
    QVERIFY(settle(st, "tm", kPackets));
    const auto snap = st.snapshot();
    const auto* s = streamStats(snap, "tm");
    QVERIFY(s);
    const auto* t = typeStats(*s, "HK_Status");
    QVERIFY(t);
    const auto events = allEvents(st);
    const Tally gaps = tally(events, EventKind::SequenceGap);
    // Every sequence error is an event, or one of those the event thread could not report (it says how
    // many). Without kernel drops each error is a gap of one packet (the counts step by 2). A run of more
    // than 4,095 packets dropped by the kernel (a loaded machine) moves the 14-bit count by more than half
    // its range: the tracker takes that for a restarted counter (a reset), not a gap — so those count too.
    const u64 others = tally(events, EventKind::SequenceReset).count + tally(events, EventKind::OutOfOrder).count
        + tally(events, EventKind::Duplicate).count;
    u64 unreported = 0;
    for (const auto& e : events)
        if (e.kind == EventKind::Station && e.text.find("could not be reported") != std::string::npos)
            unreported += e.amount;
    qInfo("storm: %llu gaps in %.2f s (%.0f gaps/s) reported in %llu lines; other sequence events %llu, unreported %llu; "
          "kernel drops %llu",
          static_cast<unsigned long long>(gaps.count), seconds, static_cast<double>(gaps.count) / seconds,
          static_cast<unsigned long long>(gaps.lines), static_cast<unsigned long long>(others),
          static_cast<unsigned long long>(unreported), static_cast<unsigned long long>(s->kernelDrops));
    QVERIFY(gaps.count > kPackets / 2);
    QCOMPARE(gaps.count + others + unreported, t->counters.sequenceErrors);
    if (s->kernelDrops == 0)
        QCOMPARE(others, u64{0}); // nothing but gaps (the counts wrap without a reset)
    if (unreported == 0)
        QCOMPARE(gaps.amount, t->counters.packetsLost);
    else if (s->kernelDrops == 0)
        QCOMPARE(gaps.amount + unreported, t->counters.packetsLost); // each unreported gap was one packet
    else
        QVERIFY(gaps.amount <= t->counters.packetsLost);
    // Bounded by the events' own times: the first line, then one summary per second of the storm.
    std::int64_t first = 0, last = 0;
    for (const auto& e : ofKinds(events, {EventKind::SequenceGap})) {
        first = first == 0 ? e.timeNs : std::min(first, e.timeNs);
        last = std::max(last, e.timeNs);
    }
    const u64 bound = 2 + static_cast<u64>((last - first) / 1'000'000'000);
    QVERIFY2(gaps.lines <= bound, qPrintable(QStringLiteral("%1 lines, bound %2").arg(gaps.lines).arg(bound)));
}

// A ramp up through yellow and red and back down through both to below the low limits and back: each
// transition once, in order, with its value and the limit crossed; the alarm raised, escalated, back to
// normal, then acknowledged away.
void TestPipelineEvents::limitTransitionsInOrderAndTheAlarm()
{
    QTemporaryDir dir;
    pipeline::StationOptions options;
    options.eventStormWindow = 1ms; // each transition on its own line (packets 50 ms apart)
    auto station = startStation(oneStream("udp://127.0.0.1:0", dir), trainingDatabase(), options);
    QVERIFY(station);
    auto& st = *station;
    const std::vector<double> ramp{100, 160, 190, 160, 100, 25, 10, 25, 100};
    const auto summary = sendFlowValues(st, ramp, 20);
    QVERIFY(settle(st, "tm", summary.sent.packets));
    const auto events = allEvents(st);
    std::vector<Event> limits;
    for (const auto& e : ofKinds(events, {EventKind::LimitViolation, EventKind::LimitCleared}))
        if (e.parameter == kFlow)
            limits.push_back(e);
    struct Expect {
        EventKind kind;
        const char* state;
        double value;
        double limit;
        events::Severity severity;
    };
    const double none = std::nan("");
    const std::vector<Expect> expected{
        {EventKind::LimitViolation, "yellow high", 160, 150, events::Severity::Warning},
        {EventKind::LimitViolation, "red high", 190, 180, events::Severity::Critical},
        {EventKind::LimitViolation, "yellow high", 160, 150, events::Severity::Warning},
        {EventKind::LimitCleared, "normal", 100, none, events::Severity::Info},
        {EventKind::LimitViolation, "yellow low", 25, 30, events::Severity::Warning},
        {EventKind::LimitViolation, "red low", 10, 20, events::Severity::Critical},
        {EventKind::LimitViolation, "yellow low", 25, 30, events::Severity::Warning},
        {EventKind::LimitCleared, "normal", 100, none, events::Severity::Info},
    };
    QCOMPARE(limits.size(), expected.size());
    for (std::size_t i = 0; i < expected.size(); ++i) {
        const Event& e = limits[i];
        QVERIFY2(e.kind == expected[i].kind, e.text.c_str());
        QCOMPARE(QString::fromStdString(e.limitState), QString::fromLatin1(expected[i].state));
        QCOMPARE(e.value, expected[i].value);
        if (std::isnan(expected[i].limit))
            QVERIFY(std::isnan(e.limit));
        else
            QCOMPARE(e.limit, expected[i].limit);
        QVERIFY(e.severity == expected[i].severity);
        QCOMPARE(e.count, u64{1});
        QCOMPARE(QString::fromStdString(e.packetType), QStringLiteral("Packet5"));
        QVERIFY2(e.text.find(kFlow) != std::string::npos, e.text.c_str());
        if (i > 0)
            QVERIFY(e.timeNs >= limits[i - 1].timeNs);
    }
    QVERIFY2(limits[1].text.find("190 > 180") != std::string::npos, limits[1].text.c_str());

    // The alarm: one, latched at critical, back to normal and not yet acknowledged.
    const auto alarms = st.alarms();
    const auto alarm = std::find_if(alarms.begin(), alarms.end(), [](const auto& a) { return a.parameter == kFlow; });
    QVERIFY(alarm != alarms.end());
    QCOMPARE(alarm->state(std::numeric_limits<std::int64_t>::max() / 2), events::AlarmState::ClearedUnacknowledged);
    QVERIFY(alarm->severity == events::Severity::Critical);
    QCOMPARE(alarm->violations, u64{6});
    QCOMPARE(alarm->triggerValue, 160.0);
    QCOMPARE(alarm->stream, std::string("tm"));
    std::vector<Event> alarmEvents;
    for (const auto& e : ofKinds(events, {EventKind::Alarm}))
        if (e.parameter == kFlow)
            alarmEvents.push_back(e);
    QVERIFY(alarmEvents.size() >= 3); // raised, severity raised (red), back to normal
    QVERIFY2(alarmEvents.front().text.find("raised") != std::string::npos, alarmEvents.front().text.c_str());

    // Acknowledged after it is back to normal: it leaves the list, and the acknowledgement is an event.
    QVERIFY(st.acknowledgeAlarm(alarm->id, "tester", "ramp test"));
    QVERIFY(!st.acknowledgeAlarm(alarm->id, "tester", "again")); // gone: an error, not a crash
    const auto after = allEvents(st);
    const auto ack = std::find_if(after.begin(), after.end(), [](const Event& e) {
        return e.kind == EventKind::Alarm && e.user == "tester" && e.text.find("ramp test") != std::string::npos;
    });
    QVERIFY(ack != after.end());
    const auto left = st.alarms();
    QVERIFY(std::none_of(left.begin(), left.end(), [](const auto& a) { return a.parameter == kFlow; }));
}

// A sawtooth 100 → 200 in steps of 5, one packet each, then back to 100: up through yellow high into
// red high, then the wrap — three transitions, in order, each at a value beyond the limit it names.
// StationOptions::logEvents: by default every event also goes to the log; a station told not to (the
// link test's own) keeps its events — the limit transitions are all there — but logs none of them.
void TestPipelineEvents::eventsKeptButNotLoggedWhenAsked_data()
{
    QTest::addColumn<bool>("logEvents");
    QTest::newRow("logged (the default)") << true;
    QTest::newRow("not logged") << false;
}

void TestPipelineEvents::eventsKeptButNotLoggedWhenAsked()
{
    QFETCH(bool, logEvents);
    std::ostringstream logged;
    const auto before = spdlog::default_logger();
    spdlog::set_default_logger(std::make_shared<spdlog::logger>("capture", std::make_shared<spdlog::sinks::ostream_sink_mt>(logged)));
    struct Restore {
        std::shared_ptr<spdlog::logger> logger;
        ~Restore() { spdlog::set_default_logger(logger); }
    } restore{before};

    QTemporaryDir dir;
    pipeline::StationOptions options;
    options.eventStormWindow = 1ms;
    options.logEvents = logEvents;
    {
        auto station = startStation(oneStream("udp://127.0.0.1:0", dir), trainingDatabase(), options);
        QVERIFY(station);
        const auto summary = sendFlowValues(*station, {100, 160, 190, 100}, 20);
        QVERIFY(settle(*station, "tm", summary.sent.packets));
        std::size_t transitions = 0;
        for (const auto& e : ofKinds(allEvents(*station), {EventKind::LimitViolation, EventKind::LimitCleared}))
            transitions += e.parameter == kFlow;
        QCOMPARE(transitions, std::size_t(3)); // yellow high, red high, back to normal: kept either way
    }
    const bool mentioned = logged.str().find(kFlow) != std::string::npos;
    QVERIFY2(mentioned == logEvents, logged.str().c_str());
}

void TestPipelineEvents::aSawtoothRampCrossesEachLimitOnce()
{
    QTemporaryDir dir;
    pipeline::StationOptions options;
    options.eventStormWindow = 1ms;
    auto station = startStation(oneStream("udp://127.0.0.1:0", dir), trainingDatabase(), options);
    QVERIFY(station);
    auto& st = *station;
    // The sawtooth by packet, not by time (a time-driven ramp depends on the pacing, which a loaded
    // machine stretches): 100, 105, ... 200 and down to 100 again, past one wrap.
    std::vector<double> sawtooth;
    for (double v = 100; v <= 200; v += 5)
        sawtooth.push_back(v);
    sawtooth.insert(sawtooth.end(), {100, 105});
    const auto summary = sendFlowValues(st, sawtooth, 50);
    QVERIFY(settle(st, "tm", summary.sent.packets));
    std::vector<Event> flow;
    for (const auto& e : ofKinds(allEvents(st), {EventKind::LimitViolation, EventKind::LimitCleared}))
        if (e.parameter == kFlow)
            flow.push_back(e);
    QCOMPARE(flow.size(), std::size_t{3});
    QCOMPARE(flow[0].limitState, std::string("yellow high"));
    QVERIFY(flow[0].value > 150 && flow[0].value <= 180);
    QCOMPARE(flow[0].limit, 150.0);
    QCOMPARE(flow[1].limitState, std::string("red high"));
    QVERIFY(flow[1].value > 180);
    QCOMPARE(flow[1].limit, 180.0);
    QVERIFY(flow[2].kind == EventKind::LimitCleared);
    QVERIFY(flow[2].value < 150);
}

// An operator's limits apply from the next packet, are in the profile, and the change is an event with
// who and from what to what; back to the mission database's limits likewise; disabled: no checking.
void TestPipelineEvents::limitEditsApplyAtOnceAndAreAudited()
{
    QTemporaryDir dir;
    pipeline::StationOptions options;
    options.eventStormWindow = 1ms;
    auto station = startStation(oneStream("udp://127.0.0.1:0", dir), trainingDatabase(), options);
    QVERIFY(station);
    auto& st = *station;
    config::LimitSetting tight;
    tight.parameter = kFlow;
    tight.yellowHigh = 50;
    tight.redHigh = 60;
    QVERIFY(st.setLimits(kFlow, tight, "alice"));
    QCOMPARE(st.profile().limits.size(), std::size_t{1});
    QCOMPARE(st.profile().limits[0], tight);
    auto summary = sendFlowValues(st, {40, 100}, 20);
    QVERIFY(settle(st, "tm", summary.sent.packets));
    auto events = allEvents(st);
    const auto edited = ofKinds(events, {EventKind::LimitEdited});
    QCOMPARE(edited.size(), std::size_t{1});
    QCOMPARE(edited[0].user, std::string("alice"));
    QCOMPARE(edited[0].parameter, std::string(kFlow));
    QVERIFY2(edited[0].text.find("yellow 30 .. 150, red 20 .. 180") != std::string::npos, edited[0].text.c_str());
    QVERIFY2(edited[0].text.find("yellow … .. 50, red … .. 60") != std::string::npos, edited[0].text.c_str());
    const auto flowOnly = [](std::vector<Event> list) {
        std::erase_if(list, [](const Event& e) { return e.parameter != kFlow; });
        return list;
    };
    auto violations = flowOnly(ofKinds(events, {EventKind::LimitViolation}));
    QCOMPARE(violations.size(), std::size_t{1});
    QCOMPARE(violations[0].limitState, std::string("red high"));
    QCOMPARE(violations[0].limit, 60.0);

    // Disabled: the red value is no longer checked (a transition back, "limit checking off").
    config::LimitSetting off;
    off.parameter = kFlow;
    off.enabled = false;
    QVERIFY(st.setLimits(kFlow, off, "bob"));
    summary = sendFlowValues(st, {100}, 20);
    QVERIFY(settle(st, "tm", 3));
    events = allEvents(st);
    const auto cleared = flowOnly(ofKinds(events, {EventKind::LimitCleared}));
    QCOMPARE(cleared.size(), std::size_t{1});
    QCOMPARE(cleared[0].limitState, std::string("none"));

    // Refused: a parameter that does not exist, bounds out of order, numbers on an enumeration.
    config::LimitSetting bad = tight;
    bad.redHigh = 10;
    QVERIFY(!st.setLimits(kFlow, bad, "carol"));
    QVERIFY(!st.setLimits("Packet5.NO_SUCH", std::nullopt, "carol"));
    config::LimitSetting onEnum;
    onEnum.parameter = "Packet5.SAFE_MODE_FLAG";
    onEnum.yellowHigh = 1;
    QVERIFY(!st.setLimits(onEnum.parameter, onEnum, "carol"));

    // Back to the mission database's limits.
    QVERIFY(st.setLimits(kFlow, std::nullopt, "dave"));
    QVERIFY(st.profile().limits.empty());
    const auto limits = st.limits(kFlow);
    QVERIFY(limits);
    QCOMPARE(limits->yellowHigh, 150.0);
    QVERIFY(!limits->fromProfile);
    events = allEvents(st);
    QCOMPARE(ofKinds(events, {EventKind::LimitEdited}).size(), std::size_t{3}); // refusals are not edits
}

// A network queue too small for a flood: its warning threshold crossings (up, and back down once
// drained) and its drops are events; the drops add up to the queue's drop counter.
void TestPipelineEvents::queueWarningsAndDrops()
{
    QTemporaryDir dir;
    auto profile = oneStream("udp://127.0.0.1:0", dir);
    profile.queues.networkPacketQueueSize = 100;
    profile.queues.networkPacketQueueWarningThreshold = 50;
    profile.queues.processPacketQueueSize = 20;
    auto station = startStation(profile, trainingDatabase());
    QVERIFY(station);
    auto& st = *station;
    const auto summary = test::sendPackets(st, "tm", {"Packet5", "HK_Status"}, 20000, 0);
    QVERIFY(settle(st, "tm", summary.sent.packets));
    const auto snap = st.snapshot();
    const auto* s = streamStats(snap, "tm");
    QVERIFY(s);
    QVERIFY(waitUntil([&] {
        const auto e = allEvents(st);
        return s->networkQueue.warnings == 0 || tally(e, EventKind::QueueWarningCleared).lines > 0;
    }));
    const auto events = allEvents(st);
    u64 networkDrops = 0, processDrops = 0;
    for (const auto& e : ofKinds(events, {EventKind::QueueDrop})) {
        QVERIFY(e.severity == events::Severity::Error);
        if (e.detail == "network packet queue")
            networkDrops += e.amount;
        else if (e.detail == "process packet queue")
            processDrops += e.amount;
    }
    QCOMPARE(networkDrops, s->networkQueue.drops);
    QCOMPARE(processDrops, s->processQueue.drops);
    QVERIFY(networkDrops + processDrops > 0);
    if (s->networkQueue.warnings > 0) {
        // Up and down are one source: a storm summary may carry either kind, with the crossings up.
        QCOMPARE(tally(events, EventKind::QueueWarning).amount + tally(events, EventKind::QueueWarningCleared).amount,
                 s->networkQueue.warnings);
        QVERIFY(tally(events, EventKind::QueueWarningCleared).lines >= 1);
    }
    // A loss alarm for the stream.
    const auto alarms = st.alarms();
    QVERIFY(std::any_of(alarms.begin(), alarms.end(),
                        [](const auto& a) { return a.source == events::AlarmSource::StreamLoss && a.stream == "tm"; }));
}

// A socket buffer of a few datagrams under a flood: the kernel's drops are events adding up to its count.
void TestPipelineEvents::kernelDropsAreEvents()
{
    QTemporaryDir dir;
    pipeline::StationOptions options;
    options.receiveBufferBytes = 4096;
    auto station = startStation(oneStream("udp://127.0.0.1:0", dir), trainingDatabase(), options);
    QVERIFY(station);
    auto& st = *station;
    const auto flood = test::sendPackets(st, "tm", {"Packet5"}, 5000, 0);
    QCOMPARE(flood.sent.packets, u64{5000});
    // The kernel reports its drops with the next datagram received: one more, once the flood is read.
    QVERIFY(waitUntil([&] { return st.idle(); }));
    const auto probe = test::sendPackets(st, "tm", {"HK_Status"}, 1, 100);
    QVERIFY(waitUntil([&] {
        const auto snap = st.snapshot();
        const auto* s = streamStats(snap, "tm");
        const auto* t = s ? typeStats(*s, "HK_Status") : nullptr;
        return t && t->counters.packetsReceived == 1;
    }));
    const auto snap = st.snapshot();
    const auto* s = streamStats(snap, "tm");
    QVERIFY(s);
    if (s->kernelDrops == 0)
        QSKIP("the flood did not overflow the socket buffer this time (or the kernel does not report drops)");
    QVERIFY(waitUntil([&] { return tally(allEvents(st), EventKind::KernelDrop).amount == s->kernelDrops; }));
    for (const auto& e : ofKinds(allEvents(st), {EventKind::KernelDrop}))
        QVERIFY2(e.text.find("dropped by the kernel") != std::string::npos, e.text.c_str());
}

// An enumeration in a state it should not be in: an "unexpected state" violation naming the state, then
// back within limits.
void TestPipelineEvents::unexpectedStateOfAnEnumeration()
{
    QTemporaryDir dir;
    pipeline::StationOptions options;
    options.eventStormWindow = 1ms;
    auto station = startStation(oneStream("udp://127.0.0.1:0", dir), trainingDatabase(), options);
    QVERIFY(station);
    auto& st = *station;
    auto config = test::traffic(test::streamAddress(st, "tm"), {"Packet5"}, 3, 20);
    sim::GeneratorSpec list;
    list.kind = sim::GeneratorKind::List;
    list.domain = sim::ValueDomain::Raw;
    list.values = {0, 1, 0}; // NOMINAL, SAFE (not expected), NOMINAL
    config.generators["Packet5.SAFE_MODE_FLAG"] = list;
    const auto summary = test::send(config, trainingDatabase());
    QVERIFY(settle(st, "tm", summary.sent.packets));
    std::vector<Event> flag;
    for (const auto& e : ofKinds(allEvents(st), {EventKind::LimitViolation, EventKind::LimitCleared}))
        if (e.parameter == "Packet5.SAFE_MODE_FLAG")
            flag.push_back(e);
    QCOMPARE(flag.size(), std::size_t{2});
    QVERIFY(flag[0].kind == EventKind::LimitViolation);
    QCOMPARE(flag[0].limitState, std::string("unexpected state"));
    QVERIFY(flag[0].severity == events::Severity::Critical);
    QVERIFY2(flag[0].text.find("unexpected state SAFE") != std::string::npos, flag[0].text.c_str());
    QVERIFY(flag[1].kind == EventKind::LimitCleared);
    QVERIFY2(flag[1].text.find("NOMINAL") != std::string::npos, flag[1].text.c_str());
}

// Quiet for longer than its stale time: a stale event and alarm; packets again: resumed, alarm back to normal.
void TestPipelineEvents::staleStreamAndBack()
{
    QTemporaryDir dir;
    auto profile = oneStream("udp://127.0.0.1:0", dir);
    profile.streams[0].staleAfterSeconds = 0.3;
    auto station = startStation(profile, trainingDatabase());
    QVERIFY(station);
    auto& st = *station;
    auto summary = test::sendPackets(st, "tm", {"HK_Status"}, 10, 1000);
    QVERIFY(settle(st, "tm", summary.sent.packets));
    QVERIFY(waitUntil([&] { return tally(allEvents(st), EventKind::StreamStale).lines == 1; }));
    auto alarms = st.alarms();
    auto stale = std::find_if(alarms.begin(), alarms.end(), [](const auto& a) { return a.source == events::AlarmSource::StreamStale; });
    QVERIFY(stale != alarms.end());
    QVERIFY(stale->active);
    summary = test::sendPackets(st, "tm", {"GNC_State"}, 10, 1000);
    QVERIFY(waitUntil([&] { return tally(allEvents(st), EventKind::StreamResumed).lines == 1; }));
    alarms = st.alarms();
    stale = std::find_if(alarms.begin(), alarms.end(), [](const auto& a) { return a.source == events::AlarmSource::StreamStale; });
    QVERIFY(stale != alarms.end());
    QVERIFY(!stale->active);
    const auto events = allEvents(st);
    const auto staleEvents = ofKinds(events, {EventKind::StreamStale});
    QVERIFY2(staleEvents[0].text.find("no packet for 0.3 s") != std::string::npos, staleEvents[0].text.c_str());
}

// Segments of 64 KiB roll over while recording: each rollover is an event naming the closed file and
// what it holds; the packets in the closed segments and the open one add up to what was recorded.
void TestPipelineEvents::recordingRolloverAndResume()
{
    QTemporaryDir dir;
    auto profile = oneStream("udp://127.0.0.1:0", dir);
    profile.queues.maxRecordFileSize = 64 * 1024;
    config::PacketSettings record;
    record.packet = "Packet5";
    record.record = true;
    profile.streams[0].packets.push_back(record);
    pipeline::StationOptions options;
    options.eventStormWindow = 1ms; // rollovers every few ms here: each on its own line
    auto station = startStation(profile, trainingDatabase(), options);
    QVERIFY(station);
    auto& st = *station;
    const auto summary = test::sendPackets(st, "tm", {"Packet5"}, 200, 2000);
    QVERIFY(settle(st, "tm", summary.sent.packets));
    const auto events = allEvents(st);
    u64 closedPackets = 0, rollovers = 0;
    for (const auto& e : ofKinds(events, {EventKind::Recording})) {
        const auto at = e.text.find("rolled over: ");
        if (at == std::string::npos)
            continue;
        ++rollovers;
        QVERIFY2(e.text.find(".tsrec closed with ") != std::string::npos, e.text.c_str());
        const auto with = e.text.find("closed with ") + 12;
        closedPackets += std::stoull(e.text.substr(with));
    }
    QVERIFY(rollovers >= 3); // 200 × 1,288 bytes in 64 KiB segments
    QVERIFY(closedPackets > 0 && closedPackets < summary.sent.packets);
    QVERIFY(std::any_of(events.begin(), events.end(), [](const Event& e) {
        return e.kind == EventKind::Recording && e.text.find("recording into ") != std::string::npos;
    }));
}

// The archive (events.sqlite beside the recordings) holds the events after the station is gone, and
// the next station's events join them.
void TestPipelineEvents::archiveKeepsEventsAcrossRestart()
{
    QTemporaryDir dir;
    const auto profile = oneStream("udp://127.0.0.1:0", dir);
    std::string path;
    for (int run = 0; run < 2; ++run) {
        auto station = startStation(profile, trainingDatabase());
        QVERIFY(station);
        path = station->eventArchivePath();
        QCOMPARE(QString::fromStdString(path), dir.filePath(QStringLiteral("rec/events.sqlite")));
        const auto summary = test::sendPackets(*station, "tm", {"HK_Status"}, 10, 1000);
        QVERIFY(settle(*station, "tm", summary.sent.packets));
        station->stop();
        QVERIFY(station->eventStorageError().empty());
    }
    auto archive = events::EventArchive::open(path, true);
    QVERIFY2(archive, archive ? "" : archive.error().message.c_str());
    events::EventFilter all;
    auto rows = archive->query(all);
    QVERIFY(rows);
    const auto stopped = std::count_if(rows->begin(), rows->end(),
                                       [](const auto& r) { return r.event.text == "station stopped"; });
    QCOMPARE(stopped, 2);
    events::EventFilter streamOnly;
    streamOnly.stream = "tm";
    streamOnly.minSeverity = events::Severity::Info;
    auto tm = archive->query(streamOnly);
    QVERIFY(tm);
    QVERIFY(!tm->empty());
    QVERIFY(std::all_of(tm->begin(), tm->end(), [](const auto& r) { return r.event.stream == "tm"; }));
}

// An archive that cannot be written (its directory is a file): an error event and the storage error
// shown; the station receives and processes as before.
void TestPipelineEvents::unwritableArchiveNeverStopsTheStation()
{
    QTemporaryDir dir;
    auto profile = oneStream("udp://127.0.0.1:0", dir);
    const std::string blocker = dir.filePath(QStringLiteral("not-a-directory")).toStdString();
    std::ofstream(blocker) << "x";
    profile.events.archiveFile = blocker + "/events.sqlite";
    auto station = startStation(profile, trainingDatabase());
    QVERIFY(station);
    auto& st = *station;
    const auto summary = test::sendPackets(st, "tm", {"HK_Status"}, 100, 5000);
    QVERIFY(settle(st, "tm", summary.sent.packets));
    QVERIFY(waitUntil([&] { return !st.eventStorageError().empty(); }));
    const auto events = allEvents(st);
    QVERIFY(tally(events, EventKind::EventStorage, "").lines >= 1);
    const auto snap = st.snapshot();
    QCOMPARE(streamStats(snap, "tm")->counters.packetsProcessed, summary.sent.packets);
    QVERIFY(st.running());
}

QTEST_GUILESS_MAIN(TestPipelineEvents)
#include "tst_pipeline_events.moc"
