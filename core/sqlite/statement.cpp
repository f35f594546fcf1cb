#include "core/sqlite/statement.hpp"

#include <sqlite3.h>

#include <cmath>
#include <limits>

namespace telestation::sqlite {

void Statement::Finalizer::operator()(sqlite3_stmt* stmt) const
{
    sqlite3_finalize(stmt);
}

Statement::Statement(sqlite3* db, sqlite3_stmt* stmt, Describe describe)
    : m_db(db)
    , m_stmt(stmt)
    , m_describe(describe)
{ }

Statement::~Statement() = default;

void Statement::bindFailed(std::string message)
{
    if (m_status)
        m_status = Error { std::move(message), {} };
}

void Statement::check(int rc)
{
    if (rc != SQLITE_OK && m_status)
        m_status = detail::error(m_db, rc, m_describe);
}

void Statement::bindInteger(int index, std::int64_t value)
{
    check(sqlite3_bind_int64(m_stmt.get(), index, value));
}

void Statement::bindReal(int index, double value)
{
    if (std::isnan(value))
        bindFailed("NaN cannot be stored");
    check(sqlite3_bind_double(m_stmt.get(), index, value));
}

void Statement::bindText(int index, std::string_view value)
{
    if (value.size() > static_cast<std::size_t>(std::numeric_limits<int>::max())) {
        bindFailed("text too long");
        check(sqlite3_bind_null(m_stmt.get(), index));
        return;
    }
    // SQLITE_STATIC: not copied; the caller keeps the text until the step.
    check(sqlite3_bind_text(m_stmt.get(), index, value.data(), static_cast<int>(value.size()), SQLITE_STATIC));
}

void Statement::bindNull(int index)
{
    check(sqlite3_bind_null(m_stmt.get(), index));
}

bool Statement::next()
{
    if (!m_status)
        return false;
    const int rc = sqlite3_step(m_stmt.get());
    if (rc == SQLITE_ROW)
        return true;
    if (rc != SQLITE_DONE)
        m_status = detail::error(m_db, rc, m_describe);
    return false;
}

Status Statement::run()
{
    if (m_status) {
        if (const int rc = sqlite3_step(m_stmt.get()); rc != SQLITE_DONE)
            m_status = detail::error(m_db, rc, m_describe);
    }
    Status result = std::move(m_status);
    reset();
    return result;
}

void Statement::reset()
{
    sqlite3_reset(m_stmt.get());
    sqlite3_clear_bindings(m_stmt.get());
    m_status = Status();
}

ColumnType Statement::type(int column) const
{
    switch (sqlite3_column_type(m_stmt.get(), column)) {
    case SQLITE_INTEGER:
        return ColumnType::Integer;
    case SQLITE_FLOAT:
        return ColumnType::Real;
    case SQLITE_TEXT:
        return ColumnType::Text;
    case SQLITE_BLOB:
        return ColumnType::Blob;
    default:
        return ColumnType::Null;
    }
}

std::int64_t Statement::integer(int column) const
{
    return sqlite3_column_int64(m_stmt.get(), column);
}

double Statement::real(int column) const
{
    return sqlite3_column_double(m_stmt.get(), column);
}

std::string Statement::text(int column) const
{
    const auto* data = sqlite3_column_text(m_stmt.get(), column);
    if (data == nullptr)
        return {};
    return std::string(reinterpret_cast<const char*>(data),
        static_cast<std::size_t>(sqlite3_column_bytes(m_stmt.get(), column)));
}

std::string Statement::columnName(int column) const
{
    const char* name = sqlite3_column_name(m_stmt.get(), column);
    return name != nullptr ? name : std::string();
}

} // namespace telestation::sqlite
