// StreamFramer: packets cut out of a byte stream under every split of the input, resynchronisation
// after garbage, truncation and wrong length fields, limits, idle packets, bounded memory and no
// allocation per packet.
#include "core/ccsds/space_packet.hpp"
#include "core/ccsds/stream_framer.hpp"
#include "tests/support/allocation_counter.hpp"

#include <QtTest>

#include <algorithm>
#include <cstdint>
#include <random>
#include <span>
#include <vector>

using namespace telestation::ccsds;

namespace {

using Bytes = std::vector<std::uint8_t>;

// A byte whose version bits (the top three) are not 0: it can never start a plausible header.
std::uint8_t implausibleByte(std::mt19937& rng)
{
    return static_cast<std::uint8_t>(0x20 + rng() % 0xE0);
}

std::uint8_t randomByte(std::mt19937& rng)
{
    return static_cast<std::uint8_t>(rng());
}

struct FrameRef {
    std::size_t offset = 0; // in the stream
    std::size_t length = 0; // transport header + packet
    bool idle = false;
};

struct Stream {
    Bytes bytes;
    std::vector<FrameRef> frames; // every frame written, in order (garbage is not a frame)
    std::size_t garbageBytes = 0;
    std::size_t garbageRuns = 0;

    [[nodiscard]] Bytes frame(std::size_t i) const
    {
        const auto begin = bytes.begin() + static_cast<std::ptrdiff_t>(frames[i].offset);
        return Bytes(begin, begin + static_cast<std::ptrdiff_t>(frames[i].length));
    }
    // The frames a correct framer delivers: all but the idle ones.
    [[nodiscard]] std::vector<Bytes> expected() const
    {
        std::vector<Bytes> out;
        for (std::size_t i = 0; i < frames.size(); ++i)
            if (!frames[i].idle)
                out.push_back(frame(i));
        return out;
    }
};

struct PacketSpec {
    std::size_t length = 7; // whole packet
    std::uint16_t apid = 1;
    PacketType type = PacketType::Telemetry;
    std::size_t declaredLength = 0; // the length field claims this (0: the true length)
};

struct StreamSpec {
    std::size_t transportHeaderBytes = 0;
    bool implausibleTransport = false; // transport header bytes can never start a plausible header
    bool implausibleData = false;      // nor can data bytes
};

void appendPacket(Stream& s, const StreamSpec& spec, const PacketSpec& p, std::mt19937& rng)
{
    const std::size_t start = s.bytes.size();
    for (std::size_t i = 0; i < spec.transportHeaderBytes; ++i)
        s.bytes.push_back(spec.implausibleTransport ? implausibleByte(rng) : randomByte(rng));
    PrimaryHeader h;
    h.type = p.type;
    h.secondaryHeader = (rng() & 1) != 0;
    h.apid = p.apid;
    h.sequenceFlags = SequenceFlags::Unsegmented;
    h.sequenceCount = static_cast<std::uint16_t>(rng() % kSequenceCountModulo);
    h.dataLength = static_cast<std::uint16_t>((p.declaredLength != 0 ? p.declaredLength : p.length) - 7);
    const std::size_t at = s.bytes.size();
    s.bytes.resize(at + kPrimaryHeaderSize);
    writePrimaryHeader(h, s.bytes.data() + at);
    for (std::size_t i = kPrimaryHeaderSize; i < p.length; ++i)
        s.bytes.push_back(spec.implausibleData ? implausibleByte(rng) : randomByte(rng));
    s.frames.push_back({start, s.bytes.size() - start, p.apid == kIdleApid});
}

void appendGarbage(Stream& s, std::size_t count, std::mt19937& rng)
{
    for (std::size_t i = 0; i < count; ++i)
        s.bytes.push_back(implausibleByte(rng));
    s.garbageBytes += count;
    ++s.garbageRuns;
}

PacketSpec randomPacket(std::mt19937& rng, std::size_t minLength = 7, std::size_t maxLength = 2000)
{
    PacketSpec p;
    p.length = minLength + rng() % (maxLength - minLength + 1);
    p.apid = static_cast<std::uint16_t>(rng() % kIdleApid); // 0..2046
    return p;
}

Stream randomStream(const StreamSpec& spec, std::size_t packets, std::uint32_t seed)
{
    std::mt19937 rng(seed);
    Stream s;
    for (std::size_t i = 0; i < packets; ++i)
        appendPacket(s, spec, randomPacket(rng), rng);
    return s;
}

class CollectingSink final : public StreamFramer::Sink {
public:
    void onPacket(std::span<const std::uint8_t> frame) override
    {
        frames.emplace_back(frame.begin(), frame.end());
        if (frame.data() >= inputBegin && frame.data() + frame.size() <= inputEnd)
            ++inPlace;
    }
    std::vector<Bytes> frames;
    // The span last pushed, to see which frames were delivered without a copy.
    const std::uint8_t* inputBegin = nullptr;
    const std::uint8_t* inputEnd = nullptr;
    std::size_t inPlace = 0;
};

enum class Split { Whole, ByteByByte, Random1To16, Random1To3000, Random1To100000, Fixed64KiB };

const char* splitName(Split s)
{
    switch (s) {
    case Split::Whole: return "whole";
    case Split::ByteByByte: return "byte-by-byte";
    case Split::Random1To16: return "random 1..16";
    case Split::Random1To3000: return "random 1..3000";
    case Split::Random1To100000: return "random 1..100000";
    case Split::Fixed64KiB: return "64 KiB";
    }
    return "?";
}

constexpr Split kAllSplits[] = {Split::Whole,         Split::ByteByByte,      Split::Random1To16,
                                Split::Random1To3000, Split::Random1To100000, Split::Fixed64KiB};

std::vector<std::size_t> chunkSizes(std::size_t total, Split split, std::uint32_t seed)
{
    std::mt19937 rng(seed);
    std::vector<std::size_t> sizes;
    std::size_t done = 0;
    while (done < total) {
        std::size_t n = total - done;
        switch (split) {
        case Split::Whole: break;
        case Split::ByteByByte: n = 1; break;
        case Split::Random1To16: n = 1 + rng() % 16; break;
        case Split::Random1To3000: n = 1 + rng() % 3000; break;
        case Split::Random1To100000: n = 1 + rng() % 100000; break;
        case Split::Fixed64KiB: n = 65536; break;
        }
        n = std::min(n, total - done);
        sizes.push_back(n);
        done += n;
    }
    return sizes;
}

void feed(StreamFramer& framer, std::span<const std::uint8_t> bytes, Split split, CollectingSink& sink,
          std::uint32_t seed = 7)
{
    std::size_t at = 0;
    for (const std::size_t n : chunkSizes(bytes.size(), split, seed)) {
        const auto chunk = bytes.subspan(at, n);
        sink.inputBegin = chunk.data();
        sink.inputEnd = chunk.data() + chunk.size();
        framer.push(chunk, sink);
        at += n;
    }
}

// After a fault at `faultOffset` in `bytes` (frames before it are intact), checks that the framer
// delivered every frame before the fault, at most `maxBogus` frames that are not in the stream, and
// then every frame from some index on — which starts at most `bound` bytes after the fault.
// Returns the number of frames lost.
std::size_t checkRecovery(const Stream& s, const std::vector<Bytes>& delivered, std::size_t faultFrame,
                          std::size_t bound, std::size_t maxBogus, bool& ok, QString& why)
{
    ok = false;
    const std::vector<Bytes> originals = s.expected();
    if (delivered.size() < faultFrame) {
        why = QStringLiteral("fewer frames than those before the fault");
        return 0;
    }
    for (std::size_t i = 0; i < faultFrame; ++i)
        if (delivered[i] != originals[i]) {
            why = QStringLiteral("frame %1 before the fault differs").arg(i);
            return 0;
        }
    // The longest tail of `delivered` equal to a tail of `originals`.
    std::size_t tail = 0;
    while (tail < delivered.size() - faultFrame && tail < originals.size() - faultFrame
           && delivered[delivered.size() - 1 - tail] == originals[originals.size() - 1 - tail])
        ++tail;
    const std::size_t firstRecovered = originals.size() - tail;
    const std::size_t bogus = delivered.size() - faultFrame - tail;
    if (bogus > maxBogus) {
        why = QStringLiteral("%1 frames not in the stream").arg(bogus);
        return 0;
    }
    if (firstRecovered < originals.size() && s.frames[firstRecovered].offset > s.frames[faultFrame].offset + bound) {
        why = QStringLiteral("recovered only at frame %1, %2 bytes after the fault")
                  .arg(firstRecovered)
                  .arg(s.frames[firstRecovered].offset - s.frames[faultFrame].offset);
        return 0;
    }
    ok = true;
    return firstRecovered - faultFrame;
}

} // namespace

