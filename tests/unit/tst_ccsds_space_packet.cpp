// Unit tests of the CCSDS primary header: bit layout, masking, round trip, and every rejection reason.
#include "core/ccsds/space_packet.hpp"

#include <QtTest>

#include <array>
#include <set>
#include <string>
#include <vector>

namespace telestation::ccsds {
// Readable failure messages (found by argument-dependent lookup).
char* toString(HeaderError e)
{
    return qstrdup(std::string(describe(e)).c_str());
}
char* toString(const PrimaryHeader& h)
{
    return qstrdup(QStringLiteral("{version %1 type %2 secondary %3 apid %4 flags %5 count %6 dataLength %7}")
                       .arg(h.version)
                       .arg(static_cast<int>(h.type))
                       .arg(h.secondaryHeader)
                       .arg(h.apid)
                       .arg(static_cast<int>(h.sequenceFlags))
                       .arg(h.sequenceCount)
                       .arg(h.dataLength)
                       .toLatin1()
                       .constData());
}
} // namespace telestation::ccsds

using namespace telestation::ccsds;

namespace {

// A packet of `size` bytes (>= 6) whose header is `h` with the data length set to match `size`,
// payload bytes filled with a pattern.
std::vector<std::uint8_t> makePacket(PrimaryHeader h, std::size_t size)
{
    std::vector<std::uint8_t> bytes(size);
    for (std::size_t i = kPrimaryHeaderSize; i < size; ++i)
        bytes[i] = static_cast<std::uint8_t>(i * 7u);
    h.dataLength = static_cast<std::uint16_t>(size - 7);
    writePrimaryHeader(h, bytes.data());
    return bytes;
}

// A telemetry packet every policy flag accepts: secondary header present, unsegmented, ordinary APID.
PrimaryHeader goodHeader()
{
    PrimaryHeader h;
    h.type = PacketType::Telemetry;
    h.secondaryHeader = true;
    h.apid = 0x123;
    h.sequenceFlags = SequenceFlags::Unsegmented;
    h.sequenceCount = 42;
    return h;
}

// The strictest policy: every optional check on.
HeaderPolicy strictPolicy()
{
    HeaderPolicy p;
    p.requireSecondaryHeader = true;
    p.rejectIdle = true;
    p.requireUnsegmented = true;
    p.exactLength = true;
    return p;
}

HeaderError check(const std::vector<std::uint8_t>& packet, const HeaderPolicy& policy = {})
{
    return checkPrimaryHeader(packet, policy).error;
}

} // namespace

class TestCcsdsSpacePacket : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void readsHandBuiltBytes_data();
    void readsHandBuiltBytes();
    void writesHandBuiltBytes_data();
    void writesHandBuiltBytes();
    void writeMasksFieldsToWidth();
    void roundTripAtFieldMaxima();
    void roundTripEveryFieldAlone();
    void packetLengthCountsWholePacket();

    void acceptsValidPacket();
    void tooShort();
    void unsupportedVersion();
    void unexpectedType();
    void missingSecondaryHeader();
    void idlePacket();
    void segmentedPacket();
    void truncated();
    void trailingBytes();
    void firstReasonWins();
    void headerFilledOnRejection();

    void policyExpectedType();
    void policySecondaryHeader();
    void policyIdle();
    void policyUnsegmented();
    void policyExactLength();

    void boundaryLengths();
    void describeEveryError();
};

