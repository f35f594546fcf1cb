// Unit tests of the per-APID sequence count tracker.
#include "core/ccsds/sequence_tracker.hpp"

#include "core/ccsds/space_packet.hpp"

#include <QtTest>

#include <algorithm>
#include <random>
#include <vector>

namespace telestation::ccsds {
char* toString(SequenceEvent e)
{
    static const char* const names[] = {"First", "InOrder", "Gap", "Duplicate", "Late", "Resync"};
    const auto i = static_cast<std::size_t>(e);
    return qstrdup(i < std::size(names) ? names[i] : "?");
}
} // namespace telestation::ccsds

using namespace telestation::ccsds;

namespace {

using U64 = std::uint64_t;

std::uint16_t wrapCount(long value)
{
    const long m = kSequenceCountModulo;
    return static_cast<std::uint16_t>(((value % m) + m) % m);
}

} // namespace

class TestCcsdsSequenceTracker : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void firstThenInOrder();
    void wrapIsInOrder();
    void gap();
    void gapAcrossWrap();
    void largestGap();
    void gapAtHalfRange();
    void duplicateOfNewest();
    void duplicateOfOlderSeenCount();
    void lateReducesLost();
    void lateAtEdgeOfHistory();
    void lateBeforeFirstDoesNotTouchLost();
    void resync();
    void historyFollowsNewest();
    void apidsAreIndependent();
    void inputsMaskedToFieldWidths();
    void total();
    void reset();
    void randomizedAgainstModel();
};

void TestCcsdsSequenceTracker::firstThenInOrder()
{
    SequenceTracker t;
    QCOMPARE(t.counters(5), SequenceCounters{});
    QCOMPARE(t.track(5, 100), SequenceEvent::First);
    for (std::uint16_t c = 101; c < 200; ++c)
        QCOMPARE(t.track(5, c), SequenceEvent::InOrder);
    const SequenceCounters& c = t.counters(5);
    QCOMPARE(c.packets, U64{100});
    QCOMPARE(c.sequenceErrors(), U64{0});
    QCOMPARE(c.lost, U64{0});
}

void TestCcsdsSequenceTracker::wrapIsInOrder()
{
    SequenceTracker t;
    QCOMPARE(t.track(1, 16382), SequenceEvent::First);
    QCOMPARE(t.track(1, 16383), SequenceEvent::InOrder);
    QCOMPARE(t.track(1, 0), SequenceEvent::InOrder);
    QCOMPARE(t.track(1, 1), SequenceEvent::InOrder);
    QCOMPARE(t.counters(1).sequenceErrors(), U64{0});
    // Several full laps stay in order.
    for (long i = 2; i < 3L * kSequenceCountModulo; ++i)
        QCOMPARE(t.track(1, wrapCount(i)), SequenceEvent::InOrder);
    QCOMPARE(t.counters(1).sequenceErrors(), U64{0});
}

void TestCcsdsSequenceTracker::gap()
{
    SequenceTracker t;
    t.track(3, 10);
    QCOMPARE(t.track(3, 12), SequenceEvent::Gap); // 11 missing
    QCOMPARE(t.track(3, 13), SequenceEvent::InOrder);
    QCOMPARE(t.track(3, 20), SequenceEvent::Gap); // 14..19 missing
    const SequenceCounters& c = t.counters(3);
    QCOMPARE(c.gaps, U64{2});
    QCOMPARE(c.lost, U64{1 + 6});
    QCOMPARE(c.largestGap, std::uint32_t{6});
    QCOMPARE(c.packets, U64{4});
    QCOMPARE(c.sequenceErrors(), U64{2});
}

void TestCcsdsSequenceTracker::gapAcrossWrap()
{
    SequenceTracker t;
    t.track(9, 16380);
    QCOMPARE(t.track(9, 2), SequenceEvent::Gap); // 16381, 16382, 16383, 0, 1 missing
    QCOMPARE(t.counters(9).lost, U64{5});
    QCOMPARE(t.counters(9).largestGap, std::uint32_t{5});
    QCOMPARE(t.track(9, 3), SequenceEvent::InOrder);
    // The counts lost across the wrap come back as late arrivals.
    QCOMPARE(t.track(9, 16383), SequenceEvent::Late);
    QCOMPARE(t.track(9, 0), SequenceEvent::Late);
    QCOMPARE(t.counters(9).lost, U64{3});
    QCOMPARE(t.track(9, 16380), SequenceEvent::Duplicate);
}

