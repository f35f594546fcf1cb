// The recording catalog in SQLite (C API): one row per segment file, its per-APID counts in a second
// table. WAL journal, so that readers (playback, the GUI's recording browser) do not block the
// recorder thread's few writes (one per segment open, rollover and close).
#include "core/record/recording_catalog.hpp"

#include "core/record/record_detail.hpp"

#include <sqlite3.h>

#include <filesystem>
#include <string_view>
#include <system_error>
#include <utility>

namespace telestation::record {
namespace {

namespace fs = std::filesystem;

constexpr std::int32_t kApplicationId = 0x54535243; // 'TSRC', as the record sync word
constexpr int kSchemaVersion = 1;
constexpr const char* kCatalogFile = "catalog.sqlite";

constexpr std::string_view kSchema = R"sql(
CREATE TABLE segment (
    id            INTEGER PRIMARY KEY,
    file          TEXT NOT NULL UNIQUE,
    stream        TEXT NOT NULL,
    sequence      INTEGER NOT NULL CHECK (sequence >= 0),
    first_time_ns INTEGER NOT NULL,
    last_time_ns  INTEGER NOT NULL,
    packets       INTEGER NOT NULL CHECK (packets >= 0),
    bytes         INTEGER NOT NULL CHECK (bytes >= 0),
    state         TEXT NOT NULL CHECK (state IN ('OPEN', 'CLOSED', 'DAMAGED')),
    problem       TEXT NOT NULL,
    UNIQUE (stream, sequence)
) STRICT;
CREATE INDEX segment_time ON segment (first_time_ns, last_time_ns);
CREATE INDEX segment_state ON segment (state);
CREATE TABLE segment_apid (
    segment_id INTEGER NOT NULL REFERENCES segment (id) ON DELETE CASCADE,
    apid       INTEGER NOT NULL CHECK (apid BETWEEN 0 AND 65535),
    packets    INTEGER NOT NULL CHECK (packets >= 0),
    PRIMARY KEY (segment_id, apid)
) STRICT, WITHOUT ROWID;
)sql";

struct DbCloser {
    void operator()(sqlite3* db) const { sqlite3_close_v2(db); }
};
using DbHandle = std::unique_ptr<sqlite3, DbCloser>;

struct StmtFinalizer {
    void operator()(sqlite3_stmt* stmt) const { sqlite3_finalize(stmt); }
};
using StmtHandle = std::unique_ptr<sqlite3_stmt, StmtFinalizer>;

const char* stateCode(SegmentState state)
{
    switch (state) {
    case SegmentState::Open: return "OPEN";
    case SegmentState::Closed: return "CLOSED";
    case SegmentState::Damaged: return "DAMAGED";
    }
    return "DAMAGED";
}

SegmentState stateFromCode(std::string_view code)
{
    if (code == "OPEN")
        return SegmentState::Open;
    if (code == "CLOSED")
        return SegmentState::Closed;
    return SegmentState::Damaged;
}

// A thin statement wrapper: bind by position (1-based), step, read columns.
class Statement {
public:
    Statement(sqlite3* db, std::string_view sql) : m_db(db)
    {
        sqlite3_stmt* raw = nullptr;
        m_rc = sqlite3_prepare_v2(db, sql.data(), static_cast<int>(sql.size()), &raw, nullptr);
        m_stmt.reset(raw);
    }
    [[nodiscard]] bool prepared() const { return m_rc == SQLITE_OK && m_stmt; }
    void bind(int index, std::int64_t value) { sqlite3_bind_int64(m_stmt.get(), index, value); }
    void bind(int index, std::string_view text)
    {
        sqlite3_bind_text(m_stmt.get(), index, text.data(), static_cast<int>(text.size()), SQLITE_TRANSIENT);
    }
    // SQLITE_ROW, SQLITE_DONE or an error code.
    int step() { return m_rc = sqlite3_step(m_stmt.get()); }
    [[nodiscard]] std::int64_t integer(int column) const { return sqlite3_column_int64(m_stmt.get(), column); }
    [[nodiscard]] std::string text(int column) const
    {
        const auto* p = sqlite3_column_text(m_stmt.get(), column);
        return p ? std::string(reinterpret_cast<const char*>(p), static_cast<std::size_t>(sqlite3_column_bytes(m_stmt.get(), column)))
                 : std::string();
    }
    [[nodiscard]] std::string message() const { return sqlite3_errmsg(m_db); }
    void reset()
    {
        sqlite3_reset(m_stmt.get());
        sqlite3_clear_bindings(m_stmt.get());
    }

private:
    sqlite3* m_db;
    StmtHandle m_stmt;
    int m_rc = SQLITE_OK;
};

} // namespace

