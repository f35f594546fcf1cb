// The event archive and the station's store, on real SQLite files: every field back as written across
// a restart, each filter field alone and combined, paging back in history, a reader beside a writer
// (WAL), foreign, newer and garbage files refused with the file named, CSV read back by an RFC 4180
// parser, and EventStore's failures (unwritable path, a directory, a deleted file, a full disk, more
// than kPendingMax waiting) reported once and recovered from, with the retention applied on time.
#include "core/common/time_text.hpp"
#include "core/events/event_archive.hpp"
#include "core/events/event_store.hpp"
#include "core/sqlite/connection.hpp"
#include "core/sqlite/transaction.hpp"

#include <QtTest>

#include <sys/mount.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <cmath>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <random>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

using namespace telestation;
using namespace telestation::events;

namespace {

namespace fs = std::filesystem;

constexpr std::int64_t kT0 = 1'750'000'000'000'000'000; // 2025-06-15
constexpr std::int64_t kSecond = 1'000'000'000;
constexpr std::int64_t kDay = 86'400 * kSecond;

bool contains(const std::string& text, const std::string& part)
{
    return text.find(part) != std::string::npos;
}

Event makeEvent(std::uint64_t number, std::int64_t timeNs, std::string text = "something happened")
{
    Event e;
    e.number = number;
    e.timeNs = timeNs;
    e.text = std::move(text);
    return e;
}

// Every field set, and the awkward values: unicode, quotes, separators, newlines, a count above
// INT64_MAX, a negative time, NaN and non-NaN values and limits.
std::vector<Event> everyFieldEvents()
{
    std::vector<Event> out;
    Event a;
    a.number = 1;
    a.timeNs = kT0;
    a.severity = Severity::Critical;
    a.kind = EventKind::LimitViolation;
    a.stream = "S-band \"prime\"";
    a.packetType = "HK, fast";
    a.parameter = "EPS.BATT_V";
    a.detail = "red high";
    a.text = "Température batterie 🔋 \"haute\": 31.5 V > 30 V\nsecond line\r\nthird, with comma";
    a.count = 3;
    a.amount = 0;
    a.value = 31.5;
    a.limit = 30.0;
    a.limitState = "red high";
    a.user = "";
    out.push_back(a);

    Event b;
    b.number = 2;
    b.timeNs = kT0 + 1;
    b.severity = Severity::Warning;
    b.kind = EventKind::SequenceGap;
    b.stream = "X-band";
    b.detail = "APID 7";
    b.text = "APID 7: 412 gaps, 9,870 packets lost in the last second";
    b.count = 412;
    b.amount = 9870;
    out.push_back(b); // value and limit NaN

    Event c;
    c.number = std::numeric_limits<std::uint64_t>::max();
    c.timeNs = -5; // before the epoch: still a time the archive keeps
    c.severity = Severity::Info;
    c.kind = EventKind::LimitEdited;
    c.parameter = "日本語.パラメータ";
    c.text = "";
    c.count = std::numeric_limits<std::uint64_t>::max() - 1;
    c.amount = (std::uint64_t{1} << 63) + 5;
    c.value = -0.000123456789012345678;
    c.limit = std::nan("");
    c.user = "operator 'ops1'";
    out.push_back(c);

    Event d;
    d.number = 4;
    d.timeNs = kT0 + 2;
    d.severity = Severity::Error;
    d.kind = EventKind::EventStorage;
    d.value = std::nan("");
    d.limit = -1e300;
    out.push_back(d);
    return out;
}

std::string describeEvents(const std::vector<ArchivedEvent>& events)
{
    std::string out;
    for (const auto& a : events)
        out += std::to_string(a.id) + " " + toJsonLine(a.event) + "\n";
    return out;
}

std::vector<std::int64_t> idsOf(const std::vector<ArchivedEvent>& events)
{
    std::vector<std::int64_t> ids;
    for (const auto& a : events)
        ids.push_back(a.id);
    return ids;
}

std::string lowerAscii(std::string s)
{
    for (char& c : s)
        if (c >= 'A' && c <= 'Z')
            c = static_cast<char>(c - 'A' + 'a');
    return s;
}

// The filter's meaning written out in C++, independent of the SQL.
bool matches(const EventFilter& f, const Event& e)
{
    if (e.timeNs < f.fromNs || e.timeNs >= f.toNs)
        return false;
    if (f.minSeverity && e.severity < *f.minSeverity)
        return false;
    if (f.kind && e.kind != *f.kind)
        return false;
    if (!f.stream.empty() && e.stream != f.stream)
        return false;
    if (!f.text.empty()) {
        const std::string needle = lowerAscii(f.text);
        const auto in = [&](const std::string& field) { return contains(lowerAscii(field), needle); };
        if (!in(e.text) && !in(e.parameter) && !in(e.packetType) && !in(e.detail))
            return false;
    }
    return true;
}

// RFC 4180, strictly: CRLF between records, quotes only around a whole field, "" for a quote inside.
// Returns false on anything else (a bare LF or CR outside quotes, a quote inside an unquoted field).
bool parseCsv(const std::string& s, std::vector<std::vector<std::string>>& rows)
{
    std::vector<std::string> row;
    std::string field;
    bool quoted = false, inQuotes = false;
    for (std::size_t i = 0; i < s.size(); ++i) {
        const char c = s[i];
        if (inQuotes) {
            if (c != '"') {
                field += c;
            } else if (i + 1 < s.size() && s[i + 1] == '"') {
                field += '"';
                ++i;
            } else {
                inQuotes = false;
            }
            continue;
        }
        if (c == '"') {
            if (quoted || !field.empty())
                return false;
            quoted = inQuotes = true;
        } else if (c == ',') {
            row.push_back(std::move(field));
            field.clear();
            quoted = false;
        } else if (c == '\r') {
            if (i + 1 >= s.size() || s[i + 1] != '\n')
                return false;
            ++i;
            row.push_back(std::move(field));
            field.clear();
            quoted = false;
            rows.push_back(std::move(row));
            row.clear();
        } else if (c == '\n') {
            return false;
        } else {
            if (quoted)
                return false; // text after the closing quote
            field += c;
        }
    }
    return !inQuotes && field.empty() && row.empty(); // the last record ends with CRLF too
}

// A small tmpfs mounted for the test's lifetime (the full-disk test), unmounted however the test ends.
class SmallFileSystem {
public:
    explicit SmallFileSystem(const std::string& dir, const char* options)
        : m_dir(dir)
    {
        fs::create_directories(dir);
        if (::mount("tmpfs", dir.c_str(), "tmpfs", 0, options) == 0)
            m_mounted = true;
        else
            m_error = std::strerror(errno);
    }
    ~SmallFileSystem()
    {
        if (m_mounted)
            ::umount2(m_dir.c_str(), MNT_DETACH);
    }
    SmallFileSystem(const SmallFileSystem&) = delete;
    SmallFileSystem& operator=(const SmallFileSystem&) = delete;
    bool mounted() const { return m_mounted; }
    const std::string& error() const { return m_error; }

private:
    std::string m_dir;
    bool m_mounted = false;
    std::string m_error;
};

} // namespace