void TestCcsdsSequenceTracker::largestGap()
{
    SequenceTracker t;
    t.track(4, 0);
    t.track(4, 3);   // gap of 2
    t.track(4, 104); // gap of 100
    t.track(4, 110); // gap of 5
    const SequenceCounters& c = t.counters(4);
    QCOMPARE(c.gaps, U64{3});
    QCOMPARE(c.largestGap, std::uint32_t{100});
    QCOMPARE(c.lost, U64{2 + 100 + 5});
}

void TestCcsdsSequenceTracker::gapAtHalfRange()
{
    // Up to 8192 ahead is a gap; 8193 ahead is taken as 8191 behind, which is a resync.
    SequenceTracker t;
    t.track(2, 100);
    QCOMPARE(t.track(2, 100 + 8192), SequenceEvent::Gap);
    QCOMPARE(t.counters(2).lost, U64{8191});
    QCOMPARE(t.counters(2).largestGap, std::uint32_t{8191});

    SequenceTracker u;
    u.track(2, 100);
    QCOMPARE(u.track(2, 100 + 8193), SequenceEvent::Resync);
    QCOMPARE(u.counters(2).lost, U64{0});
    QCOMPARE(u.counters(2).gaps, U64{0});
}

void TestCcsdsSequenceTracker::duplicateOfNewest()
{
    SequenceTracker t;
    t.track(7, 500);
    QCOMPARE(t.track(7, 500), SequenceEvent::Duplicate);
    QCOMPARE(t.track(7, 501), SequenceEvent::InOrder);
    QCOMPARE(t.track(7, 501), SequenceEvent::Duplicate);
    QCOMPARE(t.track(7, 501), SequenceEvent::Duplicate);
    const SequenceCounters& c = t.counters(7);
    QCOMPARE(c.duplicates, U64{3});
    QCOMPARE(c.packets, U64{5});
    QCOMPARE(c.lost, U64{0});
    QCOMPARE(c.sequenceErrors(), U64{3});
}

void TestCcsdsSequenceTracker::duplicateOfOlderSeenCount()
{
    SequenceTracker t;
    for (std::uint16_t c = 1000; c <= 1070; ++c)
        t.track(8, c);
    QCOMPARE(t.track(8, 1069), SequenceEvent::Duplicate); // 1 behind
    QCOMPARE(t.track(8, 1040), SequenceEvent::Duplicate);
    QCOMPARE(t.track(8, 1006), SequenceEvent::Duplicate); // 64 behind: the oldest remembered
    QCOMPARE(t.counters(8).duplicates, U64{3});
    QCOMPARE(t.counters(8).late, U64{0});
    QCOMPARE(t.counters(8).lost, U64{0});
    // The newest did not move.
    QCOMPARE(t.track(8, 1071), SequenceEvent::InOrder);
}

void TestCcsdsSequenceTracker::lateReducesLost()
{
    SequenceTracker t;
    t.track(6, 10);
    QCOMPARE(t.track(6, 14), SequenceEvent::Gap); // 11, 12, 13 lost
    QCOMPARE(t.counters(6).lost, U64{3});
    QCOMPARE(t.track(6, 12), SequenceEvent::Late);
    QCOMPARE(t.counters(6).lost, U64{2});
    QCOMPARE(t.counters(6).late, U64{1});
    // The late packet is now seen: a second copy is a duplicate and leaves lost alone.
    QCOMPARE(t.track(6, 12), SequenceEvent::Duplicate);
    QCOMPARE(t.counters(6).lost, U64{2});
    QCOMPARE(t.track(6, 15), SequenceEvent::InOrder);
    QCOMPARE(t.track(6, 11), SequenceEvent::Late);
    QCOMPARE(t.track(6, 13), SequenceEvent::Late);
    const SequenceCounters& c = t.counters(6);
    QCOMPARE(c.lost, U64{0});
    QCOMPARE(c.late, U64{3});
    QCOMPARE(c.gaps, U64{1});
    QCOMPARE(c.duplicates, U64{1});
    QCOMPARE(c.packets, U64{7});
    QCOMPARE(c.sequenceErrors(), U64{1 + 3 + 1});
}

