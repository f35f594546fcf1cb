// The station's processing modes end to end over loopback, with the simulator as the sender: every
// combination of mode × record × forward, decoded values against generators with known values, Process
// On Demand reads, recordings read back (rollover included), TCP sources with a transport header,
// several streams at once, live settings, unknown packets, newest-value polling with a small buffer.
// Every count is compared exactly with the
// simulator's summary; every wait is bounded.
#include "core/api/consumer.hpp"
#include "core/config/station_profile.hpp"
#include "core/common/clock.hpp"
#include "core/pipeline/station.hpp"
#include "core/record/recording_catalog.hpp"
#include "core/record/segment_file.hpp"
#include "sim/engine/sim_stream.hpp"
#include "tests/support/capture_receiver.hpp"
#include "tests/support/sim_traffic.hpp"
#include "tests/support/station_fixture.hpp"
#include "tests/support/wait_until.hpp"

#include <QDir>
#include <QTemporaryDir>
#include <QtTest>

#include <algorithm>
#include <bit>
#include <chrono>
#include <cmath>
#include <functional>
#include <map>
#include <set>
#include <thread>

using namespace telestation;
using namespace std::chrono_literals;

namespace {

using u64 = std::uint64_t;
using config::ProcessingMode;
using test::settle;
using test::startStation;
using test::typeStats;
using test::udpUrl;
using test::waitUntil;

sim::GeneratorSpec constantGen(sim::ValueDomain domain, double value)
{
    sim::GeneratorSpec g;
    g.kind = sim::GeneratorKind::Constant;
    g.domain = domain;
    g.value = value;
    return g;
}

sim::GeneratorSpec counterGen(sim::ValueDomain domain, double start, double step)
{
    sim::GeneratorSpec g;
    g.kind = sim::GeneratorKind::Counter;
    g.domain = domain;
    g.start = start;
    g.step = step;
    return g;
}

// The counters of every defined packet type with this APID, summed (Diag_Power and Diag_Thermal share one).
stats::PacketCounters apidCounters(const stats::StreamStats& s, std::uint16_t apid)
{
    stats::PacketCounters sum;
    for (const auto& t : s.packetTypes) {
        if (t.name == "unknown" || t.apid != apid)
            continue;
        const auto& c = t.counters;
        sum.packetsReceived += c.packetsReceived;
        sum.bytesReceived += c.bytesReceived;
        sum.packetsProcessed += c.packetsProcessed;
        sum.packetsRecorded += c.packetsRecorded;
        sum.bytesRecorded += c.bytesRecorded;
        sum.packetsForwarded += c.packetsForwarded;
        sum.bytesForwarded += c.bytesForwarded;
        sum.parametersDecoded += c.parametersDecoded;
    }
    return sum;
}

// A copy of one packet as a PacketSubscription delivered it.
struct PacketCopy {
    std::vector<std::uint8_t> frame; // transport header + packet
    std::size_t headerBytes = 0;
    std::int64_t receiveTimeNs = 0;
    std::uint16_t streamId = 0;
    std::uint16_t apid = 0;
    std::uint32_t typeIndex = 0;
};

std::vector<PacketCopy> drain(api::PacketSubscription& sub)
{
    std::vector<PacketCopy> out;
    while (sub.poll(
               [&](const api::PacketView& v) {
                   PacketCopy c;
                   c.frame.assign(v.frame.begin(), v.frame.end());
                   c.headerBytes = v.frame.size() - v.packet.size();
                   c.receiveTimeNs = v.receiveTimeNs;
                   c.streamId = v.streamId;
                   c.apid = v.apid;
                   c.typeIndex = v.typeIndex;
                   out.push_back(std::move(c));
               },
               4096)
           > 0) {
    }
    return out;
}

std::unique_ptr<api::PacketSubscription> packetSubscription(pipeline::Station& st, const std::string& stream,
                                                            const std::string& packet = {})
{
    api::PacketSubscription::Options o;
    o.name = "test-" + stream + "-" + packet;
    o.stream = stream;
    o.packet = packet;
    o.capacity = 20000; // every packet of a run stays queued until the test reads them
    auto sub = api::PacketSubscription::create(st, o);
    if (!sub) {
        qWarning("packet subscription: %s", sub.error().message.c_str());
        return nullptr;
    }
    return std::move(*sub);
}

std::uint16_t headerApid(std::span<const std::uint8_t> packet)
{
    return static_cast<std::uint16_t>(((packet[0] & 0x07) << 8) | packet[1]);
}

struct RecordCopy {
    record::RecordMeta meta;
    std::vector<std::uint8_t> payload;
};

// Reads back every record of a stream's segments in sequence order. Returns "" or what went wrong.
std::string readRecording(const std::string& directory, const std::string& stream,
                          std::vector<record::SegmentInfo>& segments, std::vector<RecordCopy>& records)
{
    auto catalog = record::RecordingCatalog::open(directory);
    if (!catalog)
        return "catalog: " + catalog.error().toString();
    for (const auto& s : (*catalog)->segments())
        if (s.streamName == stream)
            segments.push_back(s);
    std::sort(segments.begin(), segments.end(), [](const auto& a, const auto& b) { return a.sequence < b.sequence; });
    for (const auto& s : segments) {
        auto reader = record::SegmentReader::open(QDir(QString::fromStdString(directory)).filePath(QString::fromStdString(s.file)).toStdString());
        if (!reader)
            return "segment " + s.file + ": " + reader.error().toString();
        if ((*reader)->header().streamName != stream)
            return "segment " + s.file + " names stream " + (*reader)->header().streamName;
        if ((*reader)->header().sequence != s.sequence)
            return "segment " + s.file + ": header sequence differs from the catalog's";
        RecordCopy r;
        u64 n = 0;
        while ((*reader)->next(r.meta, r.payload)) {
            records.push_back(r);
            ++n;
        }
        if ((*reader)->end() != record::SegmentEnd::Clean)
            return "segment " + s.file + ": " + (*reader)->problem();
        if (n != s.packets)
            return "segment " + s.file + ": " + std::to_string(n) + " records, the catalog says " + std::to_string(s.packets);
    }
    return {};
}

// Compares records with the packets a subscription saw (the same packets in the same order).
std::string compareRecords(const std::vector<RecordCopy>& records, std::span<const PacketCopy> packets)
{
    if (records.size() != packets.size())
        return std::to_string(records.size()) + " records, " + std::to_string(packets.size()) + " packets";
    for (std::size_t i = 0; i < records.size(); ++i) {
        const auto& r = records[i];
        const auto& p = packets[i];
        if (r.payload != p.frame)
            return "record " + std::to_string(i) + ": bytes differ";
        if (r.meta.streamId != p.streamId || r.meta.apid != p.apid || r.meta.receiveTimeNs != p.receiveTimeNs || r.meta.malformed)
            return "record " + std::to_string(i) + ": stream/apid/time/flags differ";
        if (r.meta.apid != headerApid(std::span(p.frame).subspan(p.headerBytes)))
            return "record " + std::to_string(i) + ": APID is not the packet's";
    }
    return {};
}

// Reads back a stream's recording and compares it with the packets a subscription saw: "" or what
// went wrong.
std::string checkRecording(const std::string& directory, const std::string& stream, std::span<const PacketCopy> packets)
{
    std::vector<record::SegmentInfo> segments;
    std::vector<RecordCopy> records;
    if (auto problem = readRecording(directory, stream, segments, records); !problem.empty())
        return problem;
    return compareRecords(records, packets);
}

std::string compareDatagrams(const std::vector<test::UdpCapture::Datagram>& datagrams, std::span<const PacketCopy> packets)
{
    if (datagrams.size() != packets.size())
        return std::to_string(datagrams.size()) + " datagrams, " + std::to_string(packets.size()) + " packets";
    for (std::size_t i = 0; i < datagrams.size(); ++i)
        if (datagrams[i].bytes != packets[i].frame)
            return "datagram " + std::to_string(i) + " differs from the packet the subscription saw";
    return {};
}

bool sameValue(const decode::DecodedValue& a, const decode::DecodedValue& b)
{
    return a.raw == b.raw && a.converted.u == b.converted.u && std::bit_cast<u64>(a.calibrated) == std::bit_cast<u64>(b.calibrated)
        && a.state == b.state && a.limit == b.limit && a.present == b.present;
}

} // namespace

class TestPipelineModes : public QObject {
    Q_OBJECT

private slots:
    void modeMatrix_data();
    void modeMatrix();
    void decodedValuesMatchGenerators();
    void processOnDemandReaderAndNewest();
    void processOnDemandServesEverySampleSubscribers();
    void newestValuePollWithSmallBuffer();
    void newestValuePairsComeAndGo();
    void recordingRollover();
    void tcpListenSourceWithTransportHeader();
    void tcpClientSourceForwardsOverTcp();
    void severalStreamsAreIndependent();
    void liveSettingsChange();
    void liveForwardAndUnknownSettings();
    void unknownPackets_data();
    void unknownPackets();
};

// ---- Every mode × record × forward ------------------------------------------------------------------