class TestEventsArchive : public QObject {
    Q_OBJECT

private:
    QTemporaryDir m_dir;
    int m_serial = 0;

    // A fresh path in the temporary directory for each use, so that tests never share a file.
    std::string freshPath(const char* stem)
    {
        return m_dir.filePath(QStringLiteral("%1-%2.sqlite").arg(QString::fromUtf8(stem)).arg(++m_serial)).toStdString();
    }

    static EventArchive openOrFail(const std::string& path, bool readOnly = false)
    {
        auto a = EventArchive::open(path, readOnly);
        if (!a)
            qFatal("cannot open %s: %s", path.c_str(), a.error().toString().c_str());
        return std::move(*a);
    }

    static std::vector<ArchivedEvent> all(const EventArchive& archive)
    {
        EventFilter f;
        f.limit = std::numeric_limits<std::size_t>::max();
        auto r = archive.query(f);
        if (!r)
            qFatal("query failed: %s", r.error().toString().c_str());
        return std::move(*r);
    }

    static std::vector<Event> eventsOf(const std::vector<ArchivedEvent>& archived)
    {
        std::vector<Event> out;
        for (const auto& a : archived)
            out.push_back(a.event);
        return out;
    }

    static std::vector<Event> batch(std::uint64_t firstNumber, std::size_t n, std::int64_t timeNs, std::size_t textSize = 0)
    {
        std::vector<Event> out;
        for (std::size_t i = 0; i < n; ++i) {
            Event e = makeEvent(firstNumber + i, timeNs + static_cast<std::int64_t>(i));
            e.stream = "S1";
            if (textSize > 0)
                e.text = "event " + std::to_string(firstNumber + i) + " " + std::string(textSize, 'x');
            out.push_back(std::move(e));
        }
        return out;
    }

    static bool isStorageReport(const Event& e, Severity severity)
    {
        return e.kind == EventKind::EventStorage && e.severity == severity;
    }

private Q_SLOTS:
    void initTestCase() { QVERIFY(m_dir.isValid()); }