// Field values in the bytes chosen by hand from the bit layout in CCSDS 133.0-B.
void TestCcsdsSpacePacket::readsHandBuiltBytes_data()
{
    QTest::addColumn<QByteArray>("bytes");
    QTest::addColumn<int>("version");
    QTest::addColumn<int>("type");
    QTest::addColumn<bool>("secondary");
    QTest::addColumn<int>("apid");
    QTest::addColumn<int>("flags");
    QTest::addColumn<int>("count");
    QTest::addColumn<int>("dataLength");

    // 000 0 1 001|00100011  11 010010|00110100  00000001|00000010
    QTest::newRow("tm with secondary") << QByteArray::fromHex("0923D2340102")
                                       << 0 << 0 << true << 0x123 << 3 << 0x1234 << 0x0102;
    // 101 1 0 111|11111110  01 111111|11111111  11111111|11111111
    QTest::newRow("odd version tc") << QByteArray::fromHex("B7FE7FFFFFFF") << 5 << 1 << false << 0x7FE << 1
                                    << 0x3FFF << 0xFFFF;
    QTest::newRow("all zero") << QByteArray::fromHex("000000000000") << 0 << 0 << false << 0 << 0 << 0 << 0;
    // 000 1 1 000|00000001  10 000000|00000000  00000000|00000000
    QTest::newRow("tc last") << QByteArray::fromHex("180180000000") << 0 << 1 << true << 1 << 2 << 0 << 0;
    // 111 0 0 100|00000000  00 100000|00000000  10000000|00000000: top bit of each field alone
    QTest::newRow("top bits") << QByteArray::fromHex("E40020008000") << 7 << 0 << false << 0x400 << 0 << 0x2000
                              << 0x8000;
}

void TestCcsdsSpacePacket::readsHandBuiltBytes()
{
    QFETCH(QByteArray, bytes);
    QFETCH(int, version);
    QFETCH(int, type);
    QFETCH(bool, secondary);
    QFETCH(int, apid);
    QFETCH(int, flags);
    QFETCH(int, count);
    QFETCH(int, dataLength);
    QCOMPARE(bytes.size(), 6);

    const PrimaryHeader h = readPrimaryHeader(reinterpret_cast<const std::uint8_t*>(bytes.constData()));
    QCOMPARE(int{h.version}, version);
    QCOMPARE(static_cast<int>(h.type), type);
    QCOMPARE(h.secondaryHeader, secondary);
    QCOMPARE(int{h.apid}, apid);
    QCOMPARE(static_cast<int>(h.sequenceFlags), flags);
    QCOMPARE(int{h.sequenceCount}, count);
    QCOMPARE(int{h.dataLength}, dataLength);
}

void TestCcsdsSpacePacket::writesHandBuiltBytes_data()
{
    readsHandBuiltBytes_data();
}

void TestCcsdsSpacePacket::writesHandBuiltBytes()
{
    QFETCH(QByteArray, bytes);
    QFETCH(int, version);
    QFETCH(int, type);
    QFETCH(bool, secondary);
    QFETCH(int, apid);
    QFETCH(int, flags);
    QFETCH(int, count);
    QFETCH(int, dataLength);

    PrimaryHeader h;
    h.version = static_cast<std::uint8_t>(version);
    h.type = static_cast<PacketType>(type);
    h.secondaryHeader = secondary;
    h.apid = static_cast<std::uint16_t>(apid);
    h.sequenceFlags = static_cast<SequenceFlags>(flags);
    h.sequenceCount = static_cast<std::uint16_t>(count);
    h.dataLength = static_cast<std::uint16_t>(dataLength);

    std::array<std::uint8_t, 8> out{};
    out.fill(0xA5); // bytes 6 and 7 must stay untouched
    writePrimaryHeader(h, out.data());
    QCOMPARE(QByteArray(reinterpret_cast<const char*>(out.data()), 6), bytes);
    QCOMPARE(out[6], std::uint8_t{0xA5});
    QCOMPARE(out[7], std::uint8_t{0xA5});
}

