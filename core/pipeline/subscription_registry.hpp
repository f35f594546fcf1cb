// SubscriptionRegistry: the master lists of the consumers' subscription queues (core/api creates
// them), versioned like the live settings: the processor copies the lists between batches when the
// version moved; and the newest-value parameter consumers, which have no queue and are listed only for
// the statistics. Any thread. Internal to core/pipeline.
#pragma once

#include "core/pipeline/subscriptions.hpp"
#include "core/stats/snapshot.hpp"

#include <atomic>
#include <cstdint>
#include <memory>
#include <mutex>
#include <vector>

namespace telestation::pipeline {

class SubscriptionRegistry {
public:
    void add(std::shared_ptr<PacketSubscriptionQueue> subscription);
    void add(std::shared_ptr<ParameterSubscriptionQueue> subscription);
    void remove(const PacketSubscriptionQueue* subscription);
    void remove(const ParameterSubscriptionQueue* subscription);
    void add(std::shared_ptr<NewestParameterConsumer> consumer);
    void remove(const NewestParameterConsumer* consumer);

    // Stream `streamId` was removed: subscriptions to it alone get nothing more (before its id is reused).
    void streamRemoved(std::uint16_t streamId);

    // The processor's copies, refreshed when the lists changed since `seen` (between batches).
    void refresh(std::uint64_t& seen, std::vector<std::shared_ptr<PacketSubscriptionQueue>>& packets,
                 std::vector<std::shared_ptr<ParameterSubscriptionQueue>>& parameters) const;

    // Each consumer as the statistics show it: packet subscriptions, every-sample parameter
    // subscriptions, then newest-value parameter consumers.
    [[nodiscard]] std::vector<stats::ConsumerStats> stats() const;

private:
    mutable std::mutex m_mutex;
    std::vector<std::shared_ptr<PacketSubscriptionQueue>> m_packets;
    std::vector<std::shared_ptr<ParameterSubscriptionQueue>> m_parameters;
    std::vector<std::shared_ptr<NewestParameterConsumer>> m_newestParameters; // not the processor's business
    std::atomic<std::uint64_t> m_version{1};
};

} // namespace telestation::pipeline
