// The recording catalog and the stream recorder: rollover into several segments whose records and
// catalog entries match the input, crash recovery of open segments (clean, truncated, damaged), a
// write failure stopping the recorder with the catalog saying so, catalog errors, a deleted or damaged
// catalog rebuilt from the segment files, entries and files brought in line, and record()
// allocating nothing in steady state.
#include "core/record/playback.hpp"
#include "core/record/recording_catalog.hpp"
#include "core/record/stream_recorder.hpp"
#include "tests/support/allocation_counter.hpp"

#include <QtTest>

#include <sqlite3.h>

#include <csignal>
#include <filesystem>
#include <random>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

using namespace telestation;
using namespace telestation::record;

namespace {

struct Rec {
    RecordMeta meta;
    std::vector<std::uint8_t> payload;
};

std::vector<Rec> makeRecords(std::size_t count, std::size_t minSize, std::size_t maxSize, std::uint32_t seed)
{
    std::mt19937 rng(seed);
    std::vector<Rec> out(count);
    std::int64_t t = 1'700'000'000'000'000'000;
    for (auto& r : out) {
        t += 1 + static_cast<std::int64_t>(rng() % 1'000'000);
        r.meta = RecordMeta{t, 3, static_cast<std::uint16_t>(rng() % 5 * 100), rng() % 11 == 0};
        r.payload.resize(minSize + rng() % (maxSize - minSize + 1));
        for (auto& b : r.payload)
            b = static_cast<std::uint8_t>(rng());
    }
    return out;
}

std::vector<Rec> readAll(const std::string& path, SegmentEnd* end = nullptr)
{
    std::vector<Rec> out;
    auto r = SegmentReader::open(path);
    if (!r)
        return out;
    Rec rec;
    while ((*r)->next(rec.meta, rec.payload))
        out.push_back(rec);
    if (end)
        *end = (*r)->end();
    return out;
}

std::string pathOf(const RecordingCatalog& catalog, const SegmentInfo& info)
{
    return (std::filesystem::path(catalog.directory()) / info.file).string();
}

// Runs `body` in a child process (it ends with _exit, never returning into the test) and waits.
template <typename F>
bool inChild(F body)
{
    const pid_t child = ::fork();
    if (child < 0)
        return false;
    if (child == 0) {
        body();
        ::_exit(0);
    }
    int status = 0;
    return ::waitpid(child, &status, 0) == child && WIFEXITED(status) && WEXITSTATUS(status) == 0;
}

// Records two streams into many small segments and closes them: what a catalog lists of them. One
// stream's name has the longest length allowed (32 bytes), so that a rebuild from the segment files
// shows that the header carries it whole.
std::vector<SegmentInfo> recordTwoStreams(const std::string& directory, std::size_t& records)
{
    auto catalog = RecordingCatalog::open(directory);
    if (!catalog)
        return {};
    const auto recs = makeRecords(400, 20, 300, 55);
    {
        auto a = StreamRecorder::create(**catalog, "tm", 1, 4096);
        auto b = StreamRecorder::create(**catalog, "housekeeping-2.payload_bus-ch.07", 2, 4096);
        if (!a || !b)
            return {};
        for (std::size_t i = 0; i < recs.size(); ++i)
            if (!(i % 3 == 0 ? *b : *a)->record(recs[i].meta, recs[i].payload))
                return {};
        if (!(*a)->close() || !(*b)->close())
            return {};
    }
    records = recs.size();
    return (*catalog)->segments();
}

// The entry as the files give it (ids and problem notes aside).
void compareListings(const std::vector<SegmentInfo>& rebuilt, const std::vector<SegmentInfo>& original)
{
    QCOMPARE(rebuilt.size(), original.size());
    for (std::size_t i = 0; i < rebuilt.size(); ++i) {
        SegmentInfo a = rebuilt[i], b = original[i];
        a.id = b.id = 0;
        QVERIFY2(a.problem.find("had no catalog entry") != std::string::npos, a.problem.c_str());
        a.problem = b.problem;
        QCOMPARE(a, b);
    }
}

std::uint64_t playedRecords(const std::string& directory)
{
    auto source = PlaybackSource::open(directory, {});
    if (!source)
        return 0;
    std::uint64_t played = 0;
    while (!(*source)->finished())
        played += (*source)->poll(std::chrono::milliseconds(100), [](const RecordMeta&, std::span<const std::uint8_t>) {});
    return played;
}

bool mentions(const std::vector<std::string>& lines, const std::string& what)
{
    return std::any_of(lines.begin(), lines.end(), [&](const std::string& l) { return l.find(what) != std::string::npos; });
}

std::string joined(const std::vector<std::string>& lines)
{
    std::string out;
    for (const auto& l : lines)
        out += l + "\n";
    return out;
}

void touch(const QString& path)
{
    QFile f(path);
    QVERIFY(f.open(QIODevice::WriteOnly));
}

} // namespace

