// Texts the simulator's window shows in several places: counters, rates, fault summaries.
#pragma once

#include "sim/engine/scenario.hpp"

#include <QString>

#include <cstdint>

namespace telestation::sim::gui {

// 1234567 -> "1,234,567" (in the user's locale).
[[nodiscard]] QString formatCount(std::uint64_t n);
// A bit rate in Mbit/s with three significant digits at least: 0.0256, 1.23, 25.6, 987.
[[nodiscard]] QString formatMegabits(double bitsPerSecond);
// Packets per second, rounded: "0", "12.5", "1,234".
[[nodiscard]] QString formatPacketRate(double packetsPerSecond);
// A probability as a percentage: 0.01 -> "1%", 0.00025 -> "0.025%".
[[nodiscard]] QString formatPercent(double probability);
// "drop 1%, duplicate 0.1%"; "" when no fault is active.
[[nodiscard]] QString faultSummary(const FaultConfig& faults);

// The fault kinds in the order the window shows them.
struct FaultKind {
    const char* key;   // the command line's and object names' spelling: "drop", "corruptHeader"
    const char* label; // for the operator
    const char* help;  // tool tip
    double FaultConfig::*member;
    bool tcpOnly;
};
inline constexpr FaultKind kFaultKinds[] = {
    {"drop", "Drop", "The packet is built (its sequence count is used) but not sent: the station sees a gap.",
     &FaultConfig::drop, false},
    {"duplicate", "Duplicate", "The packet is sent twice.", &FaultConfig::duplicate, false},
    {"reorder", "Reorder", "The packet is swapped with the next one.", &FaultConfig::reorder, false},
    {"corruptHeader", "Corrupt header",
     "The packet's version field is set to 0b111: the station rejects it as malformed.",
     &FaultConfig::corruptHeader, false},
    {"truncate", "Truncate",
     "The packet is sent without its last half (UDP: a short datagram; TCP: the framer must resynchronise).",
     &FaultConfig::truncate, false},
    {"garbage", "Garbage", "TCP only: 1 to 64 random bytes are written before the packet.", &FaultConfig::garbage,
     true},
};

} // namespace telestation::sim::gui
