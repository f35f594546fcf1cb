#include "core/link/phase_receiver.hpp"

#include "core/common/thread_name.hpp"
#include "core/io/endpoint.hpp"
#include "core/io/socket_util.hpp"

#include <netinet/in.h>
#include <poll.h>
#include <sys/eventfd.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <cstring>
#include <ctime>
#include <mutex>
#include <thread>
#include <vector>

namespace telestation::link {

std::int64_t monotonicNs() noexcept
{
    timespec t{};
    ::clock_gettime(CLOCK_MONOTONIC, &t);
    return std::int64_t(t.tv_sec) * 1'000'000'000 + t.tv_nsec;
}

double threadCpuSeconds() noexcept
{
    rusage usage{};
    ::getrusage(RUSAGE_THREAD, &usage);
    return double(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec) + double(usage.ru_utime.tv_usec + usage.ru_stime.tv_usec) / 1e6;
}

namespace {

constexpr std::size_t kReadBytes = std::size_t{256} * 1024;
constexpr unsigned kBatch = 32;
constexpr std::uint32_t kTrackedSequences = 1u << 26; // duplicates told apart up to here (8 MiB of bits)

// One TCP flow's counts, and where it is in a length-prefixed message.
struct Flow {
    io::detail::UniqueFd fd;
    std::uint64_t bytes = 0;
    bool open = true;
    unsigned char prefix[4]{};
    unsigned prefixHave = 0;
    std::uint64_t payloadLeft = 0;
    std::vector<FlowSample> samples;
};

} // namespace

struct PhaseReceiver::Impl {
    PhaseRequest request;
    io::detail::UniqueFd socket; // UDP socket or TCP listener
    io::detail::UniqueFd wake;   // eventfd: finish() rings it
    std::uint16_t boundPort = 0;
    std::thread thread;

    std::atomic<bool> finishing{false};
    std::atomic<std::int64_t> quietNs{200'000'000};
    std::atomic<std::int64_t> deadlineNs{0};

    // Owned by the thread until it ends.
    PhaseResult result;
    std::vector<Flow> flows;
    std::uint32_t nextSequence = 0;
    std::vector<std::uint64_t> seen; // bitmap of UDP sequences received
    std::int64_t nextSampleNs = 0;

    void run()
    {
        setThreadName("ts-link-rx");
        const double cpuStart = threadCpuSeconds();
        std::vector<unsigned char> buffer(request.transport == Transport::Udp ? std::size_t(kBatch) * 65536 : kReadBytes);
        std::vector<pollfd> polls;
        std::int64_t lastActivity = monotonicNs();
        if (request.sampleMs > 0)
            nextSampleNs = monotonicNs();
        for (;;) {
            polls.clear();
            polls.push_back({wake.get(), POLLIN, 0});
            const bool accepting = request.transport == Transport::Tcp && flows.size() < request.flows;
            if (request.transport == Transport::Udp || accepting)
                polls.push_back({socket.get(), POLLIN, 0});
            for (const Flow& f : flows)
                if (f.open)
                    polls.push_back({f.fd.get(), POLLIN, 0});
            int timeoutMs = 50;
            if (request.sampleMs > 0)
                timeoutMs = std::clamp(int((nextSampleNs - monotonicNs()) / 1'000'000), 0, 50);
            ::poll(polls.data(), polls.size(), timeoutMs);
            const std::int64_t now = monotonicNs();
            bool active = false;
            for (const pollfd& p : polls) {
                if (p.revents == 0)
                    continue;
                if (p.fd == wake.get()) {
                    std::uint64_t rung = 0;
                    [[maybe_unused]] const auto taken = ::read(wake.get(), &rung, sizeof rung);
                    continue;
                }
                if (p.fd == socket.get()) {
                    active |= request.transport == Transport::Udp ? receiveDatagrams(buffer) : acceptFlows();
                    continue;
                }
                for (Flow& f : flows)
                    if (f.fd.get() == p.fd)
                        active |= readFlow(f, buffer);
            }
            if (active)
                lastActivity = monotonicNs();
            if (request.sampleMs > 0 && now >= nextSampleNs) {
                for (Flow& f : flows)
                    if (f.samples.size() < kMaxSamplesPerFlow)
                        f.samples.push_back({now, f.bytes});
                nextSampleNs += std::int64_t(request.sampleMs) * 1'000'000;
                if (nextSampleNs < now)
                    nextSampleNs = now + std::int64_t(request.sampleMs) * 1'000'000;
            }
            if (finishing.load(std::memory_order_acquire)) {
                const bool drained = request.transport == Transport::Udp
                    ? now - lastActivity >= quietNs.load()
                    : std::none_of(flows.begin(), flows.end(), [](const Flow& f) { return f.open; })
                        && (flows.size() >= request.flows || now - lastActivity >= quietNs.load());
                if (drained || now >= deadlineNs.load())
                    break;
            }
        }
        result.cpuSeconds = threadCpuSeconds() - cpuStart;
        result.connections = static_cast<std::uint32_t>(flows.size());
        for (Flow& f : flows) {
            result.bytes += f.bytes;
            if (request.sampleMs > 0) {
                f.samples.push_back({monotonicNs(), f.bytes});
                result.samples.push_back(std::move(f.samples));
            }
        }
    }

