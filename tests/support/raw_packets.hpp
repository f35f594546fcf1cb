// Packets written by hand, for tests that need what the simulator will not send: a definition's
// length of zeros with a chosen sequence count, sent as raw UDP datagrams to a loopback port.
#pragma once

#include "core/ccsds/space_packet.hpp"
#include "core/mdb/model.hpp"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cstdint>
#include <span>
#include <vector>

namespace telestation::test {

// A packet of `def` (its APID, length and secondary header flag), data all zero, with this sequence count.
[[nodiscard]] inline std::vector<std::uint8_t> buildPacket(const mdb::PacketDef& def, std::uint16_t sequence)
{
    std::vector<std::uint8_t> bytes(def.length, 0);
    ccsds::PrimaryHeader h;
    h.secondaryHeader = def.secondaryHeader.has_value();
    h.apid = def.apid;
    h.sequenceCount = sequence;
    h.dataLength = static_cast<std::uint16_t>(def.length - 7);
    ccsds::writePrimaryHeader(h, bytes.data());
    return bytes;
}

// Datagrams to 127.0.0.1:`port`.
class UdpSender {
public:
    explicit UdpSender(std::uint16_t port) : m_fd(::socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0))
    {
        m_to.sin_family = AF_INET;
        m_to.sin_port = htons(port);
        m_to.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    }
    ~UdpSender()
    {
        if (m_fd >= 0)
            ::close(m_fd);
    }
    UdpSender(const UdpSender&) = delete;
    UdpSender& operator=(const UdpSender&) = delete;

    // False if the datagram was not sent whole.
    bool send(std::span<const std::uint8_t> bytes)
    {
        return ::sendto(m_fd, bytes.data(), bytes.size(), 0, reinterpret_cast<const sockaddr*>(&m_to), sizeof m_to)
               == static_cast<ssize_t>(bytes.size());
    }

private:
    int m_fd;
    sockaddr_in m_to{};
};

} // namespace telestation::test