    // Every field comes back as written after the archive is closed and opened again (a restart); the
    // file is readable with plain SQL (kinds by name, NaN as NULL) and in WAL mode; ids stay unique
    // across runs.
    void roundTripEveryFieldAcrossRestart()
    {
        const std::string path = freshPath("roundtrip");
        const std::vector<Event> written = everyFieldEvents();
        {
            EventArchive archive = openOrFail(path);
            QVERIFY(archive.append(written).ok());
            QCOMPARE(archive.path(), path);
        }
        std::vector<ArchivedEvent> firstRun;
        {
            EventArchive archive = openOrFail(path); // the restart
            firstRun = all(archive);
            QCOMPARE(*archive.count(), std::uint64_t{written.size()});
            // Oldest first: c (time -5), a, b, d.
            const std::vector<Event> expected{written[2], written[0], written[1], written[3]};
            QCOMPARE(firstRun.size(), expected.size());
            for (std::size_t i = 0; i < expected.size(); ++i)
                QVERIFY2(firstRun[i].event == expected[i],
                         qPrintable(QString::fromStdString(toJsonLine(firstRun[i].event) + "\n!=\n" + toJsonLine(expected[i]))));
            QVERIFY(std::isnan(firstRun[1].event.limit) == false && firstRun[1].event.limit == 30.0);
            QVERIFY(std::isnan(firstRun[2].event.value) && std::isnan(firstRun[2].event.limit));
            QVERIFY(archive.append(std::vector<Event>{makeEvent(1, kT0 + 10)}).ok()); // the second run's number 1
        }
        EventArchive reader = openOrFail(path, true);
        const auto secondRun = all(reader);
        QCOMPARE(secondRun.size(), written.size() + 1);
        auto ids = idsOf(secondRun);
        std::sort(ids.begin(), ids.end());
        QVERIFY(std::adjacent_find(ids.begin(), ids.end()) == ids.end());
        QVERIFY(!reader.append(written).ok()); // read-only stays read-only

        // What the sqlite3 tool would see.
        auto db = sqlite::Connection::open(path, sqlite::OpenMode::ReadOnly);
        QVERIFY(db.ok());
        QCOMPARE(*db->queryInteger("PRAGMA user_version"), std::int64_t{1});
        auto mode = db->prepare("PRAGMA journal_mode");
        QVERIFY(mode.ok() && mode->next());
        QCOMPARE(mode->text(0), std::string("wal"));
        auto row = db->prepare("SELECT kind, severity, value IS NULL, limit_value FROM events WHERE number = 2");
        QVERIFY(row.ok() && row->next());
        QCOMPARE(row->text(0), std::string("sequenceGap"));
        QCOMPARE(row->integer(1), std::int64_t{1});
        QCOMPARE(row->integer(2), std::int64_t{1});
        QVERIFY(row->isNull(3));
    }

    // A batch is one transaction: one bad event (a severity the schema refuses) and none is stored.
    void appendIsAllOrNone()
    {
        EventArchive archive = openOrFail(freshPath("atomic"));
        QVERIFY(archive.append(batch(1, 3, kT0)).ok());
        std::vector<Event> bad = batch(10, 3, kT0 + kSecond);
        bad[1].severity = static_cast<Severity>(9);
        const auto st = archive.append(bad);
        QVERIFY(!st.ok());
        QVERIFY2(contains(st.error().toString(), archive.path()), qPrintable(QString::fromStdString(st.error().toString())));
        QCOMPARE(*archive.count(), std::uint64_t{3});
        QVERIFY(archive.append(std::vector<Event>{}).ok());
    }

    void filters_data()
    {
        QTest::addColumn<int>("which");
        const char* names[] = {"everything", "from inclusive", "to exclusive", "time range", "min severity warning",
                               "min severity critical", "kind", "stream", "text in text", "text in parameter",
                               "text in packet type", "text in detail", "text case-insensitive", "text not in stream or user",
                               "text with %", "text with _", "text with backslash", "text unicode", "limit",
                               "combined", "combined newest first", "nothing matches"};
        for (int i = 0; i < static_cast<int>(std::size(names)); ++i)
            QTest::newRow(names[i]) << i;
    }

