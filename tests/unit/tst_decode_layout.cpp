// The generalised layouts of the decoder and encoder: parameters placed after the previous one,
// sized by another parameter (XTCE DynamicValue), by a terminator or a leading count, present under a
// condition; sign-magnitude and ones'-complement integers; time and context calibrators; the layout
// report (short packets, sizes out of range, extra bytes); and the encoder writing such packets so
// that the decoder reads them back.
#include "tests/support/model_builders.hpp"
#include "core/decode/decode_plan.hpp"
#include "core/decode/encoder.hpp"

#include <QtTest>

#include <cstring>
#include <string>
#include <vector>

using namespace telestation;
using namespace telestation::decode;
using mdb::DataType;
using test::makeParameter;

namespace {

// Short names for the builders this file uses on every line.
mdb::ParameterDef after(std::string name, std::uint32_t gap, std::uint32_t bits, DataType type = DataType::UnsignedInt)
{
    return test::makeFollowing(std::move(name), gap, bits, type);
}

mdb::PacketDef packetOf(std::vector<mdb::ParameterDef> parameters)
{
    return test::makeOpenPacket("P", 9, std::move(parameters));
}

DecodePlan compiled(const mdb::PacketDef& pk)
{
    auto plan = DecodePlan::compile(pk);
    if (!plan.ok())
        qFatal("compile failed: %s", plan.error().message.c_str());
    return std::move(plan).value();
}

// IDEX's shape: a count, bytes sized by it, then a trailer after them.
mdb::PacketDef countedBytesPacket()
{
    return packetOf({
        makeParameter("HEADER", 0, 48),
        makeParameter("COUNT", 48, 8),
        test::makeSizedBytes("DATA", "COUNT", 8, 0),
        after("CRC", 0, 16),
    });
}

} // namespace

class TestDecodeLayout : public QObject {
    Q_OBJECT

private slots:
    void afterPreviousInTheFixedPartIsResolvedAtCompileTime()
    {
        const auto plan = compiled(packetOf({makeParameter("A", 48, 8), after("B", 4, 12), after("C", 0, 16)}));
        QVERIFY(plan.fixedLayout());
        QCOMPARE(plan.locate({}, 1).bitOffset, 60u);
        QCOMPARE(plan.locate({}, 2).bitOffset, 72u);
        QCOMPARE(plan.requiredSize(), std::size_t{11});
        std::vector<std::uint8_t> b(11, 0);
        b[6] = 0x01; b[7] = 0x0A; b[8] = 0xBC; b[9] = 0x12; b[10] = 0x34;
        std::vector<DecodedValue> out(3);
        QCOMPARE(plan.decode(b, out), std::size_t{3});
        QCOMPARE(out[1].raw, 0xABCu);
        QCOMPARE(out[2].raw, 0x1234u);
    }

    void bytesSizedByAnotherParameterMoveWhatFollows()
    {
        const auto plan = compiled(countedBytesPacket());
        QVERIFY(!plan.fixedLayout());
        QCOMPARE(plan.fixedCount(), std::size_t{2});
        for (const std::uint8_t count : {0, 1, 5, 40}) {
            std::vector<std::uint8_t> b(7 + count + 2, 0);
            b[6] = count;
            for (std::uint8_t i = 0; i < count; ++i)
                b[7 + i] = static_cast<std::uint8_t>(0xA0 + i);
            b[7 + count] = 0xBE;
            b[8 + count] = 0xEF;
            std::vector<DecodedValue> out(4);
            LayoutReport report;
            QCOMPARE(plan.decode(b, out, &report), std::size_t{4});
            QCOMPARE(report.status, LayoutStatus::Complete);
            QCOMPARE(report.endByte(), std::uint32_t(b.size()));
            QCOMPARE(out[2].converted.u, std::uint64_t{count});
            QCOMPARE(out[3].raw, 0xBEEFu);
            std::vector<std::uint8_t> data(64);
            QCOMPARE(plan.extractBytes(b, 2, data), std::size_t{count});
            for (std::uint8_t i = 0; i < count; ++i)
                QCOMPARE(data[i], std::uint8_t(0xA0 + i));
            QCOMPARE(plan.decodeOne(b, 3).raw, 0xBEEFu);
        }
    }

    void aLinearAdjustmentAppliesToTheSize()
    {
        // IDEX: bits = 8 * PKT_LEN - 328 (the packet length field minus the fixed fields after it).
        auto pk = packetOf({makeParameter("LEN", 32, 16), test::makeSizedBytes("RAW", "LEN", 8, -24)});
        pk.parameters[1].placement = mdb::Placement::Absolute;
        pk.parameters[1].bitOffset = 48;
        const auto plan = compiled(pk);
        std::vector<std::uint8_t> b(16, 0);
        b[5] = 13; // 8 * 13 - 24 = 80 bits = 10 bytes
        std::vector<DecodedValue> out(2);
        LayoutReport report;
        plan.decode(b, out, &report);
        QCOMPARE(report.status, LayoutStatus::Complete);
        QCOMPARE(out[1].converted.u, std::uint64_t{10});
        QCOMPARE(report.endByte(), 16u);
    }

