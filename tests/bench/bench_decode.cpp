// Decoder benchmark, one thread. Not a test: run it from a release build. Three measurements:
//
//   build/release/bin/bench_decode [--mdb FILE] [--packet NAME] [--seconds S]
//       Decodes 256 packets of one type (default Packet5 of the training mission) filled with random
//       field values, round-robin, and prints parameters per second.
//   build/release/bin/bench_decode --mdb FILE --packets PACKETFILE [--seconds S]
//       Decodes the real packets of a file (concatenated CCSDS space packets) over and over: each is
//       classified with pipeline::PacketTypeTable as the station does, then decoded with its type's plan.
//   build/release/bin/bench_decode --variable [--mdb FILE] [--packet NAME] [--seconds S]
//       The variable-layout path against the fixed one: the packet decoded as defined (fixed) and with a
//       0-bit field sized by the data placed before its parameters, which then follow it (each after
//       the previous one where the definition leaves no overlap), so that every offset is the same;
//       nanoseconds per parameter for both.
//
// --mdb takes a .mdb, a .tdef or an XTCE file (config::loadMission, compiled in memory each time).
#include "core/decode/decode_plan.hpp"
#include "core/pipeline/packet_types.hpp"
#include "tests/bench/bench_support.hpp"
#include "sim/engine/packet_factory.hpp"

#include <algorithm>
#include <bit>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <iterator>
#include <map>
#include <random>
#include <vector>

using namespace telestation;

namespace {

constexpr const char* kProgram = "bench_decode";

using Clock = std::chrono::steady_clock;

Clock::time_point deadlineAfter(Clock::time_point start, double seconds)
{
    return start + std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(seconds));
}

// `count` packets of `packet` (a fixed layout) with random field contents: valid floats, codes of the
// enumerations.
std::vector<std::vector<std::uint8_t>> randomPackets(const mdb::PacketDef& packet, std::size_t count)
{
    const sim::PacketFactory factory(packet);
    std::vector<std::vector<std::uint8_t>> packets(count, std::vector<std::uint8_t>(factory.packetSize()));
    std::mt19937_64 rng(42);
    for (std::size_t k = 0; k < count; ++k) {
        factory.build(packets[k], static_cast<std::uint16_t>(k), 0);
        for (std::size_t i = 0; i < packet.parameters.size(); ++i) {
            const auto& p = packet.parameters[i];
            if (p.placement == mdb::Placement::Absolute && p.bitOffset + p.bitLength <= 48)
                continue; // the primary header stays valid
            std::uint64_t raw = rng();
            if (p.type == mdb::DataType::Float)
                raw = p.bitLength == 32 ? std::bit_cast<std::uint32_t>(static_cast<float>(raw % 100000) / 7.0f)
                                        : std::bit_cast<std::uint64_t>(static_cast<double>(raw % 100000) / 7.0);
            if (const auto* e = std::get_if<mdb::EnumerationCalibrator>(&p.calibrator); e && !e->states.empty())
                raw = static_cast<std::uint64_t>(e->states[raw % e->states.size()].low);
            factory.setRaw(packets[k], i, raw);
        }
    }
    return packets;
}

struct Rate {
    std::uint64_t packets = 0;
    std::uint64_t parameters = 0; // present parameters decoded
    double seconds = 0;
    double checksum = 0;
};

// Decodes `packets` round-robin with `plan` for `seconds`.
Rate decodeFor(const decode::DecodePlan& plan, const std::vector<std::vector<std::uint8_t>>& packets, double seconds)
{
    std::vector<decode::DecodedValue> out(plan.parameterCount());
    Rate r;
    const auto start = Clock::now();
    const auto deadline = deadlineAfter(start, seconds);
    auto now = start;
    while (now < deadline) {
        for (int round = 0; round < 64; ++round) {
            for (const auto& bytes : packets) {
                r.parameters += plan.decode(bytes, out);
                r.checksum += out[r.packets % out.size()].calibrated;
                ++r.packets;
            }
        }
        now = Clock::now();
    }
    r.seconds = std::chrono::duration<double>(now - start).count();
    return r;
}

