// Stream rates as operators write them: "100pps", "2.5kpps", "25.6Mbps", "1.5Gbps", "9600bps",
// "64kbps", or "flood" (as fast as possible). Units are case-sensitive SI: k = 1e3, M = 1e6, G = 1e9;
// "bps" counts bits of packet bytes as sent (transport header included).
#pragma once

#include "core/common/result.hpp"

#include <string>
#include <string_view>

namespace telestation::sim {

struct Rate {
    enum class Unit { PacketsPerSecond, BitsPerSecond, Flood };
    Unit unit = Unit::PacketsPerSecond;
    double value = 0; // > 0 unless Flood
    friend bool operator==(const Rate&, const Rate&) = default;

    // Packets per second for packets of `averagePacketBytes` (bits rates); 0 for Flood.
    [[nodiscard]] double packetsPerSecond(double averagePacketBytes) const noexcept;
};

// Errors name the text and say what is accepted.
[[nodiscard]] Result<Rate> parseRate(std::string_view text);
// The shortest text that parseRate reads back to the same Rate ("25.6Mbps", "100pps", "flood").
[[nodiscard]] std::string toString(const Rate& rate);

} // namespace telestation::sim
