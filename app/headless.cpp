#include "core/config/mission_file.hpp"
#include "app/headless.hpp"

#include "app/link_responder.hpp"

#include "app/consumers.hpp"
#include "app/demo.hpp"
#include "app/event_output.hpp"
#include "app/station_logging.hpp"
#include "core/common/paths.hpp"
#include "core/config/station_profile.hpp"
#include "core/mdb/sqlite_store.hpp"
#include "core/pipeline/station.hpp"
#include "core/stats/cpu_meter.hpp"
#include "core/stats/rate_tracker.hpp"
#include "core/stats/snapshot_json.hpp"
#include "core/stats/status_line.hpp"
#include "rpc/api_server.hpp"
#include "sim/engine/simulator.hpp"
#include "telestation_version.hpp"

#include <spdlog/spdlog.h>

#include <atomic>
#include <chrono>
#include <cmath>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <thread>

namespace telestation::app {

namespace {

using namespace std::chrono_literals;
namespace fs = std::filesystem;

constexpr int kExitLoss = 3;
constexpr int kExitUsage = 2;
constexpr int kExitFailure = 1;

bool writeText(const std::string& path, const std::string& text)
{
    std::ofstream out(path, std::ios::binary | std::ios::trunc);
    out << text;
    return static_cast<bool>(out);
}

} // namespace

int runHeadless(const HeadlessOptions& options)
{
    // Signals are taken by sigtimedwait in this thread: block them before any thread starts, so that
    // every thread inherits the mask and none is interrupted.
    sigset_t signals;
    sigemptyset(&signals);
    sigaddset(&signals, SIGINT);
    sigaddset(&signals, SIGTERM);
    pthread_sigmask(SIG_BLOCK, &signals, nullptr);

    std::string profilePath = options.profilePath;
    if (profilePath.empty() && options.demo)
        profilePath = demoProfilePath();
    if (profilePath.empty()) {
        std::fprintf(stderr, "telestation: --headless needs --profile FILE (or --demo)\n");
        return kExitUsage;
    }
    auto load = config::loadProfileFile(profilePath);
    for (const auto& d : load.diagnostics)
        std::fprintf(stderr, "telestation: %s\n", d.toString().c_str());
    if (!load.ok())
        return kExitUsage;
    config::StationProfile profile = load.profile;
    if (options.demo && options.profilePath.empty()) {
        profile.recordingDirectory = (demoDirectory() / "recordings").string();
        profile.logDirectory = (demoDirectory() / "logs").string();
    }
    if (!options.recordingDirectory.empty())
        profile.recordingDirectory = options.recordingDirectory;
    if (!options.logDirectory.empty())
        profile.logDirectory = options.logDirectory;
    if (!options.mdbPath.empty())
        profile.mdb = options.mdbPath;
    const std::string mdbPath = profile.mdb.empty() ? trainingDatabasePath().string() : profile.mdb;

    setupLogging(profile.logDirectory, profile.logLevel);
    spdlog::info("Telestation {} headless; profile {}; mission database {}", kVersion, profilePath, mdbPath);

    auto mission = config::loadMission(mdbPath);
    if (!mission.ok()) {
        std::fprintf(stderr, "telestation: %s\n", mission.error().toString().c_str());
        shutdownLogging();
        return kExitUsage;
    }
    for (const auto& note : mission.notes())
        spdlog::warn("{}", note);
    // Before the station, so that it outlives the station's last event round.
    EventOutput eventOutput(options.eventsOut);
    if (!eventOutput.ok()) {
        std::fprintf(stderr, "telestation: --events-out %s: cannot write there\n", options.eventsOut.c_str());
        shutdownLogging();
        return kExitUsage;
    }
    auto created = pipeline::Station::create(profile, *mission.database);
    if (!created) {
        std::fprintf(stderr, "telestation: %s\n", created.error().message.c_str());
        shutdownLogging();
        return kExitUsage;
    }
    pipeline::Station& station = **created;

    std::unique_ptr<sim::Simulator> simulator;
    if (options.demo) {
        auto made = demoSimulator();
        if (!made) {
            std::fprintf(stderr, "telestation: demo scenario: %s\n", made.error().toString().c_str());
            shutdownLogging();
            return kExitFailure;
        }
        simulator = std::move(*made);
    }

    auto consumerSpecs = parseConsumerSpecs(options.consume);
    if (!consumerSpecs) {
        std::fprintf(stderr, "telestation: %s\n", consumerSpecs.error().message.c_str());
        shutdownLogging();
        return kExitUsage;
    }
    auto consumers = std::make_unique<ApiConsumers>(station, *consumerSpecs);
    for (const auto& r : consumers->reports())
        if (!r.error.empty()) {
            std::fprintf(stderr, "telestation: --consume %s: %s\n", r.name.c_str(), r.error.c_str());
            consumers.reset();
            shutdownLogging();
            return kExitUsage;
        }

    eventOutput.attach(station);

    if (auto started = station.start(); !started) {
        std::fprintf(stderr, "telestation: %s\n", started.error().message.c_str());
        shutdownLogging();
        return kExitFailure;
    }
    // The user API (docs/api.md): a server that cannot listen is reported; the station runs on without it.
    std::unique_ptr<rpc::ApiServer> api;
    if (profile.api.enabled) {
        if (auto served = rpc::ApiServer::start(station, rpc::serverOptions(profile.api)); served) {
            api = std::move(*served);
            spdlog::info("user API on {}{}", api->target(), api->tls() ? " (TLS)" : "");
        } else {
            spdlog::warn("user API not served: {}", served.error().message);
        }
    }
    config::LinkResponderOptions linkOptions = profile.linkResponder;
    if (!options.linkResponder.empty())
        linkOptions = {options.linkResponder, options.linkAllow};
    std::unique_ptr<link::Responder> responder;
    if (!linkOptions.listen.empty()) {
        if (auto started = startLinkResponder(linkOptions, *mission.database); started) {
            responder = std::move(*started);
        } else if (!options.linkResponder.empty()) {
            std::fprintf(stderr, "telestation: %s\n", started.error().message.c_str());
            station.stop();
            shutdownLogging();
            return kExitFailure;
        } else {
            spdlog::warn("link test responder not started: {}", started.error().message);
        }
    }
    if (simulator)
        simulator->startAll();

    std::ofstream statsOut;
    if (!options.statsOut.empty()) {
        statsOut.open(options.statsOut, std::ios::trunc);
        if (!statsOut)
            spdlog::error("cannot write the statistics to {}", options.statsOut);
    }

    stats::RateTracker rates;
    stats::CpuMeter cpu;
    const auto begin = std::chrono::steady_clock::now();
    const auto interval = std::chrono::duration<double>(std::max(options.statsIntervalSeconds, 0.05));
    auto nextReport = begin + std::chrono::duration_cast<std::chrono::steady_clock::duration>(interval);
    const auto end = options.durationSeconds > 0
                         ? begin + std::chrono::duration_cast<std::chrono::steady_clock::duration>(
                               std::chrono::duration<double>(options.durationSeconds))
                         : std::chrono::steady_clock::time_point::max();
    int stopSignal = 0;
    const auto report = [&](stats::StationSnapshot& snap) {
        snap.cpuPercent = cpu.sample();
        rates.update(snap);
        if (!options.quiet) {
            std::printf("%s\n", stats::statusLine(snap).c_str());
            std::fflush(stdout);
        }
        if (statsOut.is_open()) {
            statsOut << stats::toJson(snap) << '\n';
            statsOut.flush();
        }
    };
    for (;;) {
        const auto now = std::chrono::steady_clock::now();
        if (now >= end)
            break;
        const auto wakeAt = std::min(nextReport, end);
        const auto wait = std::chrono::duration_cast<std::chrono::nanoseconds>(wakeAt - now);
        timespec ts{static_cast<time_t>(wait.count() / 1'000'000'000), static_cast<long>(wait.count() % 1'000'000'000)};
        const int sig = sigtimedwait(&signals, nullptr, &ts);
        if (sig == SIGINT || sig == SIGTERM) {
            stopSignal = sig;
            break;
        }
        if (std::chrono::steady_clock::now() >= nextReport) {
            auto snap = station.snapshot();
            report(snap);
            nextReport += std::chrono::duration_cast<std::chrono::steady_clock::duration>(interval);
        }
    }
    if (stopSignal != 0)
        spdlog::info("stopping on {}", stopSignal == SIGINT ? "SIGINT" : "SIGTERM");
    if (simulator)
        simulator->stopAll();
    // Packets the simulator wrote just before it stopped may still be in the kernel's buffers.
    std::this_thread::sleep_for(simulator ? 100ms : 20ms);
    responder.reset(); // a link test running ends here (its controller is told by the closed connection)
    api.reset(); // its calls end before the station stops
    station.stop();
    consumers->finish();

    auto final = station.snapshot();
    final.cpuPercent = cpu.sample();
    rates.update(final);
    if (statsOut.is_open())
        statsOut << stats::toJson(final) << '\n';
    if (!options.summaryOut.empty() && !writeText(options.summaryOut, stats::toJsonPretty(final) + "\n"))
        spdlog::error("cannot write the summary to {}", options.summaryOut);
    std::printf("%s", stats::summaryTable(final).c_str());
    std::printf("%s", eventOutput.summary(station.alarms()).c_str());
    for (const auto& r : consumers->reports())
        std::printf("Consumer %s: %llu packets, %llu parameters\n", r.name.c_str(),
                    static_cast<unsigned long long>(r.packets), static_cast<unsigned long long>(r.parameters));
    const bool loss = final.hasLoss();
    std::printf("Result: %s\n", loss ? "packets were lost, dropped or malformed (exit 3)" : "no loss (exit 0)");
    std::fflush(stdout);
    spdlog::info("Telestation headless run ended: {}", loss ? "with loss" : "no loss");
    consumers.reset();
    simulator.reset();
    created->reset();
    shutdownLogging();
    return loss ? kExitLoss : 0;
}

} // namespace telestation::app
