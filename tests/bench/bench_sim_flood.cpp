// Simulator flood benchmark: one stream sends 1288-byte Packet5 (every parameter generated and
// encoded) as fast as possible over loopback UDP into a receiver that drains it on another thread.
// Prints what the simulator sent and what arrived, in packets/s and Gbit/s. Not a test.
//
//   build/release/bin/bench_sim_flood [--seconds S] [--packet NAME] [--mdb FILE] [--no-gso]
#include "tests/bench/bench_support.hpp"
#include "sim/engine/sim_stream.hpp"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <cstdio>
#include <thread>
#include <vector>

using namespace telestation;

int main(int argc, char** argv)
{
    CommandLine cli("bench_sim_flood", "Simulator flood rate over loopback UDP.");
    cli.addFlag("no-gso", "Send plain datagrams (no UDP segmentation offload), for comparison.");
    int exitCode = 0;
    auto setup = bench::setUp(cli, "bench_sim_flood", argc, argv, 5, exitCode);
    if (!setup)
        return exitCode;

    // The receiver: a large buffer, drained with recvmmsg on its own thread.
    const int fd = ::socket(AF_INET, SOCK_DGRAM, 0);
    const int size = 64 * 1024 * 1024;
    if (::setsockopt(fd, SOL_SOCKET, SO_RCVBUFFORCE, &size, sizeof size) != 0)
        ::setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &size, sizeof size);
    sockaddr_in addr{};
    addr.sin_family = AF_INET;
    addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    socklen_t len = sizeof addr;
    if (::bind(fd, reinterpret_cast<sockaddr*>(&addr), sizeof addr) != 0
        || ::getsockname(fd, reinterpret_cast<sockaddr*>(&addr), &len) != 0) {
        std::perror("bench_sim_flood: bind");
        return 1;
    }
    std::atomic<bool> stop{false};
    std::atomic<std::uint64_t> receivedPackets{0}, receivedBytes{0};
    std::thread receiver([&] {
        constexpr int kBatch = 64;
        std::vector<std::vector<std::uint8_t>> buffers(kBatch, std::vector<std::uint8_t>(65536));
        std::vector<iovec> iov(kBatch);
        std::vector<mmsghdr> msgs(kBatch);
        for (int i = 0; i < kBatch; ++i) {
            iov[i] = {buffers[i].data(), buffers[i].size()};
            msgs[i] = {};
            msgs[i].msg_hdr.msg_iov = &iov[i];
            msgs[i].msg_hdr.msg_iovlen = 1;
        }
        while (!stop.load(std::memory_order_relaxed)) {
            pollfd p{fd, POLLIN, 0};
            if (::poll(&p, 1, 50) <= 0)
                continue;
            const int n = ::recvmmsg(fd, msgs.data(), kBatch, MSG_DONTWAIT, nullptr);
            if (n <= 0)
                continue;
            std::uint64_t b = 0;
            for (int i = 0; i < n; ++i)
                b += msgs[i].msg_len;
            receivedPackets.fetch_add(std::uint64_t(n), std::memory_order_relaxed);
            receivedBytes.fetch_add(b, std::memory_order_relaxed);
        }
    });

    sim::StreamConfig config;
    config.name = "flood";
    config.destination = "udp://127.0.0.1:" + std::to_string(ntohs(addr.sin_port));
    config.rate = sim::Rate{sim::Rate::Unit::Flood, 0};
    config.mix = {{setup->packet->name, 1}};
    config.durationSeconds = setup->seconds;
    io::SenderOptions options;
    options.udpSegmentation = !cli.isSet("no-gso");
    auto stream = sim::SimStream::create(config, setup->db, options);
    if (!stream) {
        std::fprintf(stderr, "bench_sim_flood: %s\n", stream.error().message.c_str());
        return 1;
    }
    const auto cpuStart = std::clock();
    (*stream)->start();
    (*stream)->wait();
    const double cpu = double(std::clock() - cpuStart) / CLOCKS_PER_SEC;
    std::this_thread::sleep_for(std::chrono::milliseconds(300));
    stop.store(true);
    receiver.join();
    ::close(fd);

    const auto s = (*stream)->summary();
    std::printf("packet %s, %.0f bytes average, flood for %.2f s\n", config.mix[0].packet.c_str(),
                (*stream)->averagePacketBytes(), s.seconds);
    std::printf("sent:     %llu packets, %.0f packets/s, %.2f Gbit/s (not sent: %llu)\n",
                static_cast<unsigned long long>(s.sent.packets), s.packetsPerSecond, s.bitsPerSecond / 1e9,
                static_cast<unsigned long long>(s.notSent));
    std::printf("received: %llu packets (%.2f%%), %.2f Gbit/s\n",
                static_cast<unsigned long long>(receivedPackets.load()),
                s.sent.packets ? 100.0 * double(receivedPackets.load()) / double(s.sent.packets) : 0.0,
                8.0 * double(receivedBytes.load()) / s.seconds / 1e9);
    std::printf("process CPU: %.2f s for %.2f s of sending (both threads)\n", cpu, s.seconds);
    return 0;
}
