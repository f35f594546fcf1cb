// telestation-sim: the training simulator. Parses its command line before any QApplication exists, so
// --help, --version and --headless need no display.
//
//   telestation-sim --headless --dest URL --rate RATE [--packet NAME|APID[:WEIGHT],...]
//                   [--duration S | --count N] [--mdb FILE] [--faults KIND=P,...] [--summary-out FILE]
//   telestation-sim --headless --scenario FILE.json [--summary-out FILE]
//   telestation-sim [--scenario FILE.json]            the window (when a display is available; without
//                                                    --scenario or --dest it opens the demo scenario, stopped)
//   telestation-sim link --respond ADDR:PORT | --to HOST:PORT ...   the link test (sim/link_command.hpp)
#include "core/common/guarded_main.hpp"
#include "core/config/mission_file.hpp"
#include "core/common/command_line.hpp"
#include "core/common/paths.hpp"
#include "core/mdb/sqlite_store.hpp"
#include "sim/engine/scenario.hpp"
#include "sim/engine/simulator.hpp"
#include "sim/gui/sim_main_window.hpp"
#include "sim/link_command.hpp"
#include "telestation_version.hpp"
#include "ui/widgets/window_capture.hpp"

#include <QApplication>

#include <spdlog/sinks/stdout_color_sinks.h>
#include <spdlog/spdlog.h>

#include <atomic>
#include <chrono>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <thread>

using namespace telestation;

