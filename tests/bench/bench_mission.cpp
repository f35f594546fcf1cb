// bench_mission: how long a large mission takes to import, store, load and open. Generates a synthetic
// mission (tests/bench/synthetic_mission.hpp: 10,000 parameters in 50 packet types by default), writes
// it as XTCE with xtce::writeXtce, and measures
//   - xtce::importXtce on that text                          (target: under 2 s)
//   - mdb::saveDatabase to SQLite, and mdb::loadDatabase      (target for the load: under 0.5 s)
//   - config::loadMission on the .xml: the first load imports, validates and writes the cache beside
//     the file; the second reads the cache.
// Each is repeated for --seconds (at least 3 times); the fastest, median and slowest are printed.
// Not a test: run it from a release build.
//
//   build/release/bin/bench_mission [--parameters N] [--packets N] [--seconds S] [--keep DIR]
#include "core/common/command_line.hpp"
#include "core/config/mission_file.hpp"
#include "core/mdb/sqlite_store.hpp"
#include "core/mdb/validate.hpp"
#include "core/xtce/xtce_export.hpp"
#include "core/xtce/xtce_import.hpp"
#include "tests/bench/synthetic_mission.hpp"

#include <sys/resource.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <functional>
#include <string>
#include <system_error>
#include <vector>

using namespace telestation;

