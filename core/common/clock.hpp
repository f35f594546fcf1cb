// "Now" in nanoseconds, written once: the wall clock (receive times, event times, snapshots; what
// operators read) and the monotonic clock (intervals, pacing; never jumps). Header-only, std + POSIX.
#pragma once

#include <cstdint>
#include <time.h>

namespace telestation::clock {

namespace detail {
[[nodiscard]] inline std::int64_t nowNs(clockid_t id) noexcept
{
    timespec ts{};
    ::clock_gettime(id, &ts);
    return std::int64_t{ts.tv_sec} * 1'000'000'000 + ts.tv_nsec;
}
} // namespace detail

// Nanoseconds since the Unix epoch (CLOCK_REALTIME).
[[nodiscard]] inline std::int64_t realtimeNs() noexcept { return detail::nowNs(CLOCK_REALTIME); }
// Nanoseconds since an arbitrary start (CLOCK_MONOTONIC): for intervals only.
[[nodiscard]] inline std::int64_t monotonicNs() noexcept { return detail::nowNs(CLOCK_MONOTONIC); }
// CPU time this thread / this process has used (benchmarks, the CPU meter).
[[nodiscard]] inline std::int64_t threadCpuNs() noexcept { return detail::nowNs(CLOCK_THREAD_CPUTIME_ID); }
[[nodiscard]] inline std::int64_t processCpuNs() noexcept { return detail::nowNs(CLOCK_PROCESS_CPUTIME_ID); }

} // namespace telestation::clock
