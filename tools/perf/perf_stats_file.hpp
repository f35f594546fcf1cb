// A station's statistics snapshots as JSON lines in a file — the headless mode's --stats-out, or
// telestation-api-stats' output for a GUI station (the same lines): its counts so far, its newest
// snapshot, and waiting until it has caught up with what was sent.
#pragma once

#include "tools/perf/perf_suite.hpp"

#include <cstdint>
#include <filesystem>
#include <optional>

namespace telestation::perf {

struct Progress {
    std::uint64_t received = 0, processed = 0;
    friend bool operator==(const Progress&, const Progress&) = default;
};

// The last complete line of the file as JSON; null when there is none yet.
[[nodiscard]] Json lastSnapshot(const std::filesystem::path& statsFile);
// The counts of the last complete line.
[[nodiscard]] std::optional<Progress> progressSoFar(const std::filesystem::path& statsFile);
// Waits until the station has received `expected` packets and processed what it received, or its
// counts have not moved for 1.5 s (the rest was lost; a starved station can pause that long).
void waitForCatchUp(const std::filesystem::path& statsFile, std::uint64_t expected);

} // namespace telestation::perf
