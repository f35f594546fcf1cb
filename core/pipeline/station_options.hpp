// StationOptions: how the engine is sized and paced (not what operators configure: that is the profile).
#pragma once

#include "core/pipeline/packet_pool.hpp"

#include <chrono>

namespace telestation::pipeline {

struct StationOptions {
    PoolOptions pool;
    std::chrono::milliseconds pollTimeout{20}; // receivers and workers notice a stop within this
    int receiveBufferBytes = 64 * 1024 * 1024;
};

} // namespace telestation::pipeline