void TestPipelineModes::modeMatrix_data()
{
    QTest::addColumn<int>("mode");
    QTest::addColumn<bool>("record");
    QTest::addColumn<bool>("forward");
    for (const ProcessingMode m : {ProcessingMode::PassThru, ProcessingMode::ProcessOnDemand, ProcessingMode::ProcessEntirePacket})
        for (const bool rec : {false, true})
            for (const bool fwd : {false, true}) {
                const std::string name = std::string(config::toString(m)) + (rec ? "/record" : "/noRecord") + (fwd ? "/forward" : "/noForward");
                QTest::newRow(name.c_str()) << int(m) << rec << fwd;
            }
}

void TestPipelineModes::modeMatrix()
{
    QFETCH(int, mode);
    QFETCH(bool, record);
    QFETCH(bool, forward);
    const auto pm = static_cast<ProcessingMode>(mode);

    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const std::string recDir = dir.filePath("rec").toStdString();
    const auto& db = test::trainingDatabase();
    test::UdpCapture capture;

    // Every packet type of the training database, all with the row's settings.
    config::StationProfile profile;
    profile.recordingDirectory = recDir;
    config::StreamProfile sp;
    sp.name = "modes";
    sp.source = "udp://127.0.0.1:0";
    std::vector<std::string> mix;
    for (const auto& def : db.packets) {
        config::PacketSettings ps;
        ps.apid = def.apid;
        if (def.secondaryId)
            ps.secondaryId = def.secondaryId->value;
        ps.mode = pm;
        ps.record = record;
        if (forward)
            ps.forward = {udpUrl(capture.port())};
        sp.packets.push_back(ps);
        mix.push_back(def.name);
    }
    QCOMPARE(mix.size(), std::size_t{7});
    profile.streams.push_back(sp);

    auto st = startStation(profile, db);
    QVERIFY(st);
    const auto port = st->localPort("modes");
    QVERIFY(port != 0);
    auto sub = packetSubscription(*st, "modes");
    QVERIFY(sub);

    const auto summary = test::send(test::traffic(udpUrl(port), mix, 700, 10000), db);
    QCOMPARE(summary.sent.packets, u64{700});
    QCOMPARE(summary.apids.size(), std::size_t{6}); // APID 600 carries two packet types
    QVERIFY(settle(*st, "modes", summary.sent.packets));
    if (forward)
        QVERIFY(waitUntil([&] { return capture.count() >= summary.sent.packets; }));

    const auto snap = st->snapshot();
    QCOMPARE(snap.streams.size(), std::size_t{1});
    const auto& s = snap.streams[0];
    QVERIFY2(!snap.hasLoss(), "no packet may be lost, dropped or malformed");
    QCOMPARE(s.counters.packetsReceived, summary.sent.packets);
    QCOMPARE(s.counters.bytesReceived, summary.sent.bytes);
    QCOMPARE(s.counters.packetsProcessed, summary.sent.packets);
    QCOMPARE(s.counters.unknown, u64{0});
    QCOMPARE(s.counters.malformed, u64{0});
    QCOMPARE(s.counters.packetsLost, u64{0});
    QCOMPARE(s.counters.packetsRecorded, record ? summary.sent.packets : 0);
    QCOMPARE(s.counters.bytesRecorded, record ? summary.sent.bytes : 0);
    QCOMPARE(s.counters.packetsForwarded, forward ? summary.sent.packets : 0);
    QCOMPARE(s.counters.bytesForwarded, forward ? summary.sent.bytes : 0);
    QCOMPARE(snap.recordingState.rfind("recording to", 0) == 0, record);

    // Per packet type: the simulator's per-APID counts.
    for (const auto& [apid, traffic] : summary.apids) {
        const auto c = apidCounters(s, apid);
        const QByteArray what = "APID " + QByteArray::number(apid);
        QVERIFY2(traffic.packets > 0, what.constData());
        QVERIFY2(c.packetsReceived == traffic.packets, what.constData());
        QVERIFY2(c.bytesReceived == traffic.bytes, what.constData());
        QVERIFY2(c.packetsProcessed == traffic.packets, what.constData());
        QVERIFY2(c.packetsRecorded == (record ? traffic.packets : 0), what.constData());
        QVERIFY2(c.bytesRecorded == (record ? traffic.bytes : 0), what.constData());
        QVERIFY2(c.packetsForwarded == (forward ? traffic.packets : 0), what.constData());
        QVERIFY2(c.bytesForwarded == (forward ? traffic.bytes : 0), what.constData());
    }

    // Every packet reached the subscription, in order; per type as many as the processor counted.
    const auto copies = drain(*sub);
    QCOMPARE(sub->drops(), u64{0});
    QCOMPARE(u64(copies.size()), summary.sent.packets);
    std::map<std::uint32_t, u64> perType;
    for (const auto& c : copies) {
        QCOMPARE(c.streamId, std::uint16_t{0});
        QCOMPARE(c.headerBytes, std::size_t{0});
        QVERIFY(c.receiveTimeNs > 0);
        QVERIFY(c.typeIndex != pipeline::kUnknownType);
        QCOMPARE(c.apid, headerApid(c.frame));
        QCOMPARE(c.apid, st->types().definition(c.typeIndex).apid);
        ++perType[c.typeIndex];
    }
    QCOMPARE(perType.size(), std::size_t{7});
    for (const auto& [type, n] : perType) {
        const auto name = std::string(st->types().typeName(type));
        const auto* ts = typeStats(s, name);
        QVERIFY2(ts, name.c_str());
        QCOMPARE(ts->mode, std::string(config::toString(pm)));
        QCOMPARE(ts->record, record);
        QCOMPARE(ts->forwardDestinations, forward ? 1u : 0u);
        QCOMPARE(ts->counters.packetsProcessed, n);
        // Decoding happens only in Process Entire Packet mode, every parameter of every packet.
        const u64 parameters = st->types().parameterCount(type);
        QCOMPARE(ts->counters.parametersDecoded, pm == ProcessingMode::ProcessEntirePacket ? n * parameters : 0);
        // The newest packet is kept only in Process On Demand mode; values exist unless Pass Thru.
        const auto values = pipeline::StationAccess::currentValues(*st, 0);
        QCOMPARE(values->updates(type), pm == ProcessingMode::PassThru ? 0 : n);
        api::ParameterReader reader(*st);
        const auto sample = reader.read(0, st->types().firstParameterId(type));
        QCOMPARE(sample.has_value(), pm != ProcessingMode::PassThru);
        if (sample)
            QVERIFY(sample->value.present);
    }

    // Forwarded: at the destination exactly the bytes received, packet by packet.
    if (forward) {
        QCOMPARE(snap.forwards.size(), std::size_t{1});
        QCOMPARE(snap.forwards[0].packets, summary.sent.packets);
        QCOMPARE(snap.forwards[0].bytes, summary.sent.bytes);
        const auto datagrams = capture.datagrams();
        const auto problem = compareDatagrams(datagrams, copies);
        QVERIFY2(problem.empty(), problem.c_str());
    } else {
        QCOMPARE(capture.count(), std::size_t{0});
        QVERIFY(snap.forwards.empty());
    }

    st->stop();
    if (record) {
        std::vector<record::SegmentInfo> segments;
        std::vector<RecordCopy> records;
        auto problem = readRecording(recDir, "modes", segments, records);
        QVERIFY2(problem.empty(), problem.c_str());
        QVERIFY(!segments.empty());
        problem = compareRecords(records, copies);
        QVERIFY2(problem.empty(), problem.c_str());
        std::map<std::uint16_t, u64> apidPackets;
        for (const auto& seg : segments) {
            QVERIFY(seg.state == record::SegmentState::Closed);
            for (const auto& [apid, n] : seg.apidPackets)
                apidPackets[apid] += n;
        }
        for (const auto& [apid, traffic] : summary.apids)
            QCOMPARE(apidPackets[apid], traffic.packets);
    } else if (QDir(QString::fromStdString(recDir)).exists()) {
        std::vector<record::SegmentInfo> segments;
        std::vector<RecordCopy> records;
        const auto problem = readRecording(recDir, "modes", segments, records);
        QVERIFY2(problem.empty(), problem.c_str());
        QVERIFY(records.empty());
    }
}

// ---- Decoded values ---------------------------------------------------------------------------------------

