// The statistics snapshot: what counts as loss (hasLoss), and its JSON — valid (parsed by
// QJsonDocument), keys exactly the member names, every value read back equal, strings escaped,
// 64-bit integers exact in the text, no NaN or infinity, and the pretty form the same document.
#include "core/stats/snapshot.hpp"
#include "core/stats/snapshot_json.hpp"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QtTest>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <string>
#include <string_view>
#include <vector>

using namespace telestation::stats;

namespace {

// A snapshot in which every loss-free counter is non-zero and every loss counter is zero.
StationSnapshot cleanSnapshot()
{
    StationSnapshot s;
    s.timeNs = 1'714'564'805'000'000'000;
    s.uptimeSeconds = 65;
    s.totals.packetsReceived = 100;
    s.totals.bytesReceived = 128800;
    s.totals.packetsProcessed = 100;
    s.totals.parametersDecoded = 5000;
    s.totals.unknown = 4;
    s.totals.discarded = 4;
    s.totals.duplicates = 2;
    s.totals.sequenceErrors = 2;
    s.totals.largestGap = 7; // a gap whose packets all arrived late after all
    s.recordingErrors = 1; // a failed recorder with no packet since: nothing lost yet
    StreamStats stream;
    stream.name = "tm";
    stream.counters = s.totals;
    stream.skippedBytes = 10;
    stream.connects = 3;
    stream.disconnects = 2;
    stream.networkQueue = { 5, 100, 90, 80, 1, 0 };
    stream.processQueue = { 1, 100, 50, 0, 0, 0 };
    PacketTypeStats type;
    type.name = "hk";
    type.counters = s.totals;
    stream.packetTypes.push_back(type);
    s.streams.push_back(stream);
    ForwardStats forward;
    forward.destination = "udp://127.0.0.1:6000";
    forward.packets = 100;
    forward.disconnects = 1;
    s.forwards.push_back(forward);
    ConsumerStats consumer;
    consumer.name = "display";
    consumer.queue = { 3, 10, 10, 0, 0, 0 };
    consumer.delivered = 97;
    s.consumers.push_back(consumer);
    return s;
}

struct Change {
    const char* what;
    void (*apply)(StationSnapshot&);
    bool loss;
};

// Each PacketCounters member, set or raised, and whether that is loss.
struct CounterChange {
    const char* field;
    void (*apply)(PacketCounters&);
    bool loss;
};

const std::vector<CounterChange> kCounterChanges = {
    { "packetsLost", [](PacketCounters& c) { c.packetsLost = 1; }, true },
    { "malformed", [](PacketCounters& c) { c.malformed = 1; }, true },
    { "networkDrops", [](PacketCounters& c) { c.networkDrops = 1; }, true },
    { "processDrops", [](PacketCounters& c) { c.processDrops = 1; }, true },
    { "recordDrops", [](PacketCounters& c) { c.recordDrops = 1; }, true },
    { "forwardDrops", [](PacketCounters& c) { c.forwardDrops = 1; }, true },
    { "recordErrors", [](PacketCounters& c) { c.recordErrors = 1; }, true },
    { "forwardErrors", [](PacketCounters& c) { c.forwardErrors = 1; }, true },
    { "unknown", [](PacketCounters& c) { c.unknown += 1000; }, false },
    { "discarded", [](PacketCounters& c) { c.discarded += 1000; }, false },
    { "duplicates", [](PacketCounters& c) { c.duplicates += 1000; }, false },
    { "sequenceErrors", [](PacketCounters& c) { c.sequenceErrors += 1000; }, false },
    { "largestGap", [](PacketCounters& c) { c.largestGap += 1000; }, false },
    { "packetsRecorded", [](PacketCounters& c) { c.packetsRecorded += 1000; }, false },
    { "packetsForwarded", [](PacketCounters& c) { c.packetsForwarded += 1000; }, false },
    { "layoutErrors", [](PacketCounters& c) { c.layoutErrors += 1000; }, false }, // malformed is the loss
    { "longPackets", [](PacketCounters& c) { c.longPackets += 1000; }, false },
    { "extraBytes", [](PacketCounters& c) { c.extraBytes += 1000; }, false },
};

// The three levels that hold PacketCounters.
struct CounterPlace {
    const char* name;
    PacketCounters& (*of)(StationSnapshot&);
};

const std::vector<CounterPlace> kCounterPlaces = {
    { "totals", [](StationSnapshot& s) -> PacketCounters& { return s.totals; } },
    { "stream.counters", [](StationSnapshot& s) -> PacketCounters& { return s.streams[0].counters; } },
    { "packetType.counters",
        [](StationSnapshot& s) -> PacketCounters& { return s.streams[0].packetTypes[0].counters; } },
};

// Changes to the other members.
const std::vector<Change> kChanges = {
    { "stream.kernelDrops", [](StationSnapshot& s) { s.streams[0].kernelDrops = 1; }, true },
    { "stream.framingErrors", [](StationSnapshot& s) { s.streams[0].framingErrors = 1; }, true },
    { "stream.truncatedPackets", [](StationSnapshot& s) { s.streams[0].truncatedPackets = 1; }, true },
    { "stream.poolDrops", [](StationSnapshot& s) { s.streams[0].poolDrops = 1; }, true },
    { "stream.networkQueue.drops", [](StationSnapshot& s) { s.streams[0].networkQueue.drops = 1; }, true },
    { "stream.processQueue.drops", [](StationSnapshot& s) { s.streams[0].processQueue.drops = 1; }, true },
    { "stream.recordQueue.drops", [](StationSnapshot& s) { s.streams[0].recordQueue.drops = 1; }, true },
    { "stream.forwardQueue.drops", [](StationSnapshot& s) { s.streams[0].forwardQueue.drops = 1; }, true },
    { "consumer.queue.drops", [](StationSnapshot& s) { s.consumers[0].queue.drops = 1; }, true },
    { "forward.notSent", [](StationSnapshot& s) { s.forwards[0].notSent = 1; }, true },
    { "stream.skippedBytes", [](StationSnapshot& s) { s.streams[0].skippedBytes += 1000; }, false },
    { "stream.disconnects", [](StationSnapshot& s) { s.streams[0].disconnects += 1000; }, false },
    { "stream.networkQueue.warnings", [](StationSnapshot& s) { s.streams[0].networkQueue.warnings += 1000; }, false },
    { "stream.networkQueue.highWater", [](StationSnapshot& s) { s.streams[0].networkQueue.highWater = 100; }, false },
    { "forward.disconnects", [](StationSnapshot& s) { s.forwards[0].disconnects += 1000; }, false },
    { "consumer.queue.depth", [](StationSnapshot& s) { s.consumers[0].queue.depth = 10; }, false },
    { "recordingErrors", [](StationSnapshot& s) { s.recordingErrors += 1000; }, false },
    { "events", [](StationSnapshot& s) { s.events += 1000; }, false },
};

// A snapshot with two streams of two packet types, two forwards and two consumers, in which every
// number is different (so that a value under the wrong key is noticed) and below 2^53 (exact as a
// double, which is what QJsonDocument reads numbers into).
StationSnapshot richSnapshot()
{
    std::uint64_t next = 1000;
    const auto n = [&next] { return next += 7; };
    const auto counters = [&] {
        PacketCounters c;
        for (std::uint64_t* field : { &c.packetsReceived, &c.bytesReceived, &c.packetsProcessed, &c.packetsRecorded,
                 &c.bytesRecorded, &c.packetsForwarded, &c.bytesForwarded, &c.parametersDecoded, &c.packetsDecoded, &c.unknown,
                 &c.discarded, &c.malformed, &c.layoutErrors, &c.longPackets, &c.extraBytes, &c.sequenceErrors, &c.packetsLost, &c.largestGap, &c.duplicates,
                 &c.networkDrops, &c.processDrops, &c.recordDrops, &c.forwardDrops, &c.recordErrors, &c.forwardErrors })
            *field = n();
        return c;
    };
    const auto queue = [&] { return QueueStats { n(), n(), n(), n(), n(), n() }; };
    double d = 0.1;
    const auto rates = [&] {
        d *= 3.7;
        return Rates { d, d / 3.0, d * 1e5 + 0.123 };
    };

    StationSnapshot s;
    s.timeNs = 4'503'599'627'370'495; // below 2^53 here; realistic times are tested on the raw text
    s.uptimeSeconds = 65.25;
    s.cpuPercent = 100.0 / 3.0;
    s.totals = counters();
    s.rates = rates();
    s.recordingErrors = n();
    s.recordingState = "recording to /var/lib/telestation/rec";
    s.poolInUse = n();
    s.poolCapacity = n();
    s.events = n();
    for (std::size_t i = 1; i < s.alarms.active.size(); ++i) {
        s.alarms.active[i] = static_cast<std::uint32_t>(n());
        s.alarms.unacknowledged[i] = static_cast<std::uint32_t>(n());
    }
    s.alarms.shelved = static_cast<std::uint32_t>(n());
    for (int i = 0; i < 2; ++i) {
        StreamStats st;
        st.name = "stream " + std::to_string(i);
        st.source = "udp://127.0.0.1:4700" + std::to_string(i);
        st.state = i == 0 ? "receiving" : "stopped: \"error\"";
        st.recording = i == 0 ? "recording into tm-20261127T000000-1.tsrec" : "failed: write to x: No space left on device";
        st.running = i == 0;
        st.counters = counters();
        st.rates = rates();
        st.kernelDrops = n();
        st.framingErrors = n();
        st.skippedBytes = n();
        st.truncatedPackets = n();
        st.poolDrops = n();
        st.connects = n();
        st.disconnects = n();
        st.progress = i == 0 ? -1.0 : 0.625;
        st.networkQueue = queue();
        st.processQueue = queue();
        st.recordQueue = queue();
        st.forwardQueue = queue();
        for (int j = 0; j < 2; ++j) {
            PacketTypeStats t;
            t.name = "type " + std::to_string(i) + "." + std::to_string(j);
            t.apid = static_cast<std::uint32_t>(n());
            t.hasSecondaryId = j == 1;
            t.secondaryId = n();
            t.mode = j == 0 ? "passThru" : "processEntirePacket";
            t.record = j == 1;
            t.forwardDestinations = static_cast<std::uint32_t>(n());
            t.counters = counters();
            t.rates = rates();
            t.lastReceiveTimeNs = -static_cast<std::int64_t>(n());
            st.packetTypes.push_back(t);
        }
        s.streams.push_back(st);
    }
    for (int i = 0; i < 2; ++i) {
        ForwardStats f;
        f.destination = "tcp://10.0.0." + std::to_string(i) + ":7000";
        f.state = i == 0 ? "connected" : "down";
        f.connected = i == 0;
        f.packets = n();
        f.bytes = n();
        f.notSent = n();
        f.connects = n();
        f.disconnects = n();
        s.forwards.push_back(f);
    }
    for (int i = 0; i < 2; ++i) {
        ConsumerStats c;
        c.name = "consumer " + std::to_string(i);
        c.kind = i == 0 ? "packets" : "parameters";
        c.delivery = i == 0 ? "everySample" : "newest";
        c.queue = queue();
        c.delivered = n();
        s.consumers.push_back(c);
    }
    return s;
}

// Reading the JSON back, by key, into the C++ types (numbers through double: test values < 2^53).
std::uint64_t u64(const QJsonObject& o, const char* key)
{
    return static_cast<std::uint64_t>(o.value(QLatin1String(key)).toDouble(-1));
}
std::int64_t i64(const QJsonObject& o, const char* key)
{
    return static_cast<std::int64_t>(o.value(QLatin1String(key)).toDouble(-1));
}
double f64(const QJsonObject& o, const char* key)
{
    return o.value(QLatin1String(key)).toDouble(-12345);
}
std::string str(const QJsonObject& o, const char* key)
{
    return o.value(QLatin1String(key)).toString(QStringLiteral("<missing>")).toStdString();
}
bool boolean(const QJsonObject& o, const char* key)
{
    const auto v = o.value(QLatin1String(key));
    return v.isBool() && v.toBool();
}
QJsonObject obj(const QJsonObject& o, const char* key)
{
    return o.value(QLatin1String(key)).toObject();
}

QueueStats readQueue(const QJsonObject& o)
{
    return { u64(o, "depth"), u64(o, "capacity"), u64(o, "highWater"), u64(o, "warningThreshold"), u64(o, "warnings"),
        u64(o, "drops") };
}

PacketCounters readCounters(const QJsonObject& o)
{
    PacketCounters c;
    c.packetsReceived = u64(o, "packetsReceived");
    c.bytesReceived = u64(o, "bytesReceived");
    c.packetsProcessed = u64(o, "packetsProcessed");
    c.packetsRecorded = u64(o, "packetsRecorded");
    c.bytesRecorded = u64(o, "bytesRecorded");
    c.packetsForwarded = u64(o, "packetsForwarded");
    c.bytesForwarded = u64(o, "bytesForwarded");
    c.parametersDecoded = u64(o, "parametersDecoded");
    c.packetsDecoded = u64(o, "packetsDecoded");
    c.unknown = u64(o, "unknown");
    c.discarded = u64(o, "discarded");
    c.malformed = u64(o, "malformed");
    c.layoutErrors = u64(o, "layoutErrors");
    c.longPackets = u64(o, "longPackets");
    c.extraBytes = u64(o, "extraBytes");
    c.sequenceErrors = u64(o, "sequenceErrors");
    c.packetsLost = u64(o, "packetsLost");
    c.largestGap = u64(o, "largestGap");
    c.duplicates = u64(o, "duplicates");
    c.networkDrops = u64(o, "networkDrops");
    c.processDrops = u64(o, "processDrops");
    c.recordDrops = u64(o, "recordDrops");
    c.forwardDrops = u64(o, "forwardDrops");
    c.recordErrors = u64(o, "recordErrors");
    c.forwardErrors = u64(o, "forwardErrors");
    return c;
}

Rates readRates(const QJsonObject& o)
{
    return { f64(o, "packetsPerSecond"), f64(o, "megabitsPerSecond"), f64(o, "parametersPerSecond") };
}

StationSnapshot readSnapshot(const QJsonObject& o)
{
    StationSnapshot s;
    s.timeNs = i64(o, "timeNs");
    s.uptimeSeconds = f64(o, "uptimeSeconds");
    s.cpuPercent = f64(o, "cpuPercent");
    s.totals = readCounters(obj(o, "totals"));
    s.rates = readRates(obj(o, "rates"));
    s.recordingErrors = u64(o, "recordingErrors");
    s.recordingState = str(o, "recordingState");
    s.poolInUse = u64(o, "poolInUse");
    s.poolCapacity = u64(o, "poolCapacity");
    s.events = u64(o, "events");
    {
        const QJsonObject a = obj(o, "alarms");
        const char* severities[] = {"warning", "error", "critical"};
        for (std::size_t i = 0; i < 3; ++i) {
            s.alarms.active[i + 1] = static_cast<std::uint32_t>(u64(obj(a, "active"), severities[i]));
            s.alarms.unacknowledged[i + 1] = static_cast<std::uint32_t>(u64(obj(a, "unacknowledged"), severities[i]));
        }
        s.alarms.shelved = static_cast<std::uint32_t>(u64(a, "shelved"));
    }
    for (const auto& v : o.value(QLatin1String("streams")).toArray()) {
        const QJsonObject so = v.toObject();
        StreamStats st;
        st.name = str(so, "name");
        st.source = str(so, "source");
        st.state = str(so, "state");
        st.recording = str(so, "recording");
        st.running = boolean(so, "running");
        st.counters = readCounters(obj(so, "counters"));
        st.rates = readRates(obj(so, "rates"));
        st.kernelDrops = u64(so, "kernelDrops");
        st.framingErrors = u64(so, "framingErrors");
        st.skippedBytes = u64(so, "skippedBytes");
        st.truncatedPackets = u64(so, "truncatedPackets");
        st.poolDrops = u64(so, "poolDrops");
        st.connects = u64(so, "connects");
        st.disconnects = u64(so, "disconnects");
        st.progress = f64(so, "progress");
        st.networkQueue = readQueue(obj(so, "networkQueue"));
        st.processQueue = readQueue(obj(so, "processQueue"));
        st.recordQueue = readQueue(obj(so, "recordQueue"));
        st.forwardQueue = readQueue(obj(so, "forwardQueue"));
        for (const auto& tv : so.value(QLatin1String("packetTypes")).toArray()) {
            const QJsonObject to = tv.toObject();
            PacketTypeStats t;
            t.name = str(to, "name");
            t.apid = static_cast<std::uint32_t>(u64(to, "apid"));
            t.hasSecondaryId = boolean(to, "hasSecondaryId");
            t.secondaryId = u64(to, "secondaryId");
            t.mode = str(to, "mode");
            t.record = boolean(to, "record");
            t.forwardDestinations = static_cast<std::uint32_t>(u64(to, "forwardDestinations"));
            t.counters = readCounters(obj(to, "counters"));
            t.rates = readRates(obj(to, "rates"));
            t.lastReceiveTimeNs = i64(to, "lastReceiveTimeNs");
            st.packetTypes.push_back(t);
        }
        s.streams.push_back(st);
    }
    for (const auto& v : o.value(QLatin1String("forwards")).toArray()) {
        const QJsonObject fo = v.toObject();
        ForwardStats f;
        f.destination = str(fo, "destination");
        f.state = str(fo, "state");
        f.connected = boolean(fo, "connected");
        f.packets = u64(fo, "packets");
        f.bytes = u64(fo, "bytes");
        f.notSent = u64(fo, "notSent");
        f.connects = u64(fo, "connects");
        f.disconnects = u64(fo, "disconnects");
        s.forwards.push_back(f);
    }
    for (const auto& v : o.value(QLatin1String("consumers")).toArray()) {
        const QJsonObject co = v.toObject();
        ConsumerStats c;
        c.name = str(co, "name");
        c.kind = str(co, "kind");
        c.delivery = str(co, "delivery");
        c.queue = readQueue(obj(co, "queue"));
        c.delivered = u64(co, "delivered");
        s.consumers.push_back(c);
    }
    return s;
}

QJsonObject parse(const std::string& json)
{
    QJsonParseError error {};
    const auto doc = QJsonDocument::fromJson(QByteArray::fromStdString(json), &error);
    if (error.error != QJsonParseError::NoError) {
        qWarning("JSON parse error at %d: %s", error.offset, qPrintable(error.errorString()));
        return {};
    }
    if (!doc.isObject()) {
        qWarning("JSON is not an object");
        return {};
    }
    return doc.object();
}

QStringList sortedKeys(const QJsonObject& o)
{
    QStringList keys = o.keys();
    keys.sort();
    return keys;
}

QStringList sorted(QStringList keys)
{
    keys.sort();
    return keys;
}

const QStringList kQueueKeys = { "depth", "capacity", "highWater", "warningThreshold", "warnings", "drops" };
const QStringList kCounterKeys
    = { "packetsReceived", "bytesReceived", "packetsProcessed", "packetsRecorded", "bytesRecorded", "packetsForwarded",
          "bytesForwarded", "parametersDecoded", "packetsDecoded", "unknown", "discarded", "malformed", "layoutErrors", "longPackets", "extraBytes", "sequenceErrors", "packetsLost",
          "largestGap", "duplicates", "networkDrops", "processDrops", "recordDrops", "forwardDrops", "recordErrors", "forwardErrors" };
const QStringList kRatesKeys = { "packetsPerSecond", "megabitsPerSecond", "parametersPerSecond" };

// Every PacketCounters member in declaration order, written out here (not taken from kCounterFields).
const std::vector<std::uint64_t PacketCounters::*> kCounterMembers = { &PacketCounters::packetsReceived,
    &PacketCounters::bytesReceived, &PacketCounters::packetsProcessed, &PacketCounters::packetsRecorded,
    &PacketCounters::bytesRecorded, &PacketCounters::packetsForwarded, &PacketCounters::bytesForwarded,
    &PacketCounters::parametersDecoded, &PacketCounters::packetsDecoded, &PacketCounters::unknown, &PacketCounters::discarded,
    &PacketCounters::malformed, &PacketCounters::layoutErrors, &PacketCounters::longPackets,
    &PacketCounters::extraBytes, &PacketCounters::sequenceErrors, &PacketCounters::packetsLost,
    &PacketCounters::largestGap, &PacketCounters::duplicates, &PacketCounters::networkDrops,
    &PacketCounters::processDrops, &PacketCounters::recordDrops, &PacketCounters::forwardDrops,
    &PacketCounters::recordErrors, &PacketCounters::forwardErrors };

// Counters whose members are all different: first, first + step, first + 2 step, ...
PacketCounters numbered(std::uint64_t first, std::uint64_t step)
{
    PacketCounters c;
    std::uint64_t value = first;
    for (const auto member : kCounterMembers) {
        c.*member = value;
        value += step;
    }
    return c;
}

// Where `needle` first occurs in `text` (for checking member order).
qsizetype at(const std::string& text, const std::string& needle)
{
    const auto pos = text.find(needle);
    return pos == std::string::npos ? -1 : static_cast<qsizetype>(pos);
}

} // namespace

