#include "core/pipeline/snapshot_assembly.hpp"

#include "core/common/clock.hpp"

#include <algorithm>
#include <bit>

namespace telestation::pipeline {

namespace {

// The counters of one packet type of a stream, from each writer thread's counters.
stats::PacketCounters typeCounters(const Stream& s, std::uint32_t t)
{
    stats::PacketCounters c;
    const RouterTypeCounters& rc = s.routerCounters[t];
    const ProcessorTypeCounters& pc = s.processorCounters[t];
    const RecorderTypeCounters& recorded = s.recorderCounters[t];
    const ForwarderTypeCounters& forwarded = s.forwarderCounters[t];
    c.networkDrops = get(s.receiverCounters[t].networkDrops);
    c.packetsReceived = get(rc.received) + c.networkDrops;
    c.bytesReceived = get(rc.bytes) + get(s.receiverCounters[t].networkDropBytes); // as packetsReceived
    c.unknown = get(rc.unknown);
    c.discarded = get(rc.discarded);
    c.malformed = get(rc.malformed) + get(pc.layoutErrors);
    c.layoutErrors = get(rc.shortPackets) + get(pc.layoutErrors);
    c.longPackets = get(rc.longPackets) + get(pc.longPackets);
    c.extraBytes = get(rc.extraBytes) + get(pc.extraBytes);
    c.processDrops = get(rc.processDrops);
    c.recordDrops = get(rc.recordDrops);
    c.forwardDrops = get(rc.forwardDrops);
    c.packetsProcessed = get(pc.processed);
    c.parametersDecoded = get(pc.parametersDecoded);
    c.packetsDecoded = get(pc.decoded) + s.values->decodedOnDemand(t);
    c.packetsRecorded = get(recorded.recorded);
    c.bytesRecorded = get(recorded.bytes);
    c.recordErrors = get(recorded.errors);
    c.packetsForwarded = get(forwarded.forwarded);
    c.bytesForwarded = get(forwarded.bytes);
    c.forwardErrors = get(forwarded.errors);
    return c;
}

void setSequence(stats::PacketCounters& c, const ApidSequence& a)
{
    c.sequenceErrors = get(a.sequenceErrors);
    c.packetsLost = get(a.lost);
    c.largestGap = get(a.largestGap);
    c.duplicates = get(a.duplicates);
}

// The stream's source: its state and the receiver's numbers.
void sourceState(const Stream& s, stats::StreamStats& ss)
{
    std::lock_guard lock(s.sourceMutex);
    ss.name = s.profile.name;
    ss.source = s.profile.source;
    if (!s.source) {
        ss.state = s.idleState;
        return;
    }
    ss.state = s.paused.load() ? "paused; " + s.source->state() : s.source->state();
    const io::ReceiverStats rs = s.source->stats();
    ss.kernelDrops = rs.kernelDrops;
    ss.framingErrors = rs.framingErrors;
    ss.skippedBytes = rs.skippedBytes;
    ss.truncatedPackets = rs.truncatedPackets + rs.truncatedDatagrams;
    ss.connects = rs.connects;
    ss.disconnects = rs.disconnects;
    ss.progress = s.source->progress();
}

stats::StreamStats streamStats(const StationCore& core, const Stream& s, const std::vector<TypeSettings>& settings)
{
    const PacketTypeTable& types = core.types;
    stats::StreamStats ss;
    ss.running = s.running.load();
    sourceState(s, ss);
    ss.poolDrops = get(s.poolDrops);
    ss.networkQueue = s.network.stats();
    ss.processQueue = s.process.stats();
    ss.recordQueue = s.recordQueue.stats();
    ss.forwardQueue = s.forward.stats();
    for (std::uint32_t t = 0; t < types.typeCount(); ++t) {
        stats::PacketTypeStats ts;
        ts.counters = typeCounters(s, t);
        ts.lastReceiveTimeNs = s.routerCounters[t].lastReceiveTimeNs.load(std::memory_order_relaxed);
        const TypeSettings& set = settings[t];
        ts.mode = std::string(config::toString(set.mode));
        ts.record = set.record;
        ts.forwardDestinations = static_cast<std::uint32_t>(std::popcount(set.forwardMask));
        ts.name = std::string(types.typeName(t));
        if (t != kUnknownType) {
            const auto& def = types.definition(t);
            ts.apid = def.apid;
            ts.hasSecondaryId = def.secondaryId.has_value();
            ts.secondaryId = def.secondaryId ? def.secondaryId->value : 0;
            setSequence(ts.counters, s.apidSequence[def.apid]);
        }
        ss.counters += ts.counters;
        // Types nobody has sent and nobody configured stay out of the snapshot; the unknown type is
        // always listed.
        if (t == kUnknownType || set.configured() || ts.counters.packetsReceived > 0)
            ss.packetTypes.push_back(std::move(ts));
    }
    // Sequence numbers of the stream as a whole (unknown APIDs included; shared APIDs once).
    setSequence(ss.counters, s.sequenceTotal);
    // The unknown type's sequence numbers: the stream's minus the defined APIDs'.
    auto& unknown = ss.packetTypes.front().counters;
    std::uint64_t errors = 0, lost = 0, dups = 0;
    std::vector<bool> seen(ccsds::kApidCount, false);
    for (std::uint32_t t = 1; t < types.typeCount(); ++t) {
        const auto apid = types.definition(t).apid;
        if (seen[apid])
            continue;
        seen[apid] = true;
        errors += get(s.apidSequence[apid].sequenceErrors);
        lost += get(s.apidSequence[apid].lost);
        dups += get(s.apidSequence[apid].duplicates);
    }
    unknown.sequenceErrors = ss.counters.sequenceErrors - std::min(errors, ss.counters.sequenceErrors);
    unknown.packetsLost = ss.counters.packetsLost - std::min(lost, ss.counters.packetsLost);
    unknown.duplicates = ss.counters.duplicates - std::min(dups, ss.counters.duplicates);
    return ss;
}

std::vector<stats::ForwardStats> forwardStats(const StationCore& core, const std::vector<std::string>& destinations)
{
    std::vector<stats::ForwardStats> out;
    for (std::size_t i = 0; i < destinations.size() && i < kMaxDestinations; ++i) {
        const DestinationView& v = core.forwards.destinations[i];
        stats::ForwardStats f;
        f.destination = destinations[i];
        {
            std::lock_guard lock(core.forwards.mutex);
            f.state = v.state;
        }
        f.connected = v.connected.load(std::memory_order_relaxed);
        f.packets = get(v.packets);
        f.bytes = get(v.bytes);
        f.notSent = get(v.notSent);
        f.connects = get(v.connects);
        f.disconnects = get(v.disconnects);
        out.push_back(std::move(f));
    }
    return out;
}

} // namespace

stats::StationSnapshot assembleSnapshot(const StationCore& core)
{
    stats::StationSnapshot snap;
    snap.timeNs = clock::realtimeNs();
    snap.uptimeSeconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - core.started).count();
    std::vector<std::vector<TypeSettings>> settings;
    std::vector<std::string> destinations;
    std::vector<std::uint16_t> order;
    {
        std::lock_guard lock(core.settings.mutex);
        settings = core.settings.perType;
        destinations = core.settings.destinations;
        order = core.settings.streamIds;
    }
    {
        // The streams in the order of the profile (ids are slots, reused after a removal).
        std::lock_guard lock(core.streams.mutex);
        for (const std::uint16_t id : order) {
            const Stream* s = core.streams.at(id);
            if (!s || id >= settings.size())
                continue; // added or removed since the settings were copied
            stats::StreamStats ss = streamStats(core, *s, settings[id]);
            ss.recording = core.recording.streamState(s->id);
            snap.totals += ss.counters; // sequence numbers too: streams count their APIDs apart
            snap.streams.push_back(std::move(ss));
        }
    }
    snap.forwards = forwardStats(core, destinations);
    snap.consumers = core.subscriptions.stats();
    snap.recordingErrors = core.recording.errors.load(std::memory_order_relaxed);
    snap.recordingState = core.recording.state();
    snap.poolInUse = core.pool->stats().inUse;
    snap.poolCapacity = core.pool->capacity();
    snap.events = core.events.count();
    const events::AlarmCounts alarms = core.alarms.counts(snap.timeNs);
    for (std::size_t i = 0; i < snap.alarms.active.size(); ++i) {
        snap.alarms.active[i] = alarms.active[i];
        snap.alarms.unacknowledged[i] = alarms.unacknowledged[i];
    }
    snap.alarms.shelved = alarms.shelved;
    return snap;
}

} // namespace telestation::pipeline