void TestPipelineModes::decodedValuesMatchGenerators()
{
    const auto& db = test::trainingDatabase();
    QTemporaryDir dir;
    const auto profile = test::stationProfile(dir, {test::streamProfile("values", "udp://127.0.0.1:0", {
        {7, std::nullopt, ProcessingMode::ProcessEntirePacket, false, {}},
        {400, std::nullopt, ProcessingMode::ProcessEntirePacket, false, {}},
    })});
    auto st = startStation(profile, db);
    QVERIFY(st);

    // What each parameter holds in the n-th packet of its type: raw bits and calibrated value.
    struct Expected {
        std::string name;
        sim::GeneratorSpec generator;
        std::function<u64(u64)> raw;
        std::function<double(u64)> calibrated;
        decode::LimitState limit;
        std::int32_t state = -1;
    };
    using sim::ValueDomain;
    const auto floatBits = [](double v) { return u64{std::bit_cast<std::uint32_t>(static_cast<float>(v))}; };
    using decode::LimitState;
    const std::vector<Expected> expected = {
        // An 8-bit counter in the raw domain wraps like a real one.
        {"Packet5.TC_ACCEPTED_COUNT", counterGen(ValueDomain::Raw, 0, 1), [](u64 n) { return n % 256; },
         [](u64 n) { return double(n % 256); }, LimitState::None, -1},
        {"Packet5.FRAME_COUNT", counterGen(ValueDomain::Raw, 1000, 3), [](u64 n) { return 1000 + 3 * n; },
         [](u64 n) { return double(1000 + 3 * n); }, LimitState::None, -1},
        // POLY 0 0.001: raw millivolts.
        {"Packet5.BUS_28V_VOLTAGE", constantGen(ValueDomain::Raw, 28000), [](u64) { return u64{28000}; },
         [](u64) { return 28.0; }, LimitState::Normal, -1},
        {"Packet5.SAMPLE_CHAMBER_TEMP", constantGen(ValueDomain::Converted, 37.25), [&](u64) { return floatBits(37.25); },
         [](u64) { return 37.25; }, LimitState::Normal, -1},
        // Engineering value through the inverse of POLY 0 0.05.
        {"Packet5.COOLANT_FLOW_RATE", constantGen(ValueDomain::Calibrated, 100), [](u64) { return u64{2000}; },
         [](u64) { return 100.0; }, LimitState::Normal, -1},
        // 5-bit signed: -7 is 0b11001.
        {"Packet5.FOCUS_OFFSET", constantGen(ValueDomain::Converted, -7), [](u64) { return u64{25}; },
         [](u64) { return -7.0; }, LimitState::Normal, -1},
        {"GNC_State.GNC_CYCLE_COUNTER", counterGen(ValueDomain::Raw, 5, 1), [](u64 n) { return 5 + n; },
         [](u64 n) { return double(5 + n); }, LimitState::None, -1},
        {"GNC_State.RATE_X", constantGen(ValueDomain::Converted, 0.5), [&](u64) { return floatBits(0.5); },
         [](u64) { return 0.5; }, LimitState::Normal, -1},
        // LIMITS -2 -1 1 2: 1.5 is in the upper yellow band.
        {"GNC_State.RATE_Y", constantGen(ValueDomain::Converted, 1.5), [&](u64) { return floatBits(1.5); },
         [](u64) { return 1.5; }, LimitState::YellowHigh, -1},
        {"GNC_State.SUN_ANGLE", counterGen(ValueDomain::Converted, 50, 0.25), [&](u64 n) { return floatBits(50 + 0.25 * double(n)); },
         [](u64 n) { return 50 + 0.25 * double(n); }, LimitState::Normal, -1},
        // An expected enumeration state: FINE_POINTING = 3.
        {"GNC_State.GNC_MODE", constantGen(ValueDomain::Raw, 3), [](u64) { return u64{3}; }, [](u64) { return 3.0; },
         LimitState::Normal, 3},
    };

    api::ParameterSubscription::Options po;
    po.name = "values";
    po.stream = "values";
    po.capacity = 200000;
    for (const auto& e : expected)
        po.parameters.push_back(e.name);
    auto params = api::ParameterSubscription::create(*st, po);
    QVERIFY2(params, params ? "" : params.error().message.c_str());

    auto config = test::traffic(udpUrl(st->localPort("values")), {"Packet5", "GNC_State"}, 600, 10000);
    for (const auto& e : expected)
        config.generators[e.name] = e.generator;
    auto sim = test::simulator(config, db);
    const std::int64_t before = clock::realtimeNs();
    sim->start();
    sim->wait();
    const auto summary = sim->summary();
    QVERIFY(settle(*st, "values", summary.sent.packets));
    const std::int64_t after = clock::realtimeNs();
    QCOMPARE(summary.sent.packets, u64{600});

    std::vector<api::ParameterSample> samples(200000);
    samples.resize((*params)->poll(samples));
    QCOMPARE((*params)->drops(), u64{0});
    std::map<std::uint32_t, std::vector<api::ParameterSample>> byParameter;
    for (const auto& s : samples)
        byParameter[s.parameterId].push_back(s);
    QCOMPARE(byParameter.size(), expected.size());

    for (const auto& e : expected) {
        const auto id = st->types().parameterId(e.name);
        QVERIFY(id);
        const auto& info = st->types().parameter(*id);
        const auto& def = st->types().definition(info.typeIndex);
        const auto& pdef = def.parameters[info.indexInPacket];
        const auto& got = byParameter[*id];
        QVERIFY2(u64(got.size()) == summary.apids.at(def.apid).packets, e.name.c_str());
        for (u64 n = 0; n < got.size(); ++n) {
            const auto& s = got[n];
            const auto& v = s.value;
            const QByteArray where = QByteArray::fromStdString(e.name) + " packet " + QByteArray::number(qulonglong(n));
            QCOMPARE(s.streamId, std::uint16_t{0});
            QVERIFY2(v.present, where.constData());
            QVERIFY2(v.raw == e.raw(n), (where + " raw " + QByteArray::number(qulonglong(v.raw))).constData());
            switch (pdef.type) {
            case mdb::DataType::UnsignedInt:
                QVERIFY2(v.converted.u == e.raw(n), where.constData());
                break;
            case mdb::DataType::SignedInt:
                QVERIFY2(double(v.converted.i) == e.calibrated(n), where.constData());
                break;
            case mdb::DataType::Float:
                QVERIFY2(v.converted.f == e.calibrated(n), where.constData());
                break;
            default:
                QFAIL((where + ": not a numeric parameter").constData());
            }
            QVERIFY2(std::abs(v.calibrated - e.calibrated(n)) <= 1e-9 * std::max(1.0, std::abs(e.calibrated(n))),
                     (where + " calibrated " + QByteArray::number(v.calibrated, 'g', 17)).constData());
            QVERIFY2(v.limit == e.limit, (where + " limit " + QByteArray(decode::limitStateName(v.limit).data())).constData());
            QVERIFY2(v.state == e.state, where.constData());
            // Receive time: during the run. Packet time (CUC, written when the packet was built): just
            // before the receive time, within one fine tick.
            QVERIFY2(s.receiveTimeNs >= before && s.receiveTimeNs <= after, where.constData());
            QVERIFY2(s.packetTimeNs != 0, where.constData());
            QVERIFY2(s.packetTimeNs >= before - 1'000'000 && s.packetTimeNs <= s.receiveTimeNs, where.constData());
        }
    }
    st->stop();
}

// ---- Process On Demand ------------------------------------------------------------------------------------

