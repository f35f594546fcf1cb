// The controller's side of the test traffic: framed TCP messages, paced or back-to-back UDP datagrams,
// parallel TCP flows and fixed-size TCP writes, each to the port the responder opened for the phase,
// each counting what it sent and how long that took by its own clock.
#pragma once

#include "core/common/result.hpp"

#include <chrono>
#include <cstdint>
#include <string>
#include <vector>

namespace telestation::link {

struct SendCounts {
    std::uint64_t messages = 0;  // messages, datagrams or writes sent
    std::uint64_t bytes = 0;     // payload bytes sent
    std::uint64_t sendErrors = 0; // datagrams the kernel refused (ENOBUFS, …): not sent
    std::int64_t startNs = 0;    // the first send and the end of the last one (monotonic)
    std::int64_t endNs = 0;
    double cpuSeconds = 0;       // CPU time of the sending thread(s)
    std::vector<std::uint64_t> flowBytes; // per TCP flow

    [[nodiscard]] double seconds() const noexcept { return double(endNs - startNs) / 1e9; }
};

struct Target {
    std::string host;
    std::uint16_t port = 0;
};

// Messages of `messageBytes` each with a 4-byte big-endian length prefix, one send(2) per message,
// over one TCP connection, for `duration`. The connection is closed at the end (the responder's cue).
[[nodiscard]] Result<SendCounts> sendFramedMessages(const Target& target, std::uint32_t messageBytes, std::chrono::milliseconds duration);

// UDP datagrams of `bytes` (at least 4: the first 4 carry a sequence number, little-endian). With
// `count` > 0: that many, each at least `gapNs` after the previous one (a busy wait: gaps are microseconds);
// with count 0: back to back for `duration`.
struct DatagramPlan {
    std::uint32_t bytes = 1024;
    std::uint64_t count = 0;
    std::int64_t gapNs = 0;
    std::chrono::milliseconds duration{0};
    int sendBufferBytes = 4 << 20;
};
[[nodiscard]] Result<SendCounts> sendDatagrams(const Target& target, const DatagramPlan& plan);

// `flows` TCP connections at once, each with a send buffer of windowBytes / flows (0: the system's
// default), each writing `writeBytes` blocks as fast as it can for `duration` from a thread of its own.
// flowBytes has each flow's total; cpuSeconds is summed over the threads.
[[nodiscard]] Result<SendCounts> sendTcpFlows(const Target& target, std::uint32_t flows, std::uint32_t windowBytes,
                                              std::uint32_t writeBytes, std::chrono::milliseconds duration);

} // namespace telestation::link
