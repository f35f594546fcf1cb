// The station under faults, end to end over loopback: every fault the simulator injects (sequence gaps,
// duplicates, reordering, corrupt headers, truncated datagrams, TCP garbage) and the ones it cannot
// (a TCP stream cut inside a packet, a forward destination that is down, an unwritable or full recording
// disk, queues and a packet pool too small for a burst). Each test compares the counters exactly with
// the simulator's summary, checks the operator events, and then sends a clean burst that must be
// received and processed completely: the station keeps running after every fault.
//
// Faults are switched on and off while a simulator stream runs (SimStream::setFaults takes effect at
// the next batch of at most 64 packets). The first and the last packets of every APID are therefore
// clean, so the station sees every gap between them: a packet dropped before the first one received
// or after the last one cannot be told from one never sent.
#include "core/api/consumer.hpp"
#include "core/ccsds/space_packet.hpp"
#include "core/config/station_profile.hpp"
#include "core/pipeline/station.hpp"
#include "core/record/segment_file.hpp"
#include "sim/engine/sim_stream.hpp"
#include "tests/support/capture_receiver.hpp"
#include "tests/support/raw_packets.hpp"
#include "tests/support/sim_traffic.hpp"
#include "tests/support/small_disk.hpp"
#include "tests/support/station_fixture.hpp"
#include "tests/support/wait_until.hpp"

#include <QTemporaryDir>
#include <QtTest>

#include <arpa/inet.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <functional>
#include <mutex>
#include <optional>
#include <random>
#include <thread>

using namespace telestation;
using namespace std::chrono_literals;

namespace {

using u64 = std::uint64_t;

using test::settle;
using test::startStation;
using test::streamStats;
using test::tcpUrl;
using test::trainingDatabase;
using test::typeStats;
using test::udpUrl;
using test::waitUntil;
using test::Phase;
using test::runPhases;
using test::buildPacket;

// A packet type's counters, zero when the type is not (yet) in the snapshot.
stats::PacketCounters typeCounters(const pipeline::Station& st, std::string_view stream, std::string_view type)
{
    const auto snap = st.snapshot();
    const auto* s = streamStats(snap, stream);
    const auto* t = s ? typeStats(*s, type) : nullptr;
    return t ? t->counters : stats::PacketCounters{};
}

// The station of these tests: one stream "tm" from `source`, recording into `dir`.
config::StationProfile oneStream(const std::string& source, const QTemporaryDir& dir)
{
    return test::stationProfile(dir, {test::streamProfile("tm", source)});
}

std::uint16_t sequenceCount(std::span<const std::uint8_t> packet)
{
    return static_cast<std::uint16_t>(((packet[2] & 0x3F) << 8) | packet[3]);
}

std::uint16_t apidOf(std::span<const std::uint8_t> packet)
{
    return static_cast<std::uint16_t>(((packet[0] & 0x07) << 8) | packet[1]);
}

std::size_t countEvents(const std::vector<events::Event>& events, events::Severity severity)
{
    return static_cast<std::size_t>(
        std::count_if(events.begin(), events.end(), [&](const auto& e) { return e.severity == severity; }));
}

// The first event of `severity` whose text contains every one of `words`.
const events::Event* findEvent(const std::vector<events::Event>& events,
                                        events::Severity severity, std::initializer_list<std::string_view> words)
{
    for (const auto& e : events) {
        if (e.severity != severity)
            continue;
        const auto contains = [&](std::string_view w) { return e.text.find(w) != std::string::npos; };
        if (std::all_of(words.begin(), words.end(), contains))
            return &e;
    }
    return nullptr;
}

std::string eventList(const std::vector<events::Event>& events)
{
    std::string text;
    for (const auto& e : events)
        text += "\n  [" + std::to_string(static_cast<int>(e.severity)) + "] " + e.stream + ": " + e.text;
    return text;
}

// Gaps in a run of sequence counts that only lost packets (no duplicates, no reordering).
struct Gaps {
    std::uint64_t count = 0;
    std::uint64_t missing = 0;
    std::uint64_t largest = 0;
};

Gaps gapsIn(const std::vector<std::uint16_t>& counts)
{
    Gaps g;
    for (std::size_t i = 1; i < counts.size(); ++i) {
        const std::uint64_t delta = static_cast<std::uint16_t>(counts[i] - counts[i - 1]) % ccsds::kSequenceCountModulo;
        if (delta > 1) {
            ++g.count;
            g.missing += delta - 1;
            g.largest = std::max(g.largest, delta - 1);
        }
    }
    return g;
}

// What the station must count for the packet type of one simulator run, in the simulator's fault counts.
struct Expected {
    bool faultsInjected = false; // else the run proves nothing
    std::uint64_t lost = 0;
    std::uint64_t duplicates = 0;
    std::uint64_t malformed = 0;
    // Packets were only lost (dropped or malformed): the gaps in the delivered sequence counts are the
    // station's sequence errors and largest gap.
    bool onlyLoss = false;
    std::optional<std::uint64_t> sequenceErrors; // as given, where determined
    std::optional<std::uint64_t> largestGap;
};

// One simulator run of a fault row: a packet type, its phases and what follows from its summary.
struct FaultRun {
    std::string packet;
    std::vector<Phase> phases;
    std::function<Expected(const sim::StreamSummary&)> expect;
};

// One TCP connection to 127.0.0.1:`port` that writes every byte of `bytes` and closes: false if it
// could not connect or write them all.
bool writeConnection(std::uint16_t port, std::span<const std::uint8_t> bytes)
{
    const int fd = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
    if (fd < 0)
        return false;
    sockaddr_in addr{};
    addr.sin_family = AF_INET;
    addr.sin_port = htons(port);
    addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    bool ok = ::connect(fd, reinterpret_cast<const sockaddr*>(&addr), sizeof addr) == 0;
    while (ok && !bytes.empty()) {
        const ssize_t n = ::send(fd, bytes.data(), bytes.size(), MSG_NOSIGNAL);
        if (n < 0 && errno == EINTR)
            continue;
        ok = n > 0;
        if (ok)
            bytes = bytes.subspan(static_cast<std::size_t>(n));
    }
    ::close(fd);
    return ok;
}

} // namespace

Q_DECLARE_METATYPE(std::vector<FaultRun>)

class TestPipelineFaults : public QObject {
    Q_OBJECT

private slots:
    void sequenceFaults_data();
    void sequenceFaults();
    void garbageOnTcpIsSkipped();
    void tcpFramerRecoversAfterGarbage();
    void truncatedTcpStreamIsCounted();
    void forwardDestinationDownThenUp();
    void unwritableRecordingDirectory();
    void diskFullStopsRecording();
    void recordingResumesAfterSpaceIsFreed();
    void queuesOverflowUnderAFlood();
    void poolExhaustionIsCounted();

private:
    // After a fault: `count` packets of `packet` (a type the test has not sent before, so that its
    // sequence counts start fresh) sent to `url` at `pps` must all be received and processed, with no
    // loss, no malformed packet and no drop.
    void expectCleanBurst(pipeline::Station& st, const std::string& url, const std::string& packet,
                          std::uint64_t count, double pps);

