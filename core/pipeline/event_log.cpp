#include "core/pipeline/event_log.hpp"

#include "core/common/clock.hpp"

#include <spdlog/spdlog.h>

namespace telestation::pipeline {

void EventLog::add(EventSeverity severity, std::string stream, std::string text)
{
    const auto level = severity == EventSeverity::Error     ? spdlog::level::err
                       : severity == EventSeverity::Warning ? spdlog::level::warn
                                                            : spdlog::level::info;
    spdlog::log(level, "{}{}{}", stream, stream.empty() ? "" : ": ", text);
    std::lock_guard lock(m_mutex);
    m_events.push_back(StationEvent{++m_count, clock::realtimeNs(), severity, std::move(stream), std::move(text)});
    if (m_events.size() > kKept)
        m_events.pop_front();
}

std::vector<StationEvent> EventLog::since(std::uint64_t after) const
{
    std::lock_guard lock(m_mutex);
    std::vector<StationEvent> out;
    for (const auto& e : m_events)
        if (e.number > after)
            out.push_back(e);
    return out;
}

std::uint64_t EventLog::count() const
{
    std::lock_guard lock(m_mutex);
    return m_count;
}

} // namespace telestation::pipeline
