// EventLog: what an operator should see happen — a connection, a recorder failure, a destination down
// or back. Never per packet. Each event is also logged (spdlog) as it is added. Any thread.
#pragma once

#include <cstdint>
#include <deque>
#include <mutex>
#include <string>
#include <vector>

namespace telestation::pipeline {

enum class EventSeverity : std::uint8_t { Info, Warning, Error };

struct StationEvent {
    std::uint64_t number = 0;      // 1, 2, ... in order
    std::int64_t timeNs = 0;
    EventSeverity severity = EventSeverity::Info;
    std::string stream;            // "" for the station as a whole
    std::string text;
};

class EventLog {
public:
    static constexpr std::size_t kKept = 1000; // the newest events kept

    void add(EventSeverity severity, std::string stream, std::string text);
    // Events with number > `after`, oldest first.
    [[nodiscard]] std::vector<StationEvent> since(std::uint64_t after) const;
    // Events added so far (the number of the newest).
    [[nodiscard]] std::uint64_t count() const;

private:
    mutable std::mutex m_mutex;
    std::deque<StationEvent> m_events;
    std::uint64_t m_count = 0;
};

} // namespace telestation::pipeline
