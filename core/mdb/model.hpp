// The mission database model: every packet type and parameter a mission defines. Plain value types;
// the SQLite store (sqlite_store.hpp) and the text definition format (text_format.hpp) read and write
// it, validate.hpp checks it, and core/decode compiles decode plans from it.
//
// Conventions (see docs/mission-database.md):
//  - Bit offsets count from the first bit of the packet (the most significant bit of the first byte of
//    the CCSDS primary header) and grow towards the end of the packet.
//  - A packet's length includes the 6-byte primary header.
//  - A parameter's qualified name is "PACKET.PARAMETER"; parameter names are unique within a packet.
//    Packet names never contain '.', so the first '.' of a qualified name ends the packet's name.
//  - A packet's layout is fixed when every parameter is at an absolute bit offset with a fixed size;
//    it is variable from the first parameter whose size comes from the packet's data (FieldSize), or
//    that is present only under a condition (includeWhen). Parameters after such a parameter are
//    placed relative to the end of the parameter before them (Placement::AfterPrevious).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

namespace telestation::mdb {

enum class ByteOrder : std::uint8_t { BigEndian, LittleEndian };

// The encoding of a parameter's bits. New values are appended: the SQLite store keeps keywords, but
// code elsewhere may rely on the order of the first five.
enum class DataType : std::uint8_t {
    UnsignedInt,       // 1..64 bits
    SignedInt,         // 1..64 bits, two's complement
    Float,             // IEEE 754: 32 (float32) or 64 (float64) bits
    String,            // a whole number of bytes; NUL padding is trimmed when shown
    Bytes,             // raw bytes, a whole number of bytes (or, sized by another parameter, any bits)
    SignMagnitudeInt,  // 2..64 bits: the first bit is the sign, the rest the magnitude
    OnesComplementInt, // 2..64 bits: negative values are the bitwise complement of the magnitude
};

[[nodiscard]] constexpr bool isInteger(DataType t)
{
    return t == DataType::UnsignedInt || t == DataType::SignedInt || t == DataType::SignMagnitudeInt
        || t == DataType::OnesComplementInt;
}
[[nodiscard]] constexpr bool isSignedInteger(DataType t) { return isInteger(t) && t != DataType::UnsignedInt; }
[[nodiscard]] constexpr bool isByteSequence(DataType t) { return t == DataType::String || t == DataType::Bytes; }

// Comparison operators of packet criteria and conditions.
enum class CompareOp : std::uint8_t { Equal, NotEqual, Less, LessOrEqual, Greater, GreaterOrEqual };

// `a OP b`: the one evaluation of a CompareOp, for the router's raw bits and the decoder's numbers.
template <typename T>
[[nodiscard]] constexpr bool compare(const T& a, CompareOp op, const T& b) noexcept
{
    switch (op) {
    case CompareOp::Equal: return a == b;
    case CompareOp::NotEqual: return a != b;
    case CompareOp::Less: return a < b;
    case CompareOp::LessOrEqual: return a <= b;
    case CompareOp::Greater: return a > b;
    case CompareOp::GreaterOrEqual: return a >= b;
    }
    return false;
}

// c0 + c1*x + c2*x^2 + ... ; 1 to 6 coefficients (up to 5th order), x = the converted value.
struct PolynomialCalibrator {
    std::vector<double> coefficients;
    friend bool operator==(const PolynomialCalibrator&, const PolynomialCalibrator&) = default;
};

struct PointPair {
    double raw = 0;
    double calibrated = 0;
    friend bool operator==(const PointPair&, const PointPair&) = default;
};

// Piecewise-linear table; at least 2 points with strictly increasing raw values. Between points the
// value is interpolated; outside the table it is extrapolated from the nearest segment.
struct PointPairCalibrator {
    std::vector<PointPair> points;
    friend bool operator==(const PointPairCalibrator&, const PointPairCalibrator&) = default;
};

// One state of an enumeration: the converted integer values low..high (inclusive; low == high for a
// single code) map to text.
struct State {
    std::int64_t low = 0;
    std::int64_t high = 0;
    std::string text;
    friend bool operator==(const State&, const State&) = default;
};

struct EnumerationCalibrator {
    std::vector<State> states;
    friend bool operator==(const EnumerationCalibrator&, const EnumerationCalibrator&) = default;
};

// An absolute time (XTCE AbsoluteTimeParameterType): the converted value x counts time since an
// epoch; the calibrated value is seconds since the Unix epoch = epochUnixSeconds + offset + scale * x.
// A CUC time of 4 coarse and 2 fine bytes read as one 48-bit unsigned integer has scale 2^-16.
// Displays show the calibrated value as a UTC date and time.
struct TimeCalibrator {
    double epochUnixSeconds = 0; // e.g. -378691200 for 1958-01-01 (TAI epoch, leap seconds ignored)
    double scale = 1;            // seconds per unit of x
    double offset = 0;           // seconds
    friend bool operator==(const TimeCalibrator&, const TimeCalibrator&) = default;
};

// Named epochs, as Unix seconds (UTC, leap seconds ignored as everywhere in Telestation).
inline constexpr double kEpochTai1958 = -378691200.0;   // 1958-01-01T00:00:00
inline constexpr double kEpochGps1980 = 315964800.0;    // 1980-01-06T00:00:00
inline constexpr double kEpochUnix1970 = 0.0;           // 1970-01-01T00:00:00
inline constexpr double kEpochJ2000 = 946727935.816;    // 2000-01-01T12:00:00 TT = 11:58:55.816 UTC

using Calibrator =
    std::variant<std::monostate, PolynomialCalibrator, PointPairCalibrator, EnumerationCalibrator, TimeCalibrator>;

// "Parameter OP value": compares another parameter of the same packet, which must come before the
// parameter the condition belongs to. Integers compare exactly as long as |value| < 2^53.
struct Condition {
    std::string parameter;     // a parameter name in the same packet
    CompareOp op = CompareOp::Equal;
    double value = 0;
    bool calibrated = false;   // compare the calibrated value (false: the converted value)
    friend bool operator==(const Condition&, const Condition&) = default;
};

// A calibrator that applies while every condition holds (XTCE ContextCalibrator). The first context
// whose conditions all hold wins; when none does, ParameterDef::calibrator applies.
struct ContextCalibration {
    std::vector<Condition> when; // at least one
    Calibrator calibrator;       // not an enumeration
    friend bool operator==(const ContextCalibration&, const ContextCalibration&) = default;
};

// Limits on the calibrated value (the converted value where there is no calibrator).
// Must satisfy redLow <= yellowLow <= yellowHigh <= redHigh; an open side is -inf / +inf (XTCE alarm
// ranges need not be two-sided, nor define both levels). A value v is
//   red low  if v < redLow;  yellow low  if v < yellowLow;
//   red high if v > redHigh; yellow high if v > yellowHigh;  otherwise within limits.
struct NumericLimits {
    double redLow = 0;
    double yellowLow = 0;
    double yellowHigh = 0;
    double redHigh = 0;
    bool enabled = true;
    friend bool operator==(const NumericLimits&, const NumericLimits&) = default;
};

// Limits for an enumeration: the states that are expected; any other state (or a code that maps to no
// state) is an unexpected state.
struct StateLimits {
    std::vector<std::string> expectedStates;
    bool enabled = true;
    friend bool operator==(const StateLimits&, const StateLimits&) = default;
};

using Limits = std::variant<std::monostate, NumericLimits, StateLimits>;

// Another name of a packet or parameter in a naming system of the mission (XTCE AliasSet).
struct Alias {
    std::string nameSpace;
    std::string alias;
    friend bool operator==(const Alias&, const Alias&) = default;
};

// How the size of a field is known.
enum class SizeKind : std::uint8_t {
    Fixed,         // bitLength bits
    FromParameter, // sizeSlope * value(sizeParameter) + sizeIntercept bits (XTCE DynamicValue)
    Terminated,    // String: bytes up to the first `terminator` byte, which ends the field and is not
                   // part of the value (or up to maxBytes / the end of the packet when none comes)
    LeadingSize,   // String: an unsigned count of bytes in `leadingSizeBits` bits, then the bytes
};

struct FieldSize {
    SizeKind kind = SizeKind::Fixed;
    std::string sizeParameter;   // FromParameter: an earlier integer parameter of the same packet
    double sizeSlope = 1;        // FromParameter: bits = slope * value + intercept (rounded down, >= 0)
    double sizeIntercept = 0;
    std::uint8_t terminator = 0; // Terminated
    std::uint8_t leadingSizeBits = 0; // LeadingSize: 1..32
    std::uint32_t maxBytes = 0;  // variable sizes: the most bytes the value may take; 0 = no bound but the packet
    friend bool operator==(const FieldSize&, const FieldSize&) = default;
};

enum class Placement : std::uint8_t {
    Absolute,      // bitOffset counts from the packet's first bit
    AfterPrevious, // bitOffset counts from the end of the previous parameter in the list (may be 0)
};

struct ParameterDef {
    std::string name;
    std::uint32_t bitOffset = 0;
    std::uint32_t bitLength = 0; // a fixed size; 0 for the other size kinds
    DataType type = DataType::UnsignedInt;
    Placement placement = Placement::Absolute;
    FieldSize size;              // Fixed unless the field's size comes from the packet's data
    std::vector<Condition> includeWhen; // empty: always present; else present when all hold
    // Empty: the packet's default byte order. Little-endian fields are a whole number of bytes
    // (their bit offset may be unaligned), or fit within one byte where byte order does not matter.
    std::optional<ByteOrder> byteOrder;
    std::string units;
    std::string description;     // short, one line
    std::string longDescription; // any length
    std::string path;            // where it comes from in an XTCE space system tree, e.g. "/JPSS/ADGPSPOSX"; may be empty
    std::vector<Alias> aliases;
    bool overlapAllowed = false; // overlapping another parameter is intended (no warning)
    Calibrator calibrator;
    std::vector<ContextCalibration> contextCalibrators; // tried in order before `calibrator`
    Limits limits;
    friend bool operator==(const ParameterDef&, const ParameterDef&) = default;

