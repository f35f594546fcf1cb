// Numbers as XTCE writes them in attributes and text: the one place the importer, and the reading back
// of a Telestation export, turn text into numbers (and the exporter turns reals into text). Blanks (space, tab, line feed, carriage return) at
// either end are ignored, as XML Schema does.
//  - Reals are xs:double: a decimal or scientific number with an optional sign, or INF, +INF, -INF, NaN
//    (the XML Schema spellings; "inf", "nan", "infinity" and hexadecimal floats are not xs:double).
//  - Integers are decimal (xs:integer, xs:long, ...) with an optional sign, or hexadecimal after 0x,
//    which some XTCE files use; they are read exactly, up to 2^64 - 1 either way, never through a double.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace telestation::xtce {

// An integer as written, exactly: its sign and magnitude ("-0" is 0, not negative).
struct WrittenInteger {
    bool negative = false;
    std::uint64_t magnitude = 0;
    friend bool operator==(const WrittenInteger&, const WrittenInteger&) = default;
};

// Any integer whose magnitude fits 64 bits; nullopt for anything else (a fraction, an exponent, junk).
[[nodiscard]] std::optional<WrittenInteger> parseWrittenInteger(std::string_view text);
// An integer that fits std::int64_t.
[[nodiscard]] std::optional<std::int64_t> parseInteger(std::string_view text);
// A non-negative integer that fits std::uint64_t (18446744073709551615 included).
[[nodiscard]] std::optional<std::uint64_t> parseUnsigned(std::string_view text);

// An xs:double, INF, -INF and NaN included; nullopt when the text is not one (or is out of the range of
// a double, like 1e400).
[[nodiscard]] std::optional<double> parseDouble(std::string_view text);
// An xs:double that is finite: where an infinity or NaN means nothing (coefficients, sizes, times).
[[nodiscard]] std::optional<double> parseReal(std::string_view text);

// The inverse of parseDouble: the shortest text that reads back to the same double; INF, -INF, NaN.
[[nodiscard]] std::string formatDouble(double value);

} // namespace telestation::xtce
