// The statistics snapshot as JSON: one compact line per snapshot for a headless run's JSON lines, and
// a 2-space indented document for its final summary. Keys are the C++ member names, in declaration
// order. Written by hand (core/stats uses the standard library only).
#pragma once

#include "core/stats/snapshot.hpp"

#include <string>
#include <string_view>

namespace telestation::stats {

// One line, no newline. uint64/int64 values are written exactly (readers that hold numbers as
// doubles, such as JavaScript or QJsonDocument, lose precision above 2^53: timeNs is one of those);
// doubles in their shortest round-tripping form; NaN and infinities as null.
[[nodiscard]] std::string toJson(const StationSnapshot& snapshot);
[[nodiscard]] std::string toJson(const PacketCounters& counters);
[[nodiscard]] std::string toJson(const QueueStats& queue);
[[nodiscard]] std::string toJson(const Rates& rates);

// The same document, indented by 2 spaces per level, one member per line; no newline at the end.
[[nodiscard]] std::string toJsonPretty(const StationSnapshot& snapshot);

// Appends `text` as a quoted JSON string: '"' and '\' escaped, control characters (< 0x20) as \u00XX,
// valid UTF-8 passed through unchanged, each byte of an invalid UTF-8 sequence replaced by U+FFFD
// (so that the output is always valid JSON).
void appendJsonString(std::string& out, std::string_view text);

} // namespace telestation::stats
