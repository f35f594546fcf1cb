// Opening a mission database in any of the forms a team has it in, told apart by content, not by
// name: the SQLite store (*.mdb) the station loads, an XTCE file (imported, validated, and — for the
// station, the GUI and the simulator — its compiled database cached beside it, keyed by its content),
// or a definition text (*.tdef, compiled in memory). The one loader behind the station profile's
// `mdb`, --mdb of telestation and telestation-sim, the GUI, and telestation-mdb's commands.
#pragma once

#include "core/common/diagnostic.hpp"
#include "core/common/result.hpp"
#include "core/mdb/model.hpp"

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace telestation::config {

enum class MissionFormat { Sqlite, Xtce, Text };

struct MissionLoadOptions {
    // XTCE: import what is supported and list what is skipped instead of refusing the file.
    bool lenient = false;
    // XTCE: keep the compiled database beside the file ("FILE.<content hash>.mdb") and use it while the
    // file and this build's importer are unchanged. One-shot tools leave it off.
    bool useCache = true;
    // A .mdb is validated too (XTCE and text always are).
    bool validateDatabase = false;
};

struct LoadedMission {
    std::optional<mdb::MissionDatabase> database; // empty when there was an error
    MissionFormat format = MissionFormat::Sqlite;
    Diagnostics diagnostics;             // every error and warning, with file:line:column where known
    std::vector<std::string> skipped;    // XTCE: "line:col: path: why" of what was not imported
    std::string cachePath;               // XTCE: the compiled cache used or written; empty when none
    bool fromCache = false;

    [[nodiscard]] bool ok() const { return database.has_value(); }
    // The first error and how many more there are, for a one-line report.
    [[nodiscard]] Error error() const;
    // Warnings and skipped constructs, one line each, for a log or the operator.
    [[nodiscard]] std::vector<std::string> notes() const;
};

[[nodiscard]] LoadedMission loadMission(const std::string& path, const MissionLoadOptions& options = {});

// The cache file an XTCE definition with this content compiles to (for tests and tools).
[[nodiscard]] std::string xtceCachePath(const std::string& path, std::string_view content, bool lenient);

} // namespace telestation::config
