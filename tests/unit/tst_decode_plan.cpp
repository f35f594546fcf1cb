// Decoder: every data type at aligned and unaligned bit offsets, both byte orders, sign extension,
// 64-bit fields, each calibrator with its edges, limit boundaries, absent parameters, packet time.
#include "tests/support/model_builders.hpp"
#include "core/decode/bits.hpp"
#include "core/decode/decode_plan.hpp"

#include <QtTest>

#include <bit>
#include <cmath>
#include <cstring>
#include <limits>
#include <random>
#include <vector>

using namespace telestation;
using namespace telestation::decode;
using mdb::DataType;

namespace {

using test::makeParameter;

mdb::PacketDef packetWith(std::vector<mdb::ParameterDef> params, std::uint32_t length = 64)
{
    mdb::PacketDef pk;
    pk.name = "P";
    pk.apid = 7;
    pk.length = length;
    pk.parameters = std::move(params);
    return pk;
}

DecodePlan compileOrFail(const mdb::PacketDef& pk)
{
    auto plan = DecodePlan::compile(pk);
    if (!plan.ok())
        qFatal("compile failed: %s", plan.error().message.c_str());
    return std::move(plan).value();
}

DecodedValue decodeSingle(const mdb::ParameterDef& p, const std::vector<std::uint8_t>& bytes)
{
    const DecodePlan plan = compileOrFail(packetWith({p}, static_cast<std::uint32_t>(bytes.size())));
    std::vector<DecodedValue> out(1);
    plan.decode(bytes, out);
    return out[0];
}

} // namespace

class TestDecodePlan : public QObject {
    Q_OBJECT

private slots:
    void handBuiltBigEndianFields()
    {
        // Bytes 6..: 0xAB 0xCD 0xEF 0x12 ...
        std::vector<std::uint8_t> b(32, 0);
        b[6] = 0xAB; b[7] = 0xCD; b[8] = 0xEF; b[9] = 0x12;
        QCOMPARE(decodeSingle(makeParameter("A", 48, 8, DataType::UnsignedInt), b).raw, 0xABu);
        QCOMPARE(decodeSingle(makeParameter("A", 48, 16, DataType::UnsignedInt), b).raw, 0xABCDu);
        // 0xABCD = 1010 1011 1100 1101: bits 52..59 = 1011 1100
        QCOMPARE(decodeSingle(makeParameter("A", 52, 8, DataType::UnsignedInt), b).raw, 0xBCu);
        // 3 bits at 49: 010
        QCOMPARE(decodeSingle(makeParameter("A", 49, 3, DataType::UnsignedInt), b).raw, 0b010u);
        // 12 bits at 53 of AB CD EF: 1010 1[011 1100 1101 1]110 1111 -> 0111 1001 1011 = 0x79B
        QCOMPARE(decodeSingle(makeParameter("A", 53, 12, DataType::UnsignedInt), b).raw, 0x79Bu);
        // 1 bit
        QCOMPARE(decodeSingle(makeParameter("A", 48, 1, DataType::UnsignedInt), b).raw, 1u);
        QCOMPARE(decodeSingle(makeParameter("A", 49, 1, DataType::UnsignedInt), b).raw, 0u);
    }

