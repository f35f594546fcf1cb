// Where the programs find their data: the training mission database and example profiles.
// Build tree and installation share one layout: <prefix>/bin/<program>, <prefix>/share/telestation/.
#pragma once

#include <cstdlib>
#include <filesystem>
#include <system_error>

namespace telestation {

[[nodiscard]] inline std::filesystem::path executableDir()
{
    std::error_code ec;
    const auto exe = std::filesystem::read_symlink("/proc/self/exe", ec);
    return ec ? std::filesystem::current_path(ec) : exe.parent_path();
}

// $TELESTATION_DATA_DIR when set, else <executable dir>/../share/telestation.
[[nodiscard]] inline std::filesystem::path dataDir()
{
    if (const char* env = std::getenv("TELESTATION_DATA_DIR"); env && *env)
        return env;
    return (executableDir() / ".." / "share" / "telestation").lexically_normal();
}

[[nodiscard]] inline std::filesystem::path trainingDatabasePath()
{
    return dataDir() / "training.mdb";
}

} // namespace telestation
