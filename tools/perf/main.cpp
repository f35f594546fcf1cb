// telestation-perf: TReK Release 1's performance tests on this machine, side by side with TReK's
// figures, and TReK's endurance run for any duration. See docs/PERFORMANCE.md.
//
//   telestation-perf [--tests 1,2,...] [--seconds S] [--quick] [--out DIR] ...   the eight tests
//   telestation-perf --consumer external|external-python [--tests 1,5] ...       with API clients as consumers
//   telestation-perf endurance --duration 2m [--out DIR] ...                     the endurance run
//   telestation-perf endurance --duration 2h --demo-streams 10Mbps --gui-last 1h  issue 17's long run
//   telestation-perf limits [--rate MBPS] [--rounds N] [--wait-idle LOAD] ...   limit transitions (issue 14)
//   telestation-perf agent --listen ADDRESS:PORT                                 runs stations for a
//       telestation-perf on another machine given --station HOST:PORT
#include "core/common/command_line.hpp"
#include "core/common/guarded_main.hpp"
#include "core/common/paths.hpp"
#include "core/common/time_text.hpp"
#include "core/mdb/sqlite_store.hpp"
#include "sim/engine/rate.hpp"
#include "tools/perf/perf_external_consumers.hpp"
#include "tools/perf/perf_gui_station.hpp"
#include "tools/perf/perf_report.hpp"
#include "tools/perf/perf_station_host.hpp"

#include <QGuiApplication>

#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>

using namespace telestation;
using namespace telestation::perf;
namespace fs = std::filesystem;

