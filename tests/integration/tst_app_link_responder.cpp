// The station as the link test's far end (issue 18, docs/link-test.md): `telestation --headless
// --link-responder ADDR:PORT` alone and beside a running station (from the command line and from the
// profile), answering a real controller — message rate and the telemetry test through the station's
// own path — and its refusals of wrong arguments.
#include "core/link/controller.hpp"
#include "sim/engine/link_telemetry.hpp"
#include "tests/support/headless_process.hpp"
#include "tests/support/training_mission.hpp"

#include <QTemporaryDir>
#include <QTest>

#include <sys/socket.h>

using namespace telestation;

namespace {

// Waits until the process's standard error contains `text` (it keeps everything read in `seen`).
bool waitForError(QProcess& p, const QByteArray& text, QByteArray& seen)
{
    QDeadlineTimer deadline(20000);
    while (!deadline.hasExpired()) {
        p.waitForReadyRead(100);
        seen += p.readAllStandardError();
        if (seen.contains(text))
            return true;
        if (p.state() == QProcess::NotRunning) {
            seen += p.readAllStandardError();
            return seen.contains(text);
        }
    }
    return false;
}

// A small run of two tests: message rate over TCP and UDP at one size, and the telemetry test at low rates.
link::ControllerOptions smallRun(std::uint16_t port, link::TelemetrySender& telemetry)
{
    link::ControllerOptions o;
    o.responder = "127.0.0.1:" + std::to_string(port);
    o.tests = {link::TestKind::MessageRate, link::TestKind::Telemetry};
    o.messageSizes = {1024};
    o.messageTime = std::chrono::milliseconds(200);
    o.telemetry = &telemetry;
    o.telemetryStartMbps = 1;
    o.telemetryMaxMbps = 2;
    o.telemetryTries = 2;
    o.telemetryTime = std::chrono::milliseconds(300);
    return o;
}

void checkSmallRun(const link::LinkReport& report)
{
    QVERIFY2(report.failures.empty(), report.failures.empty() ? "" : report.failures.front().second.c_str());
    QCOMPARE(report.messageRate.size(), std::size_t(2)); // TCP and UDP
    QCOMPARE(report.messageRate[0].received, report.messageRate[0].sent); // TCP delivers every message
    QVERIFY(report.messageRate[0].received > 0);
    QVERIFY(report.telemetry.has_value());
    QVERIFY(!report.telemetry->tries.empty());
    // The station took every Packet5 sent at 1 Mbit/s and decoded it.
    const auto& first = report.telemetry->tries.front();
    QVERIFY2(first.delivered(), qPrintable(QStringLiteral("sent %1, received %2, processed %3")
                                               .arg(first.sent)
                                               .arg(first.station.received)
                                               .arg(first.station.processed)));
    QVERIFY(report.telemetry->bestMbps.has_value());
}

} // namespace

class TestAppLinkResponder : public QObject {
    Q_OBJECT

private slots:
    void responderAloneAnswersALinkTest();
    void responderBesideTheStationFromTheProfile();
    void wrongArgumentsAreRefused();
    void anAddressInUseIsAnError();
};

void TestAppLinkResponder::responderAloneAnswersALinkTest()
{
    const std::uint16_t port = test::freePort(SOCK_STREAM);
    QProcess* p = test::startTelestation(this, {"--headless", "--link-responder", "127.0.0.1:" + QString::number(port)});
    QByteArray err;
    QVERIFY2(waitForError(*p, "listening on", err), err.constData());

    sim::LinkTelemetrySender telemetry(test::trainingDatabase());
    const auto report = link::runLinkTest(smallRun(port, telemetry));
    QVERIFY2(report.ok(), report.ok() ? "" : report.error().message.c_str());
    checkSmallRun(*report);

    p->terminate(); // SIGTERM ends the responder
    QVERIFY(p->waitForFinished(20000));
    err += p->readAllStandardError();
    QCOMPARE(p->exitStatus(), QProcess::NormalExit);
    QCOMPARE(p->exitCode(), 0);
    QVERIFY2(err.contains("stopped: 1 test(s)"), err.constData());
}

void TestAppLinkResponder::responderBesideTheStationFromTheProfile()
{
    QTemporaryDir dir;
    const std::uint16_t port = test::freePort(SOCK_STREAM);
    const QString profile = dir.filePath("station.json");
    QFile file(profile);
    QVERIFY(file.open(QIODevice::WriteOnly));
    file.write(QStringLiteral(R"({"recordingDirectory": "rec", "logDirectory": "logs",
  "api": {"enabled": false},
  "linkResponder": {"listen": "127.0.0.1:%1"},
  "streams": [{"name": "tm", "source": "udp://127.0.0.1:0"}]})")
                   .arg(port)
                   .toUtf8());
    file.close();
    QProcess* p = test::startTelestation(this, {"--headless", "--profile", profile});
    QVERIFY(test::waitForStatusLine(*p)); // the station runs (the responder starts with it)

    sim::LinkTelemetrySender telemetry(test::trainingDatabase());
    const auto report = link::runLinkTest(smallRun(port, telemetry));
    QVERIFY2(report.ok(), report.ok() ? "" : report.error().message.c_str());
    checkSmallRun(*report);

    p->terminate();
    QVERIFY(p->waitForFinished(20000));
    QCOMPARE(p->exitStatus(), QProcess::NormalExit);
    QCOMPARE(p->exitCode(), 0); // the station lost nothing: the test ran beside it, not in it
}

void TestAppLinkResponder::wrongArgumentsAreRefused()
{
    struct Case {
        QStringList args;
        int exitCode;
        QByteArray says;
    };
    const QList<Case> cases{
        {{"--headless", "--link-allow", "10.0.0.1"}, 2, "--link-allow needs --link-responder"},
        {{"--link-responder", "127.0.0.1:7700"}, 2, "--link-responder needs --headless"},
        {{"--headless", "--link-responder", "127.0.0.1"}, 1, "is not HOST:PORT"},
    };
    for (const Case& c : cases) {
        QProcess* p = test::startTelestation(this, c.args);
        QVERIFY(p->waitForFinished(30000));
        const QByteArray err = p->readAllStandardError();
        QVERIFY2(p->exitCode() == c.exitCode, qPrintable(c.args.join(' ') + ": exit " + QString::number(p->exitCode()) + ": " + err));
        QVERIFY2(err.contains(c.says), qPrintable(c.args.join(' ') + ": " + err));
    }
}

void TestAppLinkResponder::anAddressInUseIsAnError()
{
    // A port another program holds: the responder cannot listen, and says so.
    const int holder = ::socket(AF_INET, SOCK_STREAM, 0);
    sockaddr_in addr{};
    addr.sin_family = AF_INET;
    addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    QCOMPARE(::bind(holder, reinterpret_cast<sockaddr*>(&addr), sizeof addr), 0);
    QCOMPARE(::listen(holder, 1), 0);
    socklen_t length = sizeof addr;
    ::getsockname(holder, reinterpret_cast<sockaddr*>(&addr), &length);
    QProcess* p = test::startTelestation(this, {"--headless", "--link-responder", "127.0.0.1:" + QString::number(ntohs(addr.sin_port))});
    QVERIFY(p->waitForFinished(30000));
    ::close(holder);
    const QByteArray err = p->readAllStandardError();
    QCOMPARE(p->exitCode(), 1);
    QVERIFY2(err.contains("link responder") && err.contains("in use"), err.constData());
}

QTEST_GUILESS_MAIN(TestAppLinkResponder)
#include "tst_app_link_responder.moc"
