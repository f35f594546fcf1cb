// EventLog: the newest events in memory, numbered in the order the station reported them, for views
// that poll (the GUI's event log, tests). Every event is also logged (spdlog) as it is added, unless
// the station was told not to (StationOptions::logEvents: the link test's own station). The
// event thread adds; any thread reads. The whole history is in the archive (core/events).
#pragma once

#include "core/events/event.hpp"

#include <cstdint>
#include <deque>
#include <mutex>
#include <vector>

namespace telestation::pipeline {

class EventLog {
public:
    static constexpr std::size_t kKept = 1000; // the newest events kept

    explicit EventLog(bool logged = true) : m_logged(logged) {}

    // Numbers the event (1, 2, ...) and keeps it; returns its number.
    std::uint64_t add(events::Event& event);
    // Events with number > `after`, oldest first.
    [[nodiscard]] std::vector<events::Event> since(std::uint64_t after) const;
    // Events added so far (the number of the newest).
    [[nodiscard]] std::uint64_t count() const;

private:
    mutable std::mutex m_mutex;
    std::deque<events::Event> m_events;
    std::uint64_t m_count = 0;
    const bool m_logged;
};

} // namespace telestation::pipeline
