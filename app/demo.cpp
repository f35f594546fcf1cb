#include "app/demo.hpp"

#include "core/common/paths.hpp"
#include "sim/engine/simulator.hpp"

#include <cstdlib>

namespace telestation::app {

namespace fs = std::filesystem;

fs::path demoDirectory()
{
    if (const char* xdg = std::getenv("XDG_DATA_HOME"); xdg && *xdg)
        return fs::path(xdg) / "telestation" / "demo";
    if (const char* home = std::getenv("HOME"); home && *home)
        return fs::path(home) / ".local" / "share" / "telestation" / "demo";
    return fs::temp_directory_path() / "telestation-demo";
}

std::string demoProfilePath()
{
    return (dataDir() / "profiles" / "training.json").string();
}

std::string demoDisplayFilePath()
{
    return (dataDir() / "displays" / "demo.json").string();
}

Result<config::StationProfile> demoProfile()
{
    auto load = config::loadProfileFile(demoProfilePath());
    if (!load.ok()) {
        std::string text;
        for (const auto& d : load.diagnostics)
            text += (text.empty() ? "" : "\n") + d.toString();
        return Error{text, {}};
    }
    load.profile.recordingDirectory = (demoDirectory() / "recordings").string();
    load.profile.logDirectory = (demoDirectory() / "logs").string();
    return load.profile;
}

Result<std::unique_ptr<sim::Simulator>> demoSimulator()
{
    const auto scenarioPath = (dataDir() / "scenarios" / "demo.json").string();
    auto scenario = sim::loadScenarioFile(scenarioPath);
    if (!scenario)
        return scenario.error();
    return sim::Simulator::fromScenario(*scenario, trainingDatabasePath().string());
}

} // namespace telestation::app
