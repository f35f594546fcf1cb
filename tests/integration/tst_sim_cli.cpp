// telestation-sim as operators and scripts run it: --headless with --dest and with a scenario file,
// the printed and JSON summaries matching what a receiver counted, and errors (one line, exit 2, the
// JSON path of a scenario error).
#include "tests/support/capture_receiver.hpp"

#include "tests/support/json_file.hpp"
#include "tests/support/test_paths.hpp"

#include <QtTest>

#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QTemporaryDir>

namespace {

struct Run {
    int exitCode = -1;
    QString out;
    QString err;
};

Run runSim(const QStringList& args)
{
    QProcess p;
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.remove(QStringLiteral("DISPLAY"));
    env.remove(QStringLiteral("WAYLAND_DISPLAY"));
    env.remove(QStringLiteral("QT_QPA_PLATFORM"));
    p.setProcessEnvironment(env);
    p.start(telestation::test::binDir() + QStringLiteral("/telestation-sim"), args);
    Run r;
    if (!p.waitForStarted(10000) || !p.waitForFinished(60000)) {
        p.kill();
        p.waitForFinished();
        return r;
    }
    r.exitCode = p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -1;
    r.out = QString::fromUtf8(p.readAllStandardOutput());
    r.err = QString::fromUtf8(p.readAllStandardError());
    return r;
}

// Writes a scenario file into `dir`; its path, or empty when it cannot be written. (Scenarios are
// written with plain string literals: Qt 6.4's moc mis-reads "//" inside raw string literals.)
QString writeScenario(const QTemporaryDir& dir, const QString& json)
{
    const QString path = dir.filePath(QStringLiteral("s.json"));
    QFile f(path);
    if (!f.open(QIODevice::WriteOnly) || f.write(json.toUtf8()) < 0)
        return {};
    return path;
}

} // namespace

class TestSimCli : public QObject {
    Q_OBJECT

private slots:
    void headlessSendsExactlyWhatTheSummarySays()
    {
        QTemporaryDir dir;
        telestation::test::UdpCapture capture;
        const QString summary = dir.filePath(QStringLiteral("summary.json"));
        const Run r = runSim({QStringLiteral("--headless"), QStringLiteral("--dest"),
                              QStringLiteral("udp://127.0.0.1:%1").arg(capture.port()), QStringLiteral("--packet"),
                              QStringLiteral("Packet5,HK_Status:2"), QStringLiteral("--rate"), QStringLiteral("5000pps"),
                              QStringLiteral("--count"), QStringLiteral("1500"), QStringLiteral("--summary-out"), summary});
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        QTRY_COMPARE_WITH_TIMEOUT(capture.count(), std::size_t(1500), 10000);
        const QJsonObject json = telestation::test::readJsonObject(summary);
        const QJsonObject stream = json.value(QStringLiteral("streams")).toArray().at(0).toObject();
        QCOMPARE(stream.value(QStringLiteral("generated")).toInteger(), 1500);
        QCOMPARE(stream.value(QStringLiteral("sent")).toObject().value(QStringLiteral("packets")).toInteger(), 1500);
        const QJsonObject apids = stream.value(QStringLiteral("apids")).toObject();
        QCOMPARE(apids.value(QStringLiteral("7")).toObject().value(QStringLiteral("packets")).toInteger(), 500);
        QCOMPARE(apids.value(QStringLiteral("100")).toObject().value(QStringLiteral("packets")).toInteger(), 1000);
        qint64 bytes = 0;
        for (const auto& d : capture.datagrams())
            bytes += qint64(d.bytes.size());
        QCOMPARE(stream.value(QStringLiteral("sent")).toObject().value(QStringLiteral("bytes")).toInteger(), bytes);
        QVERIFY2(r.out.contains(QStringLiteral("1500")), qPrintable(r.out)); // the printed summary
    }

    void scenarioFileRuns()
    {
        QTemporaryDir dir;
        telestation::test::UdpCapture a;
        telestation::test::UdpCapture b;
        const QString scenario = writeScenario(dir, QStringLiteral("{\"streams\": ["
                               "{\"name\": \"rt\", \"destination\": \"udp:/" "/127.0.0.1:%1\", \"rate\": \"2kpps\","
                               " \"count\": 300, \"mix\": [{\"packet\": \"Packet5\"}]},"
                               "{\"name\": \"hk\", \"destination\": \"udp:/" "/127.0.0.1:%2\", \"rate\": \"100kbps\","
                               " \"count\": 200, \"mix\": [{\"packet\": 100}], \"faults\": {\"drop\": 0.1}, \"seed\": 3}]}")
                                                    .arg(a.port())
                                                    .arg(b.port()));
        QVERIFY(!scenario.isEmpty());
        const QString summary = dir.filePath(QStringLiteral("summary.json"));
        const Run r = runSim({QStringLiteral("--headless"), QStringLiteral("--scenario"), scenario,
                              QStringLiteral("--summary-out"), summary});
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        const QJsonArray streams = telestation::test::readJsonObject(summary).value(QStringLiteral("streams")).toArray();
        QCOMPARE(streams.size(), 2);
        const qint64 dropped = streams.at(1).toObject().value(QStringLiteral("faults")).toObject()
                                   .value(QStringLiteral("dropped")).toInteger();
        QVERIFY(dropped > 0);
        QTRY_COMPARE_WITH_TIMEOUT(a.count(), std::size_t(300), 10000);
        QTRY_COMPARE_WITH_TIMEOUT(b.count(), std::size_t(200 - dropped), 10000);
    }

