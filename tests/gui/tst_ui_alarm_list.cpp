// The alarm list over a real station and the simulator on loopback, in the main window: the
// simulator's List generator drives Packet5.COOLANT_FLOW_RATE (training mission limits: red below 20,
// yellow below 30 and above 150, red above 180) to 190, and the dock lists a critical alarm, active
// unacknowledged, in red; back to 100 it is back to normal unacknowledged; the dock's Acknowledge (a
// comment typed) removes it and the event log says who and why. Shelved for 15 min through the dock's
// menu it leaves the status bar's count; Unshelve brings it back. A refusal is shown in red. A value
// display's row menu shows the alarm in the list and opens Edit limits….
#include "core/events/alarm.hpp"
#include "sim/engine/value_generator.hpp"
#include "tests/support/gui_session.hpp"
#include "tests/support/sim_traffic.hpp"
#include "tests/support/station_fixture.hpp"
#include "ui/dialogs/limit_edit_dialog.hpp"
#include "ui/displays/display_dock.hpp"
#include "ui/displays/value_display.hpp"
#include "ui/main_window.hpp"
#include "ui/models/alarm_list_model.hpp"
#include "ui/models/tones.hpp"
#include "ui/session/station_session.hpp"
#include "ui/widgets/alarm_list_dock.hpp"
#include "ui/widgets/alarm_status_label.hpp"
#include "ui/widgets/event_log_dock.hpp"

#include <QAction>
#include <QBrush>
#include <QFont>
#include <QItemSelectionModel>
#include <QJsonArray>
#include <QLabel>
#include <QLineEdit>
#include <QMenu>
#include <QPushButton>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTableView>
#include <QTemporaryDir>
#include <QtTest>

#include <memory>
#include <vector>

using namespace telestation;
using namespace std::chrono_literals;
using ui::AlarmListDock;
using ui::AlarmListModel;
using ui::AlarmStatusLabel;

namespace {

constexpr const char* kFlow = "Packet5.COOLANT_FLOW_RATE";
constexpr int kWait = 15000; // ms: a loaded machine, a debug build

// A session on one UDP stream "tm" with every limit transition on its own event, and the main window.
struct Workstation {
    QTemporaryDir dir;
    std::unique_ptr<ui::StationSession> session;
    std::unique_ptr<ui::MainWindow> window;

    Workstation()
    {
        pipeline::StationOptions options;
        options.eventStormWindow = 1ms; // each transition on its own line (packets 50 ms apart)
        session = test::openSession(test::stationProfile(dir, {test::streamProfile("tm")}), options);
        window = std::make_unique<ui::MainWindow>(*session);
    }
    [[nodiscard]] AlarmListDock& dock() const { return *window->alarmList(); }
    [[nodiscard]] AlarmListModel& model() const { return *window->alarmList()->model(); }
    [[nodiscard]] int flowRow() const { return model().rowOfParameter(QStringLiteral("tm"), QLatin1String(kFlow)); }
    [[nodiscard]] QString flowCell(int column) const
    {
        const int row = flowRow();
        return row < 0 ? QString() : model().data(model().index(row, column)).toString();
    }
    [[nodiscard]] QVariant flowData(int column, int role) const
    {
        const int row = flowRow();
        return row < 0 ? QVariant() : model().data(model().index(row, column), role);
    }

    // Whether the station lists an alarm of the flow rate (whatever the dock shows).
    [[nodiscard]] bool flowAlarmed() const
    {
        for (const events::Alarm& a : session->alarms())
            if (a.parameter == kFlow)
                return true;
        return false;
    }

    // One packet per value of the flow rate (calibrated), 20 a second, to the stream "tm".
    void sendFlow(const std::vector<double>& values) const
    {
        auto config = test::traffic(test::streamAddress(*session->station(), "tm"), {"Packet5"}, values.size(), 20);
        sim::GeneratorSpec list;
        list.kind = sim::GeneratorKind::List;
        list.values = values;
        config.generators[kFlow] = list;
        test::send(config, test::trainingDatabase());
    }

    // The flow rate's row clicked, as the operator selects it.
    void clickFlowRow() const
    {
        QTableView* view = dock().view();
        const QRect cell = view->visualRect(model().index(flowRow(), AlarmListModel::Parameter));
        QTest::mouseClick(view->viewport(), Qt::LeftButton, {}, cell.center());
    }
};

std::uint32_t unacknowledged(const events::AlarmCounts& counts, events::Severity severity)
{
    return counts.unacknowledged[static_cast<std::size_t>(severity)];
}

} // namespace

class TestAlarmList : public QObject {
    Q_OBJECT

private slots:
    void initTestCase() { QStandardPaths::setTestModeEnabled(true); }

