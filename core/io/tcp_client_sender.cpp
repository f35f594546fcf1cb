// TCP client sender (tcp://): non-blocking connect, reconnection with exponential back-off, whole
// packets in order through a StreamWriter.
#include "core/io/sender_backends.hpp"
#include "core/io/socket_util.hpp"
#include "core/io/stream_writer.hpp"

#include <poll.h>
#include <sys/socket.h>

#include <spdlog/spdlog.h>

#include <algorithm>
#include <array>
#include <cerrno>

namespace telestation::io::detail {

namespace {

constexpr std::chrono::milliseconds kFirstBackoff{100};
constexpr std::chrono::milliseconds kMaxBackoff{5000};
// A connection attempt that has not completed after this long has failed (the host drops SYNs).
constexpr std::chrono::milliseconds kConnectTimeout{3000};
// Bytes the peer sends us are read and dropped, a few buffers per call, to notice when it closes.
constexpr int kMaxDrainReads = 16;

class TcpClientSender final : public Sender {
public:
    TcpClientSender(Endpoint endpoint, std::vector<SocketAddress> addresses, const SenderOptions& options)
        : Sender(std::move(endpoint))
        , m_url(m_endpoint.toString())
        , m_addresses(std::move(addresses))
        , m_options(options)
    {
        m_addressNames.reserve(m_addresses.size());
        for (const auto& address : m_addresses)
            m_addressNames.push_back(address.toString());
    }

    // The first connection attempt. Fails only when no socket can be created.
    [[nodiscard]] Status start()
    {
        startConnect();
        if (m_phase == Phase::Waiting && m_lastSocketError != 0)
            return Error{m_url + ": cannot create a TCP socket: " + errnoText(m_lastSocketError), {}};
        return {};
    }

    std::size_t send(std::span<const std::span<const std::uint8_t>> packets) override
    {
        maintain();
        if (m_phase != Phase::Connected) {
            m_stats.notSent += packets.size();
            return 0;
        }
        const StreamWriteResult result = m_writer.write(m_fd.get(), packets, m_options.blocking);
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
        if (m_phase != Phase::Connected)
            return false;
        const std::array<std::span<const std::uint8_t>, 1> one{bytes};
        const StreamWriteResult result = m_writer.write(m_fd.get(), one, m_options.blocking);
        if (result.error != 0) {
            ++m_stats.errors;
            connectionLost(result.error);
        }
        return result.started == 1;
    }

    [[nodiscard]] bool connected() const override { return m_phase == Phase::Connected; }

    [[nodiscard]] std::string state() const override
    {
        const std::string& target = m_addressNames[m_addressIndex];
        switch (m_phase) {
        case Phase::Connected:
            return "connected to " + target + (m_behind ? " (peer not keeping up)" : "");
        case Phase::Connecting:
            return "connecting to " + target;
        case Phase::Waiting:
            break;
        }
        const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(m_retryAt - Clock::now());
        return "error: " + m_problem + " (retry in " + std::to_string(std::max<std::int64_t>(0, left.count())) + " ms)";
    }

    [[nodiscard]] std::uint16_t localPort() const override { return 0; }

private:
    enum class Phase : std::uint8_t { Waiting, Connecting, Connected };

    // Advances the connection: starts an attempt when the back-off has passed, completes one in
    // progress (blocking mode: waits for it up to the stall timeout), notices a peer that closed.
    void maintain()
    {
        if (m_phase == Phase::Waiting && Clock::now() >= m_retryAt)
            startConnect();
        if (m_phase == Phase::Connecting)
            finishConnect();
        if (m_phase == Phase::Connected)
            checkPeer();
    }

    void startConnect()
    {
        const SocketAddress& address = m_addresses[m_addressIndex];
        UniqueFd fd(::socket(address.family(), SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0));
        if (!fd.valid()) {
            m_lastSocketError = errno;
            connectFailed(m_lastSocketError);
            return;
        }
        m_lastSocketError = 0;
        setSendBuffer(fd.get(), m_options.sendBufferBytes);
        setTcpLiveness(fd.get());
        m_fd = std::move(fd);
        m_connectStarted = Clock::now();
        if (::connect(m_fd.get(), address.get(), address.length) == 0) {
            connectSucceeded();
            return;
        }
        const int error = errno;
        if (error == EINPROGRESS || error == EINTR) {
            m_phase = Phase::Connecting;
            return;
        }
        connectFailed(error);
    }

