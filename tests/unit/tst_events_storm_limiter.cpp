// StormLimiter: the first event of a source at once, the rest of its window merged into one summary
// with exact counts; sources apart; a quiet source forgotten; a storm of 100,000 events a second bounded
// to a line a second with nothing lost from the totals. Time is given, never slept.
#include "core/events/storm_limiter.hpp"

#include <QtTest>

using namespace telestation::events;

namespace {

constexpr std::int64_t kSecond = 1'000'000'000;

Event gap(std::int64_t timeNs, std::uint64_t lost, std::string apid = "APID 7")
{
    Event e;
    e.kind = EventKind::SequenceGap;
    e.severity = Severity::Warning;
    e.stream = "tm";
    e.packetType = "Packet5";
    e.detail = std::move(apid);
    e.timeNs = timeNs;
    e.amount = lost;
    e.text = "gap";
    return e;
}

Event limit(std::int64_t timeNs, EventKind kind, Severity severity, std::string text)
{
    Event e;
    e.kind = kind;
    e.severity = severity;
    e.stream = "tm";
    e.parameter = "Packet5.CPU_LOAD";
    e.timeNs = timeNs;
    e.amount = kind == EventKind::LimitViolation ? 1 : 0;
    e.text = std::move(text);
    return e;
}

} // namespace

class TestEventsStormLimiter : public QObject {
    Q_OBJECT

private slots:
    void firstAtOnceThenOneSummary()
    {
        StormLimiter l;
        const std::int64_t t0 = 100 * kSecond;
        QVERIFY(l.admit(gap(t0, 3), t0));
        for (int i = 1; i <= 412; ++i)
            QVERIFY(!l.admit(gap(t0 + i * 1'000'000, 24), t0 + i * 1'000'000));
        QVERIFY(l.flush(t0 + kSecond / 2).empty()); // the window is not over
        const auto summaries = l.flush(t0 + kSecond);
        QCOMPARE(summaries.size(), std::size_t{1});
        const Event& s = summaries[0];
        QCOMPARE(s.count, std::uint64_t{412});
        QCOMPARE(s.amount, std::uint64_t{412 * 24});
        QCOMPARE(QString::fromStdString(s.text),
                 QStringLiteral("Packet5 (APID 7): 412 gaps, 9,888 packets lost in the last 1.0 s"));
        QCOMPARE(s.detail, std::string("APID 7"));
        QCOMPARE(l.merged(), std::uint64_t{412});
    }

    void sourcesAreApart()
    {
        StormLimiter l;
        QVERIFY(l.admit(gap(kSecond, 1, "APID 7"), kSecond));
        QVERIFY(l.admit(gap(kSecond, 1, "APID 8"), kSecond));
        Event other = gap(kSecond, 1);
        other.stream = "tm2";
        QVERIFY(l.admit(other, kSecond));
        Event dup = gap(kSecond, 1);
        dup.kind = EventKind::Duplicate;
        QVERIFY(l.admit(dup, kSecond));
        QVERIFY(!l.admit(gap(kSecond + 1, 1, "APID 8"), kSecond + 1));
        QCOMPARE(l.flush(2 * kSecond).size(), std::size_t{1});
    }

    // After a window without events the source is forgotten: the next event is reported at once again.
    void quietSourceIsForgotten()
    {
        StormLimiter l;
        QVERIFY(l.admit(gap(kSecond, 1), kSecond));
        QVERIFY(l.flush(2 * kSecond).empty()); // nothing merged: no summary, and the source is gone
        QCOMPARE(l.openSources(), std::size_t{0});
        QVERIFY(l.admit(gap(3 * kSecond, 1), 3 * kSecond));
        // A merged window is followed by another window: an event in it merges again.
        QVERIFY(!l.admit(gap(3 * kSecond + 10, 1), 3 * kSecond + 10));
        QCOMPARE(l.flush(4 * kSecond).size(), std::size_t{1});
        QVERIFY(!l.admit(gap(4 * kSecond + 10, 1), 4 * kSecond + 10));
        QCOMPARE(l.flush(5 * kSecond)[0].count, std::uint64_t{1});
        QVERIFY(l.flush(6 * kSecond).empty());
        QVERIFY(l.admit(gap(6 * kSecond + 10, 1), 6 * kSecond + 10));
    }

