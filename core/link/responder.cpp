#include "core/link/responder.hpp"

#include "core/common/thread_name.hpp"
#include "core/io/endpoint.hpp"
#include "core/io/socket_util.hpp"
#include "core/link/control_channel.hpp"
#include "core/link/link_report.hpp"
#include "core/link/phase_receiver.hpp"
#include "core/link/station_telemetry.hpp"

#include <arpa/inet.h>
#include <netdb.h>
#include <poll.h>
#include <sys/eventfd.h>
#include <unistd.h>

#include <spdlog/spdlog.h>

#include <algorithm>
#include <cerrno>
#include <mutex>

namespace telestation::link {

namespace {

using namespace std::chrono_literals;

// At most this many messages a session may get wrong before the responder ends it.
constexpr int kMaxBadMessages = 8;

bool isLoopback(const std::string& host)
{
    in_addr v4{};
    if (::inet_pton(AF_INET, host.c_str(), &v4) == 1)
        return (ntohl(v4.s_addr) >> 24) == 127;
    in6_addr v6{};
    if (::inet_pton(AF_INET6, host.c_str(), &v6) != 1)
        return false;
    if (IN6_IS_ADDR_LOOPBACK(&v6))
        return true;
    return IN6_IS_ADDR_V4MAPPED(&v6) && v6.s6_addr[12] == 127;
}

// The numeric addresses of a name ("192.0.2.7", "::1"), v4-mapped forms included.
Result<std::vector<std::string>> numericAddresses(const std::string& name)
{
    addrinfo hints{};
    hints.ai_family = AF_UNSPEC;
    hints.ai_socktype = SOCK_STREAM;
    addrinfo* found = nullptr;
    if (const int rc = ::getaddrinfo(name.c_str(), nullptr, &hints, &found); rc != 0)
        return Error{"--allow: cannot resolve '" + name + "': " + ::gai_strerror(rc), {}};
    std::vector<std::string> out;
    for (addrinfo* a = found; a; a = a->ai_next) {
        char text[INET6_ADDRSTRLEN] = {};
        if (a->ai_family == AF_INET) {
            ::inet_ntop(AF_INET, &reinterpret_cast<sockaddr_in*>(a->ai_addr)->sin_addr, text, sizeof text);
            out.emplace_back(text);
            out.push_back("::ffff:" + std::string(text));
        } else if (a->ai_family == AF_INET6) {
            ::inet_ntop(AF_INET6, &reinterpret_cast<sockaddr_in6*>(a->ai_addr)->sin6_addr, text, sizeof text);
            out.emplace_back(text);
        }
    }
    ::freeaddrinfo(found);
    return out;
}

} // namespace

struct Responder::Impl {
    ResponderOptions options;
    std::vector<std::string> allowed; // numeric
    io::detail::TcpListener listener;
    io::detail::UniqueFd wake;
    std::thread acceptThread;
    std::thread sessionThread;
    std::atomic<bool> stopping{false};
    std::atomic<bool> sessionRunning{false};
    std::atomic<bool> done{false};
    std::atomic<std::uint64_t> sessions{0}, refused{0}, phases{0};
    std::mutex peerMutex;
    std::string currentPeer; // under peerMutex

    void acceptLoop()
    {
        setThreadName("ts-link-resp");
        while (!stopping.load()) {
            pollfd polls[2] = {{listener.fd.get(), POLLIN, 0}, {wake.get(), POLLIN, 0}};
            ::poll(polls, 2, 200);
            if (stopping.load())
                break;
            if (!(polls[0].revents & POLLIN))
                continue;
            io::detail::AcceptResult accepted = io::detail::acceptConnection(listener.fd.get());
            if (accepted.outcome == io::detail::AcceptResult::Outcome::Failed) {
                spdlog::warn("link responder on {}: accept failed: {}", listener.name, io::detail::errnoPhrase(accepted.error));
                continue;
            }
            if (accepted.outcome != io::detail::AcceptResult::Outcome::Accepted)
                continue;
            admit(std::move(accepted.fd), accepted.peer.toString());
        }
        done.store(true);
    }

