// A station's statistics snapshot read back from its JSON (a headless --stats-out or --summary-out
// line, or telestation-api-stats' for a GUI station): the counts and names that telestation-perf checks
// — totals, streams with their receiver numbers, queues and packet types, forward destinations and
// consumers — so that loss is judged by stats::StationSnapshot::hasLoss(), the headless exit code's rule,
// whichever kind of station ran. Rates, states and times are left at their defaults.
#pragma once

#include "core/stats/snapshot.hpp"
#include "tools/perf/perf_suite.hpp"

namespace telestation::perf {

[[nodiscard]] stats::StationSnapshot snapshotFromJson(const Json& json);

// What hasLoss() found, as "stream tcp-mix: packetsLost 3, networkQueue drops 2; forward udp://...: notSent 1";
// empty when nothing was lost.
[[nodiscard]] std::string lossText(const stats::StationSnapshot& snapshot);

} // namespace telestation::perf
