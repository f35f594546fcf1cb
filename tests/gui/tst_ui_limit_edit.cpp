// Edit limits… over a real session on the training mission: the dialog shows the limits in effect
// (Packet5.COOLANT_FLOW_RATE: red 20 .. 180, yellow 30 .. 150), refuses bounds out of order or not
// numbers with OK disabled and the reason in red, applies a change live (the station's limits and the
// profile's change, a LimitEdited event names the local user, the profile is unsaved and saving keeps
// them), restores the mission database's limits, turns checking off; an enumeration can only be turned
// off or restored; a refusal keeps the dialog open. Reached from the mission browser's context menu.
#include "core/config/station_profile.hpp"
#include "tests/support/gui_session.hpp"
#include "tests/support/station_fixture.hpp"
#include "ui/dialogs/definition_file_dialog.hpp"
#include "ui/dialogs/limit_edit_dialog.hpp"
#include "ui/main_window.hpp"
#include "ui/models/mission_tree_model.hpp"
#include "ui/models/tones.hpp"
#include "ui/session/station_session.hpp"
#include "ui/widgets/mission_browser.hpp"

#include <QAction>
#include <QDialogButtonBox>
#include <QLabel>
#include <QLineEdit>
#include <QMenu>
#include <QPushButton>
#include <QRadioButton>
#include <QSignalSpy>
#include <QSortFilterProxyModel>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTreeView>
#include <QtTest>

#include <memory>

using namespace telestation;
using ui::LimitEditDialog;

namespace {

constexpr const char* kFlow = "Packet5.COOLANT_FLOW_RATE"; // LIMITS 20 30 150 180
constexpr const char* kMode = "Packet5.OPS_MODE";          // an enumeration with expected states
constexpr int kWait = 10000;

struct Session {
    QTemporaryDir dir;
    std::unique_ptr<ui::StationSession> session = test::openSession(test::stationProfile(dir, {test::streamProfile("tm")}));
};

QLineEdit* edit(const LimitEditDialog& d, const char* name)
{
    return d.findChild<QLineEdit*>(QLatin1String(name));
}

QPushButton* ok(const LimitEditDialog& d)
{
    return d.findChild<QPushButton*>(QStringLiteral("okButton"));
}

QLabel* reason(const LimitEditDialog& d)
{
    return d.findChild<QLabel*>(QStringLiteral("reasonLabel"));
}

// Replaces an entry as the operator does: select all, type.
void type(QLineEdit* e, const QString& text)
{
    e->selectAll();
    QTest::keyClick(e, Qt::Key_Delete);
    QTest::keyClicks(e, text);
}

// The LimitEdited events of a parameter so far.
int limitEdits(ui::StationSession& s, const char* parameter, const std::string& user)
{
    int n = 0;
    for (const events::Event& e : s.events(0))
        n += e.kind == events::EventKind::LimitEdited && e.parameter == parameter && e.user == user;
    return n;
}

} // namespace

class TestLimitEdit : public QObject {
    Q_OBJECT

private slots:
    void initTestCase() { QStandardPaths::setTestModeEnabled(true); }

