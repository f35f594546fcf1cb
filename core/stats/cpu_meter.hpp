// The process's CPU use between two samples: its CPU time (CLOCK_PROCESS_CPUTIME_ID, user + system
// time of all threads) over CLOCK_MONOTONIC wall time (core/common/clock.hpp).
#pragma once

#include <cstdint>

namespace telestation::stats {

class CpuMeter {
public:
    CpuMeter() noexcept; // the first sample() measures from here

    // Percent of one core used since the previous sample (or construction): 100 = one core fully
    // busy, up to 100 × cores. 0 when no wall time has passed.
    [[nodiscard]] double sample() noexcept;

private:
    std::int64_t m_cpuNs = 0;
    std::int64_t m_wallNs = 0;
};

} // namespace telestation::stats
