#include "sim/engine/sim_summary.hpp"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <array>
#include <cerrno>
#include <charconv>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string_view>
#include <system_error>
#include <utility>

namespace telestation::sim {

namespace {

using Json = nlohmann::json;
using OrderedJson = nlohmann::ordered_json;

// The fault counters by their JSON names, in the order written and printed.
struct FaultField {
    std::string_view key;
    std::uint64_t FaultCounts::*member;
};
constexpr std::array<FaultField, 7> kFaultFields{{
    {"dropped", &FaultCounts::dropped},
    {"duplicated", &FaultCounts::duplicated},
    {"reordered", &FaultCounts::reordered},
    {"corruptedHeaders", &FaultCounts::corruptedHeaders},
    {"truncated", &FaultCounts::truncated},
    {"garbageInsertions", &FaultCounts::garbageInsertions},
    {"garbageBytes", &FaultCounts::garbageBytes},
}};

OrderedJson countsToJson(const TrafficCounts& counts)
{
    OrderedJson out = OrderedJson::object();
    out["packets"] = counts.packets;
    out["bytes"] = counts.bytes;
    return out;
}

OrderedJson streamToJson(const StreamSummary& stream)
{
    OrderedJson out = OrderedJson::object();
    out["name"] = stream.name;
    out["destination"] = stream.destination;
    out["rate"] = stream.rate;
    out["generated"] = stream.generated;
    out["sent"] = countsToJson(stream.sent);
    out["notSent"] = stream.notSent;
    OrderedJson apids = OrderedJson::object();
    for (const auto& [apid, counts] : stream.apids)
        apids[std::to_string(apid)] = countsToJson(counts); // std::map order: ascending APID
    out["apids"] = std::move(apids);
    OrderedJson faults = OrderedJson::object();
    for (const FaultField& field : kFaultFields)
        faults[std::string(field.key)] = stream.faults.*field.member;
    out["faults"] = std::move(faults);
    out["seconds"] = stream.seconds;
    out["packetsPerSecond"] = stream.packetsPerSecond;
    out["bitsPerSecond"] = stream.bitsPerSecond;
    return out;
}

// Reading: every key of the layout is required (the file is written by toJson); others are ignored.
class Reader {
public:
    [[nodiscard]] Status error(const std::string& path, std::string_view message) const
    {
        return Error{path + ": " + std::string(message), {}};
    }

    [[nodiscard]] Status find(const Json& object, const std::string& path, const char* key, const Json*& out) const
    {
        const auto it = object.find(key);
        if (it == object.end())
            return error(path + '.' + key, "missing");
        out = &*it;
        return {};
    }

    [[nodiscard]] Status readUnsigned(const Json& object, const std::string& path, const char* key,
                                      std::uint64_t& out) const
    {
        const Json* value = nullptr;
        if (auto status = find(object, path, key, value); !status)
            return status;
        if (!value->is_number_unsigned())
            return error(path + '.' + key, "expected a whole number, got " + value->dump());
        out = value->get<std::uint64_t>();
        return {};
    }

    [[nodiscard]] Status readDouble(const Json& object, const std::string& path, const char* key, double& out) const
    {
        const Json* value = nullptr;
        if (auto status = find(object, path, key, value); !status)
            return status;
        if (!value->is_number())
            return error(path + '.' + key, "expected a number, got " + value->dump());
        out = value->get<double>();
        return {};
    }

    [[nodiscard]] Status readString(const Json& object, const std::string& path, const char* key, std::string& out) const
    {
        const Json* value = nullptr;
        if (auto status = find(object, path, key, value); !status)
            return status;
        if (!value->is_string())
            return error(path + '.' + key, "expected a string, got " + value->dump());
        out = value->get<std::string>();
        return {};
    }

    [[nodiscard]] Status readCounts(const Json& value, const std::string& path, TrafficCounts& out) const
    {
        if (!value.is_object())
            return error(path, "expected an object {\"packets\", \"bytes\"}");
        if (auto status = readUnsigned(value, path, "packets", out.packets); !status)
            return status;
        return readUnsigned(value, path, "bytes", out.bytes);
    }

