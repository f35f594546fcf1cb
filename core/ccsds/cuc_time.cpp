#include "core/ccsds/cuc_time.hpp"

#include <limits>

namespace telestation::ccsds {

namespace {

constexpr std::int64_t kNsPerSecond = 1'000'000'000;
// Whole seconds whose nanoseconds (plus a fraction below one second) fit in an int64.
constexpr std::int64_t kMinSeconds = std::numeric_limits<std::int64_t>::min() / kNsPerSecond;
constexpr std::int64_t kMaxSeconds = (std::numeric_limits<std::int64_t>::max() - (kNsPerSecond - 1)) / kNsPerSecond;

constexpr std::uint8_t kPFieldExtension = 0x80;

// Big-endian unsigned integer of n (<= 4) bytes.
std::uint32_t readBigEndian(const std::uint8_t* bytes, unsigned n) noexcept
{
    std::uint32_t value = 0;
    for (unsigned i = 0; i < n; ++i)
        value = (value << 8) | bytes[i];
    return value;
}

void writeBigEndian(std::uint32_t value, std::uint8_t* bytes, unsigned n) noexcept
{
    for (unsigned i = n; i-- > 0;) {
        bytes[i] = static_cast<std::uint8_t>(value & 0xFFu);
        value >>= 8;
    }
}

// Largest value of n bytes (n <= 4).
constexpr std::uint64_t maxOfBytes(unsigned n) noexcept
{
    return (std::uint64_t{1} << (8 * n)) - 1;
}

} // namespace

bool isValid(const CucFormat& f) noexcept
{
    return f.coarseBytes >= 1 && f.coarseBytes <= 4 && f.fineBytes <= 3;
}

std::size_t cucSize(const CucFormat& f) noexcept
{
    return (f.hasPField ? 1u : 0u) + std::size_t{f.coarseBytes} + std::size_t{f.fineBytes};
}

std::uint8_t cucPField(const CucFormat& f) noexcept
{
    const unsigned id = f.epochUnixSeconds == kTai1958UnixSeconds ? kCucTimeCodeLevel1 : kCucTimeCodeLevel2;
    const unsigned coarse = (f.coarseBytes - 1u) & 0x3u;
    const unsigned fine = f.fineBytes & 0x3u;
    return static_cast<std::uint8_t>((id << 4) | (coarse << 2) | fine);
}

bool decodeCuc(std::span<const std::uint8_t> field, const CucFormat& f, std::int64_t& unixNs) noexcept
{
    if (!isValid(f) || field.size() < cucSize(f))
        return false;

    const std::uint8_t* p = field.data();
    if (f.hasPField) {
        const std::uint8_t pField = *p++;
        if ((pField & kPFieldExtension) != 0)
            return false;
        const unsigned id = (pField >> 4) & 0x7u;
        if (id != kCucTimeCodeLevel1 && id != kCucTimeCodeLevel2)
            return false;
        if (((pField >> 2) & 0x3u) + 1u != f.coarseBytes || (pField & 0x3u) != f.fineBytes)
            return false;
    }

    const std::int64_t coarse = readBigEndian(p, f.coarseBytes);
    const std::uint64_t fine = readBigEndian(p + f.coarseBytes, f.fineBytes);

    if (f.epochUnixSeconds < kMinSeconds || f.epochUnixSeconds > kMaxSeconds - coarse)
        return false;
    const std::int64_t seconds = f.epochUnixSeconds + coarse;

    std::int64_t fineNs = 0;
    if (f.fineBytes > 0) {
        // fine < 2^24, so fine * 1e9 < 2^54: no overflow. Never rounds up to a whole second, since one
        // tick is at least 59.6 ns.
        const unsigned bits = 8u * f.fineBytes;
        const std::uint64_t half = std::uint64_t{1} << (bits - 1);
        fineNs = static_cast<std::int64_t>((fine * kNsPerSecond + half) >> bits);
    }
    unixNs = seconds * kNsPerSecond + fineNs;
    return true;
}

bool encodeCuc(std::int64_t unixNs, const CucFormat& f, std::span<std::uint8_t> field) noexcept
{
    if (!isValid(f) || field.size() < cucSize(f))
        return false;

    // Floor division, so that the sub-second part is in [0, 1 s) also before 1970.
    std::int64_t seconds = unixNs / kNsPerSecond;
    std::int64_t ns = unixNs % kNsPerSecond;
    if (ns < 0) {
        ns += kNsPerSecond;
        --seconds;
    }

    const unsigned fineBits = 8u * f.fineBytes;
    const std::uint64_t maxCoarse = maxOfBytes(f.coarseBytes);
    std::uint64_t coarse = 0;
    std::uint64_t fine = 0;
    bool exact = true;
    if (seconds < f.epochUnixSeconds) {
        exact = false; // before the epoch: the epoch itself
    } else {
        // seconds >= epoch, so the difference is in [0, 2^64) and unsigned arithmetic gives it exactly.
        const std::uint64_t elapsed = static_cast<std::uint64_t>(seconds) - static_cast<std::uint64_t>(f.epochUnixSeconds);
        if (elapsed > maxCoarse) {
            exact = false;
            coarse = maxCoarse;
            fine = maxOfBytes(f.fineBytes);
        } else {
            coarse = elapsed;
            fine = (static_cast<std::uint64_t>(ns) << fineBits) / kNsPerSecond; // ns * 2^24 < 2^54
        }
    }

    std::uint8_t* p = field.data();
    if (f.hasPField)
        *p++ = cucPField(f);
    writeBigEndian(static_cast<std::uint32_t>(coarse), p, f.coarseBytes);
    writeBigEndian(static_cast<std::uint32_t>(fine), p + f.coarseBytes, f.fineBytes);
    return exact;
}

} // namespace telestation::ccsds