    void littleEndianFields()
    {
        std::vector<std::uint8_t> b(32, 0);
        b[6] = 0x34; b[7] = 0x12; b[8] = 0x78; b[9] = 0x56;
        auto p = makeParameter("L", 48, 16, DataType::UnsignedInt);
        p.byteOrder = mdb::ByteOrder::LittleEndian;
        QCOMPARE(decodeSingle(p, b).raw, 0x1234u);
        p.bitLength = 32;
        QCOMPARE(decodeSingle(p, b).raw, 0x56781234u);
        p.bitLength = 24;
        QCOMPARE(decodeSingle(p, b).raw, 0x781234u);
        // Packet default little-endian, parameter override big-endian.
        auto pk = packetWith({makeParameter("D", 48, 16, DataType::UnsignedInt), makeParameter("B", 48, 16, DataType::UnsignedInt)});
        pk.byteOrder = mdb::ByteOrder::LittleEndian;
        pk.parameters[1].byteOrder = mdb::ByteOrder::BigEndian;
        pk.parameters[1].overlapAllowed = true;
        const auto plan = compileOrFail(pk);
        std::vector<DecodedValue> out(2);
        std::vector<std::uint8_t> bytes(64, 0);
        bytes[6] = 0x34; bytes[7] = 0x12;
        QCOMPARE(plan.decode(bytes, out), std::size_t{2});
        QCOMPARE(out[0].raw, 0x1234u);
        QCOMPARE(out[1].raw, 0x3412u);
        // Little-endian 16 bits at an unaligned offset: the two bytes taken at bit 52, then reversed.
        std::vector<std::uint8_t> c(32, 0);
        c[6] = 0x0A; c[7] = 0xBC; c[8] = 0xD0; // bits 52..67 = 0xABCD -> reversed 0xCDAB
        auto u = makeParameter("U", 52, 16, DataType::UnsignedInt);
        u.byteOrder = mdb::ByteOrder::LittleEndian;
        QCOMPARE(decodeSingle(u, c).raw, 0xCDABu);
        // A little-endian field that is not whole bytes and spans two bytes is refused.
        auto bad = makeParameter("X", 52, 12, DataType::UnsignedInt);
        bad.byteOrder = mdb::ByteOrder::LittleEndian;
        QVERIFY(!DecodePlan::compile(packetWith({bad})).ok());
        // ... but a sub-byte field within one byte has no byte order and is fine.
        auto small = makeParameter("S", 50, 4, DataType::UnsignedInt);
        small.byteOrder = mdb::ByteOrder::LittleEndian;
        QVERIFY(DecodePlan::compile(packetWith({small})).ok());
    }

    void everyTypeAtEveryOffset_data()
    {
        QTest::addColumn<int>("type");
        QTest::addColumn<int>("length");
        QTest::addColumn<bool>("little");
        for (int little = 0; little < 2; ++little) {
            const char* order = little ? "LE" : "BE";
            for (int len : {8, 16, 24, 32, 40, 48, 56, 64}) {
                QTest::addRow("uint%d %s", len, order) << int(DataType::UnsignedInt) << len << bool(little);
                QTest::addRow("int%d %s", len, order) << int(DataType::SignedInt) << len << bool(little);
            }
            QTest::addRow("float32 %s", order) << int(DataType::Float) << 32 << bool(little);
            QTest::addRow("float64 %s", order) << int(DataType::Float) << 64 << bool(little);
        }
        for (int len : {1, 3, 5, 7, 9, 13, 17, 31, 33, 47, 63}) {
            QTest::addRow("uint%d", len) << int(DataType::UnsignedInt) << len << false;
            QTest::addRow("int%d", len) << int(DataType::SignedInt) << len << false;
        }
    }

