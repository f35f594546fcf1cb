#include "rpc/event_follower.hpp"

#include <algorithm>
#include <string_view>

namespace telestation::rpc {

namespace {

// "a, b": the streams an event names (a forward destination several streams share names them all).
bool namesStream(std::string_view named, std::string_view stream)
{
    if (stream.empty() || named.empty())
        return named == stream;
    while (true) {
        const std::size_t comma = named.find(", ");
        if (named.substr(0, comma) == stream)
            return true;
        if (comma == std::string_view::npos)
            return false;
        named.remove_prefix(comma + 2);
    }
}

} // namespace

bool EventFilter::passes(const events::Event& event) const
{
    if (event.severity < minSeverity)
        return false;
    if (!kinds.empty() && std::find(kinds.begin(), kinds.end(), event.kind) == kinds.end())
        return false;
    return streams.empty() || std::any_of(streams.begin(), streams.end(), [&](const std::string& s) {
               return namesStream(event.stream, s);
           });
}

Result<EventFollower> EventFollower::create(const pipeline::Station& station, Start start, EventFilter filter)
{
    // Once per call: where the log is now (its newest number).
    const auto kept = station.events(0);
    const std::uint64_t newest = kept.empty() ? 0 : kept.back().number;
    if (start.after > newest)
        return Error{"no event numbered " + std::to_string(start.after) + " yet: the newest is "
                         + std::to_string(newest) + " (numbers start again with every station run)",
                     {}};
    if (start.after > 0)
        return EventFollower(station, start.after, false, std::move(filter));
    return EventFollower(station, start.history ? 0 : newest, start.history, std::move(filter));
}

EventFollower::EventFollower(const pipeline::Station& station, std::uint64_t last, bool fromHistory, EventFilter filter)
    : m_station(&station), m_last(last), m_fromHistory(fromHistory), m_filter(std::move(filter))
{
}

EventFollower::Taken EventFollower::take()
{
    Taken out;
    auto events = m_station->events(m_last);
    if (events.empty())
        return out;
    // Numbers are consecutive: a first one beyond the next expected means the log dropped those between.
    if (!m_fromHistory && events.front().number > m_last + 1)
        out.missed = events.front().number - m_last - 1;
    m_fromHistory = false;
    m_last = events.back().number;
    for (auto& e : events)
        if (m_filter.passes(e))
            out.events.push_back(std::move(e));
    return out;
}

} // namespace telestation::rpc