    void aPacketShorterThanItsLayoutIsReported()
    {
        const auto plan = compiled(countedBytesPacket());
        std::vector<std::uint8_t> b(7 + 3, 0);
        b[6] = 10; // says 10 bytes follow; only 3 do
        std::vector<DecodedValue> out(4);
        LayoutReport report;
        QCOMPARE(plan.decode(b, out, &report), std::size_t{2});
        QCOMPARE(report.status, LayoutStatus::Short);
        QCOMPARE(report.failedIndex, 2);
        QVERIFY(!out[2].present);
        QVERIFY(!out[3].present);
        QCOMPARE(layoutStatusText(report.status), std::string_view("shorter than its layout"));
    }

    void aSizeOutOfRangeIsReported()
    {
        auto pk = packetOf({makeParameter("HEADER", 0, 48), makeParameter("N", 48, 8, DataType::SignedInt),
                            test::makeSizedBytes("DATA", "N", 8, 0)});
        const auto plan = compiled(pk);
        std::vector<std::uint8_t> b(64, 0);
        b[6] = 0xFF; // -1 bytes
        std::vector<DecodedValue> out(3);
        LayoutReport report;
        plan.decode(b, out, &report);
        QCOMPARE(report.status, LayoutStatus::BadSize);
        pk.parameters[2].size.maxBytes = 4;
        const auto bounded = compiled(pk);
        b[6] = 5;
        bounded.decode(b, out, &report);
        QCOMPARE(report.status, LayoutStatus::BadSize);
        b[6] = 4;
        bounded.decode(b, out, &report);
        QCOMPARE(report.status, LayoutStatus::Complete);
    }

    void extraBytesShowAsTheLayoutsEnd()
    {
        const auto plan = compiled(countedBytesPacket());
        std::vector<std::uint8_t> b(7 + 2 + 2 + 5, 0);
        b[6] = 2;
        std::vector<DecodedValue> out(4);
        LayoutReport report;
        plan.decode(b, out, &report);
        QCOMPARE(report.status, LayoutStatus::Complete);
        QCOMPARE(report.endByte(), 11u); // 5 bytes more than the layout
    }

    void conditionalParametersTakeNoRoomWhenAbsent()
    {
        auto opt = after("OPT", 0, 16);
        opt.includeWhen.push_back({"FLAG", mdb::CompareOp::Equal, 1, false});
        const auto plan = compiled(packetOf({makeParameter("FLAG", 48, 8), opt, after("NEXT", 0, 8)}));
        std::vector<DecodedValue> out(3);
        const std::vector<std::uint8_t> with{0, 0, 0, 0, 0, 0, 1, 0x12, 0x34, 0x56};
        QCOMPARE(plan.decode(with, out), std::size_t{3});
        QCOMPARE(out[1].raw, 0x1234u);
        QCOMPARE(out[2].raw, 0x56u);
        const std::vector<std::uint8_t> without{0, 0, 0, 0, 0, 0, 0, 0x56};
        QCOMPARE(plan.decode(without, out), std::size_t{2});
        QVERIFY(!out[1].present);
        QCOMPARE(out[2].raw, 0x56u);
        QVERIFY(!plan.decodeOne(without, 1).present);
        QCOMPARE(plan.decodeOne(without, 2).raw, 0x56u);
    }

    void everyComparisonOperator()
    {
        using Op = mdb::CompareOp;
        const std::vector<std::pair<Op, std::vector<bool>>> cases{
            {Op::Equal, {false, true, false}},     {Op::NotEqual, {true, false, true}},
            {Op::Less, {true, false, false}},      {Op::LessOrEqual, {true, true, false}},
            {Op::Greater, {false, false, true}},   {Op::GreaterOrEqual, {false, true, true}},
        };
        for (const auto& [op, expected] : cases) {
            auto opt = after("OPT", 0, 8);
            opt.includeWhen.push_back({"V", op, 5, false});
            const auto plan = compiled(packetOf({makeParameter("V", 48, 8), opt}));
            for (int k = 0; k < 3; ++k) {
                const std::vector<std::uint8_t> b{0, 0, 0, 0, 0, 0, static_cast<std::uint8_t>(4 + k), 0x77};
                QCOMPARE(plan.decodeOne(b, 1).present, bool(expected[static_cast<std::size_t>(k)]));
            }
        }
    }

