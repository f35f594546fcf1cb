// Integration tests of the packet senders on loopback, against plain sockets opened here: UDP
// (unicast, IPv6, a destination nobody listens on, multicast), TCP client (delivery, reconnection,
// refused and unreachable destinations, the bounded blocking wait, no SIGPIPE), TCP server (two
// clients, one leaving, no torn packet into a slow client), sendRaw and the open errors.
#include "tests/support/allocation_counter.hpp"
#include "core/io/endpoint.hpp"
#include "core/io/sender.hpp"
#include "tests/support/open_sender.hpp"
#include "tests/support/wait_until.hpp"

#include <QtTest>

#include <arpa/inet.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <cmath>
#include <csignal>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <limits>
#include <memory>
#include <new>
#include <string>
#include <thread>
#include <vector>


using namespace telestation::io;
using namespace std::chrono_literals;

namespace {

using Clock = std::chrono::steady_clock;
using Bytes = std::vector<std::uint8_t>;
using PacketSpan = std::span<const std::uint8_t>;

// "Returns, does not hang": far above what any call here takes on a loaded machine, far below the
// minutes a blocked kernel connect or send could take. Nothing nearer the expected time is asserted.
constexpr auto kNoHang = 30s;

long long msSince(Clock::time_point start)
{
    return static_cast<long long>(std::chrono::duration_cast<std::chrono::milliseconds>(Clock::now() - start).count());
}

// ---- sockets ------------------------------------------------------------------------------------

class Socket {
public:
    Socket() = default;
    explicit Socket(int fd) : m_fd(fd) {}
    ~Socket() { reset(); }
    Socket(Socket&& other) noexcept : m_fd(std::exchange(other.m_fd, -1)) {}
    Socket& operator=(Socket&& other) noexcept
    {
        reset(std::exchange(other.m_fd, -1));
        return *this;
    }
    Socket(const Socket&) = delete;
    Socket& operator=(const Socket&) = delete;
    [[nodiscard]] int get() const { return m_fd; }
    [[nodiscard]] bool valid() const { return m_fd >= 0; }
    int release() { return std::exchange(m_fd, -1); }
    void reset(int fd = -1)
    {
        if (m_fd >= 0)
            ::close(m_fd);
        m_fd = fd;
    }

private:
    int m_fd = -1;
};

struct Address {
    sockaddr_storage storage{};
    socklen_t length = 0;
    [[nodiscard]] const sockaddr* get() const { return reinterpret_cast<const sockaddr*>(&storage); }
};

Address loopback(int family, std::uint16_t port)
{
    Address a;
    if (family == AF_INET) {
        sockaddr_in v4{};
        v4.sin_family = AF_INET;
        v4.sin_port = htons(port);
        v4.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
        std::memcpy(&a.storage, &v4, sizeof v4);
        a.length = sizeof v4;
    } else {
        sockaddr_in6 v6{};
        v6.sin6_family = AF_INET6;
        v6.sin6_port = htons(port);
        v6.sin6_addr = in6addr_loopback;
        std::memcpy(&a.storage, &v6, sizeof v6);
        a.length = sizeof v6;
    }
    return a;
}

std::uint16_t boundPort(int fd)
{
    sockaddr_storage storage{};
    socklen_t length = sizeof storage;
    if (::getsockname(fd, reinterpret_cast<sockaddr*>(&storage), &length) != 0)
        return 0;
    if (storage.ss_family == AF_INET) {
        sockaddr_in v4{};
        std::memcpy(&v4, &storage, sizeof v4);
        return ntohs(v4.sin_port);
    }
    sockaddr_in6 v6{};
    std::memcpy(&v6, &storage, sizeof v6);
    return ntohs(v6.sin6_port);
}

void setIntOption(int fd, int level, int name, int value)
{
    (void)::setsockopt(fd, level, name, &value, sizeof value);
}

// A receive buffer big enough for bursts: SO_RCVBUFFORCE when permitted, else what the limit allows.
void setBigReceiveBuffer(int fd)
{
    constexpr int kBytes = 32 * 1024 * 1024;
    if (::setsockopt(fd, SOL_SOCKET, SO_RCVBUFFORCE, &kBytes, sizeof kBytes) != 0)
        setIntOption(fd, SOL_SOCKET, SO_RCVBUF, kBytes);
}

Socket udpReceiver(int family, std::uint16_t& port)
{
    Socket s(::socket(family, SOCK_DGRAM | SOCK_CLOEXEC, 0));
    setBigReceiveBuffer(s.get());
    const Address a = loopback(family, 0);
    if (::bind(s.get(), a.get(), a.length) != 0)
        return {};
    port = boundPort(s.get());
    return s;
}

// A TCP listener on loopback; port 0 = any free port. SO_REUSEADDR so a port can be listened on again.
Socket tcpListener(int family, std::uint16_t port, std::uint16_t& bound)
{
    Socket s(::socket(family, SOCK_STREAM | SOCK_CLOEXEC, 0));
    setIntOption(s.get(), SOL_SOCKET, SO_REUSEADDR, 1);
    const Address a = loopback(family, port);
    if (::bind(s.get(), a.get(), a.length) != 0 || ::listen(s.get(), 8) != 0)
        return {};
    bound = boundPort(s.get());
    return s;
}

Socket acceptWithin(int listener, std::chrono::milliseconds timeout)
{
    pollfd p{listener, POLLIN, 0};
    if (::poll(&p, 1, static_cast<int>(timeout.count())) <= 0)
        return {};
    return Socket(::accept4(listener, nullptr, nullptr, SOCK_CLOEXEC));
}

Socket tcpConnect(int family, std::uint16_t port, int receiveBuffer = 0)
{
    Socket s(::socket(family, SOCK_STREAM | SOCK_CLOEXEC, 0));
    if (receiveBuffer > 0)
        setIntOption(s.get(), SOL_SOCKET, SO_RCVBUF, receiveBuffer); // before connect: sets the window
    const Address a = loopback(family, port);
    if (::connect(s.get(), a.get(), a.length) != 0)
        return {};
    return s;
}

// A port nobody listens on (bound once to find a free one, then released).
std::uint16_t unusedPort(int type)
{
    Socket s(::socket(AF_INET, type | SOCK_CLOEXEC, 0));
    const Address a = loopback(AF_INET, 0);
    if (::bind(s.get(), a.get(), a.length) != 0)
        return 0;
    return boundPort(s.get());
}

bool readExactly(int fd, std::uint8_t* out, std::size_t n, std::chrono::milliseconds timeout)
{
    const auto deadline = Clock::now() + timeout;
    std::size_t done = 0;
    while (done < n) {
        const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - Clock::now());
        if (left.count() <= 0)
            return false;
        pollfd p{fd, POLLIN, 0};
        if (::poll(&p, 1, static_cast<int>(left.count())) <= 0)
            continue;
        const ssize_t got = ::recv(fd, out + done, n - done, 0);
        if (got <= 0)
            return false;
        done += static_cast<std::size_t>(got);
    }
    return true;
}

