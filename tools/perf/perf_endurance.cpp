#include "tools/perf/perf_endurance.hpp"

#include "sim/engine/sim_summary.hpp"
#include "tools/perf/perf_station_host.hpp"

#include <signal.h>

#include <algorithm>
#include <cerrno>
#include <cstring>

namespace telestation::perf {

namespace fs = std::filesystem;

namespace {

constexpr const char* kRealtime = "realtime"; // 100 packets/s, processed entirely
constexpr const char* kLowRate = "lowrate";   // 1 packet/s, processed entirely, recorded and forwarded

double resolved(double value, double fallback, double low, double high)
{
    return value >= 0 ? value : std::clamp(fallback, low, high);
}

} // namespace

std::string runEndurance(const EnduranceOptions& options, StationHost& host, EnduranceResult& out,
                         const std::function<void(const EnduranceSample&)>& onSample)
{
    out = EnduranceResult{};
    const double duration = options.durationSeconds;
    out.warmupSeconds = resolved(options.warmupSeconds, duration * 0.1, 10, 600);
    const double sampleEvery = resolved(options.sampleSeconds, duration / 240, 1, 60);
    if (out.warmupSeconds >= duration)
        return "the warm-up (" + rateNumber(out.warmupSeconds) + " s) must be shorter than the duration";

    const RunOptions& run = options.run;
    const fs::path dir = run.workDir / "endurance";
    if (auto e = freshDirectory(dir); !e.empty())
        return e;
    // The forward destination: a socket here that counts what arrives.
    ForwardDrain drain;
    if (auto e = openForwardDrain(drain, host); !e.empty())
        return e;
    PerfTest config;
    config.streams = {{kRealtime, "processEntirePacket", false, false}, {kLowRate, "processEntirePacket", true, true}};
    std::vector<std::uint16_t> ports;
    const std::string forwardUrl = "udp://" + host.returnAddress() + ":" + std::to_string(drain.port());
    if (auto e = host.start("endurance", testProfile(config, run, forwardUrl), "display:72", duration + 600, ports); !e.empty())
        return e;
    const auto started = Clock::now();
    const auto destination = [&](std::size_t i) { return "udp://" + host.stationAddress() + ":" + std::to_string(ports.at(i)); };
    const Json scenario = {{"streams", Json::array({
        {{"name", kRealtime}, {"destination", destination(0)}, {"rate", "100pps"},
         {"mix", Json::array({{{"packet", run.packetName}, {"weight", 1}}})}, {"seed", 1}},
        {{"name", kLowRate}, {"destination", destination(1)}, {"rate", "1pps"},
         {"mix", Json::array({{{"packet", run.packetName}, {"weight", 1}}})}, {"seed", 2}}})}};
    Child sim;
    if (auto e = startSimulator(run, dir, scenario, duration, sim); !e.empty())
        return e;

    // Sample the station while the simulator sends.
    double lastCpu = 0, lastAt = 0;
    auto nextSample = Clock::now();
    std::optional<Exit> simExit;
    while (!(simExit = sim.wait(0))) {
        if (secondsSince(started) > duration + 120) {
            sim.sendSignal(SIGINT);
            simExit = sim.wait(10);
            break;
        }
        if (Clock::now() >= nextSample) {
            if (const auto s = host.sample()) {
                EnduranceSample sample;
                sample.seconds = secondsSince(started);
                sample.rssBytes = s->rssBytes;
                sample.cpuPercent = sample.seconds > lastAt ? 100 * (s->cpuSeconds - lastCpu) / (sample.seconds - lastAt) : 0;
                sample.received = s->received;
                lastCpu = s->cpuSeconds;
                lastAt = sample.seconds;
                out.samples.push_back(sample);
                if (onSample)
                    onSample(sample);
            }
            nextSample += std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(sampleEvery));
        }
        sleepMs(50);
    }
    if (!simExit || simExit->code != 0)
        return "the simulator failed (" + std::to_string(simExit ? simExit->code : -1) + "):\n" + readFile(dir / "sim.err");
    auto simSummary = sim::summaryFromJson(readFile(dir / "sim.json"));
    if (!simSummary)
        return (dir / "sim.json").string() + ": " + simSummary.error().message;
    std::uint64_t lowRateSent = 0;
    for (const auto& s : simSummary->streams)
        if (s.name == kLowRate)
            lowRateSent = s.sent.packets;
    out.sent = simSummary->total().sent.packets;

    StationOutcome outcome;
    if (auto e = host.stop(out.sent, outcome); !e.empty())
        return e;
    out.stationExit = outcome.exitCode;
    out.seconds = outcome.wallSeconds;
    out.meanCpuPercent = outcome.wallSeconds > 0 ? 100 * outcome.cpuSeconds / outcome.wallSeconds : 0;
    for (int i = 0; i < 50 && drain.packets() < lowRateSent; ++i)
        sleepMs(20);
    drain.stop();
    out.arrived = drain.packets();

    const Json& summary = outcome.summary;
    const Json& totals = member(summary, "totals");
    out.received = u64(totals, "packetsReceived");
    out.decoded = u64(totals, "parametersDecoded");
    out.recorded = u64(totals, "packetsRecorded");
    out.forwarded = u64(totals, "packetsForwarded");

    std::string f;
    const auto mismatch = [&](const char* what, std::uint64_t got, std::uint64_t expected) {
        if (got != expected)
            f += (f.empty() ? "" : ", ") + std::string(what) + " " + std::to_string(got) + " of " + std::to_string(expected);
    };
    mismatch("received", out.received, out.sent);
    mismatch("processed", u64(totals, "packetsProcessed"), out.sent);
    mismatch("parameters decoded", out.decoded, out.sent * run.parametersPerPacket);
    mismatch("recorded", out.recorded, lowRateSent);
    mismatch("forwarded", out.forwarded, lowRateSent);
    mismatch("arrived at the forward socket", out.arrived, lowRateSent);
    if (out.stationExit != 0)
        f += (f.empty() ? "" : ", ") + std::string("station exit ") + std::to_string(out.stationExit)
            + " (loss, drops or errors; its summary table:\n" + outcome.out + ")";

    // Memory: the first sample after the warm-up against the last one.
    const auto afterWarmup = std::find_if(out.samples.begin(), out.samples.end(),
                                          [&](const EnduranceSample& s) { return s.seconds >= out.warmupSeconds; });
    if (afterWarmup == out.samples.end() || out.samples.size() < 2) {
        f += (f.empty() ? "" : ", ") + std::string("too few memory samples after the warm-up");
    } else {
        out.rssAfterWarmup = afterWarmup->rssBytes;
        out.rssAtEnd = out.samples.back().rssBytes;
        for (auto it = afterWarmup; it != out.samples.end(); ++it)
            out.rssPeak = std::max(out.rssPeak, it->rssBytes);
        out.rssGrowthPercent = 100.0 * (double(out.rssAtEnd) - double(out.rssAfterWarmup)) / double(out.rssAfterWarmup);
        if (out.rssGrowthPercent >= options.maxRssGrowthPercent)
            f += (f.empty() ? "" : ", ") + std::string("resident memory grew ") + rateNumber(out.rssGrowthPercent)
                + "% after the warm-up (limit " + rateNumber(options.maxRssGrowthPercent) + "%)";
    }
    out.failure = f;
    out.passed = f.empty();
    std::error_code ec;
    if (!run.keep)
        fs::remove_all(dir, ec);
    return {};
}

} // namespace telestation::perf
