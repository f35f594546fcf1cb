// `telestation --headless --profile` as an endurance run uses it: status lines, JSON lines, the final
// summary, recordings closed, SIGTERM, and the exit code that gates on loss.
#include "core/ccsds/space_packet.hpp"
#include "core/io/sender.hpp"
#include "core/record/recording_catalog.hpp"

#include "tests/support/headless_process.hpp"
#include "tests/support/json_file.hpp"
#include "tests/support/test_paths.hpp"

#include <QtTest>

#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QRegularExpression>
#include <QTemporaryDir>


#include <thread>

using namespace telestation;
using namespace std::chrono_literals;
using test::freeUdpPort;
using test::waitForStatusLine;

namespace {

QString writeProfile(const QTemporaryDir& dir, std::uint16_t port)
{
    const QString path = dir.filePath(QStringLiteral("station.json"));
    QFile f(path);
    if (!f.open(QIODevice::WriteOnly))
        return {};
    f.write(QStringLiteral(R"({
  "recordingDirectory": "rec",
  "logDirectory": "logs",
  "streams": [
    {"name": "tm", "source": "udp://127.0.0.1:%1",
     "packets": [{"apid": 100, "mode": "processEntirePacket", "record": true}]}
  ]
})")
                .arg(port)
                .toUtf8());
    return path;
}

// Sends HK_Status packets (APID 100, 32 bytes) with sequence counts first .. first + count - 1, skipping
// `skip` (a gap) if given. Retries until the station's socket exists.
bool sendPackets(std::uint16_t port, std::uint16_t first, int count, int skip = -1)
{
    auto endpoint = io::parseEndpoint("udp://127.0.0.1:" + std::to_string(port));
    auto sender = io::openSender(*endpoint);
    if (!sender)
        return false;
    std::vector<std::uint8_t> packet(32, 0);
    for (int i = 0; i < count; ++i) {
        if (i == skip)
            continue;
        ccsds::PrimaryHeader h;
        h.apid = 100;
        h.sequenceCount = static_cast<std::uint16_t>((first + i) & 0x3FFF);
        h.dataLength = 32 - 7;
        ccsds::writePrimaryHeader(h, packet.data());
        const std::span<const std::uint8_t> one(packet);
        (*sender)->send(std::span(&one, 1));
        if (i % 100 == 99)
            std::this_thread::sleep_for(1ms);
    }
    return true;
}

} // namespace

class TestAppHeadless : public QObject {
    Q_OBJECT

private slots:
    void runsForDurationAndReports();
    void sigtermStopsCleanly();
    void lossGivesExitCode3();
    void eventsOutAndAlarms();
    void badProfileGivesExitCode2();
    void badConsumerGivesExitCode2_data();
    void badConsumerGivesExitCode2();
    void anXtceMissionReceivesItsRealPackets_data();
    void anXtceMissionReceivesItsRealPackets();
};

void TestAppHeadless::runsForDurationAndReports()
{
    QTemporaryDir dir;
    const std::uint16_t port = freeUdpPort();
    const QString profile = writeProfile(dir, port);
    const QString stats = dir.filePath(QStringLiteral("stats.jsonl"));
    const QString summary = dir.filePath(QStringLiteral("summary.json"));
    QProcess* p = test::startTelestation(this, {QStringLiteral("--headless"), QStringLiteral("--profile"), profile,
                                      QStringLiteral("--duration"), QStringLiteral("3"), QStringLiteral("--stats-interval"),
                                      QStringLiteral("0.5"), QStringLiteral("--stats-out"), stats,
                                      QStringLiteral("--summary-out"), summary});
    QVERIFY(waitForStatusLine(*p));
    QVERIFY(sendPackets(port, 0, 1000));
    QVERIFY(p->waitForFinished(20000));
    const QString out = QString::fromUtf8(p->readAllStandardOutput());
    QCOMPARE(p->exitStatus(), QProcess::NormalExit);
    QVERIFY2(p->exitCode() == 0, qPrintable(out + QString::fromUtf8(p->readAllStandardError())));
    QVERIFY(out.count(QStringLiteral(" up 00:00:0")) >= 4); // a status line every 0.5 s
    QVERIFY(out.contains(QStringLiteral("no loss (exit 0)")));

    // The JSON lines: one snapshot per interval and the final one, all with the same keys.
    QFile f(stats);
    QVERIFY(f.open(QIODevice::ReadOnly));
    const QList<QByteArray> lines = f.readAll().trimmed().split('\n');
    QVERIFY(lines.size() >= 5);
    for (const auto& line : lines) {
        QJsonParseError error{};
        const auto doc = QJsonDocument::fromJson(line, &error);
        QVERIFY2(error.error == QJsonParseError::NoError, qPrintable(error.errorString()));
        QVERIFY(doc.object().contains(QStringLiteral("totals")));
        QVERIFY(doc.object().contains(QStringLiteral("streams")));
    }
    const QJsonObject last = QJsonDocument::fromJson(lines.last()).object();
    const QJsonObject s = telestation::test::readJsonObject(summary);
    QCOMPARE(s.value(QStringLiteral("totals")).toObject(), last.value(QStringLiteral("totals")).toObject());
    const QJsonObject totals = s.value(QStringLiteral("totals")).toObject();
    QCOMPARE(totals.value(QStringLiteral("packetsReceived")).toInteger(), 1000);
    QCOMPARE(totals.value(QStringLiteral("packetsProcessed")).toInteger(), 1000);
    QCOMPARE(totals.value(QStringLiteral("packetsRecorded")).toInteger(), 1000);
    QVERIFY(totals.value(QStringLiteral("parametersDecoded")).toInteger() > 0);

    // The recording was closed and lists every packet; the log file exists.
    auto catalog = record::RecordingCatalog::open(dir.filePath(QStringLiteral("rec")).toStdString());
    QVERIFY(catalog);
    const auto segments = (*catalog)->segments();
    QCOMPARE(segments.size(), std::size_t{1});
    QCOMPARE(segments[0].state, record::SegmentState::Closed);
    QCOMPARE(segments[0].packets, std::uint64_t{1000});
    QVERIFY(QFile::exists(dir.filePath(QStringLiteral("logs/telestation.log"))));
}

