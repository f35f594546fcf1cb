// TReK Release 1's eight performance tests, as telestation-perf runs them: each test is a station
// profile (3-5 streams of 1288-byte Packet 5, APID 7, each handled as the test says), the API consumers
// that stand for TReK's "performance computation" and value display, and TReK's PC-933 figures. A run
// starts a headless station and the simulator as separate processes at one aggregate rate, spread
// equally over the streams, and checks 100% delivery; the search finds the highest such rate.
#pragma once

#include "tools/perf/perf_process.hpp"
#include "tools/perf/perf_events.hpp"

#include <nlohmann/json.hpp>

#include <filesystem>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace telestation::perf {

using Json = nlohmann::json;

struct TrekFigures {
    double mbps = 0;                // aggregate data rate on the PC-933
    double cpuPercent = 0;          // average CPU usage
    double parametersPerSecond = 0; // 0 where the test does not process
};

struct StreamRole {
    std::string name;
    std::string mode; // passThru, processOnDemand, processEntirePacket
    bool record = false;
    bool forward = false;
};

struct PerfTest {
    int number = 0;
    std::string key;      // "passthru", "record", ... as given to --tests
    std::string title;    // "Pass thru only"
    std::vector<StreamRole> streams;
    std::string consume;  // the headless station's --consume
    TrekFigures trek;
    [[nodiscard]] bool records() const;
    [[nodiscard]] bool forwards() const;
    [[nodiscard]] bool processes() const; // any stream has parameter values (entire or on demand)
};

// The eight tests, in TReK's order.
[[nodiscard]] const std::vector<PerfTest>& trekTests();
// The tests named by number or key, comma-separated ("1,2,forward"); "all" or "" = every one.
[[nodiscard]] std::optional<std::vector<const PerfTest*>> selectTests(const std::string& list, std::string& error);

// Where a test's API consumers run: in the station's process (its --consume), or as clients of its
// user API in processes of their own, C++ (telestation-api-consumer) or Python (perf_consumer.py).
enum class ConsumerPlace { InProcess, External, ExternalPython };
[[nodiscard]] const char* consumerPlaceName(ConsumerPlace place); // "in-process", "external", "external-python"
[[nodiscard]] std::optional<ConsumerPlace> parseConsumerPlace(const std::string& text);

// The consumer items of a --consume list, as the station reports them ("Consumer NAME: P packets, Q parameters").
struct ConsumeItem {
    std::string text, kind, stream; // "parameters:50@tm", "parameters", "tm"
    std::uint32_t count = 0;
};
[[nodiscard]] std::vector<ConsumeItem> consumeItems(const std::string& list);

// The "Consumer NAME: P packets, Q parameters[, D dropped]" lines of a station's (or external
// consumers') output, by NAME. D: what the station dropped for an external client (an in-process
// consumer's drops are in the station's summary).
struct ConsumerLine {
    std::uint64_t packets = 0, parameters = 0, dropped = 0;
};
[[nodiscard]] std::map<std::string, ConsumerLine> consumerLines(const std::string& output);

struct RunOptions {
    std::filesystem::path binDir;    // telestation and telestation-sim
    std::filesystem::path workDir;   // profiles, summaries, logs (one subdirectory per run)
    std::filesystem::path recordDir; // recordings (one subdirectory per run, removed after it)
    std::string mdb;                 // "" = the training database
    std::string packetName = "Packet5";
    std::uint16_t apid = 7;
    std::uint32_t parametersPerPacket = 88;
    Json queues;                     // the profile's "queues"; null = the defaults
    double seconds = 3;              // sending time per run
    bool keep = false;               // keep each run's directory
    Json generators;                 // every simulated stream's "generators" (docs/simulator.md); null = the defaults
    std::string label;               // added to each run's directory name ("" = none)
    ConsumerPlace consumer = ConsumerPlace::InProcess;
};

