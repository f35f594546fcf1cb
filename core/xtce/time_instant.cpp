#include "core/xtce/time_instant.hpp"

#include "core/mdb/model.hpp"
#include "core/xtce/xml_numbers.hpp"

#include <array>
#include <charconv>
#include <cmath>
#include <cstdint>
#include <cstdio>

namespace telestation::xtce {

namespace {

// Days from 1970-01-01 to a proleptic Gregorian date (Howard Hinnant's civil-date arithmetic).
std::int64_t daysFromCivil(std::int64_t y, unsigned m, unsigned d)
{
    y -= m <= 2 ? 1 : 0;
    const std::int64_t era = (y >= 0 ? y : y - 399) / 400;
    const auto yoe = static_cast<unsigned>(y - era * 400);
    const unsigned doy = (153 * (m > 2 ? m - 3 : m + 9) + 2) / 5 + d - 1;
    const unsigned doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    return era * 146097 + static_cast<std::int64_t>(doe) - 719468;
}

struct CivilDate {
    std::int64_t year = 0;
    unsigned month = 0;
    unsigned day = 0;
};

// The inverse of daysFromCivil.
CivilDate civilFromDays(std::int64_t z)
{
    z += 719468;
    const std::int64_t era = (z >= 0 ? z : z - 146096) / 146097;
    const auto doe = static_cast<unsigned>(z - era * 146097);
    const unsigned yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
    const std::int64_t y = static_cast<std::int64_t>(yoe) + era * 400;
    const unsigned doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    const unsigned mp = (5 * doy + 2) / 153;
    const unsigned d = doy - (153 * mp + 2) / 5 + 1;
    const unsigned m = mp < 10 ? mp + 3 : mp - 9;
    return CivilDate { y + (m <= 2 ? 1 : 0), m, d };
}

} // namespace

std::optional<double> parseTimeInstant(std::string_view text)
{
    if (text == "TAI")
        return mdb::kEpochTai1958;
    if (text == "J2000")
        return mdb::kEpochJ2000;
    if (text == "UNIX" || text == "POSIX")
        return mdb::kEpochUnix1970;
    if (text == "GPS")
        return mdb::kEpochGps1980;
    const auto number = [&](std::size_t at, std::size_t length) -> std::optional<int> {
        if (at + length > text.size())
            return std::nullopt;
        int value = 0;
        for (std::size_t i = at; i < at + length; ++i) {
            if (text[i] < '0' || text[i] > '9')
                return std::nullopt;
            value = value * 10 + (text[i] - '0');
        }
        return value;
    };
    auto year = number(0, 4);
    auto month = number(5, 2);
    auto day = number(8, 2);
    if (!year || !month || !day || text.size() < 10 || text[4] != '-' || text[7] != '-' || *month < 1 || *month > 12
        || *day < 1 || *day > 31)
        return std::nullopt;
    double seconds
        = static_cast<double>(daysFromCivil(*year, static_cast<unsigned>(*month), static_cast<unsigned>(*day)))
        * 86400.0;
    std::string_view rest = text.substr(10);
    if (!rest.empty() && rest.front() == 'T') {
        auto hour = number(11, 2);
        auto minute = number(14, 2);
        auto second = number(17, 2);
        if (!hour || !minute || !second || text.size() < 19 || text[13] != ':' || text[16] != ':')
            return std::nullopt;
        seconds += *hour * 3600.0 + *minute * 60.0 + *second;
        rest = text.substr(19);
        if (!rest.empty() && rest.front() == '.') {
            std::size_t digits = 1;
            while (digits < rest.size() && rest[digits] >= '0' && rest[digits] <= '9')
                ++digits;
            auto fraction = parseReal(std::string("0") + std::string(rest.substr(0, digits)));
            if (!fraction)
                return std::nullopt;
            seconds += *fraction;
            rest.remove_prefix(digits);
        }
    }
    if (rest == "Z" || rest.empty())
        return seconds;
    if (rest.size() == 6 && (rest[0] == '+' || rest[0] == '-') && rest[3] == ':') {
        const std::size_t at = text.size() - 6;
        auto hours = number(at + 1, 2);
        auto minutes = number(at + 4, 2);
        if (!hours || !minutes)
            return std::nullopt;
        const double shift = *hours * 3600.0 + *minutes * 60.0;
        return rest[0] == '+' ? seconds - shift : seconds + shift;
    }
    return std::nullopt;
}

WrittenInstant writeTimeInstant(double unixSeconds)
{
    for (const char* name : { "TAI", "GPS", "UNIX", "J2000" })
        if (parseTimeInstant(name) == unixSeconds)
            return { name, true };
    constexpr double kFirst = -62135596800.0; // 0001-01-01T00:00:00Z
    constexpr double kLast = 253402300799.0;  // 9999-12-31T23:59:59Z
    if (!std::isfinite(unixSeconds) || unixSeconds < kFirst || unixSeconds >= kLast + 1)
        return { "UNIX", false };
    const double whole = std::floor(unixSeconds);
    const double fraction = unixSeconds - whole;
    const auto seconds = static_cast<std::int64_t>(whole);
    const std::int64_t days = seconds >= 0 ? seconds / 86400 : -((-seconds + 86399) / 86400);
    const std::int64_t ofDay = seconds - days * 86400;
    const CivilDate date = civilFromDays(days);
    std::array<char, 64> buffer {};
    std::snprintf(buffer.data(), buffer.size(), "%04lld-%02u-%02uT%02d:%02d:%02d", static_cast<long long>(date.year),
        date.month, date.day, static_cast<int>(ofDay / 3600), static_cast<int>(ofDay % 3600 / 60),
        static_cast<int>(ofDay % 60));
    const std::string text(buffer.data());
    if (fraction == 0 && parseTimeInstant(text + "Z") == unixSeconds)
        return { text + "Z", true };
    for (int digits = 1; digits <= 20; ++digits) {
        const auto result = std::to_chars(
            buffer.data(), buffer.data() + buffer.size(), fraction, std::chars_format::fixed, digits);
        const std::string candidate(buffer.data(), result.ptr);
        if (!candidate.starts_with("0."))
            break;
        const std::string written = text + candidate.substr(1) + "Z";
        if (parseTimeInstant(written) == unixSeconds)
            return { written, true };
    }
    return { text + "Z", false };
}

} // namespace telestation::xtce
