#include "tools/perf/perf_report.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace telestation::perf {

std::string fixed(double value, int decimals)
{
    char text[64];
    std::snprintf(text, sizeof text, "%.*f", decimals, value);
    return text;
}

namespace {

std::string ratio(double ours, double theirs)
{
    if (!(ours > 0) || !(theirs > 0))
        return "—";
    const double r = ours / theirs;
    return "×" + (r >= 10 ? grouped(std::round(r)) : fixed(r, 2));
}

std::string percentOf(double ours, double reference)
{
    if (!(ours > 0) || !(reference > 0))
        return "—";
    return fixed(100 * ours / reference, 0) + "%";
}

std::string lossyList(const SearchResult& r)
{
    std::string out;
    for (const double m : r.lossyMbps)
        out += (out.empty() ? "" : ", ") + grouped(m);
    return out.empty() ? "none" : out;
}

} // namespace

std::string grouped(double value)
{
    if (!std::isfinite(value))
        return "—";
    const long long whole = std::llround(value);
    std::string digits = std::to_string(whole < 0 ? -whole : whole);
    std::string out;
    for (std::size_t i = 0; i < digits.size(); ++i) {
        if (i > 0 && (digits.size() - i) % 3 == 0)
            out += ' ';
        out += digits[i];
    }
    return whole < 0 ? "-" + out : out;
}

std::string consumerPlaceText(ConsumerPlace place)
{
    switch (place) {
    case ConsumerPlace::InProcess: return "in the station's process (its --consume)";
    case ConsumerPlace::External:
        return "external: a C++ client of the station's user API (gRPC over loopback) per consumer, "
               "telestation-api-consumer, every sample";
    case ConsumerPlace::ExternalPython:
        return "external: a Python client of the station's user API (gRPC over loopback) per consumer, "
               "perf_consumer.py (parameter_batches(), packets().batches()), every sample";
    }
    return {};
}