class TestStreamFramer : public QObject {
    Q_OBJECT

private slots:
    void everySplitDeliversEveryPacket_data();
    void everySplitDeliversEveryPacket();
    void garbageBetweenPackets_data();
    void garbageBetweenPackets();
    void truncatedPacketThenReset();
    void resetWhileHuntingOrEmpty();
    void truncatedPacketWithoutReset();
    void truncatedPacketWithoutResetRandom();
    void corruptLengthField();
    void corruptLengthFieldRandom();
    void maxPacketSize();
    void maxPacketSizeClamped();
    void idlePackets();
    void wrongPacketType();
    void boundedMemoryOnGarbage();
    void boundedMemoryOnRandomBytes();
    void noAllocationPerPacket();
    void resyncOnlyOnKnownApids();
};

void TestStreamFramer::everySplitDeliversEveryPacket_data()
{
    QTest::addColumn<int>("transport");
    QTest::addColumn<int>("split");
    for (const int transport : {0, 4, 10})
        for (const Split split : kAllSplits)
            QTest::addRow("transport %d, %s", transport, splitName(split)) << transport << int(split);
}

void TestStreamFramer::everySplitDeliversEveryPacket()
{
    QFETCH(int, transport);
    QFETCH(int, split);
    StreamSpec spec;
    spec.transportHeaderBytes = std::size_t(transport);
    const Stream s = randomStream(spec, 1500, 1000u + std::uint32_t(transport));
    FramerOptions options;
    options.transportHeaderBytes = spec.transportHeaderBytes;
    StreamFramer framer(options);
    CollectingSink sink;
    feed(framer, s.bytes, Split(split), sink);

    QCOMPARE(sink.frames.size(), s.frames.size());
    QVERIFY(sink.frames == s.expected());
    FramerStats expected;
    expected.packets = s.frames.size();
    QCOMPARE(framer.stats(), expected);
    QCOMPARE(framer.buffered(), std::size_t{0});
    QCOMPARE(framer.truncated(), std::uint64_t{0});
    // Zero copy: pushed whole, every frame comes straight from the input; byte by byte, none can.
    if (Split(split) == Split::Whole)
        QCOMPARE(sink.inPlace, s.frames.size());
    if (Split(split) == Split::ByteByByte)
        QCOMPARE(sink.inPlace, std::size_t{0});
}

