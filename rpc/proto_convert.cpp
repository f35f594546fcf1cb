#include "rpc/proto_convert.hpp"

#include "core/pipeline/packet_types.hpp"
#include "core/stats/snapshot_json.hpp"
#include "core/stats/status_line.hpp"

#include <cmath>
#include <type_traits>
#include <variant>

namespace telestation::rpc {

namespace {

v1::DataType toProto(mdb::DataType type)
{
    switch (type) {
    case mdb::DataType::UnsignedInt: return v1::DATA_TYPE_UNSIGNED_INT;
    case mdb::DataType::SignedInt: return v1::DATA_TYPE_SIGNED_INT;
    case mdb::DataType::Float: return v1::DATA_TYPE_FLOAT;
    case mdb::DataType::String: return v1::DATA_TYPE_STRING;
    case mdb::DataType::Bytes: return v1::DATA_TYPE_BYTES;
    case mdb::DataType::SignMagnitudeInt: return v1::DATA_TYPE_SIGN_MAGNITUDE_INT;
    case mdb::DataType::OnesComplementInt: return v1::DATA_TYPE_ONES_COMPLEMENT_INT;
    }
    return v1::DATA_TYPE_UNSIGNED_INT;
}

void toProto(const mdb::Calibrator& calibrator, v1::Parameter& out)
{
    std::visit(
        [&](const auto& c) {
            using C = std::decay_t<decltype(c)>;
            if constexpr (std::is_same_v<C, mdb::PolynomialCalibrator>) {
                for (const double k : c.coefficients)
                    out.mutable_calibrator()->mutable_polynomial()->add_coefficients(k);
            } else if constexpr (std::is_same_v<C, mdb::PointPairCalibrator>) {
                auto* pairs = out.mutable_calibrator()->mutable_point_pairs();
                for (const auto& p : c.points) {
                    pairs->add_raw(p.raw);
                    pairs->add_calibrated(p.calibrated);
                }
            } else if constexpr (std::is_same_v<C, mdb::EnumerationCalibrator>) {
                auto* states = out.mutable_calibrator()->mutable_enumeration();
                for (const auto& s : c.states) {
                    auto* state = states->add_states();
                    state->set_low(s.low);
                    state->set_high(s.high);
                    state->set_text(s.text);
                }
            } else if constexpr (std::is_same_v<C, mdb::TimeCalibrator>) {
                auto* time = out.mutable_calibrator()->mutable_time();
                time->set_epoch_unix_seconds(c.epochUnixSeconds);
                time->set_scale(c.scale);
                time->set_offset(c.offset);
            }
        },
        calibrator);
}

void toProto(const mdb::Limits& limits, v1::Parameter& out)
{
    if (const auto* n = std::get_if<mdb::NumericLimits>(&limits)) {
        auto* numeric = out.mutable_limits()->mutable_numeric();
        numeric->set_red_low(n->redLow);
        numeric->set_yellow_low(n->yellowLow);
        numeric->set_yellow_high(n->yellowHigh);
        numeric->set_red_high(n->redHigh);
        numeric->set_enabled(n->enabled);
    } else if (const auto* s = std::get_if<mdb::StateLimits>(&limits)) {
        auto* states = out.mutable_limits()->mutable_states();
        for (const auto& text : s->expectedStates)
            states->add_expected_states(text);
        states->set_enabled(s->enabled);
    }
}

void toProto(const stats::PacketCounters& c, std::uint64_t drops, v1::Counters& out)
{
    out.set_packets_received(c.packetsReceived);
    out.set_bytes_received(c.bytesReceived);
    out.set_packets_processed(c.packetsProcessed);
    out.set_packets_recorded(c.packetsRecorded);
    out.set_packets_forwarded(c.packetsForwarded);
    out.set_parameters_decoded(c.parametersDecoded);
    out.set_sequence_errors(c.sequenceErrors);
    out.set_packets_lost(c.packetsLost);
    out.set_malformed(c.malformed);
    out.set_drops(drops);
}

// The two enumerations list the same severities in the same order.
static_assert(v1::SEVERITY_INFO == static_cast<int>(events::Severity::Info) &&
              v1::SEVERITY_WARNING == static_cast<int>(events::Severity::Warning) &&
              v1::SEVERITY_ERROR == static_cast<int>(events::Severity::Error) &&
              v1::SEVERITY_CRITICAL == static_cast<int>(events::Severity::Critical));

v1::Severity toProto(events::Severity severity)
{
    return static_cast<v1::Severity>(static_cast<int>(severity));
}

v1::AlarmState toProto(events::AlarmState state)
{
    switch (state) {
    case events::AlarmState::ActiveUnacknowledged: return v1::ALARM_STATE_ACTIVE_UNACKNOWLEDGED;
    case events::AlarmState::ActiveAcknowledged: return v1::ALARM_STATE_ACTIVE_ACKNOWLEDGED;
    case events::AlarmState::ClearedUnacknowledged: return v1::ALARM_STATE_CLEARED_UNACKNOWLEDGED;
    case events::AlarmState::Shelved: return v1::ALARM_STATE_SHELVED;
    }
    return v1::ALARM_STATE_ACTIVE_UNACKNOWLEDGED;
}

v1::AlarmSource toProto(events::AlarmSource source)
{
    switch (source) {
    case events::AlarmSource::Parameter: return v1::ALARM_SOURCE_PARAMETER;
    case events::AlarmSource::StreamLoss: return v1::ALARM_SOURCE_LOSS;
    case events::AlarmSource::StreamStale: return v1::ALARM_SOURCE_STALE;
    }
    return v1::ALARM_SOURCE_PARAMETER;
}

// NaN is the station's "none": the optional field is left absent.
template <typename Message>
void setNumber(Message& out, void (Message::*set)(double), double value)
{
    if (!std::isnan(value))
        (out.*set)(value);
}

} // namespace

void toProto(const mdb::MissionDatabase& db, const pipeline::PacketTypeTable& types, v1::MissionDatabase& out)
{
    out.set_name(db.name);
    for (std::uint32_t t = 1; t < types.typeCount(); ++t) {
        const mdb::PacketDef& def = types.definition(t);
        auto* type = out.add_packet_types();
        type->set_name(def.name);
        type->set_apid(def.apid);
        if (def.secondaryId) {
            type->set_has_secondary_id(true);
            type->set_secondary_id(def.secondaryId->value);
        }
        type->set_length(def.length);
        type->set_variable_length(def.variableLength);
        type->set_max_length(def.maxLength);
        type->set_description(def.description);
        type->set_path(def.path);
        const std::uint32_t first = types.firstParameterId(t);
        for (std::uint32_t i = 0; i < def.parameters.size(); ++i) {
            const mdb::ParameterDef& p = def.parameters[i];
            auto* parameter = type->add_parameters();
            parameter->set_id(first + i);
            parameter->set_name(p.name);
            parameter->set_qualified_name(types.parameter(first + i).qualifiedName);
            parameter->set_data_type(toProto(p.type));
            parameter->set_bit_offset(p.bitOffset);
            parameter->set_bit_length(p.bitLength);
            parameter->set_units(p.units);
            parameter->set_description(p.description);
            toProto(p.calibrator, *parameter);
            toProto(p.limits, *parameter);
        }
    }
}

void toProto(const pipeline::ParameterSample& sample, const mdb::ParameterDef* parameter, v1::ParameterSample& out)
{
    out.set_parameter_id(sample.parameterId);
    out.set_stream_id(sample.streamId);
    out.set_packet_time_ns(sample.packetTimeNs);
    out.set_receive_time_ns(sample.receiveTimeNs);
    const decode::DecodedValue& v = sample.value;
    out.set_raw(v.raw);
    switch (parameter ? parameter->type : mdb::DataType::UnsignedInt) {
    case mdb::DataType::UnsignedInt: out.set_unsigned_value(v.converted.u); break;
    case mdb::DataType::SignedInt:
    case mdb::DataType::SignMagnitudeInt:
    case mdb::DataType::OnesComplementInt: out.set_signed_value(v.converted.i); break;
    case mdb::DataType::Float: out.set_float_value(v.converted.f); break;
    case mdb::DataType::String:
    case mdb::DataType::Bytes: out.set_length(v.converted.u); break;
    }
    out.set_calibrated(v.calibrated);
    out.set_state(v.state);
    if (v.state >= 0 && parameter)
        if (const auto* e = std::get_if<mdb::EnumerationCalibrator>(&parameter->calibrator);
            e && static_cast<std::size_t>(v.state) < e->states.size())
            out.set_state_text(e->states[static_cast<std::size_t>(v.state)].text);
    out.set_limit(static_cast<v1::LimitState>(static_cast<int>(v.limit)));
    out.set_present(v.present);
}

void toProto(const stats::StationSnapshot& snapshot, v1::Statistics& out)
{
    out.set_time_ns(snapshot.timeNs);
    out.set_uptime_seconds(snapshot.uptimeSeconds);
    toProto(snapshot.totals, stats::dropCount(snapshot), *out.mutable_totals());
    for (const auto& s : snapshot.streams) {
        auto* stream = out.add_streams();
        stream->set_name(s.name);
        stream->set_state(s.state);
        stream->set_recording(s.recording);
        stream->set_running(s.running);
        toProto(s.counters, stats::dropCount(s), *stream->mutable_counters());
    }
    for (const auto& c : snapshot.consumers) {
        auto* client = out.add_clients();
        client->set_name(c.name);
        client->set_kind(c.kind);
        client->set_delivery(c.delivery);
        client->set_delivered(c.delivered);
        client->set_queue_depth(c.queue.depth);
        client->set_drops(c.queue.drops);
    }
    out.set_json(stats::toJson(snapshot));
}

void toProto(const events::Event& e, v1::Event& out)
{
    out.set_number(e.number);
    out.set_time_ns(e.timeNs);
    out.set_severity(toProto(e.severity));
    out.set_kind(std::string(events::eventKindName(e.kind)));
    out.set_stream(e.stream);
    out.set_packet_type(e.packetType);
    out.set_parameter(e.parameter);
    out.set_detail(e.detail);
    out.set_text(e.text);
    out.set_count(e.count);
    out.set_amount(e.amount);
    setNumber(out, &v1::Event::set_value, e.value);
    setNumber(out, &v1::Event::set_limit, e.limit);
    out.set_limit_state(e.limitState);
    out.set_user(e.user);
}

void toProto(const events::Alarm& a, std::int64_t nowNs, v1::Alarm& out)
{
    out.set_id(a.id);
    out.set_source(toProto(a.source));
    out.set_stream(a.stream);
    out.set_packet_type(a.packetType);
    out.set_parameter(a.parameter);
    out.set_state(toProto(a.state(nowNs)));
    out.set_severity(toProto(a.severity));
    out.set_current_severity(toProto(a.currentSeverity));
    out.set_active(a.active);
    out.set_acknowledged(a.acknowledged);
    out.set_shelved_until_ns(a.shelvedUntilNs);
    out.set_first_ns(a.firstNs);
    out.set_last_ns(a.lastNs);
    setNumber(out, &v1::Alarm::set_trigger_value, a.triggerValue);
    setNumber(out, &v1::Alarm::set_current_value, a.currentValue);
    setNumber(out, &v1::Alarm::set_limit, a.limit);
    out.set_limit_state(a.limitState);
    out.set_violations(a.violations);
    out.set_acknowledged_by(a.acknowledgedBy);
    out.set_comment(a.comment);
    out.set_acknowledged_ns(a.acknowledgedNs);
}

void toProto(const events::AlarmCounts& counts, v1::AlarmCounts& out)
{
    for (int i = 0; i < events::kSeverityCount; ++i) {
        out.add_unacknowledged(counts.unacknowledged[static_cast<std::size_t>(i)]);
        out.add_active(counts.active[static_cast<std::size_t>(i)]);
    }
    out.set_shelved(counts.shelved);
}

std::optional<events::Severity> fromProto(v1::Severity severity)
{
    const int value = static_cast<int>(severity);
    if (value < 0 || value >= events::kSeverityCount)
        return std::nullopt;
    return static_cast<events::Severity>(value);
}

std::optional<config::ProcessingMode> fromProto(v1::ProcessingMode mode)
{
    switch (mode) {
    case v1::PROCESSING_MODE_PASS_THRU: return config::ProcessingMode::PassThru;
    case v1::PROCESSING_MODE_PROCESS_ON_DEMAND: return config::ProcessingMode::ProcessOnDemand;
    case v1::PROCESSING_MODE_PROCESS_ENTIRE_PACKET: return config::ProcessingMode::ProcessEntirePacket;
    case v1::PROCESSING_MODE_DISCARD: return config::ProcessingMode::Discard;
    default: return std::nullopt;
    }
}

} // namespace telestation::rpc