    void everyTypeAtEveryOffset()
    {
        QFETCH(int, type);
        QFETCH(int, length);
        QFETCH(bool, little);
        std::mt19937_64 rng(static_cast<std::uint64_t>(type * 1000 + length * 2 + little));
        for (std::uint32_t offset = 48; offset < 48 + 16; ++offset) {
            for (int trial = 0; trial < 20; ++trial) {
                std::uint64_t value = rng();
                if (length < 64)
                    value &= (std::uint64_t{1} << length) - 1;
                if (type == int(DataType::Float) && length == 32)
                    value = std::bit_cast<std::uint32_t>(static_cast<float>(std::ldexp(double(value % 1000000) - 5e5, -7)));
                if (type == int(DataType::Float) && length == 64)
                    value = std::bit_cast<std::uint64_t>(std::ldexp(double(value % 100000000) - 5e7, -11));

                // Expected bits in the packet: big-endian as given, or the value's bytes reversed.
                const std::uint64_t stored = little ? reverseBytes(value, unsigned(length) / 8) : value;
                // Fill with random junk, then place the field, checking insertBits keeps the neighbours.
                std::vector<std::uint8_t> bytes(24);
                for (auto& x : bytes)
                    x = static_cast<std::uint8_t>(rng());
                const auto before = bytes;
                insertBits(bytes.data(), offset, unsigned(length), stored);
                for (std::uint32_t bit = 0; bit < bytes.size() * 8; ++bit) {
                    if (bit >= offset && bit < offset + std::uint32_t(length))
                        continue;
                    QCOMPARE(extractBits(bytes.data(), bit, 1), extractBits(before.data(), bit, 1));
                }

                auto p = makeParameter("V", offset, std::uint32_t(length), DataType(type));
                if (little)
                    p.byteOrder = mdb::ByteOrder::LittleEndian;
                // Exactly sized packet (careful loads near the end) and a roomy one (fast path).
                for (std::size_t size : {std::size_t((offset + unsigned(length) + 7) / 8), bytes.size()}) {
                    std::vector<std::uint8_t> pkt(bytes.begin(), bytes.begin() + std::ptrdiff_t(size));
                    const DecodedValue v = decodeSingle(p, pkt);
                    QVERIFY(v.present);
                    QCOMPARE(v.raw, value);
                    if (type == int(DataType::SignedInt)) {
                        const bool negative = (value >> (length - 1)) & 1;
                        const std::int64_t expected = negative && length < 64
                            ? static_cast<std::int64_t>(value | ~((std::uint64_t{1} << length) - 1))
                            : static_cast<std::int64_t>(value);
                        QCOMPARE(v.converted.i, expected);
                        QCOMPARE(v.calibrated, double(expected));
                    } else if (type == int(DataType::Float)) {
                        const double expected = length == 32
                            ? double(std::bit_cast<float>(static_cast<std::uint32_t>(value)))
                            : std::bit_cast<double>(value);
                        QCOMPARE(v.converted.f, expected);
                    } else {
                        QCOMPARE(v.converted.u, value);
                    }
                }
            }
        }
    }

    void signExtension()
    {
        std::vector<std::uint8_t> b(16, 0);
        insertBits(b.data(), 51, 5, 0b10000);
        QCOMPARE(decodeSingle(makeParameter("S", 51, 5, DataType::SignedInt), b).converted.i, std::int64_t{-16});
        insertBits(b.data(), 51, 5, 0b01111);
        QCOMPARE(decodeSingle(makeParameter("S", 51, 5, DataType::SignedInt), b).converted.i, std::int64_t{15});
        insertBits(b.data(), 51, 5, 0b11111);
        QCOMPARE(decodeSingle(makeParameter("S", 51, 5, DataType::SignedInt), b).converted.i, std::int64_t{-1});
        std::fill(b.begin(), b.end(), 0xFF);
        QCOMPARE(decodeSingle(makeParameter("S", 48, 64, DataType::SignedInt), b).converted.i, std::int64_t{-1});
        QCOMPARE(decodeSingle(makeParameter("U", 48, 64, DataType::UnsignedInt), b).converted.u,
                 std::numeric_limits<std::uint64_t>::max());
        insertBits(b.data(), 49, 64, std::uint64_t{1} << 63);
        QCOMPARE(decodeSingle(makeParameter("S", 49, 64, DataType::SignedInt), b).converted.i,
                 std::numeric_limits<std::int64_t>::min());
        QCOMPARE(decodeSingle(makeParameter("S", 48, 1, DataType::SignedInt), b).converted.i, std::int64_t{-1});
    }