class TestRecordCatalog : public QObject {
    Q_OBJECT

private slots:
    void addUpdateQuery()
    {
        QTemporaryDir dir;
        auto catalog = RecordingCatalog::open(dir.path().toStdString());
        QVERIFY2(catalog, catalog ? "" : catalog.error().toString().c_str());
        QVERIFY((*catalog)->repairs().empty());
        for (const char* file : {"a-1.tsrec", "b-1.tsrec", "a-2.tsrec"}) // opening again checks they exist
            touch(dir.filePath(file));
        SegmentInfo a{0, "a-1.tsrec", "a", 1, 100, 200, 5, 1000, SegmentState::Closed, "", {{7, 3}, {8, 2}}};
        SegmentInfo b{0, "b-1.tsrec", "b", 1, 300, 400, 1, 500, SegmentState::Open, "", {{1, 1}}};
        SegmentInfo a2{0, "a-2.tsrec", "a", 2, 250, 260, 1, 90, SegmentState::Damaged, "bad", {{65535, 1}}};
        for (auto* info : {&b, &a2, &a}) {
            auto id = (*catalog)->addSegment(*info);
            QVERIFY2(id, id ? "" : id.error().toString().c_str());
            info->id = *id;
        }
        QVERIFY(!(*catalog)->addSegment(a)); // same file and (stream, sequence)
        auto all = (*catalog)->segments();
        QCOMPARE(all.size(), std::size_t{3});
        QCOMPARE(all[0], a);
        QCOMPARE(all[1], a2);
        QCOMPARE(all[2], b);
        b.packets = 9;
        b.apidPackets = {{1, 4}, {2, 5}};
        b.state = SegmentState::Closed;
        QVERIFY((*catalog)->updateSegment(b));
        QCOMPARE((*catalog)->segments()[2], b);
        SegmentInfo missing = b;
        missing.id = 999;
        QVERIFY(!(*catalog)->updateSegment(missing));
        auto between = (*catalog)->segmentsBetween(190, 255);
        QCOMPARE(between.size(), std::size_t{2});
        QCOMPARE(between[0].file, a.file);
        QCOMPARE(between[1].file, a2.file);
        QCOMPARE((*catalog)->segmentsBetween(401, 500).size(), std::size_t{0});
        QCOMPARE((*catalog)->segmentsBetween(0, 1000).size(), std::size_t{3});
        catalog->reset();
        // Reopened: the same content (b is closed now, so there is nothing to recover).
        auto again = RecordingCatalog::open(dir.path().toStdString());
        QVERIFY(again);
        QVERIFY2((*again)->repairs().empty(), joined((*again)->repairs()).c_str());
        QCOMPARE((*again)->segments().size(), std::size_t{3});
        QCOMPARE((*again)->segments()[2], b);
        QVERIFY((*again)->removeSegment(b.id));
        QCOMPARE((*again)->segments().size(), std::size_t{2});
    }

    void walAndIdentity()
    {
        QTemporaryDir dir;
        QVERIFY(RecordingCatalog::open(dir.path().toStdString()));
        sqlite3* db = nullptr;
        QCOMPARE(sqlite3_open(dir.filePath("catalog.sqlite").toUtf8().constData(), &db), SQLITE_OK);
        auto pragma = [&](const char* sql) {
            sqlite3_stmt* s = nullptr;
            sqlite3_prepare_v2(db, sql, -1, &s, nullptr);
            std::string out;
            if (sqlite3_step(s) == SQLITE_ROW)
                out = reinterpret_cast<const char*>(sqlite3_column_text(s, 0));
            sqlite3_finalize(s);
            return out;
        };
        QCOMPARE(pragma("PRAGMA journal_mode"), std::string("wal"));
        QCOMPARE(pragma("PRAGMA user_version"), std::string("1"));
        QVERIFY(pragma("PRAGMA application_id") != "0");
        sqlite3_close(db);
    }

