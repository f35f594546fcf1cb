// telestation-mdb: compiles mission database definitions (*.tdef, or XTCE *.xml) into the SQLite form
// the station loads (*.mdb), exports them back to canonical text, checks and summarizes any form.
// Exit codes: 0 success, 1 the data has errors or a file could not be read/written, 2 wrong usage.
#include "core/common/guarded_main.hpp"
#include "core/config/mission_file.hpp"
#include "core/mdb/sqlite_store.hpp"
#include "core/mdb/summary.hpp"
#include "core/mdb/text_format.hpp"
#include "core/mdb/validate.hpp"
#include "core/xtce/xtce_export.hpp"
#include "core/xtce/xtce_import.hpp"
#include "telestation_version.hpp"
#include "tools/mdb/mdb_decode.hpp"

#include <array>
#include <fstream>
#include <iostream>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace {

using namespace telestation;
using namespace telestation::mdb;

constexpr int kExitOk = 0;
constexpr int kExitFailed = 1;
constexpr int kExitUsage = 2;

constexpr std::string_view kUsage
    = "Usage: telestation-mdb COMMAND ARGUMENTS\n"
      "\n"
      "Commands:\n"
      "  import IN OUT.mdb [--lenient]\n"
      "                            Parse and validate a text definition (.tdef) or an XTCE file (XML whose\n"
      "                            root is a SpaceSystem; told apart by content) and write it to a mission\n"
      "                            database. On any error nothing is written; an existing OUT.mdb is\n"
      "                            replaced whole. With --lenient, XTCE constructs that Telestation does not\n"
      "                            support are listed as not imported instead of being errors.\n"
      "  export [--format tdef|xtce] IN OUT\n"
      "                            Write a mission database (any form) as canonical text (tdef, the default)\n"
      "                            or as XTCE 1.2 (docs/xtce.md); OUT '-' is standard output.\n"
      "  check FILE [--lenient]    Load and validate a .mdb, .tdef or XTCE file (told apart by content) and\n"
      "                            print its errors and warnings.\n"
      "  summary FILE [--lenient]  Print the mission, its counts and one line per packet.\n"
      "  decode --mdb MISSION --input FILE [options]\n"
      "                            Decode a file of space packets or a recording into CSV or JSON lines\n"
      "                            (options: telestation-mdb decode --help; exits 3 when packets were\n"
      "                            unknown or malformed).\n"
      "\n"
      "Options:\n"
      "  -h, --help                Show this help.\n"
      "  --version                 Show the version.\n"
      "\n"
      "Diagnostics go to standard error as FILE:LINE:COLUMN: SEVERITY: MESSAGE.\n"
      "Opening a .mdb written by an older Telestation upgrades it in place.\n"
      "Exit status: 0 success, 1 errors in the data or in reading/writing a file, 2 wrong usage.\n";

int usageError(const std::string& message)
{
    std::cerr << "telestation-mdb: " << message << " (see telestation-mdb --help)\n";
    return kExitUsage;
}

void print(const Diagnostics& diagnostics)
{
    for (const auto& d : diagnostics)
        std::cerr << d.toString() << '\n';
}

Diagnostic errorDiagnostic(const Error& error)
{
    return Diagnostic { Severity::Error, error.message, error.where };
}

std::size_t warningCount(const Diagnostics& diagnostics)
{
    std::size_t n = 0;
    for (const auto& d : diagnostics)
        n += d.severity == Severity::Warning ? 1 : 0;
    return n;
}

// Every command reads its file through the mission loader, which tells .mdb, XTCE and .tdef apart by
// content. No cache: the tool reads a file once.
config::LoadedMission loadAny(const std::string& path, bool validateDatabase, bool lenient)
{
    config::MissionLoadOptions options;
    options.lenient = lenient;
    options.useCache = false;
    options.validateDatabase = validateDatabase;
    return config::loadMission(path, options);
}

void printSkipped(const std::string& path, const std::vector<std::string>& skipped)
{
    if (skipped.empty())
        return;
    std::cout << "not imported from " << path << " (" << skipped.size() << "):\n";
    for (const auto& line : skipped)
        std::cout << "  " << path << ':' << line << '\n';
}

std::string counts(const MissionDatabase& db)
{
    return std::to_string(db.packets.size()) + " packets, " + std::to_string(db.parameterCount()) + " parameters";
}

int save(const MissionDatabase& db, const std::string& out)
{
    if (auto saved = saveDatabase(db, out); !saved) {
        print({ errorDiagnostic(saved.error()) });
        return kExitFailed;
    }
    std::cout << "wrote " << out << ": " << counts(db) << '\n';
    return kExitOk;
}

int runImport(const std::string& in, const std::string& out, bool lenient)
{
    if (hasSqliteHeader(in)) {
        print({ errorDiagnostic(Error {
            "is a mission database (SQLite), not a definition; nothing written", SourceLocation { in, 0, 0 } }) });
        return kExitFailed;
    }
    const config::LoadedMission imported = loadAny(in, true, lenient);
    print(imported.diagnostics);
    printSkipped(in, imported.skipped);
    if (!imported.ok()) {
        const bool hint = imported.format == config::MissionFormat::Xtce && !lenient;
        std::cerr << "telestation-mdb: " << in << " has errors; " << out << " was not written"
                  << (hint ? " (--lenient imports what is supported)" : "") << '\n';
        return kExitFailed;
    }
    return save(*imported.database, out);
}

