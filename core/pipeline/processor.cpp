#include "core/pipeline/processor.hpp"

#include <algorithm>

namespace telestation::pipeline {

Processor::Processor(StationCore& core)
    : QueueWorker(core, core.processorBell, &Stream::process, "ts-processor")
    , m_values(std::max<std::uint32_t>(core.types.maxParametersPerPacket(), 1))
    , m_samples(m_values.size())
{
}

void Processor::beforeRound()
{
    auto& live = m_core.settings;
    refreshIfChanged(live.version, m_settingsVersion, live.mutex, [&] {
        m_settings = live.perType;
        m_limits = live.limitOverrides;
    });
    m_core.subscriptions.refresh(m_subscriptionVersion, m_packetSubs, m_parameterSubs);
}

void Processor::handle(Stream& stream, std::span<const PacketHandle> batch)
{
    if (m_settingsVersion < stream.settingsVersion) [[unlikely]] // added or replaced since beforeRound
        beforeRound();
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
            RawEvent e;
            e.kind = RawEventKind::LayoutError;
            e.timeNs = receiveTimeNs;
            e.streamId = s.id;
            e.typeIndex = type;
            e.apid = m_core.types.definition(type).apid;
            e.reason = static_cast<std::uint8_t>(layout.status);
            e.parameterIndex = static_cast<std::uint32_t>(std::max(layout.failedIndex, 0));
            e.size = static_cast<std::uint32_t>(packet.size());
            m_core.processorEvents.push(e);
        } else if (packet.size() > layout.endByte()) {
            bump(pc.longPackets);
            bump(pc.extraBytes, packet.size() - layout.endByte());
        }
    }
    if (!m_limits[type].empty()) [[unlikely]]
        for (const decode::LimitOverride& o : m_limits[type])
            if (o.index < count && m_values[o.index].present)
                m_values[o.index].limit = o.evaluate(m_values[o.index]);
    findLimitTransitions(s, type, count, receiveTimeNs);
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

namespace {

[[nodiscard]] bool violation(decode::LimitState state) noexcept
{
    return state != decode::LimitState::None && state != decode::LimitState::Normal;
}

} // namespace

// Each parameter's new limit state against its previous one (a byte compare per parameter); only a
// change into, within or out of violation is reported — a parameter's first value within limits is not.
void Processor::findLimitTransitions(Stream& s, std::uint32_t type, std::size_t count, std::int64_t receiveTimeNs)
{
    decode::LimitState* last = s.lastLimit.get() + m_core.types.firstParameterId(type);
    for (std::size_t i = 0; i < count; ++i) {
        const decode::DecodedValue& v = m_values[i];
        if (v.limit == last[i] || !v.present) [[likely]]
            continue;
        const decode::LimitState was = last[i];
        last[i] = v.limit;
        if (!violation(v.limit) && !violation(was))
            continue;
        RawEvent e;
        e.kind = RawEventKind::Limit;
        e.timeNs = receiveTimeNs;
        e.streamId = s.id;
        e.typeIndex = type;
        e.parameterIndex = static_cast<std::uint32_t>(i);
        e.value = v.calibrated;
        e.state = v.state;
        e.from = static_cast<std::uint8_t>(was);
        e.to = static_cast<std::uint8_t>(v.limit);
        m_core.processorEvents.push(e);
    }
}

} // namespace telestation::pipeline
