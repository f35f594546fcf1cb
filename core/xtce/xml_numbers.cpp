#include "core/xtce/xml_numbers.hpp"

#include "core/xtce/xml_document.hpp"

#include <array>
#include <charconv>
#include <cmath>
#include <limits>

namespace telestation::xtce {

std::optional<WrittenInteger> parseWrittenInteger(std::string_view text)
{
    text = trimmedXmlBlanks(text);
    WrittenInteger out;
    if (!text.empty() && (text.front() == '-' || text.front() == '+')) {
        out.negative = text.front() == '-';
        text.remove_prefix(1);
    }
    int base = 10;
    if (text.size() > 2 && text[0] == '0' && (text[1] == 'x' || text[1] == 'X')) {
        base = 16;
        text.remove_prefix(2);
    }
    // from_chars takes no sign of its own here: "--5" and "+-5" stay errors.
    if (text.empty() || text.front() == '-' || text.front() == '+')
        return std::nullopt;
    const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), out.magnitude, base);
    if (ec != std::errc() || end != text.data() + text.size())
        return std::nullopt;
    out.negative = out.negative && out.magnitude != 0;
    return out;
}

std::optional<std::int64_t> parseInteger(std::string_view text)
{
    const auto value = parseWrittenInteger(text);
    if (!value)
        return std::nullopt;
    constexpr auto kLargest = static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max());
    if (value->negative) {
        if (value->magnitude > kLargest + 1)
            return std::nullopt;
        return static_cast<std::int64_t>(0 - value->magnitude); // modular, then the two's complement value
    }
    if (value->magnitude > kLargest)
        return std::nullopt;
    return static_cast<std::int64_t>(value->magnitude);
}

std::optional<std::uint64_t> parseUnsigned(std::string_view text)
{
    const auto value = parseWrittenInteger(text);
    if (!value || value->negative)
        return std::nullopt;
    return value->magnitude;
}

std::optional<double> parseDouble(std::string_view text)
{
    text = trimmedXmlBlanks(text);
    if (text == "INF" || text == "+INF")
        return std::numeric_limits<double>::infinity();
    if (text == "-INF")
        return -std::numeric_limits<double>::infinity();
    if (text == "NaN")
        return std::numeric_limits<double>::quiet_NaN();
    if (!text.empty() && text.front() == '+') {
        text.remove_prefix(1);
        if (!text.empty() && text.front() == '-')
            return std::nullopt; // "+-1"
    }
    // from_chars would also take "inf", "nan" and "infinity", which are not xs:double.
    if (text.empty() || text.find_first_not_of("+-0123456789.eE") != std::string_view::npos)
        return std::nullopt;
    double value = 0;
    const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
    if (ec != std::errc() || end != text.data() + text.size())
        return std::nullopt;
    return value;
}

std::optional<double> parseReal(std::string_view text)
{
    auto value = parseDouble(text);
    if (!value || !std::isfinite(*value))
        return std::nullopt;
    return value;
}

std::string formatDouble(double value)
{
    if (std::isnan(value))
        return "NaN";
    if (std::isinf(value))
        return value > 0 ? "INF" : "-INF";
    std::array<char, 64> buffer {};
    const auto result = std::to_chars(buffer.data(), buffer.data() + buffer.size(), value); // shortest round trip
    return std::string(buffer.data(), result.ptr);
}

} // namespace telestation::xtce
