// Errors where the operator looks for them (issue 15): the status bar shows one message at a time on
// one line — a newer replaces an older, several lines become the first and a count, the whole text in
// the tool tip — also through the main window, where the session's problems and the window's own
// reports used to run into each other, and Start All's failures used to leave only the last one shown;
// and every error in the event log carries the stream it belongs to (a stream that cannot open was also
// noted a second time with no stream).
#include "core/config/station_profile.hpp"
#include "tests/support/gui_session.hpp"
#include "tests/support/held_udp_port.hpp"
#include "tests/support/station_fixture.hpp"
#include "ui/main_window.hpp"
#include "ui/session/station_session.hpp"
#include "ui/widgets/status_message.hpp"

#include <QAction>
#include <QLabel>
#include <QMenu>
#include <QMenuBar>
#include <QStandardPaths>
#include <QStatusBar>
#include <QTemporaryDir>
#include <QtTest>

#include <algorithm>
#include <string>
#include <vector>

using namespace telestation;
using ui::StatusMessage;

class TestStatusMessage : public QObject {
    Q_OBJECT

private slots:
    void initTestCase() { QStandardPaths::setTestModeEnabled(true); }

    void aNewerMessageReplacesAnOlder()
    {
        QStatusBar bar;
        auto* mission = new QLabel(QStringLiteral("Mission database: training"), &bar);
        bar.addWidget(mission, 1);
        StatusMessage messages(bar);
        bar.show();
        messages.show(QStringLiteral("stream tm: cannot start"));
        QCOMPARE(messages.current(), QStringLiteral("stream tm: cannot start"));
        messages.show(QStringLiteral("profile saved"));
        QCOMPARE(messages.current(), QStringLiteral("profile saved")); // alone, not appended
        QCOMPARE(bar.currentMessage(), QStringLiteral("profile saved"));
        // Cleared: the normal widgets are back and the tool tip goes with the message.
        messages.show(QString());
        QCOMPARE(messages.current(), QString());
        QCOMPARE(bar.toolTip(), QString());
        QVERIFY(mission->isVisible());
    }

    void severalLinesBecomeOne()
    {
        QCOMPARE(StatusMessage::oneLine(QStringLiteral("a: port in use\nb: no such file\n\nc: refused\n")),
                 QStringLiteral("a: port in use (+2 more: see the event log)"));
        QCOMPARE(StatusMessage::oneLine(QStringLiteral("  only one  \n")), QStringLiteral("only one"));
        QCOMPARE(StatusMessage::oneLine(QStringLiteral("\n \n")), QString());

        QStatusBar bar;
        StatusMessage messages(bar);
        messages.show(QStringLiteral("a: port in use\nb: no such file"));
        QCOMPARE(bar.currentMessage(), QStringLiteral("a: port in use (+1 more: see the event log)"));
        QVERIFY(!bar.currentMessage().contains(QLatin1Char('\n')));
        QCOMPARE(bar.toolTip(), QStringLiteral("a: port in use\nb: no such file"));
    }

    // The main window: the session's problem and then another one — the status bar shows the newer.
    void theMainWindowShowsOneMessage()
    {
        QTemporaryDir dir;
        auto session = test::openSession(test::stationProfile(dir, {test::streamProfile("tm")}));
        ui::MainWindow window(*session);
        window.show();
        Q_EMIT session->problem(QStringLiteral("stream a: cannot start: address already in use\nstream b: no such file"));
        QCOMPARE(window.statusBar()->currentMessage(),
                 QStringLiteral("stream a: cannot start: address already in use (+1 more: see the event log)"));
        Q_EMIT session->problem(QStringLiteral("profile saved to /tmp/x.json"));
        QCOMPARE(window.statusBar()->currentMessage(), QStringLiteral("profile saved to /tmp/x.json"));
        QCOMPARE(window.statusMessage()->current(), window.statusBar()->currentMessage());
    }

    // Streams → Start All with two streams whose ports are held: one message for both, not the last
    // one alone.
    void startAllReportsEveryFailureInOneMessage()
    {
        QTemporaryDir dir;
        const test::HeldUdpPort first;
        const test::HeldUdpPort second;
        QVERIFY(first.port() != 0 && second.port() != 0);
        auto session = test::openSession(test::stationProfile(
            dir, {test::streamProfile("one", "udp://127.0.0.1:" + std::to_string(first.port())),
                  test::streamProfile("two", "udp://127.0.0.1:" + std::to_string(second.port()))}));
        ui::MainWindow window(*session);
        window.show();
        QAction* startAll = nullptr;
        for (QAction* menu : window.menuBar()->actions())
            if (menu->menu())
                for (QAction* a : menu->menu()->actions())
                    if (a->text() == QStringLiteral("Start &All"))
                        startAll = a;
        QVERIFY(startAll);
        startAll->trigger();
        const QString shown = window.statusBar()->currentMessage();
        QVERIFY2(shown.startsWith(QStringLiteral("stream one: ")), qPrintable(shown));
        QVERIFY2(shown.endsWith(QStringLiteral("(+1 more: see the event log)")), qPrintable(shown));
        QVERIFY(window.statusBar()->toolTip().contains(QStringLiteral("stream two: ")));
    }

    // A stream whose port another program holds: every error event names a stream.
    void errorsInTheEventLogCarryTheirStream()
    {
        QTemporaryDir dir;
        const test::HeldUdpPort holder;
        QVERIFY(holder.port() != 0);
        auto profile = test::stationProfile(
            dir, {test::streamProfile("alpha"), test::streamProfile("beta", "udp://127.0.0.1:" + std::to_string(holder.port()))});
        ui::StationSession session;
        QString error;
        QVERIFY2(session.open(profile, {}, &error), qPrintable(error));
        // The same when a stream is added later (unless the session refuses a source that cannot open).
        const bool added =
            session.addStream(test::streamProfile("gamma", "udp://127.0.0.1:" + std::to_string(holder.port())));

        // The station's events come through its event thread: wait until both streams' are in.
        std::vector<events::Event> log;
        const auto errorsOf = [&log](const char* stream) {
            return std::count_if(log.begin(), log.end(), [stream](const events::Event& e) {
                return e.severity == events::Severity::Error && e.stream == stream;
            });
        };
        QTRY_VERIFY_WITH_TIMEOUT((log = session.events(0), errorsOf("beta") > 0 && (!added || errorsOf("gamma") > 0)), 10000);
        for (const auto& e : log) {
            if (e.severity == events::Severity::Error)
                QVERIFY2(!e.stream.empty(), e.text.c_str());
        }
    }
};

QTEST_MAIN(TestStatusMessage)
#include "tst_ui_status_message.moc"
