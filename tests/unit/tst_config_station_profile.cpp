// Station profiles: the example in resources loads cleanly and names only packet types of the training
// database; every kind of mistake is reported with its JSON path, several at once; TReK's small queue
// defaults are accepted; a stream's stale time, the event archive's options and the operators' limits
// are read with their defaults and checks; profileToJson omits defaults, keeps a stable key order and
// reads back equal; files: relative paths, syntax errors with line and column, missing files, atomic saves.
#include "core/config/station_profile.hpp"
#include "core/mdb/text_format.hpp"
#include "tests/support/test_paths.hpp"

#include <QtTest>

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QTemporaryDir>

#include <algorithm>
#include <cstdint>
#include <iterator>
#include <limits>
#include <optional>
#include <string>
#include <vector>

using namespace telestation;
using config::EventOptions;
using config::LimitSetting;
using config::PacketSettings;
using config::ProcessingMode;
using config::RecordingOptions;
using config::StationProfile;
using config::StreamProfile;

namespace {

// (Plain string literals, not raw ones: moc takes the "//" of a URL in a raw string for a comment.)
const QString kStreamA = "{\"name\": \"a\", \"source\": \"udp://127.0.0.1:47001\"}";
const QString kStreamB = "{\"name\": \"b\", \"source\": \"udp://127.0.0.1:47002\"}";

// A stream named `name` on UDP port `port` with extra members.
QString stream(const QString& extra, const QString& name = "a", int port = 47001)
{
    return "{\"name\": \"" + name + "\", \"source\": \"udp://127.0.0.1:" + QString::number(port) + "\"" +
           (extra.isEmpty() ? QString() : ", " + extra) + "}";
}

QString profileOf(const QStringList& streams, const QString& topExtra = {})
{
    return "{" + (topExtra.isEmpty() ? QString() : topExtra + ", ") + "\"streams\": [" + streams.join(", ") + "]}";
}

// One stream whose packets list holds these entries.
QString packets(const QString& entries)
{
    return profileOf({stream("\"packets\": [" + entries + "]")});
}

QString queues(const QString& members)
{
    return profileOf({kStreamA}, "\"queues\": {" + members + "}");
}

QString events(const QString& members)
{
    return profileOf({kStreamA}, "\"events\": {" + members + "}");
}

QString recording(const QString& members)
{
    return profileOf({kStreamA}, "\"recording\": {" + members + "}");
}

QString linkResponder(const QString& members)
{
    return profileOf({kStreamA}, "\"linkResponder\": {" + members + "}");
}

QString api(const QString& members)
{
    return profileOf({kStreamA}, "\"api\": {" + members + "}");
}

// A profile whose limits list holds these entries.
QString limits(const QString& entries)
{
    return profileOf({kStreamA}, "\"limits\": [" + entries + "]");
}

std::vector<Diagnostic> ofSeverity(const Diagnostics& diagnostics, Severity severity)
{
    std::vector<Diagnostic> out;
    std::copy_if(diagnostics.begin(), diagnostics.end(), std::back_inserter(out),
                 [&](const Diagnostic& d) { return d.severity == severity; });
    return out;
}

QString listed(const Diagnostics& diagnostics)
{
    QStringList lines;
    for (const auto& d : diagnostics)
        lines << QString::fromStdString(d.toString());
    return lines.join("\n");
}

std::string write(const QString& path, const QByteArray& text)
{
    QFile file(path);
    if (!file.open(QIODevice::WriteOnly))
        return {};
    file.write(text);
    return path.toStdString();
}

const PacketSettings* settingsFor(const StreamProfile& s, std::uint16_t apid)
{
    for (const auto& p : s.packets) {
        if (p.apid == apid && !p.secondaryId)
            return &p;
    }
    return nullptr;
}

// Every member set to something other than its default.
StationProfile richProfile()
{
    StationProfile p;
    p.mdb = "/data/missions/custom.mdb";
    p.recordingDirectory = "/var/lib/telestation/recordings";
    p.logDirectory = "/var/log/telestation";
    p.logLevel = "debug";
    p.queues.networkPacketQueueSize = 100000;
    p.queues.networkPacketQueueWarningThreshold = 90000;
    p.queues.processPacketQueueSize = 1;
    p.queues.recordPacketQueueSize = 16777216;
    p.queues.forwardPacketQueueSize = 333;
    p.queues.processedParameterQueueSize = 77;
    p.queues.maxRecordFileSize = 1ull << 40;
    p.recording.flushIntervalMs = 60000;
    p.recording.syncOnFlush = true;
    p.events.archive = false;
    p.events.archiveFile = "/var/lib/telestation/events/archive.sqlite";
    p.events.retentionDays = 36500;
    p.api.address = "0.0.0.0";
    p.api.port = 0;
    p.api.tlsCertificate = "/etc/telestation/api.crt";
    p.api.tlsKey = "/etc/telestation/api.key";
    p.api.tokens = {{"0123456789abcdef-reader", "analysts", false}, {"0123456789abcdef-writer", "flight", true}};
    p.linkResponder.listen = "0.0.0.0:7700";
    p.linkResponder.allow = {"192.168.1.20", "sim-pc.example"};
    LimitSetting cpu; // every bound
    cpu.parameter = "Packet5.CPU_LOAD";
    cpu.redLow = -1e300;
    cpu.yellowLow = -0.125;
    cpu.yellowHigh = 80;
    cpu.redHigh = 95.5;
    LimitSetting mode; // off, no bound
    mode.parameter = "Packet7.MODE";
    mode.enabled = false;
    LimitSetting idex; // one bound; an XTCE path and an aggregate member
    idex.parameter = "/IDEX/Sci0TypeZero.POS.x";
    idex.yellowHigh = 1;
    p.limits = {cpu, mode, idex};

    StreamProfile a;
    a.name = "Down-Link_1";
    a.source = "udp://239.1.2.3:5000?iface=10.0.0.1";
    a.transportHeaderBytes = 65535;
    a.enabled = false;
    a.staleAfterSeconds = 0.1;
    a.unknownMode = ProcessingMode::Discard;
    PacketSettings p1;
    p1.apid = 2047;
    p1.mode = ProcessingMode::PassThru;
    p1.record = true;
    p1.forward = {"udp://127.0.0.1:47101", "tcp-listen://[::1]:47102", "tcp://host.example:9"};
    PacketSettings p2;
    p2.apid = 600;
    p2.secondaryId = std::numeric_limits<std::uint64_t>::max();
    p2.mode = ProcessingMode::ProcessOnDemand;
    PacketSettings p3;
    p3.apid = 600;
    p3.secondaryId = 0;
    PacketSettings p4; // all defaults but the APID
    p4.apid = 0;
    PacketSettings p5; // by name: the packet type's one key
    p5.packet = "/IDEX/Sci0TypeNonZero";
    p5.mode = ProcessingMode::PassThru;
    p5.record = true;
    p5.forward = {"udp://127.0.0.1:47103"};
    a.packets = {p1, p2, p3, p4, p5};

    StreamProfile b;
    b.name = "playback";
    b.source = "file:///recordings/2024-01-01";
    b.recordUnknown = true;
    b.forwardUnknown = {"udp://[ff02::1]:6000"};
    b.staleAfterSeconds = 0; // never
    b.playbackPositionNs = 1'795'348'800'250'000'001; // where a stopped playback resumes

    StreamProfile c;
    c.name = "tcp";
    c.source = "tcp-listen://0.0.0.0:47003";
    p.streams = {a, b, c};
    return p;
}

} // namespace

class TestStationProfile : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void exampleLoadsCleanly();
    void exampleNamesTrainingPackets();
    void documentedExampleParses();
    void errorPaths_data();
    void errorPaths();
    void warningPaths_data();
    void warningPaths();
    void acceptedValues_data();
    void acceptedValues();
    void multipleErrorsReportedTogether();
    void limitProblemsReportedTogether();
    void staleTimeEventsAndLimitsParsed();
    void disabledLimitWarningSaysWhy();
    void trekDefaultsAccepted();
    void defaultsWhenOmitted();
    void roundTripRichProfile();
    void canonicalJsonOmitsDefaultsInStableOrder();
    void toStringNamesModes();
    void relativePathsResolved();
    void archiveFileKeepsItsPlaceWhenSavedElsewhere();
    void syntaxErrorLineColumn_data();
    void syntaxErrorLineColumn();
    void missingFileAndDirectory();
    void saveAndLoad();
    void saveToMissingDirectoryFails();
};

