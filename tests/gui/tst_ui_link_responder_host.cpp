// The workstation answers link tests (issue 18) when its profile has a `linkResponder`: a controller
// runs a test against the session's station; another profile without one stops it; an address in use
// is logged and the station runs on.
#include "core/link/controller.hpp"
#include "tests/support/gui_session.hpp"
#include "ui/session/link_responder_host.hpp"
#include "ui/session/station_session.hpp"

#include <QTemporaryDir>
#include <QTcpServer>
#include <QtTest>

using namespace telestation;

namespace {

QTemporaryDir& scratch()
{
    static QTemporaryDir dir;
    return dir;
}

config::StationProfile profileWith(std::string listen)
{
    config::StationProfile p;
    p.recordingDirectory = scratch().filePath(QStringLiteral("rec")).toStdString();
    p.api.enabled = false;
    config::StreamProfile tm;
    tm.name = "tm";
    tm.source = "udp://127.0.0.1:0";
    p.streams = {tm};
    p.linkResponder.listen = std::move(listen);
    return p;
}

} // namespace

class TestLinkResponderHost : public QObject {
    Q_OBJECT

private slots:
    void answersALinkTestAndFollowsTheSession()
    {
        auto session = test::openSession(profileWith("127.0.0.1:0"));
        ui::LinkResponderHost host(*session);
        QVERIFY(host.responder());
        QVERIFY(host.responder()->port() != 0);

        link::ControllerOptions o;
        o.responder = "127.0.0.1:" + std::to_string(host.responder()->port());
        o.tests = {link::TestKind::MessageRate};
        o.messageSizes = {512};
        o.messageTime = std::chrono::milliseconds(200);
        const auto report = link::runLinkTest(o);
        QVERIFY2(report.ok(), report.ok() ? "" : report.error().message.c_str());
        QCOMPARE(report->messageRate.size(), std::size_t(2));
        QVERIFY(report->messageRate[0].received > 0);
        QVERIFY(session->station()->running()); // the test ran beside the station

        // Another profile without a responder: none any more.
        config::StationProfile other = profileWith("");
        other.mdb = session->profile().mdb;
        QString error;
        QVERIFY2(session->open(other, {}, &error), qPrintable(error));
        QVERIFY(!host.responder());
    }

    void anAddressInUseLeavesTheStationRunning()
    {
        QTcpServer holder;
        QVERIFY(holder.listen(QHostAddress::LocalHost, 0));
        auto session = test::openSession(profileWith("127.0.0.1:" + std::to_string(holder.serverPort())));
        ui::LinkResponderHost host(*session);
        QVERIFY(!host.responder());
        QVERIFY(session->station());
        QVERIFY(session->station()->running());
    }
};

QTEST_MAIN(TestLinkResponderHost)
#include "tst_ui_link_responder_host.moc"
