#include "sim/core/packet_factory.hpp"

#include "core/ccsds/space_packet.hpp"
#include "core/decode/bits.hpp"

#include <algorithm>

namespace telestation::sim {

PacketFactory::PacketFactory(const mdb::PacketDef& packet)
    : m_packet(&packet),
      m_size(std::clamp<std::size_t>(packet.length, ccsds::kPrimaryHeaderSize + 1, ccsds::kMaxPacketSize))
{
    if (packet.secondaryHeader) {
        const auto& h = *packet.secondaryHeader;
        const std::int64_t epoch = h.epoch == mdb::TimeEpoch::Tai1958 ? ccsds::kTai1958UnixSeconds
                                   : h.epoch == mdb::TimeEpoch::Gps1980 ? ccsds::kGps1980UnixSeconds
                                                                        : 0;
        m_time = ccsds::CucFormat{h.coarseBytes, h.fineBytes, h.hasPField, epoch};
    }
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
    const mdb::ParameterDef& p = m_packet->parameters[index];
    const std::uint64_t end = std::uint64_t{p.bitOffset} + p.bitLength;
    if (end > std::uint64_t{packet.size()} * 8)
        return;
    if (p.type == mdb::DataType::String || p.type == mdb::DataType::Bytes) {
        // The first (up to) 8 bytes of the field, right-aligned in `raw`, as the decoder reports them.
        const unsigned bytes = std::min(p.bitLength / 8, 8u);
        decode::insertBits(packet.data(), p.bitOffset, 8 * bytes, raw);
        return;
    }
    std::uint64_t bits = raw;
    if (mdb::effectiveByteOrder(*m_packet, p) == mdb::ByteOrder::LittleEndian && p.bitLength % 8 == 0 && p.bitLength > 8)
        bits = decode::reverseBytes(bits, p.bitLength / 8);
    decode::insertBits(packet.data(), p.bitOffset, p.bitLength, bits);
}

} // namespace telestation::sim