void TestStationProfile::exampleLoadsCleanly()
{
    const std::string path = test::sourceDir() + "/resources/profiles/training.json";
    const auto load = config::loadProfileFile(path);
    QVERIFY2(load.diagnostics.empty(), qPrintable(listed(load.diagnostics)));
    const StationProfile& p = load.profile;
    QCOMPARE(p.mdb, std::string()); // omitted: the training database
    QCOMPARE(p.streams.size(), std::size_t(3));
    QCOMPARE(p.streams[0].source, std::string("udp://127.0.0.1:47001"));
    QCOMPARE(p.streams[1].source, std::string("udp://127.0.0.1:47002"));
    // The simulator's demo scenario connects to 47003 as a client: the station listens.
    QCOMPARE(p.streams[2].source, std::string("tcp-listen://127.0.0.1:47003"));

    // The settings the example promises, on the stream that carries each packet type in demo.json.
    const auto* packet5 = settingsFor(p.streams[0], 7);
    QVERIFY(packet5);
    QVERIFY(packet5->mode == ProcessingMode::ProcessEntirePacket);
    QVERIFY(packet5->record);
    const auto* hk = settingsFor(p.streams[0], 100);
    QVERIFY(hk);
    QVERIFY(hk->mode == ProcessingMode::ProcessOnDemand);
    QVERIFY(hk->record);
    const auto* spectrometer = settingsFor(p.streams[1], 300);
    QVERIFY(spectrometer);
    QVERIFY(spectrometer->mode == ProcessingMode::PassThru);
    QCOMPARE(spectrometer->forward, std::vector<std::string>{"udp://127.0.0.1:47101"});
    const auto* gnc = settingsFor(p.streams[1], 400);
    QVERIFY(gnc);
    QVERIFY(gnc->mode == ProcessingMode::ProcessEntirePacket);

    // Relative directories became absolute, next to the profile.
    const QString dir = QFileInfo(QString::fromStdString(path)).absolutePath();
    QCOMPARE(QString::fromStdString(p.recordingDirectory), QDir::cleanPath(dir + "/recordings"));
    QCOMPARE(QString::fromStdString(p.logDirectory), QDir::cleanPath(dir + "/logs"));
}

void TestStationProfile::exampleNamesTrainingPackets()
{
    const auto db = mdb::readTextFile(test::trainingDefinitionPath());
    QVERIFY2(db.ok(), qPrintable(listed(db.diagnostics)));
    const auto load = config::loadProfileFile(test::sourceDir() + "/resources/profiles/training.json");
    QVERIFY(load.ok());
    for (const auto& s : load.profile.streams) {
        for (const auto& settings : s.packets) {
            const bool defined = std::any_of(db.database.packets.begin(), db.database.packets.end(),
                                             [&](const mdb::PacketDef& def) { return def.apid == settings.apid; });
            QVERIFY2(defined, qPrintable(QString("APID %1 of %2").arg(settings.apid).arg(s.name.c_str())));
        }
    }
}

// The complete example in docs/station-profile.md is valid and uses every key.
void TestStationProfile::documentedExampleParses()
{
    QFile doc(QString::fromStdString(test::sourceDir() + "/docs/station-profile.md"));
    QVERIFY(doc.open(QIODevice::ReadOnly));
    const QString text = QString::fromUtf8(doc.readAll());
    const qsizetype heading = text.indexOf("## Complete example");
    QVERIFY(heading >= 0);
    const qsizetype begin = text.indexOf("```json\n", heading);
    const qsizetype end = text.indexOf("```", begin + 8);
    QVERIFY(begin > 0 && end > begin);
    const QString json = text.mid(begin + 8, end - begin - 8);
    const auto load = config::parseProfile(json.toStdString(), "station-profile.md");
    QVERIFY2(load.diagnostics.empty(), qPrintable(listed(load.diagnostics)));
    for (const char* key : {"mdb", "recordingDirectory", "logDirectory", "logLevel", "networkPacketQueueSize",
                            "networkPacketQueueWarningThreshold", "processPacketQueueSize", "recordPacketQueueSize",
                            "forwardPacketQueueSize", "processedParameterQueueSize", "maxRecordFileSize", "name",
                            "source", "transportHeaderBytes", "enabled", "unknownPackets", "packets", "packet",
                            "apid", "secondaryId", "mode", "record", "forward", "staleAfterSeconds", "recording",
                            "flushIntervalMs", "syncOnFlush", "events", "linkResponder", "listen", "allow",
                            "archive", "archiveFile", "retentionDays", "limits", "parameter", "redLow",
                            "yellowLow", "yellowHigh", "redHigh"})
        QVERIFY2(json.contains(QString("\"%1\":").arg(key)), key);
    QCOMPARE(load.profile.streams.size(), std::size_t(2));
    QVERIFY(load.profile.events != EventOptions{});
    QVERIFY(load.profile.recording != RecordingOptions{});
    QCOMPARE(load.profile.linkResponder.listen, std::string("0.0.0.0:7700"));
    QVERIFY(load.profile.limits.size() >= 2);
    QVERIFY(std::any_of(load.profile.streams.begin(), load.profile.streams.end(), [](const StreamProfile& s) {
        return s.staleAfterSeconds != StreamProfile{}.staleAfterSeconds;
    }));
    QCOMPARE(load.profile.streams[0].packets.size(), std::size_t(6));
    QCOMPARE(load.profile.streams[0].packets[5].packet, std::string("Sci0TypeNonZero"));
}