    // The same for a station with tiny queues or pool, where any burst could overflow: `count` packets
    // of `packet` (zero data, counts from 0) sent over UDP one at a time, each processed before the next.
    void expectLockStepPackets(pipeline::Station& st, std::uint16_t udpPort, const std::string& packet,
                               std::uint16_t count);

};

void TestPipelineFaults::expectCleanBurst(pipeline::Station& st, const std::string& url, const std::string& packet,
                                          std::uint64_t count, double pps)
{
    const auto before = typeCounters(st, "tm", packet);
    const auto snapBefore = st.snapshot();
    const auto* streamBefore = streamStats(snapBefore, "tm");
    QVERIFY(streamBefore);
    const std::uint64_t arrivedBefore = test::arrivals(*streamBefore);
    const std::uint64_t kernelDropsBefore = streamBefore->kernelDrops;
    const std::uint64_t poolDropsBefore = streamBefore->poolDrops;

    auto config = test::traffic(url, {packet}, count, pps);
    config.seed = 7;
    auto sim = test::simulator(config, trainingDatabase());
    sim->start();
    sim->wait();
    const auto summary = sim->summary();
    QCOMPARE(summary.sent.packets, count);
    QVERIFY(settle(st, "tm", arrivedBefore + summary.sent.packets));

    const auto snap = st.snapshot();
    const auto* s = streamStats(snap, "tm");
    QVERIFY(s);
    QVERIFY(st.running());
    QCOMPARE(s->kernelDrops, kernelDropsBefore);
    QCOMPARE(s->poolDrops, poolDropsBefore);
    const auto* t = typeStats(*s, packet);
    QVERIFY(t);
    const auto& after = t->counters;
    QCOMPARE(after.packetsReceived - before.packetsReceived, summary.sent.packets);
    QCOMPARE(after.bytesReceived - before.bytesReceived, summary.sent.bytes);
    QCOMPARE(after.packetsProcessed - before.packetsProcessed, summary.sent.packets);
    QCOMPARE(after.malformed, before.malformed);
    QCOMPARE(after.packetsLost, before.packetsLost);
    QCOMPARE(after.sequenceErrors, before.sequenceErrors);
    QCOMPARE(after.networkDrops, before.networkDrops);
    QCOMPARE(after.processDrops, before.processDrops);
}

void TestPipelineFaults::expectLockStepPackets(pipeline::Station& st, std::uint16_t udpPort, const std::string& packet,
                                               std::uint16_t count)
{
    const mdb::PacketDef* def = trainingDatabase().findPacket(packet);
    QVERIFY(def);
    const auto before = typeCounters(st, "tm", packet);
    test::UdpSender sender(udpPort);
    bool sent = true, processed = true;
    for (std::uint16_t i = 0; i < count && sent && processed; ++i) {
        sent = sender.send(buildPacket(*def, i));
        const std::uint64_t target = before.packetsProcessed + i + 1;
        processed = waitUntil([&] { return typeCounters(st, "tm", packet).packetsProcessed >= target; })
                    && st.waitIdle(10s);
    }
    QVERIFY(sent);
    QVERIFY(processed);
    const auto after = typeCounters(st, "tm", packet);
    QVERIFY(st.running());
    QCOMPARE(after.packetsReceived - before.packetsReceived, std::uint64_t{count});
    QCOMPARE(after.packetsProcessed - before.packetsProcessed, std::uint64_t{count});
    QCOMPARE(after.malformed, before.malformed);
    QCOMPARE(after.packetsLost, before.packetsLost);
    QCOMPARE(after.networkDrops, before.networkDrops);
    QCOMPARE(after.processDrops, before.processDrops);
}

// ---- Sequence faults and malformed packets ----------------------------------------------------------

// Every row: simulator runs of one packet type each, faults switched on between clean phases, sent in
// turn to a station with one stream; then each type's counters must follow from the simulator's fault
// counts, the stream's sum them up, consumers get only well-formed packets, the operator is not told
// about gaps (only about connections that ended), and a clean burst afterwards goes through whole.
void TestPipelineFaults::sequenceFaults_data()
{
    QTest::addColumn<QString>("source");
    QTest::addColumn<std::vector<FaultRun>>("runs");
    QTest::addColumn<QString>("cleanBurst"); // a type none of the runs sent

    const sim::FaultConfig clean;
    sim::FaultConfig randomDrops;
    randomDrops.drop = 0.05;
    sim::FaultConfig allDropped;
    allDropped.drop = 1.0;
    sim::FaultConfig duplicates;
    duplicates.duplicate = 0.05;
    sim::FaultConfig reorder;
    reorder.reorder = 0.05;
    sim::FaultConfig reorderAndDrop;
    reorderAndDrop.reorder = 0.1;
    reorderAndDrop.drop = 0.05;
    sim::FaultConfig corrupt;
    corrupt.corruptHeader = 0.05;
    sim::FaultConfig truncate;
    truncate.truncate = 0.05;

    // Random drops on Packet5 and one long run of drops on HK_Status: every dropped packet is counted
    // lost, each run of drops is one sequence error, and the largest gap is the longest run.
    QTest::newRow("drops") << QStringLiteral("udp://127.0.0.1:0")
        << std::vector<FaultRun>{
               {"Packet5", {{clean, 200}, {randomDrops, 2000}, {clean, 300}},
                [](const sim::StreamSummary& s) { return Expected{s.faults.dropped > 0, s.faults.dropped, 0, 0, true, {}, {}}; }},
               // One run: the phase's batches (a batch under way when the faults change keeps its faults).
               {"HK_Status", {{clean, 200}, {allDropped, 300}, {clean, 300}},
                [](const sim::StreamSummary& s) {
                    return Expected{s.faults.dropped >= 200, s.faults.dropped, 0, 0, true, 1, s.faults.dropped};
                }}}
        << QStringLiteral("GNC_State");
    // Every extra copy is a duplicate (and a sequence error), none is lost, and each copy is received
    // and processed like any packet.
    QTest::newRow("duplicates") << QStringLiteral("udp://127.0.0.1:0")
        << std::vector<FaultRun>{{"Packet5", {{clean, 200}, {duplicates, 2000}, {clean, 200}}, [](const sim::StreamSummary& s) {
               return Expected{s.faults.duplicated > 0, 0, s.faults.duplicated, 0, false, s.faults.duplicated, 0};
           }}}
        << QStringLiteral("HK_Status");
    // Reordering over TCP (which keeps the simulator's order): a swapped pair is a gap and a late
    // arrival, two sequence errors and no loss; with drops as well the net loss is exactly the packets
    // dropped.
    QTest::newRow("late arrivals") << QStringLiteral("tcp-listen://127.0.0.1:0")
        << std::vector<FaultRun>{
               {"Packet5", {{clean, 200}, {reorder, 2000}, {clean, 200}},
                [](const sim::StreamSummary& s) {
                    return Expected{s.faults.reordered > 0, 0, 0, 0, false, 2 * s.faults.reordered, 1};
                }},
               {"HK_Status", {{clean, 200}, {reorderAndDrop, 2000}, {clean, 200}},
                [](const sim::StreamSummary& s) {
                    return Expected{s.faults.reordered > 0 && s.faults.dropped > 0, s.faults.dropped, 0, 0, false, {}, {}};
                }}}
        << QStringLiteral("GNC_State");
    // Corrupt headers and truncated datagrams (in separate phases, so that no packet has both) are
    // malformed: counted against their packet type, never processed. A malformed packet's sequence count
    // is not trusted, so it is not checked: the count is missing from the sequence and the packet shows
    // as lost too (malformed and lost overlap).
    QTest::newRow("malformed") << QStringLiteral("udp://127.0.0.1:0")
        << std::vector<FaultRun>{{"Packet5", {{clean, 200}, {corrupt, 1500}, {clean, 200}, {truncate, 1500}, {clean, 200}},
                                  [](const sim::StreamSummary& s) {
                                      const u64 bad = s.faults.corruptedHeaders + s.faults.truncated;
                                      return Expected{s.faults.corruptedHeaders > 0 && s.faults.truncated > 0, bad, 0, bad,
                                                      true, {}, {}};
                                  }}}
        << QStringLiteral("HK_Status");
}

