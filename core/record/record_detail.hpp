// Internals of core/record shared by its .cpp files and its tests: the two CRC-32C implementations,
// little-endian field access, and the full summary of a segment (per-APID counts, time range) that
// crash recovery, a failed recorder and playback need. Not part of the module's API.
#pragma once

#include "core/common/result.hpp"
#include "core/record/recording_catalog.hpp"
#include "core/record/segment_file.hpp"

#include <array>
#include <bit>
#include <cstdint>
#include <cstring>
#include <map>
#include <optional>
#include <span>
#include <string>
#include <string_view>

namespace telestation::record::detail {

[[nodiscard]] std::uint32_t crc32cSoftware(std::span<const std::uint8_t> bytes, std::uint32_t crc = 0) noexcept;
// Falls back to the software version on CPUs without SSE4.2 (callers check hasHardwareCrc32c()).
[[nodiscard]] std::uint32_t crc32cHardware(std::span<const std::uint8_t> bytes, std::uint32_t crc = 0) noexcept;
[[nodiscard]] bool hasHardwareCrc32c() noexcept;

inline constexpr std::array<std::uint8_t, 8> kMagic{'T', 'S', 'T', 'R', 'E', 'C', '\r', '\n'};
inline constexpr std::uint32_t kRecordSync = 0x54535243u; // 'TSRC'
inline constexpr std::size_t kRecordHeaderSize = 24;       // sync .. reserved
inline constexpr std::size_t kStreamNameSize = 32;
// The largest CCSDS space packet (6 + 65,536 bytes) plus room for a transport header in front of it.
inline constexpr std::size_t kMaxPayload = 65542 + 65535;

// Segment files are named <stream>-<UTC yyyymmddThhmmss>-<sequence>.tsrec (segment_file.cpp).
inline constexpr std::string_view kSegmentExtension = ".tsrec";
[[nodiscard]] std::string segmentFileName(const std::string& stream, std::int64_t createdNs, std::uint64_t sequence);
struct SegmentNameParts {
    std::string stream;
    std::uint64_t sequence = 0;
};
// The stream and sequence a segment's file name gives (the stream name may itself contain '-');
// nullopt for a name of another form.
[[nodiscard]] std::optional<SegmentNameParts> parseSegmentFileName(std::string_view name);

// The host is little-endian (x86-64, ARM64 Linux): the format's byte order is the native one.
static_assert(std::endian::native == std::endian::little, "core/record assumes a little-endian host");

template <typename T>
inline void store(std::uint8_t* at, T value) noexcept
{
    std::memcpy(at, &value, sizeof value);
}

template <typename T>
[[nodiscard]] inline T load(const std::uint8_t* at) noexcept
{
    T value;
    std::memcpy(&value, at, sizeof value);
    return value;
}

// Everything the catalog lists about a segment, read from the file itself.
struct SegmentSummary {
    SegmentScan scan;
    std::int64_t firstTimeNs = 0; // 0 when there is no intact record
    std::int64_t lastTimeNs = 0;
    std::uint64_t fileSize = 0;
    std::map<std::uint16_t, std::uint64_t> apidPackets;
};

[[nodiscard]] Result<SegmentSummary> summarizeSegment(const std::string& path);

// Whether the segment file at `path`, of `size` bytes, ends inside its header (a crash while it was
// created): shorter than a version-1 header, or than a version-2 header when it starts as one.
[[nodiscard]] bool endsInsideHeader(const std::string& path, std::uint64_t size);

// Counts, time range and size of a segment as its intact records give them (crash recovery, a failed
// recorder, segments the catalog cannot count).
inline void setFromSummary(SegmentInfo& info, const SegmentSummary& summary)
{
    info.packets = summary.scan.records;
    info.firstTimeNs = summary.firstTimeNs;
    info.lastTimeNs = summary.lastTimeNs;
    info.bytes = summary.fileSize;
    info.apidPackets = summary.apidPackets;
}

} // namespace telestation::record::detail
