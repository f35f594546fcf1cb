// The mission database stored in SQLite (*.mdb): the form the station loads. Written in one
// transaction, versioned with PRAGMA user_version, marked with PRAGMA application_id, and upgraded in
// place when an older Telestation wrote it. The schema and its history are described in
// docs/mission-database.md ("SQLite storage").
#pragma once

#include "core/common/result.hpp"
#include "core/mdb/model.hpp"

#include <cstdint>
#include <string>

namespace telestation::mdb {

// The schema version this build writes, and the newest it reads.
inline constexpr int kSchemaVersion = 3;
// 'TSMD' in PRAGMA application_id marks a mission database (set since schema version 2).
inline constexpr std::int32_t kApplicationId = 0x54534D44;

// Opens the file, upgrades an older schema in place (one transaction), loads everything.
// Errors (always naming the file): not found, not an SQLite file, an SQLite file that is not a mission
// database, a schema newer than kSchemaVersion, a corrupt file, rows that violate the model, an old
// schema in a file that is read-only (it cannot be upgraded).
[[nodiscard]] Result<MissionDatabase> loadDatabase(const std::string& path);

// Creates the file or replaces its whole content, in one transaction: on any failure the file is left
// as it was (a file that did not exist before is removed again). Refuses to overwrite an existing file
// that is neither empty nor a mission database, and a file whose permissions have no write bit.
[[nodiscard]] Status saveDatabase(const MissionDatabase& db, const std::string& path);

// The schema version of a file without loading or upgrading it: 0 for an empty new file (0 bytes, or
// an SQLite database with no tables), and also a version newer than kSchemaVersion (for the caller to
// report). Errors: not found, not an SQLite file, not a mission database, corrupt.
[[nodiscard]] Result<int> schemaVersion(const std::string& path);

// True when the file starts with the 16-byte SQLite header ("SQLite format 3\0"); false when it does
// not, is shorter, or cannot be read. Lets tools decide between *.mdb and *.tdef by content.
[[nodiscard]] bool hasSqliteHeader(const std::string& path);

} // namespace telestation::mdb
