// Segment files: CRC-32C, the exact byte format, round trips, stream names up to 32 bytes, reading
// format version 1, truncation at every byte of the last record, damage in a middle record, a real
// "disk full" (RLIMIT_FSIZE in a child process) and the writer's per-record path allocating nothing.
#include "core/record/record_detail.hpp"
#include "core/record/segment_file.hpp"
#include "tests/support/allocation_counter.hpp"

#include <QtTest>

#include <csignal>
#include <cstring>
#include <fstream>
#include <random>
#include <string>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>
#include <vector>

using namespace telestation;
using namespace telestation::record;

namespace {

struct Rec {
    RecordMeta meta;
    std::vector<std::uint8_t> payload;
};

std::vector<Rec> makeRecords(std::size_t count, std::size_t maxSize, std::uint32_t seed)
{
    std::mt19937 rng(seed);
    std::vector<Rec> out(count);
    std::int64_t t = 1'700'000'000'000'000'000;
    for (auto& r : out) {
        t += static_cast<std::int64_t>(rng() % 1'000'000);
        r.meta.receiveTimeNs = t;
        r.meta.streamId = static_cast<std::uint16_t>(rng());
        r.meta.apid = static_cast<std::uint16_t>(rng() % 2048);
        r.meta.malformed = rng() % 7 == 0;
        r.payload.resize(rng() % (maxSize + 1));
        for (auto& b : r.payload)
            b = static_cast<std::uint8_t>(rng());
    }
    return out;
}

std::vector<std::uint8_t> readFile(const QString& path)
{
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly))
        return {};
    const QByteArray bytes = f.readAll();
    return {bytes.begin(), bytes.end()};
}

void writeFile(const QString& path, const std::uint8_t* data, std::size_t size)
{
    QFile f(path);
    QVERIFY(f.open(QIODevice::WriteOnly | QIODevice::Truncate));
    QCOMPARE(f.write(reinterpret_cast<const char*>(data), static_cast<qint64>(size)), static_cast<qint64>(size));
}

// Writes the records to `path`; returns each record's byte offset.
std::vector<std::uint64_t> writeSegment(const std::string& path, const std::vector<Rec>& recs)
{
    std::vector<std::uint64_t> offsets;
    auto w = SegmentWriter::create(path, SegmentHeader{kFormatVersion, 123456789, 7, "downlink"});
    if (!w)
        return offsets;
    for (const auto& r : recs) {
        offsets.push_back((*w)->bytesWritten());
        if (!(*w)->append(r.meta, r.payload))
            return {};
    }
    if (!(*w)->close())
        return {};
    return offsets;
}

// Reads every intact record; end/problem/offset describe how reading stopped.
struct ReadBack {
    std::vector<Rec> recs;
    SegmentEnd end = SegmentEnd::Clean;
    std::string problem;
    std::uint64_t offset = 0;
    std::string error;
};

ReadBack readSegment(const std::string& path)
{
    ReadBack out;
    auto r = SegmentReader::open(path);
    if (!r) {
        out.error = r.error().toString();
        return out;
    }
    Rec rec;
    while ((*r)->next(rec.meta, rec.payload))
        out.recs.push_back(rec);
    out.end = (*r)->end();
    out.problem = (*r)->problem();
    out.offset = (*r)->offset();
    return out;
}

bool samePrefix(const std::vector<Rec>& got, const std::vector<Rec>& want, std::size_t n)
{
    if (got.size() != n || want.size() < n)
        return false;
    for (std::size_t i = 0; i < n; ++i)
        if (!(got[i].meta == want[i].meta) || got[i].payload != want[i].payload)
            return false;
    return true;
}

} // namespace

