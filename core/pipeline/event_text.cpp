#include "core/pipeline/event_text.hpp"

#include "core/ccsds/space_packet.hpp"
#include "core/decode/decode_plan.hpp"

#include <cstdio>

namespace telestation::pipeline {

using events::Event;
using events::EventKind;
using events::Severity;

std::string formatValue(double value)
{
    char buf[32];
    std::snprintf(buf, sizeof buf, "%g", value);
    return buf;
}

namespace {

std::string apidText(std::uint16_t apid) { return "APID " + std::to_string(apid); }

// "APID 7 (Packet7)" or "APID 7" for an unknown type.
std::string where(const RawEvent& raw, const PacketTypeTable& types)
{
    if (raw.typeIndex == kUnknownType)
        return apidText(raw.apid);
    return apidText(raw.apid) + " (" + std::string(types.typeName(raw.typeIndex)) + ")";
}

std::string_view headerReason(ccsds::HeaderError e)
{
    switch (e) {
    case ccsds::HeaderError::TooShort: return "shorter than a primary header";
    case ccsds::HeaderError::UnsupportedVersion: return "version not 0";
    case ccsds::HeaderError::UnexpectedType: return "telecommand, not telemetry";
    case ccsds::HeaderError::MissingSecondaryHeader: return "no secondary header";
    case ccsds::HeaderError::IdlePacket: return "idle packet";
    case ccsds::HeaderError::SegmentedPacket: return "segmented";
    case ccsds::HeaderError::Truncated: return "truncated";
    case ccsds::HeaderError::TrailingBytes: return "trailing bytes";
    default: return "bad header";
    }
}

void malformed(Event& e, const RawEvent& raw, const PacketTypeTable& types)
{
    e.kind = EventKind::Malformed;
    e.severity = Severity::Warning;
    e.amount = 1;
    const std::string at = where(raw, types);
    const std::string bytes = std::to_string(raw.size) + " bytes";
    if (raw.kind == RawEventKind::LayoutError) {
        const auto status = static_cast<decode::LayoutStatus>(raw.reason);
        const auto& def = types.definition(raw.typeIndex);
        const std::string parameter =
            raw.parameterIndex < def.parameters.size() ? def.parameters[raw.parameterIndex].name : "?";
        e.detail = "layout: " + std::string(decode::layoutStatusText(status));
        e.text = "malformed packet " + at + ", " + bytes + ": its variable layout does not fit ("
            + std::string(decode::layoutStatusText(status)) + " at parameter " + parameter + ")";
        return;
    }
    switch (static_cast<MalformedReason>(raw.reason)) {
    case MalformedReason::Header: {
        const auto error = static_cast<ccsds::HeaderError>(raw.detail);
        e.detail = "header: " + std::string(headerReason(error));
        e.text = "malformed packet dropped, " + at + ", " + bytes + ": " + std::string(ccsds::describe(error));
        return;
    }
    case MalformedReason::ShorterThanLayout:
    case MalformedReason::LengthNotAllowed: {
        const auto& def = types.definition(raw.typeIndex);
        const std::string allowed = def.variableLength
                                        ? std::to_string(def.length) + " to " + std::to_string(std::max(def.maxLength, def.length)) + " bytes"
                                        : std::to_string(def.length) + " bytes";
        e.detail = "length not allowed";
        e.text = "malformed packet dropped, " + at + ": " + bytes + " where its definition allows " + allowed;
        return;
    }
    }
}

bool violation(decode::LimitState s) noexcept
{
    return s != decode::LimitState::None && s != decode::LimitState::Normal;
}

Severity limitSeverity(decode::LimitState s) noexcept
{
    switch (s) {
    case decode::LimitState::YellowLow:
    case decode::LimitState::YellowHigh: return Severity::Warning;
    case decode::LimitState::RedLow:
    case decode::LimitState::RedHigh:
    case decode::LimitState::Unexpected: return Severity::Critical;
    case decode::LimitState::Invalid: return Severity::Error;
    default: return Severity::Info;
    }
}

// The bound a state is on the far side of (NaN for states without one).
double crossed(decode::LimitState s, const EffectiveLimits& l)
{
    switch (s) {
    case decode::LimitState::YellowLow: return l.yellowLow;
    case decode::LimitState::YellowHigh: return l.yellowHigh;
    case decode::LimitState::RedLow: return l.redLow;
    case decode::LimitState::RedHigh: return l.redHigh;
    default: return std::nan("");
    }
}

void limit(Event& e, const RawEvent& raw, const PacketTypeTable& types, const std::vector<config::LimitSetting>& settings)
{
    const auto to = static_cast<decode::LimitState>(raw.to);
    const auto from = static_cast<decode::LimitState>(raw.from);
    const std::uint32_t id = types.firstParameterId(raw.typeIndex) + raw.parameterIndex;
    const decode::DecodePlan& plan = types.plan(raw.typeIndex);
    e.parameter = types.parameter(id).qualifiedName;
    e.limitState = std::string(decode::limitStateName(to));
    e.value = raw.value;
    e.severity = limitSeverity(to);
    decode::DecodedValue v;
    v.state = raw.state;
    v.calibrated = raw.value;
    const std::string_view state = plan.stateText(raw.parameterIndex, v);
    const std::string value = state.empty() ? formatValue(raw.value) : std::string(state);
    const std::string was = " (was " + std::string(decode::limitStateName(from)) + ")";
    if (!violation(to)) {
        e.kind = EventKind::LimitCleared;
        e.amount = 0;
        e.text = e.parameter + (to == decode::LimitState::None ? ": limit checking off, value " : " back within limits: ")
            + value + was;
        return;
    }
    e.kind = EventKind::LimitViolation;
    e.amount = 1;
    const EffectiveLimits limits = effectiveLimits(types, id, settings);
    e.limit = crossed(to, limits);
    std::string what = std::string(decode::limitStateName(to));
    if (to == decode::LimitState::Unexpected)
        what += " " + value;
    else if (to == decode::LimitState::Invalid)
        what = "value is not a number";
    else
        what += ", " + value + (to == decode::LimitState::RedLow || to == decode::LimitState::YellowLow ? " < " : " > ")
            + formatValue(e.limit);
    e.text = e.parameter + ": " + what + was;
}

} // namespace

Event describeRawEvent(const RawEvent& raw, const std::string& stream, const PacketTypeTable& types,
                       const std::vector<config::LimitSetting>& limits)
{
    Event e;
    e.timeNs = raw.timeNs;
    e.stream = stream;
    e.packetType = raw.typeIndex == kUnknownType ? std::string() : std::string(types.typeName(raw.typeIndex));
    e.amount = raw.amount;
    const std::string at = where(raw, types);
    switch (raw.kind) {
    case RawEventKind::Gap:
        e.kind = EventKind::SequenceGap;
        e.severity = Severity::Warning;
        e.detail = apidText(raw.apid);
        e.text = at + ": sequence gap, " + std::to_string(raw.amount) + (raw.amount == 1 ? " packet" : " packets") + " lost";
        break;
    case RawEventKind::Duplicate:
        e.kind = EventKind::Duplicate;
        e.severity = Severity::Warning;
        e.detail = apidText(raw.apid);
        e.text = at + ": duplicate packet (a sequence count seen already)";
        break;
    case RawEventKind::Late:
        e.kind = EventKind::OutOfOrder;
        e.severity = Severity::Warning;
        e.detail = apidText(raw.apid);
        e.text = at + ": packet out of order (it arrived after a later one)";
        break;
    case RawEventKind::Resync:
        e.kind = EventKind::SequenceReset;
        e.severity = Severity::Warning;
        e.detail = apidText(raw.apid);
        e.text = at + ": sequence count jumped back far (the sender restarted its count?); counting again from here";
        break;
    case RawEventKind::Malformed:
    case RawEventKind::LayoutError:
        malformed(e, raw, types);
        break;
    case RawEventKind::Limit:
        limit(e, raw, types, limits);
        break;
    }
    return e;
}

} // namespace telestation::pipeline