// ---- test packets -------------------------------------------------------------------------------
// A 4-byte big-endian counter, the 4-byte big-endian total size, then bytes derived from both: a
// packet can be checked on its own, and a torn, shifted or mixed one does not pass.

constexpr std::size_t kHeaderSize = 8;
constexpr std::size_t kMaxTestPacket = 1 << 20;
constexpr std::uint32_t kEndMarker = std::numeric_limits<std::uint32_t>::max();

void put32(std::uint8_t* p, std::uint32_t v)
{
    p[0] = static_cast<std::uint8_t>(v >> 24);
    p[1] = static_cast<std::uint8_t>(v >> 16);
    p[2] = static_cast<std::uint8_t>(v >> 8);
    p[3] = static_cast<std::uint8_t>(v);
}

std::uint32_t get32(const std::uint8_t* p)
{
    return (std::uint32_t{p[0]} << 24) | (std::uint32_t{p[1]} << 16) | (std::uint32_t{p[2]} << 8) | p[3];
}

std::uint8_t patternByte(std::uint32_t counter, std::size_t i)
{
    return static_cast<std::uint8_t>((counter * 131u) ^ (i * 7u) ^ (i >> 8));
}

Bytes makePacket(std::uint32_t counter, std::size_t size)
{
    Bytes p(std::max(size, kHeaderSize));
    put32(p.data(), counter);
    put32(p.data() + 4, static_cast<std::uint32_t>(p.size()));
    for (std::size_t i = kHeaderSize; i < p.size(); ++i)
        p[i] = patternByte(counter, i);
    return p;
}

bool isIntact(PacketSpan p)
{
    if (p.size() < kHeaderSize || get32(p.data() + 4) != p.size())
        return false;
    const std::uint32_t counter = get32(p.data());
    for (std::size_t i = kHeaderSize; i < p.size(); ++i) {
        if (p[i] != patternByte(counter, i))
            return false;
    }
    return true;
}

// Sizes that vary over the whole range, deterministic per counter.
std::size_t variedSize(std::uint32_t counter, std::size_t largest)
{
    return kHeaderSize + (counter * 2654435761u) % (largest - kHeaderSize + 1);
}

std::vector<Bytes> makePackets(std::uint32_t first, std::size_t count, std::size_t largest)
{
    std::vector<Bytes> packets;
    for (std::size_t i = 0; i < count; ++i) {
        const auto counter = static_cast<std::uint32_t>(first + i);
        packets.push_back(makePacket(counter, variedSize(counter, largest)));
    }
    return packets;
}

std::vector<PacketSpan> spansOf(const std::vector<Bytes>& packets, std::size_t first = 0,
                                std::size_t count = std::numeric_limits<std::size_t>::max())
{
    std::vector<PacketSpan> spans;
    for (std::size_t i = first; i < packets.size() && i - first < count; ++i)
        spans.emplace_back(packets[i]);
    return spans;
}

// ---- helpers ------------------------------------------------------------------------------------

using telestation::test::waitUntil;

std::string url(std::string_view scheme, int family, std::uint16_t port)
{
    return std::string(scheme) + (family == AF_INET6 ? "://[::1]:" : "://127.0.0.1:") + std::to_string(port);
}

using telestation::test::openSenderUrl;

QString describe(const Sender& s)
{
    const SenderStats& st = s.stats();
    return QStringLiteral("%1: packets %2 bytes %3 notSent %4 errors %5 connects %6 disconnects %7")
        .arg(QString::fromStdString(s.state()))
        .arg(st.packets)
        .arg(st.bytes)
        .arg(st.notSent)
        .arg(st.errors)
        .arg(st.connects)
        .arg(st.disconnects);
}

// Receives datagrams on its own thread until `expected` have arrived or the timeout passes.
class UdpCollector {
public:
    UdpCollector(int fd, std::size_t expected, std::chrono::milliseconds timeout = 15s)
        : m_fd(fd)
        , m_expected(expected)
        , m_deadline(Clock::now() + timeout)
        , m_thread([this] { run(); })
    {
    }
    ~UdpCollector() { join(); }
    UdpCollector(const UdpCollector&) = delete;
    UdpCollector& operator=(const UdpCollector&) = delete;

    void join()
    {
        if (m_thread.joinable())
            m_thread.join();
    }
    [[nodiscard]] std::size_t received() const { return m_received.load(std::memory_order_acquire); }
    // Valid after join().
    std::vector<Bytes> datagrams;

private:
    void run()
    {
        std::vector<std::uint8_t> buffer(65536);
        while (datagrams.size() < m_expected && Clock::now() < m_deadline) {
            pollfd p{m_fd, POLLIN, 0};
            if (::poll(&p, 1, 20) <= 0)
                continue;
            while (datagrams.size() < m_expected) {
                const ssize_t got = ::recv(m_fd, buffer.data(), buffer.size(), MSG_DONTWAIT);
                if (got < 0)
                    break;
                datagrams.emplace_back(buffer.begin(), buffer.begin() + got);
                m_received.store(datagrams.size(), std::memory_order_release);
            }
        }
    }

    int m_fd;
    std::size_t m_expected;
    Clock::time_point m_deadline;
    std::atomic<std::size_t> m_received{0};
    std::thread m_thread;
};

// Reads test packets from a TCP stream on its own thread, checking each as it completes. Stops at the
// end marker, after `stopAfter` packets, at a corrupt packet, at end of stream, or at the timeout.
class TcpReader {
public:
    struct Options {
        std::size_t stopAfter = std::numeric_limits<std::size_t>::max();
        bool slow = false; // small reads with a pause between them
        std::chrono::milliseconds timeout = 15s;
    };

    TcpReader(int fd, Options options)
        : m_fd(fd)
        , m_options(options)
        , m_deadline(Clock::now() + options.timeout)
        , m_thread([this] { run(); })
    {
    }
    ~TcpReader() { join(); }
    TcpReader(const TcpReader&) = delete;
    TcpReader& operator=(const TcpReader&) = delete;

