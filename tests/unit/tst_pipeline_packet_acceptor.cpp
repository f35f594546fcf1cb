// PacketAcceptor: the verdict on each packet before routing — header, classification, the length its
// definition allows (fixed, variable, extra bytes past a fixed layout) and the APID's sequence count —
// on made-up edge cases and on every real packet of IMAP-IDEX and JPSS-1, without threads.
#include "tests/support/model_builders.hpp"
#include "tests/support/pipeline_builders.hpp"
#include "core/config/mission_file.hpp"
#include "core/pipeline/packet_acceptor.hpp"
#include "tests/support/test_paths.hpp"

#include <QtTest>

#include <fstream>
#include <iterator>
#include <vector>

using namespace telestation;
using namespace telestation::pipeline;

namespace {

// A telemetry packet: APID, sequence count, `bodyBytes` zero bytes after the primary header; the length
// field says what is there unless `lengthField` overrides it.
std::vector<std::uint8_t> packet(std::uint16_t apid, std::uint16_t sequence, std::size_t bodyBytes, int lengthField = -1)
{
    std::vector<std::uint8_t> b(6 + bodyBytes, 0);
    b[0] = static_cast<std::uint8_t>(0x08 | (apid >> 8));
    b[1] = static_cast<std::uint8_t>(apid & 0xFF);
    b[2] = static_cast<std::uint8_t>(0xC0 | (sequence >> 8));
    b[3] = static_cast<std::uint8_t>(sequence & 0xFF);
    const auto length = lengthField >= 0 ? static_cast<std::size_t>(lengthField) : bodyBytes - 1;
    b[4] = static_cast<std::uint8_t>(length >> 8);
    b[5] = static_cast<std::uint8_t>(length);
    return b;
}

// Fixed: APID 10, 12 bytes. Variable, fixed layout: APID 20, 10..40 bytes, layout ends at byte 10.
// Variable layout: APID 30, a length byte then that many bytes.
mdb::MissionDatabase mission()
{
    mdb::MissionDatabase db;
    mdb::PacketDef fixed;
    fixed.name = "Fixed";
    fixed.apid = 10;
    fixed.length = 12;
    fixed.parameters = {test::makeParameter("A", 48, 16)};
    db.packets.push_back(fixed);
    mdb::PacketDef open = fixed;
    open.name = "Open";
    open.apid = 20;
    open.length = 10;
    open.variableLength = true;
    open.maxLength = 40;
    db.packets.push_back(open);
    db.packets.push_back(test::makeOpenPacket("Sized", 30, {test::makeParameter("N", 48, 8), test::makeSizedBytes("DATA", "N")}));
    return db;
}

std::vector<std::uint8_t> readFile(const QString& path)
{
    std::ifstream in(path.toStdString(), std::ios::binary);
    return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

const QString kReference = QString::fromStdString(test::referenceDataDir());

} // namespace

class TestPacketAcceptor : public QObject {
    Q_OBJECT

private slots:
    void aFixedPacketOfItsLengthIsAccepted()
    {
        const auto types = test::buildTypeTable(mission());
        PacketAcceptor acceptor(types);
        const PacketVerdict v = acceptor.accept(packet(10, 0, 6));
        QVERIFY(!v.malformed);
        QCOMPARE(types.typeName(v.type), std::string_view("Fixed"));
        QCOMPARE(v.apid, std::uint16_t{10});
        QCOMPARE(v.extraBytes, 0u);
        QVERIFY(v.tracked());
    }

    void aFixedPacketOfAnotherLengthIsMalformed()
    {
        const auto types = test::buildTypeTable(mission());
        PacketAcceptor acceptor(types);
        for (const std::size_t body : {std::size_t{5}, std::size_t{7}}) {
            const PacketVerdict v = acceptor.accept(packet(10, 0, body));
            QVERIFY(v.malformed);
            QVERIFY(!v.shorterThanLayout); // only variable layouts are "short"
            QCOMPARE(types.typeName(v.type), std::string_view("Fixed"));
        }
        QCOMPARE(acceptor.sequence(10).packets, 0u); // malformed packets are not tracked
    }

    void aBadHeaderIsMalformedWhateverItsType()
    {
        const auto types = test::buildTypeTable(mission());
        PacketAcceptor acceptor(types);
        QVERIFY(acceptor.accept(packet(10, 0, 6, 9)).malformed);          // length field ≠ bytes
        QVERIFY(acceptor.accept(std::vector<std::uint8_t>{0x08, 0x0A, 0xC0}).malformed); // shorter than a header
        QCOMPARE(acceptor.accept(std::vector<std::uint8_t>{}).type, kUnknownType);
        auto telecommand = packet(10, 0, 6);
        telecommand[0] |= 0x10;
        QVERIFY(acceptor.accept(telecommand).malformed);
    }