    void stringsAndBytes()
    {
        std::vector<std::uint8_t> b(40, 0);
        const char text[] = "HELLO";
        for (int i = 0; i < 5; ++i)
            insertBits(b.data(), 53 + 8 * std::uint32_t(i), 8, std::uint8_t(text[i]));
        auto s = makeParameter("S", 53, 8 * 12, DataType::String);
        const DecodePlan plan = compileOrFail(packetWith({s}, 40));
        std::vector<DecodedValue> out(1);
        QCOMPARE(plan.decode(b, out), std::size_t{1});
        QCOMPARE(out[0].converted.u, 12u);
        QCOMPARE(plan.stringValue(b, 0), std::string("HELLO"));
        QCOMPARE(out[0].raw >> 24, std::uint64_t{0x48454C4C4F}); // first 8 bytes "HELLO\0\0\0"

        std::vector<std::uint8_t> c(16, 0);
        c[8] = 0xDE; c[9] = 0xAD; c[10] = 0xBE; c[11] = 0xEF;
        const DecodePlan raw = compileOrFail(packetWith({makeParameter("B", 64, 32, DataType::Bytes)}, 16));
        std::uint8_t got[4] = {};
        QCOMPARE(raw.extractBytes(c, 0, got), std::size_t{4});
        QCOMPARE(got[0], std::uint8_t{0xDE});
        QCOMPARE(got[3], std::uint8_t{0xEF});
        QCOMPARE(raw.decodeOne(c, 0).raw, std::uint64_t{0xDEADBEEF});
        // A calibrator on a string is refused.
        auto bad = s;
        bad.calibrator = mdb::PolynomialCalibrator{{1.0}};
        QVERIFY(!DecodePlan::compile(packetWith({bad}, 40)).ok());
    }

    void polynomial()
    {
        std::vector<std::uint8_t> b(16, 0);
        b[6] = 10;
        auto p = makeParameter("P", 48, 8, DataType::UnsignedInt);
        p.calibrator = mdb::PolynomialCalibrator{{1.5}};
        QCOMPARE(decodeSingle(p, b).calibrated, 1.5); // constant
        p.calibrator = mdb::PolynomialCalibrator{{-2.0, 0.5}};
        QCOMPARE(decodeSingle(p, b).calibrated, 3.0);
        p.calibrator = mdb::PolynomialCalibrator{{1, 2, 3, 4, 5, 6}}; // 5th order
        const double x = 10;
        QCOMPARE(decodeSingle(p, b).calibrated, 1 + 2 * x + 3 * x * x + 4 * x * x * x + 5 * x * x * x * x
                                                    + 6 * x * x * x * x * x);
        QCOMPARE(decodeSingle(p, b).converted.u, 10u); // converted is not calibrated
        p.calibrator = mdb::PolynomialCalibrator{};
        QVERIFY(!DecodePlan::compile(packetWith({p})).ok());
        p.calibrator = mdb::PolynomialCalibrator{{1, 2, 3, 4, 5, 6, 7}};
        QVERIFY(!DecodePlan::compile(packetWith({p})).ok());
    }

    void pointPair_data()
    {
        QTest::addColumn<int>("raw");
        QTest::addColumn<double>("expected");
        // Table: (10, 100) (20, 300) (40, 400)
        QTest::newRow("below the table extrapolates the first segment") << 0 << -100.0;
        QTest::newRow("first point") << 10 << 100.0;
        QTest::newRow("inside first segment") << 15 << 200.0;
        QTest::newRow("middle point") << 20 << 300.0;
        QTest::newRow("inside last segment") << 30 << 350.0;
        QTest::newRow("last point") << 40 << 400.0;
        QTest::newRow("above the table extrapolates the last segment") << 60 << 500.0;
    }

    void pointPair()
    {
        QFETCH(int, raw);
        QFETCH(double, expected);
        std::vector<std::uint8_t> b(16, 0);
        b[6] = static_cast<std::uint8_t>(raw);
        auto p = makeParameter("T", 48, 8, DataType::UnsignedInt);
        p.calibrator = mdb::PointPairCalibrator{{{10, 100}, {20, 300}, {40, 400}}};
        QCOMPARE(decodeSingle(p, b).calibrated, expected);
    }

