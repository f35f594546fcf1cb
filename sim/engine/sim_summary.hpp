// What the simulator sent: per stream and per APID, and what faults it injected, so that a test can
// predict the station's counters exactly. Printed at the end of a run and written as JSON with
// --summary-out.
#pragma once

#include "core/common/result.hpp"

#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace telestation::sim {

struct TrafficCounts {
    std::uint64_t packets = 0; // packets written to the destination (duplicates, corrupted and truncated ones included)
    std::uint64_t bytes = 0;   // their bytes as written (transport headers included, truncated packets as cut)
    friend bool operator==(const TrafficCounts&, const TrafficCounts&) = default;
};

struct FaultCounts {
    std::uint64_t dropped = 0;          // built but never written: the station sees these as lost
    std::uint64_t duplicated = 0;       // extra copies written
    std::uint64_t reordered = 0;        // pairs swapped
    std::uint64_t corruptedHeaders = 0; // written with version 0b111
    std::uint64_t truncated = 0;        // written short
    std::uint64_t garbageInsertions = 0;// TCP garbage runs written
    std::uint64_t garbageBytes = 0;
    friend bool operator==(const FaultCounts&, const FaultCounts&) = default;
};

struct StreamSummary {
    std::string name;
    std::string destination;
    std::string rate;                      // as configured ("25.6Mbps")
    std::uint64_t generated = 0;           // packets built (each used a sequence count)
    TrafficCounts sent;                    // written to the destination
    std::uint64_t notSent = 0;             // offered but not written (e.g. TCP not connected)
    std::map<std::uint16_t, TrafficCounts> apids; // `sent`, by APID (corrupted headers under their true APID)
    FaultCounts faults;
    double seconds = 0;                    // from the stream's start to the last packet written
    double packetsPerSecond = 0;           // sent.packets / seconds
    double bitsPerSecond = 0;              // 8 * sent.bytes / seconds
    friend bool operator==(const StreamSummary&, const StreamSummary&) = default;
};

struct SimSummary {
    std::vector<StreamSummary> streams;
    friend bool operator==(const SimSummary&, const SimSummary&) = default;
    [[nodiscard]] StreamSummary total() const; // sums over streams (name "total"); seconds = the longest
};

[[nodiscard]] std::string toJson(const SimSummary& summary);            // pretty, stable key order
[[nodiscard]] Result<SimSummary> summaryFromJson(std::string_view json); // the inverse, for tests
[[nodiscard]] std::string toText(const SimSummary& summary);            // a table for the console
[[nodiscard]] Status writeSummaryFile(const SimSummary& summary, const std::string& path);

} // namespace telestation::sim