int randomPacketsMode(const mdb::PacketDef& packet, double seconds)
{
    auto plan = decode::DecodePlan::compile(packet);
    if (!plan) {
        std::fprintf(stderr, "%s: %s\n", kProgram, plan.error().message.c_str());
        return 1;
    }
    if (!plan->fixedLayout()) {
        std::fprintf(stderr, "%s: %s has a variable layout: decode a file of its packets with --packets FILE\n",
                     kProgram, packet.name.c_str());
        return 2;
    }
    const auto packets = randomPackets(packet, 256);
    const Rate r = decodeFor(*plan, packets, seconds);
    std::printf("packet %s (APID %u, %zu bytes, %zu parameters)\n", packet.name.c_str(), unsigned(packet.apid),
                packets.front().size(), plan->parameterCount());
    std::printf("packets decoded:    %llu in %.2f s\n", static_cast<unsigned long long>(r.packets), r.seconds);
    std::printf("packets/s:          %.0f\n", double(r.packets) / r.seconds);
    std::printf("parameters/s:       %.1f million\n", double(r.parameters) / r.seconds / 1e6);
    std::printf("ns per parameter:   %.2f\n", r.seconds * 1e9 / double(r.parameters));
    std::printf("(checksum %g)\n", r.checksum);
    return 0;
}

