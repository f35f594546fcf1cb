#include "core/stats/snapshot.hpp"

#include <algorithm>
#include <map>
#include <utility>

namespace telestation::stats {

PacketCounters& PacketCounters::operator+=(const PacketCounters& other) noexcept
{
    for (const CounterField& field : kCounterFields) {
        std::uint64_t& to = this->*field.member;
        const std::uint64_t from = other.*field.member;
        to = field.combine == Combine::Max ? std::max(to, from) : to + from;
    }
    return *this;
}

PacketCounters PacketCounters::since(const PacketCounters& baseline) const noexcept
{
    if (packetsReceived < baseline.packetsReceived)
        return *this; // the item restarted: everything it counts is newer than the baseline
    PacketCounters view = *this;
    for (const CounterField& field : kCounterFields) {
        std::uint64_t& value = view.*field.member;
        const std::uint64_t base = baseline.*field.member;
        // A maximum, not a total: only one larger than at the baseline is known to be newer.
        value = field.combine == Combine::Max ? (value > base ? value : 0) : totalSince(value, base);
    }
    return view;
}

namespace {

// Loss = a packet that did not reach every place it was meant to go, or arrived unreadable:
// missing from a sequence gap, malformed, dropped at a full queue, or not recorded / not forwarded
// because the recorder or a destination had failed (the counters kCounterFields marks as loss).
// Unknown, discarded (the operator's choice) and duplicate packets are counted elsewhere but are not
// loss.
bool anyLoss(const PacketCounters& c) noexcept
{
    return std::any_of(kCounterFields.begin(), kCounterFields.end(),
        [&c](const CounterField& field) { return field.loss != Loss::None && c.*field.member != 0; });
}

bool anyLoss(const StreamStats& s) noexcept
{
    if (anyLoss(s.counters) || s.kernelDrops != 0 || s.framingErrors != 0 || s.truncatedPackets != 0
        || s.poolDrops != 0)
        return true;
    for (const StreamQueueField& queue : kStreamQueues) {
        if ((s.*queue.member).drops != 0)
            return true;
    }
    // The stream's counters are the sums of its packet types' — checked anyway, so that a snapshot
    // whose sums were not (yet) filled in still reports the loss.
    for (const auto& type : s.packetTypes) {
        if (anyLoss(type.counters))
            return true;
    }
    return false;
}

} // namespace

bool StationSnapshot::hasLoss() const noexcept
{
    if (anyLoss(totals))
        return true;
    for (const auto& stream : streams) {
        if (anyLoss(stream))
            return true;
    }
    // A destination's notSent is the per-destination view of forwardErrors: the same loss.
    for (const auto& forward : forwards) {
        if (forward.notSent != 0)
            return true;
    }
    for (const auto& consumer : consumers) {
        if (consumer.queue.drops != 0)
            return true;
    }
    return false;
}

std::string packetTypeKey(const PacketTypeStats& type)
{
    std::string key = type.name;
    key += '#';
    key += std::to_string(type.apid);
    if (type.hasSecondaryId) {
        key += '/';
        key += std::to_string(type.secondaryId);
    }
    return key;
}

std::string queueKey(const std::string& stream, const StreamQueueField& queue)
{
    return stream + '/' + std::string(queue.name);
}

std::vector<std::string> consumerKeys(const std::vector<ConsumerStats>& consumers)
{
    std::vector<std::string> keys;
    std::map<std::string, int, std::less<>> seen;
    for (const auto& c : consumers) {
        std::string key = c.kind + ':' + c.name;
        const int n = seen[key]++;
        if (n > 0)
            key += '#' + std::to_string(n);
        keys.push_back(std::move(key));
    }
    return keys;
}

} // namespace telestation::stats
