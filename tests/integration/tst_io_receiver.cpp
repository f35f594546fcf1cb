// Integration tests of the packet receivers on loopback, with the senders of core/io (and a plain socket
// where a sender cannot produce the input) on the other side: UDP over IPv4 and IPv6 with and without
// GSO / GRO, GRO runs with a shorter last datagram, kernel drops (SO_RXQ_OVFL), multicast shared by two
// receivers, the TCP client (waiting for a server, framing, a truncated packet, reconnection), a
// transport header with garbage between packets, the TCP listener with two senders at once, bounded
// poll() waits, no allocation in steady-state polls, and the open errors.
#include "tests/support/allocation_counter.hpp"
#include "core/ccsds/space_packet.hpp"
#include "core/common/clock.hpp"
#include "core/io/endpoint.hpp"
#include "core/io/receiver.hpp"
#include "core/io/sender.hpp"
#include "tests/support/open_sender.hpp"
#include "tests/support/wait_until.hpp"

#include <QtTest>

#include <arpa/inet.h>
#include <netinet/in.h>
#include <netinet/udp.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <cstring>
#include <functional>
#include <limits>
#include <map>
#include <memory>
#include <string>
#include <thread>
#include <vector>

using namespace telestation;
using namespace telestation::io;
using namespace std::chrono_literals;

