// The headless mode: the station engine with no display and no QApplication, for endurance runs,
// servers and benchmarks. Prints a one-line status every interval, writes snapshots as JSON lines,
// stops on SIGINT/SIGTERM or after the duration (every packet already received is processed,
// recorded and forwarded; recordings are closed), writes the final summary and returns the exit code:
// 0, or 3 when anything was lost, dropped or malformed (stats::StationSnapshot::hasLoss), 2 for a bad
// profile or option, 1 for a runtime failure (a source that cannot open).
#pragma once

#include <string>
#include <vector>

namespace telestation::app {

struct HeadlessOptions {
    std::string profilePath;          // "" with demo: the training profile
    bool demo = false;                // also run the demo scenario's simulator in this process
    std::string mdbPath;              // overrides the profile's mission database
    double durationSeconds = 0;       // 0 = until SIGINT / SIGTERM
    double statsIntervalSeconds = 1;
    std::string statsOut;             // JSON lines, one snapshot per interval
    std::string summaryOut;           // the final snapshot as a JSON document
    std::string eventsOut;            // every event and alarm change as JSON lines
    std::string recordingDirectory;   // overrides the profile's
    std::string logDirectory;         // overrides the profile's
    std::string consume;              // API consumers (app/consumers.hpp): "packets", "parameters:50,display", ...
    bool quiet = false;               // no status lines (the summary is still printed)
    // The link test's responder (docs/link-test.md): ADDR:PORT from --link-responder, which replaces
    // the profile's linkResponder; it must start. From the profile alone, a responder that cannot
    // start is logged and the station runs on.
    std::string linkResponder;
    std::vector<std::string> linkAllow;
};

int runHeadless(const HeadlessOptions& options);

} // namespace telestation::app