std::string suiteMarkdown(const SuiteReport& report)
{
    const bool external = report.consumer != ConsumerPlace::InProcess;
    const double udpMbps = report.udp.available ? report.udp.lossFreeMbps : 0; // 0 when every rate lost
    const double diskMbps = report.disk.ok ? report.disk.megabytesPerSecond * 8 : 0;
    std::string md;
    md += "## telestation-perf, " + report.date + "\n\n";
    md += "- Machine: " + report.machine + "; " + report.kernel + "\n";
    md += "- Command: `" + report.command + "`\n";
    md += "- Each run: the simulator and a headless station as separate processes over loopback UDP, 1288-byte "
          "Packet 5 (APID 7) spread equally over the test's streams, " + rateNumber(report.secondsPerRun)
        + " s of sending; a rate passes with 100% delivery (every packet received, processed, recorded and "
          "forwarded as set, every consumer served, no drop anywhere).\n";
    md += "- Reference, network: "
        + (report.udp.available && report.udp.lossFreeMbps > 0
               ? "iperf3 (" + report.udp.iperfVersion + ") loss-free UDP over 127.0.0.1 at "
                     + std::to_string(report.udp.datagramBytes) + "-byte datagrams, socket buffers of "
                     + grouped(double(report.udp.socketBufferBytes) / 1024.0) + " KiB: " + grouped(report.udp.lossFreeMbps)
                     + " Mbit/s"
                     + (report.udp.reason.empty() ? "" : " (" + report.udp.reason + ")")
               : "not measured (" + (report.udp.reason.empty() ? std::string("iperf3 lost datagrams at every rate tried") : report.udp.reason) + ")")
        + "\n";
    md += "- Reference, disk: "
        + (report.disk.ok ? "sequential write of " + grouped(double(report.disk.bytes) / 1e6) + " MB to the recording directory ("
                                + report.disk.filesystem + "), with fsync: " + grouped(report.disk.megabytesPerSecond)
                                + " MB/s = " + grouped(diskMbps) + " Mbit/s"
                          : "not measured (" + report.disk.error + ")")
        + "\n";
    md += "- API consumers: " + consumerPlaceText(report.consumer) + "\n\n";

    md += "| test | streams | TReK PC-933 | Telestation | × TReK | packets/s | parameters/s (TReK) | parameters/s | station CPU % (TReK) "
        + std::string(external ? "| client CPU % " : "") + "| vs UDP reference | vs disk | rates with loss (Mbit/s) |\n";
    md += std::string(external ? "|---" : "") + "|---|---|---|---|---|---|---|---|---|---|---|---|\n";
    for (const SearchResult& r : report.results) {
        const PerfTest& t = *r.test;
        md += "| " + std::to_string(t.number) + " " + t.title + " | " + std::to_string(t.streams.size()) + " | "
            + fixed(t.trek.mbps, 1) + " Mbit/s | ";
        if (!r.best) {
            md += (r.error.empty() ? "no rate without loss" : "not measured: " + r.error) + " | | | | | | | | "
                + (external ? "| " : "") + lossyList(r) + " |\n";
            continue;
        }
        const RunResult& b = *r.best;
        const bool params = t.trek.parametersPerSecond > 0;
        md += grouped(b.mbps) + " Mbit/s | " + ratio(b.mbps, t.trek.mbps) + " | " + grouped(b.packetsPerSecond) + " | "
            + (params ? grouped(t.trek.parametersPerSecond) : "") + " | "
            + (params ? grouped(b.retrievedPerSecond()) + " (" + ratio(b.retrievedPerSecond(), t.trek.parametersPerSecond) + ")" : "")
            + " | " + fixed(b.stationCpuPercent(), 0) + " (" + fixed(t.trek.cpuPercent, 0) + ") | "
            + (external ? fixed(b.clientCpuPercent(), 0) + " | " : "") + percentOf(b.mbps, udpMbps) + " | " + (t.records() ? percentOf(b.mbps, diskMbps) : "") + " | " + lossyList(r)
            + " |\n";
    }
    md += "\nCPU %: the station's user + system time over the sending time, 100 = one core (TReK: Task Manager's "
          "average, 100 = the whole machine). parameters/s: parameter values the API consumers took (TReK: about 50 "
          "per packet retrieved by the performance computation); the station decoded every parameter of every "
          "processed packet besides."
        + std::string(external ? " client CPU %: the external consumers' user + system time from their subscription "
                                 "to their exit, over the sending time, all of them together."
                               : "")
        + "\n";

    // One small table per test, laid out like TReK's tables 3-10.
    for (const SearchResult& r : report.results) {
        const PerfTest& t = *r.test;
        md += "\n### Test " + std::to_string(t.number) + " — " + t.title + "\n\n";
        const auto handling = [](const StreamRole& s) {
            std::string what = s.mode == "passThru" ? "pass thru" : s.mode == "processOnDemand" ? "process on demand" : "process entire packet";
            if (s.record)
                what += " + record";
            if (s.forward)
                what += " + forward";
            return what;
        };
        std::string roles;
        const bool alike = std::all_of(t.streams.begin(), t.streams.end(),
                                       [&](const StreamRole& s) { return handling(s) == handling(t.streams.front()); });
        if (alike) {
            roles = "each " + handling(t.streams.front());
        } else {
            for (const auto& s : t.streams)
                roles += (roles.empty() ? "" : "; ") + s.name + ": " + handling(s);
        }
        md += std::to_string(t.streams.size()) + " streams of Packet 5, " + roles
            + (t.consume.empty() ? "" : "; API consumers `" + t.consume + "`" + (external ? " (" + std::string(consumerPlaceName(report.consumer)) + ")" : ""))
            + ".\n\n";
        md += "| | TReK PC-933 | Telestation |\n|---|---|---|\n";
        const RunResult* b = r.best ? &*r.best : nullptr;
        md += "| Aggregate data rate | " + fixed(t.trek.mbps, 1) + " Mbit/s | "
            + (b ? grouped(b->mbps) + " Mbit/s (" + grouped(b->packetsPerSecond) + " packets/s)" : "no rate without loss") + " |\n";
        md += "| Average CPU usage | " + fixed(t.trek.cpuPercent, 0) + " % | "
            + (b ? fixed(b->stationCpuPercent(), 0) + " % of one core" : "") + " |\n";
        if (b && !b->clientCpu.empty()) {
            std::string clients;
            for (const auto& [item, seconds] : b->clientCpu)
                clients += (clients.empty() ? "" : ", ") + item + " "
                    + fixed(b->sendSeconds > 0 ? 100 * seconds / b->sendSeconds : 0, 0) + " %";
            md += "| API clients' CPU usage | | " + clients + " of one core |\n";
            md += "| Station's API server threads | | " + fixed(b->apiCpuPercent(), 0) + " % of one core (of the station's "
                + fixed(b->stationCpuPercent(), 0) + " %) |\n";
        }
        if (t.trek.parametersPerSecond > 0)
            md += "| Parameters/sec | " + grouped(t.trek.parametersPerSecond) + " | "
                + (b ? grouped(b->retrievedPerSecond()) + " retrieved"
                           + (b->decoded > 0 ? ", " + grouped(b->decodedPerSecond()) + " decoded by the station"
                                             : " (decoded on demand through the API)")
                     : "")
                + " |\n";
        if (!r.error.empty())
            md += "\nThe search stopped: " + r.error + "\n";
    }
    return md;
}

