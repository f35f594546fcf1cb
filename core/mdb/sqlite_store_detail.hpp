// What the parts of the SQLite store give each other; internal to sqlite_*.cpp, not part of the
// module's API. sqlite_store.cpp recognises files and runs loads and saves (the public functions);
// sqlite_schema.cpp owns the DDL, the schema version and the upgrade of older files; sqlite_load.cpp
// reads the tables into the model; sqlite_save.cpp writes the model into the tables.
#pragma once

#include "core/common/result.hpp"
#include "core/mdb/model.hpp"
#include "core/sqlite/connection.hpp"

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>

namespace telestation::mdb::detail {

// An error without a location yet: the public functions add the file name.
[[nodiscard]] inline Error fail(std::string message)
{
    return Error { std::move(message), {} };
}

// ---- Schema (sqlite_schema.cpp) -------------------------------------------------------------------

// The DDL of schema version kSchemaVersion, without the PRAGMAs.
[[nodiscard]] sqlite::Sql currentSchemaDdl();

// What a file says about itself, read without changing it.
struct FileInfo {
    std::int32_t applicationId = 0;
    int userVersion = 0;
    bool hasTables = false; // any table (or view) at all
    bool hasMissionTables = false; // mission, packet and parameter
};

[[nodiscard]] Result<FileInfo> inspect(sqlite::Connection& c);
// Not ours at all: another application's database, or an SQLite database without our tables.
[[nodiscard]] std::optional<Error> foreignDatabase(const FileInfo& info);
// Why a file that is ours cannot be loaded by this build (after an upgrade if older); nothing if it can.
[[nodiscard]] std::optional<Error> unloadable(const FileInfo& info);
// Upgrades an older schema to kSchemaVersion in place, in one transaction.
[[nodiscard]] Status upgrade(sqlite::Connection& c);

// ---- Load and save (sqlite_load.cpp, sqlite_save.cpp) ---------------------------------------------

// Checks the file's integrity and reads every table into the model; inside the caller's transaction.
[[nodiscard]] Result<MissionDatabase> readDatabase(sqlite::Connection& c);
// Drops whatever the file holds, creates the tables and writes the model; inside the caller's
// transaction, with foreign keys deferred to its commit.
[[nodiscard]] Status writeDatabase(sqlite::Connection& c, const MissionDatabase& db);

} // namespace telestation::mdb::detail
