// Simulator pacing benchmark: how evenly one stream spaces its packets at a set rate. The stream
// sends over loopback UDP into a capturing receiver (tests/support/capture_receiver.hpp, arrival time
// per recvmmsg batch); the packets are counted per 10 ms window between the first and the last arrival
// (the edge windows left out) and, at 1,000 packets/s or less, the gaps between packets are compared
// with the period. These figures depend on the machine's load, so they are measured here, never
// asserted in a test (tst_sim_stream::pacing checks what holds on any load). Not a test.
//
//   build/release/bin/bench_sim_pacing [--rate PPS] [--seconds S] [--packet NAME] [--mdb FILE]
#include "tests/bench/bench_support.hpp"
#include "tests/support/capture_receiver.hpp"
#include "sim/engine/sim_stream.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <string>
#include <thread>
#include <vector>

using namespace telestation;

namespace {

struct WindowFigures {
    double mean = 0, stddev = 0;
    int max = 0;
    double withinShare = 0; // of the windows within +-35% of the ideal count
};

WindowFigures perWindow(const std::vector<test::UdpCapture::Datagram>& d, double idealPerWindow)
{
    constexpr std::int64_t kWindowNs = 10'000'000;
    const std::int64_t first = d.front().arrivalNs;
    std::vector<int> counts(std::size_t((d.back().arrivalNs - first) / kWindowNs) + 1, 0);
    for (const auto& g : d)
        ++counts[std::size_t((g.arrivalNs - first) / kWindowNs)];
    WindowFigures f;
    if (counts.size() < 3)
        return f;
    const std::vector<int> inner(counts.begin() + 1, counts.end() - 1);
    double sum = 0, squares = 0;
    int within = 0;
    for (int n : inner) {
        sum += n;
        squares += double(n) * n;
        f.max = std::max(f.max, n);
        within += std::abs(n - idealPerWindow) <= 0.35 * idealPerWindow ? 1 : 0;
    }
    f.mean = sum / double(inner.size());
    f.stddev = std::sqrt(std::max(0.0, squares / double(inner.size()) - f.mean * f.mean));
    f.withinShare = double(within) / double(inner.size());
    return f;
}

} // namespace

int main(int argc, char** argv)
{
    CommandLine cli("bench_sim_pacing", "How evenly the simulator paces one stream over loopback UDP.");
    cli.addOption("rate", "PPS", "Packets per second (default 10000).");
    int exitCode = 0;
    auto setup = bench::setUp(cli, "bench_sim_pacing", argc, argv, 3, exitCode);
    if (!setup)
        return exitCode;
    const auto rate = cli.number("rate", 10000);
    if (!rate || *rate <= 0) {
        std::fprintf(stderr, "bench_sim_pacing: --rate needs a number above zero\n");
        return 2;
    }

    test::UdpCapture capture;
    sim::StreamConfig config;
    config.name = "pacing";
    config.destination = "udp://127.0.0.1:" + std::to_string(capture.port());
    config.rate = sim::Rate{sim::Rate::Unit::PacketsPerSecond, *rate};
    config.mix = {{setup->packet->name, 1}};
    config.durationSeconds = setup->seconds;
    auto stream = sim::SimStream::create(config, setup->db);
    if (!stream) {
        std::fprintf(stderr, "bench_sim_pacing: %s\n", stream.error().message.c_str());
        return 1;
    }
    (*stream)->start();
    (*stream)->wait();
    const auto s = (*stream)->summary();
    for (int i = 0; i < 100 && capture.count() < s.sent.packets; ++i)
        std::this_thread::sleep_for(std::chrono::milliseconds(20));
    const auto d = capture.datagrams();
    std::printf("%s at %.0f packets/s for %.2f s: sent %llu (ideal %.0f), not sent %llu, arrived %zu\n",
                setup->packet->name.c_str(), *rate, s.seconds, static_cast<unsigned long long>(s.sent.packets),
                *rate * setup->seconds, static_cast<unsigned long long>(s.notSent), d.size());
    if (d.size() < 3)
        return 1;
    const double ideal = *rate / 100.0;
    const WindowFigures w = perWindow(d, ideal);
    std::printf("per 10 ms window: mean %.1f (ideal %.1f), stddev %.2f, max %d, %.1f%% within +-35%%\n", w.mean,
                ideal, w.stddev, w.max, 100.0 * w.withinShare);
    if (*rate <= 1000) {
        const double periodMs = 1000.0 / *rate;
        int steady = 0, bursts = 0;
        for (std::size_t i = 1; i < d.size(); ++i) {
            const double gapMs = double(d[i].arrivalNs - d[i - 1].arrivalNs) / 1e6;
            steady += std::abs(gapMs - periodMs) <= 0.3 * periodMs ? 1 : 0;
            bursts += gapMs < 0.2 * periodMs ? 1 : 0;
        }
        std::printf("gaps: %d of %zu within %.1f +-30%% ms, %d under 20%% of the period\n", steady, d.size() - 1,
                    periodMs, bursts);
    }
    return 0;
}
