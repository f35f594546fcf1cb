#include "core/stats/cpu_meter.hpp"

#include <sys/resource.h>
#include <time.h>

namespace telestation::stats {

namespace {

constexpr std::int64_t kNsPerSecond = 1'000'000'000;

std::int64_t toNs(const timeval& t) noexcept
{
    return static_cast<std::int64_t>(t.tv_sec) * kNsPerSecond + static_cast<std::int64_t>(t.tv_usec) * 1000;
}

// User + system time of every thread of the process so far; 0 if getrusage fails (it cannot with
// RUSAGE_SELF and a valid pointer).
std::int64_t processCpuNs() noexcept
{
    rusage usage {};
    if (getrusage(RUSAGE_SELF, &usage) != 0)
        return 0;
    return toNs(usage.ru_utime) + toNs(usage.ru_stime);
}

std::int64_t monotonicNs() noexcept
{
    timespec t {};
    clock_gettime(CLOCK_MONOTONIC, &t);
    return static_cast<std::int64_t>(t.tv_sec) * kNsPerSecond + t.tv_nsec;
}

} // namespace

CpuMeter::CpuMeter() noexcept
    : m_cpuNs(processCpuNs())
    , m_wallNs(monotonicNs())
{ }

double CpuMeter::sample() noexcept
{
    const std::int64_t cpuNs = processCpuNs();
    const std::int64_t wallNs = monotonicNs();
    const std::int64_t cpu = cpuNs - m_cpuNs;
    const std::int64_t wall = wallNs - m_wallNs;
    m_cpuNs = cpuNs;
    m_wallNs = wallNs;
    if (wall <= 0 || cpu <= 0)
        return 0.0;
    return 100.0 * static_cast<double>(cpu) / static_cast<double>(wall);
}

} // namespace telestation::stats