void TestCcsdsSpacePacket::writeMasksFieldsToWidth()
{
    // Out-of-range values keep only their low bits and never spill into the neighbouring fields.
    PrimaryHeader h;
    h.version = 0xF8; // low 3 bits 000
    h.type = PacketType::Telemetry;
    h.secondaryHeader = false;
    h.apid = 0xF801;  // low 11 bits 0x001
    h.sequenceFlags = SequenceFlags::Continuation;
    h.sequenceCount = 0xC002; // low 14 bits 0x0002
    h.dataLength = 3;

    std::array<std::uint8_t, 6> out{};
    writePrimaryHeader(h, out.data());
    const std::array<std::uint8_t, 6> expected{0x00, 0x01, 0x00, 0x02, 0x00, 0x03};
    QCOMPARE(out, expected);

    h.version = 0xFF;
    h.apid = 0xFFFF;
    h.sequenceCount = 0xFFFF;
    writePrimaryHeader(h, out.data());
    const PrimaryHeader back = readPrimaryHeader(out.data());
    QCOMPARE(int{back.version}, 7);
    QCOMPARE(back.type, PacketType::Telemetry);
    QCOMPARE(back.secondaryHeader, false);
    QCOMPARE(int{back.apid}, int{kMaxApid});
    QCOMPARE(back.sequenceFlags, SequenceFlags::Continuation);
    QCOMPARE(int{back.sequenceCount}, kSequenceCountModulo - 1);
}

void TestCcsdsSpacePacket::roundTripAtFieldMaxima()
{
    PrimaryHeader h;
    h.version = 7;
    h.type = PacketType::Telecommand;
    h.secondaryHeader = true;
    h.apid = 2047;
    h.sequenceFlags = SequenceFlags::Unsegmented;
    h.sequenceCount = 16383;
    h.dataLength = 65535;

    std::array<std::uint8_t, 6> out{};
    writePrimaryHeader(h, out.data());
    QCOMPARE(readPrimaryHeader(out.data()), h);
    const std::array<std::uint8_t, 6> allOnes{0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF};
    QCOMPARE(out, allOnes);
}

void TestCcsdsSpacePacket::roundTripEveryFieldAlone()
{
    // Each field at each of its bit positions on its own: a mix-up of two fields' bits would show.
    const auto roundTrip = [](const PrimaryHeader& h) {
        std::array<std::uint8_t, 6> out{};
        writePrimaryHeader(h, out.data());
        return readPrimaryHeader(out.data());
    };
    for (unsigned bit = 0; bit < 3; ++bit) {
        PrimaryHeader h;
        h.version = static_cast<std::uint8_t>(1u << bit);
        QCOMPARE(roundTrip(h), h);
    }
    for (unsigned bit = 0; bit < 11; ++bit) {
        PrimaryHeader h;
        h.apid = static_cast<std::uint16_t>(1u << bit);
        QCOMPARE(roundTrip(h), h);
    }
    for (unsigned bit = 0; bit < 14; ++bit) {
        PrimaryHeader h;
        h.sequenceCount = static_cast<std::uint16_t>(1u << bit);
        QCOMPARE(roundTrip(h), h);
    }
    for (unsigned bit = 0; bit < 16; ++bit) {
        PrimaryHeader h;
        h.dataLength = static_cast<std::uint16_t>(1u << bit);
        QCOMPARE(roundTrip(h), h);
    }
    for (int flags = 0; flags < 4; ++flags) {
        PrimaryHeader h;
        h.sequenceFlags = static_cast<SequenceFlags>(flags);
        QCOMPARE(roundTrip(h), h);
    }
    PrimaryHeader tc;
    tc.type = PacketType::Telecommand;
    QCOMPARE(roundTrip(tc), tc);
    PrimaryHeader secondary;
    secondary.secondaryHeader = true;
    QCOMPARE(roundTrip(secondary), secondary);
}

void TestCcsdsSpacePacket::packetLengthCountsWholePacket()
{
    PrimaryHeader h;
    h.dataLength = 0;
    QCOMPARE(h.packetLength(), kMinPacketSize);
    h.dataLength = 1281;
    QCOMPARE(h.packetLength(), std::size_t{1288});
    h.dataLength = 65535;
    QCOMPARE(h.packetLength(), kMaxPacketSize);
}

