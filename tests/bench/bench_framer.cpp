// Stream framer benchmark: cuts 1288-byte telemetry packets (the size of the training database's
// Packet 5) out of a 64 MiB in-memory stream pushed in 64 KiB chunks, as a TCP receive loop would,
// and prints packets per second and Gbit/s. Not a test: run it from a release build.
//
//   build/release/bin/bench_framer [--seconds S] [--transport N]
#include "core/ccsds/space_packet.hpp"
#include "core/ccsds/stream_framer.hpp"
#include "core/common/command_line.hpp"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <random>
#include <span>
#include <vector>

using namespace telestation;

namespace {

constexpr std::size_t kPacketSize = 1288;
constexpr std::size_t kChunk = 64 * 1024;
constexpr std::size_t kStreamBytes = 64 * 1024 * 1024;

// Touches each frame's last byte so that delivery cannot be optimised away, as a consumer would.
class CountingSink final : public ccsds::StreamFramer::Sink {
public:
    void onPacket(std::span<const std::uint8_t> frame) override
    {
        ++packets;
        checksum += frame.back();
    }
    std::uint64_t packets = 0;
    std::uint64_t checksum = 0;
};

} // namespace

int main(int argc, char** argv)
{
    CommandLine cli("bench_framer", "Stream framer throughput on one core.");
    cli.addFlag("help", "Show this help.");
    cli.addOption("seconds", "S", "How long to run (default 3).");
    cli.addOption("transport", "N", "Transport header bytes before each packet (default 0).");
    if (const auto ok = cli.parse(argc, argv); !ok) {
        std::fprintf(stderr, "bench_framer: %s\n", ok.error().message.c_str());
        return 2;
    }
    if (cli.isSet("help")) {
        std::fputs(cli.helpText().c_str(), stdout);
        return 0;
    }
    const auto seconds = cli.number("seconds", 3);
    const auto transport = cli.number("transport", 0);
    if (!seconds || *seconds <= 0 || !transport || *transport < 0 || *transport > 64) {
        std::fprintf(stderr, "bench_framer: --seconds needs a number above zero, --transport 0..64\n");
        return 2;
    }
    const auto transportBytes = static_cast<std::size_t>(*transport);
    const std::size_t frameSize = transportBytes + kPacketSize;

    // The stream: back-to-back frames, random APIDs and contents, sequence counts counting.
    std::vector<std::uint8_t> stream;
    stream.reserve(kStreamBytes + frameSize);
    std::mt19937 rng(42);
    std::uint16_t count = 0;
    std::uint64_t packetsInStream = 0;
    while (stream.size() + frameSize <= kStreamBytes) {
        for (std::size_t i = 0; i < transportBytes; ++i)
            stream.push_back(static_cast<std::uint8_t>(rng()));
        ccsds::PrimaryHeader h;
        h.apid = static_cast<std::uint16_t>(rng() % ccsds::kIdleApid);
        h.secondaryHeader = true;
        h.sequenceCount = count;
        count = static_cast<std::uint16_t>((count + 1) % ccsds::kSequenceCountModulo);
        h.dataLength = static_cast<std::uint16_t>(kPacketSize - 7);
        const std::size_t at = stream.size();
        stream.resize(at + kPacketSize);
        ccsds::writePrimaryHeader(h, stream.data() + at);
        for (std::size_t i = ccsds::kPrimaryHeaderSize; i < kPacketSize; ++i)
            stream[at + i] = static_cast<std::uint8_t>(rng());
        ++packetsInStream;
    }

    ccsds::FramerOptions options;
    options.transportHeaderBytes = transportBytes;
    ccsds::StreamFramer framer(options);
    CountingSink sink;
    const std::span<const std::uint8_t> all(stream);
    std::uint64_t bytes = 0;
    std::uint64_t passes = 0;
    const auto start = std::chrono::steady_clock::now();
    const auto deadline =
        start + std::chrono::duration_cast<std::chrono::steady_clock::duration>(std::chrono::duration<double>(*seconds));
    auto now = start;
    while (now < deadline) {
        // The stream length is not a multiple of 64 KiB: chunks cut frames at varying offsets.
        for (std::size_t at = 0; at < all.size(); at += kChunk) {
            const auto chunk = all.subspan(at, std::min(kChunk, all.size() - at));
            framer.push(chunk, sink);
        }
        bytes += all.size();
        ++passes;
        now = std::chrono::steady_clock::now();
    }
    const double elapsed = std::chrono::duration<double>(now - start).count();
    const auto& stats = framer.stats();
    if (stats.packets != packetsInStream * passes || stats.framingErrors != 0) {
        std::fprintf(stderr, "bench_framer: framed %llu packets, expected %llu (%llu framing errors)\n",
                     static_cast<unsigned long long>(stats.packets),
                     static_cast<unsigned long long>(packetsInStream * passes),
                     static_cast<unsigned long long>(stats.framingErrors));
        return 1;
    }
    std::printf("frames: %zu bytes (transport header %zu + packet %zu), pushed in %zu-byte chunks\n", frameSize,
                transportBytes, kPacketSize, kChunk);
    std::printf("packets framed:  %llu in %.2f s\n", static_cast<unsigned long long>(sink.packets), elapsed);
    std::printf("packets/s:       %.1f million\n", double(sink.packets) / elapsed / 1e6);
    std::printf("throughput:      %.1f Gbit/s\n", double(bytes) * 8 / elapsed / 1e9);
    std::printf("(checksum %llu)\n", static_cast<unsigned long long>(sink.checksum));
    return 0;
}
