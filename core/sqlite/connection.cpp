#include "core/sqlite/connection.hpp"

#include <sqlite3.h>

namespace telestation::sqlite {
namespace {

constexpr int kBusyTimeoutMs = 5000;

int flagsOf(OpenMode mode)
{
    switch (mode) {
    case OpenMode::ReadOnly:
        return SQLITE_OPEN_READONLY;
    case OpenMode::ReadWrite:
        return SQLITE_OPEN_READWRITE;
    case OpenMode::ReadWriteCreate:
        return SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE;
    }
    return SQLITE_OPEN_READONLY;
}

// "file:" URI of a path (URI syntax: '%', '?' and '#' escaped).
std::string fileUri(const std::string& path)
{
    std::string uri = "file:";
    for (const char c : path) {
        if (c == '%')
            uri += "%25";
        else if (c == '?')
            uri += "%3f";
        else if (c == '#')
            uri += "%23";
        else
            uri += c;
    }
    return uri;
}

} // namespace

void Connection::Closer::operator()(sqlite3* db) const
{
    sqlite3_close_v2(db);
}

Connection::Connection(sqlite3* db, Describe describe)
    : m_db(db)
    , m_describe(describe)
{ }

Connection::~Connection() = default;

Result<Connection> Connection::openWithFlags(const std::string& name, int flags, Describe describe)
{
    sqlite3* raw = nullptr;
    const int rc = sqlite3_open_v2(name.c_str(), &raw, flags, nullptr);
    Connection c(raw, describe); // closes the handle SQLite returns even on a failure
    if (rc != SQLITE_OK)
        return detail::error(raw, rc, describe);
    sqlite3_extended_result_codes(raw, 1);
    sqlite3_busy_timeout(raw, kBusyTimeoutMs);
    return c;
}

Result<Connection> Connection::open(const std::string& path, OpenMode mode, Describe describe)
{
    return openWithFlags(path, flagsOf(mode), describe);
}

Result<Connection> Connection::openImmutable(const std::string& path, Describe describe)
{
    return openWithFlags(fileUri(path) + "?immutable=1", SQLITE_OPEN_READONLY | SQLITE_OPEN_URI, describe);
}

Status Connection::exec(Sql sql)
{
    // An Sql is a NUL-terminated constant (sql.hpp), as sqlite3_exec wants.
    const int rc = sqlite3_exec(m_db.get(), sql.text().data(), nullptr, nullptr, nullptr);
    if (rc != SQLITE_OK)
        return detail::error(m_db.get(), rc, m_describe);
    return {};
}

Result<Statement> Connection::prepare(Sql sql)
{
    sqlite3_stmt* raw = nullptr;
    const int rc = sqlite3_prepare_v2(m_db.get(), sql.text().data(), static_cast<int>(sql.text().size()), &raw, nullptr);
    Statement stmt(m_db.get(), raw, m_describe);
    if (rc != SQLITE_OK)
        return detail::error(m_db.get(), rc, m_describe);
    return stmt;
}

Result<std::int64_t> Connection::queryInteger(Sql sql)
{
    auto stmt = prepare(sql);
    if (!stmt)
        return stmt.error();
    if (stmt->next())
        return stmt->integer(0);
    if (!stmt->status())
        return stmt->status().error();
    return Error { "no result from " + std::string(sql.text()), {} };
}

std::int64_t Connection::lastInsertRowId() const
{
    return sqlite3_last_insert_rowid(m_db.get());
}

std::int64_t Connection::changes() const
{
    return sqlite3_changes64(m_db.get());
}

bool Connection::readOnly() const
{
    return sqlite3_db_readonly(m_db.get(), "main") == 1;
}

} // namespace telestation::sqlite
