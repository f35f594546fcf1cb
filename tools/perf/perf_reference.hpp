// The machine's own reference figures for telestation-perf: what the hardware and kernel do without
// Telestation in the way, measured under the same conditions as a performance test, so that each test
// result can be printed beside its ratio to them. Two references: iperf3's loss-free UDP loopback rate
// at a datagram size, and the sequential write rate of a directory's file system.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace telestation::perf {

// One iperf3 run at one rate.
struct UdpReferenceTry {
    double askedMbps = 0; // the -b rate, whole Mbit/s
    double senderMbps = 0; // what the client managed to send (below askedMbps when it ran out of CPU)
    double receiverMbps = 0; // what the server received
    std::int64_t packets = 0; // datagrams the receiver accounted for (received + lost)
    std::int64_t lostPackets = 0; // datagrams the receiver saw missing from the sequence
    double seconds = 0; // the receiver's measuring interval
    bool ok = false; // ran and lost nothing: lostPackets == 0 and packets > 0
    std::string error; // why the run failed (empty when iperf3 produced figures)
};

struct UdpReference {
    bool available = false; // iperf3 found and runnable
    // Why not available, or what failed (empty when all went well). A run that fails ends the search;
    // the loss-free figures of the runs before it still stand.
    std::string reason;
    std::string iperfVersion; // e.g. "iperf 3.12"
    int datagramBytes = 0;
    std::size_t socketBufferBytes = 0; // the -w asked of iperf3 (0: its default)
    double lossFreeMbps = 0; // highest receiver rate among the tries with 0 lost datagrams
    double lossFreePacketsPerSecond = 0; // the same try's datagrams per second
    std::vector<UdpReferenceTry> tries; // every rate tried, in order
};

struct UdpReferenceOptions {
    int datagramBytes = 1288; // iperf3 accepts 16..65507
    // iperf3's -w, the SO_RCVBUF and SO_SNDBUF of both ends' data sockets: the station asks for a 64 MiB
    // receive buffer, so the reference is measured with the same. iperf3 asks without the FORCE variants,
    // so net.core.rmem_max and wmem_max must allow it: the search refuses to start when they are lower
    // (and says how to raise them). 0: iperf3's default, the kernel's.
    std::size_t socketBufferBytes = std::size_t{64} * 1024 * 1024;
    // iperf3 takes whole seconds (-t 0 would run forever), so this is rounded, to at least 1.
    double secondsPerTry = 2;
    double startMbps = 1000;
    double maxMbps = 20000;
    std::string iperf3 = "iperf3"; // a path, or a name searched in PATH
    int maxTries = 12;
};

// Searches for the highest rate at which iperf3 loses no datagram over 127.0.0.1 (and only there):
// doubles from startMbps while nothing is lost (up to maxMbps), halves when even startMbps loses
// (down to 10 Mbit/s), then bisects between the best loss-free and the first lossy rate until they
// are within 10 % or maxTries runs are used. Each run starts a one-off iperf3 server on a free port;
// the -w goes to the client only (iperf3 3.12 refuses it on a server), which hands it to the server.
// Takes about tries × (secondsPerTry + 0.5) s. Never throws; every failure is described in reason.
// The largest socket buffer up to `wanted` that a program without CAP_NET_ADMIN gets: `wanted` capped
// by net.core.rmem_max and wmem_max (iperf3 cannot force past them as the station does as root).
[[nodiscard]] std::size_t largestPlainSocketBuffer(std::size_t wanted);

[[nodiscard]] UdpReference measureUdpReference(const UdpReferenceOptions& options = {});

struct DiskReference {
    bool ok = false;
    std::string error; // names the directory and the system's reason
    std::string directory;
    std::string filesystem; // e.g. "ext4 (/dev/vda on /)": the longest mount point holding directory
    double megabytesPerSecond = 0; // 1 MB = 1e6 bytes
    double seconds = 0; // from the first write() to the end of fsync()
    std::uint64_t bytes = 0; // bytes written and synced
};

// Writes `bytes` of incompressible data to a temporary file in `directory` in blockBytes write()
// calls, fsyncs it, and removes it on every path. Refuses, before writing, when the file system has
// less than `bytes` free. Never throws.
[[nodiscard]] DiskReference measureDiskWrite(
    const std::string& directory, std::uint64_t bytes = 1ull << 30, std::size_t blockBytes = 1 << 20);

} // namespace telestation::perf
