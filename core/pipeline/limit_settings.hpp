// Operators' limits (a station profile's `limits`, changed live from the GUI) → what the processor
// applies after decoding: a list of decode::LimitOverride per packet type. Also the limits in effect
// for a parameter, as numbers and in words, for events and the audit trail. Internal to core/pipeline.
#pragma once

#include "core/common/result.hpp"
#include "core/config/station_profile.hpp"
#include "core/decode/limit_override.hpp"
#include "core/pipeline/packet_types.hpp"

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace telestation::pipeline {

// Checks a setting against the mission (the parameter exists; numeric bounds only on a numeric
// parameter without an enumeration) and translates it.
[[nodiscard]] Result<decode::LimitOverride> toLimitOverride(const config::LimitSetting& setting,
                                                            const PacketTypeTable& types);
// Every setting translated into overrides per type index; every problem listed, one line each.
[[nodiscard]] Status translateLimits(const std::vector<config::LimitSetting>& settings, const PacketTypeTable& types,
                                     std::vector<std::vector<decode::LimitOverride>>& perType);

// An operator's change, live: replaces the profile's setting for the parameter (or adds one), or with
// `setting` empty removes it (the mission database's limits apply again). Takes the settings' mutex.
struct LiveSettings;
[[nodiscard]] Status applyLimitSetting(LiveSettings& settings, const PacketTypeTable& types, std::string_view parameter,
                                       const std::optional<config::LimitSetting>& setting);

// The limits in effect for a parameter: the operator's setting if `settings` has one, else the
// mission database's.
struct EffectiveLimits {
    enum class Kind { None, Numeric, States } kind = Kind::None;
    bool enabled = false;
    bool fromProfile = false; // an operator's setting, not the mission database's
    double redLow = -decode::LimitOverride::kInf, yellowLow = -decode::LimitOverride::kInf;
    double yellowHigh = decode::LimitOverride::kInf, redHigh = decode::LimitOverride::kInf;
    std::vector<std::string> expectedStates;
};
[[nodiscard]] EffectiveLimits effectiveLimits(const PacketTypeTable& types, std::uint32_t parameterId,
                                              const std::vector<config::LimitSetting>& settings);
// "yellow 10 .. 80, red 0 .. 95", "disabled", "none", "expected: NOMINAL, SAFE".
[[nodiscard]] std::string describeLimits(const EffectiveLimits& limits);

} // namespace telestation::pipeline