    // Each filter field alone and combined, against the same filter written out in C++.
    void filters()
    {
        QFETCH(int, which);
        std::vector<Event> events;
        std::mt19937 rng(7);
        const char* streams[] = {"S1", "S2", "X-band", ""};
        const char* texts[] = {"APID 7: 3 packets lost", "queue 'record' above 80%", "Voltage HIGH", "50% done",
                               "500 done", "a_b", "axb", "back\\slash", "Ölstand niedrig", "nothing special"};
        for (std::uint64_t i = 0; i < 400; ++i) {
            Event e = makeEvent(i + 1, kT0 + static_cast<std::int64_t>(i / 3) * kSecond, texts[rng() % std::size(texts)]);
            e.severity = static_cast<Severity>(rng() % kSeverityCount);
            e.kind = static_cast<EventKind>(rng() % kEventKindCount);
            e.stream = streams[rng() % std::size(streams)];
            if (rng() % 5 == 0)
                e.parameter = "EPS.PCDU_TEMP";
            if (rng() % 7 == 0)
                e.packetType = "HK_FAST";
            if (rng() % 6 == 0)
                e.detail = "queue forward";
            if (rng() % 9 == 0)
                e.user = "ops_findme";
            events.push_back(std::move(e));
        }
        events.push_back(makeEvent(1000, kT0 + 10 * kSecond, "stream name only"));
        events.back().stream = "findme-stream";

        EventFilter f;
        f.limit = 1'000'000;
        switch (which) {
        case 0: break;
        case 1: f.fromNs = kT0 + 20 * kSecond; break; // an event's exact time: included
        case 2: f.toNs = kT0 + 20 * kSecond; break;   // ... excluded
        case 3: f.fromNs = kT0 + 20 * kSecond; f.toNs = kT0 + 40 * kSecond; break;
        case 4: f.minSeverity = Severity::Warning; break;
        case 5: f.minSeverity = Severity::Critical; break;
        case 6: f.kind = EventKind::QueueDrop; break;
        case 7: f.stream = "X-band"; break;
        case 8: f.text = "packets lost"; break;
        case 9: f.text = "pcdu"; break;
        case 10: f.text = "HK_F"; break;
        case 11: f.text = "forward"; break;
        case 12: f.text = "voltage high"; break;
        case 13: f.text = "findme"; break;
        case 14: f.text = "50%"; break;  // not "500 done"
        case 15: f.text = "a_b"; break;  // not "axb"
        case 16: f.text = "k\\s"; break;
        case 17: f.text = "Ölstand"; break;
        case 18: f.limit = 17; break;
        case 19:
            f.fromNs = kT0 + 10 * kSecond;
            f.toNs = kT0 + 120 * kSecond;
            f.minSeverity = Severity::Warning;
            f.stream = "S2";
            f.text = "D";
            break;
        case 20:
            f.fromNs = kT0 + 5 * kSecond;
            f.minSeverity = Severity::Error;
            f.kind = EventKind::LimitViolation;
            f.newestFirst = true;
            f.limit = 3;
            break;
        case 21: f.stream = "no such stream"; break;
        }

        std::vector<Event> expected;
        for (const Event& e : events)
            if (matches(f, e))
                expected.push_back(e);
        std::stable_sort(expected.begin(), expected.end(), [](const Event& a, const Event& b) { return a.timeNs < b.timeNs; });
        if (f.newestFirst)
            std::reverse(expected.begin(), expected.end()); // same time: the later id first, as appended
        if (expected.size() > f.limit)
            expected.resize(f.limit);
        // The data must make each case worth testing: it selects something (or, for the cases that
        // must select nothing, has the text where the filter must not look) and leaves something out.
        const bool selectsNothing = which == 13 || which == 21;
        QVERIFY2(expected.empty() == selectsNothing, "the test data does not exercise this case");
        if (which != 0)
            QVERIFY2(expected.size() < events.size(), "the test data does not exercise this case");

        EventArchive archive = openOrFail(freshPath("filters"));
        QVERIFY(archive.append(events).ok());
        auto got = archive.query(f);
        QVERIFY2(got.ok(), got.ok() ? "" : got.error().toString().c_str());
        QVERIFY2(eventsOf(*got) == expected, qPrintable(QString::fromStdString(describeEvents(*got))));
    }

    // Newest first, a page at a time back through history: every event once, in order, although many
    // share a timestamp across page boundaries; the same oldest first.
    void pagingThroughHistory()
    {
        EventArchive archive = openOrFail(freshPath("paging"));
        std::vector<Event> events;
        for (std::uint64_t i = 0; i < 53; ++i)
            events.push_back(makeEvent(i + 1, kT0 + static_cast<std::int64_t>(i / 5) * kSecond)); // 5 per timestamp
        QVERIFY(archive.append(events).ok());
        const auto everything = all(archive);

        for (const bool newestFirst : {true, false}) {
            EventFilter f;
            f.newestFirst = newestFirst;
            f.limit = 4;
            std::vector<ArchivedEvent> collected;
            for (int page = 0; page < 100; ++page) {
                auto got = archive.query(f);
                QVERIFY(got.ok());
                QVERIFY(got->size() <= 4);
                if (got->empty())
                    break;
                collected.insert(collected.end(), got->begin(), got->end());
                f.after = got->back().position();
            }
            auto expected = everything;
            if (newestFirst)
                std::reverse(expected.begin(), expected.end());
            QCOMPARE(idsOf(collected), idsOf(expected));
        }

        // The newest ones before a time: the first page of the history view at that time.
        EventFilter f;
        f.newestFirst = true;
        f.toNs = kT0 + 3 * kSecond;
        f.limit = 7;
        auto got = archive.query(f);
        QVERIFY(got.ok());
        QCOMPARE(got->size(), std::size_t{7});
        QCOMPARE(got->front().event.number, std::uint64_t{15});
        QCOMPARE(got->back().event.number, std::uint64_t{9});
    }

