// The link tests by name (issue 18, docs/link-test.md): what the controller can be asked to run, in
// the order a full run makes them, and their names on command lines, in the control protocol and in
// the report files.
#pragma once

#include "core/common/result.hpp"

#include <array>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace telestation::link {

enum class TestKind : std::uint8_t {
    MessageRate, // DIM: messages/s and KB/s against message size, over TCP and UDP
    UdpGrid,     // udpmon: packet size × requested gap → send and receive rates, loss, reordering
    TcpFlows,    // iperf: 1…16 parallel TCP flows, total window constant, median of exact intervals
    BlockSweep,  // the thesis: one TCP stream's throughput and CPU against the block size per write
    Telemetry,   // a mission's packet through the real station path: highest rate with 100% delivery
};

inline constexpr std::array<TestKind, 5> kAllTests{TestKind::MessageRate, TestKind::UdpGrid, TestKind::TcpFlows,
                                                   TestKind::BlockSweep, TestKind::Telemetry};

// "msgrate", "udpmon", "flows", "blocks", "telemetry".
[[nodiscard]] std::string_view testName(TestKind kind) noexcept;
// "Message rate vs size", …: headings of the report.
[[nodiscard]] std::string_view testTitle(TestKind kind) noexcept;

// "msgrate,udpmon" or "all" → the tests, in kAllTests order, each once. An unknown name is an error
// that lists the known ones.
[[nodiscard]] Result<std::vector<TestKind>> parseTestList(std::string_view list);

} // namespace telestation::link
