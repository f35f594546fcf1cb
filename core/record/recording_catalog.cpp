// The recording catalog in SQLite: one row per segment file, its per-APID counts in a second
// table. WAL journal, so that readers (playback, the GUI's recording browser) do not block the
// recorder thread's few writes (one per segment open, rollover and close).
#include "core/record/recording_catalog.hpp"

#include "core/record/catalog_detail.hpp"
#include "core/record/record_detail.hpp"
#include "core/sqlite/transaction.hpp"

#include <filesystem>
#include <string_view>
#include <system_error>
#include <utility>

namespace telestation::record {
namespace {

namespace fs = std::filesystem;

constexpr int kSchemaVersion = 1;

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

std::string_view stateCode(SegmentState state)
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

// Parameters 2..10: the columns after id. The text stays valid until the statement runs.
void bindSegment(sqlite::Statement& s, const SegmentInfo& info)
{
    s.bindText(2, info.file);
    s.bindText(3, info.streamName);
    s.bindInteger(4, static_cast<std::int64_t>(info.sequence));
    s.bindInteger(5, info.firstTimeNs);
    s.bindInteger(6, info.lastTimeNs);
    s.bindInteger(7, static_cast<std::int64_t>(info.packets));
    s.bindInteger(8, static_cast<std::int64_t>(info.bytes));
    s.bindText(9, stateCode(info.state));
    s.bindText(10, info.problem);
}

} // namespace

namespace detail {

Result<std::string> segmentPath(std::string_view directory, std::string_view file)
{
    if (file.empty() || file == "." || file == ".." || file.find_first_of(std::string_view("/\0", 2)) != std::string_view::npos)
        return Error{"'" + std::string(file) + "' is not a file name in the recording directory", {}};
    return (fs::path(directory) / file).string();
}

Status readSegmentRows(sqlite::Connection& db, std::string_view where, std::int64_t fromNs, std::int64_t toNs,
                       std::vector<SegmentInfo>& out)
{
    std::string sql = "SELECT id, file, stream, sequence, first_time_ns, last_time_ns, packets, bytes, state, problem "
                      "FROM segment ";
    sql += where;
    sql += " ORDER BY stream, sequence";
    auto s = db.prepare(sql);
    if (!s)
        return s.error();
    if (!where.empty()) {
        s->bindInteger(1, fromNs);
        s->bindInteger(2, toNs);
    }
    while (s->next()) {
        SegmentInfo info;
        info.id = s->integer(0);
        info.file = s->text(1);
        info.streamName = s->text(2);
        info.sequence = static_cast<std::uint64_t>(s->integer(3));
        info.firstTimeNs = s->integer(4);
        info.lastTimeNs = s->integer(5);
        info.packets = static_cast<std::uint64_t>(s->integer(6));
        info.bytes = static_cast<std::uint64_t>(s->integer(7));
        info.state = stateFromCode(s->text(8));
        info.problem = s->text(9);
        out.push_back(std::move(info));
    }
    return s->status();
}

} // namespace detail

struct RecordingCatalog::Impl {
    std::string directory;
    std::string dbPath;
    sqlite::Connection db;

    Error error(std::string message) const { return Error{std::move(message), {dbPath, 0, 0}}; }

    Status exec(std::string_view sql)
    {
        if (auto st = db.exec(sql); !st)
            return error(st.error().message);
        return {};
    }

    Status writeApids(std::int64_t id, const std::map<std::uint16_t, std::uint64_t>& apids)
    {
        auto del = db.prepare("DELETE FROM segment_apid WHERE segment_id = ?1");
        if (!del)
            return error(del.error().message);
        del->bindInteger(1, id);
        if (auto st = del->run(); !st)
            return error(st.error().message);
        auto ins = db.prepare("INSERT INTO segment_apid (segment_id, apid, packets) VALUES (?1, ?2, ?3)");
        if (!ins)
            return error(ins.error().message);
        for (const auto& [apid, packets] : apids) {
            if (packets == 0)
                continue;
            ins->bindInteger(1, id);
            ins->bindInteger(2, apid);
            ins->bindInteger(3, static_cast<std::int64_t>(packets));
            if (auto st = ins->run(); !st)
                return error(st.error().message);
        }
        return {};
    }

    // Errors are not reported: a catalog that cannot be read lists what it could read.
    std::vector<SegmentInfo> query(std::string_view where, std::int64_t from, std::int64_t to)
    {
        std::vector<SegmentInfo> out;
        (void)detail::readSegmentRows(db, where, from, to, out);
        auto apids = db.prepare("SELECT apid, packets FROM segment_apid WHERE segment_id = ?1");
        if (!apids)
            return out;
        for (auto& info : out) {
            apids->bindInteger(1, info.id);
            while (apids->next())
                info.apidPackets[static_cast<std::uint16_t>(apids->integer(0))] = static_cast<std::uint64_t>(apids->integer(1));
            apids->reset();
        }
        return out;
    }

    Status recoverOpenSegments();