void TestPipelineFaults::sequenceFaults()
{
    QFETCH(QString, source);
    QFETCH(std::vector<FaultRun>, runs);
    QFETCH(QString, cleanBurst);

    QTemporaryDir dir;
    auto station = startStation(oneStream(source.toStdString(), dir), trainingDatabase());
    QVERIFY(station);
    auto& st = *station;
    const std::string url = test::streamAddress(st, "tm");
    std::vector<std::unique_ptr<api::PacketSubscription>> subscriptions;
    for (const FaultRun& run : runs) {
        api::PacketSubscription::Options so;
        so.packet = run.packet;
        so.capacity = 20000;
        auto sub = api::PacketSubscription::create(st, so);
        QVERIFY2(sub, sub ? "" : sub.error().message.c_str());
        subscriptions.push_back(std::move(*sub));
    }

    // One run after the other (over TCP each on a connection of its own).
    std::vector<sim::StreamSummary> summaries;
    u64 sent = 0, bytes = 0;
    for (const FaultRun& run : runs) {
        auto sim = test::simulator(test::traffic(url, {run.packet}, std::nullopt, 5000), trainingDatabase());
        QVERIFY(runPhases(*sim, run.phases));
        summaries.push_back(sim->summary());
        QCOMPARE(summaries.back().notSent, u64{0});
        sent += summaries.back().sent.packets;
        bytes += summaries.back().sent.bytes;
    }
    QVERIFY(settle(st, "tm", sent));

    const auto snap = st.snapshot();
    const auto* s = streamStats(snap, "tm");
    QVERIFY(s);
    QCOMPARE(s->kernelDrops, u64{0}); // else the exact comparisons below mean nothing
    QCOMPARE(s->framingErrors, u64{0});
    QCOMPARE(s->truncatedPackets, u64{0}); // UDP: only datagrams larger than the buffer
    QCOMPARE(s->counters.packetsReceived, sent);
    QCOMPARE(s->counters.bytesReceived, bytes);
    QCOMPARE(s->counters.unknown, u64{0}); // the APID survives every fault

    u64 lost = 0, duplicates = 0, malformed = 0, sequenceErrors = 0, largestGap = 0;
    for (std::size_t i = 0; i < runs.size(); ++i) {
        const sim::StreamSummary& summary = summaries[i];
        const Expected expected = runs[i].expect(summary);
        QVERIFY2(expected.faultsInjected, runs[i].packet.c_str());
        const auto* t = typeStats(*s, runs[i].packet);
        QVERIFY(t);
        const auto& c = t->counters;
        const u64 processed = summary.sent.packets - expected.malformed;
        QCOMPARE(c.packetsReceived, summary.sent.packets); // copies included
        QCOMPARE(c.malformed, expected.malformed);
        QCOMPARE(c.packetsProcessed, processed);
        QCOMPARE(c.parametersDecoded, processed * st.types().parameterCount(*st.types().typeByName(runs[i].packet)));
        QCOMPARE(c.packetsLost, expected.lost);
        QCOMPARE(c.duplicates, expected.duplicates);
        if (expected.sequenceErrors)
            QCOMPARE(c.sequenceErrors, *expected.sequenceErrors);
        if (expected.largestGap)
            QCOMPARE(c.largestGap, *expected.largestGap);

        // What reached consumers: the well-formed packets, in order; where packets were only lost, their
        // gaps are the station's sequence errors.
        std::vector<std::uint16_t> counts;
        u64 wellFormed = 0;
        const std::size_t length = trainingDatabase().findPacket(runs[i].packet)->length;
        while (subscriptions[i]->poll([&](const api::PacketView& v) {
            counts.push_back(sequenceCount(v.packet));
            if (ccsds::checkPrimaryHeader(v.packet).ok() && v.packet.size() == length)
                ++wellFormed;
        }, 4096) > 0) {
        }
        QCOMPARE(subscriptions[i]->drops(), u64{0});
        QCOMPARE(u64{counts.size()}, processed);
        QCOMPARE(wellFormed, processed);
        if (expected.onlyLoss) {
            const Gaps gaps = gapsIn(counts);
            QCOMPARE(gaps.missing, expected.lost);
            QCOMPARE(c.sequenceErrors, gaps.count);
            QCOMPARE(c.largestGap, gaps.largest);
        }

        lost += c.packetsLost;
        duplicates += c.duplicates;
        malformed += c.malformed;
        sequenceErrors += c.sequenceErrors;
        largestGap = std::max(largestGap, c.largestGap);
    }
    // The stream's counters sum up its types'.
    QCOMPARE(s->counters.packetsLost, lost);
    QCOMPARE(s->counters.duplicates, duplicates);
    QCOMPARE(s->counters.malformed, malformed);
    QCOMPARE(s->counters.sequenceErrors, sequenceErrors);
    QCOMPARE(s->counters.largestGap, largestGap);
    QCOMPARE(snap.totals.packetsLost, lost);
    QCOMPARE(snap.totals.duplicates, duplicates);
    QCOMPARE(snap.hasLoss(), lost + malformed > 0); // a duplicate or a late arrival is not a loss
    // The faults are events of their own kinds (tst_pipeline_events checks their counts); the only other
    // warnings are limits the simulator's values cross and TCP connections that ended; nothing is an error.
    st.flushEvents();
    const auto events = st.events();
    const auto expectedWarning = [](const events::Event& e) {
        using events::EventKind;
        return e.kind == EventKind::SequenceGap || e.kind == EventKind::Duplicate || e.kind == EventKind::OutOfOrder
            || e.kind == EventKind::SequenceReset || e.kind == EventKind::Malformed
            || e.kind == EventKind::LimitViolation || e.kind == EventKind::LimitCleared // the simulator's values move
            || e.kind == EventKind::Alarm
            || e.text.find("connection ended") != std::string::npos
            // a storm summary of a TCP connection's ends and starts (its latest line may be a start)
            || (e.kind == EventKind::Stream && e.detail == "connection" && e.count > 1);
    };
    for (const auto& e : events)
        QVERIFY2(e.severity != events::Severity::Warning || expectedWarning(e),
                 (std::string(events::eventKindName(e.kind)) + ": " + e.text).c_str());
    QVERIFY2(countEvents(events, events::Severity::Error) == 0, eventList(events).c_str());

    expectCleanBurst(st, url, cleanBurst.toStdString(), 500, 5000);
}