    // A parameter's violations and clearances are one source: the summary says where it stands now and
    // carries the worst severity of the window.
    void limitTransitionsShareTheirSource()
    {
        StormLimiter l;
        QVERIFY(l.admit(limit(kSecond, EventKind::LimitViolation, Severity::Warning, "yellow"), kSecond));
        QVERIFY(!l.admit(limit(kSecond + 1, EventKind::LimitViolation, Severity::Critical, "red"), kSecond));
        QVERIFY(!l.admit(limit(kSecond + 2, EventKind::LimitCleared, Severity::Info, "Packet5.CPU_LOAD back within limits: 40"), kSecond));
        const auto s = l.flush(3 * kSecond);
        QCOMPARE(s.size(), std::size_t{1});
        QVERIFY(s[0].kind == EventKind::LimitCleared);
        QVERIFY(s[0].severity == Severity::Critical);
        QCOMPARE(s[0].count, std::uint64_t{2});
        QCOMPARE(s[0].amount, std::uint64_t{1});
        QVERIFY2(s[0].text.find("now: Packet5.CPU_LOAD back within limits: 40") != std::string::npos, s[0].text.c_str());
    }

    // flush(all) reports every open window at once (the station stopping).
    void flushAllReportsOpenWindows()
    {
        StormLimiter l;
        QVERIFY(l.admit(gap(kSecond, 1), kSecond));
        QVERIFY(!l.admit(gap(kSecond + 5, 2), kSecond + 5));
        const auto s = l.flush(kSecond + 10, true);
        QCOMPARE(s.size(), std::size_t{1});
        QCOMPARE(s[0].amount, std::uint64_t{2});
        QVERIFY(l.flush(kSecond + 20, true).empty());
    }

    // 100,000 gaps a second for 10 s, flushed as the event thread does (every 50 ms): one line at first,
    // then one a second, and the counts of the lines add up to every gap.
    void stormOfAHundredThousandASecond()
    {
        StormLimiter l;
        const std::int64_t t0 = 1000 * kSecond;
        std::uint64_t lines = 0, count = 0, amount = 0;
        std::int64_t nextFlush = t0 + 50'000'000;
        constexpr int kEvents = 1'000'000;
        for (int i = 0; i < kEvents; ++i) {
            const std::int64_t t = t0 + static_cast<std::int64_t>(i) * 10'000; // 10 µs apart
            while (t >= nextFlush) {
                for (const auto& s : l.flush(nextFlush)) {
                    ++lines;
                    count += s.count;
                    amount += s.amount;
                }
                nextFlush += 50'000'000;
            }
            if (l.admit(gap(t, 2), t)) {
                ++lines;
                ++count;
                amount += 2;
            }
        }
        for (const auto& s : l.flush(nextFlush, true)) {
            ++lines;
            count += s.count;
            amount += s.amount;
        }
        QCOMPARE(count, std::uint64_t{kEvents});
        QCOMPARE(amount, std::uint64_t{2 * kEvents});
        QVERIFY2(lines <= 12, qPrintable(QString::number(lines))); // 1 + one a second for 10 s (+ the last)
        QVERIFY(lines >= 10);
    }

    void countsAsOperatorsReadThem()
    {
        QCOMPARE(formatCount(0), std::string("0"));
        QCOMPARE(formatCount(999), std::string("999"));
        QCOMPARE(formatCount(1000), std::string("1,000"));
        QCOMPARE(formatCount(9870), std::string("9,870"));
        QCOMPARE(formatCount(1234567), std::string("1,234,567"));
    }
};

QTEST_GUILESS_MAIN(TestEventsStormLimiter)
#include "tst_events_storm_limiter.moc"
