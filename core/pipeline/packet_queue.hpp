// PacketQueue: a bounded queue of packet handles between two threads (an SPSC ring) with the numbers
// an operator sees: depth, capacity, high-water mark, warning-threshold crossings and drops. TReK's
// network, process, record and forward packet queues are each one of these. Internal to core/pipeline.
#pragma once

#include "core/pipeline/counters.hpp"
#include "core/pipeline/packet_pool.hpp"
#include "core/pipeline/spsc_ring.hpp"
#include "core/stats/snapshot.hpp"

#include <algorithm>
#include <cstddef>
#include <span>

namespace telestation::pipeline {

struct PacketQueue {
    explicit PacketQueue(std::size_t capacity, std::size_t warning = 0) : ring(capacity), warningThreshold(warning) {}
    SpscRing<PacketHandle> ring;
    std::size_t warningThreshold;
    Counter pushed{0};   // producer
    Counter drops{0};    // producer
    Counter warnings{0}; // producer
    Counter done{0};     // consumer: packets taken and finished with
    std::atomic<bool> aboveWarning{false}; // producer writes; the event thread reads

    // Pushes a batch; returns how many fit (the caller drops the rest).
    std::size_t pushBatch(std::span<const PacketHandle> items) noexcept
    {
        const std::size_t n = tryPushBatch(items);
        if (n < items.size())
            bump(drops, items.size() - n);
        return n;
    }
    // The same without counting the rest as dropped (a playback source waits and tries again).
    std::size_t tryPushBatch(std::span<const PacketHandle> items) noexcept
    {
        const std::size_t n = ring.pushBatch(items);
        bump(pushed, n);
        if (warningThreshold > 0) {
            const std::size_t depth = ring.size();
            const bool above = aboveWarning.load(std::memory_order_relaxed);
            if (depth >= warningThreshold && !above) {
                aboveWarning.store(true, std::memory_order_relaxed);
                bump(warnings);
            } else if (depth < warningThreshold && above) {
                aboveWarning.store(false, std::memory_order_relaxed);
            }
        }
        return n;
    }
    // Free places (a playback stream's router takes only what every downstream queue can hold).
    [[nodiscard]] std::size_t room() const noexcept { return ring.capacity() - std::min(ring.capacity(), ring.size()); }
    [[nodiscard]] stats::QueueStats stats() const noexcept
    {
        stats::QueueStats q;
        q.depth = ring.size();
        q.capacity = ring.capacity();
        q.highWater = ring.highWater();
        q.warningThreshold = warningThreshold;
        q.warnings = get(warnings);
        q.drops = get(drops);
        return q;
    }
    [[nodiscard]] bool drained() const noexcept { return get(pushed) == get(done); }
};

} // namespace telestation::pipeline
