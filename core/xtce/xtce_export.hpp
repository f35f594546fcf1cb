// Export of a mission database as XTCE 1.2 (OMG XML Telemetric and Command Exchange) that validates
// against SpaceSystemV1.2.xsd, and the reading back of what XTCE has no element for. The mapping and
// the conventions (names, hidden parameters, AncillaryData "telestation.*") are in docs/xtce.md,
// "Export".
//
// Round trip: for a valid database db,
//     auto imported = importXtce(writeXtce(db), ...);   // the XTCE importer (xtce_import.hpp)
//     applyTelestationAncillary(xml, imported.database); // restores names, places, lengths, ...
//     imported.database == db
// applyTelestationAncillary is idempotent, and does nothing on XTCE that Telestation did not write.
#pragma once

#include "core/common/diagnostic.hpp"
#include "core/common/result.hpp"
#include "core/mdb/model.hpp"

#include <string>
#include <string_view>

namespace telestation::xtce {

// The name space of the alias that keeps a packet's or parameter's Telestation name when its XTCE
// name had to differ (XTCE names cannot hold '.', '/', '[', ']', ':' or blanks).
inline constexpr std::string_view kTelestationAliasNameSpace = "telestation";

// The whole document, UTF-8, in the XTCE 1.2 namespace with the prefix "xtce:". Never throws but for
// std::bad_alloc. Characters XML 1.0 cannot hold (C0 controls other than tab, line feed and carriage
// return; invalid UTF-8) are written as U+FFFD.
[[nodiscard]] std::string writeXtce(const mdb::MissionDatabase& db);

// Writes writeXtce(db) to `path` (replacing it); an error names the path.
[[nodiscard]] Status writeXtceFile(const mdb::MissionDatabase& db, const std::string& path);

// True when `xml` is a document writeXtce wrote (its root SpaceSystem carries AncillaryData
// "telestation.format").
[[nodiscard]] bool isTelestationXtce(std::string_view xml);

// After importXtce(xml) of a document writeXtce wrote: restores in `imported` what XTCE cannot say or
// what the importer reads differently — the mission name, Telestation names and paths, the hidden
// parameters (CCSDS primary header, CUC secondary header, criterion fields) dropped again, the APID,
// secondary id and criteria, lengths and byte orders, placements, overlaps, string and byte maxima,
// conditions and context calibrators, time calibrators, polynomial terms, expected states and
// disabled limits. Packets already restored are left alone (idempotent). Returns warnings for packets
// that do not match the document (the importer left something out); does nothing, without
// diagnostics, on XTCE that Telestation did not write.
[[nodiscard]] Diagnostics applyTelestationAncillary(
    std::string_view xml, mdb::MissionDatabase& imported, std::string_view fileName = "<string>");

} // namespace telestation::xtce