    [[nodiscard]] Status readStream(const Json& value, const std::string& path, StreamSummary& out) const
    {
        if (!value.is_object())
            return error(path, "expected an object (a stream)");
        if (auto status = readString(value, path, "name", out.name); !status)
            return status;
        if (auto status = readString(value, path, "destination", out.destination); !status)
            return status;
        if (auto status = readString(value, path, "rate", out.rate); !status)
            return status;
        if (auto status = readUnsigned(value, path, "generated", out.generated); !status)
            return status;
        const Json* sent = nullptr;
        if (auto status = find(value, path, "sent", sent); !status)
            return status;
        if (auto status = readCounts(*sent, path + ".sent", out.sent); !status)
            return status;
        if (auto status = readUnsigned(value, path, "notSent", out.notSent); !status)
            return status;

        const Json* apids = nullptr;
        if (auto status = find(value, path, "apids", apids); !status)
            return status;
        if (!apids->is_object())
            return error(path + ".apids", "expected an object {\"APID\": {\"packets\", \"bytes\"}}");
        for (const auto& [key, counts] : apids->items()) {
            const std::string apidPath = path + ".apids[\"" + key + "\"]";
            unsigned apid = 0;
            const auto [end, ec] = std::from_chars(key.data(), key.data() + key.size(), apid);
            if (ec != std::errc{} || end != key.data() + key.size() || apid > 2047)
                return error(apidPath, "not an APID (0..2047)");
            TrafficCounts traffic;
            if (auto status = readCounts(counts, apidPath, traffic); !status)
                return status;
            out.apids[static_cast<std::uint16_t>(apid)] = traffic;
        }

        const Json* faults = nullptr;
        if (auto status = find(value, path, "faults", faults); !status)
            return status;
        if (!faults->is_object())
            return error(path + ".faults", "expected an object");
        for (const FaultField& field : kFaultFields) {
            if (auto status = readUnsigned(*faults, path + ".faults", std::string(field.key).c_str(),
                                           out.faults.*field.member);
                !status)
                return status;
        }

        if (auto status = readDouble(value, path, "seconds", out.seconds); !status)
            return status;
        if (auto status = readDouble(value, path, "packetsPerSecond", out.packetsPerSecond); !status)
            return status;
        return readDouble(value, path, "bitsPerSecond", out.bitsPerSecond);
    }
};

// ---- Console table ---------------------------------------------------------------------------

std::string formatFixed(double value, int decimals)
{
    std::array<char, 64> buffer{};
    const int written = std::snprintf(buffer.data(), buffer.size(), "%.*f", decimals, value);
    return std::string(buffer.data(), static_cast<std::size_t>(std::clamp(written, 0, 63)));
}

// Cells of a table, left-aligned in the first columns and right-aligned in the rest.
class Table {
public:
    explicit Table(std::size_t leftColumns) : m_leftColumns(leftColumns) {}

    void add(std::vector<std::string> row) { m_rows.push_back(std::move(row)); }