    void admit(io::detail::UniqueFd fd, const std::string& peer)
    {
        ControlChannel channel(std::move(fd));
        const std::string host = hostOf(peer);
        if (!isLoopback(host) && std::find(allowed.begin(), allowed.end(), host) == allowed.end()) {
            refused += 1;
            spdlog::warn("link responder on {}: refused a controller from {}: not an allowed address", listener.name, peer);
            (void)channel.send(errorMessage("this responder accepts link tests only from loopback"
                                            + std::string(allowed.empty() ? "" : " and the addresses it was given (--allow)")
                                            + "; " + host + " is not one of them"));
            return;
        }
        if (sessionRunning.load()) {
            refused += 1;
            std::string running;
            {
                std::lock_guard lock(peerMutex);
                running = currentPeer;
            }
            spdlog::info("link responder on {}: refused a controller from {}: busy with {}", listener.name, peer, running);
            (void)channel.send(errorMessage("busy: a link test from " + running + " is running; try again when it is over"));
            return;
        }
        if (sessionThread.joinable())
            sessionThread.join();
        {
            std::lock_guard lock(peerMutex);
            currentPeer = peer;
        }
        sessionRunning.store(true);
        sessionThread = std::thread([this, c = std::move(channel), peer]() mutable {
            setThreadName("ts-link-sess");
            spdlog::info("link responder on {}: test from {} started", listener.name, peer);
            const std::string end = runSession(c);
            spdlog::info("link responder on {}: test from {} ended: {}", listener.name, peer, end);
            sessions += 1;
            sessionRunning.store(false);
            if (options.once) {
                stopping.store(true);
                const std::uint64_t one = 1;
                [[maybe_unused]] const auto written = ::write(wake.get(), &one, sizeof one);
            }
        });
    }

    // One controller's session; returns how it ended.
    std::string runSession(ControlChannel& channel)
    {
        auto first = channel.receive(10s);
        if (!first)
            return first.error().message;
        auto kind = kindOf(*first);
        if (!kind || *kind != MessageKind::Hello) {
            (void)channel.send(errorMessage("a link test session starts with hello"));
            return "no hello";
        }
        auto hello = helloFrom(*first);
        if (!hello || hello->version != kProtocolVersion) {
            const std::string why = hello ? "protocol version " + std::to_string(hello->version) + " is not spoken here (this responder speaks "
                                                + std::to_string(kProtocolVersion) + ")"
                                          : hello.error().message;
            (void)channel.send(errorMessage(why));
            return why;
        }
        if (auto sent = channel.send(helloMessage(hostName())); !sent)
            return sent.error().message;

        std::unique_ptr<PhaseReceiver> receiver;
        std::unique_ptr<StationTelemetry> telemetry;
        int bad = 0;
        while (!stopping.load()) {
            if (!channel.waitReadable(200ms))
                continue;
            auto message = channel.receive(5s);
            if (!message && !channel.lastLineNotJson())
                return "the controller went away (" + message.error().message + ")";
            if (!message) { // a line that is not JSON: answered and counted like any malformed message
                if (auto sent = channel.send(errorMessage(message.error().message)); !sent)
                    return "the controller went away (" + sent.error().message + ")";
                if (++bad >= kMaxBadMessages)
                    return "too many malformed messages";
                continue;
            }
            auto what = kindOf(*message);
            Status answered;
            if (!what) {
                answered = channel.send(errorMessage(what.error().message));
                if (++bad >= kMaxBadMessages)
                    return "too many malformed messages";
            } else if (*what == MessageKind::Bye) {
                return "bye";
            } else if (*what == MessageKind::Start) {
                answered = startPhase(channel, *message, receiver, telemetry);
            } else if (*what == MessageKind::Finish) {
                if (receiver) {
                    const PhaseResult result = receiver->finish(300ms, 15s);
                    receiver.reset();
                    answered = channel.send(resultMessage(result));
                } else if (telemetry) {
                    PhaseResult result;
                    result.station = telemetry->finish(500ms, 30s);
                    result.messages = result.station.received;
                    telemetry.reset();
                    answered = channel.send(resultMessage(result));
                } else {
                    answered = channel.send(errorMessage("finish, but no phase is running"));
                }
            } else {
                answered = channel.send(errorMessage("unexpected message '" + std::string(messageName(*what)) + "' from a controller"));
                if (++bad >= kMaxBadMessages)
                    return "too many unexpected messages";
            }
            if (!answered)
                return "the controller went away (" + answered.error().message + ")";
        }
        return "the responder stopped";
    }