int runExport(const std::string& in, const std::string& out, bool asXtce)
{
    const config::LoadedMission loaded = loadAny(in, false, false);
    print(loaded.diagnostics);
    if (!loaded.ok())
        return kExitFailed;
    if (out == "-") {
        std::cout << (asXtce ? xtce::writeXtce(*loaded.database) : writeText(*loaded.database)) << std::flush;
        if (!std::cout) {
            std::cerr << "telestation-mdb: cannot write to standard output\n";
            return kExitFailed;
        }
        return kExitOk;
    }
    const auto written = asXtce ? xtce::writeXtceFile(*loaded.database, out) : writeTextFile(*loaded.database, out);
    if (!written) {
        print({ errorDiagnostic(written.error()) });
        return kExitFailed;
    }
    return kExitOk;
}

int runCheck(const std::string& file, bool lenient)
{
    const config::LoadedMission loaded = loadAny(file, true, lenient);
    print(loaded.diagnostics);
    printSkipped(file, loaded.skipped);
    if (!loaded.ok())
        return kExitFailed;
    std::cout << file << ": ok: " << counts(*loaded.database) << ", " << warningCount(loaded.diagnostics)
              << " warnings\n";
    return kExitOk;
}

int runSummary(const std::string& file, bool lenient)
{
    const config::LoadedMission loaded = loadAny(file, false, lenient);
    print(loaded.diagnostics);
    if (!loaded.ok())
        return kExitFailed;
    std::cout << summarize(*loaded.database);
    return kExitOk;
}

struct Command {
    std::string_view name;
    std::size_t arguments;
    std::string_view synopsis;
    bool lenientOption; // accepts --lenient (for XTCE input)
};

constexpr Command kCommands[] = {
    { "import", 2, "import IN OUT.mdb [--lenient]", true },
    { "export", 2, "export [--format tdef|xtce] IN OUT|-", false },
    { "check", 1, "check FILE [--lenient]", true },
    { "summary", 1, "summary FILE [--lenient]", true },
};

int run(const std::vector<std::string>& args)
{
    if (args.empty())
        return usageError("missing command");
    const std::string& first = args[0];
    if (first == "-h" || first == "--help") {
        if (args.size() > 1)
            return usageError("unexpected argument '" + args[1] + "' after " + first);
        std::cout << kUsage;
        return kExitOk;
    }
    if (first == "--version") {
        if (args.size() > 1)
            return usageError("unexpected argument '" + args[1] + "' after --version");
        std::cout << "telestation-mdb " << kVersion << " (mission database schema " << kSchemaVersion << ")\n";
        return kExitOk;
    }
    if (first.starts_with('-'))
        return usageError("unknown option '" + first + "'");
    if (first == "decode")
        return tools::runDecode(std::span<const std::string>(args).subspan(1));

    const Command* command = nullptr;
    for (const auto& c : kCommands)
        if (c.name == first)
            command = &c;
    if (command == nullptr)
        return usageError("unknown command '" + first + "'");

    std::vector<std::string> operands;
    bool lenient = false;
    std::string format = "tdef"; // export: --format tdef|xtce
    for (auto it = args.begin() + 1; it != args.end(); ++it) {
        if (*it == "--lenient" && command->lenientOption)
            lenient = true;
        else if (first == "export" && (*it == "--format" || it->starts_with("--format="))) {
            if (*it == "--format" && it + 1 == args.end())
                return usageError("--format needs a value: tdef or xtce");
            format = *it == "--format" ? *++it : it->substr(9);
            if (format != "tdef" && format != "xtce")
                return usageError("unknown export format '" + format + "' (tdef or xtce)");
        }
        else
            operands.push_back(*it);
    }
    for (const auto& operand : operands) {
        // "-" alone is standard output; anything else that starts with '-' is an option we lack.
        if (operand.starts_with('-') && operand != "-")
            return usageError("unknown option '" + operand + "' for " + first);
        if (operand.empty())
            return usageError("empty file name for " + first);
    }
    if (operands.size() != command->arguments)
        return usageError(first + " takes " + std::to_string(command->arguments)
            + (command->arguments == 1 ? " argument" : " arguments") + ": " + std::string(command->synopsis));
    if (operands[0] == "-")
        return usageError(first + " does not read standard input");
    if (first == "import") {
        if (operands[1] == "-")
            return usageError("import writes a file, not standard output");
        return runImport(operands[0], operands[1], lenient);
    }
    if (first == "export")
        return runExport(operands[0], operands[1], format == "xtce");
    if (first == "check")
        return runCheck(operands[0], lenient);
    return runSummary(operands[0], lenient);
}

} // namespace

int main(int argc, char** argv)
{
    return telestation::guardedMain("telestation-mdb", [&] { return run(std::vector<std::string>(argv + 1, argv + argc)); });
}
