// Where telestation-perf's station runs. By default on this machine, over loopback (LocalStationHost).
// To measure a station on another machine, as TReK did with its senders on other PCs, run
// `telestation-perf agent --listen ADDRESS:PORT` there and give `--station HOST:PORT` here: the
// simulator and the forward destination stay here, the station runs there (RemoteStationHost), and
// the agent answers a line of JSON for each request:
//
//   {"op":"start","tag":T,"profile":{...},"consume":C,"safetySeconds":S}  -> {"ok":true,"ports":[...]}
//   {"op":"sample"}                          -> {"ok":true,"rssBytes":R,"cpuSeconds":C,"received":N}
//   {"op":"stop","expected":N}               -> {"ok":true,"exit":E,"cpuSeconds":C,"wallSeconds":W,"summary":{...},"out":"...","err":"...",
//                                                "threads":{"ts-processor":S,...},"threadsUser":{...},"events":{...}}
//   {"op":"disk"}                            -> {"ok":true,"disk":{...}}       (the recording directory's write rate)
//   {"op":"address"}                         -> {"ok":true,"peer":"10.0.0.5"}  (this machine's address as the agent sees it)
//
// Errors: {"ok":false,"error":"..."}. One station at a time per connection; a connection that goes
// away stops its station.
#pragma once

#include "tools/perf/perf_reference.hpp"
#include "tools/perf/perf_suite.hpp"

#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace telestation::perf {

struct StationOutcome {
    int exitCode = -1;
    double cpuSeconds = 0, wallSeconds = 0;
    Json summary;          // the station's --summary-out
    std::string out, err;  // its stdout (the summary table and consumer lines) and stderr
    // Each thread's CPU seconds by name ("ts-processor"), taken once the station had processed every
    // packet it received, before it was stopped.
    std::map<std::string, double> threadCpu, threadUserCpu;
    EventTally events;
};

struct StationSample {
    std::uint64_t rssBytes = 0;
    double cpuSeconds = 0;
    std::uint64_t received = 0;
};

class StationHost {
public:
    virtual ~StationHost() = default;
    // Starts a station on `profile`. The host sets each stream's source to a UDP port of its own, in
    // order, and returns the ports once the station has bound them. Error text, empty on success.
    [[nodiscard]] virtual std::string start(const std::string& tag, Json profile, const std::string& consume,
                                            double safetySeconds, std::vector<std::uint16_t>& ports) = 0;
    [[nodiscard]] virtual std::optional<StationSample> sample() = 0;
    // Waits until the station received `expected` packets and processed them (or its counts stall), as
    // stop() does first: for what must happen before the station stops (its API clients reading the
    // last packets). The remote host only waits in stop().
    virtual void catchUp(std::uint64_t expected) = 0;
    // Waits until the station received `expected` packets (or stalls), stops it with SIGINT, reports.
    [[nodiscard]] virtual std::string stop(std::uint64_t expected, StationOutcome& out) = 0;
    [[nodiscard]] virtual DiskReference measureDisk() = 0;
    // Where the simulator sends to, and where the station can reach this machine (forward destinations).
    [[nodiscard]] virtual std::string stationAddress() const = 0;
    [[nodiscard]] virtual std::string returnAddress() const = 0;
    [[nodiscard]] virtual bool local() const = 0;
    // A GUI station (GuiStationHost): whether its displays have opened (it said so); never for a
    // headless station.
    [[nodiscard]] virtual bool displaysOpened() { return false; }
};

// A stream whose source starts so is a TCP server (the simulator connects to it); any other is UDP.
inline constexpr const char* kTcpServerScheme = "tcp-listen://";

// Gives each stream of `profile` a source on `bindAddress` with a free port of its own, in order: a TCP
// server for a stream whose source starts with kTcpServerScheme, else UDP. The ports in `ports`. Error
// text, empty on success.
[[nodiscard]] std::string assignSources(Json& profile, const std::string& bindAddress, std::vector<std::uint16_t>& ports);
// Waits until `station`, started on `profile` as assignSources set it, has bound every source (error
// text naming why not: it exited, with its stderr, or the time ran out).
[[nodiscard]] std::string waitForSources(Child& station, const Json& profile, const std::vector<std::uint16_t>& ports,
                                         const std::filesystem::path& stationErr, double timeoutSeconds = 15);