class TestRecordSegment : public QObject {
    Q_OBJECT

private slots:
    void crcVectors()
    {
        const std::string text = "123456789";
        const std::span<const std::uint8_t> bytes(reinterpret_cast<const std::uint8_t*>(text.data()), text.size());
        QCOMPARE(crc32c(bytes), 0xE3069283u);
        QCOMPARE(detail::crc32cSoftware(bytes), 0xE3069283u);
        QCOMPARE(detail::crc32cHardware(bytes), 0xE3069283u);
        QCOMPARE(crc32c({}), 0u);
        QCOMPARE(detail::crc32cSoftware({}), 0u);
        // 32 zero bytes: the iSCSI test vector (RFC 3720 B.4).
        const std::vector<std::uint8_t> zeros(32, 0);
        QCOMPARE(crc32c(zeros), 0x8A9136AAu);
        const std::vector<std::uint8_t> ones(32, 0xFF);
        QCOMPARE(crc32c(ones), 0x62A8AB43u);
        // Incremental use: crc of a whole == crc continued over its parts.
        QCOMPARE(crc32c(bytes.subspan(4), crc32c(bytes.first(4))), 0xE3069283u);
        QCOMPARE(detail::crc32cSoftware(bytes.subspan(5), detail::crc32cSoftware(bytes.first(5))), 0xE3069283u);
    }

    void crcHardwareMatchesSoftware()
    {
        if (!detail::hasHardwareCrc32c())
            QSKIP("no SSE4.2 on this CPU");
        std::mt19937 rng(1);
        std::vector<std::uint8_t> data(300 + 16);
        for (auto& b : data)
            b = static_cast<std::uint8_t>(rng());
        for (std::size_t length = 0; length <= 300; ++length) {
            for (std::size_t align = 0; align < 16; ++align) {
                const std::span<const std::uint8_t> s(data.data() + align, length);
                const std::uint32_t seed = rng();
                const auto sw = detail::crc32cSoftware(s, seed);
                const auto hw = detail::crc32cHardware(s, seed);
                if (sw != hw)
                    QFAIL(qPrintable(QString("length %1 alignment %2: software %3, hardware %4").arg(length).arg(align).arg(sw).arg(hw)));
            }
        }
    }

    void byteFormat()
    {
        QTemporaryDir dir;
        const std::string path = dir.filePath("f.tsrec").toStdString();
        const std::vector<std::uint8_t> payload{0x08, 0x07, 0xC0, 0x01, 0x00, 0x01, 0xAB, 0xCD};
        {
            auto w = SegmentWriter::create(path, SegmentHeader{kFormatVersion, 0x0102030405060708, 42, "tm"});
            QVERIFY(w);
            QVERIFY((*w)->append(RecordMeta{-5, 0x1234, 0x0707, true}, payload));
            QCOMPARE((*w)->bytesWritten(), std::uint64_t{96 + 28 + 8});
            QVERIFY((*w)->close());
        }
        const auto f = readFile(QString::fromStdString(path));
        QCOMPARE(f.size(), std::size_t{96 + 28 + 8});
        std::vector<std::uint8_t> h = {'T', 'S', 'T', 'R', 'E', 'C', '\r', '\n', 2, 0, 0, 0, 96, 0, 0, 0,
                                       8, 7, 6, 5, 4, 3, 2, 1, 42, 0, 0, 0, 0, 0, 0, 0, 't', 'm'};
        h.resize(92, 0); // the rest of the name field, then 28 reserved bytes
        const std::uint32_t hc = crc32c(h);
        for (int i = 0; i < 4; ++i)
            h.push_back(static_cast<std::uint8_t>(hc >> (8 * i)));
        QVERIFY(std::equal(h.begin(), h.end(), f.begin()));
        std::vector<std::uint8_t> r = {0x43, 0x52, 0x53, 0x54, 8, 0, 0, 0, 0xFB, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF,
                                       0x34, 0x12, 0x07, 0x07, 1, 0, 0, 0};
        r.insert(r.end(), payload.begin(), payload.end());
        const std::uint32_t rc = crc32c(std::span(r).subspan(4));
        for (int i = 0; i < 4; ++i)
            r.push_back(static_cast<std::uint8_t>(rc >> (8 * i)));
        QVERIFY(std::equal(r.begin(), r.end(), f.begin() + 96));
    }