    // WAL: a read-only archive opened while the writer writes sees every committed batch whole, and is
    // neither blocked nor shown rows by a transaction still open.
    void readerBesideWriter()
    {
        const std::string path = freshPath("wal");
        EventArchive writer = openOrFail(path);
        QVERIFY(writer.append(batch(1, 50, kT0)).ok());
        EventArchive reader = openOrFail(path, true);
        QCOMPARE(*reader.count(), std::uint64_t{50});

        constexpr int kBatches = 200;
        std::atomic<bool> writeFailed{false};
        std::thread writing([&] {
            for (int i = 1; i < kBatches; ++i)
                if (!writer.append(batch(static_cast<std::uint64_t>(i) * 50 + 1, 50, kT0 + i * kSecond)).ok())
                    writeFailed = true;
        });
        std::uint64_t last = 0;
        int reads = 0;
        bool wholeBatches = true, neverBack = true, readFailed = false;
        while (last < kBatches * 50 && !writeFailed && !readFailed) {
            auto n = reader.count();
            readFailed = !n.ok();
            if (readFailed)
                break;
            wholeBatches = wholeBatches && *n % 50 == 0;
            neverBack = neverBack && *n >= last;
            last = *n;
            ++reads;
        }
        writing.join();
        QVERIFY(!writeFailed);
        QVERIFY(!readFailed);
        QVERIFY(wholeBatches);
        QVERIFY(neverBack);
        QCOMPARE(last, std::uint64_t{kBatches * 50});
        qInfo("reader counted %d times while the writer appended %d batches", reads, kBatches);

        // Another connection holds a write transaction with a row not yet committed.
        auto other = sqlite::Connection::open(path, sqlite::OpenMode::ReadWrite);
        QVERIFY(other.ok());
        {
            auto transaction = sqlite::Transaction::begin(*other, sqlite::TransactionKind::Immediate);
            QVERIFY(transaction.ok());
            QVERIFY(other->exec("INSERT INTO events (time_ns, severity, kind, stream, packet_type, parameter, detail, "
                                "text, count, amount, limit_state, user, number) "
                                "VALUES (1, 0, 'station', '', '', '', '', 'uncommitted', 1, 0, '', '', 0)").ok());
            EventFilter f;
            f.text = "uncommitted";
            auto seen = reader.query(f);
            QVERIFY2(seen.ok(), seen.ok() ? "" : seen.error().toString().c_str());
            QVERIFY(seen->empty());
            QVERIFY(transaction->commit().ok());
            seen = reader.query(f);
            QVERIFY(seen.ok());
            QCOMPARE(seen->size(), std::size_t{1});
        }
    }

    // The store's retention: applied when opened and then once an hour (by nowNs), deleting exactly
    // the events older than the cutoff; 0 days keeps everything.
    void retention()
    {
        const std::string path = freshPath("retention");
        const std::int64_t now = kT0 + 100 * kDay;
        {
            EventArchive archive = openOrFail(path);
            const std::vector<Event> events{makeEvent(1, now - 3 * kDay), makeEvent(2, now - 2 * kDay - 1),
                                            makeEvent(3, now - 2 * kDay), makeEvent(4, now - 2 * kDay + 30 * 60 * kSecond),
                                            makeEvent(5, now - kDay), makeEvent(6, now)};
            QVERIFY(archive.append(events).ok());
        }
        const auto numbers = [&] {
            std::vector<std::uint64_t> out;
            for (const auto& a : all(openOrFail(path, true)))
                out.push_back(a.event.number);
            return out;
        };

        EventStore keepForever(path, 0);
        QVERIFY(keepForever.store({}, now).empty());
        QCOMPARE(numbers(), (std::vector<std::uint64_t>{1, 2, 3, 4, 5, 6}));

        EventStore store(path, 2);
        QVERIFY(store.store({}, now).empty()); // opens: 1 and 2 are older than two days
        QVERIFY(store.healthy());
        QCOMPARE(numbers(), (std::vector<std::uint64_t>{3, 4, 5, 6}));

        const std::vector<Event> later{makeEvent(7, now + 45 * 60 * kSecond)};
        QVERIFY(store.store(later, now + 45 * 60 * kSecond).empty()); // within the hour: no retention
        QCOMPARE(numbers(), (std::vector<std::uint64_t>{3, 4, 5, 6, 7}));
        QVERIFY(store.store({}, now + 60 * 60 * kSecond).empty()); // the hour: 3 and 4 are now too old
        QCOMPARE(numbers(), (std::vector<std::uint64_t>{5, 6, 7}));
        QCOMPARE(store.stored(), std::uint64_t{1});

        EventArchive archive = openOrFail(path);
        QCOMPARE(*archive.deleteOlderThan(now), std::uint64_t{1});
        QCOMPARE(*archive.deleteOlderThan(now), std::uint64_t{0});
    }