void TestStationProfile::errorPaths_data()
{
    QTest::addColumn<QString>("json");
    QTest::addColumn<QString>("path");
    QTest::addColumn<QString>("says"); // a part of the message after the path

    const QString a = kStreamA;
    // Unknown keys, at every level.
    QTest::newRow("unknown top key") << profileOf({a}, "\"mbd\": \"x.mdb\"") << "$.mbd" << "unknown key";
    QTest::newRow("unknown key, bracketed") << profileOf({a}, "\"log level\": \"info\"") << "$[\"log level\"]"
                                            << "unknown key";
    QTest::newRow("unknown queue key") << queues("\"networkQueueSize\": 10") << "$.queues.networkQueueSize"
                                       << "unknown key";
    QTest::newRow("unknown stream key") << profileOf({stream("\"colour\": 1")}) << "$.streams[0].colour"
                                        << "unknown key";
    QTest::newRow("unknown unknownPackets key") << profileOf({stream("\"unknownPackets\": {\"drop\": true}")})
                                                << "$.streams[0].unknownPackets.drop" << "unknown key";
    QTest::newRow("unknown packet key") << packets("{\"apid\": 7, \"name\": \"Packet5\"}")
                                        << "$.streams[0].packets[0].name" << "unknown key";
    QTest::newRow("repeated key") << "{\"streams\": [], \"streams\": [" + a + "]}" << "$.streams" << "duplicate key";

    // Types and required keys.
    QTest::newRow("root not an object") << "[]" << "$" << "expected an object";
    QTest::newRow("streams missing") << "{\"logLevel\": \"info\"}" << "$.streams" << "missing";
    QTest::newRow("streams not an array") << "{\"streams\": {}}" << "$.streams" << "expected an array";
    QTest::newRow("mdb not a string") << profileOf({a}, "\"mdb\": 5") << "$.mdb" << "expected a string, got a number";
    QTest::newRow("recordingDirectory empty") << profileOf({a}, "\"recordingDirectory\": \"\"")
                                              << "$.recordingDirectory" << "empty";
    QTest::newRow("logDirectory not a string") << profileOf({a}, "\"logDirectory\": null") << "$.logDirectory"
                                               << "got null";
    QTest::newRow("logLevel unknown") << profileOf({a}, "\"logLevel\": \"verbose\"") << "$.logLevel"
                                      << "'verbose' is not a log level";
    QTest::newRow("queues not an object") << profileOf({a}, "\"queues\": 100") << "$.queues" << "expected an object";
    QTest::newRow("stream not an object") << profileOf({"\"a\""}) << "$.streams[0]" << "expected an object";
    QTest::newRow("name missing") << profileOf({"{\"source\": \"udp://127.0.0.1:47001\"}"}) << "$.streams[0].name"
                                  << "missing";
    QTest::newRow("source missing") << profileOf({"{\"name\": \"a\"}"}) << "$.streams[0].source" << "missing";
    QTest::newRow("name not a string") << profileOf({"{\"name\": 1, \"source\": \"udp://127.0.0.1:47001\"}"})
                                       << "$.streams[0].name" << "expected a string";
    QTest::newRow("enabled not a boolean") << profileOf({stream("\"enabled\": \"yes\"")}) << "$.streams[0].enabled"
                                           << "expected a boolean";
    QTest::newRow("unknownPackets not an object") << profileOf({stream("\"unknownPackets\": \"discard\"")})
                                                  << "$.streams[0].unknownPackets" << "expected an object";
    QTest::newRow("unknown record not a boolean") << profileOf({stream("\"unknownPackets\": {\"record\": 1}")})
                                                  << "$.streams[0].unknownPackets.record" << "expected a boolean";
    QTest::newRow("forward not an array")
        << profileOf({stream("\"unknownPackets\": {\"forward\": \"udp://127.0.0.1:5\"}")})
        << "$.streams[0].unknownPackets.forward" << "expected an array";
    QTest::newRow("forward item not a string") << packets("{\"apid\": 1, \"forward\": [\"udp://127.0.0.1:5\", 7]}")
                                               << "$.streams[0].packets[0].forward[1]" << "expected a string";
    QTest::newRow("packets not an array") << profileOf({stream("\"packets\": {}")}) << "$.streams[0].packets"
                                          << "expected an array";
    QTest::newRow("packet not an object") << packets("7") << "$.streams[0].packets[0]" << "expected an object";
    QTest::newRow("apid missing") << packets("{\"mode\": \"passThru\"}") << "$.streams[0].packets[0].apid"
                                  << "missing (required: the packet type's APID, 0..2047, or 'packet': its name)";
    QTest::newRow("apid a string") << packets("{\"apid\": \"7\"}") << "$.streams[0].packets[0].apid"
                                   << "expected an APID";

    // Names and sources.
    QTest::newRow("name with a space") << profileOf({stream({}, "a b")}) << "$.streams[0].name"
                                       << "'a b' is not a stream name";
    QTest::newRow("name empty") << profileOf({stream({}, "")}) << "$.streams[0].name" << "'' is not a stream name";
    QTest::newRow("name repeated") << profileOf({a, stream({}, "a", 47002)}) << "$.streams[1].name"
                                   << "'a' is already the name of $.streams[0]";
    QTest::newRow("source without port") << profileOf({"{\"name\": \"a\", \"source\": \"udp://127.0.0.1\"}"})
                                         << "$.streams[0].source" << "udp://127.0.0.1";
    QTest::newRow("source scheme") << profileOf({"{\"name\": \"a\", \"source\": \"http://127.0.0.1:80\"}"})
                                   << "$.streams[0].source" << "unknown scheme";
    QTest::newRow("source tcp port 0") << profileOf({"{\"name\": \"a\", \"source\": \"tcp://127.0.0.1:0\"}"})
                                       << "$.streams[0].source" << "needs a port";
    QTest::newRow("source repeated") << profileOf({a, kStreamB, stream({}, "c", 47001)}) << "$.streams[2].source"
                                     << "is already the source of $.streams[0]";
    QTest::newRow("transportHeaderBytes too big") << profileOf({stream("\"transportHeaderBytes\": 65536")})
                                                  << "$.streams[0].transportHeaderBytes" << "65536 is not";

    // Modes.
    QTest::newRow("unknown mode processes")
        << profileOf({stream("\"unknownPackets\": {\"mode\": \"processEntirePacket\"}")})
        << "$.streams[0].unknownPackets.mode" << "cannot be used for unknown packets";
    QTest::newRow("unknown mode not a mode") << profileOf({stream("\"unknownPackets\": {\"mode\": \"fast\"}")})
                                             << "$.streams[0].unknownPackets.mode"
                                             << "'fast' is not a processing mode (passThru, discard)";
    QTest::newRow("packet mode discard") << packets("{\"apid\": 7, \"mode\": \"discard\"}")
                                         << "$.streams[0].packets[0].mode" << "is only for unknownPackets";
    QTest::newRow("packet mode not a mode")
        << packets("{\"apid\": 7}, {\"apid\": 8, \"mode\": \"fast\"}") << "$.streams[0].packets[1].mode"
        << "'fast' is not a processing mode (passThru, processOnDemand, processEntirePacket)";
    QTest::newRow("packet mode case") << packets("{\"apid\": 7, \"mode\": \"PassThru\"}")
                                      << "$.streams[0].packets[0].mode" << "is not a processing mode";

    // Forward destinations.
    QTest::newRow("forward to a file") << packets("{\"apid\": 7, \"forward\": [\"file:///tmp/x\"]}")
                                       << "$.streams[0].packets[0].forward[0]" << "is a recording";
    QTest::newRow("forward to port 0") << packets("{\"apid\": 7, \"forward\": [\"udp://127.0.0.1:0\"]}")
                                       << "$.streams[0].packets[0].forward[0]" << "needs a port";
    QTest::newRow("forward unparsable")
        << profileOf({stream("\"unknownPackets\": {\"forward\": [\"udp://127.0.0.1:5\", \"udp:/x\"]}")})
        << "$.streams[0].unknownPackets.forward[1]" << "udp:/x";

    // APIDs and secondary ids.
    QTest::newRow("apid 2048") << packets("{\"apid\": 2048}") << "$.streams[0].packets[0].apid" << "2048 is not an APID";
    QTest::newRow("apid negative") << packets("{\"apid\": -1}") << "$.streams[0].packets[0].apid" << "-1 is not";
    QTest::newRow("apid fraction") << packets("{\"apid\": 7.5}") << "$.streams[0].packets[0].apid" << "7.5 is not";
    QTest::newRow("secondaryId negative") << packets("{\"apid\": 600, \"secondaryId\": -2}")
                                          << "$.streams[0].packets[0].secondaryId" << "-2 is not a secondary id";
    QTest::newRow("apid repeated") << packets("{\"apid\": 7}, {\"apid\": 8}, {\"apid\": 7, \"record\": true}")
                                   << "$.streams[0].packets[2]" << "APID 7 is already set by $.streams[0].packets[0]";
    // Packet types by name.
    QTest::newRow("packet and apid") << packets("{\"packet\": \"Sci0TypeZero\", \"apid\": 1424}")
                                     << "$.streams[0].packets[0]" << "both 'packet' and 'apid' are given";
    QTest::newRow("packet and secondaryId") << packets("{\"packet\": \"Sci0TypeZero\", \"secondaryId\": 1}")
                                            << "$.streams[0].packets[0].secondaryId" << "goes with 'apid'";
    QTest::newRow("packet empty") << packets("{\"packet\": \"\", \"mode\": \"passThru\"}")
                                  << "$.streams[0].packets[0].packet" << "empty";
    QTest::newRow("packet not a string") << packets("{\"packet\": 1424}") << "$.streams[0].packets[0].packet"
                                         << "expected a string, got a number";
    QTest::newRow("packet repeated")
        << packets("{\"packet\": \"Sci0TypeZero\"}, {\"apid\": 1424}, {\"packet\": \"Sci0TypeZero\", \"record\": true}")
        << "$.streams[0].packets[2]" << "packet type 'Sci0TypeZero' is already set by $.streams[0].packets[0]";
    QTest::newRow("apid and secondary id repeated")
        << packets("{\"apid\": 600, \"secondaryId\": 1}, {\"apid\": 600}, {\"apid\": 600, \"secondaryId\": 1}")
        << "$.streams[0].packets[2]" << "APID 600 secondary id 1 is already set by $.streams[0].packets[0]";

    // Queues.
    QTest::newRow("queue size 0") << queues("\"networkPacketQueueSize\": 0") << "$.queues.networkPacketQueueSize"
                                  << "0 is not a queue size";
    QTest::newRow("queue size too big") << queues("\"processPacketQueueSize\": 16777217")
                                        << "$.queues.processPacketQueueSize" << "16777217 is not";
    QTest::newRow("queue size negative") << queues("\"recordPacketQueueSize\": -20")
                                         << "$.queues.recordPacketQueueSize" << "-20 is not";
    QTest::newRow("queue size fraction") << queues("\"forwardPacketQueueSize\": 20.5")
                                         << "$.queues.forwardPacketQueueSize" << "20.5 is not";
    QTest::newRow("queue size a string") << queues("\"processedParameterQueueSize\": \"5\"")
                                         << "$.queues.processedParameterQueueSize" << "expected a queue size";
    QTest::newRow("record file too small") << queues("\"maxRecordFileSize\": 65535") << "$.queues.maxRecordFileSize"
                                           << "65535 is not a file size";
    QTest::newRow("record file too big") << queues("\"maxRecordFileSize\": 1099511627777")
                                         << "$.queues.maxRecordFileSize" << "1099511627777 is not";
    QTest::newRow("threshold above size")
        << queues("\"networkPacketQueueSize\": 100, \"networkPacketQueueWarningThreshold\": 101")
        << "$.queues.networkPacketQueueWarningThreshold" << "101 is larger than the network packet queue size 100";
    QTest::newRow("threshold above default size") << queues("\"networkPacketQueueWarningThreshold\": 8193")
                                                  << "$.queues.networkPacketQueueWarningThreshold"
                                                  << "queue size 8192";
    QTest::newRow("size below default threshold") << queues("\"networkPacketQueueSize\": 100")
                                                  << "$.queues.networkPacketQueueWarningThreshold"
                                                  << "6144 is larger";

    // A stream's stale time.
    const QString stale = "$.streams[0].staleAfterSeconds";
    QTest::newRow("stale time below 0.1") << profileOf({stream("\"staleAfterSeconds\": 0.05")}) << stale
                                          << "0.05 is not a number of seconds (0 = never stale, or 0.1..86400)";
    QTest::newRow("stale time above a day") << profileOf({stream("\"staleAfterSeconds\": 86400.5")}) << stale
                                            << "86400.5 is not";
    QTest::newRow("stale time negative") << profileOf({stream("\"staleAfterSeconds\": -5")}) << stale
                                         << "-5 is not";
    QTest::newRow("stale time a string")
        << profileOf({stream("\"staleAfterSeconds\": \"5\"")}) << stale
        << "expected a number of seconds (0 = never stale, or 0.1..86400), got a string";

    // A playback's position.
    const QString position = "$.streams[0].playbackPosition";
    QTest::newRow("position of a live stream") << profileOf({stream("\"playbackPosition\": \"2026-11-22T12:00:00Z\"")})
                                               << position << "only a playback (file://) source has a position";
    QTest::newRow("position not a time") << profileOf({stream("\"playbackPosition\": \"noon\"")}) << position
                                         << "'noon' is not a time such as";
    QTest::newRow("position a number") << profileOf({stream("\"playbackPosition\": 5")}) << position
                                       << "got a number";

    // The user API.
    QTest::newRow("api unknown key") << api("\"listen\": 1") << "$.api.listen"
                                     << "unknown key; api takes enabled, address, port";
    QTest::newRow("api port out of range") << api("\"port\": 99999") << "$.api.port" << "0..65535";
    QTest::newRow("api off loopback without TLS")
        << api("\"address\": \"0.0.0.0\"") << "$.api.address" << "only with TLS";
    QTest::newRow("api TLS half given") << api("\"tlsCertificate\": \"a.crt\"") << "$.api" << "both tlsCertificate and tlsKey";
    QTest::newRow("api token too short") << api("\"tokens\": [{\"token\": \"abc\"}]") << "$.api.tokens[0].token"
                                         << "too short";
    QTest::newRow("api token repeated")
        << api("\"tokens\": [{\"token\": \"0123456789abcdefX\"}, {\"token\": \"0123456789abcdefX\"}]")
        << "$.api.tokens[1].token" << "twice";
    QTest::newRow("api token missing") << api("\"tokens\": [{\"name\": \"ops\"}]") << "$.api.tokens[0].token"
                                       << "missing";

    // Recording.
    QTest::newRow("recording not an object") << profileOf({a}, "\"recording\": 1000") << "$.recording"
                                             << "expected an object (recording options), got a number";
    QTest::newRow("unknown recording key") << recording("\"flushInterval\": 100") << "$.recording.flushInterval"
                                           << "unknown key; recording takes flushIntervalMs, syncOnFlush";
    QTest::newRow("flush interval below 10 ms")
        << recording("\"flushIntervalMs\": 9") << "$.recording.flushIntervalMs"
        << "9 is not a flush interval in milliseconds (a whole number, 10..60000)";
    QTest::newRow("flush interval above a minute") << recording("\"flushIntervalMs\": 60001")
                                                   << "$.recording.flushIntervalMs" << "60001 is not";
    QTest::newRow("flush interval fraction") << recording("\"flushIntervalMs\": 100.5")
                                             << "$.recording.flushIntervalMs" << "100.5 is not";
    QTest::newRow("flush interval a string") << recording("\"flushIntervalMs\": \"1s\"")
                                             << "$.recording.flushIntervalMs" << "expected a flush interval";
    QTest::newRow("syncOnFlush not a boolean") << recording("\"syncOnFlush\": 1") << "$.recording.syncOnFlush"
                                               << "expected a boolean";

    // The link test's responder.
    QTest::newRow("linkResponder not an object") << profileOf({a}, "\"linkResponder\": \"0.0.0.0:7700\"")
                                                 << "$.linkResponder" << "expected an object (the link test's responder)";
    QTest::newRow("linkResponder without listen") << linkResponder("\"allow\": []") << "$.linkResponder.listen"
                                                  << "missing (ADDR:PORT where the responder listens";
    QTest::newRow("linkResponder listen not ADDR:PORT") << linkResponder("\"listen\": \"0.0.0.0\"")
                                                        << "$.linkResponder.listen" << "'0.0.0.0' is not ADDR:PORT";
    QTest::newRow("linkResponder unknown key") << linkResponder("\"listen\": \"0.0.0.0:7700\", \"allowed\": []")
                                               << "$.linkResponder.allowed" << "unknown key; linkResponder takes listen, allow";
    QTest::newRow("linkResponder allow not an array") << linkResponder("\"listen\": \"0.0.0.0:7700\", \"allow\": \"10.0.0.1\"")
                                                      << "$.linkResponder.allow" << "expected an array of controller addresses";
    QTest::newRow("linkResponder allow entry empty") << linkResponder("\"listen\": \"0.0.0.0:7700\", \"allow\": [\"\"]")
                                                     << "$.linkResponder.allow[0]" << "empty (a controller's address";

    // Events.
    QTest::newRow("events not an object") << profileOf({a}, "\"events\": true") << "$.events"
                                          << "expected an object (event options), got a boolean";
    QTest::newRow("unknown events key") << events("\"retention\": 30") << "$.events.retention"
                                        << "unknown key; events takes archive, archiveFile, retentionDays";
    QTest::newRow("archive not a boolean") << events("\"archive\": \"yes\"") << "$.events.archive"
                                           << "expected a boolean";
    QTest::newRow("archiveFile not a string") << events("\"archiveFile\": 1") << "$.events.archiveFile"
                                              << "expected a string, got a number";
    QTest::newRow("retention above 36500")
        << events("\"retentionDays\": 36501") << "$.events.retentionDays"
        << "36501 is not a number of days (a whole number, 0..36500; 0 = keep forever)";
    QTest::newRow("retention negative") << events("\"retentionDays\": -1") << "$.events.retentionDays"
                                        << "-1 is not";
    QTest::newRow("retention fraction") << events("\"retentionDays\": 0.5") << "$.events.retentionDays"
                                        << "0.5 is not";

    // Limits.
    QTest::newRow("limits not an array") << profileOf({a}, "\"limits\": {}") << "$.limits"
                                         << "expected an array of limit settings, got an object";
    QTest::newRow("limit not an object") << limits("\"Packet5.CPU_LOAD\"") << "$.limits[0]"
                                         << "expected an object (a limit setting), got a string";
    QTest::newRow("unknown limit key") << limits("{\"parameter\": \"Packet5.CPU_LOAD\", \"redHigh\": 95, \"max\": 99}")
                                       << "$.limits[0].max"
                                       << "unknown key; a limit setting takes parameter, enabled, redLow, yellowLow, "
                                          "yellowHigh, redHigh";
    QTest::newRow("parameter missing") << limits("{\"redHigh\": 95}") << "$.limits[0].parameter"
                                       << "missing (required: the parameter's qualified name, PACKET.PARAMETER)";
    QTest::newRow("parameter empty") << limits("{\"parameter\": \"\", \"redHigh\": 95}") << "$.limits[0].parameter"
                                     << "empty";
    QTest::newRow("parameter not a string") << limits("{\"parameter\": 5, \"redHigh\": 95}")
                                            << "$.limits[0].parameter" << "expected a string, got a number";
    QTest::newRow("parameter without packet") << limits("{\"parameter\": \"CPU_LOAD\", \"redHigh\": 95}")
                                              << "$.limits[0].parameter"
                                              << "'CPU_LOAD' is not a qualified parameter name (PACKET.PARAMETER";
    QTest::newRow("parameter without name") << limits("{\"parameter\": \"Packet5.\", \"redHigh\": 95}")
                                            << "$.limits[0].parameter" << "'Packet5.' is not a qualified";
    QTest::newRow("parameter repeated")
        << limits("{\"parameter\": \"Packet5.CPU_LOAD\", \"redHigh\": 95}, {\"parameter\": \"Packet7.MODE\", "
                  "\"enabled\": false}, {\"parameter\": \"Packet5.CPU_LOAD\", \"yellowHigh\": 80}")
        << "$.limits[2].parameter" << "'Packet5.CPU_LOAD' is already set by $.limits[0]";
    QTest::newRow("limit enabled not a boolean") // and no second error for the missing bounds
        << limits("{\"parameter\": \"Packet5.CPU_LOAD\", \"enabled\": \"no\"}") << "$.limits[0].enabled"
        << "expected a boolean";
    QTest::newRow("bound not a number") // and no second error for giving no limit
        << limits("{\"parameter\": \"Packet5.CPU_LOAD\", \"redHigh\": \"95\"}") << "$.limits[0].redHigh"
        << "expected a number (a limit on the calibrated value), got a string";
    QTest::newRow("bound null") << limits("{\"parameter\": \"Packet5.CPU_LOAD\", \"yellowLow\": null}")
                                << "$.limits[0].yellowLow" << "got null";
    QTest::newRow("no limit") << limits("{\"parameter\": \"Packet5.CPU_LOAD\"}") << "$.limits[0]"
                              << "gives no limit; to turn checking off write \"enabled\": false";
    QTest::newRow("no limit, enabled written")
        << limits("{\"parameter\": \"Packet7.MODE\", \"enabled\": false}, {\"parameter\": \"Packet5.CPU_LOAD\", "
                  "\"enabled\": true}")
        << "$.limits[1]" << "gives no limit";
    QTest::newRow("red low above yellow low")
        << limits("{\"parameter\": \"Packet5.CPU_LOAD\", \"redLow\": 10, \"yellowLow\": 5}") << "$.limits[0].yellowLow"
        << "5 is below redLow 10 (limits are ordered redLow <= yellowLow <= yellowHigh <= redHigh)";
    QTest::newRow("yellow low above yellow high")
        << limits("{\"parameter\": \"Packet5.CPU_LOAD\", \"yellowLow\": 20.5, \"yellowHigh\": 20.25}")
        << "$.limits[0].yellowHigh" << "20.25 is below yellowLow 20.5";
    QTest::newRow("yellow high above red high")
        << limits("{\"parameter\": \"Packet5.CPU_LOAD\", \"redLow\": 0, \"yellowLow\": 10, \"yellowHigh\": 96, "
                  "\"redHigh\": 95}")
        << "$.limits[0].redHigh" << "95 is below yellowHigh 96";
    QTest::newRow("red low above red high, no yellow")
        << limits("{\"parameter\": \"Packet5.CPU_LOAD\", \"redHigh\": -1, \"redLow\": 1}") << "$.limits[0].redHigh"
        << "-1 is below redLow 1";
    QTest::newRow("yellow low above red high")
        << limits("{\"parameter\": \"Packet5.CPU_LOAD\", \"yellowLow\": 1e3, \"redHigh\": 999}")
        << "$.limits[0].redHigh" << "999 is below yellowLow 1000.0";
}

