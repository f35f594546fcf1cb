// Validation of a mission database: the rules of docs/mission-database.md ("Validation"), checked on
// the model so that every source (text import, SQLite, code) gets the same verdict.
#pragma once

#include "core/common/diagnostic.hpp"
#include "core/mdb/model.hpp"

#include <string>
#include <string_view>
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

// Names (ASCII only; never blanks, quotes, '#', ',' or control characters). Both start with a letter,
// '_' or '/', so that a name never reads as a number:
//  - a packet name is letters, digits, '_', '-' and '/' (XTCE paths such as "/IDEX/Sci0TypeZero"), and
//    never contains '.', which ends the packet's part of a qualified name "PACKET.PARAMETER";
//  - a parameter name may also contain '.', '[' and ']' (flattened XTCE aggregates and arrays:
//    "POS.x", "Q[0]").
[[nodiscard]] bool isValidPacketName(std::string_view name);
[[nodiscard]] bool isValidParameterName(std::string_view name);

// True for a classic identifier: letters, digits and '_', starting with a letter or '_'. Every
// identifier is a valid packet and parameter name; the validation rules are the two functions above.
[[nodiscard]] bool isValidName(std::string_view name);

} // namespace telestation::mdb
