// Decoder benchmark: decodes Packet 5 (APID 7, 1288 bytes) of the training mission database over and
// over on one thread and prints parameters per second. Not a test: run it from a release build.
//
//   build/release/bin/bench_decode [--mdb FILE] [--packet NAME] [--seconds S]
#include "core/common/command_line.hpp"
#include "core/common/paths.hpp"
#include "core/decode/decode_plan.hpp"
#include "core/mdb/sqlite_store.hpp"
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
    cli.addFlag("help", "Show this help.");
    cli.addOption("mdb", "FILE", "Mission database; default: the training database.");
    cli.addOption("packet", "NAME", "Packet type to decode; default Packet5.");
    cli.addOption("seconds", "S", "How long to run; default 3.");
    if (const auto ok = cli.parse(argc, argv); !ok) {
        std::fprintf(stderr, "bench_decode: %s\n", ok.error().message.c_str());
        return 2;
    }
    if (cli.isSet("help")) {
        std::fputs(cli.helpText().c_str(), stdout);
        return 0;
    }
    const auto seconds = cli.integer("seconds", 3);
    if (!seconds) {
        std::fprintf(stderr, "bench_decode: %s\n", seconds.error().message.c_str());
        return 2;
    }
    const std::string path = cli.value("mdb", trainingDatabasePath().string());
    const auto db = mdb::loadDatabase(path);
    if (!db) {
        std::fprintf(stderr, "bench_decode: %s\n", db.error().toString().c_str());
        return 1;
    }
    const mdb::PacketDef* packet = db->findPacket(cli.value("packet", "Packet5"));
    if (!packet) {
        std::fprintf(stderr, "bench_decode: no packet %s in %s\n", cli.value("packet", "Packet5").c_str(), path.c_str());
        return 1;
    }
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
    const auto deadline = start + std::chrono::seconds(*seconds);
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