    void editRestoreAndTurnOff()
    {
        Session s;
        ui::StationSession& session = *s.session;
        QSignalSpy dirty(&session, &ui::StationSession::dirtyChanged);
        QString error;
        LimitEditDialog* d = LimitEditDialog::openFor(session, QLatin1String(kFlow), nullptr, &error);
        QVERIFY2(d, qPrintable(error));
        std::unique_ptr<LimitEditDialog> owner(d);
        d->setAttribute(Qt::WA_DeleteOnClose, false); // the test owns it

        // The mission database's limits, in words and in the fields.
        QCOMPARE(d->findChild<QLabel*>(QStringLiteral("limitsInEffect"))->text(),
                 QStringLiteral("In effect: yellow 30 .. 150, red 20 .. 180 (the mission database's)"));
        QCOMPARE(d->bound(LimitEditDialog::RedLow), QStringLiteral("20"));
        QCOMPARE(d->bound(LimitEditDialog::YellowLow), QStringLiteral("30"));
        QCOMPARE(d->bound(LimitEditDialog::YellowHigh), QStringLiteral("150"));
        QCOMPARE(d->bound(LimitEditDialog::RedHigh), QStringLiteral("180"));
        QCOMPARE(d->choice(), LimitEditDialog::Choice::Check);
        QVERIFY(!ok(*d)->isEnabled()); // nothing changed yet: a note, not an error
        QCOMPARE(d->problem(), QStringLiteral("These are the limits in effect."));
        QVERIFY(reason(*d)->palette().color(QPalette::WindowText) != ui::tone::kErrorText);

        // Out of order: refused with the reason, in red.
        type(edit(*d, "yellowHigh"), QStringLiteral("200"));
        QVERIFY(!ok(*d)->isEnabled());
        QCOMPARE(d->problem(), QStringLiteral("Red high (180) is below yellow high (200): the bounds go red low ≤ "
                                              "yellow low ≤ yellow high ≤ red high."));
        QCOMPARE(reason(*d)->text(), d->problem());
        QCOMPARE(reason(*d)->palette().color(QPalette::WindowText), ui::tone::kErrorText);
        type(edit(*d, "yellowLow"), QStringLiteral("1O")); // a letter O
        QVERIFY(!ok(*d)->isEnabled());
        QCOMPARE(d->problem(), QStringLiteral("Yellow low: \"1O\" is not a number."));
        for (const char* name : {"redLow", "yellowLow", "yellowHigh", "redHigh"})
            edit(*d, name)->clear();
        QVERIFY(!ok(*d)->isEnabled());
        QVERIFY(d->problem().startsWith(QStringLiteral("Give at least one bound")));
        QVERIFY(reason(*d)->palette().color(QPalette::WindowText) != ui::tone::kErrorText); // a note, not a fault

        // A change that checks: only the high side, tighter. OK applies it and closes the dialog.
        type(edit(*d, "yellowHigh"), QStringLiteral("50"));
        type(edit(*d, "redHigh"), QStringLiteral("60.5"));
        QVERIFY2(ok(*d)->isEnabled(), qPrintable(d->problem()));
        QVERIFY(!session.isDirty());
        QTest::mouseClick(ok(*d), Qt::LeftButton);
        QCOMPARE(d->result(), int(QDialog::Accepted));

        auto limits = session.station()->limits(kFlow);
        QVERIFY(limits);
        QVERIFY(limits->fromProfile && limits->enabled);
        QCOMPARE(limits->yellowHigh, 50.0);
        QCOMPARE(limits->redHigh, 60.5);
        QVERIFY(std::isinf(limits->redLow) && std::isinf(limits->yellowLow));
        QCOMPARE(session.profile().limits.size(), std::size_t{1});
        const config::LimitSetting& setting = session.profile().limits[0];
        QCOMPARE(setting.parameter, std::string(kFlow));
        QVERIFY(setting.enabled && !setting.redLow && !setting.yellowLow);
        QCOMPARE(setting.yellowHigh, std::optional<double>(50));
        QCOMPARE(setting.redHigh, std::optional<double>(60.5));
        QVERIFY(session.isDirty());
        QCOMPARE(dirty.count(), 1);
        const std::string user = events::localUserName();
        QTRY_COMPARE_WITH_TIMEOUT(limitEdits(session, kFlow, user), 1, kWait);

        // Saving the profile keeps them.
        const QString path = s.dir.filePath(QStringLiteral("profile.json"));
        QVERIFY2(session.saveAs(path, &error), qPrintable(error));
        const auto saved = config::loadProfileFile(path.toStdString());
        QVERIFY(saved.ok());
        QCOMPARE(saved.profile.limits, session.profile().limits);

        // Opened again: the operator's limits; restore brings the mission database's back.
        owner.reset(LimitEditDialog::openFor(session, QLatin1String(kFlow), nullptr));
        d = owner.get();
        d->setAttribute(Qt::WA_DeleteOnClose, false);
        QCOMPARE(d->findChild<QLabel*>(QStringLiteral("limitsInEffect"))->text(),
                 QStringLiteral("In effect: yellow … .. 50, red … .. 60.5 (set by an operator, kept in the profile)"));
        QCOMPARE(d->bound(LimitEditDialog::RedLow), QString());
        QCOMPARE(d->bound(LimitEditDialog::RedHigh), QStringLiteral("60.5"));
        d->findChild<QRadioButton*>(QStringLiteral("restoreLimits"))->click();
        QVERIFY(!edit(*d, "redHigh")->isEnabled());
        QVERIFY2(ok(*d)->isEnabled(), qPrintable(d->problem()));
        QTest::mouseClick(ok(*d), Qt::LeftButton);
        limits = session.station()->limits(kFlow);
        QVERIFY(!limits->fromProfile && limits->enabled);
        QCOMPARE(limits->yellowHigh, 150.0);
        QCOMPARE(limits->redLow, 20.0);
        QVERIFY(session.profile().limits.empty());
        QVERIFY(session.isDirty());
        QTRY_COMPARE_WITH_TIMEOUT(limitEdits(session, kFlow, user), 2, kWait);

        // Not checked at all.
        owner.reset(LimitEditDialog::openFor(session, QLatin1String(kFlow), nullptr));
        d = owner.get();
        d->setAttribute(Qt::WA_DeleteOnClose, false);
        d->setChoice(LimitEditDialog::Choice::Restore);
        QVERIFY(!ok(*d)->isEnabled()); // the mission database's are in effect already
        d->setChoice(LimitEditDialog::Choice::Off);
        QVERIFY(ok(*d)->isEnabled());
        QTest::mouseClick(ok(*d), Qt::LeftButton);
        limits = session.station()->limits(kFlow);
        QVERIFY(limits->fromProfile && !limits->enabled);
        QCOMPARE(session.profile().limits.size(), std::size_t{1});
        QVERIFY(!session.profile().limits[0].enabled);
        QTRY_COMPARE_WITH_TIMEOUT(limitEdits(session, kFlow, user), 3, kWait);
    }

