// Fuzz target: the simulator's scenario (sim::parseScenario) — the JSON file telestation-sim and the
// workstation's demo read: streams, destinations, rates, packet mixes, value generators, faults.
//
// Input: the scenario's JSON text.
// Checks the scenario's round trip (sim/engine/scenario.hpp): a scenario read without error is written
// as JSON that reads back equal.
#include "sim/engine/scenario.hpp"
#include "tests/fuzz/fuzz_support.hpp"

using namespace telestation;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    const auto scenario = sim::parseScenario(fuzz::asText(data, size), "fuzz.json");
    if (!scenario)
        return 0;
    const std::string written = sim::scenarioToJson(*scenario);
    const auto again = sim::parseScenario(written, "written.json");
    fuzz::check(again.ok(), "the JSON of a valid scenario does not read:\n" + written);
    fuzz::check(*again == *scenario, "the JSON of a scenario reads back different:\n" + written);
    return 0;
}
