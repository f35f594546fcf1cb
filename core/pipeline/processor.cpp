#include "core/pipeline/processor.hpp"

#include <algorithm>

namespace telestation::pipeline {

Processor::Processor(StationCore& core)
    : QueueWorker(core, core.processorBell, &Stream::process)
    , m_values(std::max<std::uint32_t>(core.types.maxParametersPerPacket(), 1))
    , m_samples(m_values.size())
{
}

void Processor::beforeRound()
{
    auto& live = m_core.settings;
    refreshIfChanged(live.version, m_settingsVersion, live.mutex, [&] { m_settings = live.perType; });
    m_core.subscriptions.refresh(m_subscriptionVersion, m_packetSubs, m_parameterSubs);
}

void Processor::handle(Stream& stream, std::span<const PacketHandle> batch)
{
    for (const PacketHandle h : batch)
        process(stream, h);
}

void Processor::process(Stream& s, PacketHandle h)
{
    PacketPool& pool = *m_core.pool;
    const PacketMeta& meta = pool.meta(h);
    const std::uint32_t type = meta.typeIndex;
    const auto frame = pool.bytes(h);
    const auto packet = frame.subspan(std::min<std::size_t>(meta.transportHeaderBytes, frame.size()));
    const config::ProcessingMode mode = type == kUnknownType ? config::ProcessingMode::PassThru : m_settings[s.id][type].mode;
    if (mode == config::ProcessingMode::ProcessOnDemand)
        s.values->keepPacket(type, packet, meta.receiveTimeNs);
    else if (mode == config::ProcessingMode::ProcessEntirePacket)
        decodeAll(s, type, packet, meta.receiveTimeNs);
    for (const auto& sub : m_packetSubs)
        if (sub->wants(s.id, type))
            sub->offer(h);
    bump(s.processorCounters[type].processed);
    pool.release(h);
}

void Processor::decodeAll(Stream& s, std::uint32_t type, std::span<const std::uint8_t> packet, std::int64_t receiveTimeNs)
{
    const auto& plan = m_core.types.plan(type);
    const std::size_t count = plan.parameterCount();
    ProcessorTypeCounters& pc = s.processorCounters[type];
    decode::LayoutReport layout;
    plan.decode(packet, std::span<decode::DecodedValue>(m_values.data(), count), &layout);
    if (!plan.fixedLayout()) {
        if (layout.status != decode::LayoutStatus::Complete) {
            bump(pc.layoutErrors);
        } else if (packet.size() > layout.endByte()) {
            bump(pc.longPackets);
            bump(pc.extraBytes, packet.size() - layout.endByte());
        }
    }
    std::int64_t packetTime = 0;
    if (plan.hasPacketTime() && !plan.packetTime(packet, packetTime))
        packetTime = 0;
    const std::span<const decode::DecodedValue> values(m_values.data(), count);
    s.values->publish(type, values, packetTime, receiveTimeNs);
    bump(pc.parametersDecoded, count);
    if (m_parameterSubs.empty())
        return;
    const std::uint32_t firstId = m_core.types.firstParameterId(type);
    for (std::size_t i = 0; i < count; ++i) {
        ParameterSample& sample = m_samples[i];
        sample.parameterId = firstId + static_cast<std::uint32_t>(i);
        sample.streamId = s.id;
        sample.packetTimeNs = packetTime;
        sample.receiveTimeNs = receiveTimeNs;
        sample.value = values[i];
    }
    for (const auto& sub : m_parameterSubs)
        if (sub->wantsStream(s.id))
            sub->offer(type, std::span<const ParameterSample>(m_samples.data(), count));
}

} // namespace telestation::pipeline