// Garbage between packets on TCP (the simulator's garbage fault). What the framer guarantees
// (core/ccsds/README.md, "Stream framer"): an implausible header is a framing error and starts a hunt;
// every byte is delivered in a frame, skipped while hunting, or (at most one partial frame per
// connection) dropped as truncated when the connection ends. It does not guarantee skippedBytes ==
// garbage bytes, nor that every real packet survives: garbage that looks like a header is followed as
// a packet of a false length, which may swallow real packets. Once the framer is back on packet
// boundaries (the README bounds that to a few times the largest packet), each real packet is either
// delivered intact or counted lost.
void TestPipelineFaults::garbageOnTcpIsSkipped()
{
    QTemporaryDir dir;
    auto station = startStation(oneStream("tcp-listen://127.0.0.1:0", dir), trainingDatabase());
    QVERIFY(station);
    auto& st = *station;
    const std::string url = tcpUrl(st.localPort("tm"));

    auto sim = test::simulator(test::traffic(url, {"Packet5"}, std::nullopt, 10000), trainingDatabase());
    sim::FaultConfig garbage;
    garbage.garbage = 0.05;
    // A long clean tail (1.3 MB): by its end the framer must be back on packet boundaries.
    QVERIFY(runPhases(*sim, {{{}, 200}, {garbage, 2000}, {{}, 1000}}));
    const auto summary = sim->summary();
    sim.reset(); // closes the connection: the framer is reset
    QVERIFY(summary.faults.garbageInsertions > 0);
    QCOMPARE(summary.notSent, std::uint64_t{0});
    QVERIFY(waitUntil([&] { return streamStats(st.snapshot(), "tm")->disconnects == 1; }));
    QVERIFY(st.waitIdle(10s));

    const auto snap = st.snapshot();
    const auto* s = streamStats(snap, "tm");
    QVERIFY(s);
    QCOMPARE(s->connects, std::uint64_t{1});
    QVERIFY(s->framingErrors > 0);
    QVERIFY(s->skippedBytes > 0);
    QVERIFY(s->truncatedPackets <= 1);
    QCOMPARE(s->counters.networkDrops + s->poolDrops, std::uint64_t{0});
    // Every byte written is accounted for, but for the part of a frame cut by the disconnect.
    const std::uint64_t written = summary.sent.bytes + summary.faults.garbageBytes;
    const std::uint64_t accounted = s->counters.bytesReceived + s->skippedBytes;
    QVERIFY(accounted <= written);
    QVERIFY(written - accounted <= s->truncatedPackets * ccsds::kMaxPacketSize);

    const auto* p5 = typeStats(*s, "Packet5");
    QVERIFY(p5);
    const std::uint64_t intact = p5->counters.packetsReceived - p5->counters.malformed;
    QCOMPARE(p5->counters.packetsProcessed, intact);
    QCOMPARE(p5->counters.duplicates, std::uint64_t{0});
    QVERIFY(intact >= 200); // the clean head at least
    QVERIFY(intact + p5->counters.packetsLost <= summary.apids.at(7).packets);
    // The framing errors are events (a storm merged), their amounts adding up to the stream's counter.
    st.flushEvents();
    std::uint64_t framingEvents = 0;
    for (const auto& e : st.events())
        if (e.kind == events::EventKind::FramingError) {
            QCOMPARE(e.stream, std::string("tm"));
            framingEvents += e.amount;
        }
    QCOMPARE(framingEvents, s->framingErrors);
    qInfo("garbage: %llu runs, %llu bytes; skipped %llu bytes, %llu framing errors, %llu truncated; real packets "
          "intact %llu, counted lost %llu, of %llu",
          static_cast<unsigned long long>(summary.faults.garbageInsertions),
          static_cast<unsigned long long>(summary.faults.garbageBytes),
          static_cast<unsigned long long>(s->skippedBytes),
          static_cast<unsigned long long>(s->framingErrors), static_cast<unsigned long long>(s->truncatedPackets),
          static_cast<unsigned long long>(intact), static_cast<unsigned long long>(p5->counters.packetsLost),
          static_cast<unsigned long long>(summary.apids.at(7).packets));
    QVERIFY(snap.hasLoss());

    // A new connection is framed afresh whatever happened on the old one.
    expectCleanBurst(st, url, "HK_Status", 500, 5000);
    if (QTest::currentTestFailed())
        return;

    // Back on packet boundaries by the end of the clean tail: nothing cut at the disconnect, every byte
    // accounted for, and every real packet delivered intact or counted lost.
    const bool inSync = s->truncatedPackets == 0 && intact + p5->counters.packetsLost == summary.apids.at(7).packets;
    QVERIFY2(inSync, "the TCP framer did not find the packets again after garbage");
    QCOMPARE(accounted, written);
}

