// The packet view against a real station (two UDP streams on loopback, one with a 4-byte transport
// header; the training mission database). The test builds the packets itself and sends them with the
// io sender, so it knows every byte: the header fields, the packet time, the transport header and the
// dump must show exactly those. Also: the count of packets seen grows, a hidden view has no
// subscription and no timer, the combos re-target the view, spec() round-trips, and the destructor
// removes the subscription from the station.
#include "core/api/consumer.hpp"
#include "core/ccsds/cuc_time.hpp"
#include "core/ccsds/space_packet.hpp"
#include "core/config/station_profile.hpp"
#include "core/io/endpoint.hpp"
#include "core/io/sender.hpp"
#include "core/pipeline/station.hpp"
#include "ui/displays/packet_view.hpp"
#include "tests/support/station_fixture.hpp"

#include <QComboBox>
#include <QJsonObject>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QtTest>

#include <chrono>
#include <memory>
#include <string>
#include <thread>
#include <vector>

using namespace telestation;
using namespace std::chrono_literals;
using ui::PacketView;

namespace {

constexpr std::uint16_t kHkApid = 100; // HK_Status: 32 bytes, no secondary header
constexpr std::size_t kHkLength = 32;
constexpr std::uint16_t kP5Apid = 7; // Packet5: 1288 bytes, CUC 4+2 TAI secondary header
constexpr std::size_t kP5Length = 1288;
constexpr std::uint16_t kDiagApid = 600; // Diag_Power: 24 bytes, secondary id 1 at bits 48..55
constexpr std::size_t kDiagLength = 24;

// A packet with the given header and a payload that has printable and unprintable bytes.
std::vector<std::uint8_t> makePacket(
    std::uint16_t apid, std::size_t length, std::uint16_t sequence, bool secondaryHeader)
{
    std::vector<std::uint8_t> p(length);
    ccsds::PrimaryHeader h;
    h.apid = apid;
    h.secondaryHeader = secondaryHeader;
    h.sequenceCount = sequence;
    h.dataLength = static_cast<std::uint16_t>(length - 7);
    ccsds::writePrimaryHeader(h, p.data());
    for (std::size_t i = ccsds::kPrimaryHeaderSize; i < length; ++i)
        p[i] = static_cast<std::uint8_t>((i * 37 + sequence) & 0xFF);
    return p;
}

std::vector<std::uint8_t> makePacket5(std::uint16_t sequence, std::int64_t timeNs)
{
    auto p = makePacket(kP5Apid, kP5Length, sequence, true);
    const ccsds::CucFormat cuc { 4, 2, false, ccsds::kTai1958UnixSeconds };
    if (!ccsds::encodeCuc(timeNs, cuc, std::span<std::uint8_t>(p).subspan(6, 6)))
        qFatal("cannot encode the packet time");
    return p;
}

// The dump line the view must show for up to 16 bytes at `offset`, written out independently here.
QString dumpLine(std::span<const std::uint8_t> bytes, std::size_t offset)
{
    QString hex;
    QString ascii;
    for (std::size_t i = 0; i < 16; ++i) {
        if (i == 8)
            hex += QLatin1Char(' ');
        if (offset + i < bytes.size()) {
            const std::uint8_t b = bytes[offset + i];
            hex += QString::asprintf("%02X ", b);
            ascii += QLatin1Char((b >= 32 && b <= 126) ? static_cast<char>(b) : '.');
        } else {
            hex += QStringLiteral("   ");
        }
    }
    return QString::asprintf("%04zX  ", offset) + hex + QLatin1Char(' ') + ascii;
}

class Sender {
public:
    explicit Sender(std::uint16_t port)
    {
        auto endpoint = io::parseEndpoint("udp://127.0.0.1:" + std::to_string(port));
        if (!endpoint)
            qFatal("endpoint: %s", endpoint.error().message.c_str());
        auto sender = io::openSender(*endpoint);
        if (!sender)
            qFatal("sender: %s", sender.error().message.c_str());
        m_sender = std::move(*sender);
    }
    void send(const std::vector<std::vector<std::uint8_t>>& packets)
    {
        std::vector<std::span<const std::uint8_t>> spans;
        for (const auto& p : packets)
            spans.emplace_back(p);
        QCOMPARE(m_sender->send(spans), spans.size());
    }

private:
    std::unique_ptr<io::Sender> m_sender;
};

bool hasConsumer(const pipeline::Station& station, const std::string& name)
{
    for (const auto& c : station.snapshot().consumers)
        if (c.name == name)
            return true;
    return false;
}

} // namespace