namespace {

constexpr const char* kProgram = "bench_mission";
constexpr double kImportTargetSeconds = 2.0;
constexpr double kLoadTargetSeconds = 0.5;

double secondsSince(std::chrono::steady_clock::time_point start)
{
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

// Runs `once` (which returns false on failure) until `budget` seconds have passed, at least `least`
// times; returns each run's duration, or nothing when a run failed. `before` runs untimed before each.
std::vector<double> repeat(double budget, const std::function<bool()>& once,
                           const std::function<void()>& before = {}, int least = 3)
{
    std::vector<double> times;
    const auto start = std::chrono::steady_clock::now();
    while (static_cast<int>(times.size()) < least || secondsSince(start) < budget) {
        if (before)
            before();
        const auto t0 = std::chrono::steady_clock::now();
        if (!once())
            return {};
        times.push_back(secondsSince(t0));
    }
    return times;
}

void report(const char* what, std::vector<double> times, double target = 0)
{
    std::sort(times.begin(), times.end());
    std::printf("%-34s %8.1f ms  (fastest; median %.1f, slowest %.1f over %zu runs)", what, times.front() * 1e3,
                times[times.size() / 2] * 1e3, times.back() * 1e3, times.size());
    if (target > 0)
        std::printf("  target < %.0f ms: %s", target * 1e3, times.back() < target ? "met" : "MISSED");
    std::printf("\n");
}

long peakResidentKiB()
{
    rusage usage{};
    ::getrusage(RUSAGE_SELF, &usage);
    return usage.ru_maxrss;
}

void removeCaches(const std::filesystem::path& xml)
{
    std::error_code ec;
    const std::string prefix = xml.filename().string() + ".";
    for (const auto& entry : std::filesystem::directory_iterator(xml.parent_path(), ec)) {
        const std::string name = entry.path().filename().string();
        if (name.starts_with(prefix) && name.ends_with(".mdb"))
            std::filesystem::remove(entry.path(), ec);
    }
}

} // namespace

int main(int argc, char** argv)
{
    CommandLine cli(kProgram, "XTCE import, SQLite save and load, and mission loading of a large synthetic mission.");
    cli.addFlag("help", "Show this help.");
    cli.addOption("parameters", "N", "Parameters in the mission (default 10000).");
    cli.addOption("packets", "N", "Packet types (default 50).");
    cli.addOption("seconds", "S", "How long to repeat each measurement, at least 3 runs (default 3).");
    cli.addOption("keep", "DIR", "Write the mission to DIR and keep it (synthetic_mission.xml and .mdb, for "
                                 "opening in the GUI); default: a temporary directory, removed at the end.");
    if (const auto exit = cli.parseOrExit(argc, argv))
        return *exit;
    const auto parameters = cli.integer("parameters", 10000);
    const auto packets = cli.integer("packets", 50);
    const auto seconds = cli.number("seconds", 3);
    if (!parameters || !packets || !seconds || *parameters < 1 || *packets < 1 || *seconds < 0) {
        std::fprintf(stderr, "%s: --parameters and --packets take numbers above zero, --seconds >= 0\n", kProgram);
        return 2;
    }

    namespace fs = std::filesystem;
    fs::path dir;
    const bool keep = cli.isSet("keep");
    std::error_code ec;
    if (keep) {
        dir = cli.value("keep");
        fs::create_directories(dir, ec);
    } else {
        std::string pattern = (fs::temp_directory_path(ec) / "bench_mission.XXXXXX").string();
        if (::mkdtemp(pattern.data()) != nullptr)
            dir = pattern;
    }
    if (dir.empty() || !fs::is_directory(dir, ec)) {
        std::fprintf(stderr, "%s: no directory to write to\n", kProgram);
        return 1;
    }
    const fs::path xmlPath = dir / "synthetic_mission.xml";
    const fs::path mdbPath = dir / "synthetic_mission.mdb";
    const auto cleanUp = [&] {
        if (!keep)
            fs::remove_all(dir, ec);
    };

    // The mission, checked as any mission database is.
    auto t0 = std::chrono::steady_clock::now();
    bench::SyntheticMissionInfo info;
    const mdb::MissionDatabase db = bench::syntheticMission(static_cast<std::size_t>(*parameters),
                                                            static_cast<std::size_t>(*packets), &info);
    const double generated = secondsSince(t0);
    std::size_t warnings = 0;
    for (const auto& issue : mdb::validate(db)) {
        if (issue.severity == Severity::Error) {
            std::fprintf(stderr, "%s: the generated mission is invalid: %s\n", kProgram, issue.message.c_str());
            cleanUp();
            return 1;
        }
        ++warnings;
    }
    t0 = std::chrono::steady_clock::now();
    const std::string xml = xtce::writeXtce(db);
    const double written = secondsSince(t0);
    if (auto ok = xtce::writeXtceFile(db, xmlPath.string()); !ok) {
        std::fprintf(stderr, "%s: %s\n", kProgram, ok.error().toString().c_str());
        cleanUp();
        return 1;
    }
    std::printf("mission            %s: %zu packet types (%zu sharing APIDs, told apart by criteria; %zu with a "
                "variable layout), %zu parameters; valid, %zu warnings\n",
                db.name.c_str(), db.packets.size(), info.sharedApidPackets, info.variablePackets, db.parameterCount(),
                warnings);
    std::printf("generated in       %.1f ms; XTCE %.1f MB written in %.1f ms (%s)\n", generated * 1e3,
                double(xml.size()) / 1e6, written * 1e3, keep ? xmlPath.c_str() : "temporary");

    // XTCE import.
    xtce::ImportResult imported;
    const auto importTimes = repeat(*seconds, [&] {
        imported = xtce::importXtce(xml, xmlPath.string());
        return imported.ok();
    });
    if (importTimes.empty()) {
        std::fprintf(stderr, "%s: the import failed: %s\n", kProgram,
                     imported.diagnostics.empty() ? "?" : imported.diagnostics.front().toString().c_str());
        cleanUp();
        return 1;
    }
    report("xtce::importXtce", importTimes, kImportTargetSeconds);
    {
        mdb::MissionDatabase back = imported.database;
        const auto restored = xtce::applyTelestationAncillary(xml, back);
        std::printf("%-34s %zu packet types, %zu parameters; read back with applyTelestationAncillary: %s\n",
                    "  imported", imported.database.packets.size(), imported.database.parameterCount(),
                    back == db && restored.empty() ? "equal to the generated mission" : "DIFFERENT");
    }

    // SQLite.
    const auto saveTimes = repeat(
        *seconds, [&] { return bool(mdb::saveDatabase(db, mdbPath.string())); }, [&] { fs::remove(mdbPath, ec); });
    if (saveTimes.empty()) {
        std::fprintf(stderr, "%s: saving %s failed\n", kProgram, mdbPath.c_str());
        cleanUp();
        return 1;
    }
    report("mdb::saveDatabase (new file)", saveTimes);
    std::printf("%-34s %.1f MB\n", "  file", double(fs::file_size(mdbPath, ec)) / 1e6);
    bool loadedEqual = false;
    const auto loadTimes = repeat(*seconds, [&] {
        auto loaded = mdb::loadDatabase(mdbPath.string());
        loadedEqual = loaded && *loaded == db;
        return bool(loaded);
    });
    if (loadTimes.empty()) {
        std::fprintf(stderr, "%s: loading %s failed\n", kProgram, mdbPath.c_str());
        cleanUp();
        return 1;
    }
    report("mdb::loadDatabase", loadTimes, kLoadTargetSeconds);
    std::printf("%-34s %s\n", "  loaded", loadedEqual ? "equal to the generated mission" : "DIFFERENT");

    // config::loadMission on the XTCE file, as the station profile, the GUI and the simulator open it.
    bool firstOk = true, secondOk = true;
    std::string loadError;
    const auto check = [&](const config::LoadedMission& m, bool fromCache) {
        if (!m.ok())
            loadError = m.error().toString();
        return m.ok() && m.fromCache == fromCache && !m.cachePath.empty();
    };
    const auto firstTimes = repeat(
        *seconds, [&] { return firstOk = check(config::loadMission(xmlPath.string()), false); },
        [&] { removeCaches(xmlPath); });
    const auto secondTimes =
        firstOk ? repeat(*seconds, [&] { return secondOk = check(config::loadMission(xmlPath.string()), true); })
                : std::vector<double>{};
    if (!firstOk || !secondOk || firstTimes.empty() || secondTimes.empty()) {
        std::fprintf(stderr, "%s: config::loadMission: %s\n", kProgram,
                     loadError.empty() ? "the cache was not written or not used" : loadError.c_str());
        cleanUp();
        return 1;
    }
    report("config::loadMission, first load", firstTimes);
    std::printf("%-34s import, validation, cache written\n", "");
    report("config::loadMission, from cache", secondTimes);
    std::printf("peak resident      %.0f MiB\n", double(peakResidentKiB()) / 1024.0);
    if (keep) {
        removeCaches(xmlPath); // a GUI opening the file compiles it afresh
        std::printf("kept               %s, %s\n", xmlPath.c_str(), mdbPath.c_str());
    }
    cleanUp();
    return 0;
}