void TestStreamFramer::garbageBetweenPackets_data()
{
    QTest::addColumn<int>("transport");
    for (const int transport : {0, 3, 8})
        QTest::addRow("transport %d", transport) << transport;
}

void TestStreamFramer::garbageBetweenPackets()
{
    QFETCH(int, transport);
    StreamSpec spec;
    spec.transportHeaderBytes = std::size_t(transport);
    // Transport header bytes are candidates while hunting (the packet header would be N bytes on), so
    // they must not look like a header either for the counts to be exact.
    spec.implausibleTransport = true;
    std::mt19937 rng(77u + std::uint32_t(transport));
    Stream s;
    appendGarbage(s, 1 + rng() % 64, rng); // garbage before the first packet too
    for (int i = 0; i < 800; ++i) {
        if (rng() % 4 == 0)
            appendGarbage(s, 1 + rng() % 64, rng);
        appendPacket(s, spec, randomPacket(rng), rng);
    }
    QVERIFY(s.garbageRuns > 100);

    FramerOptions options;
    options.transportHeaderBytes = spec.transportHeaderBytes;
    FramerStats first;
    for (const Split split : kAllSplits) {
        StreamFramer framer(options);
        CollectingSink sink;
        feed(framer, s.bytes, split, sink);
        QVERIFY2(sink.frames == s.expected(), splitName(split));
        QCOMPARE(framer.stats().packets, std::uint64_t(s.frames.size()));
        QCOMPARE(framer.stats().skippedBytes, std::uint64_t(s.garbageBytes));
        QCOMPARE(framer.stats().framingErrors, std::uint64_t(s.garbageRuns));
        QCOMPARE(framer.stats().resyncs, std::uint64_t(s.garbageRuns));
        QCOMPARE(framer.buffered(), std::size_t{0});
        if (split == Split::Whole)
            first = framer.stats();
        QCOMPARE(framer.stats(), first);
    }
}

void TestStreamFramer::truncatedPacketThenReset()
{
    for (const std::size_t transport : {std::size_t{0}, std::size_t{4}}) {
        StreamSpec spec;
        spec.transportHeaderBytes = transport;
        const Stream s = randomStream(spec, 60, 500u + std::uint32_t(transport));
        std::mt19937 rng(5);
        for (int trial = 0; trial < 40; ++trial) {
            const std::size_t k = 1 + rng() % (s.frames.size() - 2);
            const FrameRef cut = s.frames[k];
            // Cut anywhere: inside the transport header, the primary header or the data.
            const std::size_t kept = 1 + rng() % (cut.length - 1);
            const std::span<const std::uint8_t> all(s.bytes);
            const auto before = all.first(cut.offset + kept);
            const auto after = all.subspan(s.frames[k + 1].offset);
            const Split split = kAllSplits[std::size_t(trial) % std::size(kAllSplits)];

            FramerOptions options;
            options.transportHeaderBytes = transport;
            StreamFramer framer(options);
            CollectingSink sink;
            feed(framer, before, split, sink, std::uint32_t(trial));
            QCOMPARE(framer.buffered(), kept);
            framer.reset();
            QCOMPARE(framer.buffered(), std::size_t{0});
            QCOMPARE(framer.truncated(), std::uint64_t{1});
            feed(framer, after, split, sink, std::uint32_t(trial) + 1);

            std::vector<Bytes> expected = s.expected();
            expected.erase(expected.begin() + static_cast<std::ptrdiff_t>(k));
            QVERIFY(sink.frames == expected);
            FramerStats stats;
            stats.packets = expected.size();
            QCOMPARE(framer.stats(), stats);
            QCOMPARE(framer.truncated(), std::uint64_t{1});
        }
    }
}