struct RecordingCatalog::Impl {
    std::string directory;
    std::string dbPath;
    DbHandle db;

    Error error(std::string message) const { return Error{std::move(message), {dbPath, 0, 0}}; }

    Status exec(std::string_view sql)
    {
        char* message = nullptr;
        const int rc = sqlite3_exec(db.get(), std::string(sql).c_str(), nullptr, nullptr, &message);
        if (rc == SQLITE_OK)
            return {};
        std::string text = message ? message : sqlite3_errstr(rc);
        sqlite3_free(message);
        return error(text);
    }

    Result<std::int64_t> pragmaInteger(const char* name)
    {
        Statement s(db.get(), std::string("PRAGMA ") + name);
        if (!s.prepared())
            return error(s.message());
        if (s.step() != SQLITE_ROW)
            return error(s.message());
        return s.integer(0);
    }

    Status writeApids(std::int64_t id, const std::map<std::uint16_t, std::uint64_t>& apids)
    {
        Statement del(db.get(), "DELETE FROM segment_apid WHERE segment_id = ?1");
        if (!del.prepared())
            return error(del.message());
        del.bind(1, id);
        if (del.step() != SQLITE_DONE)
            return error(del.message());
        Statement ins(db.get(), "INSERT INTO segment_apid (segment_id, apid, packets) VALUES (?1, ?2, ?3)");
        if (!ins.prepared())
            return error(ins.message());
        for (const auto& [apid, packets] : apids) {
            if (packets == 0)
                continue;
            ins.bind(1, id);
            ins.bind(2, apid);
            ins.bind(3, static_cast<std::int64_t>(packets));
            if (ins.step() != SQLITE_DONE)
                return error(ins.message());
            ins.reset();
        }
        return {};
    }

    std::vector<SegmentInfo> query(std::string_view where, std::int64_t from, std::int64_t to) const
    {
        std::vector<SegmentInfo> out;
        std::string sql = "SELECT id, file, stream, sequence, first_time_ns, last_time_ns, packets, bytes, state, problem "
                          "FROM segment ";
        sql += where;
        sql += " ORDER BY stream, sequence";
        Statement s(db.get(), sql);
        if (!s.prepared())
            return out;
        if (!where.empty()) {
            s.bind(1, from);
            s.bind(2, to);
        }
        while (s.step() == SQLITE_ROW) {
            SegmentInfo info;
            info.id = s.integer(0);
            info.file = s.text(1);
            info.streamName = s.text(2);
            info.sequence = static_cast<std::uint64_t>(s.integer(3));
            info.firstTimeNs = s.integer(4);
            info.lastTimeNs = s.integer(5);
            info.packets = static_cast<std::uint64_t>(s.integer(6));
            info.bytes = static_cast<std::uint64_t>(s.integer(7));
            info.state = stateFromCode(s.text(8));
            info.problem = s.text(9);
            out.push_back(std::move(info));
        }
        Statement apids(db.get(), "SELECT apid, packets FROM segment_apid WHERE segment_id = ?1");
        if (!apids.prepared())
            return out;
        for (auto& info : out) {
            apids.bind(1, info.id);
            while (apids.step() == SQLITE_ROW)
                info.apidPackets[static_cast<std::uint16_t>(apids.integer(0))] = static_cast<std::uint64_t>(apids.integer(1));
            apids.reset();
        }
        return out;
    }

    Status recoverOpenSegments();

