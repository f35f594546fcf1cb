#include "sim/link_command.hpp"

#include "core/common/command_line.hpp"
#include "core/common/paths.hpp"
#include "core/config/mission_file.hpp"
#include "core/link/control_channel.hpp"
#include "core/link/controller.hpp"
#include "core/link/responder.hpp"
#include "sim/engine/link_telemetry.hpp"
#include "sim/engine/rate.hpp"
#include "sim/gui/link_plots.hpp"

#include <QApplication>

#include <spdlog/spdlog.h>

#include <algorithm>
#include <atomic>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <thread>

namespace telestation::sim {

namespace {

std::atomic<bool> g_linkStop{false};

extern "C" void onLinkStopSignal(int)
{
    g_linkStop.store(true);
}

// "4,128,1024" → numbers in [minimum, maximum]; the error names the option.
template <typename T>
Result<std::vector<T>> numberList(const CommandLine& cli, const std::string& option, double minimum, double maximum, double scale = 1)
{
    std::vector<T> out;
    for (const std::string& part : cli.list(option)) {
        char* end = nullptr;
        const double value = std::strtod(part.c_str(), &end);
        if (part.empty() || *end != '\0' || !(value >= minimum && value <= maximum))
            return Error{"--" + option + ": '" + part + "' is not a number " + std::to_string(std::llround(minimum)) + ".."
                             + std::to_string(std::llround(maximum)),
                         {}};
        out.push_back(static_cast<T>(std::llround(value * scale)));
    }
    if (out.empty())
        return Error{"--" + option + " needs at least one value", {}};
    return out;
}

std::string commandText(int argc, char** argv)
{
    std::string text = "telestation-sim";
    for (int i = 1; i < argc; ++i)
        text += std::string(" ") + argv[i];
    return text;
}

Result<std::shared_ptr<const mdb::MissionDatabase>> loadMissionFor(const CommandLine& cli)
{
    const std::string path = cli.isSet("mdb") ? cli.value("mdb") : trainingDatabasePath().string();
    auto mission = config::loadMission(path);
    if (!mission.ok())
        return mission.error();
    return std::shared_ptr<const mdb::MissionDatabase>(std::make_shared<mdb::MissionDatabase>(std::move(*mission.database)));
}

int respond(const CommandLine& cli)
{
    auto mission = loadMissionFor(cli);
    if (!mission) {
        std::fprintf(stderr, "telestation-sim link: %s\n", mission.error().toString().c_str());
        return 1;
    }
    link::ResponderOptions options;
    options.listen = cli.value("respond");
    options.allow = cli.list("allow");
    options.mission = *mission;
    options.once = cli.isSet("once");
    auto responder = link::Responder::start(options);
    if (!responder) {
        std::fprintf(stderr, "telestation-sim link: %s\n", responder.error().message.c_str());
        return 1;
    }
    std::fprintf(stderr, "telestation-sim link: responder listening on %s\n", (*responder)->address().c_str());
    std::signal(SIGINT, onLinkStopSignal);
    std::signal(SIGTERM, onLinkStopSignal);
    while (!g_linkStop.load() && !(*responder)->finished())
        std::this_thread::sleep_for(std::chrono::milliseconds(50));
    (*responder)->stop();
    const auto counts = (*responder)->counts();
    std::fprintf(stderr, "telestation-sim link: responder stopped: %llu test(s), %llu phase(s), %llu connection(s) refused\n",
                 static_cast<unsigned long long>(counts.sessions), static_cast<unsigned long long>(counts.phases),
                 static_cast<unsigned long long>(counts.refused));
    return 0;
}

// The grids of the options, shortened by --quick (link::quickGrids), then each as given.
Status applyGrids(const CommandLine& cli, link::ControllerOptions& o)
{
    if (cli.isSet("quick"))
        link::quickGrids(o);
    if (cli.isSet("seconds")) {
        const auto s = cli.number("seconds", 2);
        if (!s || *s < 0.1 || *s > 600)
            return Error{"--seconds needs a number of seconds 0.1..600", {}};
        const auto ms = std::chrono::milliseconds(std::llround(*s * 1000));
        o.messageTime = o.blockTime = o.telemetryTime = ms;
        o.flowsTime = ms * 5 / 2;
    }
    if (cli.isSet("sizes")) {
        auto v = numberList<std::uint32_t>(cli, "sizes", 1, 16 << 20);
        if (!v)
            return v.error();
        o.messageSizes = *v;
    }
    if (cli.isSet("udp-sizes")) {
        auto v = numberList<std::uint32_t>(cli, "udp-sizes", 4, link::kMaxUdpPayload);
        if (!v)
            return v.error();
        o.udpSizes = *v;
    }
    if (cli.isSet("gaps")) {
        auto v = numberList<std::int64_t>(cli, "gaps", 0, 1e6, 1000); // µs → ns
        if (!v)
            return v.error();
        o.udpGapsNs = *v;
    }
    if (cli.isSet("flows")) {
        auto v = numberList<std::uint32_t>(cli, "flows", 1, link::kMaxFlows);
        if (!v)
            return v.error();
        o.flowCounts = *v;
    }
    if (cli.isSet("blocks")) {
        auto v = numberList<std::uint32_t>(cli, "blocks", 1, 16 << 20);
        if (!v)
            return v.error();
        o.blockSizes = *v;
    }
    if (cli.isSet("udp-count")) {
        const auto n = cli.integer("udp-count", 1000);
        if (!n || *n < 1 || *n > 10'000'000)
            return Error{"--udp-count needs a whole number 1..10000000", {}};
        o.udpCount = static_cast<std::uint64_t>(*n);
    }
    if (cli.isSet("window")) {
        const auto n = cli.integer("window", 4 << 20);
        if (!n || *n < 4096 || *n > (1 << 30))
            return Error{"--window needs a number of bytes 4096..1073741824", {}};
        o.totalWindowBytes = static_cast<std::uint32_t>(*n);
    }
    return {};
}

// The link's speed: given (--link-rate), else what the interface towards the responder reports.
Result<link::WireModel> wireFor(const CommandLine& cli, const std::string& responder)
{
    link::WireModel wire;
    if (cli.isSet("link-rate")) {
        auto rate = parseRate(cli.value("link-rate"));
        if (!rate || rate->unit != Rate::Unit::BitsPerSecond)
            return Error{"--link-rate needs a bit rate such as 100Mbps or 1Gbps", {}};
        wire.bitsPerSecond = rate->value;
        wire.source = "given";
    } else {
        wire = link::wireTowards(responder);
    }
    if (cli.isSet("mtu")) {
        const auto mtu = cli.integer("mtu", 1500);
        if (!mtu || *mtu < 576 || *mtu > 65535)
            return Error{"--mtu needs a number of bytes 576..65535", {}};
        wire.mtu = static_cast<std::uint32_t>(*mtu);
    }
    if (cli.isSet("frame-overhead")) {
        const auto bytes = cli.integer("frame-overhead", 38);
        if (!bytes || *bytes < 0 || *bytes > 1000)
            return Error{"--frame-overhead needs a number of bytes 0..1000", {}};
        wire.frameOverheadBytes = static_cast<std::uint32_t>(*bytes);
        wire.minimumFrameBytes = 46 + wire.frameOverheadBytes;
    }
    return wire;
}

// The report's files (gui::writeLinkReport: the same as the link test window's Save report…).
Status writeReport(const link::LinkReport& report, const std::string& directory, int argc, char** argv)
{
    // The plots are Qwt widgets rendered to images: they need a QApplication (a QGuiApplication
    // aborts at the first widget), but no display.
    if (!std::getenv("QT_QPA_PLATFORM"))
        ::setenv("QT_QPA_PLATFORM", "offscreen", 1);
    QApplication app(argc, argv);
    auto written = gui::writeLinkReport(report, directory);
    if (!written)
        return written.error();
    return {};
}

int control(const CommandLine& cli, int argc, char** argv)
{
    link::ControllerOptions options;
    options.responder = cli.value("to");
    options.command = commandText(argc, argv);
    auto tests = link::parseTestList(cli.value("tests", "all"));
    if (!tests) {
        std::fprintf(stderr, "telestation-sim link: --tests: %s\n", tests.error().message.c_str());
        return 2;
    }
    options.tests = *tests;
    if (auto grids = applyGrids(cli, options); !grids) {
        std::fprintf(stderr, "telestation-sim link: %s\n", grids.error().message.c_str());
        return 2;
    }
    if (auto target = link::parseHostPort(options.responder, false); !target) {
        std::fprintf(stderr, "telestation-sim link: --to: %s\n", target.error().message.c_str());
        return 2;
    }
    auto wire = wireFor(cli, options.responder);
    if (!wire) {
        std::fprintf(stderr, "telestation-sim link: %s\n", wire.error().message.c_str());
        return 2;
    }
    options.wire = *wire;
    options.packet = cli.value("packet", "Packet5");
    std::shared_ptr<const mdb::MissionDatabase> mission;
    std::unique_ptr<LinkTelemetrySender> sender;
    if (std::find(options.tests.begin(), options.tests.end(), link::TestKind::Telemetry) != options.tests.end()) {
        auto loaded = loadMissionFor(cli);
        if (!loaded) {
            std::fprintf(stderr, "telestation-sim link: %s\n", loaded.error().toString().c_str());
            return 1;
        }
        mission = *loaded;
        sender = std::make_unique<LinkTelemetrySender>(*mission);
        options.telemetry = sender.get();
    }
    std::signal(SIGINT, onLinkStopSignal);
    std::signal(SIGTERM, onLinkStopSignal);
    options.cancel = &g_linkStop;
    options.progress = [](const link::LinkReport&, const std::string& line) { std::fprintf(stderr, "telestation-sim link: %s\n", line.c_str()); };
    auto report = link::runLinkTest(options);
    if (!report) {
        std::fprintf(stderr, "telestation-sim link: %s\n", report.error().message.c_str());
        return 1;
    }
    std::fputs(link::toMarkdown(*report).c_str(), stdout);
    std::fflush(stdout);
    if (cli.isSet("out"))
        if (auto written = writeReport(*report, cli.value("out"), argc, argv); !written) {
            std::fprintf(stderr, "telestation-sim link: %s\n", written.error().message.c_str());
            return 1;
        }
    return report->failures.empty() ? 0 : 1;
}

} // namespace

int runLinkCommand(int argc, char** argv)
{
    // The subcommand's own options: argv[1] ("link") is skipped by giving the parser argv + 1.
    CommandLine cli("telestation-sim link",
                    "Link test between this PC and a responder (a station or another simulator): message rate vs size, UDP size × gap, "
                    "TCP parallel flows, block sizes, telemetry through the station. See docs/link-test.md.");
    cli.addFlag("help", "Show this help and exit.");
    cli.addOption("respond", "ADDR:PORT", "Be the responder: listen for a controller on ADDR:PORT.");
    cli.addOption("allow", "ADDR,...", "Responder: controller addresses allowed besides loopback.");
    cli.addFlag("once", "Responder: stop after the first test.");
    cli.addOption("to", "HOST:PORT", "Be the controller: run the tests against the responder at HOST:PORT.");
    cli.addOption("tests", "LIST", "msgrate, udpmon, flows, blocks, telemetry (comma-separated), or all (default).");
    cli.addOption("link-rate", "RATE", "The link's speed for the limits (100Mbps, 1Gbps); default: what the interface reports.");
    cli.addOption("mtu", "BYTES", "The link's MTU (default: the interface's, else 1500).");
    cli.addOption("frame-overhead", "BYTES", "Bytes per frame besides the IP packet: 38 on Ethernet (default), 14 under tc tbf.");
    cli.addOption("seconds", "S", "Each phase's sending time (default 2; the flows test 2.5 times that).");
    cli.addFlag("quick", "Fewer sizes, gaps and flows, and 0.5-s phases: a first look in under a minute.");
    cli.addOption("sizes", "LIST", "Message rate: message sizes in bytes.");
    cli.addOption("udp-sizes", "LIST", "UDP grid: datagram sizes in bytes.");
    cli.addOption("gaps", "LIST", "UDP grid: requested inter-packet gaps in microseconds.");
    cli.addOption("udp-count", "N", "UDP grid: packets per size and gap (default 1000).");
    cli.addOption("flows", "LIST", "Parallel flows: numbers of TCP flows (default 1,2,4,8,16).");
    cli.addOption("window", "BYTES", "Parallel flows: the total window shared by the flows (default 4194304).");
    cli.addOption("blocks", "LIST", "Block sweep: bytes per write.");
    cli.addOption("packet", "NAME", "Telemetry: the packet type sent (default Packet5).");
    cli.addOption("mdb", "FILE", "Mission database for the telemetry test (default: the training database).");
    cli.addOption("out", "DIR", "Write link-report.md, link-report.json, a CSV and a PNG plot per test into DIR.");
    if (const auto parsed = cli.parse(argc - 1, argv + 1); !parsed) {
        std::fprintf(stderr, "telestation-sim link: %s\n", parsed.error().message.c_str());
        return 2;
    }
    if (cli.isSet("help")) {
        std::fputs(cli.helpText().c_str(), stdout);
        return 0;
    }
    if (cli.isSet("respond") == cli.isSet("to")) {
        std::fprintf(stderr, "telestation-sim link: give --respond ADDR:PORT (this end answers) or --to HOST:PORT (this end tests), one of them\n");
        return 2;
    }
    return cli.isSet("respond") ? respond(cli) : control(cli, argc, argv);
}

} // namespace telestation::sim