// The framer's recovery bound, deterministic input: 5,100 real Packet5 packets (built by the simulator)
// written by hand over one connection with 20 runs of random garbage, each followed by 250 clean
// packets (322 KB). After each run the framer must be back on packet boundaries within a few times the
// largest packet (README: "bounded by a few times N + maxPacketSize bytes"): every packet from 210
// packets (270 KB, more than 4 x 65,542 bytes) after a run is delivered intact.
void TestPipelineFaults::tcpFramerRecoversAfterGarbage()
{
    constexpr std::size_t kHead = 100, kRuns = 20, kPerRun = 250, kRecovery = 210;
    constexpr std::size_t kPackets = kHead + kRuns * kPerRun;
    std::vector<std::uint8_t> packets;
    {
        test::TcpCapture capture;
        auto sim = test::simulator(test::traffic(tcpUrl(capture.port()), {"Packet5"}, kPackets, 20000), trainingDatabase());
        sim->start();
        sim->wait();
        const auto summary = sim->summary();
        QCOMPARE(summary.sent.packets, std::uint64_t{kPackets});
        sim.reset();
        QVERIFY(waitUntil([&] { return capture.size() >= summary.sent.bytes; }));
        packets = capture.bytes();
    }
    constexpr std::size_t kLength = 1288;
    QCOMPARE(packets.size(), kPackets * kLength);

    std::vector<std::uint8_t> stream(packets.begin(), packets.begin() + std::ptrdiff_t(kHead * kLength));
    std::mt19937_64 rng(2024);
    std::uint64_t garbageBytes = 0;
    for (std::size_t r = 0; r < kRuns; ++r) {
        const std::size_t n = 1 + rng() % 64;
        for (std::size_t i = 0; i < n; ++i)
            stream.push_back(static_cast<std::uint8_t>(rng()));
        garbageBytes += n;
        const auto first = packets.begin() + std::ptrdiff_t((kHead + r * kPerRun) * kLength);
        stream.insert(stream.end(), first, first + std::ptrdiff_t(kPerRun * kLength));
    }

    QTemporaryDir dir;
    // The whole stream arrives in one burst: queues that hold all of it (this test is about framing).
    auto profile = oneStream("tcp-listen://127.0.0.1:0", dir);
    profile.queues.networkPacketQueueSize = profile.queues.processPacketQueueSize = 2 * kPackets;
    auto station = startStation(profile, trainingDatabase());
    QVERIFY(station);
    auto& st = *station;
    api::PacketSubscription::Options so;
    so.packet = "Packet5";
    so.capacity = 2 * kPackets;
    auto sub = api::PacketSubscription::create(st, so);
    QVERIFY2(sub, sub ? "" : sub.error().message.c_str());

    QVERIFY(writeConnection(st.localPort("tm"), stream));
    QVERIFY(waitUntil([&] { return streamStats(st.snapshot(), "tm")->disconnects == 1; }));
    QVERIFY(st.waitIdle(10s));

    std::vector<bool> delivered(kPackets, false);
    std::uint64_t intact = 0;
    while ((*sub)->poll([&](const api::PacketView& v) {
        if (v.packet.size() != kLength || apidOf(v.packet) != 7)
            return;
        ++intact;
        const std::uint16_t seq = sequenceCount(v.packet);
        // The frame must be the packet with that count, byte for byte.
        if (seq >= kPackets)
            return;
        const auto original = packets.begin() + std::ptrdiff_t(std::size_t{seq} * kLength);
        if (std::equal(v.packet.begin(), v.packet.end(), original))
            delivered[seq] = true;
    }, 4096) > 0) {
    }
    QCOMPARE((*sub)->drops(), std::uint64_t{0});
    const auto snap = st.snapshot();
    const auto* s = streamStats(snap, "tm");
    QVERIFY(s);
    QVERIFY(s->framingErrors > 0);
    QCOMPARE(s->counters.processDrops + s->networkQueue.drops, std::uint64_t{0});
    for (std::size_t i = 0; i < kHead; ++i)
        QVERIFY(delivered[i]); // before any garbage

    std::size_t missing = 0;
    std::string where;
    for (std::size_t r = 0; r < kRuns; ++r) {
        std::size_t missingInRun = 0;
        for (std::size_t i = kHead + r * kPerRun + kRecovery; i < kHead + (r + 1) * kPerRun; ++i)
            missingInRun += delivered[i] ? 0 : 1;
        if (missingInRun > 0)
            where += " run " + std::to_string(r) + ": " + std::to_string(missingInRun);
        missing += missingInRun;
    }
    qInfo("counters: received %llu processed %llu networkDrops %llu processDrops %llu pool %llu malformed %llu",
          static_cast<unsigned long long>(s->counters.packetsReceived),
          static_cast<unsigned long long>(s->counters.packetsProcessed),
          static_cast<unsigned long long>(s->networkQueue.drops), static_cast<unsigned long long>(s->processQueue.drops),
          static_cast<unsigned long long>(s->poolDrops), static_cast<unsigned long long>(s->counters.malformed));
    qInfo("framer: %llu of %zu packets intact, %llu garbage bytes, %llu skipped, %llu framing errors, %llu truncated",
          static_cast<unsigned long long>(intact), kPackets, static_cast<unsigned long long>(garbageBytes),
          static_cast<unsigned long long>(s->skippedBytes), static_cast<unsigned long long>(s->framingErrors),
          static_cast<unsigned long long>(s->truncatedPackets));
    // (A false header in garbage used to lead the framer into Packet5's zero-filled spares, where each 6
    // zero bytes are a plausible 7-byte packet: the station now frames with the largest defined packet
    // and resynchronises only on defined APIDs.)
    QVERIFY2(missing == 0, ("packets missing after the recovery window:" + where).c_str());

    expectCleanBurst(st, tcpUrl(st.localPort("tm")), "HK_Status", 500, 5000);
}

// A sender that closes in the middle of a packet: the partial packet is counted in truncatedPackets,
// the whole one before it is received; the next connection is framed afresh.
void TestPipelineFaults::truncatedTcpStreamIsCounted()
{
    QTemporaryDir dir;
    auto station = startStation(oneStream("tcp-listen://127.0.0.1:0", dir), trainingDatabase());
    QVERIFY(station);
    auto& st = *station;
    const std::uint16_t port = st.localPort("tm");
    const mdb::PacketDef* def = trainingDatabase().findPacket("Packet5");
    QVERIFY(def);

    const auto streamNow = [&] { return *streamStats(st.snapshot(), "tm"); };

    {
        std::vector<std::uint8_t> bytes = buildPacket(*def, 0);
        const auto second = buildPacket(*def, 1);
        bytes.insert(bytes.end(), second.begin(), second.begin() + std::ptrdiff_t(second.size() / 2));
        QVERIFY(writeConnection(port, bytes));
    }
    QVERIFY(waitUntil([&] { return streamNow().disconnects == 1; }));
    QVERIFY(settle(st, "tm", 1));
    {
        const auto s = streamNow();
        QCOMPARE(s.connects, std::uint64_t{1});
        QCOMPARE(s.truncatedPackets, std::uint64_t{1});
        QCOMPARE(s.framingErrors, std::uint64_t{0});
        QCOMPARE(s.counters.packetsReceived, std::uint64_t{1});
        QCOMPARE(s.counters.packetsProcessed, std::uint64_t{1});
        QCOMPARE(s.counters.bytesReceived, std::uint64_t{def->length});
        QCOMPARE(s.counters.malformed, std::uint64_t{0});
        QVERIFY(st.snapshot().hasLoss());
    }

    // Reconnect and send three whole packets: counted, the truncation stays one.
    {
        std::vector<std::uint8_t> bytes;
        for (std::uint16_t seq = 2; seq <= 4; ++seq) {
            const auto p = buildPacket(*def, seq);
            bytes.insert(bytes.end(), p.begin(), p.end());
        }
        QVERIFY(writeConnection(port, bytes));
    }
    QVERIFY(waitUntil([&] { return streamNow().disconnects == 2; }));
    QVERIFY(settle(st, "tm", 4));
    const auto s = streamNow();
    QCOMPARE(s.connects, std::uint64_t{2});
    QCOMPARE(s.truncatedPackets, std::uint64_t{1});
    QCOMPARE(s.framingErrors, std::uint64_t{0});
    QCOMPARE(s.skippedBytes, std::uint64_t{0});
    QCOMPARE(s.counters.packetsReceived, std::uint64_t{4});
    QCOMPARE(s.counters.packetsProcessed, std::uint64_t{4});
    QCOMPARE(s.counters.bytesReceived, std::uint64_t{4} * def->length);
    QCOMPARE(s.counters.packetsLost, std::uint64_t{1}); // count 1 never arrived whole
    QVERIFY(s.running);

    expectCleanBurst(st, tcpUrl(port), "HK_Status", 500, 5000);
}