    void join()
    {
        if (m_thread.joinable())
            m_thread.join();
    }
    [[nodiscard]] std::size_t received() const { return m_received.load(std::memory_order_acquire); }
    [[nodiscard]] bool finished() const { return m_finished.load(std::memory_order_acquire); }

    // Valid after join().
    std::vector<Bytes> packets;
    bool corrupt = false;
    bool sawEnd = false;
    bool endOfStream = false;

private:
    void run()
    {
        readLoop();
        m_finished.store(true, std::memory_order_release);
    }

    void readLoop()
    {
        Bytes buffer;
        std::size_t parsed = 0;
        std::vector<std::uint8_t> chunk(m_options.slow ? 4096 : 256 * 1024);
        while (Clock::now() < m_deadline) {
            pollfd p{m_fd, POLLIN, 0};
            if (::poll(&p, 1, 20) <= 0)
                continue;
            const ssize_t got = ::recv(m_fd, chunk.data(), chunk.size(), MSG_DONTWAIT);
            if (got == 0 || (got < 0 && errno != EAGAIN && errno != EINTR)) {
                endOfStream = true;
                return;
            }
            if (got < 0)
                continue;
            buffer.insert(buffer.end(), chunk.begin(), chunk.begin() + got);
            while (buffer.size() - parsed >= kHeaderSize) {
                const std::size_t size = get32(buffer.data() + parsed + 4);
                if (size < kHeaderSize || size > kMaxTestPacket) {
                    corrupt = true;
                    return;
                }
                if (buffer.size() - parsed < size)
                    break;
                const PacketSpan packet(buffer.data() + parsed, size);
                if (!isIntact(packet)) {
                    corrupt = true;
                    return;
                }
                packets.emplace_back(packet.begin(), packet.end());
                parsed += size;
                m_received.store(packets.size(), std::memory_order_release);
                if (get32(packet.data()) == kEndMarker) {
                    sawEnd = true;
                    return;
                }
                if (packets.size() >= m_options.stopAfter)
                    return;
            }
            if (parsed > (1u << 20)) {
                buffer.erase(buffer.begin(), buffer.begin() + static_cast<std::ptrdiff_t>(parsed));
                parsed = 0;
            }
            if (m_options.slow)
                std::this_thread::sleep_for(1ms);
        }
    }

    int m_fd;
    Options m_options;
    Clock::time_point m_deadline;
    std::atomic<std::size_t> m_received{0};
    std::atomic<bool> m_finished{false};
    std::thread m_thread;
};

std::vector<std::uint32_t> countersOf(const std::vector<Bytes>& packets)
{
    std::vector<std::uint32_t> counters;
    for (const Bytes& p : packets)
        counters.push_back(get32(p.data()));
    return counters;
}

bool strictlyIncreasing(const std::vector<std::uint32_t>& counters)
{
    for (std::size_t i = 1; i < counters.size(); ++i) {
        if (counters[i] <= counters[i - 1])
            return false;
    }
    return true;
}

} // namespace

class TestIoSender : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void initTestCase();

    void udpDeliversPacketsInOrder();
    void udpOverIpv6();
    void udpWithoutReceiverKeepsGoing();
    void udpMulticastOnLoopback();
    void udpSendRawIsOneDatagram();

    void tcpClientDelivers_data();
    void tcpClientDelivers();
    void tcpClientReconnects();
    void tcpClientRefusedDoesNotHang();
    void tcpClientOpenNeverHangs();
    void tcpClientBlockingWaitIsBounded();
    void tcpClientPeerResetMidSend();
    void peerClosingMidSendDoesNotRaiseSigpipe_data();
    void peerClosingMidSendDoesNotRaiseSigpipe();
    void tcpClientSendRawGoesBetweenPackets();

    void tcpServerServesTwoClients();
    void tcpServerNeverTearsPacketsForSlowClient();
    void tcpServerIpv6();

    void steadyStateSendsAllocateNothing();
    void openErrors();
};

void TestIoSender::initTestCase()
{
    // The default action of SIGPIPE (terminate) must be in force, or the tests could not notice one.
    std::signal(SIGPIPE, SIG_DFL);
}

void TestIoSender::udpDeliversPacketsInOrder()
{
    constexpr std::size_t kCount = 10'000;
    std::uint16_t port = 0;
    Socket rx = udpReceiver(AF_INET, port);
    QVERIFY(rx.valid());
    QString error;
    auto sender = openSenderUrl(url("udp", AF_INET, port), {}, &error);
    QVERIFY2(sender, qPrintable(error));
    QVERIFY(sender->connected());
    QCOMPARE(QString::fromStdString(sender->state()), QStringLiteral("sending to 127.0.0.1:%1").arg(port));
    QCOMPARE(sender->localPort(), std::uint16_t{0});

    // Sizes from 8 to 2000 bytes, and every 997th packet a large one (60000 bytes, below the loopback MTU).
    std::vector<Bytes> packets = makePackets(0, kCount, 2000);
    for (std::size_t i = 0; i < kCount; i += 997)
        packets[i] = makePacket(static_cast<std::uint32_t>(i), 60000);
    std::uint64_t totalBytes = 0;
    for (const Bytes& p : packets)
        totalBytes += p.size();

    UdpCollector collector(rx.get(), kCount);
    std::size_t offered = 0;
    std::size_t batch = 1;
    while (offered < kCount) {
        // Keep at most ~1000 datagrams in flight so that the receiver's buffer cannot overflow.
        QVERIFY2(waitUntil([&] { return offered - collector.received() < 1000; }, 10s), "receiver stopped draining");
        const std::size_t n = std::min(batch, kCount - offered);
        const auto spans = spansOf(packets, offered, n);
        QCOMPARE(sender->send(spans), n);
        offered += n;
        batch = batch % 150 + 7; // batches below, at and above the 64-message sendmmsg limit
    }
    QVERIFY2(waitUntil([&] { return collector.received() == kCount; }, 10s), qPrintable(describe(*sender)));
    collector.join();

    QCOMPARE(collector.datagrams.size(), kCount);
    for (std::size_t i = 0; i < kCount; ++i) {
        if (collector.datagrams[i] != packets[i])
            QFAIL(qPrintable(QStringLiteral("datagram %1 differs from packet %1").arg(i)));
    }
    const SenderStats& st = sender->stats();
    QCOMPARE(st.packets, std::uint64_t{kCount});
    QCOMPARE(st.bytes, totalBytes);
    QCOMPARE(st.notSent, std::uint64_t{0});
    QCOMPARE(st.errors, std::uint64_t{0});
}

