// UDP receiver (udp://, unicast and multicast): one bound datagram socket, drained with recvmmsg into
// buffers allocated at open. UDP GRO hands over runs of equal-sized datagrams as one buffer, split
// here by the segment size the kernel reports; SO_RXQ_OVFL reports the socket's drop counter.
#include "core/io/receiver_backends.hpp"

#include "core/common/clock.hpp"
#include "core/io/socket_util.hpp"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <netinet/udp.h>
#include <poll.h>
#include <sys/socket.h>

#include <spdlog/spdlog.h>

#include <algorithm>
#include <cerrno>
#include <climits>
#include <cstring>
#include <vector>

namespace telestation::io::detail {

namespace {

// Larger than any UDP payload (65507 bytes over IPv4, 65527 over IPv6), and than any GRO buffer (the
// kernel keeps a coalesced run under 64 KiB), so MSG_TRUNC means something is badly wrong.
constexpr std::size_t kDatagramBufferBytes = 65536;
// recvmmsg batches per poll() call: bounded so that the thread comes back to check for a stop request.
constexpr int kMaxBatchesPerPoll = 4;
constexpr std::size_t kMaxBatch = 1024; // UIO_MAXIOV: the kernel's limit on one recvmmsg call
// Room for the control messages we ask for: the GRO segment size and the drop counter.
constexpr std::size_t kControlBytes = CMSG_SPACE(sizeof(int)) + CMSG_SPACE(sizeof(std::uint32_t)) + 32;

[[nodiscard]] int pollTimeout(std::chrono::milliseconds timeout) noexcept
{
    return static_cast<int>(std::clamp<std::int64_t>(timeout.count(), 0, INT_MAX));
}

class UdpReceiver final : public Receiver {
public:
    UdpReceiver(Endpoint endpoint, UniqueFd fd, std::string state, std::uint16_t port, std::size_t batch,
                bool kernelDropsSupported)
        : Receiver(std::move(endpoint))
        , m_fd(std::move(fd))
        , m_state(std::move(state))
        , m_port(port)
        , m_batch(batch)
        , m_log(m_endpoint.toString())
        , m_buffers(std::make_unique_for_overwrite<std::uint8_t[]>(batch * kDatagramBufferBytes))
        , m_messages(batch)
        , m_iov(batch)
        , m_control(batch)
    {
        for (std::size_t i = 0; i < batch; ++i) {
            m_iov[i] = iovec{m_buffers.get() + i * kDatagramBufferBytes, kDatagramBufferBytes};
            msghdr& h = m_messages[i].msg_hdr;
            h.msg_iov = &m_iov[i];
            h.msg_iovlen = 1;
            h.msg_control = m_control[i].bytes;
        }
        m_stats.kernelDropsSupported = kernelDropsSupported;
        m_published.publish(m_stats);
    }

    std::size_t poll(std::chrono::milliseconds timeout, PacketSink& sink) override
    {
        pollfd p{m_fd.get(), POLLIN, 0};
        const int ready = ::poll(&p, 1, pollTimeout(timeout));
        if (ready <= 0) {
            if (ready < 0 && errno != EINTR)
                countError("poll", errno);
            return 0;
        }
        std::size_t delivered = 0;
        for (int batch = 0; batch < kMaxBatchesPerPoll; ++batch) {
            for (auto& message : m_messages) {
                // The kernel overwrites these with what it returned; everything else stays as set up.
                message.msg_hdr.msg_controllen = kControlBytes;
                message.msg_hdr.msg_flags = 0;
            }
            const int received = ::recvmmsg(m_fd.get(), m_messages.data(), static_cast<unsigned>(m_batch),
                                            MSG_DONTWAIT, nullptr);
            if (received < 0) {
                const int error = errno;
                if (error == EINTR)
                    continue;
                if (error != EAGAIN && error != EWOULDBLOCK)
                    countError("recvmmsg", error);
                break;
            }
            if (received == 0)
                break;
            delivered += deliver(static_cast<std::size_t>(received), sink);
            sink.onBatchEnd();
            m_published.publish(m_stats);
            // recvmmsg stops early only when the queue is empty: another call would return EAGAIN.
            if (static_cast<std::size_t>(received) < m_batch)
                break;
        }
        return delivered;
    }