void TestStationProfile::errorPaths()
{
    QFETCH(QString, json);
    QFETCH(QString, path);
    QFETCH(QString, says);
    const auto load = config::parseProfile(json.toStdString(), "test.json");
    QVERIFY(!load.ok());
    const auto errors = ofSeverity(load.diagnostics, Severity::Error);
    QVERIFY2(errors.size() == 1, qPrintable(listed(load.diagnostics)));
    const QString message = QString::fromStdString(errors.front().message);
    QVERIFY2(message.startsWith(path + ": "), qPrintable(message));
    QVERIFY2(message.mid(path.size() + 2).contains(says), qPrintable(message));
    QCOMPARE(errors.front().where.file, std::string("test.json"));
}

void TestStationProfile::warningPaths_data()
{
    QTest::addColumn<QString>("json");
    QTest::addColumn<QStringList>("paths");

    QTest::newRow("no streams") << "{\"streams\": []}" << QStringList{"$.streams"};
    QTest::newRow("record discarded")
        << profileOf({stream("\"unknownPackets\": {\"mode\": \"discard\", \"record\": true}")})
        << QStringList{"$.streams[0].unknownPackets.record"};
    QTest::newRow("forward discarded")
        << profileOf({stream("\"unknownPackets\": {\"forward\": [\"udp://127.0.0.1:5\"], \"mode\": \"discard\"}")})
        << QStringList{"$.streams[0].unknownPackets.forward"};
    QTest::newRow("both discarded")
        << profileOf({stream("\"unknownPackets\": {\"mode\": \"discard\", \"record\": true, \"forward\": "
                             "[\"tcp://127.0.0.1:5\"]}")})
        << QStringList{"$.streams[0].unknownPackets.record", "$.streams[0].unknownPackets.forward"};
    QTest::newRow("destination twice")
        << packets("{\"apid\": 7, \"forward\": [\"udp://127.0.0.1:5\", \"udp://127.0.0.1:6\", \"udp://127.0.0.1:5\"]}")
        << QStringList{"$.streams[0].packets[0].forward[2]"};
    QTest::newRow("disabled limits with bounds")
        << limits("{\"parameter\": \"Packet5.CPU_LOAD\", \"enabled\": false, \"redHigh\": 95}, "
                  "{\"parameter\": \"Packet5.TEMP\", \"enabled\": false}, "
                  "{\"parameter\": \"Packet7.MODE\", \"redLow\": 1, \"enabled\": false}")
        << QStringList{"$.limits[0]", "$.limits[2]"};
}