class TestPacketView : public QObject {
    Q_OBJECT

    mdb::MissionDatabase m_db;
    std::unique_ptr<pipeline::Station> m_station;
    std::unique_ptr<ui::SnapshotFeed> m_feed; // the session's once-a-second snapshots
    std::unique_ptr<Sender> m_tm; // to stream "tm"
    std::unique_ptr<Sender> m_th; // to stream "th" (4-byte transport header)
    std::uint16_t m_sequence = 0;

    // Sends and waits until the station has processed everything it received.
    void send(Sender& to, const std::vector<std::vector<std::uint8_t>>& packets, const std::string& stream)
    {
        const auto snapshot = m_station->snapshot();
        const auto* before = test::streamStats(snapshot, stream);
        QVERIFY(before);
        to.send(packets);
        QVERIFY2(test::settle(*m_station, stream, test::arrivals(*before) + packets.size()),
                 "the station did not process the packets");
    }

    std::vector<std::vector<std::uint8_t>> hkPackets(int count)
    {
        std::vector<std::vector<std::uint8_t>> out;
        for (int i = 0; i < count; ++i)
            out.push_back(makePacket(kHkApid, kHkLength, m_sequence++, false));
        return out;
    }

private Q_SLOTS:
    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true);
        m_db = test::trainingDatabase();
    }

    void init()
    {
        config::StationProfile profile;
        config::StreamProfile tm;
        tm.name = "tm";
        tm.source = "udp://127.0.0.1:0";
        tm.packets.push_back({ kHkApid, std::nullopt, config::ProcessingMode::PassThru, false, {} });
        profile.streams.push_back(tm);
        config::StreamProfile th;
        th.name = "th";
        th.source = "udp://127.0.0.1:0";
        th.transportHeaderBytes = 4;
        profile.streams.push_back(th);
        auto station = pipeline::Station::create(profile, m_db);
        QVERIFY2(station, station ? "" : station.error().message.c_str());
        m_station = std::move(*station);
        const auto started = m_station->start();
        QVERIFY2(started, started ? "" : started.error().message.c_str());
        m_feed = std::make_unique<ui::SnapshotFeed>([this] { return std::optional(m_station->snapshot()); });
        m_feed->start();
        m_tm = std::make_unique<Sender>(m_station->localPort("tm"));
        m_th = std::make_unique<Sender>(m_station->localPort("th"));
        m_sequence = 10;
    }

    void cleanup()
    {
        m_tm.reset();
        m_th.reset();
        m_feed.reset();
        m_station.reset();
    }

    // The header fields and the dump are those of the newest packet sent; the count grows.
    void showsTheNewestPacket()
    {
        PacketView view(*m_station, *m_feed, QStringLiteral("tm"), QStringLiteral("HK_Status"));
        view.resize(760, 520);
        view.show();
        QVERIFY(QTest::qWaitForWindowExposed(&view));
        QVERIFY(view.hasSubscription());
        QCOMPARE(view.headerField(QStringLiteral("apid")), QStringLiteral("—"));
        QVERIFY(view.dumpText().isEmpty());

        // The test's own newest-packet subscription sees what the view should show.
        api::PacketSubscription::Options options;
        options.name = "test newest";
        options.stream = "tm";
        options.packet = "HK_Status";
        options.delivery = api::Delivery::Newest;
        auto mine = api::PacketSubscription::create(*m_station, options);
        QVERIFY(mine);

        const auto sent = hkPackets(5);
        send(*m_tm, sent, "tm");
        std::vector<std::uint8_t> newest;
        std::int64_t receiveNs = 0;
        QCOMPARE((*mine)->poll([&](const api::PacketView& p) {
            newest.assign(p.packet.begin(), p.packet.end());
            receiveNs = p.receiveTimeNs;
        }),
            std::size_t { 1 });
        QCOMPARE(newest, sent.back());

        const QString lastSequence = QString::number(m_sequence - 1);
        QTRY_COMPARE(view.headerField(QStringLiteral("sequenceCount")), lastSequence);
        QCOMPARE(view.headerField(QStringLiteral("version")), QStringLiteral("0"));
        QCOMPARE(view.headerField(QStringLiteral("type")), QStringLiteral("0 (telemetry)"));
        QCOMPARE(view.headerField(QStringLiteral("secondaryHeader")), QStringLiteral("0 (absent)"));
        QCOMPARE(view.headerField(QStringLiteral("apid")), QStringLiteral("100 (0x064)"));
        QCOMPARE(view.headerField(QStringLiteral("sequenceFlags")), QStringLiteral("3 (unsegmented)"));
        QCOMPARE(view.headerField(QStringLiteral("packetLength")), QStringLiteral("32 bytes (data length field 25)"));
        QCOMPARE(view.headerField(QStringLiteral("transportHeader")), QStringLiteral("none"));
        QCOMPARE(view.headerField(QStringLiteral("secondaryId")), QStringLiteral("—"));
        QCOMPARE(view.headerField(QStringLiteral("packetTime")), QStringLiteral("—"));
        QCOMPARE(view.headerField(QStringLiteral("receiveTime")),
            QDateTime::fromMSecsSinceEpoch(receiveNs / 1'000'000, Qt::UTC)
                .toString(QStringLiteral("yyyy-MM-dd HH:mm:ss.zzz 'UTC'")));

        const QStringList lines = view.dumpText().split(QLatin1Char('\n'));
        QCOMPARE(lines.size(), 2);
        QCOMPARE(lines[0], dumpLine(newest, 0));
        QCOMPARE(lines[1], dumpLine(newest, 16));
        QVERIFY(lines[0].startsWith(QStringLiteral("0000  00 64 C0 ")));

        QTRY_COMPARE(view.packetsSeen(), std::uint64_t { 5 });
        send(*m_tm, hkPackets(3), "tm");
        QTRY_COMPARE(view.packetsSeen(), std::uint64_t { 8 });
        QTRY_COMPARE(view.headerField(QStringLiteral("sequenceCount")), QString::number(m_sequence - 1));
        QVERIFY2(view.statusText().startsWith(QStringLiteral("8 packets seen, last ")), qPrintable(view.statusText()));
        QVERIFY(view.statusText().endsWith(QStringLiteral(" ago")));
        view.grab().save(QStringLiteral("/tmp/h-playback-packet-view-hk.png"));
    }

    // A packet with a CUC time behind a transport header: the packet time is decoded, the transport
    // header shown apart, the dump starts at the primary header. A secondary id is shown for its type.
    void packetTimeTransportHeaderAndSecondaryId()
    {
        const std::int64_t timeNs = 1795348800'250000000; // 2026-11-22T12:00:00.25Z
        const auto packet = makePacket5(321, timeNs);
        std::vector<std::uint8_t> frame { 0xDE, 0xAD, 0xBE, 0xEF };
        frame.insert(frame.end(), packet.begin(), packet.end());

        PacketView view(*m_station, *m_feed, QStringLiteral("th"), QStringLiteral("Packet5"));
        view.resize(760, 620);
        view.show();
        QVERIFY(QTest::qWaitForWindowExposed(&view));
        send(*m_th, { frame }, "th");
        QTRY_COMPARE(view.headerField(QStringLiteral("sequenceCount")), QStringLiteral("321"));
        QCOMPARE(view.headerField(QStringLiteral("apid")), QStringLiteral("7 (0x007)"));
        QCOMPARE(view.headerField(QStringLiteral("secondaryHeader")), QStringLiteral("1 (present)"));
        QCOMPARE(
            view.headerField(QStringLiteral("packetLength")), QStringLiteral("1288 bytes (data length field 1281)"));
        QCOMPARE(view.headerField(QStringLiteral("transportHeader")), QStringLiteral("4 bytes: DE AD BE EF"));
        const QString time = view.headerField(QStringLiteral("packetTime"));
        QVERIFY2(
            time.startsWith(QStringLiteral("2026-11-22 12:00:00.250 UTC (CUC 4+2, 1958 TAI epoch)")), qPrintable(time));
        const QStringList lines = view.dumpText().split(QLatin1Char('\n'));
        QCOMPARE(lines.size(), static_cast<int>((kP5Length + 15) / 16));
        QCOMPARE(lines.front(), dumpLine(packet, 0));
        QCOMPARE(lines.back(), dumpLine(packet, (kP5Length - 1) / 16 * 16));
        view.grab().save(QStringLiteral("/tmp/h-playback-packet-view-p5.png"));

        // Diag_Power shares APID 600 with Diag_Thermal; its secondary id is shown.
        view.setTarget(QStringLiteral("th"), QStringLiteral("Diag_Power"));
        auto diag = makePacket(kDiagApid, kDiagLength, 5, false);
        diag[6] = 1;
        std::vector<std::uint8_t> diagFrame { 1, 2, 3, 4 };
        diagFrame.insert(diagFrame.end(), diag.begin(), diag.end());
        send(*m_th, { diagFrame }, "th");
        QTRY_COMPARE(view.headerField(QStringLiteral("apid")), QStringLiteral("600 (0x258)"));
        QCOMPARE(view.headerField(QStringLiteral("secondaryId")), QStringLiteral("1 (bits 48..55)"));
        QCOMPARE(view.headerField(QStringLiteral("packetTime")), QStringLiteral("—"));
        QCOMPARE(view.dumpText().split(QLatin1Char('\n')).front(), dumpLine(diag, 0));
    }

    // Hidden: no timer, no subscription in the station, nothing taken; shown again it goes on.
    void hiddenViewDoesNotPoll()
    {
        PacketView view(*m_station, *m_feed, QStringLiteral("tm"), QStringLiteral("HK_Status"));
        const std::string consumer = "packet view tm HK_Status";
        QVERIFY(!view.hasSubscription()); // never shown yet
        QVERIFY(!hasConsumer(*m_station, consumer));
        view.show();
        QVERIFY(QTest::qWaitForWindowExposed(&view));
        QVERIFY(view.isPolling());
        QVERIFY(hasConsumer(*m_station, consumer));
        send(*m_tm, hkPackets(2), "tm");
        QTRY_COMPARE(view.headerField(QStringLiteral("sequenceCount")), QString::number(m_sequence - 1));
        QTRY_COMPARE(view.packetsSeen(), std::uint64_t { 2 });

        view.hide();
        QVERIFY(!view.isPolling());
        QVERIFY(!view.hasSubscription());
        QVERIFY(!hasConsumer(*m_station, consumer));
        const QString dump = view.dumpText();
        const QString sequence = view.headerField(QStringLiteral("sequenceCount"));
        send(*m_tm, hkPackets(4), "tm");
        QTest::qWait(400); // four timer periods
        m_feed->tick(); // a snapshot tick is not taken while hidden either
        QCOMPARE(view.dumpText(), dump);
        QCOMPARE(view.headerField(QStringLiteral("sequenceCount")), sequence);
        QCOMPARE(view.packetsSeen(), std::uint64_t { 2 });

        view.show();
        QVERIFY(QTest::qWaitForWindowExposed(&view));
        QVERIFY(view.isPolling());
        QVERIFY(hasConsumer(*m_station, consumer));
        QTRY_COMPARE(view.packetsSeen(), std::uint64_t { 6 }); // the station counted them meanwhile
        QCOMPARE(view.headerField(QStringLiteral("sequenceCount")), sequence); // kept; nothing new since
        send(*m_tm, hkPackets(1), "tm");
        QTRY_COMPARE(view.headerField(QStringLiteral("sequenceCount")), QString::number(m_sequence - 1));
    }

    // The combos point the view elsewhere: the subscription follows, the old packet is forgotten.
    void combosRetarget()
    {
        PacketView view(*m_station, *m_feed, QStringLiteral("tm"), QStringLiteral("HK_Status"));
        view.show();
        QVERIFY(QTest::qWaitForWindowExposed(&view));
        QCOMPARE(view.streamCombo()->currentText(), QStringLiteral("tm"));
        QCOMPARE(view.packetCombo()->currentText(), QStringLiteral("HK_Status"));
        QVERIFY(view.packetCombo()->findText(QStringLiteral("unknown")) >= 0);
        send(*m_tm, hkPackets(1), "tm");
        QTRY_COMPARE(view.headerField(QStringLiteral("apid")), QStringLiteral("100 (0x064)"));

        QSignalSpy changed(&view, &PacketView::specChanged);
        view.packetCombo()->setCurrentIndex(view.packetCombo()->findText(QStringLiteral("Packet5")));
        QCOMPARE(changed.count(), 1);
        QCOMPARE(view.packetName(), QStringLiteral("Packet5"));
        QCOMPARE(view.headerField(QStringLiteral("apid")), QStringLiteral("—"));
        QVERIFY(view.dumpText().isEmpty());
        QVERIFY(hasConsumer(*m_station, "packet view tm Packet5"));
        QVERIFY(!hasConsumer(*m_station, "packet view tm HK_Status"));
        send(*m_tm, hkPackets(2), "tm"); // not the chosen type: nothing shown
        const auto p5 = makePacket5(77, 1795348800'000000000);
        send(*m_tm, { p5 }, "tm");
        QTRY_COMPARE(view.headerField(QStringLiteral("apid")), QStringLiteral("7 (0x007)"));
        QCOMPARE(view.headerField(QStringLiteral("sequenceCount")), QStringLiteral("77"));
        QTRY_COMPARE(view.packetsSeen(), std::uint64_t { 1 });

        view.streamCombo()->setCurrentIndex(view.streamCombo()->findText(QStringLiteral("th")));
        QCOMPARE(changed.count(), 2);
        QCOMPARE(view.stream(), QStringLiteral("th"));
        QCOMPARE(view.headerField(QStringLiteral("apid")), QStringLiteral("—"));
        QVERIFY(hasConsumer(*m_station, "packet view th Packet5"));
        QTRY_COMPARE(view.packetsSeen(), std::uint64_t { 0 }); // "th" has had no Packet5
    }

    void specRoundTripsAndBadSpecs()
    {
        PacketView view(*m_station, *m_feed, QStringLiteral("th"), QStringLiteral("GNC_State"));
        const QJsonObject spec = view.spec();
        QCOMPARE(spec,
            (QJsonObject { { QStringLiteral("stream"), QStringLiteral("th") },
                { QStringLiteral("packet"), QStringLiteral("GNC_State") } }));
        std::unique_ptr<PacketView> copy(PacketView::fromSpec(*m_station, *m_feed, spec));
        QVERIFY(copy);
        QCOMPARE(copy->stream(), QStringLiteral("th"));
        QCOMPARE(copy->packetName(), QStringLiteral("GNC_State"));
        QCOMPARE(copy->packetCombo()->currentText(), QStringLiteral("GNC_State"));
        QCOMPARE(copy->spec(), spec);

        QVERIFY(!PacketView::fromSpec(*m_station, *m_feed, QJsonObject { { QStringLiteral("stream"), QStringLiteral("tm") } }));
        QVERIFY(!PacketView::fromSpec(*m_station, *m_feed,
            QJsonObject { { QStringLiteral("stream"), 3 }, { QStringLiteral("packet"), QStringLiteral("x") } }));

        // A packet the database no longer has: the view says so and keeps the spec for the next save.
        std::unique_ptr<PacketView> stale(PacketView::fromSpec(*m_station, *m_feed,
            QJsonObject { { QStringLiteral("stream"), QStringLiteral("tm") },
                { QStringLiteral("packet"), QStringLiteral("Gone") } }));
        QVERIFY(stale);
        stale->show();
        QVERIFY(QTest::qWaitForWindowExposed(stale.get()));
        QVERIFY(!stale->hasSubscription());
        QVERIFY2(stale->message().contains(QStringLiteral("no packet named 'Gone'")), qPrintable(stale->message()));
        QCOMPARE(stale->spec().value(QStringLiteral("packet")).toString(), QStringLiteral("Gone"));
    }

    void destructorRemovesTheSubscription()
    {
        auto view = std::make_unique<PacketView>(*m_station, *m_feed, QStringLiteral("tm"), QStringLiteral("HK_Status"));
        view->show();
        QVERIFY(QTest::qWaitForWindowExposed(view.get()));
        QVERIFY(hasConsumer(*m_station, "packet view tm HK_Status"));
        view.reset();
        QVERIFY(!hasConsumer(*m_station, "packet view tm HK_Status"));
        QVERIFY(m_station->snapshot().consumers.empty());
    }

    void hexDumpLayout()
    {
        std::vector<std::uint8_t> bytes(70000);
        for (std::size_t i = 0; i < bytes.size(); ++i)
            bytes[i] = static_cast<std::uint8_t>(i);
        const QStringList lines = PacketView::hexDump(bytes).split(QLatin1Char('\n'));
        QCOMPARE(lines.size(), 4375);
        // Past 64 KiB the offsets take five digits, on every line.
        QVERIFY(lines.front().startsWith(QStringLiteral("00000  00 01 02")));
        QVERIFY(lines.back().startsWith(QStringLiteral("11160  60 61 62")));
        const std::vector<std::uint8_t> three { 0x41, 0x00, 0x7E };
        QCOMPARE(PacketView::hexDump(three), dumpLine(three, 0));
        QVERIFY(PacketView::hexDump({}).isEmpty());
    }
};

QTEST_MAIN(TestPacketView)
#include "tst_ui_packet_view.moc"