    Status startPhase(ControlChannel& channel, const Json& message, std::unique_ptr<PhaseReceiver>& receiver,
                      std::unique_ptr<StationTelemetry>& telemetry)
    {
        if (receiver || telemetry)
            return channel.send(errorMessage("start, but a phase is running: finish it first"));
        const auto phase = message.find("phase");
        if (phase == message.end())
            return channel.send(errorMessage("$.phase is missing"));
        auto request = phaseRequestFromJson(*phase, "$.phase");
        if (!request)
            return channel.send(errorMessage(request.error().message));
        const std::string bindHost = channel.localHost();
        phases += 1;
        if (request->test == TestKind::Telemetry) {
            if (!options.mission)
                return channel.send(errorMessage("this responder has no mission database: it cannot run the telemetry test"));
            auto opened = StationTelemetry::open(*options.mission, request->packet, bindHost);
            if (!opened)
                return channel.send(errorMessage(opened.error().message));
            telemetry = std::move(*opened);
            return channel.send(readyMessage(telemetry->port()));
        }
        auto opened = PhaseReceiver::open(*request, bindHost);
        if (!opened)
            return channel.send(errorMessage(opened.error().message));
        receiver = std::move(*opened);
        return channel.send(readyMessage(receiver->port()));
    }
};

Responder::Responder(std::unique_ptr<Impl> impl) : m_impl(std::move(impl)) {}

Responder::~Responder()
{
    stop();
}

Result<std::unique_ptr<Responder>> Responder::start(ResponderOptions options)
{
    auto where = parseHostPort(options.listen, true);
    if (!where)
        return Error{"link responder: " + where.error().message, {}};
    auto impl = std::make_unique<Impl>();
    for (const std::string& name : options.allow) {
        auto numeric = numericAddresses(name);
        if (!numeric)
            return numeric.error();
        impl->allowed.insert(impl->allowed.end(), numeric->begin(), numeric->end());
    }
    io::Endpoint endpoint;
    endpoint.scheme = io::Scheme::TcpListen;
    endpoint.host = where->host;
    endpoint.port = where->port;
    auto listener = io::detail::listenTcp(endpoint, 8);
    if (!listener)
        return Error{"link responder: " + listener.error().message, {}};
    impl->listener = std::move(*listener);
    impl->wake = io::detail::UniqueFd(::eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK));
    impl->options = std::move(options);
    Impl* raw = impl.get();
    impl->acceptThread = std::thread([raw] { raw->acceptLoop(); });
    spdlog::info("link responder listening on {}", impl->listener.name);
    return std::unique_ptr<Responder>(new Responder(std::move(impl)));
}

void Responder::stop()
{
    if (!m_impl)
        return;
    m_impl->stopping.store(true);
    const std::uint64_t one = 1;
    [[maybe_unused]] const auto written = ::write(m_impl->wake.get(), &one, sizeof one);
    if (m_impl->acceptThread.joinable())
        m_impl->acceptThread.join();
    if (m_impl->sessionThread.joinable())
        m_impl->sessionThread.join();
    m_impl->done.store(true);
}

std::uint16_t Responder::port() const noexcept
{
    return m_impl->listener.bound.port();
}

std::string Responder::address() const
{
    return m_impl->listener.name;
}

bool Responder::finished() const noexcept
{
    return m_impl->done.load();
}

bool Responder::busy() const noexcept
{
    return m_impl->sessionRunning.load();
}

ResponderCounts Responder::counts() const noexcept
{
    return {m_impl->sessions.load(), m_impl->refused.load(), m_impl->phases.load()};
}

} // namespace telestation::link
