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

constexpr char kSchema[] = R"sql(
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

bool isSegmentFileName(std::string_view file)
{
    return !file.empty() && file != "." && file != ".." && file.find('/') == std::string_view::npos
        && file.find('\0') == std::string_view::npos;
}

Status readSegmentRows(sqlite::Connection& db, SegmentRows rows, std::int64_t fromNs, std::int64_t toNs,
                       std::vector<SegmentInfo>& out)
{
    auto s = db.prepare("SELECT id, file, stream, sequence, first_time_ns, last_time_ns, packets, bytes, state, problem"
                        " FROM segment WHERE ?3 = 0 OR (packets > 0 AND first_time_ns <= ?2 AND last_time_ns >= ?1)"
                        " ORDER BY stream, sequence");
    if (!s)
        return s.error();
    s->bindInteger(1, fromNs);
    s->bindInteger(2, toNs);
    s->bindInteger(3, rows == SegmentRows::Overlapping ? 1 : 0);
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
        if (!isSegmentFileName(info.file)) {
            info.problem = "the catalog names '" + info.file + "', which is not a file in the recording directory";
            info.state = SegmentState::Damaged;
            info.packets = info.bytes = 0;
            info.firstTimeNs = info.lastTimeNs = 0;
        }
        out.push_back(std::move(info));
    }
    return s->status();
}

} // namespace detail

struct RecordingCatalog::Impl {
    std::string directory;
    std::string dbPath;
    sqlite::Connection db;
    std::vector<std::string> repairs; // what open() did to bring the catalog in line with the files

    Error error(std::string message) const { return Error{std::move(message), {dbPath, 0, 0}}; }

    Status exec(sqlite::Sql sql)
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
    std::vector<SegmentInfo> query(detail::SegmentRows rows, std::int64_t from, std::int64_t to)
    {
        std::vector<SegmentInfo> out;
        (void)detail::readSegmentRows(db, rows, from, to, out);
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

    static Result<std::unique_ptr<Impl>> openDatabase(const std::string& directory);
    Status checkPages();

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

namespace {

// SQLite's "not a database" and "corrupt" mark the file as damaged (detail::kDamagedCatalog), so that
// open() can tell a catalog to rebuild from one to refuse (another application's, a newer one).
std::string describeCatalogFailure(sqlite::Failure failure, const std::string& sqliteMessage)
{
    if (failure == sqlite::Failure::NotADatabase || failure == sqlite::Failure::Corrupt)
        return std::string(detail::kDamagedCatalog) + sqliteMessage;
    return sqliteMessage;
}

bool isDamage(const Error& error)
{
    return error.message.find(detail::kDamagedCatalog) != std::string::npos;
}

} // namespace

// Opens the database, identifies it, checks its pages, switches it to WAL and creates the schema in a
// new one. A damaged file fails with detail::kDamagedCatalog in the message.
Result<std::unique_ptr<RecordingCatalog::Impl>> RecordingCatalog::Impl::openDatabase(const std::string& directory)
{
    const std::string dbPath = (fs::path(directory) / detail::kCatalogFile).string();
    auto db = sqlite::Connection::open(dbPath, sqlite::OpenMode::ReadWriteCreate, describeCatalogFailure);
    if (!db)
        return Error{"cannot open the catalog: " + db.error().message, {dbPath, 0, 0}};
    auto impl = std::make_unique<Impl>(Impl{directory, dbPath, std::move(*db), {}});

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
        if (auto st = impl->checkPages(); !st)
            return st.error();
    }

    // WAL: the recorder's writes never wait for readers. synchronous=NORMAL: a commit is durable once
    // the WAL is checkpointed (a power loss may undo the last commits, never corrupt the file); open()
    // brings the catalog back in line with the segment files, which are the truth.
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
        static constexpr auto kCreate = sqlite::sqlJoin(kSchema, "PRAGMA application_id=",
            sqlite::sqlNumber<detail::kCatalogApplicationId>(), ";PRAGMA user_version=", sqlite::sqlNumber<kSchemaVersion>(), ";");
        auto transaction = sqlite::Transaction::begin(impl->db, sqlite::TransactionKind::Immediate);
        if (!transaction)
            return impl->error("cannot create the catalog: " + transaction.error().message);
        if (auto st = impl->db.exec(kCreate.text); !st)
            return impl->error("cannot create the catalog: " + st.error().message);
        if (auto st = transaction->commit(); !st)
            return impl->error("cannot create the catalog: " + st.error().message);
    }
    return impl;
}

// SQLite's quick check (every page, every index entry's row) — milliseconds for a catalog of thousands
// of segments. Garbage in a page that a query would only meet later shows up here.
Status RecordingCatalog::Impl::checkPages()
{
    auto s = db.prepare("PRAGMA quick_check(1)");
    if (!s)
        return error(s.error().message);
    if (!s->next())
        return error(s->status() ? std::string(detail::kDamagedCatalog) + "the integrity check gave no result"
                                 : s->status().error().message);
    if (const std::string verdict = s->text(0); verdict != "ok")
        return error(std::string(detail::kDamagedCatalog) + verdict);
    return {};
}

Result<std::unique_ptr<RecordingCatalog>> RecordingCatalog::open(const std::string& directory)
{
    std::error_code ec;
    fs::create_directories(directory, ec);
    if (ec)
        return Error{"cannot create the recording directory: " + ec.message(), {directory, 0, 0}};

    std::vector<std::string> repairs;
    detail::setAsideOrphanJournal(directory, repairs);
    auto impl = Impl::openDatabase(directory);
    if (!impl && isDamage(impl.error())) {
        if (auto st = detail::setAsideDamagedCatalog(directory, impl.error().message, repairs); !st)
            return st.error();
        impl = Impl::openDatabase(directory);
    }
    if (!impl)
        return impl.error();
    std::unique_ptr<RecordingCatalog> catalog(new RecordingCatalog(std::move(*impl)));
    if (auto st = detail::recoverOpen(*catalog, {}, repairs); !st)
        return st.error();
    if (auto st = detail::reconcileWithFiles(*catalog, repairs); !st)
        return st.error();
    catalog->m_impl->repairs = std::move(repairs);
    return catalog;
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

Status RecordingCatalog::removeSegment(std::int64_t id)
{
    Impl& d = *m_impl;
    auto s = d.db.prepare("DELETE FROM segment WHERE id = ?1"); // its per-APID rows go with it (cascade)
    if (!s)
        return d.error(s.error().message);
    s->bindInteger(1, id);
    if (auto st = s->run(); !st)
        return d.error("cannot remove segment " + std::to_string(id) + ": " + st.error().message);
    return {};
}

Status RecordingCatalog::recoverOpenSegments(const std::string& stream)
{
    std::vector<std::string> notes;
    return detail::recoverOpen(*this, stream, notes);
}

const std::vector<std::string>& RecordingCatalog::repairs() const noexcept
{
    return m_impl->repairs;
}

std::vector<SegmentInfo> RecordingCatalog::segments() const
{
    return m_impl->query({}, 0, 0);
}

std::vector<SegmentInfo> RecordingCatalog::segmentsBetween(std::int64_t fromNs, std::int64_t toNs) const
{
    // Segments without records have no time range and never overlap.
    return m_impl->query(detail::SegmentRows::Overlapping, fromNs, toNs);
}

const std::string& RecordingCatalog::directory() const noexcept
{
    return m_impl->directory;
}

} // namespace telestation::record
