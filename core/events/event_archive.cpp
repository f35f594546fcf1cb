// The event archive in SQLite: one row per event in table `events`, readable with the sqlite3 tool
// (kinds by name, severities as their order 0..3, times as ns since the Unix epoch). WAL journal, so
// that viewers read while the station writes and never hold it up.
#include "core/events/event_archive.hpp"

#include "core/common/time_text.hpp"
#include "core/sqlite/connection.hpp"
#include "core/sqlite/transaction.hpp"

#include <sys/stat.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <limits>
#include <optional>
#include <string_view>
#include <system_error>
#include <utility>

namespace telestation::events {
namespace {

namespace fs = std::filesystem;

// PRAGMA application_id of an event archive: 'TSEV' (the recording catalog is 'TSRC').
constexpr std::int32_t kApplicationId = 0x54534556;
// A new column or index is a new version; a new event kind is not (kinds are stored by name, and a
// program that does not know one reads it as a station event).
constexpr int kSchemaVersion = 1;

// STRICT: SQLite refuses a value of the wrong type instead of storing it. "limit" is an SQL keyword,
// hence limit_value. count, amount and number are unsigned in Event: stored as their 64-bit pattern.
constexpr char kSchema[] = R"sql(
CREATE TABLE events (
    id          INTEGER PRIMARY KEY,
    time_ns     INTEGER NOT NULL,
    severity    INTEGER NOT NULL CHECK (severity BETWEEN 0 AND 3),
    kind        TEXT NOT NULL,
    stream      TEXT NOT NULL,
    packet_type TEXT NOT NULL,
    parameter   TEXT NOT NULL,
    detail      TEXT NOT NULL,
    text        TEXT NOT NULL,
    count       INTEGER NOT NULL,
    amount      INTEGER NOT NULL,
    value       REAL,
    limit_value REAL,
    limit_state TEXT NOT NULL,
    user        TEXT NOT NULL,
    number      INTEGER NOT NULL
) STRICT;
CREATE INDEX events_time ON events (time_ns);
CREATE INDEX events_stream_time ON events (stream, time_ns);
)sql";

constexpr char kColumns[] = "time_ns, severity, kind, stream, packet_type, parameter, detail, text, count, "
                            "amount, value, limit_value, limit_state, user, number";

// The SQL is fixed text (core/sqlite/sql.hpp): a new archive, the writer's insert, and the query in
// four forms. The query's filters are bound parameters, NULL when unused; only the stream condition
// is left out of the text when unused, so that SQLite takes the (stream, time) index for a stream and
// the time index otherwise. A query without `after` binds the far end of the order as its position.
constexpr auto kCreate = sqlite::sqlJoin(kSchema, "PRAGMA application_id=", sqlite::sqlNumber<kApplicationId>(),
                                         ";PRAGMA user_version=", sqlite::sqlNumber<kSchemaVersion>(), ";");
constexpr auto kInsert = sqlite::sqlJoin("INSERT INTO events (", kColumns,
                                         ") VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15)");
constexpr auto kSelect = sqlite::sqlJoin("SELECT id, ", kColumns,
    " FROM events WHERE time_ns >= ?1 AND time_ns < ?2 AND (?3 IS NULL OR severity >= ?3)"
    " AND (?4 IS NULL OR kind = ?4) AND (?6 IS NULL OR text LIKE ?6 ESCAPE '\\' OR parameter LIKE ?6 ESCAPE '\\'"
    " OR packet_type LIKE ?6 ESCAPE '\\' OR detail LIKE ?6 ESCAPE '\\')");
constexpr char kOfStream[] = " AND stream = ?5";
constexpr char kNewestFirst[] = " AND (time_ns, id) < (?7, ?8) ORDER BY time_ns DESC, id DESC LIMIT ?9";
constexpr char kOldestFirst[] = " AND (time_ns, id) > (?7, ?8) ORDER BY time_ns ASC, id ASC LIMIT ?9";
constexpr auto kQueryNewest = sqlite::sqlJoin(kSelect, kNewestFirst);
constexpr auto kQueryOldest = sqlite::sqlJoin(kSelect, kOldestFirst);
constexpr auto kQueryStreamNewest = sqlite::sqlJoin(kSelect, kOfStream, kNewestFirst);
constexpr auto kQueryStreamOldest = sqlite::sqlJoin(kSelect, kOfStream, kOldestFirst);

std::string describe(sqlite::Failure failure, const std::string& message)
{
    switch (failure) {
    case sqlite::Failure::NotADatabase:
        return "the file is not an SQLite database (" + message + ")";
    case sqlite::Failure::Corrupt:
        return "the archive is damaged (" + message + ")";
    case sqlite::Failure::ReadOnly:
        return "the archive cannot be written: the file, its directory or its disk is read-only (" + message + ")";
    case sqlite::Failure::Busy:
        return "the archive is locked by another program (" + message + ")";
    case sqlite::Failure::Other:
        break;
    }
    return message;
}

struct FileIdentity {
    dev_t device = 0;
    ino_t inode = 0;
    friend bool operator==(const FileIdentity&, const FileIdentity&) = default;
};

std::optional<FileIdentity> identityOf(const std::string& path)
{
    struct stat st {};
    if (::stat(path.c_str(), &st) != 0)
        return std::nullopt;
    return FileIdentity{st.st_dev, st.st_ino};
}

// Text bound to a statement must live until it is stepped: the caller keeps the event.
void bindEvent(sqlite::Statement& s, const Event& e)
{
    s.bindInteger(1, e.timeNs);
    s.bindInteger(2, static_cast<std::int64_t>(e.severity));
    s.bindText(3, eventKindName(e.kind));
    s.bindText(4, e.stream);
    s.bindText(5, e.packetType);
    s.bindText(6, e.parameter);
    s.bindText(7, e.detail);
    s.bindText(8, e.text);
    s.bindInteger(9, static_cast<std::int64_t>(e.count));
    s.bindInteger(10, static_cast<std::int64_t>(e.amount));
    if (std::isnan(e.value))
        s.bindNull(11);
    else
        s.bindReal(11, e.value);
    if (std::isnan(e.limit))
        s.bindNull(12);
    else
        s.bindReal(12, e.limit);
    s.bindText(13, e.limitState);
    s.bindText(14, e.user);
    s.bindInteger(15, static_cast<std::int64_t>(e.number));
}

// Reads the row of "SELECT id, <kColumns>".
ArchivedEvent readEvent(const sqlite::Statement& s)
{
    ArchivedEvent a;
    a.id = s.integer(0);
    Event& e = a.event;
    e.timeNs = s.integer(1);
    e.severity = static_cast<Severity>(std::clamp<std::int64_t>(s.integer(2), 0, kSeverityCount - 1));
    e.kind = parseEventKind(s.text(3)).value_or(EventKind::Station);
    e.stream = s.text(4);
    e.packetType = s.text(5);
    e.parameter = s.text(6);
    e.detail = s.text(7);
    e.text = s.text(8);
    e.count = static_cast<std::uint64_t>(s.integer(9));
    e.amount = static_cast<std::uint64_t>(s.integer(10));
    e.value = s.isNull(11) ? std::nan("") : s.real(11);
    e.limit = s.isNull(12) ? std::nan("") : s.real(12);
    e.limitState = s.text(13);
    e.user = s.text(14);
    e.number = static_cast<std::uint64_t>(s.integer(15));
    return a;
}

// A LIKE pattern that matches `text` anywhere, its own % and _ (and the escape character) literal.
std::string containsPattern(std::string_view text)
{
    std::string pattern = "%";
    for (const char c : text) {
        if (c == '%' || c == '_' || c == '\\')
            pattern += '\\';
        pattern += c;
    }
    pattern += '%';
    return pattern;
}

void appendCsvField(std::string& line, std::string_view field)
{
    if (field.find_first_of(",\"\r\n") == std::string_view::npos) {
        line += field;
        return;
    }
    line += '"';
    for (const char c : field) {
        if (c == '"')
            line += '"';
        line += c;
    }
    line += '"';
}

std::string csvNumber(double value)
{
    if (std::isnan(value))
        return {};
    char buf[40];
    std::snprintf(buf, sizeof buf, "%.17g", value);
    return buf;
}

} // namespace

