// The run summary: total() sums streams and merges their APIDs; the JSON has a fixed layout and reads
// back equal; the console table shows what an operator needs and no zero fault lines.
#include "sim/engine/sim_summary.hpp"
#include "tests/support/test_paths.hpp"

#include <QtTest>

#include <QFile>
#include <QTemporaryDir>

#include <cstdint>
#include <limits>
#include <string>

using namespace telestation;
using sim::SimSummary;
using sim::StreamSummary;

namespace {

SimSummary sample()
{
    SimSummary s;
    StreamSummary hk;
    hk.name = "health";
    hk.destination = "udp://127.0.0.1:47001";
    hk.rate = "20pps";
    hk.generated = 1203;
    hk.sent = {1190, 391234};
    hk.notSent = 0;
    hk.apids[7] = {238, 306544};
    hk.apids[100] = {952, 84690};
    hk.faults.dropped = 13;
    hk.faults.duplicated = 0;
    hk.seconds = 60.25;
    hk.packetsPerSecond = 1190 / 60.25;
    hk.bitsPerSecond = 8.0 * 391234 / 60.25;
    s.streams.push_back(hk);

    StreamSummary tcp;
    tcp.name = "tcp-mix";
    tcp.destination = "tcp://127.0.0.1:47003";
    tcp.rate = "1Mbps";
    tcp.generated = 40017;
    tcp.sent = {39980, 7531770};
    tcp.notSent = 37;
    tcp.apids[7] = {4001, 5153288};
    tcp.apids[400] = {35979, 2378482};
    tcp.faults = {0, 5, 2, 3, 4, 6, 211};
    tcp.seconds = 59.5;
    tcp.packetsPerSecond = 39980 / 59.5;
    tcp.bitsPerSecond = 8.0 * 7531770 / 59.5;
    s.streams.push_back(tcp);
    return s;
}

// The line of `text` that starts with `start` (after leading spaces when `trim`).
QString lineStarting(const QString& text, const QString& start)
{
    for (const QString& line : text.split('\n')) {
        if (line.trimmed().startsWith(start))
            return line;
    }
    return {};
}

} // namespace

class TestSimSummary : public QObject {
    Q_OBJECT

private slots:
    void totalSumsAndMerges()
    {
        const SimSummary s = sample();
        const StreamSummary total = s.total();
        QCOMPARE(total.name, std::string("total"));
        QCOMPARE(total.generated, std::uint64_t{1203 + 40017});
        QCOMPARE(total.sent.packets, std::uint64_t{1190 + 39980});
        QCOMPARE(total.sent.bytes, std::uint64_t{391234 + 7531770});
        QCOMPARE(total.notSent, std::uint64_t{37});
        QCOMPARE(total.apids.size(), std::size_t{3});
        QCOMPARE(total.apids.at(7).packets, std::uint64_t{238 + 4001}); // APID 7 in both streams
        QCOMPARE(total.apids.at(7).bytes, std::uint64_t{306544 + 5153288});
        QCOMPARE(total.apids.at(100).packets, std::uint64_t{952});
        QCOMPARE(total.apids.at(400).bytes, std::uint64_t{2378482});
        QCOMPARE(total.faults.dropped, std::uint64_t{13});
        QCOMPARE(total.faults.duplicated, std::uint64_t{5});
        QCOMPARE(total.faults.reordered, std::uint64_t{2});
        QCOMPARE(total.faults.corruptedHeaders, std::uint64_t{3});
        QCOMPARE(total.faults.truncated, std::uint64_t{4});
        QCOMPARE(total.faults.garbageInsertions, std::uint64_t{6});
        QCOMPARE(total.faults.garbageBytes, std::uint64_t{211});
        QCOMPARE(total.seconds, 60.25); // the longest stream
        QCOMPARE(total.packetsPerSecond, (1190.0 + 39980.0) / 60.25);
        QCOMPARE(total.bitsPerSecond, 8.0 * (391234.0 + 7531770.0) / 60.25);

        const StreamSummary none = SimSummary{}.total();
        QCOMPARE(none.name, std::string("total"));
        QCOMPARE(none.sent, sim::TrafficCounts{});
        QCOMPARE(none.seconds, 0.0);
        QCOMPARE(none.packetsPerSecond, 0.0); // no division by zero
        QVERIFY(none.apids.empty());
    }

