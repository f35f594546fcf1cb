// TCP receivers: tcp:// connects as a client and reconnects with back-off; tcp-listen:// accepts any
// number of senders (up to kMaxSenders). Each connection's byte stream is cut into packets by its own
// ccsds::StreamFramer; the framers' counters add up to the receiver's.
#include "core/ccsds/stream_framer.hpp"

#include "core/common/clock.hpp"
#include "core/io/receiver_backends.hpp"
#include "core/io/socket_util.hpp"
#include "core/io/tcp_connector.hpp"

#include <poll.h>
#include <sys/socket.h>

#include <spdlog/spdlog.h>

#include <algorithm>
#include <cerrno>
#include <climits>
#include <mutex>
#include <thread>
#include <vector>

namespace telestation::io::detail {

namespace {

using Milliseconds = std::chrono::milliseconds;

// One read takes what the socket holds up to this size: large, so that a busy stream costs few calls.
constexpr std::size_t kReadBufferBytes = std::size_t{256} * 1024;
// Reads per connection per poll() call: bounded so that the thread comes back to check for a stop
// request, and so that one busy sender does not starve the others.
constexpr int kMaxReadsPerPoll = 4;
constexpr std::size_t kMaxSenders = 64;
constexpr int kBacklog = 16;

[[nodiscard]] ccsds::FramerOptions framerOptions(const ReceiverOptions& options)
{
    ccsds::FramerOptions framer;
    framer.transportHeaderBytes = options.transportHeaderBytes;
    framer.maxPacketSize = options.maxPacketSize;
    framer.resyncApids = options.resyncApids;
    return framer;
}

// Passes the framer's frames on to the packet sink, stamped with the time of the read they came from.
class FrameForwarder final : public ccsds::StreamFramer::Sink {
public:
    FrameForwarder(PacketSink& sink, std::int64_t receiveTimeNs) noexcept
        : m_sink(sink)
        , m_receiveTimeNs(receiveTimeNs)
    {
    }
    void onPacket(std::span<const std::uint8_t> frame) override
    {
        m_sink.onPacket(frame, m_receiveTimeNs);
        ++m_frames;
        m_bytes += frame.size();
    }
    [[nodiscard]] std::size_t frames() const noexcept { return m_frames; }
    [[nodiscard]] std::uint64_t bytes() const noexcept { return m_bytes; }

private:
    PacketSink& m_sink;
    std::int64_t m_receiveTimeNs;
    std::size_t m_frames = 0;
    std::uint64_t m_bytes = 0;
};

struct ReadResult {
    std::size_t frames = 0; // delivered to the sink
    bool ended = false;     // end of stream or an error: the connection is over
    int error = 0;          // with ended: the errno, 0 when the peer closed
};

// Reads what the connection has, a few buffers at most, into its framer; the sink's batch ends after
// each read that completed frames.
ReadResult readConnection(int fd, ccsds::StreamFramer& framer, std::span<std::uint8_t> buffer, PacketSink& sink,
                          ReceiverStats& stats)
{
    ReadResult result;
    for (int i = 0; i < kMaxReadsPerPoll; ++i) {
        const ssize_t got = ::recv(fd, buffer.data(), buffer.size(), MSG_DONTWAIT);
        if (got > 0) {
            ++stats.reads;
            FrameForwarder forwarder(sink, clock::realtimeNs());
            framer.push(buffer.first(static_cast<std::size_t>(got)), forwarder);
            if (forwarder.frames() > 0) {
                stats.packets += forwarder.frames();
                stats.bytes += forwarder.bytes();
                result.frames += forwarder.frames();
                sink.onBatchEnd();
            }
            if (static_cast<std::size_t>(got) < buffer.size())
                return result; // the socket is drained for now
            continue;
        }
        if (got == 0) {
            result.ended = true;
            return result;
        }
        const int error = errno;
        if (error == EINTR)
            continue;
        if (error != EAGAIN && error != EWOULDBLOCK) {
            result.ended = true;
            result.error = error;
        }
        return result;
    }
    return result;
}

// Framing counters: those of framers gone with their connections plus those of the live ones.
struct FramingTotals {
    ccsds::FramerStats framer;
    std::uint64_t truncated = 0;