void TestCcsdsSequenceTracker::lateAtEdgeOfHistory()
{
    SequenceTracker t;
    t.track(10, 0);
    QCOMPARE(t.track(10, 100), SequenceEvent::Gap); // 1..99 lost
    QCOMPARE(t.counters(10).lost, U64{99});
    QCOMPARE(t.track(10, 36), SequenceEvent::Late); // 64 behind: still remembered
    QCOMPARE(t.counters(10).lost, U64{98});
    QCOMPARE(t.track(10, 35), SequenceEvent::Resync); // 65 behind
    QCOMPARE(t.counters(10).resyncs, U64{1});
    QCOMPARE(t.counters(10).lost, U64{98});
}

void TestCcsdsSequenceTracker::lateBeforeFirstDoesNotTouchLost()
{
    // Reordered at the very start: the packet before the first one seen was never counted lost.
    SequenceTracker t;
    QCOMPARE(t.track(11, 50), SequenceEvent::First);
    QCOMPARE(t.track(11, 49), SequenceEvent::Late);
    QCOMPARE(t.counters(11).lost, U64{0});
    QCOMPARE(t.counters(11).late, U64{1});
    QCOMPARE(t.track(11, 49), SequenceEvent::Duplicate);
    QCOMPARE(t.track(11, 51), SequenceEvent::InOrder);
    QCOMPARE(t.counters(11).lost, U64{0});
}

void TestCcsdsSequenceTracker::resync()
{
    SequenceTracker t;
    for (std::uint16_t c = 5000; c < 5010; ++c)
        t.track(12, c);
    // The sender restarted its counter at 0: 5009 behind the newest (11375 ahead).
    QCOMPARE(t.track(12, 0), SequenceEvent::Resync);
    QCOMPARE(t.track(12, 1), SequenceEvent::InOrder);
    QCOMPARE(t.track(12, 2), SequenceEvent::InOrder);
    // A stray count from far behind resyncs again.
    QCOMPARE(t.track(12, 16000), SequenceEvent::Resync);
    const SequenceCounters& c = t.counters(12);
    QCOMPARE(c.resyncs, U64{2});
    QCOMPARE(c.lost, U64{0});
    QCOMPARE(c.gaps, U64{0});
    QCOMPARE(c.packets, U64{14});
    QCOMPARE(c.sequenceErrors(), U64{2});

    // A resync clears the history: counts seen before it are not duplicates, and counts lost before
    // it are not given back.
    SequenceTracker u;
    for (std::uint16_t count = 1000; count <= 1100; ++count)
        u.track(12, count);
    u.track(12, 1102); // 1101 lost
    QCOMPARE(u.track(12, 1000), SequenceEvent::Resync); // 102 behind
    QCOMPARE(u.track(12, 999), SequenceEvent::Late);    // seen before the resync, forgotten since
    QCOMPARE(u.track(12, 999), SequenceEvent::Duplicate);
    QCOMPARE(u.track(12, 1001), SequenceEvent::InOrder);
    QCOMPARE(u.counters(12).lost, U64{1});
    QCOMPARE(u.track(12, 1101 + 64), SequenceEvent::Gap);
    QCOMPARE(u.track(12, 1101), SequenceEvent::Late); // lost again in this gap, then arrived
    QCOMPARE(u.counters(12).lost, U64{1 + 163 - 1});
}

