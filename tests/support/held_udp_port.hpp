// A loopback UDP port some "other program" holds for the test's lifetime: a source configured on it
// cannot open (EADDRINUSE), so tests can check how a stream that fails to start is shown.
#pragma once

#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cstdint>

namespace telestation::test {

class HeldUdpPort {
public:
    HeldUdpPort()
    {
        m_fd = ::socket(AF_INET, SOCK_DGRAM, 0);
        sockaddr_in address{};
        address.sin_family = AF_INET;
        address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
        socklen_t length = sizeof address;
        if (m_fd >= 0 && ::bind(m_fd, reinterpret_cast<const sockaddr*>(&address), sizeof address) == 0
            && ::getsockname(m_fd, reinterpret_cast<sockaddr*>(&address), &length) == 0)
            m_port = ntohs(address.sin_port);
    }
    ~HeldUdpPort()
    {
        if (m_fd >= 0)
            ::close(m_fd);
    }
    HeldUdpPort(const HeldUdpPort&) = delete;
    HeldUdpPort& operator=(const HeldUdpPort&) = delete;

    // 0 when the port could not be taken (the test should fail on it).
    [[nodiscard]] std::uint16_t port() const noexcept { return m_port; }

private:
    int m_fd = -1;
    std::uint16_t m_port = 0;
};

} // namespace telestation::test