    void add(const ccsds::StreamFramer& f) noexcept
    {
        framer.framingErrors += f.stats().framingErrors;
        framer.resyncs += f.stats().resyncs;
        framer.skippedBytes += f.stats().skippedBytes;
        truncated += f.truncated();
    }
    void copyTo(ReceiverStats& stats) const noexcept
    {
        stats.framingErrors = framer.framingErrors;
        stats.resyncs = framer.resyncs;
        stats.skippedBytes = framer.skippedBytes;
        stats.truncatedPackets = truncated;
    }
};

// ---- tcp:// ---------------------------------------------------------------------------------------

class TcpClientReceiver final : public Receiver, private TcpConnector::Events {
public:
    TcpClientReceiver(Endpoint endpoint, std::vector<SocketAddress> addresses, const ReceiverOptions& options)
        : Receiver(std::move(endpoint))
        , m_url(m_endpoint.toString())
        , m_log(m_url)
        , m_framer(framerOptions(options))
        , m_buffer(kReadBufferBytes)
        , m_connector(m_url, std::move(addresses), &setReceiveBuffer, options.receiveBufferBytes, *this)
        , m_shared(m_connector.status())
    {
    }

    // The first connection attempt. Fails only when no socket can be created.
    [[nodiscard]] Status start() { return m_connector.start(); }

    std::size_t poll(Milliseconds timeout, PacketSink& sink) override
    {
        const auto deadline = Clock::now() + std::max(timeout, Milliseconds(0));
        std::size_t delivered = 0;
        bool done = false;
        while (!done) {
            switch (m_connector.phase()) {
            case ConnectPhase::Waiting:
                done = waitToRetry(deadline);
                break;
            case ConnectPhase::Connecting:
                done = waitForConnect(deadline);
                break;
            case ConnectPhase::Connected:
                delivered += receive(deadline, sink);
                done = true;
                break;
            }
        }
        m_published.publish(m_stats);
        return delivered;
    }

    [[nodiscard]] std::string state() const override
    {
        const std::lock_guard lock(m_sharedMutex);
        return m_shared.text(std::chrono::ceil<Milliseconds>(m_shared.retryAt - Clock::now()));
    }

    [[nodiscard]] std::uint16_t localPort() const override { return 0; }
    [[nodiscard]] ReceiverStats stats() const override { return m_published.load(); }

private:
    // Waiting for the back-off to pass: starts the next attempt when it has. True when the call's time
    // is up.
    bool waitToRetry(Clock::time_point deadline)
    {
        const auto now = Clock::now();
        if (now >= m_connector.retryAt()) {
            m_connector.startAttempt();
            return false;
        }
        if (now >= deadline)
            return true;
        std::this_thread::sleep_until(std::min(deadline, m_connector.retryAt()));
        return false;
    }

    // A connection attempt in progress: waits for it to complete (or fail, or time out). True when the
    // call's time is up.
    bool waitForConnect(Clock::time_point deadline)
    {
        pollfd p{m_connector.fd(), POLLOUT, 0};
        const int rc = ::poll(&p, 1, pollTimeoutUntil(std::min(deadline, m_connector.connectDeadline())));
        if (rc > 0) {
            m_connector.complete();
            return false;
        }
        if (rc < 0 && errno != EINTR)
            countError("poll", errno);
        const auto now = Clock::now();
        if (m_connector.expireIfOverdue(now))
            return false;
        return now >= deadline;
    }

    // Connected: waits for data until the deadline, then reads what there is. Returns the frames delivered.
    std::size_t receive(Clock::time_point deadline, PacketSink& sink)
    {
        pollfd p{m_connector.fd(), POLLIN, 0};
        const int rc = ::poll(&p, 1, pollTimeoutUntil(deadline));
        if (rc <= 0) {
            if (rc < 0 && errno != EINTR)
                countError("poll", errno);
            return 0;
        }
        const ReadResult result = readConnection(m_connector.fd(), m_framer, m_buffer, sink, m_stats);
        if (result.ended)
            connectionLost(result.error);
        syncFraming();
        return result.frames;
    }

    void onConnecting() override { publishState(); }

    void onConnected() override
    {
        ++m_stats.connects;
        m_stats.connections = 1;
        publishState();
    }

    void onConnectFailed(int error, const std::string& failedTarget) override
    {
        countError("connect to " + failedTarget, error);
        publishState();
    }

    // error 0: the peer closed the connection.
    void connectionLost(int error)
    {
        const std::uint64_t truncatedBefore = m_framer.truncated();
        m_framer.reset(); // a partial packet is lost with the connection: counted in truncated()
        const bool partial = m_framer.truncated() != truncatedBefore;
        syncFraming();
        ++m_stats.disconnects;
        m_stats.connections = 0;
        if (error != 0)
            countError("receive from " + m_connector.target(), error);
        m_connector.disconnected(error);
        spdlog::info("{}: {} ({}){}; reconnecting", m_url, m_connector.problem(), m_connector.target(),
                     partial ? ", a partial packet discarded" : "");
        publishState();
    }

