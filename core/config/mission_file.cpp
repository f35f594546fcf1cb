#include "core/config/mission_file.hpp"

#include "core/mdb/sqlite_store.hpp"
#include "core/mdb/text_format.hpp"
#include "core/mdb/validate.hpp"
#include "core/xtce/xtce_import.hpp"

#include <array>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <system_error>

namespace telestation::config {

namespace {

// Bump when the importer maps anything differently: caches written by older builds are then rebuilt.
constexpr unsigned kXtceCompilerVersion = 1;

std::uint64_t fnv1a64(std::string_view data, std::uint64_t hash = 0xcbf29ce484222325ull)
{
    for (const char c : data) {
        hash ^= static_cast<unsigned char>(c);
        hash *= 0x100000001b3ull;
    }
    return hash;
}

Diagnostic fileError(const std::string& path, std::string message)
{
    return Diagnostic{Severity::Error, std::move(message), SourceLocation{path, 0, 0}};
}

// A file that is not SQLite but has NUL bytes near its start is no text definition either: one error
// then, rather than one per line of binary noise.
bool looksBinary(const std::string& path)
{
    std::ifstream in(path, std::ios::binary);
    std::array<char, 4096> head{};
    in.read(head.data(), static_cast<std::streamsize>(head.size()));
    const auto n = static_cast<std::size_t>(in.gcount());
    for (std::size_t i = 0; i < n; ++i)
        if (head[i] == '\0')
            return true;
    return false;
}

// Validation issues join the diagnostics; the database is kept only without an error.
void acceptValidated(LoadedMission& out, mdb::MissionDatabase db, const std::string& path)
{
    for (auto& d : mdb::toDiagnostics(mdb::validate(db), path))
        out.diagnostics.push_back(std::move(d));
    if (!hasErrors(out.diagnostics))
        out.database = std::move(db);
}

void loadXtce(LoadedMission& out, const std::string& path, const MissionLoadOptions& options)
{
    out.format = MissionFormat::Xtce;
    std::ifstream in(path, std::ios::binary);
    const std::string content((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    if (in.bad()) {
        out.diagnostics.push_back(fileError(path, "cannot be read"));
        return;
    }
    if (options.useCache) {
        out.cachePath = xtceCachePath(path, content, options.lenient);
        std::error_code ec;
        if (std::filesystem::exists(out.cachePath, ec)) {
            if (auto cached = mdb::loadDatabase(out.cachePath)) {
                out.database = std::move(*cached);
                out.fromCache = true;
                return;
            }
            std::filesystem::remove(out.cachePath, ec); // damaged: rebuilt below
        }
    }
    xtce::ImportOptions importOptions;
    importOptions.lenient = options.lenient;
    xtce::ImportResult imported = xtce::importXtce(content, path, importOptions);
    out.diagnostics = std::move(imported.diagnostics);
    out.skipped = std::move(imported.skipped);
    if (!imported.ok())
        return;
    acceptValidated(out, std::move(imported.database), path);
    if (!out.database || !options.useCache)
        return;
    if (auto saved = mdb::saveDatabase(*out.database, out.cachePath); !saved) {
        out.diagnostics.push_back(Diagnostic{Severity::Warning,
                                             "the compiled definition is not cached: " + saved.error().toString(),
                                             SourceLocation{path, 0, 0}});
        out.cachePath.clear();
        return;
    }
    // Caches of earlier versions of the file are of no use any more.
    const std::filesystem::path self(out.cachePath);
    const std::string prefix = std::filesystem::path(path).filename().string() + ".";
    std::error_code ec;
    for (const auto& entry : std::filesystem::directory_iterator(self.parent_path(), ec)) {
        const std::string name = entry.path().filename().string();
        if (name != self.filename().string() && name.size() == prefix.size() + 16 + 4 && name.starts_with(prefix)
            && name.ends_with(".mdb"))
            std::filesystem::remove(entry.path(), ec);
    }
}

} // namespace

Error LoadedMission::error() const
{
    std::size_t errors = 0;
    const Diagnostic* first = nullptr;
    for (const auto& d : diagnostics)
        if (d.severity == Severity::Error && errors++ == 0)
            first = &d;
    if (first == nullptr)
        return Error{"cannot be loaded", {}};
    Error e{first->message, first->where};
    if (errors > 1)
        e.message += " (and " + std::to_string(errors - 1) + (errors == 2 ? " more error)" : " more errors)");
    return e;
}

std::vector<std::string> LoadedMission::notes() const
{
    std::vector<std::string> out;
    for (const auto& d : diagnostics)
        if (d.severity == Severity::Warning)
            out.push_back(d.toString());
    for (const auto& line : skipped)
        out.push_back("not imported: " + line);
    return out;
}

std::string xtceCachePath(const std::string& path, std::string_view content, bool lenient)
{
    const std::string salt = "telestation-xtce-" + std::to_string(kXtceCompilerVersion) + (lenient ? "-lenient" : "");
    const std::uint64_t hash = fnv1a64(content, fnv1a64(salt));
    char hex[17];
    std::snprintf(hex, sizeof hex, "%016llx", static_cast<unsigned long long>(hash));
    return path + "." + hex + ".mdb";
}

LoadedMission loadMission(const std::string& path, const MissionLoadOptions& options)
{
    LoadedMission out;
    std::error_code ec;
    if (!std::filesystem::is_regular_file(path, ec)) {
        out.diagnostics.push_back(fileError(path, std::filesystem::exists(path, ec) ? "not a file" : "no such file"));
        return out;
    }
    if (mdb::hasSqliteHeader(path)) {
        auto db = mdb::loadDatabase(path);
        if (!db) {
            out.diagnostics.push_back(Diagnostic{Severity::Error, db.error().message, db.error().where});
            return out;
        }
        if (options.validateDatabase)
            acceptValidated(out, std::move(*db), path);
        else
            out.database = std::move(*db);
        return out;
    }
    if (looksBinary(path)) {
        out.diagnostics.push_back(fileError(path, "neither a mission database (no SQLite header), nor XTCE, nor a "
                                                  "text definition (binary content)"));
        return out;
    }
    if (xtce::looksLikeXtce(path)) {
        loadXtce(out, path, options);
        return out;
    }
    out.format = MissionFormat::Text;
    mdb::ImportResult text = mdb::readTextFile(path); // parsed and validated
    out.diagnostics = std::move(text.diagnostics);
    if (!hasErrors(out.diagnostics))
        out.database = std::move(text.database);
    return out;
}

} // namespace telestation::config
