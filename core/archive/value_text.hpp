// Text forms of decoded values for `telestation-mdb decode`: times as ISO-8601 UTC with a nanosecond
// fraction, doubles in their shortest round-trip form, bytes as hex, CSV quoting and JSON string
// escaping. Every function appends to a caller's std::string, which the writers reuse from packet to
// packet, so that steady-state output does not allocate.
#pragma once

#include "core/decode/decode_plan.hpp"
#include "core/decode/decoded_value.hpp"
#include "core/mdb/model.hpp"

#include <cstdint>
#include <span>
#include <string>
#include <string_view>

namespace telestation::archive {

// "2021-04-09T00:00:00.000000000Z": always nine fraction digits; times before 1970 work too.
void appendIsoTime(std::string& out, std::int64_t unixNs);
// Seconds since the Unix epoch (a time calibrator's value) as appendIsoTime; a value outside the
// range of 64-bit nanoseconds (or NaN) is written as a plain number instead.
void appendIsoTimeSeconds(std::string& out, double unixSeconds);
[[nodiscard]] bool isoTimeRepresentable(double unixSeconds) noexcept;
void appendUnsigned(std::string& out, std::uint64_t value);
void appendSigned(std::string& out, std::int64_t value);
// Shortest text that reads back to the same double ("0.1", "1e+20"); "nan", "inf", "-inf".
void appendDouble(std::string& out, double value);
// Lower-case hex, two digits per byte, no separators.
void appendHex(std::string& out, std::span<const std::uint8_t> bytes);

// A CSV field (RFC 4180): quoted when it holds a comma, a quote, CR or LF; quotes doubled.
void appendCsvField(std::string& out, std::string_view text);
// A JSON string literal with its quotes. Control characters are escaped; bytes that are not valid
// UTF-8 become U+FFFD, so that the output is always valid JSON.
void appendJsonString(std::string& out, std::string_view text);

// How one parameter's three values are shown, worked out once from its definition.
struct ValueFormat {
    std::uint32_t index = 0; // the parameter's index in its packet (and in DecodePlan)
    mdb::DataType type = mdb::DataType::UnsignedInt;
    enum class Calibrated : std::uint8_t {
        SameAsConverted, // no calibrator: the converted value, exactly (integers are not made doubles)
        Number,          // polynomial, point pairs, context calibrators: the calibrated double
        State,           // enumeration: the state's text ("" for a code without a state)
        Time,            // time calibrator: ISO-8601 UTC
    } calibrated = Calibrated::SameAsConverted;
};

[[nodiscard]] ValueFormat valueFormat(const mdb::ParameterDef& parameter, std::uint32_t index,
                                      const decode::DecodePlan& plan);

// Where a String or Bytes parameter's bytes lie in one packet, for the functions below.
struct ByteField {
    std::span<const std::uint8_t> packet;
    std::uint32_t bitOffset = 0;
    std::uint32_t bitLength = 0;
};
[[nodiscard]] ByteField locateBytes(const decode::DecodePlan& plan, std::span<const std::uint8_t> packet,
                                    std::uint32_t index);

// The value texts, without quoting. How each data type is shown:
//   integers: raw = the field's bits as an unsigned decimal; converted = the signed or unsigned value
//   floats:   raw = the IEEE bits as an unsigned decimal; converted = the number
//   strings:  raw = the bytes in hex (NUL padding included); converted = the text without trailing NULs
//   bytes:    raw and converted = the bytes in hex (a partial last byte is padded with zero bits)
// `field` is used for strings and bytes only.
void appendRaw(std::string& out, const ValueFormat& format, const decode::DecodedValue& value, const ByteField& field);
void appendConverted(std::string& out, const ValueFormat& format, const decode::DecodedValue& value,
                     const ByteField& field);
void appendCalibrated(std::string& out, const ValueFormat& format, const decode::DecodedValue& value,
                      const ByteField& field, const decode::DecodePlan& plan);

// Whether the text of a value may hold a comma, quote or line break (so CSV must check it): text and
// enumeration states may; numbers, hex and times never do.
[[nodiscard]] bool convertedMayNeedQuoting(const ValueFormat& format) noexcept;
[[nodiscard]] bool calibratedMayNeedQuoting(const ValueFormat& format) noexcept;

// How a value goes into JSON: a number (integers exactly, finite doubles), a string (text, hex,
// times, states) or null (NaN and infinities, a code without a state).
enum class JsonKind : std::uint8_t { Number, String, Null };
[[nodiscard]] JsonKind rawJsonKind(const ValueFormat& format);
[[nodiscard]] JsonKind convertedJsonKind(const ValueFormat& format, const decode::DecodedValue& value);
[[nodiscard]] JsonKind calibratedJsonKind(const ValueFormat& format, const decode::DecodedValue& value);

} // namespace telestation::archive
