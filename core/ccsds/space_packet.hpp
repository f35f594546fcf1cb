// The CCSDS space packet primary header (CCSDS 133.0-B): reading, writing, and checking it against
// what a stream accepts. These run once per received packet, so they are noexcept and allocation-free.
//
// Bit layout of the 6 bytes (big-endian, bit 0 = most significant bit of byte 0):
//   bits  0-2  packet version number (0 for a CCSDS space packet)
//   bit   3    packet type (0 telemetry, 1 telecommand)
//   bit   4    secondary header flag
//   bits  5-15 APID (0..2047; 2047 = idle packet)
//   bits 16-17 sequence flags (0b11 = unsegmented)
//   bits 18-31 packet sequence count (0..16383)
//   bits 32-47 packet data length = total packet length - 7
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <string_view>

namespace telestation::ccsds {

inline constexpr std::size_t kPrimaryHeaderSize = 6;
inline constexpr std::size_t kMinPacketSize = 7;       // header + at least one data byte
inline constexpr std::size_t kMaxPacketSize = 65542;   // 6 + 65536
inline constexpr std::uint16_t kMaxApid = 0x7FF;
inline constexpr std::size_t kApidCount = 2048;
inline constexpr std::uint16_t kIdleApid = 0x7FF;
inline constexpr std::uint16_t kSequenceCountModulo = 0x4000;

enum class PacketType : std::uint8_t { Telemetry = 0, Telecommand = 1 };

enum class SequenceFlags : std::uint8_t { Continuation = 0, First = 1, Last = 2, Unsegmented = 3 };

struct PrimaryHeader {
    std::uint8_t version = 0;
    PacketType type = PacketType::Telemetry;
    bool secondaryHeader = false;
    std::uint16_t apid = 0;
    SequenceFlags sequenceFlags = SequenceFlags::Unsegmented;
    std::uint16_t sequenceCount = 0;
    std::uint16_t dataLength = 0; // the field as transmitted: packet length - 7

    // The whole packet's size in bytes, primary header included.
    [[nodiscard]] std::size_t packetLength() const noexcept { return std::size_t{dataLength} + 7; }

    friend bool operator==(const PrimaryHeader&, const PrimaryHeader&) = default;
};

// Why checkPrimaryHeader rejected a packet: one specific reason per rejection.
enum class HeaderError : std::uint8_t {
    None,
    TooShort,               // fewer than 6 bytes: no header to read
    UnsupportedVersion,     // version field is not 0
    UnexpectedType,         // telemetry vs telecommand differs from the policy
    MissingSecondaryHeader, // the policy requires the secondary header flag
    IdlePacket,             // APID 2047 and the policy rejects idle packets
    SegmentedPacket,        // sequence flags other than unsegmented and the policy requires unsegmented
    Truncated,              // fewer bytes than the length field says
    TrailingBytes           // more bytes than the length field says, and the policy wants exactly one packet
};

// A sentence an operator understands, for logs and status displays.
[[nodiscard]] std::string_view describe(HeaderError e) noexcept;

// What a stream accepts; the defaults suit a telemetry downlink delivered as one packet per datagram.
struct HeaderPolicy {
    PacketType expectedType = PacketType::Telemetry;
    bool requireSecondaryHeader = false;
    bool rejectIdle = true;          // APID 0x7FF
    bool requireUnsegmented = false; // reject sequence flags other than 0b11
    bool exactLength = true;         // the buffer must be exactly packetLength() (a datagram);
                                     // false: longer is fine (a stream, the next packet follows)
};

// The header as read (left default when the buffer is TooShort) and the first rule it breaks, if any.
// The header is filled in even on rejection, so that a stream framer can still skip packetLength() bytes.
struct HeaderCheck {
    PrimaryHeader header;
    HeaderError error = HeaderError::None;

    [[nodiscard]] bool ok() const noexcept { return error == HeaderError::None; }
};

// Decodes the 6 bytes at `bytes` without any check.
[[nodiscard]] inline PrimaryHeader readPrimaryHeader(const std::uint8_t* bytes) noexcept;

// Encodes `h` into the 6 bytes at `bytes`; each field is masked to its width (version 3 bits, APID 11,
// sequence count 14 bits), so out-of-range values never spill into neighbouring fields.
void writePrimaryHeader(const PrimaryHeader& h, std::uint8_t* bytes) noexcept;

// Reads the header of `packet` and checks it against `policy`. A packet that breaks several rules is
// reported with the first in this order: TooShort, UnsupportedVersion, IdlePacket, UnexpectedType,
// MissingSecondaryHeader, SegmentedPacket, Truncated, TrailingBytes. Idle comes early because idle fill
// usually has no secondary header and is not worth a more alarming reason; the length checks come last
// because the content of the header is known as soon as its 6 bytes are.
[[nodiscard]] inline HeaderCheck checkPrimaryHeader(std::span<const std::uint8_t> packet,
                                                    const HeaderPolicy& policy = {}) noexcept;

// ---- Hot path, defined here so that callers inline it --------------------------------------------
// Called out of line, gcc passes the HeaderCheck result through memory with partial stores and wide
// loads that stall (a micro-benchmark with gcc 12 -O2: 17 ns per call against under 1 ns inlined).

inline PrimaryHeader readPrimaryHeader(const std::uint8_t* bytes) noexcept
{
    PrimaryHeader h;
    h.version = static_cast<std::uint8_t>(bytes[0] >> 5);
    h.type = static_cast<PacketType>((bytes[0] >> 4) & 0x1);
    h.secondaryHeader = ((bytes[0] >> 3) & 0x1) != 0;
    h.apid = static_cast<std::uint16_t>(((bytes[0] & 0x07) << 8) | bytes[1]);
    h.sequenceFlags = static_cast<SequenceFlags>(bytes[2] >> 6);
    h.sequenceCount = static_cast<std::uint16_t>(((bytes[2] & 0x3F) << 8) | bytes[3]);
    h.dataLength = static_cast<std::uint16_t>((bytes[4] << 8) | bytes[5]);
    return h;
}

namespace detail {

// The first rule of checkPrimaryHeader's order that `h`, read from a buffer of `size` bytes, breaks.
inline HeaderError firstHeaderError(const PrimaryHeader& h, std::size_t size, const HeaderPolicy& policy) noexcept
{
    if (h.version != 0)
        return HeaderError::UnsupportedVersion;
    if (policy.rejectIdle && h.apid == kIdleApid)
        return HeaderError::IdlePacket;
    if (h.type != policy.expectedType)
        return HeaderError::UnexpectedType;
    if (policy.requireSecondaryHeader && !h.secondaryHeader)
        return HeaderError::MissingSecondaryHeader;
    if (policy.requireUnsegmented && h.sequenceFlags != SequenceFlags::Unsegmented)
        return HeaderError::SegmentedPacket;
    if (size < h.packetLength())
        return HeaderError::Truncated;
    if (policy.exactLength && size > h.packetLength())
        return HeaderError::TrailingBytes;
    return HeaderError::None;
}

} // namespace detail

inline HeaderCheck checkPrimaryHeader(std::span<const std::uint8_t> packet, const HeaderPolicy& policy) noexcept
{
    if (packet.size() < kPrimaryHeaderSize)
        return HeaderCheck{PrimaryHeader{}, HeaderError::TooShort};
    const PrimaryHeader h = readPrimaryHeader(packet.data());
    return HeaderCheck{h, detail::firstHeaderError(h, packet.size(), policy)};
}

} // namespace telestation::ccsds