    // Files that are not this program's archive are refused with the file named and left untouched.
    void foreignNewerAndGarbageFiles()
    {
        const std::string foreign = freshPath("foreign");
        {
            auto db = sqlite::Connection::open(foreign, sqlite::OpenMode::ReadWriteCreate);
            QVERIFY(db.ok());
            QVERIFY(db->exec("CREATE TABLE telemetry (t INTEGER, v REAL); INSERT INTO telemetry VALUES (1, 2.5)").ok());
        }
        const auto bytesOf = [](const std::string& p) {
            std::ifstream in(p, std::ios::binary);
            return std::string(std::istreambuf_iterator<char>(in), {});
        };
        const std::string before = bytesOf(foreign);
        for (const bool readOnly : {false, true}) {
            auto a = EventArchive::open(foreign, readOnly);
            QVERIFY(!a.ok());
            const std::string message = a.error().toString();
            QVERIFY2(contains(message, foreign) && contains(message, "not an event archive"), message.c_str());
        }
        QCOMPARE(bytesOf(foreign), before);
        QVERIFY(!fs::exists(foreign + "-wal"));

        const std::string newer = freshPath("newer");
        QVERIFY(EventArchive::open(newer).ok());
        {
            auto db = sqlite::Connection::open(newer, sqlite::OpenMode::ReadWrite);
            QVERIFY(db.ok() && db->exec("PRAGMA user_version = 2").ok());
        }
        auto a = EventArchive::open(newer);
        QVERIFY(!a.ok());
        QVERIFY2(contains(a.error().toString(), newer) && contains(a.error().toString(), "schema version 2"),
                 a.error().toString().c_str());

        std::mt19937 rng(3);
        std::string noise(8192, '\0');
        for (char& c : noise)
            c = static_cast<char>(rng());
        for (const std::string& content : {noise, std::string("hello, this is a text file\n")}) {
            const std::string garbage = freshPath("garbage");
            std::ofstream(garbage, std::ios::binary) << content;
            for (const bool readOnly : {false, true}) {
                auto g = EventArchive::open(garbage, readOnly);
                QVERIFY(!g.ok());
                const std::string message = g.error().toString();
                QVERIFY2(contains(message, garbage) && contains(message, "not an SQLite database"), message.c_str());
            }
            QCOMPARE(bytesOf(garbage), content);

            // The station's store: one error event, no crash, the events kept.
            EventStore store(garbage, 90);
            const auto reports = store.store(batch(1, 2, kT0), kT0);
            QCOMPARE(reports.size(), std::size_t{1});
            QVERIFY(isStorageReport(reports[0], Severity::Error));
            QVERIFY2(contains(reports[0].text, garbage), reports[0].text.c_str());
            QVERIFY(!store.healthy());
            QCOMPARE(store.pending(), std::size_t{2});
        }

        // An empty file is a new archive for the writer, but nothing a viewer can read.
        const std::string empty = freshPath("empty");
        std::ofstream{empty};
        auto e = EventArchive::open(empty, true);
        QVERIFY(!e.ok());
        QVERIFY2(contains(e.error().toString(), empty) && contains(e.error().toString(), "empty database"),
                 e.error().toString().c_str());
        QVERIFY(EventArchive::open(empty).ok());
        QVERIFY(EventArchive::open(empty, true).ok());

        auto missing = EventArchive::open(freshPath("missing"), true);
        QVERIFY(!missing.ok());
        QVERIFY(contains(missing.error().toString(), "no such file"));
    }

    // An archive that cannot be created (its parent is a regular file): one error event naming the
    // path, events wait, a retry that still fails says nothing, and once the blocking file is gone the
    // next retry writes what waited and the new batch, in order, and says so once.
    void unwritablePathReportedOnceThenResumed()
    {
        const std::string blocker = m_dir.filePath(QStringLiteral("blocker")).toStdString();
        std::ofstream(blocker) << "a file where the archive's directory should be";
        const std::string path = blocker + "/events/events.sqlite";
        EventStore store(path, 90);
        std::vector<Event> sent;
        const auto send = [&](std::size_t n, std::int64_t nowNs) {
            auto b = batch(sent.size() + 1, n, nowNs);
            sent.insert(sent.end(), b.begin(), b.end());
            return store.store(b, nowNs);
        };

        auto reports = send(3, kT0);
        QCOMPARE(reports.size(), std::size_t{1});
        QVERIFY(isStorageReport(reports[0], Severity::Error));
        QVERIFY2(contains(reports[0].text, path) && contains(reports[0].text, "event storage stopped"), reports[0].text.c_str());
        QVERIFY2(contains(reports[0].text, "Not a directory"), reports[0].text.c_str());
        QCOMPARE(reports[0].timeNs, kT0);
        QVERIFY(!store.healthy());
        QCOMPARE(store.lastError(), path + ": cannot create the directory " + blocker + "/events: Not a directory");

        QVERIFY(send(2, kT0 + kSecond).empty());
        QVERIFY(send(2, kT0 + EventStore::kRetryNs - 1).empty());      // not yet time to retry
        QVERIFY(send(1, kT0 + EventStore::kRetryNs).empty());          // retried, failed: nothing new to say
        QCOMPARE(store.pending(), std::size_t{8});
        QCOMPARE(store.stored(), std::uint64_t{0});

        QVERIFY(fs::remove(blocker));
        QVERIFY(send(4, kT0 + 2 * EventStore::kRetryNs - 1).empty());  // the next retry is not due yet
        QVERIFY(!fs::exists(path));
        reports = send(2, kT0 + 2 * EventStore::kRetryNs);
        QCOMPARE(reports.size(), std::size_t{1});
        QVERIFY(isStorageReport(reports[0], Severity::Info));
        QCOMPARE(reports[0].text, std::string("event storage resumed: 14 events written that had waited"));
        QVERIFY(store.healthy());
        QCOMPARE(store.pending(), std::size_t{0});
        QCOMPARE(store.stored(), std::uint64_t{14});
        QCOMPARE(store.notStored(), std::uint64_t{0});
        QVERIFY(send(1, kT0 + 2 * EventStore::kRetryNs + 1).empty()); // healthy: straight in

        // Written in the order they came (ids), the ones that waited before the new batch, although the
        // last two batches' times overlap.
        auto archived = all(openOrFail(path, true));
        std::sort(archived.begin(), archived.end(), [](const auto& a, const auto& b) { return a.id < b.id; });
        QCOMPARE(eventsOf(archived), sent);
    }

