// CCSDS Unsegmented time Code (CUC, CCSDS 301.0-B section 3.2), as carried in a packet's secondary header:
// an optional 1-byte P-field, then `coarseBytes` of whole seconds and `fineBytes` of binary fraction of a
// second, both big-endian.
//
// Leap seconds are not applied: the coarse count is taken as seconds elapsed since the epoch, and the
// result is that many seconds after the epoch on the Unix (UTC-like, 86400 s per day) scale. A mission
// whose clock counts TAI seconds therefore decodes to a time that is ahead of UTC by the leap seconds
// since its epoch (37 s for 1958 TAI since 2017, 18 s for GPS); converting is the display's job, not
// the per-packet path's.
//
// The P-field, when present, is one octet (the extension flag must be 0):
//   bit 0       extension flag (0)
//   bits 1-3    time code identification: 0b001 (1958 TAI epoch, level 1) or 0b010 (agency-defined
//               epoch, level 2)
//   bits 4-5    number of coarse octets - 1
//   bits 6-7    number of fine octets
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>

namespace telestation::ccsds {

inline constexpr std::int64_t kTai1958UnixSeconds = -378691200; // 1958-01-01 as Unix seconds
inline constexpr std::int64_t kGps1980UnixSeconds = 315964800;  // 1980-01-06
inline constexpr std::int64_t kUnix1970UnixSeconds = 0;

inline constexpr std::uint8_t kCucTimeCodeLevel1 = 0b001; // P-field id: 1958 TAI epoch
inline constexpr std::uint8_t kCucTimeCodeLevel2 = 0b010; // P-field id: agency-defined epoch

// A CUC layout: coarse 1..4 bytes, fine 0..3 bytes (what a 1-octet P-field can describe).
struct CucFormat {
    std::uint8_t coarseBytes = 4;
    std::uint8_t fineBytes = 2;
    bool hasPField = false;
    std::int64_t epochUnixSeconds = kTai1958UnixSeconds;

    friend bool operator==(const CucFormat&, const CucFormat&) = default;
};

// True when coarseBytes is 1..4 and fineBytes 0..3.
[[nodiscard]] bool isValid(const CucFormat& f) noexcept;

// Bytes the field occupies: P-field (0 or 1) + coarse + fine.
[[nodiscard]] std::size_t cucSize(const CucFormat& f) noexcept;

// The P-field octet that describes `f`: time code id 0b001 when the epoch is 1958 TAI, else 0b010.
[[nodiscard]] std::uint8_t cucPField(const CucFormat& f) noexcept;

// Decodes the CUC field at the start of `field` to nanoseconds since the Unix epoch:
// epoch + coarse seconds + fine / 2^(8 * fineBytes) s, the fraction rounded to the nearest ns.
// Returns false (and leaves unixNs alone) when the format is invalid, `field` is shorter than
// cucSize(f), the result does not fit in 64-bit nanoseconds, or, with a P-field, the P-field does not
// describe this format: extension flag set, time code id other than 0b001 / 0b010, or other coarse /
// fine byte counts. Either time code id is accepted with any epoch: the format's epoch is what counts.
[[nodiscard]] bool decodeCuc(std::span<const std::uint8_t> field, const CucFormat& f, std::int64_t& unixNs) noexcept;

// The inverse, for the simulator and tests: writes cucSize(f) bytes at the start of `field`, the
// fraction truncated to whole fine ticks (as a clock counter shows it), so decoding gives back unixNs
// to within one fine tick. Time before the epoch is clamped to the epoch (all zeros) and time beyond
// the coarse range to the largest value; both return false. An invalid format or a too-short
// `field` writes nothing and returns false.
bool encodeCuc(std::int64_t unixNs, const CucFormat& f, std::span<std::uint8_t> field) noexcept;

} // namespace telestation::ccsds
