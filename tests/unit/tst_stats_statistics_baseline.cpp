// StatisticsBaseline, a view's Reset: counters since the reset at every level (totals, streams, packet
// types, queues, forwards, consumers), states passed through, the largest gap and the high water as
// maxima, restarted counters and items new since the reset shown as they are, clear() and a second
// reset.
#include "core/stats/statistics_baseline.hpp"

#include <QtTest>

#include <cstdint>

using namespace telestation::stats;

namespace {

using u64 = std::uint64_t;

PacketTypeStats packetType(const char* name, std::uint32_t apid, u64 received, u64 largestGap)
{
    PacketTypeStats t;
    t.name = name;
    t.apid = apid;
    t.mode = "processEntirePacket";
    t.counters.packetsReceived = received;
    t.counters.bytesReceived = received * 100;
    t.counters.largestGap = largestGap;
    return t;
}

// The snapshot at the reset: one stream of two packet types, a forward and two consumers of the same
// name (told apart by their occurrence).
StationSnapshot atReset()
{
    StationSnapshot s;
    s.timeNs = 1'700'000'000'000'000'000;
    s.uptimeSeconds = 100;
    s.totals.packetsReceived = 300;
    s.totals.bytesReceived = 30'000;
    s.totals.malformed = 2;
    s.totals.layoutErrors = 1;
    s.totals.sequenceErrors = 4;
    s.totals.packetsLost = 6;
    s.totals.largestGap = 5;
    s.totals.duplicates = 3;
    s.totals.recordDrops = 8;
    StreamStats tm;
    tm.name = "tm";
    tm.state = "receiving";
    tm.counters = s.totals;
    tm.kernelDrops = 1;
    tm.connects = 2;
    tm.networkQueue = { 30, 100, 45, 60, 2, 1 };
    tm.recordQueue = { 10, 100, 100, 0, 0, 8 };
    tm.packetTypes.push_back(packetType("A", 10, 100, 5));
    tm.packetTypes.push_back(packetType("B", 20, 200, 0));
    s.streams.push_back(tm);
    ForwardStats f;
    f.destination = "udp://10.0.0.2:5000";
    f.packets = 200;
    f.bytes = 20'000;
    f.notSent = 1;
    s.forwards.push_back(f);
    ConsumerStats c;
    c.name = "display";
    c.kind = "parameters";
    c.queue = { 12, 64, 20, 0, 0, 3 };
    c.delivered = 500;
    s.consumers.push_back(c);
    c.queue = { 1, 64, 2, 0, 0, 0 };
    c.delivered = 50;
    s.consumers.push_back(c);
    return s;
}

// atReset() some time later: every counter has moved on.
StationSnapshot later()
{
    StationSnapshot s = atReset();
    s.timeNs += 10'000'000'000;
    s.uptimeSeconds = 110;
    s.rates.packetsPerSecond = 15;
    s.totals.packetsReceived = 450;
    s.totals.bytesReceived = 45'000;
    s.totals.malformed = 3;
    s.totals.sequenceErrors = 9;
    s.totals.packetsLost = 10;
    s.totals.largestGap = 5; // no larger gap since the reset
    s.totals.recordDrops = 20;
    StreamStats& tm = s.streams[0];
    tm.state = "receiving on 127.0.0.1:47001";
    tm.counters = s.totals;
    tm.kernelDrops = 4;
    tm.connects = 3;
    tm.networkQueue = { 20, 100, 45, 60, 5, 1 };
    tm.recordQueue = { 50, 100, 100, 0, 0, 20 };
    tm.packetTypes[0].counters.packetsReceived = 130;
    tm.packetTypes[0].counters.bytesReceived = 13'000;
    tm.packetTypes[0].counters.largestGap = 7; // larger than at the reset: newer
    tm.packetTypes[1].counters.packetsReceived = 320;
    tm.packetTypes[1].counters.bytesReceived = 32'000;
    s.forwards[0].packets = 320;
    s.forwards[0].bytes = 32'000;
    s.consumers[0].delivered = 650;
    s.consumers[0].queue.drops = 4;
    s.consumers[1].delivered = 60;
    return s;
}

} // namespace