void TestIoSender::udpOverIpv6()
{
    std::uint16_t port = 0;
    Socket rx = udpReceiver(AF_INET6, port);
    if (!rx.valid())
        QSKIP("no IPv6 loopback on this machine");
    QString error;
    auto sender = openSenderUrl(url("udp", AF_INET6, port), {}, &error);
    QVERIFY2(sender, qPrintable(error));
    QCOMPARE(QString::fromStdString(sender->state()), QStringLiteral("sending to [::1]:%1").arg(port));

    const std::vector<Bytes> packets = makePackets(100, 200, 1400);
    UdpCollector collector(rx.get(), packets.size());
    QCOMPARE(sender->send(spansOf(packets)), packets.size());
    QVERIFY(waitUntil([&] { return collector.received() == packets.size(); }, 10s));
    collector.join();
    QCOMPARE(collector.datagrams, packets);
}

void TestIoSender::udpWithoutReceiverKeepsGoing()
{
    const std::uint16_t port = unusedPort(SOCK_DGRAM);
    QVERIFY(port != 0);
    auto sender = openSenderUrl(url("udp", AF_INET, port), {});
    QVERIFY(sender);

    const std::vector<Bytes> packets = makePackets(0, 5, 100);
    const auto spans = spansOf(packets);
    std::size_t offered = 0;
    std::size_t returned = 0;
    // Each datagram draws an ICMP port unreachable; the next send reports it as ECONNREFUSED.
    const bool sawErrors = waitUntil(
        [&] {
            returned += sender->send(spans);
            offered += spans.size();
            return sender->stats().errors >= 3;
        },
        5s);
    QVERIFY2(sawErrors, qPrintable(describe(*sender)));
    // It keeps going: every further call still hands packets to the kernel.
    for (int i = 0; i < 20; ++i) {
        const std::size_t n = sender->send(spans);
        QVERIFY2(n > 0, qPrintable(describe(*sender)));
        returned += n;
        offered += spans.size();
    }
    const SenderStats& st = sender->stats();
    QCOMPARE(st.packets, std::uint64_t{returned});
    QCOMPARE(st.packets + st.notSent, std::uint64_t{offered});
    QVERIFY(st.packets > 0);
    QVERIFY(sender->connected());
    // An error reports an ICMP message about an EARLIER datagram; the packet whose send failed was not
    // lost with it but sent again (dropping it would make notSent equal errors).
    QVERIFY2(st.notSent < st.errors, qPrintable(describe(*sender)));
}

void TestIoSender::udpMulticastOnLoopback()
{
    const char* group = "239.255.77.1";
    Socket rx(::socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0));
    setIntOption(rx.get(), SOL_SOCKET, SO_REUSEADDR, 1);
    setBigReceiveBuffer(rx.get());
    sockaddr_in any{};
    any.sin_family = AF_INET;
    any.sin_addr.s_addr = htonl(INADDR_ANY);
    QVERIFY(::bind(rx.get(), reinterpret_cast<const sockaddr*>(&any), sizeof any) == 0);
    const std::uint16_t port = boundPort(rx.get());
    ip_mreq membership{};
    ::inet_pton(AF_INET, group, &membership.imr_multiaddr);
    ::inet_pton(AF_INET, "127.0.0.1", &membership.imr_interface);
    if (::setsockopt(rx.get(), IPPROTO_IP, IP_ADD_MEMBERSHIP, &membership, sizeof membership) != 0)
        QSKIP(qPrintable(QStringLiteral("the kernel refuses to join %1 on lo: %2").arg(group, std::strerror(errno))));

    SenderOptions options;
    options.multicastLoopback = true;
    options.multicastTtl = 0; // stays on this host
    QString error;
    const std::string target = std::string("udp://") + group + ":" + std::to_string(port) + "?iface=127.0.0.1";
    auto sender = openSenderUrl(target, options, &error);
    if (!sender && error.contains(QStringLiteral("multicast interface")))
        QSKIP(qPrintable(QStringLiteral("the kernel refuses to send multicast on lo: ") + error));
    QVERIFY2(sender, qPrintable(error));
    QVERIFY(sender->endpoint().multicast);
    QVERIFY2(QString::fromStdString(sender->state()).startsWith(QStringLiteral("sending to %1:%2").arg(group).arg(port)),
             qPrintable(QString::fromStdString(sender->state())));

    const std::vector<Bytes> packets = makePackets(7, 300, 1200);
    UdpCollector collector(rx.get(), packets.size());
    QCOMPARE(sender->send(spansOf(packets)), packets.size());
    QVERIFY2(waitUntil([&] { return collector.received() == packets.size(); }, 10s),
             qPrintable(QStringLiteral("%1 of %2 arrived").arg(collector.received()).arg(packets.size())));
    collector.join();
    QCOMPARE(collector.datagrams, packets);
    QCOMPARE(sender->stats().errors, std::uint64_t{0});
}

void TestIoSender::udpSendRawIsOneDatagram()
{
    std::uint16_t port = 0;
    Socket rx = udpReceiver(AF_INET, port);
    auto sender = openSenderUrl(url("udp", AF_INET, port), {});
    QVERIFY(sender);
    const Bytes garbage{0xDE, 0xAD, 0xBE, 0xEF, 0x01};
    UdpCollector collector(rx.get(), 1);
    QVERIFY(sender->sendRaw(garbage));
    QVERIFY(waitUntil([&] { return collector.received() == 1; }, 5s));
    collector.join();
    QCOMPARE(collector.datagrams.front(), garbage);
    QCOMPARE(sender->stats().packets, std::uint64_t{0});
    QCOMPARE(sender->stats().bytes, std::uint64_t{0});
}

void TestIoSender::tcpClientDelivers_data()
{
    QTest::addColumn<int>("family");
    QTest::addColumn<bool>("blocking");
    QTest::newRow("ipv4 blocking") << int(AF_INET) << true;
    QTest::newRow("ipv4 non-blocking") << int(AF_INET) << false;
    QTest::newRow("ipv6 blocking") << int(AF_INET6) << true;
}

