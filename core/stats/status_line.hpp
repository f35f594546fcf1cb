// What a headless run prints for people: a one-line status every interval and a summary table at the
// end (format: core/stats/README.md). Machines read the JSON (snapshot_json.hpp) instead.
#pragma once

#include "core/stats/snapshot.hpp"

#include <cstdint>
#include <string>

namespace telestation::stats {

// e.g. `12:00:05Z up 00:01:05 | 97.1k pkt/s 1000.3 Mbit/s 5.01M par/s | rx 6.31M lost 0 drop 0
// malformed 0 err 0 | cpu 63% | tm1: receiving on 127.0.0.1:47001` (one line, no newline).
[[nodiscard]] std::string statusLine(const StationSnapshot& snapshot);

// A multi-line table per stream, packet type, queue, forward destination and consumer, with exact
// counts; ends with a newline.
[[nodiscard]] std::string summaryTable(const StationSnapshot& snapshot);

// Building blocks, also for other human-readable views.
// Three significant digits with k/M/G/T/P/E above 999 ("97.1k", "6.31M"); below 1000 an integral
// value is printed whole, others with one decimal below 100 and whole above ("0.5", "97.1", "950").
[[nodiscard]] std::string formatCompact(double value);
// Exact below 1000, else formatCompact.
[[nodiscard]] std::string formatCount(std::uint64_t value);
// "HH:MM:SS", with "Nd " in front from one day on; negative or not finite counts as 0.
[[nodiscard]] std::string formatDuration(double seconds);

// Packets dropped at a full queue or for want of a pool slot. The process/record/forward queue drops
// appear twice in a snapshot (the packet types' counters and the queues' drops): each is taken once,
// as the larger of the two. The station's count adds the consumers' queue drops.
[[nodiscard]] std::uint64_t dropCount(const PacketCounters& counters) noexcept;
[[nodiscard]] std::uint64_t dropCount(const StreamStats& stream) noexcept;
[[nodiscard]] std::uint64_t dropCount(const StationSnapshot& snapshot) noexcept;
// Packets not recorded or not forwarded because of a failure, and receiver framing errors and
// truncated packets.
[[nodiscard]] std::uint64_t errorCount(const PacketCounters& counters) noexcept;
[[nodiscard]] std::uint64_t errorCount(const StreamStats& stream) noexcept;
[[nodiscard]] std::uint64_t errorCount(const StationSnapshot& snapshot) noexcept;

} // namespace telestation::stats
