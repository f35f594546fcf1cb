// The workstation serves the user API (issue 16) for the session's station: the status bar says where;
// a client reaches it; a new station (another profile) gets a new server and the old calls end; a port
// already in use is shown in red with the reason while the station runs on; "enabled": false is off.
#include "clients/cpp/client.hpp"
#include "tests/support/gui_session.hpp"
#include "ui/main_window.hpp"
#include "ui/session/api_host.hpp"
#include "ui/session/station_session.hpp"

#include <QLabel>
#include <QStatusBar>
#include <QTcpServer>
#include <QTemporaryDir>
#include <QtTest>

using namespace telestation;

namespace {

// Recordings and the event archive in a temporary folder, never the working directory.
QTemporaryDir& scratch()
{
    static QTemporaryDir dir;
    return dir;
}

config::StationProfile profileWith(const config::ApiOptions& api)
{
    config::StationProfile p;
    p.recordingDirectory = scratch().filePath(QStringLiteral("rec")).toStdString();
    config::StreamProfile tm;
    tm.name = "tm";
    tm.source = "udp://127.0.0.1:0";
    p.streams = {tm};
    p.api = api;
    return p;
}

config::ApiOptions anyPort()
{
    config::ApiOptions api;
    api.port = 0;
    return api;
}

} // namespace

class TestApiHost : public QObject {
    Q_OBJECT

private slots:
    void servesTheSessionsStationAndSaysWhere()
    {
        auto session = test::openSession(profileWith(anyPort()));
        ui::ApiHost host(*session);
        ui::MainWindow window(*session);
        host.showIn(window);
        QVERIFY(host.server());
        auto* label = window.statusBar()->findChild<QLabel*>(QStringLiteral("apiLabel"));
        QVERIFY(label);
        QCOMPARE(label->text(), QStringLiteral("API %1").arg(QString::fromStdString(host.server()->target())));
        QVERIFY(!label->isHidden());

        client::Client station(host.server()->target());
        QCOMPARE(station.serverInfo().streams(0).name(), std::string("tm"));
        auto subscription = station.parameters({"Packet5.CPU_LOAD"});
        QVERIFY(subscription.next()); // the names: the call is open

        // Another profile: a new station, a new server; the old call ended, a new client is served.
        config::StationProfile other = profileWith(anyPort());
        other.streams[0].name = "downlink";
        other.mdb = session->profile().mdb;
        QString error;
        QVERIFY2(session->open(other, {}, &error), qPrintable(error));
        QVERIFY(!subscription.next());
        QVERIFY(host.server());
        client::Client again(host.server()->target());
        QCOMPARE(again.serverInfo().streams(0).name(), std::string("downlink"));
        QCOMPARE(label->text(), QStringLiteral("API %1").arg(QString::fromStdString(host.server()->target())));
    }

    void aTakenPortIsShownAndTheStationRunsOn()
    {
        QTcpServer holder;
        QVERIFY(holder.listen(QHostAddress::LocalHost, 0));
        config::ApiOptions api;
        api.port = holder.serverPort();
        auto session = test::openSession(profileWith(api));
        ui::ApiHost host(*session);
        ui::MainWindow window(*session);
        host.showIn(window);
        QVERIFY(!host.server());
        auto* label = window.statusBar()->findChild<QLabel*>(QStringLiteral("apiLabel"));
        QCOMPARE(label->text(), QStringLiteral("API not served"));
        QVERIFY2(label->toolTip().contains(QString::number(api.port)), qPrintable(label->toolTip()));
        QVERIFY(label->styleSheet().contains(QStringLiteral("#c0392b")));
        QVERIFY(session->station()->running());

        config::ApiOptions off = anyPort();
        off.enabled = false;
        config::StationProfile quiet = profileWith(off);
        quiet.mdb = session->profile().mdb;
        QString error;
        QVERIFY2(session->open(quiet, {}, &error), qPrintable(error));
        QVERIFY(!host.server());
        QCOMPARE(label->text(), QStringLiteral("API off"));
    }
};

QTEST_MAIN(TestApiHost)
#include "tst_ui_api_host.moc"