// The packets of a file of concatenated CCSDS space packets (each as long as its length field says);
// a truncated last packet is left out and reported.
bool readPacketFile(const std::string& path, std::vector<std::uint8_t>& bytes,
                    std::vector<std::span<const std::uint8_t>>& packets)
{
    std::ifstream in(path, std::ios::binary);
    if (!in) {
        std::fprintf(stderr, "%s: cannot read %s\n", kProgram, path.c_str());
        return false;
    }
    bytes.assign(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
    std::size_t at = 0;
    while (at + 6 <= bytes.size()) {
        const std::size_t size = ((std::size_t(bytes[at + 4]) << 8) | bytes[at + 5]) + 7;
        if (at + size > bytes.size())
            break;
        packets.emplace_back(bytes.data() + at, size);
        at += size;
    }
    if (at != bytes.size())
        std::fprintf(stderr, "%s: %s: %zu bytes at the end are no whole packet\n", kProgram, path.c_str(),
                     bytes.size() - at);
    return !packets.empty();
}

int packetFileMode(const mdb::MissionDatabase& db, const std::string& path, double seconds)
{
    std::vector<std::uint8_t> bytes;
    std::vector<std::span<const std::uint8_t>> packets;
    if (!readPacketFile(path, bytes, packets))
        return 1;
    auto table = pipeline::PacketTypeTable::build(db);
    if (!table) {
        std::fprintf(stderr, "%s: %s\n", kProgram, table.error().message.c_str());
        return 1;
    }

    // One pass, untimed: what the file holds and how its packets meet their layouts.
    std::vector<decode::DecodedValue> out(std::max<std::uint32_t>(table->maxParametersPerPacket(), 1));
    std::map<std::uint32_t, std::size_t> perType;
    std::size_t complete = 0, shortLayout = 0, badSize = 0, fullyRead = 0;
    std::uint64_t parametersPerPass = 0;
    for (const auto packet : packets) {
        const std::uint32_t type = table->classify(packet);
        ++perType[type];
        if (type == 0)
            continue;
        decode::LayoutReport report;
        parametersPerPass += table->plan(type).decode(packet, out, &report);
        complete += report.status == decode::LayoutStatus::Complete;
        shortLayout += report.status == decode::LayoutStatus::Short;
        badSize += report.status == decode::LayoutStatus::BadSize;
        fullyRead += report.status == decode::LayoutStatus::Complete && report.endByte() == packet.size();
    }
    std::printf("file               %s: %zu packets, %zu bytes\n", path.c_str(), packets.size(), bytes.size());
    for (const auto& [type, n] : perType)
        std::printf("  %-40s %zu packets, %u parameters defined\n", std::string(table->typeName(type)).c_str(), n,
                    type == 0 ? 0u : table->parameterCount(type));
    std::printf("layouts            %zu complete (%zu read to their last byte), %zu short, %zu with a bad size\n",
                complete, fullyRead, shortLayout, badSize);
    std::printf("parameters         %.1f per packet decoded\n", double(parametersPerPass) / double(packets.size()));

    Rate r;
    const auto start = Clock::now();
    const auto deadline = deadlineAfter(start, seconds);
    auto now = start;
    while (now < deadline) {
        for (int round = 0; round < 8; ++round) {
            for (const auto packet : packets) {
                const std::uint32_t type = table->classify(packet);
                if (type == 0)
                    continue;
                const decode::DecodePlan& plan = table->plan(type);
                r.parameters += plan.decode(packet, out);
                r.checksum += out[plan.parameterCount() > 0 ? plan.parameterCount() - 1 : 0].calibrated;
            }
            r.packets += packets.size();
        }
        now = Clock::now();
    }
    r.seconds = std::chrono::duration<double>(now - start).count();
    std::printf("packets decoded:    %llu in %.2f s (classified and decoded)\n",
                static_cast<unsigned long long>(r.packets), r.seconds);
    std::printf("packets/s:          %.0f\n", double(r.packets) / r.seconds);
    std::printf("parameters/s:       %.1f million\n", double(r.parameters) / r.seconds / 1e6);
    std::printf("ns per parameter:   %.2f\n", r.seconds * 1e9 / double(std::max<std::uint64_t>(r.parameters, 1)));
    std::printf("(checksum %g)\n", r.checksum);
    return 0;
}

// The packet with a parameter of the primary header (the APID's 11 bits) first, so that a size can
// come from it; `variable` adds, after it, a Bytes field of 0 bits sized by it at the first parameter's
// offset, and then places every parameter after the previous one (keeping absolute placement where the
// definition has it overlapping or out of order). Offsets stay the same.
mdb::PacketDef comparisonPacket(const mdb::PacketDef& packet, bool variable, std::size_t& afterPrevious)
{
    mdb::PacketDef def = packet;
    def.parameters.clear();
    mdb::ParameterDef source;
    source.name = "BENCH_SIZE_SOURCE";
    source.bitOffset = 5;
    source.bitLength = 11;
    def.parameters.push_back(source);
    std::uint32_t end = packet.parameters.empty() ? 48 : packet.parameters.front().bitOffset;
    if (variable) {
        mdb::ParameterDef pad;
        pad.name = "BENCH_EMPTY_BLOCK";
        pad.type = mdb::DataType::Bytes;
        pad.bitOffset = end;
        pad.bitLength = 0;
        pad.size.kind = mdb::SizeKind::FromParameter;
        pad.size.sizeParameter = source.name;
        pad.size.sizeSlope = 0;
        pad.size.sizeIntercept = 0;
        def.parameters.push_back(pad);
    }
    afterPrevious = 0;
    for (mdb::ParameterDef p : packet.parameters) {
        if (variable && p.placement == mdb::Placement::Absolute && p.fixedSize() && p.bitOffset >= end) {
            const std::uint32_t at = p.bitOffset;
            p.placement = mdb::Placement::AfterPrevious;
            p.bitOffset = at - end;
            end = at + p.bitLength;
            ++afterPrevious;
        } else if (p.placement == mdb::Placement::Absolute && p.fixedSize()) {
            end = std::max(end, p.bitOffset + p.bitLength);
        }
        def.parameters.push_back(std::move(p));
    }
    return def;
}

int variableMode(const mdb::PacketDef& packet, double seconds)
{
    if (packet.variableLayout()) {
        std::fprintf(stderr, "%s: --variable needs a packet with a fixed layout; %s has a variable one\n", kProgram,
                     packet.name.c_str());
        return 2;
    }
    std::size_t moved = 0, unused = 0;
    const mdb::PacketDef fixedDef = comparisonPacket(packet, false, unused);
    const mdb::PacketDef variableDef = comparisonPacket(packet, true, moved);
    auto fixedPlan = decode::DecodePlan::compile(fixedDef);
    auto variablePlan = decode::DecodePlan::compile(variableDef);
    if (!fixedPlan || !variablePlan) {
        std::fprintf(stderr, "%s: %s\n", kProgram,
                     (fixedPlan ? variablePlan.error() : fixedPlan.error()).message.c_str());
        return 1;
    }
    const auto packets = randomPackets(packet, 256);

    // Both decode every parameter of the packet to the same values: the offsets are the same.
    const std::size_t n = packet.parameters.size();
    std::vector<decode::DecodedValue> a(fixedPlan->parameterCount()), b(variablePlan->parameterCount());
    for (const auto& bytes : packets) {
        fixedPlan->decode(bytes, a);
        variablePlan->decode(bytes, b);
        for (std::size_t i = 0; i < n; ++i) {
            const auto& x = a[1 + i];
            const auto& y = b[2 + i];
            if (x.present != y.present || x.raw != y.raw || std::bit_cast<std::uint64_t>(x.calibrated) !=
                std::bit_cast<std::uint64_t>(y.calibrated) || x.limit != y.limit || x.state != y.state) {
                std::fprintf(stderr, "%s: %s differs between the fixed and the variable layout\n", kProgram,
                             packet.parameters[i].name.c_str());
                return 1;
            }
        }
    }

    std::printf("packet %s: %zu parameters; variable layout: all of them after a 0-bit field sized by the data "
                "(%zu placed after the previous one, %zu at their absolute offset)\n",
                packet.name.c_str(), n, moved, n - moved);
    std::printf("check              every parameter decodes to the same value both ways\n");
    const Rate fixed = decodeFor(*fixedPlan, packets, seconds);
    const Rate variable = decodeFor(*variablePlan, packets, seconds);
    const auto nsPerParameter = [&](const Rate& r) { return r.seconds * 1e9 / (double(r.packets) * double(n)); };
    std::printf("fixed layout       %.2f ns per parameter (%.1f M parameters/s, %.0f packets/s)\n",
                nsPerParameter(fixed), double(fixed.packets) * double(n) / fixed.seconds / 1e6,
                double(fixed.packets) / fixed.seconds);
    std::printf("variable layout    %.2f ns per parameter (%.1f M parameters/s, %.0f packets/s)\n",
                nsPerParameter(variable), double(variable.packets) * double(n) / variable.seconds / 1e6,
                double(variable.packets) / variable.seconds);
    const double ratio = nsPerParameter(variable) / nsPerParameter(fixed);
    std::printf("variable / fixed   %.2f (target <= 2: %s)\n", ratio, ratio <= 2.0 ? "met" : "MISSED");
    std::printf("(checksums %g %g)\n", fixed.checksum, variable.checksum);
    return 0;
}

} // namespace

int main(int argc, char** argv)
{
    CommandLine cli(kProgram, "Decoder throughput on one core.");
    cli.addOption("packets", "FILE", "Decode the real packets of FILE (concatenated CCSDS space packets), "
                                     "classified by the mission database's packet types.");
    cli.addFlag("variable", "Compare the variable-layout path with the fixed one on the packet type.");
    int exitCode = 0;
    auto setup = bench::setUp(cli, kProgram, argc, argv, 3, exitCode);
    if (!setup)
        return exitCode;
    if (cli.isSet("packets"))
        return packetFileMode(setup->db, cli.value("packets"), setup->seconds);
    if (cli.isSet("variable"))
        return variableMode(*setup->packet, setup->seconds);
    return randomPacketsMode(*setup->packet, setup->seconds);
}
