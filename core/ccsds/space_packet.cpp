// The cold parts of the primary header: descriptions and writing (readPrimaryHeader and
// checkPrimaryHeader are inline in the header, for the hot path).
#include "core/ccsds/space_packet.hpp"

namespace telestation::ccsds {

std::string_view describe(HeaderError e) noexcept
{
    switch (e) {
    case HeaderError::None:
        return "The packet header is valid.";
    case HeaderError::TooShort:
        return "The packet is shorter than the 6-byte CCSDS primary header.";
    case HeaderError::UnsupportedVersion:
        return "The packet version number is not 0, so this is not a CCSDS space packet.";
    case HeaderError::UnexpectedType:
        return "The packet type (telemetry or telecommand) is not the type this stream carries.";
    case HeaderError::MissingSecondaryHeader:
        return "The packet has no secondary header, but this stream requires one.";
    case HeaderError::IdlePacket:
        return "The packet is an idle packet (APID 2047) and carries no data.";
    case HeaderError::SegmentedPacket:
        return "The packet is a segment of a larger packet, but this stream accepts only unsegmented packets.";
    case HeaderError::Truncated:
        return "The packet is shorter than the length in its header: bytes are missing.";
    case HeaderError::TrailingBytes:
        return "The datagram is longer than the packet length in its header: extra bytes follow the packet.";
    }
    return "The packet header has an unknown error.";
}

void writePrimaryHeader(const PrimaryHeader& h, std::uint8_t* bytes) noexcept
{
    const unsigned version = h.version & 0x7u;
    const unsigned type = static_cast<unsigned>(h.type) & 0x1u;
    const unsigned secondary = h.secondaryHeader ? 1u : 0u;
    const unsigned apid = h.apid & kMaxApid;
    const unsigned flags = static_cast<unsigned>(h.sequenceFlags) & 0x3u;
    const unsigned count = h.sequenceCount & (kSequenceCountModulo - 1u);

    bytes[0] = static_cast<std::uint8_t>((version << 5) | (type << 4) | (secondary << 3) | (apid >> 8));
    bytes[1] = static_cast<std::uint8_t>(apid & 0xFFu);
    bytes[2] = static_cast<std::uint8_t>((flags << 6) | (count >> 8));
    bytes[3] = static_cast<std::uint8_t>(count & 0xFFu);
    bytes[4] = static_cast<std::uint8_t>(h.dataLength >> 8);
    bytes[5] = static_cast<std::uint8_t>(h.dataLength & 0xFFu);
}

} // namespace telestation::ccsds
