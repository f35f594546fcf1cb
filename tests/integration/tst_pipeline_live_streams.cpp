// Streams added, changed and removed while the others run (issue 15, point 1), over real loopback
// sockets with the simulator as the sender: the untouched stream loses nothing and its counters never
// go backwards; the edited stream loses only what arrived while its own socket reopened; a refused
// change leaves the station as it was; a removed stream's queued packets are processed, recorded and
// forwarded before it goes. Also run under ThreadSanitizer (the tsan preset runs the integration
// label), which sees the workers, the event thread and a snapshot thread race the changes.
//
// Duration and rate: TELESTATION_LIVE_STREAMS_SECONDS (default 30; 6 under TSan) and
// TELESTATION_LIVE_STREAMS_RATE (packets/s per stream; default 20,000; 5,000 under ASan, where the
// processor of three 20,000/s streams fell behind once beside another test; 2,000 under TSan). Whatever the
// time, at least kMinCycles add/edit/remove cycles run. Another test adds and removes streams until the
// ids have gone round (300-odd changes in well under a second).
#include "core/api/consumer.hpp"
#include "core/config/station_profile.hpp"
#include "core/pipeline/station.hpp"
#include "core/record/recording_catalog.hpp"
#include "sim/engine/sim_stream.hpp"
#include "tests/support/capture_receiver.hpp"
#include "tests/support/held_udp_port.hpp"
#include "tests/support/sanitizers.hpp"
#include "tests/support/sim_traffic.hpp"
#include "tests/support/station_fixture.hpp"
#include "tests/support/wait_until.hpp"

#include <QElapsedTimer>
#include <QTemporaryDir>
#include <QtTest>

#include <atomic>
#include <cstdlib>
#include <string>
#include <thread>

using namespace telestation;

namespace {

using u64 = std::uint64_t;

#if defined(__SANITIZE_THREAD__)
constexpr bool kThreadSanitizer = true;
#elif defined(__has_feature)
#if __has_feature(thread_sanitizer)
constexpr bool kThreadSanitizer = true;
#else
constexpr bool kThreadSanitizer = false;
#endif
#else
constexpr bool kThreadSanitizer = false;
#endif

constexpr int kMinCycles = 12;

double fromEnvironment(const char* name, double fallback)
{
    const char* text = std::getenv(name);
    if (!text)
        return fallback;
    char* end = nullptr;
    const double value = std::strtod(text, &end);
    return end != text && value > 0 ? value : fallback;
}

config::PacketSettings byName(const std::string& packet, config::ProcessingMode mode, bool record = false,
                              std::vector<std::string> forward = {})
{
    config::PacketSettings ps;
    ps.packet = packet;
    ps.mode = mode;
    ps.record = record;
    ps.forward = std::move(forward);
    return ps;
}

// The counters of a stream that must only grow.
struct Growing {
    u64 received = 0, processed = 0, bytes = 0, decoded = 0;
    [[nodiscard]] bool atLeast(const Growing& before) const
    {
        return received >= before.received && processed >= before.processed && bytes >= before.bytes
            && decoded >= before.decoded;
    }
};

Growing growing(const stats::StreamStats& s)
{
    return {s.counters.packetsReceived, s.counters.packetsProcessed, s.counters.bytesReceived, s.counters.parametersDecoded};
}

// Takes snapshots on a thread of its own all along (as the GUI's feed does) and checks that the
// untouched stream's counters never go backwards; reads a current value of it too.
class Watcher {
public:
    Watcher(pipeline::Station& station, std::string stream) : m_station(station), m_stream(std::move(stream))
    {
        m_thread = std::thread([this] { run(); });
    }
    ~Watcher() { stop(); }
    void stop()
    {
        m_stop = true;
        if (m_thread.joinable())
            m_thread.join();
    }
    [[nodiscard]] std::string problem() const { return m_problem; } // after stop()
    [[nodiscard]] u64 snapshots() const { return m_snapshots; }

private:
    void run()
    {
        api::ParameterReader reader(m_station);
        Growing last;
        while (!m_stop.load()) {
            const auto snap = m_station.snapshot();
            const auto* s = test::streamStats(snap, m_stream);
            if (!s) {
                m_problem = "stream " + m_stream + " missing from a snapshot";
                return;
            }
            const Growing now = growing(*s);
            if (!now.atLeast(last)) {
                m_problem = "the counters of " + m_stream + " went backwards";
                return;
            }
            last = now;
            (void)reader.read(m_stream, "HK_Status.BUS_CURRENT");
            ++m_snapshots;
            std::this_thread::sleep_for(std::chrono::milliseconds(1));
        }
    }

