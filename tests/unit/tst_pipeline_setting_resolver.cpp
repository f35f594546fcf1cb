// Which packet setting applies to which packet type (SettingResolver): `packet` settings name one type,
// (APID, secondary id) the APID's types with that id, an APID alone its type without any condition or
// else all its types; the most specific wins whatever the profile's order. The key the GUI writes for a
// type: (APID [, secondary id]) where that names this type alone, else the packet's name.
#include "core/pipeline/setting_resolver.hpp"
#include "tests/support/model_builders.hpp"
#include "tests/support/pipeline_builders.hpp"

#include <QtTest>

#include <optional>
#include <vector>

using namespace telestation;
using namespace telestation::pipeline;
using config::PacketSettings;
using config::ProcessingMode;
using mdb::CompareOp;

namespace {

using test::byApid;
using test::byName;

mdb::PacketDef packetDef(std::string name, std::uint16_t apid, std::vector<mdb::FieldCriterion> criteria = {},
                         std::optional<std::uint64_t> secondaryId = std::nullopt)
{
    mdb::PacketDef p;
    p.name = std::move(name);
    p.apid = apid;
    p.length = 8;
    p.parameters.push_back(test::makeParameter("V", 56, 8));
    p.criteria = std::move(criteria);
    if (secondaryId)
        p.secondaryId = mdb::SecondaryId{48, 8, *secondaryId};
    return p;
}

// IDEX's shape on 1424 (two types told apart by criteria only), a .tdef shape on 600 (a plain type and
// two with secondary ids), secondary ids only on 700, and one type with criteria alone on its APID (JPSS).
mdb::MissionDatabase database()
{
    mdb::MissionDatabase db;
    db.packets.push_back(packetDef("SciZero", 1424, {{48, 8, CompareOp::Equal, 1}}));    // type 1
    db.packets.push_back(packetDef("SciNonZero", 1424, {{48, 8, CompareOp::Greater, 1}})); // 2
    db.packets.push_back(packetDef("Plain600", 600));                                     // 3
    db.packets.push_back(packetDef("Id600One", 600, {}, 1));                              // 4
    db.packets.push_back(packetDef("Id600Two", 600, {}, 2));                              // 5
    db.packets.push_back(packetDef("Id700One", 700, {}, 1));                              // 6
    db.packets.push_back(packetDef("Id700Two", 700, {}, 2));                              // 7
    db.packets.push_back(packetDef("Alone", 11, {{0, 3, CompareOp::Equal, 0}}));         // 8
    return db;
}

std::uint32_t typeOf(const PacketTypeTable& t, const char* name)
{
    const auto type = t.typeByName(name);
    if (!type)
        qFatal("no type %s", name);
    return *type;
}

} // namespace

class TestSettingResolver : public QObject {
    Q_OBJECT

private slots:
    void typesEachSettingNames()
    {
        const auto t = test::buildTypeTable(database());
        const auto types = [&](const PacketSettings& s) { return typesOf(t, s); };
        using V = std::vector<std::uint32_t>;
        // An APID whose types differ by criteria only: the APID names them all (not just the first).
        QCOMPARE(types(byApid(1424, std::nullopt, ProcessingMode::PassThru)), (V{1, 2}));
        QCOMPARE(types(byName("SciNonZero", ProcessingMode::PassThru)), (V{2}));
        // .tdef: the APID names its plain type, a secondary id its type.
        QCOMPARE(types(byApid(600, std::nullopt, ProcessingMode::PassThru)), (V{3}));
        QCOMPARE(types(byApid(600, 2, ProcessingMode::PassThru)), (V{5}));
        QCOMPARE(types(byApid(700, std::nullopt, ProcessingMode::PassThru)), (V{6, 7}));
        QCOMPARE(types(byApid(11, std::nullopt, ProcessingMode::PassThru)), (V{8}));
        // Nothing defined.
        QVERIFY(types(byApid(1424, 1, ProcessingMode::PassThru)).empty());
        QVERIFY(types(byApid(5, std::nullopt, ProcessingMode::PassThru)).empty());
        QVERIFY(types(byName("NoSuchPacket", ProcessingMode::PassThru)).empty());
        QVERIFY(!t.typeByKey(1424, std::nullopt));
        QCOMPARE(t.typeByKey(600, std::nullopt), std::optional<std::uint32_t>(3));
    }