    // The archive's path is a directory: said so; once it is gone, storage resumes.
    void archivePathIsADirectory()
    {
        const std::string path = m_dir.filePath(QStringLiteral("a-directory.sqlite")).toStdString();
        QVERIFY(fs::create_directories(path));
        EventStore store(path, 90);
        auto reports = store.store(batch(1, 1, kT0), kT0);
        QCOMPARE(reports.size(), std::size_t{1});
        QVERIFY2(contains(reports[0].text, path) && contains(reports[0].text, "is a directory"), reports[0].text.c_str());
        QVERIFY(fs::remove(path));
        reports = store.store(batch(2, 1, kT0 + EventStore::kRetryNs), kT0 + EventStore::kRetryNs);
        QCOMPARE(reports.size(), std::size_t{1});
        QCOMPARE(reports[0].text, std::string("event storage resumed: 2 events written that had waited"));
        QCOMPARE(*openOrFail(path, true).count(), std::uint64_t{2});
    }

    // The archive file deleted under a running station: SQLite would go on writing into the deleted
    // file; the store notices, reports it, and writes a new file at the retry.
    void archiveDeletedWhileOpen()
    {
        const std::string path = freshPath("deleted");
        EventStore store(path, 90);
        QVERIFY(store.store(batch(1, 5, kT0), kT0).empty());
        QCOMPARE(store.stored(), std::uint64_t{5});
        for (const char* suffix : {"", "-wal", "-shm"})
            fs::remove(path + suffix);

        auto reports = store.store(batch(6, 2, kT0 + kSecond), kT0 + kSecond);
        QCOMPARE(reports.size(), std::size_t{1});
        QVERIFY(isStorageReport(reports[0], Severity::Error));
        QVERIFY2(contains(reports[0].text, path) && contains(reports[0].text, "deleted"), reports[0].text.c_str());
        reports = store.store(batch(8, 1, kT0 + kSecond + EventStore::kRetryNs), kT0 + kSecond + EventStore::kRetryNs);
        QCOMPARE(reports.size(), std::size_t{1});
        QCOMPARE(reports[0].text, std::string("event storage resumed: 3 events written that had waited"));
        std::vector<std::uint64_t> numbers;
        for (const auto& a : all(openOrFail(path, true)))
            numbers.push_back(a.event.number);
        QCOMPARE(numbers, (std::vector<std::uint64_t>{6, 7, 8}));
    }

