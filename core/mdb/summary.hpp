// A short human-readable description of a mission database, for `telestation-mdb summary` and logs.
#pragma once

#include "core/mdb/model.hpp"

#include <string>

namespace telestation::mdb {

// A multi-line summary: the mission name, the packet and parameter counts, then one line per packet
// with its name, APID, length (or min..max), parameter count, layout (fixed, or variable with the
// number of fields sized by the packet's data and present under a condition), secondary id, criteria,
// secondary header and byte order. Ends with a newline.
[[nodiscard]] std::string summarize(const MissionDatabase& db);

} // namespace telestation::mdb
