// A test's API consumers as programs of their own (`--consumer external` / `external-python`): for each
// item of the test's consume list ("packets", "parameters:50") one client process of the station's user
// API — telestation-api-consumer (C++) or perf_consumer.py (Python, the build tree's environment) —
// started before the simulator, that prints "subscribed" once its subscription is in place, does the
// performance computation on every sample, and, idle for 2 s after its data, prints the headless
// station's "Consumer ITEM: P packets, Q parameters" line (with ", D dropped") and exits.
#pragma once

#include "tools/perf/perf_process.hpp"
#include "tools/perf/perf_suite.hpp"

#include <filesystem>
#include <map>
#include <memory>
#include <string>
#include <vector>

namespace telestation::perf {

// The command that runs one external consumer for `place` (not InProcess), found relative to
// `binDir`: bin/telestation-api-consumer, or ../python-venv/bin/python with
// ../python-venv/bin/perf_consumer.py. Empty, with the reason in `error` (what is missing, how to build
// it), when it is not there.
[[nodiscard]] std::vector<std::string> consumerCommand(ConsumerPlace place, const std::filesystem::path& binDir,
                                                       std::string& error);

// Whether every item of a consume list can be an external client (packets, parameters:N, on every
// stream). Error text naming the item, empty when they all can.
[[nodiscard]] std::string externalConsumable(const std::string& consume);

class ExternalConsumers {
public:
    ExternalConsumers() = default;
    ExternalConsumers(const ExternalConsumers&) = delete;
    ExternalConsumers& operator=(const ExternalConsumers&) = delete;
    ~ExternalConsumers() = default; // Child kills a client still running

    // Waits for the station's API on 127.0.0.1:`apiPort`, starts a client per item of `consume`
    // (outputs in `dir`), and waits until each has its subscription in place. Error text, empty on success.
    [[nodiscard]] std::string start(const RunOptions& options, const std::filesystem::path& dir, std::uint16_t apiPort,
                                    const std::string& consume);
    // Waits up to `timeoutSeconds` for every client to end by itself (idle after the station's last
    // data); one that does not is stopped. What went wrong (a client that failed or had to be stopped,
    // with what it printed), empty when each ended well.
    [[nodiscard]] std::string finish(double timeoutSeconds);

    // Every client's stdout, one after the other: the "Consumer ..." lines.
    [[nodiscard]] const std::string& output() const noexcept { return m_output; }
    // Each client's CPU seconds (user + system) from its subscription to its exit, by item: what the
    // computation cost, without the program's start (for Python, the imports).
    [[nodiscard]] const std::map<std::string, double>& cpuSeconds() const noexcept { return m_cpuSeconds; }
    // All the clients' CPU seconds, their start included: not other programs' noise.
    [[nodiscard]] double totalCpuSeconds() const noexcept { return m_totalCpuSeconds; }

private:
    struct Client {
        std::string item;
        std::unique_ptr<Child> child;
        std::filesystem::path out, err;
        double startupCpuSeconds = 0; // used before its subscription was in place
    };
    std::vector<Client> m_clients;
    std::string m_output;
    std::map<std::string, double> m_cpuSeconds;
    double m_totalCpuSeconds = 0;
};

} // namespace telestation::perf
