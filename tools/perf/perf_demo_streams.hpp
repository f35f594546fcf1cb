// The demo's fault-free streams in the endurance run (`telestation-perf endurance --demo-streams RATE`):
// every stream of the demo scenario (share/telestation/scenarios/demo.json) that injects no faults —
// `health` (UDP) and `tcp-mix` (TCP); `science` is left out — with its mix, generators and seed, its
// rate scaled so that together they send RATE (each keeps its share of the demo's own rates), and its
// station stream as the training profile (profiles/training.json) sets it: packet types, modes,
// recording, unknown packets. Also the demo's display file (displays/demo.json) for the GUI period.
#pragma once

#include "tools/perf/perf_suite.hpp"

#include <filesystem>
#include <string>
#include <vector>

namespace telestation::perf {

struct DemoStream {
    std::string name;
    bool tcp = false;     // the station listens (tcp-listen) and the simulator connects
    double mbps = 0;      // its share of RATE
    Json profileStream;   // the profile's stream; its source says only the transport (kTcpServerScheme or "")
    Json scenarioStream;  // the scenario's stream, without its destination
};

struct DemoStreams {
    std::vector<DemoStream> streams;
    std::filesystem::path displayFile; // the demo's displays
};

// Reads the demo's scenario and profile from `dataDir` (databases from `mdbPath`, "" = the training
// one). Error text, empty on success.
[[nodiscard]] std::string loadDemoStreams(const std::filesystem::path& dataDir, const std::string& mdbPath,
                                          double totalMbps, DemoStreams& out);

// The scenario stream, sent to the station's port.
[[nodiscard]] Json demoScenarioStream(const DemoStream& stream, const std::string& stationAddress, std::uint16_t port);

// The GUI period's display file: the demo's displays, and TReK's value display — the first `count`
// parameters of `packet` on `stream`, the headless station's `--consume display:72` as a window. Null,
// with the reason in `error`, when the demo's display file cannot be read.
[[nodiscard]] Json guiDisplays(const DemoStreams& demo, const std::vector<std::string>& parameterNames, std::size_t count,
                               const std::string& stream, std::string& error);

} // namespace telestation::perf