namespace {

std::atomic<bool> g_stopRequested{false};

extern "C" void onStopSignal(int)
{
    g_stopRequested.store(true);
}

std::vector<std::string> splitList(const std::string& text)
{
    std::vector<std::string> parts;
    std::size_t start = 0;
    while (start <= text.size()) {
        const std::size_t comma = text.find(',', start);
        parts.push_back(text.substr(start, comma == std::string::npos ? std::string::npos : comma - start));
        if (comma == std::string::npos)
            break;
        start = comma + 1;
    }
    return parts;
}

// "drop=0.01,duplicate=0.001" -> FaultConfig.
Result<sim::FaultConfig> parseFaults(const std::string& text)
{
    sim::FaultConfig f;
    for (const std::string& item : splitList(text)) {
        const auto eq = item.find('=');
        if (eq == std::string::npos)
            return Error{"--faults: '" + item + "' is not KIND=PROBABILITY", {}};
        const std::string kind = item.substr(0, eq);
        double p = -1;
        try {
            std::size_t used = 0;
            p = std::stod(item.substr(eq + 1), &used);
            if (used != item.size() - eq - 1)
                p = -1;
        } catch (const std::exception&) {
        }
        if (!(p >= 0 && p <= 1))
            return Error{"--faults: '" + item.substr(eq + 1) + "' is not a probability (0..1) for " + kind, {}};
        double* slot = kind == "drop" ? &f.drop
            : kind == "duplicate"     ? &f.duplicate
            : kind == "reorder"       ? &f.reorder
            : kind == "corrupt-header" || kind == "corruptHeader" ? &f.corruptHeader
            : kind == "truncate"      ? &f.truncate
            : kind == "garbage"       ? &f.garbage
                                      : nullptr;
        if (!slot)
            return Error{"--faults: unknown fault '" + kind
                             + "' (drop, duplicate, reorder, corrupt-header, truncate, garbage)", {}};
        *slot = p;
    }
    return f;
}

// --duration or --count: when a stream stops. Given with --scenario, they apply to every stream of it
// (in place of the scenario's own).
Status applyStopOptions(const CommandLine& cli, sim::StreamConfig& stream)
{
    if (cli.isSet("duration") && cli.isSet("count"))
        return Error{"give --duration or --count, not both", {}};
    if (cli.isSet("duration")) {
        const auto d = cli.number("duration", 0);
        if (!d || !(*d > 0))
            return Error{"--duration needs a number of seconds above zero", {}};
        stream.durationSeconds = *d;
        stream.count.reset();
    }
    if (cli.isSet("count")) {
        const auto n = cli.integer("count", 0);
        if (!n || *n <= 0)
            return Error{"--count needs a whole number above zero", {}};
        stream.count = static_cast<std::uint64_t>(*n);
        stream.durationSeconds.reset();
    }
    return {};
}

// One stream from --dest, --packet, --rate, --duration/--count, --faults, --transport-header, --seed.
Result<sim::Scenario> scenarioFromOptions(const CommandLine& cli)
{
    sim::StreamConfig stream;
    stream.name = "stream1";
    stream.destination = cli.value("dest");
    if (!cli.isSet("rate"))
        return Error{"--rate is required with --dest (e.g. 100pps, 25.6Mbps, flood)", {}};
    auto rate = sim::parseRate(cli.value("rate"));
    if (!rate)
        return Error{"--rate: " + rate.error().message, {}};
    stream.rate = *rate;
    // Without --packet: Packet5 of the training mission; every packet type of another mission (filled
    // in once it is loaded, see everyPacketType).
    const std::string packets = cli.value("packet", cli.isSet("mdb") ? "" : "Packet5");
    for (const std::string& item : packets.empty() ? std::vector<std::string>{} : splitList(packets)) {
        sim::MixEntry entry;
        const auto colon = item.find(':');
        entry.packet = item.substr(0, colon);
        if (colon != std::string::npos) {
            try {
                std::size_t used = 0;
                entry.weight = std::stod(item.substr(colon + 1), &used);
                if (used != item.size() - colon - 1)
                    entry.weight = -1;
            } catch (const std::exception&) {
                entry.weight = -1;
            }
        }
        if (entry.packet.empty() || !(entry.weight > 0))
            return Error{"--packet: '" + item + "' is not NAME|APID[:WEIGHT]", {}};
        stream.mix.push_back(entry);
    }
    if (auto limited = applyStopOptions(cli, stream); !limited)
        return limited.error();
    const auto header = cli.integer("transport-header", 0);
    if (!header || *header < 0 || *header > 65535)
        return Error{"--transport-header needs a byte count 0..65535", {}};
    stream.transportHeaderBytes = static_cast<std::uint32_t>(*header);
    const auto seed = cli.integer("seed", 1);
    if (!seed)
        return seed.error();
    stream.seed = static_cast<std::uint64_t>(*seed);
    if (cli.isSet("faults")) {
        auto faults = parseFaults(cli.value("faults"));
        if (!faults)
            return faults.error();
        stream.faults = *faults;
    }
    sim::Scenario scenario;
    scenario.streams.push_back(stream);
    return scenario;
}

int runHeadless(sim::Simulator& simulator, const std::string& summaryOut)
{
    std::signal(SIGINT, onStopSignal);
    std::signal(SIGTERM, onStopSignal);
    simulator.startAll();
    for (auto& s : simulator.streams())
        if (s->localPort() != 0)
            std::fprintf(stderr, "telestation-sim: stream %s listening on port %u\n", s->config().name.c_str(),
                         unsigned(s->localPort()));
    while (simulator.anyRunning() && !g_stopRequested.load())
        std::this_thread::sleep_for(std::chrono::milliseconds(20));
    simulator.stopAll();
    const sim::SimSummary summary = simulator.summary();
    std::fputs(sim::toText(summary).c_str(), stdout);
    std::fflush(stdout);
    if (!summaryOut.empty())
        if (auto written = sim::writeSummaryFile(summary, summaryOut); !written) {
            std::fprintf(stderr, "telestation-sim: %s\n", written.error().toString().c_str());
            return 1;
        }
    return 0;
}

bool displayAvailable()
{
    const char* platform = std::getenv("QT_QPA_PLATFORM");
    if (platform && *platform)
        return true; // offscreen, xcb, wayland... chosen explicitly
    const char* x = std::getenv("DISPLAY");
    const char* wayland = std::getenv("WAYLAND_DISPLAY");
    return (x && *x) || (wayland && *wayland);
}

// main()'s body (guardedMain runs it).
int run(int argc, char** argv)
{
    CommandLine cli("telestation-sim", "Training simulator: generates telemetry streams from the mission database. The link test: telestation-sim link --help.");
    cli.addFlag("help", "Show this help and exit.");
    cli.addFlag("version", "Show the version and exit.");
    cli.addFlag("headless", "Run without a window (automatic when there is no display).");
    cli.addOption("mdb", "FILE", "Mission database: .mdb, XTCE .xml or .tdef (told apart by content); default: the training database.");
    cli.addOption("scenario", "FILE", "Scenario (JSON): streams, mixes, rates, generators, faults. See docs/simulator.md.");
    cli.addOption("dest", "URL", "Destination of a single stream: udp://HOST:PORT, udp://GROUP:PORT?iface=ADDR, tcp://HOST:PORT, tcp-listen://HOST:PORT.");
    cli.addOption("packet", "LIST", "Packet types by name or APID, each with an optional :WEIGHT (default: Packet5 of the training database; with --mdb, every packet type).");
    cli.addOption("rate", "RATE", "Rate: 100pps, 2.5kpps, 25.6Mbps, 1.5Gbps, or flood (as fast as possible).");
    cli.addOption("duration", "SECONDS", "Stop after this many seconds (with --scenario: every stream of it).");
    cli.addOption("count", "N", "Stop after N packets (with --scenario: each stream).");
    cli.addOption("transport-header", "BYTES", "Bytes of transport header before each packet (default 0).");
    cli.addOption("seed", "N", "Seed of the random generators and faults (default 1).");
    cli.addOption("faults", "KIND=P,...", "Fault probabilities per packet: drop, duplicate, reorder, corrupt-header, truncate, garbage (TCP).");
    cli.addOption("summary-out", "FILE", "Write the run's summary (per stream and APID, injected faults) as JSON.");
    cli.addOption("quit-after", "MS", "Close the window after MS milliseconds (for tests and screenshots).", true);
    cli.addOption("screenshot", "FILE", "With --quit-after: save a PNG of the window just before closing it.", true);
    // Log lines go to stderr: stdout carries what the program reports (summaries, help).
    spdlog::set_default_logger(spdlog::stderr_color_mt("telestation-sim"));
    if (argc >= 2 && std::string(argv[1]) == "link")
        return sim::runLinkCommand(argc, argv);
    if (const auto parsed = cli.parse(argc, argv); !parsed) {
        std::fprintf(stderr, "telestation-sim: %s\n", parsed.error().message.c_str());
        return 2;
    }
    if (cli.isSet("help")) {
        std::fputs(cli.helpText().c_str(), stdout);
        return 0;
    }
    if (cli.isSet("version")) {
        std::printf("telestation-sim %s\n", kVersion);
        return 0;
    }
    const auto quitAfterMs = cli.integer("quit-after", -1);
    if (!quitAfterMs) {
        std::fprintf(stderr, "telestation-sim: %s\n", quitAfterMs.error().message.c_str());
        return 2;
    }
    if (cli.isSet("scenario") && cli.isSet("dest")) {
        std::fprintf(stderr, "telestation-sim: give --scenario or --dest, not both\n");
        return 2;
    }
    const bool headless = cli.isSet("headless") || !displayAvailable();

    sim::Scenario scenario;
    if (cli.isSet("scenario")) {
        auto loaded = sim::loadScenarioFile(cli.value("scenario"));
        if (!loaded) {
            std::fprintf(stderr, "telestation-sim: %s\n", loaded.error().toString().c_str());
            return 2;
        }
        scenario = std::move(loaded).value();
        for (auto& stream : scenario.streams)
            if (auto limited = applyStopOptions(cli, stream); !limited) {
                std::fprintf(stderr, "telestation-sim: %s\n", limited.error().message.c_str());
                return 2;
            }
    } else if (cli.isSet("dest")) {
        auto fromOptions = scenarioFromOptions(cli);
        if (!fromOptions) {
            std::fprintf(stderr, "telestation-sim: %s\n", fromOptions.error().message.c_str());
            return 2;
        }
        scenario = std::move(fromOptions).value();
    } else if (headless) {
        std::fprintf(stderr, "telestation-sim: nothing to send: give --dest URL --rate RATE, or --scenario FILE (see --help)\n");
        return 2;
    }
    if (cli.isSet("mdb"))
        scenario.mdb = cli.value("mdb");

    // A database that cannot be read is a runtime error (1); a stream the database or the network
    // layer refuses (unknown packet, bad URL, bad generator) is a wrong argument (2).
    const std::string mdbPath = scenario.mdb.empty() ? trainingDatabasePath().string() : scenario.mdb;
    auto mission = config::loadMission(mdbPath);
    if (!mission.ok()) {
        std::fprintf(stderr, "telestation-sim: %s\n", mission.error().toString().c_str());
        return 1;
    }
    for (const auto& note : mission.notes())
        std::fprintf(stderr, "telestation-sim: %s\n", note.c_str());
    for (auto& stream : scenario.streams)
        if (stream.mix.empty() && !cli.isSet("scenario"))
            for (const auto& packet : mission.database->packets)
                stream.mix.push_back(sim::MixEntry{packet.name, 1});
    auto simulator = std::make_unique<sim::Simulator>(std::move(*mission.database), scenario.mdb);
    for (const auto& stream : scenario.streams)
        if (auto added = simulator->addStream(stream); !added) {
            std::fprintf(stderr, "telestation-sim: %s\n", added.error().toString().c_str());
            return 2;
        }
    if (headless)
        return runHeadless(*simulator, cli.value("summary-out"));

    QApplication app(argc, argv);
    QApplication::setApplicationName(QStringLiteral("Telestation training simulator"));
    sim::gui::SimMainWindow window(std::move(simulator), QString::fromStdString(trainingDatabasePath().string()));
    // Nothing asked for: a ready example rather than an empty window (stopped: nothing is sent unasked).
    // Not with --mdb: the example's packets are the training database's.
    if (!cli.isSet("scenario") && !cli.isSet("dest") && !cli.isSet("mdb"))
        if (const QString error = window.openExample(); !error.isEmpty())
            spdlog::warn("the example scenario {} could not be opened: {}", sim::gui::SimMainWindow::exampleScenarioPath().toStdString(),
                         error.toStdString());
    window.show();
    if (*quitAfterMs >= 0)
        ui::closeLater(window, static_cast<int>(*quitAfterMs), QString::fromStdString(cli.value("screenshot")));
    return QApplication::exec(); // the window stops its streams when it goes
}

} // namespace

int main(int argc, char** argv)
{
    return telestation::guardedMain("telestation-sim", [&] { return run(argc, argv); });
}
