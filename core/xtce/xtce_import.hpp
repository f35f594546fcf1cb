// Import of an XTCE 1.1 or 1.2 document (OMG XML Telemetric and Command Exchange) into a mission
// database: every concrete SequenceContainer whose restriction criteria give an APID becomes a packet,
// flattened. What is supported, the mapping and what is not supported are in docs/xtce.md. A document
// Telestation wrote (xtce_export.hpp) is read back as the database it was written from
// (applyTelestationAncillary, telestation_ancillary.hpp).
#pragma once

#include "core/common/diagnostic.hpp"
#include "core/mdb/model.hpp"

#include <string>
#include <string_view>
#include <vector>

namespace telestation::xtce {

struct ImportOptions {
    // Import what can be imported: each unsupported construct becomes a warning and a line of
    // ImportResult::skipped instead of an error. Errors (malformed XML, unresolved references, cycles,
    // duplicate names, absurd sizes) stay errors.
    bool lenient = false;
};

struct ImportResult {
    mdb::MissionDatabase database; // complete only when ok()
    Diagnostics diagnostics; // errors and warnings, each with file:line:column
    // One line per construct not imported, "line:col: <path>: why" (lenient), and notes of what is
    // never imported (commands, parameters in no packet) in either mode.
    std::vector<std::string> skipped;
    [[nodiscard]] bool ok() const { return !hasErrors(diagnostics); }
};

// Never throws. fileName is only used in diagnostics.
[[nodiscard]] ImportResult importXtce(
    std::string_view xml, std::string_view fileName, const ImportOptions& options = {});

// Reads and imports a file; an unreadable file gives one error naming the path.
[[nodiscard]] ImportResult readXtceFile(const std::string& path, const ImportOptions& options = {});

// True when the file is XML whose root element's local name is SpaceSystem (decided by content, from
// the first 64 KiB: comments, processing instructions and a DOCTYPE before the root are skipped).
[[nodiscard]] bool looksLikeXtce(const std::string& path);

} // namespace telestation::xtce