void TestIoSender::tcpClientDelivers()
{
    QFETCH(int, family);
    QFETCH(bool, blocking);
    std::uint16_t port = 0;
    Socket listener = tcpListener(family, 0, port);
    if (!listener.valid() && family == AF_INET6)
        QSKIP("no IPv6 loopback on this machine");
    QVERIFY(listener.valid());

    SenderOptions options;
    options.blocking = blocking;
    QString error;
    auto sender = openSenderUrl(url("tcp", family, port), options, &error);
    QVERIFY2(sender, qPrintable(error));
    Socket peer = acceptWithin(listener.get(), 5000ms);
    QVERIFY(peer.valid());
    QVERIFY2(waitUntil([&] { return sender->send({}), sender->connected(); }, 5s), qPrintable(describe(*sender)));
    const QString host = family == AF_INET6 ? QStringLiteral("[::1]") : QStringLiteral("127.0.0.1");
    QCOMPARE(QString::fromStdString(sender->state()), QStringLiteral("connected to %1:%2").arg(host).arg(port));

    const std::vector<Bytes> packets = makePackets(0, 2000, 5000);
    std::uint64_t totalBytes = 0;
    for (const Bytes& p : packets)
        totalBytes += p.size();
    TcpReader reader(peer.get(), {.stopAfter = packets.size()});
    std::uint64_t offered = 0;
    for (std::size_t first = 0; first < packets.size(); first += 100) {
        const auto spans = spansOf(packets, first, 100);
        // Without blocking the reader may fall behind; offer again what was not taken.
        std::size_t done = 0;
        QVERIFY(waitUntil(
            [&] {
                offered += spans.size() - done;
                done += sender->send(std::span(spans).subspan(done));
                return done == spans.size();
            },
            10s));
    }
    QVERIFY2(waitUntil([&] { return reader.finished(); }, 10s), qPrintable(describe(*sender)));
    reader.join();
    QVERIFY(!reader.corrupt);
    QCOMPARE(reader.packets, packets);
    QCOMPARE(sender->stats().packets, std::uint64_t{packets.size()});
    QCOMPARE(sender->stats().bytes, totalBytes);
    QCOMPARE(sender->stats().connects, std::uint64_t{1});
    QCOMPARE(sender->stats().disconnects, std::uint64_t{0});
    QCOMPARE(sender->stats().packets + sender->stats().notSent, offered);
    if (blocking)
        QCOMPARE(sender->stats().notSent, std::uint64_t{0});
}

void TestIoSender::tcpClientReconnects()
{
    std::uint16_t port = 0;
    Socket listener = tcpListener(AF_INET, 0, port);
    QVERIFY(listener.valid());
    auto sender = openSenderUrl(url("tcp", AF_INET, port), {});
    QVERIFY(sender);
    Socket peer = acceptWithin(listener.get(), 5000ms);
    QVERIFY(peer.valid());
    const std::vector<Bytes> first = makePackets(0, 50, 3000);
    QCOMPARE(sender->send(spansOf(first)), first.size());
    {
        TcpReader reader(peer.get(), {.stopAfter = first.size()});
        reader.join();
        QCOMPARE(reader.packets, first);
    }

    // The receiving side goes away: listener and connection.
    peer.reset();
    listener.reset();
    QVERIFY2(waitUntil([&] { return sender->send({}), !sender->connected(); }, 5s), qPrintable(describe(*sender)));
    QCOMPARE(sender->stats().disconnects, std::uint64_t{1});
    const std::vector<Bytes> whileDown = makePackets(1000, 10, 100);
    QCOMPARE(sender->send(spansOf(whileDown)), std::size_t{0});
    QCOMPARE(sender->stats().notSent, std::uint64_t{whileDown.size()});
    QVERIFY2(QString::fromStdString(sender->state()).startsWith(QStringLiteral("error: ")),
             qPrintable(QString::fromStdString(sender->state())));

    // A new listener on the same port: the sender finds it by itself.
    std::uint16_t again = 0;
    listener = tcpListener(AF_INET, port, again);
    QVERIFY(listener.valid());
    QCOMPARE(again, port);
    QVERIFY2(waitUntil([&] { return sender->send({}), sender->connected(); }, 8s), qPrintable(describe(*sender)));
    peer = acceptWithin(listener.get(), 5000ms);
    QVERIFY(peer.valid());
    QCOMPARE(sender->stats().connects, std::uint64_t{2});

    const std::vector<Bytes> second = makePackets(2000, 50, 3000);
    TcpReader reader(peer.get(), {.stopAfter = second.size()});
    QCOMPARE(sender->send(spansOf(second)), second.size());
    QVERIFY(waitUntil([&] { return reader.finished(); }, 10s));
    reader.join();
    QVERIFY(!reader.corrupt);
    QCOMPARE(reader.packets, second);
}

void TestIoSender::tcpClientRefusedDoesNotHang()
{
    const std::uint16_t port = unusedPort(SOCK_STREAM);
    QVERIFY(port != 0);
    const auto started = Clock::now();
    auto sender = openSenderUrl(url("tcp", AF_INET, port), {}); // blocking mode
    QVERIFY(sender);
    const std::vector<Bytes> packets = makePackets(0, 10, 100);
    QCOMPARE(sender->send(spansOf(packets)), std::size_t{0});
    // "Does not hang": far below the minutes a kernel connect could take; how long it took is printed
    // (bounds near the expected time would fail on a loaded machine).
    QVERIFY(Clock::now() - started < kNoHang);
    qInfo("refused after %lld ms", static_cast<long long>(msSince(started)));
    QVERIFY(!sender->connected());
    QCOMPARE(sender->stats().notSent, std::uint64_t{packets.size()});
    QVERIFY(sender->stats().errors >= 1);
    QVERIFY2(QString::fromStdString(sender->state()).startsWith(QStringLiteral("error: connection refused (retry in ")),
             qPrintable(QString::fromStdString(sender->state())));

    // Back-off: many calls make only a few connection attempts — the waits double from 100 ms, so
    // within T ms there are at most about log2(T / 100 + 1) + 1 attempts, whatever the load.
    const auto burst = Clock::now();
    const std::uint64_t errorsBefore = sender->stats().errors;
    for (int calls = 0; calls < 200 || Clock::now() - burst < 250ms; ++calls)
        QCOMPARE(sender->send(spansOf(packets, 0, 1)), std::size_t{0});
    const double burstMs = static_cast<double>(msSince(burst));
    const double attempts = std::log2(burstMs / 100.0 + 1.0) + 2.0;
    QVERIFY2(static_cast<double>(sender->stats().errors - errorsBefore) <= attempts,
             qPrintable(describe(*sender) + QStringLiteral(" in %1 ms").arg(burstMs)));
    QCOMPARE(sender->stats().connects, std::uint64_t{0});
}