Json runJson(const RunResult& run)
{
    return {{"askedMbps", run.askedMbps}, {"mbps", run.mbps}, {"packetsPerSecond", run.packetsPerSecond},
            {"seconds", run.sendSeconds}, {"ok", run.ok}, {"failure", run.failure}, {"sent", run.sent},
            {"received", run.received}, {"processed", run.processed}, {"stationCpuPercent", run.stationCpuPercent()},
            {"simCpuPercent", run.simCpuPercent()}, {"retrievedPerSecond", run.retrievedPerSecond()},
            {"decodedPerSecond", run.decodedPerSecond()}, {"otherCpuPercent", run.otherCpuPercent}, {"note", run.note},
            {"threadCpuSeconds", run.threadCpu}, {"threadUserCpuSeconds", run.threadUserCpu},
            {"events", toJson(run.events)}, {"clientCpuSeconds", run.clientCpu},
            {"clientCpuPercent", run.clientCpuPercent()}, {"apiCpuPercent", run.apiCpuPercent()}};
}

Json suiteJson(const SuiteReport& report)
{
    Json j;
    j["date"] = report.date;
    j["machine"] = report.machine;
    j["kernel"] = report.kernel;
    j["command"] = report.command;
    j["secondsPerRun"] = report.secondsPerRun;
    j["consumer"] = consumerPlaceName(report.consumer);
    Json udp = {{"available", report.udp.available}, {"reason", report.udp.reason}, {"version", report.udp.iperfVersion},
                {"datagramBytes", report.udp.datagramBytes}, {"lossFreeMbps", report.udp.lossFreeMbps}};
    j["udpReference"] = udp;
    j["diskReference"] = {{"ok", report.disk.ok}, {"error", report.disk.error}, {"directory", report.disk.directory},
                          {"filesystem", report.disk.filesystem}, {"megabytesPerSecond", report.disk.megabytesPerSecond}};
    Json tests = Json::array();
    for (const SearchResult& r : report.results) {
        Json t = {{"number", r.test->number}, {"key", r.test->key}, {"title", r.test->title},
                  {"streams", r.test->streams.size()}, {"consume", r.test->consume},
                  {"trek", {{"mbps", r.test->trek.mbps}, {"cpuPercent", r.test->trek.cpuPercent},
                            {"parametersPerSecond", r.test->trek.parametersPerSecond}}},
                  {"lossyMbps", r.lossyMbps}, {"error", r.error}};
        Json runs = Json::array();
        for (const RunResult& run : r.runs)
            runs.push_back(runJson(run));
        t["runs"] = runs;
        if (r.best)
            t["best"] = {{"mbps", r.best->mbps}, {"packetsPerSecond", r.best->packetsPerSecond},
                         {"stationCpuPercent", r.best->stationCpuPercent()},
                         {"retrievedPerSecond", r.best->retrievedPerSecond()}, {"decodedPerSecond", r.best->decodedPerSecond()},
                         {"clientCpuPercent", r.best->clientCpuPercent()}};
        tests.push_back(t);
    }
    j["tests"] = tests;
    return j;
}

