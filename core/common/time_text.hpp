// Small text parsers shared by the edges that read times and rates from operators: endpoint URLs
// (file://...?from=&to=&speed=) and playback options. Header-only, std only.
#pragma once

#include <algorithm>
#include <cctype>
#include <charconv>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <limits>
#include <optional>
#include <string>
#include <string_view>

namespace telestation::text {

[[nodiscard]] inline bool allDigits(std::string_view text) noexcept
{
    const auto digit = [](char c) { return std::isdigit(static_cast<unsigned char>(c)) != 0; };
    return !text.empty() && std::all_of(text.begin(), text.end(), digit);
}

// A non-negative decimal without exponent or sign: "1", "0.5", "10.25".
[[nodiscard]] inline std::optional<double> parsePlainDecimal(std::string_view text) noexcept
{
    const auto dot = text.find('.');
    const bool decimal = dot == std::string_view::npos
                             ? allDigits(text)
                             : allDigits(text.substr(0, dot)) && allDigits(text.substr(dot + 1));
    if (!decimal)
        return std::nullopt;
    double value = 0;
    const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value, std::chars_format::fixed);
    if (ec != std::errc() || end != text.data() + text.size() || !std::isfinite(value))
        return std::nullopt;
    return value;
}

// Integer ns since the Unix epoch, or ISO-8601 UTC "YYYY-MM-DDTHH:MM:SS[.F]Z" with 1..9 fraction
// digits. Times before 1970 and beyond the 64-bit ns range (2262) are not times a recording can have.
[[nodiscard]] inline std::optional<std::int64_t> parseTimeNs(std::string_view text) noexcept
{
    constexpr std::int64_t kNsPerSecond = 1'000'000'000;
    if (allDigits(text)) {
        std::int64_t value = 0;
        const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
        if (ec != std::errc() || end != text.data() + text.size())
            return std::nullopt;
        return value;
    }
    const auto field = [&](std::size_t at, std::size_t count, int& out) {
        if (at + count > text.size() || !allDigits(text.substr(at, count)))
            return false;
        out = 0;
        for (std::size_t i = at; i < at + count; ++i)
            out = out * 10 + (text[i] - '0');
        return true;
    };
    const auto is = [&](std::size_t at, char c) { return at < text.size() && text[at] == c; };
    int year = 0, month = 0, day = 0, hour = 0, minute = 0, second = 0;
    if (!field(0, 4, year) || !is(4, '-') || !field(5, 2, month) || !is(7, '-') || !field(8, 2, day) || !is(10, 'T')
        || !field(11, 2, hour) || !is(13, ':') || !field(14, 2, minute) || !is(16, ':') || !field(17, 2, second))
        return std::nullopt;
    std::size_t pos = 19;
    std::int64_t fraction = 0;
    if (is(pos, '.')) {
        const std::size_t start = ++pos;
        while (pos < text.size() && pos - start < 10 && std::isdigit(static_cast<unsigned char>(text[pos])) != 0)
            fraction = fraction * 10 + (text[pos++] - '0');
        const std::size_t digits = pos - start;
        if (digits == 0 || digits > 9)
            return std::nullopt;
        for (std::size_t i = digits; i < 9; ++i)
            fraction *= 10;
    }
    if (!is(pos, 'Z') || pos + 1 != text.size() || hour > 23 || minute > 59 || second > 59)
        return std::nullopt;
    const std::chrono::year_month_day date{std::chrono::year(year), std::chrono::month(static_cast<unsigned>(month)),
                                           std::chrono::day(static_cast<unsigned>(day))};
    if (!date.ok())
        return std::nullopt;
    const std::int64_t days = std::chrono::sys_days(date).time_since_epoch().count();
    const std::int64_t seconds = days * 86400 + std::int64_t{hour} * 3600 + std::int64_t{minute} * 60 + second;
    if (seconds < 0 || seconds > (std::numeric_limits<std::int64_t>::max() - fraction) / kNsPerSecond)
        return std::nullopt;
    return seconds * kNsPerSecond + fraction;
}

// The inverse of parseTimeNs: "YYYY-MM-DDTHH:MM:SS.nnnnnnnnnZ" (UTC, always nine fraction digits).
[[nodiscard]] inline std::string formatTimeNs(std::int64_t timeNs)
{
    constexpr std::int64_t kNsPerSecond = 1'000'000'000;
    std::int64_t seconds = timeNs / kNsPerSecond;
    std::int64_t fraction = timeNs % kNsPerSecond;
    if (fraction < 0) {
        fraction += kNsPerSecond;
        --seconds;
    }
    const std::chrono::sys_days days{std::chrono::days(seconds >= 0 ? seconds / 86400 : (seconds - 86399) / 86400)};
    const std::int64_t inDay = seconds - days.time_since_epoch().count() * 86400;
    const std::chrono::year_month_day date{days};
    char buf[48];
    std::snprintf(buf, sizeof buf, "%04d-%02u-%02uT%02d:%02d:%02d.%09lldZ", static_cast<int>(date.year()),
                  static_cast<unsigned>(date.month()), static_cast<unsigned>(date.day()), static_cast<int>(inDay / 3600),
                  static_cast<int>(inDay / 60 % 60), static_cast<int>(inDay % 60), static_cast<long long>(fraction));
    return buf;
}

} // namespace telestation::text