void TestCcsdsSpacePacket::acceptsValidPacket()
{
    const auto packet = makePacket(goodHeader(), 100);
    const HeaderCheck result = checkPrimaryHeader(packet, strictPolicy());
    QCOMPARE(result.error, HeaderError::None);
    QVERIFY(result.ok());
    QCOMPARE(result.header.apid, std::uint16_t{0x123});
    QCOMPARE(result.header.packetLength(), std::size_t{100});
    QCOMPARE(check(packet), HeaderError::None);
}

// Each rejection test starts from a packet the strict policy accepts and changes one thing.
void TestCcsdsSpacePacket::tooShort()
{
    const auto packet = makePacket(goodHeader(), 100);
    for (std::size_t size = 0; size < kPrimaryHeaderSize; ++size) {
        const std::span<const std::uint8_t> prefix(packet.data(), size);
        QCOMPARE(checkPrimaryHeader(prefix, strictPolicy()).error, HeaderError::TooShort);
        HeaderPolicy lenient;
        lenient.exactLength = false;
        lenient.rejectIdle = false;
        QCOMPARE(checkPrimaryHeader(prefix, lenient).error, HeaderError::TooShort);
    }
    QCOMPARE(checkPrimaryHeader(std::span<const std::uint8_t>{}).error, HeaderError::TooShort);
}

void TestCcsdsSpacePacket::unsupportedVersion()
{
    for (std::uint8_t version = 1; version < 8; ++version) {
        PrimaryHeader h = goodHeader();
        h.version = version;
        QCOMPARE(check(makePacket(h, 100), strictPolicy()), HeaderError::UnsupportedVersion);
    }
}

void TestCcsdsSpacePacket::unexpectedType()
{
    PrimaryHeader h = goodHeader();
    h.type = PacketType::Telecommand;
    QCOMPARE(check(makePacket(h, 100), strictPolicy()), HeaderError::UnexpectedType);
}

void TestCcsdsSpacePacket::missingSecondaryHeader()
{
    PrimaryHeader h = goodHeader();
    h.secondaryHeader = false;
    QCOMPARE(check(makePacket(h, 100), strictPolicy()), HeaderError::MissingSecondaryHeader);
}

void TestCcsdsSpacePacket::idlePacket()
{
    PrimaryHeader h = goodHeader();
    h.apid = kIdleApid;
    QCOMPARE(check(makePacket(h, 100), strictPolicy()), HeaderError::IdlePacket);
    QCOMPARE(check(makePacket(h, 100)), HeaderError::IdlePacket); // the default policy rejects idle too
    h.apid = kIdleApid - 1;
    QCOMPARE(check(makePacket(h, 100), strictPolicy()), HeaderError::None);
}

void TestCcsdsSpacePacket::segmentedPacket()
{
    for (const SequenceFlags flags : {SequenceFlags::Continuation, SequenceFlags::First, SequenceFlags::Last}) {
        PrimaryHeader h = goodHeader();
        h.sequenceFlags = flags;
        QCOMPARE(check(makePacket(h, 100), strictPolicy()), HeaderError::SegmentedPacket);
    }
}

void TestCcsdsSpacePacket::truncated()
{
    const auto packet = makePacket(goodHeader(), 100);
    for (const std::size_t size : {std::size_t{6}, std::size_t{7}, std::size_t{50}, std::size_t{99}}) {
        QCOMPARE(checkPrimaryHeader(std::span(packet.data(), size), strictPolicy()).error, HeaderError::Truncated);
    }
}

void TestCcsdsSpacePacket::trailingBytes()
{
    auto packet = makePacket(goodHeader(), 100);
    packet.push_back(0);
    QCOMPARE(check(packet, strictPolicy()), HeaderError::TrailingBytes);
    packet.resize(200);
    QCOMPARE(check(packet, strictPolicy()), HeaderError::TrailingBytes);
}

