// CRC-32C (Castagnoli, reflected polynomial 0x82F63B78): a slicing-by-8 table version for any CPU and
// an SSE4.2 version (the crc32 instruction) chosen at run time. The recorder checksums every byte it
// writes, so the hardware path matters at gigabit rates; the table path keeps the format portable.
#include "core/record/record_detail.hpp"

#include <array>
#include <cstring>

#if defined(__x86_64__)
#include <nmmintrin.h>
#endif

namespace telestation::record {
namespace detail {

namespace {

constexpr std::uint32_t kPolynomial = 0x82F63B78u; // 0x1EDC6F41 bit-reversed

using Tables = std::array<std::array<std::uint32_t, 256>, 8>;

constexpr Tables makeTables() noexcept
{
    Tables t{};
    for (std::uint32_t i = 0; i < 256; ++i) {
        std::uint32_t c = i;
        for (int bit = 0; bit < 8; ++bit)
            c = (c & 1u) ? (c >> 1) ^ kPolynomial : c >> 1;
        t[0][i] = c;
    }
    // t[k][i]: the CRC of byte i followed by k zero bytes, for processing 8 bytes per step.
    for (std::size_t k = 1; k < 8; ++k)
        for (std::size_t i = 0; i < 256; ++i)
            t[k][i] = (t[k - 1][i] >> 8) ^ t[0][t[k - 1][i] & 0xFFu];
    return t;
}

constexpr Tables kTables = makeTables();

} // namespace

// Works on the inverted register (crc ^ ~0), as both public paths do.
std::uint32_t crc32cSoftware(std::span<const std::uint8_t> bytes, std::uint32_t crc) noexcept
{
    std::uint32_t c = ~crc;
    const std::uint8_t* p = bytes.data();
    std::size_t n = bytes.size();
    while (n >= 8) {
        std::uint32_t lo = 0;
        std::uint32_t hi = 0;
        std::memcpy(&lo, p, 4);
        std::memcpy(&hi, p + 4, 4);
        // Slicing-by-8 needs the little-endian byte order of the words; the station targets x86-64 and
        // ARM64 Linux, both little-endian.
        lo ^= c;
        c = kTables[7][lo & 0xFFu] ^ kTables[6][(lo >> 8) & 0xFFu] ^ kTables[5][(lo >> 16) & 0xFFu] ^ kTables[4][lo >> 24]
            ^ kTables[3][hi & 0xFFu] ^ kTables[2][(hi >> 8) & 0xFFu] ^ kTables[1][(hi >> 16) & 0xFFu] ^ kTables[0][hi >> 24];
        p += 8;
        n -= 8;
    }
    while (n-- > 0)
        c = (c >> 8) ^ kTables[0][(c ^ *p++) & 0xFFu];
    return ~c;
}

#if defined(__x86_64__)
__attribute__((target("sse4.2"))) std::uint32_t crc32cHardware(std::span<const std::uint8_t> bytes, std::uint32_t crc) noexcept
{
    std::uint64_t c = ~crc;
    const std::uint8_t* p = bytes.data();
    std::size_t n = bytes.size();
    // Unaligned 8-byte loads are fine on x86 (memcpy compiles to one mov); no alignment prologue needed.
    while (n >= 8) {
        std::uint64_t word = 0;
        std::memcpy(&word, p, 8);
        c = _mm_crc32_u64(c, word);
        p += 8;
        n -= 8;
    }
    auto c32 = static_cast<std::uint32_t>(c);
    while (n-- > 0)
        c32 = _mm_crc32_u8(c32, *p++);
    return ~c32;
}

bool hasHardwareCrc32c() noexcept
{
    static const bool has = __builtin_cpu_supports("sse4.2");
    return has;
}
#else
std::uint32_t crc32cHardware(std::span<const std::uint8_t> bytes, std::uint32_t crc) noexcept
{
    return crc32cSoftware(bytes, crc);
}

bool hasHardwareCrc32c() noexcept
{
    return false;
}
#endif

} // namespace detail

std::uint32_t crc32c(std::span<const std::uint8_t> bytes, std::uint32_t crc) noexcept
{
    return detail::hasHardwareCrc32c() ? detail::crc32cHardware(bytes, crc) : detail::crc32cSoftware(bytes, crc);
}

} // namespace telestation::record