void TestStationProfile::warningPaths()
{
    QFETCH(QString, json);
    QFETCH(QStringList, paths);
    const auto load = config::parseProfile(json.toStdString());
    QVERIFY2(load.ok(), qPrintable(listed(load.diagnostics)));
    QCOMPARE(load.diagnostics.size(), std::size_t(paths.size()));
    for (int i = 0; i < paths.size(); ++i) {
        QCOMPARE(load.diagnostics[std::size_t(i)].severity, Severity::Warning);
        const QString message = QString::fromStdString(load.diagnostics[std::size_t(i)].message);
        QVERIFY2(message.startsWith(paths[i] + ": "), qPrintable(message));
    }
}

// Edge values that must be accepted without any diagnostic.
void TestStationProfile::acceptedValues_data()
{
    QTest::addColumn<QString>("json");
    QTest::newRow("same APID, different secondary ids")
        << packets("{\"apid\": 600, \"secondaryId\": 1}, {\"apid\": 600, \"secondaryId\": 2}, {\"apid\": 600}");
    QTest::newRow("apid bounds") << packets("{\"apid\": 0}, {\"apid\": 2047}");
    QTest::newRow("packet names beside APIDs")
        << packets("{\"packet\": \"Sci0TypeZero\"}, {\"apid\": 1424}, {\"packet\": \"/IDEX/Sci0TypeNonZero\"}, "
                   "{\"apid\": 1424, \"secondaryId\": 1}, {\"packet\": \"Sci0TypeNonZero\", \"mode\": \"passThru\"}");
    QTest::newRow("secondaryId max") << packets("{\"apid\": 1, \"secondaryId\": 18446744073709551615}");
    QTest::newRow("file source") << profileOf({"{\"name\": \"p\", \"source\": \"file://recordings/x\"}"});
    QTest::newRow("multicast and tcp-listen sources")
        << profileOf({"{\"name\": \"m\", \"source\": \"udp://239.1.1.1:5000?iface=127.0.0.1\"}",
                      "{\"name\": \"t\", \"source\": \"tcp-listen://0.0.0.0:5000\"}"});
    QTest::newRow("forward schemes")
        << packets("{\"apid\": 7, \"forward\": [\"udp://127.0.0.1:5\", \"tcp://127.0.0.1:6\", \"tcp-listen://0.0.0.0:0\"]}");
    QTest::newRow("queue bounds")
        << queues("\"networkPacketQueueSize\": 16777216, \"networkPacketQueueWarningThreshold\": 16777216, "
                  "\"processPacketQueueSize\": 1, \"maxRecordFileSize\": 1099511627776");
    QTest::newRow("whole number written as float") << queues("\"recordPacketQueueSize\": 1e6");
    QTest::newRow("empty mdb") << profileOf({kStreamA}, "\"mdb\": \"\"");
    QTest::newRow("every log level")
        << profileOf({kStreamA}, "\"logLevel\": \"trace\"") // the others in trekDefaultsAccepted/defaults
        ;
    QTest::newRow("transportHeaderBytes max") << profileOf({stream("\"transportHeaderBytes\": 65535")});
    QTest::newRow("discarded unknowns, nothing else") << profileOf({stream("\"unknownPackets\": {\"mode\": \"discard\"}")});
    QTest::newRow("stale time bounds")
        << profileOf({stream("\"staleAfterSeconds\": 0", "a", 47001), stream("\"staleAfterSeconds\": 0.1", "b", 47002),
                      stream("\"staleAfterSeconds\": 86400", "c", 47003),
                      stream("\"staleAfterSeconds\": 5", "d", 47004)});
    QTest::newRow("flush interval bounds") << recording("\"flushIntervalMs\": 10, \"syncOnFlush\": false");
    QTest::newRow("flush interval max, sync") << recording("\"flushIntervalMs\": 60000, \"syncOnFlush\": true");
    QTest::newRow("retention forever") << events("\"retentionDays\": 0");
    QTest::newRow("retention max") << events("\"retentionDays\": 36500, \"archive\": true");
    QTest::newRow("archiveFile empty") << events("\"archiveFile\": \"\"");
    QTest::newRow("archive off, file and retention kept")
        << events("\"archive\": false, \"archiveFile\": \"ev.sqlite\", \"retentionDays\": 7");
    QTest::newRow("no limits") << profileOf({kStreamA}, "\"limits\": []");
    QTest::newRow("equal bounds")
        << limits("{\"parameter\": \"Packet5.CPU_LOAD\", \"redLow\": 5, \"yellowLow\": 5, \"yellowHigh\": 5, "
                  "\"redHigh\": 5}");
    QTest::newRow("one bound each")
        << limits("{\"parameter\": \"P.A\", \"redLow\": 1}, {\"parameter\": \"P.B\", \"yellowLow\": 1}, "
                  "{\"parameter\": \"P.C\", \"yellowHigh\": -1}, {\"parameter\": \"P.D\", \"redHigh\": -1}");
    QTest::newRow("bounds with gaps in order")
        << limits("{\"parameter\": \"P.A\", \"redLow\": -1e300, \"redHigh\": 1e300}, "
                  "{\"parameter\": \"P.B\", \"yellowLow\": -0.5, \"redHigh\": -0.25}");
    QTest::newRow("XTCE names") << limits("{\"parameter\": \"/IDEX/Sci0TypeZero.POS.x\", \"redHigh\": 1}, "
                                          "{\"parameter\": \"/IDEX/Sci0TypeZero.Q[0]\", \"redHigh\": 1}");
    QTest::newRow("same name, other packet") << limits("{\"parameter\": \"A.X\", \"redHigh\": 1}, "
                                                       "{\"parameter\": \"B.X\", \"redHigh\": 1}");
    QTest::newRow("disabled, no bound") << limits("{\"parameter\": \"Packet7.MODE\", \"enabled\": false}");
}

