// The station's numbers at one moment: every stream's state and queues, each packet type's counters
// (from the receiver, router, processor, recorder and forwarder's counters and the APIDs' sequence
// counters), forward destinations, consumers, recording, pool and events. Any thread, any time; reads
// atomics and takes each status mutex briefly. Internal to core/pipeline.
#pragma once

#include "core/pipeline/station_core.hpp"
#include "core/stats/snapshot.hpp"

namespace telestation::pipeline {

[[nodiscard]] stats::StationSnapshot assembleSnapshot(const StationCore& core);

} // namespace telestation::pipeline
