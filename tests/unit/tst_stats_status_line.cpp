// The headless mode's human output: the compact number format, the one-line status (names, numbers,
// one line whatever the state texts hold) and the summary table (every stream and packet type with
// exact counts, columns aligned); drop and error counts that do not count a packet twice.
#include "core/stats/status_line.hpp"

#include <QtTest>

#include <cmath>
#include <cstdint>
#include <limits>
#include <string>

using namespace telestation::stats;

namespace {

constexpr std::int64_t kNs = 1'000'000'000;

bool contains(const std::string& text, const std::string& part)
{
    return text.find(part) != std::string::npos;
}

// 2024-05-01 12:00:05.25 UTC, up 65 s, two streams of two packet types.
StationSnapshot snapshot()
{
    StationSnapshot s;
    s.timeNs = 1'714'564'805 * kNs + kNs / 4;
    s.uptimeSeconds = 65.9;
    s.cpuPercent = 63.4;
    s.rates = { 97'100, 1000.34, 5.01e6 };
    s.totals.packetsReceived = 6'310'000;
    s.totals.packetsLost = 12;
    s.totals.malformed = 3;
    s.totals.processDrops = 4;
    s.totals.recordErrors = 2;
    s.poolInUse = 17;
    s.poolCapacity = 8192;
    s.recordingState = "off";

    StreamStats a;
    a.name = "tm-alpha";
    a.state = "receiving on 127.0.0.1:47001";
    a.running = true;
    a.counters.packetsReceived = 6'000'000;
    a.counters.bytesReceived = 7'728'000'000;
    a.counters.packetsLost = 12;
    a.counters.processDrops = 4;
    a.counters.recordErrors = 2;
    a.processQueue.drops = 4; // the same 4 packets, seen by the queue
    a.kernelDrops = 5;
    a.rates = { 95'000, 980.5, 4.9e6 };
    PacketTypeStats hk;
    hk.name = "housekeeping";
    hk.apid = 100;
    hk.mode = "processEntirePacket";
    hk.counters = a.counters;
    hk.counters.packetsReceived = 5'999'000;
    PacketTypeStats sci;
    sci.name = "science°C";
    sci.apid = 200;
    sci.hasSecondaryId = true;
    sci.secondaryId = 9;
    sci.mode = "passThru";
    sci.counters.packetsReceived = 1000;
    a.packetTypes = { hk, sci };

    StreamStats b;
    b.name = "tm-beta";
    b.state = "playback of pass-42";
    b.running = true;
    b.progress = 0.43;
    b.counters.packetsReceived = 310'000;
    b.counters.malformed = 3;
    b.framingErrors = 1;
    PacketTypeStats unknown;
    unknown.name = "unknown";
    unknown.apid = 2000;
    unknown.mode = "discard";
    unknown.counters = b.counters;
    b.packetTypes = { unknown };

    s.streams = { a, b };

    ForwardStats f;
    f.destination = "udp://10.1.1.1:7000";
    f.state = "sending";
    f.connected = true;
    f.packets = 123'456;
    s.forwards = { f };
    ConsumerStats c;
    c.name = "plotter";
    c.kind = "parameters";
    c.delivery = "newest";
    c.queue.drops = 6;
    c.delivered = 777;
    s.consumers = { c };
    return s;
}

// The lines of the table under `title` (header, dashes, rows), up to the blank line.
QStringList tableLines(const std::string& summary, const QString& title)
{
    const QStringList lines = QString::fromStdString(summary).split('\n');
    const auto start = lines.indexOf(title);
    if (start < 0)
        return {};
    QStringList table;
    for (auto i = start + 1; i < lines.size() && !lines[i].isEmpty(); ++i)
        table << lines[i];
    return table;
}

// Right-aligned column `title`: every row has its last character where the title's is, followed by
// a space or the end of the line (QString counts "°" as one character, as a terminal does).
void verifyRightAligned(const QStringList& table, const QString& title)
{
    QVERIFY(table.size() >= 3);
    const auto end = table[0].indexOf(title) + title.size();
    QVERIFY2(end > title.size() - 1, qPrintable(title));
    for (auto i = 2; i < table.size(); ++i) {
        const QString& row = table[i];
        QVERIFY2(row.size() >= end && row[end - 1] != ' ' && (row.size() == end || row[end] == ' '),
            qPrintable(title + " | " + row));
    }
}

} // namespace

class TestStatsStatusLine : public QObject {
    Q_OBJECT

private slots:
    void compact_data()
    {
        QTest::addColumn<double>("value");
        QTest::addColumn<QString>("text");
        QTest::newRow("zero") << 0.0 << "0";
        QTest::newRow("integer") << 5.0 << "5";
        QTest::newRow("999") << 999.0 << "999";
        QTest::newRow("half") << 0.5 << "0.5";
        QTest::newRow("97.14") << 97.14 << "97.1";
        QTest::newRow("99.96 rounds to whole") << 99.96 << "100";
        QTest::newRow("950.4") << 950.4 << "950";
        QTest::newRow("999.4") << 999.4 << "999";
        QTest::newRow("999.6 rounds to 1.00k") << 999.6 << "1.00k";
        QTest::newRow("1000") << 1000.0 << "1.00k";
        QTest::newRow("1234") << 1234.0 << "1.23k";
        QTest::newRow("9996 -> 10.0k") << 9996.0 << "10.0k";
        QTest::newRow("97100") << 97'100.0 << "97.1k";
        QTest::newRow("123456") << 123'456.0 << "123k";
        QTest::newRow("999600 -> 1.00M") << 999'600.0 << "1.00M";
        QTest::newRow("6.31M") << 6.31e6 << "6.31M";
        QTest::newRow("5.01M") << 5.01e6 << "5.01M";
        QTest::newRow("1.5G") << 1.5e9 << "1.50G";
        QTest::newRow("2.5T") << 2.5e12 << "2.50T";
        QTest::newRow("uint64 max") << 18446744073709551615.0 << "18.4E";
        QTest::newRow("negative") << -2500.0 << "-2.50k";
        QTest::newRow("nan") << std::numeric_limits<double>::quiet_NaN() << "-";
    }

    void compact()
    {
        QFETCH(double, value);
        QFETCH(QString, text);
        QCOMPARE(QString::fromStdString(formatCompact(value)), text);
    }

    void counts()
    {
        QCOMPARE(formatCount(0), std::string("0"));
        QCOMPARE(formatCount(999), std::string("999"));
        QCOMPARE(formatCount(1000), std::string("1.00k"));
        QCOMPARE(formatCount(6'314'159), std::string("6.31M"));
    }

    void duration_data()
    {
        QTest::addColumn<double>("seconds");
        QTest::addColumn<QString>("text");
        QTest::newRow("zero") << 0.0 << "00:00:00";
        QTest::newRow("65.9 s") << 65.9 << "00:01:05";
        QTest::newRow("last second of a day") << 86'399.99 << "23:59:59";
        QTest::newRow("a day") << 86'400.0 << "1d 00:00:00";
        QTest::newRow("1d 01:01:01") << 90'061.0 << "1d 01:01:01";
        QTest::newRow("400 days") << 400.0 * 86'400 + 3 * 3600 << "400d 03:00:00";
        QTest::newRow("negative") << -5.0 << "00:00:00";
        QTest::newRow("nan") << std::numeric_limits<double>::quiet_NaN() << "00:00:00";
    }

    void duration()
    {
        QFETCH(double, seconds);
        QFETCH(QString, text);
        QCOMPARE(QString::fromStdString(formatDuration(seconds)), text);
    }

    void dropsAndErrorsCountEachPacketOnce()
    {
        const StationSnapshot s = snapshot();
        // Stream a: 4 process drops (counted by the counters and by the queue) + 5 kernel drops.
        QCOMPARE(dropCount(s.streams[0]), std::uint64_t { 9 });
        QCOMPARE(dropCount(s.streams[1]), std::uint64_t { 0 });
        QCOMPARE(dropCount(s.streams[0].counters), std::uint64_t { 4 });
        // Station: the streams' 9 + the consumer's 6.
        QCOMPARE(dropCount(s), std::uint64_t { 15 });
        // A queue drop the counters did not see still counts, once.
        StationSnapshot q = s;
        q.streams[1].recordQueue.drops = 7;
        QCOMPARE(dropCount(q.streams[1]), std::uint64_t { 7 });
        QCOMPARE(dropCount(q), std::uint64_t { 22 });
        // Network queue drops, as the station reports them (the queue, the type's and the totals'
        // counters), count once.
        StationSnapshot n = s;
        n.streams[1].networkQueue.drops = 100;
        n.streams[1].counters.networkDrops = 100;
        n.totals.networkDrops += 100;
        QCOMPARE(dropCount(n.streams[1]), std::uint64_t { 100 });
        QCOMPARE(dropCount(n), std::uint64_t { 115 });
        // Errors: 2 record errors on a, 1 framing error on b.
        QCOMPARE(errorCount(s.streams[0]), std::uint64_t { 2 });
        QCOMPARE(errorCount(s.streams[1]), std::uint64_t { 1 });
        QCOMPARE(errorCount(s), std::uint64_t { 3 });
        // A destination's notSent is its view of forwardErrors: the larger counts, not the sum.
        StationSnapshot f = s;
        f.forwards[0].notSent = 8;
        QCOMPARE(errorCount(f), std::uint64_t { 11 });
        f.totals.forwardErrors = 8;
        f.streams[0].counters.forwardErrors = 8;
        QCOMPARE(errorCount(f), std::uint64_t { 11 });
    }

    void statusLineHasNamesAndNumbers()
    {
        const std::string line = statusLine(snapshot());
        qInfo("%s", line.c_str());
        QVERIFY(!contains(line, "\n"));
        QVERIFY2(line.rfind("12:00:05Z up 00:01:05 | ", 0) == 0, line.c_str());
        QVERIFY2(contains(line, "| 97.1k pkt/s 1000.3 Mbit/s 5.01M par/s |"), line.c_str());
        QVERIFY2(contains(line, "| rx 6.31M lost 12 drop 15 malformed 3 err 3 |"), line.c_str());
        QVERIFY2(contains(line, "| cpu 63% |"), line.c_str());
        QVERIFY2(
            contains(line, "tm-alpha: receiving on 127.0.0.1:47001; tm-beta: playback of pass-42 43%"), line.c_str());
        QVERIFY(!contains(line, "rec ")); // recording off: not shown
    }

    void statusLineVariants()
    {
        StationSnapshot s = snapshot();
        s.recordingState = "failed: disk full";
        s.streams[0].state = "error:\nconnection refused";
        s.streams[1].state.clear();
        s.streams[1].running = false;
        s.streams[1].progress = -1;
        const std::string line = statusLine(s);
        QVERIFY2(!contains(line, "\n"), line.c_str());
        QVERIFY2(contains(line, "tm-alpha: error: connection refused; tm-beta: stopped | rec failed: disk full"),
            line.c_str());
        StationSnapshot empty;
        const std::string none = statusLine(empty);
        QVERIFY2(none.rfind("--:--:-- up 00:00:00 | 0 pkt/s 0.0 Mbit/s 0 par/s | rx 0 lost 0 drop 0 "
                            "malformed 0 err 0 | cpu 0% | no streams",
                     0)
                == 0,
            none.c_str());
    }

    void statusLineFollowsTheSnapshot()
    {
        StationSnapshot s = snapshot();
        s.totals.packetsReceived = 42;
        s.totals.packetsLost = 1'500;
        s.cpuPercent = 187.6;
        s.timeNs = 1'714'600'000 * kNs - 1; // 21:46:39.999… UTC
        s.uptimeSeconds = 2 * 86'400 + 5;
        const std::string line = statusLine(s);
        QVERIFY2(line.rfind("21:46:39Z up 2d 00:00:05 ", 0) == 0, line.c_str());
        QVERIFY2(contains(line, "rx 42 lost 1.50k "), line.c_str());
        QVERIFY2(contains(line, "cpu 188%"), line.c_str());
    }

    void summaryHasEveryStreamAndPacketType()
    {
        const StationSnapshot s = snapshot();
        const std::string summary = summaryTable(s);
        qInfo("\n%s", summary.c_str());
        QVERIFY(summary.back() == '\n');
        QVERIFY2(contains(summary, "Station at 2024-05-01 12:00:05Z, up 00:01:05, cpu 63%, packet pool 17/8192"),
            summary.c_str());
        QVERIFY(contains(summary, "Loss: yes (lost 12, drops 15, malformed 3, errors 3)"));

        const QStringList streams = tableLines(summary, "Streams");
        QCOMPARE(streams.size(), 2 + 3); // header, dashes, 2 streams, total
        QVERIFY(streams[1].startsWith("-----"));
        QVERIFY(streams[2].startsWith("tm-alpha "));
        QVERIFY(streams[2].contains(" 6000000  7728000000 "));
        QVERIFY(streams[2].endsWith("receiving on 127.0.0.1:47001"));
        QVERIFY(streams[3].startsWith("tm-beta "));
        QVERIFY(streams[3].endsWith("playback of pass-42 (43%)"));
        QVERIFY(streams[4].startsWith("total "));
        QVERIFY(streams[4].contains(" 6310000 "));
        for (const char* column : { "received", "bytes", "lost", "drops", "malformed", "errors", "pkt/s", "Mbit/s" })
            verifyRightAligned(streams, column);
        for (const char* rate : { " 95000.0 ", " 980.500 ", " 4900000.0 " })
            QVERIFY2(streams[2].contains(rate), rate);

        const QStringList types = tableLines(summary, "Packet types");
        QCOMPARE(types.size(), 2 + 3);
        QVERIFY(types[2].startsWith("tm-alpha  housekeeping "));
        QVERIFY(types[2].contains(" 5999000 "));
        QVERIFY(types[3].contains("science°C"));
        QVERIFY(types[3].contains(" 200             9  passThru "));
        QVERIFY(types[4].startsWith("tm-beta   unknown "));
        QVERIFY(types[4].contains(" 2000             -  discard "));
        for (const char* column : { "apid", "secondary id", "received", "malformed", "par/s" })
            verifyRightAligned(types, column);

        const QStringList queues = tableLines(summary, "Queues");
        QCOMPARE(queues.size(), 2 + 8);
        verifyRightAligned(queues, "drops");
        QVERIFY(queues[3].startsWith("tm-alpha  process "));
        QVERIFY(queues[3].endsWith(" 4"));

        const QStringList forwards = tableLines(summary, "Forwards");
        QCOMPARE(forwards.size(), 3);
        QVERIFY(forwards[2].contains("udp://10.1.1.1:7000"));
        QVERIFY(forwards[2].contains(" 123456 "));

        const QStringList consumers = tableLines(summary, "Consumers");
        QCOMPARE(consumers.size(), 3);
        QVERIFY(consumers[2].startsWith("plotter "));
        QVERIFY(consumers[2].contains(" 777 "));
        QVERIFY(consumers[2].endsWith(" 6"));

        for (const QString& line : QString::fromStdString(summary).split('\n'))
            QVERIFY2(!line.endsWith(' '), qPrintable(line));
    }

    void summaryWithoutLoss()
    {
        StationSnapshot s;
        StreamStats st;
        st.name = "quiet";
        s.streams.push_back(st);
        const std::string summary = summaryTable(s);
        QVERIFY(contains(summary, "Loss: none\n"));
        QVERIFY(contains(summary, "quiet"));
        QVERIFY(!contains(summary, "Packet types"));
        QVERIFY(!contains(summary, "Forwards"));
        QVERIFY(!contains(summary, "Consumers"));
    }
};

QTEST_GUILESS_MAIN(TestStatsStatusLine)
#include "tst_stats_status_line.moc"
