// The station's packet path allocates nothing per packet in steady state: receive → route → process
// (decode, current values, subscribers) / record / forward, counted with a replaced operator new over
// every thread of the process.
#include "tests/support/allocation_counter.hpp"

#include "core/api/consumer.hpp"
#include "core/ccsds/space_packet.hpp"
#include "core/io/sender.hpp"
#include "core/pipeline/station.hpp"
#include "core/stats/status_line.hpp"
#include "tests/support/station_fixture.hpp"
#include "tests/support/wait_until.hpp"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <QTemporaryDir>
#include <QtTest>

#include <thread>

using namespace telestation;
using namespace std::chrono_literals;

class TestHotPath : public QObject {
    Q_OBJECT

private slots:
    void steadyStateAllocatesNothingPerPacket();
};

void TestHotPath::steadyStateAllocatesNothingPerPacket()
{
    QTemporaryDir dir;
    // The forward destination: a bound socket nobody reads (a capture thread would allocate as it stores).
    const int sink = ::socket(AF_INET, SOCK_DGRAM, 0);
    sockaddr_in addr{};
    addr.sin_family = AF_INET;
    addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    QVERIFY(::bind(sink, reinterpret_cast<sockaddr*>(&addr), sizeof addr) == 0);
    socklen_t len = sizeof addr;
    ::getsockname(sink, reinterpret_cast<sockaddr*>(&addr), &len);
    const std::uint16_t sinkPort = ntohs(addr.sin_port);
    config::StationProfile profile;
    profile.recordingDirectory = dir.filePath("rec").toStdString();
    // Room for a loaded machine (sanitizers, parallel tests): this test is about allocation, not loss.
    profile.queues.networkPacketQueueSize = 16384;
    profile.queues.networkPacketQueueWarningThreshold = 12288;
    profile.queues.processPacketQueueSize = 16384;
    profile.queues.recordPacketQueueSize = 16384;
    profile.queues.forwardPacketQueueSize = 16384;
    config::StreamProfile sp;
    sp.name = "s";
    sp.source = "udp://127.0.0.1:0";
    sp.packets.push_back({7, std::nullopt, config::ProcessingMode::ProcessEntirePacket, true,
                          {"udp://127.0.0.1:" + std::to_string(sinkPort)}});
    profile.streams.push_back(sp);
    auto station = pipeline::Station::create(profile, test::trainingDatabase());
    QVERIFY(station);
    auto& st = **station;
    api::PacketSubscription::Options po;
    po.capacity = 16384;
    auto packets = api::PacketSubscription::create(st, po);
    api::ParameterSubscription::Options pa;
    pa.capacity = 1 << 21;
    auto parameters = api::ParameterSubscription::create(st, pa);
    QVERIFY(packets && parameters);
    QVERIFY(st.start());

    auto endpoint = io::parseEndpoint("udp://127.0.0.1:" + std::to_string(st.localPort("s")));
    QVERIFY(endpoint);
    io::SenderOptions so;
    so.udpSegmentation = false;
    auto sender = io::openSender(*endpoint, so);
    QVERIFY(sender);
    std::vector<std::vector<std::uint8_t>> frames(64, std::vector<std::uint8_t>(1288, 0x5A));
    std::vector<std::span<const std::uint8_t>> spans(frames.begin(), frames.end());
    std::uint16_t sequence = 0;
    std::vector<api::ParameterSample> samples(1 << 16);
    std::uint64_t consumed = 0;
    // Consumers keep pulling until the station is idle (a slow build, e.g. under ThreadSanitizer, may
    // still be processing when the sender is done).
    const auto drainUntilIdle = [&] {
        const auto deadline = std::chrono::steady_clock::now() + 20s;
        while (std::chrono::steady_clock::now() < deadline) {
            const std::size_t n = (*packets)->poll([](const api::PacketView&) {}, 4096) + (*parameters)->poll(samples);
            consumed += n;
            if (n == 0 && st.idle())
                return true;
            if (n == 0)
                std::this_thread::sleep_for(1ms);
        }
        return false;
    };
    const auto sendBurst = [&](int batches) {
        for (int b = 0; b < batches; ++b) {
            for (auto& f : frames) {
                ccsds::PrimaryHeader h;
                h.apid = 7;
                h.sequenceCount = sequence++ & 0x3FFF;
                h.dataLength = 1288 - 7;
                ccsds::writePrimaryHeader(h, f.data());
            }
            (*sender)->send(spans);
            std::this_thread::sleep_for(400us); // about 150k packets/s: no queue or socket overflows
            consumed += (*packets)->poll([](const api::PacketView&) {}, 4096);
            consumed += (*parameters)->poll(samples);
            // Back-pressure every 8 batches: a slow build (sanitizers, parallel tests) cannot decode at
            // the sender's pace, and this test is about allocation, not about loss at a given rate.
            if (b % 8 == 7)
                drainUntilIdle();
        }
    };
    sendBurst(100); // warm-up: pages touched, segment opened, destinations opened
    QVERIFY(drainUntilIdle());
    st.flushEvents(); // the warm-up's events (the first values out of limits) reported before counting
    const long before = test::allocations();
    sendBurst(300); // 19,200 packets
    QVERIFY(drainUntilIdle());
    const long during = test::allocations() - before;
    // Idle means the station's queues are empty, not that its receiver has read the socket: on a busy
    // machine the last batches may still wait there. Every packet must be read before the counts are
    // compared (snapshots allocate, so this waits after the allocations were counted).
    QVERIFY(test::waitUntil([&] {
        (void)(*packets)->poll([](const api::PacketView&) {}, 4096);
        (void)(*parameters)->poll(samples);
        return st.snapshot().streams[0].counters.packetsReceived >= std::uint64_t{400 * 64} && st.idle();
    }));
    while ((*packets)->poll([](const api::PacketView&) {}, 4096) + (*parameters)->poll(samples) > 0) {
    }
    const auto snap = st.snapshot();
    st.stop();
    const auto& c = snap.streams[0].counters;
    QCOMPARE(c.packetsReceived, std::uint64_t{400 * 64});
    QCOMPARE(c.packetsProcessed, c.packetsReceived);
    QCOMPARE(c.packetsRecorded, c.packetsReceived);
    QCOMPARE(c.packetsForwarded, c.packetsReceived);
    QVERIFY2(!snap.hasLoss(), stats::summaryTable(snap).c_str());
    // Periodic work allocates nothing while nothing changes (the event thread's rounds, the forwarder's
    // 5 Hz destination refresh); a change (a send error, a queue warning) may allocate a few times. Per
    // packet it would be tens of thousands.
    qInfo("allocations while 19,200 packets passed: %ld", during);
    ::close(sink);
    QVERIFY2(during <= 20, qPrintable(QStringLiteral("%1 allocations for 19,200 packets").arg(during)));
}

QTEST_GUILESS_MAIN(TestHotPath)
#include "tst_pipeline_hot_path.moc"
