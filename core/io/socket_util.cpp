#include "core/io/socket_util.hpp"

#include <arpa/inet.h>
#include <ifaddrs.h>
#include <net/if.h>
#include <netdb.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <unistd.h>

#include <spdlog/spdlog.h>

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cstring>
#include <memory>
#include <system_error>

namespace telestation::io::detail {

namespace {
// TCP liveness: probe an idle connection after 10 s, every 5 s, give up after 3 probes; drop a
// connection whose sent data stays unacknowledged for 30 s.
constexpr int kKeepIdleSeconds = 10;
constexpr int kKeepIntervalSeconds = 5;
constexpr int kKeepCount = 3;
constexpr unsigned kUserTimeoutMs = 30'000;

void setIntOption(int fd, int level, int name, int value)
{
    // Best effort: these options tune behaviour; the socket works without them.
    (void)::setsockopt(fd, level, name, &value, sizeof value);
}
} // namespace

void UniqueFd::reset(int fd) noexcept
{
    if (m_fd >= 0)
        ::close(m_fd);
    m_fd = fd;
}

std::string SocketAddress::toString() const
{
    std::array<char, NI_MAXHOST> host{};
    std::array<char, NI_MAXSERV> service{};
    if (::getnameinfo(get(), length, host.data(), static_cast<socklen_t>(host.size()), service.data(),
                      static_cast<socklen_t>(service.size()), NI_NUMERICHOST | NI_NUMERICSERV) != 0)
        return "?";
    if (family() == AF_INET6)
        return std::string("[") + host.data() + "]:" + service.data();
    return std::string(host.data()) + ":" + service.data();
}

std::uint16_t SocketAddress::port() const noexcept
{
    if (family() == AF_INET) {
        sockaddr_in v4{};
        std::memcpy(&v4, &storage, sizeof v4);
        return ntohs(v4.sin_port);
    }
    if (family() == AF_INET6) {
        sockaddr_in6 v6{};
        std::memcpy(&v6, &storage, sizeof v6);
        return ntohs(v6.sin6_port);
    }
    return 0;
}

std::string errnoText(int error)
{
    return std::error_code(error, std::system_category()).message();
}

std::string errnoPhrase(int error)
{
    std::string text = errnoText(error);
    if (!text.empty())
        text[0] = static_cast<char>(std::tolower(static_cast<unsigned char>(text[0])));
    return text;
}

Result<std::vector<SocketAddress>> resolve(const Endpoint& endpoint, int socketType, bool passive)
{
    addrinfo hints{};
    hints.ai_family = AF_UNSPEC;
    hints.ai_socktype = socketType;
    hints.ai_flags = AI_NUMERICSERV | (passive ? AI_PASSIVE : 0);
    const std::string service = std::to_string(endpoint.port);
    addrinfo* found = nullptr;
    const int rc = ::getaddrinfo(endpoint.host.c_str(), service.c_str(), &hints, &found);
    if (rc != 0) {
        const std::string reason = rc == EAI_SYSTEM ? errnoText(errno) : std::string(::gai_strerror(rc));
        return Error{endpoint.toString() + ": cannot resolve '" + endpoint.host + "': " + reason, {}};
    }
    const std::unique_ptr<addrinfo, decltype(&::freeaddrinfo)> owner(found, &::freeaddrinfo);
    std::vector<SocketAddress> addresses;
    for (const addrinfo* ai = found; ai != nullptr; ai = ai->ai_next) {
        if ((ai->ai_family != AF_INET && ai->ai_family != AF_INET6) || ai->ai_addrlen > sizeof(sockaddr_storage))
            continue;
        SocketAddress address;
        std::memcpy(&address.storage, ai->ai_addr, ai->ai_addrlen);
        address.length = ai->ai_addrlen;
        addresses.push_back(address);
    }
    if (addresses.empty())
        return Error{endpoint.toString() + ": '" + endpoint.host + "' has no IPv4 or IPv6 address", {}};
    return addresses;
}

SocketAddress localAddress(int fd)
{
    SocketAddress address;
    address.length = sizeof address.storage;
    if (::getsockname(fd, reinterpret_cast<sockaddr*>(&address.storage), &address.length) != 0)
        address.length = 0;
    return address;
}

int setSendBuffer(int fd, int bytes)
{
    if (bytes > 0) {
        setIntOption(fd, SOL_SOCKET, SO_SNDBUF, bytes);
        int effective = 0;
        socklen_t length = sizeof effective;
        // The kernel doubles the request for its bookkeeping; half of what it reports is what was granted.
        if (::getsockopt(fd, SOL_SOCKET, SO_SNDBUF, &effective, &length) == 0 && effective / 2 < bytes)
            setIntOption(fd, SOL_SOCKET, SO_SNDBUFFORCE, bytes);
    }
    int effective = 0;
    socklen_t length = sizeof effective;
    if (::getsockopt(fd, SOL_SOCKET, SO_SNDBUF, &effective, &length) != 0)
        return 0;
    return effective;
}

int setReceiveBuffer(int fd, int bytes)
{
    if (bytes > 0) {
        setIntOption(fd, SOL_SOCKET, SO_RCVBUF, bytes);
        int effective = 0;
        socklen_t length = sizeof effective;
        // As for the send buffer: the kernel reports twice what it granted.
        if (::getsockopt(fd, SOL_SOCKET, SO_RCVBUF, &effective, &length) == 0 && effective / 2 < bytes)
            setIntOption(fd, SOL_SOCKET, SO_RCVBUFFORCE, bytes);
    }
    int effective = 0;
    socklen_t length = sizeof effective;
    if (::getsockopt(fd, SOL_SOCKET, SO_RCVBUF, &effective, &length) != 0)
        return 0;
    return effective;
}

void setTcpLiveness(int fd)
{
    setIntOption(fd, SOL_SOCKET, SO_KEEPALIVE, 1);
    setIntOption(fd, IPPROTO_TCP, TCP_KEEPIDLE, kKeepIdleSeconds);
    setIntOption(fd, IPPROTO_TCP, TCP_KEEPINTVL, kKeepIntervalSeconds);
    setIntOption(fd, IPPROTO_TCP, TCP_KEEPCNT, kKeepCount);
    (void)::setsockopt(fd, IPPROTO_TCP, TCP_USER_TIMEOUT, &kUserTimeoutMs, sizeof kUserTimeoutMs);
}

unsigned interfaceIndexOfIpv6(std::string_view address)
{
    in6_addr wanted{};
    const std::string text(address.substr(0, address.find('%')));
    if (::inet_pton(AF_INET6, text.c_str(), &wanted) != 1)
        return 0;
    ifaddrs* list = nullptr;
    if (::getifaddrs(&list) != 0)
        return 0;
    unsigned index = 0;
    for (const ifaddrs* it = list; it != nullptr && index == 0; it = it->ifa_next) {
        if (it->ifa_addr == nullptr || it->ifa_addr->sa_family != AF_INET6)
            continue;
        sockaddr_in6 candidate{};
        std::memcpy(&candidate, it->ifa_addr, sizeof candidate);
        if (std::memcmp(&candidate.sin6_addr, &wanted, sizeof wanted) == 0)
            index = ::if_nametoindex(it->ifa_name);
    }
    ::freeifaddrs(list);
    return index;
}

bool waitWritable(int fd, std::chrono::milliseconds timeout)
{
    const auto deadline = Clock::now() + timeout;
    while (true) {
        pollfd p{fd, POLLOUT, 0};
        const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - Clock::now());
        const int rc = ::poll(&p, 1, static_cast<int>(std::max<std::int64_t>(0, left.count())));
        if (rc > 0)
            return true;
        if (rc == 0)
            return false;
        if (errno != EINTR)
            return true; // let the next write report the problem
    }
}