struct EventArchive::Impl {
    std::string path;
    bool readOnly = false;
    sqlite::Connection db;
    sqlite::Statement insert;          // prepared once: the writer's one statement per event
    std::optional<FileIdentity> file;  // the file opened, to notice it deleted or replaced

    Error error(std::string message) const { return Error{std::move(message), {path, 0, 0}}; }

    Status exec(sqlite::Sql sql, std::string_view what)
    {
        if (auto st = db.exec(sql); !st)
            return error(std::string(what) + ": " + st.error().message);
        return {};
    }

    Status checkSchema();
    Status prepareForWriting(bool fresh);
};

Status EventArchive::Impl::checkSchema()
{
    auto appId = db.queryInteger("PRAGMA application_id");
    if (!appId)
        return error("not an event archive: " + appId.error().message);
    auto tables = db.queryInteger("SELECT count(*) FROM sqlite_schema");
    if (!tables)
        return error("not an event archive: " + tables.error().message);
    const bool fresh = *appId == 0 && *tables == 0;
    if (fresh && readOnly)
        return error("not an event archive: an empty database");
    if (!fresh && *appId != kApplicationId)
        return error("not an event archive: another program's SQLite database (application_id "
                     + std::to_string(*appId) + ")");
    if (!fresh) {
        auto version = db.queryInteger("PRAGMA user_version");
        if (!version)
            return error(version.error().message);
        if (*version > kSchemaVersion)
            return error("the event archive has schema version " + std::to_string(*version)
                         + ", newer than this program's " + std::to_string(kSchemaVersion)
                         + ": use a newer program or another file");
        if (*version < 1)
            return error("not an event archive: no schema version");
    }
    if (!readOnly)
        return prepareForWriting(fresh);
    return {};
}