    // A stream name uses all 32 bytes of its field and comes back whole (format version 1 lost the
    // last four bytes of such a name to the header's CRC).
    void streamNamesOfEveryLength()
    {
        QTemporaryDir dir;
        for (std::size_t length = 1; length <= detail::kStreamNameSize; ++length) {
            std::string name;
            for (std::size_t i = 0; i < length; ++i)
                name += static_cast<char>('a' + i % 26);
            const std::string path = dir.filePath(QString("n%1.tsrec").arg(length)).toStdString();
            auto w = SegmentWriter::create(path, SegmentHeader{kFormatVersion, 5, length, name});
            QVERIFY(w);
            QVERIFY((*w)->append({1, 2, 3, false}, std::vector<std::uint8_t>(10, 0xEE)));
            QVERIFY((*w)->close());
            const auto scan = scanSegment(path);
            QVERIFY2(scan, scan ? "" : scan.error().toString().c_str());
            QCOMPARE(scan->header.streamName, name);
            QCOMPARE(scan->header.sequence, std::uint64_t{length});
            QCOMPARE(scan->records, std::uint64_t{1});
            QCOMPARE(scan->end, SegmentEnd::Clean);
        }
    }

    // Segments written before format version 2 (64-byte header, 28 bytes of name) are still read:
    // header fields, every record, offsets from byte 64. A name of 29..32 bytes, whose end the old
    // writer's CRC overwrote, is taken from the file name when that one is of the recorder's form.
    void readsFormatVersion1_data()
    {
        QTest::addColumn<QString>("streamName");
        QTest::addColumn<QString>("fileName");
        QTest::addColumn<QString>("expected");
        const QString n32 = "telemetry.downlink-primary_ch-01"; // 32 bytes
        QTest::newRow("short name") << "downlink" << "v1.tsrec" << "downlink";
        QTest::newRow("28 bytes") << n32.left(28) << "v1.tsrec" << n32.left(28);
        QTest::newRow("32 bytes, recorder's file name") << n32 << n32 + "-20261129T062500-7.tsrec" << n32;
        QTest::newRow("30 bytes, recorder's file name") << n32.left(30) << n32.left(30) + "-20261129T062500-7.tsrec"
                                                        << n32.left(30);
        QTest::newRow("32 bytes, file renamed") << n32 << "renamed.tsrec" << n32.left(28);
        QTest::newRow("32 bytes, file of another stream") << n32 << "other-20261129T062500-7.tsrec" << n32.left(28);
    }

    void readsFormatVersion1()
    {
        QFETCH(QString, streamName);
        QFETCH(QString, fileName);
        QFETCH(QString, expected);
        QTemporaryDir dir;
        const auto recs = makeRecords(50, 300, 11);
        const std::string v2 = dir.filePath("v2.tsrec").toStdString();
        QCOMPARE(writeSegment(v2, recs).size(), recs.size());
        const auto current = readFile(QString::fromStdString(v2));
        // The version-1 header as its writer made it: the name copied (up to 32 bytes) to offset 32,
        // then the CRC-32C of bytes 0..59 stored at offset 60, over the name's end.
        std::vector<std::uint8_t> file(64, 0);
        std::memcpy(file.data(), current.data(), 32); // magic, version, header size, created, sequence
        file[8] = 1;
        file[12] = 64;
        const QByteArray name = streamName.toLatin1();
        std::memcpy(file.data() + 32, name.constData(), static_cast<std::size_t>(name.size()));
        const std::uint32_t crc = crc32c(std::span(file).first(60));
        std::memcpy(file.data() + 60, &crc, 4);
        file.insert(file.end(), current.begin() + kFileHeaderSize, current.end());
        const QString path = dir.filePath(fileName);
        writeFile(path, file.data(), file.size());

        const auto back = readSegment(path.toStdString());
        QVERIFY2(back.error.empty(), back.error.c_str());
        QCOMPARE(back.end, SegmentEnd::Clean);
        QVERIFY(samePrefix(back.recs, recs, recs.size()));
        QCOMPARE(back.offset, std::uint64_t{file.size()});
        const auto scan = scanSegment(path.toStdString());
        QVERIFY(scan);
        QCOMPARE(scan->header.version, std::uint32_t{1});
        QCOMPARE(scan->header.streamName, expected.toStdString());
        QCOMPARE(scan->header.sequence, std::uint64_t{7});
        QCOMPARE(scan->header.createdNs, std::int64_t{123456789});
        QCOMPARE(scan->records, std::uint64_t{recs.size()});
        QCOMPARE(scan->intactBytes, std::uint64_t{file.size()});
        // Cut inside the first record: the reader reports it from offset 64.
        writeFile(path, file.data(), 64 + 10);
        const auto cut = readSegment(path.toStdString());
        QCOMPARE(cut.end, SegmentEnd::TruncatedRecord);
        QVERIFY2(cut.problem.find("offset 64") != std::string::npos, cut.problem.c_str());
        QCOMPARE(cut.offset, std::uint64_t{64});
    }

