// EncodePlan: the decoder's inverse. Compiled once from a packet definition; writes parameter values
// into packet bytes so that DecodePlan reads them back: raw bits, converted values (rounded and
// clamped to what the field holds), calibrated values (through the inverse of the calibrator where it
// is monotonic), enumeration states, and string/byte contents. The simulator's generators and the
// tests build packets with it. No allocation per call.
#pragma once

#include "core/common/result.hpp"
#include "core/decode/decode_plan.hpp"
#include "core/mdb/model.hpp"

#include <cstddef>
#include <cstdint>
#include <span>
#include <string_view>
#include <vector>

namespace telestation::decode {

class EncodePlan {
public:
    // Fails on a definition the decoder would also refuse (DecodePlan::compile's rules).
    [[nodiscard]] static Result<EncodePlan> compile(const mdb::PacketDef& packet);

    [[nodiscard]] std::size_t parameterCount() const noexcept;

    // Writes the raw bits of parameter `index` (what DecodedValue::raw reads back; for String/Bytes the
    // first min(8, length) bytes, right-aligned). Little-endian fields are byte-reversed as the decoder
    // expects. Bits beyond the field's width are ignored. Other bits of the packet are left unchanged.
    void setRaw(std::span<std::uint8_t> packet, std::size_t index, std::uint64_t raw) const noexcept;

    // The raw bits that represent a converted value: integers rounded to nearest and clamped to the
    // field's range (unsigned 0..2^n-1, signed -2^(n-1)..2^(n-1)-1); float32/float64 as IEEE bits
    // (float32 rounded to nearest). NaN → 0 for integers. Not for String/Bytes (returns 0).
    [[nodiscard]] std::uint64_t rawForConverted(std::size_t index, double converted) const noexcept;

    // The converted value whose calibrated value is `calibrated`: the identity without a calibrator;
    // the inverse of a polynomial over the field's range where the polynomial is monotonic there
    // (solved numerically: bisection + Newton, to double precision); the inverse of a point-pair table
    // whose calibrated values are strictly monotonic (extrapolating like the decoder outside it).
    // Values the calibration cannot reach are clamped to the nearest reachable one. Returns false when
    // the calibrator is not invertible (not monotonic, or an enumeration): then `converted` is unchanged.
    [[nodiscard]] bool convertedForCalibrated(std::size_t index, double calibrated, double& converted) const noexcept;

    // Convenience: setRaw(rawForConverted(...)) and setRaw(rawForConverted(convertedForCalibrated(...))).
    void setConverted(std::span<std::uint8_t> packet, std::size_t index, double converted) const noexcept;
    bool setCalibrated(std::span<std::uint8_t> packet, std::size_t index, double calibrated) const noexcept;

    // Enumerations: writes the code of state `stateIndex` (the low end of its range). False when the
    // parameter has no enumeration or the index is out of range.
    bool setState(std::span<std::uint8_t> packet, std::size_t index, std::size_t stateIndex) const noexcept;
    [[nodiscard]] std::size_t stateCount(std::size_t index) const noexcept; // 0 without an enumeration

    // String/Bytes: copies min(bytes.size(), field length) bytes and pads the rest of the field with
    // NUL bytes. No-op for other types. A string ended by a terminator or preceded by its count takes
    // the text's length (up to its bound and the packet's end) and writes the terminator or count too;
    // a field sized by another parameter has the size that parameter gives (write that one first).
    //
    // Variable layouts: a parameter after one whose size or presence depends on the data is placed
    // where the decoder finds it in the bytes written so far, so write parameters in order.
    void setBytes(std::span<std::uint8_t> packet, std::size_t index, std::span<const std::uint8_t> bytes) const noexcept;
    void setString(std::span<std::uint8_t> packet, std::size_t index, std::string_view text) const noexcept;

    // Whether convertedForCalibrated can invert this parameter's calibration.
    [[nodiscard]] bool invertible(std::size_t index) const noexcept;
    // The range of converted values the field can hold (e.g. 0..255 for an 8-bit unsigned field;
    // +-FLT_MAX / +-DBL_MAX for floats), for generators that stay within it.
    [[nodiscard]] double minConverted(std::size_t index) const noexcept;
    [[nodiscard]] double maxConverted(std::size_t index) const noexcept;

private:
    enum : std::uint8_t { kLittleEndian = 1, kInvertible = 2, kIncreasing = 4, kVariable = 8 };
    enum class CalKind : std::uint8_t { None, Polynomial, PointPair, Enumeration };

