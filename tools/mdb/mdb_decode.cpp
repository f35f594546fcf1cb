#include "tools/mdb/mdb_decode.hpp"

#include "core/config/mission_file.hpp"

#include "core/ccsds/space_packet.hpp"
#include "core/mdb/sqlite_store.hpp"
#include "core/mdb/text_format.hpp"
#include "core/pipeline/packet_types.hpp"
#include "core/xtce/xtce_import.hpp"
#include "tools/mdb/decoded_writer.hpp"
#include "tools/mdb/packet_file_reader.hpp"
#include "tools/mdb/progress_bar.hpp"
#include "tools/mdb/value_text.hpp"

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
constexpr std::size_t kExamplesPerReason = 5;

struct DecodeOptions {
    std::string mission;
    std::string input;
    std::string output = "-";
    OutputFormat format = OutputFormat::Csv;
    std::vector<std::string> packets;
    std::vector<std::string> parameters;
    std::size_t transportHeader = 0;
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

Result<DecodeOptions> parseOptions(std::span<const std::string> args)
{
    DecodeOptions o;
    bool formatGiven = false;
    bool wide = false;
    bool outputGiven = false;
    for (std::size_t i = 0; i < args.size(); ++i) {
        std::string_view arg = args[i];
        if (arg == "-h" || arg == "--help") {
            o.help = true;
            continue;
        }
        if (!arg.starts_with("--"))
            return Error{"unexpected argument '" + std::string(arg) + "'", {}};
        std::string name(arg.substr(2));
        std::optional<std::string> value;
        if (const auto eq = name.find('='); eq != std::string::npos) {
            value = name.substr(eq + 1);
            name.resize(eq);
        }
        const bool flag = name == "wide" || name == "lenient";
        if (flag) {
            if (value)
                return Error{"option --" + name + " takes no value", {}};
            (name == "wide" ? wide : o.lenient) = true;
            continue;
        }
        static constexpr std::array kValued{"mdb", "input", "output", "format", "packet", "parameters",
                                            "transport-header"};
        if (std::find(kValued.begin(), kValued.end(), name) == kValued.end())
            return Error{"unknown option --" + name, {}};
        if (!value) {
            if (i + 1 >= args.size())
                return Error{"option --" + name + " needs a value", {}};
            value = args[++i];
        }
        const auto once = [&](std::string& to, bool given = false) -> Status {
            if (!to.empty() || given)
                return Error{"option --" + name + " is given twice", {}};
            if (value->empty())
                return Error{"option --" + name + " needs a value", {}};
            to = *value;
            return {};
        };
        if (name == "mdb") {
            if (auto s = once(o.mission); !s)
                return s.error();
        } else if (name == "input") {
            if (auto s = once(o.input); !s)
                return s.error();
        } else if (name == "output") {
            std::string out;
            if (auto s = once(out, outputGiven); !s)
                return s.error();
            o.output = out;
            outputGiven = true;
        } else if (name == "format") {
            if (formatGiven)
                return Error{"option --format is given twice", {}};
            formatGiven = true;
            if (*value == "csv")
                o.format = OutputFormat::Csv;
            else if (*value == "jsonl")
                o.format = OutputFormat::Jsonl;
            else
                return Error{"--format is csv or jsonl, not '" + *value + "'", {}};
        } else if (name == "packet") {
            appendList(o.packets, *value);
        } else if (name == "parameters") {
            appendList(o.parameters, *value);
        } else { // transport-header
            std::size_t n = 0;
            const auto [end, ec] = std::from_chars(value->data(), value->data() + value->size(), n);
            if (ec != std::errc{} || end != value->data() + value->size() || n > kMaxTransportHeader)
                return Error{"--transport-header is a number of bytes from 0 to " + std::to_string(kMaxTransportHeader)
                                 + ", not '" + *value + "'",
                             {}};
            o.transportHeader = n;
        }
    }
    if (o.help)
        return o;
    if (wide) {
        if (o.format == OutputFormat::Jsonl)
            return Error{"--wide is a CSV layout; it does not go with --format jsonl", {}};
        o.format = OutputFormat::WideCsv;
    }
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

// Why a packet did not decode; the first three come from the input.
enum class Reason : std::uint8_t { BadPrimaryHeader, LengthMismatch, Truncated, Short, BadSize, Count };

std::string_view reasonName(Reason r)
{
    switch (r) {
    case Reason::BadPrimaryHeader: return inputProblemName(InputProblemKind::BadPrimaryHeader);
    case Reason::LengthMismatch: return inputProblemName(InputProblemKind::LengthMismatch);
    case Reason::Truncated: return inputProblemName(InputProblemKind::TruncatedPacket);
    case Reason::Short: return "shorter than its layout";
    case Reason::BadSize: return "a size out of range";
    case Reason::Count: break;
    }
    return "?";
}

Reason reasonOf(InputProblemKind kind)
{
    switch (kind) {
    case InputProblemKind::BadPrimaryHeader: return Reason::BadPrimaryHeader;
    case InputProblemKind::LengthMismatch: return Reason::LengthMismatch;
    case InputProblemKind::TruncatedPacket: return Reason::Truncated;
    }
    return Reason::BadPrimaryHeader;
}

struct Tally {
    std::uint64_t count = 0;
    std::vector<std::string> examples; // the first few: where and why
};

// The decode loop: classifies each packet, decodes it with its plan into one reused array of values,
// checks it against its layout, counts, and hands selected packets to the writer.
class Decoder final : public InputSink {
public:
    Decoder(const pipeline::PacketTypeTable& table, const Selection& selection, DecodedWriter& writer,
            const PacketInput& input, ProgressBar& progress)
        : m_table(table), m_selection(selection), m_writer(writer), m_input(input), m_progress(progress),
          m_values(std::max<std::uint32_t>(1, table.maxParametersPerPacket())), m_decodedByType(table.typeCount(), 0)
    {
    }

    void onPacket(const InputPacket& in) override
    {
        tick();
        const auto packet = in.packet;
        const std::uint32_t type = m_table.classify(packet);
        if (type == pipeline::kUnknownType) {
            const auto apid = ccsds::readPrimaryHeader(packet.data()).apid;
            if (apid == ccsds::kIdleApid)
                ++m_idle;
            else
                ++m_unknownByApid[apid];
            return;
        }
        const auto& plan = m_table.plan(type);
        const auto& def = m_table.definition(type);
        decode::LayoutReport layout;
        plan.decode(packet, std::span(m_values.data(), plan.parameterCount()), &layout);
        if (packet.size() < def.length) {
            malformed(Reason::Short, in, type,
                      std::to_string(packet.size()) + " bytes, its definition has at least " + std::to_string(def.length));
            return;
        }
        if (layout.status != decode::LayoutStatus::Complete) {
            const std::string parameter = layout.failedIndex >= 0
                ? def.parameters[static_cast<std::size_t>(layout.failedIndex)].name
                : std::string("?");
            malformed(layout.status == decode::LayoutStatus::Short ? Reason::Short : Reason::BadSize, in, type,
                      layout.status == decode::LayoutStatus::Short
                          ? std::to_string(packet.size()) + " bytes end before parameter " + parameter
                          : "parameter " + parameter + " has a size out of range");
            return;
        }
        ++m_decoded;
        ++m_decodedByType[type];
        // A packet longer than its layout (or its definition's length) decodes; the rest is ignored.
        const std::size_t layoutEnd = plan.fixedLayout() ? plan.requiredSize() : layout.endByte();
        const std::size_t end = std::max<std::size_t>(layoutEnd, def.length);
        if (packet.size() > end) {
            ++m_long.count;
            m_extraBytes += packet.size() - end;
            if (m_long.examples.size() < kExamplesPerReason)
                m_long.examples.push_back(where(in, type) + ": " + std::to_string(packet.size()) + " bytes, "
                                          + plural(packet.size() - end, "byte", "bytes") + " past the end of its layout");
        }
        if (!m_selection.selected(type))
            return;
        DecodedPacket out{in.index, in.receiveTimeNs, type, packet, std::span(m_values.data(), plan.parameterCount())};
        std::int64_t packetTime = 0;
        if (!out.timeNs && plan.hasPacketTime() && plan.packetTime(packet, packetTime))
            out.timeNs = packetTime;
        m_writer.write(out);
        ++m_written;
    }

    void onProblem(const InputProblem& problem) override
    {
        tick();
        InputPacket at;
        at.index = problem.index;
        at.byteOffset = problem.byteOffset;
        malformed(reasonOf(problem.kind), at, pipeline::kUnknownType, problem.detail);
    }

    // The summary on standard error. Returns true when every packet decoded.
    bool summarize(std::ostream& err, const std::string& inputPath, const std::string& damage) const
    {
        std::uint64_t unknown = 0;
        for (const auto& [apid, n] : m_unknownByApid)
            unknown += n;
        std::uint64_t malformedCount = 0;
        for (const auto& t : m_malformed)
            malformedCount += t.count;
        err << "telestation-mdb decode: " << inputPath << " (" << inputKindName(m_input.kind())
            << "): " << plural(m_packets, "packet", "packets") << ": " << m_decoded << " decoded, " << unknown
            << " unknown, " << malformedCount << " malformed";
        if (m_idle > 0)
            err << ", " << m_idle << " idle (APID 2047, skipped)";
        err << '\n';
        err << "  written: " << plural(m_written, "packet", "packets") << ", "
            << plural(m_writer.valuesWritten(), "parameter value", "parameter values") << '\n';
        if (m_decoded > 0) {
            err << "  decoded, by packet type:\n";
            for (std::uint32_t t = 1; t < m_decodedByType.size(); ++t)
                if (m_decodedByType[t] > 0)
                    err << "    " << m_table.typeName(t) << ": " << m_decodedByType[t] << '\n';
        }
        if (unknown > 0) {
            err << "  unknown (no definition), by APID:\n";
            for (const auto& [apid, n] : m_unknownByApid)
                err << "    APID " << apid << ": " << plural(n, "packet", "packets") << '\n';
        }
        if (malformedCount > 0) {
            err << "  malformed, by reason:\n";
            for (std::size_t r = 0; r < m_malformed.size(); ++r) {
                const Tally& t = m_malformed[r];
                if (t.count == 0)
                    continue;
                err << "    " << reasonName(static_cast<Reason>(r)) << ": " << plural(t.count, "packet", "packets")
                    << '\n';
                for (const auto& e : t.examples)
                    err << "      " << e << '\n';
                if (t.count > t.examples.size())
                    err << "      …\n";
            }
        }
        if (m_long.count > 0) {
            err << "  long packets (decoded, extra bytes ignored): " << plural(m_long.count, "packet", "packets")
                << " with " << plural(m_extraBytes, "extra byte", "extra bytes") << '\n';
            for (const auto& e : m_long.examples)
                err << "      " << e << '\n';
            if (m_long.count > m_long.examples.size())
                err << "      …\n";
        }
        if (!damage.empty())
            err << "  recording damaged: " << damage << '\n';
        return unknown == 0 && malformedCount == 0 && damage.empty();
    }

private:
    void tick()
    {
        ++m_packets;
        if ((m_packets & 1023) == 0 && m_progress.enabled())
            m_progress.update(m_input.fraction(), m_packets);
    }

    [[nodiscard]] std::string where(const InputPacket& in, std::uint32_t type) const
    {
        std::string out = "packet " + std::to_string(in.index);
        if (m_input.kind() == InputKind::PacketFile)
            out += " at byte offset " + std::to_string(in.byteOffset);
        if (type != pipeline::kUnknownType)
            out += " (" + std::string(m_table.typeName(type)) + ")";
        return out;
    }

    void malformed(Reason reason, const InputPacket& in, std::uint32_t type, const std::string& detail)
    {
        Tally& t = m_malformed[static_cast<std::size_t>(reason)];
        ++t.count;
        if (t.examples.size() < kExamplesPerReason)
            t.examples.push_back(where(in, type) + ": " + detail);
    }

    const pipeline::PacketTypeTable& m_table;
    const Selection& m_selection;
    DecodedWriter& m_writer;
    const PacketInput& m_input;
    ProgressBar& m_progress;
    std::vector<decode::DecodedValue> m_values;
    std::uint64_t m_packets = 0;
    std::uint64_t m_decoded = 0;
    std::uint64_t m_written = 0;
    std::uint64_t m_idle = 0;
    std::vector<std::uint64_t> m_decodedByType;
    std::map<std::uint16_t, std::uint64_t> m_unknownByApid;
    std::array<Tally, static_cast<std::size_t>(Reason::Count)> m_malformed;
    Tally m_long;
    std::uint64_t m_extraBytes = 0;
};

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
    Decoder decoder(*table, *selection, *writer, **input, progress);
    const Status read = (*input)->read(decoder);
    Status written = writer->finish();
    progress.finish();
    if (!toStdout && std::fclose(out) != 0 && written)
        written = Error{std::string("cannot write: ") + std::strerror(errno), {}};
    const bool complete = decoder.summarize(std::cerr, o.input, (*input)->damage());
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