    [[nodiscard]] std::string state() const override { return m_state; }
    [[nodiscard]] std::uint16_t localPort() const override { return m_port; }
    [[nodiscard]] ReceiverStats stats() const override { return m_published.load(); }

private:
    std::size_t deliver(std::size_t received, PacketSink& sink)
    {
        ++m_stats.reads;
        const std::int64_t now = clock::realtimeNs();
        std::size_t delivered = 0;
        for (std::size_t i = 0; i < received; ++i) {
            const msghdr& h = m_messages[i].msg_hdr;
            const std::size_t segment = readControl(h);
            if ((h.msg_flags & MSG_TRUNC) != 0) {
                ++m_stats.truncatedDatagrams; // part of it is lost: never deliver a cut datagram
                continue;
            }
            const std::uint8_t* data = m_buffers.get() + i * kDatagramBufferBytes;
            const std::size_t size = m_messages[i].msg_len;
            if (segment == 0 || size <= segment) {
                sink.onPacket({data, size}, now);
                ++delivered;
                m_stats.bytes += size;
                continue;
            }
            // A GRO run: datagrams of `segment` bytes back to back, the last one possibly shorter.
            for (std::size_t offset = 0; offset < size; offset += segment) {
                const std::size_t length = std::min(segment, size - offset);
                sink.onPacket({data + offset, length}, now);
                ++delivered;
            }
            m_stats.bytes += size;
        }
        m_stats.packets += delivered;
        return delivered;
    }

    // Reads the control messages of one datagram: returns the GRO segment size (0 if none) and keeps
    // the kernel's drop counter.
    std::size_t readControl(const msghdr& h)
    {
        std::size_t segment = 0;
        // CMSG_NXTHDR takes a non-const msghdr in glibc; it only reads it.
        auto* header = const_cast<msghdr*>(&h);
        for (cmsghdr* c = CMSG_FIRSTHDR(header); c != nullptr; c = CMSG_NXTHDR(header, c)) {
            if (c->cmsg_level == SOL_UDP && c->cmsg_type == UDP_GRO && c->cmsg_len >= CMSG_LEN(sizeof(int))) {
                int size = 0;
                std::memcpy(&size, CMSG_DATA(c), sizeof size);
                segment = size > 0 ? static_cast<std::size_t>(size) : 0;
            } else if (c->cmsg_level == SOL_SOCKET && c->cmsg_type == SO_RXQ_OVFL
                       && c->cmsg_len >= CMSG_LEN(sizeof(std::uint32_t))) {
                // The socket's cumulative drop counter (32 bits) when this datagram was queued. Adding
                // the difference keeps kernelDrops equal to it, and counting on past a wrap.
                std::uint32_t counter = 0;
                std::memcpy(&counter, CMSG_DATA(c), sizeof counter);
                m_stats.kernelDrops += static_cast<std::uint32_t>(counter - m_lastDropCounter);
                m_lastDropCounter = counter;
            }
        }
        return segment;
    }

    void countError(std::string_view operation, int error)
    {
        ++m_stats.errors;
        m_log.report(operation, error);
        m_published.publish(m_stats);
    }