    // Rewrites a segment's row and its per-APID counts in one transaction.
    Status update(const SegmentInfo& info)
    {
        if (auto st = exec("BEGIN IMMEDIATE"); !st)
            return st;
        auto rollback = [&](Error e) -> Status {
            (void)exec("ROLLBACK");
            return e;
        };
        Statement s(db.get(), "UPDATE segment SET file=?2, stream=?3, sequence=?4, first_time_ns=?5, last_time_ns=?6, "
                              "packets=?7, bytes=?8, state=?9, problem=?10 WHERE id=?1");
        if (!s.prepared())
            return rollback(error(s.message()));
        bindSegment(s, info);
        s.bind(1, info.id);
        if (s.step() != SQLITE_DONE)
            return rollback(error("cannot update segment " + info.file + ": " + s.message()));
        if (sqlite3_changes(db.get()) != 1)
            return rollback(error("no segment with id " + std::to_string(info.id)));
        if (auto st = writeApids(info.id, info.apidPackets); !st)
            return rollback(st.error());
        return exec("COMMIT");
    }

    // Parameters 2..10: the columns after id.
    static void bindSegment(Statement& s, const SegmentInfo& info)
    {
        s.bind(2, info.file);
        s.bind(3, info.streamName);
        s.bind(4, static_cast<std::int64_t>(info.sequence));
        s.bind(5, info.firstTimeNs);
        s.bind(6, info.lastTimeNs);
        s.bind(7, static_cast<std::int64_t>(info.packets));
        s.bind(8, static_cast<std::int64_t>(info.bytes));
        s.bind(9, stateCode(info.state));
        s.bind(10, info.problem);
    }
};

RecordingCatalog::RecordingCatalog(std::unique_ptr<Impl> impl) : m_impl(std::move(impl)) {}
RecordingCatalog::~RecordingCatalog() = default;

Result<std::unique_ptr<RecordingCatalog>> RecordingCatalog::open(const std::string& directory)
{
    auto impl = std::make_unique<Impl>();
    impl->directory = directory;
    impl->dbPath = (fs::path(directory) / kCatalogFile).string();
    std::error_code ec;
    fs::create_directories(directory, ec);
    if (ec)
        return Error{"cannot create the recording directory: " + ec.message(), {directory, 0, 0}};

    sqlite3* raw = nullptr;
    const int rc = sqlite3_open_v2(impl->dbPath.c_str(), &raw, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, nullptr);
    impl->db.reset(raw);
    if (rc != SQLITE_OK)
        return impl->error(std::string("cannot open the catalog: ") + (raw ? sqlite3_errmsg(raw) : sqlite3_errstr(rc)));
    sqlite3_extended_result_codes(raw, 1);
    sqlite3_busy_timeout(raw, 5000);

    // Identify the file before changing anything in it.
    auto appId = impl->pragmaInteger("application_id");
    if (!appId)
        return impl->error("not a recording catalog: " + appId.error().message);
    auto tables = [&]() -> Result<std::int64_t> {
        Statement s(impl->db.get(), "SELECT count(*) FROM sqlite_schema");
        if (!s.prepared() || s.step() != SQLITE_ROW)
            return impl->error("not a recording catalog: " + s.message());
        return s.integer(0);
    }();
    if (!tables)
        return tables.error();
    const bool fresh = *appId == 0 && *tables == 0;
    if (!fresh && *appId != kApplicationId)
        return impl->error("not a recording catalog (application_id " + std::to_string(*appId) + ")");
    if (!fresh) {
        auto version = impl->pragmaInteger("user_version");
        if (!version)
            return version.error();
        if (*version > kSchemaVersion)
            return impl->error("the catalog has schema version " + std::to_string(*version) + ", newer than this program's "
                               + std::to_string(kSchemaVersion));
        if (*version < 1)
            return impl->error("the catalog has no schema version");
    }

    // WAL: the recorder's writes never wait for readers. synchronous=NORMAL is durable enough in WAL
    // mode for a catalog that recovery can rebuild from the files' own contents.
    {
        Statement s(impl->db.get(), "PRAGMA journal_mode=WAL");
        if (!s.prepared() || s.step() != SQLITE_ROW)
            return impl->error("cannot switch to WAL: " + s.message());
        if (s.text(0) != "wal")
            return impl->error("cannot switch to WAL (journal mode stays " + s.text(0) + ")");
    }
    if (auto st = impl->exec("PRAGMA synchronous=NORMAL; PRAGMA foreign_keys=ON"); !st)
        return st.error();
    if (fresh) {
        std::string sql = "BEGIN IMMEDIATE;";
        sql += kSchema;
        sql += "PRAGMA application_id=" + std::to_string(kApplicationId) + ";";
        sql += "PRAGMA user_version=" + std::to_string(kSchemaVersion) + ";";
        sql += "COMMIT;";
        if (auto st = impl->exec(sql); !st) {
            (void)impl->exec("ROLLBACK");
            return impl->error("cannot create the catalog: " + st.error().message);
        }
    }
    if (auto st = impl->recoverOpenSegments(); !st)
        return st.error();
    return std::unique_ptr<RecordingCatalog>(new RecordingCatalog(std::move(impl)));
}