void TestPipelineModes::processOnDemandReaderAndNewest()
{
    const auto& db = test::trainingDatabase();
    QTemporaryDir dir;
    const auto profile = test::stationProfile(dir, {test::streamProfile("pod", "udp://127.0.0.1:0", {
        {7, std::nullopt, ProcessingMode::ProcessOnDemand, false, {}},
        {100, std::nullopt, ProcessingMode::ProcessOnDemand, false, {}},
        {400, std::nullopt, ProcessingMode::ProcessEntirePacket, false, {}},
        {600, 1, ProcessingMode::PassThru, false, {}},
    })});
    auto st = startStation(profile, db);
    QVERIFY(st);
    const std::string url = udpUrl(st->localPort("pod"));
    const auto& types = st->types();
    const auto hkType = *types.typeByName("HK_Status");

    api::ParameterSubscription::Options po;
    po.name = "newest";
    po.stream = "pod";
    po.delivery = api::Delivery::Newest;
    po.parameters = {"Packet5.FRAME_COUNT", "Packet5.UPTIME", "HK_Status.UPTIME", "HK_Status.BUS_VOLTAGE",
                     "GNC_State.GNC_CYCLE_COUNTER", "Diag_Power.BREAKER_TRIPS"};
    auto newest = api::ParameterSubscription::create(*st, po);
    QVERIFY2(newest, newest ? "" : newest.error().message.c_str());
    auto sub = packetSubscription(*st, "pod");
    QVERIFY(sub);
    api::ParameterReader reader(*st);

    std::vector<api::ParameterSample> out(64);
    const auto pollNewest = [&] {
        std::map<std::string, api::ParameterSample> got;
        const std::size_t n = (*newest)->poll(out);
        for (std::size_t i = 0; i < n; ++i)
            got[types.parameter(out[i].parameterId).qualifiedName] = out[i];
        return got;
    };
    QVERIFY(pollNewest().empty()); // nothing received yet

    // Each phase sends packet types of its own (so every APID's sequence count runs on).
    u64 total = 0;
    const auto runPhase = [&](const std::vector<std::string>& mix, u64 count, const std::map<std::string, sim::GeneratorSpec>& gens) {
        auto config = test::traffic(url, mix, count, 10000);
        config.generators = gens;
        const auto summary = test::send(config, db);
        total += summary.sent.packets;
        if (!settle(*st, "pod", total))
            qWarning("the station did not settle");
        return summary;
    };

    // Phase 1: HK_Status (on demand) and Diag_Power (pass thru).
    const auto s1 = runPhase({"HK_Status", "Diag_Power"}, 400,
                             {{"HK_Status.UPTIME", counterGen(sim::ValueDomain::Raw, 100, 1)},
                              {"Diag_Power.BREAKER_TRIPS", counterGen(sim::ValueDomain::Raw, 0, 1)}});
    QCOMPARE(s1.sent.packets, u64{400});
    const u64 nHk = s1.apids.at(100).packets;
    {
        const auto snap = st->snapshot();
        const auto* hk = typeStats(snap.streams[0], "HK_Status");
        QVERIFY(hk);
        QCOMPARE(hk->counters.packetsProcessed, nHk);
        QCOMPARE(hk->counters.parametersDecoded, u64{0}); // on demand: nothing decoded on arrival
        QCOMPARE(pipeline::StationAccess::currentValues(*st, 0)->updates(hkType), nHk);
    }
    auto got = pollNewest();
    QCOMPARE(got.size(), std::size_t{2}); // only HK_Status changed; Diag_Power is pass thru
    QVERIFY(got.count("HK_Status.UPTIME"));
    QVERIFY(got.count("HK_Status.BUS_VOLTAGE"));
    QCOMPARE(got["HK_Status.UPTIME"].value.raw, 100 + nHk - 1);
    QVERIFY(pollNewest().empty()); // nothing changed since

    // The reader decodes the newest kept packet: the last HK_Status packet received.
    const auto copies = drain(*sub);
    QCOMPARE(u64(copies.size()), total);
    const auto lastHk = std::find_if(copies.rbegin(), copies.rend(), [&](const PacketCopy& c) { return c.typeIndex == hkType; });
    QVERIFY(lastHk != copies.rend());
    const auto& plan = types.plan(hkType);
    for (std::uint32_t i = 0; i < types.parameterCount(hkType); ++i) {
        const auto id = types.firstParameterId(hkType) + i;
        const auto sample = reader.read(0, id);
        QVERIFY2(sample, types.parameter(id).qualifiedName.c_str());
        QVERIFY2(sameValue(sample->value, plan.decodeOne(lastHk->frame, i)), types.parameter(id).qualifiedName.c_str());
        QCOMPARE(sample->receiveTimeNs, lastHk->receiveTimeNs);
        QCOMPARE(sample->packetTimeNs, std::int64_t{0}); // HK_Status has no secondary header
    }
    QCOMPARE(reader.read("pod", "HK_Status.UPTIME")->value.raw, 100 + nHk - 1);
    QVERIFY(!reader.read("pod", "Diag_Power.BREAKER_TRIPS"));    // pass thru: no values
    QVERIFY(!reader.read("pod", "Packet5.FRAME_COUNT"));         // nothing kept yet
    QVERIFY(!reader.read("pod", "GNC_State.GNC_CYCLE_COUNTER")); // nothing decoded yet

    // Phase 2: GNC_State (process entire packet) only.
    const auto s2 = runPhase({"GNC_State"}, 300, {{"GNC_State.GNC_CYCLE_COUNTER", counterGen(sim::ValueDomain::Raw, 0, 1)}});
    QCOMPARE(s2.sent.packets, u64{300});
    got = pollNewest();
    QCOMPARE(got.size(), std::size_t{1});
    QCOMPARE(got["GNC_State.GNC_CYCLE_COUNTER"].value.raw, u64{299});
    QVERIFY(pollNewest().empty());

    // Phase 3: Packet5 (on demand) only.
    const auto s3 = runPhase({"Packet5"}, 300, {{"Packet5.FRAME_COUNT", counterGen(sim::ValueDomain::Raw, 0, 1)}});
    QCOMPARE(s3.sent.packets, u64{300});
    got = pollNewest();
    QCOMPARE(got.size(), std::size_t{2});
    QCOMPARE(got["Packet5.FRAME_COUNT"].value.raw, u64{299});
    QVERIFY(got.count("Packet5.UPTIME"));
    QVERIFY(got["Packet5.FRAME_COUNT"].packetTimeNs != 0); // decoded on demand, with its CUC time
    QVERIFY(pollNewest().empty());
    QCOMPARE(reader.read("pod", "Packet5.FRAME_COUNT")->value.raw, u64{299});

    const auto snap = st->snapshot();
    QVERIFY(!snap.hasLoss());
    QCOMPARE(snap.streams[0].counters.packetsReceived, total);
    QCOMPARE(snap.streams[0].counters.packetsProcessed, total);
    QCOMPARE(snap.streams[0].counters.parametersDecoded, s2.sent.packets * types.parameterCount(*types.typeByName("GNC_State")));
    st->stop();
}

// A plot on a Process On Demand type: every-sample subscribers get every packet's values of what they
// asked for, decoded for them (only that: the union of what they want); "decoded" counts each packet
// once, whoever decoded it; without a subscriber nothing is decoded until a reader asks.
void TestPipelineModes::processOnDemandServesEverySampleSubscribers()
{
    const auto& db = test::trainingDatabase();
    QTemporaryDir dir;
    const auto profile = test::stationProfile(dir, {test::streamProfile("pod", "udp://127.0.0.1:0", {
        {100, std::nullopt, ProcessingMode::ProcessOnDemand, false, {}},
    })});
    auto st = startStation(profile, db);
    QVERIFY(st);
    const std::string url = udpUrl(st->localPort("pod"));
    const auto& types = st->types();
    const auto hkCounters = [&] { return typeStats(st->snapshot().streams[0], "HK_Status")->counters; };
    api::ParameterReader reader(*st);

    // Without subscribers: nothing decoded on arrival; a reader's decodes count the kept packet once.
    const auto first = test::send(test::traffic(url, {"HK_Status"}, 100, 10000), db);
    const u64 n0 = first.sent.packets;
    QVERIFY(settle(*st, "pod", n0));
    auto c = hkCounters();
    QCOMPARE(c.packetsProcessed, n0);
    QCOMPARE(c.packetsDecoded, u64{0});
    QCOMPARE(c.parametersDecoded, u64{0});
    QVERIFY(reader.read("pod", "HK_Status.UPTIME"));
    QVERIFY(reader.read("pod", "HK_Status.BUS_VOLTAGE"));
    QCOMPARE(hkCounters().packetsDecoded, u64{1});

    const auto subscribe = [&](std::vector<std::string> parameters) {
        api::ParameterSubscription::Options po;
        po.stream = "pod";
        po.parameters = std::move(parameters);
        auto sub = api::ParameterSubscription::create(*st, po);
        return sub ? std::move(*sub) : nullptr;
    };
    auto uptime = subscribe({"HK_Status.UPTIME"});
    auto two = subscribe({"HK_Status.UPTIME", "HK_Status.BUS_VOLTAGE"});
    QVERIFY(uptime && two);
    auto config = test::traffic(url, {"HK_Status"}, 400, 10000);
    config.generators = {{"HK_Status.UPTIME", counterGen(sim::ValueDomain::Raw, 100, 1)}};
    const u64 n = test::send(config, db).sent.packets;
    QCOMPARE(n, u64{400});
    QVERIFY(settle(*st, "pod", n0 + n));

    std::vector<api::ParameterSample> out(4 * n);
    const std::size_t got = uptime->poll(out);
    QCOMPARE(u64(got), n);
    for (std::size_t i = 0; i < got; ++i) {
        QCOMPARE(types.parameter(out[i].parameterId).qualifiedName, std::string("HK_Status.UPTIME"));
        QVERIFY(out[i].value.present);
        QCOMPARE(out[i].value.raw, 100 + i);
    }
    QCOMPARE(u64(two->poll(out)), 2 * n);
    c = hkCounters();
    QCOMPARE(c.packetsProcessed, n0 + n);
    QCOMPARE(c.packetsDecoded, 1 + n);
    QCOMPARE(c.parametersDecoded, 2 * n); // UPTIME and BUS_VOLTAGE, not the type's other parameters
    QVERIFY(types.parameterCount(*types.typeByName("HK_Status")) > 2);

    // A reader of the kept packet (the value display) decodes a packet already counted: no change.
    QCOMPARE(reader.read("pod", "HK_Status.UPTIME")->value.raw, 100 + n - 1);
    QCOMPARE(hkCounters().packetsDecoded, 1 + n);
    st->stop();
}

