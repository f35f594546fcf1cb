// Fuzz target: the XTCE importer (xtce::importXtce, lenient as `telestation-mdb import --lenient`) —
// XML from another organisation's tools, parsed by libxml2 and mapped onto the mission database.
//
// Input: an XTCE document.
// Checks the export's round trip (core/xtce/xtce_export.hpp): a database imported without error is
// exported as XTCE 1.2, which imports back to the same database.
#include "core/xtce/xtce_export.hpp"
#include "core/xtce/xtce_import.hpp"
#include "tests/fuzz/fuzz_support.hpp"

using namespace telestation;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    const auto imported = xtce::importXtce(fuzz::asText(data, size), "fuzz.xml", {.lenient = true});
    if (!imported.ok())
        return 0;
    const std::string exported = xtce::writeXtce(imported.database);
    const auto again = xtce::importXtce(exported, "exported.xml");
    fuzz::check(again.ok(), "the export of an imported database does not import:\n" + exported);
    fuzz::check(again.database == imported.database, "the export of an imported database imports back different");
    return 0;
}