    void catalogErrors()
    {
        QTemporaryDir dir;
        // (A file that is not a database at all is a damaged catalog: rebuilt, see damagedCatalogIsRebuilt.)
        // Another application's database: refused, left as it is.
        const QString otherDir = dir.filePath("other");
        QVERIFY(QDir().mkpath(otherDir));
        {
            sqlite3* db = nullptr;
            sqlite3_open((otherDir + "/catalog.sqlite").toUtf8().constData(), &db);
            sqlite3_exec(db, "CREATE TABLE t (x); PRAGMA application_id = 77;", nullptr, nullptr, nullptr);
            sqlite3_close(db);
        }
        auto other = RecordingCatalog::open(otherDir.toStdString());
        QVERIFY(!other);
        QVERIFY2(other.error().toString().find("not a recording catalog") != std::string::npos, other.error().toString().c_str());
        // A newer schema.
        const QString newerDir = dir.filePath("newer");
        QVERIFY(RecordingCatalog::open(newerDir.toStdString()));
        {
            sqlite3* db = nullptr;
            sqlite3_open((newerDir + "/catalog.sqlite").toUtf8().constData(), &db);
            sqlite3_exec(db, "PRAGMA user_version = 2;", nullptr, nullptr, nullptr);
            sqlite3_close(db);
        }
        auto newer = RecordingCatalog::open(newerDir.toStdString());
        QVERIFY(!newer);
        QVERIFY2(newer.error().toString().find("newer") != std::string::npos, newer.error().toString().c_str());
        QVERIFY2(newer.error().toString().find("catalog.sqlite") != std::string::npos, newer.error().toString().c_str());
        QVERIFY(!QDir(otherDir).entryList({"catalog.sqlite.*"}).size());
        // An unwritable place: a directory path that runs through a regular file.
        auto blocked = RecordingCatalog::open((otherDir + "/catalog.sqlite/sub").toStdString());
        QVERIFY(!blocked);
        QVERIFY2(blocked.error().toString().find("catalog.sqlite/sub") != std::string::npos, blocked.error().toString().c_str());
    }

    // The catalog deleted (with or without its WAL files left behind): opening builds a new one from the
    // segment files — every segment with its stream, sequence, counts and time range — and says so;
    // playback reads every record again.
    void deletedCatalogIsRebuilt_data()
    {
        QTest::addColumn<bool>("keepJournal");
        QTest::newRow("catalog.sqlite deleted") << false;
        QTest::newRow("catalog.sqlite deleted, a stale -wal and -shm left") << true;
    }