    [[nodiscard]] std::string render() const
    {
        std::vector<std::size_t> widths;
        for (const auto& row : m_rows) {
            widths.resize(std::max(widths.size(), row.size()), 0);
            for (std::size_t i = 0; i < row.size(); ++i)
                widths[i] = std::max(widths[i], row[i].size());
        }
        std::string out;
        for (const auto& row : m_rows) {
            std::string line;
            for (std::size_t i = 0; i < row.size(); ++i) {
                if (i > 0)
                    line += "  ";
                const std::string padding(widths[i] - row[i].size(), ' ');
                line += i < m_leftColumns ? row[i] + padding : padding + row[i];
            }
            while (!line.empty() && line.back() == ' ')
                line.pop_back();
            out += line;
            out += '\n';
        }
        return out;
    }

private:
    std::size_t m_leftColumns;
    std::vector<std::vector<std::string>> m_rows;
};

// Columns: stream, destination, rate, generated, packets, bytes, not sent, seconds, pps, Mbit/s.
std::vector<std::string> streamRow(const StreamSummary& stream)
{
    return {stream.name,
            stream.destination,
            stream.rate,
            std::to_string(stream.generated),
            std::to_string(stream.sent.packets),
            std::to_string(stream.sent.bytes),
            std::to_string(stream.notSent),
            formatFixed(stream.seconds, 3),
            formatFixed(stream.packetsPerSecond, 1),
            formatFixed(stream.bitsPerSecond / 1e6, 3)};
}

// A detail row under a stream: a label in the first column, packets and bytes in theirs.
std::vector<std::string> detailRow(std::string label, const std::string& packets, const std::string& bytes)
{
    return {std::move(label), "", "", "", packets, bytes};
}

// What a fault line says: the counter, and for garbage the bytes in the bytes column.
void addFaultRows(Table& table, const FaultCounts& faults)
{
    const std::array<std::pair<const char*, std::uint64_t>, 5> rows{{
        {"  dropped", faults.dropped},
        {"  duplicated", faults.duplicated},
        {"  reordered pairs", faults.reordered},
        {"  corrupted headers", faults.corruptedHeaders},
        {"  truncated", faults.truncated},
    }};
    for (const auto& [label, count] : rows) {
        if (count > 0)
            table.add(detailRow(label, std::to_string(count), ""));
    }
    if (faults.garbageInsertions > 0 || faults.garbageBytes > 0)
        table.add(detailRow("  garbage runs", std::to_string(faults.garbageInsertions), std::to_string(faults.garbageBytes)));
}

Status writeText(const std::string& text, const std::string& path)
{
    const std::string temporary = path + ".tmp";
    {
        std::ofstream out(temporary, std::ios::binary | std::ios::trunc);
        if (!out)
            return Error{"cannot write: " + std::error_code(errno, std::generic_category()).message(), {path, 0, 0}};
        out << text;
        out.flush();
        if (!out) {
            const std::string reason = std::error_code(errno, std::generic_category()).message();
            std::error_code ignored;
            std::filesystem::remove(temporary, ignored);
            return Error{"cannot write: " + reason, {path, 0, 0}};
        }
    }
    std::error_code ec;
    std::filesystem::rename(temporary, path, ec);
    if (ec) {
        std::error_code ignored;
        std::filesystem::remove(temporary, ignored);
        return Error{"cannot write: " + ec.message(), {path, 0, 0}};
    }
    return {};
}

} // namespace

StreamSummary SimSummary::total() const
{
    StreamSummary sum;
    sum.name = "total";
    for (const StreamSummary& stream : streams) {
        sum.generated += stream.generated;
        sum.sent.packets += stream.sent.packets;
        sum.sent.bytes += stream.sent.bytes;
        sum.notSent += stream.notSent;
        for (const auto& [apid, counts] : stream.apids) {
            TrafficCounts& merged = sum.apids[apid];
            merged.packets += counts.packets;
            merged.bytes += counts.bytes;
        }
        for (const FaultField& field : kFaultFields)
            sum.faults.*field.member += stream.faults.*field.member;
        // Streams run side by side: the run lasted as long as the longest one.
        sum.seconds = std::max(sum.seconds, stream.seconds);
    }
    if (sum.seconds > 0) {
        sum.packetsPerSecond = static_cast<double>(sum.sent.packets) / sum.seconds;
        sum.bitsPerSecond = 8.0 * static_cast<double>(sum.sent.bytes) / sum.seconds;
    }
    return sum;
}

std::string toJson(const SimSummary& summary)
{
    OrderedJson root = OrderedJson::object();
    OrderedJson streams = OrderedJson::array();
    for (const StreamSummary& stream : summary.streams)
        streams.push_back(streamToJson(stream));
    root["streams"] = std::move(streams);
    root["total"] = streamToJson(summary.total());
    return root.dump(2) + '\n';
}

Result<SimSummary> summaryFromJson(std::string_view json)
{
    const Json root = Json::parse(json.begin(), json.end(), nullptr, false);
    if (root.is_discarded())
        return Error{"not a JSON document", {}};
    const Reader reader;
    if (!root.is_object())
        return reader.error("$", "expected an object").error();
    const Json* streams = nullptr;
    if (auto status = reader.find(root, "$", "streams", streams); !status)
        return status.error();
    if (!streams->is_array())
        return reader.error("$.streams", "expected an array").error();
    SimSummary summary;
    for (std::size_t i = 0; i < streams->size(); ++i) {
        StreamSummary stream;
        if (auto status = reader.readStream((*streams)[i], "$.streams[" + std::to_string(i) + "]", stream); !status)
            return status.error();
        summary.streams.push_back(std::move(stream));
    }
    return summary;
}

std::string toText(const SimSummary& summary)
{
    if (summary.streams.empty())
        return "No streams.\n";
    Table table(3);
    table.add({"stream", "destination", "rate", "generated", "packets", "bytes", "not sent", "seconds", "pps", "Mbit/s"});
    for (const StreamSummary& stream : summary.streams) {
        table.add(streamRow(stream));
        for (const auto& [apid, counts] : stream.apids)
            table.add(detailRow("  APID " + std::to_string(apid), std::to_string(counts.packets), std::to_string(counts.bytes)));
        addFaultRows(table, stream.faults);
    }
    if (summary.streams.size() > 1) {
        const StreamSummary total = summary.total();
        table.add(streamRow(total));
        addFaultRows(table, total.faults);
    }
    return table.render();
}

Status writeSummaryFile(const SimSummary& summary, const std::string& path)
{
    return writeText(toJson(summary), path);
}

} // namespace telestation::sim
