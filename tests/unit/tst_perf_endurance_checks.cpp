// What the endurance run judges by, without running it: a statistics snapshot read back from the JSON
// the station writes (core/stats' own writer) with the same loss verdict; the loss check per stream
// and APID against what the simulator sent; the resident memory over a period (growth after the
// warm-up, when it levelled off).
#include "core/stats/snapshot_json.hpp"
#include "tools/perf/perf_delivery.hpp"
#include "tools/perf/perf_memory.hpp"
#include "tools/perf/perf_snapshot.hpp"

#include <QtTest>

using namespace telestation;
using namespace telestation::perf;

namespace {

// One stream "tm": APID 7 processed entirely and recorded (3 parameters), APID 100 on demand.
stats::StationSnapshot station(std::uint64_t packets7, std::uint64_t packets100)
{
    stats::PacketTypeStats a;
    a.name = "Packet5";
    a.apid = 7;
    a.mode = "processEntirePacket";
    a.record = true;
    a.counters.packetsReceived = a.counters.packetsProcessed = a.counters.packetsDecoded = packets7;
    a.counters.packetsRecorded = packets7;
    a.counters.parametersDecoded = 3 * packets7;
    stats::PacketTypeStats b;
    b.name = "HK_Status";
    b.apid = 100;
    b.mode = "processOnDemand";
    b.counters.packetsReceived = b.counters.packetsProcessed = packets100;
    stats::StreamStats s;
    s.name = "tm";
    s.packetTypes = {a, b};
    s.counters = a.counters;
    s.counters += b.counters;
    stats::StationSnapshot snapshot;
    snapshot.streams = {s};
    snapshot.totals = s.counters;
    return snapshot;
}

sim::SimSummary sent(std::uint64_t packets7, std::uint64_t packets100)
{
    sim::StreamSummary s;
    s.name = "tm";
    s.generated = packets7 + packets100;
    s.sent.packets = packets7 + packets100;
    s.apids[7].packets = packets7;
    s.apids[100].packets = packets100;
    return sim::SimSummary{{s}};
}

std::vector<EnduranceSample> samples(std::initializer_list<std::uint64_t> mib)
{
    std::vector<EnduranceSample> out;
    double t = 0;
    for (const auto m : mib)
        out.push_back({t++, m << 20, 0, 0});
    return out;
}

} // namespace

class TestPerfEnduranceChecks : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void snapshotReadBackFromItsJson()
    {
        stats::StationSnapshot s = station(10, 4);
        s.streams[0].networkQueue.drops = 2;
        s.streams[0].kernelDrops = 1;
        s.forwards.push_back({"udp://127.0.0.1:9", "sending", true, 5, 500, 0, 0, 0});
        const stats::StationSnapshot back = snapshotFromJson(Json::parse(stats::toJson(s)));
        QVERIFY(back.totals == s.totals);
        QCOMPARE(back.streams.size(), std::size_t{1});
        QCOMPARE(back.streams[0].packetTypes.size(), std::size_t{2});
        QVERIFY(back.streams[0].packetTypes[0].counters == s.streams[0].packetTypes[0].counters);
        QCOMPARE(QString::fromStdString(back.streams[0].packetTypes[0].mode), QStringLiteral("processEntirePacket"));
        QVERIFY(back.streams[0].packetTypes[0].record);
        QCOMPARE(back.streams[0].networkQueue.drops, std::uint64_t{2});
        QCOMPARE(back.forwards.at(0).packets, std::uint64_t{5});
        QCOMPARE(back.hasLoss(), s.hasLoss());
        const std::string loss = lossText(back);
        QVERIFY2(loss.find("stream tm: kernelDrops 1, networkQueue drops 2") != std::string::npos, loss.c_str());
        QVERIFY(lossText(snapshotFromJson(Json::parse(stats::toJson(station(10, 4))))).empty());
    }

    void everythingDeliveredPasses()
    {
        const Delivery d = checkDelivery(sent(10, 4), station(10, 4), {{"Packet5", 3}});
        QVERIFY2(d.failure.empty(), d.failure.c_str());
        QCOMPARE(d.sent, std::uint64_t{14});
        QCOMPARE(d.toRecord, std::uint64_t{10});
        QCOMPARE(d.toForward, std::uint64_t{0});
        QCOMPARE(d.streams.at(0).received, std::uint64_t{14});
    }

    void whatIsMissingIsNamedByStreamAndApid()
    {
        stats::StationSnapshot s = station(10, 4);
        s.streams[0].packetTypes[0].counters.packetsRecorded = 9;
        s.streams[0].packetTypes[0].counters.parametersDecoded = 29;
        const Delivery d = checkDelivery(sent(10, 4), s, {{"Packet5", 3}});
        QVERIFY2(d.failure.find("stream tm APID 7: parameters decoded 29 of 30") != std::string::npos, d.failure.c_str());
        QVERIFY2(d.failure.find("stream tm APID 7: recorded 9 of 10") != std::string::npos, d.failure.c_str());
        // A packet the simulator sent that never arrived, and a stream the station does not have.
        sim::SimSummary more = sent(11, 4);
        more.streams.push_back(more.streams[0]);
        more.streams[1].name = "other";
        const Delivery e = checkDelivery(more, station(10, 4), {{"Packet5", 3}});
        QVERIFY2(e.failure.find("stream tm: received 14 of 15") != std::string::npos, e.failure.c_str());
        QVERIFY2(e.failure.find("stream other: not in the station") != std::string::npos, e.failure.c_str());
    }

    void memoryGrowthAfterTheWarmupAndWhenItLevelledOff()
    {
        // 0..9 s: rises until 4 s, then flat at 110 MiB but for one step of 1 MiB at 7 s (under 1%).
        const auto s = samples({50, 80, 100, 108, 110, 110, 110, 111, 111, 111});
        const MemoryPeriod m = memoryPeriod(s, 0, 4, 9);
        QVERIFY(m.measured);
        QCOMPARE(m.atStart, std::uint64_t{50} << 20);
        QCOMPARE(m.afterWarmup, std::uint64_t{110} << 20);
        QCOMPARE(m.atEnd, std::uint64_t{111} << 20);
        QCOMPARE(m.peak, std::uint64_t{111} << 20);
        QVERIFY(qAbs(m.growthPercent - 100.0 / 110) < 1e-9);
        QCOMPARE(m.levelledOffAt, 4.0);
        // A period of its own: from 2 s, its warm-up to 3 s, to 5 s.
        const MemoryPeriod p = memoryPeriod(s, 2, 3, 5);
        QCOMPARE(p.atStart, std::uint64_t{100} << 20);
        QCOMPARE(p.afterWarmup, std::uint64_t{108} << 20);
        QCOMPARE(p.atEnd, std::uint64_t{110} << 20);
        QCOMPARE(p.levelledOffAt, 4.0);
        // Still growing at the end: levelled off only at the last sample.
        QCOMPARE(memoryPeriod(samples({10, 20, 30, 40}), 0, 1, 3).levelledOffAt, 3.0);
        // No sample after the warm-up: not measured.
        QVERIFY(!memoryPeriod(s, 0, 20, 9).measured);
    }
};

QTEST_GUILESS_MAIN(TestPerfEnduranceChecks)
#include "tst_perf_endurance_checks.moc"
