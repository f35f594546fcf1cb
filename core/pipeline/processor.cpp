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
    if (mode == config::ProcessingMode::ProcessOnDemand) {
        s.values->keepPacket(type, packet, meta.receiveTimeNs);
        if (!m_parameterSubs.empty())
            decodeForSubscribers(s, type, packet, meta.receiveTimeNs);
    } else if (mode == config::ProcessingMode::ProcessEntirePacket)
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
    applyLimitOverrides(type, count);
    findLimitTransitions(s, type, count, receiveTimeNs);
    const std::int64_t packetTimeNs = packetTime(type, packet);
    s.values->publish(type, std::span<const decode::DecodedValue>(m_values.data(), count), packetTimeNs, receiveTimeNs);
    bump(pc.parametersDecoded, count);
    bump(pc.decoded);
    offer(s, type, count, packetTimeNs, receiveTimeNs);
}

// Process on demand: nothing is decoded unless a parameter subscriber of the stream wants some of the
// type; then what any of them wants (all of it when one wants every parameter), and the packet counts
// as decoded once (CurrentValueTable::countDecoded: a reader decoding the same kept packet does not
// count it again). No limit transitions: they are found where every packet is decoded.
void Processor::decodeForSubscribers(Stream& s, std::uint32_t type, std::span<const std::uint8_t> packet,
                                     std::int64_t receiveTimeNs)
{
    bool any = false, all = false;
    for (const auto& sub : m_parameterSubs)
        if (sub->wantsStream(s.id)) {
            any = any || sub->wantsAnyOf(type);
            all = all || sub->wantsAllOf(type);
        }
    if (!any)
        return;
    const auto& plan = m_core.types.plan(type);
    const std::size_t count = plan.parameterCount();
    const std::uint32_t firstId = m_core.types.firstParameterId(type);
    std::uint64_t decoded = 0;
    if (all) {
        plan.decode(packet, std::span<decode::DecodedValue>(m_values.data(), count), nullptr);
        decoded = count;
    } else {
        for (std::size_t i = 0; i < count; ++i) {
            const auto id = firstId + static_cast<std::uint32_t>(i);
            const bool wanted = std::any_of(m_parameterSubs.begin(), m_parameterSubs.end(), [&](const auto& sub) {
                return sub->wantsStream(s.id) && sub->wantsParameter(id);
            });
            m_values[i] = wanted ? plan.decodeOne(packet, i) : decode::DecodedValue{};
            decoded += wanted ? 1 : 0;
        }
    }
    applyLimitOverrides(type, count);
    bump(s.processorCounters[type].parametersDecoded, decoded);
    s.values->countDecoded(type, s.values->updates(type));
    offer(s, type, count, packetTime(type, packet), receiveTimeNs);
}

void Processor::applyLimitOverrides(std::uint32_t type, std::size_t count)
{
    if (m_limits[type].empty()) [[likely]]
        return;
    for (const decode::LimitOverride& o : m_limits[type])
        if (o.index < count && m_values[o.index].present)
            m_values[o.index].limit = o.evaluate(m_values[o.index]);
}

std::int64_t Processor::packetTime(std::uint32_t type, std::span<const std::uint8_t> packet) const
{
    const auto& plan = m_core.types.plan(type);
    std::int64_t t = 0;
    if (plan.hasPacketTime() && !plan.packetTime(packet, t))
        t = 0;
    return t;
}

void Processor::offer(Stream& s, std::uint32_t type, std::size_t count, std::int64_t packetTimeNs, std::int64_t receiveTimeNs)
{
    if (m_parameterSubs.empty())
        return;
    const std::uint32_t firstId = m_core.types.firstParameterId(type);
    for (std::size_t i = 0; i < count; ++i) {
        ParameterSample& sample = m_samples[i];
        sample.parameterId = firstId + static_cast<std::uint32_t>(i);
        sample.streamId = s.id;
        sample.packetTimeNs = packetTimeNs;
        sample.receiveTimeNs = receiveTimeNs;
        sample.value = m_values[i];
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
