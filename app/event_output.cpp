#include "app/event_output.hpp"

#include "core/events/storm_limiter.hpp"

namespace telestation::app {

EventOutput::EventOutput(const std::string& path)
{
    if (path.empty())
        return;
    m_out.open(path, std::ios::trunc);
    m_ok = static_cast<bool>(m_out);
}

void EventOutput::attach(pipeline::Station& station)
{
    station.addEventSink([this](std::span<const events::Event> batch) { take(batch); });
}

void EventOutput::take(std::span<const events::Event> batch)
{
    std::lock_guard lock(m_mutex);
    for (const auto& e : batch) {
        Tally& t = m_kinds[static_cast<std::size_t>(e.kind)];
        ++t.lines;
        t.count += e.count;
        t.amount += e.amount;
        if (m_out.is_open())
            m_out << events::toJsonLine(e) << '\n';
    }
    if (m_out.is_open())
        m_out.flush(); // a run killed later keeps what was reported
}

std::string EventOutput::summary(const std::vector<events::Alarm>& alarms) const
{
    std::lock_guard lock(m_mutex);
    std::uint64_t lines = 0;
    std::string kinds;
    for (std::size_t k = 0; k < m_kinds.size(); ++k) {
        const Tally& t = m_kinds[k];
        if (t.lines == 0)
            continue;
        lines += t.lines;
        kinds += (kinds.empty() ? "" : "; ") + events::formatCount(t.count) + ' '
            + std::string(events::eventKindName(static_cast<events::EventKind>(k)));
        if (t.count != t.lines)
            kinds += " (" + events::formatCount(t.lines) + " lines)";
        if (t.amount > 0 && t.amount != t.count)
            kinds += ", amount " + events::formatCount(t.amount);
    }
    std::string out = "Events: " + events::formatCount(lines) + " reported" + (kinds.empty() ? "" : ": " + kinds) + '\n';
    std::array<std::uint64_t, events::kSeverityCount> active{}, listed{};
    for (const auto& a : alarms) {
        ++listed[static_cast<std::size_t>(a.severity)];
        if (a.active)
            ++active[static_cast<std::size_t>(a.severity)];
    }
    out += "Alarms listed:";
    for (std::size_t s = 1; s < listed.size(); ++s)
        out += ' ' + events::formatCount(listed[s]) + ' ' + std::string(events::severityName(static_cast<events::Severity>(s)))
            + " (" + events::formatCount(active[s]) + " active)" + (s + 1 < listed.size() ? "," : "");
    out += '\n';
    return out;
}

} // namespace telestation::app
