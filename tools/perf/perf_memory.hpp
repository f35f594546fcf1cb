// The resident memory of a process over a period of a run, from its samples: its value when the
// period's warm-up ended, at the period's end and its peak after the warm-up; the growth from the
// warm-up to the end; and when it levelled off (from which sample on it stayed within 1% of its value at
// the end). The endurance run judges the whole run by it, and the GUI period on its own.
#pragma once

#include <cstdint>
#include <vector>

namespace telestation::perf {

struct EnduranceSample {
    double seconds = 0; // since the station started
    std::uint64_t rssBytes = 0;
    double cpuPercent = 0; // since the previous sample, 100 = one core
    std::uint64_t received = 0;
};

struct MemoryPeriod {
    double from = 0, warmupEnd = 0, to = 0; // seconds since the station started
    bool measured = false;                  // samples after the warm-up, at least two in the period
    std::uint64_t atStart = 0, afterWarmup = 0, atEnd = 0, peak = 0;
    double growthPercent = 0;               // end against the first sample after the warm-up
    double levelledOffAt = -1;              // seconds since the station started
};

inline constexpr double kLevelPercent = 1;

// The samples from `from` to `to` (inclusive), the warm-up ending at `warmupEnd`.
[[nodiscard]] MemoryPeriod memoryPeriod(const std::vector<EnduranceSample>& samples, double from, double warmupEnd, double to);

} // namespace telestation::perf