void TestStreamFramer::resetWhileHuntingOrEmpty()
{
    std::mt19937 rng(9);
    StreamFramer framer;
    CollectingSink sink;
    framer.reset(); // nothing buffered: nothing truncated
    QCOMPARE(framer.truncated(), std::uint64_t{0});

    // Fewer than 6 bytes: not judged yet, so they are the start of a packet that was cut.
    Bytes three{implausibleByte(rng), implausibleByte(rng), implausibleByte(rng)};
    framer.push(three, sink);
    QCOMPARE(framer.buffered(), std::size_t{3});
    framer.reset();
    QCOMPARE(framer.truncated(), std::uint64_t{1});
    QCOMPARE(framer.stats().framingErrors, std::uint64_t{0});

    // Ten garbage bytes: five judged and skipped, five buffered while hunting; reset drops those as
    // skipped garbage, not as a truncated packet, and ends the hunt.
    Bytes ten;
    for (int i = 0; i < 10; ++i)
        ten.push_back(implausibleByte(rng));
    framer.push(ten, sink);
    QVERIFY(framer.hunting());
    QCOMPARE(framer.buffered(), std::size_t{5});
    framer.reset();
    QVERIFY(!framer.hunting());
    QCOMPARE(framer.truncated(), std::uint64_t{1});
    QCOMPARE(framer.stats().skippedBytes, std::uint64_t{10});
    QCOMPARE(framer.stats().framingErrors, std::uint64_t{1});

    // A good packet after the reset is not a resync: the hunt ended with the connection.
    Stream s;
    appendPacket(s, {}, randomPacket(rng), rng);
    framer.push(s.bytes, sink);
    QCOMPARE(sink.frames.size(), std::size_t{1});
    QCOMPARE(framer.stats().resyncs, std::uint64_t{0});
}

void TestStreamFramer::truncatedPacketWithoutReset()
{
    // Packets of 100 bytes whose data never looks like a header; packet 5 is cut after 50 bytes and
    // packet 6 follows at once. The framer trusts packet 5's length: it delivers 50 bytes of 5 and 50
    // of 6 as one packet, lands in the middle of 6, hunts 50 bytes and finds 7.
    for (const Split split : kAllSplits) {
        StreamSpec spec;
        spec.implausibleData = true;
        std::mt19937 rng(11);
        Stream whole;
        for (int i = 0; i < 20; ++i)
            appendPacket(whole, spec, PacketSpec{100, std::uint16_t(i), PacketType::Telemetry, 0}, rng);
        Bytes cut(whole.bytes.begin(), whole.bytes.begin() + 5 * 100 + 50);
        cut.insert(cut.end(), whole.bytes.begin() + 6 * 100, whole.bytes.end());

        StreamFramer framer;
        CollectingSink sink;
        feed(framer, cut, split, sink);

        std::vector<Bytes> expected;
        for (std::size_t i = 0; i < 5; ++i)
            expected.push_back(whole.frame(i));
        expected.emplace_back(cut.begin() + 500, cut.begin() + 600); // the packet that swallowed 6's start
        for (std::size_t i = 7; i < 20; ++i)
            expected.push_back(whole.frame(i));
        QVERIFY2(sink.frames == expected, splitName(split));
        QCOMPARE(framer.stats().packets, std::uint64_t(expected.size()));
        QCOMPARE(framer.stats().framingErrors, std::uint64_t{1});
        QCOMPARE(framer.stats().resyncs, std::uint64_t{1});
        QCOMPARE(framer.stats().skippedBytes, std::uint64_t{50});
        QCOMPARE(framer.truncated(), std::uint64_t{0});
    }
}