struct RunResult {
    const PerfTest* test = nullptr;
    double askedMbps = 0;
    bool ok = false;
    std::string failure; // what was missing where
    std::string note;    // queue high-water marks
    // Simulator
    std::uint64_t sent = 0, sentBytes = 0;
    double sendSeconds = 0, mbps = 0, packetsPerSecond = 0;
    // Station
    int stationExit = -1;
    std::uint64_t received = 0, processed = 0, decoded = 0, retrieved = 0; // retrieved: parameters the consumers took
    double stationCpu = 0, simCpu = 0;                       // seconds
    std::map<std::string, double> threadCpu, threadUserCpu;  // the station's threads by name: seconds, in user space
    EventTally events;                                       // what the station reported
    double otherCpuPercent = 0;                              // other programs during the run (100 = one core)
    std::map<std::string, double> clientCpu;                 // external consumers by item: seconds, subscription to exit
    // External consumers: the station's user API server threads' seconds — gRPC's (grpcpp_sync_ser) and
    // those that ended with their calls before the station stopped (its CPU not in any thread left;
    // the stop's own few milliseconds included).
    double apiCpu = 0;
    [[nodiscard]] double retrievedPerSecond() const { return sendSeconds > 0 ? double(retrieved) / sendSeconds : 0; }
    [[nodiscard]] double decodedPerSecond() const { return sendSeconds > 0 ? double(decoded) / sendSeconds : 0; }
    [[nodiscard]] double stationCpuPercent() const { return sendSeconds > 0 ? 100 * stationCpu / sendSeconds : 0; }
    [[nodiscard]] double simCpuPercent() const { return sendSeconds > 0 ? 100 * simCpu / sendSeconds : 0; }
    // The external consumers' CPU over the sending time, all of them (100 = one core); 0 in process.
    [[nodiscard]] double clientCpuPercent() const;
    [[nodiscard]] double apiCpuPercent() const { return sendSeconds > 0 ? 100 * apiCpu / sendSeconds : 0; }
};

// The station's profile for a test: each stream's packet setting; the sources are the station
// host's to fill in; forward destinations go to `forwardUrl`.
[[nodiscard]] Json testProfile(const PerfTest& test, const RunOptions& options, const std::string& forwardUrl);

// Runs the simulator on `scenario` (written to dir/scenario.json) for `seconds`. Error text, empty on success.
[[nodiscard]] std::string startSimulator(const RunOptions& options, const std::filesystem::path& dir, const Json& scenario,
                                         double seconds, Child& sim);

class StationHost;

// One run of a test at an aggregate rate. Returns an error text when the run could not be made at all
// (a program missing, the station refusing its profile); loss is not an error but `out.ok == false`.
[[nodiscard]] std::string runTest(const RunOptions& options, StationHost& host, const PerfTest& test, double aggregateMbps,
                                  RunResult& out);

struct SearchOptions {
    double startMbps = 250;
    double maxMbps = 8000;
    double minMbps = 2;
    int refine = 2;  // bisection steps between the highest loss-free and the lowest lossy rate
    int retries = 1; // a lossy rate is tried again this many times before it counts as lossy
};

struct SearchResult {
    const PerfTest* test = nullptr;
    std::optional<RunResult> best;   // the highest loss-free run
    std::vector<RunResult> runs;     // every run, in order
    std::vector<double> lossyMbps;   // rates asked that lost, after the retries
    std::string error;               // the search could not go on
};

// Doubles the rate from startMbps while every packet is delivered (halving first when startMbps
// loses), then bisects (geometrically) between the highest loss-free and the lowest lossy rate.
[[nodiscard]] SearchResult searchHighestRate(const RunOptions& options, StationHost& host, const SearchOptions& search,
                                             const PerfTest& test,
                                             const std::function<void(const RunResult&)>& onRun);

// A rate as the simulator's --rate takes it: "12.5Mbps".
[[nodiscard]] std::string rateText(double mbps);
[[nodiscard]] std::string rateNumber(double mbps);

// A member of a JSON object, or null (never inserts).
[[nodiscard]] const Json& member(const Json& object, const char* key);
[[nodiscard]] std::uint64_t u64(const Json& object, const char* key);

} // namespace telestation::perf
