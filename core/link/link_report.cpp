#include "core/link/link_report.hpp"

#include <sys/utsname.h>
#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <thread>

namespace telestation::link {

namespace {

std::string number(double value, int decimals)
{
    char text[64];
    std::snprintf(text, sizeof text, "%.*f", decimals, value);
    return text;
}

std::string number(const std::optional<double>& value, int decimals)
{
    return value ? number(*value, decimals) : std::string();
}

std::string percentOf(double value, const std::optional<double>& limit)
{
    return limit && *limit > 0 ? number(100.0 * value / *limit, 1) : std::string();
}

// One test's table; the same cells make the Markdown table and the CSV file.
struct Table {
    TestKind test;
    std::vector<std::string> headers;
    std::vector<std::vector<std::string>> rows;
};

std::vector<Table> tablesOf(const LinkReport& r)
{
    std::vector<Table> tables;
    if (!r.messageRate.empty()) {
        Table t{TestKind::MessageRate,
                {"transport", "size B", "sent", "received", "messages/s", "KB/s", "limit KB/s", "% of limit", "limit messages/s"},
                {}};
        for (const auto& row : r.messageRate)
            t.rows.push_back({std::string(transportName(row.transport)), std::to_string(row.bytes), std::to_string(row.sent),
                              std::to_string(row.received), number(row.messagesPerSecond, 0), number(row.kilobytesPerSecond, 1),
                              number(row.limitKilobytesPerSecond, 1), percentOf(row.kilobytesPerSecond, row.limitKilobytesPerSecond),
                              number(row.limitMessagesPerSecond, 0)});
        tables.push_back(std::move(t));
    }
    if (!r.udpGrid.empty()) {
        Table t{TestKind::UdpGrid,
                {"size B", "gap us", "wire us", "packets", "requested ms", "send ms", "send Mbit/s", "receive Mbit/s", "send errors", "lost",
                 "lost %", "reordered", "faster than the wire"},
                {}};
        for (const auto& row : r.udpGrid)
            t.rows.push_back({std::to_string(row.bytes), number(double(row.gapNs) / 1e3, 1),
                              row.wireNs ? number(*row.wireNs / 1e3, 2) : std::string(), std::to_string(row.count),
                              number(row.requestedSeconds * 1e3, 2), number(row.sendSeconds * 1e3, 2), number(row.sendMbps, 1),
                              number(row.receiveMbps, 1), std::to_string(row.sendErrors), std::to_string(row.lost), number(row.lossPercent(), 1),
                              std::to_string(row.reordered), row.wedge() ? "yes" : "no"});
        tables.push_back(std::move(t));
    }
    if (!r.flows.empty()) {
        Table t{TestKind::TcpFlows,
                {"flows", "window per flow B", "total window B", "seconds", "median Mbit/s", "mean Mbit/s", "limit Mbit/s", "% of limit", "intervals"},
                {}};
        for (const auto& row : r.flows)
            t.rows.push_back({std::to_string(row.flows), std::to_string(row.flows ? row.windowBytes / row.flows : 0),
                              std::to_string(row.windowBytes), number(row.seconds, 1), number(row.medianMbps, 1),
                              number(row.meanMbps, 1), number(row.limitMbps, 1), percentOf(row.medianMbps, row.limitMbps),
                              std::to_string(row.intervalMbps.size())});
        tables.push_back(std::move(t));
    }
    if (!r.blocks.empty()) {
        Table t{TestKind::BlockSweep,
                {"block B", "seconds", "Mbit/s", "limit Mbit/s", "% of limit", "sender CPU %", "receiver CPU %"},
                {}};
        for (const auto& row : r.blocks)
            t.rows.push_back({std::to_string(row.blockBytes), number(row.seconds, 1), number(row.mbps, 1), number(row.limitMbps, 1),
                              percentOf(row.mbps, row.limitMbps), number(row.senderCpuPercent, 1), number(row.receiverCpuPercent, 1)});
        tables.push_back(std::move(t));
    }
    if (r.telemetry) {
        const auto& tm = *r.telemetry;
        Table t{TestKind::Telemetry,
                {"Mbit/s", "packets/s", "limit Mbit/s", "sent", "received", "processed", "dropped", "sequence errors", "malformed", "100% delivered"},
                {}};
        for (const auto& x : tm.tries)
            t.rows.push_back({number(x.mbps, 2), number(x.packetsPerSecond, 0), number(tm.limitMbps, 1), std::to_string(x.sent),
                              std::to_string(x.station.received), std::to_string(x.station.processed), std::to_string(x.station.dropped),
                              std::to_string(x.station.sequenceErrors), std::to_string(x.station.malformed),
                              x.delivered() ? "yes" : "no"});
        tables.push_back(std::move(t));
    }
    return tables;
}

std::string csvField(const std::string& text)
{
    if (text.find_first_of(",\"\n") == std::string::npos)
        return text;
    std::string out = "\"";
    for (const char c : text)
        out += c == '"' ? std::string("\"\"") : std::string(1, c);
    return out + "\"";
}

// A CSV file's title line stays one line: a line end in it (a command typed with a quoted newline)
// would make the rest of it a row before the header.
std::string oneLine(std::string text)
{
    std::replace_if(text.begin(), text.end(), [](char c) { return c == '\n' || c == '\r'; }, ' ');
    return text;
}

std::string wireText(const WireModel& wire)
{
    if (!wire.known())
        return "speed unknown (" + (wire.source.empty() ? std::string("not given") : wire.source) + "): no limits shown";
    return bitRateText(wire.bitsPerSecond) + " (" + wire.source + "), MTU " + std::to_string(wire.mtu) + " B, "
        + std::to_string(wire.frameOverheadBytes) + " B per frame besides the IP packet";
}

std::string failureOf(const LinkReport& r, TestKind kind)
{
    for (const auto& [k, why] : r.failures)
        if (k == kind)
            return why;
    return {};
}

} // namespace

std::string toMarkdown(const LinkReport& r)
{
    std::string out = "# Link test, " + r.date + "\n\n";
    out += "- Controller: " + r.controller + "\n";
    out += "- Responder: " + r.responder + "\n";
    out += "- Machine: " + r.machine + "; kernel " + r.kernel + "\n";
    out += "- Link: " + wireText(r.wire) + "\n";
    out += "- Command: `" + r.command + "`\n";
    const auto tables = tablesOf(r);
    for (const TestKind kind : r.tests) {
        out += "\n## " + std::string(testTitle(kind)) + "\n\n";
        if (const std::string why = failureOf(r, kind); !why.empty())
            out += "**Not completed:** " + why + "\n\n";
        if (kind == TestKind::Telemetry && r.telemetry) {
            const auto& tm = *r.telemetry;
            out += "Packet " + tm.packet + " (" + std::to_string(tm.packetBytes) + " B) through the station: highest rate with 100% delivery ";
            out += tm.bestMbps ? "**" + number(*tm.bestMbps, 2) + " Mbit/s** (" + number(*tm.bestMbps * 1e6 / 8 / std::max(1u, tm.packetBytes), 0)
                    + " packets/s)"
                               : std::string("**none** (even the lowest rate tried lost packets)");
            out += tm.limitMbps ? ", wire limit " + number(*tm.limitMbps, 1) + " Mbit/s.\n\n" : ".\n\n";
        }
        const auto table = std::find_if(tables.begin(), tables.end(), [&](const Table& t) { return t.test == kind; });
        if (table == tables.end())
            continue;
        out += "|";
        for (const auto& h : table->headers)
            out += " " + h + " |";
        out += "\n|";
        for (std::size_t i = 0; i < table->headers.size(); ++i)
            out += i < 2 ? " --- |" : " ---: |";
        out += "\n";
        for (const auto& row : table->rows) {
            out += "|";
            for (const auto& cell : row)
                out += " " + (cell.empty() ? std::string("—") : cell) + " |";
            out += "\n";
        }
    }
    return out;
}

std::vector<std::pair<std::string, std::string>> toCsvFiles(const LinkReport& r)
{
    std::vector<std::pair<std::string, std::string>> files;
    for (const Table& t : tablesOf(r)) {
        std::string csv = oneLine("# " + std::string(testTitle(t.test)) + "; " + r.date + "; link " + wireText(r.wire) + "; " + r.command) + "\n";
        for (std::size_t i = 0; i < t.headers.size(); ++i)
            csv += (i ? "," : "") + csvField(t.headers[i]);
        csv += "\n";
        for (const auto& row : t.rows) {
            for (std::size_t i = 0; i < row.size(); ++i)
                csv += (i ? "," : "") + csvField(row[i]);
            csv += "\n";
        }
        files.emplace_back("link-" + std::string(testName(t.test)) + ".csv", std::move(csv));
    }
    return files;
}

Json toJson(const LinkReport& r)
{
    auto optional = [](const std::optional<double>& v) { return v ? Json(*v) : Json(nullptr); };
    Json out = {{"date", r.date},       {"command", r.command}, {"controller", r.controller}, {"responder", r.responder},
                {"machine", r.machine}, {"kernel", r.kernel}};
    out["link"] = {{"bitsPerSecond", r.wire.known() ? Json(r.wire.bitsPerSecond) : Json(nullptr)},
                   {"mtu", r.wire.mtu},
                   {"frameOverheadBytes", r.wire.frameOverheadBytes},
                   {"source", r.wire.source}};
    out["tests"] = Json::array();
    for (const TestKind k : r.tests)
        out["tests"].push_back(testName(k));
    Json& results = out["results"] = Json::object();
    if (!r.messageRate.empty()) {
        Json rows = Json::array();
        for (const auto& x : r.messageRate)
            rows.push_back({{"transport", transportName(x.transport)}, {"bytes", x.bytes}, {"seconds", x.seconds}, {"sent", x.sent},
                            {"received", x.received}, {"messagesPerSecond", x.messagesPerSecond},
                            {"kilobytesPerSecond", x.kilobytesPerSecond}, {"limitKilobytesPerSecond", optional(x.limitKilobytesPerSecond)},
                            {"limitMessagesPerSecond", optional(x.limitMessagesPerSecond)}});
        results["msgrate"] = std::move(rows);
    }
    if (!r.udpGrid.empty()) {
        Json rows = Json::array();
        for (const auto& x : r.udpGrid)
            rows.push_back({{"bytes", x.bytes}, {"gapNs", x.gapNs}, {"count", x.count}, {"requestedSeconds", x.requestedSeconds},
                            {"sendSeconds", x.sendSeconds}, {"sendMbps", x.sendMbps}, {"receiveMbps", x.receiveMbps},
                            {"sent", x.sent}, {"sendErrors", x.sendErrors}, {"received", x.received}, {"lost", x.lost}, {"reordered", x.reordered},
                            {"wireNs", optional(x.wireNs)}, {"fasterThanWire", x.wedge()}});
        results["udpmon"] = std::move(rows);
    }
    if (!r.flows.empty()) {
        Json rows = Json::array();
        for (const auto& x : r.flows)
            rows.push_back({{"flows", x.flows}, {"windowBytes", x.windowBytes}, {"seconds", x.seconds}, {"bytes", x.bytes},
                            {"medianMbps", x.medianMbps}, {"meanMbps", x.meanMbps}, {"intervalMbps", x.intervalMbps},
                            {"limitMbps", optional(x.limitMbps)}});
        results["flows"] = std::move(rows);
    }
    if (!r.blocks.empty()) {
        Json rows = Json::array();
        for (const auto& x : r.blocks)
            rows.push_back({{"blockBytes", x.blockBytes}, {"seconds", x.seconds}, {"bytes", x.bytes}, {"mbps", x.mbps},
                            {"senderCpuPercent", x.senderCpuPercent}, {"receiverCpuPercent", x.receiverCpuPercent},
                            {"limitMbps", optional(x.limitMbps)}});
        results["blocks"] = std::move(rows);
    }
    if (r.telemetry) {
        Json tries = Json::array();
        for (const auto& x : r.telemetry->tries)
            tries.push_back({{"mbps", x.mbps}, {"packetsPerSecond", x.packetsPerSecond}, {"sent", x.sent},
                             {"received", x.station.received}, {"processed", x.station.processed}, {"dropped", x.station.dropped},
                             {"sequenceErrors", x.station.sequenceErrors}, {"malformed", x.station.malformed},
                             {"delivered", x.delivered()}});
        results["telemetry"] = {{"packet", r.telemetry->packet}, {"packetBytes", r.telemetry->packetBytes},
                                {"bestMbps", optional(r.telemetry->bestMbps)}, {"limitMbps", optional(r.telemetry->limitMbps)},
                                {"tries", std::move(tries)}};
    }
    Json failures = Json::object();
    for (const auto& [k, why] : r.failures)
        failures[std::string(testName(k))] = why;
    out["failures"] = std::move(failures);
    return out;
}

std::vector<double> exactIntervalMbps(const std::vector<std::vector<FlowSample>>& flows, std::int64_t intervalNs, std::int64_t endNs)
{
    std::int64_t start = -1, end = -1;
    for (const auto& flow : flows)
        if (!flow.empty()) {
            start = start < 0 ? flow.front().ns : std::min(start, flow.front().ns);
            end = std::max(end, flow.back().ns);
        }
    if (endNs > 0)
        end = std::min(end, endNs);
    if (start < 0 || intervalNs <= 0 || end <= start)
        return {};
    // A flow's bytes at time t: linear between its samples, 0 before its first, its total after its last.
    auto bytesAt = [](const std::vector<FlowSample>& flow, std::int64_t t) -> double {
        if (flow.empty() || t <= flow.front().ns)
            return flow.empty() || t < flow.front().ns ? 0.0 : double(flow.front().bytes);
        if (t >= flow.back().ns)
            return double(flow.back().bytes);
        const auto after = std::upper_bound(flow.begin(), flow.end(), t, [](std::int64_t v, const FlowSample& s) { return v < s.ns; });
        const auto before = after - 1;
        const double share = double(t - before->ns) / double(after->ns - before->ns);
        return double(before->bytes) + share * (double(after->bytes) - double(before->bytes));
    };
    std::vector<double> out;
    double previous = 0;
    for (const auto& flow : flows)
        previous += bytesAt(flow, start);
    for (std::int64_t t = start + intervalNs; t <= end; t += intervalNs) {
        double total = 0;
        for (const auto& flow : flows)
            total += bytesAt(flow, t);
        out.push_back((total - previous) * 8.0 / (double(intervalNs) / 1e9) / 1e6);
        previous = total;
    }
    return out;
}

double median(std::vector<double> values)
{
    if (values.empty())
        return 0;
    std::sort(values.begin(), values.end());
    const std::size_t mid = values.size() / 2;
    return values.size() % 2 ? values[mid] : (values[mid - 1] + values[mid]) / 2;
}

std::string machineDescription()
{
    std::ifstream cpuinfo("/proc/cpuinfo");
    std::string line, model = "unknown CPU";
    while (std::getline(cpuinfo, line))
        if (line.rfind("model name", 0) == 0) {
            model = line.substr(line.find(':') + 2);
            break;
        }
    return model + ", " + std::to_string(std::thread::hardware_concurrency()) + " cores";
}

std::string kernelDescription()
{
    utsname name{};
    if (::uname(&name) != 0)
        return "unknown";
    return std::string(name.sysname) + " " + name.release;
}

std::string hostName()
{
    char name[256] = {};
    if (::gethostname(name, sizeof name - 1) != 0)
        return "unknown";
    return name;
}

} // namespace telestation::link