std::vector<ChartRow> chartRows(const SuiteReport& report)
{
    std::vector<ChartRow> rows;
    for (const SearchResult& r : report.results) {
        ChartRow row;
        row.label = std::to_string(r.test->number) + " " + r.test->title;
        row.trekMbps = r.test->trek.mbps;
        row.passed = r.best.has_value();
        row.oursMbps = r.best ? r.best->mbps : (r.runs.empty() ? 0 : r.runs.back().mbps);
        row.referenceMbps = report.udp.available ? report.udp.lossFreeMbps : 0;
        rows.push_back(row);
    }
    return rows;
}

namespace {

std::string mib(std::uint64_t bytes)
{
    return fixed(double(bytes) / (1024.0 * 1024.0), 1) + " MiB";
}

std::string levelledText(const MemoryPeriod& m)
{
    if (!m.measured)
        return "—";
    return fixed(m.levelledOffAt - m.from, 0) + " s after the period began (within " + fixed(kLevelPercent, 0)
        + " % of its end value from then on)";
}

Json memoryJson(const MemoryPeriod& m)
{
    return {{"from", m.from}, {"warmupEnd", m.warmupEnd}, {"to", m.to}, {"measured", m.measured}, {"rssAtStart", m.atStart},
            {"rssAfterWarmup", m.afterWarmup}, {"rssAtEnd", m.atEnd}, {"rssPeak", m.peak},
            {"rssGrowthPercent", m.growthPercent}, {"levelledOffAt", m.levelledOffAt}};
}

} // namespace