    // packet > (APID, secondary id) > APID, in any order of the profile.
    void mostSpecificWins()
    {
        const auto t = test::buildTypeTable(database());
        const std::vector<PacketSettings> packets{
            byName("Id700Two", ProcessingMode::ProcessEntirePacket),      // 0
            byApid(700, 2, ProcessingMode::ProcessOnDemand),              // 1
            byApid(700, 1, ProcessingMode::ProcessOnDemand),              // 2
            byApid(700, std::nullopt, ProcessingMode::PassThru),          // 3
            byApid(1424, std::nullopt, ProcessingMode::ProcessOnDemand),  // 4
            byName("SciZero", ProcessingMode::PassThru),                  // 5
            byName("NoSuchPacket", ProcessingMode::PassThru),             // 6
            byApid(5, std::nullopt, ProcessingMode::PassThru),            // 7
        };
        const SettingResolver r(t, packets);
        using I = std::optional<std::size_t>;
        QCOMPARE(r.applying(typeOf(t, "Id700Two")), I(0));
        QCOMPARE(r.applying(typeOf(t, "Id700One")), I(2));
        QCOMPARE(r.applying(typeOf(t, "SciZero")), I(5));
        QCOMPARE(r.applying(typeOf(t, "SciNonZero")), I(4));
        QCOMPARE(r.applying(typeOf(t, "Plain600")), I());
        QCOMPARE(r.applying(kUnknownType), I());
        QCOMPARE(r.undefined(), (std::vector<std::size_t>{6, 7}));
        QCOMPARE(scopeOf(packets[0]), SettingScope::Packet);
        QCOMPARE(scopeOf(packets[1]), SettingScope::SecondaryId);
        QCOMPARE(scopeOf(packets[3]), SettingScope::Apid);
        QCOMPARE(describeKey(packets[0]), std::string("packet type Id700Two"));
        QCOMPARE(describeKey(packets[1]), std::string("APID 700 secondary id 2"));
        QCOMPARE(describeKey(packets[3]), std::string("APID 700"));
    }

    // The key written for one type: as .tdef profiles always had it where it names this type alone.
    void keyOfOneType()
    {
        const auto t = test::buildTypeTable(database());
        const auto key = [&](const char* name) { return keyOf(t, typeOf(t, name)); };
        QCOMPARE(key("SciZero"), byName("SciZero", ProcessingMode::ProcessEntirePacket));
        QCOMPARE(key("SciNonZero").packet, std::string("SciNonZero"));
        QCOMPARE(key("Plain600"), byApid(600, std::nullopt, ProcessingMode::ProcessEntirePacket));
        QCOMPARE(key("Id600Two"), byApid(600, 2, ProcessingMode::ProcessEntirePacket));
        QCOMPARE(key("Id700One"), byApid(700, 1, ProcessingMode::ProcessEntirePacket));
        QCOMPARE(key("Alone"), byApid(11, std::nullopt, ProcessingMode::ProcessEntirePacket));
    }

    // settingsFor: what applies, keyed so that writing it back changes this type only.
    void settingsForOneType()
    {
        const auto t = test::buildTypeTable(database());
        PacketSettings apid1424 = byApid(1424, std::nullopt, ProcessingMode::ProcessOnDemand);
        apid1424.record = true;
        apid1424.forward = {"udp://127.0.0.1:9"};
        const std::vector<PacketSettings> packets{apid1424, byName("SciZero", ProcessingMode::PassThru),
                                                  byApid(700, std::nullopt, ProcessingMode::PassThru),
                                                  byApid(600, std::nullopt, ProcessingMode::PassThru)};
        const SettingResolver r(t, packets);
        // Its own named setting.
        QCOMPARE(r.settingsFor(typeOf(t, "SciZero")), packets[1]);
        // The APID's setting, under the type's name: the other type of the APID keeps it.
        PacketSettings nonZero = apid1424;
        nonZero.apid = 0;
        nonZero.packet = "SciNonZero";
        QCOMPARE(r.settingsFor(typeOf(t, "SciNonZero")), nonZero);
        // .tdef: the APID's setting under (APID, secondary id); the plain type's own APID setting as it is.
        QCOMPARE(r.settingsFor(typeOf(t, "Id700Two")), byApid(700, 2, ProcessingMode::PassThru));
        QCOMPARE(r.settingsFor(typeOf(t, "Plain600")), packets[3]);
        // No setting: the defaults, keyed to the type.
        QCOMPARE(r.settingsFor(typeOf(t, "Id600One")), byApid(600, 1, ProcessingMode::ProcessEntirePacket));
    }
};

QTEST_GUILESS_MAIN(TestSettingResolver)
#include "tst_pipeline_setting_resolver.moc"
