// The physical limits printed beside every figure of a link test: how long a message, a datagram or a
// TCP segment occupies the wire at the link's speed, and what payload rate that leaves. The numbers
// are Ethernet's and IPv4's; a report states the model it used (docs/link-test.md, "Limits").
#pragma once

#include <cstdint>
#include <optional>
#include <string>

namespace telestation::link {

struct WireModel {
    double bitsPerSecond = 0; // the link's rate; 0: unknown (loopback, or not given and not readable)
    std::uint32_t mtu = 1500; // IP packet size at most
    // Bytes each frame costs on the wire besides its IP packet: 38 on a physical Ethernet (header 14,
    // FCS 4, preamble 8, inter-frame gap 12); 14 under a token bucket filter, which counts the frame
    // as the kernel holds it (header only).
    std::uint32_t frameOverheadBytes = 38;
    std::uint32_t minimumFrameBytes = 46 + 38; // Ethernet pads an IP packet up to 46 bytes
    std::string source;                        // "given", "interface eth0 (ethtool speed)", "unknown"

    [[nodiscard]] bool known() const noexcept { return bitsPerSecond > 0; }
};

inline constexpr std::uint32_t kIpv4HeaderBytes = 20;
inline constexpr std::uint32_t kUdpHeaderBytes = 8;
inline constexpr std::uint32_t kTcpHeaderBytes = 32; // 20 + the timestamps option Linux sends
inline constexpr std::uint32_t kMaxUdpPayload = 65507;
// The length prefix of a framed TCP message (the message-rate test over TCP).
inline constexpr std::uint32_t kFrameHeaderBytes = 4;

// Frames an IPv4 UDP datagram of `payload` bytes takes (fragments when it exceeds the MTU).
[[nodiscard]] std::uint32_t udpFrames(const WireModel& wire, std::uint32_t payload) noexcept;
// Bytes the datagram occupies on the wire, all fragments and frame overheads included.
[[nodiscard]] std::uint64_t udpWireBytes(const WireModel& wire, std::uint32_t payload) noexcept;
// Seconds the datagram occupies the wire; nullopt when the link's rate is unknown.
[[nodiscard]] std::optional<double> udpWireSeconds(const WireModel& wire, std::uint32_t payload) noexcept;
// Highest rate of UDP payload (bytes/s) the link carries with datagrams of `payload` bytes back to back.
[[nodiscard]] std::optional<double> udpPayloadLimit(const WireModel& wire, std::uint32_t payload) noexcept;
// Highest rate of TCP payload (bytes/s): full segments (MTU minus IP and TCP headers) back to back.
[[nodiscard]] std::optional<double> tcpPayloadLimit(const WireModel& wire) noexcept;
// Highest rate of framed messages of `messageBytes` (bytes of message per second) over TCP.
[[nodiscard]] std::optional<double> tcpMessageLimit(const WireModel& wire, std::uint32_t messageBytes) noexcept;

// "100 Mbit/s", "1.5 Gbit/s", "10 kbit/s".
[[nodiscard]] std::string bitRateText(double bitsPerSecond);

} // namespace telestation::link
