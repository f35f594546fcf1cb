#include "tools/perf/perf_suite.hpp"

#include "sim/engine/sim_summary.hpp"
#include "tools/perf/perf_external_consumers.hpp"
#include "tools/perf/perf_station_host.hpp"

#include <signal.h>

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <map>
#include <sstream>
#include <string_view>

namespace telestation::perf {

namespace fs = std::filesystem;

namespace {

std::vector<StreamRole> sameStreams(int count, const std::string& mode, bool record, bool forward)
{
    std::vector<StreamRole> streams;
    for (int i = 1; i <= count; ++i)
        streams.push_back({"stream" + std::to_string(i), mode, record, forward});
    return streams;
}

// TReK's figures: ../shared/reference/trek-release1-performance.txt, tables 3 to 10 (PC-933). Stream
// counts as TReK ran them. "packets" is the performance computation pulling every packet; tests 5 and 6
// also retrieved about 50 parameters per packet; test 8's Playback1 had a computation of 50 parameters
// per packet and its Real-Time packet a value display of 72 parameters updated every second.
std::vector<PerfTest> makeTests()
{
    std::vector<PerfTest> t;
    t.push_back({1, "passthru", "Pass thru only", sameStreams(4, "passThru", false, false), "packets", {25.6, 55, 0}});
    t.push_back({2, "record", "Record only", sameStreams(5, "passThru", true, false), "", {52.1, 60, 0}});
    t.push_back({3, "forward", "Forward only", sameStreams(5, "passThru", false, true), "", {35.7, 45, 0}});
    t.push_back({4, "record-forward", "Record and forward", sameStreams(4, "passThru", true, true), "", {30.5, 35, 0}});
    t.push_back({5, "process", "Process entire packet only", sameStreams(3, "processEntirePacket", false, false),
                 "packets,parameters:50", {5, 70, 22230}});
    t.push_back({6, "process-record-forward", "Process entire packet, record and forward",
                 sameStreams(3, "processEntirePacket", true, true), "packets,parameters:50", {4, 40, 17800}});
    t.push_back({7, "passthru-record-forward", "Pass thru, record and forward", sameStreams(4, "passThru", true, true),
                 "packets", {20.1, 65, 0}});
    t.push_back({8, "typical", "A typical end user",
                 {{"playback1", "processOnDemand", true, false},
                  {"playback2", "passThru", true, false},
                  {"playback3", "passThru", true, false},
                  {"realtime", "processOnDemand", true, false}},
                 "computation:50@playback1,display:72@realtime",
                 {11.1, 25, 17800}});
    return t;
}

void addProblem(std::string& out, const std::string& what, std::uint64_t count)
{
    if (count == 0)
        return;
    out += (out.empty() ? "" : ", ") + what + " " + std::to_string(count);
}

void addMismatch(std::string& out, const std::string& what, std::uint64_t got, std::uint64_t expected)
{
    if (got == expected)
        return;
    out += (out.empty() ? "" : ", ") + what + " " + std::to_string(got) + " of " + std::to_string(expected);
}

} // namespace

const char* consumerPlaceName(ConsumerPlace place)
{
    switch (place) {
    case ConsumerPlace::InProcess: return "in-process";
    case ConsumerPlace::External: return "external";
    case ConsumerPlace::ExternalPython: return "external-python";
    }
    return "in-process";
}

std::optional<ConsumerPlace> parseConsumerPlace(const std::string& text)
{
    for (const auto place : {ConsumerPlace::InProcess, ConsumerPlace::External, ConsumerPlace::ExternalPython})
        if (text == consumerPlaceName(place))
            return place;
    return std::nullopt;
}

double RunResult::clientCpuPercent() const
{
    double seconds = 0;
    for (const auto& [item, s] : clientCpu)
        seconds += s;
    return sendSeconds > 0 ? 100 * seconds / sendSeconds : 0;
}

std::vector<ConsumeItem> consumeItems(const std::string& list)
{
    std::vector<ConsumeItem> items;
    std::istringstream in(list);
    std::string text;
    while (std::getline(in, text, ',')) {
        if (text.empty())
            continue;
        ConsumeItem item;
        item.text = text;
        std::string rest = text;
        if (const auto at = rest.find('@'); at != std::string::npos) {
            item.stream = rest.substr(at + 1);
            rest.resize(at);
        }
        if (const auto colon = rest.find(':'); colon != std::string::npos) {
            item.count = static_cast<std::uint32_t>(std::strtoul(rest.c_str() + colon + 1, nullptr, 10));
            rest.resize(colon);
        }
        item.kind = rest;
        items.push_back(item);
    }
    return items;
}

std::map<std::string, ConsumerLine> consumerLines(const std::string& output)
{
    std::map<std::string, ConsumerLine> lines;
    std::istringstream in(output);
    std::string line;
    while (std::getline(in, line)) {
        if (line.rfind("Consumer ", 0) != 0)
            continue;
        const auto colon = line.find(": ", 9);
        if (colon == std::string::npos)
            continue;
        // "P packets, Q parameters[, D dropped]"
        std::string_view rest = std::string_view(line).substr(colon + 2);
        const auto number = [&rest](std::uint64_t& out, std::string_view after) {
            const char* end = rest.data() + rest.size();
            const auto [next, ec] = std::from_chars(rest.data(), end, out);
            if (ec != std::errc{} || !std::string_view(next, static_cast<std::size_t>(end - next)).starts_with(after))
                return false;
            rest.remove_prefix(static_cast<std::size_t>(next - rest.data()) + after.size());
            return true;
        };
        ConsumerLine c;
        if (!number(c.packets, " packets, ") || !number(c.parameters, " parameters"))
            continue;
        if (rest.starts_with(", ")) {
            rest.remove_prefix(2);
            if (!number(c.dropped, " dropped"))
                c.dropped = 0;
        }
        lines[line.substr(9, colon - 9)] = c;
    }
    return lines;
}

bool PerfTest::records() const
{
    return std::any_of(streams.begin(), streams.end(), [](const StreamRole& s) { return s.record; });
}

bool PerfTest::forwards() const
{
    return std::any_of(streams.begin(), streams.end(), [](const StreamRole& s) { return s.forward; });
}

bool PerfTest::processes() const
{
    return std::any_of(streams.begin(), streams.end(), [](const StreamRole& s) { return s.mode != "passThru"; });
}

const std::vector<PerfTest>& trekTests()
{
    static const std::vector<PerfTest> tests = makeTests();
    return tests;
}

std::optional<std::vector<const PerfTest*>> selectTests(const std::string& list, std::string& error)
{
    std::vector<const PerfTest*> out;
    if (list.empty() || list == "all") {
        for (const auto& t : trekTests())
            out.push_back(&t);
        return out;
    }
    std::istringstream in(list);
    std::string name;
    while (std::getline(in, name, ',')) {
        if (name.empty())
            continue;
        const auto it = std::find_if(trekTests().begin(), trekTests().end(),
                                     [&](const PerfTest& t) { return name == t.key || name == std::to_string(t.number); });
        if (it == trekTests().end()) {
            error = "unknown test '" + name + "' (1-8 or passthru, record, forward, record-forward, process, "
                    "process-record-forward, passthru-record-forward, typical)";
            return std::nullopt;
        }
        out.push_back(&*it);
    }
    if (out.empty()) {
        error = "no test selected";
        return std::nullopt;
    }
    return out;
}

const Json& member(const Json& object, const char* key)
{
    static const Json kNull;
    if (!object.is_object())
        return kNull;
    const auto it = object.find(key);
    return it == object.end() ? kNull : *it;
}

std::uint64_t u64(const Json& object, const char* key)
{
    const Json& v = member(object, key);
    return v.is_number_unsigned() ? v.get<std::uint64_t>() : 0;
}

std::string rateNumber(double mbps)
{
    char text[64];
    std::snprintf(text, sizeof text, "%.3f", mbps);
    std::string s = text;
    while (s.back() == '0')
        s.pop_back();
    if (s.back() == '.')
        s.pop_back();
    return s;
}

std::string rateText(double mbps)
{
    return rateNumber(mbps) + "Mbps";
}

Json testProfile(const PerfTest& test, const RunOptions& options, const std::string& forwardUrl)
{
    Json streams = Json::array();
    for (const StreamRole& role : test.streams) {
        Json packet = {{"apid", options.apid}, {"mode", role.mode}};
        if (role.record)
            packet["record"] = true;
        if (role.forward)
            packet["forward"] = Json::array({forwardUrl});
        streams.push_back({{"name", role.name}, {"source", ""}, {"packets", Json::array({packet})}});
    }
    Json profile = {{"streams", streams}};
    if (!options.queues.is_null())
        profile["queues"] = options.queues;
    return profile;
}

std::string startSimulator(const RunOptions& options, const fs::path& dir, const Json& scenario, double seconds, Child& sim)
{
    if (!writeFile(dir / "scenario.json", scenario.dump(2) + "\n"))
        return "cannot write " + (dir / "scenario.json").string();
    std::vector<std::string> args = {(options.binDir / "telestation-sim").string(), "--headless", "--scenario",
        (dir / "scenario.json").string(), "--duration", rateNumber(seconds), "--summary-out", (dir / "sim.json").string()};
    if (!options.mdb.empty())
        args.insert(args.end(), {"--mdb", options.mdb});
    return sim.start(args, dir / "sim.out", dir / "sim.err");
}

std::string runTest(const RunOptions& options, StationHost& host, const PerfTest& test, double aggregateMbps, RunResult& run)
{
    run = RunResult{};
    run.test = &test;
    run.askedMbps = aggregateMbps;
    const std::string tag = "test" + std::to_string(test.number) + "-" + rateText(aggregateMbps)
        + (options.label.empty() ? "" : "-" + options.label);
    const fs::path dir = options.workDir / tag;
    if (auto e = freshDirectory(dir); !e.empty())
        return e;
    // The forward destination: a socket here that counts what arrives.
    ForwardDrain drain;
    if (test.forwards())
        if (auto e = openForwardDrain(drain, host); !e.empty())
            return e;
    const std::string forwardUrl = "udp://" + host.returnAddress() + ":" + std::to_string(drain.port());

    // External consumers: clients of the station's user API on a free loopback port, subscribed before
    // the simulator starts; the station runs no consumer of its own.
    const bool external = options.consumer != ConsumerPlace::InProcess;
    if (external && !host.local())
        return std::string("--consumer ") + consumerPlaceName(options.consumer)
            + " needs the station on this machine: its clients reach the station's API over loopback";
    Json profile = testProfile(test, options, forwardUrl);
    const std::uint16_t apiPort = external ? freeTcpPort() : 0;
    if (external)
        profile["api"] = {{"address", "127.0.0.1"}, {"port", apiPort}};
    ExternalConsumers clients;

    const UdpErrors udpBefore = udpErrors();
    const double busyBefore = machineBusySeconds();
    const double selfBefore = selfCpuSeconds();
    std::vector<std::uint16_t> ports;
    if (auto e = host.start(tag, profile, external ? "" : test.consume, options.seconds + 120, ports); !e.empty())
        return e;
    if (external)
        if (auto e = clients.start(options, dir, apiPort, test.consume); !e.empty()) {
            StationOutcome ignored;
            (void)host.stop(0, ignored);
            return e;
        }

    // The simulator: one stream per station stream, the aggregate rate spread equally.
    Json scenario = {{"streams", Json::array()}};
    for (std::size_t i = 0; i < test.streams.size(); ++i) {
        Json stream = {{"name", test.streams[i].name},
                       {"destination", "udp://" + host.stationAddress() + ":" + std::to_string(ports.at(i))},
                       {"rate", rateText(aggregateMbps / double(test.streams.size()))},
                       {"mix", Json::array({{{"packet", options.packetName}, {"weight", 1}}})},
                       {"seed", i + 1}};
        if (!options.generators.is_null())
            stream["generators"] = options.generators;
        scenario["streams"].push_back(std::move(stream));
    }
    Child sim;
    if (auto e = startSimulator(options, dir, scenario, options.seconds, sim); !e.empty())
        return e;
    auto simExit = sim.wait(options.seconds + 60);
    if (!simExit) {
        sim.sendSignal(SIGINT);
        simExit = sim.wait(10);
    }
    if (!simExit || simExit->code != 0)
        return "the simulator failed (" + std::to_string(simExit ? simExit->code : -1) + "):\n" + readFile(dir / "sim.err");
    auto simSummary = sim::summaryFromJson(readFile(dir / "sim.json"));
    if (!simSummary)
        return (dir / "sim.json").string() + ": " + simSummary.error().message;
    const sim::StreamSummary total = simSummary->total();
    run.sent = total.sent.packets;
    run.sentBytes = total.sent.bytes;
    run.sendSeconds = total.seconds;
    run.mbps = total.bitsPerSecond / 1e6;
    run.packetsPerSecond = total.packetsPerSecond;
    run.simCpu = simExit->cpuSeconds;
    std::map<std::string, std::uint64_t> sentByStream;
    for (const auto& s : simSummary->streams)
        sentByStream[s.name] = s.sent.packets;

    // The clients take the station's last packets through the API before it stops (stopping ends the
    // calls): they end by themselves, idle after the last data.
    std::string clientFailure;
    if (external) {
        host.catchUp(run.sent);
        clientFailure = clients.finish(options.seconds + 60);
        run.clientCpu = clients.cpuSeconds();
    }
    StationOutcome outcome;
    if (auto e = host.stop(run.sent, outcome); !e.empty())
        return e;
    run.stationExit = outcome.exitCode;
    run.stationCpu = outcome.cpuSeconds;
    run.threadCpu = outcome.threadCpu;
    run.threadUserCpu = outcome.threadUserCpu;
    run.events = outcome.events;
    if (external) {
        double named = 0;
        for (const auto& [name, seconds] : run.threadCpu)
            named += seconds;
        const auto grpc = run.threadCpu.find("grpcpp_sync_ser"); // gRPC's name, cut to 15 characters
        run.apiCpu = (grpc == run.threadCpu.end() ? 0 : grpc->second) + std::max(0.0, run.stationCpu - named);
    }
    if (host.local()) {
        const double others = machineBusySeconds() - busyBefore - (selfCpuSeconds() - selfBefore) - run.stationCpu - run.simCpu
            - clients.totalCpuSeconds();
        run.otherCpuPercent = std::max(0.0, 100 * others / std::max(outcome.wallSeconds, 1e-3));
    }
    if (test.forwards()) {
        // The last forwarded datagrams may still be on their way to the drain.
        std::uint64_t last = drain.packets();
        for (int i = 0; i < 50; ++i) {
            sleepMs(20);
            if (drain.packets() == last && last >= run.sent)
                break;
            last = drain.packets();
        }
        drain.stop();
    }
    const Json& summary = outcome.summary;
    const Json& totals = member(summary, "totals");
    run.received = u64(totals, "packetsReceived");
    run.processed = u64(totals, "packetsProcessed");
    run.decoded = u64(totals, "parametersDecoded");

    // Where packets went missing, in the order of the pipeline.
    std::string f;
    addMismatch(f, "received", run.received, run.sent);
    addMismatch(f, "bytes received", u64(totals, "bytesReceived"), run.sentBytes);
    std::uint64_t kernel = 0, pool = 0, truncated = 0, network = 0, process = 0, record = 0, forward = 0;
    std::map<std::string, std::uint64_t> receivedByStream;
    std::uint64_t processedEntirely = 0, recordable = 0, forwardable = 0;
    for (const auto& stream : member(summary, "streams")) {
        kernel += u64(stream, "kernelDrops");
        pool += u64(stream, "poolDrops");
        truncated += u64(stream, "truncatedPackets");
        network += u64(member(stream, "networkQueue"), "drops");
        process += u64(member(stream, "processQueue"), "drops");
        record += u64(member(stream, "recordQueue"), "drops");
        forward += u64(member(stream, "forwardQueue"), "drops");
        const std::string name = member(stream, "name").is_string() ? member(stream, "name").get<std::string>() : "";
        const std::uint64_t got = u64(member(stream, "counters"), "packetsReceived");
        receivedByStream[name] = got;
        const auto role = std::find_if(test.streams.begin(), test.streams.end(), [&](const StreamRole& r) { return r.name == name; });
        if (role == test.streams.end())
            continue;
        addMismatch(f, name + " received", got, sentByStream[name]);
        processedEntirely += role->mode == "processEntirePacket" ? got : 0;
        recordable += role->record ? got : 0;
        forwardable += role->forward ? got : 0;
    }
    addProblem(f, "kernel drops", kernel);
    addProblem(f, "pool drops", pool);
    addProblem(f, "truncated", truncated);
    addProblem(f, "network queue drops", network);
    addProblem(f, "process queue drops", process);
    addProblem(f, "record queue drops", record);
    addProblem(f, "forward queue drops", forward);
    addProblem(f, "sequence lost", u64(totals, "packetsLost"));
    addProblem(f, "malformed", u64(totals, "malformed"));
    addProblem(f, "record errors", u64(totals, "recordErrors"));
    addProblem(f, "forward errors", u64(totals, "forwardErrors"));
    addMismatch(f, "processed", run.processed, run.received);
    addMismatch(f, "parameters decoded", run.decoded, processedEntirely * options.parametersPerPacket);
    addMismatch(f, "recorded", u64(totals, "packetsRecorded"), recordable);
    addMismatch(f, "forwarded", u64(totals, "packetsForwarded"), forwardable);
    for (const auto& consumer : summary.value("consumers", Json::array()))
        addProblem(f, "consumer queue drops", u64(member(consumer, "queue"), "drops"));

    // Each consumer got everything it asked for.
    if (!clientFailure.empty())
        f += std::string(f.empty() ? "" : ", ") + clientFailure;
    const auto lines = consumerLines(external ? clients.output() : outcome.out);
    for (const ConsumeItem& item : consumeItems(test.consume)) {
        const auto it = lines.find(item.text);
        if (it == lines.end()) {
            f += std::string(f.empty() ? "" : ", ") + "no report of consumer " + item.text;
            continue;
        }
        const std::uint64_t scope = item.stream.empty() ? run.received : receivedByStream[item.stream];
        const std::uint64_t perPacket = std::min(item.count, options.parametersPerPacket);
        if (item.kind == "packets")
            addMismatch(f, "consumer '" + item.text + "' packets", it->second.packets, scope);
        if (item.kind == "parameters")
            addMismatch(f, "consumer '" + item.text + "' parameters", it->second.parameters,
                        processedEntirely * (item.count == 0 ? options.parametersPerPacket : perPacket));
        if (item.kind == "computation") {
            addMismatch(f, "consumer '" + item.text + "' packets", it->second.packets, scope);
            addMismatch(f, "consumer '" + item.text + "' parameters", it->second.parameters, scope * perPacket);
        }
        addProblem(f, "dropped for client '" + item.text + "'", it->second.dropped);
        if (item.kind != "display")
            run.retrieved += it->second.parameters;
    }
    if (test.forwards()) {
        std::uint64_t forwardedBytes = 0;
        for (const auto& s : member(summary, "streams"))
            if (std::any_of(test.streams.begin(), test.streams.end(),
                            [&](const StreamRole& r) { return r.forward && member(s, "name") == r.name; }))
                forwardedBytes += u64(member(s, "counters"), "bytesReceived");
        for (const auto& destination : summary.value("forwards", Json::array()))
            addProblem(f, "not sent", u64(destination, "notSent"));
        addMismatch(f, "arrived at the forward socket", drain.packets(), forwardable);
        addMismatch(f, "forward socket bytes", drain.bytes(), forwardedBytes);
    }
    const UdpErrors udpAfter = udpErrors();
    if (!f.empty() && (udpAfter.receiveBuffer != udpBefore.receiveBuffer || udpAfter.sendBuffer != udpBefore.sendBuffer))
        f += "; machine-wide UDP receive / send buffer errors " + std::to_string(udpAfter.receiveBuffer - udpBefore.receiveBuffer)
            + " / " + std::to_string(udpAfter.sendBuffer - udpBefore.sendBuffer);
    if (run.stationExit != 0 && f.empty())
        f = "station exit " + std::to_string(run.stationExit);
    run.failure = f;
    run.ok = f.empty() && run.stationExit == 0 && run.sent > 0;

    // How close the queues came to full: the first thing to look at when a higher rate fails.
    std::uint64_t hwNetwork = 0, hwProcess = 0, hwRecord = 0, hwForward = 0, hwConsumer = 0;
    for (const auto& s : member(summary, "streams")) {
        hwNetwork = std::max(hwNetwork, u64(member(s, "networkQueue"), "highWater"));
        hwProcess = std::max(hwProcess, u64(member(s, "processQueue"), "highWater"));
        hwRecord = std::max(hwRecord, u64(member(s, "recordQueue"), "highWater"));
        hwForward = std::max(hwForward, u64(member(s, "forwardQueue"), "highWater"));
    }
    for (const auto& consumer : summary.value("consumers", Json::array()))
        hwConsumer = std::max(hwConsumer, u64(member(consumer, "queue"), "highWater"));
    run.note = "highest queue high water: network " + std::to_string(hwNetwork) + ", process " + std::to_string(hwProcess);
    if (test.records())
        run.note += ", record " + std::to_string(hwRecord);
    if (test.forwards())
        run.note += ", forward " + std::to_string(hwForward);
    if (!test.consume.empty() && !external) // an external client's subscription has ended with its call
        run.note += ", consumer " + std::to_string(hwConsumer);

    std::error_code ec;
    if (!options.keep)
        fs::remove_all(dir, ec);
    return {};
}

SearchResult searchHighestRate(const RunOptions& options, StationHost& host, const SearchOptions& search, const PerfTest& test,
                               const std::function<void(const RunResult&)>& onRun)
{
    SearchResult result;
    result.test = &test;
    // One rate: the run, retried when it loses (a 10-50 ms stall of one thread on a busy 2-core
    // machine can fill a queue at these rates, and the next run of the same rate often passes).
    const auto tryRate = [&](double mbps) -> std::optional<bool> {
        for (int attempt = 0; attempt <= search.retries; ++attempt) {
            RunResult run;
            if (auto error = runTest(options, host, test, mbps, run); !error.empty()) {
                result.error = error;
                return std::nullopt;
            }
            result.runs.push_back(run);
            if (onRun)
                onRun(run);
            if (run.ok) {
                if (!result.best || run.mbps > result.best->mbps)
                    result.best = run;
                return true;
            }
        }
        result.lossyMbps.push_back(mbps);
        return false;
    };

    double pass = 0, fail = 0;
    double rate = std::clamp(search.startMbps, search.minMbps, search.maxMbps);
    auto ok = tryRate(rate);
    if (!ok)
        return result;
    if (*ok) {
        pass = rate;
        while (rate < search.maxMbps) {
            rate = std::min(rate * 2, search.maxMbps);
            ok = tryRate(rate);
            if (!ok)
                return result;
            if (!*ok) {
                fail = rate;
                break;
            }
            pass = rate;
        }
    } else {
        fail = rate;
        while (rate > search.minMbps) {
            rate = std::max(rate / 2, search.minMbps);
            ok = tryRate(rate);
            if (!ok)
                return result;
            if (*ok) {
                pass = rate;
                break;
            }
            fail = rate;
        }
    }
    for (int step = 0; step < search.refine && pass > 0 && fail > 0; ++step) {
        const double mid = std::sqrt(pass * fail);
        ok = tryRate(mid);
        if (!ok)
            return result;
        (*ok ? pass : fail) = mid;
    }
    return result;
}

} // namespace telestation::perf