// ---- Forwarding ---------------------------------------------------------------------------------------

// A tcp:// destination nobody listens on: every packet for it is a forward error, the operator is told
// it is down; once a listener appears the station reconnects (back-off up to 5 s), says it is up, and
// later packets arrive there exactly as received.
void TestPipelineFaults::forwardDestinationDownThenUp()
{
    test::TcpCapture listener(test::TcpCapture::Listen::Later);
    const std::string destination = tcpUrl(listener.port());
    QTemporaryDir dir;
    auto profile = oneStream("udp://127.0.0.1:0", dir);
    profile.streams[0].packets.push_back(
        {7, std::nullopt, config::ProcessingMode::ProcessEntirePacket, false, {destination}});
    auto station = startStation(profile, trainingDatabase());
    QVERIFY(station);
    auto& st = *station;
    const mdb::PacketDef* def = trainingDatabase().findPacket("Packet5");
    QVERIFY(def);

    // Down.
    const auto first = test::sendPackets(st, "tm", {"Packet5"}, 300, 5000);
    QVERIFY(settle(st, "tm", first.sent.packets));
    {
        const auto snap = st.snapshot();
        const auto* s = streamStats(snap, "tm");
        QVERIFY(s);
        QCOMPARE(s->kernelDrops, std::uint64_t{0});
        const auto* p5 = typeStats(*s, "Packet5");
        QVERIFY(p5);
        QCOMPARE(p5->counters.packetsReceived, first.sent.packets);
        QCOMPARE(p5->counters.packetsProcessed, first.sent.packets); // forwarding failures do not hold up processing
        QCOMPARE(p5->counters.forwardErrors, first.sent.packets);
        QCOMPARE(p5->counters.packetsForwarded, std::uint64_t{0});
        QCOMPARE(p5->counters.forwardDrops, std::uint64_t{0});
        QCOMPARE(snap.forwards.size(), std::size_t{1});
        QCOMPARE(snap.forwards[0].destination, destination);
        QVERIFY(!snap.forwards[0].connected);
        QCOMPARE(snap.forwards[0].notSent, first.sent.packets);
        QCOMPARE(snap.forwards[0].packets, std::uint64_t{0});
        QVERIFY(snap.hasLoss());
    }
    {
        st.flushEvents(); // what the event thread has not reported yet
        const auto events = st.events();
        const auto* downEvent = findEvent(events, events::Severity::Warning, {destination, "down"});
        // Reported even though it was never up; the event names the stream that forwards to it.
        QVERIFY2(downEvent, eventList(events).c_str());
        QCOMPARE(downEvent->stream, std::string("tm"));
    }

    // Up.
    QVERIFY(listener.listen());
    QVERIFY2(waitUntil([&] { return st.snapshot().forwards[0].connected; }),
             st.snapshot().forwards[0].state.c_str());
    // The event follows the state change (published just before it).
    const auto isUp = [&] { return findEvent(st.events(), events::Severity::Info, {destination, "is up"}) != nullptr; };
    QVERIFY2(waitUntil(isUp), eventList(st.events()).c_str());
    {
        const auto events = st.events(); // findEvent points into it: keep it alive
        QCOMPARE(findEvent(events, events::Severity::Info, {destination, "is up"})->stream, std::string("tm"));
    }
    const auto second = test::sendPackets(st, "tm", {"Packet5"}, 300, 5000);
    QVERIFY(settle(st, "tm", first.sent.packets + second.sent.packets));
    QVERIFY(waitUntil([&] { return listener.size() >= second.sent.bytes; }));
    {
        const auto snap = st.snapshot();
        const auto* s = streamStats(snap, "tm");
        QVERIFY(s);
        QCOMPARE(s->kernelDrops, std::uint64_t{0});
        const auto* p5 = typeStats(*s, "Packet5");
        QVERIFY(p5);
        QCOMPARE(p5->counters.packetsProcessed, first.sent.packets + second.sent.packets);
        QCOMPARE(p5->counters.packetsForwarded, second.sent.packets);
        QCOMPARE(p5->counters.bytesForwarded, second.sent.bytes);
        QCOMPARE(p5->counters.forwardErrors, first.sent.packets); // none since it came up
        QVERIFY(snap.forwards[0].connected);
        QCOMPARE(snap.forwards[0].packets, second.sent.packets);
        QCOMPARE(snap.forwards[0].connects, std::uint64_t{1});
    }
    // The listener got the second run's packets whole and in order (the simulator restarted its counts).
    const auto bytes = listener.bytes();
    QCOMPARE(std::uint64_t{bytes.size()}, second.sent.bytes);
    const std::span<const std::uint8_t> all(bytes);
    for (std::size_t i = 0; i < second.sent.packets; ++i) {
        const auto packet = all.subspan(i * def->length, def->length);
        QCOMPARE(apidOf(packet), std::uint16_t{7});
        QCOMPARE(sequenceCount(packet), static_cast<std::uint16_t>(i));
        QVERIFY(ccsds::checkPrimaryHeader(packet).ok());
    }
}

// ---- Recording ----------------------------------------------------------------------------------------