namespace {

constexpr const char* kProgram = "telestation-perf";
constexpr int kExitFailed = 3; // a test found no loss-free rate, the endurance run failed, limits not met

// The local time as "2026-11-25 09:10" for reports, or "20261125-091000" for directory names.
std::string now(bool forFileName = false)
{
    const std::time_t t = std::time(nullptr);
    char text[64];
    if (forFileName)
        std::strftime(text, sizeof text, "%Y%m%d-%H%M%S", std::localtime(&t));
    else
        std::strftime(text, sizeof text, "%Y-%m-%d %H:%M", std::localtime(&t));
    return text;
}

std::string commandText(int argc, char** argv, const char* command = nullptr)
{
    std::string out = kProgram;
    if (command)
        out += std::string(" ") + command;
    for (int i = 1; i < argc; ++i)
        out += std::string(" ") + argv[i];
    return out;
}

// "90", "90s", "2m", "1.5h", "1d" in seconds.
std::optional<double> parseDuration(std::string text)
{
    double unit = 1;
    if (!text.empty()) {
        switch (text.back()) {
        case 's': unit = 1; text.pop_back(); break;
        case 'm': unit = 60; text.pop_back(); break;
        case 'h': unit = 3600; text.pop_back(); break;
        case 'd': unit = 86400; text.pop_back(); break;
        default: break;
        }
    }
    const auto value = text::parsePlainDecimal(text);
    if (!value || *value <= 0)
        return std::nullopt;
    return *value * unit;
}

// "10Mbps", "500kbps", "2.5" (Mbit/s) in Mbit/s.
std::optional<double> parseMegabits(const std::string& text)
{
    if (const auto plain = text::parsePlainDecimal(text))
        return *plain > 0 ? std::optional(*plain) : std::nullopt;
    const auto rate = sim::parseRate(text);
    if (!rate || rate->unit != sim::Rate::Unit::BitsPerSecond)
        return std::nullopt;
    return rate->value / 1e6;
}

// Options both commands take.
void addCommonOptions(CommandLine& cli)
{
    cli.addFlag("help", "Show this help.");
    cli.addOption("out", "DIR", "Where the results go (Markdown, JSON, PNG); default ./telestation-perf-DATE.");
    cli.addOption("bin-dir", "DIR", "Where telestation and telestation-sim are; default: this program's directory.");
    cli.addOption("record-dir", "DIR", "Where the station records (a subdirectory per run, removed after it); default: the work directory under /tmp.");
    cli.addOption("mdb", "FILE", "Mission database; default: the training database.");
    cli.addFlag("keep", "Keep each run's directory (profiles, summaries, logs, recordings) for a look afterwards.");
    cli.addOption("station", "HOST:PORT", "Measure a station on another machine, run there by 'telestation-perf agent "
                                          "--listen ADDRESS:PORT' (default: a station on this machine, over loopback).");
}

// The station's host: this machine, or an agent's.
std::unique_ptr<StationHost> makeHost(const CommandLine& cli, const RunOptions& run)
{
    if (!cli.isSet("station"))
        return std::make_unique<LocalStationHost>(run);
    std::string error;
    auto remote = RemoteStationHost::connect(cli.value("station"), error);
    if (!remote)
        std::fprintf(stderr, "%s: %s\n", kProgram, error.c_str());
    return remote;
}

struct Common {
    RunOptions run;
    fs::path out;
};

// Reads the common options; exit code 0 to go on.
int setUpCommon(const CommandLine& cli, Common& c, bool driver = true)
{
    c.run.binDir = cli.isSet("bin-dir") ? fs::path(cli.value("bin-dir")) : executableDir();
    c.run.mdb = cli.value("mdb", "");
    c.run.keep = cli.isSet("keep");
    for (const char* program : {"telestation", "telestation-sim"})
        if ((driver || std::strcmp(program, "telestation") == 0) && ::access((c.run.binDir / program).c_str(), X_OK) != 0) {
            std::fprintf(stderr, "%s: no %s in %s (see --bin-dir)\n", kProgram, program, c.run.binDir.c_str());
            return 1;
        }
    const std::string mdbPath = c.run.mdb.empty() ? trainingDatabasePath().string() : c.run.mdb;
    auto db = mdb::loadDatabase(mdbPath);
    if (!db) {
        std::fprintf(stderr, "%s: %s\n", kProgram, db.error().toString().c_str());
        return 1;
    }
    const mdb::PacketDef* packet = db->findPacket(c.run.packetName);
    if (!packet) {
        std::fprintf(stderr, "%s: no packet %s in %s\n", kProgram, c.run.packetName.c_str(), mdbPath.c_str());
        return 1;
    }
    c.run.apid = packet->apid;
    c.run.parametersPerPacket = static_cast<std::uint32_t>(packet->parameters.size());
    char pattern[] = "/tmp/telestation-perf-XXXXXX";
    if (!::mkdtemp(pattern)) {
        std::fprintf(stderr, "%s: mkdtemp: %s\n", kProgram, std::strerror(errno));
        return 1;
    }
    c.run.workDir = pattern;
    c.run.recordDir = cli.isSet("record-dir") ? fs::path(cli.value("record-dir")) : c.run.workDir;
    c.out = cli.isSet("out") ? fs::path(cli.value("out")) : fs::current_path() / ("telestation-perf-" + now(true));
    std::error_code ec;
    fs::create_directories(c.run.recordDir, ec);
    if (!ec && driver)
        fs::create_directories(c.out, ec);
    if (ec) {
        std::fprintf(stderr, "%s: %s\n", kProgram, ec.message().c_str());
        return 1;
    }
    return 0;
}

void cleanUp(const Common& c)
{
    std::error_code ec;
    if (c.run.keep)
        std::printf("kept: %s\n", c.run.workDir.c_str());
    else
        fs::remove_all(c.run.workDir, ec);
}

bool save(const fs::path& path, const std::string& text)
{
    if (writeFile(path, text))
        return true;
    std::fprintf(stderr, "%s: cannot write %s\n", kProgram, path.c_str());
    return false;
}

int runEnduranceCommand(int argc, char** argv)
{
    CommandLine cli(std::string(kProgram) + " endurance",
                    "TReK's endurance run: 1 Mbit/s processed + 10 kbit/s processed, recorded and forwarded, for any "
                    "duration; passes with no loss and resident memory growing < 5% after the warm-up.");
    addCommonOptions(cli);
    cli.addOption("duration", "D", "How long: 90s, 2m, 1h, 23d (default 2m).");
    cli.addOption("warmup", "D", "Warm-up before memory is compared (default 10% of the duration, 10 s .. 10 min).");
    cli.addOption("sample", "D", "Memory and CPU sampling interval (default duration/240, 1 s .. 60 s).");
    cli.addOption("max-growth", "PERCENT", "Allowed resident memory growth after the warm-up (default 5).");
    cli.addOption("demo-streams", "RATE", "Add the demo scenario's fault-free streams (health, tcp-mix), scaled to send "
                                          "RATE together (10Mbps, 500kbps; a plain number is Mbit/s).");
    cli.addOption("gui-last", "D", "Run the station as the GUI workstation on $DISPLAY and open the demo's displays (and "
                                   "TReK's value display) for the last D of the run; needs --demo-streams.");
    cli.addOption("gui-warmup", "D", "The GUI period's warm-up before its memory is compared (default a quarter of "
                                     "--gui-last, 30 s .. 15 min).");
    cli.addOption("max-gui-growth", "PERCENT", "Allowed resident memory growth in the GUI period after its warm-up (default 5).");
    if (const auto exit = cli.parseOrExit(argc, argv))
        return *exit;
    EnduranceOptions options;
    for (const auto& [name, target] : {std::pair<const char*, double*>{"duration", &options.durationSeconds},
                                       {"warmup", &options.warmupSeconds}, {"sample", &options.sampleSeconds},
                                       {"gui-last", &options.guiLastSeconds}, {"gui-warmup", &options.guiWarmupSeconds}}) {
        if (!cli.isSet(name))
            continue;
        const auto d = parseDuration(cli.value(name));
        if (!d) {
            std::fprintf(stderr, "%s: --%s takes a duration such as 90s, 2m or 1h, not '%s'\n", kProgram, name,
                         cli.value(name).c_str());
            return 2;
        }
        *target = *d;
    }
    const auto growth = cli.number("max-growth", 5);
    if (!growth || *growth <= 0) {
        std::fprintf(stderr, "%s: --max-growth takes a percentage above zero\n", kProgram);
        return 2;
    }
    options.maxRssGrowthPercent = *growth;
    const auto guiGrowth = cli.number("max-gui-growth", 5);
    if (!guiGrowth || *guiGrowth <= 0) {
        std::fprintf(stderr, "%s: --max-gui-growth takes a percentage above zero\n", kProgram);
        return 2;
    }
    options.maxGuiGrowthPercent = *guiGrowth;
    if (cli.isSet("demo-streams")) {
        const auto mbps = parseMegabits(cli.value("demo-streams"));
        if (!mbps) {
            std::fprintf(stderr, "%s: --demo-streams takes a rate such as 10Mbps or 500kbps, not '%s'\n", kProgram,
                         cli.value("demo-streams").c_str());
            return 2;
        }
        options.demoStreamsMbps = *mbps;
    }
    if (const auto e = checkEnduranceOptions(options); !e.empty()) {
        std::fprintf(stderr, "%s: %s\n", kProgram, e.c_str());
        return 2;
    }
    const bool gui = options.guiLastSeconds > 0;
    if (gui && cli.isSet("station")) {
        std::fprintf(stderr, "%s: --gui-last runs the GUI station on this machine; leave out --station\n", kProgram);
        return 2;
    }
    if (const auto e = gui ? guiUnavailable() : std::string(); !e.empty()) {
        std::fprintf(stderr, "%s: --gui-last: %s\n", kProgram, e.c_str());
        return 2;
    }
    Common common;
    if (const int rc = setUpCommon(cli, common); rc != 0)
        return rc;
    options.run = common.run;

    const std::string date = now();
    std::printf("%s endurance %s — %s\nduration %s s; results in %s\n\n", kProgram, date.c_str(), machineText().c_str(),
                rateNumber(options.durationSeconds).c_str(), common.out.c_str());
    std::printf("%10s %12s %10s %12s\n", "seconds", "RSS MiB", "CPU %", "received");
    std::fflush(stdout);
    GuiPlan plan;
    plan.displayFile = common.run.workDir / "endurance" / "gui-displays.json"; // written by runEndurance
    plan.displaysAfterSeconds = options.durationSeconds - options.guiLastSeconds;
    const std::unique_ptr<StationHost> host = gui ? std::make_unique<GuiStationHost>(common.run, plan) : makeHost(cli, common.run);
    if (!host) {
        cleanUp(common);
        return 1;
    }
    EnduranceResult result;
    const std::string error = runEndurance(options, *host, result, [](const EnduranceSample& s) {
        std::printf("%10.0f %12.1f %10.1f %12llu\n", s.seconds, double(s.rssBytes) / (1024.0 * 1024.0), s.cpuPercent,
                    static_cast<unsigned long long>(s.received));
        std::fflush(stdout);
    });
    if (!error.empty()) {
        std::fprintf(stderr, "%s: %s\n", kProgram, error.c_str());
        cleanUp(common);
        return 1;
    }
    const std::string md = enduranceMarkdown(options, result, machineText() + "; " + kernelText(), date, commandText(argc, argv, "endurance"));
    std::printf("\n%s", md.c_str());
    const bool saved = save(common.out / "endurance.md", md)
        && save(common.out / "endurance.json", enduranceJson(options, result).dump(2) + "\n");
    cleanUp(common);
    if (!saved)
        return 1;
    return result.passed ? 0 : kExitFailed;
}

int runLimitsCommand(int argc, char** argv)
{
    CommandLine cli(std::string(kProgram) + " limits",
                    "What limit transitions cost the processing thread (issue 14): test 5's configuration at one rate, "
                    "twice per round — (a) every Packet5 parameter with limits kept within them, (b) each crossing its "
                    "yellow and red limits and back every second — with the processor thread's CPU time per million "
                    "packets, its rise from (a) to (b), loss and the events raised. Exit 0 when nothing was lost and "
                    "the median rise is under --max-rise, 3 when not.");
    addCommonOptions(cli);
    cli.addOption("rate", "MBPS", "Aggregate rate (default " + rateNumber(kLimitsDefaultMbps)
                                      + ": test 5's highest loss-free rate when issue 14 was measured; docs/PERFORMANCE.md).");
    cli.addOption("seconds", "S", "Sending time per run (default 25).");
    cli.addOption("rounds", "N", "Rounds of the two runs (default 3).");
    cli.addOption("period", "S", "Run (b) crosses the limits and comes back every S seconds (default 1).");
    cli.addOption("max-rise", "PERCENT", "The target for the median rise of the processor's CPU per packet (default 5).");
    cli.addOption("wait-idle", "LOAD", "Before each round wait until the 1-minute load average is at most LOAD and the "
                                       "machine was at most --idle-busy busy over 3 s (default: do not wait).");
    cli.addOption("idle-busy", "PERCENT", "With --wait-idle: the busy share of the machine's CPUs allowed (default 15).");
    cli.addOption("idle-timeout", "D", "With --wait-idle: go on anyway after this long (default 15m).");
    if (const auto exit = cli.parseOrExit(argc, argv))
        return *exit;
    LimitsOptions options;
    const auto rate = cli.number("rate", kLimitsDefaultMbps);
    const auto seconds = cli.number("seconds", 25);
    const auto rounds = cli.integer("rounds", 3);
    const auto period = cli.number("period", 1);
    const auto maxRise = cli.number("max-rise", 5);
    const auto idleLoad = cli.number("wait-idle", -1);
    const auto idleBusy = cli.number("idle-busy", 15);
    const auto idleTimeout = parseDuration(cli.value("idle-timeout", "15m"));
    if (!rate || !seconds || !rounds || !period || !maxRise || !idleLoad || !idleBusy || *rate <= 0 || *seconds <= 0
        || *rounds < 1 || *period <= 0 || (cli.isSet("wait-idle") && *idleLoad < 0) || *idleBusy <= 0) {
        std::fprintf(stderr, "%s limits: --rate, --seconds, --period, --wait-idle and --idle-busy take numbers above zero, "
                             "--rounds a whole number >= 1, --max-rise a number\n", kProgram);
        return 2;
    }
    if (!idleTimeout) {
        std::fprintf(stderr, "%s limits: --idle-timeout takes a duration such as 90s, 2m or 1h\n", kProgram);
        return 2;
    }
    options.mbps = *rate;
    options.rounds = static_cast<int>(*rounds);
    options.periodSeconds = *period;
    options.maxRisePercent = *maxRise;
    options.idleLoad = *idleLoad;
    options.idleBusyPercent = *idleBusy;
    options.idleTimeoutSeconds = *idleTimeout;
    Common common;
    if (const int rc = setUpCommon(cli, common); rc != 0)
        return rc;
    common.run.seconds = *seconds;
    options.run = common.run;

    LimitsReport report;
    report.options = options;
    report.date = now();
    report.machine = machineText();
    report.kernel = kernelText();
    report.command = commandText(argc, argv, "limits");
    std::string error;
    const auto tests = selectTests("process", error);
    if (!tests || tests->empty()) {
        std::fprintf(stderr, "%s limits: %s\n", kProgram, error.c_str());
        cleanUp(common);
        return 1;
    }
    report.test = tests->front();
    {
        auto db = mdb::loadDatabase(common.run.mdb.empty() ? trainingDatabasePath().string() : common.run.mdb);
        report.plan = planLimitExercise(*db->findPacket(common.run.packetName), options.periodSeconds); // checked by setUpCommon
    }
    std::printf("%s limits %s — %s; %s\nresults in %s\n%zu parameters of %s exercised", kProgram, report.date.c_str(),
                report.machine.c_str(), report.kernel.c_str(), common.out.c_str(), report.plan.exercised.size(),
                common.run.packetName.c_str());
    for (const auto& x : report.plan.excluded)
        std::printf("; not %s (%s)", x.parameter.c_str(), x.reason.c_str());
    std::printf("\n\n");
    std::fflush(stdout);
    const auto host = makeHost(cli, common.run);
    if (!host) {
        cleanUp(common);
        return 1;
    }
    error = runLimits(*host, report, [](const std::string& line) {
        std::printf("%s\n", line.c_str());
        std::fflush(stdout);
    });
    if (!error.empty()) {
        std::fprintf(stderr, "%s limits: %s\n", kProgram, error.c_str());
        cleanUp(common);
        return 1;
    }
    const std::string md = limitsMarkdown(report);
    std::printf("\n%s", md.c_str());
    const bool saved = save(common.out / "limits.md", md) && save(common.out / "limits.json", limitsJson(report).dump(2) + "\n")
        && save(common.out / "limits.csv", limitsCsv(report));
    std::printf("\nwritten: %s/limits.md, limits.json, limits.csv\n", common.out.c_str());
    cleanUp(common);
    if (!saved)
        return 1;
    return report.passed() ? 0 : kExitFailed;
}

int runSuiteCommand(int argc, char** argv)
{
    CommandLine cli(kProgram, "TReK Release 1's eight performance tests on this machine: for each, the highest aggregate "
                              "rate with 100% delivery, beside TReK's PC-933 figures and this machine's references. "
                              "'telestation-perf endurance --help' for the endurance run, 'telestation-perf limits --help' for "
                              "issue 14's limit transitions.");
    addCommonOptions(cli);
    cli.addOption("tests", "LIST", "Tests by number or name: 1-8, passthru, record, forward, record-forward, process, "
                                   "process-record-forward, passthru-record-forward, typical (default: all).");
    cli.addOption("seconds", "S", "Sending time per run (default 3; TReK ran 3 minutes).");
    cli.addOption("start", "MBPS", "First aggregate rate tried (default 250).");
    cli.addOption("max", "MBPS", "Highest aggregate rate tried (default 8000).");
    cli.addOption("min", "MBPS", "Lowest aggregate rate tried when the first one loses (default 2).");
    cli.addOption("refine", "N", "Bisection steps after the first lossy rate (default 2).");
    cli.addOption("retries", "N", "Runs again of a lossy rate before it counts as lossy (default 1).");
    cli.addOption("queues", "JSON", "The profile's queue sizes, e.g. '{\"recordPacketQueueSize\": 32768}'.");
    cli.addOption("consumer", "PLACE", "Where the tests' API consumers run: in-process (default: the station's own "
                                       "--consume), external (a C++ client of the station's user API per consumer, "
                                       "telestation-api-consumer) or external-python (perf_consumer.py in the build "
                                       "tree's python-venv); external ones need the station on this machine and "
                                       "default to tests 1 and 5.");
    cli.addFlag("no-reference", "Skip the machine's reference measurements (iperf3, disk write).");
    cli.addFlag("quick", "A smoke run: 1 s per run, 100 .. 400 Mbit/s, no bisection, no retries, no references.");
    if (const auto exit = cli.parseOrExit(argc, argv))
        return *exit;
    const bool quick = cli.isSet("quick");
    const auto consumer = parseConsumerPlace(cli.value("consumer", "in-process"));
    if (!consumer) {
        std::fprintf(stderr, "%s: --consumer takes in-process, external or external-python, not '%s'\n", kProgram,
                     cli.value("consumer").c_str());
        return 2;
    }
    const bool external = *consumer != ConsumerPlace::InProcess;
    if (external && cli.isSet("station")) {
        std::fprintf(stderr, "%s: --consumer %s needs the station on this machine (its clients reach the station's "
                             "API over loopback); leave out --station\n", kProgram, consumerPlaceName(*consumer));
        return 2;
    }
    std::string selectError;
    const auto tests = selectTests(cli.value("tests", external ? "1,5" : "all"), selectError);
    if (!tests) {
        std::fprintf(stderr, "%s: --tests: %s\n", kProgram, selectError.c_str());
        return 2;
    }
    if (external)
        for (const PerfTest* test : *tests)
            if (const auto e = externalConsumable(test->consume); !e.empty()) {
                std::fprintf(stderr, "%s: --consumer %s: test %d: %s\n", kProgram, consumerPlaceName(*consumer),
                             test->number, e.c_str());
                return 2;
            }
    const auto seconds = cli.number("seconds", quick ? 1 : 3);
    const auto start = cli.number("start", quick ? 100 : 250);
    const auto max = cli.number("max", quick ? 400 : 8000);
    const auto min = cli.number("min", 2);
    const auto refine = cli.integer("refine", quick ? 0 : 2);
    const auto retries = cli.integer("retries", quick ? 0 : 1);
    if (!seconds || !start || !max || !min || !refine || !retries || *seconds <= 0 || *min <= 0 || *start < *min
        || *max < *start || *refine < 0 || *retries < 0) {
        std::fprintf(stderr, "%s: --seconds, --min, --start and --max take numbers above zero (min <= start <= max), "
                             "--refine and --retries whole numbers >= 0\n", kProgram);
        return 2;
    }
    Common common;
    if (cli.isSet("queues")) {
        common.run.queues = Json::parse(cli.value("queues"), nullptr, false);
        if (common.run.queues.is_discarded() || !common.run.queues.is_object()) {
            std::fprintf(stderr, "%s: --queues needs a JSON object (see docs/station-profile.md)\n", kProgram);
            return 2;
        }
    }
    if (const int rc = setUpCommon(cli, common); rc != 0)
        return rc;
    common.run.seconds = *seconds;
    common.run.consumer = *consumer;
    if (external) {
        std::string error;
        if (consumerCommand(*consumer, common.run.binDir, error).empty()) {
            std::fprintf(stderr, "%s: --consumer %s: %s\n", kProgram, consumerPlaceName(*consumer), error.c_str());
            cleanUp(common);
            return 1;
        }
    }
    SearchOptions search;
    search.startMbps = *start;
    search.maxMbps = *max;
    search.minMbps = *min;
    search.refine = static_cast<int>(*refine);
    search.retries = static_cast<int>(*retries);

    SuiteReport report;
    report.date = now();
    report.machine = machineText();
    report.kernel = kernelText();
    report.command = commandText(argc, argv);
    report.secondsPerRun = *seconds;
    report.consumer = *consumer;
    report.recordFilesystem = filesystemOf(common.run.recordDir);
    std::printf("%s %s — %s; %s\nresults in %s; recordings in %s, %s\n\n", kProgram, report.date.c_str(),
                report.machine.c_str(), report.kernel.c_str(), common.out.c_str(), common.run.recordDir.c_str(),
                report.recordFilesystem.c_str());
    if (external)
        std::printf("API consumers: %s\n\n", consumerPlaceText(*consumer).c_str());
    std::fflush(stdout);

    const auto host = makeHost(cli, common.run);
    if (!host) {
        cleanUp(common);
        return 1;
    }
    if (!host->local())
        std::printf("station: on %s (telestation-perf agent); this machine is %s to it\n\n", cli.value("station").c_str(),
                    host->returnAddress().c_str());
    const bool references = !quick && !cli.isSet("no-reference");
    if (references) {
        std::printf("reference: iperf3 UDP loopback at 1288-byte datagrams ...\n");
        std::fflush(stdout);
        // The station receives with 64 MiB buffers (forced, as root); iperf3 gets what the kernel's
        // limits allow without forcing. `sysctl -w net.core.rmem_max=67108864 net.core.wmem_max=67108864`
        // gives it the same.
        UdpReferenceOptions udpOptions;
        udpOptions.socketBufferBytes = largestPlainSocketBuffer(udpOptions.socketBufferBytes);
        report.udp = measureUdpReference(udpOptions);
        std::printf("  %s\n", report.udp.available ? (grouped(report.udp.lossFreeMbps) + " Mbit/s loss-free").c_str()
                                                   : report.udp.reason.c_str());
        std::printf("reference: sequential write to the recording directory%s ...\n", host->local() ? "" : " (on the station's machine)");
        std::fflush(stdout);
        report.disk = host->measureDisk();
        std::printf("  %s\n\n", report.disk.ok ? (grouped(report.disk.megabytesPerSecond) + " MB/s").c_str() : report.disk.error.c_str());
    } else {
        report.udp.reason = "skipped (--quick or --no-reference)";
        report.disk.error = "skipped (--quick or --no-reference)";
    }

    int rc = 0;
    for (const PerfTest* test : *tests) {
        std::printf("test %d, %s (%zu streams)\n", test->number, test->title.c_str(), test->streams.size());
        std::fflush(stdout);
        SearchResult r = searchHighestRate(common.run, *host, search, *test, [](const RunResult& run) {
            std::printf("  %7s Mbit/s asked %9.1f Mbit/s %9.0f packets/s", rateNumber(run.askedMbps).c_str(), run.mbps,
                        run.packetsPerSecond);
            if (run.test->processes())
                std::printf(" %7.2f M parameters/s retrieved", run.retrievedPerSecond() / 1e6);
            std::printf("  station CPU %3.0f%%  sim CPU %3.0f%%", run.stationCpuPercent(), run.simCpuPercent());
            if (!run.clientCpu.empty())
                std::printf("  client CPU %3.0f%% (station's API threads %.0f%%)", run.clientCpuPercent(), run.apiCpuPercent());
            std::printf("  %s\n", run.ok ? "100% delivered" : "LOSS");
            if (!run.ok)
                std::printf("      sent %llu: %s\n", static_cast<unsigned long long>(run.sent), run.failure.c_str());
            std::printf("      %s; other programs' CPU %.0f%%\n", run.note.c_str(), run.otherCpuPercent);
            std::fflush(stdout);
        });
        if (!r.error.empty()) {
            std::fprintf(stderr, "%s: test %d: %s\n", kProgram, test->number, r.error.c_str());
            rc = 1;
        } else if (!r.best) {
            rc = rc == 0 ? kExitFailed : rc;
        }
        report.results.push_back(std::move(r));
    }

    const std::string md = suiteMarkdown(report);
    std::printf("\n%s", md.c_str());
    bool saved = save(common.out / "results.md", md) && save(common.out / "results.json", suiteJson(report).dump(2) + "\n");
    {
        if (qEnvironmentVariableIsEmpty("DISPLAY") && qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM"))
            qputenv("QT_QPA_PLATFORM", "offscreen");
        int qtArgc = 1;
        char* qtArgv[] = {argv[0], nullptr};
        QGuiApplication app(qtArgc, qtArgv);
        ChartOptions chart;
        chart.title = "Telestation vs TReK Release 1: highest rate with 100% delivery";
        chart.subtitle = report.machine + " — " + report.date;
        if (const auto e = renderComparisonChart(chartRows(report), chart, (common.out / "results.png").string()); !e.empty()) {
            std::fprintf(stderr, "%s: chart: %s\n", kProgram, e.c_str());
            saved = false;
        }
    }
    std::printf("\nwritten: %s/results.md, results.json, results.png\n", common.out.c_str());
    cleanUp(common);
    return saved ? rc : 1;
}

int runAgentCommand(int argc, char** argv)
{
    CommandLine cli(std::string(kProgram) + " agent",
                    "Runs headless stations for a telestation-perf on another machine (--station HOST:PORT there): "
                    "serves one connection after another until SIGINT or SIGTERM.");
    cli.addFlag("help", "Show this help.");
    cli.addOption("listen", "ADDRESS:PORT", "Where to listen, e.g. 0.0.0.0:7788 (default 127.0.0.1:7788). The stations "
                                            "receive on the same address.");
    cli.addOption("bin-dir", "DIR", "Where telestation is; default: this program's directory.");
    cli.addOption("record-dir", "DIR", "Where the stations record (a subdirectory per run, removed after it); default under /tmp.");
    cli.addOption("mdb", "FILE", "Mission database; default: the training database.");
    cli.addFlag("keep", "Keep each run's directory.");
    cli.addOption("connections", "N", "Stop after N connections (default: serve until stopped).", true);
    if (const auto exit = cli.parseOrExit(argc, argv))
        return *exit;
    const auto connections = cli.integer("connections", 0);
    if (!connections || *connections < 0) {
        std::fprintf(stderr, "%s: --connections takes a whole number >= 0\n", kProgram);
        return 2;
    }
    Common common;
    if (const int rc = setUpCommon(cli, common, false); rc != 0)
        return rc;
    const int rc = runAgent(common.run, cli.value("listen", "127.0.0.1:7788"), static_cast<int>(*connections));
    cleanUp(common);
    return rc;
}

// main()'s body (guardedMain runs it).
int run(int argc, char** argv)
{
    if (argc > 1 && std::strcmp(argv[1], "endurance") == 0)
        return runEnduranceCommand(argc - 1, argv + 1);
    if (argc > 1 && std::strcmp(argv[1], "agent") == 0)
        return runAgentCommand(argc - 1, argv + 1);
    if (argc > 1 && std::strcmp(argv[1], "limits") == 0)
        return runLimitsCommand(argc - 1, argv + 1);
    return runSuiteCommand(argc, argv);
}

} // namespace

int main(int argc, char** argv)
{
    return telestation::guardedMain("telestation-perf", [&] { return run(argc, argv); });
}