Status EventArchive::Impl::prepareForWriting(bool fresh)
{
    // WAL: viewers read while the station writes. synchronous=NORMAL in WAL mode can lose the last
    // transactions on a power cut but never corrupts the file: enough for an event log.
    {
        auto s = db.prepare("PRAGMA journal_mode=WAL");
        if (!s)
            return error("cannot switch to WAL: " + s.error().message);
        if (!s->next())
            return error("cannot switch to WAL: " + (s->status() ? std::string("no result") : s->status().error().message));
        if (s->text(0) != "wal")
            return error("cannot switch to WAL (the journal mode stays " + s->text(0) + ")");
    }
    if (auto st = exec("PRAGMA synchronous=NORMAL", "cannot set synchronous=NORMAL"); !st)
        return st;
    if (fresh) {
        auto transaction = sqlite::Transaction::begin(db, sqlite::TransactionKind::Immediate);
        if (!transaction)
            return error("cannot create the event archive: " + transaction.error().message);
        if (auto st = db.exec(kCreate.text); !st)
            return error("cannot create the event archive: " + st.error().message);
        if (auto st = transaction->commit(); !st)
            return error("cannot create the event archive: " + st.error().message);
    }
    auto s = db.prepare(kInsert.text);
    if (!s)
        return error("cannot prepare writing: " + s.error().message);
    insert = std::move(*s);
    file = identityOf(path);
    return {};
}

EventArchive::EventArchive(std::unique_ptr<Impl> impl) : m_impl(std::move(impl)) {}
EventArchive::EventArchive(EventArchive&&) noexcept = default;
EventArchive& EventArchive::operator=(EventArchive&&) noexcept = default;
EventArchive::~EventArchive() = default;

Result<EventArchive> EventArchive::open(const std::string& path, bool readOnly)
{
    const auto fail = [&](std::string message) { return Error{std::move(message), {path, 0, 0}}; };
    // SQLite's own words for these are "unable to open database file": say what is wrong instead.
    std::error_code ec;
    const auto status = fs::status(path, ec);
    if (fs::is_directory(status))
        return fail("cannot open the event archive: the path is a directory");
    if (readOnly && !fs::exists(status))
        return fail("cannot open the event archive: no such file");

    auto db = sqlite::Connection::open(path, readOnly ? sqlite::OpenMode::ReadOnly : sqlite::OpenMode::ReadWriteCreate,
                                       describe);
    if (!db)
        return fail("cannot open the event archive: " + db.error().message);
    if (!readOnly && db->readOnly())
        return fail("cannot write the event archive: the file, its directory or its disk is read-only");
    auto impl = std::make_unique<Impl>(Impl{path, readOnly, std::move(*db), {}, {}});
    // Identify the file before changing anything in it: a foreign file stays as it was.
    if (auto st = impl->checkSchema(); !st)
        return st.error();
    return EventArchive(std::move(impl));
}

