#include "tests/fuzz/fuzz_support.hpp"

#include "core/mdb/text_format.hpp"
#include "core/record/segment_file.hpp"
#include "core/xtce/xtce_import.hpp"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <vector>

#include <unistd.h>

namespace telestation::fuzz {

std::uint8_t FuzzInput::byte() noexcept
{
    const auto b = take(1);
    return b.empty() ? 0 : b[0];
}

std::uint16_t FuzzInput::u16() noexcept
{
    const std::uint8_t high = byte();
    return static_cast<std::uint16_t>((high << 8) | byte());
}

std::span<const std::uint8_t> FuzzInput::take(std::size_t n) noexcept
{
    n = std::min(n, m_bytes.size());
    const auto piece = m_bytes.first(n);
    m_bytes = m_bytes.subspan(n);
    return piece;
}

namespace {

class ScratchDir {
public:
    ScratchDir()
    {
        // In memory where the machine has /dev/shm (a tmpfs): the fsyncs of SQLite and of the segment
        // writer then cost nothing — on a disk they bound the catalog target to a few inputs a second.
        const std::string base = ::access("/dev/shm", W_OK | X_OK) == 0 ? "/dev/shm" : "/tmp";
        std::string pattern = base + "/telestation-fuzz-XXXXXX";
        if (!mkdtemp(pattern.data()))
            fail("cannot make a scratch directory in " + base);
        m_path = pattern;
    }
    ~ScratchDir()
    {
        std::error_code ignored;
        std::filesystem::remove_all(m_path, ignored);
    }
    ScratchDir(const ScratchDir&) = delete;
    ScratchDir& operator=(const ScratchDir&) = delete;
    [[nodiscard]] const std::string& path() const noexcept { return m_path; }

private:
    std::string m_path;
};

template <typename Import>
mdb::MissionDatabase loadOrAbort(const std::string& path, Import import)
{
    auto result = import(path);
    if (!result.ok()) {
        for (const auto& d : result.diagnostics)
            std::fprintf(stderr, "%s\n", d.toString().c_str());
        fail("cannot load the mission " + path);
    }
    return std::move(result.database);
}

std::string referenceData(const std::string& relative)
{
    return std::string(TELESTATION_REFERENCE_DATA_DIR) + "/" + relative;
}

} // namespace

const std::string& scratchDir()
{
    static const ScratchDir dir;
    return dir.path();
}

void writeFile(const std::string& path, std::span<const std::uint8_t> bytes)
{
    std::ofstream out(path, std::ios::binary | std::ios::trunc);
    out.write(reinterpret_cast<const char*>(bytes.data()), static_cast<std::streamsize>(bytes.size()));
    if (!out.flush())
        fail("cannot write " + path);
}

void removeFile(const std::string& path)
{
    std::error_code ignored;
    std::filesystem::remove(path, ignored);
}

void writeExampleSegment(const std::string& path, std::uint16_t apid)
{
    removeFile(path);
    auto writer = record::SegmentWriter::create(path, {record::kFormatVersion, kExampleSegmentStartNs, 1, "hk"});
    if (!writer)
        fail(writer.error().message);
    // HK_Status-like packets: 32 bytes, sequence counts 0, 1, 2, a millisecond apart.
    for (int i = 0; i < kExampleSegmentRecords; ++i) {
        std::vector<std::uint8_t> packet(32, 0);
        packet[0] = static_cast<std::uint8_t>(apid >> 8);
        packet[1] = static_cast<std::uint8_t>(apid);
        packet[2] = 0xC0;
        packet[3] = static_cast<std::uint8_t>(i);
        packet[5] = 32 - 7;
        (*writer)->append({kExampleSegmentStartNs + i * 1000000, 0, apid, false}, packet);
    }
    if (!(*writer)->close())
        fail((*writer)->error());
}

const mdb::MissionDatabase& trainingMission()
{
    static const mdb::MissionDatabase db = loadOrAbort(
        std::string(TELESTATION_SOURCE_DIR) + "/resources/mdb/training.tdef",
        [](const std::string& p) { return mdb::readTextFile(p); });
    return db;
}

const mdb::MissionDatabase& jpssMission()
{
    static const mdb::MissionDatabase db = loadOrAbort(
        referenceData("missions/jpss1/jpss1_geolocation_xtce_v1.xml"),
        [](const std::string& p) { return xtce::readXtceFile(p); });
    return db;
}

const mdb::MissionDatabase& idexMission()
{
    static const mdb::MissionDatabase db = loadOrAbort(
        referenceData("missions/idex/idex_combined_science_definition.xml"),
        [](const std::string& p) { return xtce::readXtceFile(p, {.lenient = true}); });
    return db;
}

void fail(std::string_view what)
{
    std::fprintf(stderr, "fuzz check failed: %.*s\n", static_cast<int>(what.size()), what.data());
    std::fflush(stderr);
    std::abort();
}

} // namespace telestation::fuzz
