#include "tools/perf/perf_gui_station.hpp"

#include "tools/perf/perf_stats_file.hpp"

#include <signal.h>

#include <cstdlib>

namespace telestation::perf {

namespace fs = std::filesystem;

namespace {

constexpr double kApiStartSeconds = 30;
constexpr const char* kDisplaysOpened = "displays opened:";

bool environmentSet(const char* name)
{
    const char* value = std::getenv(name);
    return value && *value;
}

// Waits, after the catch-up, until the totals of the newest snapshot have not moved for a second (the
// recorder and forwarder done with the last packets) or 30 s have passed; returns that snapshot.
Json settledSnapshot(const fs::path& statsFile)
{
    Json last = lastSnapshot(statsFile);
    auto since = Clock::now();
    const auto deadline = Clock::now() + std::chrono::seconds(30);
    while (Clock::now() < deadline && secondsSince(since) < 1.0) {
        sleepMs(100);
        Json now = lastSnapshot(statsFile);
        if (now.is_null())
            continue;
        if (last.is_null() || member(now, "totals") != member(last, "totals"))
            since = Clock::now();
        last = std::move(now);
    }
    return last;
}

} // namespace

std::string guiUnavailable()
{
    if (environmentSet("DISPLAY") || environmentSet("WAYLAND_DISPLAY") || environmentSet("QT_QPA_PLATFORM"))
        return {};
    return "the GUI period needs a display: DISPLAY is not set (start one, e.g. 'Xvfb :97 -screen 0 1920x1080x24 &' "
           "and 'DISPLAY=:97 openbox &', and run with DISPLAY=:97; or QT_QPA_PLATFORM=offscreen for a window nobody sees)";
}

GuiStationHost::GuiStationHost(RunOptions options, GuiPlan plan)
    : ChildStationHost(std::move(options)), m_plan(std::move(plan))
{
}

GuiStationHost::~GuiStationHost() = default; // Child kills what still runs

std::string GuiStationHost::start(const std::string& tag, Json profile, const std::string& consume, double safetySeconds,
                                  std::vector<std::uint16_t>& ports)
{
    if (m_station)
        return "a station is already running";
    if (!consume.empty())
        return "the GUI station takes no in-process consumers ('" + consume + "')";
    if (auto e = guiUnavailable(); !e.empty())
        return e;
    const fs::path statsProgram = m_options.binDir / "telestation-api-stats";
    if (!fs::exists(statsProgram))
        return "no " + statsProgram.string() + " (build the target telestation-api-stats)";
    if (auto e = prepareDirectories(tag, "-gui", "config"); !e.empty())
        return e;
    if (auto e = assignSources(profile, "127.0.0.1", ports); !e.empty())
        return e;
    const std::uint16_t apiPort = freeTcpPort();
    profile["api"] = {{"address", "127.0.0.1"}, {"port", apiPort}};
    profile["recordingDirectory"] = m_recordings.string();
    profile["logDirectory"] = (m_dir / "logs").string();
    if (!m_options.mdb.empty())
        profile["mdb"] = m_options.mdb;
    if (!writeFile(m_dir / "profile.json", profile.dump(2) + "\n"))
        return "cannot write " + (m_dir / "profile.json").string();

    // --quit-after only as a safety net: it is stopped with SIGTERM once it has everything.
    const std::vector<std::string> args = {(m_options.binDir / "telestation").string(), "--profile",
        (m_dir / "profile.json").string(), "--displays", m_plan.displayFile.string(), "--displays-after",
        rateNumber(m_plan.displaysAfterSeconds), "--quit-after", std::to_string(static_cast<long long>(safetySeconds * 1000))};
    m_station = std::make_unique<Child>();
    if (auto e = m_station->start(args, m_dir / "station.out", m_dir / "station.err",
                                  {"XDG_CONFIG_HOME=" + (m_dir / "config").string(), "XDG_DATA_HOME=" + (m_dir / "data").string()});
        !e.empty()) {
        m_station.reset();
        return e;
    }
    if (auto e = waitForSources(*m_station, profile, ports, m_dir / "station.err", kApiStartSeconds); !e.empty()) {
        m_station.reset();
        return e;
    }
    const auto apiDeadline = Clock::now() + std::chrono::duration<double>(kApiStartSeconds);
    while (!tcpPortListening(apiPort)) {
        if (Clock::now() >= apiDeadline) {
            m_station.reset();
            return "the GUI station did not serve its API on 127.0.0.1:" + std::to_string(apiPort) + ":\n"
                + readFile(m_dir / "station.err");
        }
        sleepMs(10);
    }
    m_stats = std::make_unique<Child>();
    if (auto e = m_stats->start({statsProgram.string(), "--target", "127.0.0.1:" + std::to_string(apiPort), "--out",
                                 (m_dir / "stats.jsonl").string(), "--interval-ms", "100"},
                                m_dir / "stats.out", m_dir / "stats.err");
        !e.empty()) {
        m_station.reset();
        return e;
    }
    while (!progressSoFar(m_dir / "stats.jsonl")) {
        if (auto e = m_stats->wait(0)) {
            m_station.reset();
            return "telestation-api-stats ended (" + describeExit(*e) + "):\n" + readFile(m_dir / "stats.err");
        }
        sleepMs(20);
    }
    m_displaysOpened = false;
    return {};
}

bool GuiStationHost::displaysOpened()
{
    if (!m_displaysOpened && m_station)
        m_displaysOpened = readFile(m_dir / "station.out").find(kDisplaysOpened) != std::string::npos;
    return m_displaysOpened;
}

std::string GuiStationHost::stop(std::uint64_t expected, StationOutcome& out)
{
    out = StationOutcome{};
    if (!m_station)
        return "no station is running";
    catchUp(expected);
    out.summary = settledSnapshot(m_dir / "stats.jsonl");
    auto stopped = endStation(SIGTERM, "the GUI station", out);
    if (m_stats && !m_stats->wait(10)) // it ends with the station's API
        m_stats->stop();
    m_stats.reset();
    if (!stopped.empty())
        return stopped;
    removeDirectories();
    if (out.exitCode != 0)
        return "the GUI station failed (it " + m_exit + "):\n" + out.err;
    if (out.summary.is_null() || !member(out.summary, "streams").is_array())
        return "no statistics came from the GUI station's API:\n" + out.err;
    return {};
}

} // namespace telestation::perf
