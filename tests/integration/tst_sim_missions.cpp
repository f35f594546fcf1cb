// The training simulator speaks real missions: JPSS-1 and IMAP-IDEX, opened from their XTCE files (as
// `telestation-sim --mdb mission.xml` does), generate packets that the station's classification puts
// in the right packet type with no unknown or malformed packet, whose variable layouts fit exactly,
// and whose parameters move. And the encoder → decoder identity for every parameter of both missions.
#include "core/config/mission_file.hpp"
#include "core/decode/decode_plan.hpp"
#include "core/decode/encoder.hpp"
#include "core/pipeline/packet_types.hpp"
#include "sim/engine/rate.hpp"
#include "sim/engine/sim_stream.hpp"
#include "tests/support/capture_receiver.hpp"
#include "tests/support/test_paths.hpp"

#include <QtTest>

#include <map>
#include <random>
#include <set>

using namespace telestation;

namespace {

const std::string kData = test::referenceDataDir();

mdb::MissionDatabase loadXtce(const std::string& relative)
{
    config::MissionLoadOptions options;
    options.useCache = false; // the reference data folder is read-only in CI
    auto mission = config::loadMission(kData + "/" + relative, options);
    if (!mission.ok())
        qFatal("%s", mission.error().toString().c_str());
    return std::move(*mission.database);
}

std::uint16_t apidOf(const std::vector<std::uint8_t>& b)
{
    return static_cast<std::uint16_t>(((b[0] & 0x07) << 8) | b[1]);
}

} // namespace

class TestSimMissions : public QObject {
    Q_OBJECT

private slots:
    void generatedPacketsAreClassifiedAndFit_data()
    {
        QTest::addColumn<QString>("definition");
        QTest::addColumn<int>("types");
        QTest::newRow("JPSS-1") << QStringLiteral("missions/jpss1/jpss1_geolocation_xtce_v1.xml") << 1;
        QTest::newRow("IDEX") << QStringLiteral("missions/idex/idex_combined_science_definition.xml") << 5;
    }

    void generatedPacketsAreClassifiedAndFit()
    {
        QFETCH(QString, definition);
        QFETCH(int, types);
        const mdb::MissionDatabase db = loadXtce(definition.toStdString());
        QCOMPARE(int(db.packets.size()), types);
        auto table = pipeline::PacketTypeTable::build(db);
        QVERIFY2(table.ok(), table ? "" : table.error().message.c_str());

        test::UdpCapture capture;
        sim::StreamConfig config;
        config.name = "mission";
        config.destination = "udp://127.0.0.1:" + std::to_string(capture.port());
        config.rate = sim::parseRate("2000pps").value();
        for (const auto& p : db.packets)
            config.mix.push_back({p.name, 1});
        const std::uint64_t perType = 60;
        config.count = perType * db.packets.size();
        auto stream = sim::SimStream::create(config, db);
        QVERIFY2(stream.ok(), stream ? "" : stream.error().toString().c_str());
        (*stream)->start();
        (*stream)->wait();
        QTRY_COMPARE_WITH_TIMEOUT(capture.count(), std::size_t(*config.count), 10000);

        std::map<std::string, int> perName;
        std::map<std::string, std::set<std::uint64_t>> rawsSeen; // per parameter: distinct raw values
        std::vector<decode::DecodedValue> values(table->maxParametersPerPacket());
        for (const auto& d : capture.datagrams()) {
            const std::uint32_t type = table->classify(d.bytes);
            QVERIFY2(type != pipeline::kUnknownType, qPrintable(QStringLiteral("APID %1 unknown").arg(apidOf(d.bytes))));
            const auto& def = table->definition(type);
            const auto& plan = table->plan(type);
            ++perName[def.name];
            // The CCSDS length field agrees with the datagram, and the layout fills it exactly.
            const std::size_t lengthField = (std::size_t(d.bytes[4]) << 8 | d.bytes[5]) + 7;
            QCOMPARE(lengthField, d.bytes.size());
            decode::LayoutReport report;
            const std::size_t present = plan.decode(d.bytes, values, &report);
            QVERIFY2(report.status == decode::LayoutStatus::Complete,
                     qPrintable(QString::fromStdString(def.name + ": " + std::string(decode::layoutStatusText(report.status)))));
            QCOMPARE(present, plan.parameterCount());
            QCOMPARE(std::size_t(report.endByte()), d.bytes.size());
            for (std::size_t i = 0; i < present; ++i)
                rawsSeen[def.name + "." + def.parameters[i].name].insert(values[i].raw);
        }
        // Every type was sent and recognised as itself, as often as it was sent.
        for (const auto& p : db.packets)
            QCOMPARE(perName[p.name], int(perType));
        // Parameters move: most take several values (constant ones are the header, spares that the
        // criteria hold, and fields the station needs to tell types apart).
        std::size_t moving = 0;
        for (const auto& [name, raws] : rawsSeen)
            moving += raws.size() > 1 ? 1 : 0;
        qInfo("%zu of %zu parameters took more than one value", moving, rawsSeen.size());
        QVERIFY(moving * 2 > rawsSeen.size());
    }

