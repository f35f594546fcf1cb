#include "core/pipeline/event_log.hpp"

#include <spdlog/spdlog.h>

namespace telestation::pipeline {

std::uint64_t EventLog::add(events::Event& event)
{
    using events::Severity;
    if (m_logged) {
        const auto level = event.severity >= Severity::Error ? spdlog::level::err
                           : event.severity == Severity::Warning ? spdlog::level::warn
                                                                 : spdlog::level::info;
        spdlog::log(level, "{}{}{}", event.stream, event.stream.empty() ? "" : ": ", event.text);
    }
    std::lock_guard lock(m_mutex);
    event.number = ++m_count;
    m_events.push_back(event);
    if (m_events.size() > kKept)
        m_events.pop_front();
    return event.number;
}

std::vector<events::Event> EventLog::since(std::uint64_t after) const
{
    std::lock_guard lock(m_mutex);
    std::vector<events::Event> out;
    // Numbers are consecutive: skip straight to the first one wanted.
    const std::uint64_t first = m_events.empty() ? 0 : m_events.front().number;
    const std::size_t skip = after >= first ? static_cast<std::size_t>(after - first + 1) : 0;
    for (std::size_t i = std::min(skip, m_events.size()); i < m_events.size(); ++i)
        out.push_back(m_events[i]);
    return out;
}

std::uint64_t EventLog::count() const
{
    std::lock_guard lock(m_mutex);
    return m_count;
}

} // namespace telestation::pipeline
