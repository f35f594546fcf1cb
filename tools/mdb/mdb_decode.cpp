#include "tools/mdb/mdb_decode.hpp"

#include "core/config/mission_file.hpp"

#include "core/archive/decode_run.hpp"
#include "core/ccsds/space_packet.hpp"
#include "core/common/time_text.hpp"
#include "core/mdb/sqlite_store.hpp"
#include "core/mdb/text_format.hpp"
#include "core/pipeline/packet_types.hpp"
#include "core/xtce/xtce_import.hpp"
#include "tools/mdb/progress_bar.hpp"

#include <algorithm>
#include <array>
#include <cerrno>
#include <charconv>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>
#include <vector>

#include <unistd.h>

namespace telestation::tools {

using archive::DecodedWriter;
using archive::DecodeRun;
using archive::DecodeRunOptions;
using archive::InputOptions;
using archive::OutputFormat;
using archive::PacketInput;
using archive::Selection;

namespace {

constexpr std::string_view kHelp
    = "Usage: telestation-mdb decode --mdb MISSION --input FILE [options]\n"
      "\n"
      "Decodes CCSDS space packets with a mission database and writes every parameter's raw, converted\n"
      "and calibrated value and limit state.\n"
      "\n"
      "  --mdb MISSION           The mission: a .mdb database, a .tdef text definition or an XTCE .xml\n"
      "                          (told apart by content, not by name).\n"
      "  --input FILE            Concatenated space packets, a recording directory (with catalog.sqlite)\n"
      "                          or one recording segment (.tsrec).\n"
      "  --output FILE           Write to FILE instead of standard output ('-': standard output).\n"
      "  --format csv|jsonl      csv (default): one row per parameter sample: packet_index, time, packet,\n"
      "                          parameter, raw, converted, calibrated, limit. jsonl: one JSON object per\n"
      "                          packet with its parameters.\n"
      "  --wide                  CSV with one row per packet and one column per parameter (calibrated\n"
      "                          values). Several packet types give one section per type, each with its\n"
      "                          header row, after an empty line; choose one with --packet for one table.\n"
      "  --aligned               CSV with one row per time and one column per parameter of every selected\n"
      "                          packet type (PACKET.PARAMETER, calibrated values; empty where that time\n"
      "                          has no sample): one table for several packet types.\n"
      "  --from TIME, --to TIME  Only packets whose time (receive time in a recording, else packet time) is\n"
      "                          in this range, inclusive: ISO-8601 UTC (2026-11-22T12:00:00Z, optional\n"
      "                          fraction) or ns since 1970. In a recording, the rest is not even read.\n"
      "  --stream NAME[,NAME]    Recordings: only these recorded streams (repeatable).\n"
      "  --packet NAME[,NAME]    Only these packet types (repeatable).\n"
      "  --parameters LIST       Only these parameters, comma-separated: NAME (in any selected packet)\n"
      "                          or PACKET.NAME (repeatable).\n"
      "  --transport-header N    N bytes before each packet (also inside recorded packets) are skipped.\n"
      "  --lenient               XTCE: import what can be imported (unsupported constructs are warnings).\n"
      "  -h, --help              Show this help.\n"
      "\n"
      "time is the receive time for a recording, else the packet time of a definition with a CUC\n"
      "secondary header (empty without one); times are ISO-8601 UTC with nanoseconds. Unknown and\n"
      "malformed packets are not written: a summary on standard error counts packets decoded, unknown\n"
      "(by APID) and malformed (by reason, with the first ones' packet index and byte offset).\n"
      "\n"
      "Exit status: 0 every packet decoded; 1 the mission or the input could not be read, or the output\n"
      "not written; 2 wrong usage; 3 some packets were unknown or malformed, or a recording was damaged.\n";

constexpr std::uint64_t kProgressMinBytes = 10'000'000; // a progress bar for inputs above 10 MB
constexpr std::size_t kMaxTransportHeader = 65536;

struct DecodeOptions {
    std::string mission;
    std::string input;
    std::string output = "-";
    OutputFormat format = OutputFormat::Csv;
    std::vector<std::string> packets;
    std::vector<std::string> parameters;
    std::size_t transportHeader = 0;
    std::int64_t fromNs = 0; // 0 = open end
    std::int64_t toNs = 0;
    std::vector<std::string> streams;
    bool lenient = false;
    bool help = false;
};

int usageError(const std::string& message)
{
    std::cerr << "telestation-mdb decode: " << message << " (see telestation-mdb decode --help)\n";
    return kDecodeUsage;
}

void appendList(std::vector<std::string>& to, std::string_view list)
{
    while (!list.empty()) {
        const auto comma = list.find(',');
        const auto item = list.substr(0, comma);
        if (!item.empty())
            to.emplace_back(item);
        if (comma == std::string_view::npos)
            break;
        list.remove_prefix(comma + 1);
    }
}

// Which options the command line gave so far, beyond what DecodeOptions shows.
struct GivenOptions {
    bool mission = false;
    bool input = false;
    bool format = false;
    bool output = false;
    bool wide = false;
    bool aligned = false;
};

// An option given twice is refused, and so is an empty value.
Status setOnce(std::string& to, bool& given, const std::string& name, const std::string& value)
{
    if (given)
        return Error{"option --" + name + " is given twice", {}};
    if (value.empty())
        return Error{"option --" + name + " needs a value", {}};
    to = value;
    given = true;
    return {};
}

// One option that takes a value (name without "--").
Status applyOption(DecodeOptions& o, GivenOptions& given, const std::string& name, const std::string& value)
{
    if (name == "mdb")
        return setOnce(o.mission, given.mission, name, value);
    if (name == "input")
        return setOnce(o.input, given.input, name, value);
    if (name == "output")
        return setOnce(o.output, given.output, name, value);
    if (name == "format") {
        if (given.format)
            return Error{"option --format is given twice", {}};
        given.format = true;
        if (value == "csv")
            o.format = OutputFormat::Csv;
        else if (value == "jsonl")
            o.format = OutputFormat::Jsonl;
        else
            return Error{"--format is csv or jsonl, not '" + value + "'", {}};
        return {};
    }
    if (name == "packet" || name == "parameters" || name == "stream") {
        appendList(name == "packet" ? o.packets : name == "parameters" ? o.parameters : o.streams, value);
        return {};
    }
    if (name == "from" || name == "to") {
        std::int64_t& to = name == "from" ? o.fromNs : o.toNs;
        if (to != 0)
            return Error{"option --" + name + " is given twice", {}};
        const auto ns = text::parseTimeNs(value);
        if (!ns || *ns == 0)
            return Error{"--" + name + " is a UTC time (2026-11-22T12:00:00Z, with an optional fraction) or ns since "
                             "1970, not '" + value + "'",
                         {}};
        to = *ns;
        return {};
    }
    if (name == "transport-header") {
        std::size_t n = 0;
        const auto [end, ec] = std::from_chars(value.data(), value.data() + value.size(), n);
        if (ec != std::errc{} || end != value.data() + value.size() || n > kMaxTransportHeader)
            return Error{"--transport-header is a number of bytes from 0 to " + std::to_string(kMaxTransportHeader)
                             + ", not '" + value + "'",
                         {}};
        o.transportHeader = n;
        return {};
    }
    return Error{"unknown option --" + name, {}};
}

Result<DecodeOptions> parseOptions(std::span<const std::string> args)
{
    DecodeOptions o;
    GivenOptions given;
    for (std::size_t i = 0; i < args.size(); ++i) {
        const std::string_view arg = args[i];
        if (arg == "-h" || arg == "--help") {
            o.help = true;
            continue;
        }
        if (!arg.starts_with("--"))
            return Error{"unexpected argument '" + std::string(arg) + "'", {}};
        std::string name(arg.substr(2));
        std::string value;
        const auto eq = name.find('=');
        const bool valueInline = eq != std::string::npos;
        if (valueInline) {
            value = name.substr(eq + 1);
            name.resize(eq);
        }
        if (name == "wide" || name == "aligned" || name == "lenient") {
            if (valueInline)
                return Error{"option --" + name + " takes no value", {}};
            (name == "wide" ? given.wide : name == "aligned" ? given.aligned : o.lenient) = true;
            continue;
        }
        static constexpr std::array kValued{"mdb", "input", "output", "format", "packet", "parameters",
                                            "transport-header", "from", "to", "stream"};
        if (std::find(kValued.begin(), kValued.end(), name) == kValued.end())
            return Error{"unknown option --" + name, {}};
        if (!valueInline) {
            if (i + 1 >= args.size())
                return Error{"option --" + name + " needs a value", {}};
            value = args[++i];
        }
        if (auto s = applyOption(o, given, name, value); !s)
            return s.error();
    }
    if (o.help)
        return o;
    if (given.wide && given.aligned)
        return Error{"--wide and --aligned are two layouts; choose one", {}};
    if (given.wide || given.aligned) {
        if (o.format == OutputFormat::Jsonl)
            return Error{std::string(given.wide ? "--wide" : "--aligned") + " is a CSV layout; it does not go with --format jsonl",
                         {}};
        o.format = given.wide ? OutputFormat::WideCsv : OutputFormat::AlignedCsv;
    }
    if (o.fromNs != 0 && o.toNs != 0 && o.fromNs > o.toNs)
        return Error{"--from is after --to", {}};
    if (o.mission.empty())
        return Error{"missing --mdb MISSION", {}};
    if (o.input.empty())
        return Error{"missing --input FILE", {}};
    return o;
}

std::string plural(std::uint64_t n, std::string_view one, std::string_view many)
{
    return std::to_string(n) + " " + std::string(n == 1 ? one : many);
}

void printDiagnostics(const Diagnostics& diagnostics, bool warnings)
{
    std::size_t hidden = 0;
    std::string file;
    for (const auto& d : diagnostics) {
        if (d.severity == Severity::Warning && !warnings) {
            ++hidden;
            file = d.where.file;
            continue;
        }
        std::cerr << d.toString() << '\n';
    }
    if (hidden > 0)
        std::cerr << (file.empty() ? std::string() : file + ": ") << plural(hidden, "warning", "warnings")
                  << " (telestation-mdb check shows them)\n";
}

bool sameFile(const std::string& a, const std::string& b)
{
    std::error_code ec;
    return std::filesystem::exists(b, ec) && std::filesystem::equivalent(a, b, ec) && !ec;
}

} // namespace

int runDecode(std::span<const std::string> args)
{
    auto parsed = parseOptions(args);
    if (!parsed)
        return usageError(parsed.error().message);
    const DecodeOptions& o = *parsed;
    if (o.help) {
        std::cout << kHelp;
        return kDecodeOk;
    }
    if (o.output != "-" && (sameFile(o.input, o.output) || sameFile(o.mission, o.output)))
        return usageError("--output " + o.output + " would overwrite an input");

    config::MissionLoadOptions loadOptions;
    loadOptions.lenient = o.lenient;
    loadOptions.useCache = false; // a one-shot tool, maybe on a read-only folder
    const config::LoadedMission mission = config::loadMission(o.mission, loadOptions);
    printDiagnostics(mission.diagnostics, false);
    if (!mission.database) {
        std::cerr << "telestation-mdb decode: cannot load the mission " << o.mission << '\n';
        return kDecodeFailed;
    }
    auto table = pipeline::PacketTypeTable::build(*mission.database);
    if (!table) {
        std::cerr << o.mission << ": " << table.error().message << '\n';
        return kDecodeFailed;
    }
    auto selection = Selection::build(*table, o.packets, o.parameters);
    if (!selection)
        return usageError(selection.error().message);

    InputOptions inputOptions;
    inputOptions.transportHeaderBytes = o.transportHeader;
    inputOptions.fromNs = o.fromNs;
    inputOptions.toNs = o.toNs;
    inputOptions.streams = o.streams;
    inputOptions.knownApids.assign(ccsds::kApidCount, false);
    for (const auto& p : mission.database->packets)
        inputOptions.knownApids[p.apid & ccsds::kMaxApid] = true;
    auto input = PacketInput::open(o.input, std::move(inputOptions));
    if (!input) {
        std::cerr << "telestation-mdb decode: " << input.error().toString() << '\n';
        return kDecodeFailed;
    }

    const bool toStdout = o.output == "-";
    std::FILE* out = toStdout ? stdout : std::fopen(o.output.c_str(), "wb");
    if (out == nullptr) {
        std::cerr << "telestation-mdb decode: " << o.output << ": cannot create: " << std::strerror(errno) << '\n';
        return kDecodeFailed;
    }
    // A bar on the terminal only when the output does not go to that terminal too.
    const bool showProgress = ::isatty(STDERR_FILENO) == 1 && (*input)->totalBytes() > kProgressMinBytes
        && !(toStdout && ::isatty(STDOUT_FILENO) == 1);
    ProgressBar progress(stderr, showProgress, (*input)->totalBytes());

    const auto writer = DecodedWriter::create(o.format, *table, *selection, out);
    DecodeRunOptions runOptions;
    runOptions.fromNs = o.fromNs;
    runOptions.toNs = o.toNs;
    if (progress.enabled())
        runOptions.progress = [&](double fraction, std::uint64_t packets) { progress.update(fraction, packets); };
    DecodeRun decoder(*table, *selection, *writer, **input, std::move(runOptions));
    const Status read = (*input)->read(decoder);
    Status written = writer->finish();
    progress.finish();
    if (!toStdout && std::fclose(out) != 0 && written)
        written = Error{std::string("cannot write: ") + std::strerror(errno), {}};
    const bool complete
        = decoder.summarize(std::cerr, "telestation-mdb decode: ", o.input, writer->valuesWritten(), (*input)->damage());
    if (!read) {
        std::cerr << "telestation-mdb decode: " << read.error().toString() << '\n';
        return kDecodeFailed;
    }
    if (!written) {
        std::cerr << "telestation-mdb decode: " << (toStdout ? std::string("standard output") : o.output) << ": "
                  << written.error().message << '\n';
        return kDecodeFailed;
    }
    return complete ? kDecodeOk : kDecodeIncomplete;
}

} // namespace telestation::tools
