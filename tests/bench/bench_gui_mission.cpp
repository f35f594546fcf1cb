// bench_gui_mission: the workstation's GUI on a large mission (tests/bench/synthetic_mission.hpp:
// 10,000 parameters in 50 packet types by default), in the real main window over a station.
//
// 1. The mission browser's filter as an operator types: realistic filter strings typed one character
//    at a time into the filter field (key events), each keystroke timed until the event loop has
//    processed it and the tree has been laid out and painted; then the field cleared (select all,
//    Backspace). "As fast as you type" means well under 50 ms per keystroke. The station is idle.
// 2. A value display with every parameter of the mission while the station decodes the mission's
//    packets from the training simulator (all packet types, equal shares, over loopback UDP): the
//    display's 10 Hz refresh — its cost per tick (ValueDisplay::lastRefreshMs: reading the values and
//    signalling the view) and the intervals between ticks — and the event loop's lateness (a 5 ms probe
//    timer, as bench_gui_latency).
//
// Run under Xvfb for the real X11 path (xvfb-run -a -s "-screen 0 1920x1080x24" build/release/bin/
// bench_gui_mission), or with QT_QPA_PLATFORM=offscreen; the platform in use is printed.
#include "core/common/command_line.hpp"
#include "core/mdb/sqlite_store.hpp"
#include "core/pipeline/station.hpp"
#include "core/stats/status_line.hpp"
#include "sim/engine/sim_stream.hpp"
#include "tests/bench/bench_gui_support.hpp"
#include "tests/bench/synthetic_mission.hpp"
#include "ui/dialogs/definition_file_dialog.hpp" // MissionBrowser holds a QPointer to it
#include "ui/displays/display_dock.hpp"
#include "ui/displays/value_display.hpp"
#include "ui/main_window.hpp"
#include "ui/models/value_table_model.hpp"
#include "ui/session/station_session.hpp"
#include "ui/widgets/mission_browser.hpp"

#include <QApplication>
#include <QDockWidget>
#include <QElapsedTimer>
#include <QEventLoop>
#include <QJsonArray>
#include <QJsonObject>
#include <QKeyEvent>
#include <QLineEdit>
#include <QStandardPaths>
#include <QTableView>
#include <QTemporaryDir>
#include <QTimer>
#include <QTreeView>

#include <cstdio>
#include <string>
#include <vector>

using namespace telestation;
using bench::maximum;
using bench::percentile;

namespace {

constexpr const char* kProgram = "bench_gui_mission";
constexpr double kKeystrokeTargetMs = 50;

// Realistic searches over the synthetic mission: a measurand by name and description, a subsystem's
// rates, a unit, one parameter by its number, a typo that matches nothing.
const char* const kDefaultFilters = "temperature,aocs_rate,volt,degc,01234,tmeperature";

// Lets the event loop run for `ms` (the operator's pause between keys).
void idle(int ms)
{
    QEventLoop loop;
    QTimer::singleShot(ms, &loop, &QEventLoop::quit);
    loop.exec();
}

// One keystroke into `edit`: the key events, the event loop until nothing is pending, and a synchronous
// paint of the tree (which lays out the rows first). Returns ms.
double keystroke(QLineEdit* edit, QTreeView* view, int key, Qt::KeyboardModifiers modifiers, const QString& text)
{
    QElapsedTimer clock;
    clock.start();
    QKeyEvent press(QEvent::KeyPress, key, modifiers, text);
    QKeyEvent release(QEvent::KeyRelease, key, modifiers, text);
    QApplication::sendEvent(edit, &press);
    QApplication::sendEvent(edit, &release);
    QApplication::processEvents();
    view->viewport()->repaint();
    return static_cast<double>(clock.nsecsElapsed()) * 1e-6;
}

QJsonObject valueSpec(const mdb::MissionDatabase& db, const QString& stream)
{
    QJsonArray rows;
    for (const auto& packet : db.packets)
        for (const auto& p : packet.parameters)
            rows.append(QJsonObject{{"stream", stream}, {"parameter", QString::fromStdString(packet.name + "." + p.name)}});
    return {{"type", "values"}, {"title", "every parameter"}, {"rawHex", false}, {"rows", rows}};
}

} // namespace