    // Raised in red, back to normal, acknowledged with a comment from the dock: gone, and audited.
    void raisedBackToNormalAcknowledged()
    {
        Workstation w;
        w.window->show();
        QVERIFY(QTest::qWaitForWindowExposed(w.window.get()));
        AlarmStatusLabel* label = w.window->alarmStatus();
        QCOMPARE(label->text(), QStringLiteral("Alarms: none unacknowledged"));
        QVERIFY(label->styleSheet().isEmpty()); // neutral when none
        // The dock sits behind the event log; the status bar's label raises it (and its timer runs).
        QVERIFY(!w.dock().isPolling());
        QTest::mouseClick(label, Qt::LeftButton);
        QTRY_VERIFY_WITH_TIMEOUT(w.dock().isPolling(), kWait);

        w.sendFlow({190});
        QTRY_COMPARE_WITH_TIMEOUT(w.flowCell(AlarmListModel::State), QStringLiteral("active unacknowledged"), kWait);
        QCOMPARE(w.flowCell(AlarmListModel::Severity), QStringLiteral("critical"));
        QCOMPARE(w.flowCell(AlarmListModel::Stream), QStringLiteral("tm"));
        QCOMPARE(w.flowCell(AlarmListModel::LimitState), QStringLiteral("red high"));
        QCOMPARE(w.flowCell(AlarmListModel::TriggerValue), QStringLiteral("190"));
        QCOMPARE(w.flowCell(AlarmListModel::LatestValue), QStringLiteral("190 (limit 180)"));
        QCOMPARE(w.flowCell(AlarmListModel::Violations), QStringLiteral("1"));
        QVERIFY(!w.flowCell(AlarmListModel::First).isEmpty());
        // The whole row in the critical colour, the project's red limit background.
        QCOMPARE(w.flowData(AlarmListModel::Parameter, Qt::BackgroundRole).value<QBrush>().color(), ui::tone::kRedBackground);
        QCOMPARE(w.flowData(AlarmListModel::Severity, AlarmListModel::kSeverityRole).toInt(),
                 static_cast<int>(events::Severity::Critical));
        // The status bar counts it, in red.
        QTRY_VERIFY_WITH_TIMEOUT(label->text().contains(QStringLiteral("critical")), kWait);
        QTRY_COMPARE_WITH_TIMEOUT(label->text(), AlarmStatusLabel::countsText(w.session->alarmCounts()), kWait);
        QVERIFY(label->styleSheet().contains(ui::tone::kRedBackground.name()));

        w.sendFlow({100});
        QTRY_COMPARE_WITH_TIMEOUT(w.flowCell(AlarmListModel::State), QStringLiteral("back to normal unacknowledged"), kWait);
        QCOMPARE(w.flowCell(AlarmListModel::Severity), QStringLiteral("critical")); // latched
        QCOMPARE(w.flowCell(AlarmListModel::LatestValue), QStringLiteral("100")); // no limit crossed now
        QVERIFY(!w.flowData(AlarmListModel::Parameter, Qt::BackgroundRole).isValid()); // dimmer: text only
        QCOMPARE(w.flowData(AlarmListModel::Parameter, Qt::ForegroundRole).value<QBrush>().color(), ui::tone::kErrorText);

        // The operator selects it, types a comment and clicks Acknowledge.
        w.clickFlowRow();
        auto* acknowledge = w.dock().findChild<QPushButton*>(QStringLiteral("acknowledgeButton"));
        QVERIFY(acknowledge);
        QVERIFY(acknowledge->isEnabled());
        auto* comment = w.dock().findChild<QLineEdit*>(QStringLiteral("alarmComment"));
        QVERIFY(comment);
        QTest::keyClicks(comment, QStringLiteral("pump restarted by hand"));
        const std::uint64_t id = w.model().alarm(w.flowRow()).id;
        const events::AlarmCounts before = w.session->alarmCounts();
        QTest::mouseClick(acknowledge, Qt::LeftButton);
        QCOMPARE(w.flowRow(), -1); // back to normal and acknowledged: gone at once
        QVERIFY(comment->text().isEmpty());
        QVERIFY(!w.dock().statusText().startsWith(QStringLiteral("Refused")));

        // The event log has the acknowledgement (the station reports it within ~50 ms): the local user
        // and the comment.
        const auto audited = [&] {
            for (const events::Event& e : w.session->events(0))
                if (e.kind == events::EventKind::Alarm && e.parameter == kFlow && e.user == events::localUserName()
                    && e.text.find("pump restarted by hand") != std::string::npos)
                    return true;
            return false;
        };
        QTRY_VERIFY_WITH_TIMEOUT(audited(), kWait);
        QCOMPARE(w.model().rowOf(id), -1);
        // Other parameters of the packet are out of limits too (the simulator's own values): the count
        // of critical alarms goes down by this one, and the label says so at once.
        const events::AlarmCounts after = w.session->alarmCounts();
        QCOMPARE(unacknowledged(after, events::Severity::Critical), unacknowledged(before, events::Severity::Critical) - 1);
        QCOMPARE(label->text(), AlarmStatusLabel::countsText(after));
    }

