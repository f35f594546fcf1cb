// Forwarder: the worker that drains each stream's forward packet queue and sends each packet, bytes
// exactly as received, to the destinations the router chose for it (one non-blocking io::Sender per
// destination, opened lazily, a failed open retried every 5 s). It publishes each destination's
// numbers and up/down state for snapshots, and makes "up" and "down" events. Internal to core/pipeline.
#pragma once

#include "core/io/sender.hpp"
#include "core/pipeline/worker.hpp"

#include <array>
#include <chrono>
#include <memory>
#include <span>
#include <string>
#include <vector>

namespace telestation::pipeline {

class Forwarder final : public QueueWorker {
public:
    explicit Forwarder(StationCore& core);
    ~Forwarder() override;

private:
    struct Destination {
        std::string url;
        std::string streams; // the streams that forward to it ("a, b"): the stream of its events
        std::unique_ptr<io::Sender> sender;
        std::chrono::steady_clock::time_point retryAt{};
        enum class Link : std::uint8_t { Unknown, Up, Down } link = Link::Unknown;
        std::uint64_t stateVersion = 0; // the sender's, when its state was last published
        bool stateShown = false;
    };

    void beforeRound() override; // new destinations; every 200 ms idle TCP destinations kept moving
    void handle(Stream& stream, std::span<const PacketHandle> batch) override;

    void nameStreams(const LiveSettings& live); // each destination's `streams`, with the settings
    [[nodiscard]] io::Sender* open(std::size_t index); // nullptr while it cannot be opened
    void publish(std::size_t index, bool withState);

    std::vector<Destination> m_destinations; // index = mask bit
    std::uint64_t m_settingsVersion = 0;
    std::chrono::steady_clock::time_point m_lastPublish = std::chrono::steady_clock::now();
    std::array<std::span<const std::uint8_t>, kBatch> m_spans{};
    std::array<std::uint32_t, kBatch> m_typeOf{};
};

} // namespace telestation::pipeline
