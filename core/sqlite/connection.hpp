// A connection to one SQLite database file: open, run SQL, prepare statements. Every failure is an
// Error with SQLite's message (worded by the Describe function given to open(), if any). Extended
// result codes are on, and a connection waits up to 5 s for another one's lock before it fails.
#pragma once

#include "core/common/result.hpp"
#include "core/sqlite/error.hpp"
#include "core/sqlite/sql.hpp"
#include "core/sqlite/statement.hpp"

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>

namespace telestation::sqlite {

enum class OpenMode { ReadOnly, ReadWrite, ReadWriteCreate };

class Connection {
public:
    [[nodiscard]] static Result<Connection> open(const std::string& path, OpenMode mode, Describe describe = nullptr);
    // Read-only and without any locking or journal (URI parameter immutable=1): for a database on
    // read-only media that SQLite cannot open otherwise (a WAL database without its -shm file). Only
    // for files nobody changes while they are open.
    [[nodiscard]] static Result<Connection> openImmutable(const std::string& path, Describe describe = nullptr);

    Connection(Connection&&) noexcept = default;
    Connection& operator=(Connection&&) noexcept = default;
    ~Connection();

    // Runs one or more statements that return nothing worth reading (DDL, PRAGMAs, BEGIN ...).
    // The SQL is text written into the program (sql.hpp): values go in only as bound parameters.
    [[nodiscard]] Status exec(Sql sql);
    [[nodiscard]] Result<Statement> prepare(Sql sql);
    // The first column of the first row of a query such as "PRAGMA user_version".
    [[nodiscard]] Result<std::int64_t> queryInteger(Sql sql);

    // The rowid of the latest successful INSERT on this connection.
    [[nodiscard]] std::int64_t lastInsertRowId() const;
    // How many rows the latest INSERT, UPDATE or DELETE changed.
    [[nodiscard]] std::int64_t changes() const;
    // True when SQLite opened the file read-only (also when asked for read-write but the file or its
    // directory is not writable).
    [[nodiscard]] bool readOnly() const;

private:
    struct Closer {
        void operator()(sqlite3* db) const;
    };

    Connection(sqlite3* db, Describe describe);
    static Result<Connection> openWithFlags(const std::string& name, int flags, Describe describe);

    std::unique_ptr<sqlite3, Closer> m_db;
    Describe m_describe = nullptr;
};

} // namespace telestation::sqlite
