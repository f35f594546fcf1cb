// The controlling end of a link test (the simulator's side, docs/link-test.md): connects to a
// responder, runs the chosen tests phase by phase — the responder opens and counts, the controller
// sends — and gathers the results into a LinkReport with the wire's limits beside each figure.
#pragma once

#include "core/common/result.hpp"
#include "core/link/link_report.hpp"
#include "core/link/traffic_sender.hpp"

#include <atomic>
#include <chrono>
#include <functional>
#include <string>
#include <vector>

namespace telestation::link {

// Sends a mission's packets for the telemetry test; the simulator provides it (sim/engine), so that
// core/link needs no simulator.
class TelemetrySender {
public:
    virtual ~TelemetrySender() = default;
    // The size of one packet of the type as sent; an error when the mission does not define it.
    [[nodiscard]] virtual Result<std::uint32_t> packetBytes(const std::string& packet) = 0;
    // Sends the packet type to udp://target at `packetsPerSecond` for `duration`; the packets sent.
    [[nodiscard]] virtual Result<std::uint64_t> send(const Target& target, const std::string& packet, double packetsPerSecond,
                                                     std::chrono::milliseconds duration) = 0;
};

struct ControllerOptions {
    std::string responder; // HOST:PORT of the responder's control port
    std::vector<TestKind> tests{kAllTests.begin(), kAllTests.end()};
    WireModel wire;
    std::string command;   // for the report

    // Message rate (DIM): each size over TCP, then over UDP (sizes above the largest datagram: the largest).
    std::vector<std::uint32_t> messageSizes{4, 128, 512, 1024, 2048, 4096, 8192, 16384, 32768, 65536};
    std::chrono::milliseconds messageTime{2000};
    // UDP grid (udpmon): every size at every requested gap, `udpCount` packets each.
    std::vector<std::uint32_t> udpSizes{64, 256, 512, 1024, 1472, 4096, 8192};
    std::vector<std::int64_t> udpGapsNs{0, 5'000, 10'000, 20'000, 40'000, 80'000, 160'000};
    std::uint64_t udpCount = 1000;
    // Parallel flows (iperf): the total window is shared by the flows.
    std::vector<std::uint32_t> flowCounts{1, 2, 4, 8, 16};
    std::uint32_t totalWindowBytes = 4u << 20;
    std::chrono::milliseconds flowsTime{5000};
    std::uint32_t sampleMs = 100;
    // Block sweep (the thesis).
    std::vector<std::uint32_t> blockSizes{16, 64, 256, 1024, 4096, 16384, 65536, 262144};
    std::chrono::milliseconds blockTime{2000};
    // Telemetry: the highest rate with 100% delivery, searched from telemetryStartMbps up to the
    // wire's limit (or telemetryMaxMbps when the link's speed is unknown).
    std::string packet = "Packet5";
    double telemetryStartMbps = 10;
    double telemetryMaxMbps = 4000;
    std::chrono::milliseconds telemetryTime{2000};
    int telemetryTries = 14; // from 10 Mbit/s to within 10 % of a few Gbit/s (loopback): 9 doublings, then bisections
    TelemetrySender* telemetry = nullptr; // none: the telemetry test is reported as not run, with why

    std::chrono::milliseconds connectTimeout{5000};
    // After every row: the report so far and a line saying what was measured. From the test's thread.
    std::function<void(const LinkReport&, const std::string&)> progress;
    const std::atomic<bool>* cancel = nullptr; // checked between phases
};

// The short grids of a first look (`telestation-sim link --quick`, the link test window's Quick): fewer
// sizes, gaps, flows and blocks, fewer telemetry tries, and 0.5-s phases (the flows test 1.5 s).
void quickGrids(ControllerOptions& options);

// Runs the tests. An error only when no session could be had (the responder is absent, busy, or
// refuses this controller) or the control connection broke; a test that fails part-way is recorded
// in the report's failures and the next test runs.
[[nodiscard]] Result<LinkReport> runLinkTest(const ControllerOptions& options);

// The link's speed from the network interface that carries `localAddress` (/sys/class/net/IF/speed);
// unknown for loopback or when the driver does not say.
[[nodiscard]] WireModel wireOfInterface(const std::string& localAddress);
// The same for the interface the system would use towards HOST:PORT (a route look-up; nothing is sent).
[[nodiscard]] WireModel wireTowards(const std::string& hostPort);

} // namespace telestation::link
