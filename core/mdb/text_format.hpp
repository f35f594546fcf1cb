// The mission database text definition language (*.tdef): import with file:line:column diagnostics,
// and export in the canonical form. The language is specified in docs/mission-database.md.
#pragma once

#include "core/common/diagnostic.hpp"
#include "core/common/result.hpp"
#include "core/mdb/model.hpp"

#include <string>
#include <string_view>

namespace telestation::mdb {

struct ImportResult {
    // What was read. After a parse error it holds what could be read, for information only.
    MissionDatabase database;
    Diagnostics diagnostics; // errors and warnings, each with file:line:column
    [[nodiscard]] bool ok() const { return !hasErrors(diagnostics); }
};

// Parses the definition language and, when it parsed without error, validates the result; each
// validation issue is reported at the line/column of the PACKET or PARAMETER line it concerns.
// Parsing goes on after an error line, so that one run reports a file's errors (up to 100).
// Never throws.
[[nodiscard]] ImportResult parseText(std::string_view text, std::string_view fileName = "<string>");

// Reads and parses a file; an unreadable file gives one error naming the path.
[[nodiscard]] ImportResult readTextFile(const std::string& path);

// The canonical form: upper-case keywords, two spaces of indentation per level, attributes in the
// documented order, defaults left out, reals in their shortest round-trip form. For a valid database,
// parseText(writeText(db)).database == db.
[[nodiscard]] std::string writeText(const MissionDatabase& db);

[[nodiscard]] Status writeTextFile(const MissionDatabase& db, const std::string& path);

} // namespace telestation::mdb