// A recording directory that cannot be created (its parent is a regular file; this works as root too):
// an Error event at start, every packet that should have been recorded is a record error, processing
// goes on unaffected.
void TestPipelineFaults::unwritableRecordingDirectory()
{
    QTemporaryDir dir;
    QFile blocker(dir.filePath("not-a-directory"));
    QVERIFY(blocker.open(QIODevice::WriteOnly));
    blocker.write("x");
    blocker.close();
    auto profile = oneStream("udp://127.0.0.1:0", dir);
    profile.recordingDirectory = dir.filePath("not-a-directory/rec").toStdString();
    profile.streams[0].packets.push_back({7, std::nullopt, config::ProcessingMode::ProcessEntirePacket, true, {}});
    auto station = startStation(profile, trainingDatabase());
    QVERIFY(station); // not an error at start: recording reports it
    auto& st = *station;
    const std::string url = udpUrl(st.localPort("tm"));

    const auto summary = test::sendPackets(st, "tm", {"Packet5"}, 1000, 5000);
    QVERIFY(settle(st, "tm", summary.sent.packets));

    const auto snap = st.snapshot();
    const auto* s = streamStats(snap, "tm");
    QVERIFY(s);
    QCOMPARE(s->kernelDrops, std::uint64_t{0});
    const auto* p5 = typeStats(*s, "Packet5");
    QVERIFY(p5);
    QCOMPARE(p5->counters.packetsReceived, summary.sent.packets);
    QCOMPARE(p5->counters.packetsProcessed, summary.sent.packets);
    QCOMPARE(p5->counters.parametersDecoded, summary.sent.packets * 88);
    QCOMPARE(p5->counters.recordErrors, summary.sent.packets);
    QCOMPARE(p5->counters.packetsRecorded, std::uint64_t{0});
    QCOMPARE(p5->counters.recordDrops, std::uint64_t{0});
    QVERIFY(snap.recordingErrors > 0);
    QVERIFY2(snap.recordingState.starts_with("failed"), snap.recordingState.c_str());
    QVERIFY(snap.hasLoss());
    st.flushEvents();
    const auto events = st.events();
    QVERIFY2(findEvent(events, events::Severity::Error, {"recording"}), eventList(events).c_str());
    std::error_code ec;
    QVERIFY(!std::filesystem::exists(profile.recordingDirectory, ec));

    expectCleanBurst(st, url, "HK_Status", 500, 5000);
}

// A full disk (a 1 MiB tmpfs; needs root, skipped otherwise): recording stops with an Error event,
// the rest are record errors, processing goes on, and the segment holds intact records of the first
// packets in order: as many as packetsRecorded says.
void TestPipelineFaults::diskFullStopsRecording()
{
    QTemporaryDir dir;
    test::SmallDisk disk(dir.filePath("small").toStdString(), "1m");
    if (!disk.mounted())
        QSKIP(disk.mountError().c_str());

    auto profile = oneStream("udp://127.0.0.1:0", dir);
    profile.recordingDirectory = disk.path() + "/rec";
    profile.streams[0].packets.push_back({7, std::nullopt, config::ProcessingMode::ProcessEntirePacket, true, {}});
    auto station = startStation(profile, trainingDatabase());
    QVERIFY(station);
    auto& st = *station;
    const std::string url = udpUrl(st.localPort("tm"));

    // About 4 MB of records: well past the disk.
    const auto summary = test::sendPackets(st, "tm", {"Packet5"}, 3000, 5000);
    QVERIFY(settle(st, "tm", summary.sent.packets));

    std::uint64_t recorded = 0;
    {
        const auto snap = st.snapshot();
        const auto* s = streamStats(snap, "tm");
        QVERIFY(s);
        QCOMPARE(s->kernelDrops, std::uint64_t{0});
        const auto* p5 = typeStats(*s, "Packet5");
        QVERIFY(p5);
        QCOMPARE(p5->counters.packetsProcessed, summary.sent.packets);
        QVERIFY(p5->counters.recordErrors > 0);
        QCOMPARE(p5->counters.packetsRecorded + p5->counters.recordErrors, summary.sent.packets);
        recorded = p5->counters.packetsRecorded;
        QVERIFY(snap.recordingErrors > 0);
        QVERIFY(snap.hasLoss());
        st.flushEvents(); // what the event thread has not reported yet
        const auto events = st.events();
        const auto* stopped = findEvent(events, events::Severity::Error, {"recording stopped"});
        QVERIFY2(stopped, eventList(events).c_str());
        QCOMPARE(stopped->stream, std::string("tm"));
    }

    expectCleanBurst(st, url, "HK_Status", 500, 5000);
    if (QTest::currentTestFailed())
        return;
    st.stop(); // closes the recording

    // What was written stays readable: intact records of the first packets, in order.
    std::uint64_t records = 0;
    for (const auto& entry : std::filesystem::directory_iterator(profile.recordingDirectory)) {
        if (entry.path().extension() != ".tsrec")
            continue;
        auto reader = record::SegmentReader::open(entry.path().string());
        QVERIFY2(reader, reader ? "" : reader.error().toString().c_str());
        record::RecordMeta meta;
        std::vector<std::uint8_t> payload;
        while ((*reader)->next(meta, payload)) {
            QCOMPARE(meta.apid, std::uint16_t{7});
            QCOMPARE(payload.size(), std::size_t{1288});
            QCOMPARE(sequenceCount(payload), static_cast<std::uint16_t>(records));
            ++records;
        }
        QVERIFY2((*reader)->end() != record::SegmentEnd::Damaged, (*reader)->problem().c_str());
    }
    qInfo("recorded %llu packets before the disk was full, %llu of them intact on disk",
          static_cast<unsigned long long>(recorded), static_cast<unsigned long long>(records));
    QVERIFY(records > 0);
    QVERIFY(records <= recorded);
    // Packets the writer had buffered when its write failed are lost with the buffer: they count as
    // record errors, not as recorded.
    QCOMPARE(records, recorded);
}

// A full disk stops recording; once there is space again (the file system grown), the operator resumes
// it: a new segment takes every packet from then on, and both the failure and the resumption are events.
void TestPipelineFaults::recordingResumesAfterSpaceIsFreed()
{
    QTemporaryDir dir;
    test::SmallDisk disk(dir.filePath("small").toStdString(), "512k");
    if (!disk.mounted())
        QSKIP(disk.mountError().c_str());

    auto profile = oneStream("udp://127.0.0.1:0", dir);
    profile.recordingDirectory = disk.path() + "/rec";
    profile.events.archiveFile = dir.filePath("events.sqlite").toStdString(); // not on the small disk
    profile.streams[0].packets.push_back({7, std::nullopt, config::ProcessingMode::ProcessEntirePacket, true, {}});
    auto station = startStation(profile, trainingDatabase());
    QVERIFY(station);
    auto& st = *station;
    auto summary = test::sendPackets(st, "tm", {"Packet5"}, 1000, 5000); // ~1.3 MB: past the disk
    QVERIFY(settle(st, "tm", summary.sent.packets));
    const auto recordedBefore = typeCounters(st, "tm", "Packet5").packetsRecorded;
    QVERIFY(typeCounters(st, "tm", "Packet5").recordErrors > 0);

    QVERIFY(disk.grow("8m"));
    st.resumeRecording();
    const u64 arrived = summary.sent.packets;
    summary = test::sendPackets(st, "tm", {"Packet5"}, 300, 5000);
    QVERIFY(settle(st, "tm", arrived + summary.sent.packets));
    const auto after = typeCounters(st, "tm", "Packet5");
    QCOMPARE(after.packetsRecorded, recordedBefore + 300);
    QVERIFY(st.snapshot().recordingState.starts_with("recording to"));
    st.flushEvents();
    const auto events = st.events();
    const auto* stopped = findEvent(events, events::Severity::Error, {"recording stopped"});
    QVERIFY2(stopped, eventList(events).c_str());
    QVERIFY(stopped->kind == events::EventKind::RecordingError);
    const auto* resumed = findEvent(events, events::Severity::Info, {"recording resumed into", ".tsrec"});
    QVERIFY2(resumed, eventList(events).c_str());
    QVERIFY(resumed->kind == events::EventKind::Recording);
}

