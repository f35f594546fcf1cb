// A simulator scenario: several streams, each with a destination, a packet mix, a rate, a length
// (duration or count), value generators and faults. Read from and written to JSON; see
// docs/simulator.md for the format. Every error names its JSON path ("$.streams[1].rate: ...").
#pragma once

#include "core/common/result.hpp"
#include "sim/engine/rate.hpp"
#include "sim/engine/value_generator.hpp"

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace telestation::sim {

// One packet type of a stream's mix: by name or APID as written, and its relative rate.
struct MixEntry {
    std::string packet; // a packet name, or an APID in decimal ("7"); resolved against the database later
    double weight = 1;  // relative rate, > 0
    friend bool operator==(const MixEntry&, const MixEntry&) = default;
};

// Faults, each a probability per packet in [0, 1]. drop: the packet is built (its sequence count is
// used) but not sent — the station sees a gap. duplicate: sent twice. reorder: swapped with the next
// packet. corruptHeader: the version field set to 0b111 (the station rejects it as malformed).
// truncate: sent without its last half (UDP: a short datagram; TCP: the framer must resynchronise).
// garbage: TCP only — 1 to 64 random bytes are written before the packet (ignored for UDP).
struct FaultConfig {
    double drop = 0, duplicate = 0, reorder = 0, corruptHeader = 0, truncate = 0, garbage = 0;
    friend bool operator==(const FaultConfig&, const FaultConfig&) = default;
    [[nodiscard]] bool any() const noexcept
    {
        return drop > 0 || duplicate > 0 || reorder > 0 || corruptHeader > 0 || truncate > 0 || garbage > 0;
    }
};

struct StreamConfig {
    std::string name;                      // unique within the scenario; default "stream<N>"
    std::string destination;               // an endpoint URL (core/io/endpoint.hpp), checked on load
    std::vector<MixEntry> mix;             // at least one entry
    Rate rate;                             // required
    std::optional<double> durationSeconds; // at most one of duration and count; neither = until stopped
    std::optional<std::uint64_t> count;    // packets to generate (dropped ones included)
    std::uint32_t transportHeaderBytes = 0;// bytes before each packet (zero-filled but for a counter)
    std::uint64_t seed = 1;                // faults and random generators
    FaultConfig faults;
    std::map<std::string, GeneratorSpec> generators; // "PACKET.PARAMETER" -> generator
    friend bool operator==(const StreamConfig&, const StreamConfig&) = default;
};

struct Scenario {
    std::string mdb; // mission database path ("" = the training database); relative to the file
    std::vector<StreamConfig> streams;
    friend bool operator==(const Scenario&, const Scenario&) = default;
};

// Parses a scenario. Unknown keys, wrong types, bad URLs/rates, probabilities outside [0, 1],
// duration and count together, duplicate stream names, an empty mix or streams list: errors with the
// JSON path (and, for JSON syntax errors, the line and column).
[[nodiscard]] Result<Scenario> parseScenario(std::string_view json, std::string_view fileName = "<string>");
[[nodiscard]] Result<Scenario> loadScenarioFile(const std::string& path);
// Writes JSON that parseScenario reads back equal (only non-default fields and generator settings).
[[nodiscard]] std::string scenarioToJson(const Scenario& scenario);
// A stream's "generators" object as a scenario file writes it ("PACKET.PARAMETER" -> generator), for
// programs that write scenarios of their own (telestation-perf).
[[nodiscard]] std::string generatorsToJson(const std::map<std::string, GeneratorSpec>& generators);
[[nodiscard]] Status saveScenarioFile(const Scenario& scenario, const std::string& path);

} // namespace telestation::sim