    // On a connection event: the counters are published first, so that whoever sees the new state also
    // sees the counters that changed with it (connects, disconnects, truncatedPackets).
    void publishState()
    {
        m_published.publish(m_stats);
        const std::lock_guard lock(m_sharedMutex);
        m_shared = m_connector.status();
    }

    void syncFraming()
    {
        FramingTotals totals;
        totals.add(m_framer); // one framer, reset between connections: its counters run on
        totals.copyTo(m_stats);
    }

    void countError(std::string_view operation, int error)
    {
        ++m_stats.errors;
        m_log.report(operation, error);
    }

    std::string m_url;
    ErrorLog m_log;
    ccsds::StreamFramer m_framer;
    std::vector<std::uint8_t> m_buffer; // kReadBufferBytes, allocated once
    TcpConnector m_connector;
    ReceiverStats m_stats;      // receiver thread only
    PublishedStats m_published; // what stats() reads

    // What state() shows, written on connection events by the receiver thread, read by any thread.
    mutable std::mutex m_sharedMutex;
    ConnectStatus m_shared;
};

// ---- tcp-listen:// --------------------------------------------------------------------------------

[[nodiscard]] std::string senderCount(std::size_t n)
{
    return std::to_string(n) + (n == 1 ? " sender" : " senders");
}

class TcpServerReceiver final : public Receiver {
public:
    TcpServerReceiver(Endpoint endpoint, TcpListener listener, const ReceiverOptions& options)
        : Receiver(std::move(endpoint))
        , m_url(m_endpoint.toString())
        , m_listener(std::move(listener))
        , m_options(options)
        , m_log(m_url)
        , m_buffer(kReadBufferBytes)
    {
        m_connections.reserve(kMaxSenders);
        m_pollFds.reserve(kMaxSenders + 1);
    }

    std::size_t poll(Milliseconds timeout, PacketSink& sink) override
    {
        m_pollFds.clear();
        m_pollFds.push_back(pollfd{m_listener.fd.get(), POLLIN, 0});
        for (const auto& connection : m_connections)
            m_pollFds.push_back(pollfd{connection->fd.get(), POLLIN, 0});
        const int rc = ::poll(m_pollFds.data(), m_pollFds.size(),
                              static_cast<int>(std::clamp<std::int64_t>(timeout.count(), 0, INT_MAX)));
        if (rc <= 0) {
            if (rc < 0 && errno != EINTR) {
                countError("poll", errno);
                m_published.publish(m_stats);
            }
            return 0;
        }
        std::size_t delivered = 0;
        bool closed = false;
        for (std::size_t i = 0; i < m_connections.size(); ++i) {
            if (m_pollFds[i + 1].revents == 0)
                continue;
            Connection& connection = *m_connections[i];
            const ReadResult result = readConnection(connection.fd.get(), connection.framer, m_buffer, sink, m_stats);
            delivered += result.frames;
            if (result.ended) {
                close(connection, result.error);
                closed = true;
            }
        }
        if (closed)
            std::erase_if(m_connections, [](const std::unique_ptr<Connection>& c) { return !c->fd.valid(); });
        if ((m_pollFds[0].revents & POLLIN) != 0)
            acceptPending();
        syncFraming();
        m_stats.connections = static_cast<std::uint32_t>(m_connections.size());
        m_published.publish(m_stats);
        return delivered;
    }

    [[nodiscard]] std::string state() const override
    {
        // The listening address never changes; the count is the published one.
        return "listening on " + m_listener.name + " (" + senderCount(m_published.load().connections) + ")";
    }

    [[nodiscard]] std::uint16_t localPort() const override { return m_listener.bound.port(); }
    [[nodiscard]] ReceiverStats stats() const override { return m_published.load(); }

private:
    struct Connection {
        Connection(UniqueFd socket, std::string name, const ccsds::FramerOptions& options)
            : fd(std::move(socket))
            , peer(std::move(name))
            , framer(options)
        {
        }
        UniqueFd fd;
        std::string peer;
        ccsds::StreamFramer framer;
    };