// A newest-value consumer polling with a buffer that the changed parameters fill exactly, or overfill:
// each changed parameter is reported once, over as many polls as it takes, and then nothing until
// its packet changes again.
void TestPipelineModes::newestValuePollWithSmallBuffer()
{
    const auto& db = test::trainingDatabase();
    QTemporaryDir dir;
    const auto profile = test::stationProfile(dir, {test::streamProfile("newest", "udp://127.0.0.1:0", {
        {100, std::nullopt, ProcessingMode::ProcessOnDemand, false, {}},
    })});
    auto st = startStation(profile, db);
    QVERIFY(st);
    const auto& types = st->types();

    const auto subscribe = [&] {
        api::ParameterSubscription::Options po;
        po.stream = "newest";
        po.delivery = api::Delivery::Newest;
        po.parameters = {"HK_Status.UPTIME", "HK_Status.BUS_VOLTAGE", "HK_Status.CPU_LOAD"};
        auto sub = api::ParameterSubscription::create(*st, po);
        return sub ? std::move(*sub) : nullptr;
    };
    auto exact = subscribe(); // polls with room for exactly the three parameters
    auto small = subscribe(); // polls with room for one
    QVERIFY(exact && small);

    const auto summary = test::send(test::traffic(udpUrl(st->localPort("newest")), {"HK_Status"}, 50, 10000), db);
    QVERIFY(settle(*st, "newest", summary.sent.packets));

    std::array<api::ParameterSample, 3> three{};
    QCOMPARE((exact)->poll(three), std::size_t{3});
    // Nothing has changed since: nothing to report, however much room there is.
    QCOMPARE((exact)->poll(three), std::size_t{0});

    std::array<api::ParameterSample, 1> one{};
    std::set<std::string> reported;
    for (int i = 0; i < 3; ++i) {
        QCOMPARE((small)->poll(one), std::size_t{1});
        reported.insert(types.parameter(one[0].parameterId).qualifiedName);
    }
    // Three polls of one: each parameter once.
    QCOMPARE(reported.size(), std::size_t{3});
    QCOMPARE((small)->poll(one), std::size_t{0});
    st->stop();
}

// A newest-value subscription of pairs added and removed while subscribed (the value display's
// rows): add() gives the current value at once and refuses what is not there or already subscribed;
// poll() reports only the pairs whose packet type updated since, one stream apart from the other; a
// removed pair is reported no more.
void TestPipelineModes::newestValuePairsComeAndGo()
{
    const auto& db = test::trainingDatabase();
    config::StationProfile profile;
    QTemporaryDir dir;
    profile.recordingDirectory = dir.filePath("rec").toStdString();
    for (const char* name : {"a", "b"}) {
        config::StreamProfile sp;
        sp.name = name;
        sp.source = "udp://127.0.0.1:0";
        sp.packets.push_back({100, std::nullopt, ProcessingMode::ProcessEntirePacket, false, {}});
        profile.streams.push_back(sp);
    }
    auto st = startStation(profile, db);
    QVERIFY(st);
    const auto& types = st->types();
    const auto uptime = *types.parameterId("HK_Status.UPTIME");
    const auto voltage = *types.parameterId("HK_Status.BUS_VOLTAGE");

    auto sub = api::ParameterSubscription::createNewest(*st);
    QVERIFY(sub);
    QCOMPARE(sub->size(), std::size_t{0});
    std::array<api::ParameterSample, 8> out{};
    QCOMPARE(sub->poll(out), std::size_t{0});

    bool added = false;
    QVERIFY(!sub->add(0, uptime, &added)); // no value yet
    QVERIFY(added);
    QVERIFY(!sub->add(0, uptime, &added)); // already subscribed
    QVERIFY(!added);
    QVERIFY(!sub->add(7, uptime, &added)); // no such stream
    QVERIFY(!added);
    QVERIFY(!sub->add(0, types.totalParameters(), &added)); // no such parameter
    QVERIFY(!added);
    QVERIFY(!sub->add(1, voltage, &added));
    QVERIFY(added);
    QCOMPARE(sub->size(), std::size_t{2});

    std::array<u64, 2> received{};
    const auto sendTo = [&](const char* stream, u64 count) {
        auto config = test::traffic(udpUrl(st->localPort(stream)), {"HK_Status"}, count, 10000);
        config.generators = {{"HK_Status.UPTIME", counterGen(sim::ValueDomain::Raw, 500, 1)}};
        test::send(config, db);
        const std::size_t index = stream[0] == 'a' ? 0 : 1;
        received[index] += count;
        QVERIFY(settle(*st, stream, received[index]));
    };
    sendTo("a", 20);
    QCOMPARE(sub->poll(out), std::size_t{1}); // stream a's pair only
    QCOMPARE(out[0].streamId, std::uint16_t{0});
    QCOMPARE(out[0].parameterId, uptime);
    QCOMPARE(out[0].value.raw, u64{500 + 20 - 1});
    QCOMPARE(sub->poll(out), std::size_t{0});

    // Added after the packets: its value at once, and not reported again by the next poll.
    const auto now = sub->add(0, voltage, &added);
    QVERIFY(added && now);
    QCOMPARE(now->parameterId, voltage);
    QCOMPARE(sub->poll(out), std::size_t{0});

    QVERIFY(sub->remove(0, uptime));
    QVERIFY(!sub->remove(0, uptime));
    QCOMPARE(sub->size(), std::size_t{2});
    sendTo("b", 20);
    QCOMPARE(sub->poll(out), std::size_t{1}); // stream b's voltage
    QCOMPARE(out[0].streamId, std::uint16_t{1});
    QCOMPARE(out[0].parameterId, voltage);
    sendTo("a", 40);
    QCOMPARE(sub->poll(out), std::size_t{1}); // stream a's voltage; its uptime was removed
    QCOMPARE(out[0].streamId, std::uint16_t{0});
    QCOMPARE(out[0].parameterId, voltage);
    st->stop();
}

// ---- Recording rollover -------------------------------------------------------------------------------

void TestPipelineModes::recordingRollover()
{
    QTemporaryDir dir;
    const std::string recDir = dir.filePath("rec").toStdString();
    const auto& db = test::trainingDatabase();
    config::StationProfile profile;
    profile.recordingDirectory = recDir;
    profile.queues.maxRecordFileSize = 64 * 1024;
    config::StreamProfile sp;
    sp.name = "rec";
    sp.source = "udp://127.0.0.1:0";
    sp.packets.push_back({7, std::nullopt, ProcessingMode::PassThru, true, {}});
    sp.packets.push_back({100, std::nullopt, ProcessingMode::ProcessEntirePacket, true, {}});
    sp.packets.push_back({500, std::nullopt, ProcessingMode::ProcessOnDemand, true, {}});
    profile.streams.push_back(sp);
    auto st = startStation(profile, db);
    QVERIFY(st);
    auto sub = packetSubscription(*st, "rec");
    QVERIFY(sub);

    const auto summary = test::send(test::traffic(udpUrl(st->localPort("rec")), {"Packet5", "HK_Status", "Event_Message"}, 2400, 10000), db);
    QCOMPARE(summary.sent.packets, u64{2400});
    QVERIFY(settle(*st, "rec", summary.sent.packets));
    const auto snap = st->snapshot();
    QVERIFY(!snap.hasLoss());
    QCOMPARE(snap.streams[0].counters.packetsRecorded, summary.sent.packets);
    QCOMPARE(snap.streams[0].counters.bytesRecorded, summary.sent.bytes);
    const auto copies = drain(*sub);
    st->stop();

    std::vector<record::SegmentInfo> segments;
    std::vector<RecordCopy> records;
    auto problem = readRecording(recDir, "rec", segments, records);
    QVERIFY2(problem.empty(), problem.c_str());
    // 800 Packet5 packets alone are over 1 MB: many 64 KiB segments.
    QVERIFY2(segments.size() >= 10, QByteArray::number(qulonglong(segments.size())).constData());
    u64 packets = 0;
    std::map<std::uint16_t, u64> apidPackets;
    for (std::size_t i = 0; i < segments.size(); ++i) {
        const auto& seg = segments[i];
        QCOMPARE(seg.sequence, u64(i + 1));
        QVERIFY(seg.state == record::SegmentState::Closed);
        QVERIFY(seg.bytes <= 64 * 1024);
        QVERIFY(seg.packets > 0);
        QVERIFY(seg.firstTimeNs > 0 && seg.firstTimeNs <= seg.lastTimeNs);
        if (i > 0)
            QVERIFY(segments[i - 1].lastTimeNs <= seg.firstTimeNs);
        QCOMPARE(u64(QFileInfo(QDir(QString::fromStdString(recDir)).filePath(QString::fromStdString(seg.file))).size()), seg.bytes);
        packets += seg.packets;
        for (const auto& [apid, n] : seg.apidPackets)
            apidPackets[apid] += n;
    }
    QCOMPARE(packets, summary.sent.packets);
    for (const auto& [apid, traffic] : summary.apids)
        QCOMPARE(apidPackets[apid], traffic.packets);
    problem = compareRecords(records, copies);
    QVERIFY2(problem.empty(), problem.c_str());
}

// ---- TCP ----------------------------------------------------------------------------------------------

