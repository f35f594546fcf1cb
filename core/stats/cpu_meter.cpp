#include "core/stats/cpu_meter.hpp"

#include "core/common/clock.hpp"

namespace telestation::stats {

CpuMeter::CpuMeter() noexcept
    : m_cpuNs(clock::processCpuNs())
    , m_wallNs(clock::monotonicNs())
{ }

double CpuMeter::sample() noexcept
{
    const std::int64_t cpuNs = clock::processCpuNs();
    const std::int64_t wallNs = clock::monotonicNs();
    const std::int64_t cpu = cpuNs - m_cpuNs;
    const std::int64_t wall = wallNs - m_wallNs;
    m_cpuNs = cpuNs;
    m_wallNs = wallNs;
    if (wall <= 0 || cpu <= 0)
        return 0.0;
    return 100.0 * static_cast<double>(cpu) / static_cast<double>(wall);
}

} // namespace telestation::stats