std::string enduranceMarkdown(const EnduranceOptions& options, const EnduranceResult& r, const std::string& machine,
                              const std::string& date, const std::string& command)
{
    const bool gui = r.gui.has_value();
    std::string md;
    md += "## telestation-perf endurance, " + date + "\n\n";
    md += "- Machine: " + machine + "\n- Command: `" + command + "`\n";
    md += "- Configuration (TReK's endurance test): stream `realtime` Packet 5 at 100 packets/s (1 Mbit/s), processed "
          "entirely; stream `lowrate` Packet 5 at 1 packet/s (10 kbit/s), processed, recorded and forwarded; a value "
          "display of 72 parameters read every second"
        + std::string(options.guiLastSeconds > 0 ? " (the workstation's, in the GUI period)" : "") + ".\n";
    if (options.demoStreamsMbps > 0)
        md += "- The demo's fault-free streams (`health` UDP, `tcp-mix` TCP) at " + rateNumber(options.demoStreamsMbps)
            + " Mbit/s together, their packet types as the training profile sets them.\n";
    if (options.guiLastSeconds > 0)
        md += "- The station is the GUI workstation (`telestation --profile`) for the whole run; the demo's displays "
              "(value display, two plots of five curves, packet view) and TReK's value display open for the last "
            + rateNumber(options.guiLastSeconds) + " s (`--displays-after`).\n";
    md += "\n| | |\n|---|---|\n";
    md += "| result | " + std::string(r.passed ? "**passed**" : "**failed**: " + r.failure) + " |\n";
    md += "| duration | " + fixed(r.seconds, 0) + " s (warm-up " + fixed(r.warmupSeconds, 0) + " s) |\n";
    md += "| packets sent / received | " + grouped(double(r.sent)) + " / " + grouped(double(r.received)) + " |\n";
    md += "| parameters decoded | " + grouped(double(r.decoded)) + " |\n";
    md += "| recorded / forwarded / arrived at the destination | " + grouped(double(r.recorded)) + " / "
        + grouped(double(r.forwarded)) + " / " + grouped(double(r.arrived)) + " |\n";
    const std::string before = gui ? ", before the displays opened" : "";
    md += "| resident memory after warm-up / at the end / peak" + before + " | " + mib(r.rssAfterWarmup) + " / "
        + mib(r.rssAtEnd) + " / " + mib(r.rssPeak) + " |\n";
    md += "| resident memory growth after warm-up" + before + " | " + fixed(r.rssGrowthPercent, 2) + " % (limit "
        + fixed(options.maxRssGrowthPercent, 0) + " %) |\n";
    md += "| resident memory levelled off" + before + " | " + levelledText(r.memory) + " |\n";
    md += "| station CPU, mean | " + fixed(r.meanCpuPercent, 1) + " % of one core |\n";
    if (gui) {
        const MemoryPeriod& g = *r.gui;
        md += "| GUI period | displays opened at " + fixed(g.from, 0) + " s (planned " + fixed(r.guiPlannedAt, 0)
            + " s), to " + fixed(g.to, 0) + " s; warm-up " + fixed(g.warmupEnd - g.from, 0) + " s |\n";
        md += "| GUI period: resident memory when the displays opened / after its warm-up / at the end / peak | "
            + mib(g.atStart) + " / " + mib(g.afterWarmup) + " / " + mib(g.atEnd) + " / " + mib(g.peak) + " |\n";
        md += "| GUI period: resident memory growth after its warm-up | " + fixed(g.growthPercent, 2) + " % (limit "
            + fixed(options.maxGuiGrowthPercent, 0) + " %) |\n";
        md += "| GUI period: resident memory levelled off | " + levelledText(g) + " |\n";
        md += "| GUI period: station CPU, mean | " + fixed(r.guiMeanCpuPercent, 1) + " % of one core |\n";
    }
    md += "\n| stream | Mbit/s sent | sent | received | processed | parameters decoded | recorded | forwarded |\n";
    md += "|---|---|---|---|---|---|---|---|\n";
    for (const StreamDelivery& s : r.delivery.streams)
        md += "| " + s.name + " | " + fixed(s.mbps, 3) + " | " + grouped(double(s.sent)) + " | " + grouped(double(s.received))
            + " | " + grouped(double(s.processed)) + " | " + grouped(double(s.decoded)) + " | " + grouped(double(s.recorded))
            + " | " + grouped(double(s.forwarded)) + " |\n";
    return md;
}

Json enduranceJson(const EnduranceOptions& options, const EnduranceResult& r)
{
    Json samples = Json::array();
    for (const auto& s : r.samples)
        samples.push_back({{"seconds", s.seconds}, {"rssBytes", s.rssBytes}, {"cpuPercent", s.cpuPercent}, {"received", s.received}});
    Json streams = Json::array();
    for (const StreamDelivery& s : r.delivery.streams)
        streams.push_back({{"name", s.name}, {"mbps", s.mbps}, {"sent", s.sent}, {"received", s.received},
                           {"processed", s.processed}, {"decoded", s.decoded}, {"recorded", s.recorded},
                           {"forwarded", s.forwarded}});
    Json j = {{"passed", r.passed}, {"failure", r.failure}, {"sent", r.sent}, {"received", r.received},
              {"decoded", r.decoded}, {"recorded", r.recorded}, {"forwarded", r.forwarded}, {"arrived", r.arrived},
              {"rssAfterWarmup", r.rssAfterWarmup}, {"rssAtEnd", r.rssAtEnd}, {"rssPeak", r.rssPeak},
              {"rssGrowthPercent", r.rssGrowthPercent}, {"maxRssGrowthPercent", options.maxRssGrowthPercent},
              {"memory", memoryJson(r.memory)}, {"meanCpuPercent", r.meanCpuPercent}, {"seconds", r.seconds},
              {"demoStreamsMbps", options.demoStreamsMbps}, {"streams", streams}, {"samples", samples}};
    if (r.gui) {
        j["gui"] = memoryJson(*r.gui);
        j["gui"]["plannedAt"] = r.guiPlannedAt;
        j["gui"]["meanCpuPercent"] = r.guiMeanCpuPercent;
        j["gui"]["maxRssGrowthPercent"] = options.maxGuiGrowthPercent;
    }
    return j;
}

