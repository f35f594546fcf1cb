#include "rpc/proto_convert.hpp"

#include "core/pipeline/packet_types.hpp"
#include "core/stats/snapshot_json.hpp"
#include "core/stats/status_line.hpp"

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