void TestStationProfile::acceptedValues()
{
    QFETCH(QString, json);
    const auto load = config::parseProfile(json.toStdString());
    QVERIFY2(load.diagnostics.empty(), qPrintable(listed(load.diagnostics)));
}

void TestStationProfile::multipleErrorsReportedTogether()
{
    const QString json =
        profileOf({stream("\"enabled\": 1, \"packets\": [{\"apid\": 5000}, {\"apid\": 7, \"mode\": \"discard\"}]"),
                   "{\"name\": \"bad name\"}", stream("\"surprise\": true", "b", 47001)},
                  "\"logLevel\": \"loud\", \"queues\": {\"maxRecordFileSize\": 1}");
    const auto load = config::parseProfile(json.toStdString());
    const QStringList expected{
        "$.logLevel",
        "$.queues.maxRecordFileSize",
        "$.streams[0].enabled",
        "$.streams[0].packets[0].apid",
        "$.streams[0].packets[1].mode",
        "$.streams[1].name",
        "$.streams[1].source",
        "$.streams[2].surprise",
        "$.streams[2].source", // the same source as $.streams[0]
    };
    QStringList got;
    for (const auto& d : load.diagnostics) {
        QCOMPARE(d.severity, Severity::Error);
        got << QString::fromStdString(d.message).section(": ", 0, 0);
    }
    QCOMPARE(got, expected);
    QVERIFY(!load.ok());
}

// One list holding most kinds of limit mistakes: each reported once, in file order, and an ordering
// check that skips a bound of the wrong type compares with the bound below it instead.
void TestStationProfile::limitProblemsReportedTogether()
{
    const QString json =
        limits("{\"parameter\": \"Packet5.CPU_LOAD\", \"redLow\": 10, \"yellowLow\": \"x\", \"yellowHigh\": 5}, "
               "{\"parameter\": \"Packet5.CPU_LOAD\", \"redHigh\": 1}, "
               "{\"parameter\": \"CPU_LOAD\"}, "
               "{\"parameter\": \"Packet7.MODE\", \"enabled\": false, \"redHigh\": 3, \"redLow\": 4}");
    const auto load = config::parseProfile(json.toStdString());
    const QStringList expected{
        "error $.limits[0].yellowLow: expected a number (a limit on the calibrated value), got a string",
        "error $.limits[0].yellowHigh: 5 is below redLow 10 (limits are ordered redLow <= yellowLow <= yellowHigh "
        "<= redHigh)",
        "error $.limits[1].parameter: 'Packet5.CPU_LOAD' is already set by $.limits[0]",
        "error $.limits[2].parameter: 'CPU_LOAD' is not a qualified parameter name (PACKET.PARAMETER, e.g. "
        "'Packet5.CPU_LOAD')",
        "error $.limits[2]: gives no limit; to turn checking off write \"enabled\": false",
        "error $.limits[3].redHigh: 3 is below redLow 4 (limits are ordered redLow <= yellowLow <= yellowHigh <= "
        "redHigh)",
        "warning $.limits[3]: checking is off (\"enabled\": false); the limits given (redLow, redHigh) are kept but "
        "not used",
    };
    QStringList got;
    for (const auto& d : load.diagnostics)
        got << QString(d.severity == Severity::Error ? "error " : "warning ") + QString::fromStdString(d.message);
    QCOMPARE(got, expected);
    QVERIFY(!load.ok());
    // What could be read: the first entry of each parameter, with the bounds that are numbers.
    QCOMPARE(load.profile.limits.size(), std::size_t(2));
    QCOMPARE(load.profile.limits[0].parameter, std::string("Packet5.CPU_LOAD"));
    QCOMPARE(load.profile.limits[0].redLow, std::optional<double>(10));
    QCOMPARE(load.profile.limits[0].yellowLow, std::optional<double>());
    QCOMPARE(load.profile.limits[0].yellowHigh, std::optional<double>(5));
    QCOMPARE(load.profile.limits[1].parameter, std::string("Packet7.MODE"));
}

void TestStationProfile::staleTimeEventsAndLimitsParsed()
{
    const QString json = profileOf(
        {stream("\"staleAfterSeconds\": 12.5", "a", 47001), stream("\"staleAfterSeconds\": 0", "b", 47002),
         stream({}, "c", 47003)},
        "\"events\": {\"archive\": false, \"archiveFile\": \"archive/ev.sqlite\", \"retentionDays\": 0}, "
        "\"limits\": [{\"parameter\": \"Packet5.CPU_LOAD\", \"yellowHigh\": 80, \"redHigh\": 95}, "
        "{\"parameter\": \"Packet7.MODE\", \"enabled\": false}, "
        "{\"parameter\": \"Packet5.TEMP\", \"redLow\": -40.5, \"yellowLow\": -20, \"yellowHigh\": 60, "
        "\"redHigh\": 85, \"enabled\": true}]");
    const auto load = config::parseProfile(json.toStdString());
    QVERIFY2(load.diagnostics.empty(), qPrintable(listed(load.diagnostics)));
    const StationProfile& p = load.profile;

    QCOMPARE(p.streams[0].staleAfterSeconds, 12.5);
    QCOMPARE(p.streams[1].staleAfterSeconds, 0.0);
    QCOMPARE(p.streams[2].staleAfterSeconds, 5.0);

    QCOMPARE(p.events.archive, false);
    QCOMPARE(p.events.archiveFile, std::string("archive/ev.sqlite")); // parseProfile resolves nothing
    QCOMPARE(p.events.retentionDays, 0);

    LimitSetting cpu;
    cpu.parameter = "Packet5.CPU_LOAD";
    cpu.yellowHigh = 80;
    cpu.redHigh = 95;
    LimitSetting mode;
    mode.parameter = "Packet7.MODE";
    mode.enabled = false;
    LimitSetting temp;
    temp.parameter = "Packet5.TEMP";
    temp.redLow = -40.5;
    temp.yellowLow = -20;
    temp.yellowHigh = 60;
    temp.redHigh = 85;
    QCOMPARE(p.limits, (std::vector<LimitSetting>{cpu, mode, temp})); // in file order
}

void TestStationProfile::disabledLimitWarningSaysWhy()
{
    const auto load = config::parseProfile(
        limits("{\"parameter\": \"Packet5.CPU_LOAD\", \"enabled\": false, \"yellowHigh\": 80, \"redHigh\": 95}")
            .toStdString());
    QVERIFY(load.ok());
    QCOMPARE(load.diagnostics.size(), std::size_t(1));
    QCOMPARE(QString::fromStdString(load.diagnostics.front().message),
             QString("$.limits[0]: checking is off (\"enabled\": false); the limits given (yellowHigh, redHigh) are "
                     "kept but not used"));
    // Kept: turning checking back on needs no retyping.
    QCOMPARE(load.profile.limits.size(), std::size_t(1));
    QCOMPARE(load.profile.limits[0].enabled, false);
    QCOMPARE(load.profile.limits[0].yellowHigh, std::optional<double>(80));
    QCOMPARE(load.profile.limits[0].redHigh, std::optional<double>(95));
}