    void terminatedAndCountedStrings()
    {
        auto name = after("NAME", 0, 0, DataType::String);
        name.size.kind = mdb::SizeKind::Terminated;
        name.size.terminator = 0;
        auto label = after("LABEL", 0, 0, DataType::String);
        label.size.kind = mdb::SizeKind::LeadingSize;
        label.size.leadingSizeBits = 8;
        const auto plan = compiled(packetOf({makeParameter("HEADER", 0, 48), name, label, after("END", 0, 8)}));
        std::vector<std::uint8_t> b(6, 0);
        for (const char c : std::string("ABC"))
            b.push_back(static_cast<std::uint8_t>(c));
        b.push_back(0);
        b.push_back(2);
        b.push_back('x');
        b.push_back('y');
        b.push_back(0x99);
        std::vector<DecodedValue> out(4);
        LayoutReport report;
        QCOMPARE(plan.decode(b, out, &report), std::size_t{4});
        QCOMPARE(plan.stringValue(b, 1), std::string("ABC"));
        QCOMPARE(out[1].converted.u, std::uint64_t{3});
        QCOMPARE(plan.stringValue(b, 2), std::string("xy"));
        QCOMPARE(out[3].raw, 0x99u);
        QCOMPARE(report.endByte(), std::uint32_t(b.size()));
    }

    void signMagnitudeAndOnesComplement()
    {
        struct Case { DataType type; unsigned bits; std::uint64_t raw; std::int64_t value; };
        const std::vector<Case> cases{
            {DataType::SignMagnitudeInt, 8, 0x85, -5}, {DataType::SignMagnitudeInt, 8, 0x05, 5},
            {DataType::SignMagnitudeInt, 8, 0x80, 0},  {DataType::SignMagnitudeInt, 4, 0xF, -7},
            {DataType::OnesComplementInt, 8, 0xFA, -5}, {DataType::OnesComplementInt, 8, 0x05, 5},
            {DataType::OnesComplementInt, 8, 0xFF, 0},  {DataType::OnesComplementInt, 16, 0x8000, -32767},
            {DataType::SignMagnitudeInt, 64, 0x8000000000000001ull, -1},
            {DataType::OnesComplementInt, 64, 0xFFFFFFFFFFFFFFFEull, -1},
        };
        for (const auto& c : cases) {
            const auto pk = packetOf({makeParameter("V", 48, c.bits, c.type)});
            const auto plan = compiled(pk);
            std::vector<std::uint8_t> b(16, 0);
            for (unsigned i = 0; i < c.bits; ++i)
                if ((c.raw >> (c.bits - 1 - i)) & 1)
                    b[6 + i / 8] |= static_cast<std::uint8_t>(0x80 >> (i % 8));
            QCOMPARE(plan.decodeOne(b, 0).converted.i, c.value);
            // And back: the encoder writes the same bits (negative zero aside).
            if (c.value == 0 && c.raw != 0)
                continue;
            const auto encoder = EncodePlan::compile(pk);
            QVERIFY(encoder.ok());
            std::vector<std::uint8_t> e(16, 0);
            encoder->setConverted(e, 0, static_cast<double>(c.value));
            QCOMPARE(plan.decodeOne(e, 0).converted.i, c.value);
            QCOMPARE(e, b);
        }
    }

    void timeCalibrator()
    {
        // A 48-bit CUC (4 coarse + 2 fine bytes) read as one integer: scale 2^-16, TAI epoch.
        auto t = makeParameter("T", 48, 48);
        t.calibrator = mdb::TimeCalibrator{mdb::kEpochTai1958, 1.0 / 65536, 0};
        const auto pk = packetOf({t});
        const auto plan = compiled(pk);
        QVERIFY(plan.isTime(0));
        // 2021-04-09T00:00:00Z = 1617926400 Unix; + 378691200 = seconds since 1958, + half a second.
        const std::uint64_t coarse = 1617926400ull + 378691200ull;
        std::vector<std::uint8_t> b(12, 0);
        for (int i = 0; i < 4; ++i)
            b[6 + static_cast<std::size_t>(i)] = static_cast<std::uint8_t>(coarse >> (24 - 8 * i));
        b[10] = 0x80;
        QCOMPARE(plan.decodeOne(b, 0).calibrated, 1617926400.5);
        const auto encoder = EncodePlan::compile(pk);
        QVERIFY(encoder.ok());
        std::vector<std::uint8_t> e(12, 0);
        QVERIFY(encoder->setCalibrated(e, 0, 1617926400.5));
        QCOMPARE(e, b);
    }

