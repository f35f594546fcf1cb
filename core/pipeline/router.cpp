#include "core/pipeline/router.hpp"

#include <algorithm>

namespace telestation::pipeline {

Router::Router(StationCore& core) : Worker(core, core.routerBell, core.sourcesDone, "ts-router") {}

std::size_t Router::serviceRound()
{
    auto& live = m_core.settings;
    const auto refresh = [&] { refreshIfChanged(live.version, m_settingsVersion, live.mutex, [&] { m_settings = live.perType; }); };
    refresh();
    std::size_t work = 0;
    m_core.streams.forEach([&](Stream& s) {
        if (m_settingsVersion < s.settingsVersion) [[unlikely]] // added or replaced since the refresh
            refresh();
        work += routeBatch(s, m_settings[s.id]);
    });
    return work;
}

bool Router::hasWork() const
{
    return m_core.streams.any([](const Stream& s) { return s.network.ring.size() > 0; });
}

void Router::finished()
{
    m_core.routerDone.store(true, std::memory_order_release);
    m_core.processorBell.ring();
    m_core.recorderBell.ring();
    m_core.forwarderBell.ring();
}

// The tracker's numbers for the APID an accepted packet touched, into the counters snapshots read:
// per APID, and the stream's totals (each APID once). Returns how much the APID's loss moved.
std::int64_t Router::publishSequence(Stream& s, std::uint16_t apid)
{
    const ccsds::SequenceCounters& c = s.acceptor.sequence(apid);
    ApidSequence& a = s.apidSequence[apid];
    ApidSequence& total = s.sequenceTotal;
    const std::int64_t lostBefore = static_cast<std::int64_t>(get(a.lost));
    const std::uint64_t errors = c.sequenceErrors();
    if (errors != get(a.sequenceErrors)) {
        const auto delta = [](Counter& sum, const Counter& was, std::uint64_t now) { set(sum, get(sum) - get(was) + now); };
        delta(total.sequenceErrors, a.sequenceErrors, errors);
        delta(total.lost, a.lost, c.lost);
        delta(total.duplicates, a.duplicates, c.duplicates);
        set(a.sequenceErrors, errors);
        set(a.lost, c.lost);
        set(a.duplicates, c.duplicates);
        set(a.largestGap, c.largestGap);
        if (c.largestGap > get(total.largestGap))
            set(total.largestGap, c.largestGap);
    } else if (c.lost != get(a.lost)) { // a late arrival reduced the loss
        set(total.lost, get(total.lost) - get(a.lost) + c.lost);
        set(a.lost, c.lost);
    }
    return static_cast<std::int64_t>(c.lost) - lostBefore;
}

// A sequence fault or a malformed packet, for the event thread (faults only, never a good packet).
void Router::report(const Stream& s, const PacketVerdict& v, std::int64_t receiveTimeNs, std::size_t size, std::int64_t lostDelta)
{
    RawEvent e;
    e.timeNs = receiveTimeNs;
    e.streamId = s.id;
    e.apid = v.apid;
    e.typeIndex = v.type;
    e.size = static_cast<std::uint32_t>(size);
    if (v.malformed) {
        e.kind = RawEventKind::Malformed;
        e.reason = static_cast<std::uint8_t>(v.headerError != ccsds::HeaderError::None ? MalformedReason::Header
                                             : v.shorterThanLayout                     ? MalformedReason::ShorterThanLayout
                                                                                       : MalformedReason::LengthNotAllowed);
        e.detail = static_cast<std::uint8_t>(v.headerError);
    } else {
        switch (v.sequence) {
        case ccsds::SequenceEvent::Gap: e.kind = RawEventKind::Gap; e.amount = static_cast<std::uint64_t>(std::max<std::int64_t>(lostDelta, 0)); break;
        case ccsds::SequenceEvent::Duplicate: e.kind = RawEventKind::Duplicate; break;
        case ccsds::SequenceEvent::Late: e.kind = RawEventKind::Late; break;
        default: e.kind = RawEventKind::Resync; break;
        }
    }
    m_core.routerEvents.push(e);
}

std::size_t Router::routeBatch(Stream& s, const std::vector<TypeSettings>& typeSettings)
{
    PacketPool& pool = *m_core.pool;
    std::array<PacketHandle, kBatch> in{};
    std::size_t limit = kBatch;
    if (s.playback()) // take only what every downstream queue has room for: playback is never dropped
        limit = std::min({limit, s.process.room(), s.recordQueue.room(), s.forward.room()});
    const std::size_t n = s.network.ring.popBatch(std::span<PacketHandle>(in.data(), limit));
    if (n == 0)
        return 0;

    std::array<PacketHandle, kBatch> toProcess{}, toRecord{}, toForward{};
    std::size_t nProcess = 0, nRecord = 0, nForward = 0;
    for (std::size_t i = 0; i < n; ++i) {
        const PacketHandle h = in[i];
        PacketMeta& meta = pool.meta(h);
        const auto frame = pool.bytes(h);
        const std::size_t skip = meta.transportHeaderBytes; // as received: a replace may change the stream's
        const auto packet = frame.size() > skip ? frame.subspan(skip) : std::span<const std::uint8_t>{};
        const PacketVerdict verdict = s.acceptor.accept(packet);
        const std::uint32_t type = verdict.type;
        meta.apid = verdict.apid;
        meta.typeIndex = type;
        RouterTypeCounters& rc = s.routerCounters[type];
        bump(rc.received);
        bump(rc.bytes, frame.size());
        rc.lastReceiveTimeNs.store(meta.receiveTimeNs, std::memory_order_relaxed);
        if (verdict.malformed) {
            if (verdict.shorterThanLayout) [[unlikely]]
                bump(rc.shortPackets);
            bump(rc.malformed);
            report(s, verdict, meta.receiveTimeNs, packet.size(), 0);
            pool.release(h);
            continue;
        }
        if (verdict.extraBytes > 0) [[unlikely]] {
            bump(rc.longPackets);
            bump(rc.extraBytes, verdict.extraBytes);
        }
        const std::int64_t lostDelta = publishSequence(s, verdict.apid);
        if (verdict.sequence >= ccsds::SequenceEvent::Gap) [[unlikely]]
            report(s, verdict, meta.receiveTimeNs, packet.size(), lostDelta);
        if (type == kUnknownType)
            bump(rc.unknown);
        const TypeSettings& ts = typeSettings[type];
        if (ts.mode == config::ProcessingMode::Discard) {
            bump(rc.discarded);
            pool.release(h);
            continue;
        }
        meta.forwardMask = ts.forwardMask; // the forwarder follows the router's decision for this packet
        const std::uint32_t extra = (ts.record ? 1u : 0u) + (ts.forwardMask != 0 ? 1u : 0u);
        if (extra > 0)
            pool.addRef(h, extra);
        toProcess[nProcess++] = h;
        if (ts.record)
            toRecord[nRecord++] = h;
        if (ts.forwardMask != 0)
            toForward[nForward++] = h;
    }

    const auto push = [&](PacketQueue& q, std::span<const PacketHandle> items, Counter RouterTypeCounters::*drops, Doorbell& bell) {
        if (items.empty())
            return;
        const std::size_t pushed = q.pushBatch(items);
        if (pushed > 0)
            bell.ring();
        for (std::size_t i = pushed; i < items.size(); ++i) {
            bump(s.routerCounters[pool.meta(items[i]).typeIndex].*drops);
            pool.release(items[i]);
        }
    };
    push(s.process, {toProcess.data(), nProcess}, &RouterTypeCounters::processDrops, m_core.processorBell);
    push(s.recordQueue, {toRecord.data(), nRecord}, &RouterTypeCounters::recordDrops, m_core.recorderBell);
    push(s.forward, {toForward.data(), nForward}, &RouterTypeCounters::forwardDrops, m_core.forwarderBell);
    bump(s.routed, n);
    return n;
}

} // namespace telestation::pipeline