void TestCcsdsSequenceTracker::historyFollowsNewest()
{
    // After a gap the old newest and the counts before it are still known as seen.
    SequenceTracker t;
    for (std::uint16_t c = 200; c <= 210; ++c)
        t.track(13, c);
    QCOMPARE(t.track(13, 230), SequenceEvent::Gap); // 211..229 lost
    QCOMPARE(t.track(13, 210), SequenceEvent::Duplicate);
    QCOMPARE(t.track(13, 205), SequenceEvent::Duplicate);
    QCOMPARE(t.track(13, 220), SequenceEvent::Late);
    QCOMPARE(t.counters(13).lost, U64{18});
    // A gap longer than the history forgets everything before it.
    QCOMPARE(t.track(13, 400), SequenceEvent::Gap);
    QCOMPARE(t.track(13, 399), SequenceEvent::Late);
    QCOMPARE(t.track(13, 336), SequenceEvent::Late); // 64 behind
    QCOMPARE(t.counters(13).lost, U64{18 + 169 - 2});

    // A jump of exactly 64 keeps the old newest, now the oldest remembered count.
    SequenceTracker u;
    u.track(13, 1000);
    QCOMPARE(u.track(13, 1064), SequenceEvent::Gap);
    QCOMPARE(u.track(13, 1000), SequenceEvent::Duplicate);
    QCOMPARE(u.track(13, 1001), SequenceEvent::Late);
    QCOMPARE(u.counters(13).lost, U64{62});
}

void TestCcsdsSequenceTracker::apidsAreIndependent()
{
    SequenceTracker t;
    QCOMPARE(t.track(0, 10), SequenceEvent::First);
    QCOMPARE(t.track(2047, 10), SequenceEvent::First);
    QCOMPARE(t.track(1, 10), SequenceEvent::First);
    QCOMPARE(t.track(0, 11), SequenceEvent::InOrder);
    QCOMPARE(t.track(1, 20), SequenceEvent::Gap);
    QCOMPARE(t.track(2047, 10), SequenceEvent::Duplicate);
    QCOMPARE(t.track(0, 12), SequenceEvent::InOrder);

    QCOMPARE(t.counters(0).packets, U64{3});
    QCOMPARE(t.counters(0).sequenceErrors(), U64{0});
    QCOMPARE(t.counters(1).lost, U64{9});
    QCOMPARE(t.counters(1).gaps, U64{1});
    QCOMPARE(t.counters(1).duplicates, U64{0});
    QCOMPARE(t.counters(2047).duplicates, U64{1});
    QCOMPARE(t.counters(2047).lost, U64{0});
    QCOMPARE(t.counters(2).packets, U64{0});
}

void TestCcsdsSequenceTracker::inputsMaskedToFieldWidths()
{
    SequenceTracker t;
    t.track(5, 7);
    QCOMPARE(t.track(5 + 2048, 8), SequenceEvent::InOrder);         // APID modulo 2048
    QCOMPARE(t.track(5, 9 + kSequenceCountModulo), SequenceEvent::InOrder); // count modulo 16384
    QCOMPARE(&t.counters(5 + 2048), &t.counters(5));
    QCOMPARE(t.counters(5).packets, U64{3});
}

void TestCcsdsSequenceTracker::total()
{
    SequenceTracker t;
    QCOMPARE(t.total(), SequenceCounters{});
    t.track(1, 0);
    t.track(1, 10); // gap 9
    t.track(1, 10); // duplicate
    t.track(2, 0);
    t.track(2, 4);  // gap 3
    t.track(2, 2);  // late
    t.track(3, 0);
    t.track(3, 9000); // resync (7384 behind)
    t.track(2047, 1);

    const SequenceCounters sum = t.total();
    QCOMPARE(sum.packets, U64{9});
    QCOMPARE(sum.gaps, U64{2});
    QCOMPARE(sum.lost, U64{9 + 3 - 1});
    QCOMPARE(sum.duplicates, U64{1});
    QCOMPARE(sum.late, U64{1});
    QCOMPARE(sum.resyncs, U64{1});
    QCOMPARE(sum.largestGap, std::uint32_t{9}); // the maximum, not the sum
    QCOMPARE(sum.sequenceErrors(), U64{2 + 1 + 1 + 1});

    U64 packets = 0;
    for (std::uint16_t apid = 0; apid < kApidCount; ++apid)
        packets += t.counters(apid).packets;
    QCOMPARE(packets, sum.packets);
}