    [[nodiscard]] bool fixedSize() const { return size.kind == SizeKind::Fixed; }
};

// A condition on raw bits at a fixed place of the packet, for telling packet types apart (XTCE
// RestrictionCriteria): the bitLength bits at bitOffset, as an unsigned integer, OP value.
struct FieldCriterion {
    std::uint32_t bitOffset = 0;
    std::uint32_t bitLength = 0; // 1..64
    CompareOp op = CompareOp::Equal;
    std::uint64_t value = 0;
    friend bool operator==(const FieldCriterion&, const FieldCriterion&) = default;
};

// A field in the packet whose value tells packet types apart that share an APID.
struct SecondaryId {
    std::uint32_t bitOffset = 0;
    std::uint32_t bitLength = 0; // 1..64
    std::uint64_t value = 0;
    friend bool operator==(const SecondaryId&, const SecondaryId&) = default;
};

enum class TimeEpoch : std::uint8_t {
    Tai1958, // CCSDS recommended epoch 1958-01-01 TAI
    Gps1980, // 1980-01-06
    Unix1970 // 1970-01-01
};

// A secondary header carrying CCSDS unsegmented time code (CUC), right after the primary header:
// an optional 1-byte P-field, then coarseBytes of seconds and fineBytes of binary fraction.
struct CucLayout {
    std::uint8_t coarseBytes = 4; // 1..4
    std::uint8_t fineBytes = 2;   // 0..3
    bool hasPField = false;
    TimeEpoch epoch = TimeEpoch::Tai1958;
    friend bool operator==(const CucLayout&, const CucLayout&) = default;