class TestStatsSnapshot : public QObject {
    Q_OBJECT

private slots:
    void cleanSnapshotHasNoLoss()
    {
        QVERIFY(!cleanSnapshot().hasLoss());
        QVERIFY(!StationSnapshot {}.hasLoss());
    }

    void hasLoss_data()
    {
        QTest::addColumn<int>("place"); // index into kCounterPlaces, or -1 for kChanges
        QTest::addColumn<int>("index");
        for (std::size_t p = 0; p < kCounterPlaces.size(); ++p) {
            for (std::size_t i = 0; i < kCounterChanges.size(); ++i) {
                const std::string row = std::string(kCounterPlaces[p].name) + "." + kCounterChanges[i].field;
                QTest::newRow(row.c_str()) << static_cast<int>(p) << static_cast<int>(i);
            }
        }
        for (std::size_t i = 0; i < kChanges.size(); ++i)
            QTest::newRow(kChanges[i].what) << -1 << static_cast<int>(i);
    }

    void hasLoss()
    {
        QFETCH(int, place);
        QFETCH(int, index);
        StationSnapshot s = cleanSnapshot();
        bool loss = false;
        if (place >= 0) {
            const CounterChange& change = kCounterChanges[static_cast<std::size_t>(index)];
            change.apply(kCounterPlaces[static_cast<std::size_t>(place)].of(s));
            loss = change.loss;
        } else {
            const Change& change = kChanges[static_cast<std::size_t>(index)];
            change.apply(s);
            loss = change.loss;
        }
        QVERIFY(s != cleanSnapshot()); // the change did something
        QCOMPARE(s.hasLoss(), loss);
    }

