#include "core/link/wire.hpp"

#include <algorithm>
#include <cstdio>

namespace telestation::link {

namespace {

// The payload an IP packet of the MTU carries after its own header, rounded down to whole 8-byte
// fragment units (fragment offsets count in 8 bytes).
std::uint32_t fragmentPayload(const WireModel& wire) noexcept
{
    const std::uint32_t room = wire.mtu > kIpv4HeaderBytes ? wire.mtu - kIpv4HeaderBytes : 8;
    return std::max<std::uint32_t>(8, room / 8 * 8);
}

std::uint64_t frameBytes(const WireModel& wire, std::uint64_t ipPacket) noexcept
{
    return std::max<std::uint64_t>(ipPacket + wire.frameOverheadBytes, wire.minimumFrameBytes);
}

} // namespace

std::uint32_t udpFrames(const WireModel& wire, std::uint32_t payload) noexcept
{
    const std::uint64_t ipPayload = std::uint64_t(payload) + kUdpHeaderBytes;
    const std::uint32_t perFragment = fragmentPayload(wire);
    return static_cast<std::uint32_t>(std::max<std::uint64_t>(1, (ipPayload + perFragment - 1) / perFragment));
}

std::uint64_t udpWireBytes(const WireModel& wire, std::uint32_t payload) noexcept
{
    std::uint64_t left = std::uint64_t(payload) + kUdpHeaderBytes;
    const std::uint32_t perFragment = fragmentPayload(wire);
    std::uint64_t total = 0;
    do {
        const std::uint64_t part = std::min<std::uint64_t>(left, perFragment);
        total += frameBytes(wire, part + kIpv4HeaderBytes);
        left -= part;
    } while (left > 0);
    return total;
}

std::optional<double> udpWireSeconds(const WireModel& wire, std::uint32_t payload) noexcept
{
    if (!wire.known())
        return std::nullopt;
    return double(udpWireBytes(wire, payload)) * 8.0 / wire.bitsPerSecond;
}

std::optional<double> udpPayloadLimit(const WireModel& wire, std::uint32_t payload) noexcept
{
    const auto seconds = udpWireSeconds(wire, payload);
    if (!seconds)
        return std::nullopt;
    return double(payload) / *seconds;
}

std::optional<double> tcpPayloadLimit(const WireModel& wire) noexcept
{
    if (!wire.known() || wire.mtu <= kIpv4HeaderBytes + kTcpHeaderBytes)
        return std::nullopt;
    const double segment = double(wire.mtu - kIpv4HeaderBytes - kTcpHeaderBytes);
    return wire.bitsPerSecond / 8.0 * segment / double(frameBytes(wire, wire.mtu));
}

std::optional<double> tcpMessageLimit(const WireModel& wire, std::uint32_t messageBytes) noexcept
{
    const auto payload = tcpPayloadLimit(wire);
    if (!payload)
        return std::nullopt;
    return *payload * double(messageBytes) / double(messageBytes + kFrameHeaderBytes);
}

std::string bitRateText(double bitsPerSecond)
{
    const char* unit = "bit/s";
    double value = bitsPerSecond;
    if (value >= 1e9) {
        value /= 1e9;
        unit = "Gbit/s";
    } else if (value >= 1e6) {
        value /= 1e6;
        unit = "Mbit/s";
    } else if (value >= 1e3) {
        value /= 1e3;
        unit = "kbit/s";
    }
    char text[48];
    std::snprintf(text, sizeof text, value >= 100 || value == double(long(value)) ? "%.0f %s" : "%.3g %s", value, unit);
    return text;
}

} // namespace telestation::link
