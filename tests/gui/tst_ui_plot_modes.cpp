// Plots in every processing mode (issue 15, point 4): a curve of a Process On Demand type gets every
// packet's sample (decoded for the plot), as one of a Process Entire Packet type does; a curve of a Pass
// Thru type gets none and says why in its legend, until its type is decoded again. Real station, real
// packets from the simulator over loopback, the real plot widget (offscreen).
#include "core/config/station_profile.hpp"
#include "core/pipeline/station.hpp"
#include "tests/support/sim_traffic.hpp"
#include "tests/support/station_fixture.hpp"
#include "ui/displays/parameter_plot.hpp"
#include "ui/displays/plot_display.hpp"

#include <QTemporaryDir>
#include <QtTest>

#include <qwt_plot_curve.h>
#include <qwt_text.h>

using namespace telestation;
using config::ProcessingMode;

class TestPlotModes : public QObject {
    Q_OBJECT

private slots:
    void everyModeFeedsOrExplains()
    {
        QTemporaryDir dir;
        auto station = test::startStation(
            test::stationProfile(dir, {test::streamProfile("tm", "udp://127.0.0.1:0",
                                                           {{100, std::nullopt, ProcessingMode::ProcessOnDemand, false, {}},
                                                            {400, std::nullopt, ProcessingMode::ProcessEntirePacket, false, {}},
                                                            {600, 1, ProcessingMode::PassThru, false, {}}})}),
            test::trainingDatabase());
        QVERIFY(station);
        ui::ParameterPlot display(*station);
        display.resize(900, 500);
        display.show();
        QVERIFY(QTest::qWaitForWindowExposed(&display));
        for (const char* parameter : {"HK_Status.UPTIME", "GNC_State.GNC_CYCLE_COUNTER", "Diag_Power.BREAKER_TRIPS"}) {
            QString error;
            QVERIFY2(display.addCurve({QStringLiteral("tm"), QLatin1String(parameter), {}, ui::PlotDisplay::Axis::Left, 0}, &error),
                     qPrintable(error));
        }
        const auto summary = test::sendPackets(*station, "tm", {"HK_Status", "GNC_State", "Diag_Power"}, 600, 3000);
        QVERIFY(test::settle(*station, "tm", summary.sent.packets));
        display.poll();

        const ui::PlotDisplay& plot = *display.plotDisplay();
        QCOMPARE(plot.history(0).size(), std::size_t(summary.apids.at(100).packets)); // on demand: every packet
        QCOMPARE(plot.history(1).size(), std::size_t(summary.apids.at(400).packets)); // entire packet
        QCOMPARE(plot.history(2).size(), std::size_t{0});                             // pass thru: nothing
        QVERIFY(summary.apids.at(600).packets > 0);
        const auto title = [&](int curve) { return plot.curve(curve)->title().text(); };
        QCOMPARE(title(0), QStringLiteral("HK_Status.UPTIME"));
        QCOMPARE(title(1), QStringLiteral("GNC_State.GNC_CYCLE_COUNTER"));
        QVERIFY2(title(2).contains(QStringLiteral("not decoded")) && title(2).contains(QStringLiteral("Pass Thru")),
                 qPrintable(title(2)));

        // Decoded again (on demand): the note goes, the samples come.
        config::PacketSettings onDemand{600, 1, ProcessingMode::ProcessOnDemand, false, {}};
        QVERIFY(station->setPacketSettings("tm", onDemand));
        const auto more = test::sendPackets(*station, "tm", {"Diag_Power"}, 50, 3000);
        QVERIFY(test::settle(*station, "tm", summary.sent.packets + more.sent.packets));
        display.poll();
        QCOMPARE(title(2), QStringLiteral("Diag_Power.BREAKER_TRIPS"));
        QCOMPARE(plot.history(2).size(), std::size_t(more.sent.packets));
    }
};

QTEST_MAIN(TestPlotModes)
#include "tst_ui_plot_modes.moc"
