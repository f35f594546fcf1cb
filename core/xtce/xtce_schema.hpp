// Validation of an XML file against an XTCE schema (SpaceSystemV1.1.xsd, SpaceSystemV1.2.xsd) with
// libxml2: for tests of the importer and of the exporter. The 1.2 schema imports the W3C schema of the
// xml: namespace from the network; Telestation serves its own small copy from memory instead, and never
// reaches the network.
#pragma once

#include "core/common/diagnostic.hpp"

#include <string>

namespace telestation::xtce {

// Every schema violation as an error with its line (libxml2 gives no column for these); a schema that
// does not compile or a file that is not well-formed gives errors saying so. Never throws.
[[nodiscard]] Diagnostics validateAgainstSchema(const std::string& xmlPath, const std::string& xsdPath);

} // namespace telestation::xtce