// The simulator connects (tcp://) to the station's tcp-listen:// source; 8-byte transport header.
void TestPipelineModes::tcpListenSourceWithTransportHeader()
{
    QTemporaryDir dir;
    const std::string recDir = dir.filePath("rec").toStdString();
    const auto& db = test::trainingDatabase();
    test::UdpCapture capture;
    config::StationProfile profile;
    profile.recordingDirectory = recDir;
    config::StreamProfile sp;
    sp.name = "tcpin";
    sp.source = "tcp-listen://127.0.0.1:0";
    sp.transportHeaderBytes = 8;
    sp.packets.push_back({7, std::nullopt, ProcessingMode::ProcessEntirePacket, true, {udpUrl(capture.port())}});
    sp.packets.push_back({400, std::nullopt, ProcessingMode::PassThru, true, {udpUrl(capture.port())}});
    profile.streams.push_back(sp);
    auto st = startStation(profile, db);
    QVERIFY(st);
    const auto port = st->localPort("tcpin");
    QVERIFY(port != 0);
    auto sub = packetSubscription(*st, "tcpin");
    QVERIFY(sub);
    api::ParameterSubscription::Options po;
    po.stream = "tcpin";
    po.parameters = {"Packet5.BUS_28V_VOLTAGE"};
    po.capacity = 10000;
    auto params = api::ParameterSubscription::create(*st, po);
    QVERIFY(params);

    auto config = test::traffic(test::tcpUrl(port), {"Packet5", "GNC_State"}, 1000, 10000);
    config.transportHeaderBytes = 8;
    config.generators["Packet5.BUS_28V_VOLTAGE"] = constantGen(sim::ValueDomain::Raw, 27500);
    const auto summary = test::send(config, db);
    QCOMPARE(summary.sent.packets, u64{1000}); // a blocking TCP client loses nothing
    QCOMPARE(summary.notSent, u64{0});
    QVERIFY(settle(*st, "tcpin", summary.sent.packets));
    QVERIFY(waitUntil([&] { return capture.count() >= summary.sent.packets; }));

    const auto snap = st->snapshot();
    const auto& s = snap.streams[0];
    QVERIFY(!snap.hasLoss());
    QCOMPARE(s.connects, u64{1});
    QCOMPARE(s.framingErrors, u64{0});
    QCOMPARE(s.counters.packetsReceived, summary.sent.packets);
    QCOMPARE(s.counters.bytesReceived, summary.sent.bytes); // the transport headers included
    QCOMPARE(s.counters.packetsRecorded, summary.sent.packets);
    QCOMPARE(s.counters.bytesRecorded, summary.sent.bytes);
    QCOMPARE(s.counters.packetsForwarded, summary.sent.packets);
    QCOMPARE(s.counters.bytesForwarded, summary.sent.bytes);
    for (const auto& [apid, traffic] : summary.apids) {
        const auto c = apidCounters(s, apid);
        QCOMPARE(c.packetsReceived, traffic.packets);
        QCOMPARE(c.bytesReceived, traffic.bytes);
        QCOMPARE(c.packetsProcessed, traffic.packets);
    }
    // Decoding skips the header: every Packet5 decoded, with the generator's value.
    const u64 nP5 = summary.apids.at(7).packets;
    QCOMPARE(typeStats(s, "Packet5")->counters.parametersDecoded, nP5 * 88);
    std::vector<api::ParameterSample> samples(10000);
    samples.resize((*params)->poll(samples));
    QCOMPARE(u64(samples.size()), nP5);
    for (const auto& sample : samples)
        QCOMPARE(sample.value.raw, u64{27500});

    // The header is kept with the packet: zeros, then the simulator's big-endian packet counter.
    const auto copies = drain(*sub);
    QCOMPARE(u64(copies.size()), summary.sent.packets);
    for (std::size_t k = 0; k < copies.size(); ++k) {
        const auto& c = copies[k];
        QCOMPARE(c.headerBytes, std::size_t{8});
        const auto& f = c.frame;
        QVERIFY(f[0] == 0 && f[1] == 0 && f[2] == 0 && f[3] == 0);
        const auto counter = (std::uint32_t{f[4]} << 24) | (std::uint32_t{f[5]} << 16) | (std::uint32_t{f[6]} << 8) | f[7];
        QCOMPARE(counter, std::uint32_t(k));
        QCOMPARE(c.apid, headerApid(std::span(f).subspan(8)));
    }
    const auto problem = compareDatagrams(capture.datagrams(), copies);
    QVERIFY2(problem.empty(), problem.c_str());

    st->stop();
    const auto recProblem = checkRecording(recDir, "tcpin", copies);
    QVERIFY2(recProblem.empty(), recProblem.c_str());
}

// The station connects (tcp://) to the simulator's tcp-listen:// stream and forwards over TCP.
void TestPipelineModes::tcpClientSourceForwardsOverTcp()
{
    const auto& db = test::trainingDatabase();
    test::TcpCapture capture;
    auto config = test::traffic("tcp-listen://127.0.0.1:0", {"Packet5", "HK_Status", "Event_Message"}, 1200, 10000);
    config.transportHeaderBytes = 8;
    auto sim = test::simulator(config, db);
    QVERIFY(sim->localPort() != 0);

    config::StationProfile profile;
    QTemporaryDir dir;
    profile.recordingDirectory = dir.filePath("rec").toStdString();
    config::StreamProfile sp;
    sp.name = "tcpout";
    sp.source = test::tcpUrl(sim->localPort());
    sp.transportHeaderBytes = 8;
    const std::string dest = test::tcpUrl(capture.port());
    sp.packets.push_back({7, std::nullopt, ProcessingMode::PassThru, false, {dest}});
    sp.packets.push_back({100, std::nullopt, ProcessingMode::ProcessEntirePacket, false, {dest}});
    sp.packets.push_back({500, std::nullopt, ProcessingMode::ProcessOnDemand, false, {dest}});
    profile.streams.push_back(sp);
    auto st = startStation(profile, db);
    QVERIFY(st);
    auto sub = packetSubscription(*st, "tcpout");
    QVERIFY(sub);
    // Both connections up before the simulator sends: then nothing is offered to a closed connection.
    QVERIFY(waitUntil([&] {
        const auto snap = st->snapshot();
        return snap.streams[0].connects >= 1 && !snap.forwards.empty() && snap.forwards[0].connected;
    }));

    sim->start();
    sim->wait();
    const auto summary = sim->summary();
    QCOMPARE(summary.sent.packets, u64{1200});
    QVERIFY(settle(*st, "tcpout", summary.sent.packets));
    QVERIFY(waitUntil([&] { return capture.size() >= summary.sent.bytes; }));

    const auto snap = st->snapshot();
    const auto& s = snap.streams[0];
    QVERIFY(!snap.hasLoss());
    QCOMPARE(s.counters.packetsReceived, summary.sent.packets);
    QCOMPARE(s.counters.bytesReceived, summary.sent.bytes);
    QCOMPARE(s.counters.packetsForwarded, summary.sent.packets);
    QCOMPARE(s.counters.bytesForwarded, summary.sent.bytes);
    QCOMPARE(snap.forwards[0].packets, summary.sent.packets);
    QCOMPARE(snap.forwards[0].notSent, u64{0});
    for (const auto& [apid, traffic] : summary.apids) {
        const auto c = apidCounters(s, apid);
        QCOMPARE(c.packetsReceived, traffic.packets);
        QCOMPARE(c.bytesReceived, traffic.bytes);
        QCOMPARE(c.packetsProcessed, traffic.packets);
        QCOMPARE(c.packetsForwarded, traffic.packets);
    }
    QCOMPARE(typeStats(s, "HK_Status")->counters.parametersDecoded,
             summary.apids.at(100).packets * st->types().parameterCount(*st->types().typeByName("HK_Status")));

    // The TCP destination's byte stream is the received frames, headers included, back to back.
    const auto copies = drain(*sub);
    QCOMPARE(u64(copies.size()), summary.sent.packets);
    std::vector<std::uint8_t> expected;
    for (const auto& c : copies) {
        QCOMPARE(c.headerBytes, std::size_t{8});
        expected.insert(expected.end(), c.frame.begin(), c.frame.end());
    }
    QCOMPARE(u64(expected.size()), summary.sent.bytes);
    QVERIFY(capture.bytes() == expected);
    st->stop();
}

// ---- Several streams --------------------------------------------------------------------------------------

