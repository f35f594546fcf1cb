#include "core/pipeline/limit_settings.hpp"

#include "core/pipeline/live_settings.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace telestation::pipeline {

namespace {

const mdb::ParameterDef& definitionOf(const PacketTypeTable& types, std::uint32_t parameterId)
{
    const ParameterInfo& info = types.parameter(parameterId);
    return types.definition(info.typeIndex).parameters[info.indexInPacket];
}

bool numeric(const mdb::ParameterDef& p)
{
    const bool text = p.type == mdb::DataType::String || p.type == mdb::DataType::Bytes;
    return !text && !std::holds_alternative<mdb::EnumerationCalibrator>(p.calibrator);
}

std::string number(double x)
{
    char buf[32];
    std::snprintf(buf, sizeof buf, "%g", x);
    return buf;
}

std::string band(const char* name, double low, double high)
{
    if (std::isinf(low) && std::isinf(high))
        return "";
    std::string out = name;
    out += ' ';
    out += std::isinf(low) ? "…" : number(low);
    out += " .. ";
    out += std::isinf(high) ? "…" : number(high);
    return out;
}

} // namespace

Result<decode::LimitOverride> toLimitOverride(const config::LimitSetting& setting, const PacketTypeTable& types)
{
    const auto id = types.parameterId(setting.parameter);
    if (!id)
        return Error{"limits: no parameter named " + setting.parameter + " in the mission database", {}};
    const mdb::ParameterDef& def = definitionOf(types, *id);
    decode::LimitOverride o;
    o.index = types.parameter(*id).indexInPacket;
    o.enabled = setting.enabled;
    if (!setting.enabled)
        return o;
    if (!numeric(def))
        return Error{"limits: " + setting.parameter
                         + " is not a number (an enumeration or text): its limits can only be disabled",
                     {}};
    // An absent bound never trips; the given ones must be in order.
    o.redLow = setting.redLow.value_or(-decode::LimitOverride::kInf);
    o.yellowLow = setting.yellowLow.value_or(-decode::LimitOverride::kInf);
    o.yellowHigh = setting.yellowHigh.value_or(decode::LimitOverride::kInf);
    o.redHigh = setting.redHigh.value_or(decode::LimitOverride::kInf);
    double previous = -decode::LimitOverride::kInf;
    for (const auto& bound : {setting.redLow, setting.yellowLow, setting.yellowHigh, setting.redHigh}) {
        if (!bound)
            continue;
        if (!std::isfinite(*bound) || *bound < previous)
            return Error{"limits: " + setting.parameter
                             + ": the bounds must be numbers ordered red low <= yellow low <= yellow high <= red high",
                         {}};
        previous = *bound;
    }
    if (!setting.redLow && !setting.yellowLow && !setting.yellowHigh && !setting.redHigh)
        return Error{"limits: " + setting.parameter + " gives no limit (to turn checking off, disable it)", {}};
    return o;
}

Status translateLimits(const std::vector<config::LimitSetting>& settings, const PacketTypeTable& types,
                       std::vector<std::vector<decode::LimitOverride>>& perType)
{
    perType.assign(types.typeCount(), {});
    std::string problems;
    for (const auto& s : settings) {
        auto o = toLimitOverride(s, types);
        if (!o) {
            problems += (problems.empty() ? "" : "\n") + o.error().message;
            continue;
        }
        perType[types.parameter(*types.parameterId(s.parameter)).typeIndex].push_back(*o);
    }
    if (!problems.empty())
        return Error{problems, {}};
    return {};
}

Status applyLimitSetting(LiveSettings& settings, const PacketTypeTable& types, std::string_view parameter,
                         const std::optional<config::LimitSetting>& setting)
{
    if (!types.parameterId(parameter))
        return Error{"limits: no parameter named " + std::string(parameter) + " in the mission database", {}};
    if (setting) {
        if (setting->parameter != parameter)
            return Error{"limits: the setting names " + setting->parameter + ", not " + std::string(parameter), {}};
        if (auto o = toLimitOverride(*setting, types); !o)
            return o.error();
    }
    std::lock_guard lock(settings.mutex);
    auto& limits = settings.profile.limits;
    const auto it = std::find_if(limits.begin(), limits.end(), [&](const auto& l) { return l.parameter == parameter; });
    if (!setting) {
        if (it != limits.end())
            limits.erase(it);
    } else if (it != limits.end()) {
        *it = *setting;
    } else {
        limits.push_back(*setting);
    }
    if (auto st = translateLimits(limits, types, settings.limitOverrides); !st)
        return st; // cannot happen: every setting was checked when it was added
    settings.changed();
    return {};
}

EffectiveLimits effectiveLimits(const PacketTypeTable& types, std::uint32_t parameterId,
                                const std::vector<config::LimitSetting>& settings)
{
    EffectiveLimits e;
    const std::string& name = types.parameter(parameterId).qualifiedName;
    for (const auto& s : settings) {
        if (s.parameter != name)
            continue;
        auto o = toLimitOverride(s, types);
        if (!o)
            break; // refused when set: the mission's limits apply
        e.fromProfile = true;
        e.enabled = o->enabled;
        if (!o->enabled) {
            e.kind = EffectiveLimits::Kind::None;
            return e;
        }
        e.kind = EffectiveLimits::Kind::Numeric;
        e.redLow = o->redLow;
        e.yellowLow = o->yellowLow;
        e.yellowHigh = o->yellowHigh;
        e.redHigh = o->redHigh;
        return e;
    }
    const mdb::ParameterDef& def = definitionOf(types, parameterId);
    if (const auto* n = std::get_if<mdb::NumericLimits>(&def.limits)) {
        e.kind = EffectiveLimits::Kind::Numeric;
        e.enabled = n->enabled;
        e.redLow = n->redLow;
        e.yellowLow = n->yellowLow;
        e.yellowHigh = n->yellowHigh;
        e.redHigh = n->redHigh;
    } else if (const auto* st = std::get_if<mdb::StateLimits>(&def.limits)) {
        e.kind = EffectiveLimits::Kind::States;
        e.enabled = st->enabled;
        e.expectedStates = st->expectedStates;
    }
    return e;
}

std::string describeLimits(const EffectiveLimits& l)
{
    if (l.kind == EffectiveLimits::Kind::None)
        return l.fromProfile ? "disabled" : "none";
    if (!l.enabled)
        return "disabled";
    if (l.kind == EffectiveLimits::Kind::States) {
        std::string out = "expected:";
        for (const auto& s : l.expectedStates)
            out += (out.back() == ':' ? " " : ", ") + s;
        return out;
    }
    std::string yellow = band("yellow", l.yellowLow, l.yellowHigh);
    std::string red = band("red", l.redLow, l.redHigh);
    if (yellow.empty() || red.empty())
        return yellow.empty() && red.empty() ? "none" : yellow + red;
    return yellow + ", " + red;
}

} // namespace telestation::pipeline