    // Rewrites a segment's row and its per-APID counts in one transaction.
    Status update(const SegmentInfo& info)
    {
        auto transaction = sqlite::Transaction::begin(db, sqlite::TransactionKind::Immediate);
        if (!transaction)
            return error(transaction.error().message);
        auto s = db.prepare("UPDATE segment SET file=?2, stream=?3, sequence=?4, first_time_ns=?5, last_time_ns=?6, "
                            "packets=?7, bytes=?8, state=?9, problem=?10 WHERE id=?1");
        if (!s)
            return error(s.error().message);
        bindSegment(*s, info);
        s->bindInteger(1, info.id);
        if (auto st = s->run(); !st)
            return error("cannot update segment " + info.file + ": " + st.error().message);
        if (db.changes() != 1)
            return error("no segment with id " + std::to_string(info.id));
        if (auto st = writeApids(info.id, info.apidPackets); !st)
            return st;
        if (auto st = transaction->commit(); !st)
            return error(st.error().message);
        return {};
    }
};

RecordingCatalog::RecordingCatalog(std::unique_ptr<Impl> impl) : m_impl(std::move(impl)) {}
RecordingCatalog::~RecordingCatalog() = default;

Result<std::unique_ptr<RecordingCatalog>> RecordingCatalog::open(const std::string& directory)
{
    const std::string dbPath = (fs::path(directory) / detail::kCatalogFile).string();
    std::error_code ec;
    fs::create_directories(directory, ec);
    if (ec)
        return Error{"cannot create the recording directory: " + ec.message(), {directory, 0, 0}};

    auto db = sqlite::Connection::open(dbPath, sqlite::OpenMode::ReadWriteCreate);
    if (!db)
        return Error{"cannot open the catalog: " + db.error().message, {dbPath, 0, 0}};
    auto impl = std::make_unique<Impl>(Impl{directory, dbPath, std::move(*db)});

    // Identify the file before changing anything in it.
    auto appId = impl->db.queryInteger("PRAGMA application_id");
    if (!appId)
        return impl->error("not a recording catalog: " + appId.error().message);
    auto tables = impl->db.queryInteger("SELECT count(*) FROM sqlite_schema");
    if (!tables)
        return impl->error("not a recording catalog: " + tables.error().message);
    const bool fresh = *appId == 0 && *tables == 0;
    if (!fresh && *appId != detail::kCatalogApplicationId)
        return impl->error("not a recording catalog (application_id " + std::to_string(*appId) + ")");
    if (!fresh) {
        auto version = impl->db.queryInteger("PRAGMA user_version");
        if (!version)
            return impl->error(version.error().message);
        if (*version > kSchemaVersion)
            return impl->error("the catalog has schema version " + std::to_string(*version) + ", newer than this program's "
                               + std::to_string(kSchemaVersion));
        if (*version < 1)
            return impl->error("the catalog has no schema version");
    }

    // WAL: the recorder's writes never wait for readers. synchronous=NORMAL is durable enough in WAL
    // mode for a catalog that recovery can rebuild from the files' own contents.
    {
        auto s = impl->db.prepare("PRAGMA journal_mode=WAL");
        if (!s)
            return impl->error("cannot switch to WAL: " + s.error().message);
        if (!s->next()) {
            const std::string why = s->status() ? std::string("no result") : s->status().error().message;
            return impl->error("cannot switch to WAL: " + why);
        }
        if (s->text(0) != "wal")
            return impl->error("cannot switch to WAL (journal mode stays " + s->text(0) + ")");
    }
    if (auto st = impl->exec("PRAGMA synchronous=NORMAL; PRAGMA foreign_keys=ON"); !st)
        return st.error();
    if (fresh) {
        std::string sql(kSchema);
        sql += "PRAGMA application_id=" + std::to_string(detail::kCatalogApplicationId) + ";";
        sql += "PRAGMA user_version=" + std::to_string(kSchemaVersion) + ";";
        auto transaction = sqlite::Transaction::begin(impl->db, sqlite::TransactionKind::Immediate);
        if (!transaction)
            return impl->error("cannot create the catalog: " + transaction.error().message);
        if (auto st = impl->db.exec(sql); !st)
            return impl->error("cannot create the catalog: " + st.error().message);
        if (auto st = transaction->commit(); !st)
            return impl->error("cannot create the catalog: " + st.error().message);
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
        const auto path = detail::segmentPath(directory, info.file);
        auto summary = path ? detail::summarizeSegment(*path) : Result<detail::SegmentSummary>(path.error());
        if (!summary) {
            info.state = SegmentState::Damaged;
            info.problem = "recovery: " + summary.error().toString();
            info.packets = 0;
            info.apidPackets.clear();
            info.firstTimeNs = info.lastTimeNs = 0;
            std::error_code ec;
            const auto size = path ? fs::file_size(*path, ec) : 0;
            info.bytes = ec ? 0 : size;
        } else {
            const auto& scan = summary->scan;
            detail::setFromSummary(info, *summary);
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
    auto transaction = sqlite::Transaction::begin(d.db, sqlite::TransactionKind::Immediate);
    if (!transaction)
        return d.error(transaction.error().message);
    auto s = d.db.prepare("INSERT INTO segment (file, stream, sequence, first_time_ns, last_time_ns, packets, bytes, "
                          "state, problem) VALUES (?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10)");
    if (!s)
        return d.error(s.error().message);
    bindSegment(*s, info);
    if (auto st = s->run(); !st)
        return d.error("cannot add segment " + info.file + ": " + st.error().message);
    const std::int64_t id = d.db.lastInsertRowId();
    if (auto st = d.writeApids(id, info.apidPackets); !st)
        return st.error();
    if (auto st = transaction->commit(); !st)
        return d.error(st.error().message);
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
