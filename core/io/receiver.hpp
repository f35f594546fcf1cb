// Receivers: where a station's packets come from. One receiver per stream source, driven by one
// thread (the stream's receiver thread) calling poll() in a loop; poll() never blocks longer than its
// timeout, so the thread can notice a stop request.
//
//   udp://HOST:PORT            binds; recvmmsg in batches; a large receive buffer; UDP GRO (the
//                              kernel hands over runs of equal-sized datagrams as one buffer, split
//                              here); kernel drops from SO_RXQ_OVFL.
//   udp://GROUP:PORT?iface=A   the same, joined to a multicast group (IPv4 or IPv6).
//   tcp://HOST:PORT            connects as a client; on failure or loss reconnects with back-off
//                              (100 ms doubling to 5 s); the byte stream is framed by the CCSDS
//                              length field (ccsds::StreamFramer), one framer per connection.
//   tcp-listen://HOST:PORT     accepts any number of senders; a framer per connection.
//
// Every delivered frame is the bytes as received: the transport header (if any) and the packet. UDP
// datagrams are delivered whole, whatever their content (the router checks headers); TCP frames are
// whole packets as the framer cut them. The frame is valid only during the sink call: the sink copies
// it into a packet pool slot.
#pragma once

#include "core/common/result.hpp"
#include "core/io/endpoint.hpp"

#include <atomic>
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <vector>

namespace telestation::io {

struct ReceiverOptions {
    std::size_t transportHeaderBytes = 0;       // TCP framing: bytes in front of each packet
    int receiveBufferBytes = 64 * 1024 * 1024;  // SO_RCVBUF request (SO_RCVBUFFORCE when capped)
    bool udpGro = true;                         // UDP_GRO where the kernel has it
    std::size_t batch = 64;                     // buffers per recvmmsg call
    std::size_t maxPacketSize = 65542;          // TCP: a longer CCSDS length field is a framing error
    std::vector<std::uint16_t> resyncApids;     // TCP: after a framing error, resynchronise only on these (empty = any)
};

// A plain copy of a receiver's counters (taken with stats(); any thread).
struct ReceiverStats {
    std::uint64_t packets = 0;          // frames delivered to the sink
    std::uint64_t bytes = 0;            // bytes delivered
    std::uint64_t reads = 0;            // recvmmsg / read calls that returned data
    std::uint64_t kernelDrops = 0;      // UDP: datagrams the kernel dropped (SO_RXQ_OVFL), when exposed
    std::uint64_t truncatedDatagrams = 0; // UDP: larger than the receive buffer (MSG_TRUNC): dropped
    std::uint64_t framingErrors = 0;    // TCP: implausible headers (see StreamFramer)
    std::uint64_t resyncs = 0;          // TCP
    std::uint64_t skippedBytes = 0;     // TCP: bytes dropped while resynchronising
    std::uint64_t truncatedPackets = 0; // TCP: partial packets discarded when a connection ended
    std::uint64_t connects = 0;         // TCP: connections made (client) / accepted (server)
    std::uint64_t disconnects = 0;      // TCP: connections ended
    std::uint64_t errors = 0;           // failed system calls (logged once per kind, never per packet)
    std::uint32_t connections = 0;      // TCP: open connections now
    bool kernelDropsSupported = false;  // UDP: SO_RXQ_OVFL accepted by the kernel
};

class PacketSink {
public:
    virtual ~PacketSink() = default;
    // One frame (transport header + packet). receiveTimeNs: CLOCK_REALTIME, ns.
    virtual void onPacket(std::span<const std::uint8_t> frame, std::int64_t receiveTimeNs) = 0;
    // Called after each batch of onPacket calls (one recvmmsg / read): the sink publishes its batch.
    virtual void onBatchEnd() {}
};

class Receiver {
public:
    virtual ~Receiver() = default;
    Receiver(const Receiver&) = delete;
    Receiver& operator=(const Receiver&) = delete;

    // Waits up to `timeout` for data and delivers every frame available (bounded: a few batches) to
    // the sink. Returns the number of frames delivered. Connection handling (connect, reconnect,
    // accept) happens here too. Called by one thread.
    virtual std::size_t poll(std::chrono::milliseconds timeout, PacketSink& sink) = 0;

    // "receiving on 127.0.0.1:5000", "connecting to [::1]:5000", "connected to 127.0.0.1:5000",
    // "listening on 127.0.0.1:5000 (2 senders)", "error: connection refused (retry in 400 ms)".
    // Any thread.
    [[nodiscard]] virtual std::string state() const = 0;
    // The bound local port (udp, tcp-listen; useful with port 0), else 0. Any thread.
    [[nodiscard]] virtual std::uint16_t localPort() const = 0;
    // Any thread.
    [[nodiscard]] virtual ReceiverStats stats() const = 0;
    [[nodiscard]] const Endpoint& endpoint() const noexcept { return m_endpoint; }

protected:
    explicit Receiver(Endpoint endpoint) : m_endpoint(std::move(endpoint)) {}
    Endpoint m_endpoint;
};

// Opens a receiver for udp://, tcp:// or tcp-listen:// (file:// is playback: core/record). Errors:
// resolution, socket, bind (address in use), multicast join — each naming the endpoint and the
// system's message. A tcp:// receiver opens even when nobody listens yet (it keeps trying).
[[nodiscard]] Result<std::unique_ptr<Receiver>> openReceiver(const Endpoint& endpoint, const ReceiverOptions& options = {});

} // namespace telestation::io
