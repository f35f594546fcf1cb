// Packet sequence count checking for one stream: classifies every packet of every APID as in order,
// a gap, a duplicate, a late (out-of-order) arrival or a resync, and keeps counters per APID.
//
// Semantics. Sequence counts are 14 bits and wrap 16383 -> 0. Per APID the tracker remembers the newest
// count and which of the 64 counts before it were seen. For a packet with count c:
//   delta = (c - newest) mod 16384
//   - first packet of the APID (or after reset()):   First      newest = c
//   - delta == 1:                                    InOrder    newest = c
//   - delta == 0:                                    Duplicate  duplicates++
//   - 2 <= delta <= 8192:                            Gap        gaps++, lost += delta - 1,
//                                                               largestGap = max(largestGap, delta - 1),
//                                                               newest = c
//   - otherwise c is behind newest by b = 16384 - delta:
//       b <= 64 and c was seen already:              Duplicate  duplicates++
//       b <= 64 and c was not seen:                  Late       late++, and lost-- when c had been counted
//                                                               lost by a gap; c is marked seen
//       b > 64:                                      Resync     resyncs++, newest = c, history cleared
//                                                               (e.g. a sender that restarted its counter)
// Every packet counts in `packets`. A packet behind newest that was never counted lost (it precedes the
// first packet of the APID or a resync) is Late without touching `lost`, so `lost` never goes below the
// number of packets actually missing. A late arrival more than 64 counts behind cannot be told from a
// restarted sender and is a Resync.
//
// Memory is fixed: one slot per APID (2048), allocated once in the constructor. track() is noexcept,
// allocation-free and branch-light: it runs once per packet.
#pragma once

#include <cstdint>
#include <vector>

namespace telestation::ccsds {

enum class SequenceEvent : std::uint8_t { First, InOrder, Gap, Duplicate, Late, Resync };

struct SequenceCounters {
    std::uint64_t packets = 0;    // every packet tracked
    std::uint64_t gaps = 0;       // gap events
    std::uint64_t lost = 0;       // packets missing, net of late arrivals
    std::uint64_t duplicates = 0;
    std::uint64_t late = 0;       // out-of-order arrivals
    std::uint64_t resyncs = 0;
    std::uint32_t largestGap = 0; // most packets missing in one gap

    [[nodiscard]] std::uint64_t sequenceErrors() const noexcept { return gaps + duplicates + late + resyncs; }

    friend bool operator==(const SequenceCounters&, const SequenceCounters&) = default;
};

class SequenceTracker {
public:
    SequenceTracker();

    // Classifies one packet. APIDs are taken modulo 2048 and counts modulo 16384 (the header fields'
    // widths), so no input can index outside the table.
    SequenceEvent track(std::uint16_t apid, std::uint16_t sequenceCount) noexcept;

    // The counters of one APID (taken modulo 2048).
    [[nodiscard]] const SequenceCounters& counters(std::uint16_t apid) const noexcept;

    // The counters summed over all APIDs; largestGap is the largest of any APID.
    [[nodiscard]] SequenceCounters total() const noexcept;

    // Forgets every APID's history and zeroes the counters, without reallocating.
    void reset() noexcept;

private:
    struct Slot {
        SequenceCounters counters;
        std::uint64_t seen = 0;    // bit i: count newest - (i + 1) was seen
        std::uint64_t missing = 0; // bit i: count newest - (i + 1) was counted lost and has not arrived
        std::uint16_t newest = 0;
        bool started = false;
    };

    std::vector<Slot> m_slots;
};

} // namespace telestation::ccsds
