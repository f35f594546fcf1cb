// telestation-perf limits (issue 14): what limit transitions cost the station's processing thread.
// Test 5's configuration (3 streams of Packet 5, each processed entirely, consumers
// `packets,parameters:50`) at one rate, twice per round: (a) every parameter of the packet with limits
// in force kept within them, (b) each of them taken across its yellow and red limits and back every
// second (enumerations into an unexpected state and back). Both runs move the same parameters with the
// same kinds of generator and period, so that they differ only in the limit states. Per run: packets
// sent, received and lost, the events the station reported, and the CPU time of its processor thread
// (`ts-processor`) per million packets; per round, its rise from (a) to (b). The target:
// nothing lost, a rise under 5%.
#pragma once

#include "tools/perf/perf_suite.hpp"

#include "core/mdb/model.hpp"

#include <functional>
#include <string>
#include <vector>

namespace telestation::perf {

class StationHost;

// Test 5's highest loss-free rate on the 2-core machine of docs/PERFORMANCE.md when issue 14 was
// measured (2026-11-27: 2,000 Mbit/s lost packets there, 1,682 did not).
inline constexpr double kLimitsDefaultMbps = 1681.793;

// The generators of both runs, by parameter, and what they exercise.
struct LimitPlan {
    struct Exercised {
        std::string parameter; // "Packet5.COOLANT_FLOW_RATE"
        bool states = false;   // an enumeration's expected states (else numeric limits)
        bool yellow = false;   // (b) passes through a yellow state
        bool red = false;      // (b) reaches red or an unexpected state
    };
    struct Excluded {
        std::string parameter, reason; // parameters with limits that are not exercised, and why
    };
    Json within, crossing; // a simulated stream's "generators"
    std::vector<Exercised> exercised;
    std::vector<Excluded> excluded;
};
[[nodiscard]] LimitPlan planLimitExercise(const mdb::PacketDef& packet, double periodSeconds);

struct LimitsOptions {
    RunOptions run;               // run.seconds: each run's sending time (run.generators and run.label are set per run)
    double mbps = kLimitsDefaultMbps;
    int rounds = 3;
    double periodSeconds = 1;     // how often (b) crosses the limits and comes back
    double maxRisePercent = 5;    // the target for the median rise
    // Before each round, wait until the 1-minute load average is at most idleLoad (< 0: do not wait)
    // and at most idleBusyPercent of the machine was busy over 3 s; before the round's second run, only
    // the latter (the first run's own load is still in the average). Give up after idleTimeoutSeconds.
    double idleLoad = -1;
    double idleBusyPercent = 15;
    double idleTimeoutSeconds = 900;
};

struct LimitsRun {
    RunResult run;
    double loadBefore = 0;    // 1-minute load average as the run started
    double waitedSeconds = 0; // waiting for the machine to be idle before it
    [[nodiscard]] double processorCpu() const;           // seconds of ts-processor
    [[nodiscard]] double eventsCpu() const;              // seconds of ts-events
    [[nodiscard]] double processorCpuPerMillion() const; // seconds per million packets processed
    [[nodiscard]] double processorUserCpuPerMillion() const; // the same in user space only
    [[nodiscard]] std::uint64_t lost() const;            // sent and not processed
    [[nodiscard]] bool nothingLost() const;              // 100% delivery, no event left unreported
};

struct LimitsRound {
    int number = 0;
    bool crossingFirst = false; // rounds alternate the order of the runs
    LimitsRun within, crossing;
    [[nodiscard]] double risePercent() const;     // of the processor's CPU per packet, (a) to (b)
    [[nodiscard]] double userRisePercent() const; // of its user-space CPU per packet
};

struct LimitsReport {
    std::string date, machine, kernel, command;
    LimitsOptions options;
    const PerfTest* test = nullptr;
    std::size_t streams = 0;
    LimitPlan plan;
    std::vector<LimitsRound> rounds;
    [[nodiscard]] double medianRisePercent() const;
    [[nodiscard]] double medianUserRisePercent() const;
    [[nodiscard]] bool nothingLost() const;
    // Every (b) run saw every exercised parameter of every stream out of limits; no (a) run saw any.
    [[nodiscard]] bool exercisedAsPlanned() const;
    [[nodiscard]] bool passed() const;
};

// Runs the rounds into `report` (its options, test and plan set by the caller); `say` gets a line per
// step. Returns an error text when a run could not be made at all.
[[nodiscard]] std::string runLimits(StationHost& host, LimitsReport& report, const std::function<void(const std::string&)>& say);

} // namespace telestation::perf
