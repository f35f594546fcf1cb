#include "tools/perf/perf_endurance.hpp"

#include "core/common/paths.hpp"
#include "core/mdb/sqlite_store.hpp"
#include "sim/engine/sim_summary.hpp"
#include "tools/perf/perf_demo_streams.hpp"
#include "tools/perf/perf_snapshot.hpp"
#include "tools/perf/perf_station_host.hpp"

#include <signal.h>

#include <algorithm>
#include <cmath>
#include <cerrno>
#include <cstring>

namespace telestation::perf {

namespace fs = std::filesystem;

namespace {

constexpr const char* kRealtime = "realtime"; // 100 packets/s, processed entirely
constexpr const char* kLowRate = "lowrate";   // 1 packet/s, processed entirely, recorded and forwarded
constexpr std::size_t kTrekValues = 72;       // TReK's value display

double resolved(double value, double fallback, double low, double high)
{
    return value >= 0 ? value : std::clamp(fallback, low, high);
}

void addFailure(std::string& failures, const std::string& what)
{
    failures += (failures.empty() ? "" : ", ") + what;
}

// Each packet definition's parameter count, for those whose every parameter is in every packet (no
// condition, a fixed size): what a packet processed entirely must decode.
std::map<std::string, std::uint32_t> fixedParameterCounts(const mdb::MissionDatabase& db)
{
    std::map<std::string, std::uint32_t> counts;
    for (const auto& packet : db.packets)
        if (std::all_of(packet.parameters.begin(), packet.parameters.end(),
                        [](const mdb::ParameterDef& p) { return p.includeWhen.empty() && p.bitLength != 0; }))
            counts[packet.name] = static_cast<std::uint32_t>(packet.parameters.size());
    return counts;
}

// The memory verdict of one period, added to `failures`.
void judgeMemory(const MemoryPeriod& m, double limitPercent, const char* period, std::string& failures)
{
    if (!m.measured)
        addFailure(failures, std::string("too few memory samples after the warm-up") + period);
    else if (m.growthPercent >= limitPercent)
        addFailure(failures, "resident memory grew " + rateNumber(m.growthPercent) + "% after the warm-up" + period
                                 + " (limit " + rateNumber(limitPercent) + "%)");
}

} // namespace

double guiWarmupSeconds(const EnduranceOptions& options)
{
    return resolved(options.guiWarmupSeconds, options.guiLastSeconds * 0.25, 30, 900);
}

std::string checkEnduranceOptions(const EnduranceOptions& options)
{
    const double duration = options.durationSeconds;
    const double warmup = resolved(options.warmupSeconds, duration * 0.1, 10, 600);
    if (warmup >= duration)
        return "the warm-up (" + rateNumber(warmup) + " s) must be shorter than the duration";
    if (options.guiLastSeconds <= 0)
        return {};
    if (options.demoStreamsMbps <= 0)
        return "--gui-last opens the demo's displays, which show the demo's streams: give --demo-streams too";
    if (duration - options.guiLastSeconds < warmup)
        return "--gui-last (" + rateNumber(options.guiLastSeconds) + " s) must leave the warm-up (" + rateNumber(warmup)
            + " s) before it: the memory is judged before the displays open";
    if (guiWarmupSeconds(options) >= options.guiLastSeconds)
        return "the GUI period's warm-up (" + rateNumber(guiWarmupSeconds(options)) + " s) must be shorter than --gui-last";
    return {};
}

std::string runEndurance(const EnduranceOptions& options, StationHost& host, EnduranceResult& out,
                         const std::function<void(const EnduranceSample&)>& onSample)
{
    out = EnduranceResult{};
    const double duration = options.durationSeconds;
    out.warmupSeconds = resolved(options.warmupSeconds, duration * 0.1, 10, 600);
    const double sampleEvery = resolved(options.sampleSeconds, duration / 240, 1, 60);
    if (auto e = checkEnduranceOptions(options); !e.empty())
        return e;
    const bool gui = options.guiLastSeconds > 0;

    const RunOptions& run = options.run;
    const fs::path dir = run.workDir / "endurance";
    if (auto e = freshDirectory(dir); !e.empty())
        return e;
    auto db = mdb::loadDatabase(run.mdb.empty() ? trainingDatabasePath().string() : run.mdb);
    if (!db)
        return db.error().toString();
    DemoStreams demo;
    if (options.demoStreamsMbps > 0)
        if (auto e = loadDemoStreams(dataDir(), run.mdb, options.demoStreamsMbps, demo); !e.empty())
            return e;
    if (gui) {
        std::vector<std::string> names;
        for (const auto& p : db->findPacket(run.packetName)->parameters)
            names.push_back(run.packetName + "." + p.name);
        std::string error;
        const Json displays = guiDisplays(demo, names, kTrekValues, kRealtime, error);
        if (!error.empty())
            return error;
        if (!writeFile(dir / "gui-displays.json", displays.dump(2) + "\n"))
            return "cannot write " + (dir / "gui-displays.json").string();
    }

    // The forward destination: a socket here that counts what arrives.
    ForwardDrain drain;
    if (auto e = openForwardDrain(drain, host); !e.empty())
        return e;
    PerfTest config;
    config.streams = {{kRealtime, "processEntirePacket", false, false}, {kLowRate, "processEntirePacket", true, true}};
    const std::string forwardUrl = "udp://" + host.returnAddress() + ":" + std::to_string(drain.port());
    Json profile = testProfile(config, run, forwardUrl);
    for (const DemoStream& s : demo.streams)
        profile["streams"].push_back(s.profileStream);
    // The GUI station's displays read the values; the headless one has TReK's value display as a consumer.
    std::vector<std::uint16_t> ports;
    if (auto e = host.start("endurance", profile, gui ? "" : "display:" + std::to_string(kTrekValues), duration + 600, ports);
        !e.empty())
        return e;
    const auto started = Clock::now();
    out.guiPlannedAt = gui ? duration - options.guiLastSeconds : -1;
    const auto destination = [&](std::size_t i) { return "udp://" + host.stationAddress() + ":" + std::to_string(ports.at(i)); };
    Json scenario = {{"streams", Json::array({
        {{"name", kRealtime}, {"destination", destination(0)}, {"rate", "100pps"},
         {"mix", Json::array({{{"packet", run.packetName}, {"weight", 1}}})}, {"seed", 1}},
        {{"name", kLowRate}, {"destination", destination(1)}, {"rate", "1pps"},
         {"mix", Json::array({{{"packet", run.packetName}, {"weight", 1}}})}, {"seed", 2}}})}};
    for (std::size_t i = 0; i < demo.streams.size(); ++i)
        scenario["streams"].push_back(demoScenarioStream(demo.streams[i], host.stationAddress(), ports.at(2 + i)));
    Child sim;
    if (auto e = startSimulator(run, dir, scenario, duration, sim); !e.empty())
        return e;

    // Sample the station while the simulator sends; its CPU from here on, not its start's.
    double lastCpu = 0, lastAt = 0, cpuAtGui = -1;
    if (const auto s = host.sample())
        lastCpu = s->cpuSeconds;
    std::optional<double> guiOpenedAt;
    auto nextSample = Clock::now();
    std::optional<Exit> simExit;
    while (!(simExit = sim.wait(0))) {
        if (secondsSince(started) > duration + 120) {
            sim.sendSignal(SIGINT);
            simExit = sim.wait(10);
            break;
        }
        // The displays' opening is sampled at once: the first sample of the GUI period, at its start.
        const bool guiOpening = gui && !guiOpenedAt && host.displaysOpened();
        if (guiOpening)
            guiOpenedAt = secondsSince(started);
        if (guiOpening || Clock::now() >= nextSample) {
            if (const auto s = host.sample()) {
                EnduranceSample sample;
                sample.seconds = guiOpening ? *guiOpenedAt : secondsSince(started);
                sample.rssBytes = s->rssBytes;
                sample.cpuPercent = sample.seconds > lastAt ? 100 * (s->cpuSeconds - lastCpu) / (sample.seconds - lastAt) : 0;
                sample.received = s->received;
                lastCpu = s->cpuSeconds;
                lastAt = sample.seconds;
                if (guiOpening)
                    cpuAtGui = s->cpuSeconds;
                out.samples.push_back(sample);
                if (onSample)
                    onSample(sample);
            }
            if (!guiOpening)
                nextSample += std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(sampleEvery));
        }
        sleepMs(50);
    }
    if (!simExit || simExit->code != 0)
        return "the simulator failed (" + std::to_string(simExit ? simExit->code : -1) + "):\n" + readFile(dir / "sim.err");
    auto simSummary = sim::summaryFromJson(readFile(dir / "sim.json"));
    if (!simSummary)
        return (dir / "sim.json").string() + ": " + simSummary.error().message;
    out.sent = simSummary->total().sent.packets;