    void lossInASecondStreamOrConsumer()
    {
        StationSnapshot s = cleanSnapshot();
        s.streams.push_back(s.streams[0]);
        s.consumers.push_back(s.consumers[0]);
        QVERIFY(!s.hasLoss());
        StationSnapshot a = s;
        a.streams[1].poolDrops = 1;
        QVERIFY(a.hasLoss());
        StationSnapshot b = s;
        b.consumers[1].queue.drops = 2;
        QVERIFY(b.hasLoss());
    }

    void counterFieldsAreEveryMemberInOrder()
    {
        QCOMPARE(kCounterFields.size(), kCounterMembers.size());
        for (std::size_t i = 0; i < kCounterFields.size(); ++i) {
            QVERIFY2(kCounterFields[i].member == kCounterMembers[i], kCounterFields[i].key.data());
            const std::string_view key = kCounterFields[i].key;
            QCOMPARE(QString::fromUtf8(key.data(), static_cast<qsizetype>(key.size())),
                kCounterKeys[static_cast<qsizetype>(i)]);
        }
    }

    // The station adds packet types into streams and streams into totals with +=: every counter is
    // a total except largestGap, the largest of the gaps.
    void plusEqualsSumsEveryCounterButTheLargestGap()
    {
        const PacketCounters a = numbered(100, 3);
        const PacketCounters b = numbered(7, 5);
        PacketCounters sum = a;
        sum += b;
        for (const auto member : kCounterMembers) {
            if (member == &PacketCounters::largestGap)
                continue;
            QCOMPARE(sum.*member, a.*member + b.*member);
        }
        QCOMPARE(sum.largestGap, std::max(a.largestGap, b.largestGap));
        PacketCounters other = b; // the larger gap on the left this time
        other.largestGap = a.largestGap + 1;
        other += a;
        QCOMPARE(other.largestGap, a.largestGap + 1);
        QCOMPARE(other.packetsReceived, a.packetsReceived + b.packetsReceived);
    }