namespace {

// "process queue drops 461257" of "process queue drops 461257, processed ..." (the JSON has it all).
std::string firstClause(const std::string& failure)
{
    const auto comma = failure.find(", ");
    return comma == std::string::npos ? failure : failure.substr(0, comma) + ", ...";
}

std::string signedPercent(double value)
{
    return (value >= 0 ? "+" : "") + fixed(value, 2) + "%";
}

// The runs of a round in the order they ran.
std::vector<std::pair<const char*, const LimitsRun*>> runsInOrder(const LimitsRound& r)
{
    std::pair<const char*, const LimitsRun*> a{"a", &r.within}, b{"b", &r.crossing};
    return r.crossingFirst ? std::vector{b, a} : std::vector{a, b};
}

std::string exercisedText(const LimitPlan& plan)
{
    std::size_t numeric = 0, states = 0, yellowAndRed = 0;
    for (const auto& e : plan.exercised) {
        (e.states ? states : numeric) += 1;
        yellowAndRed += !e.states && e.yellow && e.red ? 1 : 0;
    }
    std::string out = grouped(double(numeric)) + " with numeric limits (" + (yellowAndRed == numeric ? "each" : grouped(double(yellowAndRed)))
        + " from within into yellow, red, yellow and back" + (yellowAndRed == numeric ? "" : ", the others as far as their fields go")
        + ") and " + grouped(double(states)) + " enumerations with expected states (into an unexpected state and back)";
    if (!plan.excluded.empty()) {
        out += "; not exercised:";
        for (const auto& x : plan.excluded)
            out += " " + x.parameter + " (" + x.reason + ")";
    }
    return out;
}

} // namespace

