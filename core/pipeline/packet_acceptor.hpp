// PacketAcceptor: the checks a packet passes before the station routes it (the role of Yamcs'
// PacketPreprocessor) — the CCSDS primary header, classification into a packet type, the length its
// definition allows, and the APID's sequence count — returning a verdict the router counts and acts
// on. One per stream (the sequence tracker is the stream's); used by the router thread only, and
// testable without threads.
#pragma once

#include "core/ccsds/sequence_tracker.hpp"
#include "core/ccsds/space_packet.hpp"
#include "core/pipeline/packet_types.hpp"

#include <cstdint>
#include <span>

namespace telestation::pipeline {

struct PacketVerdict {
    std::uint32_t type = kUnknownType; // the packet type (unknown when none matches or the header is short)
    std::uint16_t apid = 0;
    // Not routed: a bad primary header, or a length its definition does not allow (counted, dropped).
    bool malformed = false;
    // Malformed because it is shorter than the shortest its variable layout can be (a layout error).
    bool shorterThanLayout = false;
    // Accepted, but longer than its fixed layout (or declared length): the bytes past that end.
    std::uint32_t extraBytes = 0;
    // Why the header was refused (None when the header is fine: then a malformed packet has a length
    // its definition does not allow).
    ccsds::HeaderError headerError = ccsds::HeaderError::None;
    // What the APID's sequence count said of an accepted packet (First for a malformed one).
    ccsds::SequenceEvent sequence = ccsds::SequenceEvent::First;
    // The APID's sequence counters moved (an accepted packet was tracked).
    [[nodiscard]] bool tracked() const noexcept { return !malformed; }
};

class PacketAcceptor {
public:
    explicit PacketAcceptor(const PacketTypeTable& types) noexcept : m_types(&types) {}

    // `packet`: the space packet, transport header already skipped (may be empty or short).
    [[nodiscard]] PacketVerdict accept(std::span<const std::uint8_t> packet) noexcept;

    // Sequence numbers of one APID so far (accepted packets only).
    [[nodiscard]] const ccsds::SequenceCounters& sequence(std::uint16_t apid) const noexcept
    {
        return m_tracker.counters(apid);
    }

private:
    const PacketTypeTable* m_types;
    ccsds::SequenceTracker m_tracker;
};

} // namespace telestation::pipeline
