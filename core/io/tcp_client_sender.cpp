// TCP client sender (tcp://): non-blocking connect, reconnection with exponential back-off (both in
// TcpConnector), whole packets in order through a StreamWriter.
#include "core/io/sender_backends.hpp"
#include "core/io/socket_util.hpp"
#include "core/io/stream_writer.hpp"
#include "core/io/tcp_connector.hpp"

#include <sys/socket.h>

#include <spdlog/spdlog.h>

#include <algorithm>
#include <array>

namespace telestation::io::detail {

namespace {

using Milliseconds = std::chrono::milliseconds;

// Bytes the peer sends us are read and dropped, a few buffers per call, to notice when it closes.
constexpr int kMaxDrainReads = 16;

class TcpClientSender final : public Sender, private TcpConnector::Events {
public:
    TcpClientSender(Endpoint endpoint, std::vector<SocketAddress> addresses, const SenderOptions& options)
        : Sender(std::move(endpoint))
        , m_url(m_endpoint.toString())
        , m_options(options)
        , m_connector(m_url, std::move(addresses), &setSendBuffer, options.sendBufferBytes, *this)
    {
    }

    // The first connection attempt. Fails only when no socket can be created.
    [[nodiscard]] Status start() { return m_connector.start(); }

    std::size_t send(std::span<const std::span<const std::uint8_t>> packets) override
    {
        maintain();
        if (!m_connector.connected()) {
            m_stats.notSent += packets.size();
            return 0;
        }
        const StreamWriteResult result = m_writer.write(m_connector.fd(), packets, m_options.blocking);
        m_stats.packets += result.started;
        m_stats.bytes += result.bytes;
        m_stats.notSent += packets.size() - result.started;
        if (result.error != 0) {
            ++m_stats.errors;
            connectionLost(result.error);
        } else if (!packets.empty()) {
            noteKeepingUp(result.started == packets.size(), result.stalled);
        }
        return result.started;
    }

    bool sendRaw(std::span<const std::uint8_t> bytes) override
    {
        maintain();
        if (!m_connector.connected())
            return false;
        const std::array<std::span<const std::uint8_t>, 1> one{bytes};
        const StreamWriteResult result = m_writer.write(m_connector.fd(), one, m_options.blocking);
        if (result.error != 0) {
            ++m_stats.errors;
            connectionLost(result.error);
        }
        return result.started == 1;
    }

    [[nodiscard]] bool connected() const override { return m_connector.connected(); }

    [[nodiscard]] std::string state() const override
    {
        const auto retryIn = std::chrono::duration_cast<Milliseconds>(m_connector.retryAt() - Clock::now());
        std::string text = m_connector.status().text(retryIn);
        if (m_connector.connected() && m_behind)
            text += " (peer not keeping up)";
        return text;
    }

    // Connected: the text moves with each connection and with the peer keeping up or not. Otherwise it
    // counts down to the next attempt, so it is new on every call.
    [[nodiscard]] std::uint64_t stateVersion() const override
    {
        if (!m_connector.connected())
            return ++m_idleVersion;
        return m_stats.connects * 2 + (m_behind ? 1 : 0);
    }

    [[nodiscard]] std::uint16_t localPort() const override { return 0; }

private:
    // Advances the connection: starts an attempt when the back-off has passed, completes one in
    // progress (blocking mode: waits for it up to the stall timeout), notices a peer that closed.
    void maintain()
    {
        if (m_connector.phase() == ConnectPhase::Waiting && Clock::now() >= m_connector.retryAt())
            m_connector.startAttempt();
        if (m_connector.phase() == ConnectPhase::Connecting)
            finishConnect();
        if (m_connector.connected())
            checkPeer();
    }

    void finishConnect()
    {
        const auto wait = m_options.blocking
                              ? std::clamp(std::chrono::ceil<Milliseconds>(m_connector.connectDeadline() - Clock::now()),
                                           Milliseconds(0), StreamWriter::kStallTimeout)
                              : Milliseconds(0);
        if (waitWritable(m_connector.fd(), wait))
            m_connector.complete();
        else
            (void)m_connector.expireIfOverdue(Clock::now());
    }

    void onConnected() override
    {
        ++m_stats.connects;
        m_lastLoggedError = 0;
        m_behind = false;
        m_writer.clear();
    }

    void onConnectFailed(int error, const std::string& failedTarget) override
    {
        ++m_stats.errors;
        if (error != m_lastLoggedError) {
            spdlog::warn("{}: cannot connect to {}: {}; retrying with back-off ({} ms doubling to {} ms)", m_url,
                         failedTarget, m_connector.problem(), TcpConnector::kFirstBackoff.count(),
                         TcpConnector::kMaxBackoff.count());
            m_lastLoggedError = error;
        }
    }

    // error 0: the peer closed the connection.
    void connectionLost(int error)
    {
        m_writer.clear(); // the remainder of a begun packet is lost with the connection
        ++m_stats.disconnects;
        m_connector.disconnected(error);
        m_lastLoggedError = 0;
        spdlog::warn("{}: {} ({}); reconnecting", m_url, m_connector.problem(), m_connector.target());
    }

    // A receiver normally sends nothing: read and drop what it sends, and notice end of stream.
    void checkPeer()
    {
        if (const auto ended = drainPeer(m_connector.fd(), kMaxDrainReads)) {
            if (*ended != 0)
                ++m_stats.errors;
            connectionLost(*ended);
        }
    }

    // Logs once when the peer starts falling behind (packets not sent) and once when it catches up.
    void noteKeepingUp(bool allSent, bool stalled)
    {
        if (!allSent && !m_behind) {
            spdlog::warn("{}: {} is not keeping up{}; packets are counted as not sent", m_url, m_connector.target(),
                         stalled ? " (it read nothing for 1 s)" : "");
            m_behind = true;
        } else if (allSent && m_behind) {
            spdlog::info("{}: {} is keeping up again", m_url, m_connector.target());
            m_behind = false;
        }
    }

    std::string m_url;
    SenderOptions m_options;
    TcpConnector m_connector;
    int m_lastLoggedError = 0; // a repeated connect failure is logged once
    bool m_behind = false;
    mutable std::uint64_t m_idleVersion = std::uint64_t{1} << 63; // apart from the connected versions
    StreamWriter m_writer;
};

} // namespace

Result<std::unique_ptr<Sender>> openTcpClientSender(const Endpoint& endpoint, const SenderOptions& options)
{
    auto addresses = resolve(endpoint, SOCK_STREAM, false);
    if (!addresses)
        return addresses.error();
    auto sender = std::make_unique<TcpClientSender>(endpoint, std::move(addresses.value()), options);
    if (auto status = sender->start(); !status)
        return status.error();
    return std::unique_ptr<Sender>(std::move(sender));
}

} // namespace telestation::io::detail
