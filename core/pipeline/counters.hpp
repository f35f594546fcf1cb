// The station's live counters: relaxed atomics with one writer thread each (a load + store is enough,
// and cheaper than a locked add), grouped per writer on their own cache lines; any thread may read
// them (snapshot_assembly.cpp). Internal to core/pipeline.
#pragma once

#include <atomic>
#include <cstdint>

namespace telestation::pipeline {

using Counter = std::atomic<std::uint64_t>;

inline void bump(Counter& c, std::uint64_t n = 1) noexcept
{
    c.store(c.load(std::memory_order_relaxed) + n, std::memory_order_relaxed);
}
[[nodiscard]] inline std::uint64_t get(const Counter& c) noexcept { return c.load(std::memory_order_relaxed); }
inline void set(Counter& c, std::uint64_t value) noexcept { c.store(value, std::memory_order_relaxed); }

// Per packet type, one group per writer thread.
struct alignas(64) ReceiverTypeCounters {
    Counter networkDrops{0}, networkDropBytes{0};
};
struct alignas(64) RouterTypeCounters {
    Counter received{0}, bytes{0}, unknown{0}, discarded{0}, malformed{0}, shortPackets{0}, longPackets{0}, extraBytes{0};
    Counter processDrops{0}, recordDrops{0}, forwardDrops{0};
    std::atomic<std::int64_t> lastReceiveTimeNs{0};
};
struct alignas(64) ProcessorTypeCounters {
    Counter processed{0}, parametersDecoded{0};
    Counter decoded{0}; // Process Entire Packet: packets decoded (on demand: CurrentValueTable::decodedOnDemand)
    // Variable layouts are checked when decoded: shorter than the layout (malformed), or longer.
    Counter layoutErrors{0}, longPackets{0}, extraBytes{0};
};
struct alignas(64) RecorderTypeCounters {
    Counter recorded{0}, bytes{0}, errors{0};
};
struct alignas(64) ForwarderTypeCounters {
    Counter forwarded{0}, bytes{0}, errors{0};
};
// Sequence counters per APID (the router publishes the tracker's numbers for the APID it touched).
struct ApidSequence {
    Counter sequenceErrors{0}, lost{0}, largestGap{0}, duplicates{0};
};

} // namespace telestation::pipeline