    void deletedCatalogIsRebuilt()
    {
        QFETCH(bool, keepJournal);
        QTemporaryDir dir;
        const std::string directory = dir.path().toStdString();
        std::size_t records = 0;
        const auto original = recordTwoStreams(directory, records);
        QVERIFY(original.size() >= 10);
        if (keepJournal) {
            // An old catalog's WAL with committed frames, as a process killed while it wrote leaves it.
            sqlite3* db = nullptr;
            QCOMPARE(sqlite3_open(dir.filePath("catalog.sqlite").toUtf8().constData(), &db), SQLITE_OK);
            sqlite3_exec(db, "PRAGMA wal_autocheckpoint=0; UPDATE segment SET packets = 12345;", nullptr, nullptr, nullptr);
            QVERIFY(QFile::copy(dir.filePath("catalog.sqlite-wal"), dir.filePath("wal.keep")));
            QVERIFY(QFile::copy(dir.filePath("catalog.sqlite-shm"), dir.filePath("shm.keep")));
            sqlite3_close(db);
            QVERIFY(QFile::rename(dir.filePath("wal.keep"), dir.filePath("catalog.sqlite-wal")));
            QVERIFY(QFile::rename(dir.filePath("shm.keep"), dir.filePath("catalog.sqlite-shm")));
        }
        QVERIFY(QFile::remove(dir.filePath("catalog.sqlite")));
        QCOMPARE(QFile::exists(dir.filePath("catalog.sqlite-wal")), keepJournal);

        auto catalog = RecordingCatalog::open(directory);
        QVERIFY2(catalog, catalog ? "" : catalog.error().toString().c_str());
        compareListings((*catalog)->segments(), original);
        const auto& repairs = (*catalog)->repairs();
        QVERIFY2(mentions(repairs, std::to_string(original.size()) + " segment files with " + std::to_string(records)
                                       + " records had no catalog entry"),
                 joined(repairs).c_str());
        QCOMPARE(mentions(repairs, "without its catalog moved aside"), keepJournal);
        QCOMPARE(QDir(dir.path()).entryList({"catalog.sqlite.orphan-*"}).size(), keepJournal ? 2 : 0);
        catalog->reset();
        QCOMPARE(playedRecords(directory), std::uint64_t{records});
        // Built once: opened again, nothing to repair.
        auto again = RecordingCatalog::open(directory);
        QVERIFY(again);
        QVERIFY2((*again)->repairs().empty(), joined((*again)->repairs()).c_str());
    }

    // A catalog that is not a readable database — not SQLite at all, cut short, garbage in its pages —
    // is moved aside (catalog.sqlite.corrupt-<time>) and rebuilt from the segment files.
    void damagedCatalogIsRebuilt_data()
    {
        QTest::addColumn<QString>("damage");
        QTest::newRow("not a database") << "junk";
        QTest::newRow("truncated") << "truncated";
        QTest::newRow("garbage pages") << "garbage";
        QTest::newRow("garbage header") << "header";
    }

    void damagedCatalogIsRebuilt()
    {
        QFETCH(QString, damage);
        QTemporaryDir dir;
        const std::string directory = dir.path().toStdString();
        std::size_t records = 0;
        const auto original = recordTwoStreams(directory, records);
        QVERIFY(original.size() >= 10);
        const QString path = dir.filePath("catalog.sqlite");
        QVERIFY(!QFile::exists(path + "-wal")); // checkpointed at close: the damage is all in the file
        {
            QFile f(path);
            const qint64 size = f.size();
            QVERIFY2(size >= 4 * 4096, qPrintable(QString::number(size)));
            QVERIFY(f.open(QIODevice::ReadWrite));
            std::mt19937 rng(7);
            QByteArray garbage(4096, 0);
            for (auto& c : garbage)
                c = static_cast<char>(rng());
            if (damage == "junk") {
                f.resize(0);
                f.write(QByteArray(8192, 'x'));
            } else if (damage == "truncated") {
                QVERIFY(f.resize(size / 2 + 100));
            } else if (damage == "garbage") {
                for (qint64 page = 1; page * 4096 < size; page += 2) {
                    QVERIFY(f.seek(page * 4096));
                    f.write(garbage);
                }
            } else {
                QVERIFY(f.seek(16));
                f.write(garbage.left(84));
            }
        }
        auto catalog = RecordingCatalog::open(directory);
        QVERIFY2(catalog, catalog ? "" : catalog.error().toString().c_str());
        compareListings((*catalog)->segments(), original);
        const auto& repairs = (*catalog)->repairs();
        QVERIFY2(mentions(repairs, "the catalog was damaged"), joined(repairs).c_str());
        QVERIFY2(mentions(repairs, "rebuilt from the segment files"), joined(repairs).c_str());
        const QStringList aside = QDir(dir.path()).entryList({"catalog.sqlite.corrupt-*"});
        QCOMPARE(aside.size(), 1);
        QVERIFY2(mentions(repairs, aside[0].toStdString()), joined(repairs).c_str());
        catalog->reset();
        QCOMPARE(playedRecords(directory), std::uint64_t{records});
    }

