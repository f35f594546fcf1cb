#include "core/link/traffic_sender.hpp"

#include "core/common/thread_name.hpp"
#include "core/io/endpoint.hpp"
#include "core/io/socket_util.hpp"
#include "core/link/phase_receiver.hpp"

#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <cstring>
#include <thread>

namespace telestation::link {

namespace {

Result<io::detail::SocketAddress> addressOf(const Target& target, int socketType)
{
    io::Endpoint endpoint;
    endpoint.scheme = socketType == SOCK_STREAM ? io::Scheme::Tcp : io::Scheme::Udp;
    endpoint.host = target.host;
    endpoint.port = target.port;
    auto addresses = io::detail::resolve(endpoint, socketType, false);
    if (!addresses)
        return addresses.error();
    return addresses->front();
}

// A blocking TCP connection to the target (the test threads wait in send(2), as programs do).
Result<io::detail::UniqueFd> connectTcp(const io::detail::SocketAddress& address, int sendBuffer)
{
    io::detail::UniqueFd fd(::socket(address.family(), SOCK_STREAM | SOCK_CLOEXEC, 0));
    if (!fd.valid())
        return Error{"cannot create a TCP socket: " + io::detail::errnoPhrase(errno), {}};
    if (sendBuffer > 0)
        io::detail::setSendBuffer(fd.get(), sendBuffer);
    timeval limit{10, 0}; // neither connect nor a send may hang on a vanished responder
    ::setsockopt(fd.get(), SOL_SOCKET, SO_SNDTIMEO, &limit, sizeof limit);
    if (::connect(fd.get(), address.get(), address.length) != 0)
        return Error{"cannot connect to " + address.toString() + ": " + io::detail::errnoPhrase(errno), {}};
    return fd;
}

// Writes all of `data`; false when the connection failed.
bool sendAll(int fd, const unsigned char* data, std::size_t size)
{
    while (size > 0) {
        const ssize_t n = ::send(fd, data, size, MSG_NOSIGNAL);
        if (n < 0) {
            if (errno == EINTR)
                continue;
            return false;
        }
        data += n;
        size -= static_cast<std::size_t>(n);
    }
    return true;
}

std::int64_t msNs(std::chrono::milliseconds d)
{
    return std::chrono::duration_cast<std::chrono::nanoseconds>(d).count();
}

} // namespace

Result<SendCounts> sendFramedMessages(const Target& target, std::uint32_t messageBytes, std::chrono::milliseconds duration)
{
    auto address = addressOf(target, SOCK_STREAM);
    if (!address)
        return address.error();
    auto fd = connectTcp(*address, 0);
    if (!fd)
        return fd.error();
    std::vector<unsigned char> frame(std::size_t(messageBytes) + 4, 0x5a);
    frame[0] = static_cast<unsigned char>(messageBytes >> 24);
    frame[1] = static_cast<unsigned char>(messageBytes >> 16);
    frame[2] = static_cast<unsigned char>(messageBytes >> 8);
    frame[3] = static_cast<unsigned char>(messageBytes);
    SendCounts counts;
    const double cpuStart = threadCpuSeconds();
    counts.startNs = monotonicNs();
    const std::int64_t end = counts.startNs + msNs(duration);
    std::int64_t now = counts.startNs;
    while (now < end) {
        for (int i = 0; i < 16; ++i) { // the clock read every 16 messages
            if (!sendAll(fd->get(), frame.data(), frame.size()))
                return Error{"the TCP test connection to " + address->toString() + " failed: " + io::detail::errnoPhrase(errno), {}};
            counts.messages += 1;
            counts.bytes += messageBytes;
        }
        now = monotonicNs();
    }
    ::shutdown(fd->get(), SHUT_WR);
    counts.endNs = monotonicNs();
    counts.cpuSeconds = threadCpuSeconds() - cpuStart;
    return counts;
}

Result<SendCounts> sendDatagrams(const Target& target, const DatagramPlan& plan)
{
    if (plan.bytes < 4 || plan.bytes > 65507)
        return Error{"a test datagram must be 4..65507 bytes, not " + std::to_string(plan.bytes), {}};
    auto address = addressOf(target, SOCK_DGRAM);
    if (!address)
        return address.error();
    io::detail::UniqueFd fd(::socket(address->family(), SOCK_DGRAM | SOCK_CLOEXEC, 0));
    if (!fd.valid())
        return Error{"cannot create a UDP socket: " + io::detail::errnoPhrase(errno), {}};
    io::detail::setSendBuffer(fd.get(), plan.sendBufferBytes);
    // Without IP_RECVERR Linux reports a datagram its full queue discarded (a shaped or busy link) as
    // sent; with it, send(2) says ENOBUFS, so that only what left counts as sent and the rest as refused.
    const int one = 1;
    if (address->family() == AF_INET6)
        ::setsockopt(fd.get(), IPPROTO_IPV6, IPV6_RECVERR, &one, sizeof one);
    else
        ::setsockopt(fd.get(), IPPROTO_IP, IP_RECVERR, &one, sizeof one);
    if (::connect(fd.get(), address->get(), address->length) != 0)
        return Error{"cannot address " + address->toString() + ": " + io::detail::errnoPhrase(errno), {}};
    std::vector<unsigned char> datagram(plan.bytes, 0xa5);
    SendCounts counts;
    const double cpuStart = threadCpuSeconds();
    counts.startNs = monotonicNs();
    const std::int64_t end = counts.startNs + msNs(plan.duration);
    std::uint32_t sequence = 0;
    std::int64_t due = counts.startNs;
    for (std::uint64_t i = 0;; ++i) {
        if (plan.count > 0) {
            if (i >= plan.count)
                break;
            // Each datagram at least a gap after the previous one: a sender held up (descheduled on a
            // busy machine) goes on from where it is, rather than catching up with a burst of datagrams
            // closer than asked, which a queue then refuses and the row would count against the link.
            std::int64_t now = monotonicNs();
            while (now < due)
                now = monotonicNs();
            due = now + plan.gapNs;
        } else if ((i & 15) == 0 && monotonicNs() >= end) {
            break;
        }
        std::memcpy(datagram.data(), &sequence, 4);
        ++sequence;
        const ssize_t n = ::send(fd.get(), datagram.data(), datagram.size(), 0);
        if (n < 0) {
            // ENOBUFS/EAGAIN: the local queue was full; ECONNREFUSED: an ICMP from an earlier datagram.
            // Either way this one did not leave, and the sequence shows it as lost at the far end.
            counts.sendErrors += 1;
            continue;
        }
        counts.messages += 1;
        counts.bytes += plan.bytes;
    }
    counts.endNs = monotonicNs();
    counts.cpuSeconds = threadCpuSeconds() - cpuStart;
    return counts;
}

Result<SendCounts> sendTcpFlows(const Target& target, std::uint32_t flows, std::uint32_t windowBytes,
                                std::uint32_t writeBytes, std::chrono::milliseconds duration)
{
    auto address = addressOf(target, SOCK_STREAM);
    if (!address)
        return address.error();
    const int perFlowBuffer = windowBytes > 0 ? int(windowBytes / std::max<std::uint32_t>(1, flows)) : 0;
    std::vector<io::detail::UniqueFd> sockets;
    for (std::uint32_t i = 0; i < flows; ++i) {
        auto fd = connectTcp(*address, perFlowBuffer);
        if (!fd)
            return fd.error();
        sockets.push_back(std::move(*fd));
    }
    SendCounts counts;
    counts.flowBytes.assign(flows, 0);
    std::vector<double> cpu(flows, 0);
    std::atomic<bool> failed{false};
    std::atomic<int> failure{0};
    counts.startNs = monotonicNs();
    const std::int64_t end = counts.startNs + msNs(duration);
    std::vector<std::thread> threads;
    for (std::uint32_t i = 0; i < flows; ++i)
        threads.emplace_back([&, i] {
            setThreadName("ts-link-tx");
            const double cpuStart = threadCpuSeconds();
            std::vector<unsigned char> block(writeBytes, 0x3c);
            while (monotonicNs() < end) {
                if (!sendAll(sockets[i].get(), block.data(), block.size())) {
                    failure.store(errno);
                    failed.store(true);
                    break;
                }
                counts.flowBytes[i] += writeBytes;
            }
            ::shutdown(sockets[i].get(), SHUT_WR);
            cpu[i] = threadCpuSeconds() - cpuStart;
        });
    for (auto& t : threads)
        t.join();
    counts.endNs = monotonicNs();
    if (failed.load())
        return Error{"a TCP test flow to " + address->toString() + " failed: " + io::detail::errnoPhrase(failure.load()), {}};
    for (std::uint32_t i = 0; i < flows; ++i) {
        counts.bytes += counts.flowBytes[i];
        counts.cpuSeconds += cpu[i];
    }
    counts.messages = writeBytes > 0 ? counts.bytes / writeBytes : 0;
    return counts;
}

} // namespace telestation::link