    // One parameter: where its bits go (as DecodePlan reads them) and how to invert its calibration.
    // Defined here rather than in encoder.cpp so that EncodePlan keeps its implicit copy and move.
    struct Field {
        std::uint32_t bitOffset = 0;
        std::uint32_t endByte = 0;      // one past the field's last byte
        std::uint32_t bytesLength = 0;  // String/Bytes: the length in bytes; 0 otherwise
        std::uint32_t calIndex = 0;     // into m_polys / m_tables / m_stateRanges
        std::uint8_t bitLength = 0;     // value bits, 1..64 (String/Bytes: 8 * min(8, bytes))
        std::uint8_t byteCount = 0;     // bytes reversed for a little-endian field
        mdb::DataType type = mdb::DataType::UnsignedInt;
        std::uint8_t flags = 0;
        CalKind calKind = CalKind::None;
        double minConverted = 0;        // what the field holds
        double maxConverted = 0;
        // The converted values over which the calibrator is inverted: the field's range, for a
        // polynomial narrowed to where its value stays finite (see encoder.cpp).
        double lo = 0;
        double hi = 0;
        mdb::SizeKind sizeKind = mdb::SizeKind::Fixed;
        std::uint8_t leadingSizeBits = 0;
        std::uint8_t terminator = 0;
        std::uint32_t maxBytes = 0;
    };
    // A polynomial as the decoder evaluates it (Horner over `count` coefficients) and its derivative.
    struct Poly {
        double c[6] = {};
        double d[5] = {};
        std::uint32_t count = 0;  // as defined, trailing zeros included
        std::uint32_t degree = 0; // highest power with a non-zero coefficient
        double yLo = 0;           // p(lo), p(hi) of the field's inversion range
        double yHi = 0;
        double slopeInverse = 0;  // degree 1: 1 / c[1]
        // Degree >= 2: knots (x, sign * p(x)) across the range, strictly increasing in both, where
        // sign makes the values increase; they give the solver a narrow starting bracket.
        std::uint32_t knotFirst = 0;
        std::uint32_t knotCount = 0;
    };
    struct Range {
        std::uint32_t first = 0;
        std::uint32_t count = 0;
    };

    void compilePolynomial(Field& f, const std::vector<double>& coefficients);
    void addKnots(Poly& q, double lo, double hi, double sign);
    [[nodiscard]] double calibrate(const Field& f, double x) const noexcept;
    [[nodiscard]] double solvePolynomial(const Field& f, const Poly& p, double y) const noexcept;
    [[nodiscard]] double nearestRepresentable(const Field& f, double x, double y) const noexcept;
    [[nodiscard]] bool invert(const Field& f, double calibrated, double& converted) const noexcept;
    [[nodiscard]] static std::uint64_t rawFor(const Field& f, double converted) noexcept;
    static void writeRaw(std::span<std::uint8_t> packet, const Field& f, std::uint64_t raw) noexcept;
    // The field as it lies in this packet: itself in the fixed part; in the variable part, placed by
    // the decoder (endByte past any packet when it is absent).
    [[nodiscard]] Field placed(std::span<const std::uint8_t> packet, std::size_t index) const noexcept;
    void writeCountedString(std::span<std::uint8_t> packet, const Field& f, std::uint64_t start,
                            std::span<const std::uint8_t> bytes) const noexcept;

    DecodePlan m_decoder; // places the variable part

    std::vector<Field> m_fields;
    std::vector<Poly> m_polys;
    std::vector<double> m_knotX;             // polynomial knots, into which Poly::knotFirst points
    std::vector<double> m_knotValue;         // sign * p(x) at each knot
    std::vector<Range> m_tables;             // point-pair tables, into m_points
    std::vector<mdb::PointPair> m_points;
    std::vector<Range> m_stateRanges;        // enumerations, into m_stateCodes
    std::vector<std::uint64_t> m_stateCodes; // the raw bits to write for each state
    std::vector<std::uint8_t> m_stateWritable; // parallel to m_stateCodes: 0 = no code the field holds
};

} // namespace telestation::decode