    // Entries and files brought in line: an entry whose file was deleted is marked damaged (once), an
    // open entry whose file was never created is removed, a file without an entry is added.
    void entriesAndFilesInLine()
    {
        QTemporaryDir dir;
        const std::string directory = dir.path().toStdString();
        std::size_t records = 0;
        auto original = recordTwoStreams(directory, records);
        QVERIFY(original.size() >= 10);
        const SegmentInfo gone = original[1];
        QVERIFY(QFile::remove(QString::fromStdString(directory + "/" + gone.file)));
        {
            auto catalog = RecordingCatalog::open(directory);
            QVERIFY(catalog);
            // A file without an entry, an entry without a file (a crash between the two at rollover).
            SegmentInfo unlisted = original[2];
            QVERIFY((*catalog)->removeSegment(unlisted.id));
            SegmentInfo neverCreated;
            neverCreated.file = "tm-20260101T000000-999.tsrec";
            neverCreated.streamName = "tm";
            neverCreated.sequence = 999;
            QVERIFY((*catalog)->addSegment(neverCreated));
            const auto& repairs = (*catalog)->repairs();
            QVERIFY2(mentions(repairs, gone.file + ": the segment file is missing (it had "
                                           + std::to_string(gone.packets) + " records)"),
                     joined(repairs).c_str());
        }
        auto catalog = RecordingCatalog::open(directory);
        QVERIFY(catalog);
        const auto& repairs = (*catalog)->repairs();
        QVERIFY2(mentions(repairs, "tm-20260101T000000-999.tsrec was listed but never created"), joined(repairs).c_str());
        QVERIFY2(mentions(repairs, "1 segment file with " + std::to_string(original[2].packets) + " records had no catalog entry"),
                 joined(repairs).c_str());
        QVERIFY2(!mentions(repairs, gone.file), joined(repairs).c_str()); // reported once
        const auto segments = (*catalog)->segments();
        QCOMPARE(segments.size(), original.size());
        for (std::size_t i = 0; i < segments.size(); ++i) {
            QCOMPARE(segments[i].file, original[i].file);
            QCOMPARE(segments[i].packets, original[i].packets);
        }
        QCOMPARE(segments[1].state, SegmentState::Damaged);
        QCOMPARE(segments[1].problem, std::string("the segment file is missing"));
        QCOMPARE(segments[2].state, SegmentState::Closed);
    }

    void rollover()
    {
        QTemporaryDir dir;
        auto catalog = RecordingCatalog::open(dir.path().toStdString());
        QVERIFY(catalog);
        const auto recs = makeRecords(3000, 20, 600, 21);
        constexpr std::uint64_t kMax = 100'000;
        {
            auto recorder = StreamRecorder::create(**catalog, "tm", 3, kMax);
            QVERIFY2(recorder, recorder ? "" : recorder.error().toString().c_str());
            for (const auto& r : recs)
                QVERIFY((*recorder)->record(r.meta, r.payload));
            QCOMPARE((*recorder)->recordedPackets(), std::uint64_t{recs.size()});
            QVERIFY((*recorder)->close());
            QVERIFY(!(*recorder)->failed());
            const auto segments = (*catalog)->segments();
            QCOMPARE((*recorder)->rollovers(), std::uint64_t{segments.size() - 1});
        }
        const auto segments = (*catalog)->segments();
        QVERIFY(segments.size() >= 8);
        std::size_t next = 0;
        for (std::size_t s = 0; s < segments.size(); ++s) {
            const auto& info = segments[s];
            QCOMPARE(info.sequence, std::uint64_t{s + 1});
            QCOMPARE(info.streamName, std::string("tm"));
            QCOMPARE(info.state, SegmentState::Closed);
            QVERIFY(info.problem.empty());
            const QRegularExpression name(R"(^tm-\d{8}T\d{6}-)" + QString::number(s + 1) + R"(\.tsrec$)");
            QVERIFY2(name.match(QString::fromStdString(info.file)).hasMatch(), info.file.c_str());
            const std::string path = pathOf(**catalog, info);
            QCOMPARE(info.bytes, std::uint64_t{std::filesystem::file_size(path)});
            QVERIFY(info.bytes <= kMax);
            SegmentEnd end{};
            const auto back = readAll(path, &end);
            QCOMPARE(end, SegmentEnd::Clean);
            QCOMPARE(info.packets, std::uint64_t{back.size()});
            QVERIFY(!back.empty());
            // The next record would not have fitted (except after the last segment).
            if (s + 1 < segments.size())
                QVERIFY(info.bytes + 28 + recs[next + back.size()].payload.size() > kMax);
            std::map<std::uint16_t, std::uint64_t> apids;
            for (std::size_t i = 0; i < back.size(); ++i, ++next) {
                QVERIFY(next < recs.size());
                QVERIFY(back[i].meta == recs[next].meta);
                QVERIFY(back[i].payload == recs[next].payload);
                ++apids[back[i].meta.apid];
            }
            QCOMPARE(info.apidPackets, apids);
            QCOMPARE(info.firstTimeNs, back.front().meta.receiveTimeNs);
            QCOMPARE(info.lastTimeNs, back.back().meta.receiveTimeNs);
            const auto scan = scanSegment(path);
            QVERIFY(scan);
            QCOMPARE(scan->header.sequence, info.sequence);
            QCOMPARE(scan->header.streamName, std::string("tm"));
        }
        QCOMPARE(next, recs.size());
        // A new recorder of the same stream goes on with the next sequence number.
        auto more = StreamRecorder::create(**catalog, "tm", 3, kMax);
        QVERIFY(more);
        QVERIFY((*more)->close());
        QCOMPARE((*catalog)->segments().back().sequence, std::uint64_t{segments.size() + 1});
        // Time query: the range of one middle segment overlaps that segment and at most its neighbours.
        const auto& mid = segments[segments.size() / 2];
        const auto hits = (*catalog)->segmentsBetween(mid.firstTimeNs, mid.lastTimeNs);
        QCOMPARE(hits.size(), std::size_t{1});
        QCOMPARE(hits[0].id, mid.id);
    }

