// A stream's source as the station drives it: a live receiver (core/io) or a recording played back
// (core/record). Internal to core/pipeline.
#pragma once

#include "core/common/result.hpp"
#include "core/io/endpoint.hpp"
#include "core/io/receiver.hpp"

#include <chrono>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace telestation::pipeline {

class Source {
public:
    virtual ~Source() = default;
    // Delivers what is available (waits at most `timeout`).
    virtual std::size_t poll(std::chrono::milliseconds timeout, io::PacketSink& sink) = 0;
    [[nodiscard]] virtual std::string state() const = 0;
    [[nodiscard]] virtual std::uint16_t localPort() const = 0;
    [[nodiscard]] virtual io::ReceiverStats stats() const = 0;
    [[nodiscard]] virtual double progress() const { return -1; } // playback: 0..1
    [[nodiscard]] virtual bool finished() const { return false; } // playback: every record played
    [[nodiscard]] virtual bool pausable() const { return false; }
    // The receiver thread did not poll for `paused` because the operator paused the stream.
    virtual void resumed(std::chrono::nanoseconds /*paused*/) {}
    // Playback: the receive time of the last record delivered (0 before any); where a stopped playback
    // resumes (just after it). Any thread.
    [[nodiscard]] virtual std::int64_t positionNs() const { return 0; }
};

// maxPacketSize: TCP framing takes a longer length field as a framing error (the largest packet the
// mission database defines: a garbage "header" then cannot send the framer off for 64 KiB).
// resumeFromNs: playback starts there instead of at the URL's `from` when it lies inside the URL's range
// (a stopped playback resuming; 0 = from the start). A repeat always starts at the URL's `from`.
[[nodiscard]] Result<std::unique_ptr<Source>> openSource(const io::Endpoint& endpoint, std::uint32_t transportHeaderBytes,
                                                         int receiveBufferBytes, std::size_t maxPacketSize,
                                                         const std::vector<std::uint16_t>& knownApids,
                                                         std::int64_t resumeFromNs = 0);

} // namespace telestation::pipeline