    void sinceSubtractsTheBaseline()
    {
        const PacketCounters base = numbered(10, 3);
        const PacketCounters now = numbered(1000, 7);
        const PacketCounters view = now.since(base);
        for (const auto member : kCounterMembers) {
            if (member != &PacketCounters::largestGap)
                QCOMPARE(view.*member, now.*member - base.*member);
        }
        QCOMPARE(view.largestGap, now.largestGap); // larger than at the baseline: newer
        QCOMPARE(now.since(now), PacketCounters {});
    }

    void sinceKeepsOnlyALargerGap()
    {
        PacketCounters base;
        base.packetsReceived = 10;
        base.largestGap = 9;
        PacketCounters now = base;
        now.packetsReceived = 20;
        QCOMPARE(now.since(base).largestGap, std::uint64_t { 0 }); // the same gap as before the baseline
        now.largestGap = 4;
        QCOMPARE(now.since(base).largestGap, std::uint64_t { 0 });
        now.largestGap = 12;
        QCOMPARE(now.since(base).largestGap, std::uint64_t { 12 });
    }

    void sinceRestartedCountersAreShownAsTheyAre()
    {
        const PacketCounters base = numbered(100, 3);
        PacketCounters now = numbered(1000, 7);
        now.duplicates = base.duplicates - 1; // this counter restarted
        const PacketCounters view = now.since(base);
        QCOMPARE(view.duplicates, now.duplicates);
        QCOMPARE(view.bytesReceived, now.bytesReceived - base.bytesReceived);
        // Fewer packets received than at the baseline: the whole item restarted.
        now.packetsReceived = base.packetsReceived - 1;
        now.largestGap = base.largestGap - 1;
        QCOMPARE(now.since(base), now);
    }

