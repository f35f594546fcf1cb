// The station's own types as the user API's messages (api/proto/telestation/v1/station.proto): the
// mission database, samples, packets, statistics. Conversions only; no gRPC.
#pragma once

#include "core/config/station_profile.hpp"
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

// The API's processing mode as the profile's; nullopt for UNCHANGED (and values out of range).
[[nodiscard]] std::optional<config::ProcessingMode> fromProto(v1::ProcessingMode mode);

} // namespace telestation::rpc
