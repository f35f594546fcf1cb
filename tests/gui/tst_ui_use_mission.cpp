// "Use this mission" (issue 15): the definition file dialog that found a file usable loads it into the
// station — a real mission's XTCE file (JPSS-1 geolocation, from ../shared/data) through the XTCE
// import, and the training mission's .tdef compiled — and the session's database is that mission; the
// profile names it and is unsaved. A file with errors is not offered; a refusal (the profile's packet
// settings name a packet the mission does not have) keeps the dialog open with the reason and the
// station as it was. Through the main window: the mission browser's dialog is wired to the session.
#include "core/config/station_profile.hpp"
#include "tests/support/gui_session.hpp"
#include "tests/support/station_fixture.hpp"
#include "tests/support/test_paths.hpp"
#include "ui/dialogs/definition_file_dialog.hpp"
#include "ui/main_window.hpp"
#include "ui/session/station_session.hpp"
#include "ui/widgets/mission_browser.hpp"

#include <QFile>
#include <QFileInfo>
#include <QLabel>
#include <QPointer>
#include <QPushButton>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QtTest>

#include <memory>

using namespace telestation;
using ui::DefinitionFileDialog;

namespace {

// Absolute, as the session writes a mission's path into the profile.
QString jpssPath()
{
    return QFileInfo(QString::fromStdString(test::referenceDataDir() + "/missions/jpss1/jpss1_geolocation_xtce_v1.xml"))
        .absoluteFilePath();
}

QString trainingDefinition()
{
    return QFileInfo(QString::fromStdString(test::trainingDefinitionPath())).absoluteFilePath();
}

QPushButton* useButton(const DefinitionFileDialog& d)
{
    return d.findChild<QPushButton*>(QStringLiteral("useMissionButton"));
}

DefinitionFileDialog::UseMission through(ui::StationSession& session)
{
    return [&session](const QString& path, QString* error) { return session.useMission(path, error); };
}

} // namespace

class TestUseMission : public QObject {
    Q_OBJECT

    QTemporaryDir m_dir;

    std::unique_ptr<ui::StationSession> session(std::vector<config::StreamProfile> streams)
    {
        return test::openSession(test::stationProfile(m_dir, std::move(streams)));
    }

private slots:
    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true);
        QVERIFY(m_dir.isValid());
        QVERIFY2(QFileInfo::exists(jpssPath()), qPrintable(jpssPath()));
    }

    void anXtceFileAndATdefBecomeTheStationsMission()
    {
        auto s = session({test::streamProfile("tm")});
        QVERIFY(s->database()->findPacket("Packet5")); // the training mission to begin with
        QVERIFY(!s->isDirty());

        DefinitionFileDialog xtce;
        xtce.setUseMission(through(*s));
        QVERIFY(xtce.loadFile(jpssPath()));
        xtce.show();
        QVERIFY(xtce.grab().save(QStringLiteral("/tmp/h-use-mission.png")));
        QVERIFY(useButton(xtce)->isVisible());
        QVERIFY(useButton(xtce)->isEnabled());
        QTest::mouseClick(useButton(xtce), Qt::LeftButton);
        QCOMPARE(xtce.result(), int(QDialog::Accepted));
        QVERIFY(!xtce.isVisible());
        QCOMPARE(xtce.useMissionError(), QString());
        const mdb::MissionDatabase* db = s->database();
        QVERIFY(db);
        QCOMPARE(db->packets.size(), std::size_t{1});
        QCOMPARE(db->packets[0].apid, std::uint16_t{11});
        QVERIFY(!db->findPacket("Packet5"));
        QCOMPARE(s->databasePath(), jpssPath());
        QCOMPARE(QString::fromStdString(s->profile().mdb), jpssPath());
        QVERIFY(s->isDirty());
        QVERIFY(s->station() && s->station()->streamRunning("tm")); // the streams came along

        DefinitionFileDialog tdef;
        tdef.setUseMission(through(*s));
        QVERIFY(tdef.loadFile(trainingDefinition()));
        QVERIFY(tdef.useMission());
        QVERIFY(s->database()->findPacket("Packet5"));
        QCOMPARE(s->databasePath(), trainingDefinition());
    }

    // Not offered without a way to use it, nor for a file with errors.
    void onlyAUsableFileIsOffered()
    {
        auto s = session({test::streamProfile("tm")});
        DefinitionFileDialog alone;
        QVERIFY(alone.loadFile(trainingDefinition()));
        alone.show();
        QVERIFY(!useButton(alone)->isVisible());
        QVERIFY(!alone.canUseMission());

        QTemporaryDir dir;
        const QString broken = dir.filePath(QStringLiteral("broken.tdef"));
        QFile f(broken);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write("PACKET Alpha APID 4000 LENGTH 16\n  PARAMETER A 48 8 UINT\n"); // APID beyond 2047
        f.close();
        DefinitionFileDialog bad;
        bad.setUseMission(through(*s));
        QVERIFY(!bad.loadFile(broken));
        bad.show();
        QVERIFY(useButton(bad)->isVisible());
        QVERIFY(!useButton(bad)->isEnabled());
        QVERIFY(!bad.useMission());
        QVERIFY(s->database()->findPacket("Packet5"));
    }

    // The profile's packet settings name APID 7, which JPSS does not define: refused, the dialog stays
    // open with the reason, the station is the one it was.
    void aRefusalKeepsTheDialogOpen()
    {
        config::StreamProfile tm = test::streamProfile("tm");
        tm.packets.push_back({7, std::nullopt, config::ProcessingMode::ProcessEntirePacket, false, {}});
        auto s = session({tm});
        auto* before = s->station();
        DefinitionFileDialog dialog;
        dialog.setUseMission(through(*s));
        QVERIFY(dialog.loadFile(jpssPath()));
        dialog.show();
        QTest::mouseClick(useButton(dialog), Qt::LeftButton);
        QVERIFY(dialog.isVisible());
        QVERIFY2(dialog.useMissionError().contains(QStringLiteral("does not fit")), qPrintable(dialog.useMissionError()));
        auto* shown = dialog.findChild<QLabel*>(QStringLiteral("useMissionError"));
        QVERIFY(shown && !shown->isHidden());
        QCOMPARE(shown->text(), dialog.useMissionError());
        QVERIFY(dialog.grab().save(QStringLiteral("/tmp/h-use-mission-refused.png")));
        QCOMPARE(s->station(), before);
        QVERIFY(s->database()->findPacket("Packet5"));
        QVERIFY(!s->isDirty());
    }

    // The main window's mission browser offers it, through the session: the status bar's mission is JPSS.
    void fromTheMainWindow()
    {
        auto s = session({test::streamProfile("tm")});
        ui::MainWindow window(*s);
        window.show();
        QPointer<DefinitionFileDialog> dialog = window.missionBrowser()->openDefinitionFile(jpssPath());
        QVERIFY(dialog);
        QVERIFY(useButton(*dialog)->isEnabled());
        QTest::mouseClick(useButton(*dialog), Qt::LeftButton);
        QTRY_VERIFY(!dialog); // closed and deleted
        QCOMPARE(s->databasePath(), jpssPath());
        QVERIFY2(window.missionSummary().contains(QStringLiteral("1 packet types")), qPrintable(window.missionSummary()));
        QVERIFY(window.missionBrowser()->database() == s->database());
        QVERIFY(window.isWindowModified());
    }
};

QTEST_MAIN(TestUseMission)
#include "tst_ui_use_mission.moc"
