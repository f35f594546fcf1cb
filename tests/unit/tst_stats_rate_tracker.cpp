// RateTracker: rates = counter delta / elapsed seconds for the station, each stream (by name) and
// each packet type (by stream, APID, secondary id); zero on the first call, for counters that went
// down and for intervals that are not positive.
#include "core/stats/rate_tracker.hpp"

#include <QtTest>

#include <algorithm>
#include <cstdint>
#include <string>

using namespace telestation::stats;

namespace {

constexpr std::int64_t kNs = 1'000'000'000;

PacketCounters counters(std::uint64_t packets, std::uint64_t bytes, std::uint64_t parameters)
{
    PacketCounters c;
    c.packetsReceived = packets;
    c.bytesReceived = bytes;
    c.parametersDecoded = parameters;
    c.packetsProcessed = packets; // not a rate input: must not change anything
    return c;
}

PacketTypeStats type(std::uint32_t apid, bool hasSecondaryId, std::uint64_t secondaryId, PacketCounters c)
{
    PacketTypeStats t;
    t.name = "type " + std::to_string(apid) + "/" + std::to_string(secondaryId);
    t.apid = apid;
    t.hasSecondaryId = hasSecondaryId;
    t.secondaryId = secondaryId;
    t.counters = c;
    return t;
}

// Two streams × two packet types; the stream counters and totals are the sums. `step` scales the
// counts so that each type's deltas between step 0 and step 1 differ.
StationSnapshot snapshot(std::int64_t timeNs, double uptime, std::uint64_t step)
{
    StationSnapshot s;
    s.timeNs = timeNs;
    s.uptimeSeconds = uptime;
    const std::uint64_t base = 1'000'000;
    StreamStats a;
    a.name = "alpha";
    a.packetTypes.push_back(
        type(100, false, 0, counters(base + step * 1000, base + step * 125'000, base + step * 50'000)));
    a.packetTypes.push_back(
        type(101, true, 7, counters(base + step * 3000, base + step * 375'000, base + step * 150'000)));
    StreamStats b;
    b.name = "beta";
    // The same APID as alpha's first type, on another stream: a different packet type.
    b.packetTypes.push_back(type(100, false, 0, counters(base + step * 5, base + step * 250'000, base)));
    // Same APID, different secondary ids: two packet types.
    b.packetTypes.push_back(type(200, true, 1, counters(base + step * 20, base + step * 500'000, base + step)));
    for (StreamStats* st : { &a, &b }) {
        for (const auto& t : st->packetTypes) {
            st->counters.packetsReceived += t.counters.packetsReceived;
            st->counters.bytesReceived += t.counters.bytesReceived;
            st->counters.parametersDecoded += t.counters.parametersDecoded;
        }
        s.totals.packetsReceived += st->counters.packetsReceived;
        s.totals.bytesReceived += st->counters.bytesReceived;
        s.totals.parametersDecoded += st->counters.parametersDecoded;
        s.streams.push_back(*st);
    }
    return s;
}

bool allZero(const StationSnapshot& s)
{
    if (s.rates != Rates {})
        return false;
    for (const auto& st : s.streams) {
        if (st.rates != Rates {})
            return false;
        for (const auto& t : st.packetTypes) {
            if (t.rates != Rates {})
                return false;
        }
    }
    return true;
}

void setRates(StationSnapshot& s, const Rates& r)
{
    s.rates = r;
    for (auto& st : s.streams) {
        st.rates = r;
        for (auto& t : st.packetTypes)
            t.rates = r;
    }
}

const Rates kGarbage { -1, 42, 1e9 };

// The exact expected rates over 0.5 s for snapshot(…, 0) → snapshot(…, 1); the deltas and 0.5 are
// exact in binary, so the rates are too.
void verifyHalfSecondRates(const StationSnapshot& s)
{
    const auto& alpha = s.streams[0].name == "alpha" ? s.streams[0] : s.streams[1];
    const auto& beta = s.streams[0].name == "beta" ? s.streams[0] : s.streams[1];
    const auto typeOf = [](const StreamStats& st, std::uint32_t apid, std::uint64_t secondaryId) {
        return *std::find_if(st.packetTypes.begin(), st.packetTypes.end(),
            [&](const PacketTypeStats& t) { return t.apid == apid && t.secondaryId == secondaryId; });
    };
    QCOMPARE(typeOf(alpha, 100, 0).rates, (Rates { 2000, 2, 100'000 }));
    QCOMPARE(typeOf(alpha, 101, 7).rates, (Rates { 6000, 6, 300'000 }));
    QCOMPARE(typeOf(beta, 100, 0).rates, (Rates { 10, 4, 0 }));
    QCOMPARE(typeOf(beta, 200, 1).rates, (Rates { 40, 8, 2 }));
    QCOMPARE(alpha.rates, (Rates { 8000, 8, 400'000 }));
    QCOMPARE(beta.rates, (Rates { 50, 12, 2 }));
    QCOMPARE(s.rates, (Rates { 8050, 20, 400'002 }));
}

} // namespace

class TestStatsRateTracker : public QObject {
    Q_OBJECT

private slots:
    void firstCallGivesZero()
    {
        RateTracker tracker;
        StationSnapshot s = snapshot(10 * kNs, 10, 0);
        setRates(s, kGarbage);
        tracker.update(s);
        QVERIFY(allZero(s));
    }

    void halfSecondApartGivesExactRates()
    {
        RateTracker tracker;
        StationSnapshot first = snapshot(10 * kNs, 10, 0);
        tracker.update(first);
        StationSnapshot second = snapshot(10 * kNs + kNs / 2, 10.5, 1);
        setRates(second, kGarbage);
        tracker.update(second);
        verifyHalfSecondRates(second);
    }

    void countersStayTheSameGivesZero()
    {
        RateTracker tracker;
        StationSnapshot first = snapshot(10 * kNs, 10, 1);
        tracker.update(first);
        StationSnapshot second = snapshot(11 * kNs, 11, 1);
        setRates(second, kGarbage);
        tracker.update(second);
        QVERIFY(allZero(second));
    }

    // Streams and packet types are matched by identity, not by position.
    void reorderedStreamsAndTypes()
    {
        RateTracker tracker;
        StationSnapshot first = snapshot(10 * kNs, 10, 0);
        tracker.update(first);
        StationSnapshot second = snapshot(10 * kNs + kNs / 2, 10.5, 1);
        std::reverse(second.streams.begin(), second.streams.end());
        for (auto& st : second.streams)
            std::reverse(st.packetTypes.begin(), st.packetTypes.end());
        tracker.update(second);
        verifyHalfSecondRates(second);
    }

    void secondaryIdIsPartOfTheKey()
    {
        RateTracker tracker;
        StationSnapshot first;
        first.uptimeSeconds = 1;
        StreamStats st;
        st.name = "s";
        st.packetTypes = { type(5, true, 1, counters(100, 0, 0)), type(5, true, 2, counters(1000, 0, 0)),
            type(5, false, 0, counters(10'000, 0, 0)) };
        first.streams.push_back(st);
        tracker.update(first);
        StationSnapshot second = first;
        second.uptimeSeconds = 2;
        auto& types = second.streams[0].packetTypes;
        types[0].counters.packetsReceived += 1;
        types[1].counters.packetsReceived += 2;
        types[2].counters.packetsReceived += 3;
        types[2].secondaryId = 99; // meaningless without hasSecondaryId: still the same type
        std::swap(types[0], types[1]);
        tracker.update(second);
        QCOMPARE(types[0].rates.packetsPerSecond, 2.0);
        QCOMPARE(types[1].rates.packetsPerSecond, 1.0);
        QCOMPARE(types[2].rates.packetsPerSecond, 3.0);
    }

    // Types of one APID told apart by criteria (no secondary id): each keeps its own rates.
    void typesOfOneApidByName()
    {
        RateTracker tracker;
        StationSnapshot first;
        first.uptimeSeconds = 1;
        StreamStats st;
        st.name = "s";
        st.packetTypes = { type(1424, false, 0, counters(100, 0, 0)), type(1424, false, 0, counters(5000, 0, 0)) };
        st.packetTypes[0].name = "Sci0TypeZero";
        st.packetTypes[1].name = "Sci0TypeNonZero";
        first.streams.push_back(st);
        tracker.update(first);
        StationSnapshot second = first;
        second.uptimeSeconds = 2;
        auto& types = second.streams[0].packetTypes;
        types[0].counters.packetsReceived += 4;
        types[1].counters.packetsReceived += 7;
        tracker.update(second);
        QCOMPARE(types[0].rates.packetsPerSecond, 4.0);
        QCOMPARE(types[1].rates.packetsPerSecond, 7.0);
    }

    void counterResetGivesZeroNotNegative()
    {
        RateTracker tracker;
        StationSnapshot first = snapshot(10 * kNs, 10, 5);
        tracker.update(first);
        // The station restarted: every counter is smaller than before.
        StationSnapshot restarted = snapshot(11 * kNs, 11, 0);
        for (auto& st : restarted.streams) {
            st.counters = {};
            for (auto& t : st.packetTypes)
                t.counters = {};
        }
        restarted.totals = {};
        setRates(restarted, kGarbage);
        tracker.update(restarted);
        QVERIFY(allZero(restarted));
        // The next interval counts from the restarted values.
        StationSnapshot next = restarted;
        next.timeNs += kNs / 4;
        next.uptimeSeconds += 0.25;
        next.totals.packetsReceived = 10;
        next.streams[0].counters.bytesReceived = 125'000;
        next.streams[1].packetTypes[1].counters.parametersDecoded = 4;
        tracker.update(next);
        QCOMPARE(next.rates, (Rates { 40, 0, 0 }));
        QCOMPARE(next.streams[0].rates, (Rates { 0, 4, 0 }));
        QCOMPARE(next.streams[1].packetTypes[1].rates, (Rates { 0, 0, 16 }));
    }

    // Only the counter that went down gives 0; the others of the same entry keep their rates.
    void oneCounterDown()
    {
        RateTracker tracker;
        StationSnapshot first = snapshot(10 * kNs, 10, 1);
        tracker.update(first);
        StationSnapshot second = snapshot(11 * kNs, 11, 2);
        second.totals.bytesReceived = 0;
        tracker.update(second);
        QCOMPARE(second.rates.megabitsPerSecond, 0.0);
        QCOMPARE(second.rates.packetsPerSecond, 4025.0);
    }

    void newStreamCountsFromZero()
    {
        RateTracker tracker;
        StationSnapshot first = snapshot(10 * kNs, 10, 0);
        first.streams.pop_back();
        tracker.update(first);
        StationSnapshot second = snapshot(12 * kNs, 12, 0);
        tracker.update(second);
        const auto& beta = second.streams[1];
        QCOMPARE(beta.name, std::string("beta"));
        QCOMPARE(beta.rates.packetsPerSecond, static_cast<double>(beta.counters.packetsReceived) / 2);
        QCOMPARE(beta.packetTypes[0].rates.parametersPerSecond, 1'000'000 / 2.0);
        QCOMPARE(second.streams[0].rates, Rates {});
    }

    // Uptime is monotonic; the realtime clock may be stepped between snapshots.
    void uptimeWinsOverRealtime()
    {
        RateTracker tracker;
        StationSnapshot first = snapshot(10 * kNs, 10, 0);
        tracker.update(first);
        StationSnapshot second = snapshot(10 * kNs - 3600 * kNs, 10.5, 1); // clock stepped back 1 h
        tracker.update(second);
        verifyHalfSecondRates(second);
    }

    void realtimeWhenNoUptime()
    {
        RateTracker tracker;
        StationSnapshot first = snapshot(10 * kNs, 0, 0);
        tracker.update(first);
        StationSnapshot second = snapshot(10 * kNs + kNs / 2, 0, 1);
        tracker.update(second);
        verifyHalfSecondRates(second);
    }

    void nonPositiveIntervalGivesZero_data()
    {
        QTest::addColumn<double>("uptime");
        QTest::addColumn<qint64>("timeNs");
        QTest::newRow("same uptime") << 10.0 << qint64 { 11 * kNs };
        QTest::newRow("uptime went back") << 9.0 << qint64 { 11 * kNs };
        QTest::newRow("no uptime, time went back") << 0.0 << qint64 { 9 * kNs };
    }

    void nonPositiveIntervalGivesZero()
    {
        QFETCH(double, uptime);
        QFETCH(qint64, timeNs);
        RateTracker tracker;
        StationSnapshot first = snapshot(10 * kNs, uptime == 0 ? 0 : 10, 0);
        tracker.update(first);
        StationSnapshot second = snapshot(timeNs, uptime, 1);
        setRates(second, kGarbage);
        tracker.update(second);
        QVERIFY(allZero(second));
    }

    void resetMakesTheNextCallFirst()
    {
        RateTracker tracker;
        StationSnapshot first = snapshot(10 * kNs, 10, 0);
        tracker.update(first);
        tracker.reset();
        StationSnapshot second = snapshot(10 * kNs + kNs / 2, 10.5, 1);
        tracker.update(second);
        QVERIFY(allZero(second));
        StationSnapshot third = snapshot(11 * kNs, 11, 2);
        tracker.update(third);
        verifyHalfSecondRates(third); // measured from second, not from first
    }

    void manyIntervals()
    {
        RateTracker tracker;
        for (std::uint64_t i = 0; i < 10; ++i) {
            StationSnapshot s = snapshot(static_cast<std::int64_t>(i) * kNs / 2, 1 + static_cast<double>(i) / 2, i);
            tracker.update(s);
            if (i == 0)
                QVERIFY(allZero(s));
            else
                verifyHalfSecondRates(s);
        }
    }
};

QTEST_GUILESS_MAIN(TestStatsRateTracker)
#include "tst_stats_rate_tracker.moc"