    void roundTrip()
    {
        QTemporaryDir dir;
        const std::string path = dir.filePath("rt.tsrec").toStdString();
        auto recs = makeRecords(5000, 3000, 7);
        // A few big ones (up to the limit) so that records straddle buffer flushes.
        recs[100].payload.assign(detail::kMaxPayload, 0x5A);
        recs[2000].payload.assign(65542, 0xA5);
        recs[3000].payload.clear();
        const auto offsets = writeSegment(path, recs);
        QCOMPARE(offsets.size(), recs.size());
        const auto back = readSegment(path);
        QVERIFY2(back.error.empty(), back.error.c_str());
        QCOMPARE(back.end, SegmentEnd::Clean);
        QVERIFY(back.problem.empty());
        QVERIFY(samePrefix(back.recs, recs, recs.size()));
        const auto scan = scanSegment(path);
        QVERIFY(scan);
        QCOMPARE(scan->records, std::uint64_t{recs.size()});
        QCOMPARE(scan->intactBytes, std::uint64_t{readFile(QString::fromStdString(path)).size()});
        QCOMPARE(scan->header.sequence, std::uint64_t{7});
        QCOMPARE(scan->header.createdNs, std::int64_t{123456789});
        QCOMPARE(scan->header.streamName, std::string("downlink"));
        QCOMPARE(scan->end, SegmentEnd::Clean);
    }

    void writerRefusesAndReports()
    {
        QTemporaryDir dir;
        const std::string path = dir.filePath("x.tsrec").toStdString();
        auto w = SegmentWriter::create(path, SegmentHeader{kFormatVersion, 0, 1, "s"});
        QVERIFY(w);
        QVERIFY(!SegmentWriter::create(path, SegmentHeader{kFormatVersion, 0, 1, "s"})); // exists
        QVERIFY(!SegmentWriter::create(dir.filePath("y.tsrec").toStdString(),
                                       SegmentHeader{kFormatVersion, 0, 1, std::string(33, 'a')}));
        std::vector<std::uint8_t> big(detail::kMaxPayload + 1);
        QVERIFY(!(*w)->append({}, big));
        QVERIFY(!(*w)->failed());
        QVERIFY((*w)->append({1, 2, 3, false}, std::span(big).first(10)));
        QCOMPARE((*w)->records(), std::uint64_t{1});
        QCOMPARE((*w)->firstTimeNs().value_or(-1), std::int64_t{1});
        QVERIFY((*w)->close());
        QVERIFY(!(*w)->append({}, std::span(big).first(10))); // closed
        const auto e = SegmentWriter::create(dir.filePath("no/such/dir.tsrec").toStdString(), {});
        QVERIFY(!e);
        QVERIFY(e.error().toString().find("no/such/dir.tsrec") != std::string::npos);
    }