    pipeline::Station& m_station;
    std::string m_stream;
    std::atomic<bool> m_stop{false};
    std::string m_problem;
    u64 m_snapshots = 0;
    std::thread m_thread;
};

std::string errorOf(const Status& st)
{
    return st ? std::string() : st.error().message;
}

} // namespace

class TestLiveStreams : public QObject {
    Q_OBJECT

private slots:
    void streamsChangeWhileOthersRun();
    void refusedChangesLeaveTheStationAsItWas();
    void removingPassesQueuedPacketsOnFirst();
    void samePortReplacementFallsBackToTheOldSource();
    void settingsOnlyEditKeepsTheSocket();
    void aRemovedStreamsIdIsNotMistakenForAnother();
};

void TestLiveStreams::streamsChangeWhileOthersRun()
{
    const double seconds = fromEnvironment("TELESTATION_LIVE_STREAMS_SECONDS", kThreadSanitizer ? 6 : 30);
    const double rate = fromEnvironment("TELESTATION_LIVE_STREAMS_RATE", kThreadSanitizer ? 2000 : test::kSanitized ? 5000 : 20000);
    QTemporaryDir dir;
    const auto& db = test::trainingDatabase();
    auto profile = test::stationProfile(dir, {test::streamProfile("A"), test::streamProfile("B"), test::streamProfile("C")});
    profile.streams[1].transportHeaderBytes = 4;
    // C comes and goes: it only needs to pass its packets on (the processor's time is A's).
    profile.streams[2].packets = {byName("HK_Status", config::ProcessingMode::PassThru),
                                  byName("GNC_State", config::ProcessingMode::PassThru)};
    // A 2-core machine shared with builds may hold the processor off for a while: queues that hold
    // more than a second of A's packets, as an operator would configure for a busy machine.
    profile.queues.processPacketQueueSize = 32768;
    profile.queues.networkPacketQueueSize = 32768;
    auto station = test::startStation(profile, db);
    QVERIFY(station);
    auto& st = *station;
    const std::uint16_t portB = st.localPort("B"), portC = st.localPort("C");
    QVERIFY(portB != 0 && portC != 0);

    const std::vector<std::string> mix{"HK_Status", "GNC_State"};
    auto simA = test::simulator(test::traffic(test::streamAddress(st, "A"), mix, std::nullopt, rate), db);
    auto configB = test::traffic(test::streamAddress(st, "B"), {"HK_Status"}, std::nullopt, rate);
    configB.transportHeaderBytes = 4;
    auto simB = test::simulator(configB, db);
    auto simC = test::simulator(test::traffic(test::streamAddress(st, "C"), mix, std::nullopt, rate), db);
    simA->start();
    simB->start();
    simC->start();
    Watcher watcher(st, "A");

    config::StreamProfile b = st.profile().streams[1]; // edited in place, cycle after cycle
    b.source = "udp://127.0.0.1:" + std::to_string(portB);
    const config::StreamProfile c0 = st.profile().streams[2];
    u64 reopenWindows = 0; // packets the simulator sent to B while B's socket was being replaced
    int cycles = 0, reopens = 0;
    QElapsedTimer clock;
    clock.start();
    while (clock.elapsed() < seconds * 1000 || cycles < kMinCycles) {
        ++cycles;
        const bool odd = cycles % 2 == 1;
        // A fourth stream comes, takes packets (recorded), and goes.
        auto d = test::streamProfile("D", "udp://127.0.0.1:0", {byName("HK_Status", config::ProcessingMode::ProcessEntirePacket, true)});
        QVERIFY2(st.addStream(d), "adding D");
        const auto sentD = test::sendPackets(st, "D", {"HK_Status"}, 64, rate);
        QVERIFY(sentD.sent.packets == 64);
        QCOMPARE(errorOf(st.removeStream("D")), std::string());

        // B's packet settings (live, no reopen).
        b.packets = {byName("HK_Status", odd ? config::ProcessingMode::ProcessOnDemand : config::ProcessingMode::PassThru)};
        QCOMPARE(errorOf(st.replaceStream("B", b)), std::string());
        // Its name and transport header (the receiver restarts on the open socket), and back.
        auto renamed = b;
        renamed.name = "B-renamed";
        renamed.transportHeaderBytes = 8;
        QCOMPARE(errorOf(st.replaceStream("B", renamed)), std::string());
        QVERIFY(st.streamId("B-renamed").has_value() && !st.streamId("B").has_value());
        QCOMPARE(errorOf(st.replaceStream("B-renamed", b)), std::string());
        // Its source: the same port on another address, so the old socket must close first.
        b.source = (odd ? "udp://0.0.0.0:" : "udp://127.0.0.1:") + std::to_string(portB);
        const u64 before = simB->live().packets;
        QCOMPARE(errorOf(st.replaceStream("B", b)), std::string());
        reopenWindows += simB->live().packets - before;
        ++reopens;
        QCOMPARE(st.localPort("B"), portB);

        // C goes and comes back on its port.
        QCOMPARE(errorOf(st.removeStream("C")), std::string());
        QVERIFY(!st.streamId("C").has_value());
        auto c = c0;
        c.source = "udp://127.0.0.1:" + std::to_string(portC);
        QCOMPARE(errorOf(st.addStream(c)), std::string());
        QCOMPARE(st.streamCount(), std::size_t{3});
    }
    simA->stop();
    simB->stop();
    simC->stop();
    watcher.stop();
    QCOMPARE(watcher.problem(), std::string());
    QVERIFY(watcher.snapshots() > 0);
    qInfo("%d cycles in %.1f s at %.0f packets/s per stream; %llu snapshots taken meanwhile", cycles,
          clock.elapsed() / 1000.0, rate, static_cast<unsigned long long>(watcher.snapshots()));

    // A: every packet the simulator sent was received and processed.
    const auto sentA = simA->summary().sent;
    QVERIFY(test::settle(st, "A", sentA.packets));
    // B: what its socket holds is received when it stops (the receiver's last look), then it is idle.
    QCOMPARE(errorOf(st.stopStream("B")), std::string());
    QVERIFY(st.waitIdle(test::kGenerousWait));
    const auto snap = st.snapshot();
    const auto* a = test::streamStats(snap, "A");
    QVERIFY(a);
    qInfo("A: %llu sent, %llu received, %llu processed; drops: network %llu, process %llu, kernel %llu",
          static_cast<unsigned long long>(sentA.packets), static_cast<unsigned long long>(a->counters.packetsReceived),
          static_cast<unsigned long long>(a->counters.packetsProcessed), static_cast<unsigned long long>(a->counters.networkDrops),
          static_cast<unsigned long long>(a->counters.processDrops), static_cast<unsigned long long>(a->kernelDrops));
    QCOMPARE(a->counters.packetsReceived, sentA.packets);
    QCOMPARE(a->counters.bytesReceived, sentA.bytes);
    QCOMPARE(a->counters.packetsProcessed, sentA.packets);
    QCOMPARE(a->counters.packetsLost, u64{0});
    QCOMPARE(a->counters.sequenceErrors, u64{0});
    QCOMPARE(a->counters.networkDrops, u64{0});
    QCOMPARE(a->counters.processDrops, u64{0});
    QCOMPARE(a->kernelDrops, u64{0});

    // B loses nothing beyond the packets sent while its own socket reopened, and what it lost shows
    // as a sequence loss.
    const auto* bStats = test::streamStats(snap, "B");
    QVERIFY(bStats);
    const u64 sentB = simB->summary().sent.packets;
    const u64 arrivedB = test::arrivals(*bStats);
    QVERIFY2(arrivedB <= sentB, "B received more than was sent");
    const u64 lostB = sentB - arrivedB;
    qInfo("B: %llu sent, %llu lost over %d reopens (%llu sent during them)", static_cast<unsigned long long>(sentB),
          static_cast<unsigned long long>(lostB), reopens, static_cast<unsigned long long>(reopenWindows));
    QVERIFY2(lostB <= reopenWindows, "B lost packets outside its reopens");
    QVERIFY(bStats->counters.packetsLost >= lostB);
}

