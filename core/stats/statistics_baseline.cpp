#include "core/stats/statistics_baseline.hpp"

#include <algorithm>
#include <vector>

namespace telestation::stats {

namespace {

// The key of a consumer's sampled depth (a stream queue's is its queueKey).
std::string consumerQueueKey(const std::string& consumerKey)
{
    return "consumer:" + consumerKey;
}

std::string typeLookupKey(const std::string& stream, const std::string& typeKey)
{
    return stream + '\n' + typeKey;
}

} // namespace

void StatisticsBaseline::reset(const StationSnapshot& snapshot)
{
    m_active = true;
    m_base = snapshot;
    m_observedDepth.clear();
    m_streamIndex.clear();
    m_typeIndex.clear();
    for (std::size_t i = 0; i < m_base.streams.size(); ++i) {
        const auto& s = m_base.streams[i];
        m_streamIndex.emplace(s.name, i);
        for (std::size_t t = 0; t < s.packetTypes.size(); ++t)
            m_typeIndex.emplace(typeLookupKey(s.name, packetTypeKey(s.packetTypes[t])), std::make_pair(i, t));
        for (const StreamQueueField& queue : kStreamQueues)
            m_observedDepth[queueKey(s.name, queue)] = (s.*queue.member).depth;
    }
    const auto keys = consumerKeys(snapshot.consumers);
    for (std::size_t i = 0; i < keys.size(); ++i)
        m_observedDepth[consumerQueueKey(keys[i])] = snapshot.consumers[i].queue.depth;
}

void StatisticsBaseline::clear()
{
    m_active = false;
    m_base = {};
    m_observedDepth.clear();
    m_streamIndex.clear();
    m_typeIndex.clear();
}

const StreamStats* StatisticsBaseline::baseStream(const std::string& name) const
{
    const auto it = m_streamIndex.find(name);
    return it == m_streamIndex.end() ? nullptr : &m_base.streams[it->second];
}

const PacketTypeStats* StatisticsBaseline::baseType(const std::string& stream, const std::string& typeKey) const
{
    const auto it = m_typeIndex.find(typeLookupKey(stream, typeKey));
    return it == m_typeIndex.end() ? nullptr : &m_base.streams[it->second.first].packetTypes[it->second.second];
}

std::uint64_t StatisticsBaseline::sampledHighWater(
    const std::string& key, const QueueStats& now, const QueueStats& base)
{
    std::uint64_t& deepest = m_observedDepth[key];
    deepest = std::max(deepest, now.depth);
    // The engine's high water moved: it rose past its value at the reset (so it is exact and newer),
    // or went down (the queue restarted, so all of it is newer).
    if (now.highWater != base.highWater)
        return now.highWater;
    return deepest;
}

StationSnapshot StatisticsBaseline::apply(const StationSnapshot& current)
{
    StationSnapshot view = current;
    if (!m_active)
        return view;
    view.totals = current.totals.since(m_base.totals);

    const auto baseQueue = [this](const std::string& key, QueueStats& q, const QueueStats& b) {
        q.highWater = sampledHighWater(key, q, b);
        q.warnings = totalSince(q.warnings, b.warnings);
        q.drops = totalSince(q.drops, b.drops);
    };

    for (auto& s : view.streams) {
        const StreamStats* b = baseStream(s.name);
        if (!b)
            continue; // appeared after the reset: counts from 0 already
        s.counters = s.counters.since(b->counters);
        s.kernelDrops = totalSince(s.kernelDrops, b->kernelDrops);
        s.framingErrors = totalSince(s.framingErrors, b->framingErrors);
        s.skippedBytes = totalSince(s.skippedBytes, b->skippedBytes);
        s.truncatedPackets = totalSince(s.truncatedPackets, b->truncatedPackets);
        s.poolDrops = totalSince(s.poolDrops, b->poolDrops);
        s.connects = totalSince(s.connects, b->connects);
        s.disconnects = totalSince(s.disconnects, b->disconnects);
        for (const StreamQueueField& queue : kStreamQueues)
            baseQueue(queueKey(s.name, queue), s.*queue.member, b->*queue.member);
        for (auto& t : s.packetTypes)
            if (const PacketTypeStats* bt = baseType(s.name, packetTypeKey(t)))
                t.counters = t.counters.since(bt->counters);
    }

    for (auto& f : view.forwards) {
        const auto it = std::find_if(m_base.forwards.begin(), m_base.forwards.end(),
            [&f](const ForwardStats& x) { return x.destination == f.destination; });
        if (it == m_base.forwards.end())
            continue;
        f.packets = totalSince(f.packets, it->packets);
        f.bytes = totalSince(f.bytes, it->bytes);
        f.notSent = totalSince(f.notSent, it->notSent);
        f.connects = totalSince(f.connects, it->connects);
        f.disconnects = totalSince(f.disconnects, it->disconnects);
    }

    const auto baseKeys = consumerKeys(m_base.consumers);
    const auto keys = consumerKeys(view.consumers);
    for (std::size_t i = 0; i < keys.size(); ++i) {
        const auto it = std::find(baseKeys.begin(), baseKeys.end(), keys[i]);
        if (it == baseKeys.end())
            continue;
        const ConsumerStats& b = m_base.consumers[static_cast<std::size_t>(it - baseKeys.begin())];
        ConsumerStats& c = view.consumers[i];
        c.delivered = totalSince(c.delivered, b.delivered);
        baseQueue(consumerQueueKey(keys[i]), c.queue, b.queue);
    }
    return view;
}

std::uint64_t StatisticsBaseline::largestGapBefore(const std::string& stream, const PacketTypeStats* type) const
{
    if (!m_active)
        return 0;
    if (!type) {
        const StreamStats* s = baseStream(stream);
        return s ? s->counters.largestGap : 0;
    }
    const PacketTypeStats* t = baseType(stream, packetTypeKey(*type));
    return t ? t->counters.largestGap : 0;
}

} // namespace telestation::stats
