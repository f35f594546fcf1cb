// The simulator as a test's sender (our "MockLink"): a stream configuration in a line, a simulator
// stream made of it, and a run to its end, to a station's stream or to any address.
#pragma once

#include "core/mdb/model.hpp"
#include "core/pipeline/station.hpp"
#include "sim/engine/scenario.hpp"
#include "sim/engine/sim_stream.hpp"
#include "sim/engine/sim_summary.hpp"
#include "tests/support/station_fixture.hpp"

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace telestation::test {

// Where a sender reaches a station's stream: udp:// for a UDP source, tcp:// for a tcp-listen one.
[[nodiscard]] std::string streamAddress(const pipeline::Station& station, std::string_view stream);

// A simulator stream "sim" sending `packets` (in equal shares) to `destination`: `count` packets (none:
// until stopped) at `packetsPerSecond` (0: as fast as it can). Set faults, seed, generators or a
// transport header on the result.
[[nodiscard]] sim::StreamConfig traffic(std::string destination, const std::vector<std::string>& packets,
                                        std::optional<std::uint64_t> count, double packetsPerSecond = 5000);

// The simulator stream, not started; qFatal when it refuses the configuration (a mistake in the test).
[[nodiscard]] std::unique_ptr<sim::SimStream> simulator(const sim::StreamConfig& config, const mdb::MissionDatabase& db);

// Runs the configuration to its end (it needs a count) and says what was sent.
sim::StreamSummary send(const sim::StreamConfig& config, const mdb::MissionDatabase& db);

// The one-liner: `count` packets of `packets` to a station's stream, built from the station's database.
sim::StreamSummary sendPackets(const pipeline::Station& station, std::string_view stream,
                               const std::vector<std::string>& packets, std::uint64_t count,
                               double packetsPerSecond = 5000);

// A parameter through given values: one packet of its packet type ("PACKET.PARAMETER") per value, the
// parameter calibrated to each value in turn (a list generator), to a station's stream — to cross limits.
sim::StreamSummary sendValues(const pipeline::Station& station, std::string_view stream, const std::string& parameter,
                              const std::vector<double>& values, double packetsPerSecond);

// One phase of a simulator run: `packets` packets built with `faults`.
struct Phase {
    sim::FaultConfig faults;
    std::uint64_t packets = 0;
};

// Starts `sim` (created without a count) and runs it through the phases, then stops it. A phase ends
// once the stream has built its packets; the next phase's faults apply from the next batch, so a
// phase's first batch may still carry the previous phase's faults. Make the first and the last phase
// clean and longer than two batches (128 packets). False if a phase did not finish in time.
bool runPhases(sim::SimStream& sim, const std::vector<Phase>& phases);

} // namespace telestation::test
