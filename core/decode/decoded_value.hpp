// The result of decoding one parameter of one packet: raw, converted and calibrated value, limit state.
#pragma once

#include <cstdint>
#include <string_view>

namespace telestation::decode {

enum class LimitState : std::uint8_t {
    None,       // no limits defined, or the limit set is disabled
    Normal,     // within limits / an expected state
    YellowLow,
    YellowHigh,
    RedLow,
    RedHigh,
    Unexpected, // an enumeration in a state that is not expected (or a code with no state)
    Invalid,    // the value is not a number
};

[[nodiscard]] std::string_view limitStateName(LimitState state) noexcept;

// The converted value, interpreted per the parameter's data type (mdb::DataType):
// UnsignedInt -> u, SignedInt -> i, Float -> f, String/Bytes -> u holds the length in bytes.
union Converted {
    std::uint64_t u;
    std::int64_t i;
    double f;
};

struct DecodedValue {
    std::uint64_t raw = 0;        // the bits as extracted, right-aligned (String/Bytes: their first 8 bytes)
    Converted converted{0};
    double calibrated = 0;        // after the calibrator; without one (and for enumerations) the converted value
    std::int32_t state = -1;      // enumerations: index of the state in the calibrator's table; -1 = no state
    LimitState limit = LimitState::None;
    bool present = false;         // false: the packet was too short to hold this parameter
};

} // namespace telestation::decode
