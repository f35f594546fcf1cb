#include "core/stats/snapshot.hpp"

namespace telestation::stats {

namespace {

// Loss = a packet that did not reach every place it was meant to go, or arrived unreadable:
// missing from a sequence gap, malformed, dropped at a full queue, or not recorded / not forwarded
// because the recorder or a destination had failed. Unknown, discarded (the operator's choice) and
// duplicate packets are counted elsewhere but are not loss.
bool anyLoss(const PacketCounters& c) noexcept
{
    return c.packetsLost != 0 || c.malformed != 0 || c.networkDrops != 0 || c.processDrops != 0 || c.recordDrops != 0 || c.forwardDrops != 0
        || c.recordErrors != 0 || c.forwardErrors != 0;
}

bool anyLoss(const StreamStats& s) noexcept
{
    if (anyLoss(s.counters) || s.kernelDrops != 0 || s.framingErrors != 0 || s.truncatedPackets != 0 || s.poolDrops != 0
        || s.networkQueue.drops != 0 || s.processQueue.drops != 0 || s.recordQueue.drops != 0
        || s.forwardQueue.drops != 0)
        return true;
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

} // namespace telestation::stats