    StationOutcome outcome;
    if (auto e = host.stop(out.sent, outcome); !e.empty())
        return e;
    out.stationExit = outcome.exitCode;
    out.seconds = outcome.wallSeconds;
    out.meanCpuPercent = outcome.wallSeconds > 0 ? 100 * outcome.cpuSeconds / outcome.wallSeconds : 0;
    const stats::StationSnapshot station = snapshotFromJson(outcome.summary);
    out.delivery = checkDelivery(*simSummary, station, fixedParameterCounts(*db));
    for (int i = 0; i < 50 && drain.packets() < out.delivery.toForward; ++i)
        sleepMs(20);
    drain.stop();
    out.arrived = drain.packets();
    out.received = out.delivery.received;
    out.decoded = out.delivery.decoded;
    out.recorded = out.delivery.recorded;
    out.forwarded = out.delivery.forwarded;

    std::string f = out.delivery.failure;
    if (out.arrived != out.delivery.toForward)
        addFailure(f, "arrived at the forward socket " + std::to_string(out.arrived) + " of "
                          + std::to_string(out.delivery.toForward));
    if (const std::string loss = lossText(station); !loss.empty())
        addFailure(f, "the station counted loss: " + loss);
    if (out.stationExit != 0)
        addFailure(f, "station exit " + std::to_string(out.stationExit) + " (loss, drops or errors; its summary table:\n"
                          + outcome.out + ")");