    void stamp(std::int64_t now)
    {
        if (result.firstNs < 0)
            result.firstNs = now;
        result.lastNs = now;
    }

    bool receiveDatagrams(std::vector<unsigned char>& buffer)
    {
        mmsghdr messages[kBatch];
        iovec vectors[kBatch];
        std::memset(messages, 0, sizeof messages);
        for (unsigned i = 0; i < kBatch; ++i) {
            vectors[i] = {buffer.data() + std::size_t(i) * 65536, 65536};
            messages[i].msg_hdr.msg_iov = &vectors[i];
            messages[i].msg_hdr.msg_iovlen = 1;
        }
        bool any = false;
        for (int round = 0; round < 64; ++round) {
            const int n = ::recvmmsg(socket.get(), messages, kBatch, MSG_DONTWAIT, nullptr);
            if (n <= 0)
                break;
            any = true;
            stamp(monotonicNs());
            for (int i = 0; i < n; ++i)
                countDatagram(static_cast<const unsigned char*>(vectors[i].iov_base), messages[i].msg_len);
            if (n < int(kBatch))
                break;
        }
        return any;
    }

    void countDatagram(const unsigned char* data, std::size_t size)
    {
        result.messages += 1;
        result.bytes += size;
        if (size < 4)
            return;
        std::uint32_t sequence = 0;
        std::memcpy(&sequence, data, 4); // little-endian on both ends: the sender writes it so
        if (sequence < kTrackedSequences) {
            const std::size_t word = sequence / 64;
            if (seen.size() <= word)
                seen.resize(word + 1024, 0);
            const std::uint64_t bit = std::uint64_t(1) << (sequence % 64);
            if (seen[word] & bit) {
                result.duplicates += 1;
                result.messages -= 1;
                result.bytes -= size;
                return;
            }
            seen[word] |= bit;
        }
        if (sequence < nextSequence)
            result.reordered += 1;
        else
            nextSequence = sequence + 1;
    }

    bool acceptFlows()
    {
        bool any = false;
        while (flows.size() < request.flows) {
            io::detail::AcceptResult accepted = io::detail::acceptConnection(socket.get());
            if (accepted.outcome == io::detail::AcceptResult::Outcome::Skipped)
                continue;
            if (accepted.outcome != io::detail::AcceptResult::Outcome::Accepted)
                break;
            Flow flow;
            flow.fd = std::move(accepted.fd);
            flows.push_back(std::move(flow));
            any = true;
        }
        return any;
    }

    bool readFlow(Flow& f, std::vector<unsigned char>& buffer)
    {
        bool any = false;
        for (int round = 0; round < 16; ++round) {
            const ssize_t n = ::recv(f.fd.get(), buffer.data(), buffer.size(), MSG_DONTWAIT);
            if (n == 0 || (n < 0 && errno != EAGAIN && errno != EWOULDBLOCK && errno != EINTR)) {
                f.open = false;
                f.fd.reset();
                return true;
            }
            if (n < 0)
                return any;
            any = true;
            stamp(monotonicNs());
            if (request.framed)
                countFrames(f, buffer.data(), static_cast<std::size_t>(n));
            else
                f.bytes += static_cast<std::uint64_t>(n);
            if (std::size_t(n) < buffer.size())
                return true;
        }
        return any;
    }

