// The mission database model: every packet type and parameter a mission defines. Plain value types;
// the SQLite store (sqlite_store.hpp) and the text definition format (text_format.hpp) read and write
// it, validate.hpp checks it, and core/decode compiles decode plans from it.
//
// Conventions (see docs/mission-database.md):
//  - Bit offsets count from the first bit of the packet (the most significant bit of the first byte of
//    the CCSDS primary header) and grow towards the end of the packet.
//  - A packet's length includes the 6-byte primary header.
//  - A parameter's qualified name is "PACKET.PARAMETER"; parameter names are unique within a packet.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

namespace telestation::mdb {

enum class ByteOrder : std::uint8_t { BigEndian, LittleEndian };

enum class DataType : std::uint8_t {
    UnsignedInt, // 1..64 bits
    SignedInt,   // 1..64 bits, two's complement
    Float,       // IEEE 754: 32 (float32) or 64 (float64) bits
    String,      // fixed length, a whole number of bytes; NUL padding is trimmed when shown
    Bytes,       // raw bytes, a whole number of bytes
};

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

using Calibrator =
    std::variant<std::monostate, PolynomialCalibrator, PointPairCalibrator, EnumerationCalibrator>;

// Limits on the calibrated value (the converted value where there is no calibrator).
// Must satisfy redLow <= yellowLow <= yellowHigh <= redHigh. A value v is
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

struct ParameterDef {
    std::string name;
    std::uint32_t bitOffset = 0;
    std::uint32_t bitLength = 0;
    DataType type = DataType::UnsignedInt;
    // Empty: the packet's default byte order. Little-endian fields are a whole number of bytes
    // (their bit offset may be unaligned), or fit within one byte where byte order does not matter.
    std::optional<ByteOrder> byteOrder;
    std::string units;
    std::string description;
    bool overlapAllowed = false; // overlapping another parameter is intended (no warning)
    Calibrator calibrator;
    Limits limits;
    friend bool operator==(const ParameterDef&, const ParameterDef&) = default;
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
    // Fixed length: length is the packet's size in bytes. Variable length: packets are between
    // length (the minimum) and maxLength bytes; parameters past the end of a shorter packet are absent.
    std::uint32_t length = 0;
    bool variableLength = false;
    std::uint32_t maxLength = 0; // variable length only; 0 for a fixed-length packet
    ByteOrder byteOrder = ByteOrder::BigEndian;
    std::string description;
    std::optional<CucLayout> secondaryHeader;
    std::vector<ParameterDef> parameters;
    friend bool operator==(const PacketDef&, const PacketDef&) = default;
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