    // More than kPendingMax waiting: the rest counted as not stored, said once; the resume says how many.
    void pendingBeyondMaxCountedAsNotStored()
    {
        const std::string blocker = m_dir.filePath(QStringLiteral("blocker-pending")).toStdString();
        std::ofstream(blocker) << "x";
        const std::string path = blocker + "/events.sqlite";
        EventStore store(path, 90);
        std::int64_t now = kT0;
        int errors = 0, overflowReports = 0;
        std::size_t sent = 0;
        std::vector<std::size_t> overflowAt;
        while (sent < EventStore::kPendingMax + 5) {
            const std::size_t n = std::min<std::size_t>(10'000, EventStore::kPendingMax + 5 - sent);
            for (const Event& r : store.store(batch(sent + 1, n, now), now)) {
                QCOMPARE(r.kind, EventKind::EventStorage);
                if (contains(r.text, "stopped"))
                    ++errors;
                else if (contains(r.text, "lost"))
                    ++overflowReports;
            }
            sent += n;
            now += kSecond;
        }
        QCOMPARE(errors, 1);
        QCOMPARE(overflowReports, 1);
        QCOMPARE(store.pending(), EventStore::kPendingMax);
        QCOMPARE(store.notStored(), std::uint64_t{5});
        QVERIFY(store.store(batch(sent + 1, 3, now), now).empty()); // counted, not said again
        QCOMPARE(store.notStored(), std::uint64_t{8});

        QVERIFY(fs::remove(blocker));
        const auto reports = store.store({}, kT0 + EventStore::kRetryNs);
        QCOMPARE(reports.size(), std::size_t{1});
        QCOMPARE(reports[0].text, std::string("event storage resumed: 100000 events written that had waited; "
                                              "8 events were not stored (more than 100000 waited)"));
        auto reader = openOrFail(path, true);
        QCOMPARE(*reader.count(), std::uint64_t{EventStore::kPendingMax});
        EventFilter newest;
        newest.newestFirst = true;
        newest.limit = 1;
        QCOMPARE(reader.query(newest)->front().event.number, std::uint64_t{EventStore::kPendingMax}); // the first ones kept
    }

    // A real full disk (a 256 KiB tmpfs): appends fail, the failure is reported once, what was stored
    // before stays readable, and after space is freed storage resumes with what waited.
    void fullDisk()
    {
        const std::string dir = m_dir.filePath(QStringLiteral("small-fs")).toStdString();
        SmallFileSystem small(dir, "size=256k");
        if (!small.mounted())
            QSKIP(qPrintable(QStringLiteral("cannot mount a tmpfs here (%1): needs root with CAP_SYS_ADMIN")
                                 .arg(QString::fromStdString(small.error()))));
        const std::string filler = dir + "/filler";
        std::ofstream(filler, std::ios::binary) << std::string(96 * 1024, 'f');
        QCOMPARE(fs::file_size(filler), std::uintmax_t{96 * 1024});

        const std::string path = dir + "/archive/events.sqlite";
        std::vector<Event> reports;
        {
            EventStore store(path, 90);
            std::int64_t now = kT0;
            std::uint64_t number = 1;
            std::vector<Event> sent;
            for (int i = 0; i < 1000 && reports.empty(); ++i, now += kSecond) {
                auto b = batch(number, 20, now, 300);
                number += b.size();
                reports = store.store(b, now);
                if (reports.empty())
                    sent.insert(sent.end(), b.begin(), b.end());
            }
            QCOMPARE(reports.size(), std::size_t{1});
            QVERIFY(isStorageReport(reports[0], Severity::Error));
            QVERIFY2(contains(reports[0].text, path) && contains(reports[0].text, "full"), reports[0].text.c_str());
            QVERIFY(!store.healthy());
            QCOMPARE(store.stored(), std::uint64_t{sent.size()});
            QVERIFY(!sent.empty());
            qInfo("the disk filled after %zu events; the store said: %s", sent.size(), reports[0].text.c_str());

            // Readable while the disk is full.
            QCOMPARE(eventsOf(all(openOrFail(path, true))), sent);

            // Still full at the retry: no new report, the batch waits with the others.
            auto more = batch(number, 20, now, 300);
            number += more.size();
            QVERIFY(store.store(more, now + EventStore::kRetryNs).empty());
            QCOMPARE(store.pending(), std::size_t{40});

            QVERIFY(fs::remove(filler));
            reports = store.store({}, now + 2 * EventStore::kRetryNs);
            QCOMPARE(reports.size(), std::size_t{1});
            QCOMPARE(reports[0].text, std::string("event storage resumed: 40 events written that had waited"));
            QCOMPARE(*openOrFail(path, true).count(), std::uint64_t{sent.size() + 40});
        }
    }

    // CSV read back by a strict RFC 4180 parser: the header, every field, quoting of commas, quotes,
    // CR and LF, NaN as an empty field, doubles exact.
    void csvParsesBack()
    {
        const auto events = everyFieldEvents();
        std::vector<ArchivedEvent> archived;
        for (std::size_t i = 0; i < events.size(); ++i)
            archived.push_back(ArchivedEvent{static_cast<std::int64_t>(i + 1), events[i]});
        std::ostringstream out;
        writeCsv(archived, out);

        std::vector<std::vector<std::string>> rows;
        QVERIFY2(parseCsv(out.str(), rows), out.str().c_str());
        QCOMPARE(rows.size(), events.size() + 1);
        const std::vector<std::string> header{"time", "severity", "kind", "stream", "packet type", "parameter", "detail",
                                              "text", "count", "amount", "value", "limit", "limit state", "user"};
        QCOMPARE(rows[0], header);
        for (std::size_t i = 0; i < events.size(); ++i) {
            const Event& e = events[i];
            const auto& r = rows[i + 1];
            QCOMPARE(r.size(), header.size());
            QCOMPARE(r[0], text::formatTimeNs(e.timeNs));
            QCOMPARE(r[1], std::string(severityName(e.severity)));
            QCOMPARE(r[2], std::string(eventKindName(e.kind)));
            QCOMPARE(r[3], e.stream);
            QCOMPARE(r[4], e.packetType);
            QCOMPARE(r[5], e.parameter);
            QCOMPARE(r[6], e.detail);
            QCOMPARE(r[7], e.text);
            QCOMPARE(r[8], std::to_string(e.count));
            QCOMPARE(r[9], std::to_string(e.amount));
            for (const auto& [field, value] : {std::pair{r[10], e.value}, std::pair{r[11], e.limit}}) {
                if (std::isnan(value))
                    QVERIFY(field.empty());
                else
                    QCOMPARE(std::stod(field), value);
            }
            QCOMPARE(r[12], e.limitState);
            QCOMPARE(r[13], e.user);
        }
        QCOMPARE(rows[1][0], std::string("2025-06-15T15:06:40.000000000Z"));
        QVERIFY(contains(out.str(), "\"S-band \"\"prime\"\"\"")); // quotes doubled inside quotes
    }

    // 10,000 events in one batch: the figure for the report, never asserted.
    void appendTenThousandTimed()
    {
        EventArchive archive = openOrFail(freshPath("timing"));
        std::vector<Event> events;
        for (std::uint64_t i = 0; i < 10'000; ++i) {
            Event e = makeEvent(i + 1, kT0 + static_cast<std::int64_t>(i) * 1'000'000,
                                "APID 7: 3 gaps, 12 packets lost in the last second");
            e.kind = EventKind::SequenceGap;
            e.severity = Severity::Warning;
            e.stream = "S1";
            e.detail = "APID 7";
            e.amount = 12;
            e.count = 3;
            events.push_back(std::move(e));
        }
        QElapsedTimer timer;
        timer.start();
        QVERIFY(archive.append(events).ok());
        qInfo("appended 10,000 events in one batch in %.1f ms", static_cast<double>(timer.nsecsElapsed()) / 1e6);
        QCOMPARE(*archive.count(), std::uint64_t{10'000});
    }
};

QTEST_GUILESS_MAIN(TestEventsArchive)
#include "tst_events_archive.moc"
