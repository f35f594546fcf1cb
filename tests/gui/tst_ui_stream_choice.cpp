// The right stream, always (issue 15, point 3), in the main window over a real session (UDP streams on
// loopback, the training mission database): the packet table shows the packet types and settings of the
// stream highlighted in the streams panel after every change — a stream added, edited, started,
// stopped or removed through the session, another profile opened — and the stream combos of the
// displays keep the stream chosen in them, by name.
//
// Each stream has its own processing mode for Packet5, so that a table showing one stream's settings
// under another's name is seen.
#include "core/config/station_profile.hpp"
#include "ui/displays/display_dock.hpp"
#include "ui/displays/packet_view.hpp"
#include "ui/displays/parameter_plot.hpp"
#include "ui/displays/stream_chooser.hpp"
#include "ui/displays/value_display.hpp"
#include "ui/main_window.hpp"
#include "ui/models/packet_settings_model.hpp"
#include "ui/models/streams_model.hpp"
#include "ui/session/station_session.hpp"
#include "ui/widgets/packet_table.hpp"
#include "ui/widgets/streams_panel.hpp"
#include "tests/support/station_fixture.hpp"
#include "tests/support/test_paths.hpp"

#include <QComboBox>
#include <QItemSelectionModel>
#include <QLabel>
#include <QSettings>
#include <QStandardPaths>
#include <QTableView>
#include <QTemporaryDir>
#include <QtTest>

#include <map>
#include <string>

using namespace telestation;
using config::ProcessingMode;

namespace {

// The mode each stream gives Packet5: what the packet table must show for it.
const std::map<std::string, ProcessingMode> kPacket5Mode{
    {"alpha", ProcessingMode::PassThru},          {"bravo", ProcessingMode::ProcessOnDemand},
    {"charlie", ProcessingMode::ProcessEntirePacket}, {"delta", ProcessingMode::PassThru},
    {"echo", ProcessingMode::ProcessOnDemand},
};

config::StreamProfile stream(const std::string& name)
{
    config::PacketSettings packet5;
    packet5.packet = "Packet5";
    packet5.mode = kPacket5Mode.at(name);
    return test::streamProfile(name, "udp://127.0.0.1:0", {packet5});
}

config::StationProfile profile(const QTemporaryDir& dir, const std::vector<std::string>& names)
{
    std::vector<config::StreamProfile> streams;
    for (const auto& n : names)
        streams.push_back(stream(n));
    config::StationProfile p = test::stationProfile(dir, streams);
    p.mdb = test::trainingDatabasePath();
    return p;
}

// The stream highlighted in the streams panel (its view's current row), "" when none.
QString highlighted(const ui::MainWindow& window)
{
    const QModelIndex current = window.streamsPanel()->view()->selectionModel()->currentIndex();
    return current.isValid() ? window.streamsPanel()->model()->streamName(current.row()) : QString();
}

// Empty when the packet table shows the highlighted stream with that stream's settings; else what is
// wrong.
QString packetTableMismatch(const ui::MainWindow& window)
{
    const QString want = highlighted(window);
    const ui::PacketTable& table = *window.packetTable();
    if (want.isEmpty())
        return QStringLiteral("no stream highlighted");
    if (table.stream() != want)
        return QStringLiteral("the packet table shows %1, the panel highlights %2").arg(table.stream(), want);
    const auto* title = table.findChild<QLabel*>(QStringLiteral("packetTableTitle"));
    if (!title || !title->text().contains(want))
        return QStringLiteral("the packet table's title reads '%1'").arg(title ? title->text() : QString());
    const ui::PacketSettingsModel& model = *table.model();
    const int row = model.rowOfType(QStringLiteral("Packet5"));
    if (row < 0)
        return QStringLiteral("no Packet5 row");
    const auto expected = kPacket5Mode.find(want.toStdString());
    if (expected == kPacket5Mode.end())
        return QStringLiteral("unexpected stream %1").arg(want);
    if (model.mode(row) != expected->second)
        return QStringLiteral("Packet5 of %1 shows %2, its mode is %3")
            .arg(want, ui::PacketSettingsModel::modeText(model.mode(row)), ui::PacketSettingsModel::modeText(expected->second));
    return {};
}

// The streams panel and the packet table agree (at once with a rebuilt station; by the session's next
// tick at the latest when the change was live).
#define VERIFY_PACKET_TABLE_FOLLOWS(window)                                                                  \
    QTRY_VERIFY2_WITH_TIMEOUT(packetTableMismatch(window).isEmpty(), qPrintable(packetTableMismatch(window)), \
                              5000)

void highlight(ui::MainWindow& window, const QString& name)
{
    ui::StreamsPanel& panel = *window.streamsPanel();
    const int row = panel.model()->rowOf(name);
    QVERIFY2(row >= 0, qPrintable(name));
    const QRect rect = panel.view()->visualRect(panel.model()->index(row, ui::StreamsModel::Name));
    QTest::mouseClick(panel.view()->viewport(), Qt::LeftButton, {}, rect.center());
    QCOMPARE(highlighted(window), name);
}

QJsonObject valuesSpec()
{
    return QJsonObject{{QStringLiteral("type"), QStringLiteral("values")}, {QStringLiteral("title"), QStringLiteral("Values")}};
}

QJsonObject plotSpec()
{
    return QJsonObject{{QStringLiteral("type"), QStringLiteral("plot")}, {QStringLiteral("title"), QStringLiteral("Plot")}};
}

ui::StreamChooser* chooserOf(const ui::DisplayDock& dock)
{
    if (auto* values = qobject_cast<ui::ValueDisplay*>(dock.display()))
        return values->streamChooser();
    if (auto* plot = qobject_cast<ui::ParameterPlot*>(dock.display()))
        return plot->streamChooser();
    return nullptr;
}

} // namespace