void TestAppHeadless::sigtermStopsCleanly()
{
    QTemporaryDir dir;
    const std::uint16_t port = freeUdpPort();
    const QString summary = dir.filePath(QStringLiteral("summary.json"));
    QProcess* p = test::startTelestation(this, {QStringLiteral("--headless"), QStringLiteral("--profile"), writeProfile(dir, port),
                                      QStringLiteral("--summary-out"), summary});
    QVERIFY(waitForStatusLine(*p));
    QVERIFY(sendPackets(port, 0, 500));
    std::this_thread::sleep_for(300ms);
    p->terminate(); // SIGTERM
    QVERIFY(p->waitForFinished(10000));
    QCOMPARE(p->exitStatus(), QProcess::NormalExit);
    QCOMPARE(p->exitCode(), 0);
    QVERIFY(QString::fromUtf8(p->readAllStandardError()).contains(QStringLiteral("stopping on SIGTERM")));
    QCOMPARE(telestation::test::readJsonObject(summary).value(QStringLiteral("totals")).toObject().value(QStringLiteral("packetsRecorded")).toInteger(),
             500);
    auto catalog = record::RecordingCatalog::open(dir.filePath(QStringLiteral("rec")).toStdString());
    QVERIFY(catalog);
    QCOMPARE((*catalog)->segments().at(0).state, record::SegmentState::Closed);
}

void TestAppHeadless::lossGivesExitCode3()
{
    QTemporaryDir dir;
    const std::uint16_t port = freeUdpPort();
    const QString summary = dir.filePath(QStringLiteral("summary.json"));
    QProcess* p = test::startTelestation(this, {QStringLiteral("--headless"), QStringLiteral("--profile"), writeProfile(dir, port),
                                      QStringLiteral("--duration"), QStringLiteral("2"), QStringLiteral("--summary-out"),
                                      summary, QStringLiteral("--stats-interval"), QStringLiteral("0.2")});
    QVERIFY(waitForStatusLine(*p));
    QVERIFY(sendPackets(port, 0, 300, 150)); // one packet missing: a sequence gap
    QVERIFY(p->waitForFinished(20000));
    QCOMPARE(p->exitStatus(), QProcess::NormalExit);
    QCOMPARE(p->exitCode(), 3);
    const QJsonObject totals = telestation::test::readJsonObject(summary).value(QStringLiteral("totals")).toObject();
    QCOMPARE(totals.value(QStringLiteral("packetsLost")).toInteger(), 1);
    QCOMPARE(totals.value(QStringLiteral("packetsReceived")).toInteger(), 299);
    QVERIFY(QString::fromUtf8(p->readAllStandardOutput()).contains(QStringLiteral("exit 3")));
}

