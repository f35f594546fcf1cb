// A prepared SQLite statement: typed binds, stepping, typed reads of the current row. Made by
// Connection::prepare; prepare once, then bind, step and reset as often as needed — the wrapper adds no
// allocation to binding and stepping (an error message allocates).
#pragma once

#include "core/common/result.hpp"
#include "core/sqlite/error.hpp"

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>

struct sqlite3_stmt;

namespace telestation::sqlite {

enum class ColumnType { Integer, Real, Text, Blob, Null };

class Statement {
public:
    Statement() = default; // empty, to assign a prepared one to
    Statement(Statement&&) noexcept = default;
    Statement& operator=(Statement&&) noexcept = default;
    ~Statement();

    // Parameters are numbered from 1 (?1, ?2, ...). Text is not copied: it must stay valid until the
    // statement is stepped. A failed bind (an index out of range; a NaN, which SQLite would store as
    // NULL; text longer than SQLite takes) is kept: the next next() or run() fails with it, without
    // running the statement.
    void bindInteger(int index, std::int64_t value);
    void bindReal(int index, double value);
    void bindText(int index, std::string_view value);
    void bindNull(int index);

    // Steps to the next row: true when there is one to read; false at the end or on a failure, which
    // status() tells apart.
    [[nodiscard]] bool next();
    // The first failure since the last reset (a bind or a step), or success.
    [[nodiscard]] const Status& status() const noexcept { return m_status; }
    // For a statement that returns no rows: steps it once, then resets it for the next binds.
    [[nodiscard]] Status run();
    // Back to the start with no parameters bound; forgets the failure.
    void reset();

    // The current row, columns numbered from 0. Text is empty for NULL.
    [[nodiscard]] ColumnType type(int column) const;
    [[nodiscard]] bool isNull(int column) const { return type(column) == ColumnType::Null; }
    [[nodiscard]] std::int64_t integer(int column) const;
    [[nodiscard]] double real(int column) const;
    [[nodiscard]] std::string text(int column) const;
    [[nodiscard]] std::string columnName(int column) const;

private:
    friend class Connection;
    struct Finalizer {
        void operator()(sqlite3_stmt* stmt) const;
    };

    Statement(sqlite3* db, sqlite3_stmt* stmt, Describe describe);
    void bindFailed(std::string message);
    void check(int rc);

    sqlite3* m_db = nullptr;
    std::unique_ptr<sqlite3_stmt, Finalizer> m_stmt;
    Describe m_describe = nullptr;
    Status m_status;
};

} // namespace telestation::sqlite