std::string limitsMarkdown(const LimitsReport& report)
{
    const LimitsOptions& o = report.options;
    std::string md;
    md += "## telestation-perf limits, " + report.date + "\n\n";
    md += "- Machine: " + report.machine + "; " + report.kernel + "\n- Command: `" + report.command + "`\n";
    md += "- Test " + std::to_string(report.test->number) + "'s configuration (" + std::to_string(report.streams)
        + " streams of " + o.run.packetName + ", process entire packet, API consumers `" + report.test->consume + "`) at "
        + grouped(o.mbps) + " Mbit/s, " + rateNumber(o.run.seconds) + " s of sending per run, " + std::to_string(o.rounds)
        + " rounds of two runs (their order alternating): (a) every " + o.run.packetName
        + " parameter with limits in force kept within them, (b) each crossing them and back every "
        + rateNumber(o.periodSeconds) + " s — " + exercisedText(report.plan) + ".\n";
    md += "- Processor CPU: the `ts-processor` thread's CPU time (/proc/PID/task/TID/schedstat) once the station had "
          "processed every packet it received, per million packets processed, and of it the user-space part (utime, in "
          "clock ticks); the rise is (b) against (a) of the same round. Limit events: `limitViolation` + `limitCleared` as the station reported them (storm summaries counted "
          "for the events they stand for). Lost: sent and not processed.\n";
    if (o.idleLoad >= 0)
        md += "- Before each round the tool waited until the 1-minute load average was at most " + fixed(o.idleLoad, 2)
            + " and at most " + fixed(o.idleBusyPercent, 0) + "% of the machine busy over 3 s (before the second run, the latter only).\n";
    md += "\n| round | run | load | sent | received | lost | delivery | limit events | parameters out of limits | "
          "alarm events | ts-processor CPU s | s per million packets | rise | user space: s per million packets | rise | "
          "ts-events CPU s | other programs' CPU |\n";
    md += "|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|\n";
    for (const LimitsRound& round : report.rounds)
        for (const auto& [key, run] : runsInOrder(round)) {
            const RunResult& r = run->run;
            const bool crossing = run == &round.crossing;
            md += "| " + std::to_string(round.number) + " | (" + key + ") " + (crossing ? "crossing" : "within") + " | "
                + fixed(run->loadBefore, 2) + " | " + grouped(double(r.sent)) + " | " + grouped(double(r.received)) + " | "
                + grouped(double(run->lost())) + " | " + (run->nothingLost() ? "100%" : "**LOSS**: " + firstClause(r.failure))
                + (r.events.unreported ? " (" + grouped(double(r.events.unreported)) + " events unreported)" : "") + " | "
                + grouped(double(r.events.limitTransitions())) + " | "
                + grouped(double(r.events.parametersInViolation.size())) + " | " + grouped(double(r.events.of("alarm")))
                + " | " + fixed(run->processorCpu(), 3) + " | " + fixed(run->processorCpuPerMillion(), 4) + " | "
                + (crossing ? signedPercent(round.risePercent()) : "") + " | " + fixed(run->processorUserCpuPerMillion(), 4) + " | "
                + (crossing ? signedPercent(round.userRisePercent()) : "") + " | " + fixed(run->eventsCpu(), 3) + " | "
                + fixed(r.otherCpuPercent, 0) + "% |\n";
        }
    std::string rises;
    for (const LimitsRound& round : report.rounds)
        rises += (rises.empty() ? "" : ", ") + signedPercent(round.risePercent());
    md += "\n- Rise of the processor's CPU time per packet, median of " + std::to_string(report.rounds.size()) + " rounds: **"
        + signedPercent(report.medianRisePercent()) + "** (rounds: " + rises + "); target under "
        + fixed(o.maxRisePercent, 0) + "%.\n";
    std::string userRises;
    for (const LimitsRound& round : report.rounds)
        userRises += (userRises.empty() ? "" : ", ") + signedPercent(round.userRisePercent());
    md += "- The same in user space only (the thread's utime: without switching it in, which moves with what else "
          "runs): median **" + signedPercent(report.medianUserRisePercent()) + "** (rounds: " + userRises + ").\n";
    md += "- Nothing lost: **" + std::string(report.nothingLost() ? "yes" : "no") + "**.\n";
    md += "- Exercised as planned (every (b) run saw all " + grouped(double(report.plan.exercised.size() * report.streams))
        + " parameters of its streams out of limits, no (a) run any): **"
        + (report.exercisedAsPlanned() ? "yes" : "no") + "**.\n";
    md += "- Result: **" + std::string(report.passed() ? "met" : "not met") + "**.\n";
    return md;
}