Result<TcpListener> listenTcp(const Endpoint& endpoint, int backlog, const std::function<void(int fd)>& configure)
{
    const std::string url = endpoint.toString();
    auto addresses = resolve(endpoint, SOCK_STREAM, true);
    if (!addresses)
        return addresses.error();
    const SocketAddress& address = addresses->front();
    TcpListener listener;
    listener.fd.reset(::socket(address.family(), SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0));
    if (!listener.fd.valid())
        return Error{url + ": cannot create a TCP socket: " + errnoText(errno), {}};
    const int fd = listener.fd.get();
    setIntOption(fd, SOL_SOCKET, SO_REUSEADDR, 1);
    if (configure)
        configure(fd);
    // errno is read before anything else runs: printing the address may change it.
    if (::bind(fd, address.get(), address.length) != 0) {
        const int error = errno;
        return Error{url + ": cannot bind " + address.toString() + ": " + errnoText(error), {}};
    }
    if (::listen(fd, backlog) != 0) {
        const int error = errno;
        return Error{url + ": cannot listen on " + address.toString() + ": " + errnoText(error), {}};
    }
    listener.bound = localAddress(fd);
    if (listener.bound.length == 0)
        return Error{url + ": cannot read the bound address: " + errnoText(errno), {}};
    listener.name = listener.bound.toString();
    return listener;
}