    // Memory: the station's from its warm-up to the end, or to the displays' opening; the GUI period's
    // from its own warm-up to the end.
    const double end = out.samples.empty() ? 0 : out.samples.back().seconds;
    if (gui && !guiOpenedAt) {
        addFailure(f, "the displays did not open (the GUI station never said 'displays opened')");
    } else if (gui) {
        out.gui = memoryPeriod(out.samples, *guiOpenedAt, *guiOpenedAt + guiWarmupSeconds(options), end);
        judgeMemory(*out.gui, options.maxGuiGrowthPercent, " of the GUI period", f);
        if (cpuAtGui >= 0 && lastAt > *guiOpenedAt)
            out.guiMeanCpuPercent = 100 * (lastCpu - cpuAtGui) / (lastAt - *guiOpenedAt);
    }
    // Before the displays opened: up to the last sample before the GUI period's first.
    out.memory = memoryPeriod(out.samples, 0, out.warmupSeconds, guiOpenedAt ? std::nextafter(*guiOpenedAt, 0.0) : end);
    judgeMemory(out.memory, options.maxRssGrowthPercent, gui ? " (before the displays opened)" : "", f);
    out.rssAfterWarmup = out.memory.afterWarmup;
    out.rssAtEnd = out.memory.atEnd;
    out.rssPeak = out.memory.peak;
    out.rssGrowthPercent = out.memory.growthPercent;
    out.failure = f;
    out.passed = f.empty();
    std::error_code ec;
    if (!run.keep)
        fs::remove_all(dir, ec);
    return {};
}

} // namespace telestation::perf
