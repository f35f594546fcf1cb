#include "core/io/receiver.hpp"

#include "core/io/receiver_backends.hpp"

#include <time.h>

#include <algorithm>
#include <climits>

namespace telestation::io {

namespace detail {

void PublishedStats::publish(const ReceiverStats& stats) noexcept
{
    constexpr auto relaxed = std::memory_order_relaxed;
    m_packets.store(stats.packets, relaxed);
    m_bytes.store(stats.bytes, relaxed);
    m_reads.store(stats.reads, relaxed);
    m_kernelDrops.store(stats.kernelDrops, relaxed);
    m_truncatedDatagrams.store(stats.truncatedDatagrams, relaxed);
    m_framingErrors.store(stats.framingErrors, relaxed);
    m_resyncs.store(stats.resyncs, relaxed);
    m_skippedBytes.store(stats.skippedBytes, relaxed);
    m_truncatedPackets.store(stats.truncatedPackets, relaxed);
    m_connects.store(stats.connects, relaxed);
    m_disconnects.store(stats.disconnects, relaxed);
    m_errors.store(stats.errors, relaxed);
    m_connections.store(stats.connections, relaxed);
    m_kernelDropsSupported.store(stats.kernelDropsSupported, relaxed);
}

ReceiverStats PublishedStats::load() const noexcept
{
    constexpr auto relaxed = std::memory_order_relaxed;
    ReceiverStats stats;
    stats.packets = m_packets.load(relaxed);
    stats.bytes = m_bytes.load(relaxed);
    stats.reads = m_reads.load(relaxed);
    stats.kernelDrops = m_kernelDrops.load(relaxed);
    stats.truncatedDatagrams = m_truncatedDatagrams.load(relaxed);
    stats.framingErrors = m_framingErrors.load(relaxed);
    stats.resyncs = m_resyncs.load(relaxed);
    stats.skippedBytes = m_skippedBytes.load(relaxed);
    stats.truncatedPackets = m_truncatedPackets.load(relaxed);
    stats.connects = m_connects.load(relaxed);
    stats.disconnects = m_disconnects.load(relaxed);
    stats.errors = m_errors.load(relaxed);
    stats.connections = m_connections.load(relaxed);
    stats.kernelDropsSupported = m_kernelDropsSupported.load(relaxed);
    return stats;
}

int pollTimeoutUntil(std::chrono::steady_clock::time_point deadline) noexcept
{
    const auto left = std::chrono::ceil<std::chrono::milliseconds>(deadline - std::chrono::steady_clock::now());
    return static_cast<int>(std::clamp<std::int64_t>(left.count(), 0, INT_MAX));
}

} // namespace detail

Result<std::unique_ptr<Receiver>> openReceiver(const Endpoint& endpoint, const ReceiverOptions& options)
{
    switch (endpoint.scheme) {
    case Scheme::Udp:
        return detail::openUdpReceiver(endpoint, options);
    case Scheme::Tcp:
        return detail::openTcpClientReceiver(endpoint, options);
    case Scheme::TcpListen:
        return detail::openTcpServerReceiver(endpoint, options);
    case Scheme::File:
        break;
    }
    return Error{endpoint.toString() + ": file:// sources are played back by core/record", {}};
}

} // namespace telestation::io
