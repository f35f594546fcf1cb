#include "core/ccsds/sequence_tracker.hpp"

#include "core/ccsds/space_packet.hpp"

#include <algorithm>

namespace telestation::ccsds {

namespace {

constexpr std::uint16_t kCountMask = kSequenceCountModulo - 1;
constexpr std::uint16_t kHalfRange = kSequenceCountModulo / 2; // 8192: further ahead counts as behind
constexpr unsigned kHistory = 64;                              // counts remembered behind the newest

// Bits [0, n) set; n may be 64 or more.
constexpr std::uint64_t lowBits(unsigned n) noexcept
{
    return n >= kHistory ? ~std::uint64_t{0} : (std::uint64_t{1} << n) - 1;
}

// The history seen from a newest count `delta` ahead: every bit moves `delta` places further back.
constexpr std::uint64_t shiftBack(std::uint64_t bits, unsigned delta) noexcept
{
    return delta >= kHistory ? 0 : bits << delta;
}

} // namespace

SequenceTracker::SequenceTracker() : m_slots(kApidCount) {}

SequenceEvent SequenceTracker::track(std::uint16_t apid, std::uint16_t sequenceCount) noexcept
{
    Slot& slot = m_slots[apid & kMaxApid];
    SequenceCounters& c = slot.counters;
    const std::uint16_t count = sequenceCount & kCountMask;
    ++c.packets;

    if (!slot.started) {
        slot.started = true;
        slot.newest = count;
        slot.seen = 0;
        slot.missing = 0;
        return SequenceEvent::First;
    }

    const unsigned delta = static_cast<unsigned>(count - slot.newest) & kCountMask;
    if (delta == 0) {
        ++c.duplicates;
        return SequenceEvent::Duplicate;
    }

    if (delta <= kHalfRange) {
        // Moving forward: the old newest lands at distance delta, the skipped counts (if any) at
        // distances 1 .. delta-1 are missing.
        const unsigned skipped = delta - 1;
        const std::uint64_t oldNewestBit = delta <= kHistory ? std::uint64_t{1} << (delta - 1) : 0;
        slot.seen = shiftBack(slot.seen, delta) | oldNewestBit;
        slot.missing = shiftBack(slot.missing, delta) | lowBits(skipped);
        slot.newest = count;
        if (skipped == 0)
            return SequenceEvent::InOrder;
        ++c.gaps;
        c.lost += skipped;
        c.largestGap = std::max(c.largestGap, static_cast<std::uint32_t>(skipped));
        return SequenceEvent::Gap;
    }

    const unsigned behind = kSequenceCountModulo - delta;
    if (behind <= kHistory) {
        const std::uint64_t bit = std::uint64_t{1} << (behind - 1);
        if ((slot.seen & bit) != 0) {
            ++c.duplicates;
            return SequenceEvent::Duplicate;
        }
        slot.seen |= bit;
        ++c.late;
        if ((slot.missing & bit) != 0) {
            slot.missing &= ~bit;
            --c.lost;
        }
        return SequenceEvent::Late;
    }

    ++c.resyncs;
    slot.newest = count;
    slot.seen = 0;
    slot.missing = 0;
    return SequenceEvent::Resync;
}

const SequenceCounters& SequenceTracker::counters(std::uint16_t apid) const noexcept
{
    return m_slots[apid & kMaxApid].counters;
}

SequenceCounters SequenceTracker::total() const noexcept
{
    SequenceCounters sum;
    for (const Slot& slot : m_slots) {
        const SequenceCounters& c = slot.counters;
        sum.packets += c.packets;
        sum.gaps += c.gaps;
        sum.lost += c.lost;
        sum.duplicates += c.duplicates;
        sum.late += c.late;
        sum.resyncs += c.resyncs;
        sum.largestGap = std::max(sum.largestGap, c.largestGap);
    }
    return sum;
}

void SequenceTracker::reset() noexcept
{
    std::fill(m_slots.begin(), m_slots.end(), Slot{});
}

} // namespace telestation::ccsds