void TestIoSender::tcpClientOpenNeverHangs()
{
    // A listener whose accept queue is full: the kernel drops further SYNs, so a connection to it
    // stays in progress (the client retransmits its SYN after 1 s, 3 s, ...).
    std::uint16_t port = 0;
    Socket listener(::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0));
    const Address any = loopback(AF_INET, 0);
    QVERIFY(::bind(listener.get(), any.get(), any.length) == 0 && ::listen(listener.get(), 0) == 0);
    port = boundPort(listener.get());
    std::vector<Socket> fillers;
    bool full = false;
    for (int i = 0; i < 8 && !full; ++i) {
        Socket s(::socket(AF_INET, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0));
        const Address a = loopback(AF_INET, port);
        (void)::connect(s.get(), a.get(), a.length);
        pollfd p{s.get(), POLLOUT, 0};
        full = ::poll(&p, 1, 300) == 0; // this one did not complete: the queue is full
        fillers.push_back(std::move(s));
    }
    if (!full)
        QSKIP("could not fill the listener's accept queue");

    for (const bool blocking : {false, true}) {
        SenderOptions options;
        options.blocking = blocking;
        const auto started = Clock::now();
        auto sender = openSenderUrl(url("tcp", AF_INET, port), options);
        QVERIFY(sender);
        QVERIFY(Clock::now() - started < kNoHang); // the kernel would retry the SYN for minutes
        QCOMPARE(QString::fromStdString(sender->state()), QStringLiteral("connecting to 127.0.0.1:%1").arg(port));
        const std::vector<Bytes> packets = makePackets(0, 3, 100);
        // Non-blocking: returns at once. Blocking: waits for the connection at most about a second.
        QCOMPARE(sender->send(spansOf(packets)), std::size_t{0});
        QVERIFY(Clock::now() - started < kNoHang);
        qInfo("%s: open and send returned after %lld ms", blocking ? "blocking" : "non-blocking",
              static_cast<long long>(msSince(started)));
        QVERIFY(!sender->connected());
        QCOMPARE(sender->stats().notSent, std::uint64_t{packets.size()});
    }
}

void TestIoSender::tcpClientBlockingWaitIsBounded()
{
    std::uint16_t port = 0;
    Socket listener = tcpListener(AF_INET, 0, port);
    SenderOptions options;
    options.blocking = true;
    options.sendBufferBytes = 256 * 1024;
    auto sender = openSenderUrl(url("tcp", AF_INET, port), options);
    QVERIFY(sender);
    Socket peer = acceptWithin(listener.get(), 5000ms);
    QVERIFY(peer.valid());

    // The peer reads nothing: far more than the socket buffers hold is offered in one call.
    const std::vector<Bytes> packets = makePackets(0, 800, 60000);
    const auto started = Clock::now();
    const std::size_t sent = sender->send(spansOf(packets));
    const auto elapsed = Clock::now() - started;
    // Bounded: it gave up on what the peer does not take (an unbounded wait would hang here).
    qInfo("send returned after %lld ms", static_cast<long long>(
        std::chrono::duration_cast<std::chrono::milliseconds>(elapsed).count()));
    QVERIFY2(sent > 0 && sent < packets.size(), qPrintable(describe(*sender)));
    QCOMPARE(sender->stats().notSent, std::uint64_t{packets.size() - sent});
    QVERIFY(sender->connected()); // the peer is alive, only slow
    QCOMPARE(sender->stats().disconnects, std::uint64_t{0});

    // Once the peer reads, it gets exactly the packets counted as sent, whole, then the next ones.
    const std::vector<Bytes> later = makePackets(5000, 20, 1000);
    TcpReader reader(peer.get(), {.stopAfter = sent + later.size()});
    QCOMPARE(sender->send(spansOf(later)), later.size());
    QVERIFY2(waitUntil([&] { return reader.finished(); }, 15s), qPrintable(describe(*sender)));
    reader.join();
    QVERIFY(!reader.corrupt);
    QCOMPARE(reader.packets.size(), sent + later.size());
    for (std::size_t i = 0; i < sent; ++i)
        QVERIFY(reader.packets[i] == packets[i]);
    for (std::size_t i = 0; i < later.size(); ++i)
        QVERIFY(reader.packets[sent + i] == later[i]);
}

void TestIoSender::tcpClientPeerResetMidSend()
{
    std::uint16_t port = 0;
    Socket listener = tcpListener(AF_INET, 0, port);
    SenderOptions options;
    options.blocking = true;
    options.sendBufferBytes = 256 * 1024;
    auto sender = openSenderUrl(url("tcp", AF_INET, port), options);
    QVERIFY(sender);
    Socket peer = acceptWithin(listener.get(), 5000ms);
    QVERIFY(peer.valid());
    QVERIFY(waitUntil([&] { return sender->send({}), sender->connected(); }, 5s));

    // While the sender waits for room, the peer resets the connection (close with unread data).
    const linger abort{1, 0};
    QVERIFY(::setsockopt(peer.get(), SOL_SOCKET, SO_LINGER, &abort, sizeof abort) == 0);
    const std::vector<Bytes> packets = makePackets(0, 800, 60000); // before the clock starts
    std::thread closer([&] {
        std::this_thread::sleep_for(200ms);
        peer.reset();
    });
    const auto started = Clock::now();
    const std::size_t sent = sender->send(spansOf(packets));
    closer.join();
    QVERIFY(Clock::now() - started < kNoHang);
    QVERIFY(sent < packets.size());
    // Writing to the reset connection failed with EPIPE / ECONNRESET: no signal, just a lost connection.
    QVERIFY2(waitUntil([&] { return sender->send(spansOf(packets, 0, 1)), !sender->connected(); }, 5s),
             qPrintable(describe(*sender)));
    QCOMPARE(sender->stats().disconnects, std::uint64_t{1});
    QVERIFY(sender->stats().errors >= 1);
    QVERIFY(sender->stats().notSent >= packets.size() - sent);
}

void TestIoSender::peerClosingMidSendDoesNotRaiseSigpipe_data()
{
    QTest::addColumn<bool>("server");
    QTest::newRow("tcp client") << false;
    QTest::newRow("tcp server") << true;
}

