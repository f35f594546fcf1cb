#include "core/link/control_channel.hpp"

#include "core/io/endpoint.hpp"
#include "core/json/json_reading.hpp"

#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cerrno>

namespace telestation::link {

namespace {

using std::chrono::milliseconds;
using SteadyClock = std::chrono::steady_clock;

int remainingMs(SteadyClock::time_point deadline)
{
    const auto left = std::chrono::duration_cast<milliseconds>(deadline - SteadyClock::now()).count();
    return left < 0 ? 0 : static_cast<int>(std::min<long long>(left, 1 << 30));
}

} // namespace

Result<HostPort> parseHostPort(std::string_view text, bool portZeroAllowed)
{
    // The endpoint parser knows names, IPv4, bracketed IPv6 and port ranges; borrow it.
    auto endpoint = io::parseEndpoint("tcp://" + std::string(text));
    if (!endpoint)
        return Error{"'" + std::string(text) + "' is not HOST:PORT (" + endpoint.error().message + ")", {}};
    if (endpoint->port == 0 && !portZeroAllowed)
        return Error{"'" + std::string(text) + "': the port must be 1..65535", {}};
    return HostPort{endpoint->host, endpoint->port};
}

ControlChannel::ControlChannel(io::detail::UniqueFd fd) : m_fd(std::move(fd)) {}

Result<ControlChannel> ControlChannel::connect(const std::string& hostPort, milliseconds timeout)
{
    auto target = parseHostPort(hostPort, false);
    if (!target)
        return target.error();
    io::Endpoint endpoint;
    endpoint.scheme = io::Scheme::Tcp;
    endpoint.host = target->host;
    endpoint.port = target->port;
    auto addresses = io::detail::resolve(endpoint, SOCK_STREAM, false);
    if (!addresses)
        return addresses.error();
    std::string why = "no address for " + hostPort;
    const auto deadline = SteadyClock::now() + timeout;
    for (const io::detail::SocketAddress& address : *addresses) {
        io::detail::UniqueFd fd(::socket(address.family(), SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0));
        if (!fd.valid())
            return Error{"cannot create a socket: " + io::detail::errnoPhrase(errno), {}};
        if (::connect(fd.get(), address.get(), address.length) != 0 && errno != EINPROGRESS) {
            why = "cannot connect to " + address.toString() + ": " + io::detail::errnoPhrase(errno);
            continue;
        }
        pollfd p{fd.get(), POLLOUT, 0};
        const int ready = ::poll(&p, 1, remainingMs(deadline));
        int error = 0;
        socklen_t length = sizeof error;
        ::getsockopt(fd.get(), SOL_SOCKET, SO_ERROR, &error, &length);
        if (ready <= 0) {
            why = "no answer from " + address.toString() + " within " + std::to_string(timeout.count()) + " ms";
            continue;
        }
        if (error != 0) {
            why = "cannot connect to " + address.toString() + ": " + io::detail::errnoPhrase(error);
            continue;
        }
        const int one = 1;
        ::setsockopt(fd.get(), IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
        io::detail::setTcpLiveness(fd.get());
        return ControlChannel(std::move(fd));
    }
    return Error{why, {}};
}

Status ControlChannel::send(const Json& message)
{
    std::string line = message.dump(-1, ' ', false, Json::error_handler_t::replace);
    line += '\n';
    std::size_t done = 0;
    const auto deadline = SteadyClock::now() + std::chrono::seconds(30);
    while (done < line.size()) {
        const ssize_t n = ::send(m_fd.get(), line.data() + done, line.size() - done, MSG_NOSIGNAL);
        if (n > 0) {
            done += static_cast<std::size_t>(n);
            continue;
        }
        if (n < 0 && errno == EINTR)
            continue;
        if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) {
            if (!io::detail::waitWritable(m_fd.get(), milliseconds(remainingMs(deadline))))
                return Error{"the peer took nothing for 30 s", {}};
            continue;
        }
        return Error{"the control connection failed: " + io::detail::errnoPhrase(errno), {}};
    }
    return {};
}

Result<Json> ControlChannel::receive(milliseconds timeout)
{
    const auto deadline = SteadyClock::now() + timeout;
    m_lastLineNotJson = false;
    for (;;) {
        if (const auto newline = m_buffer.find('\n'); newline != std::string::npos) {
            const std::string line = m_buffer.substr(0, newline);
            m_buffer.erase(0, newline + 1);
            const json::Document document = json::parseDocument(line);
            if (document.syntaxError) {
                m_lastLineNotJson = true;
                return Error{"a control message is not JSON: " + document.syntaxError->message, {}};
            }
            return document.root;
        }
        if (m_buffer.size() > kMaxLineBytes)
            return Error{"a control message is longer than " + std::to_string(kMaxLineBytes) + " bytes", {}};
        pollfd p{m_fd.get(), POLLIN, 0};
        const int ready = ::poll(&p, 1, remainingMs(deadline));
        if (ready < 0 && errno == EINTR)
            continue;
        if (ready == 0)
            return Error{"no answer within " + std::to_string(static_cast<double>(timeout.count()) / 1000.0).substr(0, 5) + " s", {}};
        char chunk[65536];
        const ssize_t n = ::recv(m_fd.get(), chunk, sizeof chunk, 0);
        if (n == 0)
            return Error{"the peer closed the control connection", {}};
        if (n < 0) {
            if (errno == EINTR || errno == EAGAIN || errno == EWOULDBLOCK)
                continue;
            return Error{"the control connection failed: " + io::detail::errnoPhrase(errno), {}};
        }
        m_buffer.append(chunk, static_cast<std::size_t>(n));
    }
}

bool ControlChannel::waitReadable(milliseconds timeout)
{
    if (m_buffer.find('\n') != std::string::npos)
        return true;
    pollfd p{m_fd.get(), POLLIN, 0};
    return ::poll(&p, 1, static_cast<int>(timeout.count())) > 0;
}

bool ControlChannel::peerGone()
{
    pollfd p{m_fd.get(), POLLIN | POLLRDHUP, 0};
    if (::poll(&p, 1, 0) <= 0)
        return false;
    if (p.revents & (POLLERR | POLLHUP | POLLRDHUP))
        return true;
    char probe;
    const ssize_t n = ::recv(m_fd.get(), &probe, 1, MSG_PEEK | MSG_DONTWAIT);
    return n == 0 || (n < 0 && errno != EAGAIN && errno != EWOULDBLOCK && errno != EINTR);
}

std::string ControlChannel::peerAddress() const
{
    io::detail::SocketAddress peer;
    peer.length = sizeof peer.storage;
    if (::getpeername(m_fd.get(), reinterpret_cast<sockaddr*>(&peer.storage), &peer.length) != 0)
        return "?";
    return peer.toString();
}

std::string ControlChannel::localHost() const
{
    return hostOf(io::detail::localAddress(m_fd.get()).toString());
}

std::string hostOf(const std::string& addressWithPort)
{
    const auto colon = addressWithPort.rfind(':');
    std::string host = colon == std::string::npos ? addressWithPort : addressWithPort.substr(0, colon);
    if (host.size() > 2 && host.front() == '[')
        host = host.substr(1, host.size() - 2);
    return host;
}

} // namespace telestation::link