    UniqueFd m_fd;
    const std::string m_state; // never changes: no lock needed to read it from any thread
    std::uint16_t m_port;
    std::size_t m_batch;
    ErrorLog m_log;
    ReceiverStats m_stats;        // receiver thread only
    PublishedStats m_published;   // what stats() reads
    std::uint32_t m_lastDropCounter = 0;
    struct alignas(cmsghdr) Control {
        unsigned char bytes[kControlBytes];
    };
    std::unique_ptr<std::uint8_t[]> m_buffers; // m_batch buffers of kDatagramBufferBytes
    std::vector<mmsghdr> m_messages;
    std::vector<iovec> m_iov;
    std::vector<Control> m_control;
};

[[nodiscard]] bool isMulticast(const SocketAddress& address)
{
    if (address.family() == AF_INET) {
        sockaddr_in v4{};
        std::memcpy(&v4, &address.storage, sizeof v4);
        return (ntohl(v4.sin_addr.s_addr) >> 28) == 0xE; // 224.0.0.0/4
    }
    sockaddr_in6 v6{};
    std::memcpy(&v6, &address.storage, sizeof v6);
    return v6.sin6_addr.s6_addr[0] == 0xFF; // ff00::/8
}

// The same family's wildcard address with the given port.
[[nodiscard]] SocketAddress wildcard(int family, std::uint16_t port)
{
    SocketAddress address;
    if (family == AF_INET) {
        sockaddr_in v4{};
        v4.sin_family = AF_INET;
        v4.sin_port = htons(port);
        v4.sin_addr.s_addr = htonl(INADDR_ANY);
        std::memcpy(&address.storage, &v4, sizeof v4);
        address.length = sizeof v4;
    } else {
        sockaddr_in6 v6{};
        v6.sin6_family = AF_INET6;
        v6.sin6_port = htons(port);
        v6.sin6_addr = in6addr_any;
        std::memcpy(&address.storage, &v6, sizeof v6);
        address.length = sizeof v6;
    }
    return address;
}

[[nodiscard]] SocketAddress withPort(SocketAddress address, std::uint16_t port)
{
    if (address.family() == AF_INET) {
        sockaddr_in v4{};
        std::memcpy(&v4, &address.storage, sizeof v4);
        v4.sin_port = htons(port);
        std::memcpy(&address.storage, &v4, sizeof v4);
    } else {
        sockaddr_in6 v6{};
        std::memcpy(&v6, &address.storage, sizeof v6);
        v6.sin6_port = htons(port);
        std::memcpy(&address.storage, &v6, sizeof v6);
    }
    return address;
}

// Binds a multicast socket. On the group address, so that the socket only sees that group's datagrams
// (not those of other groups on the same port); on the wildcard address where the system refuses that.
[[nodiscard]] Status bindMulticast(int fd, const SocketAddress& group, const std::string& url)
{
    if (::bind(fd, group.get(), group.length) == 0)
        return {};
    const int error = errno;
    const SocketAddress any = wildcard(group.family(), group.port());
    if (::bind(fd, any.get(), any.length) == 0)
        return {};
    return Error{url + ": cannot bind " + group.toString() + ": " + errnoText(error), {}};
}

// Joins the group on the endpoint's interface (the system's choice when none is given).
[[nodiscard]] Status joinGroup(int fd, const SocketAddress& group, const Endpoint& endpoint)
{
    const std::string url = endpoint.toString();
    const std::string where = endpoint.iface.empty() ? std::string() : " on " + endpoint.iface;
    if (group.family() == AF_INET) {
        sockaddr_in v4{};
        std::memcpy(&v4, &group.storage, sizeof v4);
        ip_mreq request{};
        request.imr_multiaddr = v4.sin_addr;
        request.imr_interface.s_addr = htonl(INADDR_ANY);
        if (!endpoint.iface.empty() && ::inet_pton(AF_INET, endpoint.iface.c_str(), &request.imr_interface) != 1)
            return Error{url + ": iface '" + endpoint.iface + "' is not an IPv4 address", {}};
        if (::setsockopt(fd, IPPROTO_IP, IP_ADD_MEMBERSHIP, &request, sizeof request) != 0)
            return Error{url + ": cannot join the multicast group " + endpoint.host + where + ": " + errnoText(errno), {}};
        return {};
    }
    sockaddr_in6 v6{};
    std::memcpy(&v6, &group.storage, sizeof v6);
    ipv6_mreq request{};
    request.ipv6mr_multiaddr = v6.sin6_addr;
    request.ipv6mr_interface = v6.sin6_scope_id; // a zone in the URL ([ff02::1%eth0]) names the interface
    if (!endpoint.iface.empty()) {
        request.ipv6mr_interface = interfaceIndexOfIpv6(endpoint.iface);
        if (request.ipv6mr_interface == 0)
            return Error{url + ": no local interface has the address " + endpoint.iface, {}};
    }
    if (::setsockopt(fd, IPPROTO_IPV6, IPV6_JOIN_GROUP, &request, sizeof request) != 0)
        return Error{url + ": cannot join the multicast group " + endpoint.host + where + ": " + errnoText(errno), {}};
    return {};
}

[[nodiscard]] bool setFlag(int fd, int level, int name, int value)
{
    return ::setsockopt(fd, level, name, &value, sizeof value) == 0;
}

} // namespace

Result<std::unique_ptr<Receiver>> openUdpReceiver(const Endpoint& endpoint, const ReceiverOptions& options)
{
    const std::string url = endpoint.toString();
    auto addresses = resolve(endpoint, SOCK_DGRAM, true);
    if (!addresses)
        return addresses.error();
    const SocketAddress& address = addresses->front();
    const bool multicast = isMulticast(address);
    if (!multicast && !endpoint.iface.empty())
        return Error{url + ": iface is only valid for a multicast group", {}};

    UniqueFd fd(::socket(address.family(), SOCK_DGRAM | SOCK_CLOEXEC, 0));
    if (!fd.valid())
        return Error{url + ": cannot create a UDP socket: " + errnoText(errno), {}};
    // Before bind: the buffer must be large from the first datagram on.
    const int reported = setReceiveBuffer(fd.get(), options.receiveBufferBytes);
    const int granted = reported / 2; // the kernel reports twice the usable size
    const bool gro = options.udpGro && setFlag(fd.get(), SOL_UDP, UDP_GRO, 1);
    const bool dropCounter = setFlag(fd.get(), SOL_SOCKET, SO_RXQ_OVFL, 1);

    if (multicast) {
        // Several receivers (here or in other programs) may share the group's port.
        (void)setFlag(fd.get(), SOL_SOCKET, SO_REUSEADDR, 1);
        // Only the groups this socket joined, not every group any socket on the host joined.
        if (address.family() == AF_INET)
            (void)setFlag(fd.get(), IPPROTO_IP, IP_MULTICAST_ALL, 0);
        else
            (void)setFlag(fd.get(), IPPROTO_IPV6, IPV6_MULTICAST_ALL, 0);
        if (auto status = bindMulticast(fd.get(), address, url); !status)
            return status.error();
        if (auto status = joinGroup(fd.get(), address, endpoint); !status)
            return status.error();
    } else if (::bind(fd.get(), address.get(), address.length) != 0) {
        return Error{url + ": cannot bind " + address.toString() + ": " + errnoText(errno), {}};
    }
    const SocketAddress bound = localAddress(fd.get());
    if (bound.length == 0)
        return Error{url + ": cannot read the bound address: " + errnoText(errno), {}};

    std::string state = "receiving on ";
    if (multicast) {
        state += withPort(address, bound.port()).toString() + " (multicast";
        state += endpoint.iface.empty() ? std::string(")") : " via " + endpoint.iface + ")";
    } else {
        state += bound.toString();
    }
    const std::size_t batch = std::clamp<std::size_t>(options.batch, 1, kMaxBatch);
    spdlog::info("{}: {}, receive buffer {} bytes{}, batches of {}{}{}", url, state, granted,
                 granted < options.receiveBufferBytes
                     ? " (" + std::to_string(options.receiveBufferBytes)
                           + " requested; net.core.rmem_max caps it without CAP_NET_ADMIN)"
                     : std::string(),
                 batch, gro ? ", UDP GRO" : "", dropCounter ? "" : ", kernel drop counter unavailable");
    return std::unique_ptr<Receiver>(
        std::make_unique<UdpReceiver>(endpoint, std::move(fd), std::move(state), bound.port(), batch, dropCounter));
}

} // namespace telestation::io::detail
