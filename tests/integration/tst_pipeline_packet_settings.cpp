// Packet settings of packet types that share an APID, in a running station: a mission database built
// here has two types on APID 1424 told apart only by a criterion on another field (as XTCE missions do:
// IDEX's Sci0TypeZero "TYPE == 1" and Sci0TypeNonZero "TYPE > 1") and three types with secondary ids on
// APID 700. Settings by name (`packet`) give each type its own mode — the simulator sends both, and
// parametersDecoded shows which type was decoded; an APID-only setting covers every type of the APID;
// the most specific setting wins (packet > (APID, secondary id) > APID), at creation and live; names the
// database does not define are refused, naming the stream and the packet.
#include "core/config/station_profile.hpp"
#include "core/pipeline/station.hpp"
#include "sim/engine/sim_stream.hpp"
#include "tests/support/model_builders.hpp"
#include "tests/support/pipeline_builders.hpp"
#include "tests/support/sim_traffic.hpp"
#include "tests/support/station_fixture.hpp"

#include <QTemporaryDir>
#include <QtTest>

#include <chrono>
#include <optional>

using namespace telestation;
using namespace std::chrono_literals;
using config::PacketSettings;
using config::ProcessingMode;

namespace {

using test::byApid;
using test::byName;

using u64 = std::uint64_t;
using test::settle;
using test::typeStats;

// 4 parameters in SciZero, 2 in SciNonZero: parametersDecoded tells which type was decoded.
mdb::MissionDatabase database()
{
    mdb::MissionDatabase db;
    db.name = "criteria";
    mdb::PacketDef zero;
    zero.name = "SciZero";
    zero.apid = 1424;
    zero.length = 12;
    zero.criteria = {{48, 8, mdb::CompareOp::Equal, 1}};
    zero.parameters = {test::makeParameter("TYPE", 48, 8), test::makeParameter("A", 56, 16),
                       test::makeParameter("B", 72, 16), test::makeParameter("C", 88, 8)};
    mdb::PacketDef nonZero;
    nonZero.name = "SciNonZero";
    nonZero.apid = 1424;
    nonZero.length = 12;
    nonZero.criteria = {{48, 8, mdb::CompareOp::Greater, 1}};
    nonZero.parameters = {test::makeParameter("TYPE", 48, 8), test::makeParameter("X", 56, 32)};
    db.packets = {zero, nonZero};
    for (std::uint64_t id = 1; id <= 3; ++id) {
        mdb::PacketDef p;
        p.name = "Id" + std::to_string(id);
        p.apid = 700;
        p.length = 8;
        p.secondaryId = mdb::SecondaryId{48, 8, id};
        p.parameters = {test::makeParameter("V", 56, 8)};
        db.packets.push_back(p);
    }
    return db;
}

config::StationProfile profileWith(std::vector<PacketSettings> packets)
{
    config::StationProfile profile;
    config::StreamProfile tm;
    tm.name = "tm";
    tm.source = "udp://127.0.0.1:0";
    tm.packets = std::move(packets);
    profile.streams = {tm};
    return profile;
}

std::unique_ptr<pipeline::Station> create(const config::StationProfile& profile)
{
    auto created = pipeline::Station::create(profile, database());
    if (!created) {
        qWarning("station: %s", created.error().message.c_str());
        return nullptr;
    }
    return std::move(*created);
}

QString modeOf(const pipeline::Station& station, const char* packet)
{
    const auto type = station.types().typeByName(packet);
    if (!type)
        qFatal("no type %s", packet);
    return QString::fromLatin1(config::toString(station.mode(0, *type)).data());
}

QString name(ProcessingMode mode)
{
    return QString::fromLatin1(config::toString(mode).data());
}

} // namespace

class TestPipelinePacketSettings : public QObject {
    Q_OBJECT

private slots:
    // The bug this fixes: a setting for APID 1424 applied to its first type only.
    void apidSettingCoversEveryTypeOfTheApid()
    {
        auto station = create(profileWith({byApid(1424, std::nullopt, ProcessingMode::PassThru)}));
        QVERIFY(station);
        QCOMPARE(modeOf(*station, "SciZero"), name(ProcessingMode::PassThru));
        QCOMPARE(modeOf(*station, "SciNonZero"), name(ProcessingMode::PassThru));
        QCOMPARE(modeOf(*station, "Id1"), name(ProcessingMode::ProcessEntirePacket));
    }