    void readerRejectsBadHeaders()
    {
        QTemporaryDir dir;
        const std::string path = dir.filePath("h.tsrec").toStdString();
        QVERIFY(writeSegment(path, makeRecords(3, 10, 1)).size() == 3);
        const auto good = readFile(QString::fromStdString(path));
        const QString bad = dir.filePath("bad.tsrec");
        auto expectError = [&](std::vector<std::uint8_t> bytes, const char* words) {
            writeFile(bad, bytes.data(), bytes.size());
            const auto r = SegmentReader::open(bad.toStdString());
            QVERIFY(!r);
            const std::string text = r.error().toString();
            QVERIFY2(text.find(words) != std::string::npos, text.c_str());
            QVERIFY2(text.find("bad.tsrec") != std::string::npos, text.c_str());
        };
        auto b = good;
        b[0] = 'X';
        expectError(b, "magic");
        b = good;
        b[40] ^= 1; // stream name
        expectError(b, "CRC");
        b = good;
        b[8] = 3; // a version to come, with a valid CRC
        const std::uint32_t c = crc32c(std::span(b).first(92));
        std::memcpy(b.data() + 92, &c, 4);
        expectError(b, "version 3");
        b = good;
        b[12] = 64; // version 2 saying its header has 64 bytes, with a valid CRC
        const std::uint32_t c2 = crc32c(std::span(b).first(92));
        std::memcpy(b.data() + 92, &c2, 4);
        expectError(b, "header size 64");
        expectError(std::vector<std::uint8_t>(good.begin(), good.begin() + 30), "truncated");
        expectError(std::vector<std::uint8_t>(good.begin(), good.begin() + 80), "truncated (80 of 96 bytes)");
        expectError({}, "magic");
        QVERIFY(!SegmentReader::open(dir.filePath("missing").toStdString()));
    }

    void truncationAtEveryByteOfTheLastRecord()
    {
        QTemporaryDir dir;
        const std::string path = dir.filePath("t.tsrec").toStdString();
        const auto recs = makeRecords(40, 200, 3);
        const auto offsets = writeSegment(path, recs);
        QCOMPARE(offsets.size(), recs.size());
        const auto bytes = readFile(QString::fromStdString(path));
        const std::uint64_t last = offsets.back();
        const QString cutPath = dir.filePath("cut.tsrec");
        for (std::uint64_t cut = last; cut < bytes.size(); ++cut) {
            writeFile(cutPath, bytes.data(), cut);
            const auto back = readSegment(cutPath.toStdString());
            QVERIFY2(back.error.empty(), back.error.c_str());
            QVERIFY(samePrefix(back.recs, recs, recs.size() - 1));
            QCOMPARE(back.offset, last);
            if (cut == last) {
                QCOMPARE(back.end, SegmentEnd::Clean);
                continue;
            }
            QCOMPARE(back.end, SegmentEnd::TruncatedRecord);
            QVERIFY2(back.problem.find("offset " + std::to_string(last)) != std::string::npos, back.problem.c_str());
            const auto scan = scanSegment(cutPath.toStdString());
            QVERIFY(scan);
            QCOMPARE(scan->end, SegmentEnd::TruncatedRecord);
            QCOMPARE(scan->records, std::uint64_t{recs.size() - 1});
            QCOMPARE(scan->intactBytes, last);
        }
    }

    void damageInAMiddleRecord()
    {
        QTemporaryDir dir;
        const std::string path = dir.filePath("d.tsrec").toStdString();
        // Enough data after the damaged record that even a corrupted length field stays inside the
        // file: the damage must be found by the CRC or the framing, not mistaken for a truncation.
        auto recs = makeRecords(300, 1500, 5);
        const std::size_t k = 60;
        recs[k].payload.resize(40);
        const auto offsets = writeSegment(path, recs);
        QCOMPARE(offsets.size(), recs.size());
        QVERIFY(readFile(QString::fromStdString(path)).size() - offsets[k] > detail::kMaxPayload + 100);
        const auto bytes = readFile(QString::fromStdString(path));
        const QString badPath = dir.filePath("bad.tsrec");
        const std::uint64_t recordSize = offsets[k + 1] - offsets[k];
        for (std::uint64_t i = 0; i < recordSize; ++i) {
            for (std::uint8_t mask : {std::uint8_t{0x01}, std::uint8_t{0x80}}) {
                auto b = bytes;
                b[offsets[k] + i] ^= mask;
                writeFile(badPath, b.data(), b.size());
                const auto back = readSegment(badPath.toStdString());
                QCOMPARE(back.end, SegmentEnd::Damaged);
                QVERIFY2(back.problem.find("offset " + std::to_string(offsets[k])) != std::string::npos, back.problem.c_str());
                QVERIFY(samePrefix(back.recs, recs, k));
                QCOMPARE(back.offset, offsets[k]);
            }
        }
        const auto scan = scanSegment(badPath.toStdString());
        QVERIFY(scan);
        QCOMPARE(scan->end, SegmentEnd::Damaged);
        QCOMPARE(scan->records, std::uint64_t{k});
    }