void TestStreamFramer::truncatedPacketWithoutResetRandom()
{
    // Random lengths and cuts, data that never looks like a header, maxPacketSize 2000: the framer loses
    // the cut packet and those it swallows, then recovers. The wrong frame it follows is at most one
    // packet long; landing inside a later header it may follow one more false length (at most 2000 + N).
    std::size_t faultsWithErrors = 0;
    std::size_t trials = 0;
    for (const std::size_t transport : {std::size_t{0}, std::size_t{5}}) {
        StreamSpec spec;
        spec.transportHeaderBytes = transport;
        spec.implausibleTransport = true;
        spec.implausibleData = true;
        for (std::uint32_t seed = 1; seed <= 100; ++seed) {
            std::mt19937 rng(seed);
            Stream whole;
            for (int i = 0; i < 40; ++i)
                appendPacket(whole, spec, randomPacket(rng), rng);
            const std::size_t k = 1 + rng() % 30;
            const FrameRef cutFrame = whole.frames[k];
            const std::size_t kept = 1 + rng() % (cutFrame.length - 1);
            // The stream as sent: frames before k, the first `kept` bytes of k, frames after k.
            Stream sent;
            sent.bytes.assign(whole.bytes.begin(), whole.bytes.begin() + std::ptrdiff_t(cutFrame.offset + kept));
            sent.frames.assign(whole.frames.begin(), whole.frames.begin() + std::ptrdiff_t(k));
            sent.frames.push_back({cutFrame.offset, kept, false}); // not deliverable as such
            for (std::size_t i = k + 1; i < whole.frames.size(); ++i) {
                sent.frames.push_back({sent.bytes.size(), whole.frames[i].length, false});
                sent.bytes.insert(sent.bytes.end(), whole.bytes.begin() + std::ptrdiff_t(whole.frames[i].offset),
                                  whole.bytes.begin() + std::ptrdiff_t(whole.frames[i].offset + whole.frames[i].length));
            }

            FramerOptions options;
            options.transportHeaderBytes = transport;
            options.maxPacketSize = 2000;
            StreamFramer framer(options);
            CollectingSink sink;
            feed(framer, sent.bytes, kAllSplits[seed % std::size(kAllSplits)], sink, seed);

            // Where the framer lands after following k's length: is it a frame start?
            const std::size_t landing = cutFrame.offset + cutFrame.length;
            bool aligned = landing >= sent.bytes.size();
            for (const auto& f : sent.frames)
                aligned = aligned || f.offset == landing;
            if (kept < transport + kPrimaryHeaderSize) {
                // Not even k's header arrived: the next packet's bytes complete a header that may be
                // anything, so only recovery is checked below.
                aligned = true;
            }

            bool ok = false;
            QString why;
            const std::size_t lost = checkRecovery(sent, sink.frames, k, 3 * (transport + 2000), 3, ok, why);
            QVERIFY2(ok, qPrintable(QStringLiteral("seed %1: %2").arg(seed).arg(why)));
            QVERIFY(lost >= 1); // the cut packet itself
            QCOMPARE(framer.stats().packets, std::uint64_t(sink.frames.size()));
            QCOMPARE(framer.stats().resyncs, framer.stats().framingErrors); // recovered by the end
            QVERIFY(framer.stats().framingErrors <= 3);
            if (!aligned) {
                QVERIFY2(framer.stats().framingErrors >= 1, qPrintable(QStringLiteral("seed %1").arg(seed)));
                ++faultsWithErrors;
            }
            ++trials;
        }
    }
    QVERIFY(faultsWithErrors > trials / 2); // the check above ran in most trials
}

void TestStreamFramer::corruptLengthField()
{
    // Packets of 200 bytes with data that never looks like a header; packet 5's length field is wrong
    // but plausible. The framer follows it and resynchronises at the next packet start it meets.
    struct Case {
        std::size_t declared;
        std::size_t resumeAt; // first intact packet delivered again
        std::size_t skipped;
    };
    // Shorter: 120 bytes delivered, 80 skipped, 6 is fine. Longer (450): 5, 6 and 50 bytes of 7 taken,
    // 150 skipped, 8 is fine.
    for (const Case c : {Case{120, 6, 80}, Case{450, 8, 150}}) {
        StreamSpec spec;
        spec.implausibleData = true;
        std::mt19937 rng(13);
        Stream s;
        for (int i = 0; i < 20; ++i)
            appendPacket(s, spec, PacketSpec{200, std::uint16_t(100 + i), PacketType::Telemetry, i == 5 ? c.declared : 0},
                         rng);
        StreamFramer framer;
        CollectingSink sink;
        feed(framer, s.bytes, Split::Random1To16, sink);

        std::vector<Bytes> expected;
        for (std::size_t i = 0; i < 5; ++i)
            expected.push_back(s.frame(i));
        expected.emplace_back(s.bytes.begin() + 1000, s.bytes.begin() + 1000 + std::ptrdiff_t(c.declared));
        for (std::size_t i = c.resumeAt; i < 20; ++i)
            expected.push_back(s.frame(i));
        QVERIFY(sink.frames == expected);
        QCOMPARE(framer.stats().framingErrors, std::uint64_t{1});
        QCOMPARE(framer.stats().resyncs, std::uint64_t{1});
        QCOMPARE(framer.stats().skippedBytes, std::uint64_t(c.skipped));
    }
}

