// TReK's endurance configuration, for any duration: one stream of Packet 5 at 100 packets/s
// (1 Mbit/s) processed entirely, one at 1 packet/s (10 kbit/s) processed, recorded and forwarded, with
// a value display of 72 parameters reading once a second. The station and the simulator run as
// separate processes; the station's resident memory and CPU are sampled as it runs. It passes when
// nothing was lost (every packet received, processed, decoded, recorded and forwarded as set) and the
// resident memory after the warm-up grew by less than 5%.
#pragma once

#include "tools/perf/perf_suite.hpp"

#include <functional>
#include <string>
#include <vector>

namespace telestation::perf {

struct EnduranceOptions {
    RunOptions run;                  // binDir, workDir, recordDir, mdb, packet; run.seconds is ignored
    double durationSeconds = 120;
    double warmupSeconds = -1;       // < 0: 10% of the duration, at least 10 s and at most 10 minutes
    double sampleSeconds = -1;       // < 0: the duration / 240, at least 1 s and at most 60 s
    double maxRssGrowthPercent = 5;
};

struct EnduranceSample {
    double seconds = 0;  // since the station started
    std::uint64_t rssBytes = 0;
    double cpuPercent = 0; // since the previous sample, 100 = one core
    std::uint64_t received = 0;
};

struct EnduranceResult {
    bool passed = false;
    std::string failure;            // why it did not pass (loss, growth), or empty
    std::vector<EnduranceSample> samples;
    double warmupSeconds = 0;
    std::uint64_t rssAfterWarmup = 0, rssAtEnd = 0, rssPeak = 0;
    double rssGrowthPercent = 0;    // end against the first sample after the warm-up
    double meanCpuPercent = 0;      // over the whole run
    std::uint64_t sent = 0, received = 0, decoded = 0, recorded = 0, forwarded = 0, arrived = 0;
    double seconds = 0;
    int stationExit = -1;
};

// Returns an error text when the run could not be made at all; the verdict is in `out`.
class StationHost;
[[nodiscard]] std::string runEndurance(const EnduranceOptions& options, StationHost& host, EnduranceResult& out,
                                       const std::function<void(const EnduranceSample&)>& onSample);

} // namespace telestation::perf
