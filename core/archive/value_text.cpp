#include "core/archive/value_text.hpp"

#include "core/decode/bits.hpp"

#include <algorithm>
#include <charconv>
#include <chrono>
#include <cmath>
#include <type_traits>
#include <variant>

namespace telestation::archive {

namespace {

constexpr std::int64_t kNsPerSecond = 1'000'000'000;
constexpr std::int64_t kNsPerDay = 86'400 * kNsPerSecond;
// Seconds that fit in 64-bit nanoseconds with room for the fraction (about 1678 to 2261).
constexpr double kMaxIsoSeconds = 9.2e9;

void appendDigits(std::string& out, unsigned value, int width)
{
    char buf[16];
    int n = 0;
    do {
        buf[n++] = static_cast<char>('0' + value % 10);
        value /= 10;
    } while (value != 0 && n < 16);
    while (n < width && n < 16)
        buf[n++] = '0';
    while (n > 0)
        out.push_back(buf[--n]);
}

template <typename T>
void appendInteger(std::string& out, T value)
{
    char buf[24];
    const auto [end, ec] = std::to_chars(buf, buf + sizeof buf, value);
    (void)ec; // 24 characters hold any 64-bit integer
    out.append(buf, end);
}

std::uint8_t byteAt(const ByteField& field, std::uint32_t i)
{
    const std::uint32_t bit = field.bitOffset + 8 * i;
    if (bit % 8 == 0)
        return field.packet[bit / 8];
    return static_cast<std::uint8_t>(decode::extractBits(field.packet.data(), bit, 8));
}

// The field's bytes in hex; a last partial byte is left-aligned and padded with zero bits.
void appendFieldHex(std::string& out, const ByteField& field)
{
    static constexpr char kDigits[] = "0123456789abcdef";
    const std::uint32_t whole = field.bitLength / 8;
    for (std::uint32_t i = 0; i < whole; ++i) {
        const std::uint8_t b = byteAt(field, i);
        out.push_back(kDigits[b >> 4]);
        out.push_back(kDigits[b & 0xF]);
    }
    if (const unsigned rest = field.bitLength % 8; rest != 0) {
        const auto bits = decode::extractBits(field.packet.data(), field.bitOffset + 8 * whole, rest);
        const auto b = static_cast<std::uint8_t>(bits << (8 - rest));
        out.push_back(kDigits[b >> 4]);
        out.push_back(kDigits[b & 0xF]);
    }
}

void appendFieldText(std::string& out, const ByteField& field)
{
    std::uint32_t count = field.bitLength / 8;
    while (count > 0 && byteAt(field, count - 1) == 0) // NUL padding is not part of the text
        --count;
    if (field.bitOffset % 8 == 0) {
        out.append(reinterpret_cast<const char*>(field.packet.data() + field.bitOffset / 8), count);
        return;
    }
    for (std::uint32_t i = 0; i < count; ++i)
        out.push_back(static_cast<char>(byteAt(field, i)));
}

// The length of the valid UTF-8 sequence at text[i], or 0 when it is not one.
std::size_t utf8Length(std::string_view text, std::size_t i)
{
    const auto at = [&](std::size_t k) { return static_cast<unsigned char>(text[k]); };
    const unsigned char b = at(i);
    const auto continuation = [&](std::size_t k, unsigned char lo = 0x80, unsigned char hi = 0xBF) {
        return k < text.size() && at(k) >= lo && at(k) <= hi;
    };
    if (b >= 0xC2 && b <= 0xDF)
        return continuation(i + 1) ? 2 : 0;
    if (b >= 0xE0 && b <= 0xEF) {
        const unsigned char lo = b == 0xE0 ? 0xA0 : 0x80;
        const unsigned char hi = b == 0xED ? 0x9F : 0xBF;
        return continuation(i + 1, lo, hi) && continuation(i + 2) ? 3 : 0;
    }
    if (b >= 0xF0 && b <= 0xF4) {
        const unsigned char lo = b == 0xF0 ? 0x90 : 0x80;
        const unsigned char hi = b == 0xF4 ? 0x8F : 0xBF;
        return continuation(i + 1, lo, hi) && continuation(i + 2) && continuation(i + 3) ? 4 : 0;
    }
    return 0;
}

bool isFloat(const ValueFormat& f) { return f.type == mdb::DataType::Float; }

} // namespace

void appendIsoTime(std::string& out, std::int64_t unixNs)
{
    // Floor division, so that times before 1970 get a positive fraction of the second.
    std::int64_t days = unixNs / kNsPerDay;
    std::int64_t rest = unixNs % kNsPerDay;
    if (rest < 0) {
        rest += kNsPerDay;
        --days;
    }
    const std::chrono::year_month_day date{std::chrono::sys_days{std::chrono::days{days}}};
    const auto secondOfDay = static_cast<unsigned>(rest / kNsPerSecond);
    const auto ns = static_cast<unsigned>(rest % kNsPerSecond);
    const int year = static_cast<int>(date.year());
    if (year < 0)
        out.push_back('-');
    appendDigits(out, static_cast<unsigned>(year < 0 ? -year : year), 4);
    out.push_back('-');
    appendDigits(out, static_cast<unsigned>(date.month()), 2);
    out.push_back('-');
    appendDigits(out, static_cast<unsigned>(date.day()), 2);
    out.push_back('T');
    appendDigits(out, secondOfDay / 3600, 2);
    out.push_back(':');
    appendDigits(out, secondOfDay / 60 % 60, 2);
    out.push_back(':');
    appendDigits(out, secondOfDay % 60, 2);
    out.push_back('.');
    appendDigits(out, ns, 9);
    out.push_back('Z');
}

bool isoTimeRepresentable(double unixSeconds) noexcept
{
    return std::isfinite(unixSeconds) && std::fabs(unixSeconds) <= kMaxIsoSeconds;
}

void appendIsoTimeSeconds(std::string& out, double unixSeconds)
{
    if (!isoTimeRepresentable(unixSeconds)) {
        appendDouble(out, unixSeconds);
        return;
    }
    // Whole seconds and the fraction apart: seconds * 1e9 as one double would round to ~256 ns.
    auto seconds = static_cast<std::int64_t>(std::floor(unixSeconds));
    auto ns = static_cast<std::int64_t>(std::llround((unixSeconds - static_cast<double>(seconds)) * 1e9));
    if (ns >= kNsPerSecond) {
        ++seconds;
        ns -= kNsPerSecond;
    }
    appendIsoTime(out, seconds * kNsPerSecond + ns);
}

void appendUnsigned(std::string& out, std::uint64_t value) { appendInteger(out, value); }
void appendSigned(std::string& out, std::int64_t value) { appendInteger(out, value); }

void appendDouble(std::string& out, double value)
{
    if (std::isnan(value)) {
        out += "nan";
        return;
    }
    if (std::isinf(value)) {
        out += value < 0 ? "-inf" : "inf";
        return;
    }
    char buf[32];
    const auto [end, ec] = std::to_chars(buf, buf + sizeof buf, value);
    (void)ec; // the shortest form of a double takes at most 24 characters
    out.append(buf, end);
}

void appendHex(std::string& out, std::span<const std::uint8_t> bytes)
{
    appendFieldHex(out, ByteField{bytes, 0, static_cast<std::uint32_t>(8 * bytes.size())});
}

void appendCsvField(std::string& out, std::string_view text)
{
    // One pass (fields are short: four memchr calls cost more than the scan).
    const bool quote = std::any_of(text.begin(), text.end(),
                                   [](char c) { return c == ',' || c == '"' || c == '\r' || c == '\n'; });
    if (!quote) {
        out += text;
        return;
    }
    out.push_back('"');
    for (const char c : text) {
        if (c == '"')
            out.push_back('"');
        out.push_back(c);
    }
    out.push_back('"');
}

void appendJsonString(std::string& out, std::string_view text)
{
    static constexpr char kDigits[] = "0123456789abcdef";
    out.push_back('"');
    for (std::size_t i = 0; i < text.size();) {
        const auto c = static_cast<unsigned char>(text[i]);
        if (c >= 0x80) {
            if (const std::size_t n = utf8Length(text, i); n != 0) {
                out.append(text.substr(i, n));
                i += n;
            } else {
                out += "\\ufffd";
                ++i;
            }
            continue;
        }
        switch (c) {
        case '"': out += "\\\""; break;
        case '\\': out += "\\\\"; break;
        case '\n': out += "\\n"; break;
        case '\r': out += "\\r"; break;
        case '\t': out += "\\t"; break;
        default:
            if (c < 0x20 || c == 0x7F) {
                out += "\\u00";
                out.push_back(kDigits[c >> 4]);
                out.push_back(kDigits[c & 0xF]);
            } else {
                out.push_back(static_cast<char>(c));
            }
        }
        ++i;
    }
    out.push_back('"');
}

ValueFormat valueFormat(const mdb::ParameterDef& parameter, std::uint32_t index, const decode::DecodePlan& plan)
{
    ValueFormat f;
    f.index = index;
    f.type = parameter.type;
    if (mdb::isByteSequence(parameter.type))
        return f;
    using C = ValueFormat::Calibrated;
    if (plan.isTime(index))
        f.calibrated = C::Time;
    else if (std::holds_alternative<mdb::EnumerationCalibrator>(parameter.calibrator))
        f.calibrated = C::State;
    else if (!std::holds_alternative<std::monostate>(parameter.calibrator) || !parameter.contextCalibrators.empty())
        f.calibrated = C::Number;
    return f;
}

ByteField locateBytes(const decode::DecodePlan& plan, std::span<const std::uint8_t> packet, std::uint32_t index)
{
    const auto at = plan.locate(packet, index);
    if (!at.present)
        return ByteField{packet, 0, 0};
    return ByteField{packet, at.bitOffset, at.bitLength};
}

void appendRaw(std::string& out, const ValueFormat& format, const decode::DecodedValue& value, const ByteField& field)
{
    if (mdb::isByteSequence(format.type))
        appendFieldHex(out, field);
    else
        appendUnsigned(out, value.raw);
}

void appendConverted(std::string& out, const ValueFormat& format, const decode::DecodedValue& value,
                     const ByteField& field)
{
    switch (format.type) {
    case mdb::DataType::UnsignedInt: appendUnsigned(out, value.converted.u); return;
    case mdb::DataType::SignedInt:
    case mdb::DataType::SignMagnitudeInt:
    case mdb::DataType::OnesComplementInt: appendSigned(out, value.converted.i); return;
    case mdb::DataType::Float: appendDouble(out, value.converted.f); return;
    case mdb::DataType::String: appendFieldText(out, field); return;
    case mdb::DataType::Bytes: appendFieldHex(out, field); return;
    }
}

bool convertedMayNeedQuoting(const ValueFormat& format) noexcept
{
    return format.type == mdb::DataType::String; // numbers and hex never hold , " CR LF
}

bool calibratedMayNeedQuoting(const ValueFormat& format) noexcept
{
    switch (format.calibrated) {
    case ValueFormat::Calibrated::SameAsConverted: return convertedMayNeedQuoting(format);
    case ValueFormat::Calibrated::State: return true;
    case ValueFormat::Calibrated::Number:
    case ValueFormat::Calibrated::Time: return false;
    }
    return true;
}

void appendCalibrated(std::string& out, const ValueFormat& format, const decode::DecodedValue& value,
                      const ByteField& field, const decode::DecodePlan& plan)
{
    switch (format.calibrated) {
    case ValueFormat::Calibrated::SameAsConverted: appendConverted(out, format, value, field); return;
    case ValueFormat::Calibrated::Number: appendDouble(out, value.calibrated); return;
    case ValueFormat::Calibrated::State: out += plan.stateText(format.index, value); return;
    case ValueFormat::Calibrated::Time: appendIsoTimeSeconds(out, value.calibrated); return;
    }
}

JsonKind rawJsonKind(const ValueFormat& format)
{
    return mdb::isByteSequence(format.type) ? JsonKind::String : JsonKind::Number;
}

JsonKind convertedJsonKind(const ValueFormat& format, const decode::DecodedValue& value)
{
    if (mdb::isByteSequence(format.type))
        return JsonKind::String;
    if (isFloat(format) && !std::isfinite(value.converted.f))
        return JsonKind::Null;
    return JsonKind::Number;
}

JsonKind calibratedJsonKind(const ValueFormat& format, const decode::DecodedValue& value)
{
    switch (format.calibrated) {
    case ValueFormat::Calibrated::SameAsConverted: return convertedJsonKind(format, value);
    case ValueFormat::Calibrated::Number: return std::isfinite(value.calibrated) ? JsonKind::Number : JsonKind::Null;
    case ValueFormat::Calibrated::State: return value.state >= 0 ? JsonKind::String : JsonKind::Null;
    case ValueFormat::Calibrated::Time:
        if (isoTimeRepresentable(value.calibrated))
            return JsonKind::String;
        return std::isfinite(value.calibrated) ? JsonKind::Number : JsonKind::Null;
    }
    return JsonKind::Null;
}

} // namespace telestation::archive