void TestCcsdsSpacePacket::firstReasonWins()
{
    // Everything wrong at once, then fixed one reason at a time in the documented order.
    PrimaryHeader h = goodHeader();
    h.version = 1;
    h.apid = kIdleApid;
    h.type = PacketType::Telecommand;
    h.secondaryHeader = false;
    h.sequenceFlags = SequenceFlags::First;
    auto packet = makePacket(h, 100);
    const auto withLength = [&](std::size_t size) {
        return checkPrimaryHeader(std::span(packet.data(), size), strictPolicy()).error;
    };

    QCOMPARE(withLength(5), HeaderError::TooShort);
    QCOMPARE(withLength(50), HeaderError::UnsupportedVersion);
    h.version = 0;
    packet = makePacket(h, 100);
    QCOMPARE(withLength(50), HeaderError::IdlePacket);
    h.apid = 1;
    packet = makePacket(h, 100);
    QCOMPARE(withLength(50), HeaderError::UnexpectedType);
    h.type = PacketType::Telemetry;
    packet = makePacket(h, 100);
    QCOMPARE(withLength(50), HeaderError::MissingSecondaryHeader);
    h.secondaryHeader = true;
    packet = makePacket(h, 100);
    QCOMPARE(withLength(50), HeaderError::SegmentedPacket);
    h.sequenceFlags = SequenceFlags::Unsegmented;
    packet = makePacket(h, 100);
    QCOMPARE(withLength(50), HeaderError::Truncated);
    packet.resize(101);
    QCOMPARE(withLength(101), HeaderError::TrailingBytes);
    QCOMPARE(withLength(100), HeaderError::None);
}

void TestCcsdsSpacePacket::headerFilledOnRejection()
{
    PrimaryHeader h = goodHeader();
    h.type = PacketType::Telecommand;
    const auto packet = makePacket(h, 300);
    const HeaderCheck rejected = checkPrimaryHeader(std::span(packet.data(), 10), strictPolicy());
    QCOMPARE(rejected.error, HeaderError::UnexpectedType);
    QVERIFY(!rejected.ok());
    QCOMPARE(rejected.header, readPrimaryHeader(packet.data()));
    QCOMPARE(rejected.header.packetLength(), std::size_t{300});

    const HeaderCheck tooShort = checkPrimaryHeader(std::span(packet.data(), 3));
    QCOMPARE(tooShort.header, PrimaryHeader{});
}

void TestCcsdsSpacePacket::policyExpectedType()
{
    PrimaryHeader tc = goodHeader();
    tc.type = PacketType::Telecommand;
    const auto tcPacket = makePacket(tc, 20);
    const auto tmPacket = makePacket(goodHeader(), 20);

    HeaderPolicy policy;
    QCOMPARE(check(tcPacket, policy), HeaderError::UnexpectedType);
    QCOMPARE(check(tmPacket, policy), HeaderError::None);
    policy.expectedType = PacketType::Telecommand;
    QCOMPARE(check(tcPacket, policy), HeaderError::None);
    QCOMPARE(check(tmPacket, policy), HeaderError::UnexpectedType);
}

void TestCcsdsSpacePacket::policySecondaryHeader()
{
    PrimaryHeader h = goodHeader();
    h.secondaryHeader = false;
    const auto packet = makePacket(h, 20);
    HeaderPolicy policy;
    QCOMPARE(policy.requireSecondaryHeader, false);
    QCOMPARE(check(packet, policy), HeaderError::None);
    policy.requireSecondaryHeader = true;
    QCOMPARE(check(packet, policy), HeaderError::MissingSecondaryHeader);
}

void TestCcsdsSpacePacket::policyIdle()
{
    PrimaryHeader h = goodHeader();
    h.apid = kIdleApid;
    const auto packet = makePacket(h, 20);
    HeaderPolicy policy;
    QCOMPARE(policy.rejectIdle, true);
    QCOMPARE(check(packet, policy), HeaderError::IdlePacket);
    policy.rejectIdle = false;
    QCOMPARE(check(packet, policy), HeaderError::None);
    QCOMPARE(checkPrimaryHeader(packet, policy).header.apid, kIdleApid);
}

