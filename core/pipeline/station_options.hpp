// StationOptions: how the engine is sized and paced (not what operators configure: that is the profile).
#pragma once

#include "core/pipeline/packet_pool.hpp"

#include <chrono>

namespace telestation::pipeline {

struct StationOptions {
    PoolOptions pool;
    std::chrono::milliseconds pollTimeout{20}; // receivers and workers notice a stop within this
    int receiveBufferBytes = 64 * 1024 * 1024;
    // Storms: further events of one kind and source within this window after the first are merged into
    // one summary (docs/events.md). Tests shorten it to see every transition.
    std::chrono::nanoseconds eventStormWindow{std::chrono::seconds(1)};
    // Every event also to the log (spdlog). Off for a station whose events are nobody's business in
    // the operator's log: the link test's own station, whose test traffic crosses limits (docs/link-test.md).
    bool logEvents = true;
};

} // namespace telestation::pipeline
