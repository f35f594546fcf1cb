// The decode path allocates nothing per packet: this executable replaces the global operator new to
// count allocations, and decodes every packet type of the training mission database many times, and
// a packet of variable layout (sizes from the data, conditions, counted strings, context calibration).
#include "tests/support/allocation_counter.hpp"
#include "tests/support/model_builders.hpp"
#include "core/decode/decode_plan.hpp"
#include "core/mdb/text_format.hpp"
#include "tests/support/training_mission.hpp"

#include <QtTest>

#include <atomic>
#include <cstdlib>
#include <new>
#include <random>
#include <vector>


using namespace telestation;

class TestDecodeNoAllocation : public QObject {
    Q_OBJECT

private slots:
    void decodeAllocatesNothing()
    {
        const auto& training = test::trainingDefinition();
        std::vector<decode::DecodePlan> plans;
        std::vector<std::vector<std::uint8_t>> packets;
        std::mt19937 rng(3);
        for (const auto& def : training.packets) {
            auto plan = decode::DecodePlan::compile(def);
            QVERIFY(plan.ok());
            plans.push_back(std::move(plan).value());
            std::vector<std::uint8_t> bytes(def.variableLength ? def.maxLength : def.length);
            for (auto& b : bytes)
                b = static_cast<std::uint8_t>(rng());
            packets.push_back(std::move(bytes));
        }
        std::vector<decode::DecodedValue> out(256);
        // The counter works: a vector allocates.
        const long before = test::allocations();
        { std::vector<int> probe(10); QVERIFY(!probe.empty()); }
        QVERIFY(test::allocations() > before);

        const long start = test::allocations();
        std::size_t decoded = 0;
        for (int round = 0; round < 1000; ++round) {
            for (std::size_t k = 0; k < plans.size(); ++k) {
                decoded += plans[k].decode(packets[k], out);
                std::int64_t t = 0;
                (void)plans[k].packetTime(packets[k], t);
                std::uint8_t text[64];
                for (std::size_t i = 0; i < plans[k].parameterCount(); ++i)
                    if (plans[k].dataType(i) == mdb::DataType::String || plans[k].dataType(i) == mdb::DataType::Bytes)
                        (void)plans[k].extractBytes(packets[k], i, text);
                    else
                        (void)plans[k].stateText(i, out[i]);
            }
        }
        QCOMPARE(test::allocations() - start, 0L);
        QVERIFY(decoded > 100000);
    }
    void variableLayoutsAllocateNothing()
    {
        using mdb::DataType;
        mdb::PacketDef def = test::makeOpenPacket("V", 5, {test::makeParameter("COUNT", 48, 8), test::makeParameter("MODE", 56, 8),
                                                            test::makeSizedBytes("DATA", "COUNT")});
        auto option = test::makeFollowing("OPTION", 0, 16, DataType::SignMagnitudeInt);
        option.includeWhen.push_back({"MODE", mdb::CompareOp::Greater, 1, false});
        option.calibrator = mdb::PolynomialCalibrator{{0, 2}};
        option.contextCalibrators.push_back({{{"MODE", mdb::CompareOp::Equal, 3, false}}, mdb::PolynomialCalibrator{{1, 1}}});
        def.parameters.push_back(option);
        auto name = test::makeFollowing("NAME", 0, 0, DataType::String);
        name.size.kind = mdb::SizeKind::Terminated;
        def.parameters.push_back(name);
        def.parameters.push_back(test::makeFollowing("CRC", 0, 16));
        auto plan = decode::DecodePlan::compile(def);
        QVERIFY(plan.ok());

        std::mt19937 rng(5);
        std::vector<std::vector<std::uint8_t>> packets;
        for (int k = 0; k < 64; ++k) {
            std::vector<std::uint8_t> bytes(6, 0);
            const auto count = static_cast<std::uint8_t>(rng() % 40);
            bytes.push_back(count);
            bytes.push_back(static_cast<std::uint8_t>(rng() % 4));
            for (int i = 0; i < count + 2; ++i)
                bytes.push_back(static_cast<std::uint8_t>(rng()));
            for (int i = 0; i < 5; ++i)
                bytes.push_back(static_cast<std::uint8_t>('a' + rng() % 26));
            bytes.push_back(0);
            bytes.push_back(0xAB);
            bytes.push_back(0xCD);
            packets.push_back(std::move(bytes));
        }
        std::vector<decode::DecodedValue> out(plan->parameterCount());
        std::uint8_t text[64];
        // The first call on a thread may size its scratch for decodeOne/extractBytes: not measured.
        (void)plan->decodeOne(packets[0], 5);
        (void)plan->extractBytes(packets[0], 2, text);
        const long start = test::allocations();
        std::size_t decoded = 0;
        for (int round = 0; round < 2000; ++round) {
            for (const auto& bytes : packets) {
                decode::LayoutReport report;
                decoded += plan->decode(bytes, out, &report);
                QVERIFY(report.status == decode::LayoutStatus::Complete);
                (void)plan->decodeOne(bytes, 5);
                (void)plan->extractBytes(bytes, 4, text);
            }
        }
        QCOMPARE(test::allocations() - start, 0L);
        QVERIFY(decoded > 100000);
    }
};

QTEST_GUILESS_MAIN(TestDecodeNoAllocation)
#include "tst_decode_no_allocation.moc"