namespace {

using Clock = std::chrono::steady_clock;
using Bytes = std::vector<std::uint8_t>;
using PacketSpan = std::span<const std::uint8_t>;

// ---- test packets -------------------------------------------------------------------------------
// A CCSDS telemetry packet (so that the TCP framer accepts it) whose data field starts with a 4-byte
// big-endian counter followed by bytes derived from the counter: every packet differs, and a torn,
// shifted or mixed one does not compare equal to what was sent.

constexpr std::size_t kMinPacket = 10;

std::uint8_t patternByte(std::uint32_t counter, std::size_t i)
{
    return static_cast<std::uint8_t>((counter * 131u) ^ (i * 7u) ^ (i >> 8));
}

Bytes makePacket(std::uint16_t apid, std::uint32_t counter, std::size_t size)
{
    Bytes p(std::max(size, kMinPacket));
    ccsds::PrimaryHeader h;
    h.apid = apid;
    h.sequenceCount = static_cast<std::uint16_t>(counter);
    h.dataLength = static_cast<std::uint16_t>(p.size() - 7);
    ccsds::writePrimaryHeader(h, p.data());
    p[6] = static_cast<std::uint8_t>(counter >> 24);
    p[7] = static_cast<std::uint8_t>(counter >> 16);
    p[8] = static_cast<std::uint8_t>(counter >> 8);
    p[9] = static_cast<std::uint8_t>(counter);
    for (std::size_t i = kMinPacket; i < p.size(); ++i)
        p[i] = patternByte(counter, i);
    return p;
}

// `count` packets in runs of equal sizes (as a telemetry stream has: many packets of a few types), the
// run lengths and sizes varying, with an occasional large one.
std::vector<Bytes> makeRuns(std::uint16_t apid, std::size_t count)
{
    constexpr std::array<std::size_t, 7> kSizes{10, 64, 333, 1288, 1472, 4000, 8999};
    std::vector<Bytes> packets;
    packets.reserve(count);
    for (std::size_t run = 0; packets.size() < count; ++run) {
        const bool large = run % 11 == 10;
        const std::size_t size = large ? 60000 : kSizes[(run * 5) % kSizes.size()];
        const std::size_t length = large ? 1 + run % 3 : 1 + (run * 37) % 70;
        for (std::size_t k = 0; k < length && packets.size() < count; ++k)
            packets.push_back(makePacket(apid, static_cast<std::uint32_t>(packets.size()), size));
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

std::uint64_t totalBytes(const std::vector<Bytes>& packets)
{
    std::uint64_t total = 0;
    for (const Bytes& p : packets)
        total += p.size();
    return total;
}

// ---- sinks and pumps ----------------------------------------------------------------------------

// Keeps every frame with its receive time, and how the frames were grouped into batches.
class CollectingSink final : public PacketSink {
public:
    void onPacket(std::span<const std::uint8_t> frame, std::int64_t receiveTimeNs) override
    {
        frames.emplace_back(frame.begin(), frame.end());
        times.push_back(receiveTimeNs);
        ++sinceBatchEnd;
    }
    void onBatchEnd() override
    {
        ++batchEnds;
        largestBatch = std::max(largestBatch, sinceBatchEnd);
        sinceBatchEnd = 0;
    }

    std::vector<Bytes> frames;
    std::vector<std::int64_t> times;
    std::size_t batchEnds = 0;
    std::size_t sinceBatchEnd = 0; // frames not yet followed by onBatchEnd()
    std::size_t largestBatch = 0;
};

// Counts frames and bytes without keeping them (and without allocating).
class CountingSink final : public PacketSink {
public:
    void onPacket(std::span<const std::uint8_t> frame, std::int64_t) override
    {
        ++frames;
        bytes += frame.size();
    }
    std::size_t frames = 0;
    std::uint64_t bytes = 0;
};

using telestation::test::waitUntil;

// Polls the receiver on this thread until the condition holds or the timeout passes; `between` runs
// before each poll (to let a sender accept or connect).
bool pumpUntil(Receiver& receiver, PacketSink& sink, const std::function<bool()>& condition,
               std::chrono::milliseconds timeout, const std::function<void()>& between = {})
{
    const auto deadline = Clock::now() + timeout;
    while (!condition()) {
        if (Clock::now() >= deadline)
            return false;
        if (between)
            between();
        receiver.poll(10ms, sink);
    }
    return true;
}

// Polls until nothing has arrived for `quiet`.
void pumpUntilQuiet(Receiver& receiver, PacketSink& sink, std::chrono::milliseconds quiet, std::chrono::milliseconds limit)
{
    const auto deadline = Clock::now() + limit;
    auto lastData = Clock::now();
    while (Clock::now() < deadline && Clock::now() - lastData < quiet) {
        if (receiver.poll(10ms, sink) > 0)
            lastData = Clock::now();
    }
}

// Runs a receiver's poll loop on a thread of its own, as the station does. The sink belongs to that
// thread until stop().
class ReceiverThread {
public:
    ReceiverThread(Receiver& receiver, PacketSink& sink)
        : m_thread([this, &receiver, &sink] {
            while (!m_stop.load(std::memory_order_acquire))
                receiver.poll(20ms, sink);
        })
    {
    }
    ~ReceiverThread() { stop(); }
    ReceiverThread(const ReceiverThread&) = delete;
    ReceiverThread& operator=(const ReceiverThread&) = delete;
    void stop()
    {
        m_stop.store(true, std::memory_order_release);
        if (m_thread.joinable())
            m_thread.join();
    }

private:
    std::atomic<bool> m_stop{false};
    std::thread m_thread;
};

// ---- opening ------------------------------------------------------------------------------------

std::string url(std::string_view scheme, int family, std::uint16_t port)
{
    return std::string(scheme) + (family == AF_INET6 ? "://[::1]:" : "://127.0.0.1:") + std::to_string(port);
}

std::unique_ptr<Receiver> openReceiverUrl(const std::string& text, const ReceiverOptions& options = {},
                                          QString* error = nullptr)
{
    const auto endpoint = parseEndpoint(text);
    if (!endpoint) {
        if (error != nullptr)
            *error = QString::fromStdString(endpoint.error().message);
        return nullptr;
    }
    auto receiver = openReceiver(endpoint.value(), options);
    if (!receiver) {
        if (error != nullptr)
            *error = QString::fromStdString(receiver.error().message);
        return nullptr;
    }
    return std::move(receiver.value());
}

using telestation::test::openSenderUrl;

QString describe(const Receiver& r)
{
    const ReceiverStats s = r.stats();
    return QStringLiteral("%1: packets %2 bytes %3 reads %4 kernelDrops %5 truncatedDatagrams %6 framingErrors %7 "
                          "resyncs %8 skippedBytes %9 truncatedPackets %10 connects %11 disconnects %12 errors %13 "
                          "connections %14")
        .arg(QString::fromStdString(r.state()))
        .arg(s.packets)
        .arg(s.bytes)
        .arg(s.reads)
        .arg(s.kernelDrops)
        .arg(s.truncatedDatagrams)
        .arg(s.framingErrors)
        .arg(s.resyncs)
        .arg(s.skippedBytes)
        .arg(s.truncatedPackets)
        .arg(s.connects)
        .arg(s.disconnects)
        .arg(s.errors)
        .arg(s.connections);
}

// The index of the first frame that differs from the packet sent at the same position, or -1.
qsizetype firstDifference(const std::vector<Bytes>& frames, const std::vector<Bytes>& packets)
{
    const std::size_t n = std::min(frames.size(), packets.size());
    for (std::size_t i = 0; i < n; ++i) {
        if (frames[i] != packets[i])
            return static_cast<qsizetype>(i);
    }
    return frames.size() == packets.size() ? -1 : static_cast<qsizetype>(n);
}

// A port nobody uses right now (bound once to find a free one, then released).
std::uint16_t unusedPort(int family, int type)
{
    const int fd = ::socket(family, type | SOCK_CLOEXEC, 0);
    sockaddr_storage storage{};
    socklen_t length = 0;
    if (family == AF_INET) {
        sockaddr_in v4{};
        v4.sin_family = AF_INET;
        v4.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
        std::memcpy(&storage, &v4, sizeof v4);
        length = sizeof v4;
    } else {
        sockaddr_in6 v6{};
        v6.sin6_family = AF_INET6;
        v6.sin6_addr = in6addr_loopback;
        std::memcpy(&storage, &v6, sizeof v6);
        length = sizeof v6;
    }
    std::uint16_t port = 0;
    if (::bind(fd, reinterpret_cast<const sockaddr*>(&storage), length) == 0
        && ::getsockname(fd, reinterpret_cast<sockaddr*>(&storage), &length) == 0) {
        if (family == AF_INET) {
            sockaddr_in v4{};
            std::memcpy(&v4, &storage, sizeof v4);
            port = ntohs(v4.sin_port);
        } else {
            sockaddr_in6 v6{};
            std::memcpy(&v6, &storage, sizeof v6);
            port = ntohs(v6.sin6_port);
        }
    }
    ::close(fd);
    return port;
}

bool ipv6LoopbackAvailable()
{
    return unusedPort(AF_INET6, SOCK_DGRAM) != 0;
}

// Sends `payload` from a plain socket as one UDP_SEGMENT (GSO) buffer of `segment`-byte datagrams, the
// last one possibly shorter. Returns errno, 0 on success.
int sendSegmented(std::uint16_t port, const Bytes& payload, std::uint16_t segment)
{
    const int fd = ::socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
    sockaddr_in to{};
    to.sin_family = AF_INET;
    to.sin_port = htons(port);
    to.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    iovec iov{const_cast<std::uint8_t*>(payload.data()), payload.size()};
    alignas(cmsghdr) unsigned char control[CMSG_SPACE(sizeof(std::uint16_t))]{};
    msghdr h{};
    h.msg_name = &to;
    h.msg_namelen = sizeof to;
    h.msg_iov = &iov;
    h.msg_iovlen = 1;
    h.msg_control = control;
    h.msg_controllen = sizeof control;
    cmsghdr* c = CMSG_FIRSTHDR(&h);
    c->cmsg_level = SOL_UDP;
    c->cmsg_type = UDP_SEGMENT;
    c->cmsg_len = CMSG_LEN(sizeof segment);
    std::memcpy(CMSG_DATA(c), &segment, sizeof segment);
    const int error = ::sendmsg(fd, &h, 0) == static_cast<ssize_t>(payload.size()) ? 0 : errno;
    ::close(fd);
    return error;
}

Bytes concatenate(const std::vector<Bytes>& packets)
{
    Bytes all;
    for (const Bytes& p : packets)
        all.insert(all.end(), p.begin(), p.end());
    return all;
}

// What a receiver must deliver for a GSO buffer: consecutive pieces of `segment` bytes.
std::vector<Bytes> cut(const Bytes& payload, std::size_t segment)
{
    std::vector<Bytes> pieces;
    for (std::size_t offset = 0; offset < payload.size(); offset += segment) {
        const auto end = payload.begin() + static_cast<std::ptrdiff_t>(std::min(payload.size(), offset + segment));
        pieces.emplace_back(payload.begin() + static_cast<std::ptrdiff_t>(offset), end);
    }
    return pieces;
}

// ASM-like transport header: none of its bytes can start a telemetry packet header (the framer must
// find each packet at its real place, wherever the hunt starts).
const Bytes kTransportHeader{0x1A, 0xCF, 0xFC, 0x1D};

Bytes withTransportHeader(const Bytes& packet)
{
    Bytes frame = kTransportHeader;
    frame.insert(frame.end(), packet.begin(), packet.end());
    return frame;
}

} // namespace

class TestIoReceiver : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void udpDelivers_data();
    void udpDelivers();
    void udpGroSplitsRuns_data();
    void udpGroSplitsRuns();
    void udpCountsKernelDrops_data();
    void udpCountsKernelDrops();
    void udpMulticastSharedByTwoReceivers_data();
    void udpMulticastSharedByTwoReceivers();

    void tcpClientWaitsFramesAndReconnects_data();
    void tcpClientWaitsFramesAndReconnects();
    void tcpTransportHeaderAndGarbage();
    void tcpListenTwoSendersAtOnce();

    void pollWaitsAtMostItsTimeout();
    void steadyStatePollsAllocateNothing();
    void openErrors();
};

void TestIoReceiver::udpDelivers_data()
{
    QTest::addColumn<int>("family");
    QTest::addColumn<bool>("segmentation");
    QTest::addColumn<bool>("gro");
    QTest::newRow("ipv4 gso gro") << int(AF_INET) << true << true;
    QTest::newRow("ipv4 plain gro") << int(AF_INET) << false << true;
    QTest::newRow("ipv4 gso no-gro") << int(AF_INET) << true << false;
    QTest::newRow("ipv6 gso gro") << int(AF_INET6) << true << true;
    QTest::newRow("ipv6 plain no-gro") << int(AF_INET6) << false << false;
}

void TestIoReceiver::udpDelivers()
{
    QFETCH(int, family);
    QFETCH(bool, segmentation);
    QFETCH(bool, gro);
    if (family == AF_INET6 && !ipv6LoopbackAvailable())
        QSKIP("no IPv6 loopback on this machine");
    constexpr std::size_t kCount = 10'000;

    ReceiverOptions options;
    options.udpGro = gro;
    QString error;
    auto receiver = openReceiverUrl(url("udp", family, 0), options, &error);
    QVERIFY2(receiver, qPrintable(error));
    const std::uint16_t port = receiver->localPort();
    QVERIFY(port != 0);
    const QString host = family == AF_INET6 ? QStringLiteral("[::1]") : QStringLiteral("127.0.0.1");
    QCOMPARE(QString::fromStdString(receiver->state()), QStringLiteral("receiving on %1:%2").arg(host).arg(port));
    QVERIFY(receiver->stats().kernelDropsSupported);

    SenderOptions senderOptions;
    senderOptions.udpSegmentation = segmentation;
    auto sender = openSenderUrl(url("udp", family, port), senderOptions, &error);
    QVERIFY2(sender, qPrintable(error));

    const std::vector<Bytes> packets = makeRuns(42, kCount);
    const std::int64_t before = clock::realtimeNs();
    CollectingSink sink;
    sink.frames.reserve(kCount);
    {
        ReceiverThread thread(*receiver, sink);
        std::size_t offered = 0;
        std::size_t batch = 1;
        while (offered < kCount) {
            // A bounded number in flight: the receive buffer never overflows, whatever rmem_max allows.
            QVERIFY2(waitUntil([&] { return offered - receiver->stats().packets < 600; }, 10s), qPrintable(describe(*receiver)));
            const std::size_t n = std::min(batch, kCount - offered);
            QCOMPARE(sender->send(spansOf(packets, offered, n)), n);
            offered += n;
            batch = batch % 150 + 7; // below, at and above the sender's and receiver's batch of 64
        }
        QVERIFY2(waitUntil([&] { return receiver->stats().packets == kCount; }, 10s), qPrintable(describe(*receiver)));
    }
    const std::int64_t after = clock::realtimeNs();

    QCOMPARE(sink.frames.size(), kCount);
    const qsizetype differs = firstDifference(sink.frames, packets);
    QVERIFY2(differs < 0, qPrintable(QStringLiteral("frame %1 differs from the packet sent").arg(differs)));
    QCOMPARE(sink.sinceBatchEnd, std::size_t{0}); // every frame was followed by the end of its batch
    QVERIFY(sink.batchEnds > 0);
    QVERIFY(sink.largestBatch > 1); // batches, not one call per datagram
    for (const std::int64_t t : sink.times)
        QVERIFY(t >= before && t <= after);

    const ReceiverStats s = receiver->stats();
    QCOMPARE(s.packets, std::uint64_t{kCount});
    QCOMPARE(s.bytes, totalBytes(packets));
    QCOMPARE(s.reads, std::uint64_t{sink.batchEnds}); // one batch end per recvmmsg call that returned data
    QCOMPARE(s.kernelDrops, std::uint64_t{0});
    QCOMPARE(s.truncatedDatagrams, std::uint64_t{0});
    QCOMPARE(s.errors, std::uint64_t{0});
    QCOMPARE(sender->stats().packets, std::uint64_t{kCount});
}

void TestIoReceiver::udpGroSplitsRuns_data()
{
    QTest::addColumn<bool>("gro");
    QTest::newRow("gro") << true;
    QTest::newRow("no-gro") << false;
}

void TestIoReceiver::udpGroSplitsRuns()
{
    QFETCH(bool, gro);
    ReceiverOptions options;
    options.udpGro = gro;
    QString error;
    auto receiver = openReceiverUrl("udp://127.0.0.1:0", options, &error);
    QVERIFY2(receiver, qPrintable(error));
    const std::uint16_t port = receiver->localPort();

    // Equal datagrams as one GSO buffer; then a buffer whose last datagram is shorter (3500 bytes in
    // segments of 1000: 1000, 1000, 1000, 500); then a single datagram shorter than the segment size.
    std::vector<Bytes> equal;
    for (std::uint32_t i = 0; i < 10; ++i)
        equal.push_back(makePacket(7, i, 1000));
    const Bytes run = concatenate(equal);
    Bytes uneven;
    for (std::uint32_t i = 0; i < 4; ++i) {
        const Bytes p = makePacket(8, 100 + i, i < 3 ? 1000 : 500);
        uneven.insert(uneven.end(), p.begin(), p.end());
    }
    const Bytes single = makePacket(9, 200, 700);

    const int sendError = sendSegmented(port, run, 1000);
    if (sendError == EIO || sendError == EINVAL || sendError == EOPNOTSUPP)
        QSKIP(qPrintable(QStringLiteral("the kernel cannot send UDP GSO here: %1").arg(std::strerror(sendError))));
    QCOMPARE(sendError, 0);
    QCOMPARE(sendSegmented(port, uneven, 1000), 0);
    QCOMPARE(sendSegmented(port, single, 1000), 0);

    std::vector<Bytes> expected = equal;
    for (Bytes& piece : cut(uneven, 1000))
        expected.push_back(std::move(piece));
    expected.push_back(single);
    QCOMPARE(expected.size(), std::size_t{15});
    QCOMPARE(expected[13].size(), std::size_t{500});

    // And the simulator's way: the sender's GSO runs of equal-sized packets.
    SenderOptions senderOptions;
    senderOptions.udpSegmentation = true;
    auto sender = openSenderUrl(url("udp", AF_INET, port), senderOptions, &error);
    QVERIFY2(sender, qPrintable(error));
    std::vector<Bytes> fromSender;
    for (std::uint32_t i = 0; i < 200; ++i)
        fromSender.push_back(makePacket(10, 300 + i, i < 128 ? 1288 : 99));
    QCOMPARE(sender->send(spansOf(fromSender)), fromSender.size());
    expected.insert(expected.end(), fromSender.begin(), fromSender.end());

    CollectingSink sink;
    QVERIFY2(pumpUntil(*receiver, sink, [&] { return sink.frames.size() >= expected.size(); }, 10s),
             qPrintable(describe(*receiver)));
    pumpUntilQuiet(*receiver, sink, 100ms, 2s); // nothing more may come
    QCOMPARE(sink.frames.size(), expected.size());
    for (std::size_t i = 0; i < expected.size(); ++i) {
        QVERIFY2(sink.frames[i].size() == expected[i].size(),
                 qPrintable(QStringLiteral("frame %1: %2 bytes, expected %3").arg(i).arg(sink.frames[i].size()).arg(expected[i].size())));
        QVERIFY2(sink.frames[i] == expected[i], qPrintable(QStringLiteral("frame %1 differs").arg(i)));
    }
    QCOMPARE(receiver->stats().packets, std::uint64_t{expected.size()});
    QCOMPARE(receiver->stats().bytes, totalBytes(expected));
    QCOMPARE(receiver->stats().truncatedDatagrams, std::uint64_t{0});
}

void TestIoReceiver::udpCountsKernelDrops_data()
{
    QTest::addColumn<bool>("segmentation");
    QTest::addColumn<bool>("gro");
    QTest::addColumn<bool>("exact");
    QTest::newRow("plain datagrams") << false << true << true;
    // The kernel segments the GSO buffers before queueing them: each datagram is dropped on its own.
    QTest::newRow("gso without gro") << true << false << true;
    // GSO buffers handed to a GRO socket whole: a buffer dropped counts once, whatever it held.
    QTest::newRow("gso into gro") << true << true << false;
}

void TestIoReceiver::udpCountsKernelDrops()
{
    QFETCH(bool, segmentation);
    QFETCH(bool, gro);
    QFETCH(bool, exact);
    ReceiverOptions options;
    options.receiveBufferBytes = 4096; // room for a few datagrams only
    options.udpGro = gro;
    QString error;
    auto receiver = openReceiverUrl("udp://127.0.0.1:0", options, &error);
    QVERIFY2(receiver, qPrintable(error));
    if (!receiver->stats().kernelDropsSupported)
        QSKIP("the kernel does not accept SO_RXQ_OVFL");
    SenderOptions senderOptions;
    senderOptions.udpSegmentation = segmentation;
    auto sender = openSenderUrl(url("udp", AF_INET, receiver->localPort()), senderOptions, &error);
    QVERIFY2(sender, qPrintable(error));

    // A burst while nobody reads: most of it cannot fit.
    std::vector<Bytes> burst;
    for (std::uint32_t i = 0; i < 1000; ++i)
        burst.push_back(makePacket(5, i, 1000));
    QCOMPARE(sender->send(spansOf(burst)), burst.size());
    CountingSink sink;
    pumpUntilQuiet(*receiver, sink, 200ms, 5s);
    // The counter travels with received datagrams: drops after the last queued one are reported by the
    // next. One more datagram, sent when the queue is empty, carries the final count.
    const std::vector<Bytes> probe{makePacket(5, 1000, 1000)};
    QCOMPARE(sender->send(spansOf(probe)), std::size_t{1});
    const std::size_t beforeProbe = sink.frames;
    QVERIFY2(pumpUntil(*receiver, sink, [&] { return sink.frames > beforeProbe; }, 5s), qPrintable(describe(*receiver)));

    const ReceiverStats s = receiver->stats();
    const std::uint64_t sent = burst.size() + 1;
    QVERIFY2(s.kernelDrops > 0, qPrintable(describe(*receiver)));
    QVERIFY2(s.packets < sent, qPrintable(describe(*receiver)));
    QCOMPARE(s.packets, std::uint64_t{sink.frames});
    const QString counts = QStringLiteral("delivered %1 + dropped %2, sent %3").arg(s.packets).arg(s.kernelDrops).arg(sent);
    if (exact)
        QVERIFY2(s.packets + s.kernelDrops == sent, qPrintable(counts));
    else
        QVERIFY2(s.packets + s.kernelDrops < sent, qPrintable(counts));
}

void TestIoReceiver::udpMulticastSharedByTwoReceivers_data()
{
    QTest::addColumn<QString>("group");
    QTest::addColumn<QString>("iface");
    QTest::newRow("ipv4") << QStringLiteral("239.255.77.2") << QStringLiteral("127.0.0.1");
    QTest::newRow("ipv6") << QStringLiteral("[ff15::7e:2]") << QStringLiteral("::1");
}

void TestIoReceiver::udpMulticastSharedByTwoReceivers()
{
    QFETCH(QString, group);
    QFETCH(QString, iface);
    if (iface == QStringLiteral("::1") && !ipv6LoopbackAvailable())
        QSKIP("no IPv6 loopback on this machine");
    const std::string first = "udp://" + group.toStdString() + ":0?iface=" + iface.toStdString();
    QString error;
    auto a = openReceiverUrl(first, {}, &error);
    if (!a && error.contains(QStringLiteral("cannot join")))
        QSKIP(qPrintable(QStringLiteral("the kernel refuses to join on lo: ") + error));
    QVERIFY2(a, qPrintable(error));
    const std::uint16_t port = a->localPort();
    QVERIFY(port != 0);
    QCOMPARE(QString::fromStdString(a->state()),
             QStringLiteral("receiving on %1:%2 (multicast via %3)").arg(group).arg(port).arg(iface));
    // A second receiver on the same group and port: both get every datagram.
    const std::string target = "udp://" + group.toStdString() + ":" + std::to_string(port) + "?iface=" + iface.toStdString();
    auto b = openReceiverUrl(target, {}, &error);
    QVERIFY2(b, qPrintable(error));
    QCOMPARE(b->localPort(), port);

    SenderOptions senderOptions;
    senderOptions.multicastTtl = 0; // stays on this host
    senderOptions.multicastLoopback = true;
    auto sender = openSenderUrl(target, senderOptions, &error);
    if (!sender && (error.contains(QStringLiteral("multicast interface")) || error.contains(QStringLiteral("unreachable"))))
        QSKIP(qPrintable(QStringLiteral("no multicast route via lo here (the receivers joined): ") + error));
    QVERIFY2(sender, qPrintable(error));
    std::vector<Bytes> packets;
    for (std::uint32_t i = 0; i < 300; ++i)
        packets.push_back(makePacket(3, i, 20 + (i * 37) % 1400));
    QCOMPARE(sender->send(spansOf(packets)), packets.size());

    CollectingSink sinkA;
    CollectingSink sinkB;
    const bool arrived = pumpUntil(
        *a, sinkA, [&] { return sinkA.frames.size() >= packets.size() && sinkB.frames.size() >= packets.size(); }, 10s,
        [&] { b->poll(0ms, sinkB); });
    QVERIFY2(arrived, qPrintable(describe(*a) + QStringLiteral(" / ") + describe(*b)));
    QCOMPARE(sinkA.frames, packets);
    QCOMPARE(sinkB.frames, packets);
}

void TestIoReceiver::tcpClientWaitsFramesAndReconnects_data()
{
    QTest::addColumn<int>("family");
    QTest::newRow("ipv4") << int(AF_INET);
    QTest::newRow("ipv6") << int(AF_INET6);
}

void TestIoReceiver::tcpClientWaitsFramesAndReconnects()
{
    QFETCH(int, family);
    if (family == AF_INET6 && !ipv6LoopbackAvailable())
        QSKIP("no IPv6 loopback on this machine");
    const std::uint16_t port = unusedPort(family, SOCK_STREAM);
    QVERIFY(port != 0);
    const QString host = family == AF_INET6 ? QStringLiteral("[::1]") : QStringLiteral("127.0.0.1");
    const QString target = QStringLiteral("%1:%2").arg(host).arg(port);

    // Opened before any server exists: it opens, and keeps trying with back-off.
    QString error;
    auto receiver = openReceiverUrl(url("tcp", family, port), {}, &error);
    QVERIFY2(receiver, qPrintable(error));
    QCOMPARE(receiver->localPort(), std::uint16_t{0});
    CollectingSink sink;
    const auto waitStart = Clock::now();
    QVERIFY2(pumpUntil(*receiver, sink, [&] { return receiver->stats().errors >= 3; }, 5s), qPrintable(describe(*receiver)));
    // Attempts at 0, 100 and 300 ms: the back-off doubles.
    QVERIFY(Clock::now() - waitStart >= 250ms);
    QCOMPARE(receiver->stats().connects, std::uint64_t{0});
    QCOMPARE(receiver->stats().connections, std::uint32_t{0});
    const QString waiting = QString::fromStdString(receiver->state());
    QVERIFY2(waiting.startsWith(QStringLiteral("error: connection refused (retry in "))
                 || waiting == QStringLiteral("connecting to ") + target,
             qPrintable(waiting));

    // The server appears (a tcp-listen sender): the receiver connects within its back-off.
    auto server = openSenderUrl(url("tcp-listen", family, port), {}, &error);
    QVERIFY2(server, qPrintable(error));
    QVERIFY2(pumpUntil(*receiver, sink, [&] { return receiver->stats().connects == 1 && server->connected(); }, 10s,
                       [&] { server->send({}); }),
             qPrintable(describe(*receiver)));
    QCOMPARE(QString::fromStdString(receiver->state()), QStringLiteral("connected to ") + target);
    QCOMPARE(receiver->stats().connections, std::uint32_t{1});

    const std::vector<Bytes> packets = makeRuns(11, 3000);
    for (std::size_t first = 0; first < packets.size(); first += 200) {
        const auto spans = spansOf(packets, first, 200);
        QCOMPARE(server->send(spans), spans.size());
        QVERIFY2(pumpUntil(*receiver, sink, [&] { return sink.frames.size() >= first + spans.size(); }, 10s),
                 qPrintable(describe(*receiver)));
    }
    QCOMPARE(sink.frames.size(), packets.size());
    QCOMPARE(firstDifference(sink.frames, packets), qsizetype{-1});
    QCOMPARE(sink.sinceBatchEnd, std::size_t{0});
    QCOMPARE(receiver->stats().bytes, totalBytes(packets));

    // Half a packet, then the server goes away: the partial packet is counted, not delivered.
    const Bytes torn = makePacket(11, 99'999, 2000);
    QVERIFY(server->sendRaw(PacketSpan(torn).first(1000)));
    server.reset();
    QVERIFY2(pumpUntil(*receiver, sink, [&] { return receiver->stats().disconnects == 1; }, 10s),
             qPrintable(describe(*receiver)));
    ReceiverStats s = receiver->stats();
    QCOMPARE(s.truncatedPackets, std::uint64_t{1});
    QCOMPARE(s.packets, std::uint64_t{packets.size()});
    QCOMPARE(s.connections, std::uint32_t{0});
    QCOMPARE(s.framingErrors, std::uint64_t{0});
    const QString lost = QString::fromStdString(receiver->state());
    QVERIFY2(lost.startsWith(QStringLiteral("error: connection closed by peer (retry in ")) || lost.startsWith(QStringLiteral("connecting to ")),
             qPrintable(lost));

    // The server comes back on the same port: the receiver reconnects, and a new framer starts clean.
    server = openSenderUrl(url("tcp-listen", family, port), {}, &error);
    QVERIFY2(server, qPrintable(error));
    QVERIFY2(pumpUntil(*receiver, sink, [&] { return receiver->stats().connects == 2 && server->connected(); }, 10s,
                       [&] { server->send({}); }),
             qPrintable(describe(*receiver)));
    std::vector<Bytes> more;
    for (std::uint32_t i = 0; i < 100; ++i)
        more.push_back(makePacket(12, i, 100 + i));
    QCOMPARE(server->send(spansOf(more)), more.size());
    QVERIFY2(pumpUntil(*receiver, sink, [&] { return sink.frames.size() >= packets.size() + more.size(); }, 10s),
             qPrintable(describe(*receiver)));
    QCOMPARE(std::vector<Bytes>(sink.frames.begin() + static_cast<std::ptrdiff_t>(packets.size()), sink.frames.end()), more);
    s = receiver->stats();
    QCOMPARE(s.connects, std::uint64_t{2});
    QCOMPARE(s.disconnects, std::uint64_t{1});
    QCOMPARE(s.truncatedPackets, std::uint64_t{1});
    QCOMPARE(s.framingErrors, std::uint64_t{0});
    QCOMPARE(s.packets, std::uint64_t{packets.size() + more.size()});
}

void TestIoReceiver::tcpTransportHeaderAndGarbage()
{
    // Roles reversed: the sender listens, the receiver connects to it.
    QString error;
    auto server = openSenderUrl("tcp-listen://127.0.0.1:0", {}, &error);
    QVERIFY2(server, qPrintable(error));
    ReceiverOptions options;
    options.transportHeaderBytes = kTransportHeader.size();
    auto receiver = openReceiverUrl(url("tcp", AF_INET, server->localPort()), options, &error);
    QVERIFY2(receiver, qPrintable(error));
    // The receiver on its own thread, its state read from this one while it connects.
    CollectingSink sink;
    ReceiverThread thread(*receiver, sink);
    const QString connected = QStringLiteral("connected to 127.0.0.1:%1").arg(server->localPort());
    QVERIFY2(waitUntil(
                 [&] {
                     server->send({});
                     return server->connected() && QString::fromStdString(receiver->state()) == connected;
                 },
                 10s),
             qPrintable(describe(*receiver)));
    QCOMPARE(receiver->stats().connects, std::uint64_t{1});

    std::vector<Bytes> before;
    std::vector<Bytes> after;
    for (std::uint32_t i = 0; i < 300; ++i)
        (i < 150 ? before : after).push_back(withTransportHeader(makePacket(21, i, 16 + (i * 53) % 3000)));
    const Bytes garbage(37, 0xFF); // version bits 7: never a packet start
    QCOMPARE(server->send(spansOf(before)), before.size());
    QVERIFY(server->sendRaw(garbage));
    QCOMPARE(server->send(spansOf(after)), after.size());

    std::vector<Bytes> expected = before;
    expected.insert(expected.end(), after.begin(), after.end());
    QVERIFY2(waitUntil([&] { return receiver->stats().packets >= expected.size(); }, 10s), qPrintable(describe(*receiver)));
    thread.stop();
    QCOMPARE(sink.frames.size(), expected.size());
    QCOMPARE(firstDifference(sink.frames, expected), qsizetype{-1});
    const ReceiverStats s = receiver->stats();
    QCOMPARE(s.framingErrors, std::uint64_t{1});
    QCOMPARE(s.resyncs, std::uint64_t{1});
    QCOMPARE(s.skippedBytes, std::uint64_t{garbage.size()});
    QCOMPARE(s.truncatedPackets, std::uint64_t{0});
    QCOMPARE(s.packets, std::uint64_t{expected.size()});
    QCOMPARE(s.bytes, totalBytes(expected)); // frames include the transport header
}

void TestIoReceiver::tcpListenTwoSendersAtOnce()
{
    QString error;
    auto receiver = openReceiverUrl("tcp-listen://127.0.0.1:0", {}, &error);
    QVERIFY2(receiver, qPrintable(error));
    const std::uint16_t port = receiver->localPort();
    QVERIFY(port != 0);
    QCOMPARE(QString::fromStdString(receiver->state()), QStringLiteral("listening on 127.0.0.1:%1 (0 senders)").arg(port));

    // The receiver runs on its own thread while this one sends and reads its stats and state.
    CollectingSink sink;
    ReceiverThread thread(*receiver, sink);
    auto a = openSenderUrl(url("tcp", AF_INET, port), {}, &error);
    QVERIFY2(a, qPrintable(error));
    auto b = openSenderUrl(url("tcp", AF_INET, port), {}, &error);
    QVERIFY2(b, qPrintable(error));
    QVERIFY2(waitUntil([&] { return a->send({}), b->send({}), a->connected() && b->connected() && receiver->stats().connects == 2; }, 10s),
             qPrintable(describe(*receiver)));
    QVERIFY(waitUntil([&] { return receiver->stats().connections == 2; }, 5s));
    QCOMPARE(QString::fromStdString(receiver->state()), QStringLiteral("listening on 127.0.0.1:%1 (2 senders)").arg(port));

    // Interleaved chunks from both, each stream with its own APID.
    const std::vector<Bytes> fromA = makeRuns(100, 4000);
    const std::vector<Bytes> fromB = makeRuns(200, 3000);
    std::size_t nextA = 0;
    std::size_t nextB = 0;
    while (nextA < fromA.size() || nextB < fromB.size()) {
        const auto spansA = spansOf(fromA, nextA, 97);
        QCOMPARE(a->send(spansA), spansA.size());
        nextA += spansA.size();
        const auto spansB = spansOf(fromB, nextB, 61);
        QCOMPARE(b->send(spansB), spansB.size());
        nextB += spansB.size();
    }
    const std::uint64_t total = fromA.size() + fromB.size();
    QVERIFY2(waitUntil([&] { return receiver->stats().packets == total; }, 20s), qPrintable(describe(*receiver)));

    // One sender leaves.
    a.reset();
    QVERIFY2(waitUntil([&] { return receiver->stats().disconnects == 1 && receiver->stats().connections == 1; }, 10s),
             qPrintable(describe(*receiver)));
    QCOMPARE(QString::fromStdString(receiver->state()), QStringLiteral("listening on 127.0.0.1:%1 (1 sender)").arg(port));
    thread.stop();

    // Each stream complete and in order (the two streams interleave arbitrarily).
    std::vector<Bytes> gotA;
    std::vector<Bytes> gotB;
    for (Bytes& frame : sink.frames) {
        const std::uint16_t apid = ccsds::readPrimaryHeader(frame.data()).apid;
        QVERIFY(apid == 100 || apid == 200);
        (apid == 100 ? gotA : gotB).push_back(std::move(frame));
    }
    QCOMPARE(gotA.size(), fromA.size());
    QCOMPARE(gotB.size(), fromB.size());
    QCOMPARE(firstDifference(gotA, fromA), qsizetype{-1});
    QCOMPARE(firstDifference(gotB, fromB), qsizetype{-1});
    const ReceiverStats s = receiver->stats();
    QCOMPARE(s.packets, total);
    QCOMPARE(s.bytes, totalBytes(fromA) + totalBytes(fromB));
    QCOMPARE(s.connects, std::uint64_t{2});
    QCOMPARE(s.framingErrors, std::uint64_t{0});
    QCOMPARE(s.truncatedPackets, std::uint64_t{0});
    QCOMPARE(s.errors, std::uint64_t{0});
}

void TestIoReceiver::pollWaitsAtMostItsTimeout()
{
    // Nothing arrives: each kind of receiver waits its timeout (not less) and returns empty-handed; how
    // much later than the timeout depends on the machine's load, so that is printed, not asserted.
    const std::uint16_t nobody = unusedPort(AF_INET, SOCK_STREAM);
    const std::vector<std::string> urls{"udp://127.0.0.1:0", "tcp-listen://127.0.0.1:0",
                                        "tcp://127.0.0.1:" + std::to_string(nobody)};
    for (const std::string& text : urls) {
        QString error;
        auto receiver = openReceiverUrl(text, {}, &error);
        QVERIFY2(receiver, qPrintable(error));
        CountingSink sink;
        for (int i = 0; i < 3; ++i) {
            const auto start = Clock::now();
            QCOMPARE(receiver->poll(150ms, sink), std::size_t{0});
            const auto elapsed = Clock::now() - start;
            const QString took = QStringLiteral("%1: poll(150 ms) took %2 ms")
                                     .arg(QString::fromStdString(text))
                                     .arg(std::chrono::duration_cast<std::chrono::milliseconds>(elapsed).count());
            QVERIFY2(elapsed >= 140ms, qPrintable(took));
            qInfo("%s", qPrintable(took));
        }
        QCOMPARE(receiver->poll(0ms, sink), std::size_t{0});
    }
}

void TestIoReceiver::steadyStatePollsAllocateNothing()
{
    // UDP.
    QString error;
    auto udp = openReceiverUrl("udp://127.0.0.1:0", {}, &error);
    QVERIFY2(udp, qPrintable(error));
    auto udpSender = openSenderUrl(url("udp", AF_INET, udp->localPort()), {}, &error);
    QVERIFY2(udpSender, qPrintable(error));
    const std::vector<Bytes> packets = makeRuns(1, 2000);
    QCOMPARE(udpSender->send(spansOf(packets)), packets.size());
    CountingSink sink;
    long before = test::threadAllocations();
    QVERIFY(pumpUntil(*udp, sink, [&] { return sink.frames == packets.size(); }, 10s));
    QCOMPARE(test::threadAllocations() - before, 0L);
    QCOMPARE(sink.bytes, totalBytes(packets));

    // TCP, connected.
    auto server = openSenderUrl("tcp-listen://127.0.0.1:0", {}, &error);
    QVERIFY2(server, qPrintable(error));
    auto tcp = openReceiverUrl(url("tcp", AF_INET, server->localPort()), {}, &error);
    QVERIFY2(tcp, qPrintable(error));
    CountingSink tcpSink;
    QVERIFY(pumpUntil(*tcp, tcpSink, [&] { return server->connected() && tcp->stats().connects == 1; }, 10s,
                      [&] { server->send({}); }));
    QCOMPARE(server->send(spansOf(packets)), packets.size());
    before = test::threadAllocations();
    QVERIFY(pumpUntil(*tcp, tcpSink, [&] { return tcpSink.frames == packets.size(); }, 10s));
    QCOMPARE(test::threadAllocations() - before, 0L);
    QCOMPARE(tcpSink.bytes, totalBytes(packets));
}

void TestIoReceiver::openErrors()
{
    QString error;
    // A UDP port already bound.
    auto first = openReceiverUrl("udp://127.0.0.1:0", {}, &error);
    QVERIFY2(first, qPrintable(error));
    const std::string busyUdp = "udp://127.0.0.1:" + std::to_string(first->localPort());
    QVERIFY(!openReceiverUrl(busyUdp, {}, &error));
    QVERIFY2(error.startsWith(QString::fromStdString(busyUdp) + QStringLiteral(": cannot bind")), qPrintable(error));
    QVERIFY2(error.contains(QStringLiteral("Address already in use")), qPrintable(error));

    // A TCP port already listened on.
    auto listening = openReceiverUrl("tcp-listen://127.0.0.1:0", {}, &error);
    QVERIFY2(listening, qPrintable(error));
    const std::string busyTcp = "tcp-listen://127.0.0.1:" + std::to_string(listening->localPort());
    QVERIFY(!openReceiverUrl(busyTcp, {}, &error));
    QVERIFY2(error.startsWith(QString::fromStdString(busyTcp) + QStringLiteral(": cannot bind")), qPrintable(error));
    QVERIFY2(error.contains(QStringLiteral("Address already in use")), qPrintable(error));

    // Recordings are not received.
    QVERIFY(!openReceiverUrl("file:///tmp/pass.tlm", {}, &error));
    QCOMPARE(error, QStringLiteral("file:///tmp/pass.tlm: file:// sources are played back by core/record"));

    // iface only with a group.
    Endpoint unicastWithIface = parseEndpoint("udp://127.0.0.1:0").value();
    unicastWithIface.iface = "127.0.0.1";
    auto refused = openReceiver(unicastWithIface);
    QVERIFY(!refused);
    QVERIFY2(refused.error().message.find("iface is only valid for a multicast group") != std::string::npos,
             refused.error().message.c_str());

    // Joining on an interface address no interface has.
    QVERIFY(!openReceiverUrl("udp://239.255.77.3:0?iface=203.0.113.254", {}, &error));
    QVERIFY2(error.startsWith(QStringLiteral("udp://239.255.77.3:0?iface=203.0.113.254: cannot join the multicast group "
                                             "239.255.77.3 on 203.0.113.254: ")),
             qPrintable(error));
    QVERIFY(!openReceiverUrl("udp://[ff15::7e:3]:0?iface=2001:db8::77", {}, &error));
    QVERIFY2(error.contains(QStringLiteral("no local interface has the address 2001:db8::77")), qPrintable(error));
}

QTEST_GUILESS_MAIN(TestIoReceiver)
#include "tst_io_receiver.moc"