    void oversizedRecordTakesASegmentAlone()
    {
        QTemporaryDir dir;
        auto catalog = RecordingCatalog::open(dir.path().toStdString());
        QVERIFY(catalog);
        auto recorder = StreamRecorder::create(**catalog, "big", 1, 1000);
        QVERIFY(recorder);
        const std::vector<std::uint8_t> big(5000, 1);
        QVERIFY((*recorder)->record({1, 1, 1, false}, big));
        QVERIFY((*recorder)->record({2, 1, 1, false}, big));
        QVERIFY((*recorder)->close());
        const auto segments = (*catalog)->segments();
        QCOMPARE(segments.size(), std::size_t{2});
        QCOMPARE(segments[0].packets, std::uint64_t{1});
        QCOMPARE(segments[1].packets, std::uint64_t{1});
        QVERIFY(!StreamRecorder::create(**catalog, "bad/name", 1, 1000));
        QVERIFY(!StreamRecorder::create(**catalog, "", 1, 1000));
    }

    // A crash: a child process records and dies without closing. The catalog, opened again, finds the
    // segment still open and recovers it; a truncated last record is noted, a bad record damages it.
    void crashRecovery_data()
    {
        QTest::addColumn<int>("mode");
        QTest::newRow("clean end") << 0;
        QTest::newRow("truncated last record") << 1;
        QTest::newRow("damaged record") << 2;
    }