    // A real write failure: the child process may write at most `limit` bytes per file, and ignores
    // SIGXFSZ so that write() fails with EFBIG the way it fails with ENOSPC on a full disk.
    void fullDisk()
    {
        QTemporaryDir dir;
        const std::string path = dir.filePath("full.tsrec").toStdString();
        const auto recs = makeRecords(2000, 1000, 11); // ~1 MB, more than the limit
        constexpr rlim_t kLimit = 300'000;
        int fds[2];
        QVERIFY(::pipe(fds) == 0);
        const pid_t child = ::fork();
        QVERIFY(child >= 0);
        if (child == 0) {
            ::close(fds[0]);
            std::signal(SIGXFSZ, SIG_IGN);
            rlimit lim{kLimit, kLimit};
            ::setrlimit(RLIMIT_FSIZE, &lim);
            std::string report;
            auto w = SegmentWriter::create(path, SegmentHeader{kFormatVersion, 1, 1, "full"});
            if (!w) {
                report = "create failed";
            } else {
                std::size_t accepted = 0;
                // A small flush every few records so that the failure comes in the middle of the run.
                for (const auto& r : recs) {
                    if (!(*w)->append(r.meta, r.payload))
                        break;
                    ++accepted;
                    if (accepted % 50 == 0)
                        (void)(*w)->flush();
                }
                const bool closed = (*w)->close();
                report = std::to_string(accepted) + "|" + ((*w)->failed() ? "failed" : "ok") + "|" + (closed ? "closed" : "notclosed")
                         + "|" + (*w)->error();
            }
            (void)!::write(fds[1], report.data(), report.size());
            ::_exit(0);
        }
        ::close(fds[1]);
        std::string report;
        char buf[512];
        ssize_t n;
        while ((n = ::read(fds[0], buf, sizeof buf)) > 0)
            report.append(buf, static_cast<std::size_t>(n));
        ::close(fds[0]);
        int status = 0;
        QCOMPARE(::waitpid(child, &status, 0), child);
        QVERIFY(WIFEXITED(status) && WEXITSTATUS(status) == 0);
        qInfo("child: %s", report.c_str());
        QVERIFY2(report.find("|failed|notclosed|write to " + path + ": File too large") != std::string::npos, report.c_str());
        const std::size_t accepted = std::stoul(report);
        QVERIFY(accepted > 100 && accepted < recs.size());
        const auto back = readSegment(path);
        QVERIFY2(back.error.empty(), back.error.c_str());
        QVERIFY(back.end != SegmentEnd::Damaged);
        QVERIFY(back.recs.size() > 100 && back.recs.size() <= accepted);
        QVERIFY(samePrefix(back.recs, recs, back.recs.size()));
        QCOMPARE(readFile(QString::fromStdString(path)).size(), std::size_t{kLimit});
    }

    void appendAllocatesNothing()
    {
        QTemporaryDir dir;
        auto w = SegmentWriter::create(dir.filePath("a.tsrec").toStdString(), SegmentHeader{kFormatVersion, 0, 1, "a"});
        QVERIFY(w);
        const std::vector<std::uint8_t> packet(1288, 0x42);
        RecordMeta meta{1, 2, 3, false};
        const long before = test::threadAllocations();
        for (int i = 0; i < 5000; ++i) { // ~6.5 MB: several buffer flushes
            meta.receiveTimeNs = i;
            QVERIFY((*w)->append(meta, packet));
        }
        QVERIFY((*w)->flush());
        QCOMPARE(test::threadAllocations() - before, 0L);
        QVERIFY((*w)->close());
        const auto scan = scanSegment((*w)->path());
        QVERIFY(scan);
        QCOMPARE(scan->records, std::uint64_t{5000});
    }
};

QTEST_GUILESS_MAIN(TestRecordSegment)
#include "tst_record_segment.moc"
