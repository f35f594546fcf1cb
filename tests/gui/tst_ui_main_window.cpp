// The main window over a real session (two UDP streams on loopback, the training mission database):
// the views follow the station, a packet mode changed in the packet table marks the profile unsaved,
// a stream added through the streams panel's signal joins the same station while the displays keep
// their contents and list it in their stream selectors,
// display files and the window layout round-trip, the statistics dialog shows the engine's counts,
// and every view that shows counts shows the one snapshot the session took at each tick.
#include "core/pipeline/station.hpp"
#include "sim/engine/sim_stream.hpp"
#include "tests/support/sim_traffic.hpp"
#include "ui/dialogs/statistics_dialog.hpp"
#include "ui/displays/display_dock.hpp"
#include "ui/displays/packet_view.hpp"
#include "ui/main_window.hpp"

#include <QComboBox>
#include "ui/models/packet_settings_model.hpp"
#include "ui/session/station_session.hpp"
#include "ui/widgets/packet_table.hpp"
#include "ui/widgets/recordings_browser.hpp"
#include "ui/widgets/streams_panel.hpp"
#include "tests/support/station_fixture.hpp"

#include <QDockWidget>
#include <QSettings>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QtTest>

using namespace telestation;
using namespace std::chrono_literals;

namespace {

config::StationProfile profileIn(const QTemporaryDir& dir)
{
    config::StationProfile p;
    p.recordingDirectory = dir.filePath(QStringLiteral("rec")).toStdString();
    p.logDirectory = dir.filePath(QStringLiteral("logs")).toStdString();
    for (const char* name : {"health", "science"}) {
        config::StreamProfile s;
        s.name = name;
        s.source = "udp://127.0.0.1:0";
        p.streams.push_back(s);
    }
    return p;
}

QJsonObject valuesSpec()
{
    return QJsonObject{{QStringLiteral("type"), QStringLiteral("values")},
                       {QStringLiteral("title"), QStringLiteral("Health")},
                       {QStringLiteral("rawHex"), false},
                       {QStringLiteral("rows"),
                        QJsonArray{QJsonObject{{QStringLiteral("stream"), QStringLiteral("health")},
                                               {QStringLiteral("parameter"), QStringLiteral("Packet5.CPU_LOAD")}},
                                   QJsonObject{{QStringLiteral("stream"), QStringLiteral("science")},
                                               {QStringLiteral("parameter"), QStringLiteral("HK_Status.BUS_VOLTAGE")}}}}};
}

QJsonObject plotSpec()
{
    const auto curve = [](const char* stream, const char* parameter, const char* color, const char* axis) {
        return QJsonObject{{QStringLiteral("stream"), QLatin1String(stream)}, {QStringLiteral("parameter"), QLatin1String(parameter)},
                           {QStringLiteral("color"), QLatin1String(color)}, {QStringLiteral("axis"), QLatin1String(axis)}};
    };
    return QJsonObject{{QStringLiteral("type"), QStringLiteral("plot")},
                       {QStringLiteral("title"), QStringLiteral("Trends")},
                       {QStringLiteral("window"), 300.0},
                       {QStringLiteral("plots"),
                        QJsonArray{QJsonObject{{QStringLiteral("title"), QStringLiteral("one")},
                                               {QStringLiteral("curves"), QJsonArray{curve("health", "Packet5.CPU_LOAD", "#ff0000", "left"),
                                                                                     curve("health", "Packet5.UPTIME", "#00ff00", "right")}}},
                                   QJsonObject{{QStringLiteral("title"), QStringLiteral("two")},
                                               {QStringLiteral("curves"), QJsonArray{curve("science", "GNC_State.RATE_X", "#0000ff", "left")}}}}}};
}

QJsonObject packetSpec()
{
    return QJsonObject{{QStringLiteral("type"), QStringLiteral("packet")}, {QStringLiteral("title"), QStringLiteral("HK")},
                       {QStringLiteral("stream"), QStringLiteral("health")}, {QStringLiteral("packet"), QStringLiteral("HK_Status")}};
}

} // namespace