    void aVariablePacketIsAcceptedBetweenItsBounds()
    {
        const auto types = test::buildTypeTable(mission());
        PacketAcceptor acceptor(types);
        const PacketVerdict shortest = acceptor.accept(packet(20, 0, 4));
        QVERIFY(!shortest.malformed);
        QCOMPARE(shortest.extraBytes, 0u);
        // Its layout ends at byte 10: what is past it is counted, the packet still routed.
        const PacketVerdict longer = acceptor.accept(packet(20, 1, 30));
        QVERIFY(!longer.malformed);
        QCOMPARE(longer.extraBytes, 26u);
        const PacketVerdict tooShort = acceptor.accept(packet(20, 2, 3));
        QVERIFY(tooShort.malformed);
        QVERIFY(tooShort.shorterThanLayout);
        const PacketVerdict tooLong = acceptor.accept(packet(20, 3, 35));
        QVERIFY(tooLong.malformed);
        QVERIFY(!tooLong.shorterThanLayout);
    }

    void aVariableLayoutIsLeftToTheDecoder()
    {
        // Its end is known only when decoded: the acceptor counts no extra bytes for it.
        const auto types = test::buildTypeTable(mission());
        PacketAcceptor acceptor(types);
        auto p = packet(30, 0, 20);
        p[6] = 3; // N = 3: DATA is 3 bytes, the packet has 16 more
        const PacketVerdict v = acceptor.accept(p);
        QVERIFY(!v.malformed);
        QCOMPARE(types.typeName(v.type), std::string_view("Sized"));
        QCOMPARE(v.extraBytes, 0u);
    }

    void anUndefinedApidIsUnknownAndTracked()
    {
        const auto types = test::buildTypeTable(mission());
        PacketAcceptor acceptor(types);
        const PacketVerdict v = acceptor.accept(packet(99, 5, 3));
        QVERIFY(!v.malformed);
        QCOMPARE(v.type, kUnknownType);
        QCOMPARE(v.apid, std::uint16_t{99});
        QCOMPARE(acceptor.sequence(99).packets, 1u);
    }

    void sequenceGapsAndDuplicatesAreCountedPerApid()
    {
        const auto types = test::buildTypeTable(mission());
        PacketAcceptor acceptor(types);
        for (const std::uint16_t n : {0, 1, 2, 6, 6, 7})
            QVERIFY(!acceptor.accept(packet(10, n, 6)).malformed);
        QVERIFY(!acceptor.accept(packet(20, 100, 4)).malformed);
        const auto& fixed = acceptor.sequence(10);
        QCOMPARE(fixed.packets, 6u);
        QCOMPARE(fixed.lost, 3u);
        QCOMPARE(fixed.largestGap, 3u);
        QCOMPARE(fixed.duplicates, 1u);
        QCOMPARE(acceptor.sequence(20).packets, 1u);
        QCOMPARE(acceptor.sequence(20).sequenceErrors(), 0u);
    }

    void everyRealPacketIsAcceptedAndClassified_data()
    {
        QTest::addColumn<QString>("definition");
        QTest::addColumn<QString>("packets");
        QTest::newRow("IMAP-IDEX") << kReference + "/missions/idex/idex_combined_science_definition.xml"
                                   << kReference + "/missions/idex/sciData_2023_052_14_45_05";
        QTest::newRow("JPSS-1") << kReference + "/missions/jpss1/jpss1_geolocation_xtce_v1.xml"
                                << kReference + "/missions/jpss1/J01_G011_LZ_2021-04-09T00-00-00Z_V01.DAT1";
    }
    void everyRealPacketIsAcceptedAndClassified()
    {
        QFETCH(QString, definition);
        QFETCH(QString, packets);
        config::MissionLoadOptions options;
        options.useCache = false;
        options.lenient = true;
        auto loaded = config::loadMission(definition.toStdString(), options);
        QVERIFY2(loaded.database.has_value(), loaded.error().message.c_str());
        const auto types = test::buildTypeTable(*loaded.database);
        PacketAcceptor acceptor(types);
        const auto bytes = readFile(packets);
        QVERIFY(bytes.size() > 1000);
        std::size_t at = 0, count = 0;
        while (at + 6 <= bytes.size()) {
            const std::size_t size = 7 + (std::size_t{bytes[at + 4]} << 8 | bytes[at + 5]);
            QVERIFY(at + size <= bytes.size());
            const PacketVerdict v = acceptor.accept(std::span(bytes.data() + at, size));
            QVERIFY2(!v.malformed, qPrintable(QStringLiteral("packet %1 at byte %2").arg(count).arg(at)));
            QVERIFY2(v.type != kUnknownType, qPrintable(QStringLiteral("packet %1 at byte %2").arg(count).arg(at)));
            at += size;
            ++count;
        }
        QCOMPARE(at, bytes.size());
        QVERIFY(count > 10);
        // Mutilated: one byte short of its length field, every packet is malformed.
        const std::size_t first = 7 + (std::size_t{bytes[4]} << 8 | bytes[5]);
        QVERIFY(acceptor.accept(std::span(bytes.data(), first - 1)).malformed);
    }
};

QTEST_GUILESS_MAIN(TestPacketAcceptor)
#include "tst_pipeline_packet_acceptor.moc"