void TestStationProfile::trekDefaultsAccepted()
{
    const auto load = config::parseProfile(
        queues("\"networkPacketQueueSize\": 100, \"networkPacketQueueWarningThreshold\": 50, "
               "\"processPacketQueueSize\": 20, \"recordPacketQueueSize\": 20, \"forwardPacketQueueSize\": 20, "
               "\"processedParameterQueueSize\": 5, \"maxRecordFileSize\": 10485760")
            .toStdString());
    QVERIFY2(load.diagnostics.empty(), qPrintable(listed(load.diagnostics)));
    const auto& q = load.profile.queues;
    QCOMPARE(q.networkPacketQueueSize, 100u);
    QCOMPARE(q.networkPacketQueueWarningThreshold, 50u);
    QCOMPARE(q.processPacketQueueSize, 20u);
    QCOMPARE(q.recordPacketQueueSize, 20u);
    QCOMPARE(q.forwardPacketQueueSize, 20u);
    QCOMPARE(q.processedParameterQueueSize, 5u);
    QCOMPARE(q.maxRecordFileSize, std::uint64_t(10485760));
}

void TestStationProfile::defaultsWhenOmitted()
{
    const auto load = config::parseProfile(profileOf({kStreamA}).toStdString());
    QVERIFY(load.diagnostics.empty());
    StationProfile expected;
    StreamProfile a;
    a.name = "a";
    a.source = "udp://127.0.0.1:47001";
    expected.streams = {a};
    QCOMPARE(load.profile, expected);
    QCOMPARE(load.profile.queues.networkPacketQueueSize, 8192u);
    QCOMPARE(load.profile.logLevel, std::string("info"));
    QVERIFY(load.profile.streams[0].enabled);
    QVERIFY(load.profile.streams[0].unknownMode == ProcessingMode::PassThru);
    // The documented defaults of the stale time, the event archive and the limits.
    QCOMPARE(load.profile.streams[0].staleAfterSeconds, 5.0);
    QCOMPARE(load.profile.events.archive, true);
    QCOMPARE(load.profile.events.archiveFile, std::string());
    QCOMPARE(load.profile.events.retentionDays, 90);
    QVERIFY(load.profile.limits.empty());
    // An empty events object is the defaults too.
    const auto empty = config::parseProfile(events({}).toStdString());
    QVERIFY2(empty.diagnostics.empty(), qPrintable(listed(empty.diagnostics)));
    QCOMPARE(empty.profile.events, EventOptions{});
}

void TestStationProfile::roundTripRichProfile()
{
    const StationProfile rich = richProfile();
    const std::string json = config::profileToJson(rich);
    const auto load = config::parseProfile(json);
    QVERIFY2(load.diagnostics.empty(), qPrintable(listed(load.diagnostics) + "\n" + QString::fromStdString(json)));
    QCOMPARE(load.profile, rich);
    QCOMPARE(config::profileToJson(load.profile), json); // stable

    // A limit turned off keeps its bounds through a save (with the warning that they are not used).
    StationProfile off = rich;
    off.limits[0].enabled = false;
    const auto offLoad = config::parseProfile(config::profileToJson(off));
    QVERIFY2(offLoad.ok(), qPrintable(listed(offLoad.diagnostics)));
    QCOMPARE(offLoad.diagnostics.size(), std::size_t(1));
    QCOMPARE(offLoad.profile, off);

    const StationProfile empty;
    const auto emptyLoad = config::parseProfile(config::profileToJson(empty));
    QVERIFY(emptyLoad.ok());
    QCOMPARE(emptyLoad.profile, empty);
}

void TestStationProfile::canonicalJsonOmitsDefaultsInStableOrder()
{
    StationProfile minimal;
    StreamProfile a;
    a.name = "a";
    a.source = "udp://127.0.0.1:47001";
    PacketSettings defaults;
    defaults.apid = 9;
    a.packets = {defaults};
    minimal.streams = {a};
    const QString json = QString::fromStdString(config::profileToJson(minimal));
    for (const char* key : {"mdb", "recordingDirectory", "logDirectory", "logLevel", "queues", "transportHeaderBytes",
                            "enabled", "unknownPackets", "mode", "record", "forward", "secondaryId", "events",
                            "limits", "staleAfterSeconds", "recording"})
        QVERIFY2(!json.contains(QString("\"%1\"").arg(key)), qPrintable(key + (": " + json)));
    QVERIFY(json.contains("\"apid\": 9"));

    // Keys in the documented order, whatever order a hand-written file used.
    const QString rich = QString::fromStdString(config::profileToJson(richProfile()));
    const QStringList order{"\"mdb\"", "\"recordingDirectory\"", "\"logDirectory\"", "\"logLevel\"", "\"queues\"",
                            "\"networkPacketQueueSize\"", "\"networkPacketQueueWarningThreshold\"",
                            "\"processPacketQueueSize\"", "\"recordPacketQueueSize\"", "\"forwardPacketQueueSize\"",
                            "\"processedParameterQueueSize\"", "\"maxRecordFileSize\"", "\"recording\"",
                            "\"flushIntervalMs\"", "\"syncOnFlush\"", "\"events\"", "\"archive\"",
                            "\"archiveFile\"", "\"retentionDays\"", "\"limits\"", "\"parameter\"", "\"redLow\"",
                            "\"yellowLow\"", "\"yellowHigh\"", "\"redHigh\"", "\"streams\""};
    qsizetype last = -1;
    for (const QString& key : order) {
        const qsizetype at = rich.indexOf(key);
        QVERIFY2(at > last, qPrintable(key));
        last = at;
    }
    // Within a stream (the first one sets every key; "enabled" is a limit's key too).
    for (const char* key : {"\"name\"", "\"source\"", "\"transportHeaderBytes\"", "\"enabled\"",
                            "\"staleAfterSeconds\"", "\"unknownPackets\"", "\"packets\"", "\"apid\""}) {
        const qsizetype at = rich.indexOf(key, last);
        QVERIFY2(at > last, key);
        last = at;
    }
    // Within a packet setting (the first one sets every key but secondaryId).
    const qsizetype firstPacket = rich.indexOf("\"apid\": 2047");
    QVERIFY(firstPacket > 0);
    last = firstPacket;
    for (const char* key : {"\"mode\"", "\"record\"", "\"forward\""}) {
        const qsizetype at = rich.indexOf(key, firstPacket);
        QVERIFY2(at > last, key);
        last = at;
    }
    QVERIFY(rich.indexOf("\"secondaryId\"") > rich.indexOf("\"apid\": 600"));
    QVERIFY(rich.indexOf("\"secondaryId\"") < rich.indexOf("\"mode\": \"processOnDemand\""));
    // A setting by name: `packet` first, in place of apid and secondaryId.
    const qsizetype named = rich.indexOf("\"packet\": \"/IDEX/Sci0TypeNonZero\"");
    QVERIFY(named > rich.indexOf("\"apid\": 0"));
    const qsizetype namedEnd = rich.indexOf("}", named);
    last = named;
    for (const char* key : {"\"mode\": \"passThru\"", "\"record\": true", "\"forward\""}) {
        const qsizetype at = rich.indexOf(key, named);
        QVERIFY2(at > last && at < namedEnd, key);
        last = at;
    }
    QVERIFY(!rich.mid(named, namedEnd - named).contains("\"apid\""));
    // A limit setting: `parameter`, `enabled` only when false, then the bounds given, lowest first.
    const qsizetype mode = rich.indexOf("\"parameter\": \"Packet7.MODE\"");
    QVERIFY(mode > 0);
    QCOMPARE(rich.mid(mode, rich.indexOf("}", mode) - mode).simplified(),
             QString("\"parameter\": \"Packet7.MODE\", \"enabled\": false"));
    const qsizetype cpu = rich.indexOf("\"parameter\": \"Packet5.CPU_LOAD\"");
    QVERIFY(cpu > 0);
    QVERIFY(!rich.mid(cpu, rich.indexOf("}", cpu) - cpu).contains("\"enabled\""));
    const qsizetype idex = rich.indexOf("\"parameter\": \"/IDEX/Sci0TypeZero.POS.x\"");
    QVERIFY(idex > mode);
    QCOMPARE(rich.mid(idex, rich.indexOf("}", idex) - idex).simplified(),
             QString("\"parameter\": \"/IDEX/Sci0TypeZero.POS.x\", \"yellowHigh\": 1.0"));

    const std::string shuffled = "{\"streams\": [{\"source\": \"udp://127.0.0.1:47001\", \"name\": \"a\", "
                                 "\"packets\": [{\"apid\": 9}]}]}";
    QCOMPARE(QString::fromStdString(config::profileToJson(config::parseProfile(shuffled).profile)), json);
}