    void enumeration()
    {
        auto p = makeParameter("E", 48, 8, DataType::UnsignedInt);
        p.calibrator = mdb::EnumerationCalibrator{{{0, 0, "OFF"}, {1, 1, "ON"}, {5, 9, "FAULT"}}};
        p.limits = mdb::StateLimits{{"OFF", "ON"}, true};
        const DecodePlan plan = compileOrFail(packetWith({p}));
        std::vector<std::uint8_t> b(16, 0);
        const auto check = [&](std::uint8_t code, const char* text, LimitState limit) {
            b[6] = code;
            const DecodedValue v = plan.decodeOne(b, 0);
            QCOMPARE(plan.stateText(0, v), std::string_view(text));
            QCOMPARE(v.limit, limit);
            QCOMPARE(v.calibrated, double(code));
        };
        check(0, "OFF", LimitState::Normal);
        check(1, "ON", LimitState::Normal);
        check(4, "", LimitState::Unexpected); // no state for code 4
        check(5, "FAULT", LimitState::Unexpected);
        check(9, "FAULT", LimitState::Unexpected);
        check(10, "", LimitState::Unexpected);
        // Negative codes on a signed field.
        auto s = makeParameter("S", 48, 8, DataType::SignedInt);
        s.calibrator = mdb::EnumerationCalibrator{{{-128, -1, "NEGATIVE"}, {0, 127, "POSITIVE"}}};
        const DecodePlan sp = compileOrFail(packetWith({s}));
        b[6] = 0xFF;
        QCOMPARE(sp.stateText(0, sp.decodeOne(b, 0)), std::string_view("NEGATIVE"));
        QCOMPARE(sp.decodeOne(b, 0).limit, LimitState::None);
        // Disabled expected states: no limit state.
        p.limits = mdb::StateLimits{{"OFF"}, false};
        b[6] = 5;
        QCOMPARE(compileOrFail(packetWith({p})).decodeOne(b, 0).limit, LimitState::None);
        // An enumeration on a float is refused.
        auto f = makeParameter("F", 48, 32, DataType::Float);
        f.calibrator = p.calibrator;
        QVERIFY(!DecodePlan::compile(packetWith({f})).ok());
    }

    void numericLimits_data()
    {
        QTest::addColumn<double>("value");
        QTest::addColumn<int>("expected");
        // red low -10, yellow low 0, yellow high 50, red high 100; equal to a limit is on the safe side
        QTest::newRow("far below") << -1e9 << int(LimitState::RedLow);
        QTest::newRow("just below red low") << -10.5 << int(LimitState::RedLow);
        QTest::newRow("at red low") << -10.0 << int(LimitState::YellowLow);
        QTest::newRow("between red and yellow low") << -5.0 << int(LimitState::YellowLow);
        QTest::newRow("at yellow low") << 0.0 << int(LimitState::Normal);
        QTest::newRow("normal") << 25.0 << int(LimitState::Normal);
        QTest::newRow("at yellow high") << 50.0 << int(LimitState::Normal);
        QTest::newRow("just above yellow high") << 50.5 << int(LimitState::YellowHigh);
        QTest::newRow("at red high") << 100.0 << int(LimitState::YellowHigh);
        QTest::newRow("above red high") << 100.5 << int(LimitState::RedHigh);
        QTest::newRow("nan") << std::numeric_limits<double>::quiet_NaN() << int(LimitState::Invalid);
        QTest::newRow("+inf") << std::numeric_limits<double>::infinity() << int(LimitState::RedHigh);
    }

