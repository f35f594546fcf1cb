// Internal to core/io: the connecting side of a TCP client, shared by the tcp:// sender and the tcp://
// receiver — a non-blocking connect over the resolved addresses in turn, with exponential back-off
// between attempts (100 ms doubling to 5 s, back to 100 ms after a connection). The owner drives it
// (each waits for a connection in its own way) and does its own work on connection events through
// TcpConnector::Events. Not public API.
#pragma once

#include "core/common/result.hpp"
#include "core/io/socket_util.hpp"

#include <chrono>
#include <cstdint>
#include <string>
#include <vector>

namespace telestation::io::detail {

enum class ConnectPhase : std::uint8_t { Waiting, Connecting, Connected };

// What a TCP client's state() shows. A plain copy: the receiver hands it to other threads.
struct ConnectStatus {
    ConnectPhase phase = ConnectPhase::Waiting;
    std::string target;          // the address being tried or connected to (Waiting: the next one)
    std::string problem;         // Waiting: why, e.g. "connection refused"
    Clock::time_point retryAt{}; // Waiting: when the next attempt starts

    // "connected to T", "connecting to T" or "error: P (retry in N ms)". `retryIn` is the time left
    // until retryAt as the caller rounds it (negative shows as 0).
    [[nodiscard]] std::string text(std::chrono::milliseconds retryIn) const;
};

class TcpConnector {
public:
    static constexpr std::chrono::milliseconds kFirstBackoff{100};
    static constexpr std::chrono::milliseconds kMaxBackoff{5000};
    // A connection attempt that has not completed after this long has failed (the host drops SYNs).
    static constexpr std::chrono::milliseconds kConnectTimeout{3000};

    // The owner's part of each connection event. Called on the owner's thread, after the connector
    // has changed its phase.
    class Events {
    public:
        // A new socket is about to connect (phase Connecting).
        virtual void onConnecting() {}
        // Connected (the back-off is reset). The connector logs "connected to" after this returns.
        virtual void onConnected() = 0;
        // An attempt failed: phase Waiting, the retry scheduled, problem() set, target() already the
        // next address. `failedTarget` is the address that failed. The owner counts and logs it.
        virtual void onConnectFailed(int error, const std::string& failedTarget) = 0;

    protected:
        Events() = default;
        ~Events() = default;
        Events(const Events&) = default;
        Events& operator=(const Events&) = default;
    };

    // The socket option that sizes the owner's buffer: setSendBuffer or setReceiveBuffer.
    using BufferOption = int (*)(int fd, int bytes);

    // `addresses`: the resolved endpoint, at least one. `setBuffer(fd, bufferBytes)` is applied to
    // each new socket before connect(2), because the window scale is agreed in the handshake.
    TcpConnector(std::string url, std::vector<SocketAddress> addresses, BufferOption setBuffer, int bufferBytes,
                 Events& events);

    // The first attempt. Fails only when no socket can be created.
    [[nodiscard]] Status start();
    // Starts an attempt on the current address (the owner calls it once retryAt() has passed).
    void startAttempt();
    // Phase Connecting and the socket became writable (or reported an error): the attempt's result.
    void complete();
    // Phase Connecting: fails the attempt with ETIMEDOUT when connectDeadline() has passed. True then.
    bool expireIfOverdue(Clock::time_point now);
    // Phase Connected: the connection is over (error 0: the peer closed it). Closes the socket, sets
    // problem() and schedules a retry after the first back-off. The owner counts and logs.
    void disconnected(int error);

    [[nodiscard]] ConnectPhase phase() const noexcept { return m_phase; }
    [[nodiscard]] bool connected() const noexcept { return m_phase == ConnectPhase::Connected; }
    [[nodiscard]] int fd() const noexcept { return m_fd.get(); }
    [[nodiscard]] const std::string& target() const noexcept { return m_addressNames[m_addressIndex]; }
    [[nodiscard]] const std::string& problem() const noexcept { return m_problem; }
    [[nodiscard]] Clock::time_point retryAt() const noexcept { return m_retryAt; }
    // Phase Connecting: when the attempt times out.
    [[nodiscard]] Clock::time_point connectDeadline() const noexcept { return m_connectStarted + kConnectTimeout; }
    [[nodiscard]] ConnectStatus status() const;

private:
    void succeeded();
    void failed(int error);

    std::string m_url;
    std::vector<SocketAddress> m_addresses;
    std::vector<std::string> m_addressNames;
    std::size_t m_addressIndex = 0;
    BufferOption m_setBuffer;
    int m_bufferBytes;
    Events& m_events;
    UniqueFd m_fd;
    ConnectPhase m_phase = ConnectPhase::Waiting;
    Clock::time_point m_connectStarted{};
    Clock::time_point m_retryAt{};
    std::chrono::milliseconds m_backoff = kFirstBackoff;
    std::string m_problem;
    int m_lastSocketError = 0; // socket(2) failed: start() reports it
};

} // namespace telestation::io::detail