    void queueJsonIsInDeclarationOrder()
    {
        QCOMPARE(toJson(QueueStats { 1, 2, 3, 4, 5, 18446744073709551615ULL }),
            std::string(R"({"depth":1,"capacity":2,"highWater":3,"warningThreshold":4,"warnings":5,)"
                        R"("drops":18446744073709551615})"));
    }

    void ratesJsonRoundTripsDoubles()
    {
        const Rates r { 0.1, 1.0 / 3.0, 1e-300 };
        const std::string text = toJson(r);
        QCOMPARE(text,
            std::string(R"({"packetsPerSecond":0.1,"megabitsPerSecond":0.3333333333333333,)"
                        R"("parametersPerSecond":1e-300})"));
        const auto o = parse(text);
        QCOMPARE(readRates(o), r);
        // Exactly, not QCOMPARE's fuzzy compare: the shortest form still names the same double.
        const std::string key = "\"megabitsPerSecond\":";
        QVERIFY(std::stod(text.substr(text.find(key) + key.size())) == r.megabitsPerSecond);
        QVERIFY(o.value("parametersPerSecond").toDouble() == 1e-300);
    }

    void countersJson()
    {
        PacketCounters c;
        c.packetsReceived = 1;
        c.forwardErrors = 20;
        c.duplicates = 15;
        const auto o = parse(toJson(c));
        QCOMPARE(sortedKeys(o), sorted(kCounterKeys));
        QCOMPARE(readCounters(o), c);
    }