    // Each type of the APID by its name, from a profile as written in a file, with packets of both.
    void settingsByNameGiveEachTypeItsMode()
    {
        // (Not a raw string: moc takes the "//" of a URL in one for a comment.)
        const std::string json = "{\"streams\": [{\"name\": \"tm\", \"source\": \"udp://127.0.0.1:0\", \"packets\": ["
                                 "{\"packet\": \"SciNonZero\", \"mode\": \"processEntirePacket\", \"record\": false}, "
                                 "{\"apid\": 1424, \"mode\": \"processOnDemand\"}, "
                                 "{\"packet\": \"SciZero\", \"mode\": \"passThru\"}]}]}";
        auto load = config::parseProfile(json);
        QVERIFY(load.ok());
        QTemporaryDir dir;
        load.profile.recordingDirectory = dir.filePath("recordings").toStdString();
        auto station = create(load.profile);
        QVERIFY(station);
        QCOMPARE(modeOf(*station, "SciZero"), name(ProcessingMode::PassThru));
        QCOMPARE(modeOf(*station, "SciNonZero"), name(ProcessingMode::ProcessEntirePacket));
        QVERIFY(station->start());

        const u64 zeros = test::sendPackets(*station, "tm", {"SciZero"}, 100).sent.packets;
        QVERIFY(settle(*station, "tm", zeros));
        const u64 nonZeros = test::sendPackets(*station, "tm", {"SciNonZero"}, 60).sent.packets;
        QVERIFY(settle(*station, "tm", zeros + nonZeros));
        const auto snapshot = station->snapshot();
        const auto& tm = snapshot.streams.at(0);
        const auto* zero = typeStats(tm, "SciZero");
        const auto* nonZero = typeStats(tm, "SciNonZero");
        QVERIFY(zero && nonZero);
        QCOMPARE(zero->counters.packetsReceived, u64{100});
        QCOMPARE(nonZero->counters.packetsReceived, u64{60});
        QCOMPARE(zero->mode, std::string("passThru"));
        QCOMPARE(nonZero->mode, std::string("processEntirePacket"));
        QCOMPARE(zero->counters.parametersDecoded, u64{0});
        QCOMPARE(nonZero->counters.parametersDecoded, u64{60 * 2});
        QCOMPARE(zero->apid, 1424u);
        QCOMPARE(nonZero->apid, 1424u);
        station->stop();
    }

    // packet > (APID, secondary id) > APID, whatever the order in the profile.
    void mostSpecificSettingWins()
    {
        auto station = create(profileWith({byName("Id2", ProcessingMode::ProcessEntirePacket),
                                           byApid(700, 2, ProcessingMode::ProcessOnDemand),
                                           byApid(700, 1, ProcessingMode::ProcessOnDemand),
                                           byApid(700, std::nullopt, ProcessingMode::PassThru)}));
        QVERIFY(station);
        QCOMPARE(modeOf(*station, "Id1"), name(ProcessingMode::ProcessOnDemand));
        QCOMPARE(modeOf(*station, "Id2"), name(ProcessingMode::ProcessEntirePacket));
        QCOMPARE(modeOf(*station, "Id3"), name(ProcessingMode::PassThru));
    }

