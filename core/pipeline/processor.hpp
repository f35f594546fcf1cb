// Processor: the worker that drains each stream's process packet queue. Pass thru: the packet goes to
// packet subscribers only. Process on demand: the newest packet of its type is kept for readers, and
// the parameters that parameter subscribers (a plot, a consumer) want are decoded for them — only those.
// Process entire packet: every parameter is decoded into the stream's current value table and offered
// to parameter subscribers (a variable layout's length is checked here, where its end is known).
// Operators' limits replace the mission's after decoding; a parameter whose limit state changes into or
// out of violation is reported to the event thread (a compare per parameter, an event per transition).
// Internal to core/pipeline.
#pragma once

#include "core/decode/decoded_value.hpp"
#include "core/pipeline/current_values.hpp"
#include "core/pipeline/subscriptions.hpp"
#include "core/pipeline/worker.hpp"

#include <memory>
#include <vector>

namespace telestation::pipeline {

class Processor final : public QueueWorker {
public:
    explicit Processor(StationCore& core);

private:
    void beforeRound() override;
    void handle(Stream& stream, std::span<const PacketHandle> batch) override;
    void process(Stream& s, PacketHandle h);
    void decodeAll(Stream& s, std::uint32_t type, std::span<const std::uint8_t> packet, std::int64_t receiveTimeNs);
    void decodeForSubscribers(Stream& s, std::uint32_t type, std::span<const std::uint8_t> packet,
                              std::int64_t receiveTimeNs);
    // Operators' limits over the mission's, for the decoded values in m_values.
    void applyLimitOverrides(std::uint32_t type, std::size_t count);
    // The packet's time (0 when it has none or it cannot be read).
    [[nodiscard]] std::int64_t packetTime(std::uint32_t type, std::span<const std::uint8_t> packet) const;
    // m_values[0, count) as samples, offered to every parameter subscriber of the stream.
    void offer(Stream& s, std::uint32_t type, std::size_t count, std::int64_t packetTimeNs, std::int64_t receiveTimeNs);
    void findLimitTransitions(Stream& s, std::uint32_t type, std::size_t count, std::int64_t receiveTimeNs);

    std::vector<std::vector<TypeSettings>> m_settings; // LiveSettings::perType
    std::vector<std::vector<decode::LimitOverride>> m_limits; // LiveSettings::limitOverrides
    std::uint64_t m_settingsVersion = 0;
    std::vector<std::shared_ptr<PacketSubscriptionQueue>> m_packetSubs;
    std::vector<std::shared_ptr<ParameterSubscriptionQueue>> m_parameterSubs;
    std::uint64_t m_subscriptionVersion = 0;
    std::vector<decode::DecodedValue> m_values; // one packet's parameters
    std::vector<ParameterSample> m_samples;
};

} // namespace telestation::pipeline
