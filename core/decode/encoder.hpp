// EncodePlan: the decoder's inverse. Compiled once from a packet definition; writes parameter values
// into packet bytes so that DecodePlan reads them back: raw bits, converted values (rounded and
// clamped to what the field holds), calibrated values (through the inverse of the calibrator where it
// is monotonic), enumeration states, and string/byte contents. The simulator's generators and the
// tests build packets with it. No allocation per call.
#pragma once

#include "core/common/result.hpp"
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
    // NUL bytes. No-op for other types.
    void setBytes(std::span<std::uint8_t> packet, std::size_t index, std::span<const std::uint8_t> bytes) const noexcept;
    void setString(std::span<std::uint8_t> packet, std::size_t index, std::string_view text) const noexcept;

    // Whether convertedForCalibrated can invert this parameter's calibration.
    [[nodiscard]] bool invertible(std::size_t index) const noexcept;
    // The range of converted values the field can hold (e.g. 0..255 for an 8-bit unsigned field;
    // +-FLT_MAX / +-DBL_MAX for floats), for generators that stay within it.
    [[nodiscard]] double minConverted(std::size_t index) const noexcept;
    [[nodiscard]] double maxConverted(std::size_t index) const noexcept;

private:
    struct Field;
    std::vector<Field> m_fields; // defined in encoder.cpp
    // ... further private members as the implementation needs
};

} // namespace telestation::decode