// --events-out: every event and alarm change as a JSON line; the status line shows the active alarms;
// the summary counts events by kind and alarms by severity; the exit code is as before.
void TestAppHeadless::eventsOutAndAlarms()
{
    QTemporaryDir dir;
    const std::uint16_t port = freeUdpPort();
    const QString events = dir.filePath(QStringLiteral("events.jsonl"));
    QProcess* p = test::startTelestation(this, {QStringLiteral("--headless"), QStringLiteral("--profile"), writeProfile(dir, port),
                                      QStringLiteral("--duration"), QStringLiteral("2"), QStringLiteral("--events-out"),
                                      events, QStringLiteral("--stats-interval"), QStringLiteral("0.2")});
    QVERIFY(waitForStatusLine(*p));
    QVERIFY(sendPackets(port, 0, 300, 150)); // one packet missing: a sequence gap, a loss alarm
    QVERIFY(p->waitForFinished(20000));
    QCOMPARE(p->exitStatus(), QProcess::NormalExit);
    QCOMPARE(p->exitCode(), 3);
    const QString out = QString::fromUtf8(p->readAllStandardOutput());
    // HK_Status packets of zeros are below some low limits too: alarms beside the loss alarm.
    static const QRegularExpression status(QStringLiteral(R"(\| alarms \d+ crit \d+ err [1-9]\d* warn, [1-9]\d* unack \|)"));
    QVERIFY2(status.match(out).hasMatch(), qPrintable(out));
    QVERIFY2(out.contains(QStringLiteral("Events: ")) && out.contains(QStringLiteral("1 sequenceGap")), qPrintable(out));
    static const QRegularExpression summary(QStringLiteral(R"(Alarms listed: [1-9]\d* warning \(\d+ active\), \d+ error \(\d+ active\), \d+ critical \(\d+ active\))"));
    QVERIFY2(summary.match(out).hasMatch(), qPrintable(out));

    QFile f(events);
    QVERIFY(f.open(QIODevice::ReadOnly));
    const QList<QByteArray> lines = f.readAll().trimmed().split('\n');
    int gaps = 0, alarms = 0;
    qint64 previous = 0;
    for (const auto& line : lines) {
        QJsonParseError error{};
        const QJsonObject e = QJsonDocument::fromJson(line, &error).object();
        QVERIFY2(error.error == QJsonParseError::NoError, line.constData());
        QVERIFY(e.value(QStringLiteral("number")).toInteger() > previous); // in order, numbered
        previous = e.value(QStringLiteral("number")).toInteger();
        for (const char* key : {"timeNs", "time", "severity", "kind", "stream", "text", "count", "amount"})
            QVERIFY2(e.contains(QLatin1String(key)), key);
        const QString kind = e.value(QStringLiteral("kind")).toString();
        if (kind == QStringLiteral("sequenceGap")) {
            ++gaps;
            QCOMPARE(e.value(QStringLiteral("amount")).toInteger(), 1);
            QCOMPARE(e.value(QStringLiteral("detail")).toString(), QStringLiteral("APID 100"));
            QCOMPARE(e.value(QStringLiteral("stream")).toString(), QStringLiteral("tm"));
        }
        if (kind == QStringLiteral("alarm") && e.value(QStringLiteral("text")).toString().contains(QStringLiteral("loss alarm raised")))
            ++alarms;
    }
    QCOMPARE(gaps, 1);
    QCOMPARE(alarms, 1);
    QVERIFY(lines.last().contains("station stopped"));
}

void TestAppHeadless::badProfileGivesExitCode2()
{
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("bad.json"));
    QFile f(path);
    QVERIFY(f.open(QIODevice::WriteOnly));
    f.write(R"({"streams": [{"name": "tm", "source": "udp://127.0.0.1:1", "packets": [{"apid": 7, "mode": "fast"}]}]})");
    f.close();
    QProcess* p = test::startTelestation(this, {QStringLiteral("--headless"), QStringLiteral("--profile"), path});
    QVERIFY(p->waitForFinished(20000));
    QCOMPARE(p->exitCode(), 2);
    const QString err = QString::fromUtf8(p->readAllStandardError());
    QVERIFY2(err.contains(QStringLiteral("$.streams[0].packets[0].mode")), qPrintable(err));
}


void TestAppHeadless::badConsumerGivesExitCode2_data()
{
    QTest::addColumn<QString>("consume");
    QTest::addColumn<QString>("message");
    QTest::newRow("unknown kind") << "packets,archive" << "'archive': unknown kind of consumer";
    QTest::newRow("count on packets") << "packets:5" << "packets takes no count";
    QTest::newRow("zero count") << "parameters:0" << "whole number above zero";
    QTest::newRow("empty stream") << "display:72@" << "no stream name after '@'";
    QTest::newRow("trailing comma") << "packets," << "ends with a comma";
    // Well formed, but the profile has no such stream: refused before the station starts.
    QTest::newRow("unknown stream") << "computation:50@nowhere" << "no stream named 'nowhere'";
}

void TestAppHeadless::badConsumerGivesExitCode2()
{
    QFETCH(QString, consume);
    QFETCH(QString, message);
    QTemporaryDir dir;
    const QString profile = writeProfile(dir, freeUdpPort());
    QProcess* p = test::startTelestation(this, {QStringLiteral("--headless"), QStringLiteral("--profile"), profile,
                                      QStringLiteral("--duration"), QStringLiteral("5"), QStringLiteral("--consume"), consume});
    QVERIFY(p->waitForFinished(20000));
    QCOMPARE(p->exitCode(), 2);
    const QString err = QString::fromUtf8(p->readAllStandardError());
    QVERIFY2(err.contains(message), qPrintable(err));
}

