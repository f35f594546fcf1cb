// The decode path allocates nothing per packet: this executable replaces the global operator new to
// count allocations, and decodes every packet type of the training mission database many times.
#include "tests/support/allocation_counter.hpp"
#include "core/decode/decode_plan.hpp"
#include "core/mdb/text_format.hpp"

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
        auto imported = mdb::readTextFile(TELESTATION_SOURCE_DIR "/resources/mdb/training.tdef");
        QVERIFY(imported.ok());
        std::vector<decode::DecodePlan> plans;
        std::vector<std::vector<std::uint8_t>> packets;
        std::mt19937 rng(3);
        for (const auto& def : imported.database.packets) {
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
};

QTEST_GUILESS_MAIN(TestDecodeNoAllocation)
#include "tst_decode_no_allocation.moc"