    void numericLimits()
    {
        QFETCH(double, value);
        QFETCH(int, expected);
        auto p = makeParameter("F", 48, 64, DataType::Float);
        p.limits = mdb::NumericLimits{-10, 0, 50, 100, true};
        std::vector<std::uint8_t> b(16, 0);
        insertBits(b.data(), 48, 64, std::bit_cast<std::uint64_t>(value));
        QCOMPARE(int(decodeSingle(p, b).limit), expected);
        p.limits = mdb::NumericLimits{-10, 0, 50, 100, false};
        QCOMPARE(decodeSingle(p, b).limit, LimitState::None);
    }

    void limitsApplyToCalibratedValue()
    {
        auto p = makeParameter("V", 48, 8, DataType::UnsignedInt);
        p.calibrator = mdb::PolynomialCalibrator{{0, 10}}; // raw 6 -> 60
        p.limits = mdb::NumericLimits{0, 10, 50, 100, true};
        std::vector<std::uint8_t> b(16, 0);
        b[6] = 6;
        QCOMPARE(decodeSingle(p, b).limit, LimitState::YellowHigh);
        b[6] = 11;
        QCOMPARE(decodeSingle(p, b).limit, LimitState::RedHigh);
    }

    void absentParametersInShortPackets()
    {
        auto pk = packetWith({makeParameter("A", 48, 8, DataType::UnsignedInt), makeParameter("B", 120, 16, DataType::UnsignedInt),
                              makeParameter("C", 56, 8, DataType::UnsignedInt)});
        pk.variableLength = true;
        pk.length = 8;
        pk.maxLength = 64;
        const DecodePlan plan = compileOrFail(pk);
        QCOMPARE(plan.requiredSize(), std::size_t{17});
        std::vector<std::uint8_t> b(10, 0x11);
        std::vector<DecodedValue> out(3);
        QCOMPARE(plan.decode(b, out), std::size_t{2});
        QVERIFY(out[0].present);
        QVERIFY(!out[1].present);
        QVERIFY(out[2].present);
        QCOMPARE(out[2].raw, 0x11u);
        b.resize(17, 0x22);
        QCOMPARE(plan.decode(b, out), std::size_t{3});
        QCOMPARE(out[1].raw, 0x2222u);
    }

    void packetTime()
    {
        auto pk = packetWith({makeParameter("A", 96, 8, DataType::UnsignedInt)});
        pk.secondaryHeader = mdb::CucLayout{4, 2, false, mdb::TimeEpoch::Unix1970};
        const DecodePlan plan = compileOrFail(pk);
        QVERIFY(plan.hasPacketTime());
        std::vector<std::uint8_t> b(64, 0);
        // 1,700,000,000 s + 0x8000/65536 = 0.5 s
        insertBits(b.data(), 48, 32, 1'700'000'000u);
        insertBits(b.data(), 80, 16, 0x8000u);
        std::int64_t ns = 0;
        QVERIFY(plan.packetTime(b, ns));
        QCOMPARE(ns, std::int64_t{1'700'000'000'500'000'000});
        std::vector<std::uint8_t> shortPacket(8, 0);
        QVERIFY(!plan.packetTime(shortPacket, ns));
        QVERIFY(!compileOrFail(packetWith({})).hasPacketTime());
    }

    void rejectsImpossibleDefinitions()
    {
        QVERIFY(!DecodePlan::compile(packetWith({makeParameter("X", 48, 65, DataType::UnsignedInt)})).ok());
        QVERIFY(!DecodePlan::compile(packetWith({makeParameter("X", 48, 0, DataType::SignedInt)})).ok());
        QVERIFY(!DecodePlan::compile(packetWith({makeParameter("X", 48, 16, DataType::Float)})).ok());
        QVERIFY(!DecodePlan::compile(packetWith({makeParameter("X", 48, 12, DataType::String)})).ok());
        auto e = DecodePlan::compile(packetWith({makeParameter("X", 48, 12, DataType::String)}));
        QVERIFY(QString::fromStdString(e.error().message).contains("P.X"));
    }
};

QTEST_GUILESS_MAIN(TestDecodePlan)
#include "tst_decode_plan.moc"
