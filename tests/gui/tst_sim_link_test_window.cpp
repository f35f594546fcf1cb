// The simulator's link test window (issue 18) against a real responder on loopback: a run with tiny
// grids fills the tables and the plots, its report saves as the command line writes it (every file,
// the PNGs readable); a responder that is not there, or an address that is not one, is said in the red
// label and Run is offered again; the window opens from Tools › Link test….
#include "core/link/responder.hpp"
#include "core/link/tests.hpp"
#include "sim/engine/simulator.hpp"
#include "sim/gui/link_plots.hpp"
#include "sim/gui/link_table_model.hpp"
#include "sim/gui/link_test_window.hpp"
#include "sim/gui/sim_main_window.hpp"
#include "tests/support/training_mission.hpp"

#include <QAction>
#include <QFileInfo>
#include <QImage>
#include <QLabel>
#include <QLineEdit>
#include <QProgressBar>
#include <QPushButton>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTcpServer>
#include <QTemporaryDir>
#include <QtTest>

#include <qwt_interval.h>

#include <chrono>
#include <memory>

using namespace telestation;
using namespace std::chrono_literals;
using sim::gui::LinkTestWindow;

namespace {

constexpr int kRunTimeoutMs = 60'000;

std::shared_ptr<const mdb::MissionDatabase> noMission()
{
    return std::make_shared<const mdb::MissionDatabase>();
}

// A loopback port where nothing listens: bound, then let go.
QString closedPort()
{
    QTcpServer server;
    if (!server.listen(QHostAddress::LocalHost, 0))
        return QStringLiteral("127.0.0.1:1");
    const quint16 port = server.serverPort();
    server.close();
    return QStringLiteral("127.0.0.1:%1").arg(port);
}

} // namespace