void TestLiveStreams::refusedChangesLeaveTheStationAsItWas()
{
    QTemporaryDir dir;
    const auto& db = test::trainingDatabase();
    auto station = test::startStation(test::stationProfile(dir, {test::streamProfile("A"), test::streamProfile("B")}), db);
    QVERIFY(station);
    auto& st = *station;
    auto sim = test::simulator(test::traffic(test::streamAddress(st, "A"), {"HK_Status"}, std::nullopt, 2000), db);
    sim->start();
    const std::uint16_t portB = st.localPort("B");
    const config::StationProfile before = st.profile();
    test::HeldUdpPort held;
    QVERIFY(held.port() != 0);

    struct Case {
        const char* what;
        config::StreamProfile stream;
        std::string expected; // a piece of the reason
    };
    auto good = test::streamProfile("C");
    auto badUrl = good;
    badUrl.source = "udp//127.0.0.1:5000";
    auto duplicate = good;
    duplicate.name = "A";
    auto noPacket = good;
    noPacket.packets = {byName("NO_SUCH_PACKET", config::ProcessingMode::PassThru)};
    auto portInUse = good;
    portInUse.source = "udp://127.0.0.1:" + std::to_string(held.port());
    auto unresolvable = good;
    unresolvable.source = "udp://no-such-host.invalid:5000";
    auto badName = good;
    badName.name = "no spaces";
    const std::vector<Case> cases{{"bad URL", badUrl, "udp//"},
                                  {"duplicate name", duplicate, "exists already"},
                                  {"no such packet", noPacket, "NO_SUCH_PACKET"},
                                  {"port in use", portInUse, std::to_string(held.port())},
                                  {"unresolvable host", unresolvable, "no-such-host.invalid"},
                                  {"malformed name", badName, "stream name"}};
    for (const Case& c : cases) {
        const u64 countedBefore = test::arrivals(*test::streamStats(st.snapshot(), "A"));
        const Status added = st.addStream(c.stream);
        QVERIFY2(!added, c.what);
        QVERIFY2(added.error().message.find(c.expected) != std::string::npos, (c.what + std::string(": ") + added.error().message).c_str());
        // Replacing B with it is refused the same way (a duplicate name: another stream's), and B is as it was.
        const Status replaced = st.replaceStream("B", c.stream);
        QVERIFY2(!replaced, c.what);
        QVERIFY2(st.profile() == before, c.what);
        QCOMPARE(st.streamCount(), std::size_t{2});
        QCOMPARE(st.localPort("B"), portB);
        QVERIFY(st.streamRunning("A") && st.streamRunning("B"));
        // A keeps counting.
        QVERIFY2(test::waitUntil([&] { return test::arrivals(*test::streamStats(st.snapshot(), "A")) > countedBefore; }), c.what);
    }
    QVERIFY(!st.removeStream("no-such-stream"));
    QVERIFY(st.profile() == before);
    sim->stop();
}