    void jsonLayout()
    {
        SimSummary s;
        StreamSummary one;
        one.name = "a";
        one.destination = "udp://127.0.0.1:47001";
        one.rate = "2pps";
        one.generated = 3;
        one.sent = {2, 100};
        one.notSent = 1;
        one.apids[300] = {1, 40};
        one.apids[7] = {1, 60};
        one.faults.dropped = 1;
        one.seconds = 0.5;
        one.packetsPerSecond = 4;
        one.bitsPerSecond = 1600;
        s.streams.push_back(one);
        const std::string expectedStream = R"({
      "name": "a",
      "destination": "udp:SLASHES127.0.0.1:47001",
      "rate": "2pps",
      "generated": 3,
      "sent": {
        "packets": 2,
        "bytes": 100
      },
      "notSent": 1,
      "apids": {
        "7": {
          "packets": 1,
          "bytes": 60
        },
        "300": {
          "packets": 1,
          "bytes": 40
        }
      },
      "faults": {
        "dropped": 1,
        "duplicated": 0,
        "reordered": 0,
        "corruptedHeaders": 0,
        "truncated": 0,
        "garbageInsertions": 0,
        "garbageBytes": 0
      },
      "seconds": 0.5,
      "packetsPerSecond": 4.0,
      "bitsPerSecond": 1600.0
    })";
        // SLASHES stands for "//", which moc would take for a comment inside a raw string.
        QString stream = QString::fromStdString(expectedStream).replace("SLASHES", "//");
        QString total = stream;
        total.replace("\"name\": \"a\"", "\"name\": \"total\"")
            .replace("\"destination\": \"udp://127.0.0.1:47001\"", "\"destination\": \"\"")
            .replace("\"rate\": \"2pps\"", "\"rate\": \"\"");
        total.replace("\n    ", "\n  "); // one level less deep
        const QString expected = "{\n  \"streams\": [\n    " + stream + "\n  ],\n  \"total\": " + total + "\n}\n";
        QCOMPARE(QString::fromStdString(sim::toJson(s)), expected);
    }

    void jsonRoundTrip()
    {
        SimSummary s = sample();
        // Awkward values: the largest counters, doubles without a short decimal form.
        s.streams[0].faults.garbageBytes = std::numeric_limits<std::uint64_t>::max();
        s.streams[0].seconds = 1.0 / 3.0;
        s.streams[1].bitsPerSecond = 0.1 + 0.2;
        s.streams[1].apids[2047] = {1, 7};
        s.streams[1].apids[0] = {2, 14};
        s.streams.push_back(StreamSummary{}); // everything zero and empty
        const auto back = sim::summaryFromJson(sim::toJson(s));
        QVERIFY2(back.ok(), back.ok() ? "" : back.error().message.c_str());
        QVERIFY(*back == s);

        const auto empty = sim::summaryFromJson(sim::toJson(SimSummary{}));
        QVERIFY(empty.ok());
        QVERIFY(empty->streams.empty());
    }

    void totalIsIgnoredWhenRead()
    {
        // "total" is derived: a file without it, or with one that disagrees, reads the same streams.
        const SimSummary s = sample();
        QString json = QString::fromStdString(sim::toJson(s));
        const qsizetype at = json.indexOf(",\n  \"total\"");
        QVERIFY(at > 0);
        const auto withoutTotal = sim::summaryFromJson((json.left(at) + "\n}\n").toStdString());
        QVERIFY2(withoutTotal.ok(), withoutTotal.ok() ? "" : withoutTotal.error().message.c_str());
        QVERIFY(*withoutTotal == s);
        const auto wrongTotal = sim::summaryFromJson((json.left(at) + ", \"total\": 5}").toStdString());
        QVERIFY(wrongTotal.ok());
        QVERIFY(*wrongTotal == s);
    }

    void jsonErrors_data()
    {
        QTest::addColumn<QString>("json");
        QTest::addColumn<QString>("expected");
        const QString stream = QString::fromStdString(sim::toJson(sample()));
        QTest::newRow("not JSON") << "{" << "not a JSON document";
        QTest::newRow("not an object") << "[]" << "$: expected an object";
        QTest::newRow("no streams") << "{}" << "$.streams: missing";
        QTest::newRow("streams not an array") << R"({"streams": 1})" << "$.streams: expected an array";
        QTest::newRow("missing count") << QString(stream).replace("\"generated\": 1203,", "")
                                       << "$.streams[0].generated: missing";
        QTest::newRow("negative count") << QString(stream).replace("\"generated\": 1203", "\"generated\": -1")
                                        << "$.streams[0].generated: expected a whole number, got -1";
        QTest::newRow("bytes as text") << QString(stream).replace("\"bytes\": 391234", "\"bytes\": \"391234\"")
                                       << "$.streams[0].sent.bytes: expected a whole number";
        QTest::newRow("bad APID") << QString(stream).replace("\"400\": {", "\"4000\": {")
                                  << "$.streams[1].apids[\"4000\"]: not an APID (0..2047)";
        QTest::newRow("missing fault counter") << QString(stream).replace("\"garbageBytes\": 211", "\"garbageByte\": 211")
                                               << "$.streams[1].faults.garbageBytes: missing";
        QTest::newRow("seconds as text") << QString(stream).replace("\"seconds\": 59.5", "\"seconds\": \"59.5\"")
                                         << "$.streams[1].seconds: expected a number";
    }

    void jsonErrors()
    {
        QFETCH(QString, json);
        QFETCH(QString, expected);
        const auto parsed = sim::summaryFromJson(json.toStdString());
        QVERIFY(!parsed.ok());
        const QString message = QString::fromStdString(parsed.error().message);
        QVERIFY2(message.startsWith(expected), qPrintable(message));
    }

    void textTable()
    {
        const QString text = QString::fromStdString(sim::toText(sample()));
        const QString header = lineStarting(text, "stream");
        QVERIFY2(!header.isEmpty(), qPrintable(text));
        for (const char* column : {"destination", "rate", "generated", "packets", "bytes", "not sent", "seconds", "pps", "Mbit/s"})
            QVERIFY2(header.contains(column), column);

        // Each stream: its counters, the achieved rate in pps and Mbit/s.
        const QString health = lineStarting(text, "health");
        QVERIFY2(health.contains("udp://127.0.0.1:47001") && health.contains("20pps") && health.contains("1203") &&
                     health.contains("1190") && health.contains("391234") && health.contains("60.250"),
                 qPrintable(health));
        QVERIFY2(health.contains(QString::number(1190 / 60.25, 'f', 1)), qPrintable(health));
        QVERIFY2(health.endsWith(QString::number(8.0 * 391234 / 60.25 / 1e6, 'f', 3)), qPrintable(health));
        const QString tcp = lineStarting(text, "tcp-mix");
        QVERIFY2(tcp.contains("39980") && tcp.contains("7531770") && tcp.contains(" 37 "), qPrintable(tcp));

        // Columns line up: numbers are right-aligned under their header.
        const qsizetype packetsEnd = header.indexOf("packets") + 7;
        QCOMPARE(health.indexOf("1190") + 4, packetsEnd);
        QCOMPARE(tcp.indexOf("39980") + 5, packetsEnd);
        const qsizetype bytesEnd = header.indexOf(" bytes") + 6;
        QCOMPARE(health.indexOf("391234") + 6, bytesEnd);

        // Per-APID lines under their stream, in APID order.
        QVERIFY(text.indexOf("APID 7") < text.indexOf("APID 100"));
        QVERIFY(text.indexOf("APID 100") < text.indexOf("tcp-mix"));
        QVERIFY(text.indexOf("tcp-mix") < text.indexOf("APID 400"));
        const QString apid100 = lineStarting(text, "APID 100");
        QVERIFY2(apid100.contains("952") && apid100.contains("84690"), qPrintable(apid100));
        QCOMPARE(apid100.indexOf("952") + 3, packetsEnd);

        // Fault lines only for faults that happened.
        const qsizetype tcpAt = text.indexOf("tcp-mix");
        const QString healthPart = text.left(tcpAt);
        QVERIFY2(healthPart.contains("dropped"), qPrintable(healthPart));
        QVERIFY2(lineStarting(healthPart, "dropped").contains("13"), qPrintable(healthPart));
        for (const char* absent : {"duplicated", "reordered", "corrupted", "truncated", "garbage"})
            QVERIFY2(!healthPart.contains(absent), absent);
        const QString tcpPart = text.mid(tcpAt, text.indexOf("\ntotal") - tcpAt);
        QVERIFY2(!tcpPart.contains("dropped"), qPrintable(tcpPart));
        QVERIFY(lineStarting(tcpPart, "duplicated").contains(" 5"));
        QVERIFY(lineStarting(tcpPart, "reordered").contains(" 2"));
        QVERIFY(lineStarting(tcpPart, "corrupted headers").contains(" 3"));
        QVERIFY(lineStarting(tcpPart, "truncated").contains(" 4"));
        const QString garbage = lineStarting(tcpPart, "garbage");
        QVERIFY2(garbage.contains(" 6") && garbage.endsWith("211"), qPrintable(garbage));

        // A total line when there is more than one stream.
        const QString total = lineStarting(text, "total");
        QVERIFY2(total.contains(QString::number(1190 + 39980)) && total.contains(QString::number(391234 + 7531770)),
                 qPrintable(total));

        SimSummary single;
        single.streams.push_back(sample().streams[1]);
        QVERIFY(lineStarting(QString::fromStdString(sim::toText(single)), "total").isEmpty());
        QVERIFY(!QString::fromStdString(sim::toText(SimSummary{})).isEmpty());
    }

    // The JSON example in docs/simulator.md reads, and its numbers agree with each other.
    void documentedExample()
    {
        QFile doc(QString::fromStdString(test::sourceDir() + "/docs/simulator.md"));
        QVERIFY(doc.open(QIODevice::ReadOnly));
        const QString text = QString::fromUtf8(doc.readAll());
        const qsizetype section = text.indexOf("### JSON");
        QVERIFY(section >= 0);
        const qsizetype start = text.indexOf("```json\n", section);
        QVERIFY(start >= 0);
        const qsizetype end = text.indexOf("```", start + 8);
        const auto parsed = sim::summaryFromJson(text.mid(start + 8, end - start - 8).toStdString());
        QVERIFY2(parsed.ok(), parsed.ok() ? "" : parsed.error().message.c_str());
        QCOMPARE(parsed->streams.size(), std::size_t{1});
        const StreamSummary& stream = parsed->streams[0];
        std::uint64_t packets = 0, bytes = 0;
        for (const auto& [apid, counts] : stream.apids) {
            packets += counts.packets;
            bytes += counts.bytes;
        }
        QCOMPARE(packets, stream.sent.packets);
        QCOMPARE(bytes, stream.sent.bytes);
        QCOMPARE(stream.packetsPerSecond, static_cast<double>(stream.sent.packets) / stream.seconds);
        QCOMPARE(stream.bitsPerSecond, 8.0 * static_cast<double>(stream.sent.bytes) / stream.seconds);
        QCOMPARE(stream.generated, stream.sent.packets + stream.faults.dropped);
    }

    void writeFile()
    {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const std::string path = dir.filePath("summary.json").toStdString();
        const SimSummary s = sample();
        const auto written = sim::writeSummaryFile(s, path);
        QVERIFY2(written.ok(), written.ok() ? "" : written.error().toString().c_str());
        QFile file(QString::fromStdString(path));
        QVERIFY(file.open(QIODevice::ReadOnly));
        const QByteArray content = file.readAll();
        QCOMPARE(content.toStdString(), sim::toJson(s));
        const auto back = sim::summaryFromJson(content.toStdString());
        QVERIFY(back.ok());
        QVERIFY(*back == s);

        const std::string nowhere = dir.filePath("missing/summary.json").toStdString();
        const auto failed = sim::writeSummaryFile(s, nowhere);
        QVERIFY(!failed.ok());
        QCOMPARE(failed.error().where.file, nowhere);
    }
};

QTEST_GUILESS_MAIN(TestSimSummary)
#include "tst_sim_summary.moc"