Status RecordingCatalog::Impl::recoverOpenSegments()
{
    std::vector<SegmentInfo> open;
    for (auto& info : query({}, 0, 0))
        if (info.state == SegmentState::Open)
            open.push_back(std::move(info));
    for (auto& info : open) {
        const std::string path = (fs::path(directory) / info.file).string();
        auto summary = detail::summarizeSegment(path);
        if (!summary) {
            info.state = SegmentState::Damaged;
            info.problem = "recovery: " + summary.error().toString();
            info.packets = 0;
            info.apidPackets.clear();
            info.firstTimeNs = info.lastTimeNs = 0;
            std::error_code ec;
            const auto size = fs::file_size(path, ec);
            info.bytes = ec ? 0 : size;
        } else {
            const auto& scan = summary->scan;
            info.packets = scan.records;
            info.firstTimeNs = summary->firstTimeNs;
            info.lastTimeNs = summary->lastTimeNs;
            info.bytes = summary->fileSize;
            info.apidPackets = summary->apidPackets;
            switch (scan.end) {
            case SegmentEnd::Clean:
                info.state = SegmentState::Closed;
                info.problem = "recovered after an unclean shutdown";
                break;
            case SegmentEnd::TruncatedRecord:
                info.state = SegmentState::Closed;
                info.problem = "recovered after an unclean shutdown; truncated last record: " + scan.problem;
                break;
            case SegmentEnd::Damaged:
                info.state = SegmentState::Damaged;
                info.problem = "recovered after an unclean shutdown; damaged: " + scan.problem;
                break;
            }
        }
        if (auto st = update(info); !st)
            return st;
    }
    return {};
}

Result<std::int64_t> RecordingCatalog::addSegment(const SegmentInfo& info)
{
    Impl& d = *m_impl;
    if (auto st = d.exec("BEGIN IMMEDIATE"); !st)
        return st.error();
    Statement s(d.db.get(), "INSERT INTO segment (file, stream, sequence, first_time_ns, last_time_ns, packets, bytes, state, "
                            "problem) VALUES (?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10)");
    if (!s.prepared()) {
        auto e = d.error(s.message());
        (void)d.exec("ROLLBACK");
        return e;
    }
    Impl::bindSegment(s, info);
    if (s.step() != SQLITE_DONE) {
        auto e = d.error("cannot add segment " + info.file + ": " + s.message());
        (void)d.exec("ROLLBACK");
        return e;
    }
    const std::int64_t id = sqlite3_last_insert_rowid(d.db.get());
    if (auto st = d.writeApids(id, info.apidPackets); !st) {
        (void)d.exec("ROLLBACK");
        return st.error();
    }
    if (auto st = d.exec("COMMIT"); !st)
        return st.error();
    return id;
}

Status RecordingCatalog::updateSegment(const SegmentInfo& info)
{
    return m_impl->update(info);
}

std::vector<SegmentInfo> RecordingCatalog::segments() const
{
    return m_impl->query({}, 0, 0);
}

std::vector<SegmentInfo> RecordingCatalog::segmentsBetween(std::int64_t fromNs, std::int64_t toNs) const
{
    // Segments without records have no time range and never overlap.
    return m_impl->query("WHERE packets > 0 AND first_time_ns <= ?2 AND last_time_ns >= ?1", fromNs, toNs);
}

const std::string& RecordingCatalog::directory() const noexcept
{
    return m_impl->directory;
}

} // namespace telestation::record
