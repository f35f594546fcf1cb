// Senders: write packets to a destination endpoint — the simulator's streams and the station's
// forwarding. One sender per destination; not thread-safe (one thread uses it).
//
// UDP: each packet is one datagram; batches go out with sendmmsg. A large socket send buffer.
// Multicast: TTL and loopback options, the interface from the endpoint's iface.
// TCP client (tcp://): connects on open (non-blocking connect, so open never hangs); when the
// connection fails or drops it reconnects with exponential back-off (100 ms doubling to 5 s) on later
// send calls; packets offered while disconnected are not sent and are counted as `notSent`.
// TCP server (tcp-listen://): binds and listens on open (port 0 → an ephemeral port, see
// localPort()); accepts clients on later send calls; writes every packet to every connected client.
// TCP writes are whole packets in order: with `blocking` the call waits for room (back-pressure, the
// simulator's choice: never lose a packet on a live connection); without it (the station's
// forwarder), a packet that does not fit now is dropped whole and counted in `notSent` — a client
// never receives a partial packet except when its connection breaks.
#pragma once

#include "core/common/result.hpp"
#include "core/io/endpoint.hpp"

#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>
#include <string>

namespace telestation::io {

struct SenderOptions {
    bool blocking = true;                  // TCP only, see above
    int sendBufferBytes = 8 * 1024 * 1024; // SO_SNDBUF request (the kernel may cap it)
    int multicastTtl = 1;
    bool multicastLoopback = true;
    // UDP: send runs of equal-sized packets as one buffer the kernel splits into datagrams (UDP GSO,
    // UDP_SEGMENT). The datagrams on the wire are the same; the per-packet cost drops several-fold.
    // Falls back to plain datagrams when the kernel or the route refuses it.
    bool udpSegmentation = true;
};

struct SenderStats {
    std::uint64_t packets = 0;     // packets handed to the kernel (TCP: to at least one client)
    std::uint64_t bytes = 0;
    std::uint64_t notSent = 0;     // packets offered but not sent (no connection, would block, error)
    std::uint64_t errors = 0;      // failed system calls (each also logged once per kind, not per packet)
    std::uint64_t connects = 0;    // TCP: successful connections (client) / accepted clients (server)
    std::uint64_t disconnects = 0; // TCP: connections lost
};

class Sender {
public:
    virtual ~Sender() = default;
    Sender(const Sender&) = delete;
    Sender& operator=(const Sender&) = delete;

    // Sends the packets in order. Returns how many were sent (the rest are counted in notSent).
    virtual std::size_t send(std::span<const std::span<const std::uint8_t>> packets) = 0;
    // Writes bytes that are not a packet (fault injection: garbage between TCP packets). UDP: one
    // datagram. Not counted in packets/bytes.
    virtual bool sendRaw(std::span<const std::uint8_t> bytes) = 0;

    // UDP: always true after open. TCP client: connected now. TCP server: at least one client.
    [[nodiscard]] virtual bool connected() const = 0;
    // A short human-readable state: "sending", "connecting to 127.0.0.1:5000", "listening on [::]:5000
    // (2 clients)", "error: connection refused (retry in 400 ms)".
    [[nodiscard]] virtual std::string state() const = 0;
    // Changes whenever state() would read differently (a text that counts down changes on every call):
    // a caller that shows the state asks state(), which allocates, only when this moved.
    [[nodiscard]] virtual std::uint64_t stateVersion() const = 0;
    [[nodiscard]] virtual std::uint16_t localPort() const = 0;   // the bound port (tcp-listen), else 0
    [[nodiscard]] const SenderStats& stats() const noexcept { return m_stats; }
    [[nodiscard]] const Endpoint& endpoint() const noexcept { return m_endpoint; }

protected:
    explicit Sender(Endpoint endpoint) : m_endpoint(std::move(endpoint)) {}
    SenderStats m_stats;
    Endpoint m_endpoint;
};

// Opens a sender for a udp://, tcp:// or tcp-listen:// endpoint. Errors: name resolution, socket,
// bind (tcp-listen: address in use) — each with the endpoint and the system's message.
[[nodiscard]] Result<std::unique_ptr<Sender>> openSender(const Endpoint& endpoint, const SenderOptions& options = {});

} // namespace telestation::io