void TestStreamFramer::corruptLengthFieldRandom()
{
    // Any plausible wrong length: the framer recovers within a bounded stretch (the wrong length, plus
    // at most one more false length from landing inside a header).
    for (std::uint32_t seed = 1; seed <= 150; ++seed) {
        StreamSpec spec;
        spec.transportHeaderBytes = seed % 2 == 0 ? 0 : 6;
        spec.implausibleTransport = true;
        spec.implausibleData = true;
        std::mt19937 rng(seed);
        Stream s;
        const std::size_t k = 1 + rng() % 30;
        for (std::size_t i = 0; i < 40; ++i) {
            PacketSpec p = randomPacket(rng);
            if (i == k)
                do
                    p.declaredLength = 7 + rng() % (2000 - 7 + 1);
                while (p.declaredLength == p.length);
            appendPacket(s, spec, p, rng);
        }
        FramerOptions options;
        options.transportHeaderBytes = spec.transportHeaderBytes;
        options.maxPacketSize = 2000;
        StreamFramer framer(options);
        CollectingSink sink;
        feed(framer, s.bytes, kAllSplits[seed % std::size(kAllSplits)], sink, seed);
        bool ok = false;
        QString why;
        const std::size_t lost = checkRecovery(s, sink.frames, k, 3 * (spec.transportHeaderBytes + 2000), 3, ok, why);
        QVERIFY2(ok, qPrintable(QStringLiteral("seed %1: %2").arg(seed).arg(why)));
        QVERIFY(lost >= 1);
        QVERIFY(framer.stats().framingErrors >= 1 || sink.frames.size() < s.frames.size());
        QCOMPARE(framer.stats().resyncs, framer.stats().framingErrors);
    }
}

void TestStreamFramer::maxPacketSize()
{
    for (const std::size_t transport : {std::size_t{0}, std::size_t{8}}) {
        FramerOptions options;
        options.transportHeaderBytes = transport;
        options.maxPacketSize = 1000;
        StreamSpec spec;
        spec.transportHeaderBytes = transport;
        spec.implausibleTransport = true;
        spec.implausibleData = true;
        std::mt19937 rng(21);
        Stream s;
        for (int i = 0; i < 30; ++i) {
            PacketSpec p = randomPacket(rng, 7, 1000);
            if (i == 10)
                p.length = 1000; // the largest accepted
            if (i == 20)
                p.length = 1001; // one too many: a framing error, hunted through
            appendPacket(s, spec, p, rng);
        }
        StreamFramer framer(options);
        QCOMPARE(framer.capacity(), transport + 1000);
        for (const Split split : kAllSplits) {
            StreamFramer f(options);
            CollectingSink sink;
            feed(f, s.bytes, split, sink);
            std::vector<Bytes> expected = s.expected();
            expected.erase(expected.begin() + 20);
            QVERIFY2(sink.frames == expected, splitName(split));
            QCOMPARE(f.stats().framingErrors, std::uint64_t{1});
            QCOMPARE(f.stats().resyncs, std::uint64_t{1});
            QCOMPARE(f.stats().skippedBytes, std::uint64_t(s.frames[20].length));
            QVERIFY(f.buffered() <= f.capacity());
        }
    }
}

void TestStreamFramer::maxPacketSizeClamped()
{
    FramerOptions options;
    options.maxPacketSize = 1'000'000;
    StreamFramer framer(options);
    QCOMPARE(framer.options().maxPacketSize, kMaxPacketSize);
    QCOMPARE(framer.capacity(), kMaxPacketSize);
    // The largest packet CCSDS allows (length field 65535) still fits.
    std::mt19937 rng(3);
    Stream s;
    appendPacket(s, {}, PacketSpec{kMaxPacketSize, 42, PacketType::Telemetry, 0}, rng);
    appendPacket(s, {}, PacketSpec{7, 43, PacketType::Telemetry, 0}, rng);
    CollectingSink sink;
    feed(framer, s.bytes, Split::Random1To3000, sink);
    QVERIFY(sink.frames == s.expected());

    // maxPacketSize below the smallest packet: nothing is plausible, memory still bounded.
    FramerOptions tiny;
    tiny.maxPacketSize = 3;
    StreamFramer none(tiny);
    CollectingSink nothing;
    none.push(s.bytes, nothing);
    QVERIFY(nothing.frames.empty());
    QCOMPARE(none.capacity(), kPrimaryHeaderSize);
    QVERIFY(none.buffered() <= none.capacity());
}