void TestCcsdsSpacePacket::policyUnsegmented()
{
    PrimaryHeader h = goodHeader();
    h.sequenceFlags = SequenceFlags::Continuation;
    const auto packet = makePacket(h, 20);
    HeaderPolicy policy;
    QCOMPARE(policy.requireUnsegmented, false);
    QCOMPARE(check(packet, policy), HeaderError::None);
    policy.requireUnsegmented = true;
    QCOMPARE(check(packet, policy), HeaderError::SegmentedPacket);
}

void TestCcsdsSpacePacket::policyExactLength()
{
    auto packet = makePacket(goodHeader(), 20);
    const auto next = makePacket(goodHeader(), 30);
    packet.insert(packet.end(), next.begin(), next.end()); // a stream: the next packet follows

    HeaderPolicy policy;
    QCOMPARE(policy.exactLength, true);
    QCOMPARE(check(packet, policy), HeaderError::TrailingBytes);
    policy.exactLength = false;
    const HeaderCheck result = checkPrimaryHeader(packet, policy);
    QCOMPARE(result.error, HeaderError::None);
    QCOMPARE(result.header.packetLength(), std::size_t{20});
    // A stream still needs the whole packet.
    QCOMPARE(checkPrimaryHeader(std::span(packet.data(), 19), policy).error, HeaderError::Truncated);
    QCOMPARE(checkPrimaryHeader(std::span(packet.data(), 20), policy).error, HeaderError::None);
}

void TestCcsdsSpacePacket::boundaryLengths()
{
    // Smallest packet: 7 bytes, data length field 0.
    const auto smallest = makePacket(goodHeader(), kMinPacketSize);
    QCOMPARE(int{readPrimaryHeader(smallest.data()).dataLength}, 0);
    QCOMPARE(check(smallest, strictPolicy()), HeaderError::None);
    QCOMPARE(checkPrimaryHeader(std::span(smallest.data(), 6), strictPolicy()).error, HeaderError::Truncated);
    QCOMPARE(checkPrimaryHeader(std::span(smallest.data(), 5), strictPolicy()).error, HeaderError::TooShort);

    // Largest packet: 65542 bytes, data length field 65535.
    auto largest = makePacket(goodHeader(), kMaxPacketSize);
    QCOMPARE(int{readPrimaryHeader(largest.data()).dataLength}, 65535);
    QCOMPARE(check(largest, strictPolicy()), HeaderError::None);
    QCOMPARE(checkPrimaryHeader(std::span(largest.data(), kMaxPacketSize - 1), strictPolicy()).error,
             HeaderError::Truncated);
    largest.push_back(0);
    QCOMPARE(check(largest, strictPolicy()), HeaderError::TrailingBytes);
    HeaderPolicy stream;
    stream.exactLength = false;
    QCOMPARE(check(largest, stream), HeaderError::None);
}

void TestCcsdsSpacePacket::describeEveryError()
{
    const HeaderError all[] = {HeaderError::None,
                               HeaderError::TooShort,
                               HeaderError::UnsupportedVersion,
                               HeaderError::UnexpectedType,
                               HeaderError::MissingSecondaryHeader,
                               HeaderError::IdlePacket,
                               HeaderError::SegmentedPacket,
                               HeaderError::Truncated,
                               HeaderError::TrailingBytes};
    std::set<std::string_view> texts;
    for (const HeaderError e : all) {
        const std::string_view text = describe(e);
        QVERIFY2(text.size() > 20, std::string(text).c_str());
        QCOMPARE(text.back(), '.'); // a sentence
        QVERIFY(texts.insert(text).second);  // each reason its own words
    }
    QVERIFY(describe(static_cast<HeaderError>(200)).size() > 0);
}

QTEST_GUILESS_MAIN(TestCcsdsSpacePacket)
#include "tst_ccsds_space_packet.moc"