    // Every member written under its own name and read back equal.
    void snapshotRoundTrips()
    {
        const StationSnapshot original = richSnapshot();
        const std::string text = toJson(original);
        QVERIFY(text.find('\n') == std::string::npos);
        const QJsonObject o = parse(text);
        QVERIFY(!o.isEmpty());
        const StationSnapshot read = readSnapshot(o);
        // Compare the text first: a mismatch shows which member differs.
        QCOMPARE(toJson(read), text);
        QVERIFY(read == original);
    }

    void snapshotKeysAreTheMemberNames()
    {
        const QJsonObject o = parse(toJson(richSnapshot()));
        QCOMPARE(sortedKeys(o),
            sorted({ "timeNs", "uptimeSeconds", "cpuPercent", "totals", "rates", "recordingErrors", "recordingState",
                "poolInUse", "poolCapacity", "events", "alarms", "streams", "forwards", "consumers" }));
        QCOMPARE(sortedKeys(obj(o, "alarms")), sorted({ "active", "unacknowledged", "shelved" }));
        QCOMPARE(sortedKeys(obj(obj(o, "alarms"), "active")), sorted({ "warning", "error", "critical" }));
        QCOMPARE(sortedKeys(obj(o, "totals")), sorted(kCounterKeys));
        QCOMPARE(sortedKeys(obj(o, "rates")), sorted(kRatesKeys));
        const auto streams = o.value("streams").toArray();
        QCOMPARE(streams.size(), 2);
        for (const auto& v : streams) {
            const auto so = v.toObject();
            QCOMPARE(sortedKeys(so),
                sorted({ "name", "source", "state", "recording", "running", "counters", "rates", "kernelDrops", "framingErrors",
                    "skippedBytes", "truncatedPackets", "poolDrops", "connects", "disconnects", "progress",
                    "networkQueue", "processQueue", "recordQueue", "forwardQueue", "packetTypes" }));
            QCOMPARE(sortedKeys(obj(so, "counters")), sorted(kCounterKeys));
            QCOMPARE(sortedKeys(obj(so, "rates")), sorted(kRatesKeys));
            for (const char* q : { "networkQueue", "processQueue", "recordQueue", "forwardQueue" })
                QCOMPARE(sortedKeys(obj(so, q)), sorted(kQueueKeys));
            const auto types = so.value("packetTypes").toArray();
            QCOMPARE(types.size(), 2);
            for (const auto& tv : types) {
                const auto to = tv.toObject();
                QCOMPARE(sortedKeys(to),
                    sorted({ "name", "apid", "hasSecondaryId", "secondaryId", "mode", "record", "forwardDestinations",
                        "counters", "rates", "lastReceiveTimeNs" }));
                QVERIFY(to.value("hasSecondaryId").isBool());
                QVERIFY(to.value("record").isBool());
                QCOMPARE(sortedKeys(obj(to, "counters")), sorted(kCounterKeys));
            }
        }
        const auto forwards = o.value("forwards").toArray();
        QCOMPARE(forwards.size(), 2);
        QCOMPARE(sortedKeys(forwards[0].toObject()),
            sorted({ "destination", "state", "connected", "packets", "bytes", "notSent", "connects", "disconnects" }));
        const auto consumers = o.value("consumers").toArray();
        QCOMPARE(consumers.size(), 2);
        QCOMPARE(sortedKeys(consumers[1].toObject()), sorted({ "name", "kind", "delivery", "queue", "delivered" }));
        QCOMPARE(sortedKeys(obj(consumers[1].toObject(), "queue")), sorted(kQueueKeys));
    }

