// How the SQLite wrapper reports failures: as the project's Error, with SQLite's own message. A caller
// that words some failures for its users (a mission database that is "not an SQLite file", "locked by
// another program") passes a Describe function when it opens the connection.
#pragma once

#include "core/common/result.hpp"

#include <string>

struct sqlite3; // the C API's connection handle (sqlite3.h), so that users need not include it

namespace telestation::sqlite {

// The kinds of failure callers tell their users apart; everything else is Other.
enum class Failure { Other, NotADatabase, Corrupt, ReadOnly, Busy };

// Turns SQLite's message for a failure into the message of the Error. nullptr: SQLite's message as is.
using Describe = std::string (*)(Failure failure, const std::string& sqliteMessage);

namespace detail {
// The Error for result code `rc` on `db` (which may be null, after a failed open).
[[nodiscard]] Error error(sqlite3* db, int rc, Describe describe);
} // namespace detail

} // namespace telestation::sqlite
