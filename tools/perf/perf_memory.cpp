#include "tools/perf/perf_memory.hpp"

#include <algorithm>
#include <cmath>

namespace telestation::perf {

MemoryPeriod memoryPeriod(const std::vector<EnduranceSample>& samples, double from, double warmupEnd, double to)
{
    MemoryPeriod m;
    m.from = from;
    m.warmupEnd = warmupEnd;
    m.to = to;
    std::vector<EnduranceSample> in;
    for (const auto& s : samples)
        if (s.seconds >= from && s.seconds <= to)
            in.push_back(s);
    const auto afterWarmup = std::find_if(in.begin(), in.end(), [&](const EnduranceSample& s) { return s.seconds >= warmupEnd; });
    if (in.size() < 2 || afterWarmup == in.end())
        return m;
    m.measured = true;
    m.atStart = in.front().rssBytes;
    m.afterWarmup = afterWarmup->rssBytes;
    m.atEnd = in.back().rssBytes;
    for (auto it = afterWarmup; it != in.end(); ++it)
        m.peak = std::max(m.peak, it->rssBytes);
    m.growthPercent = 100.0 * (double(m.atEnd) - double(m.afterWarmup)) / double(m.afterWarmup);
    // Levelled off at the first sample from which every later one is within kLevelPercent of the end.
    const double band = double(m.atEnd) * kLevelPercent / 100;
    m.levelledOffAt = in.back().seconds;
    for (auto it = in.rbegin(); it != in.rend() && std::abs(double(it->rssBytes) - double(m.atEnd)) <= band; ++it)
        m.levelledOffAt = it->seconds;
    return m;
}

} // namespace telestation::perf
