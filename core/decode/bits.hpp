// Bit-level access to packet bytes: big-endian (network order) bit fields at any bit offset, the
// convention of docs/mission-database.md. Used by the decoder (extract) and the encoder (insert).
#pragma once

#include <bit>
#include <cstdint>
#include <cstring>
#include <span>

namespace telestation::decode {

[[nodiscard]] inline std::uint64_t loadBigEndian64(const std::uint8_t* p) noexcept
{
    std::uint64_t w;
    std::memcpy(&w, p, sizeof w);
    if constexpr (std::endian::native == std::endian::little)
        w = __builtin_bswap64(w);
    return w;
}

// Reverses the order of the low `bytes` bytes of v (1..8) and returns them right-aligned.
[[nodiscard]] inline std::uint64_t reverseBytes(std::uint64_t v, unsigned bytes) noexcept
{
    return __builtin_bswap64(v) >> (64 - 8 * bytes);
}

// Extracts `bitLength` (1..64) bits starting `bitOffset` bits into `bytes`, reading only the bytes
// the field covers. Returns them right-aligned. The caller guarantees the field lies within `bytes`.
[[nodiscard]] inline std::uint64_t extractBits(const std::uint8_t* bytes, std::uint32_t bitOffset,
                                               unsigned bitLength) noexcept
{
    const std::uint8_t* p = bytes + bitOffset / 8;
    const unsigned shift = bitOffset % 8;
    const unsigned span = (shift + bitLength + 7) / 8; // bytes covered, 1..9
    std::uint64_t w = 0;
    const unsigned head = span < 8 ? span : 8;
    for (unsigned i = 0; i < head; ++i)
        w |= std::uint64_t{p[i]} << (56 - 8 * i);
    w <<= shift;
    if (span == 9)
        w |= std::uint64_t{p[8]} >> (8 - shift);
    return w >> (64 - bitLength);
}

// Writes the low `bitLength` (1..64) bits of `value` at `bitOffset` into `bytes`, leaving all other
// bits as they were. The inverse of extractBits.
inline void insertBits(std::uint8_t* bytes, std::uint32_t bitOffset, unsigned bitLength,
                       std::uint64_t value) noexcept
{
    if (bitLength < 64)
        value &= (std::uint64_t{1} << bitLength) - 1;
    // Walk from the field's last bit backwards, a byte (or part of one) at a time.
    std::uint32_t end = bitOffset + bitLength; // one past the last bit
    unsigned remaining = bitLength;
    while (remaining > 0) {
        const std::uint32_t byteIndex = (end - 1) / 8;
        const unsigned bitInByteFromLsb = 7 - (end - 1) % 8; // position of the field's last bit
        const unsigned room = 8 - bitInByteFromLsb;
        const unsigned take = remaining < room ? remaining : room;
        const unsigned mask = ((1u << take) - 1u) << bitInByteFromLsb;
        const unsigned bits = static_cast<unsigned>(value & ((std::uint64_t{1} << take) - 1)) << bitInByteFromLsb;
        bytes[byteIndex] = static_cast<std::uint8_t>((bytes[byteIndex] & ~mask) | bits);
        value = take < 64 ? value >> take : 0;
        remaining -= take;
        end -= take;
    }
}

} // namespace telestation::decode
