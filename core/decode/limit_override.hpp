// LimitOverride: an operator's limits for one parameter in place of the mission database's (a station
// profile's `limits`), applied after decoding to the value's limit state. Disabled: no checking at all
// (state None). Enabled: numeric bands on the calibrated value, an absent bound being ±infinity. Plain
// data, trivially copyable; evaluated only for the parameters that have one.
#pragma once

#include "core/decode/decoded_value.hpp"

#include <cstdint>
#include <limits>

namespace telestation::decode {

struct LimitOverride {
    static constexpr double kInf = std::numeric_limits<double>::infinity();
    std::uint32_t index = 0; // the parameter's index in its packet definition
    bool enabled = true;
    double redLow = -kInf, yellowLow = -kInf, yellowHigh = kInf, redHigh = kInf;

    [[nodiscard]] LimitState evaluate(const DecodedValue& v) const noexcept
    {
        if (!enabled)
            return LimitState::None;
        const double x = v.calibrated;
        if (x != x)
            return LimitState::Invalid;
        if (x < redLow)
            return LimitState::RedLow;
        if (x > redHigh)
            return LimitState::RedHigh;
        if (x < yellowLow)
            return LimitState::YellowLow;
        if (x > yellowHigh)
            return LimitState::YellowHigh;
        return LimitState::Normal;
    }
};

} // namespace telestation::decode
