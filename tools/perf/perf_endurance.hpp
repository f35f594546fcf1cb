// TReK's endurance configuration, for any duration: one stream of Packet 5 at 100 packets/s
// (1 Mbit/s) processed entirely, one at 1 packet/s (10 kbit/s) processed, recorded and forwarded, with
// a value display of 72 parameters reading once a second. The station and the simulator run as
// separate processes; the station's resident memory and CPU are sampled as it runs. It passes when
// nothing was lost (every packet received, processed, decoded, recorded and forwarded as set) and the
// resident memory after the warm-up grew by less than 5%.
//
// Issue 17's long run adds to it (each optional):
// - the demo's fault-free streams (perf_demo_streams.hpp) at an aggregate rate, each checked for loss
//   per packet type as its profile sets it (perf_delivery.hpp);
// - a GUI period: the station is the GUI workstation (perf_gui_station.hpp) whose displays — the demo's
//   and TReK's value display of 72 parameters — open for the last part of the run; the memory before
//   the displays opened is judged as the whole run's, and the GUI period's on its own after a warm-up
//   of its own (perf_memory.hpp).
#pragma once

#include "tools/perf/perf_delivery.hpp"
#include "tools/perf/perf_memory.hpp"
#include "tools/perf/perf_suite.hpp"

#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace telestation::perf {

struct EnduranceOptions {
    RunOptions run;                  // binDir, workDir, recordDir, mdb, packet; run.seconds is ignored
    double durationSeconds = 120;
    double warmupSeconds = -1;       // < 0: 10% of the duration, at least 10 s and at most 10 minutes
    double sampleSeconds = -1;       // < 0: the duration / 240, at least 1 s and at most 60 s
    double maxRssGrowthPercent = 5;
    double demoStreamsMbps = 0;      // > 0: the demo's fault-free streams at this aggregate rate
    double guiLastSeconds = 0;       // > 0: a GUI station, its displays open for the last this long
    double guiWarmupSeconds = -1;    // < 0: a quarter of the GUI period, at least 30 s and at most 15 minutes
    double maxGuiGrowthPercent = 5;  // the GUI period's resident memory growth after its warm-up
};

// The GUI period's warm-up as `options` resolve it.
[[nodiscard]] double guiWarmupSeconds(const EnduranceOptions& options);
// The options' contradictions ("--gui-last must be shorter than the duration"), empty when none.
[[nodiscard]] std::string checkEnduranceOptions(const EnduranceOptions& options);

struct EnduranceResult {
    bool passed = false;
    std::string failure;            // why it did not pass (loss, growth), or empty
    std::vector<EnduranceSample> samples;
    double warmupSeconds = 0;
    // The station before the GUI period (the whole run when there is none).
    MemoryPeriod memory;
    std::uint64_t rssAfterWarmup = 0, rssAtEnd = 0, rssPeak = 0; // memory's, as the report has always named them
    double rssGrowthPercent = 0;
    double meanCpuPercent = 0;      // over the whole run
    // The GUI period: from the displays' opening to the end.
    std::optional<MemoryPeriod> gui;
    double guiPlannedAt = -1;       // when the displays were to open, seconds since the station started
    double guiMeanCpuPercent = 0;   // the station's CPU during the GUI period
    Delivery delivery;
    std::uint64_t sent = 0, received = 0, decoded = 0, recorded = 0, forwarded = 0, arrived = 0;
    double seconds = 0;
    int stationExit = -1;
};

// Returns an error text when the run could not be made at all; the verdict is in `out`. With a GUI
// period `host` is a GuiStationHost.
class StationHost;
[[nodiscard]] std::string runEndurance(const EnduranceOptions& options, StationHost& host, EnduranceResult& out,
                                       const std::function<void(const EnduranceSample&)>& onSample);

} // namespace telestation::perf
