#include "sim/engine/rate.hpp"

#include <array>
#include <charconv>
#include <cmath>
#include <cstddef>
#include <string>
#include <system_error>

namespace telestation::sim {

namespace {

constexpr std::string_view kAccepted =
    "expected a positive number and a unit: pps or bps, optionally with a k, M or G prefix "
    "(\"100pps\", \"2.5kpps\", \"25.6Mbps\", \"9600bps\"), or \"flood\"";

struct Prefix {
    char symbol; // '\0' for none
    int exponent;
};
constexpr std::array<Prefix, 4> kPrefixes{{{'G', 9}, {'M', 6}, {'k', 3}, {'\0', 0}}};

Error rateError(std::string_view text, std::string_view why)
{
    std::string message = "rate \"";
    message += text;
    message += "\": ";
    message += why;
    message += "; ";
    message += kAccepted;
    return Error{std::move(message), {}};
}

bool isDigit(char c) noexcept { return c >= '0' && c <= '9'; }

} // namespace

double Rate::packetsPerSecond(double averagePacketBytes) const noexcept
{
    switch (unit) {
    case Unit::PacketsPerSecond:
        return value;
    case Unit::BitsPerSecond:
        return averagePacketBytes > 0 ? value / (8.0 * averagePacketBytes) : 0.0;
    case Unit::Flood:
        return 0.0;
    }
    return 0.0;
}

Result<Rate> parseRate(std::string_view text)
{
    if (text == "flood")
        return Rate{Rate::Unit::Flood, 0};
    if (text.empty())
        return rateError(text, "empty");
    for (const char c : text) {
        if (c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v')
            return rateError(text, "contains white space");
    }
    if (text.front() == '-')
        return rateError(text, "must be greater than zero");

    // The number: digits with an optional fraction; no sign, exponent, "inf" or "nan".
    std::size_t pos = 0;
    while (pos < text.size() && isDigit(text[pos]))
        ++pos;
    const std::size_t integerDigits = pos;
    if (pos < text.size() && text[pos] == '.') {
        ++pos;
        const std::size_t fractionStart = pos;
        while (pos < text.size() && isDigit(text[pos]))
            ++pos;
        if (pos == fractionStart)
            return rateError(text, "a decimal point must be followed by digits");
    }
    if (integerDigits == 0)
        return rateError(text, "does not start with a number");
    const std::string_view number = text.substr(0, pos);
    std::string_view unit = text.substr(pos);
    if (unit.empty())
        return rateError(text, "missing unit");

    int exponent = 0;
    const std::string_view base = unit.size() > 3 ? unit.substr(unit.size() - 3) : unit;
    if (unit.size() == 4 && (base == "pps" || base == "bps")) {
        bool known = false;
        for (const Prefix& prefix : kPrefixes) {
            if (prefix.symbol != '\0' && prefix.symbol == unit.front()) {
                exponent = prefix.exponent;
                known = true;
            }
        }
        if (!known)
            return rateError(text, std::string("unknown prefix \"") + unit.front() + "\"");
        unit.remove_prefix(1);
    }
    Rate::Unit kind{};
    if (unit == "pps")
        kind = Rate::Unit::PacketsPerSecond;
    else if (unit == "bps")
        kind = Rate::Unit::BitsPerSecond;
    else
        return rateError(text, std::string("unknown unit \"") + std::string(text.substr(pos)) + "\"");

    // The prefix is applied by from_chars as a decimal exponent, so that "25.6M" is the double nearest
    // to 25600000 exactly (25.6 * 1e6 could be off by one ulp, and toString could not read it back).
    std::string scaled(number);
    if (exponent != 0)
        scaled += 'e' + std::to_string(exponent);
    double value = 0;
    const auto [end, ec] = std::from_chars(scaled.data(), scaled.data() + scaled.size(), value);
    if (ec == std::errc::result_out_of_range || !std::isfinite(value))
        return rateError(text, "out of range");
    if (ec != std::errc{} || end != scaled.data() + scaled.size())
        return rateError(text, "not a number");
    if (!(value > 0))
        return rateError(text, "must be greater than zero");
    return Rate{kind, value};
}

std::string toString(const Rate& rate)
{
    if (rate.unit == Rate::Unit::Flood)
        return "flood";
    const std::string_view unit = rate.unit == Rate::Unit::BitsPerSecond ? "bps" : "pps";
    if (!std::isfinite(rate.value) || rate.value <= 0) {
        // Not a valid rate: still say what it is, for messages.
        std::array<char, 64> buffer{};
        const auto result = std::to_chars(buffer.data(), buffer.data() + buffer.size(), rate.value);
        return std::string(buffer.data(), result.ptr) + std::string(unit);
    }

    // The shortest decimal that reads back to this double, as digits d1 d2 ... dn and an exponent e
    // (value = d1.d2...dn * 10^e). Placing the decimal point for each prefix is then exact.
    std::array<char, 64> buffer{};
    const auto result = std::to_chars(buffer.data(), buffer.data() + buffer.size(), rate.value,
                                      std::chars_format::scientific);
    const std::string_view scientific(buffer.data(), static_cast<std::size_t>(result.ptr - buffer.data()));
    const std::size_t ePos = scientific.find('e');
    std::string digits;
    for (const char c : scientific.substr(0, ePos)) {
        if (isDigit(c))
            digits += c;
    }
    int decimalExponent = 0;
    {
        std::string_view exponentText = scientific.substr(ePos + 1);
        if (!exponentText.empty() && exponentText.front() == '+')
            exponentText.remove_prefix(1);
        (void)std::from_chars(exponentText.data(), exponentText.data() + exponentText.size(), decimalExponent);
    }

    std::string best;
    bool bestIsEngineering = false;
    for (const Prefix& prefix : kPrefixes) {
        // Digits before the decimal point with this prefix.
        const int integerDigits = decimalExponent - prefix.exponent + 1;
        const auto n = static_cast<int>(digits.size());
        std::string mantissa;
        if (integerDigits >= n) {
            mantissa = digits + std::string(static_cast<std::size_t>(integerDigits - n), '0');
        } else if (integerDigits > 0) {
            mantissa = digits.substr(0, static_cast<std::size_t>(integerDigits)) + '.' +
                       digits.substr(static_cast<std::size_t>(integerDigits));
        } else {
            mantissa = "0." + std::string(static_cast<std::size_t>(-integerDigits), '0') + digits;
        }
        std::string candidate = mantissa;
        if (prefix.symbol != '\0')
            candidate += prefix.symbol;
        candidate += unit;
        // Shortest wins; on a tie, the engineering form (1 to 3 digits before the point): "2.5kpps".
        const bool engineering = integerDigits >= 1 && integerDigits <= 3;
        if (best.empty() || candidate.size() < best.size() ||
            (candidate.size() == best.size() && engineering && !bestIsEngineering)) {
            best = std::move(candidate);
            bestIsEngineering = engineering;
        }
    }
    return best;
}

} // namespace telestation::sim