int main(int argc, char** argv)
{
    CommandLine cli(kProgram, "The GUI on a large mission: the mission browser's filter per keystroke, and a value "
                              "display of every parameter refreshing while the station decodes the mission.");
    cli.addFlag("help", "Show this help.");
    cli.addOption("parameters", "N", "Parameters in the mission (default 10000).");
    cli.addOption("packets", "N", "Packet types (default 50).");
    cli.addOption("filters", "LIST", std::string("Filter strings typed into the mission browser, comma-separated "
                                                 "(default ") + kDefaultFilters + ").");
    cli.addOption("pause-ms", "MS", "Pause between keystrokes (default 150).");
    cli.addOption("rate", "PPS", "Packets per second the simulator sends (default 10000).");
    cli.addOption("seconds", "S", "Measured seconds of the value display, after the warm-up (default 20).");
    cli.addOption("warmup", "S", "Seconds before measuring (default 3).");
    cli.addOption("probe-ms", "MS", "The probe timer's interval (default 5).");
    cli.addOption("screenshot", "FILE", "Save the window as PNG at the end.");
    cli.addFlag("browser-only", "Measure the mission browser only (no value display, no simulator): for profiling.");
    if (const auto exit = cli.parseOrExit(argc, argv))
        return *exit;
    const auto parameters = cli.integer("parameters", 10000);
    const auto packets = cli.integer("packets", 50);
    const auto pauseMs = cli.integer("pause-ms", 150);
    const auto rate = cli.number("rate", 10000);
    const auto seconds = cli.number("seconds", 20);
    const auto warmup = cli.number("warmup", 3);
    const auto probeMs = cli.integer("probe-ms", 5);
    if (!parameters || !packets || !pauseMs || !rate || !seconds || !warmup || !probeMs || *parameters < 1 ||
        *packets < 1 || *pauseMs < 0 || *rate <= 0 || *seconds <= 0 || *warmup < 0 || *probeMs <= 0) {
        std::fprintf(stderr, "%s: --parameters, --packets, --rate, --seconds and --probe-ms take numbers above zero, "
                             "--warmup and --pause-ms >= 0\n", kProgram);
        return 2;
    }
    const QStringList filters =
        QString::fromStdString(cli.value("filters", kDefaultFilters)).split(QLatin1Char(','), Qt::SkipEmptyParts);

    if (qEnvironmentVariableIsEmpty("DISPLAY") && qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM"))
        qputenv("QT_QPA_PLATFORM", "offscreen");
    QStandardPaths::setTestModeEnabled(true); // the window's settings go to a throw-away place
    QApplication app(argc, argv);
    QApplication::setOrganizationName(QStringLiteral("TelestationBench"));
    QApplication::setApplicationName(QString::fromLatin1(kProgram));

    QTemporaryDir dir;
    if (!dir.isValid()) {
        std::fprintf(stderr, "%s: no temporary directory\n", kProgram);
        return 1;
    }
    const mdb::MissionDatabase db =
        bench::syntheticMission(static_cast<std::size_t>(*parameters), static_cast<std::size_t>(*packets));
    const std::string mdbPath = dir.filePath(QStringLiteral("synthetic.mdb")).toStdString();
    if (const auto saved = mdb::saveDatabase(db, mdbPath); !saved) {
        std::fprintf(stderr, "%s: %s\n", kProgram, saved.error().toString().c_str());
        return 1;
    }

    ui::StationSession session;
    QString error;
    if (!session.open(bench::oneStreamProfile(dir, mdbPath, "bench"), {}, &error) || !session.station()) {
        std::fprintf(stderr, "%s: %s\n", kProgram, qPrintable(error));
        return 1;
    }
    pipeline::Station& station = *session.station();

    ui::MainWindow mainWindow(session);
    mainWindow.resize(1920, 1080);
    mainWindow.show();
    ui::MissionBrowser* browser = mainWindow.missionBrowser();
    auto* filterEdit = browser ? browser->findChild<QLineEdit*>(QStringLiteral("missionFilter")) : nullptr;
    if (!browser || !filterEdit || browser->database() == nullptr) {
        std::fprintf(stderr, "%s: no mission browser with the mission in the main window\n", kProgram);
        return 1;
    }
    if (auto* dock = qobject_cast<QDockWidget*>(browser->parentWidget()))
        dock->raise();
    idle(500); // the window shown and painted once
    std::printf("platform            %s\n", qPrintable(QGuiApplication::platformName()));
    std::printf("mission             %zu packet types, %zu parameters\n", db.packets.size(), db.parameterCount());

    // 1. Typing into the mission browser's filter.
    filterEdit->setFocus();
    std::vector<double> allKeystrokes;
    std::printf("mission browser     ms per keystroke (characters typed one by one; then select all + Backspace)\n");
    for (const QString& filter : filters) {
        std::vector<double> times;
        QString line;
        for (const QChar c : filter) {
            const int key = c.isLetter() ? Qt::Key_A + (c.toUpper().unicode() - 'A') : c.unicode();
            times.push_back(keystroke(filterEdit, browser->view(), key, Qt::NoModifier, QString(c)));
            line += QStringLiteral(" %1").arg(times.back(), 0, 'f', 1);
            idle(static_cast<int>(*pauseMs));
        }
        const int shown = browser->shownParameterCount();
        filterEdit->selectAll();
        const double clear = keystroke(filterEdit, browser->view(), Qt::Key_Backspace, Qt::NoModifier, {});
        idle(static_cast<int>(*pauseMs));
        std::printf("  %-16s %5d shown  keys:%s  clear: %.1f\n", qPrintable(QLatin1Char('"') + filter + QLatin1Char('"')),
                    shown, qPrintable(line), clear);
        allKeystrokes.insert(allKeystrokes.end(), times.begin(), times.end());
        allKeystrokes.push_back(clear);
    }
    if (!browser->filterText().isEmpty() || browser->shownParameterCount() != static_cast<int>(db.parameterCount())) {
        std::fprintf(stderr, "%s: the filter did not clear\n", kProgram);
        return 1;
    }
    const double worstKey = maximum(allKeystrokes);
    std::printf("  all %zu keystrokes: median %.1f ms, p90 %.1f, max %.1f; target max < %.0f ms: %s\n",
                allKeystrokes.size(), percentile(allKeystrokes, 0.5), percentile(allKeystrokes, 0.9), worstKey,
                kKeystrokeTargetMs, worstKey < kKeystrokeTargetMs ? "met" : "MISSED");

    if (cli.isSet("browser-only")) {
        session.close();
        return 0;
    }

    // 2. A value display of every parameter while the station decodes the mission.
    QElapsedTimer opening;
    opening.start();
    ui::DisplayDock* values = mainWindow.openDisplay(valueSpec(db, QStringLiteral("bench")));
    const double openMs = static_cast<double>(opening.nsecsElapsed()) * 1e-6;
    auto* valueDisplay = values ? qobject_cast<ui::ValueDisplay*>(values->display()) : nullptr;
    if (!valueDisplay || valueDisplay->model()->rowCount() != static_cast<int>(db.parameterCount())) {
        std::fprintf(stderr, "%s: the value display did not open with every parameter\n", kProgram);
        return 1;
    }
    values->raise();
    idle(300);
    if (!valueDisplay->isRefreshActive()) {
        std::fprintf(stderr, "%s: the value display is not visible (its refresh is off)\n", kProgram);
        return 1;
    }
    std::printf("value display       %d rows, opened in %.0f ms\n", valueDisplay->model()->rowCount(), openMs);

    QTimer* refreshTimer = nullptr;
    for (auto* timer : valueDisplay->findChildren<QTimer*>())
        if (timer->interval() == 1000 / ui::ValueDisplay::kRefreshHz)
            refreshTimer = timer;
    if (!refreshTimer) {
        std::fprintf(stderr, "%s: the value display's refresh timer was not found\n", kProgram);
        return 1;
    }
    bench::LatencyProbe probe(static_cast<int>(*probeMs), *seconds);
    std::vector<double> refreshMs, tickIntervalMs;
    qint64 lastTickNs = -1;
    bool measuring = false;
    // Connected after the display's own slot: runs right after each refresh.
    QElapsedTimer tickClock;
    tickClock.start();
    QObject::connect(refreshTimer, &QTimer::timeout, [&] {
        if (!measuring)
            return;
        const qint64 now = tickClock.nsecsElapsed();
        refreshMs.push_back(valueDisplay->lastRefreshMs());
        if (lastTickNs >= 0)
            tickIntervalMs.push_back(static_cast<double>(now - lastTickNs) * 1e-6);
        lastTickNs = now;
    });
    bench::PaintCounter paints;
    valueDisplay->view()->viewport()->installEventFilter(&paints);

    sim::StreamConfig simConfig;
    simConfig.name = "sim";
    simConfig.destination = "udp://127.0.0.1:" + std::to_string(station.localPort("bench"));
    for (const auto& packet : db.packets)
        simConfig.mix.push_back({packet.name, 1});
    simConfig.rate = sim::Rate{sim::Rate::Unit::PacketsPerSecond, *rate};
    auto simulator = sim::SimStream::create(simConfig, db);
    if (!simulator) {
        std::fprintf(stderr, "%s: simulator: %s\n", kProgram, simulator.error().toString().c_str());
        return 1;
    }

    double guiCpu0 = 0, processCpu0 = 0;
    long frames0 = 0;
    stats::StationSnapshot first;
    QTimer::singleShot(static_cast<int>(*warmup * 1000), [&] {
        guiCpu0 = bench::threadCpuSeconds();
        processCpu0 = bench::processCpuSeconds();
        frames0 = paints.frames;
        first = station.snapshot();
        probe.measure();
        measuring = true;
    });
    // A loop of its own rather than QApplication::exec(): quitting the application closes the window.
    QEventLoop run;
    QTimer::singleShot(static_cast<int>((*warmup + *seconds) * 1000), &run, &QEventLoop::quit);
    probe.start();
    (*simulator)->start();
    run.exec();
    probe.stop();
    measuring = false;
    const double elapsed = probe.elapsedSeconds();
    const double guiCpu = bench::threadCpuSeconds() - guiCpu0;
    const double processCpu = bench::processCpuSeconds() - processCpu0;
    const long frames = paints.frames - frames0;

    // The paint of the table alone (the rows in view), under the same load, outside the measured time.
    std::vector<double> paintMs;
    for (int i = 0; i < 20; ++i) {
        QElapsedTimer clock;
        clock.start();
        valueDisplay->view()->viewport()->repaint();
        paintMs.push_back(static_cast<double>(clock.nsecsElapsed()) * 1e-6);
        idle(20);
    }
    int rowsWithValue = 0;
    for (int r = 0; r < valueDisplay->model()->rowCount(); ++r)
        if (valueDisplay->model()->index(r, ui::ValueTableModel::Raw).data(ui::ValueTableModel::kValueRole).isValid())
            ++rowsWithValue;
    if (cli.isSet("screenshot"))
        mainWindow.grab().save(QString::fromStdString(cli.value("screenshot")));

    (*simulator)->stop();
    const auto sent = (*simulator)->summary();
    bench::waitForDelivery(station, sent.sent.packets);
    const auto last = station.snapshot();
    const auto& c = last.streams.at(0).counters;
    const auto& c0 = first.streams.at(0).counters;
    const double pps = static_cast<double>(c.packetsReceived - c0.packetsReceived) / elapsed;
    const double parametersPerSecond = static_cast<double>(c.parametersDecoded - c0.parametersDecoded) / elapsed;
    const auto& lateness = probe.lateness();

    std::printf("load                %.0f packets/s received (asked %.0f), %.2f M parameters/s decoded\n", pps, *rate,
                parametersPerSecond / 1e6);
    std::printf("rows with a value   %d of %d\n", rowsWithValue, valueDisplay->model()->rowCount());
    std::printf("refresh ticks       %zu in %.1f s (%.2f per second); interval p50 %.1f ms, p99 %.1f, max %.1f\n",
                refreshMs.size(), elapsed, static_cast<double>(refreshMs.size()) / elapsed,
                percentile(tickIntervalMs, 0.5), percentile(tickIntervalMs, 0.99), maximum(tickIntervalMs));
    std::printf("refresh cost (ms)   p50 %.2f  p90 %.2f  p99 %.2f  max %.2f  (reading %d rows' values, signalling)\n",
                percentile(refreshMs, 0.5), percentile(refreshMs, 0.9), percentile(refreshMs, 0.99), maximum(refreshMs),
                valueDisplay->model()->rowCount());
    std::printf("table paint (ms)    p50 %.2f  max %.2f  (rows in view, synchronous repaint, 20 times); %.1f frames/s "
                "drawn during the run\n",
                percentile(paintMs, 0.5), maximum(paintMs), static_cast<double>(frames) / elapsed);
    std::printf("lateness (ms)       p50 %.2f  p90 %.2f  p99 %.2f  p99.9 %.2f  max %.2f  (%zu ticks of %d ms)\n",
                percentile(lateness, 0.5), percentile(lateness, 0.9), percentile(lateness, 0.99),
                percentile(lateness, 0.999), maximum(lateness), lateness.size(), probe.intervalMs());
    std::printf("cpu                 GUI thread %.0f%%, whole process %.0f%% (of one core)\n", 100 * guiCpu / elapsed,
                100 * processCpu / elapsed);
    std::printf("delivery            sent %llu, received %llu, %s\n", static_cast<unsigned long long>(sent.sent.packets),
                static_cast<unsigned long long>(c.packetsReceived),
                last.hasLoss() ? "LOSS (see below)" : "no loss, no drops");
    if (last.hasLoss())
        std::fputs(stats::summaryTable(last).c_str(), stdout);
    const double ticksPerSecond = static_cast<double>(refreshMs.size()) / elapsed;
    std::printf("result              keystrokes %s (max %.1f ms < %.0f ms); refresh %s 10 Hz (%.2f ticks/s, p99 interval "
                "%.0f ms)\n",
                worstKey < kKeystrokeTargetMs ? "meet" : "MISS", worstKey, kKeystrokeTargetMs,
                ticksPerSecond >= 9.5 ? "keeps" : "DOES NOT KEEP", ticksPerSecond, percentile(tickIntervalMs, 0.99));
    session.close();
    return 0;
}
