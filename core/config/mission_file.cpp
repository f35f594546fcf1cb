#include "core/config/mission_file.hpp"

#include "core/mdb/sqlite_store.hpp"
#include "core/mdb/text_format.hpp"
#include "core/mdb/validate.hpp"
#include "core/xtce/xtce_import.hpp"

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <sstream>
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

Error fileError(const std::string& path, std::string message)
{
    return Error{std::move(message), SourceLocation{path, 0, 0}};
}

// The first error, and how many more there are.
Error firstError(const Diagnostics& diagnostics, const std::string& path)
{
    std::size_t errors = 0;
    const Diagnostic* first = nullptr;
    for (const auto& d : diagnostics)
        if (d.severity == Severity::Error && errors++ == 0)
            first = &d;
    if (first == nullptr)
        return fileError(path, "cannot be loaded");
    Error e{first->message, first->where};
    if (e.where.file.empty())
        e.where.file = path;
    if (errors > 1)
        e.message += " (and " + std::to_string(errors - 1) + " more errors)";
    return e;
}

Status validated(const mdb::MissionDatabase& db, const std::string& path, std::vector<std::string>& notes)
{
    const Diagnostics issues = mdb::toDiagnostics(mdb::validate(db), path);
    if (hasErrors(issues))
        return firstError(issues, path);
    for (const auto& d : issues)
        notes.push_back(d.toString());
    return {};
}

Result<LoadedMission> loadXtce(const std::string& path, const MissionLoadOptions& options)
{
    std::ifstream in(path, std::ios::binary);
    std::string content((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    if (!in.good() && !in.eof())
        return fileError(path, "cannot be read");
    LoadedMission out;
    out.format = MissionFormat::Xtce;
    if (options.useCache) {
        out.cachePath = xtceCachePath(path, content, options.lenient);
        std::error_code ec;
        if (std::filesystem::exists(out.cachePath, ec)) {
            if (auto cached = mdb::loadDatabase(out.cachePath)) {
                out.database = std::move(*cached);
                out.fromCache = true;
                return out;
            }
            // A damaged cache is rebuilt below.
        }
    }
    xtce::ImportOptions importOptions;
    importOptions.lenient = options.lenient;
    xtce::ImportResult imported = xtce::importXtce(content, path, importOptions);
    if (!imported.ok())
        return firstError(imported.diagnostics, path);
    for (const auto& d : imported.diagnostics)
        out.notes.push_back(d.toString());
    for (const auto& line : imported.skipped)
        out.notes.push_back(path + ": not imported: " + line);
    if (auto ok = validated(imported.database, path, out.notes); !ok)
        return ok.error();
    out.database = std::move(imported.database);
    if (options.useCache) {
        if (auto saved = mdb::saveDatabase(out.database, out.cachePath); !saved) {
            out.notes.push_back("the compiled definition is not cached: " + saved.error().toString());
            out.cachePath.clear();
        } else {
            // Caches of earlier versions of the file are of no use any more.
            const std::filesystem::path self(out.cachePath);
            const std::string prefix = std::filesystem::path(path).filename().string() + ".";
            std::error_code ec;
            for (const auto& entry : std::filesystem::directory_iterator(self.parent_path(), ec)) {
                const std::string name = entry.path().filename().string();
                if (name != self.filename().string() && name.size() == prefix.size() + 16 + 4
                    && name.starts_with(prefix) && name.ends_with(".mdb"))
                    std::filesystem::remove(entry.path(), ec);
            }
        }
    }
    return out;
}

} // namespace

std::string xtceCachePath(const std::string& path, std::string_view content, bool lenient)
{
    const std::string salt = "telestation-xtce-" + std::to_string(kXtceCompilerVersion) + (lenient ? "-lenient" : "");
    const std::uint64_t hash = fnv1a64(content, fnv1a64(salt));
    char hex[17];
    std::snprintf(hex, sizeof hex, "%016llx", static_cast<unsigned long long>(hash));
    return path + "." + hex + ".mdb";
}

Result<LoadedMission> loadMission(const std::string& path, const MissionLoadOptions& options)
{
    std::error_code ec;
    if (!std::filesystem::exists(path, ec))
        return fileError(path, "no such file");
    if (std::filesystem::is_directory(path, ec))
        return fileError(path, "is a directory, not a mission database or definition file");
    if (mdb::hasSqliteHeader(path)) {
        auto db = mdb::loadDatabase(path);
        if (!db)
            return db.error();
        LoadedMission out;
        out.database = std::move(*db);
        return out;
    }
    if (xtce::looksLikeXtce(path))
        return loadXtce(path, options);
    mdb::ImportResult text = mdb::readTextFile(path);
    if (!text.ok())
        return firstError(text.diagnostics, path);
    LoadedMission out;
    out.format = MissionFormat::Text;
    out.database = std::move(text.database);
    for (const auto& d : text.diagnostics)
        out.notes.push_back(d.toString());
    return out;
}

} // namespace telestation::config