    void snapshotMembersInDeclarationOrder()
    {
        const std::string text = toJson(richSnapshot());
        const std::vector<std::string> order = { "\"timeNs\"", "\"uptimeSeconds\"", "\"cpuPercent\"", "\"totals\"",
            "\"rates\"", "\"recordingErrors\"", "\"recordingState\"", "\"poolInUse\"", "\"poolCapacity\"", "\"events\"",
            "\"alarms\"", "\"streams\"", "\"forwards\"", "\"consumers\"" };
        for (std::size_t i = 1; i < order.size(); ++i)
            QVERIFY2(at(text, order[i - 1]) < at(text, order[i]), order[i].c_str());
        QVERIFY(at(text, "\"timeNs\"") == 1);
    }

    void emptySnapshot()
    {
        const std::string text = toJson(StationSnapshot {});
        QVERIFY(text.find(R"("streams":[],"forwards":[],"consumers":[])") != std::string::npos);
        const auto o = parse(text);
        QCOMPARE(readSnapshot(o), StationSnapshot {});
    }

    // Integers beyond 2^53 are written exactly (a double would round them).
    void largeIntegersExactInText()
    {
        StationSnapshot s = richSnapshot();
        s.timeNs = 1'714'564'805'123'456'789;
        s.totals.packetsReceived = (std::uint64_t { 1 } << 53) + 1;
        s.totals.bytesReceived = std::numeric_limits<std::uint64_t>::max();
        s.streams[1].packetTypes[0].lastReceiveTimeNs = std::numeric_limits<std::int64_t>::min();
        s.streams[0].packetTypes[1].secondaryId = 18'000'000'000'000'000'001ULL;
        const std::string text = toJson(s);
        QVERIFY(text.find(R"("timeNs":1714564805123456789,)") != std::string::npos);
        QVERIFY(text.find(R"("packetsReceived":9007199254740993,)") != std::string::npos);
        QVERIFY(text.find(R"("bytesReceived":18446744073709551615,)") != std::string::npos);
        QVERIFY(text.find(R"("lastReceiveTimeNs":-9223372036854775808})") != std::string::npos);
        QVERIFY(text.find(R"("secondaryId":18000000000000000001,)") != std::string::npos);
        QVERIFY(!parse(text).isEmpty());
        QVERIFY(!parse(toJsonPretty(s)).isEmpty());
    }

    void nonFiniteDoublesAreNull()
    {
        StationSnapshot s = richSnapshot();
        s.cpuPercent = std::numeric_limits<double>::quiet_NaN();
        s.rates.packetsPerSecond = std::numeric_limits<double>::infinity();
        s.rates.megabitsPerSecond = -std::numeric_limits<double>::infinity();
        s.streams[1].progress = std::numeric_limits<double>::quiet_NaN();
        const std::string text = toJson(s);
        for (const char* bad : { "nan", "NaN", "inf", "Infinity" })
            QVERIFY2(text.find(bad) == std::string::npos, bad);
        QVERIFY(text.find(R"("cpuPercent":null,)") != std::string::npos);
        QVERIFY(text.find(R"("packetsPerSecond":null,"megabitsPerSecond":null,)") != std::string::npos);
        const auto o = parse(text);
        QVERIFY(o.value("cpuPercent").isNull());
        QVERIFY(o.value("streams").toArray()[1].toObject().value("progress").isNull());
        QCOMPARE(obj(o, "rates").value("parametersPerSecond").toDouble(), s.rates.parametersPerSecond);
    }

    void negativeAndTinyDoubles()
    {
        StationSnapshot s;
        s.uptimeSeconds = -0.0;
        s.cpuPercent = 5e-324; // the smallest subnormal
        StreamStats st;
        st.progress = -1;
        s.streams.push_back(st);
        const std::string text = toJson(s);
        const auto o = parse(text);
        QVERIFY(!o.isEmpty());
        QCOMPARE(o.value("cpuPercent").toDouble(), 5e-324);
        QCOMPARE(o.value("streams").toArray()[0].toObject().value("progress").toDouble(), -1.0);
        QVERIFY(text.find(R"("progress":-1,)") != std::string::npos);
    }

    void stringEscaping()
    {
        const std::string name = "a\"b\\c\nd\x01"
                                 "e\x1f\t°C/\x7f";
        StationSnapshot s;
        s.recordingState = name;
        const std::string text = toJson(s);
        QVERIFY2(text.find(R"("recordingState":"a\"b\\c\u000ad\u0001e\u001f\u0009°C/)"
                           "\x7f\"")
                != std::string::npos,
            text.c_str());
        const auto o = parse(text);
        QCOMPARE(o.value("recordingState").toString(), QString::fromUtf8(name.c_str()));
        QCOMPARE(o.value("recordingState").toString().size(), 15);
    }