// The peer half-closes (FIN) while a blocking send is under way, keeps reading a little, then closes
// with data unread (RST). The sender's socket is in CLOSE_WAIT when the RST comes, so its next write
// fails with EPIPE, which raises SIGPIPE unless the write says MSG_NOSIGNAL.
void TestIoSender::peerClosingMidSendDoesNotRaiseSigpipe()
{
    QFETCH(bool, server);
    SenderOptions options;
    options.blocking = true;
    options.sendBufferBytes = 256 * 1024;
    std::unique_ptr<Sender> sender;
    Socket listener;
    Socket peer;
    if (server) {
        sender = openSenderUrl("tcp-listen://127.0.0.1:0", options);
        QVERIFY(sender);
        peer = tcpConnect(AF_INET, sender->localPort());
    } else {
        std::uint16_t port = 0;
        listener = tcpListener(AF_INET, 0, port);
        sender = openSenderUrl(url("tcp", AF_INET, port), options);
        QVERIFY(sender);
        peer = acceptWithin(listener.get(), 5000ms);
    }
    QVERIFY(peer.valid());
    QVERIFY(waitUntil([&] { return sender->send({}), sender->connected(); }, 5s));

    const std::vector<Bytes> packets = makePackets(0, 800, 60000); // before the clock starts
    std::thread closer([fd = peer.release()] {
        // Reads slowly (about 64 MB/s) so that the sender keeps waiting for room.
        std::vector<std::uint8_t> chunk(64 * 1024);
        const auto readFor = [&](std::chrono::milliseconds duration) {
            const auto until = Clock::now() + duration;
            while (Clock::now() < until) {
                (void)::recv(fd, chunk.data(), chunk.size(), MSG_DONTWAIT);
                std::this_thread::sleep_for(1ms);
            }
        };
        readFor(150ms);
        ::shutdown(fd, SHUT_WR);
        readFor(50ms);
        ::close(fd);
    });
    const auto started = Clock::now();
    const std::size_t sent = sender->send(spansOf(packets));
    QVERIFY(Clock::now() - started < kNoHang);
    closer.join();
    QVERIFY(sent < packets.size());
    QVERIFY2(waitUntil([&] { return sender->send(spansOf(packets, 0, 1)), !sender->connected(); }, 5s),
             qPrintable(describe(*sender)));
    QCOMPARE(sender->stats().disconnects, std::uint64_t{1});
    QVERIFY(sender->stats().errors >= 1);
}

void TestIoSender::tcpClientSendRawGoesBetweenPackets()
{
    std::uint16_t port = 0;
    Socket listener = tcpListener(AF_INET, 0, port);
    auto sender = openSenderUrl(url("tcp", AF_INET, port), {});
    QVERIFY(sender);
    Socket peer = acceptWithin(listener.get(), 5000ms);
    QVERIFY(peer.valid());
    const Bytes a = makePacket(1, 300);
    const Bytes b = makePacket(2, 40);
    const Bytes garbage{0x00, 0xFF, 0x55, 0xAA, 0x13, 0x37, 0x42};
    QCOMPARE(sender->send(spansOf({a})), std::size_t{1});
    QVERIFY(sender->sendRaw(garbage));
    QCOMPARE(sender->send(spansOf({b})), std::size_t{1});

    Bytes expected = a;
    expected.insert(expected.end(), garbage.begin(), garbage.end());
    expected.insert(expected.end(), b.begin(), b.end());
    Bytes got(expected.size());
    QVERIFY(readExactly(peer.get(), got.data(), got.size(), 5000ms));
    QCOMPARE(got, expected);
    QCOMPARE(sender->stats().packets, std::uint64_t{2});
    QCOMPARE(sender->stats().bytes, std::uint64_t{a.size() + b.size()});
}

void TestIoSender::tcpServerServesTwoClients()
{
    QString error;
    auto sender = openSenderUrl("tcp-listen://127.0.0.1:0", {}, &error);
    QVERIFY2(sender, qPrintable(error));
    const std::uint16_t port = sender->localPort();
    QVERIFY(port != 0);
    QCOMPARE(QString::fromStdString(sender->state()), QStringLiteral("listening on 127.0.0.1:%1 (0 clients)").arg(port));
    QVERIFY(!sender->connected());
    const std::vector<Bytes> none = makePackets(0, 3, 100);
    QCOMPARE(sender->send(spansOf(none)), std::size_t{0});
    QCOMPARE(sender->stats().notSent, std::uint64_t{3});

    Socket first = tcpConnect(AF_INET, port);
    Socket second = tcpConnect(AF_INET, port);
    QVERIFY(first.valid() && second.valid());
    QVERIFY2(waitUntil([&] { return sender->send({}), sender->stats().connects == 2; }, 5s), qPrintable(describe(*sender)));
    QVERIFY(sender->connected());
    QCOMPARE(QString::fromStdString(sender->state()), QStringLiteral("listening on 127.0.0.1:%1 (2 clients)").arg(port));

    const std::vector<Bytes> packets = makePackets(0, 600, 3000);
    TcpReader one(first.get(), {.stopAfter = 300});
    TcpReader two(second.get(), {.stopAfter = 600});
    for (std::size_t i = 0; i < 300; i += 30)
        QCOMPARE(sender->send(spansOf(packets, i, 30)), std::size_t{30});
    QVERIFY(waitUntil([&] { return one.finished(); }, 10s));
    one.join();
    QVERIFY(!one.corrupt);
    QCOMPARE(one.packets, std::vector<Bytes>(packets.begin(), packets.begin() + 300));

    // The first client leaves while packets keep coming: the second gets every one of them.
    first.reset();
    for (std::size_t i = 300; i < 600; i += 30)
        QCOMPARE(sender->send(spansOf(packets, i, 30)), std::size_t{30});
    QVERIFY(waitUntil([&] { return two.finished(); }, 10s));
    two.join();
    QVERIFY(!two.corrupt);
    QCOMPARE(two.packets, packets);

    QVERIFY2(waitUntil([&] { return sender->send({}), sender->stats().disconnects == 1; }, 5s), qPrintable(describe(*sender)));
    QCOMPARE(QString::fromStdString(sender->state()), QStringLiteral("listening on 127.0.0.1:%1 (1 client)").arg(port));
    QVERIFY(sender->connected());
    QCOMPARE(sender->stats().packets, std::uint64_t{600});
    QCOMPARE(sender->stats().notSent, std::uint64_t{3});
}

