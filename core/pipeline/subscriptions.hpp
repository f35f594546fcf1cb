// The engine's side of consumer subscriptions (core/api wraps them): the processor thread pushes into
// them, one consumer thread pulls. A subscription is created by the consumer, registered with the
// Station, and picked up by the processor at its next batch (no lock on the packet path).
//
// Packet subscriptions carry PacketHandles: every sample → a bounded ring (one reference per queued
// packet; overflow drops the newest and counts it); newest → a single slot the processor swaps.
// Parameter subscriptions (every sample) carry ParameterSample values in a bounded ring; "newest value"
// consumers read the CurrentValueTable instead and need no queue: they register a
// NewestParameterConsumer only so that the statistics list them.
#pragma once

#include "core/pipeline/current_values.hpp"
#include "core/pipeline/packet_pool.hpp"
#include "core/pipeline/spsc_ring.hpp"

#include <atomic>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace telestation::pipeline {

enum class Delivery : std::uint8_t { EverySample, Newest };

inline constexpr int kAllStreams = -1;
inline constexpr int kRemovedStream = -2; // the subscription's stream was removed: it gets nothing more
inline constexpr std::uint32_t kAllTypes = 0xFFFFFFFFu;

class PacketSubscriptionQueue {
public:
    PacketSubscriptionQueue(std::shared_ptr<PacketPool> pool, std::string name, int streamId, std::uint32_t typeIndex,
                            Delivery delivery, std::size_t capacity);
    ~PacketSubscriptionQueue(); // releases the packets still queued

    [[nodiscard]] bool wants(std::uint16_t streamId, std::uint32_t typeIndex) const noexcept
    {
        const int wanted = m_streamId.load(std::memory_order_relaxed);
        return (wanted == kAllStreams || wanted == streamId) && (m_typeIndex == kAllTypes || m_typeIndex == typeIndex);
    }
    // The stream `streamId` was removed (its id may be given to another stream later): a subscription
    // to that one stream gets nothing more.
    void streamRemoved(std::uint16_t streamId) noexcept
    {
        int wanted = streamId;
        m_streamId.compare_exchange_strong(wanted, kRemovedStream, std::memory_order_relaxed);
    }
    // Processor side: offers a packet (the subscription takes its own reference when it keeps it).
    void offer(PacketHandle h) noexcept;
    // Consumer side: up to out.size() packets, each holding one reference the consumer must release
    // (pool().release) when done.
    [[nodiscard]] std::size_t take(std::span<PacketHandle> out) noexcept;

    [[nodiscard]] PacketPool& pool() noexcept { return *m_pool; }
    [[nodiscard]] const std::string& name() const noexcept { return m_name; }
    [[nodiscard]] Delivery delivery() const noexcept { return m_delivery; }
    [[nodiscard]] std::size_t depth() const noexcept;
    [[nodiscard]] std::size_t capacity() const noexcept { return m_ring.capacity(); }
    [[nodiscard]] std::size_t highWater() const noexcept { return m_ring.highWater(); }
    [[nodiscard]] std::uint64_t drops() const noexcept { return m_drops.load(std::memory_order_relaxed); }
    [[nodiscard]] std::uint64_t delivered() const noexcept { return m_delivered.load(std::memory_order_relaxed); }

private:
    std::shared_ptr<PacketPool> m_pool;
    std::string m_name;
    std::atomic<int> m_streamId; // kRemovedStream once its stream is removed
    std::uint32_t m_typeIndex;
    Delivery m_delivery;
    SpscRing<PacketHandle> m_ring;
    std::atomic<PacketHandle> m_newest{kNoPacket};
    std::atomic<std::uint64_t> m_drops{0};
    std::atomic<std::uint64_t> m_delivered{0};
};

class ParameterSubscriptionQueue {
public:
    // parameterIds: the parameters wanted (ids from PacketTypeTable); empty = every parameter.
    ParameterSubscriptionQueue(const PacketTypeTable& types, std::string name, int streamId,
                               const std::vector<std::uint32_t>& parameterIds, std::size_t capacity);

    [[nodiscard]] bool wantsStream(std::uint16_t streamId) const noexcept
    {
        const int wanted = m_streamId.load(std::memory_order_relaxed);
        return wanted == kAllStreams || wanted == streamId;
    }
    void streamRemoved(std::uint16_t streamId) noexcept // as PacketSubscriptionQueue's
    {
        int wanted = streamId;
        m_streamId.compare_exchange_strong(wanted, kRemovedStream, std::memory_order_relaxed);
    }
    // Processor side: the decoded samples of one packet (consecutive parameter ids of one type).
    void offer(std::uint32_t typeIndex, std::span<const ParameterSample> samples) noexcept;
    // Processor side, for a type processed on demand (only what some subscription wants is decoded):
    // whether any / every parameter of the type is wanted, and whether one parameter is.
    [[nodiscard]] bool wantsAnyOf(std::uint32_t typeIndex) const noexcept { return m_typeWants[typeIndex] != Want::None; }
    [[nodiscard]] bool wantsAllOf(std::uint32_t typeIndex) const noexcept { return m_typeWants[typeIndex] == Want::All; }
    [[nodiscard]] bool wantsParameter(std::uint32_t parameterId) const noexcept { return m_wanted[parameterId] != 0; }
    // Consumer side.
    [[nodiscard]] std::size_t take(std::span<ParameterSample> out) noexcept;

    [[nodiscard]] const std::string& name() const noexcept { return m_name; }
    [[nodiscard]] std::size_t depth() const noexcept { return m_ring.size(); }
    [[nodiscard]] std::size_t capacity() const noexcept { return m_ring.capacity(); }
    [[nodiscard]] std::size_t highWater() const noexcept { return m_ring.highWater(); }
    [[nodiscard]] std::uint64_t drops() const noexcept { return m_drops.load(std::memory_order_relaxed); }
    [[nodiscard]] std::uint64_t delivered() const noexcept { return m_delivered.load(std::memory_order_relaxed); }

private:
    enum class Want : std::uint8_t { None, Some, All };
    std::string m_name;
    std::atomic<int> m_streamId; // kRemovedStream once its stream is removed
    std::vector<Want> m_typeWants;        // per type index
    std::vector<std::uint8_t> m_wanted;   // per parameter id
    SpscRing<ParameterSample> m_ring;
    std::vector<ParameterSample> m_scratch; // the processor's filtered copy (processor thread only)
    std::atomic<std::uint64_t> m_drops{0};
    std::atomic<std::uint64_t> m_delivered{0};
};

// A newest-value parameter consumer as the statistics show it: its name and the values it has taken.
// It has no queue (depth 0, never a drop) and the processor never sees it. One consumer thread counts;
// any thread reads.
class NewestParameterConsumer {
public:
    explicit NewestParameterConsumer(std::string name) : m_name(std::move(name)) {}

    void countDelivered(std::size_t n) noexcept { m_delivered.fetch_add(n, std::memory_order_relaxed); }
    [[nodiscard]] const std::string& name() const noexcept { return m_name; }
    [[nodiscard]] std::uint64_t delivered() const noexcept { return m_delivered.load(std::memory_order_relaxed); }

private:
    std::string m_name;
    std::atomic<std::uint64_t> m_delivered{0};
};

} // namespace telestation::pipeline
