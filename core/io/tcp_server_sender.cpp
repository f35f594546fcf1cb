// TCP server sender (tcp-listen://): listens on open, accepts clients at each send, writes every
// packet to every client through one StreamWriter per client.
#include "core/io/sender_backends.hpp"
#include "core/io/socket_util.hpp"
#include "core/io/stream_writer.hpp"

#include <poll.h>

#include <spdlog/spdlog.h>

#include <algorithm>
#include <array>

namespace telestation::io::detail {

namespace {

constexpr int kBacklog = 16;
constexpr int kMaxAcceptsPerCall = 64;
constexpr int kMaxDrainReads = 16;
constexpr std::size_t kExpectedClients = 16; // poll array capacity reserved up front

[[nodiscard]] std::string clientCount(std::size_t n)
{
    return std::to_string(n) + (n == 1 ? " client" : " clients");
}

class TcpServerSender final : public Sender {
public:
    TcpServerSender(Endpoint endpoint, TcpListener listener, const SenderOptions& options)
        : Sender(std::move(endpoint))
        , m_url(m_endpoint.toString())
        , m_listener(std::move(listener))
        , m_options(options)
        , m_log(m_url)
    {
        m_clients.reserve(kExpectedClients);
        m_pollFds.reserve(kExpectedClients + 1);
    }

    std::size_t send(std::span<const std::span<const std::uint8_t>> packets) override
    {
        maintain();
        std::size_t best = 0; // the longest prefix any client took: those packets count as sent
        std::uint64_t bestBytes = 0;
        for (auto& client : m_clients) {
            const StreamWriteResult result = client->writer.write(client->fd.get(), packets, m_options.blocking);
            if (result.started > best) {
                best = result.started;
                bestBytes = result.bytes;
            }
            if (result.error != 0) {
                ++m_stats.errors;
                dropClient(*client, result.error);
            } else if (!packets.empty()) {
                noteKeepingUp(*client, result.started == packets.size(), result.stalled);
            }
        }
        removeDroppedClients();
        m_stats.packets += best;
        m_stats.bytes += bestBytes;
        m_stats.notSent += packets.size() - best;
        return best;
    }

    bool sendRaw(std::span<const std::uint8_t> bytes) override
    {
        maintain();
        const std::array<std::span<const std::uint8_t>, 1> one{bytes};
        bool any = false;
        for (auto& client : m_clients) {
            const StreamWriteResult result = client->writer.write(client->fd.get(), one, m_options.blocking);
            any = any || result.started == 1;
            if (result.error != 0) {
                ++m_stats.errors;
                dropClient(*client, result.error);
            }
        }
        removeDroppedClients();
        return any;
    }

    [[nodiscard]] bool connected() const override { return !m_clients.empty(); }

    [[nodiscard]] std::string state() const override
    {
        return "listening on " + m_listener.name + " (" + clientCount(m_clients.size()) + ")";
    }

    [[nodiscard]] std::uint64_t stateVersion() const override { return m_clients.size(); }

    [[nodiscard]] std::uint16_t localPort() const override { return m_listener.bound.port(); }

private:
    struct Client {
        UniqueFd fd;
        std::string peer;
        StreamWriter writer;
        bool behind = false;
    };

    // One poll() for the listener and every client: accept new clients, notice clients that closed.
    void maintain()
    {
        m_pollFds.clear();
        m_pollFds.push_back(pollfd{m_listener.fd.get(), POLLIN, 0});
        for (const auto& client : m_clients)
            m_pollFds.push_back(pollfd{client->fd.get(), POLLIN | POLLRDHUP, 0});
        if (::poll(m_pollFds.data(), m_pollFds.size(), 0) <= 0)
            return;
        for (std::size_t i = 0; i < m_clients.size(); ++i) {
            if (m_pollFds[i + 1].revents != 0)
                drainClient(*m_clients[i]);
        }
        removeDroppedClients();
        if ((m_pollFds[0].revents & POLLIN) != 0)
            acceptPending();
    }

    void acceptPending()
    {
        for (int i = 0; i < kMaxAcceptsPerCall; ++i) {
            AcceptResult accepted = acceptConnection(m_listener.fd.get());
            if (accepted.outcome == AcceptResult::Outcome::Skipped)
                continue;
            if (accepted.outcome == AcceptResult::Outcome::Failed) {
                ++m_stats.errors;
                m_log.report("accept", accepted.error);
            }
            if (accepted.outcome != AcceptResult::Outcome::Accepted)
                return;
            setSendBuffer(accepted.fd.get(), m_options.sendBufferBytes);
            setTcpLiveness(accepted.fd.get());
            auto client = std::make_unique<Client>();
            client->fd = std::move(accepted.fd);
            client->peer = accepted.peer.toString();
            m_clients.push_back(std::move(client));
            ++m_stats.connects;
            spdlog::info("{}: client {} connected ({})", m_url, m_clients.back()->peer, clientCount(m_clients.size()));
        }
    }

    // A receiver normally sends nothing: read and drop what it sends, and notice end of stream.
    void drainClient(Client& client)
    {
        if (const auto ended = drainPeer(client.fd.get(), kMaxDrainReads)) {
            if (*ended != 0)
                ++m_stats.errors;
            dropClient(client, *ended);
        }
    }

    // error 0: the client closed the connection. The client is removed by removeDroppedClients().
    void dropClient(Client& client, int error)
    {
        if (!client.fd.valid())
            return;
        client.fd.reset();
        ++m_stats.disconnects;
        const auto remaining = static_cast<std::size_t>(
            std::count_if(m_clients.begin(), m_clients.end(), [](const auto& c) { return c->fd.valid(); }));
        spdlog::info("{}: client {} {} ({} left)", m_url, client.peer,
                     error == 0 ? std::string("disconnected") : "lost: " + errnoPhrase(error), clientCount(remaining));
    }

    void removeDroppedClients()
    {
        std::erase_if(m_clients, [](const std::unique_ptr<Client>& c) { return !c->fd.valid(); });
    }

    void noteKeepingUp(Client& client, bool allSent, bool stalled)
    {
        if (!allSent && !client.behind) {
            spdlog::warn("{}: client {} is not keeping up{}; packets it misses are not sent to it", m_url, client.peer,
                         stalled ? " (it read nothing for 1 s)" : "");
            client.behind = true;
        } else if (allSent && client.behind) {
            spdlog::info("{}: client {} is keeping up again", m_url, client.peer);
            client.behind = false;
        }
    }

    std::string m_url;
    TcpListener m_listener;
    SenderOptions m_options;
    ErrorLog m_log;
    std::vector<std::unique_ptr<Client>> m_clients;
    std::vector<pollfd> m_pollFds;
};

} // namespace

Result<std::unique_ptr<Sender>> openTcpServerSender(const Endpoint& endpoint, const SenderOptions& options)
{
    auto listener = listenTcp(endpoint, kBacklog);
    if (!listener)
        return listener.error();
    spdlog::info("{}: listening on {}", endpoint.toString(), listener->name);
    return std::unique_ptr<Sender>(std::make_unique<TcpServerSender>(endpoint, std::move(*listener), options));
}

} // namespace telestation::io::detail