void TestCcsdsSequenceTracker::reset()
{
    SequenceTracker t;
    t.track(1, 0);
    t.track(1, 5);
    t.track(300, 7);
    const SequenceCounters* before = &t.counters(1);
    t.reset();
    QCOMPARE(t.total(), SequenceCounters{});
    QCOMPARE(&t.counters(1), before); // same storage: no reallocation
    // Every APID starts over.
    QCOMPARE(t.track(1, 100), SequenceEvent::First);
    QCOMPARE(t.track(300, 7), SequenceEvent::First);
    QCOMPARE(t.track(1, 101), SequenceEvent::InOrder);
}

void TestCcsdsSequenceTracker::randomizedAgainstModel()
{
    // A stream with drops, local reordering and repeats, checked against counts taken on the
    // unwrapped sequence numbers, which need no modulo arithmetic.
    std::mt19937 random(12345);
    std::uniform_real_distribution<double> chance(0.0, 1.0);
    const long start = 16000; // crosses the wrap several times
    const long n = 40000;

    std::vector<long> order;
    for (long i = 0; i < n; ++i) {
        const bool keepEnds = i == 0 || i == n - 1;
        if (!keepEnds && chance(random) < 0.05)
            continue; // dropped
        order.push_back(i);
    }
    // Swap neighbours now and then (never the first or the last packet).
    for (std::size_t k = 1; k + 2 < order.size(); ++k) {
        if (chance(random) < 0.1) {
            std::swap(order[k], order[k + 1]);
            ++k;
        }
    }
    // Repeat a recent packet now and then (at most a few places back).
    std::vector<long> delivered;
    for (std::size_t k = 0; k < order.size(); ++k) {
        delivered.push_back(order[k]);
        if (k > 3 && k + 1 < order.size() && chance(random) < 0.03)
            delivered.push_back(order[k - std::uniform_int_distribution<std::size_t>(0, 3)(random)]);
    }

    U64 gaps = 0, lost = 0, duplicates = 0, late = 0;
    std::uint32_t largest = 0;
    std::vector<bool> seen(static_cast<std::size_t>(n), false);
    long newest = -1;
    SequenceTracker t;
    for (const long i : delivered) {
        const SequenceEvent e = t.track(77, wrapCount(start + i));
        if (newest < 0) {
            QCOMPARE(e, SequenceEvent::First);
            newest = i;
        } else if (seen[static_cast<std::size_t>(i)]) {
            QCOMPARE(e, SequenceEvent::Duplicate);
            ++duplicates;
        } else if (i < newest) {
            QCOMPARE(e, SequenceEvent::Late);
            ++late;
            --lost;
        } else if (i == newest + 1) {
            QCOMPARE(e, SequenceEvent::InOrder);
            newest = i;
        } else {
            QCOMPARE(e, SequenceEvent::Gap);
            ++gaps;
            lost += static_cast<U64>(i - newest - 1);
            largest = std::max(largest, static_cast<std::uint32_t>(i - newest - 1));
            newest = i;
        }
        seen[static_cast<std::size_t>(i)] = true;
    }

    const SequenceCounters& c = t.counters(77);
    QCOMPARE(c.packets, U64{delivered.size()});
    QCOMPARE(c.gaps, gaps);
    QCOMPARE(c.lost, lost);
    QCOMPARE(c.duplicates, duplicates);
    QCOMPARE(c.late, late);
    QCOMPARE(c.resyncs, U64{0});
    QCOMPARE(c.largestGap, largest);
    // With the first and last packets delivered, lost is exactly the packets never delivered.
    const auto neverDelivered = static_cast<U64>(std::count(seen.begin(), seen.end(), false));
    QCOMPARE(c.lost, neverDelivered);
    QVERIFY(gaps > 100 && late > 100 && duplicates > 100); // the stream exercised every case
}

QTEST_GUILESS_MAIN(TestCcsdsSequenceTracker)
#include "tst_ccsds_sequence_tracker.moc"
