// make_fuzz_seeds OUT_DIR: writes the seed corpora of the fuzz targets into OUT_DIR/<target>/seed-*,
// from the real missions' files (../shared/data), the training mission and the documentation's
// examples, with the product's own writers (packet factory, segment writer, recording catalog,
// protobuf). tests/fuzz/corpus was made with it; run it again after a format changes, then merge
// (scripts/fuzz --merge) or replace the seeds. Deterministic: the same inputs give the same files.
#include "core/record/recording_catalog.hpp"
#include "core/record/segment_file.hpp"
#include "sim/engine/packet_factory.hpp"
#include "tests/fuzz/fuzz_support.hpp"
#include "telestation/v1/station.pb.h"

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

using namespace telestation;
namespace fs = std::filesystem;

namespace {

using Bytes = std::vector<std::uint8_t>;

fs::path g_out;

void seed(const std::string& target, const std::string& name, const Bytes& bytes)
{
    fs::create_directories(g_out / target);
    fuzz::writeFile((g_out / target / ("seed-" + name)).string(), bytes);
}

// The reproducer of a bug found, kept beside the seeds (docs/RELIABILITY.md, "Findings").
void regression(const std::string& target, const std::string& name, const Bytes& bytes)
{
    fs::create_directories(g_out / target);
    fuzz::writeFile((g_out / target / ("regression-" + name)).string(), bytes);
}

void seedText(const std::string& target, const std::string& name, const std::string& text)
{
    seed(target, name, Bytes(text.begin(), text.end()));
}

Bytes readFile(const fs::path& path)
{
    std::ifstream in(path, std::ios::binary);
    Bytes b{std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
    if (b.empty())
        fuzz::fail("cannot read " + path.string());
    return b;
}

fs::path reference(const std::string& relative) { return fs::path(TELESTATION_REFERENCE_DATA_DIR) / relative; }
fs::path source(const std::string& relative) { return fs::path(TELESTATION_SOURCE_DIR) / relative; }

// The first `count` packets of a file of concatenated space packets.
std::vector<Bytes> packetsOf(const Bytes& file, std::size_t count, std::size_t largest = 65542)
{
    std::vector<Bytes> out;
    for (std::size_t at = 0; at + 6 <= file.size() && out.size() < count;) {
        const std::size_t length = ((std::size_t{file[at + 4]} << 8) | file[at + 5]) + 7;
        if (at + length > file.size())
            break;
        if (length <= largest)
            out.emplace_back(file.begin() + static_cast<std::ptrdiff_t>(at), file.begin() + static_cast<std::ptrdiff_t>(at + length));
        at += length;
    }
    return out;
}

// One packet of each training packet type, with sequence count `count` and a few raw values set.
std::vector<Bytes> trainingPackets(std::uint16_t count)
{
    std::vector<Bytes> out;
    for (const auto& def : fuzz::trainingMission().packets) {
        const sim::PacketFactory factory(def);
        Bytes packet(factory.packetSize());
        factory.build(packet, count, fuzz::kExampleSegmentStartNs);
        for (std::size_t i = 0; i < def.parameters.size(); i += 3)
            if (const auto bits = def.parameters[i].bitLength; bits >= 1 && bits <= 64 && mdb::isInteger(def.parameters[i].type))
                factory.setRaw(packet, i, 0x5A5A5A5A5A5A5A5Aull >> (64 - bits));
        out.push_back(std::move(packet));
    }
    return out;
}

void append(Bytes& to, const Bytes& bytes) { to.insert(to.end(), bytes.begin(), bytes.end()); }

// Datagrams as fuzz_packet_acceptor reads them: a 16-bit length before each.
Bytes datagrams(const std::vector<Bytes>& packets)
{
    Bytes out;
    for (const auto& p : packets) {
        out.push_back(static_cast<std::uint8_t>(p.size() >> 8));
        out.push_back(static_cast<std::uint8_t>(p.size()));
        append(out, p);
    }
    return out;
}

Bytes concatenated(const std::vector<Bytes>& packets, const Bytes& between = {})
{
    Bytes out;
    for (const auto& p : packets) {
        append(out, between);
        append(out, p);
    }
    return out;
}

// A segment file of these packets, as the recorder writes it; fuzz_segment_playback's mode byte first.
Bytes segmentSeed(const std::vector<Bytes>& packets, const std::string& stream)
{
    const std::string path = fuzz::scratchDir() + "/seed.tsrec";
    fuzz::removeFile(path);
    auto writer = record::SegmentWriter::create(path, {record::kFormatVersion, fuzz::kExampleSegmentStartNs, 7, stream});
    if (!writer)
        fuzz::fail(writer.error().message);
    std::int64_t t = fuzz::kExampleSegmentStartNs;
    for (const auto& p : packets) {
        const std::uint16_t apid = static_cast<std::uint16_t>(((p[0] & 7) << 8) | p[1]);
        (*writer)->append({t += 1000000, 1, apid, false}, p);
    }
    if (!(*writer)->close())
        fuzz::fail((*writer)->error());
    Bytes out{1};
    append(out, readFile(path));
    return out;
}

// A recording catalog listing the example segment under these names and states, as the recorder's
// catalog writes it.
Bytes catalogSeed(const std::vector<std::pair<std::string, record::SegmentState>>& rows)
{
    const std::string dir = fuzz::scratchDir() + "/catalog-seed";
    fs::remove_all(dir);
    {
        auto catalog = record::RecordingCatalog::open(dir);
        if (!catalog)
            fuzz::fail(catalog.error().message);
        std::uint64_t sequence = 0;
        for (const auto& [file, state] : rows) {
            record::SegmentInfo info;
            info.file = file;
            info.streamName = "hk";
            info.sequence = ++sequence;
            info.firstTimeNs = fuzz::kExampleSegmentStartNs;
            info.lastTimeNs = fuzz::kExampleSegmentStartNs + (fuzz::kExampleSegmentRecords - 1) * 1000000;
            info.packets = fuzz::kExampleSegmentRecords;
            info.bytes = record::kFileHeaderSize + fuzz::kExampleSegmentRecords * (28 + 32);
            info.state = state;
            info.apidPackets = {{100, fuzz::kExampleSegmentRecords}};
            if (!(*catalog)->addSegment(info))
                fuzz::fail("cannot add a segment to the seed catalog");
        }
    }
    return readFile(fs::path(dir) / "catalog.sqlite");
}

template <typename Message>
Bytes request(std::uint8_t call, const Message& message)
{
    const std::string wire = message.SerializeAsString();
    Bytes out{call, static_cast<std::uint8_t>(wire.size() >> 8), static_cast<std::uint8_t>(wire.size())};
    out.insert(out.end(), wire.begin(), wire.end());
    return out;
}

Bytes operator+(Bytes a, const Bytes& b)
{
    append(a, b);
    return a;
}

// Every ```json block of a Markdown page.
std::vector<std::string> jsonBlocks(const fs::path& page)
{
    const Bytes bytes = readFile(page);
    const std::string text(bytes.begin(), bytes.end());
    std::vector<std::string> out;
    for (std::size_t at = text.find("```json\n"); at != std::string::npos; at = text.find("```json\n", at)) {
        at += 8;
        const std::size_t end = text.find("```", at);
        out.push_back(text.substr(at, end - at));
    }
    return out;
}

void packetSeeds()
{
    const auto jpss = packetsOf(readFile(reference("missions/jpss1/J01_G011_LZ_2021-04-09T00-00-00Z_V01.DAT1")), 8);
    const auto idex = packetsOf(readFile(reference("missions/idex/sciData_2023_052_14_45_05")), 6, 4096);
    auto training = trainingPackets(0);
    auto next = trainingPackets(1);
    auto gap = trainingPackets(5);
    training.insert(training.end(), next.begin(), next.end());
    training.insert(training.end(), gap.begin(), gap.end());
    training.push_back(next.front()); // a late duplicate

    seed("packet_acceptor", "jpss1", datagrams(jpss));
    seed("packet_acceptor", "idex", datagrams(idex));
    seed("packet_acceptor", "training", datagrams(training));

    // transport header, maxPacketSize, flags, resync APID count and APIDs, chunk size; then the stream.
    Bytes plain{0, 0, 0, 0, 0, 0, 37};
    append(plain, concatenated(jpss));
    seed("stream_framer", "jpss1", plain);
    Bytes headed{4, 0x05, 0x08, 1, 2, 0x00, 0x07, 0x00, 0x64, 200};
    append(headed, concatenated(trainingPackets(3), {0xCA, 0xFE, 0xBA, 0xBE}));
    headed.insert(headed.begin() + 40, {0x00, 0x00, 0x00, 0x00, 0xFF}); // garbage: a framing error
    seed("stream_framer", "training-transport-header", headed);
    Bytes idle{0, 0, 0, 1, 0, 0, 1, 0x07, 0xFF, 0xC0, 0x00, 0x00, 0x03, 1, 2, 3, 4};
    append(idle, concatenated(idex));
    seed("stream_framer", "idle-and-idex", idle);

    for (std::size_t i = 0; i < fuzz::trainingMission().packets.size(); ++i)
        seed("decode_plan", "training-" + fuzz::trainingMission().packets[i].name, trainingPackets(0)[i]);
    seed("decode_plan", "jpss1", jpss.front());
    for (std::size_t i = 0; i < 3 && i < idex.size(); ++i)
        seed("decode_plan", "idex-" + std::to_string(i), idex[i]);

    seed("segment_playback", "training", segmentSeed(trainingPackets(0), "tm"));
    seed("segment_playback", "jpss1", segmentSeed(jpss, "jpss"));
    Bytes truncated = segmentSeed({jpss[0], jpss[1]}, "jpss");
    truncated.resize(truncated.size() - 9);
    seed("segment_playback", "truncated", truncated);
}

void recordingSeeds()
{
    seed("recording_catalog", "closed", catalogSeed({{fuzz::kExampleSegmentName, record::SegmentState::Closed}}));
    seed("recording_catalog", "open", catalogSeed({{fuzz::kExampleSegmentName, record::SegmentState::Open}}));
    // Found while writing the target: rows naming a segment outside the recording directory were
    // opened, played and recovered from there (fixed: detail::isSegmentFileName).
    const std::string outside = std::string("../") + fuzz::kOutsideSegmentName;
    regression("recording_catalog", "segment-outside-directory",
               catalogSeed({{outside, record::SegmentState::Closed}, {"../recording/" + outside, record::SegmentState::Open},
                            {fuzz::kExampleSegmentName, record::SegmentState::Closed}}));
}

void textSeeds()
{
    seed("tdef_import", "training", readFile(source("resources/mdb/training.tdef")));
    for (const char* xml : {"xtce/BogusSAT-1.xml", "missions/jpss1/jpss1_geolocation_xtce_v1.xml",
                            "missions/jpss1/contrived_inheritance_structure.xml",
                            "missions/idex/idex_combined_science_definition.xml"})
        seed("xtce_import", fs::path(xml).stem().string(), readFile(reference(xml)));
    seed("station_profile", "training", readFile(source("resources/profiles/training.json")));
    int n = 0;
    for (const auto& block : jsonBlocks(source("docs/station-profile.md")))
        seedText("station_profile", "docs-" + std::to_string(++n), block);
    // 60 KB nested 30,000 deep took over 2 GB (each open level kept its JSON path); now refused.
    const std::string deep = std::string(30000, '[') + std::string(30000, ']');
    regression("station_profile", "nested-30000-deep", Bytes(deep.begin(), deep.end()));
    regression("sim_scenario", "nested-30000-deep", Bytes(deep.begin(), deep.end()));
    seed("sim_scenario", "demo", readFile(source("resources/scenarios/demo.json")));
    n = 0;
    for (const auto& block : jsonBlocks(source("docs/simulator.md")))
        seedText("sim_scenario", "docs-" + std::to_string(++n), block);
    n = 0;
    for (const char* url : {"udp://0.0.0.0:5000", "udp://[::1]:0", "udp://239.1.2.3:5000?iface=10.0.0.5",
                            "udp://[ff02::1%lo]:5000?iface=[::1]", "tcp://localhost:5000", "tcp-listen://[::]:05000",
                            "file:///data/rec?speed=0.5&from=2026-11-22T12:00:00.25Z&to=1795348800000000000&stream=hk&segment=hk-1.tsrec",
                            "file://rel/path%3Fwith%25escapes#frag"})
        seedText("endpoint_url", std::to_string(++n), url);
}

void apiSeeds()
{
    v1::GetCurrentValuesRequest values;
    values.set_stream("tm");
    values.add_parameters("Packet5.SAFE_MODE_FLAG");
    seed("api_request", "current-values", request(2, values));
    v1::SetPacketSettingsRequest settings;
    settings.set_client_name("seed");
    settings.set_stream("tm");
    settings.set_packet_type("Packet5");
    settings.set_mode(v1::PROCESSING_MODE_PASS_THRU);
    settings.set_record(true);
    settings.set_set_forward(true);
    settings.add_forward("udp://127.0.0.1:6000");
    seed("api_request", "packet-settings", request(3, settings));
    v1::SetPacketSettingsRequest byApid = settings;
    byApid.set_packet_type("Diag_Thermal");
    byApid.set_mode(v1::PROCESSING_MODE_PROCESS_ON_DEMAND);
    byApid.clear_forward();
    seed("api_request", "settings-then-values", request(3, settings) + request(3, byApid) + request(2, values));
    v1::StreamRequest stream;
    stream.set_stream("tm");
    seed("api_request", "stop-start-stream", request(5, stream) + request(4, stream) + request(0, v1::GetServerInfoRequest{}));
    v1::AcknowledgeAlarmsRequest ack;
    ack.add_ids(1);
    ack.set_comment("seen");
    seed("api_request", "acknowledge", request(6, ack));
    v1::ShelveAlarmsRequest shelve;
    shelve.add_ids(1);
    shelve.set_duration_seconds(60);
    seed("api_request", "shelve", request(7, shelve));
    seed("api_request", "server-info-mission", request(0, v1::GetServerInfoRequest{}) + request(1, v1::GetMissionDatabaseRequest{}));
}

} // namespace

int main(int argc, char** argv)
{
    if (argc != 2) {
        std::fprintf(stderr, "usage: make_fuzz_seeds OUT_DIR\n");
        return 2;
    }
    g_out = argv[1];
    packetSeeds();
    recordingSeeds();
    textSeeds();
    apiSeeds();
    return 0;
}
