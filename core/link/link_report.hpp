// A link test's results, laid out as the reference reports lay them out (DIM's table, udpmon's grid,
// iperf's flows, the thesis's block sweep), with the physical limit beside each figure, and written as
// Markdown, CSV and JSON with the machine, the link and the command (docs/link-test.md).
#pragma once

#include "core/link/protocol.hpp"
#include "core/link/tests.hpp"
#include "core/link/wire.hpp"

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace telestation::link {

// DIM: one message size over one transport.
struct MessageRateRow {
    Transport transport = Transport::Tcp;
    std::uint32_t bytes = 0;      // message size
    double seconds = 0;           // sending time
    std::uint64_t sent = 0;
    std::uint64_t received = 0;
    double messagesPerSecond = 0; // received / the receiver's time from first to last
    double kilobytesPerSecond = 0; // message bytes received per second, 1 KB = 1000 bytes
    std::optional<double> limitKilobytesPerSecond; // the wire's payload limit for this size
    std::optional<double> limitMessagesPerSecond;
};

// udpmon: one packet size at one requested gap.
struct UdpGridRow {
    std::uint32_t bytes = 0;
    std::int64_t gapNs = 0;         // requested inter-packet gap
    std::uint64_t count = 0;        // packets asked for
    double requestedSeconds = 0;    // count × gap
    double sendSeconds = 0;         // what sending them took
    double sendMbps = 0;            // UDP payload bits sent per second
    double receiveMbps = 0;         // over the receiver's first to last datagram
    std::uint64_t sent = 0;       // datagrams the kernel took
    std::uint64_t sendErrors = 0; // refused by the sender's kernel (queue full): never left, counted as lost
    std::uint64_t received = 0;
    std::uint64_t lost = 0;       // count − received
    std::uint64_t reordered = 0;
    std::optional<double> wireNs;   // one packet's time on the wire
    [[nodiscard]] bool wedge() const noexcept { return wireNs && double(gapNs) < *wireNs; } // asked faster than the wire
    [[nodiscard]] double lossPercent() const noexcept { return count ? 100.0 * double(lost) / double(count) : 0; }
};

// iperf: one number of parallel flows, the total window held constant.
struct FlowsRow {
    std::uint32_t flows = 0;
    std::uint32_t windowBytes = 0;   // total over the flows
    double seconds = 0;
    std::uint64_t bytes = 0;
    double medianMbps = 0;           // median of the exact intervals' summed throughput
    double meanMbps = 0;             // bytes over the whole time
    std::vector<double> intervalMbps; // the summed throughput of each exact interval
    std::optional<double> limitMbps;
};

// The thesis: one TCP stream with a fixed block size per write.
struct BlockRow {
    std::uint32_t blockBytes = 0;
    double seconds = 0;
    std::uint64_t bytes = 0;
    double mbps = 0;
    double senderCpuPercent = 0;   // of one core, over the sending time
    double receiverCpuPercent = 0;
    std::optional<double> limitMbps;
};

// Telemetry: one rate tried through the station.
struct TelemetryTry {
    double mbps = 0;                // asked for (packet bytes, no UDP/IP overhead)
    double packetsPerSecond = 0;
    std::uint64_t sent = 0;
    StationCounts station;
    [[nodiscard]] bool delivered() const noexcept
    {
        return sent > 0 && station.received == sent && station.processed == sent && station.dropped == 0
            && station.sequenceErrors == 0 && station.malformed == 0;
    }
};

struct TelemetryResult {
    std::string packet;
    std::uint32_t packetBytes = 0;
    std::vector<TelemetryTry> tries;
    std::optional<double> bestMbps;   // the highest rate with 100% delivery
    std::optional<double> limitMbps;  // the wire's limit for this packet size (UDP)
};

struct LinkReport {
    std::string date;        // UTC, ISO 8601
    std::string command;     // as typed
    std::string controller;  // host name and the address the control connection used
    std::string responder;   // the responder's host name and address
    std::string machine;     // CPU model and cores of the controller
    std::string kernel;
    WireModel wire;
    std::vector<TestKind> tests;
    std::vector<MessageRateRow> messageRate;
    std::vector<UdpGridRow> udpGrid;
    std::vector<FlowsRow> flows;
    std::vector<BlockRow> blocks;
    std::optional<TelemetryResult> telemetry;
    std::vector<std::pair<TestKind, std::string>> failures; // a test that could not finish, and why
};

// The report as Markdown: a heading per test, its table, the limit beside each figure.
[[nodiscard]] std::string toMarkdown(const LinkReport& report);
[[nodiscard]] Json toJson(const LinkReport& report);
// One CSV per test that has rows: (file name, content), e.g. ("link-msgrate.csv", "...").
[[nodiscard]] std::vector<std::pair<std::string, std::string>> toCsvFiles(const LinkReport& report);

// The summed throughput of `flows` (each flow's cumulative bytes at its sample times) over exact
// intervals of `intervalNs` from the earliest sample: each flow is interpolated linearly at the
// interval bounds, the flows are summed, and each whole interval up to `endNs` (0: the last sample)
// gives one figure in Mbit/s.
[[nodiscard]] std::vector<double> exactIntervalMbps(const std::vector<std::vector<FlowSample>>& flows, std::int64_t intervalNs,
                                                    std::int64_t endNs = 0);
[[nodiscard]] double median(std::vector<double> values);

// The machine's description for reports: "Intel(R) Xeon(R) … , 2 cores", and the kernel release.
[[nodiscard]] std::string machineDescription();
[[nodiscard]] std::string kernelDescription();
[[nodiscard]] std::string hostName();

} // namespace telestation::link
