// Export of a mission database as XTCE 1.2 (OMG XML Telemetric and Command Exchange) that validates
// against SpaceSystemV1.2.xsd. The mapping and the conventions (names, hidden parameters, AncillaryData
// "telestation.*") are in docs/xtce.md, "Export"; what XTCE cannot say is read back by
// applyTelestationAncillary (telestation_ancillary.hpp), which importXtce calls:
//     importXtce(writeXtce(db), ...).database == db   for a valid database db
#pragma once

#include "core/common/result.hpp"
#include "core/mdb/model.hpp"
#include "core/xtce/telestation_ancillary.hpp"

#include <string>

namespace telestation::xtce {

// The whole document, UTF-8, in the XTCE 1.2 namespace with the prefix "xtce:". Never throws but for
// std::bad_alloc. Characters XML 1.0 cannot hold (C0 controls other than tab, line feed and carriage
// return; invalid UTF-8) are written as U+FFFD.
[[nodiscard]] std::string writeXtce(const mdb::MissionDatabase& db);

// Writes writeXtce(db) to `path` (replacing it); an error names the path.
[[nodiscard]] Status writeXtceFile(const mdb::MissionDatabase& db, const std::string& path);

} // namespace telestation::xtce
