#include "tools/perf/perf_events.hpp"

#include "tools/perf/perf_suite.hpp"

#include <sstream>

namespace telestation::perf {

std::uint64_t EventTally::of(const std::string& kind) const
{
    const auto it = byKind.find(kind);
    return it == byKind.end() ? 0 : it->second;
}

EventTally tallyEvents(const std::string& jsonLines)
{
    EventTally t;
    std::istringstream in(jsonLines);
    std::string line;
    while (std::getline(in, line)) {
        const Json e = Json::parse(line, nullptr, false);
        if (e.is_discarded() || !e.is_object())
            continue; // a line cut short by a station that was killed
        ++t.lines;
        const std::string kind = e.value("kind", std::string());
        const std::uint64_t count = u64(e, "count");
        t.byKind[kind] += count;
        if (kind == "limitViolation")
            t.parametersInViolation.insert(e.value("stream", std::string()) + "/" + e.value("parameter", std::string()));
        // EventMonitor's report of records that found a hot thread's ring full.
        if (kind == "station" && e.value("text", std::string()).find("could not be reported") != std::string::npos)
            t.unreported += u64(e, "amount");
    }
    return t;
}

Json toJson(const EventTally& t)
{
    return {{"lines", t.lines}, {"byKind", t.byKind}, {"parametersInViolation", t.parametersInViolation},
            {"unreported", t.unreported}};
}

EventTally eventTallyFromJson(const Json& j)
{
    EventTally t;
    t.lines = u64(j, "lines");
    for (const auto& [kind, count] : member(j, "byKind").items())
        t.byKind[kind] = count.is_number_unsigned() ? count.get<std::uint64_t>() : 0;
    for (const auto& p : member(j, "parametersInViolation"))
        if (p.is_string())
            t.parametersInViolation.insert(p.get<std::string>());
    t.unreported = u64(j, "unreported");
    return t;
}

} // namespace telestation::perf