QTEST_GUILESS_MAIN(TestAppHeadless)
// A profile whose mission database is a real mission's XTCE file: compiled on load and cached beside
// it; the mission's real packets, sent over UDP as they are in the file, are all recognised and decoded.
void TestAppHeadless::anXtceMissionReceivesItsRealPackets_data()
{
    QTest::addColumn<QString>("definition");
    QTest::addColumn<QString>("packets");
    QTest::addColumn<int>("count");
    const QString data = QString::fromStdString(test::referenceDataDir() + "/missions/");
    QTest::newRow("JPSS-1") << data + QStringLiteral("jpss1/jpss1_geolocation_xtce_v1.xml")
                            << data + QStringLiteral("jpss1/J01_G011_LZ_2021-04-09T00-00-00Z_V01.DAT1") << 7200;
    QTest::newRow("IDEX") << data + QStringLiteral("idex/idex_combined_science_definition.xml")
                          << data + QStringLiteral("idex/sciData_2023_052_14_45_05") << 78;
}

void TestAppHeadless::anXtceMissionReceivesItsRealPackets()
{
    QFETCH(QString, definition);
    QFETCH(QString, packets);
    QFETCH(int, count);
    QTemporaryDir dir;
    const QString mission = dir.filePath(QStringLiteral("mission.xml"));
    QVERIFY(QFile::copy(definition, mission));
    const std::uint16_t port = freeUdpPort();
    const QString profile = dir.filePath(QStringLiteral("station.json"));
    QFile f(profile);
    QVERIFY(f.open(QIODevice::WriteOnly));
    // Queues that hold the whole file: the test checks decoding, not speed, and must not lose packets
    // on a slow (sanitizer) build or a busy machine.
    f.write(QStringLiteral(R"({"mdb": "mission.xml", "queues": {"networkPacketQueueSize": 16384, )"
                           R"("processPacketQueueSize": 16384}, "streams": [{"name": "tm", "source": "udp://127.0.0.1:%1"}]})")
                .arg(port)
                .toUtf8());
    f.close();
    const QString summary = dir.filePath(QStringLiteral("summary.json"));
    QProcess* p = test::startTelestation(this, {QStringLiteral("--headless"), QStringLiteral("--profile"), profile,
                                      QStringLiteral("--duration"), QStringLiteral("3"), QStringLiteral("--summary-out"), summary});
    QVERIFY(waitForStatusLine(*p));

    // The file's packets one datagram each, as a ground station would forward them.
    QFile in(packets);
    QVERIFY(in.open(QIODevice::ReadOnly));
    const QByteArray bytes = in.readAll();
    auto sender = io::openSender(*io::parseEndpoint("udp://127.0.0.1:" + std::to_string(port)));
    QVERIFY(sender.ok());
    int sent = 0;
    for (qsizetype at = 0; at + 6 <= bytes.size(); ++sent) {
        const auto* b = reinterpret_cast<const std::uint8_t*>(bytes.constData() + at);
        const qsizetype length = ((qsizetype{b[4]} << 8) | b[5]) + 7;
        const std::span<const std::uint8_t> one(b, static_cast<std::size_t>(length));
        (*sender)->send(std::span(&one, 1));
        at += length;
        if (sent % 100 == 99)
            std::this_thread::sleep_for(1ms);
    }
    QCOMPARE(sent, count);
    QVERIFY(p->waitForFinished(20000));
    const QString out = QString::fromUtf8(p->readAllStandardOutput());
    QVERIFY2(p->exitCode() == 0, qPrintable(out + QString::fromUtf8(p->readAllStandardError())));
    const QJsonObject totals = telestation::test::readJsonObject(summary).value(QStringLiteral("totals")).toObject();
    QCOMPARE(totals.value(QStringLiteral("packetsReceived")).toInteger(), count);
    QCOMPARE(totals.value(QStringLiteral("packetsProcessed")).toInteger(), count);
    QCOMPARE(totals.value(QStringLiteral("unknown")).toInteger(), 0);
    QCOMPARE(totals.value(QStringLiteral("malformed")).toInteger(), 0);
    QCOMPARE(totals.value(QStringLiteral("packetsLost")).toInteger(), 0);
    QVERIFY(totals.value(QStringLiteral("parametersDecoded")).toInteger() >= 20 * count);
    // The compiled definition waits beside the file for the next start.
    QVERIFY(!QDir(dir.path()).entryList({QStringLiteral("mission.xml.*.mdb")}).isEmpty());
}

#include "tst_app_headless.moc"