    // Shelved for 15 min from the dock's menu: out of the status bar's count, grey; unshelved: back.
    void shelveAndUnshelve()
    {
        Workstation w;
        w.window->show();
        QVERIFY(QTest::qWaitForWindowExposed(w.window.get()));
        w.window->showAlarmList();
        w.sendFlow({190});
        QTRY_COMPARE_WITH_TIMEOUT(w.flowCell(AlarmListModel::State), QStringLiteral("active unacknowledged"), kWait);
        AlarmStatusLabel* label = w.window->alarmStatus();
        QTRY_COMPARE_WITH_TIMEOUT(label->text(), AlarmStatusLabel::countsText(w.session->alarmCounts()), kWait);
        const events::AlarmCounts before = w.session->alarmCounts();
        QVERIFY(unacknowledged(before, events::Severity::Critical) >= 1);
        const QString labelBefore = label->text();

        w.clickFlowRow();
        auto* fifteen = w.dock().findChild<QAction*>(QStringLiteral("shelve900s"));
        QVERIFY(fifteen);
        QCOMPARE(fifteen->text(), QStringLiteral("For 15 minutes"));
        QVERIFY(w.dock().findChild<QAction*>(QStringLiteral("shelve3600s")));
        QVERIFY(w.dock().findChild<QAction*>(QStringLiteral("shelve28800s")));
        fifteen->trigger();
        QCOMPARE(w.flowData(AlarmListModel::State, AlarmListModel::kStateRole).toInt(),
                 static_cast<int>(events::AlarmState::Shelved));
        QCOMPARE(w.flowCell(AlarmListModel::State), QStringLiteral("shelved (15 min left)"));
        QCOMPARE(w.flowData(AlarmListModel::Parameter, Qt::ForegroundRole).value<QBrush>().color(), ui::tone::kMutedText);
        QVERIFY(w.flowData(AlarmListModel::Parameter, Qt::FontRole).value<QFont>().italic());
        QVERIFY(w.flowCell(AlarmListModel::Acknowledged).startsWith(QString::fromStdString(events::localUserName())));

        const events::AlarmCounts shelved = w.session->alarmCounts();
        QCOMPARE(unacknowledged(shelved, events::Severity::Critical), unacknowledged(before, events::Severity::Critical) - 1);
        QCOMPARE(shelved.shelved, before.shelved + 1);
        QCOMPARE(label->text(), AlarmStatusLabel::countsText(shelved)); // at once, not a second later
        QVERIFY(label->text() != labelBefore);
        QVERIFY(label->text().contains(QStringLiteral("1 shelved")));

        auto* unshelve = w.dock().findChild<QPushButton*>(QStringLiteral("unshelveButton"));
        QVERIFY(unshelve && unshelve->isEnabled());
        QTest::mouseClick(unshelve, Qt::LeftButton);
        QCOMPARE(w.flowCell(AlarmListModel::State), QStringLiteral("active unacknowledged"));
        const events::AlarmCounts after = w.session->alarmCounts();
        QCOMPARE(unacknowledged(after, events::Severity::Critical), unacknowledged(before, events::Severity::Critical));
        QCOMPARE(after.shelved, before.shelved);
        QCOMPARE(label->text(), AlarmStatusLabel::countsText(after));

        // Someone else acknowledges it meanwhile: the dock's own acknowledgement is refused, in red.
        const std::uint64_t id = w.model().alarm(w.flowRow()).id;
        QVERIFY(w.session->acknowledgeAlarm(id, QStringLiteral("from another console")));
        QVERIFY(!w.dock().acknowledgeSelected());
        QVERIFY2(w.dock().statusText().startsWith(QStringLiteral("Refused:")), qPrintable(w.dock().statusText()));
        auto* status = w.dock().findChild<QLabel*>(QStringLiteral("alarmStatus"));
        QVERIFY(status);
        QCOMPARE(status->palette().color(QPalette::WindowText), ui::tone::kErrorText);
        QCOMPARE(w.flowCell(AlarmListModel::State), QStringLiteral("active acknowledged"));
    }

