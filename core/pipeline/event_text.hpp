// From a hot thread's RawEvent to the events::Event an operator reads: names (stream, packet type,
// APID, parameter), severity and a sentence with the numbers. Runs on the station's event thread only.
// Internal to core/pipeline.
#pragma once

#include "core/events/event.hpp"
#include "core/pipeline/event_ring.hpp"
#include "core/pipeline/limit_settings.hpp"
#include "core/pipeline/packet_types.hpp"

#include <string>

namespace telestation::pipeline {

// `stream`: the stream's name. `limits`: the profile's limits now (for the limit a value crossed).
[[nodiscard]] events::Event describeRawEvent(const RawEvent& raw, const std::string& stream, const PacketTypeTable& types,
                                             const std::vector<config::LimitSetting>& limits);

// "%g" of a value, as events print numbers.
[[nodiscard]] std::string formatValue(double value);

} // namespace telestation::pipeline