void TestStreamFramer::idlePackets()
{
    StreamSpec spec;
    spec.implausibleData = true; // so that, without acceptIdle, the hunt crosses an idle packet whole
    std::mt19937 rng(31);
    Stream s;
    std::size_t idle = 0;
    std::size_t idleRuns = 0;
    std::size_t idleBytes = 0;
    bool previousIdle = false;
    for (int i = 0; i < 400; ++i) {
        PacketSpec p = randomPacket(rng);
        const bool isIdle = i > 0 && rng() % 5 == 0;
        if (isIdle) {
            p.apid = kIdleApid;
            ++idle;
            idleBytes += p.length;
            idleRuns += previousIdle ? 0 : 1;
        }
        previousIdle = isIdle;
        appendPacket(s, spec, p, rng);
    }
    QVERIFY(idle > 40);
    QVERIFY(idleRuns < idle); // some idle packets follow each other

    for (const Split split : kAllSplits) {
        FramerOptions options;
        // Below 8199, no 6 bytes that start inside a rejected header and end in its data look plausible
        // (the length would come from data bytes >= 0x20), so the hunt crosses the idle packet whole.
        options.maxPacketSize = 2000;
        options.acceptIdle = true;
        StreamFramer framer(options);
        CollectingSink sink;
        feed(framer, s.bytes, split, sink);
        QVERIFY2(sink.frames == s.expected(), splitName(split)); // idle ones dropped
        FramerStats stats;
        stats.packets = s.frames.size() - idle;
        stats.idlePackets = idle;
        QCOMPARE(framer.stats(), stats);

        // Without acceptIdle an idle header is a framing error; consecutive idle packets are one episode.
        options.acceptIdle = false;
        StreamFramer strict(options);
        CollectingSink strictSink;
        feed(strict, s.bytes, split, strictSink);
        QVERIFY(strictSink.frames == s.expected());
        QCOMPARE(strict.stats().packets, std::uint64_t(s.frames.size() - idle));
        QCOMPARE(strict.stats().idlePackets, std::uint64_t{0});
        QCOMPARE(strict.stats().framingErrors, std::uint64_t(idleRuns));
        QCOMPARE(strict.stats().resyncs, std::uint64_t(idleRuns));
        QCOMPARE(strict.stats().skippedBytes, std::uint64_t(idleBytes));
    }
}

void TestStreamFramer::wrongPacketType()
{
    StreamSpec spec;
    spec.implausibleData = true;
    std::mt19937 rng(41);
    Stream s;
    for (int i = 0; i < 10; ++i) {
        PacketSpec p = randomPacket(rng);
        p.type = i == 4 ? PacketType::Telemetry : PacketType::Telecommand;
        appendPacket(s, spec, p, rng);
    }
    FramerOptions options;
    options.expectedType = PacketType::Telecommand;
    options.maxPacketSize = 2000; // see idlePackets: the hunt crosses the rejected packet whole
    StreamFramer framer(options);
    CollectingSink sink;
    feed(framer, s.bytes, Split::Whole, sink);
    std::vector<Bytes> expected = s.expected();
    expected.erase(expected.begin() + 4);
    QVERIFY(sink.frames == expected);
    QCOMPARE(framer.stats().framingErrors, std::uint64_t{1});
    QCOMPARE(framer.stats().skippedBytes, std::uint64_t(s.frames[4].length));
}

void TestStreamFramer::boundedMemoryOnGarbage()
{
    // 100 MiB of bytes that never look like a header, in 64 KiB chunks: nothing is delivered, the
    // buffer never holds more than a header's worth, one framing error, every byte skipped.
    std::mt19937 rng(51);
    constexpr std::size_t kChunk = 64 * 1024;
    std::vector<Bytes> chunks(4, Bytes(kChunk));
    for (auto& c : chunks)
        for (auto& b : c)
            b = implausibleByte(rng);
    FramerOptions options;
    options.transportHeaderBytes = 4;
    StreamFramer framer(options);
    CollectingSink sink;
    std::uint64_t total = 0;
    std::size_t maxBuffered = 0;
    for (std::size_t i = 0; i < 1600; ++i) {
        framer.push(chunks[i % chunks.size()], sink);
        total += kChunk;
        maxBuffered = std::max(maxBuffered, framer.buffered());
    }
    QCOMPARE(total, std::uint64_t{100} * 1024 * 1024);
    QVERIFY(maxBuffered <= framer.capacity());
    QVERIFY(maxBuffered < options.transportHeaderBytes + kPrimaryHeaderSize);
    QVERIFY(sink.frames.empty());
    QCOMPARE(framer.stats().packets, std::uint64_t{0});
    QCOMPARE(framer.stats().framingErrors, std::uint64_t{1});
    QCOMPARE(framer.stats().skippedBytes + framer.buffered(), total);

    // A packet after it is found. Its transport header must not look like a header (it is a candidate).
    StreamSpec spec;
    spec.transportHeaderBytes = 4;
    spec.implausibleTransport = true;
    Stream s;
    appendPacket(s, spec, randomPacket(rng), rng);
    framer.push(s.bytes, sink);
    QVERIFY(sink.frames == s.expected());
    QCOMPARE(framer.stats().resyncs, std::uint64_t{1});
    QCOMPARE(framer.stats().skippedBytes, total);
}