    // A value display's row: "Show alarm" selects the alarm in the list, "Edit limits…" opens the dialog.
    void valueDisplayRowLinksToItsAlarm()
    {
        Workstation w;
        w.window->show();
        QVERIFY(QTest::qWaitForWindowExposed(w.window.get()));
        const QJsonObject spec{{QStringLiteral("type"), QStringLiteral("values")},
                               {QStringLiteral("rows"),
                                QJsonArray{QJsonObject{{QStringLiteral("stream"), QStringLiteral("tm")},
                                                       {QStringLiteral("parameter"), QLatin1String(kFlow)}},
                                           QJsonObject{{QStringLiteral("stream"), QStringLiteral("tm")},
                                                       {QStringLiteral("parameter"), QStringLiteral("Packet5.UPTIME")}}}}};
        ui::DisplayDock* dock = w.window->openDisplay(spec);
        auto* values = qobject_cast<ui::ValueDisplay*>(dock->display());
        QVERIFY(values);
        w.sendFlow({190});
        QTRY_VERIFY_WITH_TIMEOUT(w.flowAlarmed(), kWait);

        std::unique_ptr<QMenu> menu(values->rowMenu(0, nullptr));
        auto* show = menu->findChild<QAction*>(QStringLiteral("showAlarmAction"));
        QVERIFY(show && show->isEnabled());
        std::unique_ptr<QMenu> other(values->rowMenu(1, nullptr)); // UPTIME: no alarm
        QVERIFY(!other->findChild<QAction*>(QStringLiteral("showAlarmAction"))->isEnabled());

        QVERIFY(!w.dock().isVisible() || w.dock().visibleRegion().isEmpty());
        show->trigger();
        QTRY_VERIFY_WITH_TIMEOUT(w.dock().isPolling(), kWait);
        const std::vector<std::uint64_t> selected = w.dock().selectedAlarms();
        QCOMPARE(selected.size(), std::size_t{1});
        QCOMPARE(selected[0], w.model().alarm(w.flowRow()).id);

        menu->findChild<QAction*>(QStringLiteral("editLimitsAction"))->trigger();
        auto* dialog = w.window->findChild<ui::LimitEditDialog*>();
        QVERIFY(dialog);
        QCOMPARE(dialog->subject().parameter, QLatin1String(kFlow));
        QVERIFY(dialog->isVisible());
        dialog->reject();
    }

    // The station's order changes as alarms rise and fall: rows move (never a reset), so the selection
    // follows its alarm; gone and new alarms are removed and inserted in place.
    void orderChangesMoveRows()
    {
        const auto alarm = [](std::uint64_t id, events::Severity severity, const char* parameter) {
            events::Alarm a;
            a.id = id;
            a.severity = a.currentSeverity = severity;
            a.stream = "tm";
            a.parameter = parameter;
            a.firstNs = a.lastNs = 1'000'000'000LL * static_cast<std::int64_t>(id);
            return a;
        };
        AlarmListModel model;
        QItemSelectionModel selection(&model);
        model.setAlarms({alarm(1, events::Severity::Critical, "P.A"), alarm(2, events::Severity::Warning, "P.B"),
                         alarm(3, events::Severity::Warning, "P.C")},
                        0);
        selection.select(model.index(1, 0), QItemSelectionModel::Select | QItemSelectionModel::Rows);
        QSignalSpy resets(&model, &QAbstractItemModel::modelReset);
        QSignalSpy moves(&model, &QAbstractItemModel::rowsMoved);
        // P.C rises to critical and comes first; P.A is gone; P.D is new.
        auto risen = alarm(3, events::Severity::Critical, "P.C");
        model.setAlarms({risen, alarm(4, events::Severity::Warning, "P.D"), alarm(2, events::Severity::Warning, "P.B")}, 0);
        QCOMPARE(resets.count(), 0);
        QVERIFY(moves.count() >= 1);
        QCOMPARE(model.rowCount(), 3);
        QCOMPARE(model.alarm(0).id, 3u);
        QCOMPARE(model.alarm(1).id, 4u);
        QCOMPARE(model.alarm(2).id, 2u);
        QCOMPARE(model.data(model.index(0, AlarmListModel::Severity)).toString(), QStringLiteral("critical"));
        const QModelIndexList rows = selection.selectedRows();
        QCOMPARE(rows.size(), 1);
        QCOMPARE(model.alarm(rows[0].row()).parameter, std::string("P.B"));
    }

    // The status bar's words for counts.
    void countsText()
    {
        events::AlarmCounts counts;
        QCOMPARE(AlarmStatusLabel::countsText(counts), QStringLiteral("Alarms: none unacknowledged"));
        counts.unacknowledged[static_cast<std::size_t>(events::Severity::Critical)] = 2;
        counts.unacknowledged[static_cast<std::size_t>(events::Severity::Warning)] = 1;
        counts.active[static_cast<std::size_t>(events::Severity::Critical)] = 3;
        QCOMPARE(AlarmStatusLabel::countsText(counts), QStringLiteral("Alarms: 2 critical · 1 warning unacknowledged (3 active)"));
        counts = {};
        counts.shelved = 2;
        QCOMPARE(AlarmStatusLabel::countsText(counts), QStringLiteral("Alarms: none unacknowledged (2 shelved)"));
    }
};

QTEST_MAIN(TestAlarmList)
#include "tst_ui_alarm_list.moc"
