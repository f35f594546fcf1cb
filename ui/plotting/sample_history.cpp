#include "ui/plotting/sample_history.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

namespace telestation::ui {

SampleHistory::SampleHistory(std::size_t capacity) : m_capacity(std::max<std::size_t>(capacity, 1)) {}

void SampleHistory::append(std::span<const Sample> samples)
{
    if (samples.empty())
        return;
    double newestTime = empty() ? -std::numeric_limits<double>::infinity() : newest().time;
    for (const Sample& sample : samples) {
        if (!std::isfinite(sample.time) || !std::isfinite(sample.value) || sample.time < newestTime) {
            ++m_rejected;
            continue;
        }
        newestTime = sample.time;
        ++m_appended;
        if (m_times.size() < m_capacity) {
            m_times.push_back(sample.time);
            m_values.push_back(sample.value);
            continue;
        }
        m_times[m_start] = sample.time;
        m_values[m_start] = sample.value;
        if (++m_start == m_capacity)
            m_start = 0;
    }
    ++m_revision;
}

void SampleHistory::clear() noexcept
{
    m_times.clear();
    m_values.clear();
    m_start = 0;
    ++m_revision;
}

std::array<SampleHistory::Segment, 2> SampleHistory::segments() const noexcept
{
    const std::span<const double> times(m_times);
    const std::span<const double> values(m_values);
    return {Segment{times.subspan(m_start), values.subspan(m_start)},
            Segment{times.first(m_start), values.first(m_start)}};
}

std::size_t SampleHistory::lowerBound(double t) const noexcept
{
    std::size_t low = 0;
    std::size_t count = size();
    while (count > 0) {
        const std::size_t half = count / 2;
        if (timeAt(low + half) < t) {
            low += half + 1;
            count -= half + 1;
        } else {
            count = half;
        }
    }
    return low;
}

std::size_t SampleHistory::upperBound(double t) const noexcept
{
    std::size_t low = 0;
    std::size_t count = size();
    while (count > 0) {
        const std::size_t half = count / 2;
        if (!(t < timeAt(low + half))) {
            low += half + 1;
            count -= half + 1;
        } else {
            count = half;
        }
    }
    return low;
}

SampleHistory::IndexRange SampleHistory::indexRange(double t0, double t1) const noexcept
{
    if (!(t0 <= t1))
        return {};
    const std::size_t begin = lowerBound(t0);
    return {begin, std::max(begin, upperBound(t1))};
}

} // namespace telestation::ui