void TestStationProfile::toStringNamesModes()
{
    QCOMPARE(config::toString(ProcessingMode::PassThru), std::string_view("passThru"));
    QCOMPARE(config::toString(ProcessingMode::ProcessOnDemand), std::string_view("processOnDemand"));
    QCOMPARE(config::toString(ProcessingMode::ProcessEntirePacket), std::string_view("processEntirePacket"));
    QCOMPARE(config::toString(ProcessingMode::Discard), std::string_view("discard"));
}

void TestStationProfile::relativePathsResolved()
{
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    QVERIFY(QDir(dir.path()).mkpath("station"));
    const QString base = QDir(dir.path()).absoluteFilePath("station");
    const std::string path = write(
        base + "/profile.json",
        "{\"mdb\": \"../mdb/mission.mdb\", \"logDirectory\": \"/var/log/ts\", "
        "\"events\": {\"archiveFile\": \"../archive/./events.sqlite\"}, \"streams\": ["
        "{\"name\": \"p\", \"source\": \"file://rec/2024\"}, "
        "{\"name\": \"q\", \"source\": \"file:///abs/rec\"}, "
        "{\"name\": \"u\", \"source\": \"udp://127.0.0.1:47001\"}]}");
    QVERIFY(!path.empty());
    const auto load = config::loadProfileFile(path);
    QVERIFY2(load.diagnostics.empty(), qPrintable(listed(load.diagnostics)));
    const StationProfile& p = load.profile;
    QCOMPARE(QString::fromStdString(p.mdb), QDir::cleanPath(dir.path() + "/mdb/mission.mdb"));
    QCOMPARE(QString::fromStdString(p.recordingDirectory), base + "/recordings"); // the default, resolved
    QCOMPARE(p.logDirectory, std::string("/var/log/ts"));
    QCOMPARE(QString::fromStdString(p.events.archiveFile), QDir::cleanPath(dir.path() + "/archive/events.sqlite"));
    QCOMPARE(QString::fromStdString(p.streams[0].source), "file://" + base + "/rec/2024");
    QCOMPARE(p.streams[1].source, std::string("file:///abs/rec"));
    QCOMPARE(p.streams[2].source, std::string("udp://127.0.0.1:47001"));

    // Omitted mdb stays the training database, not a path; an omitted archiveFile stays "" (events.sqlite
    // in the recording directory, which is resolved); an absolute one is kept.
    const std::string training = write(base + "/training.json", profileOf({kStreamA}).toUtf8());
    const auto trainingLoad = config::loadProfileFile(training);
    QCOMPARE(trainingLoad.profile.mdb, std::string());
    QCOMPARE(trainingLoad.profile.events.archiveFile, std::string());
    const std::string absolute = write(base + "/absolute.json", events("\"archiveFile\": \"/srv/ev.sqlite\"").toUtf8());
    QCOMPARE(config::loadProfileFile(absolute).profile.events.archiveFile, std::string("/srv/ev.sqlite"));
}

// A profile loaded from one directory and saved into another still names the archive it named: the path
// was made absolute on loading and is written back as it is.
void TestStationProfile::archiveFileKeepsItsPlaceWhenSavedElsewhere()
{
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    QVERIFY(QDir(dir.path()).mkpath("one") && QDir(dir.path()).mkpath("two"));
    const std::string first =
        write(dir.filePath("one/station.json"), events("\"archiveFile\": \"ev.sqlite\"").toUtf8());
    QVERIFY(!first.empty());
    const auto loaded = config::loadProfileFile(first);
    QVERIFY2(loaded.diagnostics.empty(), qPrintable(listed(loaded.diagnostics)));
    const QString archive = QDir::cleanPath(dir.path() + "/one/ev.sqlite");
    QCOMPARE(QString::fromStdString(loaded.profile.events.archiveFile), archive);

    const std::string second = dir.filePath("two/station.json").toStdString();
    QVERIFY(config::saveProfileFile(loaded.profile, second).ok());
    QFile saved(QString::fromStdString(second));
    QVERIFY(saved.open(QIODevice::ReadOnly));
    QVERIFY(QString::fromUtf8(saved.readAll()).contains("\"archiveFile\": \"" + archive + "\""));
    const auto reloaded = config::loadProfileFile(second);
    QVERIFY2(reloaded.diagnostics.empty(), qPrintable(listed(reloaded.diagnostics)));
    QCOMPARE(reloaded.profile, loaded.profile);
}

void TestStationProfile::syntaxErrorLineColumn_data()
{
    QTest::addColumn<QString>("json");
    QTest::addColumn<int>("line");
    QTest::addColumn<int>("column");
    QTest::newRow("stray comma") << "{\n  \"streams\": [\n    {,\n" << 3 << 6;
    QTest::newRow("trailing comma") << "{\n  \"streams\": [],\n}" << 3 << 1;
    QTest::newRow("unquoted key") << "{streams: []}" << 1 << 2;
    QTest::newRow("after a multi-byte character") << "{\"mdb\": \"\xc3\xa9\" x}" << 1 << 13;
    // Beyond a double: the JSON reader refuses it, so a limit or stale time is always finite.
    QTest::newRow("limit beyond a double")
        << "{\"limits\": [\n  {\"parameter\": \"P.X\", \"redHigh\": 1e400}]}" << 2 << 39;
    // Refused before parsing (memory grew with the square of the depth): the 65th level, the 64th
    // "{" of line 2, 6 characters each.
    QTest::newRow("nested too deep") << "{\"streams\":\n" + QString("{\"a\": ").repeated(20000) + "1" + QString("}").repeated(20001) << 2 << 379;
}

void TestStationProfile::syntaxErrorLineColumn()
{
    QFETCH(QString, json);
    QFETCH(int, line);
    QFETCH(int, column);
    QTemporaryDir dir;
    const std::string path = write(dir.filePath("broken.json"), json.toUtf8());
    const auto load = config::loadProfileFile(path);
    QCOMPARE(load.diagnostics.size(), std::size_t(1));
    const Diagnostic& d = load.diagnostics.front();
    QCOMPARE(d.severity, Severity::Error);
    QCOMPARE(d.where.file, path);
    QCOMPARE(d.where.line, line);
    QCOMPARE(d.where.column, column);
    QVERIFY(!QString::fromStdString(d.message).startsWith("[json.exception"));
    QVERIFY(QString::fromStdString(d.toString()).startsWith(
        QString::fromStdString(path) + QString(":%1:%2: error: ").arg(line).arg(column)));
}

void TestStationProfile::missingFileAndDirectory()
{
    QTemporaryDir dir;
    const std::string missing = dir.filePath("nope.json").toStdString();
    auto load = config::loadProfileFile(missing);
    QCOMPARE(load.diagnostics.size(), std::size_t(1));
    QVERIFY(!load.ok());
    QCOMPARE(load.diagnostics.front().where.file, missing);
    QVERIFY(QString::fromStdString(load.diagnostics.front().toString()).contains(QString::fromStdString(missing)));
    QVERIFY(QString::fromStdString(load.diagnostics.front().message).contains("No such file"));

    load = config::loadProfileFile(dir.path().toStdString());
    QCOMPARE(load.diagnostics.size(), std::size_t(1));
    QCOMPARE(load.diagnostics.front().where.file, dir.path().toStdString());
    QVERIFY(QString::fromStdString(load.diagnostics.front().message).contains("directory"));
}

void TestStationProfile::saveAndLoad()
{
    QTemporaryDir dir;
    const std::string path = dir.filePath("station.json").toStdString();
    const StationProfile rich = richProfile();
    QVERIFY(config::saveProfileFile(rich, path).ok());
    auto load = config::loadProfileFile(path);
    QVERIFY2(load.diagnostics.empty(), qPrintable(listed(load.diagnostics)));
    QCOMPARE(load.profile, rich); // every path in it is absolute already

    // Overwrites, and leaves no temporary file behind.
    StationProfile smaller;
    smaller.logLevel = "error";
    QVERIFY(config::saveProfileFile(smaller, path).ok());
    load = config::loadProfileFile(path);
    QCOMPARE(load.profile.logLevel, std::string("error"));
    QVERIFY(load.profile.streams.empty());
    QCOMPARE(QDir(dir.path()).entryList(QDir::Files), QStringList{"station.json"});
}

void TestStationProfile::saveToMissingDirectoryFails()
{
    QTemporaryDir dir;
    const std::string path = dir.filePath("no/such/dir/station.json").toStdString();
    const Status status = config::saveProfileFile(richProfile(), path);
    QVERIFY(!status.ok());
    QCOMPARE(status.error().where.file, path);
    QVERIFY(!QFile::exists(QString::fromStdString(path)));
}

QTEST_GUILESS_MAIN(TestStationProfile)
#include "tst_config_station_profile.moc"
