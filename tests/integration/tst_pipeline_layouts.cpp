// Packets against their layouts in the station: a variable layout (a field sized by another parameter,
// as IDEX's science data) that the packet is too short for is counted malformed; a packet longer than
// its layout — fixed (found by the router) or variable (found when decoded) — is processed normally and
// counted as a long packet with its extra bytes; packet types that share an APID are told apart by
// their criteria. Real UDP datagrams on loopback into a running station.
#include "core/ccsds/space_packet.hpp"
#include "core/config/station_profile.hpp"
#include "core/pipeline/station.hpp"
#include "tests/support/model_builders.hpp"
#include "tests/support/station_fixture.hpp"

#include <QTemporaryDir>
#include <QtTest>

#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>


using namespace telestation;
using namespace std::chrono_literals;

namespace {

// APID 20, as an XTCE import gives it: byte 6 tells two types apart ("== 1": fixed, 10 bytes;
// "> 1": a count, that many bytes, a 16-bit trailer).
mdb::MissionDatabase mission()
{
    mdb::PacketDef fixed = test::makeOpenPacket("Fixed", 20, {test::makeParameter("KIND", 48, 8), test::makeParameter("VALUE", 56, 24)});
    fixed.length = 10;
    fixed.criteria = {{48, 8, mdb::CompareOp::Equal, 1}};
    mdb::PacketDef counted = test::makeOpenPacket("Counted", 20, {test::makeParameter("KIND", 48, 8), test::makeParameter("COUNT", 56, 8),
                                                                 test::makeSizedBytes("DATA", "COUNT"), test::makeFollowing("CRC", 0, 16)});
    counted.length = 10;
    counted.criteria = {{48, 8, mdb::CompareOp::Greater, 1}};
    mdb::MissionDatabase db;
    db.packets = {fixed, counted};
    return db;
}

std::vector<std::uint8_t> packet(std::uint16_t sequence, std::vector<std::uint8_t> body)
{
    std::vector<std::uint8_t> b(6);
    ccsds::PrimaryHeader h;
    h.apid = 20;
    h.sequenceCount = sequence;
    h.dataLength = static_cast<std::uint16_t>(6 + body.size() - 7);
    ccsds::writePrimaryHeader(h, b.data());
    b.insert(b.end(), body.begin(), body.end());
    return b;
}

std::vector<std::uint8_t> counted(std::uint16_t sequence, std::uint8_t count, std::size_t dataBytes, std::size_t extra = 0)
{
    std::vector<std::uint8_t> body{2, count};
    body.resize(2 + dataBytes, 0x55);
    body.push_back(0xC0);
    body.push_back(0xDE);
    body.resize(body.size() + extra, 0xEE);
    return packet(sequence, body);
}

} // namespace

class TestPipelineLayouts : public QObject {
    Q_OBJECT

private slots:
    void shortAndLongPacketsAreCounted()
    {
        QTemporaryDir dir;
        auto station = test::startStation(test::stationProfile(dir, {test::streamProfile("tm")}), mission());
        QVERIFY(station);
        auto& st = *station;

        std::vector<std::vector<std::uint8_t>> datagrams;
        std::uint16_t sequence = 0;
        for (int i = 0; i < 10; ++i)
            datagrams.push_back(counted(sequence++, static_cast<std::uint8_t>(i), static_cast<std::size_t>(i))); // fit
        datagrams.push_back(counted(sequence++, 40, 3));          // says 40 bytes, has 3 (and the CRC): short
        datagrams.push_back(counted(sequence++, 4, 4, 5));        // 5 bytes after its layout
        datagrams.push_back(packet(sequence++, {1, 0, 0, 7}));    // Fixed, exactly its layout
        datagrams.push_back(packet(sequence++, {1, 0, 0, 7, 9, 9})); // Fixed, 2 bytes longer
        const int fd = ::socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
        QVERIFY(fd >= 0);
        sockaddr_in to{};
        to.sin_family = AF_INET;
        to.sin_port = htons(st.localPort("tm"));
        to.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
        for (const auto& d : datagrams)
            QCOMPARE(::sendto(fd, d.data(), d.size(), 0, reinterpret_cast<const sockaddr*>(&to), sizeof to), ssize_t(d.size()));
        ::close(fd);

        QVERIFY(test::settle(st, "tm", datagrams.size()));
        const auto snap = st.snapshot();
        QCOMPARE(snap.totals.packetsReceived, std::uint64_t(datagrams.size()));
        QCOMPARE(snap.totals.unknown, std::uint64_t{0});
        const auto* tm = test::streamStats(snap, "tm");
        QVERIFY(tm);
        const auto* c = test::typeStats(*tm, "Counted");
        const auto* f = test::typeStats(*tm, "Fixed");
        QVERIFY(c && f);
        QCOMPARE(c->counters.packetsReceived, std::uint64_t{12});
        QCOMPARE(c->counters.packetsProcessed, std::uint64_t{12});
        QCOMPARE(c->counters.malformed, std::uint64_t{1});
        QCOMPARE(c->counters.layoutErrors, std::uint64_t{1}); // the reason: it did not fit its layout
        QCOMPARE(c->counters.longPackets, std::uint64_t{1});
        QCOMPARE(c->counters.extraBytes, std::uint64_t{5});
        QCOMPARE(f->counters.packetsReceived, std::uint64_t{2});
        QCOMPARE(f->counters.malformed, std::uint64_t{0});
        QCOMPARE(f->counters.longPackets, std::uint64_t{1});
        QCOMPARE(f->counters.extraBytes, std::uint64_t{2});
        QCOMPARE(snap.totals.malformed, std::uint64_t{1});
        QCOMPARE(snap.totals.layoutErrors, std::uint64_t{1});
        QCOMPARE(snap.totals.longPackets, std::uint64_t{2});
        QCOMPARE(snap.totals.extraBytes, std::uint64_t{7});
        QCOMPARE(snap.totals.packetsLost, std::uint64_t{0});
        st.stop();
    }
};

QTEST_GUILESS_MAIN(TestPipelineLayouts)
#include "tst_pipeline_layouts.moc"