AcceptResult acceptConnection(int listener)
{
    AcceptResult result;
    result.peer.length = sizeof result.peer.storage;
    result.fd.reset(::accept4(listener, reinterpret_cast<sockaddr*>(&result.peer.storage), &result.peer.length,
                              SOCK_NONBLOCK | SOCK_CLOEXEC));
    if (result.fd.valid()) {
        result.outcome = AcceptResult::Outcome::Accepted;
        return result;
    }
    const int error = errno;
    if (error == EAGAIN || error == EWOULDBLOCK) {
        result.outcome = AcceptResult::Outcome::NonePending;
    } else if (error == EINTR || error == ECONNABORTED || error == EPROTO || error == ENETDOWN || error == ENETUNREACH
               || error == EHOSTDOWN || error == EHOSTUNREACH || error == ENONET || error == ENOPROTOOPT
               || error == EOPNOTSUPP) {
        result.outcome = AcceptResult::Outcome::Skipped;
    } else {
        result.outcome = AcceptResult::Outcome::Failed;
        result.error = error;
    }
    return result;
}

std::optional<int> drainPeer(int fd, int maxReads)
{
    std::array<std::uint8_t, 2048> scratch{};
    for (int i = 0; i < maxReads; ++i) {
        const ssize_t got = ::recv(fd, scratch.data(), scratch.size(), MSG_DONTWAIT);
        if (got > 0)
            continue;
        if (got == 0)
            return 0;
        const int error = errno;
        if (error == EINTR)
            continue;
        if (error != EAGAIN && error != EWOULDBLOCK)
            return error;
        return std::nullopt;
    }
    return std::nullopt;
}

void ErrorLog::report(std::string_view operation, int error)
{
    const auto now = Clock::now();
    Kind* kind = nullptr;
    for (std::size_t i = 0; i < m_kindCount; ++i) {
        if (m_kinds[i].error == error)
            kind = &m_kinds[i];
    }
    if (kind == nullptr) {
        // A new kind: remember it (the oldest slot is reused when all are taken) and log it now.
        kind = &m_kinds[m_kindCount < m_kinds.size() ? m_kindCount++ : m_kinds.size() - 1];
        *kind = Kind{error, 0, now};
        spdlog::warn("{}: {} failed: {} (further errors of this kind are counted and summarised every {} s)",
                     m_context, operation, errnoPhrase(error), kSummaryInterval.count());
        return;
    }
    ++kind->unreported;
    if (now - kind->lastLogged >= kSummaryInterval) {
        spdlog::warn("{}: {} failed {} more times: {}", m_context, operation, kind->unreported, errnoPhrase(error));
        kind->unreported = 0;
        kind->lastLogged = now;
    }
}

} // namespace telestation::io::detail