class TestMainWindow : public QObject {
    Q_OBJECT

private slots:
    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true);
        QSettings().clear();
    }

    void modeChangeMarksTheProfileUnsaved()
    {
        QTemporaryDir dir;
        ui::StationSession session;
        QString error;
        QVERIFY2(session.open(profileIn(dir), {}, &error), qPrintable(error));
        ui::MainWindow window(session);
        window.show();
        QVERIFY(!window.isWindowModified());
        QVERIFY(window.missionSummary().contains(QStringLiteral("packet types")));
        auto* model = window.packetTable()->model();
        const auto type = session.station()->types().typeByName("Packet5");
        QVERIFY(type);
        const int row = model->rowOfType(QStringLiteral("Packet5"));
        QVERIFY(row >= 0);
        QVERIFY(model->setData(model->index(row, ui::PacketSettingsModel::Mode),
                               static_cast<int>(config::ProcessingMode::PassThru), Qt::EditRole));
        QVERIFY(session.station()->mode(0, *type) == config::ProcessingMode::PassThru);
        QVERIFY(session.isDirty());
        QVERIFY(window.isWindowModified());
    }

    void addingAStreamLiveKeepsTheDisplays()
    {
        QTemporaryDir dir;
        ui::StationSession session;
        QString error;
        QVERIFY(session.open(profileIn(dir), {}, &error));
        ui::MainWindow window(session);
        window.show();
        window.openDisplay(valuesSpec());
        window.openDisplay(plotSpec());
        window.openDisplay(packetSpec());
        QCOMPARE(window.displays().size(), 3);
        QList<QJsonObject> before;
        for (auto* d : window.displays())
            before << d->spec();

        config::StreamProfile extra;
        extra.name = "extra";
        extra.source = "udp://127.0.0.1:0";
        auto* old = session.station();
        QList<QWidget*> shown;
        for (auto* d : window.displays())
            shown << d->display();
        QVERIFY2(session.addStream(extra, &error), qPrintable(error));
        QCOMPARE(session.station(), old); // live: the same station, the same display widgets
        QCOMPARE(session.station()->streamCount(), std::size_t{3});
        QList<QJsonObject> after;
        for (int i = 0; i < window.displays().size(); ++i) {
            auto* d = window.displays().at(i);
            QCOMPARE(d->display(), shown.at(i));
            after << d->spec();
            // Every display's stream selector lists the new stream and keeps its choice.
            auto* combo = d->display()->findChild<QComboBox*>(QStringLiteral("streamCombo"));
            QVERIFY(combo);
            QVERIFY(combo->findText(QStringLiteral("extra")) >= 0);
            QVERIFY(combo->currentText() != QStringLiteral("extra"));
        }
        QCOMPARE(after, before);
        QVERIFY(session.isDirty());
        // The streams panel shows it; the packet table stays on the stream it showed.
        const QString shownStream = window.packetTable()->stream();
        QVERIFY(!shownStream.isEmpty());
        QCOMPARE(session.streamNames().size(), 3);
        QVERIFY(session.removeStream(QStringLiteral("extra"), &error));
        QCOMPARE(session.station(), old);
        QCOMPARE(window.packetTable()->stream(), shownStream);
        for (auto* d : window.displays())
            QVERIFY(d->display()->findChild<QComboBox*>(QStringLiteral("streamCombo"))->findText(QStringLiteral("extra")) < 0);
    }

    void displayFilesAndLayoutRoundTrip()
    {
        QTemporaryDir dir;
        ui::StationSession session;
        QString error;
        QVERIFY(session.open(profileIn(dir), {}, &error));
        const QString file = dir.filePath(QStringLiteral("displays.tsdisplays"));
        QList<QJsonObject> saved;
        {
            ui::MainWindow window(session);
            window.show();
            window.openDisplay(valuesSpec());
            window.openDisplay(plotSpec());
            window.openDisplay(packetSpec());
            QVERIFY2(window.saveDisplayFile(file, &error), qPrintable(error));
            for (auto* d : window.displays())
                saved << d->spec();
            window.displays().at(1)->setFloating(true);
            window.saveLayout();
        }
        const auto loaded = ui::loadDisplayFile(file, &error);
        QVERIFY2(loaded, qPrintable(error));
        QCOMPARE(*loaded, saved);
        {
            ui::MainWindow window(session);
            QVERIFY(window.openDisplayFile(file, &error));
            QList<QJsonObject> reopened;
            for (auto* d : window.displays())
                reopened << d->spec();
            QCOMPARE(reopened, saved);
        }
        {
            ui::MainWindow window(session);
            window.restoreLayout();
            window.show();
            QCOMPARE(window.displays().size(), 3);
            QVERIFY(window.displays().at(1)->isFloating());
            QList<QJsonObject> restored;
            for (auto* d : window.displays())
                restored << d->spec();
            QCOMPARE(restored, saved);
        }
        // Not a display file: the reason, nothing opened.
        QFile bad(dir.filePath(QStringLiteral("bad.json")));
        QVERIFY(bad.open(QIODevice::WriteOnly));
        bad.write(R"({"format": "telestation-displays", "version": 1, "displays": [{"type": "gauge"}]})");
        bad.close();
        QVERIFY(!ui::loadDisplayFile(bad.fileName(), &error));
        QVERIFY2(error.contains(QStringLiteral("gauge")), qPrintable(error));
    }

    // With no saved layout (a first start, the demo), a packet view shares the first value display's
    // place as a tab behind it, so that the values and the plots get the height, and the displays take
    // about half the width.
    void firstStartLayoutGivesValuesAndPlotsTheRoom()
    {
        QTemporaryDir dir;
        ui::StationSession session;
        QString error;
        QVERIFY(session.open(profileIn(dir), {}, &error));
        QSettings().clear();
        ui::MainWindow window(session);
        window.resize(1600, 1000);
        window.restoreLayout(QList<QJsonObject>{valuesSpec(), plotSpec(), packetSpec()});
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        QCOMPARE(window.displays().size(), 3);
        const auto dockOf = [&](const char* type) -> ui::DisplayDock* {
            for (auto* d : window.displays())
                if (d->spec().value(QStringLiteral("type")).toString() == QLatin1String(type))
                    return d;
            return nullptr;
        };
        auto* values = dockOf("values");
        auto* plot = dockOf("plot");
        auto* packet = dockOf("packet");
        QVERIFY(values && plot && packet);
        QVERIFY(window.tabifiedDockWidgets(values).contains(packet));
        QVERIFY(!window.tabifiedDockWidgets(values).contains(plot));
        // The value display is the tab in front, and the displays' column is about half the window.
        QTRY_VERIFY(!values->visibleRegion().isEmpty());
        QVERIFY(packet->visibleRegion().isEmpty());
        QTRY_VERIFY2(plot->width() > window.width() * 35 / 100 && plot->width() < window.width() * 60 / 100,
                     qPrintable(QStringLiteral("displays %1 px of %2").arg(plot->width()).arg(window.width())));
    }

    void statisticsShowTheEnginesCounts()
    {
        QTemporaryDir dir;
        ui::StationSession session;
        QString error;
        QVERIFY(session.open(profileIn(dir), {}, &error));
        ui::MainWindow window(session);
        window.show();
        auto& station = *session.station();
        test::sendPackets(station, "health", {"HK_Status"}, 123, 2000);
        QVERIFY(test::settle(station, "health", 123));
        QCOMPARE(station.snapshot().streams[0].counters.packetsReceived, std::uint64_t{123});
        window.showStatistics();
        auto* dialog = window.statisticsDialog();
        QVERIFY(dialog->isVisible());
        session.snapshots().tick();
        const auto engine = station.snapshot();
        const auto& shown = dialog->shownSnapshot();
        QCOMPARE(shown.streams.size(), engine.streams.size());
        QCOMPARE(shown.streams[0].counters.packetsReceived, engine.streams[0].counters.packetsReceived);
        QCOMPARE(shown.streams[0].counters.packetsProcessed, engine.streams[0].counters.packetsProcessed);
        QCOMPARE(shown.streams[0].counters.bytesReceived, engine.streams[0].counters.bytesReceived);
    }

    // One snapshot per tick: the streams panel, the packet table, a packet view, the recordings browser
    // and the statistics dialog, all visible, show the very snapshot the session took (the same
    // object, not one of their own), at a tick asked for and at the session's own ticks.
    void everyViewShowsTheSessionsTick()
    {
        QTemporaryDir dir;
        ui::StationSession session;
        QString error;
        QVERIFY(session.open(profileIn(dir), {}, &error));
        ui::MainWindow window(session);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        auto* packetDock = window.openDisplay(packetSpec());
        packetDock->show();
        auto* packetView = qobject_cast<ui::PacketView*>(packetDock->display());
        QVERIFY(packetView);
        auto* recordingsDock = window.findChild<QDockWidget*>(QStringLiteral("recordingsDock"));
        QVERIFY(recordingsDock);
        recordingsDock->raise(); // tabbed behind the mission database
        window.showStatistics();
        auto* dialog = window.statisticsDialog();
        QTRY_VERIFY(packetView->isVisible() && window.recordingsBrowser()->isVisible() && dialog->isVisible());

        const auto everyViewShows = [&](const ui::SharedSnapshot& snapshot) {
            return snapshot && window.streamsPanel()->feedSnapshot() == snapshot
                   && window.packetTable()->feedSnapshot() == snapshot && packetView->feedSnapshot() == snapshot
                   && window.recordingsBrowser()->feedSnapshot() == snapshot && dialog->feedSnapshot() == snapshot;
        };
        const auto taken = session.snapshots().snapshotsTaken();
        session.snapshots().tick();
        QCOMPARE(session.snapshots().snapshotsTaken(), taken + 1);
        QVERIFY(everyViewShows(session.snapshots().latest()));

        // The session's own ticks, once a second.
        QTRY_VERIFY_WITH_TIMEOUT(session.snapshots().snapshotsTaken() >= taken + 3, 5000);
        QVERIFY(everyViewShows(session.snapshots().latest()));
    }
};

QTEST_MAIN(TestMainWindow)
#include "tst_ui_main_window.moc"
