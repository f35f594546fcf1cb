// Runs the built `telestation-mdb decode` on packet files and recordings made here with the encoder
// and the recorder, and on the real JPSS-1 and IDEX packets of the reference data: exact CSV values,
// wide CSV sections, JSON lines with exact integers, --packet/--parameters, a transport header,
// malformed and unknown packets with their reasons and exit 3, receive times from a recording, the
// progress bar on a terminal only, usage errors.
#include "tests/support/model_builders.hpp"
#include "core/ccsds/cuc_time.hpp"
#include "core/ccsds/space_packet.hpp"
#include "core/decode/encoder.hpp"
#include "core/mdb/sqlite_store.hpp"
#include "core/record/stream_recorder.hpp"
#include "core/record/segment_file.hpp"
#include "tests/support/sanitizers.hpp"
#include "tests/support/test_paths.hpp"

#include <QtTest>

#include <nlohmann/json.hpp>

#include <bit>
#include <cmath>

#include <sys/resource.h>
#include <string>
#include <vector>

#if __has_include("core/xtce/xtce_import.hpp")
#define TELESTATION_HAS_XTCE 1
#else
#define TELESTATION_HAS_XTCE 0
#endif

using namespace telestation;

namespace {

const QString kTool = test::binDir() + QStringLiteral("/telestation-mdb");
const QString kReference = QString::fromStdString(test::referenceDataDir());

constexpr std::int64_t kCucNs = 1'700'000'000'500'000'000; // 2023-11-14T22:13:20.5Z
constexpr std::uint64_t kBig = 9'223'372'036'854'775'813ull; // 2^63 + 5: not a double

struct Run {
    int exitCode = -1;
    QByteArray out;
    QByteArray err;
};

Run runTool(const QStringList& arguments, int timeoutMs = 120000)
{
    QProcess process;
    process.start(kTool, arguments);
    Run run;
    if (!process.waitForFinished(timeoutMs)) {
        process.kill();
        process.waitForFinished();
        return run;
    }
    run.out = process.readAllStandardOutput();
    run.err = process.readAllStandardError();
    run.exitCode = process.exitStatus() == QProcess::NormalExit ? process.exitCode() : -1;
    return run;
}

Run runDecode(const QString& mission, const QString& input, QStringList extra = {})
{
    QStringList args{QStringLiteral("decode"), QStringLiteral("--mdb"), mission, QStringLiteral("--input"), input};
    args += extra;
    return runTool(args);
}

bool writeBytes(const QString& path, const std::vector<std::uint8_t>& bytes)
{
    QFile f(path);
    return f.open(QIODevice::WriteOnly | QIODevice::Truncate)
        && f.write(reinterpret_cast<const char*>(bytes.data()), static_cast<qint64>(bytes.size()))
        == static_cast<qint64>(bytes.size());
}

QStringList lines(const QByteArray& text)
{
    QStringList out = QString::fromUtf8(text).split(QLatin1Char('\n'));
    if (!out.isEmpty() && out.last().isEmpty())
        out.removeLast();
    return out;
}

// One CSV record (RFC 4180, no line breaks inside fields).
QStringList csvFields(const QString& line)
{
    QStringList fields;
    QString field;
    bool quoted = false;
    for (qsizetype i = 0; i < line.size(); ++i) {
        const QChar c = line[i];
        if (quoted) {
            if (c == QLatin1Char('"') && i + 1 < line.size() && line[i + 1] == QLatin1Char('"')) {
                field += c;
                ++i;
            } else if (c == QLatin1Char('"')) {
                quoted = false;
            } else {
                field += c;
            }
        } else if (c == QLatin1Char('"')) {
            quoted = true;
        } else if (c == QLatin1Char(',')) {
            fields << field;
            field.clear();
        } else {
            field += c;
        }
    }
    fields << field;
    return fields;
}

// The CSV rows of one packet index and parameter, or an empty list.
QStringList row(const QByteArray& csv, int index, const QString& parameter)
{
    for (const QString& line : lines(csv)) {
        const QStringList f = csvFields(line);
        if (f.size() == 8 && f[0] == QString::number(index) && f[3] == parameter)
            return f;
    }
    return {};
}

// ---- The test mission ------------------------------------------------------------------------------

mdb::ParameterDef parameter(std::string name, std::uint32_t bitOffset, std::uint32_t bitLength, mdb::DataType type)
{
    return test::makeParameter(std::move(name), bitOffset, bitLength, type);
}

// HK (APID 100, CUC time, every kind of value), DIAG (APID 600, secondary id 2: bytes, a 12-bit
// signed field), VAR (APID 700, variable layout: DATA sized by LEN, at most 4 bytes, then TAIL).
mdb::MissionDatabase testMission()
{
    using mdb::DataType;
    mdb::MissionDatabase db;
    db.name = "decode test";

    mdb::PacketDef hk;
    hk.name = "HK";
    hk.apid = 100;
    hk.length = 40;
    hk.secondaryHeader = mdb::CucLayout{4, 2, false, mdb::TimeEpoch::Unix1970};
    auto mode = parameter("MODE", 96, 8, DataType::UnsignedInt);
    mode.calibrator = mdb::EnumerationCalibrator{{{0, 0, "SAFE"}, {1, 3, "NOMINAL"}}};
    mode.limits = mdb::StateLimits{{"NOMINAL"}, true};
    auto temp = parameter("TEMP", 104, 16, DataType::SignedInt);
    temp.byteOrder = mdb::ByteOrder::LittleEndian;
    temp.calibrator = mdb::PolynomialCalibrator{{-40, 0.125}};
    temp.limits = mdb::NumericLimits{-30, -10, 50, 70, true};
    auto stamp = parameter("STAMP", 280, 32, DataType::UnsignedInt);
    stamp.calibrator = mdb::TimeCalibrator{mdb::kEpochUnix1970, 1, 0};
    hk.parameters = {mode, temp, parameter("VOLTS", 120, 32, DataType::Float), parameter("NAME", 152, 64, DataType::String),
                     parameter("BIG", 216, 64, DataType::UnsignedInt), stamp};
    db.packets.push_back(hk);

    mdb::PacketDef diag;
    diag.name = "DIAG";
    diag.apid = 600;
    diag.length = 16;
    diag.secondaryId = mdb::SecondaryId{48, 8, 2};
    diag.parameters = {parameter("KIND", 48, 8, DataType::UnsignedInt), parameter("BLOB", 56, 32, DataType::Bytes),
                       parameter("NEG", 88, 12, DataType::SignedInt)};
    db.packets.push_back(diag);

    mdb::PacketDef var;
    var.name = "VAR";
    var.apid = 700;
    var.length = 8;
    var.variableLength = true;
    var.maxLength = 64;
    auto data = test::makeSizedBytes("DATA", "LEN");
    data.size.maxBytes = 4;
    var.parameters = {parameter("LEN", 48, 8, DataType::UnsignedInt), data, test::makeFollowing("TAIL", 0, 8)};
    db.packets.push_back(var);
    return db;
}

std::vector<std::uint8_t> withHeader(std::uint16_t apid, std::size_t size, bool secondaryHeader, std::uint16_t sequence)
{
    std::vector<std::uint8_t> bytes(size, 0);
    ccsds::PrimaryHeader h;
    h.apid = apid;
    h.secondaryHeader = secondaryHeader;
    h.sequenceCount = sequence;
    h.dataLength = static_cast<std::uint16_t>(size - 7);
    ccsds::writePrimaryHeader(h, bytes.data());
    return bytes;
}

// HK with MODE state `modeState`, TEMP converted `temp`, CUC time kCucNs + sequence seconds.
std::vector<std::uint8_t> hkPacket(const mdb::PacketDef& def, std::uint16_t sequence, std::size_t modeState, double temp)
{
    auto bytes = withHeader(def.apid, def.length, true, sequence);
    const auto plan = decode::EncodePlan::compile(def);
    Q_ASSERT(plan.ok());
    ccsds::encodeCuc(kCucNs + std::int64_t{sequence} * 1'000'000'000, decode::cucFormat(*def.secondaryHeader),
                     std::span(bytes).subspan(6, 6));
    (void)plan->setState(bytes, 0, modeState);
    plan->setConverted(bytes, 1, temp);
    plan->setRaw(bytes, 2, std::bit_cast<std::uint32_t>(3.25f));
    plan->setString(bytes, 3, "a,b\"c");
    plan->setRaw(bytes, 4, kBig);
    plan->setRaw(bytes, 5, 1'700'000'000);
    return bytes;
}

std::vector<std::uint8_t> diagPacket(const mdb::PacketDef& def, std::uint16_t sequence, std::uint8_t kind = 2)
{
    auto bytes = withHeader(def.apid, def.length, false, sequence);
    const auto plan = decode::EncodePlan::compile(def);
    plan->setRaw(bytes, 0, kind);
    const std::uint8_t blob[] = {0xDE, 0xAD, 0xBE, 0xEF};
    plan->setBytes(bytes, 1, blob);
    plan->setConverted(bytes, 2, -5);
    return bytes;
}

// VAR of `size` bytes: LEN, then LEN bytes 1, 2, …, then TAIL 7 (what fits).
std::vector<std::uint8_t> varPacket(std::size_t size, std::uint8_t len, std::uint16_t sequence)
{
    auto bytes = withHeader(700, size, false, sequence);
    bytes[6] = len;
    for (std::size_t i = 0; i < len && 7 + i < size; ++i)
        bytes[7 + i] = static_cast<std::uint8_t>(i + 1);
    if (7u + len < size)
        bytes[7 + len] = 7;
    return bytes;
}

void append(std::vector<std::uint8_t>& to, const std::vector<std::uint8_t>& bytes)
{
    to.insert(to.end(), bytes.begin(), bytes.end());
}

QString iso(std::int64_t ns)
{
    const auto dt = QDateTime::fromMSecsSinceEpoch(ns / 1'000'000, QTimeZone::utc());
    return dt.toString(QStringLiteral("yyyy-MM-ddTHH:mm:ss.")) + QStringLiteral("%1Z").arg(ns % 1'000'000'000, 9, 10, QLatin1Char('0'));
}

} // namespace

class TestMdbDecode : public QObject {
    Q_OBJECT

private:
    QTemporaryDir m_dir;
    mdb::MissionDatabase m_db;
    QString m_mission;   // the test mission as .mdb
    QString m_packets;   // HK#0 DIAG#1 HK#2 VAR#3 HK#4

    QString path(const QString& name) const { return m_dir.filePath(name); }
    const mdb::PacketDef& def(std::size_t i) const { return m_db.packets[i]; }

    std::vector<std::vector<std::uint8_t>> goodPackets() const
    {
        return {hkPacket(def(0), 0, 1, 400), diagPacket(def(1), 1), hkPacket(def(0), 2, 0, 800), varPacket(10, 2, 3),
                hkPacket(def(0), 4, 1, -160)};
    }

private slots:
    void initTestCase()
    {
        QVERIFY(m_dir.isValid());
        QVERIFY2(QFileInfo(kTool).isExecutable(), qPrintable(kTool));
        m_db = testMission();
        m_mission = path(QStringLiteral("test.mdb"));
        const auto saved = mdb::saveDatabase(m_db, m_mission.toStdString());
        QVERIFY2(saved.ok(), saved.ok() ? "" : saved.error().toString().c_str());
        std::vector<std::uint8_t> file;
        for (const auto& p : goodPackets())
            append(file, p);
        m_packets = path(QStringLiteral("good.bin"));
        QVERIFY(writeBytes(m_packets, file));
    }

    void csvRowsAndValues()
    {
        const Run run = runDecode(m_mission, m_packets);
        QCOMPARE(run.exitCode, 0);
        QVERIFY2(run.err.contains("5 packets: 5 decoded, 0 unknown, 0 malformed"), run.err.constData());
        const QStringList all = lines(run.out);
        QCOMPARE(all.first(), QStringLiteral("packet_index,time,packet,parameter,raw,converted,calibrated,limit"));
        QCOMPARE(all.size(), 1 + 3 * 6 + 3 + 3);

        const QString t0 = iso(kCucNs);
        QCOMPARE(t0, QStringLiteral("2023-11-14T22:13:20.500000000Z"));
        const auto expect = [&](int index, const QString& name, const QString& line) {
            const QStringList f = row(run.out, index, name);
            QCOMPARE(f.join(QLatin1Char('|')), QString::number(index) + "|" + line);
        };
        expect(0, QStringLiteral("MODE"), t0 + "|HK|MODE|1|1|NOMINAL|normal");
        expect(0, QStringLiteral("TEMP"), t0 + "|HK|TEMP|400|400|10|normal");
        expect(0, QStringLiteral("VOLTS"),
               t0 + "|HK|VOLTS|" + QString::number(std::bit_cast<std::uint32_t>(3.25f)) + "|3.25|3.25|none");
        expect(0, QStringLiteral("NAME"), t0 + "|HK|NAME|612c622263000000|a,b\"c|a,b\"c|none");
        expect(0, QStringLiteral("BIG"), t0 + "|HK|BIG|9223372036854775813|9223372036854775813|9223372036854775813|none");
        expect(0, QStringLiteral("STAMP"), t0 + "|HK|STAMP|1700000000|1700000000|2023-11-14T22:13:20.000000000Z|none");
        expect(2, QStringLiteral("MODE"), iso(kCucNs + 2'000'000'000) + "|HK|MODE|0|0|SAFE|unexpected state");
        expect(2, QStringLiteral("TEMP"), iso(kCucNs + 2'000'000'000) + "|HK|TEMP|800|800|60|yellow high");
        expect(4, QStringLiteral("TEMP"), iso(kCucNs + 4'000'000'000) + "|HK|TEMP|65376|-160|-60|red low");
        expect(1, QStringLiteral("BLOB"), "|DIAG|BLOB|deadbeef|deadbeef|deadbeef|none");
        expect(1, QStringLiteral("NEG"), "|DIAG|NEG|4091|-5|-5|none");
        expect(3, QStringLiteral("DATA"), "|VAR|DATA|0102|0102|0102|none");
        expect(3, QStringLiteral("TAIL"), "|VAR|TAIL|7|7|7|none");
        // The quoting itself: the string with a comma and a quote.
        QVERIFY(all.contains("0," + t0 + ",HK,NAME,612c622263000000,\"a,b\"\"c\",\"a,b\"\"c\",none"));
    }

    void textDefinitionAndOutputFile()
    {
        // The same kind of mission as a .tdef; --output writes a file and nothing to stdout.
        const QString tdef = path(QStringLiteral("hk.tdef"));
        QFile f(tdef);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write("PACKET HK APID 100 LENGTH 40\n  SECONDARY_HEADER CUC 4 2 EPOCH UNIX\n"
                "  PARAMETER MODE 96 8 UINT\n    STATE \"SAFE\" 0\n    STATE \"NOMINAL\" 1 3\n");
        f.close();
        const QString out = path(QStringLiteral("hk.csv"));
        const Run run = runDecode(tdef, m_packets, {QStringLiteral("--output"), out});
        QCOMPARE(run.exitCode, 3); // DIAG and VAR are unknown to this mission
        QVERIFY(run.out.isEmpty());
        QVERIFY2(run.err.contains("5 packets: 3 decoded, 2 unknown, 0 malformed"), run.err.constData());
        QVERIFY(run.err.contains("APID 600: 1 packet"));
        QVERIFY(run.err.contains("APID 700: 1 packet"));
        QFile csv(out);
        QVERIFY(csv.open(QIODevice::ReadOnly));
        const QByteArray text = csv.readAll();
        QCOMPARE(row(text, 2, QStringLiteral("MODE")).join(QLatin1Char('|')),
                 "2|" + iso(kCucNs + 2'000'000'000) + "|HK|MODE|0|0|SAFE|none");
    }

    void trainingMission()
    {
        // The training mission the build compiles: Packet5 with its CUC time.
        const QString training = QString::fromStdString(test::trainingDatabasePath());
        auto db = mdb::loadDatabase(training.toStdString());
        QVERIFY(db.ok());
        const mdb::PacketDef* p5 = db->findPacket("Packet5");
        QVERIFY(p5 != nullptr);
        std::vector<std::uint8_t> file;
        for (std::uint16_t i = 0; i < 3; ++i) {
            auto bytes = withHeader(p5->apid, p5->length, true, i);
            ccsds::encodeCuc(kCucNs + i * 1'000'000'000ll, decode::cucFormat(*p5->secondaryHeader),
                             std::span(bytes).subspan(6, 6));
            append(file, bytes);
        }
        const QString input = path(QStringLiteral("training.bin"));
        QVERIFY(writeBytes(input, file));
        const Run run = runDecode(training, input, {QStringLiteral("--wide"), QStringLiteral("--packet"), QStringLiteral("Packet5")});
        QCOMPARE(run.exitCode, 0);
        QVERIFY2(run.err.contains("3 packets: 3 decoded, 0 unknown, 0 malformed"), run.err.constData());
        const QStringList all = lines(run.out);
        QCOMPARE(all.size(), 4);
        QCOMPARE(csvFields(all[0]).size(), 3 + static_cast<int>(p5->parameters.size()));
        // Packet5's epoch is TAI 1958: the same counts are another date, in the same format.
        QVERIFY(QRegularExpression(QStringLiteral("^\\d{4}-\\d\\d-\\d\\dT\\d\\d:\\d\\d:\\d\\d\\.\\d{9}Z$"))
                    .match(csvFields(all[1])[1]).hasMatch());
    }

    void wide()
    {
        const Run run = runDecode(m_mission, m_packets, {QStringLiteral("--wide")});
        QCOMPARE(run.exitCode, 0);
        const QStringList all = lines(run.out);
        const QStringList expected{
            QStringLiteral("packet_index,time,packet,MODE,TEMP,VOLTS,NAME,BIG,STAMP"),
            "0," + iso(kCucNs) + ",HK,NOMINAL,10,3.25,\"a,b\"\"c\",9223372036854775813,2023-11-14T22:13:20.000000000Z",
            "2," + iso(kCucNs + 2'000'000'000) + ",HK,SAFE,60,3.25,\"a,b\"\"c\",9223372036854775813,2023-11-14T22:13:20.000000000Z",
            "4," + iso(kCucNs + 4'000'000'000) + ",HK,NOMINAL,-60,3.25,\"a,b\"\"c\",9223372036854775813,2023-11-14T22:13:20.000000000Z",
            QString(),
            QStringLiteral("packet_index,time,packet,KIND,BLOB,NEG"),
            QStringLiteral("1,,DIAG,2,deadbeef,-5"),
            QString(),
            QStringLiteral("packet_index,time,packet,LEN,DATA,TAIL"),
            QStringLiteral("3,,VAR,2,0102,7"),
        };
        QCOMPARE(all, expected);

        // One packet type: one plain table.
        const Run one = runDecode(m_mission, m_packets, {QStringLiteral("--wide"), QStringLiteral("--packet=DIAG")});
        QCOMPARE(one.exitCode, 0);
        QCOMPARE(lines(one.out), (QStringList{QStringLiteral("packet_index,time,packet,KIND,BLOB,NEG"),
                                               QStringLiteral("1,,DIAG,2,deadbeef,-5")}));
        // A selected type that never comes: its header, no rows.
        const Run none = runDecode(m_mission, m_packets,
                                {QStringLiteral("--wide"), QStringLiteral("--parameters"), QStringLiteral("VAR.TAIL")});
        QCOMPARE(lines(none.out), (QStringList{QStringLiteral("packet_index,time,packet,TAIL"), QStringLiteral("3,,VAR,7")}));
    }

    // One row per time across packet types; a packet without a time gets a row of its own.
    void aligned()
    {
        const QStringList pick{QStringLiteral("--aligned"), QStringLiteral("--parameters"),
                               QStringLiteral("HK.TEMP,DIAG.NEG,VAR.TAIL")};
        const Run run = runDecode(m_mission, m_packets, pick);
        QCOMPARE(run.exitCode, 0);
        QCOMPARE(lines(run.out), (QStringList{QStringLiteral("time,HK.TEMP,DIAG.NEG,VAR.TAIL"), iso(kCucNs) + ",10,,",
                                              QStringLiteral(",,-5,"), iso(kCucNs + 2'000'000'000) + ",60,,",
                                              QStringLiteral(",,,7"), iso(kCucNs + 4'000'000'000) + ",-60,,"}));
        // A range keeps the packets whose (packet) time is in it: those without one are left out.
        const Run later = runDecode(m_mission, m_packets,
                                    pick + QStringList{QStringLiteral("--from"), iso(kCucNs + 1'000'000'000)});
        QCOMPARE(later.exitCode, 0);
        QCOMPARE(lines(later.out), (QStringList{QStringLiteral("time,HK.TEMP,DIAG.NEG,VAR.TAIL"),
                                                iso(kCucNs + 2'000'000'000) + ",60,,", iso(kCucNs + 4'000'000'000) + ",-60,,"}));
        QVERIFY2(later.err.contains("5 packets: 5 decoded"), later.err.constData()); // all read, two written
        QVERIFY2(later.err.contains("written: 2 packets"), later.err.constData());
    }

    // A recording of two streams: --from/--to select by receive time, --stream by stream, --aligned puts
    // the two streams' packets of one time on one row.
    void recordingRangeAndStreams()
    {
        const QString dir = path(QStringLiteral("two-streams"));
        const std::int64_t t0 = 1'700'000'000'000'000'000;
        const auto at = [&](int i) { return t0 + std::int64_t{i} * 1'000'000'000; };
        {
            auto catalog = record::RecordingCatalog::open(dir.toStdString());
            QVERIFY(catalog.ok());
            auto tm = record::StreamRecorder::create(**catalog, "tm", 1, 1 << 20);
            auto hk = record::StreamRecorder::create(**catalog, "hk", 2, 1 << 20);
            QVERIFY(tm.ok() && hk.ok());
            for (int i = 0; i < 5; ++i) {
                const auto seq = static_cast<std::uint16_t>(i);
                QVERIFY((*tm)->record(record::RecordMeta{at(i), 1, 100, false}, hkPacket(def(0), seq, 1, 8 * i)));
                QVERIFY((*hk)->record(record::RecordMeta{at(i), 2, 101, false}, diagPacket(def(1), seq)));
            }
            QVERIFY((*tm)->close().ok());
            QVERIFY((*hk)->close().ok());
        }
        const QStringList pick{QStringLiteral("--aligned"), QStringLiteral("--parameters"), QStringLiteral("HK.TEMP,DIAG.NEG")};
        const Run all = runDecode(m_mission, dir, pick);
        QVERIFY2(all.exitCode == 0, all.err.constData());
        QStringList expected{QStringLiteral("time,HK.TEMP,DIAG.NEG")};
        for (int i = 0; i < 5; ++i)
            expected << iso(at(i)) + "," + QString::number(-40 + i) + ",-5";
        QCOMPARE(lines(all.out), expected);

        const Run middle = runDecode(m_mission, dir, pick + QStringList{QStringLiteral("--from"), iso(at(1)),
                                                                       QStringLiteral("--to=") + QString::number(at(3))});
        QCOMPARE(middle.exitCode, 0);
        QCOMPARE(lines(middle.out), expected.mid(0, 1) + expected.mid(2, 3));
        QVERIFY2(middle.err.contains("(recording): 6 packets: 6 decoded"), middle.err.constData()); // the rest not read

        const Run hkOnly = runDecode(m_mission, dir, {QStringLiteral("--stream"), QStringLiteral("hk"),
                                                      QStringLiteral("--wide")});
        QCOMPARE(hkOnly.exitCode, 0);
        QCOMPARE(lines(hkOnly.out).size(), 1 + 5);
        QVERIFY2(lines(hkOnly.out).first().startsWith(QStringLiteral("packet_index,time,packet,KIND")),
                 hkOnly.out.constData());

        const Run unknown = runDecode(m_mission, dir, {QStringLiteral("--stream=nope")});
        QCOMPARE(unknown.exitCode, 1);
        QVERIFY2(unknown.err.contains("stream 'nope' is not in the recording"), unknown.err.constData());
        const Run notRecording = runDecode(m_mission, m_packets, {QStringLiteral("--stream=tm")});
        QCOMPARE(notRecording.exitCode, 1);
        QVERIFY2(notRecording.err.contains("has no streams"), notRecording.err.constData());
        for (const QStringList& bad : {QStringList{QStringLiteral("--from=yesterday")},
                                       QStringList{QStringLiteral("--from"), iso(at(3)), QStringLiteral("--to"), iso(at(1))},
                                       QStringList{QStringLiteral("--wide"), QStringLiteral("--aligned")},
                                       QStringList{QStringLiteral("--aligned"), QStringLiteral("--format=jsonl")}}) {
            const Run r = runDecode(m_mission, dir, bad);
            QVERIFY2(r.exitCode == 2, qPrintable(bad.join(' ') + ": " + QString::fromUtf8(r.err)));
        }
    }

    // Memory stays bounded whatever the range: 100,000 recorded packets decode to tens of MB of CSV
    // (long and aligned) while the tool's peak resident memory stays at its baseline.
    void largeRecordingInBoundedMemory()
    {
        const QString dir = path(QStringLiteral("large"));
        constexpr int kPackets = 100'000;
        {
            auto catalog = record::RecordingCatalog::open(dir.toStdString());
            QVERIFY(catalog.ok());
            auto recorder = record::StreamRecorder::create(**catalog, "tm", 1, 4 << 20); // several segments
            QVERIFY(recorder.ok());
            auto packet = hkPacket(def(0), 0, 1, 400);
            for (int i = 0; i < kPackets; ++i) {
                ccsds::PrimaryHeader h = ccsds::readPrimaryHeader(packet.data());
                h.sequenceCount = static_cast<std::uint16_t>(i & 0x3fff);
                ccsds::writePrimaryHeader(h, packet.data());
                packet[14] = static_cast<std::uint8_t>(i); // TEMP's low byte: values move
                const record::RecordMeta meta{1'700'000'000'000'000'000 + std::int64_t{i} * 1'000'000, 1, 100, false};
                QVERIFY((*recorder)->record(meta, packet));
            }
            QVERIFY((*recorder)->close().ok());
        }
        const QString out = path(QStringLiteral("large.csv"));
        for (const QStringList& layout : {QStringList{}, QStringList{QStringLiteral("--aligned")}}) {
            const Run run = runTool(QStringList{QStringLiteral("decode"), QStringLiteral("--mdb"), m_mission,
                                                QStringLiteral("--input"), dir, QStringLiteral("--output"), out}
                                        + layout,
                                    600000);
            QVERIFY2(run.exitCode == 0, run.err.constData());
            QVERIFY2(run.err.contains("100000 packets: 100000 decoded"), run.err.constData());
            const qint64 bytes = QFileInfo(out).size();
            rusage usage{};
            getrusage(RUSAGE_CHILDREN, &usage); // the largest peak of the children waited for: this one
            const long peakMiB = usage.ru_maxrss / 1024;
            qInfo("%s: %lld MB of CSV, the tool's peak resident memory %ld MiB", layout.isEmpty() ? "long" : "aligned",
                  static_cast<long long>(bytes / 1'000'000), peakMiB);
            QVERIFY(bytes > 10'000'000);
            if (!test::kSanitized) // sanitizers' allocators keep freed memory and shadow: their peak says nothing
                QVERIFY2(peakMiB < 48, qPrintable(QString::number(peakMiB)));
            QVERIFY(QFile::remove(out));
        }
    }

    void jsonLines()
    {
        const Run run = runDecode(m_mission, m_packets, {QStringLiteral("--format"), QStringLiteral("jsonl")});
        QCOMPARE(run.exitCode, 0);
        const QStringList all = lines(run.out);
        QCOMPARE(all.size(), 5);
        std::vector<nlohmann::json> objects;
        for (const QString& line : all) {
            const auto j = nlohmann::json::parse(line.toStdString(), nullptr, false);
            QVERIFY2(!j.is_discarded(), qPrintable(line));
            objects.push_back(j);
        }
        const auto& hk = objects[0];
        QCOMPARE(hk["index"].get<int>(), 0);
        QCOMPARE(hk["packet"].get<std::string>(), std::string("HK"));
        QCOMPARE(hk["apid"].get<int>(), 100);
        QCOMPARE(QString::fromStdString(hk["time"].get<std::string>()), iso(kCucNs));
        const auto& big = hk["parameters"]["BIG"];
        QVERIFY(big["raw"].is_number_unsigned());
        QCOMPARE(big["raw"].get<std::uint64_t>(), kBig);
        QCOMPARE(big["converted"].get<std::uint64_t>(), kBig);
        QCOMPARE(big["calibrated"].get<std::uint64_t>(), kBig);
        QCOMPARE(hk["parameters"]["MODE"]["calibrated"].get<std::string>(), std::string("NOMINAL"));
        QCOMPARE(hk["parameters"]["MODE"]["limit"].get<std::string>(), std::string("normal"));
        QCOMPARE(hk["parameters"]["TEMP"]["calibrated"].get<double>(), 10.0);
        QCOMPARE(hk["parameters"]["NAME"]["converted"].get<std::string>(), std::string("a,b\"c"));
        QCOMPARE(hk["parameters"]["STAMP"]["calibrated"].get<std::string>(), std::string("2023-11-14T22:13:20.000000000Z"));
        QCOMPARE(objects[4]["parameters"]["TEMP"]["converted"].get<std::int64_t>(), std::int64_t{-160});
        QCOMPARE(objects[4]["parameters"]["TEMP"]["limit"].get<std::string>(), std::string("red low"));
        QVERIFY(objects[1]["time"].is_null());
        QCOMPARE(objects[1]["parameters"]["BLOB"]["raw"].get<std::string>(), std::string("deadbeef"));
        QCOMPARE(objects[1]["parameters"]["NEG"]["converted"].get<int>(), -5);
        QCOMPARE(objects[3]["parameters"]["TAIL"]["raw"].get<int>(), 7);
    }

    void selection()
    {
        Run run = runDecode(m_mission, m_packets, {QStringLiteral("--packet"), QStringLiteral("DIAG,VAR")});
        QCOMPARE(run.exitCode, 0);
        QCOMPARE(lines(run.out).size(), 1 + 3 + 3);
        QVERIFY2(run.err.contains("written: 2 packets, 6 parameter values"), run.err.constData());

        run = runDecode(m_mission, m_packets, {QStringLiteral("--parameters"), QStringLiteral("HK.TEMP,NEG")});
        QCOMPARE(run.exitCode, 0);
        QStringList names;
        for (const QString& line : lines(run.out).mid(1))
            names << csvFields(line)[0] + ":" + csvFields(line)[3];
        QCOMPARE(names, (QStringList{"0:TEMP", "1:NEG", "2:TEMP", "4:TEMP"}));

        // Repeated options add up; an unqualified name applies to the selected packets only.
        run = runDecode(m_mission, m_packets,
                     {QStringLiteral("--packet"), QStringLiteral("HK"), QStringLiteral("--packet"), QStringLiteral("DIAG"),
                      QStringLiteral("--parameters"), QStringLiteral("MODE"), QStringLiteral("--parameters=KIND")});
        QCOMPARE(run.exitCode, 0);
        QCOMPARE(lines(run.out).size(), 1 + 3 + 1);

        const auto refused = [&](const QStringList& extra, const char* message) {
            const Run r = runDecode(m_mission, m_packets, extra);
            QCOMPARE(r.exitCode, 2);
            QVERIFY2(r.err.contains(message), r.err.constData());
            QVERIFY(r.out.isEmpty());
        };
        refused({QStringLiteral("--packet"), QStringLiteral("NOPE")}, "no packet 'NOPE' in the mission (packets: HK, DIAG, VAR)");
        refused({QStringLiteral("--parameters"), QStringLiteral("HK.NOPE")}, "packet HK has no parameter 'NOPE'");
        refused({QStringLiteral("--parameters"), QStringLiteral("NOPE")}, "parameter 'NOPE' is in none of the mission's packets");
        refused({QStringLiteral("--packet"), QStringLiteral("DIAG"), QStringLiteral("--parameters"), QStringLiteral("TEMP")},
                "parameter 'TEMP' is in none of the selected packets");
        refused({QStringLiteral("--packet"), QStringLiteral("DIAG"), QStringLiteral("--parameters"), QStringLiteral("HK.TEMP")},
                "packet HK is not among the --packet selection");
    }

    void transportHeader()
    {
        std::vector<std::uint8_t> file;
        for (const auto& p : goodPackets()) {
            append(file, {0xAA, 0xBB, 0xCC, static_cast<std::uint8_t>(p.size())});
            append(file, p);
        }
        const QString input = path(QStringLiteral("transport.bin"));
        QVERIFY(writeBytes(input, file));
        const Run plain = runDecode(m_mission, m_packets);
        const Run run = runDecode(m_mission, input, {QStringLiteral("--transport-header"), QStringLiteral("4")});
        QCOMPARE(run.exitCode, 0);
        QCOMPARE(run.out, plain.out);
        // Without the option the transport headers are bad primary headers.
        const Run wrong = runDecode(m_mission, input);
        QCOMPARE(wrong.exitCode, 3);
        QVERIFY2(wrong.err.contains("bad primary header"), wrong.err.constData());
    }

    void malformedAndUnknown()
    {
        std::vector<std::uint8_t> file;
        append(file, hkPacket(def(0), 0, 1, 400));                 // 0: decodes
        append(file, withHeader(99, 12, false, 1));                // 1: unknown APID
        append(file, diagPacket(def(1), 2, 3));                    // 2: APID 600 but secondary id 3: unknown
        const std::size_t garbageAt = file.size();
        append(file, std::vector<std::uint8_t>(10, 0xFF));         // 3: a garbage header, 10 bytes skipped
        append(file, varPacket(16, 10, 4));                        // 4: DATA of 10 bytes, bound 4: a size out of range
        append(file, varPacket(9, 4, 5));                          // 5: ends inside DATA: shorter than its layout
        append(file, varPacket(12, 2, 6));                         // 6: 2 bytes past TAIL: long, decodes
        append(file, withHeader(700, 7, false, 7));                // 7: shorter than the definition's 8 bytes
        const auto hk = hkPacket(def(0), 8, 1, 400);
        append(file, std::vector<std::uint8_t>(hk.begin(), hk.begin() + 20)); // 8: truncated last packet
        const QString input = path(QStringLiteral("bad.bin"));
        QVERIFY(writeBytes(input, file));

        const Run run = runDecode(m_mission, input);
        QCOMPARE(run.exitCode, 3);
        const QString err = QString::fromUtf8(run.err);
        QVERIFY2(err.contains(QStringLiteral("9 packets: 2 decoded, 2 unknown, 5 malformed")), qPrintable(err));
        QVERIFY2(err.contains(QStringLiteral("APID 99: 1 packet")), qPrintable(err));
        QVERIFY2(err.contains(QStringLiteral("APID 600: 1 packet")), qPrintable(err));
        QVERIFY2(err.contains(QStringLiteral("bad primary header: 1 packet\n      packet 3 at byte offset %1: version 7, "
                                             "APID 2047; 10 bytes skipped to the next packet")
                                  .arg(garbageAt)),
                 qPrintable(err));
        QVERIFY2(err.contains(QStringLiteral("a size out of range: 1 packet\n      packet 4 at byte offset")), qPrintable(err));
        QVERIFY2(err.contains(QStringLiteral("(VAR): parameter DATA has a size out of range")), qPrintable(err));
        QVERIFY2(err.contains(QStringLiteral("shorter than its layout: 2 packets")), qPrintable(err));
        QVERIFY2(err.contains(QStringLiteral("(VAR): 9 bytes end before parameter DATA")), qPrintable(err));
        QVERIFY2(err.contains(QStringLiteral("(VAR): 7 bytes, its definition has at least 8")), qPrintable(err));
        QVERIFY2(err.contains(QStringLiteral("truncated last packet: 1 packet\n      packet 8 at byte offset %1: APID 100: "
                                             "the file ends 20 bytes into a packet of 40 bytes")
                                  .arg(file.size() - 20)),
                 qPrintable(err));
        QVERIFY2(err.contains(QStringLiteral("long packets (decoded, extra bytes ignored): 1 packet with 2 extra bytes")),
                 qPrintable(err));
        QVERIFY2(err.contains(QStringLiteral("packet 6 at byte offset")), qPrintable(err));
        // Only the packets that decoded are written.
        QStringList indexes;
        for (const QString& line : lines(run.out).mid(1))
            indexes << csvFields(line)[0];
        indexes.removeDuplicates();
        QCOMPARE(indexes, (QStringList{"0", "6"}));
    }

    void recording()
    {
        const QString dir = path(QStringLiteral("recording"));
        const std::int64_t t0 = 1'700'000'000'123'456'789;
        {
            auto catalog = record::RecordingCatalog::open(dir.toStdString());
            QVERIFY(catalog.ok());
            auto recorder = record::StreamRecorder::create(**catalog, "tm", 1, 1 << 20);
            QVERIFY(recorder.ok());
            const auto packets = goodPackets();
            for (std::size_t i = 0; i < packets.size(); ++i) {
                const record::RecordMeta meta{t0 + static_cast<std::int64_t>(i) * 1'000'000, 1, 0, false};
                QVERIFY((*recorder)->record(meta, packets[i]));
            }
            auto longer = hkPacket(def(0), 5, 1, 400);
            longer.push_back(0); // the record holds one byte more than the length field says
            QVERIFY((*recorder)->record(record::RecordMeta{t0 + 5'000'000, 1, 100, false}, longer));
            QVERIFY((*recorder)->close().ok());
        }
        const Run run = runDecode(m_mission, dir);
        QCOMPARE(run.exitCode, 3);
        QVERIFY2(run.err.contains("(recording): 6 packets: 5 decoded, 0 unknown, 1 malformed"), run.err.constData());
        QVERIFY2(run.err.contains("length field disagrees with the bytes: 1 packet\n      packet 5: APID 100: the length "
                                  "field says 40 bytes, the record holds 41"),
                 run.err.constData());
        // The time column is the receive time, not the packet's CUC time.
        QCOMPARE(row(run.out, 0, QStringLiteral("TEMP")).join(QLatin1Char('|')),
                 QStringLiteral("0|2023-11-14T22:13:20.123456789Z|HK|TEMP|400|400|10|normal"));
        QCOMPARE(row(run.out, 3, QStringLiteral("TAIL"))[1], QStringLiteral("2023-11-14T22:13:20.126456789Z"));

        // One segment file decodes the same, told apart by content.
        const QStringList segments = QDir(dir).entryList({QStringLiteral("*.tsrec")});
        QCOMPARE(segments.size(), 1);
        const Run one = runDecode(m_mission, QDir(dir).filePath(segments.first()));
        QCOMPARE(one.exitCode, 3);
        QVERIFY2(one.err.contains("(recording segment): 6 packets"), one.err.constData());
        QCOMPARE(one.out, run.out);
    }

    void jpss()
    {
#if !TELESTATION_HAS_XTCE
        QSKIP("core/xtce/xtce_import.hpp is not there yet");
#endif
        const QString mission = kReference + "/missions/jpss1/jpss1_geolocation_xtce_v1.xml";
        const QString input = kReference + "/missions/jpss1/J01_G011_LZ_2021-04-09T00-00-00Z_V01.DAT1";
        const Run run = runDecode(mission, input, {QStringLiteral("--format"), QStringLiteral("jsonl")});
        QCOMPARE(run.exitCode, 0);
        QVERIFY2(run.err.contains("7200 packets: 7200 decoded, 0 unknown, 0 malformed"), run.err.constData());
        QVERIFY2(!run.err.contains("long packets"), run.err.constData());
        const QStringList all = lines(run.out);
        QCOMPARE(all.size(), 7200);
        int previousCount = -1;
        // Plausible values in every packet: the GPS position is in low Earth orbit (~824 km up) and the
        // attitude quaternion has unit norm.
        for (const QString& line : all) {
            const auto j = nlohmann::json::parse(line.toStdString());
            const auto& p = j["parameters"];
            const auto v = [&](const char* name) { return p[name]["calibrated"].get<double>(); };
            const double radius = std::sqrt(v("ADGPSPOSX") * v("ADGPSPOSX") + v("ADGPSPOSY") * v("ADGPSPOSY")
                                            + v("ADGPSPOSZ") * v("ADGPSPOSZ"));
            QVERIFY2(radius > 7.0e6 && radius < 7.4e6, qPrintable(line.left(300)));
            const double norm = v("ADCFAQ1") * v("ADCFAQ1") + v("ADCFAQ2") * v("ADCFAQ2") + v("ADCFAQ3") * v("ADCFAQ3")
                + v("ADCFAQ4") * v("ADCFAQ4");
            QVERIFY2(std::fabs(norm - 1) < 1e-3, qPrintable(line.left(300)));
            QCOMPARE(p["PKT_APID"]["raw"].get<int>(), 11);
            // The header agrees with the file: every packet 71 bytes, the sequence count goes up by one.
            QCOMPARE(p["PKT_LEN"]["raw"].get<int>() + 7, 71);
            const int count = p["SRC_SEQ_CTR"]["raw"].get<int>();
            if (previousCount >= 0)
                QCOMPARE(count, (previousCount + 1) % 16384);
            previousCount = count;
            // Times: days since the 1958 epoch within 2021 (23011 = 2021-01-01), milliseconds of the day.
            for (const char* day : {"DOY", "ADAET1DAY", "ADAET2DAY"})
                QVERIFY2(v(day) >= 23011 && v(day) < 23376, qPrintable(line.left(300)));
            for (const char* ms : {"MSEC", "ADAET1MS", "ADAET2MS"})
                QVERIFY2(v(ms) >= 0 && v(ms) < 86'400'000, qPrintable(line.left(300)));
        }
    }

    void idex()
    {
#if !TELESTATION_HAS_XTCE
        QSKIP("core/xtce/xtce_import.hpp is not there yet");
#endif
        const QString mission = kReference + "/missions/idex/idex_combined_science_definition.xml";
        const QString input = kReference + "/missions/idex/sciData_2023_052_14_45_05";
        const Run run = runDecode(mission, input, {QStringLiteral("--format"), QStringLiteral("jsonl")});
        QCOMPARE(run.exitCode, 0);
        QVERIFY2(run.err.contains("78 packets: 78 decoded, 0 unknown, 0 malformed"), run.err.constData());
        QVERIFY2(!run.err.contains("long packets"), run.err.constData());
        const QStringList all = lines(run.out);
        QCOMPARE(all.size(), 78);
        int sized = 0;
        // Each packet's length field agrees with the fields decoded to its end: the variable-length
        // binary data sized by another parameter ends where the packet does.
        std::uint64_t bytes = 0;
        for (const QString& line : all) {
            const auto j = nlohmann::json::parse(line.toStdString());
            QCOMPARE(j["apid"].get<int>(), 1424);
            const auto length = j["parameters"]["PKT_LEN"]["raw"].get<std::uint64_t>();
            bytes += length + 7;
            // The science data takes the size its size parameter gives: 8 * PKT_LEN - 328 bits.
            if (j["parameters"].contains("IDX__SCI0RAW")) {
                ++sized;
                QCOMPARE(j["parameters"]["IDX__SCI0RAW"]["raw"].get<std::string>().size() / 2, (8 * length - 328) / 8);
            }
        }
        QVERIFY(sized > 0);
        QCOMPARE(static_cast<qint64>(bytes), QFileInfo(input).size());
    }

    void progressOnTerminalOnly()
    {
        // A file over 10 MB: one 4000-byte packet type with two parameters, 2,700 packets.
        mdb::MissionDatabase db;
        mdb::PacketDef big;
        big.name = "BIG";
        big.apid = 5;
        big.length = 4000;
        big.parameters = {parameter("A", 48, 16, mdb::DataType::UnsignedInt), parameter("B", 31984, 16, mdb::DataType::UnsignedInt)};
        db.packets.push_back(big);
        const QString mission = path(QStringLiteral("big.mdb"));
        QVERIFY(mdb::saveDatabase(db, mission.toStdString()).ok());
        std::vector<std::uint8_t> file;
        for (std::uint16_t i = 0; i < 2700; ++i)
            append(file, withHeader(5, 4000, false, i));
        const QString input = path(QStringLiteral("big.bin"));
        QVERIFY(writeBytes(input, file));
        const QString out = path(QStringLiteral("big.jsonl"));

        // Not a terminal (QProcess pipes): no bar.
        const Run piped = runDecode(mission, input, {QStringLiteral("--format=jsonl"), QStringLiteral("--output"), out});
        QCOMPARE(piped.exitCode, 0);
        QVERIFY2(!piped.err.contains("decoding"), piped.err.constData());
        QVERIFY(!piped.err.contains('\r'));

        if (QStandardPaths::findExecutable(QStringLiteral("script")).isEmpty())
            QSKIP("no script(1) to give the tool a terminal");
        // script(1) runs the tool on a pseudo-terminal (stderr a terminal, the output a file).
        QProcess process;
        const QString command = QStringLiteral("'%1' decode --mdb '%2' --input '%3' --format jsonl --output '%4'")
                                    .arg(kTool, mission, input, out);
        process.start(QStringLiteral("script"), {QStringLiteral("-q"), QStringLiteral("-e"), QStringLiteral("-c"), command,
                                                 QStringLiteral("/dev/null")});
        QVERIFY(process.waitForFinished(120000));
        QCOMPARE(process.exitCode(), 0);
        const QByteArray tty = process.readAllStandardOutput();
        QVERIFY2(tty.contains("decoding "), tty.constData());
        QVERIFY2(tty.contains("2700 packets: 2700 decoded"), tty.constData());
        QVERIFY2(tty.contains("\r\x1b[K"), tty.constData()); // the bar is erased before the summary
    }

    void usageAndFailures()
    {
        Run run = runTool({QStringLiteral("decode"), QStringLiteral("--help")});
        QCOMPARE(run.exitCode, 0);
        QVERIFY(run.out.contains("Usage: telestation-mdb decode --mdb MISSION --input FILE"));
        run = runTool({QStringLiteral("--help")});
        QVERIFY(run.out.contains("decode --mdb MISSION --input FILE [options]"));

        const auto usage = [&](const QStringList& args, const char* message) {
            const Run r = runTool(QStringList{QStringLiteral("decode")} + args);
            QCOMPARE(r.exitCode, 2);
            QVERIFY2(r.err.contains(message), r.err.constData());
        };
        usage({QStringLiteral("--input"), m_packets}, "missing --mdb MISSION");
        usage({QStringLiteral("--mdb"), m_mission}, "missing --input FILE");
        usage({QStringLiteral("--mdb"), m_mission, QStringLiteral("--input"), m_packets, QStringLiteral("--wide"),
               QStringLiteral("--format"), QStringLiteral("jsonl")},
              "--wide is a CSV layout");
        usage({QStringLiteral("--mdb"), m_mission, QStringLiteral("--input"), m_packets, QStringLiteral("--format"),
               QStringLiteral("xml")},
              "--format is csv or jsonl, not 'xml'");
        usage({QStringLiteral("--mdb"), m_mission, QStringLiteral("--input"), m_packets, QStringLiteral("--transport-header"),
               QStringLiteral("-1")},
              "--transport-header is a number of bytes");
        usage({QStringLiteral("--mdb"), m_mission, QStringLiteral("--input"), m_packets, QStringLiteral("--bogus")},
              "unknown option --bogus");
        usage({QStringLiteral("--mdb"), m_mission, QStringLiteral("--mdb"), m_mission}, "option --mdb is given twice");
        usage({QStringLiteral("--mdb"), m_mission, QStringLiteral("--input"), m_packets, QStringLiteral("--output"), m_packets},
              "would overwrite an input");

        // Exit 1: a mission or an input that cannot be read.
        run = runDecode(path(QStringLiteral("missing.mdb")), m_packets);
        QCOMPARE(run.exitCode, 1);
        QVERIFY2(run.err.contains("missing.mdb: error: no such file"), run.err.constData());
        run = runDecode(m_packets, m_packets); // packets are no mission
        QCOMPARE(run.exitCode, 1);
        QVERIFY2(run.err.contains("neither a mission database"), run.err.constData());
        run = runDecode(m_mission, path(QStringLiteral("missing.bin")));
        QCOMPARE(run.exitCode, 1);
        QVERIFY2(run.err.contains("missing.bin: no such file or directory"), run.err.constData());
        run = runDecode(m_mission, m_dir.path()); // a directory without catalog.sqlite
        QCOMPARE(run.exitCode, 1);
        QVERIFY2(run.err.contains("not a recording directory"), run.err.constData());
        // An empty file: nothing to decode, nothing wrong.
        const QString empty = path(QStringLiteral("empty.bin"));
        QVERIFY(writeBytes(empty, {}));
        run = runDecode(m_mission, empty);
        QCOMPARE(run.exitCode, 0);
        QCOMPARE(lines(run.out).size(), 1);
    }
};

QTEST_GUILESS_MAIN(TestMdbDecode)
#include "tst_mdb_decode.moc"