    void acceptPending()
    {
        // At most a backlog's worth per call: the thread comes back to its connections soon.
        for (int i = 0; i < kBacklog; ++i) {
            AcceptResult accepted = acceptConnection(m_listener.fd.get());
            if (accepted.outcome == AcceptResult::Outcome::Skipped)
                continue;
            if (accepted.outcome == AcceptResult::Outcome::Failed)
                countError("accept", accepted.error);
            if (accepted.outcome != AcceptResult::Outcome::Accepted)
                return;
            if (m_connections.size() >= kMaxSenders) {
                // Refused by closing at once: left in the backlog it would keep the listener readable.
                if (!m_refusing) {
                    spdlog::warn("{}: refusing sender {}: already {} (the limit); further refusals are not logged "
                                 "until one leaves",
                                 m_url, accepted.peer.toString(), senderCount(m_connections.size()));
                    m_refusing = true;
                }
                continue;
            }
            setTcpLiveness(accepted.fd.get());
            m_connections.push_back(
                std::make_unique<Connection>(std::move(accepted.fd), accepted.peer.toString(), m_framerOptions));
            ++m_stats.connects;
            spdlog::info("{}: sender {} connected ({})", m_url, m_connections.back()->peer,
                         senderCount(m_connections.size()));
        }
    }

    // error 0: the sender closed the connection. Removed from m_connections by the caller.
    void close(Connection& connection, int error)
    {
        connection.fd.reset();
        const std::uint64_t truncatedBefore = connection.framer.truncated();
        connection.framer.reset(); // a partial packet is lost with the connection: counted in truncated()
        const bool partial = connection.framer.truncated() != truncatedBefore;
        m_closedFraming.add(connection.framer);
        ++m_stats.disconnects;
        m_refusing = false;
        const auto remaining = static_cast<std::size_t>(std::count_if(
            m_connections.begin(), m_connections.end(), [](const auto& c) { return c->fd.valid(); }));
        if (error != 0) {
            ++m_stats.errors;
            m_log.report("receive from " + connection.peer, error);
        }
        spdlog::info("{}: sender {} {}{} ({} left)", m_url, connection.peer,
                     error == 0 ? std::string("disconnected") : "lost: " + errnoPhrase(error),
                     partial ? ", a partial packet discarded" : "", senderCount(remaining));
    }

    void syncFraming()
    {
        FramingTotals totals = m_closedFraming;
        for (const auto& connection : m_connections)
            totals.add(connection->framer);
        totals.copyTo(m_stats);
    }

    void countError(std::string_view operation, int error)
    {
        ++m_stats.errors;
        m_log.report(operation, error);
    }

    std::string m_url;
    const TcpListener m_listener; // never changes: state() and localPort() read it from any thread
    ReceiverOptions m_options;
    ccsds::FramerOptions m_framerOptions = framerOptions(m_options);
    ErrorLog m_log;
    std::vector<std::uint8_t> m_buffer; // kReadBufferBytes, shared by the connections, allocated once
    std::vector<std::unique_ptr<Connection>> m_connections;
    std::vector<pollfd> m_pollFds;
    FramingTotals m_closedFraming; // counters of the framers of closed connections
    bool m_refusing = false;       // at the sender limit; a refusal was logged
    ReceiverStats m_stats;         // receiver thread only
    PublishedStats m_published;    // what stats() and state() read
};

} // namespace

Result<std::unique_ptr<Receiver>> openTcpClientReceiver(const Endpoint& endpoint, const ReceiverOptions& options)
{
    auto addresses = resolve(endpoint, SOCK_STREAM, false);
    if (!addresses)
        return addresses.error();
    auto receiver = std::make_unique<TcpClientReceiver>(endpoint, std::move(addresses.value()), options);
    if (auto status = receiver->start(); !status)
        return status.error();
    spdlog::info("{}: receiving as a TCP client ({})", endpoint.toString(), receiver->state());
    return std::unique_ptr<Receiver>(std::move(receiver));
}

Result<std::unique_ptr<Receiver>> openTcpServerReceiver(const Endpoint& endpoint, const ReceiverOptions& options)
{
    int reported = 0;
    auto listener = listenTcp(endpoint, kBacklog, [&](int fd) {
        // Accepted connections inherit the listener's buffer, and the window scale is agreed in the handshake.
        reported = setReceiveBuffer(fd, options.receiveBufferBytes);
    });
    if (!listener)
        return listener.error();
    spdlog::info("{}: listening on {} for up to {} senders, receive buffer {} bytes", endpoint.toString(),
                 listener->name, kMaxSenders, reported / 2);
    return std::unique_ptr<Receiver>(std::make_unique<TcpServerReceiver>(endpoint, std::move(*listener), options));
}

} // namespace telestation::io::detail
