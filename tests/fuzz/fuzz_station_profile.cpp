// Fuzz target: the station profile (config::parseProfile) — the JSON file an operator edits or
// receives, read with duplicate-key detection and every value checked.
//
// Input: the profile's JSON text.
// Checks the profile's round trip (core/config/station_profile.hpp): a profile read without error is
// written as canonical JSON, which reads back equal.
#include "core/config/station_profile.hpp"
#include "tests/fuzz/fuzz_support.hpp"

using namespace telestation;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    const auto loaded = config::parseProfile(fuzz::asText(data, size), "fuzz.json");
    if (!loaded.ok())
        return 0;
    const std::string canonical = config::profileToJson(loaded.profile);
    const auto again = config::parseProfile(canonical, "canonical.json");
    fuzz::check(again.ok(), "the canonical JSON of a valid profile does not read:\n" + canonical);
    fuzz::check(again.profile == loaded.profile, "the canonical JSON reads back different:\n" + canonical);
    return 0;
}