    void crashRecovery()
    {
        QFETCH(int, mode);
        QTemporaryDir dir;
        const std::string directory = dir.path().toStdString();
        const auto recs = makeRecords(3000, 500, 1500, 33); // ~3 MB: the 1 MiB buffer was written out
        QVERIFY(inChild([&] {
            auto catalog = RecordingCatalog::open(directory);
            if (!catalog)
                ::_exit(1);
            auto recorder = StreamRecorder::create(**catalog, "crash", 1, 1'000'000'000);
            if (!recorder)
                ::_exit(2);
            for (const auto& r : recs)
                if (!(*recorder)->record(r.meta, r.payload))
                    ::_exit(3);
            ::_exit(0); // no close, no flush: what the buffer held is lost, as in a crash
        }));
        std::vector<SegmentInfo> before;
        const auto path = [&] {
            // Read the catalog as a crashed station left it, without recovery: raw SQLite.
            sqlite3* db = nullptr;
            sqlite3_open((dir.path() + "/catalog.sqlite").toUtf8().constData(), &db);
            sqlite3_stmt* s = nullptr;
            sqlite3_prepare_v2(db, "SELECT file, state FROM segment", -1, &s, nullptr);
            std::string file, state;
            if (sqlite3_step(s) == SQLITE_ROW) {
                file = reinterpret_cast<const char*>(sqlite3_column_text(s, 0));
                state = reinterpret_cast<const char*>(sqlite3_column_text(s, 1));
            }
            sqlite3_finalize(s);
            sqlite3_close(db);
            return state == "OPEN" ? directory + "/" + file : std::string();
        }();
        QVERIFY2(!path.empty(), "the crashed segment should be listed as open");
        const auto size = std::filesystem::file_size(path);
        QVERIFY(size > 1'000'000);
        auto intact = readAll(path);
        QVERIFY(!intact.empty() && intact.size() < recs.size());
        std::uint64_t lastOffset = size - (28 + intact.back().payload.size());
        if (mode == 1) {
            std::filesystem::resize_file(path, size - 7); // the crash hit while the last record was written
            intact.pop_back();
        } else if (mode == 2) {
            QFile f(QString::fromStdString(path));
            QVERIFY(f.open(QIODevice::ReadWrite));
            QVERIFY(f.seek(static_cast<qint64>(lastOffset) + 30));
            QVERIFY(f.write("\xFF\x00", 2) == 2);
            f.close();
            intact.pop_back();
        }
        auto catalog = RecordingCatalog::open(directory);
        QVERIFY(catalog);
        const auto segments = (*catalog)->segments();
        QCOMPARE(segments.size(), std::size_t{1});
        const auto& info = segments[0];
        QCOMPARE(info.packets, std::uint64_t{intact.size()});
        QCOMPARE(info.bytes, std::uint64_t{std::filesystem::file_size(path)});
        QCOMPARE(info.firstTimeNs, recs.front().meta.receiveTimeNs);
        QCOMPARE(info.lastTimeNs, intact.back().meta.receiveTimeNs);
        std::map<std::uint16_t, std::uint64_t> apids;
        for (std::size_t i = 0; i < intact.size(); ++i) {
            QVERIFY(intact[i].payload == recs[i].payload);
            ++apids[recs[i].meta.apid];
        }
        QCOMPARE(info.apidPackets, apids);
        const std::string offset = "offset " + std::to_string(lastOffset);
        switch (mode) {
        case 0:
            QCOMPARE(info.state, SegmentState::Closed);
            QVERIFY(info.problem.find("truncated") == std::string::npos);
            break;
        case 1:
            QCOMPARE(info.state, SegmentState::Closed);
            QVERIFY2(info.problem.find("truncated") != std::string::npos, info.problem.c_str());
            QVERIFY2(info.problem.find(offset) != std::string::npos, info.problem.c_str());
            break;
        default:
            QCOMPARE(info.state, SegmentState::Damaged);
            QVERIFY2(info.problem.find("CRC") != std::string::npos, info.problem.c_str());
            QVERIFY2(info.problem.find(offset) != std::string::npos, info.problem.c_str());
            break;
        }
        // Recovery happens once: reopening leaves the entry as it is.
        catalog->reset();
        auto again = RecordingCatalog::open(directory);
        QVERIFY(again);
        QCOMPARE((*again)->segments()[0], info);
    }

    // Recovery rescans only files in the recording directory: an open row naming a path elsewhere (a
    // corrupt or hostile catalog) is damaged, not filled in from whatever that path holds.
    void recoveryReadsOnlyTheRecordingDirectory()
    {
        QTemporaryDir dir;
        const std::string directory = dir.path().toStdString() + "/rec";
        const std::string outside = dir.path().toStdString() + "/outside.tsrec";
        {
            auto writer = SegmentWriter::create(outside, {kFormatVersion, 1, 1, "hk"});
            QVERIFY(writer);
            for (const auto& r : makeRecords(5, 10, 20, 7))
                QVERIFY((*writer)->append(r.meta, r.payload));
            QVERIFY((*writer)->close());
        }
        SegmentInfo info{0, "../outside.tsrec", "hk", 1, 0, 0, 0, 0, SegmentState::Open, "", {}};
        {
            auto catalog = RecordingCatalog::open(directory);
            QVERIFY(catalog);
            QVERIFY((*catalog)->addSegment(info));
        }
        auto catalog = RecordingCatalog::open(directory);
        QVERIFY(catalog);
        const auto segments = (*catalog)->segments();
        QCOMPARE(segments.size(), std::size_t{1});
        QCOMPARE(segments[0].state, SegmentState::Damaged);
        QCOMPARE(segments[0].packets, std::uint64_t{0});
        QCOMPARE(segments[0].problem,
                 std::string("the catalog names '../outside.tsrec', which is not a file in the recording directory"));
    }

    // The disk fills up while recording (RLIMIT_FSIZE in a child): the recorder stops for good, the
    // segment is closed in the catalog with the reason, and its records read back.
    void writeFailureStopsRecording()
    {
        QTemporaryDir dir;
        const std::string directory = dir.path().toStdString();
        QVERIFY(RecordingCatalog::open(directory)); // created before the limit applies
        const auto recs = makeRecords(4000, 800, 1200, 44); // ~4 MB
        constexpr rlim_t kLimit = 2'500'000;
        QVERIFY(inChild([&] {
            std::signal(SIGXFSZ, SIG_IGN);
            rlimit lim{kLimit, kLimit};
            ::setrlimit(RLIMIT_FSIZE, &lim);
            auto catalog = RecordingCatalog::open(directory);
            if (!catalog)
                ::_exit(1);
            auto recorder = StreamRecorder::create(**catalog, "full", 1, 1'000'000'000);
            if (!recorder)
                ::_exit(2);
            std::size_t accepted = 0;
            for (const auto& r : recs) {
                if (!(*recorder)->record(r.meta, r.payload))
                    break;
                ++accepted;
            }
            if (accepted == recs.size() || !(*recorder)->failed())
                ::_exit(3);
            if ((*recorder)->error().find("File too large") == std::string::npos)
                ::_exit(4);
            if ((*recorder)->record(recs[0].meta, recs[0].payload)) // stopped for good
                ::_exit(5);
            if ((*recorder)->close())
                ::_exit(6);
            ::_exit(0);
        }));
        auto catalog = RecordingCatalog::open(directory);
        QVERIFY(catalog);
        const auto segments = (*catalog)->segments();
        QCOMPARE(segments.size(), std::size_t{1});
        const auto& info = segments[0];
        QCOMPARE(info.state, SegmentState::Closed);
        QVERIFY2(info.problem.find("File too large") != std::string::npos, info.problem.c_str());
        QVERIFY2(info.problem.find(info.file) != std::string::npos, info.problem.c_str());
        const auto back = readAll(pathOf(**catalog, info));
        QVERIFY(back.size() > 1000);
        QCOMPARE(info.packets, std::uint64_t{back.size()});
        QCOMPARE(info.bytes, std::uint64_t{kLimit});
        for (std::size_t i = 0; i < back.size(); ++i)
            QVERIFY(back[i].meta == recs[i].meta && back[i].payload == recs[i].payload);
    }

    void recordAllocatesNothing()
    {
        QTemporaryDir dir;
        auto catalog = RecordingCatalog::open(dir.path().toStdString());
        QVERIFY(catalog);
        auto recorder = StreamRecorder::create(**catalog, "na", 1, 1'000'000'000);
        QVERIFY(recorder);
        const std::vector<std::uint8_t> packet(1288, 7);
        RecordMeta meta{1, 1, 0, false};
        QVERIFY((*recorder)->record(meta, packet));
        const long before = test::threadAllocations();
        for (int i = 0; i < 5000; ++i) {
            meta.receiveTimeNs = i;
            meta.apid = static_cast<std::uint16_t>(i % 2048);
            if (!(*recorder)->record(meta, packet))
                QFAIL("record failed");
        }
        QCOMPARE(test::threadAllocations() - before, 0L);
        QVERIFY((*recorder)->close());
        const auto info = (*catalog)->segments()[0];
        QCOMPARE(info.packets, std::uint64_t{5001});
        QCOMPARE(info.apidPackets.size(), std::size_t{2048});
        QCOMPARE(info.apidPackets.at(0), std::uint64_t{4});
    }
};

QTEST_GUILESS_MAIN(TestRecordCatalog)
#include "tst_record_catalog.moc"
