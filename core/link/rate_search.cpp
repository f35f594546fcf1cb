#include "core/link/rate_search.hpp"

#include <algorithm>

namespace telestation::link {

RateSearch::RateSearch(Options options) : m_options(options) {}

std::optional<double> RateSearch::next() const
{
    if (m_tries >= m_options.maxTries)
        return std::nullopt;
    if (!m_pass && !m_fail)
        return std::min(m_options.start, m_options.maximum);
    if (!m_pass) { // everything failed so far: halve
        const double lower = *m_fail / 2;
        return lower < m_options.minimum ? std::nullopt : std::optional<double>(lower);
    }
    if (!m_fail) { // everything passed so far: double, up to the ceiling
        if (*m_pass >= m_options.maximum)
            return std::nullopt;
        return std::min(*m_pass * 2, m_options.maximum);
    }
    if (*m_fail <= *m_pass * (1 + m_options.tolerance))
        return std::nullopt;
    return (*m_pass + *m_fail) / 2;
}

void RateSearch::record(double rate, bool passed)
{
    ++m_tries;
    if (passed)
        m_pass = std::max(m_pass.value_or(rate), rate);
    else
        m_fail = std::min(m_fail.value_or(rate), rate);
    // A pass above a failure (a noisy machine) moves the failure up: the search brackets again.
    if (m_pass && m_fail && *m_fail <= *m_pass)
        m_fail.reset();
}

} // namespace telestation::link
