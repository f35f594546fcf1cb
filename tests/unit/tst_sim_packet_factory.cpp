// PacketFactory builds packets the station accepts and the decoder reads back: for every packet type
// of the training mission database, random raw values placed by the factory decode to the same raw
// values; headers pass the downlink checks with the right APID, count and length; CUC time survives.
#include "core/ccsds/space_packet.hpp"
#include "core/decode/bits.hpp"
#include "core/decode/decode_plan.hpp"
#include "core/mdb/text_format.hpp"
#include "sim/engine/packet_factory.hpp"
#include "tests/support/training_mission.hpp"

#include <QtTest>

#include <random>
#include <vector>

using namespace telestation;

class TestPacketFactory : public QObject {
    Q_OBJECT

private slots:
    void initTestCase()
    {
        m_db = test::trainingDefinition();
        QVERIFY(m_db.packets.size() >= 4);
    }

    void headersPassTheDownlinkChecks()
    {
        for (const auto& def : m_db.packets) {
            const sim::PacketFactory factory(def);
            std::vector<std::uint8_t> bytes(factory.packetSize());
            for (std::uint16_t count : {std::uint16_t{0}, std::uint16_t{1}, std::uint16_t{16383}, std::uint16_t{16384}}) {
                QCOMPARE(factory.build(bytes, count, 0), bytes.size());
                ccsds::HeaderPolicy policy;
                policy.requireUnsegmented = true;
                policy.requireSecondaryHeader = def.secondaryHeader.has_value();
                const auto check = ccsds::checkPrimaryHeader(bytes, policy);
                QVERIFY2(check.ok(), qPrintable(QString::fromStdString(def.name)));
                QCOMPARE(check.header.apid, def.apid);
                QCOMPARE(check.header.sequenceCount, std::uint16_t(count % 16384));
                QCOMPARE(check.header.packetLength(), std::size_t{def.length});
                QCOMPARE(check.header.secondaryHeader, def.secondaryHeader.has_value());
            }
            std::vector<std::uint8_t> tooSmall(factory.packetSize() - 1);
            QCOMPARE(factory.build(tooSmall, 0, 0), std::size_t{0});
        }
    }

    void rawValuesRoundTripThroughTheDecoder()
    {
        std::mt19937_64 rng(7);
        std::size_t checked = 0;
        for (const auto& def : m_db.packets) {
            const sim::PacketFactory factory(def);
            auto plan = decode::DecodePlan::compile(def);
            QVERIFY2(plan.ok(), plan.ok() ? "" : plan.error().message.c_str());
            std::vector<std::uint8_t> bytes(factory.packetSize());
            std::vector<decode::DecodedValue> out(plan->parameterCount());
            for (int trial = 0; trial < 50; ++trial) {
                factory.build(bytes, static_cast<std::uint16_t>(trial), 0);
                std::vector<std::uint64_t> expected(def.parameters.size());
                // Parameters may overlap (OVERLAP_OK); place them all, then expect what the last
                // writer left, so place in order and compare only parameters nobody overlapped.
                for (std::size_t i = 0; i < def.parameters.size(); ++i) {
                    const auto& p = def.parameters[i];
                    const unsigned bits = (p.type == mdb::DataType::String || p.type == mdb::DataType::Bytes)
                        ? std::min(p.bitLength, 64u) : p.bitLength;
                    std::uint64_t raw = rng();
                    if (bits < 64)
                        raw &= (std::uint64_t{1} << bits) - 1;
                    expected[i] = raw;
                    factory.setRaw(bytes, i, raw);
                }
                QCOMPARE(plan->decode(bytes, out), plan->parameterCount() - absentIn(def, bytes.size()));
                for (std::size_t i = 0; i < def.parameters.size(); ++i) {
                    if (def.parameters[i].overlapAllowed || !out[i].present)
                        continue;
                    QCOMPARE(out[i].raw, expected[i]);
                    ++checked;
                }
                // build() places the secondary id that tells packet types sharing an APID apart.
                if (def.secondaryId) {
                    factory.build(bytes, 0, 0);
                    QCOMPARE(decode::extractBits(bytes.data(), def.secondaryId->bitOffset, def.secondaryId->bitLength),
                             def.secondaryId->value);
                }
            }
        }
        QVERIFY(checked > 50 * 100);
    }

    void packetTimeRoundTrips()
    {
        for (const auto& def : m_db.packets) {
            if (!def.secondaryHeader)
                continue;
            const sim::PacketFactory factory(def);
            auto plan = decode::DecodePlan::compile(def);
            QVERIFY(plan.ok());
            std::vector<std::uint8_t> bytes(factory.packetSize());
            const std::int64_t t = 1'790'000'000'123'456'789; // 2026-09
            factory.build(bytes, 1, t);
            std::int64_t decoded = 0;
            QVERIFY(plan->packetTime(bytes, decoded));
            const double tick = 1e9 / double(std::uint64_t{1} << (8 * def.secondaryHeader->fineBytes));
            QVERIFY2(decoded <= t && double(t - decoded) < tick + 1,
                     qPrintable(QStringLiteral("%1: %2 vs %3").arg(QString::fromStdString(def.name)).arg(decoded).arg(t)));
        }
    }

private:
    static std::size_t absentIn(const mdb::PacketDef& def, std::size_t size)
    {
        std::size_t n = 0;
        for (const auto& p : def.parameters)
            if ((std::uint64_t{p.bitOffset} + p.bitLength + 7) / 8 > size)
                ++n;
        return n;
    }

    mdb::MissionDatabase m_db;
};

QTEST_GUILESS_MAIN(TestPacketFactory)
#include "tst_sim_packet_factory.moc"
