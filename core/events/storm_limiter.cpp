#include "core/events/storm_limiter.hpp"

#include <algorithm>
#include <cstdio>

namespace telestation::events {

namespace {

// The kind a source is filed under: the pairs that describe one state going and coming back share it.
EventKind sourceKind(EventKind kind) noexcept
{
    switch (kind) {
    case EventKind::LimitCleared: return EventKind::LimitViolation;
    case EventKind::QueueWarningCleared: return EventKind::QueueWarning;
    case EventKind::StreamResumed: return EventKind::StreamStale;
    default: return kind;
    }
}

std::string seconds(std::int64_t ns)
{
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.1f s", static_cast<double>(ns) / 1e9);
    return buf;
}

std::string plural(std::uint64_t n, const char* one, const char* many)
{
    return formatCount(n) + ' ' + (n == 1 ? one : many);
}

// Where the source's text begins: the detail ("APID 7", a queue's name) or the parameter.
std::string subject(const Event& e)
{
    if (!e.parameter.empty())
        return e.parameter;
    if (!e.packetType.empty() && !e.detail.empty())
        return e.packetType + " (" + e.detail + ")";
    return !e.detail.empty() ? e.detail : e.packetType;
}

std::string summaryText(const Event& last, std::uint64_t count, std::uint64_t amount, std::int64_t spanNs)
{
    const std::string in = " in the last " + seconds(spanNs);
    const std::string who = subject(last);
    const std::string lead = who.empty() ? std::string() : who + ": ";
    switch (last.kind) {
    case EventKind::SequenceGap:
        return lead + plural(count, "gap", "gaps") + ", " + plural(amount, "packet", "packets") + " lost" + in;
    case EventKind::Duplicate: return lead + plural(amount, "duplicate packet", "duplicate packets") + in;
    case EventKind::OutOfOrder: return lead + plural(amount, "packet", "packets") + " out of order" + in;
    case EventKind::SequenceReset: return lead + plural(count, "sequence count reset", "sequence count resets") + in;
    case EventKind::Malformed:
        return plural(amount, "malformed packet", "malformed packets") + " dropped" + (who.empty() ? "" : " (" + who + ")") + in
            + "; latest: " + last.text;
    case EventKind::FramingError: return plural(amount, "framing error", "framing errors") + in + "; latest: " + last.text;
    case EventKind::KernelDrop: return plural(amount, "datagram", "datagrams") + " dropped by the kernel" + in;
    case EventKind::QueueDrop: return lead + plural(amount, "packet", "packets") + " dropped, queue full" + in;
    case EventKind::QueueWarning:
    case EventKind::QueueWarningCleared:
        return lead + plural(count, "warning-threshold crossing", "warning-threshold crossings") + in + "; now "
            + (last.kind == EventKind::QueueWarning ? "above" : "below") + " the threshold";
    case EventKind::LimitViolation:
    case EventKind::LimitCleared:
        return lead + plural(count, "limit transition", "limit transitions") + " (" + formatCount(amount)
            + " out of limits)" + in + "; now: " + last.text;
    default:
        return lead + plural(count, "more event", "more events") + " like this" + in + "; latest: " + last.text;
    }
}

} // namespace

std::string formatCount(std::uint64_t n)
{
    std::string digits = std::to_string(n);
    for (int i = static_cast<int>(digits.size()) - 3; i > 0; i -= 3)
        digits.insert(static_cast<std::size_t>(i), ",");
    return digits;
}

StormLimiter::Key StormLimiter::keyOf(const Event& e)
{
    return {sourceKind(e.kind), e.stream, e.packetType, e.parameter, e.detail};
}

bool StormLimiter::admit(const Event& event, std::int64_t nowNs)
{
    // The event's own time places it in its source's window (the event thread sees a round's events
    // at once); the round's time for events without one.
    if (event.timeNs != 0)
        nowNs = event.timeNs;
    const auto [it, added] = m_sources.try_emplace(keyOf(event));
    Window& w = it->second;
    if (added || (w.count == 0 && nowNs >= w.endNs)) {
        w = Window{nowNs, nowNs + m_windowNs, 0, 0, Severity::Info, event};
        return true;
    }
    w.count += event.count;
    w.amount += event.amount;
    w.worst = std::max(w.worst, event.severity);
    w.last = event;
    m_merged += event.count;
    return false;
}

bool StormLimiter::tryMerge(const Key& key, std::int64_t timeNs, std::uint64_t count, std::uint64_t amount,
                           Severity severity)
{
    const auto it = m_sources.find(key);
    if (it == m_sources.end())
        return false;
    Window& w = it->second;
    if (w.count == 0 && timeNs >= w.endNs)
        return false; // it would be the first of a new window: reported at once
    w.count += count;
    w.amount += amount;
    w.worst = std::max(w.worst, severity);
    m_merged += count;
    return true;
}

Event StormLimiter::summarise(const Window& w, std::int64_t nowNs)
{
    Event e = w.last;
    e.timeNs = std::max(e.timeNs, nowNs);
    e.severity = w.worst;
    e.count = w.count;
    e.amount = w.amount;
    e.number = 0;
    e.text = summaryText(w.last, w.count, w.amount, nowNs - w.startNs);
    return e;
}

std::vector<Event> StormLimiter::flush(std::int64_t nowNs, bool all)
{
    std::vector<Event> out;
    for (auto it = m_sources.begin(); it != m_sources.end();) {
        Window& w = it->second;
        if (!all && nowNs < w.endNs) {
            ++it;
            continue;
        }
        if (w.count == 0) { // quiet for a whole window: its next event is reported at once
            it = m_sources.erase(it);
            continue;
        }
        out.push_back(summarise(w, nowNs));
        w = Window{nowNs, nowNs + m_windowNs, 0, 0, Severity::Info, std::move(w.last)};
        ++it;
    }
    std::sort(out.begin(), out.end(), [](const Event& a, const Event& b) { return a.timeNs < b.timeNs; });
    return out;
}

} // namespace telestation::events