void TestPipelineModes::severalStreamsAreIndependent()
{
    QTemporaryDir dir;
    const std::string recDir = dir.filePath("rec").toStdString();
    const auto& db = test::trainingDatabase();
    test::UdpCapture capture;
    config::StationProfile profile;
    profile.recordingDirectory = recDir;
    // The same APID 7 in three streams with three different settings.
    config::StreamProfile a;
    a.name = "alpha";
    a.source = "udp://127.0.0.1:0";
    a.packets.push_back({7, std::nullopt, ProcessingMode::ProcessEntirePacket, true, {}});
    a.packets.push_back({100, std::nullopt, ProcessingMode::ProcessOnDemand, false, {}});
    config::StreamProfile b;
    b.name = "bravo";
    b.source = "udp://127.0.0.1:0";
    b.packets.push_back({7, std::nullopt, ProcessingMode::PassThru, false, {udpUrl(capture.port())}});
    b.packets.push_back({400, std::nullopt, ProcessingMode::ProcessEntirePacket, false, {}});
    config::StreamProfile c;
    c.name = "charlie";
    c.source = "tcp-listen://127.0.0.1:0";
    c.transportHeaderBytes = 8;
    c.packets.push_back({7, std::nullopt, ProcessingMode::ProcessOnDemand, true, {}});
    c.packets.push_back({600, 1, ProcessingMode::PassThru, true, {}});
    c.packets.push_back({600, 2, ProcessingMode::PassThru, false, {}});
    profile.streams = {a, b, c};
    auto st = startStation(profile, db);
    QVERIFY(st);
    const std::vector<std::string> names = {"alpha", "bravo", "charlie"};
    std::vector<std::unique_ptr<api::PacketSubscription>> subs;
    for (const auto& n : names) {
        subs.push_back(packetSubscription(*st, n));
        QVERIFY(subs.back());
    }

    auto cfgA = test::traffic(udpUrl(st->localPort("alpha")), {"Packet5", "HK_Status"}, 1200, 8000);
    auto cfgB = test::traffic(udpUrl(st->localPort("bravo")), {"Packet5", "GNC_State"}, 900, 6000);
    auto cfgC = test::traffic(test::tcpUrl(st->localPort("charlie")),
                          {"Packet5", "Diag_Power", "Diag_Thermal"}, 900, 6000);
    cfgC.transportHeaderBytes = 8;
    std::vector<std::unique_ptr<sim::SimStream>> sims;
    for (const auto* cfg : {&cfgA, &cfgB, &cfgC}) {
        sims.push_back(test::simulator(*cfg, db));
    }
    for (auto& s : sims)
        s->start();
    for (auto& s : sims)
        s->wait();
    std::vector<sim::StreamSummary> summaries;
    for (auto& s : sims)
        summaries.push_back(s->summary());
    for (std::size_t i = 0; i < 3; ++i)
        QVERIFY(settle(*st, names[i], summaries[i].sent.packets));
    QVERIFY(waitUntil([&] { return capture.count() >= summaries[1].apids.at(7).packets; }));

    const auto snap = st->snapshot();
    QVERIFY(!snap.hasLoss());
    QCOMPARE(snap.streams.size(), std::size_t{3});
    const auto& types = st->types();
    const u64 p5Params = types.parameterCount(*types.typeByName("Packet5"));
    const u64 gncParams = types.parameterCount(*types.typeByName("GNC_State"));
    for (std::size_t i = 0; i < 3; ++i) {
        const auto& s = snap.streams[i];
        const auto& sum = summaries[i];
        QCOMPARE(s.name, names[i]);
        QCOMPARE(s.counters.packetsReceived, sum.sent.packets);
        QCOMPARE(s.counters.bytesReceived, sum.sent.bytes);
        QCOMPARE(s.counters.packetsProcessed, sum.sent.packets);
        QCOMPARE(s.counters.unknown, u64{0});
        for (const auto& [apid, traffic] : sum.apids) {
            const auto counters = apidCounters(s, apid);
            QCOMPARE(counters.packetsReceived, traffic.packets);
            QCOMPARE(counters.bytesReceived, traffic.bytes);
            QCOMPARE(counters.packetsProcessed, traffic.packets);
        }
        // Nothing of another stream's mix shows up here.
        for (const auto& t : s.packetTypes)
            if (t.name != "unknown" && !sum.apids.count(static_cast<std::uint16_t>(t.apid)))
                QCOMPARE(t.counters.packetsReceived, u64{0});
        // Each stream's subscription saw its own packets only.
        const auto copies = drain(*subs[i]);
        QCOMPARE(u64(copies.size()), sum.sent.packets);
        for (const auto& cp : copies) {
            QCOMPARE(cp.streamId, std::uint16_t(i));
            QCOMPARE(cp.headerBytes, std::size_t{i == 2 ? 8u : 0u});
        }
    }
    const auto& sa = snap.streams[0];
    const auto& sb = snap.streams[1];
    const auto& sc = snap.streams[2];
    QCOMPARE(sa.counters.parametersDecoded, summaries[0].apids.at(7).packets * p5Params);
    QCOMPARE(sa.counters.packetsRecorded, summaries[0].apids.at(7).packets);
    QCOMPARE(sa.counters.packetsForwarded, u64{0});
    QCOMPARE(sb.counters.parametersDecoded, summaries[1].apids.at(400).packets * gncParams);
    QCOMPARE(sb.counters.packetsRecorded, u64{0});
    QCOMPARE(sb.counters.packetsForwarded, summaries[1].apids.at(7).packets);
    QCOMPARE(sc.counters.parametersDecoded, u64{0});
    QCOMPARE(sc.counters.packetsRecorded, summaries[2].apids.at(7).packets + typeStats(sc, "Diag_Power")->counters.packetsReceived);
    QCOMPARE(typeStats(sc, "Diag_Thermal")->counters.packetsRecorded, u64{0});
    QCOMPARE(typeStats(sc, "Diag_Power")->counters.packetsReceived + typeStats(sc, "Diag_Thermal")->counters.packetsReceived,
             summaries[2].apids.at(600).packets);
    QCOMPARE(u64(capture.count()), summaries[1].apids.at(7).packets);
    st->stop();

    // One recording per recording stream, each with its own packets.
    for (const std::size_t i : {std::size_t{0}, std::size_t{2}}) {
        std::vector<record::SegmentInfo> segments;
        std::vector<RecordCopy> records;
        const auto problem = readRecording(recDir, names[i], segments, records);
        QVERIFY2(problem.empty(), problem.c_str());
        QCOMPARE(u64(records.size()), snap.streams[i].counters.packetsRecorded);
        for (const auto& r : records)
            QCOMPARE(r.meta.streamId, std::uint16_t(i));
    }
    std::vector<record::SegmentInfo> none;
    std::vector<RecordCopy> noRecords;
    QVERIFY(readRecording(recDir, "bravo", none, noRecords).empty());
    QVERIFY(none.empty());
}

// ---- Live settings ---------------------------------------------------------------------------------------

void TestPipelineModes::liveSettingsChange()
{
    QTemporaryDir dir;
    const std::string recDir = dir.filePath("rec").toStdString();
    const auto& db = test::trainingDatabase();
    const auto profile = test::stationProfile(dir, {test::streamProfile("live", "udp://127.0.0.1:0", {
        {7, std::nullopt, ProcessingMode::PassThru, false, {}},
    })});
    auto st = startStation(profile, db);
    QVERIFY(st);
    auto sub = packetSubscription(*st, "live");
    QVERIFY(sub);
    api::ParameterSubscription::Options po;
    po.stream = "live";
    po.parameters = {"Packet5.FRAME_COUNT"};
    po.capacity = 20000;
    auto params = api::ParameterSubscription::create(*st, po);
    QVERIFY(params);

    // The simulator runs until stopped, so the change surely lands while it sends.
    auto config = test::traffic(udpUrl(st->localPort("live")), {"Packet5"}, std::nullopt, 5000);
    config.generators["Packet5.FRAME_COUNT"] = counterGen(sim::ValueDomain::Raw, 0, 1);
    auto sim = test::simulator(config, db);
    sim->start();
    const auto p5 = [&] { return *typeStats(st->snapshot().streams[0], "Packet5"); };
    // Processed (after routing): these 1000 went through as pass thru, unrecorded, whatever comes next.
    constexpr u64 kBefore = 1000;
    QVERIFY(waitUntil([&] { return p5().counters.packetsProcessed >= kBefore; }));
    QCOMPARE(p5().counters.parametersDecoded, u64{0});
    QCOMPARE(p5().counters.packetsRecorded, u64{0});

    QVERIFY(st->setPacketSettings("live", {7, std::nullopt, ProcessingMode::ProcessEntirePacket, true, {}}));
    QVERIFY(waitUntil([&] {
        const auto t = p5();
        return t.counters.packetsRecorded >= 500 && t.counters.parametersDecoded >= 500 * 88;
    }));
    QVERIFY(sim->running());
    sim->stop();
    const auto summary = sim->summary();
    QVERIFY(settle(*st, "live", summary.sent.packets));

    const auto snap = st->snapshot();
    QVERIFY(!snap.hasLoss());
    const auto& t = *typeStats(snap.streams[0], "Packet5");
    const u64 sent = summary.sent.packets;
    QCOMPARE(t.mode, std::string("processEntirePacket"));
    QVERIFY(t.record);
    QCOMPARE(t.counters.packetsReceived, sent);
    QCOMPARE(t.counters.packetsProcessed, sent);
    QCOMPARE(t.counters.packetsLost, u64{0});
    QCOMPARE(t.counters.parametersDecoded % 88, u64{0});
    const u64 decoded = t.counters.parametersDecoded / 88;
    const u64 recorded = t.counters.packetsRecorded;
    QVERIFY(decoded >= 500 && decoded <= sent - kBefore);
    QVERIFY(recorded >= 500 && recorded <= sent - kBefore);
    const auto live = st->profile().streams[0].packets;
    QCOMPARE(live.size(), std::size_t{1});
    QVERIFY(live[0].mode == ProcessingMode::ProcessEntirePacket);
    QVERIFY(live[0].record);

    // From the change on, every packet was decoded: the counter values of the last `decoded` packets.
    std::vector<api::ParameterSample> samples(20000);
    samples.resize((*params)->poll(samples));
    QCOMPARE(u64(samples.size()), decoded);
    for (std::size_t i = 0; i < samples.size(); ++i)
        QCOMPARE(samples[i].value.raw, sent - decoded + i);

    // ... and recorded: the recording holds the last `recorded` packets.
    const auto copies = drain(*sub);
    QCOMPARE(u64(copies.size()), sent);
    st->stop();
    const auto problem = checkRecording(recDir, "live", std::span(copies).subspan(copies.size() - recorded));
    QVERIFY2(problem.empty(), problem.c_str());
}

