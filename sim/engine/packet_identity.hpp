// PacketIdentity: the bits that make a generated packet recognisable as its packet type — the
// secondary id's value and, for each field that a criterion of the definition tests, a value that meets
// every criterion on that field (XTCE restriction criteria such as "TYPE > 1"). The simulator writes
// them into every packet of the type and keeps parameters that overlap them constant.
#pragma once

#include "core/mdb/model.hpp"

#include <cstdint>
#include <span>
#include <vector>

namespace telestation::sim {

class PacketIdentity {
public:
    explicit PacketIdentity(const mdb::PacketDef& packet);
    // Also keeps the packet from being taken for a more specific type of the same APID (one with more
    // conditions, tried first by the station: XTCE's IDX_SCIFETCH and its "TYPE > 1" child): for each
    // such type, a field of one of its criteria that this type leaves free gets a value that fails it.
    PacketIdentity(const mdb::PacketDef& packet, const std::vector<mdb::PacketDef>& all);

    struct Field {
        std::uint32_t bitOffset;
        std::uint32_t bitLength; // 1..64
        std::uint64_t value;
    };
    [[nodiscard]] const std::vector<Field>& fields() const noexcept { return m_fields; }

    // Writes every field that lies within the packet.
    void apply(std::span<std::uint8_t> packet) const noexcept;
    // Writes the fields that lie in the first 16 bits of the primary header (version, type, secondary
    // header flag, APID), after the primary header itself was written over them.
    void applyToPrimaryHeader(std::span<std::uint8_t> packet) const noexcept;

    // Whether bits [bitOffset, bitOffset + bitLength) overlap a field.
    [[nodiscard]] bool overlaps(std::uint64_t bitOffset, std::uint64_t bitLength) const noexcept;
    // The raw value (right-aligned, `bits` of them, at most 64) that a parameter at bitOffset holds in
    // a packet where the fields are set and every other bit is 0; byte-reversed for a little-endian
    // field of whole bytes.
    [[nodiscard]] std::uint64_t rawAt(std::uint32_t bitOffset, unsigned bits, bool littleEndian) const;

private:
    std::vector<Field> m_fields;
};

} // namespace telestation::sim
