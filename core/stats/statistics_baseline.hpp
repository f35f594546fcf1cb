// A view's Reset (the statistics dialog's): remembers a snapshot and turns later snapshots into "since
// the reset" views. It never touches the engine, whose counters stay totals since start, so other
// views, the headless reports and the API are unaffected.
#pragma once

#include "core/stats/snapshot.hpp"

#include <cstddef>
#include <cstdint>
#include <functional>
#include <map>
#include <string>
#include <unordered_map>
#include <utility>

namespace telestation::stats {

// Counters shown as (current − baseline). What it does to each kind of number:
// - Counters (packets, bytes, errors, drops, warnings, connects, delivered ...): current − baseline.
//   A counter below its baseline means the station or the item restarted: it is shown as it is
//   (PacketCounters::since).
// - Queue depth, capacity and warning threshold: never baselined (they are states, not totals).
// - High water (queues, consumer queues): the engine keeps only its maximum since start. After a
//   reset the view shows the deepest depth it sampled since the reset (a lower bound, sampled at each
//   apply()), until the engine's high water rises above its value at the reset — from then on the
//   engine's value, which is exact.
// - Largest gap: likewise a maximum since start. After a reset it shows 0 until the engine sees a gap
//   larger than the largest before the reset; largestGapBefore() lets a view say "≤ N" meanwhile.
// - Rates, CPU, uptime, states: passed through.
// Items that appear after the reset (a new stream, packet type, destination or consumer) count from 0
// anyway: they are shown as they are.
class StatisticsBaseline {
public:
    // Makes `snapshot` the zero of the view.
    void reset(const StationSnapshot& snapshot);
    // No baseline: apply() passes snapshots through.
    void clear();
    [[nodiscard]] bool active() const noexcept { return m_active; }
    // When reset() was called (the baseline's timeNs; 0 when not active).
    [[nodiscard]] std::int64_t resetTimeNs() const noexcept { return m_active ? m_base.timeNs : 0; }

    // The view of `current` since the reset. Not const: it samples the queue depths for the high water.
    [[nodiscard]] StationSnapshot apply(const StationSnapshot& current);

    // The largest gap at the reset of a stream (type == nullptr) or one of its packet types; 0 when
    // there is no baseline or it did not have the item.
    [[nodiscard]] std::uint64_t largestGapBefore(
        const std::string& stream, const PacketTypeStats* type = nullptr) const;

private:
    [[nodiscard]] std::uint64_t sampledHighWater(const std::string& key, const QueueStats& now, const QueueStats& base);
    [[nodiscard]] const StreamStats* baseStream(const std::string& name) const;
    [[nodiscard]] const PacketTypeStats* baseType(const std::string& stream, const std::string& typeKey) const;

    bool m_active = false;
    StationSnapshot m_base;
    // Lookups into m_base (which does not change until the next reset): by stream name, and by
    // stream name + '\n' + packetTypeKey.
    std::unordered_map<std::string, std::size_t> m_streamIndex;
    std::unordered_map<std::string, std::pair<std::size_t, std::size_t>> m_typeIndex;
    std::map<std::string, std::uint64_t, std::less<>> m_observedDepth; // queue key -> deepest seen since reset
};

} // namespace telestation::stats