class TestStatsStatisticsBaseline : public QObject {
    Q_OBJECT

private slots:
    void withoutResetPassesThrough()
    {
        StatisticsBaseline baseline;
        QVERIFY(!baseline.active());
        QCOMPARE(baseline.resetTimeNs(), std::int64_t { 0 });
        QCOMPARE(baseline.apply(later()), later());
        QCOMPARE(baseline.largestGapBefore("tm"), u64 { 0 });
    }

    void atTheResetEveryCounterIsZero()
    {
        StatisticsBaseline baseline;
        baseline.reset(atReset());
        QVERIFY(baseline.active());
        QCOMPARE(baseline.resetTimeNs(), atReset().timeNs);
        const StationSnapshot view = baseline.apply(atReset());
        QCOMPARE(view.totals, PacketCounters {});
        QCOMPARE(view.streams[0].counters, PacketCounters {});
        QCOMPARE(view.streams[0].packetTypes[0].counters, PacketCounters {});
        QCOMPARE(view.streams[0].kernelDrops, u64 { 0 });
        QCOMPARE(view.streams[0].networkQueue.warnings, u64 { 0 });
        QCOMPARE(view.streams[0].recordQueue.drops, u64 { 0 });
        QCOMPARE(view.forwards[0].packets, u64 { 0 });
        QCOMPARE(view.forwards[0].notSent, u64 { 0 });
        QCOMPARE(view.consumers[0].delivered, u64 { 0 });
        QCOMPARE(view.consumers[0].queue.drops, u64 { 0 });
        // States are not counters.
        QCOMPARE(view.streams[0].networkQueue.depth, u64 { 30 });
        QCOMPARE(view.streams[0].networkQueue.capacity, u64 { 100 });
        QCOMPARE(view.streams[0].networkQueue.warningThreshold, u64 { 60 });
        QCOMPARE(view.streams[0].state, std::string("receiving"));
    }