void TestIoSender::tcpServerNeverTearsPacketsForSlowClient()
{
    SenderOptions options;
    options.blocking = false; // the forwarder's mode: drop whole packets that do not fit
    options.sendBufferBytes = 32 * 1024;
    auto sender = openSenderUrl("tcp-listen://127.0.0.1:0", options);
    QVERIFY(sender);
    Socket client = tcpConnect(AF_INET, sender->localPort(), 16 * 1024);
    QVERIFY(client.valid());
    QVERIFY(waitUntil([&] { return sender->send({}), sender->connected(); }, 5s));

    TcpReader reader(client.get(), {.slow = true, .timeout = 30s});
    // Large packets as fast as possible for a second.
    std::uint32_t counter = 0;
    const auto started = Clock::now();
    while (Clock::now() - started < 1s) {
        std::vector<Bytes> batch;
        for (int i = 0; i < 4; ++i, ++counter)
            batch.push_back(makePacket(counter, 1000 + (counter * 7919u) % 40000));
        (void)sender->send(spansOf(batch));
    }
    const SenderStats during = sender->stats();
    QCOMPARE(during.packets + during.notSent, std::uint64_t{counter});
    QVERIFY2(during.notSent > 0, "the client kept up: the test did not put the sender under pressure");

    // An end marker, offered until it is taken; empty calls then write what remains of it.
    const Bytes end = makePacket(kEndMarker, 16);
    bool endTaken = false;
    QVERIFY2(waitUntil(
                 [&] {
                     if (!endTaken)
                         endTaken = sender->send(spansOf({end})) == 1;
                     else
                         (void)sender->send({});
                     return reader.finished();
                 },
                 20s),
             qPrintable(describe(*sender)));
    reader.join();
    QVERIFY2(!reader.corrupt, "a torn or corrupt packet arrived");
    QVERIFY(reader.sawEnd);
    const auto counters = countersOf(reader.packets);
    QVERIFY(strictlyIncreasing(counters));
    // Every packet counted as sent arrived whole (the client stayed connected), and nothing else.
    QCOMPARE(std::uint64_t{reader.packets.size()}, sender->stats().packets);
    QVERIFY(reader.packets.size() > 10);
    QCOMPARE(sender->stats().disconnects, std::uint64_t{0});
}

void TestIoSender::tcpServerIpv6()
{
    QString error;
    auto sender = openSenderUrl("tcp-listen://[::1]:0", {}, &error);
    if (!sender && error.contains(QStringLiteral("Cannot assign requested address")))
        QSKIP("no IPv6 loopback on this machine");
    QVERIFY2(sender, qPrintable(error));
    const std::uint16_t port = sender->localPort();
    QCOMPARE(QString::fromStdString(sender->state()), QStringLiteral("listening on [::1]:%1 (0 clients)").arg(port));
    Socket client = tcpConnect(AF_INET6, port);
    QVERIFY(client.valid());
    QVERIFY(waitUntil([&] { return sender->send({}), sender->connected(); }, 5s));
    const std::vector<Bytes> packets = makePackets(0, 100, 2000);
    TcpReader reader(client.get(), {.stopAfter = packets.size()});
    QCOMPARE(sender->send(spansOf(packets)), packets.size());
    QVERIFY(waitUntil([&] { return reader.finished(); }, 10s));
    reader.join();
    QCOMPARE(reader.packets, packets);
}

void TestIoSender::steadyStateSendsAllocateNothing()
{
    // The counter works: a vector allocates.
    const long probeStart = telestation::test::threadAllocations();
    {
        std::vector<int> probe(10);
        QVERIFY(!probe.empty());
    }
    QVERIFY(telestation::test::threadAllocations() > probeStart);

    const std::vector<Bytes> packets = makePackets(0, 64, 100);
    const auto spans = spansOf(packets);
    constexpr int kRounds = 40; // 40 x 64 x ~54 bytes: fits the socket buffers, nobody needs to read
    // Sends kRounds batches after one warm-up batch; returns the allocations made by the measured sends.
    const auto allocationsOf = [&](Sender& sender, std::size_t& sent) {
        sent = sender.send(spans);
        const long start = telestation::test::threadAllocations();
        for (int i = 0; i < kRounds; ++i)
            sent += sender.send(spans);
        return telestation::test::threadAllocations() - start;
    };
    std::size_t sent = 0;

    std::uint16_t port = 0;
    Socket rx = udpReceiver(AF_INET, port);
    auto udp = openSenderUrl(url("udp", AF_INET, port), {});
    QVERIFY(udp);
    QCOMPARE(allocationsOf(*udp, sent), 0L);
    QCOMPARE(sent, spans.size() * (kRounds + 1));

    Socket listener = tcpListener(AF_INET, 0, port);
    auto client = openSenderUrl(url("tcp", AF_INET, port), {});
    QVERIFY(client);
    Socket peer = acceptWithin(listener.get(), 5000ms);
    QVERIFY(waitUntil([&] { return client->send({}), client->connected(); }, 5s));
    QCOMPARE(allocationsOf(*client, sent), 0L);
    QCOMPARE(sent, spans.size() * (kRounds + 1));

    auto server = openSenderUrl("tcp-listen://127.0.0.1:0", {});
    QVERIFY(server);
    Socket serverPeer = tcpConnect(AF_INET, server->localPort());
    QVERIFY(waitUntil([&] { return server->send({}), server->connected(); }, 5s));
    QCOMPARE(allocationsOf(*server, sent), 0L);
    QCOMPARE(sent, spans.size() * (kRounds + 1));
}

void TestIoSender::openErrors()
{
    // Address in use.
    std::uint16_t port = 0;
    Socket taken = tcpListener(AF_INET, 0, port);
    QVERIFY(taken.valid());
    QString error;
    const std::string target = url("tcp-listen", AF_INET, port);
    QVERIFY(!openSenderUrl(target, {}, &error));
    QVERIFY2(error.startsWith(QString::fromStdString(target) + ": cannot bind 127.0.0.1:" + QString::number(port)),
             qPrintable(error));
    QVERIFY2(error.contains(QStringLiteral("Address already in use")), qPrintable(error));

    // Recordings are not written through senders.
    QVERIFY(!openSenderUrl("file:///tmp/x.tsr", {}, &error));
    QVERIFY2(error.startsWith(QStringLiteral("file:///tmp/x.tsr: ")), qPrintable(error));

    // A multicast interface address no interface has.
    QVERIFY(!openSenderUrl("udp://239.255.77.2:5000?iface=203.0.113.254", {}, &error));
    QVERIFY2(error.contains(QStringLiteral("cannot set the multicast interface 203.0.113.254")), qPrintable(error));
    QVERIFY(!openSenderUrl("udp://[ff15::77]:5000?iface=2001:db8::dead", {}, &error));
    QVERIFY2(error.contains(QStringLiteral("no local interface has the address 2001:db8::dead")), qPrintable(error));
}

QTEST_GUILESS_MAIN(TestIoSender)
#include "tst_io_sender.moc"
