// The main window starts, shows its Qwt strip chart and mission summary, and closes cleanly.
#include "ui/main_window.hpp"

#include <QtTest>

#include <qwt_plot.h>

using namespace telestation;

class TestMainWindow : public QObject {
    Q_OBJECT

private slots:
    void showsPlotAndMissionSummary()
    {
        ui::MainWindow window;
        mdb::MissionDatabase db;
        db.name = "Test mission";
        mdb::PacketDef p;
        p.name = "HK";
        p.parameters.resize(3);
        db.packets.push_back(p);
        window.setMissionDatabase(db, QStringLiteral("/tmp/x.mdb"));
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        QVERIFY(window.plot() != nullptr);
        QVERIFY(window.plot()->isVisible());
        QCOMPARE(window.centralWidget(), static_cast<QWidget*>(window.plot()));
        QVERIFY(window.missionSummary().contains(QStringLiteral("Test mission")));
        QVERIFY(window.missionSummary().contains(QStringLiteral("1 packet types, 3 parameters")));
        QVERIFY(window.close());
        QVERIFY(!window.isVisible());
    }
};

QTEST_MAIN(TestMainWindow)
#include "tst_ui_main_window.moc"
