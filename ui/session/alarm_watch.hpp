// AlarmWatch: when a view of the station's alarms should take them again — the session's
// alarmsVersion() moved, or a second has passed (a shelf's time left, a shelf that ended). The alarm
// list and the status bar's counts both ask it four times a second, so that the two agree and neither
// copies the alarms when nothing changed.
#pragma once

#include "ui/session/station_session.hpp"

#include <chrono>
#include <cstdint>

namespace telestation::ui {

class AlarmWatch {
public:
    static constexpr std::chrono::milliseconds kPollInterval{250};
    static constexpr std::chrono::milliseconds kRefreshInterval{1000};

    explicit AlarmWatch(const StationSession& session) : m_session(session) {}

    // True when it is time to take the alarms (always when `force`); notes the version and the time.
    [[nodiscard]] bool due(bool force = false)
    {
        const auto now = std::chrono::steady_clock::now();
        const std::uint64_t version = m_session.alarmsVersion();
        if (!force && version == m_version && now - m_taken < kRefreshInterval)
            return false;
        m_version = version;
        m_taken = now;
        return true;
    }

private:
    const StationSession& m_session;
    std::uint64_t m_version = 0;
    std::chrono::steady_clock::time_point m_taken{};
};

} // namespace telestation::ui
