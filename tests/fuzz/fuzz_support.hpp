// What the fuzz targets of tests/fuzz share: reading a fuzz input a piece at a time, one scratch
// directory per process (for the entry points that take a path), the reference missions loaded once,
// and a check that stops the run with a message. Each target is one file, fuzz_<target>.cpp, defining
// LLVMFuzzerTestOneInput; libFuzzer (or replay_main.cpp) calls it once per input.
#pragma once

#include "core/mdb/model.hpp"

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>

namespace telestation::fuzz {

// A fuzz input taken apart front to back; past its end every read gives zeros / empty spans, so a
// target never needs to check the size before it reads its options.
class FuzzInput {
public:
    FuzzInput(const std::uint8_t* data, std::size_t size) : m_bytes(data, size) {}

    [[nodiscard]] bool empty() const noexcept { return m_bytes.empty(); }
    [[nodiscard]] std::uint8_t byte() noexcept;
    [[nodiscard]] std::uint16_t u16() noexcept; // big-endian
    // Up to n bytes (fewer at the end of the input).
    [[nodiscard]] std::span<const std::uint8_t> take(std::size_t n) noexcept;
    // Everything not read yet.
    [[nodiscard]] std::span<const std::uint8_t> rest() noexcept { return take(m_bytes.size()); }

private:
    std::span<const std::uint8_t> m_bytes;
};

[[nodiscard]] inline std::string_view asText(const std::uint8_t* data, std::size_t size) noexcept
{
    return {reinterpret_cast<const char*>(data), size};
}

// The process's scratch directory, /tmp/telestation-fuzz-XXXXXX: made at the first call, removed with
// everything in it when the process exits. Targets write their inputs there, always to the same names.
[[nodiscard]] const std::string& scratchDir();
// Writes `bytes` to `path`, replacing it (aborts when it cannot: the target would test nothing).
void writeFile(const std::string& path, std::span<const std::uint8_t> bytes);
// Removes `path` if it exists.
void removeFile(const std::string& path);

// The segment file a recording catalog seed lists (tests/fuzz/corpus/recording_catalog): a few records
// of stream "hk"; the catalog target writes it beside every catalog it opens, so that recovery and
// playback find a real file.
inline constexpr const char* kExampleSegmentName = "hk-20260101T000000-1.tsrec";
inline constexpr std::int64_t kExampleSegmentStartNs = 1767225600000000000; // 2026-01-01T00:00:00Z
inline constexpr int kExampleSegmentRecords = 3;
// The example segment's records have APID 100, or `apid` when given.
void writeExampleSegment(const std::string& path, std::uint16_t apid = 100);
// A segment the catalog target writes beside the recording directory, not in it (its records have APID
// 200): a catalog row naming "../" + this must never be read.
inline constexpr const char* kOutsideSegmentName = "outside.tsrec";
inline constexpr std::uint16_t kOutsideSegmentApid = 200;

// The training mission (resources/mdb/training.tdef), JPSS-1 and IMAP-IDEX (XTCE, ../shared/data),
// each read once; abort with the diagnostics when one does not load.
[[nodiscard]] const mdb::MissionDatabase& trainingMission();
[[nodiscard]] const mdb::MissionDatabase& jpssMission();
[[nodiscard]] const mdb::MissionDatabase& idexMission();

// A property the code under test promises did not hold: prints `what` and aborts, which libFuzzer
// reports as a crash with the input that caused it.
[[noreturn]] void fail(std::string_view what);
inline void check(bool holds, std::string_view what)
{
    if (!holds) [[unlikely]]
        fail(what);
}

} // namespace telestation::fuzz
