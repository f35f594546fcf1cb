#include "core/pipeline/subscriptions.hpp"

namespace telestation::pipeline {

PacketSubscriptionQueue::PacketSubscriptionQueue(std::shared_ptr<PacketPool> pool, std::string name, int streamId,
                                                 std::uint32_t typeIndex, Delivery delivery, std::size_t capacity)
    : m_pool(std::move(pool))
    , m_name(std::move(name))
    , m_streamId(streamId)
    , m_typeIndex(typeIndex)
    , m_delivery(delivery)
    , m_ring(delivery == Delivery::EverySample ? capacity : 1)
{
}

PacketSubscriptionQueue::~PacketSubscriptionQueue()
{
    PacketHandle h = kNoPacket;
    while (m_ring.pop(h))
        m_pool->release(h);
    h = m_newest.exchange(kNoPacket);
    if (h != kNoPacket)
        m_pool->release(h);
}

void PacketSubscriptionQueue::offer(PacketHandle h) noexcept
{
    m_pool->addRef(h);
    if (m_delivery == Delivery::Newest) {
        const PacketHandle old = m_newest.exchange(h, std::memory_order_acq_rel);
        if (old != kNoPacket)
            m_pool->release(old); // replaced before the consumer took it: newest-value delivery, not a drop
        return;
    }
    if (!m_ring.push(h)) {
        m_pool->release(h);
        m_drops.store(m_drops.load(std::memory_order_relaxed) + 1, std::memory_order_relaxed);
    }
}

std::size_t PacketSubscriptionQueue::take(std::span<PacketHandle> out) noexcept
{
    std::size_t n = 0;
    if (m_delivery == Delivery::Newest) {
        if (out.empty())
            return 0;
        const PacketHandle h = m_newest.exchange(kNoPacket, std::memory_order_acq_rel);
        if (h != kNoPacket)
            out[n++] = h;
    } else {
        n = m_ring.popBatch(out);
    }
    if (n > 0)
        m_delivered.fetch_add(n, std::memory_order_relaxed);
    return n;
}

std::size_t PacketSubscriptionQueue::depth() const noexcept
{
    if (m_delivery == Delivery::Newest)
        return m_newest.load(std::memory_order_relaxed) == kNoPacket ? 0 : 1;
    return m_ring.size();
}

ParameterSubscriptionQueue::ParameterSubscriptionQueue(const PacketTypeTable& types, std::string name, int streamId,
                                                       const std::vector<std::uint32_t>& parameterIds,
                                                       std::size_t capacity)
    : m_name(std::move(name))
    , m_streamId(streamId)
    , m_typeWants(types.typeCount(), parameterIds.empty() ? Want::All : Want::None)
    , m_wanted(types.totalParameters(), parameterIds.empty() ? 1 : 0)
    , m_ring(capacity)
    , m_scratch(types.maxParametersPerPacket())
{
    for (const std::uint32_t id : parameterIds) {
        if (id >= types.totalParameters())
            continue;
        m_wanted[id] = 1;
        m_typeWants[types.parameter(id).typeIndex] = Want::Some;
    }
    for (std::uint32_t t = 1; t < types.typeCount() && !parameterIds.empty(); ++t) {
        bool all = types.parameterCount(t) > 0;
        for (std::uint32_t id = types.firstParameterId(t); id < types.firstParameterId(t) + types.parameterCount(t); ++id)
            all = all && m_wanted[id];
        if (all)
            m_typeWants[t] = Want::All;
    }
}

void ParameterSubscriptionQueue::offer(std::uint32_t typeIndex, std::span<const ParameterSample> samples) noexcept
{
    std::span<const ParameterSample> toPush;
    switch (m_typeWants[typeIndex]) {
    case Want::None:
        return;
    case Want::All:
        toPush = samples;
        break;
    case Want::Some: {
        std::size_t n = 0;
        for (const auto& s : samples)
            if (m_wanted[s.parameterId])
                m_scratch[n++] = s;
        toPush = std::span<const ParameterSample>(m_scratch.data(), n);
        break;
    }
    }
    const std::size_t pushed = m_ring.pushBatch(toPush);
    if (pushed < toPush.size())
        m_drops.store(m_drops.load(std::memory_order_relaxed) + (toPush.size() - pushed), std::memory_order_relaxed);
}

std::size_t ParameterSubscriptionQueue::take(std::span<ParameterSample> out) noexcept
{
    const std::size_t n = m_ring.popBatch(out);
    if (n > 0)
        m_delivered.fetch_add(n, std::memory_order_relaxed);
    return n;
}

} // namespace telestation::pipeline