class TestSimLinkTestWindow : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void initTestCase() { QStandardPaths::setTestModeEnabled(true); }

    void runsAndSavesTheReport()
    {
        telestation::link::ResponderOptions options;
        options.listen = "127.0.0.1:0";
        auto responder = telestation::link::Responder::start(options);
        QVERIFY2(responder.ok(), responder.ok() ? "" : responder.error().message.c_str());

        LinkTestWindow window(noMission());
        window.setResponderAddress(QString::fromStdString((*responder)->address()));
        window.setTests({telestation::link::TestKind::MessageRate, telestation::link::TestKind::TcpFlows});
        window.setQuick(true);
        window.setOptionsForTest([](telestation::link::ControllerOptions& o) {
            o.messageSizes = {512, 4096};
            o.messageTime = 200ms;
            o.flowCounts = {1, 2};
            o.flowsTime = 300ms;
            o.sampleMs = 50;
        });
        window.show();
        // Before a run: the progress says so, and an empty plot's axis spans the test's usual sizes.
        QCOMPARE(window.findChild<QProgressBar*>(QStringLiteral("linkProgress"))->text(), QStringLiteral("Not run yet"));
        const QwtInterval sizes = window.plot(telestation::link::TestKind::MessageRate)->axisInterval(QwtAxis::XBottom);
        QVERIFY2(sizes.minValue() < 4 && sizes.maxValue() > 65536, qPrintable(QStringLiteral("%1 .. %2").arg(sizes.minValue()).arg(sizes.maxValue())));
        QSignalSpy finished(&window, &LinkTestWindow::finished);
        QVERIFY(window.run());
        QVERIFY(window.running());
        QTRY_VERIFY_WITH_TIMEOUT(finished.count() == 1, kRunTimeoutMs);
        QCOMPARE(finished.at(0).at(0).toBool(), true);
        QVERIFY(!window.running());
        QVERIFY2(window.errorText().isEmpty(), qPrintable(window.errorText()));
        QVERIFY(window.report().has_value());
        for (const auto& [test, why] : window.report()->failures)
            QFAIL(qPrintable(QStringLiteral("%1: %2").arg(QString::fromStdString(std::string(telestation::link::testName(test))),
                                                          QString::fromStdString(why))));

        // The tables: the report's rows, with its columns.
        auto* messageRate = window.tableModel(telestation::link::TestKind::MessageRate);
        QCOMPARE(messageRate->rowCount(), 4); // 2 sizes over TCP, then over UDP
        QCOMPARE(messageRate->headerData(0, Qt::Horizontal).toString(), QStringLiteral("transport"));
        QCOMPARE(messageRate->data(messageRate->index(0, 0)).toString(), QStringLiteral("tcp"));
        QCOMPARE(messageRate->data(messageRate->index(3, 0)).toString(), QStringLiteral("udp"));
        QCOMPARE(messageRate->data(messageRate->index(1, 1)).toString(), QStringLiteral("4096"));
        auto* flows = window.tableModel(telestation::link::TestKind::TcpFlows);
        QCOMPARE(flows->rowCount(), 2);
        QCOMPARE(flows->data(flows->index(1, 0)).toString(), QStringLiteral("2"));
        QCOMPARE(window.tableModel(telestation::link::TestKind::UdpGrid)->rowCount(), 0);

        // The plots: curves with the rows' points (TCP and UDP; median and mean).
        const auto* ratePlot = window.plot(telestation::link::TestKind::MessageRate);
        QVERIFY(ratePlot->curveCount() >= 2);
        QVERIFY(ratePlot->pointCount() >= 4);
        const auto* flowsPlot = window.plot(telestation::link::TestKind::TcpFlows);
        QVERIFY(flowsPlot->curveCount() >= 2);
        QVERIFY(flowsPlot->pointCount() >= 4);
        QCOMPARE(window.plot(telestation::link::TestKind::UdpGrid)->pointCount(), std::size_t{0});

        auto* progress = window.findChild<QProgressBar*>(QStringLiteral("linkProgress"));
        QVERIFY(progress);
        QCOMPARE(progress->maximum(), 6);
        QCOMPARE(progress->text(), QStringLiteral("6 of 6 rows"));
        QCOMPARE(progress->value(), progress->maximum());
        QVERIFY(window.findChild<QPushButton*>(QStringLiteral("linkRunButton"))->isEnabled());
        QVERIFY(!window.findChild<QPushButton*>(QStringLiteral("linkCancelButton"))->isEnabled());
        QVERIFY(window.findChild<QPushButton*>(QStringLiteral("linkSaveButton"))->isEnabled());

        // Saved as the command line writes it, into a folder made for it.
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const QString folder = dir.filePath(QStringLiteral("report"));
        QCOMPARE(window.saveReport(folder), QString());
        for (const char* name : {"link-report.md", "link-report.json", "link-msgrate.csv", "link-flows.csv"})
            QVERIFY2(QFileInfo(folder + QLatin1Char('/') + QLatin1String(name)).size() > 0, name);
        for (const char* name : {"link-msgrate.png", "link-flows.png"}) {
            const QImage image(folder + QLatin1Char('/') + QLatin1String(name));
            QVERIFY2(!image.isNull(), name);
            QCOMPARE(image.size(), QSize(sim::gui::LinkPlot::kImageWidth, sim::gui::LinkPlot::kImageHeight));
        }
        QVERIFY(!QFileInfo::exists(folder + QStringLiteral("/link-udpmon.png"))); // no rows, no plot
        QVERIFY(!QFileInfo::exists(folder + QStringLiteral("/link-udpmon.csv")));
    }

    // All five tests through the window against a responder with the training mission (the telemetry
    // test's station): every table filled, every plot drawn, and the report's five PNG files and CSV
    // tables written; the UDP plot shows a send and a receive curve per datagram size.
    void everyTestDrawnAndSaved()
    {
        telestation::link::ResponderOptions options;
        options.listen = "127.0.0.1:0";
        options.mission = std::make_shared<const mdb::MissionDatabase>(test::trainingDatabase());
        auto responder = telestation::link::Responder::start(options);
        QVERIFY2(responder.ok(), responder.ok() ? "" : responder.error().message.c_str());

        LinkTestWindow window(std::make_shared<const mdb::MissionDatabase>(test::trainingDatabase()));
        window.setResponderAddress(QString::fromStdString((*responder)->address()));
        window.setTests({telestation::link::kAllTests.begin(), telestation::link::kAllTests.end()});
        window.setQuick(true);
        window.setOptionsForTest([](telestation::link::ControllerOptions& o) {
            o.messageSizes = {512};
            o.messageTime = 150ms;
            o.udpSizes = {64, 1472};
            o.udpGapsNs = {0, 100'000};
            o.udpCount = 100;
            o.flowCounts = {1, 2};
            o.flowsTime = 300ms;
            o.sampleMs = 50;
            o.blockSizes = {1024};
            o.blockTime = 150ms;
            o.telemetryStartMbps = 1;
            o.telemetryMaxMbps = 2;
            o.telemetryTries = 2;
            o.telemetryTime = 300ms;
        });
        window.show();
        QSignalSpy finished(&window, &LinkTestWindow::finished);
        QVERIFY(window.run());
        QTRY_VERIFY_WITH_TIMEOUT(finished.count() == 1, kRunTimeoutMs);
        QVERIFY2(finished.at(0).at(0).toBool(), qPrintable(window.errorText()));
        for (const auto& [test, why] : window.report()->failures)
            QFAIL(qPrintable(QString::fromStdString(why)));

        for (const telestation::link::TestKind test : telestation::link::kAllTests) {
            const QString name = QString::fromStdString(std::string(telestation::link::testName(test)));
            QVERIFY2(window.tableModel(test)->rowCount() > 0, qPrintable(name));
            QVERIFY2(window.plot(test)->pointCount() > 0, qPrintable(name));
        }
        QCOMPARE(window.plot(telestation::link::TestKind::UdpGrid)->curveCount(), 4); // 2 sizes × (send, receive)
        QCOMPARE(window.tableModel(telestation::link::TestKind::UdpGrid)->rowCount(), 4);

        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        QCOMPARE(window.saveReport(dir.path()), QString());
        for (const char* test : {"msgrate", "udpmon", "flows", "blocks", "telemetry"}) {
            const QString base = dir.filePath(QStringLiteral("link-%1").arg(QLatin1String(test)));
            const QImage image(base + QStringLiteral(".png"));
            QVERIFY2(!image.isNull(), test);
            QCOMPARE(image.size(), QSize(sim::gui::LinkPlot::kImageWidth, sim::gui::LinkPlot::kImageHeight));
            QVERIFY2(QFileInfo(base + QStringLiteral(".csv")).size() > 0, test);
        }
    }

    void anAbsentResponderIsSaid()
    {
        LinkTestWindow window(noMission());
        window.setResponderAddress(closedPort());
        window.setTests({telestation::link::TestKind::MessageRate});
        window.setOptionsForTest([](telestation::link::ControllerOptions& o) {
            o.messageSizes = {512};
            o.messageTime = 200ms;
            o.connectTimeout = 2000ms;
        });
        window.show();
        QSignalSpy finished(&window, &LinkTestWindow::finished);
        QVERIFY(window.run());
        QTRY_VERIFY_WITH_TIMEOUT(finished.count() == 1, kRunTimeoutMs);
        QCOMPARE(finished.at(0).at(0).toBool(), false);
        auto* label = window.findChild<QLabel*>(QStringLiteral("linkErrorLabel"));
        QVERIFY(label);
        QVERIFY(label->isVisible());
        QVERIFY2(window.errorText().contains(QStringLiteral("no link responder")), qPrintable(window.errorText()));
        QVERIFY(window.findChild<QPushButton*>(QStringLiteral("linkRunButton"))->isEnabled());
        QVERIFY(!window.findChild<QPushButton*>(QStringLiteral("linkSaveButton"))->isEnabled());
    }

    void wrongChoicesAreSaidBeforeRunning()
    {
        LinkTestWindow window(noMission());
        window.show();
        window.setResponderAddress(QStringLiteral("no port here"));
        QVERIFY(!window.run());
        QVERIFY(!window.running());
        QVERIFY(window.errorText().startsWith(QStringLiteral("Responder:")));

        window.setResponderAddress(QStringLiteral("127.0.0.1:7700"));
        window.setTests({});
        QVERIFY(!window.run());
        QVERIFY(!window.errorText().isEmpty());

        window.setTests({telestation::link::TestKind::TcpFlows});
        window.findChild<QLineEdit*>(QStringLiteral("linkSpeedEdit"))->setText(QStringLiteral("100pps"));
        QVERIFY(!window.run());
        QVERIFY(window.errorText().startsWith(QStringLiteral("Link speed:")));
    }

    void csvFieldsAsTheReportWritesThem()
    {
        const QStringList fields = sim::gui::LinkTableModel::csvFields(QStringLiteral("a,\"b,c\",\"say \"\"hi\"\"\",,"));
        QCOMPARE(fields, (QStringList{QStringLiteral("a"), QStringLiteral("b,c"), QStringLiteral("say \"hi\""), QString(), QString()}));
    }

    void openedFromTheToolsMenu()
    {
        sim::gui::SimMainWindow main(std::make_unique<sim::Simulator>(mdb::MissionDatabase{}), QString());
        main.show();
        auto* action = main.findChild<QAction*>(QStringLiteral("linkTestAction"));
        QVERIFY(action);
        action->trigger();
        auto* window = main.findChild<LinkTestWindow*>(QStringLiteral("linkTestWindow"));
        QVERIFY(window);
        QVERIFY(window->isVisible());
        QVERIFY(window->isWindow());
        action->trigger(); // the same window again
        QCOMPARE(main.findChildren<LinkTestWindow*>().size(), qsizetype{1});
    }
};

QTEST_MAIN(TestSimLinkTestWindow)
#include "tst_sim_link_test_window.moc"