    void everyControlCharacterEscaped()
    {
        std::string all;
        for (int c = 0; c < 0x20; ++c)
            all += static_cast<char>(c);
        std::string text;
        appendJsonString(text, all);
        for (int c = 0; c < 0x20; ++c)
            QVERIFY(text.find(static_cast<char>(c)) == std::string::npos);
        QVERIFY(text.find("\\u0000\\u0001") == 1);
        QVERIFY(text.find("\\u001e\\u001f\"") != std::string::npos);
        StationSnapshot s;
        s.recordingState = all;
        const auto o = parse(toJson(s));
        QCOMPARE(
            o.value("recordingState").toString(), QString::fromUtf8(all.data(), static_cast<qsizetype>(all.size())));
    }

    void utf8PassedThroughAndInvalidReplaced_data()
    {
        QTest::addColumn<QByteArray>("input");
        QTest::addColumn<QByteArray>("expected"); // between the quotes
        const QByteArray fffd = "\xEF\xBF\xBD";
        QTest::newRow("2-byte") << QByteArray("25 \xC2\xB0"
                                              "C")
                                << QByteArray("25 \xC2\xB0"
                                              "C");
        QTest::newRow("3-byte") << QByteArray("\xE2\x82\xAC") << QByteArray("\xE2\x82\xAC");
        QTest::newRow("4-byte") << QByteArray("\xF0\x9F\x9B\xB0") << QByteArray("\xF0\x9F\x9B\xB0");
        QTest::newRow("U+2028 allowed in JSON") << QByteArray("\xE2\x80\xA8") << QByteArray("\xE2\x80\xA8");
        QTest::newRow("largest code point") << QByteArray("\xF4\x8F\xBF\xBF") << QByteArray("\xF4\x8F\xBF\xBF");
        QTest::newRow("lone continuation") << QByteArray("a\x80"
                                                         "b")
                                           << "a" + fffd + "b";
        QTest::newRow("byte 0xff") << QByteArray("\xFF") << fffd;
        QTest::newRow("overlong slash") << QByteArray("\xC0\xAF") << fffd + fffd;
        QTest::newRow("overlong 3-byte") << QByteArray("\xE0\x80\xAF") << fffd + fffd + fffd;
        QTest::newRow("surrogate") << QByteArray("\xED\xA0\x80") << fffd + fffd + fffd;
        QTest::newRow("above U+10FFFF") << QByteArray("\xF4\x90\x80\x80") << fffd + fffd + fffd + fffd;
        QTest::newRow("cut at the end") << QByteArray("x\xE2\x82") << "x" + fffd + fffd;
        QTest::newRow("cut before ASCII") << QByteArray("\xE2\x82\"") << fffd + fffd + "\\\"";
    }

    void utf8PassedThroughAndInvalidReplaced()
    {
        QFETCH(QByteArray, input);
        QFETCH(QByteArray, expected);
        std::string text = "prefix:";
        appendJsonString(text, input.toStdString());
        QCOMPARE(QByteArray::fromStdString(text), "prefix:\"" + expected + "\"");
        StationSnapshot s;
        s.recordingState = input.toStdString();
        QVERIFY(!parse(toJson(s)).isEmpty()); // always valid JSON
    }

    void prettyIsTheSameDocument()
    {
        const StationSnapshot s = richSnapshot();
        const std::string compact = toJson(s);
        const std::string pretty = toJsonPretty(s);
        QVERIFY(pretty != compact);
        QCOMPARE(QJsonDocument::fromJson(QByteArray::fromStdString(pretty)),
            QJsonDocument::fromJson(QByteArray::fromStdString(compact)));
        QCOMPARE(readSnapshot(parse(pretty)), s);
    }

    void prettyIndentation()
    {
        StationSnapshot s = richSnapshot();
        s.forwards.clear();
        const QStringList lines = QString::fromStdString(toJsonPretty(s)).split('\n');
        QCOMPARE(lines.first(), QStringLiteral("{"));
        QCOMPARE(lines.last(), QStringLiteral("}"));
        QCOMPARE(lines[1], QStringLiteral("  \"timeNs\": 4503599627370495,"));
        QVERIFY(lines.contains(QStringLiteral("  \"totals\": {")));
        QVERIFY(lines.contains(QStringLiteral("    \"packetsReceived\": %1,").arg(s.totals.packetsReceived)));
        QVERIFY(lines.contains(QStringLiteral("  \"forwards\": [],")));
        QVERIFY(lines.contains(QStringLiteral("  \"streams\": [")));
        QVERIFY(lines.contains(QStringLiteral("    {")));
        QVERIFY(lines.contains(QStringLiteral("      \"name\": \"stream 0\",")));
        QVERIFY(lines.contains(QStringLiteral("          \"counters\": {"))); // a packet type's
        QVERIFY(lines.contains(QStringLiteral("  ]")));
        for (const QString& line : lines) {
            QVERIFY2(!line.endsWith(' '), qPrintable(line));
            QVERIFY2(!line.contains('\t'), qPrintable(line));
            const auto indent = line.indexOf(QRegularExpression("[^ ]"));
            QVERIFY2(indent % 2 == 0, qPrintable(line));
        }
    }
};

QTEST_GUILESS_MAIN(TestStatsSnapshot)
#include "tst_stats_snapshot.moc"