    // --count (or --duration) given with --scenario applies to every stream of it, in place of the
    // scenario's own; it used to be ignored silently, and a scenario without a stop ran for ever.
    void stopOptionsApplyToEveryScenarioStream()
    {
        QTemporaryDir dir;
        telestation::test::UdpCapture a;
        telestation::test::UdpCapture b;
        const QString scenario = writeScenario(dir, QStringLiteral("{\"streams\": ["
                               "{\"name\": \"rt\", \"destination\": \"udp:/" "/127.0.0.1:%1\", \"rate\": \"2kpps\","
                               " \"mix\": [{\"packet\": \"Packet5\"}]},"
                               "{\"name\": \"hk\", \"destination\": \"udp:/" "/127.0.0.1:%2\", \"rate\": \"5kpps\","
                               " \"duration\": 600, \"mix\": [{\"packet\": 100}]}]}")
                                                    .arg(a.port())
                                                    .arg(b.port()));
        QVERIFY(!scenario.isEmpty());
        const QString summary = dir.filePath(QStringLiteral("summary.json"));
        const Run r = runSim({QStringLiteral("--headless"), QStringLiteral("--scenario"), scenario, QStringLiteral("--count"),
                              QStringLiteral("250"), QStringLiteral("--summary-out"), summary});
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        const QJsonArray streams = telestation::test::readJsonObject(summary).value(QStringLiteral("streams")).toArray();
        QCOMPARE(streams.size(), 2);
        for (const auto& s : streams)
            QCOMPARE(s.toObject().value(QStringLiteral("generated")).toInteger(), 250);
        QTRY_COMPARE_WITH_TIMEOUT(a.count(), std::size_t(250), 10000);
        QTRY_COMPARE_WITH_TIMEOUT(b.count(), std::size_t(250), 10000);
    }

    void errors_data()
    {
        QTest::addColumn<QStringList>("args");
        QTest::addColumn<QString>("message");
        QTest::newRow("no destination") << QStringList{QStringLiteral("--headless")} << QStringLiteral("nothing to send");
        QTest::newRow("no rate") << QStringList{QStringLiteral("--headless"), QStringLiteral("--dest"), QStringLiteral("udp://127.0.0.1:9")}
                                 << QStringLiteral("--rate");
        QTest::newRow("bad rate") << QStringList{QStringLiteral("--dest"), QStringLiteral("udp://127.0.0.1:9"), QStringLiteral("--rate"), QStringLiteral("fast")}
                                  << QStringLiteral("fast");
        QTest::newRow("bad url") << QStringList{QStringLiteral("--dest"), QStringLiteral("udp://127.0.0.1"), QStringLiteral("--rate"), QStringLiteral("1pps")}
                                 << QStringLiteral("udp://127.0.0.1");
        QTest::newRow("both limits") << QStringList{QStringLiteral("--dest"), QStringLiteral("udp://127.0.0.1:9"), QStringLiteral("--rate"), QStringLiteral("1pps"),
                                                    QStringLiteral("--count"), QStringLiteral("1"), QStringLiteral("--duration"), QStringLiteral("1")}
                                     << QStringLiteral("not both");
        QTest::newRow("bad fault") << QStringList{QStringLiteral("--dest"), QStringLiteral("udp://127.0.0.1:9"), QStringLiteral("--rate"), QStringLiteral("1pps"),
                                                  QStringLiteral("--faults"), QStringLiteral("drop=2")}
                                   << QStringLiteral("probability");
        QTest::newRow("unknown option") << QStringList{QStringLiteral("--speed")} << QStringLiteral("--speed");
    }

    void errors()
    {
        QFETCH(QStringList, args);
        QFETCH(QString, message);
        const Run r = runSim(args);
        QCOMPARE(r.exitCode, 2);
        QCOMPARE(r.err.count(QLatin1Char('\n')), 1);
        QVERIFY2(r.err.contains(message), qPrintable(r.err));
    }

    void scenarioErrorNamesItsJsonPath()
    {
        QTemporaryDir dir;
        const QString scenario = dir.filePath(QStringLiteral("bad.json"));
        QFile f(scenario);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write("{\"streams\": [{\"destination\": \"udp:/" "/127.0.0.1:9\", \"rate\": \"1pps\","
                " \"mix\": [{\"packet\": \"Packet5\"}], \"faults\": {\"drop\": 1.5}}]}");
        f.close();
        const Run r = runSim({QStringLiteral("--headless"), QStringLiteral("--scenario"), scenario});
        QCOMPARE(r.exitCode, 2);
        QVERIFY2(r.err.contains(QStringLiteral("$.streams[0].faults.drop")), qPrintable(r.err));
    }
};

QTEST_GUILESS_MAIN(TestSimCli)
#include "tst_sim_cli.moc"
