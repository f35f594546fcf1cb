// What a headless station reported as events, from its --events-out JSON lines: events by kind (storm
// summaries counted for what they stand for), the parameters that went out of limits, and the events
// its hot threads could not report. telestation-perf limits compares these between its runs.
#pragma once

#include <nlohmann/json.hpp>

#include <cstdint>
#include <map>
#include <set>
#include <string>

namespace telestation::perf {

// What the station reported as events (its --events-out JSON lines): storm summaries stand for `count`
// events each, so `byKind` is exact.
struct EventTally {
    std::uint64_t lines = 0;                      // events reported (a storm summary is one)
    std::map<std::string, std::uint64_t> byKind;  // "limitViolation" -> events it stands for
    std::set<std::string> parametersInViolation;  // "stream/PACKET.PARAMETER" of every limitViolation
    std::uint64_t unreported = 0;                 // events the hot threads' rings had no room for
    [[nodiscard]] std::uint64_t of(const std::string& kind) const;
    [[nodiscard]] std::uint64_t limitTransitions() const { return of("limitViolation") + of("limitCleared"); }
};
[[nodiscard]] EventTally tallyEvents(const std::string& jsonLines);
[[nodiscard]] nlohmann::json toJson(const EventTally& tally);
[[nodiscard]] EventTally eventTallyFromJson(const nlohmann::json& j);

} // namespace telestation::perf
