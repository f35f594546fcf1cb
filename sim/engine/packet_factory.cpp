#include "sim/engine/packet_factory.hpp"

#include "core/ccsds/space_packet.hpp"
#include "core/decode/bits.hpp"
#include "core/decode/decode_plan.hpp"

#include <algorithm>
#include <utility>

namespace telestation::sim {

PacketFactory::PacketFactory(const mdb::PacketDef& packet)
    : m_packet(&packet),
      m_size(std::clamp<std::size_t>(packet.length, ccsds::kPrimaryHeaderSize + 1, ccsds::kMaxPacketSize))
{
    if (packet.secondaryHeader)
        m_time = decode::cucFormat(*packet.secondaryHeader);
    if (auto encoder = decode::EncodePlan::compile(packet); encoder.ok())
        m_encoder = std::move(encoder).value();
}

std::size_t PacketFactory::build(std::span<std::uint8_t> out, std::uint16_t sequenceCount,
                                 std::int64_t unixNs) const noexcept
{
    if (out.size() < m_size)
        return 0;
    std::fill_n(out.begin(), m_size, std::uint8_t{0});
    ccsds::PrimaryHeader header;
    header.type = ccsds::PacketType::Telemetry;
    header.secondaryHeader = m_packet->secondaryHeader.has_value();
    header.apid = m_packet->apid;
    header.sequenceFlags = ccsds::SequenceFlags::Unsegmented;
    header.sequenceCount = static_cast<std::uint16_t>(sequenceCount % ccsds::kSequenceCountModulo);
    header.dataLength = static_cast<std::uint16_t>(m_size - 7);
    ccsds::writePrimaryHeader(header, out.data());
    if (m_time)
        (void)ccsds::encodeCuc(unixNs, *m_time, out.subspan(ccsds::kPrimaryHeaderSize, ccsds::cucSize(*m_time)));
    if (const auto& id = m_packet->secondaryId)
        decode::insertBits(out.data(), id->bitOffset, id->bitLength, id->value);
    return m_size;
}

void PacketFactory::setRaw(std::span<std::uint8_t> packet, std::size_t index, std::uint64_t raw) const noexcept
{
    if (m_encoder)
        m_encoder->setRaw(packet, index, raw);
}

} // namespace telestation::sim