void TestStreamFramer::boundedMemoryOnRandomBytes()
{
    // Random bytes do look like headers now and then (false locks up to 65542 bytes): still bounded.
    std::mt19937 rng(61);
    Bytes noise(8 * 1024 * 1024);
    for (auto& b : noise)
        b = randomByte(rng);
    StreamFramer framer;
    CollectingSink sink;
    std::size_t at = 0;
    for (const std::size_t n : chunkSizes(noise.size(), Split::Random1To100000, 3)) {
        framer.push(std::span<const std::uint8_t>(noise).subspan(at, n), sink);
        at += n;
        QVERIFY(framer.buffered() <= framer.capacity());
    }
    QVERIFY(framer.stats().framingErrors > 0);
    sink.frames.clear();
}

namespace {
// Does not allocate: sums what it sees so that delivery cannot be skipped.
class CountingSink final : public StreamFramer::Sink {
public:
    void onPacket(std::span<const std::uint8_t> frame) override
    {
        ++packets;
        bytes += frame.size();
        checksum += frame.back();
    }
    std::size_t packets = 0;
    std::size_t bytes = 0;
    std::uint64_t checksum = 0;
};
} // namespace

void TestStreamFramer::noAllocationPerPacket()
{
    StreamSpec spec;
    spec.transportHeaderBytes = 4;
    spec.implausibleTransport = true;
    std::mt19937 rng(71);
    Stream s;
    for (int i = 0; i < 3000; ++i) {
        if (rng() % 10 == 0)
            appendGarbage(s, 1 + rng() % 30, rng);
        PacketSpec p = randomPacket(rng);
        if (rng() % 10 == 0)
            p.apid = kIdleApid;
        appendPacket(s, spec, p, rng);
    }
    std::vector<std::vector<std::size_t>> splits;
    for (const Split split : kAllSplits)
        splits.push_back(chunkSizes(s.bytes.size(), split, 17));

    FramerOptions options;
    options.transportHeaderBytes = 4;
    options.acceptIdle = true;
    StreamFramer framer(options);
    CountingSink sink;
    const std::span<const std::uint8_t> all(s.bytes);

    const long before = telestation::test::threadAllocations();
    for (const auto& sizes : splits) {
        std::size_t at = 0;
        for (const std::size_t n : sizes) {
            framer.push(all.subspan(at, n), sink);
            at += n;
        }
        framer.push(all.first(s.frames[0].offset + 10), sink); // ends inside the first packet (>= 11 bytes)
        framer.reset();
    }
    const long after = telestation::test::threadAllocations();

    QCOMPARE(after - before, 0L);
    const std::size_t real = std::size_t(std::count_if(s.frames.begin(), s.frames.end(), [](const FrameRef& f) { return !f.idle; }));
    QVERIFY(real > 2000);
    QVERIFY(sink.packets >= real * splits.size());
    QCOMPARE(framer.truncated(), std::uint64_t(splits.size()));
}

// After a framing error, a run of zero bytes looks like an endless series of 7-byte packets of APID 0;
// with resyncApids the framer hunts on through them to the next packet of a known APID.
void TestStreamFramer::resyncOnlyOnKnownApids()
{
    std::mt19937 rng(7);
    Stream s;
    const StreamSpec spec;
    appendPacket(s, spec, PacketSpec{100, 7}, rng);
    appendGarbage(s, 5, rng);            // a framing error: now hunting
    s.bytes.insert(s.bytes.end(), 70, 0); // 10 "packets" of APID 0, length 7
    appendPacket(s, spec, PacketSpec{100, 7}, rng);
    appendPacket(s, spec, PacketSpec{50, 9}, rng); // in sync again: any APID is accepted

    for (const bool filtered : {false, true}) {
        FramerOptions options;
        if (filtered)
            options.resyncApids = {7};
        StreamFramer framer(options);
        CollectingSink sink;
        framer.push(s.bytes, sink);
        if (filtered) {
            QCOMPARE(sink.frames.size(), std::size_t{3});
            QCOMPARE(sink.frames[1], s.frame(1));
            QCOMPARE(sink.frames[2], s.frame(2));
            QCOMPARE(framer.stats().skippedBytes, std::uint64_t{5 + 70});
            QCOMPARE(framer.stats().framingErrors, std::uint64_t{1});
        } else {
            QCOMPARE(sink.frames.size(), std::size_t{13}); // the zeros taken for packets
        }
    }
}

QTEST_GUILESS_MAIN(TestStreamFramer)
#include "tst_ccsds_stream_framer.moc"
