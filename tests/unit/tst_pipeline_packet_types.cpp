// Classification of packets into packet types: by APID, then by secondary id and criteria on fixed
// fields with every comparison operator, the most specific definition first (as XTCE containers that
// inherit a base's restriction and add their own), a fallback without conditions, fields past the end
// of a short packet, and the parameter ids.
#include "tests/support/model_builders.hpp"
#include "tests/support/pipeline_builders.hpp"
#include "core/pipeline/packet_types.hpp"

#include <QtTest>

#include <algorithm>
#include <vector>

using namespace telestation;
using namespace telestation::pipeline;
using mdb::CompareOp;

namespace {

mdb::PacketDef packetDef(std::string name, std::uint16_t apid, std::vector<mdb::FieldCriterion> criteria = {})
{
    mdb::PacketDef p = test::makeOpenPacket(std::move(name), apid, {test::makeParameter("V", 48, 8)});
    p.criteria = std::move(criteria);
    return p;
}

std::vector<std::uint8_t> packetBytes(std::uint16_t apid, std::vector<std::uint8_t> body)
{
    std::vector<std::uint8_t> b(6 + body.size()); // sized at once: GCC 12 -O2 misreads an insert into a 6-byte vector
    b[0] = static_cast<std::uint8_t>(0x08 | (apid >> 8));
    b[1] = static_cast<std::uint8_t>(apid & 0xFF);
    b[2] = 0xC0;
    std::copy(body.begin(), body.end(), b.begin() + 6);
    const auto length = b.size() - 7;
    b[4] = static_cast<std::uint8_t>(length >> 8);
    b[5] = static_cast<std::uint8_t>(length);
    return b;
}

} // namespace

class TestPacketTypes : public QObject {
    Q_OBJECT

private slots:
    void theMostSpecificDefinitionWins()
    {
        // IDEX's shape: one APID, "type == 1" and "type > 1", plus a fallback for the rest.
        mdb::MissionDatabase db;
        db.packets.push_back(packetDef("Fallback", 1424));
        db.packets.push_back(packetDef("TypeOne", 1424, {{48, 8, CompareOp::Equal, 1}}));
        db.packets.push_back(packetDef("TypeMany", 1424, {{48, 8, CompareOp::Greater, 1}}));
        db.packets.push_back(packetDef("TypeManyOdd", 1424, {{48, 8, CompareOp::Greater, 1}, {55, 1, CompareOp::Equal, 1}}));
        db.packets.push_back(packetDef("Other", 11));
        const auto t = test::buildTypeTable(db);
        QCOMPARE(t.typeName(t.classify(packetBytes(1424, {1}))), std::string_view("TypeOne"));
        QCOMPARE(t.typeName(t.classify(packetBytes(1424, {2}))), std::string_view("TypeMany"));
        QCOMPARE(t.typeName(t.classify(packetBytes(1424, {3}))), std::string_view("TypeManyOdd"));
        QCOMPARE(t.typeName(t.classify(packetBytes(1424, {0}))), std::string_view("Fallback"));
        QCOMPARE(t.typeName(t.classify(packetBytes(11, {0}))), std::string_view("Other"));
        QCOMPARE(t.classify(packetBytes(12, {0})), kUnknownType);
    }

    void everyOperator()
    {
        const std::vector<std::pair<CompareOp, std::vector<bool>>> cases{
            {CompareOp::Equal, {false, true, false}},   {CompareOp::NotEqual, {true, false, true}},
            {CompareOp::Less, {true, false, false}},    {CompareOp::LessOrEqual, {true, true, false}},
            {CompareOp::Greater, {false, false, true}}, {CompareOp::GreaterOrEqual, {false, true, true}},
        };
        for (const auto& [op, expected] : cases) {
            mdb::MissionDatabase db;
            db.packets.push_back(packetDef("P", 5, {{52, 12, op, 0x105}})); // an unaligned 12-bit field
            const auto t = test::buildTypeTable(db);
            for (std::uint8_t k = 0; k < 3; ++k) {
                // bits 52..63: the low nibble of byte 6 and byte 7 -> 0x104, 0x105, 0x106
                const auto b = packetBytes(5, {0xA1, static_cast<std::uint8_t>(0x04 + k)});
                QCOMPARE(t.classify(b) != kUnknownType, bool(expected[k]));
            }
        }
    }

    void aSecondaryIdAndCriteriaCombine()
    {
        mdb::MissionDatabase db;
        auto a = packetDef("A", 600);
        a.secondaryId = mdb::SecondaryId{48, 8, 1};
        auto b = packetDef("B", 600, {{56, 8, CompareOp::Equal, 7}});
        b.secondaryId = mdb::SecondaryId{48, 8, 1};
        db.packets = {a, b};
        const auto t = test::buildTypeTable(db);
        QCOMPARE(t.typeName(t.classify(packetBytes(600, {1, 7}))), std::string_view("B"));
        QCOMPARE(t.typeName(t.classify(packetBytes(600, {1, 8}))), std::string_view("A"));
        QCOMPARE(t.classify(packetBytes(600, {2, 7})), kUnknownType);
    }

    void aFieldPastTheEndDoesNotMatch()
    {
        mdb::MissionDatabase db;
        db.packets.push_back(packetDef("Long", 9, {{80, 8, CompareOp::Equal, 0}}));
        db.packets.push_back(packetDef("Short", 9));
        const auto t = test::buildTypeTable(db);
        QCOMPARE(t.typeName(t.classify(packetBytes(9, {0}))), std::string_view("Short"));
        QCOMPARE(t.typeName(t.classify(packetBytes(9, {0, 0, 0, 0}))), std::string_view("Short")); // 10 bytes: the field ends at 11
        QCOMPARE(t.typeName(t.classify(packetBytes(9, {0, 0, 0, 0, 0}))), std::string_view("Long"));
    }

    void sixtyFourBitCriteria()
    {
        mdb::MissionDatabase db;
        db.packets.push_back(packetDef("Big", 3, {{48, 64, CompareOp::GreaterOrEqual, 0xFFFFFFFFFFFFFF00ull}}));
        const auto t = test::buildTypeTable(db);
        QVERIFY(t.classify(packetBytes(3, {0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0x10})) != kUnknownType);
        QCOMPARE(t.classify(packetBytes(3, {0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFE, 0xFF})), kUnknownType);
    }

    void parameterIdsFollowDefinitionOrder()
    {
        mdb::MissionDatabase db;
        db.packets.push_back(packetDef("A", 1));
        db.packets.push_back(packetDef("B", 2));
        const auto t = test::buildTypeTable(db);
        QCOMPARE(t.totalParameters(), 2u);
        QCOMPARE(*t.parameterId("B.V"), 1u);
        QCOMPARE(t.parameter(1).typeIndex, 2u);
    }
};

QTEST_GUILESS_MAIN(TestPacketTypes)
#include "tst_pipeline_packet_types.moc"
