// UDP sender: one connect()-ed datagram socket per destination, batches out with sendmmsg.
#include "core/io/sender_backends.hpp"
#include "core/io/socket_util.hpp"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <netinet/udp.h>
#include <poll.h>
#include <sys/socket.h>

#include <spdlog/spdlog.h>

#include <algorithm>
#include <array>
#include <cerrno>
#include <cstring>
#include <thread>

namespace telestation::io::detail {

namespace {

constexpr std::size_t kBatch = 64;           // packets per sendmmsg call
constexpr std::size_t kMaxSegments = 64;     // UDP_MAX_SEGMENTS of the kernel
constexpr std::size_t kMaxGsoBytes = 65000;  // a GSO buffer stays under the 64 KiB datagram limit
// A blocking send that waits longer than this returns EAGAIN (then retried within kFullQueueBudget),
// so one call can never hang.
constexpr timeval kSendTimeout{0, 250'000};
// When the kernel's queue is full (EAGAIN / ENOBUFS), retry for at most this long without progress.
constexpr std::chrono::milliseconds kFullQueueBudget{200};
constexpr std::chrono::milliseconds kFullQueuePoll{5};

// The retry budget of one stall: starts at the first full-queue error, ends at the next progress.
class FullQueueWait {
public:
    // Waits a little for room; false when the budget is spent.
    bool wait(int fd)
    {
        const auto now = Clock::now();
        if (!m_active) {
            m_active = true;
            m_deadline = now + kFullQueueBudget;
        }
        if (now >= m_deadline)
            return false;
        pollfd p{fd, POLLOUT, 0};
        if (::poll(&p, 1, static_cast<int>(kFullQueuePoll.count())) > 0) {
            // ENOBUFS comes from a device queue the socket cannot see: writable at once says nothing.
            std::this_thread::sleep_for(std::chrono::milliseconds(1));
        }
        return true;
    }
    void progress() noexcept { m_active = false; }

private:
    bool m_active = false;
    Clock::time_point m_deadline{};
};

[[nodiscard]] bool isFullQueue(int error)
{
    return error == EAGAIN || error == EWOULDBLOCK || error == ENOBUFS;
}

class UdpSender final : public Sender {
public:
    UdpSender(Endpoint endpoint, UniqueFd fd, std::string destination, bool segmentation)
        : Sender(std::move(endpoint))
        , m_fd(std::move(fd))
        , m_destination(std::move(destination))
        , m_operation("send to " + m_destination)
        , m_log(m_endpoint.toString())
        , m_segmentation(segmentation)
    {
    }

    std::size_t send(std::span<const std::span<const std::uint8_t>> packets) override
    {
        const std::size_t count = packets.size();
        std::size_t next = 0;
        std::size_t sent = 0;
        bool retried = false; // the message at `next` failed once already
        int callError = 0;
        FullQueueWait full;
        while (next < count) {
            const std::size_t messages = prepare(packets, next);
            const int rc = ::sendmmsg(m_fd.get(), m_messages.data(), static_cast<unsigned>(messages), 0);
            if (rc > 0) {
                // Each message carries m_segments[i] packets.
                for (std::size_t i = 0; i < static_cast<std::size_t>(rc); ++i) {
                    for (std::size_t k = 0; k < m_segments[i]; ++k)
                        m_stats.bytes += packets[next + k].size();
                    next += m_segments[i];
                    sent += m_segments[i];
                }
                retried = false;
                full.progress();
                continue;
            }
            const int error = rc < 0 ? errno : EAGAIN;
            if (error == EINTR)
                continue;
            if (m_segments[0] > 1 && (error == EIO || error == EINVAL || error == EOPNOTSUPP || error == EMSGSIZE)) {
                // The kernel or the route cannot segment (an old kernel, a device without UDP GSO, an
                // MTU below the packet size): plain datagrams from now on.
                spdlog::info("{}: UDP segmentation offload unavailable ({}); sending plain datagrams",
                             m_destination, errnoPhrase(error));
                m_segmentation = false;
                continue;
            }
            if (isFullQueue(error)) {
                if (full.wait(m_fd.get()))
                    continue;
                countError(error);
                callError = error;
                m_stats.notSent += count - next;
                break;
            }
            // Typically ECONNREFUSED: an ICMP error about an EARLIER datagram (nobody listening), reported
            // instead of sending this one. Retry this message once; a second failure drops its packets.
            countError(error);
            callError = error;
            if (!retried) {
                retried = true;
                continue;
            }
            m_stats.notSent += m_segments[0];
            next += m_segments[0];
            retried = false;
        }
        m_stats.packets += sent;
        setLastError(callError);
        return sent;
    }

    bool sendRaw(std::span<const std::uint8_t> bytes) override
    {
        bool retried = false;
        FullQueueWait full;
        while (true) {
            if (::send(m_fd.get(), bytes.data(), bytes.size(), 0) >= 0) {
                setLastError(0);
                return true;
            }
            const int error = errno;
            if (error == EINTR)
                continue;
            if (isFullQueue(error) && full.wait(m_fd.get()))
                continue;
            countError(error);
            setLastError(error);
            if (isFullQueue(error) || retried)
                return false;
            retried = true;
        }
    }

    [[nodiscard]] bool connected() const override { return true; }

    [[nodiscard]] std::string state() const override
    {
        std::string text = "sending to " + m_destination;
        if (m_lastError != 0)
            text += " (last error: " + errnoPhrase(m_lastError) + ")";
        return text;
    }

    [[nodiscard]] std::uint64_t stateVersion() const override { return m_stateVersion; }

    [[nodiscard]] std::uint16_t localPort() const override { return 0; }

private:
    void setLastError(int error) noexcept
    {
        if (error != m_lastError)
            ++m_stateVersion;
        m_lastError = error;
    }

    // Fills m_messages with packets[first ...] (at most kBatch packets); with segmentation, each run of
    // equal-sized packets becomes one message with a UDP_SEGMENT control message. Returns the number of
    // messages; m_segments[i] is the number of packets in message i.
    std::size_t prepare(std::span<const std::span<const std::uint8_t>> packets, std::size_t first)
    {
        const std::size_t end = std::min(packets.size(), first + kBatch);
        std::size_t messages = 0;
        std::size_t i = first;
        while (i < end) {
            const std::size_t size = packets[i].size();
            std::size_t run = 1;
            if (m_segmentation && size > 0) {
                const std::size_t limit = std::min(kMaxSegments, std::max<std::size_t>(1, kMaxGsoBytes / size));
                while (i + run < end && run < limit && packets[i + run].size() == size)
                    ++run;
            }
            const std::size_t iov0 = i - first;
            for (std::size_t k = 0; k < run; ++k) {
                // iovec has no const variant; sendmmsg only reads from it.
                m_iov[iov0 + k] = iovec{const_cast<std::uint8_t*>(packets[i + k].data()), packets[i + k].size()};
            }
            msghdr& h = m_messages[messages].msg_hdr;
            h = msghdr{};
            h.msg_iov = &m_iov[iov0];
            h.msg_iovlen = run;
            if (run > 1) {
                auto& control = m_control[messages];
                h.msg_control = control.bytes;
                h.msg_controllen = sizeof control.bytes;
                cmsghdr* c = CMSG_FIRSTHDR(&h);
                c->cmsg_level = SOL_UDP;
                c->cmsg_type = UDP_SEGMENT;
                c->cmsg_len = CMSG_LEN(sizeof(std::uint16_t));
                const auto segment = static_cast<std::uint16_t>(size);
                std::memcpy(CMSG_DATA(c), &segment, sizeof segment);
            }
            m_segments[messages] = run;
            ++messages;
            i += run;
        }
        return messages;
    }

    void countError(int error)
    {
        ++m_stats.errors;
        m_log.report(m_operation, error);
    }

    UniqueFd m_fd;
    std::string m_destination;
    std::string m_operation; // for the error log, built once: errors may come with every call
    ErrorLog m_log;
    int m_lastError = 0; // errno of the last failed call, 0 after a call without errors
    std::uint64_t m_stateVersion = 0; // moves with m_lastError
    bool m_segmentation;
    std::array<mmsghdr, kBatch> m_messages{};
    std::array<iovec, kBatch> m_iov{};
    std::array<std::size_t, kBatch> m_segments{};
    struct alignas(cmsghdr) Control {
        unsigned char bytes[CMSG_SPACE(sizeof(std::uint16_t))];
    };
    std::array<Control, kBatch> m_control{};
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

// Sets TTL / hop limit, loopback and the outgoing interface of a multicast sender.
[[nodiscard]] Status setMulticastOptions(int fd, const SocketAddress& group, const Endpoint& endpoint,
                                         const SenderOptions& options)
{
    const std::string url = endpoint.toString();
    const auto failed = [&](std::string_view what) {
        return Error{url + ": cannot set " + std::string(what) + ": " + errnoText(errno), {}};
    };
    const int ttl = std::clamp(options.multicastTtl, 0, 255);
    const int loop = options.multicastLoopback ? 1 : 0;
    if (group.family() == AF_INET) {
        if (::setsockopt(fd, IPPROTO_IP, IP_MULTICAST_TTL, &ttl, sizeof ttl) != 0)
            return failed("the multicast TTL");
        if (::setsockopt(fd, IPPROTO_IP, IP_MULTICAST_LOOP, &loop, sizeof loop) != 0)
            return failed("multicast loopback");
        if (!endpoint.iface.empty()) {
            in_addr iface{};
            if (::inet_pton(AF_INET, endpoint.iface.c_str(), &iface) != 1)
                return Error{url + ": iface '" + endpoint.iface + "' is not an IPv4 address", {}};
            if (::setsockopt(fd, IPPROTO_IP, IP_MULTICAST_IF, &iface, sizeof iface) != 0)
                return failed("the multicast interface " + endpoint.iface);
        }
        return {};
    }
    if (::setsockopt(fd, IPPROTO_IPV6, IPV6_MULTICAST_HOPS, &ttl, sizeof ttl) != 0)
        return failed("the multicast hop limit");
    if (::setsockopt(fd, IPPROTO_IPV6, IPV6_MULTICAST_LOOP, &loop, sizeof loop) != 0)
        return failed("multicast loopback");
    if (!endpoint.iface.empty()) {
        const unsigned index = interfaceIndexOfIpv6(endpoint.iface);
        if (index == 0)
            return Error{url + ": no local interface has the address " + endpoint.iface, {}};
        if (::setsockopt(fd, IPPROTO_IPV6, IPV6_MULTICAST_IF, &index, sizeof index) != 0)
            return failed("the multicast interface " + endpoint.iface);
    }
    return {};
}

} // namespace

Result<std::unique_ptr<Sender>> openUdpSender(const Endpoint& endpoint, const SenderOptions& options)
{
    const std::string url = endpoint.toString();
    auto addresses = resolve(endpoint, SOCK_DGRAM, false);
    if (!addresses)
        return addresses.error();
    const SocketAddress& destination = addresses->front();
    UniqueFd fd(::socket(destination.family(), SOCK_DGRAM | SOCK_CLOEXEC, 0));
    if (!fd.valid())
        return Error{url + ": cannot create a UDP socket: " + errnoText(errno), {}};
    const int sendBuffer = setSendBuffer(fd.get(), options.sendBufferBytes);
    (void)::setsockopt(fd.get(), SOL_SOCKET, SO_SNDTIMEO, &kSendTimeout, sizeof kSendTimeout);

    const bool multicast = isMulticast(destination);
    if (multicast) {
        // Before connect(): the route to the group is chosen with the interface set here.
        if (auto status = setMulticastOptions(fd.get(), destination, endpoint, options); !status)
            return status.error();
    } else if (!endpoint.iface.empty()) {
        return Error{url + ": iface is only valid for a multicast group", {}};
    }
    // Connected: the kernel routes once, and ICMP errors (no receiver) come back as ECONNREFUSED.
    if (::connect(fd.get(), destination.get(), destination.length) != 0)
        return Error{url + ": cannot set the UDP destination " + destination.toString() + ": " + errnoText(errno), {}};

    std::string description = destination.toString();
    if (multicast)
        description += " (multicast, ttl " + std::to_string(std::clamp(options.multicastTtl, 0, 255)) +
                       (endpoint.iface.empty() ? std::string() : ", via " + endpoint.iface) + ")";
    spdlog::info("{}: sending UDP to {}, send buffer {} bytes", url, description, sendBuffer);
    return std::unique_ptr<Sender>(std::make_unique<UdpSender>(endpoint, std::move(fd), std::move(description), options.udpSegmentation));
}

} // namespace telestation::io::detail