void TestLiveStreams::removingPassesQueuedPacketsOnFirst()
{
    QTemporaryDir dir;
    const auto& db = test::trainingDatabase();
    test::UdpCapture capture;
    const std::string forwardTo = test::udpUrl(capture.port());
    auto profile = test::stationProfile(dir, {test::streamProfile("keep"), test::streamProfile("going", "udp://127.0.0.1:0",
        {byName("HK_Status", config::ProcessingMode::ProcessEntirePacket, true, {forwardTo})})});
    auto station = test::startStation(profile, db);
    QVERIFY(station);
    auto& st = *station;
    api::PacketSubscription::Options options;
    options.stream = "going";
    options.capacity = 1 << 16;
    auto packets = api::PacketSubscription::create(st, options);
    QVERIFY(packets);

    // Sent as fast as the simulator can (no more than every queue holds), and removed at once: packets
    // are still in its socket and queues.
    const auto sent = test::sendPackets(st, "going", {"HK_Status"}, 4000, 0);
    QCOMPARE(sent.sent.packets, u64{4000});
    QCOMPARE(errorOf(st.removeStream("going")), std::string());
    QVERIFY(!st.streamId("going").has_value());
    QVERIFY(!test::streamStats(st.snapshot(), "going"));

    // Processed: the subscription got every packet the stream received (it is not fed any more).
    u64 delivered = 0;
    (*packets)->poll([&](const api::PacketView&) { ++delivered; }, 1u << 20);
    // Recorded: its recording is closed, every packet in it.
    auto catalog = record::RecordingCatalog::open(profile.recordingDirectory);
    QVERIFY2(catalog, catalog ? "" : catalog.error().toString().c_str());
    u64 recorded = 0;
    for (const auto& segment : (*catalog)->segments()) {
        if (segment.streamName != "going")
            continue;
        QVERIFY(segment.state == record::SegmentState::Closed);
        recorded += segment.packets;
    }
    // Forwarded: every packet left for the destination.
    QVERIFY(test::waitUntil([&] { return capture.count() >= delivered; }));
    QCOMPARE(delivered, sent.sent.packets);
    QCOMPARE(recorded, delivered);
    QCOMPARE(static_cast<u64>(capture.count()), delivered);
    // The events say it was removed; the stream that stays runs on.
    st.flushEvents();
    bool removedEvent = false;
    for (const auto& e : st.events())
        removedEvent = removedEvent || (e.stream == "going" && e.text == "stream removed");
    QVERIFY(removedEvent);
    const auto keep = test::sendPackets(st, "keep", {"HK_Status"}, 500);
    QVERIFY(test::settle(st, "keep", keep.sent.packets));
}