    void encodeDecodeIdentity_data()
    {
        QTest::addColumn<QString>("definition");
        QTest::newRow("JPSS-1") << QStringLiteral("missions/jpss1/jpss1_geolocation_xtce_v1.xml");
        QTest::newRow("IDEX") << QStringLiteral("missions/idex/idex_combined_science_definition.xml");
    }

    // Random raw values into every parameter of every packet type (in layout order, sizes first), read
    // back bit for bit.
    void encodeDecodeIdentity()
    {
        QFETCH(QString, definition);
        const mdb::MissionDatabase db = loadXtce(definition.toStdString());
        std::mt19937_64 rng(7);
        for (const auto& def : db.packets) {
            auto encoder = decode::EncodePlan::compile(def);
            auto decoder = decode::DecodePlan::compile(def);
            QVERIFY(encoder.ok() && decoder.ok());
            for (int round = 0; round < 50; ++round) {
                std::vector<std::uint8_t> packet(2048, 0);
                std::vector<std::uint64_t> written(def.parameters.size(), 0);
                for (std::size_t i = 0; i < def.parameters.size(); ++i) {
                    const auto& p = def.parameters[i];
                    if (mdb::isByteSequence(p.type)) {
                        std::vector<std::uint8_t> bytes(64);
                        for (auto& b : bytes)
                            b = static_cast<std::uint8_t>(rng());
                        encoder->setBytes(packet, i, bytes);
                        continue;
                    }
                    std::uint64_t raw = rng();
                    if (p.bitLength < 64)
                        raw &= (std::uint64_t{1} << p.bitLength) - 1;
                    // Sizes: a field sized by this one stays within the buffer (IDEX: 8 * PKT_LEN - 328 bits).
                    for (const auto& q : def.parameters)
                        if (q.size.kind == mdb::SizeKind::FromParameter && q.size.sizeParameter == p.name)
                            raw = 41 + raw % 200;
                    encoder->setRaw(packet, i, raw);
                    written[i] = raw;
                }
                std::vector<decode::DecodedValue> out(def.parameters.size());
                decode::LayoutReport report;
                QCOMPARE(decoder->decode(packet, out, &report), def.parameters.size());
                QCOMPARE(report.status, decode::LayoutStatus::Complete);
                for (std::size_t i = 0; i < def.parameters.size(); ++i)
                    if (!mdb::isByteSequence(def.parameters[i].type))
                        QVERIFY2(out[i].raw == written[i], qPrintable(QString::fromStdString(def.name + "." + def.parameters[i].name)));
            }
        }
    }
};

QTEST_GUILESS_MAIN(TestSimMissions)
#include "tst_sim_missions.moc"