    // An enumeration has no numeric bounds: the dialog says so; off and restore work.
    void enumerationOnlyOffOrRestore()
    {
        Session s;
        ui::StationSession& session = *s.session;
        std::unique_ptr<LimitEditDialog> d(LimitEditDialog::openFor(session, QLatin1String(kMode), nullptr));
        QVERIFY(d);
        d->setAttribute(Qt::WA_DeleteOnClose, false);
        QVERIFY(!d->subject().numeric);
        auto* note = d->findChild<QLabel*>(QStringLiteral("notNumericNote"));
        QVERIFY(note && note->text().contains(QStringLiteral("not a number")));
        QVERIFY(!d->findChild<QRadioButton*>(QStringLiteral("checkLimits"))->isEnabled());
        QVERIFY(!edit(*d, "redLow")->isEnabled());
        QCOMPARE(d->choice(), LimitEditDialog::Choice::Restore);
        QVERIFY(!ok(*d)->isEnabled());
        QVERIFY(d->findChild<QLabel*>(QStringLiteral("limitsInEffect"))->text().contains(QStringLiteral("expected: STANDBY, SCIENCE, CALIBRATION")));
        d->setChoice(LimitEditDialog::Choice::Off);
        QTest::mouseClick(ok(*d), Qt::LeftButton);
        QVERIFY(!session.station()->limits(kMode)->enabled);
        QVERIFY(session.isDirty());

        d.reset(LimitEditDialog::openFor(session, QLatin1String(kMode), nullptr));
        d->setAttribute(Qt::WA_DeleteOnClose, false);
        QCOMPARE(d->choice(), LimitEditDialog::Choice::Off);
        d->setChoice(LimitEditDialog::Choice::Restore);
        QTest::mouseClick(ok(*d), Qt::LeftButton);
        const auto limits = session.station()->limits(kMode);
        QVERIFY(limits->enabled && !limits->fromProfile);
        QCOMPARE(limits->kind, pipeline::EffectiveLimits::Kind::States);

        QString error;
        QVERIFY(!LimitEditDialog::openFor(session, QStringLiteral("Packet5.NO_SUCH_THING"), nullptr, &error));
        QVERIFY(error.contains(QStringLiteral("NO_SUCH_THING")));
    }

    // A refusal (here from the caller's apply) is shown and the dialog stays open.
    void refusalKeepsTheDialogOpen()
    {
        Session s;
        auto subject = ui::limitSubject(*s.session, QLatin1String(kFlow));
        QVERIFY(subject);
        int calls = 0;
        LimitEditDialog d(*subject, [&](const std::optional<config::LimitSetting>&, QString* why) {
            ++calls;
            *why = QStringLiteral("the station is busy");
            return false;
        });
        d.show();
        type(edit(d, "redHigh"), QStringLiteral("190"));
        QVERIFY(ok(d)->isEnabled());
        QTest::mouseClick(ok(d), Qt::LeftButton);
        QCOMPARE(calls, 1);
        QVERIFY(d.isVisible());
        QCOMPARE(reason(d)->text(), QStringLiteral("The station refused: the station is busy"));
        QCOMPARE(reason(d)->palette().color(QPalette::WindowText), ui::tone::kErrorText);
    }

    // The mission browser's context menu on a parameter opens the dialog in the main window.
    void fromTheMissionBrowser()
    {
        Session s;
        ui::MainWindow window(*s.session);
        ui::MissionBrowser* browser = window.missionBrowser();
        const QModelIndex source = browser->model()->indexOf(QLatin1String(kFlow));
        QVERIFY(source.isValid());
        const QModelIndex shown = browser->filterModel()->mapFromSource(source);
        std::unique_ptr<QMenu> menu(browser->contextMenu(shown, nullptr));
        QVERIFY(menu);
        auto* action = menu->findChild<QAction*>(QStringLiteral("editLimitsAction"));
        QVERIFY(action);
        action->trigger();
        auto* dialog = window.findChild<LimitEditDialog*>();
        QVERIFY(dialog);
        QCOMPARE(dialog->subject().parameter, QLatin1String(kFlow));
        dialog->reject();
        // A packet row has no limits to edit; a browser over a definition file offers none.
        QVERIFY(!browser->contextMenu(browser->filterModel()->mapFromSource(browser->model()->indexOf(QStringLiteral("Packet5"))), nullptr));
        browser->setLimitsEditable(false);
        QVERIFY(!browser->contextMenu(shown, nullptr));
    }
};

QTEST_MAIN(TestLimitEdit)
#include "tst_ui_limit_edit.moc"