    [[nodiscard]] std::uint32_t sizeBytes() const { return (hasPField ? 1u : 0u) + coarseBytes + fineBytes; }
};

struct PacketDef {
    std::string name;
    std::uint16_t apid = 0; // 0..2047
    std::optional<SecondaryId> secondaryId;
    // Further conditions a packet must meet to be of this type (all of them). Among the types of an
    // APID, those with more conditions (the secondary id counts as one) are tried first.
    std::vector<FieldCriterion> criteria;
    // Fixed length: length is the packet's size in bytes. Variable length: packets are between
    // length (the minimum) and maxLength bytes; parameters past the end of a shorter packet are absent.
    std::uint32_t length = 0;
    bool variableLength = false;
    std::uint32_t maxLength = 0; // variable length only; 0 for a fixed-length packet
    ByteOrder byteOrder = ByteOrder::BigEndian;
    std::string description;     // short, one line
    std::string longDescription;
    std::string path;            // XTCE: the container's path, e.g. "/IDEX/Sci0TypeZero"; may be empty
    std::vector<Alias> aliases;
    std::optional<CucLayout> secondaryHeader;
    std::vector<ParameterDef> parameters;
    friend bool operator==(const PacketDef&, const PacketDef&) = default;

    // True when some parameter's place or size depends on the packet's data.
    [[nodiscard]] bool variableLayout() const
    {
        for (const auto& p : parameters)
            if (!p.fixedSize() || !p.includeWhen.empty() || p.placement != Placement::Absolute)
                return true;
        return false;
    }
};

struct MissionDatabase {
    std::string name; // the mission's name; may be empty
    std::vector<PacketDef> packets;
    friend bool operator==(const MissionDatabase&, const MissionDatabase&) = default;

    [[nodiscard]] const PacketDef* findPacket(std::string_view packetName) const
    {
        for (const auto& p : packets)
            if (p.name == packetName)
                return &p;
        return nullptr;
    }
    [[nodiscard]] std::size_t parameterCount() const
    {
        std::size_t n = 0;
        for (const auto& p : packets)
            n += p.parameters.size();
        return n;
    }
};

[[nodiscard]] inline ByteOrder effectiveByteOrder(const PacketDef& packet, const ParameterDef& parameter)
{
    return parameter.byteOrder.value_or(packet.byteOrder);
}

} // namespace telestation::mdb