// Opens `drain` where the host's station can reach it: on loopback, or on every address of this
// machine for a station on another one. Error text, empty on success.
[[nodiscard]] std::string openForwardDrain(ForwardDrain& drain, const StationHost& host);

// A station run as a child process of this one (LocalStationHost: headless; GuiStationHost: the
// workstation): in options.workDir / (tag + a suffix of the kind), recording into options.recordDir /
// ("telestation-perf-" + tag), both removed after stop() unless options.keep. Its memory and CPU are
// read from /proc, its progress from the statistics lines in its directory (stats.jsonl).
class ChildStationHost : public StationHost {
public:
    std::optional<StationSample> sample() override;
    void catchUp(std::uint64_t expected) override;
    DiskReference measureDisk() override;
    [[nodiscard]] std::string returnAddress() const override { return "127.0.0.1"; }
    [[nodiscard]] bool local() const override { return true; }

protected:
    explicit ChildStationHost(RunOptions options) : m_options(std::move(options)) {}
    // Sets the directories for `tag`, removes recordings an earlier run left, creates m_dir / `subdirectory`.
    [[nodiscard]] std::string prepareDirectories(const std::string& tag, const std::string& suffix,
                                                 const std::string& subdirectory);
    // Stops the station with `signal` (its threads' CPU read first, while they run) and fills `out` with
    // its exit, CPU, wall time and output; m_exit says how it ended. Error text when it did not stop
    // within 120 s (`what` names it).
    [[nodiscard]] std::string endStation(int signal, const std::string& what, StationOutcome& out);
    // Removes the directories unless options.keep.
    void removeDirectories();

    RunOptions m_options;
    std::unique_ptr<Child> m_station;
    std::filesystem::path m_dir, m_recordings;
    std::string m_exit; // describeExit() of the last endStation()
};

// The headless station (`telestation --headless`), stopped with SIGINT; its summary from --summary-out.
class LocalStationHost final : public ChildStationHost {
public:
    explicit LocalStationHost(RunOptions options, std::string bindAddress = "127.0.0.1");
    ~LocalStationHost() override;
    std::string start(const std::string& tag, Json profile, const std::string& consume, double safetySeconds,
                      std::vector<std::uint16_t>& ports) override;
    std::string stop(std::uint64_t expected, StationOutcome& out) override;
    [[nodiscard]] std::string stationAddress() const override { return m_bindAddress == "0.0.0.0" ? "127.0.0.1" : m_bindAddress; }

private:
    std::string m_bindAddress;
};

// A station run by `telestation-perf agent` on another machine.
class RemoteStationHost final : public StationHost {
public:
    // Connects to HOST:PORT; returns null with the reason in `error`.
    static std::unique_ptr<RemoteStationHost> connect(const std::string& hostPort, std::string& error);
    ~RemoteStationHost() override;
    std::string start(const std::string& tag, Json profile, const std::string& consume, double safetySeconds,
                      std::vector<std::uint16_t>& ports) override;
    std::optional<StationSample> sample() override;
    void catchUp(std::uint64_t) override {}
    std::string stop(std::uint64_t expected, StationOutcome& out) override;
    DiskReference measureDisk() override;
    [[nodiscard]] std::string stationAddress() const override { return m_host; }
    [[nodiscard]] std::string returnAddress() const override { return m_peer; }
    [[nodiscard]] bool local() const override { return false; }

private:
    RemoteStationHost(int fd, std::string host) : m_fd(fd), m_host(std::move(host)) {}
    // Sends a request, reads the reply; error text or the reply.
    [[nodiscard]] std::optional<Json> request(const Json& message, double timeoutSeconds, std::string& error);
    int m_fd = -1;
    std::string m_host, m_peer;
    std::string m_buffer; // bytes read past the last reply line
};

// The agent: serves one connection after another on ADDRESS:PORT until SIGINT/SIGTERM (or, with
// `connections` > 0, until that many connections have ended). Prints "listening on ADDRESS:PORT" once
// it listens (port 0: the one the system chose). Returns the process's exit code.
int runAgent(const RunOptions& options, const std::string& listen, int connections);

} // namespace telestation::perf
