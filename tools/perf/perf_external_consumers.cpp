#include "tools/perf/perf_external_consumers.hpp"

#include <unistd.h>

#include <algorithm>

namespace telestation::perf {

namespace fs = std::filesystem;

namespace {

constexpr double kApiStartSeconds = 15;  // the station serves its API right after it starts
constexpr double kSubscribeSeconds = 60; // a Python client imports numpy and grpc first: a few seconds on a busy machine

bool executable(const fs::path& path)
{
    return ::access(path.c_str(), X_OK) == 0;
}

bool readable(const fs::path& path)
{
    return ::access(path.c_str(), R_OK) == 0;
}

bool subscribed(const std::string& out)
{
    return out.rfind("subscribed\n", 0) == 0;
}

} // namespace

std::vector<std::string> consumerCommand(ConsumerPlace place, const fs::path& binDir, std::string& error)
{
    if (place == ConsumerPlace::External) {
        const fs::path program = binDir / "telestation-api-consumer";
        if (executable(program))
            return {program.string()};
        error = "no telestation-api-consumer in " + binDir.string() + " (build the target telestation-api-consumer)";
        return {};
    }
    if (place == ConsumerPlace::ExternalPython) {
        // The build tree's environment: build/PRESET/bin beside build/PRESET/python-venv.
        const fs::path venv = binDir.parent_path() / "python-venv";
        const fs::path python = venv / "bin" / "python";
        const fs::path script = venv / "bin" / "perf_consumer.py";
        if (executable(python) && readable(script))
            return {python.string(), script.string()};
        error = "no Python client environment with perf_consumer.py at " + venv.string()
            + " (build the target telestation_python_client; CMake says at configure time when it skips it, "
              "e.g. for want of python3-grpcio, python3-numpy or protobuf-compiler-grpc)";
        return {};
    }
    error = "the consumers run in the station's process";
    return {};
}

std::string externalConsumable(const std::string& consume)
{
    for (const ConsumeItem& item : consumeItems(consume)) {
        const bool ok = item.stream.empty()
            && ((item.kind == "packets" && item.text == "packets") || (item.kind == "parameters" && item.count > 0));
        if (!ok)
            return "consumer '" + item.text + "' cannot be an external client (only packets and parameters:N, "
                                              "on every stream)";
    }
    return {};
}

std::string ExternalConsumers::start(const RunOptions& options, const fs::path& dir, std::uint16_t apiPort,
                                     const std::string& consume)
{
    if (auto e = externalConsumable(consume); !e.empty())
        return e;
    std::string error;
    const std::vector<std::string> command = consumerCommand(options.consumer, options.binDir, error);
    if (command.empty())
        return error;
    const auto apiDeadline = Clock::now() + std::chrono::duration<double>(kApiStartSeconds);
    while (!tcpPortListening(apiPort)) {
        if (Clock::now() >= apiDeadline)
            return "the station did not serve its API on 127.0.0.1:" + std::to_string(apiPort) + " within "
                + rateNumber(kApiStartSeconds) + " s";
        sleepMs(10);
    }
    for (const ConsumeItem& item : consumeItems(consume)) {
        Client c;
        c.item = item.text;
        std::string name = item.text;
        std::replace(name.begin(), name.end(), ':', '-');
        c.out = dir / ("client-" + name + ".out");
        c.err = dir / ("client-" + name + ".err");
        std::vector<std::string> args = command;
        args.insert(args.end(), {"--target", "127.0.0.1:" + std::to_string(apiPort), "--consume", item.text, "--packet",
                                 options.packetName});
        c.child = std::make_unique<Child>();
        if (auto e = c.child->start(args, c.out, c.err); !e.empty())
            return e;
        m_clients.push_back(std::move(c));
    }
    // Each has its subscription in place before the simulator sends anything.
    for (Client& c : m_clients) {
        const auto deadline = Clock::now() + std::chrono::duration<double>(kSubscribeSeconds);
        while (!subscribed(readFile(c.out))) {
            std::string failure;
            if (auto exit = c.child->wait(0))
                failure = " " + describeExit(*exit);
            else if (Clock::now() >= deadline)
                failure = " did not subscribe within " + rateNumber(kSubscribeSeconds) + " s";
            if (!failure.empty())
                return "external consumer '" + c.item + "'" + failure + ":\n" + readFile(c.err);
            sleepMs(10);
        }
        if (const auto s = sampleProcess(c.child->pid()))
            c.startupCpuSeconds = s->cpuSeconds;
    }
    return {};
}

std::string ExternalConsumers::finish(double timeoutSeconds)
{
    std::string problems;
    const auto deadline = Clock::now() + std::chrono::duration<double>(timeoutSeconds);
    for (Client& c : m_clients) {
        const double left = std::max(0.0, std::chrono::duration<double>(deadline - Clock::now()).count());
        auto exit = c.child->wait(left);
        std::string problem;
        if (!exit) {
            exit = c.child->stop();
            problem = "did not end within " + rateNumber(timeoutSeconds) + " s of the simulator";
        } else if (exit->code != 0) {
            problem = describeExit(*exit);
        }
        if (exit) {
            m_cpuSeconds[c.item] = std::max(0.0, exit->cpuSeconds - c.startupCpuSeconds);
            m_totalCpuSeconds += exit->cpuSeconds;
        }
        m_output += readFile(c.out);
        if (!problem.empty()) {
            std::string err = readFile(c.err);
            if (err.size() > 2000)
                err = "..." + err.substr(err.size() - 2000);
            problems += (problems.empty() ? "" : ", ") + ("external consumer '" + c.item + "' " + problem)
                + (err.empty() ? "" : ": " + err);
        }
    }
    m_clients.clear();
    return problems;
}

} // namespace telestation::perf