    void countsSinceTheReset()
    {
        StatisticsBaseline baseline;
        baseline.reset(atReset());
        const StationSnapshot view = baseline.apply(later());

        PacketCounters totals; // later() − atReset(), field by field
        totals.packetsReceived = 150;
        totals.bytesReceived = 15'000;
        totals.malformed = 1;
        totals.sequenceErrors = 5;
        totals.packetsLost = 4;
        totals.recordDrops = 12;
        QCOMPARE(view.totals, totals);
        QCOMPARE(view.streams[0].counters, totals);

        PacketCounters a;
        a.packetsReceived = 30;
        a.bytesReceived = 3'000;
        a.largestGap = 7;
        QCOMPARE(view.streams[0].packetTypes[0].counters, a);
        PacketCounters b;
        b.packetsReceived = 120;
        b.bytesReceived = 12'000;
        QCOMPARE(view.streams[0].packetTypes[1].counters, b);

        const StreamStats& tm = view.streams[0];
        QCOMPARE(tm.kernelDrops, u64 { 3 });
        QCOMPARE(tm.connects, u64 { 1 });
        QCOMPARE(tm.networkQueue.warnings, u64 { 3 });
        QCOMPARE(tm.networkQueue.drops, u64 { 0 });
        QCOMPARE(tm.recordQueue.drops, u64 { 12 });
        QCOMPARE(view.forwards[0].packets, u64 { 120 });
        QCOMPARE(view.forwards[0].bytes, u64 { 12'000 });
        QCOMPARE(view.forwards[0].notSent, u64 { 0 });
        QCOMPARE(view.consumers[0].delivered, u64 { 150 });
        QCOMPARE(view.consumers[0].queue.drops, u64 { 1 });
        QCOMPARE(view.consumers[1].delivered, u64 { 10 }); // the second "display", not the first

        // Passed through: states, rates, times.
        QCOMPARE(tm.state, std::string("receiving on 127.0.0.1:47001"));
        QCOMPARE(tm.recordQueue.depth, u64 { 50 });
        QCOMPARE(view.rates.packetsPerSecond, 15.0);
        QCOMPARE(view.uptimeSeconds, 110.0);
        QCOMPARE(view.timeNs, later().timeNs);
    }

    void largestGapBeforeTheReset()
    {
        StatisticsBaseline baseline;
        baseline.reset(atReset());
        const StationSnapshot now = later();
        QCOMPARE(baseline.largestGapBefore("tm"), u64 { 5 });
        QCOMPARE(baseline.largestGapBefore("tm", &now.streams[0].packetTypes[0]), u64 { 5 });
        QCOMPARE(baseline.largestGapBefore("tm", &now.streams[0].packetTypes[1]), u64 { 0 });
        QCOMPARE(baseline.largestGapBefore("other"), u64 { 0 });
        const PacketTypeStats unseen = packetType("C", 30, 1, 9);
        QCOMPARE(baseline.largestGapBefore("tm", &unseen), u64 { 0 });
    }

    // The engine keeps only the deepest a queue has been since start: after a reset the view shows
    // the deepest depth it sampled, until the engine's high water moves.
    void highWaterSampledSinceTheReset()
    {
        StatisticsBaseline baseline;
        StationSnapshot s = atReset();
        baseline.reset(s);
        QCOMPARE(baseline.apply(s).streams[0].networkQueue.highWater, u64 { 30 }); // the depth at the reset
        s.streams[0].networkQueue.depth = 40;
        QCOMPARE(baseline.apply(s).streams[0].networkQueue.highWater, u64 { 40 });
        s.streams[0].networkQueue.depth = 10;
        QCOMPARE(baseline.apply(s).streams[0].networkQueue.highWater, u64 { 40 }); // the deepest sampled
        s.streams[0].networkQueue.highWater = 70; // the engine saw deeper than before the reset
        QCOMPARE(baseline.apply(s).streams[0].networkQueue.highWater, u64 { 70 });
        QCOMPARE(baseline.apply(s).consumers[0].queue.highWater, u64 { 12 });
    }

    void restartedCountersAreShownAsTheyAre()
    {
        StatisticsBaseline baseline;
        baseline.reset(atReset());
        StationSnapshot s = later();
        s.streams[0].packetTypes[1].counters.packetsReceived = 5; // the packet type restarted
        s.streams[0].packetTypes[1].counters.bytesReceived = 500;
        s.streams[0].connects = 1; // below its baseline (2)
        s.forwards[0].packets = 7;
        const StationSnapshot view = baseline.apply(s);
        QCOMPARE(view.streams[0].packetTypes[1].counters, s.streams[0].packetTypes[1].counters);
        QCOMPARE(view.streams[0].connects, u64 { 1 });
        QCOMPARE(view.streams[0].kernelDrops, u64 { 3 }); // the others still since the reset
        QCOMPARE(view.forwards[0].packets, u64 { 7 });
        QCOMPARE(view.forwards[0].bytes, u64 { 12'000 });
    }

    void itemsNewSinceTheResetCountFromZero()
    {
        StatisticsBaseline baseline;
        baseline.reset(atReset());
        StationSnapshot s = later();
        StreamStats tm2 = s.streams[0];
        tm2.name = "tm2";
        s.streams.push_back(tm2);
        s.streams[0].packetTypes.push_back(packetType("C", 30, 40, 2));
        ConsumerStats archive;
        archive.name = "archive";
        archive.kind = "packets";
        archive.delivered = 77;
        s.consumers.push_back(archive);
        const StationSnapshot view = baseline.apply(s);
        QCOMPARE(view.streams[1], tm2);
        QCOMPARE(view.streams[0].packetTypes[2], s.streams[0].packetTypes[2]);
        QCOMPARE(view.consumers[2], archive);
    }

    void clearAndResetAgain()
    {
        StatisticsBaseline baseline;
        baseline.reset(atReset());
        baseline.clear();
        QVERIFY(!baseline.active());
        QCOMPARE(baseline.resetTimeNs(), std::int64_t { 0 });
        QCOMPARE(baseline.apply(later()), later());
        QCOMPARE(baseline.largestGapBefore("tm"), u64 { 0 });

        baseline.reset(later()); // a new zero
        StationSnapshot s = later();
        s.totals.packetsReceived += 1;
        QCOMPARE(baseline.apply(s).totals.packetsReceived, u64 { 1 });
        QCOMPARE(baseline.resetTimeNs(), later().timeNs);
    }
};

QTEST_GUILESS_MAIN(TestStatsStatisticsBaseline)
#include "tst_stats_statistics_baseline.moc"
