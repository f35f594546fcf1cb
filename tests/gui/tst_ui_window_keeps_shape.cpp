// The main window keeps its shape through live changes (issue 15): adding and removing a stream,
// starting a playback, stopping and starting a stream never resize or un-maximise the window, and the
// central splitter and the docks stay where the operator put them. Real window (offscreen), real
// station, a real recording played back.
#include "core/config/station_profile.hpp"
#include "tests/support/sim_traffic.hpp"
#include "tests/support/station_fixture.hpp"
#include "tests/support/test_paths.hpp"
#include "ui/main_window.hpp"
#include "ui/session/station_session.hpp"
#include "ui/widgets/streams_panel.hpp"

#include <QDockWidget>
#include <QSettings>
#include <QSplitter>
#include <QStandardPaths>
#include <QTableView>
#include <QTemporaryDir>
#include <QtTest>

using namespace telestation;

namespace {

config::StationProfile profileIn(const QTemporaryDir& dir)
{
    config::StationProfile p;
    p.mdb = test::trainingDatabasePath();
    p.recordingDirectory = dir.filePath(QStringLiteral("rec")).toStdString();
    p.logDirectory = dir.filePath(QStringLiteral("logs")).toStdString();
    config::StreamProfile s;
    s.name = "health";
    s.source = "udp://127.0.0.1:0";
    s.packets.push_back({100, std::nullopt, config::ProcessingMode::ProcessEntirePacket, true, {}}); // recorded
    p.streams.push_back(s);
    return p;
}

// What the operator arranged: the window's frame, its state, the splitter and every visible dock.
struct Shape {
    QRect geometry;
    Qt::WindowStates state;
    QList<int> splitter;
    QList<QRect> docks;
    bool operator==(const Shape&) const = default;
};

Shape shapeOf(const ui::MainWindow& window)
{
    Shape s{window.geometry(), window.windowState(), {}, {}};
    if (auto* splitter = window.findChild<QSplitter*>())
        s.splitter = splitter->sizes();
    for (auto* dock : window.findChildren<QDockWidget*>())
        if (dock->isVisible())
            s.docks << dock->geometry();
    return s;
}

QString describe(const Shape& s)
{
    QStringList docks;
    for (const QRect& r : s.docks)
        docks << QStringLiteral("%1,%2 %3x%4").arg(r.x()).arg(r.y()).arg(r.width()).arg(r.height());
    QStringList sizes;
    for (int v : s.splitter)
        sizes << QString::number(v);
    return QStringLiteral("window %1,%2 %3x%4 state %5; splitter %6; docks %7")
        .arg(s.geometry.x()).arg(s.geometry.y()).arg(s.geometry.width()).arg(s.geometry.height())
        .arg(int(s.state)).arg(sizes.join(QLatin1Char('/')), docks.join(QStringLiteral("; ")));
}

int streamRows(const ui::MainWindow& window)
{
    return window.streamsPanel()->view()->model()->rowCount();
}

} // namespace

class TestWindowKeepsShape : public QObject {
    Q_OBJECT

private slots:
    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true);
        QSettings().clear();
    }

    void liveChangesKeepTheShape_data()
    {
        QTest::addColumn<bool>("maximised");
        QTest::newRow("normal") << false;
        QTest::newRow("maximised") << true;
    }

    void liveChangesKeepTheShape()
    {
        QFETCH(bool, maximised);
        QTemporaryDir dir;
        ui::StationSession session;
        QString error;
        QVERIFY2(session.open(profileIn(dir), {}, &error), qPrintable(error));
        // Something to play back: HK_Status recorded by the stream "health".
        const auto sent = test::sendPackets(*session.station(), "health", {"HK_Status"}, 300, 3000);
        QVERIFY(test::settle(*session.station(), "health", sent.sent.packets));

        ui::MainWindow window(session);
        if (maximised) {
            window.showMaximized();
        } else {
            window.show();
            window.showNormal(); // the first start maximises on a screen this small (offscreen: 800x600)
            window.setGeometry(40, 30, 700, 500);
        }
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        QCOMPARE(bool(window.windowState() & Qt::WindowMaximized), maximised);
        auto* splitter = window.findChild<QSplitter*>();
        QVERIFY(splitter);
        splitter->setSizes({150, 350}); // the operator's choice, not the default
        QCoreApplication::processEvents();
        const Shape before = shapeOf(window);

        const auto check = [&](const char* after) {
            QCoreApplication::processEvents();
            const Shape now = shapeOf(window);
            QVERIFY2(now == before, qPrintable(QStringLiteral("after %1: %2 (before: %3)")
                                                   .arg(QLatin1String(after), describe(now), describe(before))));
        };

        config::StreamProfile extra;
        extra.name = "science-with-a-long-name-to-widen-the-table";
        extra.source = "udp://127.0.0.1:0";
        QVERIFY2(session.addStream(extra, &error), qPrintable(error));
        QTRY_COMPARE(streamRows(window), 2);
        check("adding a stream");

        config::StreamProfile playback;
        playback.name = "replay";
        playback.source = "file://" + dir.filePath(QStringLiteral("rec")).toStdString() + "?speed=0";
        QVERIFY2(session.addStream(playback, &error), qPrintable(error));
        QTRY_COMPARE(streamRows(window), 3);
        QTRY_VERIFY(session.station()->playbackFinished());
        check("starting a playback");

        QVERIFY(session.stopStream(QStringLiteral("health"), &error));
        QVERIFY(session.startStream(QStringLiteral("health"), &error));
        check("stopping and starting a stream");

        QVERIFY(session.removeStream(QString::fromStdString(extra.name), &error));
        QTRY_COMPARE(streamRows(window), 2);
        check("removing a stream");
        QCOMPARE(bool(window.windowState() & Qt::WindowMaximized), maximised);
    }
};

QTEST_MAIN(TestWindowKeepsShape)
#include "tst_ui_window_keeps_shape.moc"
