// The SQLite store's public functions: what kind of file a path is, and the runs of a load (open,
// recognise, upgrade, read in one read transaction) and of a save (check, replace the whole content in
// one transaction). The schema, reading and writing are in sqlite_schema.cpp, sqlite_load.cpp and
// sqlite_save.cpp (sqlite_store_detail.hpp).
#include "core/mdb/sqlite_store.hpp"

#include "core/mdb/sqlite_store_detail.hpp"
#include "core/sqlite/transaction.hpp"

#include <array>
#include <filesystem>
#include <fstream>
#include <optional>
#include <system_error>

namespace telestation::mdb {
namespace {

namespace fs = std::filesystem;
using detail::fail;

// ---- Connections ----------------------------------------------------------------------------------

// A message for an SQLite failure that says what it means for the user.
std::string describeSqliteError(sqlite::Failure failure, const std::string& message)
{
    switch (failure) {
    case sqlite::Failure::NotADatabase:
        return "not a mission database: not an SQLite file (" + message + ")";
    case sqlite::Failure::Corrupt:
        return "the file is corrupt (" + message + ")";
    case sqlite::Failure::ReadOnly:
        return "the file is read-only (" + message + ")";
    case sqlite::Failure::Busy:
        return "the file is locked by another program (" + message + ")";
    case sqlite::Failure::Other:
        break;
    }
    return message;
}

Result<sqlite::Connection> openConnection(const std::string& path, sqlite::OpenMode mode)
{
    auto c = sqlite::Connection::open(path, mode, &describeSqliteError);
    if (!c)
        return fail("cannot open: " + c.error().message);
    // Per connection, and a no-op inside a transaction: so set it first, every time.
    if (auto s = c->exec("PRAGMA foreign_keys = ON"); !s)
        return s.error();
    return c;
}

// ---- Files ----------------------------------------------------------------------------------------

constexpr std::array<char, 16> kSqliteMagic { 'S', 'Q', 'L', 'i', 't', 'e', ' ', 'f', 'o', 'r', 'm', 'a', 't', ' ', '3',
    '\0' };

enum class FileKind { Missing, Directory, NotRegular, Unreadable, Empty, Sqlite, Other };

FileKind classifyFile(const std::string& path)
{
    std::error_code ec;
    const auto status = fs::status(path, ec);
    if (!fs::exists(status))
        return FileKind::Missing;
    if (fs::is_directory(status))
        return FileKind::Directory;
    if (!fs::is_regular_file(status))
        return FileKind::NotRegular;
    std::ifstream in(path, std::ios::binary);
    if (!in)
        return FileKind::Unreadable;
    std::array<char, 16> head {};
    in.read(head.data(), static_cast<std::streamsize>(head.size()));
    const auto got = in.gcount();
    if (got == 0)
        return FileKind::Empty;
    if (got == static_cast<std::streamsize>(head.size()) && head == kSqliteMagic)
        return FileKind::Sqlite;
    return FileKind::Other;
}

// The error for the kinds that are not an SQLite file at all.
std::optional<Error> notAnSqliteFile(FileKind kind)
{
    switch (kind) {
    case FileKind::Missing:
        return fail("file not found");
    case FileKind::Directory:
        return fail("is a directory, not a mission database file");
    case FileKind::NotRegular:
        return fail("is not a regular file");
    case FileKind::Unreadable:
        return fail("cannot be read (permission denied?)");
    case FileKind::Other:
        return fail("not a mission database: not an SQLite file (no SQLite header)");
    case FileKind::Empty:
    case FileKind::Sqlite:
        return std::nullopt;
    }
    return std::nullopt;
}

// True when nobody has write permission on the file: we then do not modify it, even as root.
bool markedReadOnly(const std::string& path)
{
    std::error_code ec;
    const auto perms = fs::status(path, ec).permissions();
    if (ec)
        return false;
    constexpr auto anyWrite = fs::perms::owner_write | fs::perms::group_write | fs::perms::others_write;
    return (perms & anyWrite) == fs::perms::none;
}

Error inFile(Error e, const std::string& path)
{
    e.where.file = path;
    return e;
}

// ---- Saving ---------------------------------------------------------------------------------------

Status save(const MissionDatabase& db, const std::string& path, FileKind kind)
{
    if (kind == FileKind::Other)
        return fail("exists and is not an SQLite database; refusing to replace it");
    if (kind != FileKind::Missing) {
        if (auto e = notAnSqliteFile(kind))
            return *e;
        if (markedReadOnly(path))
            return fail("the file is read-only; cannot save");
    }

    auto c = openConnection(path, sqlite::OpenMode::ReadWriteCreate);
    if (!c)
        return c.error();
    if (c->readOnly())
        return fail("the file is read-only; cannot save");

    auto t = sqlite::Transaction::begin(*c, sqlite::TransactionKind::Immediate);
    if (!t)
        return t.error();
    auto info = detail::inspect(*c);
    if (!info)
        return info.error();
    if (info->hasTables) {
        if (auto e = detail::foreignDatabase(*info))
            return fail("is " + e->message + "; refusing to replace it");
    }
    if (auto s = detail::writeDatabase(*c, db); !s)
        return s;
    if (auto s = t->commit(); !s)
        return fail("cannot save: " + s.error().message);
    return {};
}

} // namespace

// ---- Public API -----------------------------------------------------------------------------------

bool hasSqliteHeader(const std::string& path)
{
    return classifyFile(path) == FileKind::Sqlite;
}

Result<int> schemaVersion(const std::string& path)
{
    const FileKind kind = classifyFile(path);
    if (kind == FileKind::Empty)
        return 0;
    if (auto e = notAnSqliteFile(kind))
        return inFile(*e, path);
    auto c = openConnection(path, sqlite::OpenMode::ReadOnly);
    if (!c)
        return inFile(c.error(), path);
    auto info = detail::inspect(*c);
    if (!info)
        return inFile(info.error(), path);
    if (info->applicationId == 0 && !info->hasTables && info->userVersion == 0)
        return 0;
    if (auto e = detail::foreignDatabase(*info))
        return inFile(*e, path);
    if (info->userVersion > kSchemaVersion)
        return info->userVersion;
    if (auto e = detail::unloadable(*info))
        return inFile(*e, path);
    return info->userVersion;
}

Result<MissionDatabase> loadDatabase(const std::string& path)
{
    const FileKind kind = classifyFile(path);
    if (kind == FileKind::Empty)
        return inFile(fail("an empty file, not a mission database"), path);
    if (auto e = notAnSqliteFile(kind))
        return inFile(*e, path);

    auto c = openConnection(path, sqlite::OpenMode::ReadOnly);
    if (!c)
        return inFile(c.error(), path);
    auto info = detail::inspect(*c);
    if (!info)
        return inFile(info.error(), path);
    if (auto e = detail::unloadable(*info))
        return inFile(*e, path);

    if (info->userVersion < kSchemaVersion) {
        const std::string readOnly = "schema version " + std::to_string(info->userVersion) + " must be upgraded to "
            + std::to_string(kSchemaVersion)
            + " before it can be loaded, but the file is read-only; make it writable"
              " (or load a writable copy) to upgrade it";
        if (markedReadOnly(path))
            return inFile(fail(readOnly), path);
        c = openConnection(path, sqlite::OpenMode::ReadWrite);
        if (!c)
            return inFile(c.error(), path);
        if (c->readOnly())
            return inFile(fail(readOnly), path);
        if (auto s = detail::upgrade(*c); !s)
            return inFile(s.error(), path);
    }

    auto t = sqlite::Transaction::begin(*c, sqlite::TransactionKind::Deferred);
    if (!t)
        return inFile(t.error(), path);
    auto db = detail::readDatabase(*c);
    if (!db)
        return inFile(db.error(), path);
    if (auto s = t->commit(); !s)
        return inFile(s.error(), path);
    return db;
}

Status saveDatabase(const MissionDatabase& db, const std::string& path)
{
    const FileKind kind = classifyFile(path);
    Status s = save(db, path, kind); // closes the connection before we might remove the file
    if (s)
        return s;
    if (kind == FileKind::Missing) {
        // Leave no trace of a failed save of a new file.
        std::error_code ec;
        fs::remove(path, ec);
        fs::remove(path + "-journal", ec);
    }
    return inFile(s.error(), path);
}

} // namespace telestation::mdb