    void finishConnect()
    {
        const auto elapsed = std::chrono::duration_cast<std::chrono::milliseconds>(Clock::now() - m_connectStarted);
        const auto wait = m_options.blocking ? std::clamp(kConnectTimeout - elapsed, std::chrono::milliseconds(0),
                                                          StreamWriter::kStallTimeout)
                                             : std::chrono::milliseconds(0);
        if (waitWritable(m_fd.get(), wait)) {
            int error = 0;
            socklen_t length = sizeof error;
            if (::getsockopt(m_fd.get(), SOL_SOCKET, SO_ERROR, &error, &length) != 0)
                error = errno;
            if (error == 0)
                connectSucceeded();
            else
                connectFailed(error);
            return;
        }
        if (Clock::now() - m_connectStarted >= kConnectTimeout)
            connectFailed(ETIMEDOUT);
    }

    void connectSucceeded()
    {
        m_phase = Phase::Connected;
        ++m_stats.connects;
        m_backoff = kFirstBackoff;
        m_lastLoggedError = 0;
        m_behind = false;
        m_writer.clear();
        spdlog::info("{}: connected to {}", m_url, m_addressNames[m_addressIndex]);
    }

    void connectFailed(int error)
    {
        m_fd.reset();
        m_phase = Phase::Waiting;
        ++m_stats.errors;
        m_problem = errnoPhrase(error);
        m_retryAt = Clock::now() + m_backoff;
        if (error != m_lastLoggedError) {
            spdlog::warn("{}: cannot connect to {}: {}; retrying with back-off ({} ms doubling to {} ms)", m_url,
                         m_addressNames[m_addressIndex], m_problem, kFirstBackoff.count(), kMaxBackoff.count());
            m_lastLoggedError = error;
        }
        m_backoff = std::min(m_backoff * 2, kMaxBackoff);
        m_addressIndex = (m_addressIndex + 1) % m_addresses.size(); // a name may have several addresses
    }

    // error 0: the peer closed the connection.
    void connectionLost(int error)
    {
        m_fd.reset();
        m_writer.clear(); // the remainder of a begun packet is lost with the connection
        m_phase = Phase::Waiting;
        ++m_stats.disconnects;
        m_problem = error == 0 ? "connection closed by peer" : "connection lost: " + errnoPhrase(error);
        m_backoff = kFirstBackoff;
        m_retryAt = Clock::now() + m_backoff;
        m_backoff *= 2;
        m_lastLoggedError = 0;
        spdlog::warn("{}: {} ({}); reconnecting", m_url, m_problem, m_addressNames[m_addressIndex]);
    }

    // A receiver normally sends nothing: read and drop what it sends, and notice end of stream.
    void checkPeer()
    {
        for (int i = 0; i < kMaxDrainReads; ++i) {
            const ssize_t got = ::recv(m_fd.get(), m_scratch.data(), m_scratch.size(), MSG_DONTWAIT);
            if (got > 0)
                continue;
            if (got == 0) {
                connectionLost(0);
                return;
            }
            const int error = errno;
            if (error == EINTR)
                continue;
            if (error != EAGAIN && error != EWOULDBLOCK) {
                ++m_stats.errors;
                connectionLost(error);
            }
            return;
        }
    }

    // Logs once when the peer starts falling behind (packets not sent) and once when it catches up.
    void noteKeepingUp(bool allSent, bool stalled)
    {
        if (!allSent && !m_behind) {
            spdlog::warn("{}: {} is not keeping up{}; packets are counted as not sent", m_url,
                         m_addressNames[m_addressIndex], stalled ? " (it read nothing for 1 s)" : "");
            m_behind = true;
        } else if (allSent && m_behind) {
            spdlog::info("{}: {} is keeping up again", m_url, m_addressNames[m_addressIndex]);
            m_behind = false;
        }
    }

    std::string m_url;
    std::vector<SocketAddress> m_addresses;
    std::vector<std::string> m_addressNames;
    std::size_t m_addressIndex = 0;
    SenderOptions m_options;
    UniqueFd m_fd;
    Phase m_phase = Phase::Waiting;
    Clock::time_point m_connectStarted{};
    Clock::time_point m_retryAt{};
    std::chrono::milliseconds m_backoff = kFirstBackoff;
    std::string m_problem;    // why we are waiting, for state()
    int m_lastLoggedError = 0; // a repeated connect failure is logged once
    int m_lastSocketError = 0;
    bool m_behind = false;
    StreamWriter m_writer;
    std::array<std::uint8_t, 2048> m_scratch{};
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
