// Validation of a mission database: the rules of docs/mission-database.md ("Validation"), checked on
// the model so that every source (text import, SQLite, code) gets the same verdict.
#pragma once

#include "core/common/diagnostic.hpp"
#include "core/mdb/model.hpp"

#include <string>
#include <vector>

namespace telestation::mdb {

struct ValidationIssue {
    Severity severity = Severity::Error;
    // What and where in words, e.g. "parameter Packet5.VOLTS: bit offset 10 is inside the primary header".
    std::string message;
    int packetIndex = -1;    // index into MissionDatabase::packets, -1 = the database as a whole
    int parameterIndex = -1; // index into that packet's parameters, -1 = the packet itself
};

// Every error and warning in `db`, grouped by packet. Runs in O(n log n) in the number of parameters
// of each packet, so databases with thousands of parameters per packet are fine.
[[nodiscard]] std::vector<ValidationIssue> validate(const MissionDatabase& db);

// Every issue as a Diagnostic located at `source` (file only), for callers without line information.
[[nodiscard]] Diagnostics toDiagnostics(const std::vector<ValidationIssue>& issues, const std::string& source);

// True when `name` is a valid packet or parameter name: letters, digits and '_', starting with a
// letter or '_' (ASCII only).
[[nodiscard]] bool isValidName(std::string_view name);

} // namespace telestation::mdb
