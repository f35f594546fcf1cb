// Fuzz target: the mission database text definition language (.tdef, mdb::parseText) — what
// `telestation-mdb import` and the station's mission loader read from an operator's file.
//
// Input: the text of a .tdef file.
// Checks the language's round trip (core/mdb/text_format.hpp): a definition that parses and validates
// is written in the canonical form, which parses back to the same database.
#include "core/mdb/text_format.hpp"
#include "tests/fuzz/fuzz_support.hpp"

using namespace telestation;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    const auto parsed = mdb::parseText(fuzz::asText(data, size), "fuzz.tdef");
    if (!parsed.ok())
        return 0;
    const std::string canonical = mdb::writeText(parsed.database);
    const auto again = mdb::parseText(canonical, "canonical.tdef");
    fuzz::check(again.ok(), "the canonical form of a valid definition does not parse:\n" + canonical);
    fuzz::check(again.database == parsed.database, "the canonical form reads back different:\n" + canonical);
    return 0;
}