void TestLiveStreams::samePortReplacementFallsBackToTheOldSource()
{
    QTemporaryDir dir;
    const auto& db = test::trainingDatabase();
    auto station = test::startStation(test::stationProfile(dir, {test::streamProfile("A")}), db);
    QVERIFY(station);
    auto& st = *station;
    const std::uint16_t port = st.localPort("A");
    const config::StationProfile before = st.profile();
    // The same port on an address this host does not have: the old socket is closed, the new one
    // cannot bind, the old one is opened again.
    auto next = before.streams[0];
    next.source = "udp://192.0.2.1:" + std::to_string(port);
    QVERIFY(!st.replaceStream("A", next));
    QVERIFY(st.profile() == before);
    QCOMPARE(st.localPort("A"), port);
    QVERIFY(st.streamRunning("A"));
    const auto sent = test::sendPackets(st, "A", {"HK_Status"}, 300);
    QVERIFY(test::settle(st, "A", sent.sent.packets));
}

void TestLiveStreams::settingsOnlyEditKeepsTheSocket()
{
    QTemporaryDir dir;
    const auto& db = test::trainingDatabase();
    auto station = test::startStation(test::stationProfile(dir, {test::streamProfile("A")}), db);
    QVERIFY(station);
    auto& st = *station;
    auto sim = test::simulator(test::traffic(test::streamAddress(st, "A"), {"HK_Status"}, 4000, 4000), db);
    sim->start();
    auto edited = st.profile().streams[0];
    for (int i = 0; i < 40; ++i) {
        edited.packets = {byName("HK_Status", i % 2 ? config::ProcessingMode::ProcessOnDemand : config::ProcessingMode::PassThru)};
        edited.unknownMode = i % 2 ? config::ProcessingMode::Discard : config::ProcessingMode::PassThru;
        edited.staleAfterSeconds = 1 + i;
        QCOMPARE(errorOf(st.replaceStream("A", edited)), std::string());
        QVERIFY(st.profile().streams[0] == edited);
    }
    sim->wait();
    QVERIFY(test::settle(st, "A", sim->summary().sent.packets));
    st.flushEvents();
    int settingsOnly = 0;
    for (const auto& e : st.events())
        settingsOnly += e.stream == "A" && e.text.find("settings only") != std::string::npos ? 1 : 0;
    QVERIFY(settingsOnly >= 1); // storms of alike events merge: at least one is shown
    QCOMPARE(test::streamStats(st.snapshot(), "A")->counters.packetsLost, u64{0});
}