class TestStreamChoice : public QObject {
    Q_OBJECT

private slots:
    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true);
        QSettings().clear();
    }

    void packetTableFollowsTheHighlightedStream()
    {
        QTemporaryDir dir;
        ui::StationSession session;
        QString error;
        QVERIFY2(session.open(profile(dir, {"alpha", "bravo", "charlie"}), {}, &error), qPrintable(error));
        ui::MainWindow window(session);
        window.resize(1400, 900);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        VERIFY_PACKET_TABLE_FOLLOWS(window);
        QCOMPARE(highlighted(window), QStringLiteral("alpha"));

        highlight(window, QStringLiteral("bravo"));
        VERIFY_PACKET_TABLE_FOLLOWS(window);

        // Added: the highlighted stream stays highlighted, and shown.
        QVERIFY2(session.addStream(stream("delta"), &error), qPrintable(error));
        QTRY_VERIFY_WITH_TIMEOUT(window.streamsPanel()->model()->rowOf(QStringLiteral("delta")) >= 0, 5000);
        QCOMPARE(highlighted(window), QStringLiteral("bravo"));
        VERIFY_PACKET_TABLE_FOLLOWS(window);

        // Another stream edited, stopped, started.
        config::StreamProfile edited = stream("charlie");
        edited.transportHeaderBytes = 4;
        QVERIFY2(session.replaceStream(QStringLiteral("charlie"), edited, &error), qPrintable(error));
        QCOMPARE(highlighted(window), QStringLiteral("bravo"));
        VERIFY_PACKET_TABLE_FOLLOWS(window);
        QVERIFY2(session.stopStream(QStringLiteral("alpha"), &error), qPrintable(error));
        QCOMPARE(highlighted(window), QStringLiteral("bravo"));
        VERIFY_PACKET_TABLE_FOLLOWS(window);
        QVERIFY2(session.startStream(QStringLiteral("alpha"), &error), qPrintable(error));
        VERIFY_PACKET_TABLE_FOLLOWS(window);

        // The last stream highlighted, then the first removed: the rows move up, the choice does not.
        highlight(window, QStringLiteral("delta"));
        VERIFY_PACKET_TABLE_FOLLOWS(window);
        QVERIFY2(session.removeStream(QStringLiteral("alpha"), &error), qPrintable(error));
        QTRY_VERIFY_WITH_TIMEOUT(window.streamsPanel()->model()->rowOf(QStringLiteral("alpha")) < 0, 5000);
        QCOMPARE(highlighted(window), QStringLiteral("delta"));
        VERIFY_PACKET_TABLE_FOLLOWS(window);

        // The highlighted stream removed: another is highlighted, and that one is shown.
        QVERIFY2(session.removeStream(QStringLiteral("delta"), &error), qPrintable(error));
        QTRY_VERIFY_WITH_TIMEOUT(window.streamsPanel()->model()->rowOf(QStringLiteral("delta")) < 0, 5000);
        VERIFY_PACKET_TABLE_FOLLOWS(window);

        // Another profile that has the highlighted stream: it stays; one that has not: its first stream.
        highlight(window, QStringLiteral("charlie"));
        QVERIFY2(session.open(profile(dir, {"echo", "charlie"}), {}, &error), qPrintable(error));
        QCOMPARE(highlighted(window), QStringLiteral("charlie"));
        VERIFY_PACKET_TABLE_FOLLOWS(window);
        QVERIFY2(session.open(profile(dir, {"delta", "echo"}), {}, &error), qPrintable(error));
        QCOMPARE(highlighted(window), QStringLiteral("delta"));
        VERIFY_PACKET_TABLE_FOLLOWS(window);
    }

    void displayStreamSelectorsKeepTheirChoice()
    {
        QTemporaryDir dir;
        ui::StationSession session;
        QString error;
        QVERIFY2(session.open(profile(dir, {"alpha", "bravo", "charlie"}), {}, &error), qPrintable(error));
        ui::MainWindow window(session);
        window.resize(1400, 900);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        const QList<ui::DisplayDock*> docks{window.openDisplay(valuesSpec()), window.openDisplay(plotSpec())};
        for (auto* dock : docks) {
            ui::StreamChooser* chooser = chooserOf(*dock);
            QVERIFY(chooser);
            QCOMPARE(chooser->stream(), QStringLiteral("alpha"));
            chooser->setCurrentIndex(chooser->findText(QStringLiteral("bravo"))); // as the operator picks it
            QCOMPARE(chooser->stream(), QStringLiteral("bravo"));
        }
        const auto chosen = [&] {
            QStringList names;
            for (auto* dock : docks) {
                const ui::StreamChooser* chooser = chooserOf(*dock);
                names << (chooser ? chooser->stream() : QStringLiteral("(no display)"));
            }
            return names;
        };
        const QStringList bravo{QStringLiteral("bravo"), QStringLiteral("bravo")};

        QVERIFY2(session.addStream(stream("delta"), &error), qPrintable(error));
        QCOMPARE(chosen(), bravo);
        QVERIFY2(session.removeStream(QStringLiteral("alpha"), &error), qPrintable(error)); // the rows move up
        QCOMPARE(chosen(), bravo);
        QVERIFY2(session.stopStream(QStringLiteral("bravo"), &error), qPrintable(error));
        QCOMPARE(chosen(), bravo);
        // The list offered is the station's as it is now.
        for (auto* dock : docks) {
            ui::StreamChooser* chooser = chooserOf(*dock);
            QVERIFY(chooser);
            chooser->showPopup();
            QStringList items;
            for (int i = 0; i < chooser->count(); ++i)
                items << chooser->itemText(i);
            chooser->hidePopup();
            QCOMPARE(items, (QStringList{QStringLiteral("bravo"), QStringLiteral("charlie"), QStringLiteral("delta")}));
        }
        // The chosen stream gone: the first, and the display's spec says so.
        QVERIFY2(session.removeStream(QStringLiteral("bravo"), &error), qPrintable(error));
        for (auto* dock : docks) {
            QTRY_COMPARE_WITH_TIMEOUT(chooserOf(*dock)->stream(), QStringLiteral("charlie"), 5000);
        }
        // Saved in the layout by name.
        for (auto* dock : docks)
            QCOMPARE(dock->spec().value(QStringLiteral("stream")).toString(), QStringLiteral("charlie"));
    }
};

QTEST_MAIN(TestStreamChoice)
#include "tst_ui_stream_choice.moc"
