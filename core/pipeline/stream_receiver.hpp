// A stream's receiver thread: polls the stream's source and moves each frame into a pool slot and,
// a batch at a time, into the stream's network packet queue. A live source never waits: a full queue
// drops the newest packets (counted against the queue and their packet type). A playback source waits
// for room instead (nothing is lost by replaying faster than the station can take). Connections made
// and lost, and the end of a playback, become events. Internal to core/pipeline.
#pragma once

#include "core/pipeline/station_core.hpp"

namespace telestation::pipeline {

// Starts the receiver thread of a stream whose source is open / asks it to stop and joins it.
void startReceiver(StationCore& core, Stream& stream);
void stopReceiver(Stream& stream);

} // namespace telestation::pipeline