Status EventArchive::append(std::span<const Event> events)
{
    Impl& d = *m_impl;
    if (d.readOnly)
        return d.error("the event archive was opened read-only");
    if (events.empty())
        return {};
    // An open connection goes on writing into a file that was deleted or renamed, and what it writes
    // is lost; a stat() per batch tells the caller, which can open the path again.
    if (const auto now = identityOf(d.path); !now || *now != d.file)
        return d.error(now ? "the event archive file was replaced since it was opened"
                           : "the event archive file was deleted or moved since it was opened");
    auto transaction = sqlite::Transaction::begin(d.db, sqlite::TransactionKind::Immediate);
    if (!transaction)
        return d.error("cannot write events: " + transaction.error().message);
    for (const Event& e : events) {
        bindEvent(d.insert, e);
        if (auto st = d.insert.run(); !st)
            return d.error("cannot write events: " + st.error().message); // rolls back
    }
    if (auto st = transaction->commit(); !st)
        return d.error("cannot write events: " + st.error().message);
    return {};
}

Result<std::vector<ArchivedEvent>> EventArchive::query(const EventFilter& filter) const
{
    Impl& d = *m_impl;
    const bool ofStream = !filter.stream.empty();
    const sqlite::Sql sql = ofStream ? (filter.newestFirst ? sqlite::Sql(kQueryStreamNewest.text) : kQueryStreamOldest.text)
                                     : (filter.newestFirst ? sqlite::Sql(kQueryNewest.text) : kQueryOldest.text);
    auto s = d.db.prepare(sql);
    if (!s)
        return d.error("cannot read events: " + s.error().message);
    const std::string pattern = containsPattern(filter.text); // bound text: lives until the last step
    s->bindInteger(1, filter.fromNs);
    s->bindInteger(2, filter.toNs);
    if (filter.minSeverity)
        s->bindInteger(3, static_cast<std::int64_t>(*filter.minSeverity));
    else
        s->bindNull(3);
    if (filter.kind)
        s->bindText(4, eventKindName(*filter.kind));
    else
        s->bindNull(4);
    if (ofStream)
        s->bindText(5, filter.stream);
    if (!filter.text.empty())
        s->bindText(6, pattern);
    else
        s->bindNull(6);
    constexpr std::int64_t kFarEnd = std::numeric_limits<std::int64_t>::max();
    const std::int64_t noPosition = filter.newestFirst ? kFarEnd : std::numeric_limits<std::int64_t>::min();
    s->bindInteger(7, filter.after ? filter.after->timeNs : noPosition);
    s->bindInteger(8, filter.after ? filter.after->id : noPosition);
    constexpr auto kMaxLimit = static_cast<std::size_t>(std::numeric_limits<std::int64_t>::max());
    s->bindInteger(9, static_cast<std::int64_t>(std::min(filter.limit, kMaxLimit)));

    std::vector<ArchivedEvent> out;
    while (s->next())
        out.push_back(readEvent(*s));
    if (!s->status())
        return d.error("cannot read events: " + s->status().error().message);
    return out;
}

Result<std::uint64_t> EventArchive::deleteOlderThan(std::int64_t cutoffNs)
{
    Impl& d = *m_impl;
    if (d.readOnly)
        return d.error("the event archive was opened read-only");
    auto s = d.db.prepare("DELETE FROM events WHERE time_ns < ?1");
    if (!s)
        return d.error("cannot delete old events: " + s.error().message);
    s->bindInteger(1, cutoffNs);
    if (auto st = s->run(); !st)
        return d.error("cannot delete old events: " + st.error().message);
    return static_cast<std::uint64_t>(d.db.changes());
}

Result<std::uint64_t> EventArchive::count() const
{
    auto n = m_impl->db.queryInteger("SELECT count(*) FROM events");
    if (!n)
        return m_impl->error("cannot count events: " + n.error().message);
    return static_cast<std::uint64_t>(*n);
}

const std::string& EventArchive::path() const noexcept
{
    return m_impl->path;
}

void writeCsv(std::span<const ArchivedEvent> events, std::ostream& out)
{
    out << "time,severity,kind,stream,packet type,parameter,detail,text,count,amount,value,limit,limit state,user\r\n";
    std::string line;
    for (const ArchivedEvent& a : events) {
        const Event& e = a.event;
        line.clear();
        const auto field = [&](std::string_view value, bool last = false) {
            appendCsvField(line, value);
            line += last ? "\r\n" : ",";
        };
        field(text::formatTimeNs(e.timeNs));
        field(severityName(e.severity));
        field(eventKindName(e.kind));
        field(e.stream);
        field(e.packetType);
        field(e.parameter);
        field(e.detail);
        field(e.text);
        field(std::to_string(e.count));
        field(std::to_string(e.amount));
        field(csvNumber(e.value));
        field(csvNumber(e.limit));
        field(e.limitState);
        field(e.user, true);
        out << line;
    }
}

} // namespace telestation::events
