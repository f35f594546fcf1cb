// The endurance run's station as the GUI workstation (`endurance --gui-last D`): the workstation embeds
// its station, so the run's station is `telestation --profile P` in a window on $DISPLAY for the whole
// run, and the displays of the GUI period (the demo's value display, plots and packet view) open D
// before the end through `--displays FILE --displays-after S` — the workstation's own option, not a
// click. The window says when they opened ("displays opened: ..." on its stdout). Its counts come
// through its user API: telestation-api-stats writes the snapshots as the headless mode's --stats-out
// lines; once it has caught up with what was sent, the last snapshot is the run's summary and SIGTERM
// ends it (the station stops as when the window closes). It runs with settings of its own
// (XDG_CONFIG_HOME in its directory): no layout of the operator's comes back, none is saved over it.
#pragma once

#include "tools/perf/perf_station_host.hpp"

#include <filesystem>
#include <memory>
#include <optional>

namespace telestation::perf {

struct GuiPlan {
    std::filesystem::path displayFile;  // opened for the GUI period
    double displaysAfterSeconds = 0;    // after the window is shown
};

// Why a GUI station cannot run here (no X display and no QT_QPA_PLATFORM), empty when it can.
[[nodiscard]] std::string guiUnavailable();

class GuiStationHost final : public ChildStationHost {
public:
    GuiStationHost(RunOptions options, GuiPlan plan);
    ~GuiStationHost() override;
    // `consume` must be empty: the workstation has no in-process consumers (its displays read the values).
    std::string start(const std::string& tag, Json profile, const std::string& consume, double safetySeconds,
                      std::vector<std::uint16_t>& ports) override;
    std::string stop(std::uint64_t expected, StationOutcome& out) override;
    [[nodiscard]] std::string stationAddress() const override { return "127.0.0.1"; }
    bool displaysOpened() override;

private:
    GuiPlan m_plan;
    std::unique_ptr<Child> m_stats; // telestation-api-stats, writing stats.jsonl from the station's API
    bool m_displaysOpened = false;
};

} // namespace telestation::perf