Json limitsJson(const LimitsReport& report)
{
    const LimitsOptions& o = report.options;
    Json exercised = Json::array(), excluded = Json::array(), rounds = Json::array();
    for (const auto& e : report.plan.exercised)
        exercised.push_back({{"parameter", e.parameter}, {"limits", e.states ? "states" : "numeric"}, {"yellow", e.yellow},
                             {"red", e.red}});
    for (const auto& x : report.plan.excluded)
        excluded.push_back({{"parameter", x.parameter}, {"reason", x.reason}});
    const auto runOf = [](const LimitsRun& run) {
        Json j = runJson(run.run);
        j["lost"] = run.lost();
        j["nothingLost"] = run.nothingLost();
        j["limitEvents"] = run.run.events.limitTransitions();
        j["processorCpuSeconds"] = run.processorCpu();
        j["processorCpuSecondsPerMillionPackets"] = run.processorCpuPerMillion();
        j["processorUserCpuSecondsPerMillionPackets"] = run.processorUserCpuPerMillion();
        j["eventsCpuSeconds"] = run.eventsCpu();
        j["loadBefore"] = run.loadBefore;
        j["waitedSeconds"] = run.waitedSeconds;
        return j;
    };
    for (const LimitsRound& r : report.rounds)
        rounds.push_back({{"round", r.number}, {"order", r.crossingFirst ? "b,a" : "a,b"}, {"within", runOf(r.within)},
                          {"crossing", runOf(r.crossing)}, {"risePercent", r.risePercent()},
                          {"userRisePercent", r.userRisePercent()}});
    return {{"date", report.date}, {"machine", report.machine}, {"kernel", report.kernel}, {"command", report.command},
            {"test", report.test->number}, {"streams", report.streams}, {"consume", report.test->consume},
            {"packet", o.run.packetName}, {"mbps", o.mbps}, {"secondsPerRun", o.run.seconds},
            {"periodSeconds", o.periodSeconds}, {"maxRisePercent", o.maxRisePercent}, {"idleLoad", o.idleLoad},
            {"exercised", exercised}, {"excluded", excluded}, {"rounds", rounds},
            {"medianRisePercent", report.medianRisePercent()}, {"medianUserRisePercent", report.medianUserRisePercent()},
            {"nothingLost", report.nothingLost()},
            {"exercisedAsPlanned", report.exercisedAsPlanned()}, {"passed", report.passed()}};
}

std::string limitsCsv(const LimitsReport& report)
{
    std::string csv = "round,run,position,load_before,mbps,seconds,sent,received,processed,lost,delivered,limit_violations,"
                      "limit_cleared,parameters_out_of_limits,alarm_events,event_lines,events_unreported,"
                      "processor_cpu_s,processor_cpu_s_per_million_packets,rise_percent,"
                      "processor_user_cpu_s_per_million_packets,user_rise_percent,events_cpu_s,station_cpu_s,"
                      "sim_cpu_s,other_cpu_percent\n";
    for (const LimitsRound& round : report.rounds) {
        int position = 0;
        for (const auto& [key, run] : runsInOrder(round)) {
            const RunResult& r = run->run;
            const bool crossing = run == &round.crossing;
            const std::vector<std::string> fields = {
                std::to_string(round.number), crossing ? "crossing" : "within", std::to_string(++position),
                fixed(run->loadBefore, 2), fixed(r.mbps, 1), fixed(r.sendSeconds, 3), std::to_string(r.sent),
                std::to_string(r.received), std::to_string(r.processed), std::to_string(run->lost()),
                run->nothingLost() ? "yes" : "no", std::to_string(r.events.of("limitViolation")),
                std::to_string(r.events.of("limitCleared")), std::to_string(r.events.parametersInViolation.size()),
                std::to_string(r.events.of("alarm")), std::to_string(r.events.lines), std::to_string(r.events.unreported),
                fixed(run->processorCpu(), 6), fixed(run->processorCpuPerMillion(), 6),
                crossing ? fixed(round.risePercent(), 3) : "", fixed(run->processorUserCpuPerMillion(), 6),
                crossing ? fixed(round.userRisePercent(), 3) : "", fixed(run->eventsCpu(), 6), fixed(r.stationCpu, 3),
                fixed(r.simCpu, 3), fixed(r.otherCpuPercent, 1)};
            for (std::size_t i = 0; i < fields.size(); ++i)
                csv += (i ? "," : "") + fields[i];
            csv += '\n';
        }
    }
    return csv;
}

} // namespace telestation::perf
