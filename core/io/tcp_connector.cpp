#include "core/io/tcp_connector.hpp"

#include <sys/socket.h>

#include <spdlog/spdlog.h>

#include <algorithm>
#include <cerrno>

namespace telestation::io::detail {

std::string ConnectStatus::text(std::chrono::milliseconds retryIn) const
{
    switch (phase) {
    case ConnectPhase::Connected:
        return "connected to " + target;
    case ConnectPhase::Connecting:
        return "connecting to " + target;
    case ConnectPhase::Waiting:
        break;
    }
    return "error: " + problem + " (retry in " + std::to_string(std::max<std::int64_t>(0, retryIn.count())) + " ms)";
}

TcpConnector::TcpConnector(std::string url, std::vector<SocketAddress> addresses, BufferOption setBuffer,
                           int bufferBytes, Events& events)
    : m_url(std::move(url))
    , m_addresses(std::move(addresses))
    , m_setBuffer(setBuffer)
    , m_bufferBytes(bufferBytes)
    , m_events(events)
{
    m_addressNames.reserve(m_addresses.size());
    for (const auto& address : m_addresses)
        m_addressNames.push_back(address.toString());
}

Status TcpConnector::start()
{
    startAttempt();
    if (m_phase == ConnectPhase::Waiting && m_lastSocketError != 0)
        return Error{m_url + ": cannot create a TCP socket: " + errnoText(m_lastSocketError), {}};
    return {};
}

void TcpConnector::startAttempt()
{
    const SocketAddress& address = m_addresses[m_addressIndex];
    UniqueFd fd(::socket(address.family(), SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0));
    if (!fd.valid()) {
        m_lastSocketError = errno;
        failed(m_lastSocketError);
        return;
    }
    m_lastSocketError = 0;
    (void)m_setBuffer(fd.get(), m_bufferBytes);
    setTcpLiveness(fd.get());
    m_fd = std::move(fd);
    m_connectStarted = Clock::now();
    m_phase = ConnectPhase::Connecting;
    m_problem.clear();
    m_events.onConnecting();
    if (::connect(m_fd.get(), address.get(), address.length) == 0) {
        succeeded();
        return;
    }
    const int error = errno;
    if (error != EINPROGRESS && error != EINTR)
        failed(error);
}

void TcpConnector::complete()
{
    int error = 0;
    socklen_t length = sizeof error;
    if (::getsockopt(m_fd.get(), SOL_SOCKET, SO_ERROR, &error, &length) != 0)
        error = errno;
    if (error == 0)
        succeeded();
    else
        failed(error);
}

bool TcpConnector::expireIfOverdue(Clock::time_point now)
{
    if (now < connectDeadline())
        return false;
    failed(ETIMEDOUT);
    return true;
}

void TcpConnector::disconnected(int error)
{
    m_fd.reset();
    m_phase = ConnectPhase::Waiting;
    m_problem = error == 0 ? "connection closed by peer" : "connection lost: " + errnoPhrase(error);
    // The connection worked: the next attempt comes soon, and its back-off starts afresh.
    m_backoff = kFirstBackoff;
    m_retryAt = Clock::now() + m_backoff;
    m_backoff *= 2;
}

ConnectStatus TcpConnector::status() const
{
    return ConnectStatus{m_phase, target(), m_problem, m_retryAt};
}

void TcpConnector::succeeded()
{
    m_phase = ConnectPhase::Connected;
    m_backoff = kFirstBackoff;
    m_events.onConnected();
    spdlog::info("{}: connected to {}", m_url, target());
}

void TcpConnector::failed(int error)
{
    m_fd.reset();
    m_phase = ConnectPhase::Waiting;
    m_problem = errnoPhrase(error);
    m_retryAt = Clock::now() + m_backoff;
    m_backoff = std::min(m_backoff * 2, kMaxBackoff);
    const std::size_t failedIndex = m_addressIndex;
    m_addressIndex = (m_addressIndex + 1) % m_addresses.size(); // a name may have several addresses
    m_events.onConnectFailed(error, m_addressNames[failedIndex]);
}

} // namespace telestation::io::detail
