#include "core/sqlite/error.hpp"

#include <sqlite3.h>

namespace telestation::sqlite::detail {
namespace {

Failure failureOf(int rc)
{
    switch (rc & 0xFF) { // the primary code of an extended one
    case SQLITE_NOTADB:
        return Failure::NotADatabase;
    case SQLITE_CORRUPT:
        return Failure::Corrupt;
    case SQLITE_READONLY:
        return Failure::ReadOnly;
    case SQLITE_BUSY:
    case SQLITE_LOCKED:
        return Failure::Busy;
    default:
        return Failure::Other;
    }
}

} // namespace

Error error(sqlite3* db, int rc, Describe describe)
{
    std::string message = db != nullptr ? sqlite3_errmsg(db) : sqlite3_errstr(rc);
    if (describe != nullptr)
        message = describe(failureOf(rc), message);
    return Error { std::move(message), {} };
}

} // namespace telestation::sqlite::detail