// Ids go round before one comes back; a subscription or a newest-value pair of a removed stream gets
// nothing of the stream that later takes its id.
void TestLiveStreams::aRemovedStreamsIdIsNotMistakenForAnother()
{
    QTemporaryDir dir;
    const auto& db = test::trainingDatabase();
    pipeline::StationOptions options;
    options.pollTimeout = std::chrono::milliseconds(2); // a stopping receiver notices at once
    auto station = test::startStation(test::stationProfile(dir, {test::streamProfile("A")}), db, options);
    QVERIFY(station);
    auto& st = *station;
    QCOMPARE(errorOf(st.addStream(test::streamProfile("X"))), std::string());
    const auto first = st.streamId("X");
    QVERIFY(first);
    api::PacketSubscription::Options po;
    po.stream = "X";
    auto packets = api::PacketSubscription::create(st, po);
    QVERIFY(packets);
    auto newest = api::ParameterSubscription::createNewest(st);
    const auto parameter = st.types().parameterId("HK_Status.BUS_CURRENT");
    QVERIFY(parameter);
    bool added = false;
    (void)newest->add(*first, *parameter, &added);
    QVERIFY(added);
    QCOMPARE(errorOf(st.removeStream("X")), std::string());
    QVERIFY(!api::ParameterReader(st).read(*first, *parameter)); // no such stream now

    int adds = 0;
    std::optional<std::uint16_t> id;
    for (; adds < 600; ++adds) {
        QCOMPARE(errorOf(st.addStream(test::streamProfile("Y"))), std::string());
        id = st.streamId("Y");
        if (id == first)
            break;
        QCOMPARE(errorOf(st.removeStream("Y")), std::string());
    }
    QCOMPARE(id, first);
    QVERIFY2(adds > 200, "ids must go round before one comes back");
    const auto sent = test::sendPackets(st, "Y", {"HK_Status"}, 200);
    QVERIFY(test::settle(st, "Y", sent.sent.packets));
    QCOMPARE(test::streamStats(st.snapshot(), "Y")->counters.packetsProcessed, sent.sent.packets);
    std::size_t delivered = (*packets)->poll([](const api::PacketView&) {});
    QCOMPARE(delivered, std::size_t{0}); // the removed X's subscription is not fed Y's packets
    std::vector<api::ParameterSample> samples(16);
    QCOMPARE(newest->poll(samples), std::size_t{0}); // nor is X's newest-value pair
    QVERIFY(api::ParameterReader(st).read(*first, *parameter).has_value()); // the id is Y's now
}

QTEST_GUILESS_MAIN(TestLiveStreams)
#include "tst_pipeline_live_streams.moc"