    // Live: a change applies to the types it names that have no more specific setting of their own.
    void liveSettingsKeepPrecedence()
    {
        auto station = create(profileWith({byName("Id2", ProcessingMode::ProcessEntirePacket),
                                           byApid(700, 1, ProcessingMode::ProcessOnDemand)}));
        QVERIFY(station);
        // An APID setting: Id3 (nothing of its own), not Id1 (secondary id) nor Id2 (name).
        QVERIFY(station->setPacketSettings("tm", byApid(700, std::nullopt, ProcessingMode::PassThru)));
        QCOMPARE(modeOf(*station, "Id1"), name(ProcessingMode::ProcessOnDemand));
        QCOMPARE(modeOf(*station, "Id2"), name(ProcessingMode::ProcessEntirePacket));
        QCOMPARE(modeOf(*station, "Id3"), name(ProcessingMode::PassThru));
        // (APID, secondary id) does not beat the name.
        QVERIFY(station->setPacketSettings("tm", byApid(700, 2, ProcessingMode::PassThru)));
        QCOMPARE(modeOf(*station, "Id2"), name(ProcessingMode::ProcessEntirePacket));
        // The name beats (APID, secondary id); the others stay.
        QVERIFY(station->setPacketSettings("tm", byName("Id1", ProcessingMode::PassThru)));
        QCOMPARE(modeOf(*station, "Id1"), name(ProcessingMode::PassThru));
        QCOMPARE(modeOf(*station, "Id3"), name(ProcessingMode::PassThru));
        // A changed name setting replaces itself.
        QVERIFY(station->setPacketSettings("tm", byName("Id2", ProcessingMode::ProcessOnDemand)));
        QCOMPARE(modeOf(*station, "Id2"), name(ProcessingMode::ProcessOnDemand));

        // One type of a criteria APID by name leaves the other.
        QVERIFY(station->setPacketSettings("tm", byApid(1424, std::nullopt, ProcessingMode::ProcessOnDemand)));
        QVERIFY(station->setPacketSettings("tm", byName("SciZero", ProcessingMode::PassThru)));
        QCOMPARE(modeOf(*station, "SciZero"), name(ProcessingMode::PassThru));
        QCOMPARE(modeOf(*station, "SciNonZero"), name(ProcessingMode::ProcessOnDemand));
        // ... and an APID setting after it leaves the named one.
        QVERIFY(station->setPacketSettings("tm", byApid(1424, std::nullopt, ProcessingMode::ProcessEntirePacket)));
        QCOMPARE(modeOf(*station, "SciZero"), name(ProcessingMode::PassThru));
        QCOMPARE(modeOf(*station, "SciNonZero"), name(ProcessingMode::ProcessEntirePacket));

        // The profile: one entry per key, the name settings by name alone; it saves and reads back.
        PacketSettings id1 = byName("Id1", ProcessingMode::PassThru);
        PacketSettings stray = id1;
        stray.apid = 700; // not part of a name setting's key: dropped
        QVERIFY(station->setPacketSettings("tm", stray));
        const config::StationProfile profile = station->profile();
        const auto& packets = profile.streams.at(0).packets;
        QCOMPARE(packets.size(), std::size_t{7});
        QVERIFY(packets[0] == byName("Id2", ProcessingMode::ProcessOnDemand));
        QVERIFY(packets[4] == id1);
        QVERIFY(packets[6] == byName("SciZero", ProcessingMode::PassThru));
        const auto reread = config::parseProfile(config::profileToJson(profile));
        QVERIFY(reread.ok());
        QVERIFY(reread.profile == profile);
        // The profile as it is now makes the same station.
        auto again = create(profile);
        QVERIFY(again);
        for (const char* packet : {"Id1", "Id2", "Id3", "SciZero", "SciNonZero"})
            QCOMPARE(modeOf(*again, packet), modeOf(*station, packet));
    }

    // A name the database does not define: refused where the profile meets the database.
    void undefinedNameRefused()
    {
        const auto created =
            pipeline::Station::create(profileWith({byName("Sci0TypeZero", ProcessingMode::PassThru)}), database());
        QVERIFY(!created);
        const QString message = QString::fromStdString(created.error().message);
        QVERIFY2(message.contains("stream tm") && message.contains("packet type Sci0TypeZero")
                     && message.contains("no packet definition"),
                 qPrintable(message));

        auto station = create(profileWith({}));
        QVERIFY(station);
        const auto refused = station->setPacketSettings("tm", byName("Sci0TypeZero", ProcessingMode::PassThru));
        QVERIFY(!refused);
        const QString live = QString::fromStdString(refused.error().message);
        QVERIFY2(live.contains("stream tm") && live.contains("packet type Sci0TypeZero"), qPrintable(live));
        QVERIFY(station->profile().streams.at(0).packets.empty());
        // An APID still says what it always said.
        const auto apid = station->setPacketSettings("tm", byApid(5, std::nullopt, ProcessingMode::PassThru));
        QVERIFY(!apid);
        QCOMPARE(apid.error().message, std::string("APID 5 has no packet definition in the mission database"));
    }
};

QTEST_GUILESS_MAIN(TestPipelinePacketSettings)
#include "tst_pipeline_packet_settings.moc"