    void contextCalibratorsApplyInOrder()
    {
        auto v = makeParameter("V", 56, 8);
        v.calibrator = mdb::PolynomialCalibrator{{0, 1}};
        v.contextCalibrators.push_back({{{"MODE", mdb::CompareOp::Equal, 1, false}}, mdb::PolynomialCalibrator{{0, 10}}});
        v.contextCalibrators.push_back({{{"MODE", mdb::CompareOp::GreaterOrEqual, 1, false}},
                                        mdb::PolynomialCalibrator{{0, 100}}});
        v.limits = mdb::NumericLimits{-1e9, -1e9, 50, 1e9, true};
        const auto plan = compiled(packetOf({makeParameter("MODE", 48, 8), v}));
        std::vector<DecodedValue> out(2);
        for (const auto& [mode, expected] : std::vector<std::pair<std::uint8_t, double>>{{0, 3}, {1, 30}, {2, 300}}) {
            const std::vector<std::uint8_t> b{0, 0, 0, 0, 0, 0, mode, 3};
            plan.decode(b, out);
            QCOMPARE(out[1].calibrated, expected);
            QCOMPARE(plan.decodeOne(b, 1).calibrated, expected);
            QCOMPARE(out[1].limit, expected > 50 ? LimitState::YellowHigh : LimitState::Normal);
        }
    }

    void theEncoderWritesVariableLayouts()
    {
        const auto pk = countedBytesPacket();
        const auto encoder = EncodePlan::compile(pk);
        QVERIFY(encoder.ok());
        const auto plan = compiled(pk);
        const std::vector<std::uint8_t> data{1, 2, 3, 4, 5, 6};
        std::vector<std::uint8_t> b(7 + data.size() + 2, 0);
        encoder->setConverted(b, 1, static_cast<double>(data.size())); // the size first
        encoder->setBytes(b, 2, data);
        encoder->setConverted(b, 3, 0xCAFE);
        std::vector<DecodedValue> out(4);
        LayoutReport report;
        QCOMPARE(plan.decode(b, out, &report), std::size_t{4});
        QCOMPARE(report.status, LayoutStatus::Complete);
        QCOMPARE(out[3].raw, 0xCAFEu);
        std::vector<std::uint8_t> back(6);
        QCOMPARE(plan.extractBytes(b, 2, back), std::size_t{6});
        QCOMPARE(back, data);
    }

    void theEncoderWritesCountedStrings()
    {
        auto name = after("NAME", 0, 0, DataType::String);
        name.size.kind = mdb::SizeKind::Terminated;
        name.size.terminator = ';';
        auto label = after("LABEL", 0, 0, DataType::String);
        label.size.kind = mdb::SizeKind::LeadingSize;
        label.size.leadingSizeBits = 4; // unaligned after it
        const auto pk = packetOf({makeParameter("HEADER", 0, 48), name, label, after("END", 0, 4)});
        const auto encoder = EncodePlan::compile(pk);
        QVERIFY(encoder.ok());
        const auto plan = compiled(pk);
        std::vector<std::uint8_t> b(32, 0xEE); // garbage where the counts will go
        encoder->setString(b, 1, "hello");
        encoder->setString(b, 2, "abc");
        encoder->setConverted(b, 3, 0x5);
        QCOMPARE(plan.stringValue(b, 1), std::string("hello"));
        QCOMPARE(plan.stringValue(b, 2), std::string("abc"));
        QCOMPARE(plan.decodeOne(b, 3).raw, 0x5u);
        std::vector<DecodedValue> out(4);
        LayoutReport report;
        plan.decode(b, out, &report);
        QCOMPARE(report.endBit, 48u + 6 * 8 + 4 + 3 * 8 + 4);
    }

    void rejectsWhatItCannotPlace()
    {
        auto badSize = test::makeSizedBytes("DATA", "LATER", 8, 0);
        QVERIFY(!DecodePlan::compile(packetOf({makeParameter("H", 0, 48), badSize, makeParameter("LATER", 0, 8)})).ok());
        auto intSized = test::makeSizedBytes("N", "H", 1, 0);
        intSized.type = DataType::UnsignedInt;
        QVERIFY(!DecodePlan::compile(packetOf({makeParameter("H", 0, 48), intSized})).ok());
        auto opt = after("OPT", 0, 8);
        opt.includeWhen.push_back({"NOPE", mdb::CompareOp::Equal, 1, false});
        QVERIFY(!DecodePlan::compile(packetOf({makeParameter("H", 0, 48), opt})).ok());
        QVERIFY(!DecodePlan::compile(packetOf({makeParameter("S", 48, 1, DataType::SignMagnitudeInt)})).ok());
    }
};

QTEST_GUILESS_MAIN(TestDecodeLayout)
#include "tst_decode_layout.moc"
