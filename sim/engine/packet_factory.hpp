// PacketFactory: builds CCSDS space packets of one packet type from its mission-database definition —
// primary header (APID, sequence flags, count, data length), CUC secondary-header time, secondary id —
// and places raw parameter values with the decoder's bit conventions. The simulator's generators
// (issue 3) build on it; tests and benchmarks use it to make packets the decoder must read back.
#pragma once

#include "core/ccsds/cuc_time.hpp"
#include "core/decode/encoder.hpp"
#include "core/mdb/model.hpp"

#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>

namespace telestation::sim {

class PacketFactory {
public:
    explicit PacketFactory(const mdb::PacketDef& packet);

    // Size of the packets built: the fixed length, or the minimum length of a variable packet.
    [[nodiscard]] std::size_t packetSize() const noexcept { return m_size; }
    [[nodiscard]] const mdb::PacketDef& definition() const noexcept { return *m_packet; }

    // Writes a packet into out (at least packetSize() bytes; zero-filled payload) with the given
    // sequence count (taken modulo 2^14) and packet time. Returns the packet's size.
    std::size_t build(std::span<std::uint8_t> out, std::uint16_t sequenceCount, std::int64_t unixNs) const noexcept;

    // Places the raw bits of parameter `index` into a built packet (little-endian fields byte-reversed,
    // as the decoder expects). Values wider than the field are truncated to it. Does nothing for a
    // definition the decoder refuses (see decode::EncodePlan::compile).
    void setRaw(std::span<std::uint8_t> packet, std::size_t index, std::uint64_t raw) const noexcept;

private:
    const mdb::PacketDef* m_packet;
    std::size_t m_size;
    std::optional<ccsds::CucFormat> m_time;
    std::optional<decode::EncodePlan> m_encoder; // empty when the definition cannot be compiled
};

} // namespace telestation::sim
