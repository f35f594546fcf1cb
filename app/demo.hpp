// The demo, shared by the workstation (`telestation --demo`) and the headless mode: the training
// profile with its recordings and logs under the user's data directory, and the demo scenario's
// simulator feeding it over loopback from the same process.
#pragma once

#include "core/common/result.hpp"
#include "core/config/station_profile.hpp"

#include <filesystem>
#include <memory>
#include <string>

namespace telestation::sim {
class Simulator;
}

namespace telestation::app {

// $XDG_DATA_HOME/telestation/demo (~/.local/share/telestation/demo; a temporary directory without HOME).
[[nodiscard]] std::filesystem::path demoDirectory();
[[nodiscard]] std::string demoProfilePath();       // the installed training profile
[[nodiscard]] std::string demoDisplayFilePath();   // the installed demo display file
// The training profile, recording and logging into demoDirectory().
[[nodiscard]] Result<config::StationProfile> demoProfile();
// The demo scenario's simulator, not started.
[[nodiscard]] Result<std::unique_ptr<sim::Simulator>> demoSimulator();

} // namespace telestation::app
