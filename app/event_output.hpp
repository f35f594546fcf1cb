// The headless mode's events: every event and alarm change as a JSON line (`--events-out FILE.jsonl`),
// and the tally for the final summary (events by kind, with what they stand for, and alarms by
// severity). Its sink runs on the station's event thread; the tally is read after the station stopped.
#pragma once

#include "core/events/alarm.hpp"
#include "core/events/event.hpp"
#include "core/pipeline/station.hpp"

#include <array>
#include <cstdint>
#include <fstream>
#include <mutex>
#include <span>
#include <string>
#include <vector>

namespace telestation::app {

class EventOutput {
public:
    // `path`: "" = no file. An unopenable file is an error the caller reports (ok() false).
    explicit EventOutput(const std::string& path);
    [[nodiscard]] bool ok() const noexcept { return m_ok; }

    // Registers the sink with the station (before it starts).
    void attach(pipeline::Station& station);
    // "Events: 14 (3 sequenceGap standing for 12 gaps, 40 packets lost; ...)\nAlarms: ..." for the summary.
    [[nodiscard]] std::string summary(const std::vector<events::Alarm>& alarms) const;

private:
    void take(std::span<const events::Event> batch);

    struct Tally {
        std::uint64_t lines = 0;  // events reported
        std::uint64_t count = 0;  // what they stand for (storm summaries merge many)
        std::uint64_t amount = 0; // packets lost, dropped, ...
    };
    mutable std::mutex m_mutex;
    std::array<Tally, events::kEventKindCount> m_kinds{};
    std::ofstream m_out;
    bool m_ok = true;
};

} // namespace telestation::app
