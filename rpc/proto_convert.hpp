// The station's own types as the user API's messages (api/proto/telestation/v1/station.proto): the
// mission database, samples, packets, statistics, events and alarms. Conversions only; no gRPC.
#pragma once

#include "core/config/station_profile.hpp"
#include "core/events/alarm.hpp"
#include "core/events/event.hpp"
#include "core/mdb/model.hpp"
#include "core/pipeline/current_values.hpp"
#include "core/stats/snapshot.hpp"

#include "telestation/v1/station.pb.h"

#include <optional>

namespace telestation::rpc {

void toProto(const mdb::MissionDatabase& db, const pipeline::PacketTypeTable& types, v1::MissionDatabase& out);
// `parameter`: the sample's definition (for the enumeration's state text); nullptr leaves it empty.
void toProto(const pipeline::ParameterSample& sample, const mdb::ParameterDef* parameter, v1::ParameterSample& out);
void toProto(const stats::StationSnapshot& snapshot, v1::Statistics& out);

void toProto(const events::Event& event, v1::Event& out);
// The alarm's state as of `nowNs`.
void toProto(const events::Alarm& alarm, std::int64_t nowNs, v1::Alarm& out);
void toProto(const events::AlarmCounts& counts, v1::AlarmCounts& out);

// The API's processing mode as the profile's; nullopt for UNCHANGED (and values out of range).
[[nodiscard]] std::optional<config::ProcessingMode> fromProto(v1::ProcessingMode mode);
// The API's severity as the station's; nullopt for values out of range.
[[nodiscard]] std::optional<events::Severity> fromProto(v1::Severity severity);

} // namespace telestation::rpc
