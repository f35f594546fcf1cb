// Internal to core/io: the receiver implementations behind openReceiver(), and what they share — the
// counters published to other threads and the receive clock. Not public API.
#pragma once

#include "core/io/receiver.hpp"

#include <atomic>
#include <chrono>
#include <cstdint>

namespace telestation::io::detail {

[[nodiscard]] Result<std::unique_ptr<Receiver>> openUdpReceiver(const Endpoint& endpoint, const ReceiverOptions& options);
[[nodiscard]] Result<std::unique_ptr<Receiver>> openTcpClientReceiver(const Endpoint& endpoint, const ReceiverOptions& options);
[[nodiscard]] Result<std::unique_ptr<Receiver>> openTcpServerReceiver(const Endpoint& endpoint, const ReceiverOptions& options);

// A receiver's counters as other threads see them. The receiver thread counts in a plain ReceiverStats
// and publishes it after each batch (relaxed stores: each counter is exact on its own, and a reader may
// see one batch's packets before its bytes, which a 1 Hz snapshot does not mind).
class PublishedStats {
public:
    void publish(const ReceiverStats& stats) noexcept;
    [[nodiscard]] ReceiverStats load() const noexcept;

private:
    std::atomic<std::uint64_t> m_packets{0};
    std::atomic<std::uint64_t> m_bytes{0};
    std::atomic<std::uint64_t> m_reads{0};
    std::atomic<std::uint64_t> m_kernelDrops{0};
    std::atomic<std::uint64_t> m_truncatedDatagrams{0};
    std::atomic<std::uint64_t> m_framingErrors{0};
    std::atomic<std::uint64_t> m_resyncs{0};
    std::atomic<std::uint64_t> m_skippedBytes{0};
    std::atomic<std::uint64_t> m_truncatedPackets{0};
    std::atomic<std::uint64_t> m_connects{0};
    std::atomic<std::uint64_t> m_disconnects{0};
    std::atomic<std::uint64_t> m_errors{0};
    std::atomic<std::uint32_t> m_connections{0};
    std::atomic<bool> m_kernelDropsSupported{false};
};

// A poll(2) timeout in ms for the time left until `deadline`: rounded up (so that a caller looping
// until its deadline does not spin on 0 ms waits), never negative.
[[nodiscard]] int pollTimeoutUntil(std::chrono::steady_clock::time_point deadline) noexcept;

} // namespace telestation::io::detail
