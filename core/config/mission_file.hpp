// Opening a mission database in any of the forms a team has it in, told apart by content, not by
// name: the SQLite store (*.mdb) the station loads, an XTCE file (compiled on load and cached next to
// it, keyed by its content), or a definition text (*.tdef, compiled in memory). Used by the station
// profile's `mdb`, the GUI's "Open definition file…", the simulator's --mdb and telestation-mdb.
#pragma once

#include "core/common/result.hpp"
#include "core/mdb/model.hpp"

#include <string>
#include <vector>

namespace telestation::config {

enum class MissionFormat { Sqlite, Xtce, Text };

struct MissionLoadOptions {
    // XTCE: import what is supported and list what is skipped (notes) instead of refusing the file.
    bool lenient = false;
    // XTCE: keep the compiled database beside the file ("FILE.<content hash>.mdb") and use it while the
    // file and this build's importer are unchanged.
    bool useCache = true;
};

struct LoadedMission {
    mdb::MissionDatabase database;
    MissionFormat format = MissionFormat::Sqlite;
    std::vector<std::string> notes; // warnings and what was skipped, each a line for the operator
    std::string cachePath;          // XTCE: the compiled cache used or written; empty when none
    bool fromCache = false;
};

// Errors name the file; for a definition with errors, the first of them with file:line:column and how
// many more there are. A database that fails validation is refused too.
[[nodiscard]] Result<LoadedMission> loadMission(const std::string& path, const MissionLoadOptions& options = {});

// The cache file an XTCE definition with this content compiles to (for tests and tools).
[[nodiscard]] std::string xtceCachePath(const std::string& path, std::string_view content, bool lenient);

} // namespace telestation::config