// A forward destination added to a type, and unknown packets switched to discard, while the simulator
// sends: from the change on, every packet of the type is forwarded and every unknown one discarded.
void TestPipelineModes::liveForwardAndUnknownSettings()
{
    QTemporaryDir dir;
    const auto& db = test::trainingDatabase();
    auto stationDb = db; // without Spectrometer_LE: APID 300 is unknown to the station
    std::erase_if(stationDb.packets, [](const mdb::PacketDef& p) { return p.name == "Spectrometer_LE"; });
    test::UdpCapture capture;
    const auto profile = test::stationProfile(dir, {test::streamProfile("live2", "udp://127.0.0.1:0", {
        {7, std::nullopt, ProcessingMode::PassThru, false, {}},
    })});
    auto st = startStation(profile, stationDb);
    QVERIFY(st);
    auto p5Sub = packetSubscription(*st, "live2", "Packet5");
    auto unknownSub = packetSubscription(*st, "live2", "unknown");
    QVERIFY(p5Sub && unknownSub);

    auto sim = test::simulator(test::traffic(udpUrl(st->localPort("live2")), {"Packet5", "Spectrometer_LE"}, std::nullopt, 5000), db);
    sim->start();
    const auto types = [&] {
        const auto snap = st->snapshot();
        return std::make_pair(*typeStats(snap.streams[0], "Packet5"), *typeStats(snap.streams[0], "unknown"));
    };
    constexpr u64 kBefore = 500;
    QVERIFY(waitUntil([&] {
        const auto [p5, unknown] = types();
        return p5.counters.packetsProcessed >= kBefore && unknown.counters.packetsProcessed >= kBefore;
    }));
    QVERIFY(st->setPacketSettings("live2", {7, std::nullopt, ProcessingMode::PassThru, false, {udpUrl(capture.port())}}));
    QVERIFY(st->setUnknownSettings("live2", ProcessingMode::Discard, false, {}));
    QVERIFY(waitUntil([&] {
        const auto [p5, unknown] = types();
        return capture.count() >= 300 && unknown.counters.discarded >= 300;
    }));
    QVERIFY(sim->running());
    sim->stop();
    const auto summary = sim->summary();
    QVERIFY(settle(*st, "live2", summary.sent.packets));
    const u64 nP5 = summary.apids.at(7).packets;
    QVERIFY(waitUntil([&] { return capture.count() >= types().first.counters.packetsForwarded; }));

    const auto snap = st->snapshot();
    QVERIFY2(!snap.hasLoss(), "nothing lost, dropped or not sent");
    const auto [p5, unknown] = types();
    QCOMPARE(p5.counters.packetsReceived, nP5);
    QCOMPARE(p5.counters.packetsProcessed, nP5);
    QCOMPARE(p5.forwardDestinations, 1u);
    const u64 forwarded = p5.counters.packetsForwarded;
    QVERIFY(forwarded >= 300 && forwarded <= nP5 - kBefore);
    QCOMPARE(p5.counters.forwardErrors, u64{0});
    QCOMPARE(snap.forwards.size(), std::size_t{1});
    QCOMPARE(snap.forwards[0].packets, forwarded);
    // Forwarded: the last `forwarded` Packet5 packets, none missing after the first.
    const auto p5Copies = drain(*p5Sub);
    QCOMPARE(u64(p5Copies.size()), nP5);
    auto problem = compareDatagrams(capture.datagrams(), std::span(p5Copies).subspan(p5Copies.size() - forwarded));
    QVERIFY2(problem.empty(), problem.c_str());

    QCOMPARE(unknown.mode, std::string("discard"));
    QCOMPARE(unknown.counters.packetsReceived, summary.apids.at(300).packets);
    QCOMPARE(unknown.counters.unknown, summary.apids.at(300).packets);
    QCOMPARE(unknown.counters.packetsProcessed + unknown.counters.discarded, summary.apids.at(300).packets);
    QVERIFY(unknown.counters.packetsProcessed >= kBefore);
    QVERIFY(unknown.counters.discarded >= 300);
    // Delivered before the change: the first packets of APID 300, sequence counts 0, 1, 2, ...
    const auto unknownCopies = drain(*unknownSub);
    QCOMPARE(u64(unknownCopies.size()), unknown.counters.packetsProcessed);
    for (std::size_t i = 0; i < unknownCopies.size(); ++i) {
        const auto& f = unknownCopies[i].frame;
        QCOMPARE(std::size_t((f[2] & 0x3F) << 8 | f[3]), i % 16384);
    }
    st->stop();
}

// ---- Unknown packets ----------------------------------------------------------------------------------

void TestPipelineModes::unknownPackets_data()
{
    QTest::addColumn<bool>("discard");
    QTest::newRow("passThru/record/forward") << false;
    QTest::newRow("discard") << true;
}

void TestPipelineModes::unknownPackets()
{
    QFETCH(bool, discard);
    QTemporaryDir dir;
    const std::string recDir = dir.filePath("rec").toStdString();
    const auto& db = test::trainingDatabase();
    // The station's database lacks Spectrometer_LE (APID 300), which the simulator sends.
    auto stationDb = db;
    std::erase_if(stationDb.packets, [](const mdb::PacketDef& p) { return p.name == "Spectrometer_LE"; });
    QCOMPARE(stationDb.packets.size(), db.packets.size() - 1);
    test::UdpCapture capture;

    config::StationProfile profile;
    profile.recordingDirectory = recDir;
    config::StreamProfile sp;
    sp.name = "unk";
    sp.source = "udp://127.0.0.1:0";
    sp.unknownMode = discard ? ProcessingMode::Discard : ProcessingMode::PassThru;
    // With discard, record and forward must have no effect (the profile validator warns about them).
    sp.recordUnknown = true;
    sp.forwardUnknown = {udpUrl(capture.port())};
    profile.streams.push_back(sp);
    auto st = startStation(profile, stationDb);
    QVERIFY(st);
    auto unknownSub = packetSubscription(*st, "unk", "unknown");
    QVERIFY(unknownSub);

    const auto summary = test::send(test::traffic(udpUrl(st->localPort("unk")), {"HK_Status", "Spectrometer_LE"}, 800, 10000), db);
    QCOMPARE(summary.sent.packets, u64{800});
    QVERIFY(settle(*st, "unk", summary.sent.packets));
    const u64 nUnknown = summary.apids.at(300).packets;
    const u64 nHk = summary.apids.at(100).packets;
    if (!discard)
        QVERIFY(waitUntil([&] { return capture.count() >= nUnknown; }));

    const auto snap = st->snapshot();
    QVERIFY2(!snap.hasLoss(), "unknown and discarded packets are not loss");
    const auto& s = snap.streams[0];
    QCOMPARE(s.counters.packetsReceived, summary.sent.packets);
    QCOMPARE(s.counters.packetsLost, u64{0});
    const auto* u = typeStats(s, "unknown");
    QVERIFY(u);
    QCOMPARE(u->mode, std::string(discard ? "discard" : "passThru"));
    QCOMPARE(u->counters.packetsReceived, nUnknown);
    QCOMPARE(u->counters.bytesReceived, summary.apids.at(300).bytes);
    QCOMPARE(u->counters.unknown, nUnknown);
    QCOMPARE(u->counters.parametersDecoded, u64{0});
    QCOMPARE(u->counters.discarded, discard ? nUnknown : 0);
    QCOMPARE(u->counters.packetsProcessed, discard ? 0 : nUnknown);
    QCOMPARE(u->counters.packetsRecorded, discard ? 0 : nUnknown);
    QCOMPARE(u->counters.packetsForwarded, discard ? 0 : nUnknown);
    QCOMPARE(u->counters.bytesForwarded, discard ? 0 : summary.apids.at(300).bytes);
    // The defined type is not affected by the unknown settings.
    const auto* hk = typeStats(s, "HK_Status");
    QVERIFY(hk);
    QCOMPARE(hk->counters.packetsReceived, nHk);
    QCOMPARE(hk->counters.packetsProcessed, nHk);
    QCOMPARE(hk->counters.packetsRecorded, u64{0});
    QCOMPARE(hk->counters.packetsForwarded, u64{0});
    QCOMPARE(hk->counters.unknown, u64{0});

    const auto copies = drain(*unknownSub);
    QCOMPARE(u64(copies.size()), discard ? 0 : nUnknown);
    for (const auto& c : copies) {
        QCOMPARE(c.typeIndex, pipeline::kUnknownType);
        QCOMPARE(c.apid, std::uint16_t{300});
    }
    if (discard) {
        QCOMPARE(capture.count(), std::size_t{0});
    } else {
        const auto problem = compareDatagrams(capture.datagrams(), copies);
        QVERIFY2(problem.empty(), problem.c_str());
    }
    st->stop();

    const auto problem = checkRecording(recDir, "unk", copies);
    QVERIFY2(problem.empty(), problem.c_str());
}

QTEST_GUILESS_MAIN(TestPipelineModes)
#include "tst_pipeline_modes.moc"
