// Decoder benchmark: decodes Packet 5 (APID 7, 1288 bytes) of the training mission database over and
// over on one thread and prints parameters per second. Not a test: run it from a release build.
//
//   build/release/bin/bench_decode [--mdb FILE] [--packet NAME] [--seconds S]
#include "core/decode/decode_plan.hpp"
#include "tests/bench/bench_support.hpp"
#include "sim/core/packet_factory.hpp"

#include <bit>
#include <chrono>
#include <cstdio>
#include <random>
#include <vector>

using namespace telestation;

int main(int argc, char** argv)
{
    CommandLine cli("bench_decode", "Decoder throughput on one core.");
    int exitCode = 0;
    auto setup = bench::setUp(cli, "bench_decode", argc, argv, 3, exitCode);
    if (!setup)
        return exitCode;
    const mdb::PacketDef* packet = setup->packet;
    const double seconds = setup->seconds;
    auto plan = decode::DecodePlan::compile(*packet);
    if (!plan) {
        std::fprintf(stderr, "bench_decode: %s\n", plan.error().message.c_str());
        return 1;
    }

    // 256 packets with random field contents (valid floats, codes of the enumerations).
    const sim::PacketFactory factory(*packet);
    constexpr std::size_t kPackets = 256;
    std::vector<std::vector<std::uint8_t>> packets(kPackets, std::vector<std::uint8_t>(factory.packetSize()));
    std::mt19937_64 rng(42);
    for (std::size_t k = 0; k < kPackets; ++k) {
        factory.build(packets[k], static_cast<std::uint16_t>(k), 0);
        for (std::size_t i = 0; i < packet->parameters.size(); ++i) {
            const auto& p = packet->parameters[i];
            std::uint64_t raw = rng();
            if (p.type == mdb::DataType::Float)
                raw = p.bitLength == 32 ? std::bit_cast<std::uint32_t>(static_cast<float>(raw % 100000) / 7.0f)
                                        : std::bit_cast<std::uint64_t>(static_cast<double>(raw % 100000) / 7.0);
            if (const auto* e = std::get_if<mdb::EnumerationCalibrator>(&p.calibrator); e && !e->states.empty())
                raw = static_cast<std::uint64_t>(e->states[raw % e->states.size()].low);
            factory.setRaw(packets[k], i, raw);
        }
    }

    std::vector<decode::DecodedValue> out(plan->parameterCount());
    double checksum = 0;
    std::uint64_t decoded = 0;
    std::uint64_t packetsDone = 0;
    const auto start = std::chrono::steady_clock::now();
    const auto deadline = start + std::chrono::duration_cast<std::chrono::steady_clock::duration>(std::chrono::duration<double>(seconds));
    auto now = start;
    while (now < deadline) {
        for (int round = 0; round < 64; ++round) {
            for (const auto& bytes : packets) {
                decoded += plan->decode(bytes, out);
                checksum += out[packetsDone % out.size()].calibrated;
                ++packetsDone;
            }
        }
        now = std::chrono::steady_clock::now();
    }
    const double elapsed = std::chrono::duration<double>(now - start).count();
    std::printf("packet %s (APID %u, %zu bytes, %zu parameters)\n", packet->name.c_str(), unsigned(packet->apid),
                factory.packetSize(), plan->parameterCount());
    std::printf("packets decoded:    %llu in %.2f s\n", static_cast<unsigned long long>(packetsDone), elapsed);
    std::printf("packets/s:          %.0f\n", double(packetsDone) / elapsed);
    std::printf("parameters/s:       %.1f million\n", double(decoded) / elapsed / 1e6);
    std::printf("ns per parameter:   %.2f\n", elapsed * 1e9 / double(decoded));
    std::printf("(checksum %g)\n", checksum);
    return 0;
}