    // Length-prefixed messages (4 bytes, big-endian, then the message): counts whole messages and
    // their payload bytes.
    void countFrames(Flow& f, const unsigned char* data, std::size_t size)
    {
        while (size > 0) {
            if (f.payloadLeft == 0 && f.prefixHave < 4) {
                f.prefix[f.prefixHave++] = *data++;
                --size;
                if (f.prefixHave == 4) {
                    f.payloadLeft = (std::uint64_t(f.prefix[0]) << 24) | (std::uint64_t(f.prefix[1]) << 16)
                        | (std::uint64_t(f.prefix[2]) << 8) | f.prefix[3];
                    if (f.payloadLeft == 0) { // an empty message
                        result.messages += 1;
                        f.prefixHave = 0;
                    }
                }
                continue;
            }
            const std::size_t take = static_cast<std::size_t>(std::min<std::uint64_t>(f.payloadLeft, size));
            f.bytes += take;
            f.payloadLeft -= take;
            data += take;
            size -= take;
            if (f.payloadLeft == 0) {
                result.messages += 1;
                f.prefixHave = 0;
            }
        }
    }
};

PhaseReceiver::PhaseReceiver(std::unique_ptr<Impl> impl) : m_impl(std::move(impl)) {}

PhaseReceiver::~PhaseReceiver()
{
    if (m_impl && m_impl->thread.joinable()) {
        m_impl->deadlineNs.store(0);
        m_impl->finishing.store(true, std::memory_order_release);
        const std::uint64_t one = 1;
        [[maybe_unused]] const auto written = ::write(m_impl->wake.get(), &one, sizeof one);
        m_impl->thread.join();
    }
}

Result<std::unique_ptr<PhaseReceiver>> PhaseReceiver::open(const PhaseRequest& request, const std::string& bindHost)
{
    auto impl = std::make_unique<Impl>();
    impl->request = request;
    impl->wake = io::detail::UniqueFd(::eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK));
    if (!impl->wake.valid())
        return Error{"cannot create an eventfd: " + io::detail::errnoPhrase(errno), {}};
    io::Endpoint endpoint;
    endpoint.host = bindHost;
    endpoint.port = 0;
    if (request.transport == Transport::Tcp) {
        endpoint.scheme = io::Scheme::TcpListen;
        const int window = static_cast<int>(request.windowBytes);
        // Set on the listener so that every accepted flow has it before its handshake (the window
        // scale is agreed then).
        auto listener = io::detail::listenTcp(endpoint, 64, [window](int fd) {
            if (window > 0)
                io::detail::setReceiveBuffer(fd, window);
        });
        if (!listener)
            return listener.error();
        impl->boundPort = listener->bound.port();
        impl->socket = std::move(listener->fd);
    } else {
        endpoint.scheme = io::Scheme::Udp;
        auto addresses = io::detail::resolve(endpoint, SOCK_DGRAM, true);
        if (!addresses)
            return addresses.error();
        const io::detail::SocketAddress& address = addresses->front();
        io::detail::UniqueFd fd(::socket(address.family(), SOCK_DGRAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0));
        if (!fd.valid())
            return Error{"cannot create a UDP socket: " + io::detail::errnoPhrase(errno), {}};
        io::detail::setReceiveBuffer(fd.get(), request.windowBytes > 0 ? int(request.windowBytes) : 32 << 20);
        if (::bind(fd.get(), address.get(), address.length) != 0)
            return Error{"cannot bind a UDP socket to " + address.toString() + ": " + io::detail::errnoPhrase(errno), {}};
        impl->boundPort = io::detail::localAddress(fd.get()).port();
        impl->socket = std::move(fd);
    }
    Impl* raw = impl.get();
    impl->thread = std::thread([raw] { raw->run(); });
    return std::unique_ptr<PhaseReceiver>(new PhaseReceiver(std::move(impl)));
}

std::uint16_t PhaseReceiver::port() const noexcept
{
    return m_impl->boundPort;
}

PhaseResult PhaseReceiver::finish(std::chrono::milliseconds quiet, std::chrono::milliseconds limit)
{
    m_impl->quietNs.store(std::chrono::nanoseconds(quiet).count());
    m_impl->deadlineNs.store(monotonicNs() + std::chrono::nanoseconds(limit).count());
    m_impl->finishing.store(true, std::memory_order_release);
    const std::uint64_t one = 1;
    [[maybe_unused]] const auto written = ::write(m_impl->wake.get(), &one, sizeof one);
    m_impl->thread.join();
    return std::move(m_impl->result);
}

} // namespace telestation::link