// ---- Queues and the pool ------------------------------------------------------------------------------

// TReK's small queues and a flood: drops are counted against the queue and the packet type, every
// packet is accounted for, the network queue warns and fills; then the station goes on.
void TestPipelineFaults::queuesOverflowUnderAFlood()
{
    QTemporaryDir dir;
    auto profile = oneStream("udp://127.0.0.1:0", dir);
    profile.queues.networkPacketQueueSize = 100;
    profile.queues.networkPacketQueueWarningThreshold = 50;
    profile.queues.processPacketQueueSize = 20;
    profile.queues.recordPacketQueueSize = 20;
    profile.queues.forwardPacketQueueSize = 20;
    profile.queues.processedParameterQueueSize = 5;
    profile.streams[0].packets.push_back({100, std::nullopt, config::ProcessingMode::ProcessEntirePacket, true, {}});
    auto station = startStation(profile, trainingDatabase());
    QVERIFY(station);
    auto& st = *station;

    const auto summary = test::sendPackets(st, "tm", {"Packet5", "HK_Status"}, 20000, 0);
    QCOMPARE(summary.sent.packets, std::uint64_t{20000});
    QVERIFY(settle(st, "tm", summary.sent.packets));

    const auto snap = st.snapshot();
    const auto* s = streamStats(snap, "tm");
    QVERIFY(s);
    // Every packet sent is received (queue drops included) or dropped by the kernel.
    QCOMPARE(s->counters.packetsReceived + s->kernelDrops, summary.sent.packets);
    QCOMPARE(s->poolDrops, std::uint64_t{0});
    QCOMPARE(s->truncatedPackets, std::uint64_t{0});
    QCOMPARE(s->counters.malformed, std::uint64_t{0});
    qInfo("flood: kernel drops %llu, network queue drops %llu (warnings %llu), process queue drops %llu, "
          "record queue drops %llu",
          static_cast<unsigned long long>(s->kernelDrops), static_cast<unsigned long long>(s->networkQueue.drops),
          static_cast<unsigned long long>(s->networkQueue.warnings),
          static_cast<unsigned long long>(s->processQueue.drops),
          static_cast<unsigned long long>(s->recordQueue.drops));

    QCOMPARE(s->networkQueue.capacity, std::uint64_t{100});
    QCOMPARE(s->networkQueue.warningThreshold, std::uint64_t{50});
    QCOMPARE(s->processQueue.capacity, std::uint64_t{20});
    // Which queue overflows depends on which thread the scheduler favours during the burst (on a loaded
    // 2-core machine the router may keep up with the receiver); some queue must, and a queue that
    // dropped was full.
    QVERIFY(s->networkQueue.drops + s->processQueue.drops > 0);
    if (s->networkQueue.drops > 0) {
        QVERIFY(s->networkQueue.warnings > 0);
        QCOMPARE(s->networkQueue.highWater, s->networkQueue.capacity);
    }
    if (s->processQueue.drops > 0)
        QCOMPARE(s->processQueue.highWater, s->processQueue.capacity);
    QCOMPARE(s->recordQueue.capacity, std::uint64_t{20});
    for (const auto* q : {&s->networkQueue, &s->processQueue, &s->recordQueue, &s->forwardQueue})
        QCOMPARE(q->depth, std::uint64_t{0});

    // Per packet type: the drops add up to the queues', and each packet the router took went to the
    // processor or was dropped at the process queue (and likewise for the recorder).
    std::uint64_t networkDrops = 0, processDrops = 0, recordDrops = 0;
    for (const auto& t : s->packetTypes) {
        networkDrops += t.counters.networkDrops;
        processDrops += t.counters.processDrops;
        recordDrops += t.counters.recordDrops;
    }
    QCOMPARE(networkDrops, s->networkQueue.drops);
    QCOMPARE(processDrops, s->processQueue.drops);
    QCOMPARE(recordDrops, s->recordQueue.drops);
    QCOMPARE(s->counters.networkDrops, s->networkQueue.drops);
    QCOMPARE(s->counters.processDrops, s->processQueue.drops);
    const auto* p5 = typeStats(*s, "Packet5");
    const auto* hk = typeStats(*s, "HK_Status");
    QVERIFY(p5 && hk);
    QCOMPARE(p5->counters.packetsReceived + hk->counters.packetsReceived, s->counters.packetsReceived);
    for (const auto* t : {p5, hk}) {
        const auto& c = t->counters;
        const std::uint64_t routed = c.packetsReceived - c.networkDrops;
        QCOMPARE(c.packetsProcessed + c.processDrops, routed);
        QCOMPARE(c.packetsRecorded + c.recordDrops + c.recordErrors, t->record ? routed : std::uint64_t{0});
    }
    QCOMPARE(p5->counters.parametersDecoded, p5->counters.packetsProcessed * 88);
    QVERIFY(p5->counters.packetsReceived <= summary.apids.at(7).packets);
    QVERIFY(hk->counters.packetsReceived <= summary.apids.at(100).packets);
    QVERIFY(snap.hasLoss());

    // One packet at a time: the 20-packet process queue cannot overflow.
    expectLockStepPackets(st, st.localPort("tm"), "Spectrometer_LE", 50);
}

// A pool of 16 slots under a flood: packets with no free slot are dropped and counted per stream; the
// rest go through; afterwards packets one at a time are not short of slots.
void TestPipelineFaults::poolExhaustionIsCounted()
{
    QTemporaryDir dir;
    pipeline::StationOptions options;
    options.pool.smallSlots = 16;
    options.pool.largeSlots = 0;
    auto station = startStation(oneStream("udp://127.0.0.1:0", dir), trainingDatabase(), options);
    QVERIFY(station);
    auto& st = *station;

    const auto summary = test::sendPackets(st, "tm", {"Packet5"}, 5000, 0);
    QVERIFY(settle(st, "tm", summary.sent.packets));

    const auto snap = st.snapshot();
    const auto* s = streamStats(snap, "tm");
    QVERIFY(s);
    qInfo("pool: %llu drops, %llu kernel drops", static_cast<unsigned long long>(s->poolDrops),
          static_cast<unsigned long long>(s->kernelDrops));
    QVERIFY(s->poolDrops > 0);
    QCOMPARE(s->counters.packetsReceived + s->poolDrops + s->kernelDrops, summary.sent.packets);
    QCOMPARE(s->counters.packetsProcessed, s->counters.packetsReceived); // the default queues are large
    QCOMPARE(snap.poolCapacity, std::uint64_t{16});
    QCOMPARE(snap.poolInUse, std::uint64_t{0});
    QVERIFY(snap.hasLoss());

    expectLockStepPackets(st, st.localPort("tm"), "Spectrometer_LE", 50);
}

QTEST_GUILESS_MAIN(TestPipelineFaults)
#include "tst_pipeline_faults.moc"
