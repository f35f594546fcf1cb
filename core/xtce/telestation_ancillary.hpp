// Reading back what a Telestation XTCE export keeps beyond XTCE (docs/xtce.md, "Reading an export
// back"): importXtce gives the XTCE view of the document; applyTelestationAncillary turns it back into
// the mission database that was exported. importXtce calls it at the end of every successful import,
// so that `telestation-mdb import` of an export gives back the equal database:
//     importXtce(writeXtce(db), ...).database == db
// It is idempotent, and does nothing on XTCE that Telestation did not write.
#pragma once

#include "core/common/diagnostic.hpp"
#include "core/mdb/model.hpp"

#include <string_view>

namespace telestation::xtce {

class XmlDocument;

// The name space of the alias that keeps a packet's or parameter's Telestation name when its XTCE
// name had to differ (XTCE names cannot hold '.', '/', '[', ']', ':' or blanks).
inline constexpr std::string_view kTelestationAliasNameSpace = "telestation";

// True when `xml` is a document writeXtce wrote (its root SpaceSystem carries AncillaryData
// "telestation.format").
[[nodiscard]] bool isTelestationXtce(std::string_view xml);

// After importXtce of a document writeXtce wrote: restores in `imported` what XTCE cannot say or what
// the importer reads differently — the mission name, Telestation names and paths, the hidden
// parameters (CCSDS primary header, CUC secondary header, criterion fields) dropped again, the APID,
// secondary id and criteria, lengths and byte orders, placements, overlaps, string and byte maxima,
// conditions and context calibrators, time calibrators, polynomial terms (zeros included), expected
// states and disabled limits. Packets already restored are left alone (idempotent). Returns warnings
// for packets that do not match the document (the importer left something out); does nothing, without
// diagnostics, on XTCE that Telestation did not write (or on text that is not XML).
[[nodiscard]] Diagnostics applyTelestationAncillary(
    std::string_view xml, mdb::MissionDatabase& imported, std::string_view fileName = "<string>");

// The same on a document already parsed (importXtce's own).
[[nodiscard]] Diagnostics applyTelestationAncillary(const XmlDocument& document, mdb::MissionDatabase& imported);

} // namespace telestation::xtce
