#include "core/pipeline/subscription_registry.hpp"

#include "core/pipeline/live_settings.hpp"

namespace telestation::pipeline {

namespace {

template <typename Queue>
stats::ConsumerStats consumerStats(const Queue& sub, const char* kind, const char* delivery)
{
    stats::ConsumerStats c;
    c.name = sub.name();
    c.kind = kind;
    c.delivery = delivery;
    c.queue.depth = sub.depth();
    c.queue.capacity = sub.capacity();
    c.queue.highWater = sub.highWater();
    c.queue.drops = sub.drops();
    c.delivered = sub.delivered();
    return c;
}

template <typename Queue>
void erase(std::vector<std::shared_ptr<Queue>>& list, const Queue* subscription)
{
    std::erase_if(list, [&](const auto& s) { return s.get() == subscription; });
}

} // namespace

void SubscriptionRegistry::add(std::shared_ptr<PacketSubscriptionQueue> subscription)
{
    std::lock_guard lock(m_mutex);
    m_packets.push_back(std::move(subscription));
    m_version.fetch_add(1, std::memory_order_release);
}

void SubscriptionRegistry::add(std::shared_ptr<ParameterSubscriptionQueue> subscription)
{
    std::lock_guard lock(m_mutex);
    m_parameters.push_back(std::move(subscription));
    m_version.fetch_add(1, std::memory_order_release);
}

void SubscriptionRegistry::remove(const PacketSubscriptionQueue* subscription)
{
    std::lock_guard lock(m_mutex);
    erase(m_packets, subscription);
    m_version.fetch_add(1, std::memory_order_release);
}

void SubscriptionRegistry::remove(const ParameterSubscriptionQueue* subscription)
{
    std::lock_guard lock(m_mutex);
    erase(m_parameters, subscription);
    m_version.fetch_add(1, std::memory_order_release);
}

// No version change: the processor does not serve newest-value consumers.
void SubscriptionRegistry::add(std::shared_ptr<NewestParameterConsumer> consumer)
{
    std::lock_guard lock(m_mutex);
    m_newestParameters.push_back(std::move(consumer));
}

void SubscriptionRegistry::remove(const NewestParameterConsumer* consumer)
{
    std::lock_guard lock(m_mutex);
    erase(m_newestParameters, consumer);
}

void SubscriptionRegistry::streamRemoved(std::uint16_t streamId)
{
    std::lock_guard lock(m_mutex);
    for (const auto& sub : m_packets)
        sub->streamRemoved(streamId);
    for (const auto& sub : m_parameters)
        sub->streamRemoved(streamId);
}

void SubscriptionRegistry::refresh(std::uint64_t& seen, std::vector<std::shared_ptr<PacketSubscriptionQueue>>& packets,
                                   std::vector<std::shared_ptr<ParameterSubscriptionQueue>>& parameters) const
{
    refreshIfChanged(m_version, seen, m_mutex, [&] {
        packets = m_packets;
        parameters = m_parameters;
    });
}

std::vector<stats::ConsumerStats> SubscriptionRegistry::stats() const
{
    std::lock_guard lock(m_mutex);
    std::vector<stats::ConsumerStats> out;
    for (const auto& sub : m_packets)
        out.push_back(consumerStats(*sub, "packets", sub->delivery() == Delivery::EverySample ? "everySample" : "newest"));
    for (const auto& sub : m_parameters)
        out.push_back(consumerStats(*sub, "parameters", "everySample"));
    for (const auto& consumer : m_newestParameters) {
        stats::ConsumerStats c;
        c.name = consumer->name();
        c.kind = "parameters";
        c.delivery = "newest";
        c.delivered = consumer->delivered();
        out.push_back(std::move(c)); // no queue: depth, capacity and drops 0
    }
    return out;
}

} // namespace telestation::pipeline
