// EventFollower: one client's reading of the station's event log (Station::events). Each take() gets
// the events reported since the previous one, counts those the log no longer held (it keeps the newest
// 1000, so a reader that falls further behind misses some: never silently) and keeps those that pass the
// client's filters. No gRPC: SubscribeEvents wraps it.
#pragma once

#include "core/common/result.hpp"
#include "core/events/event.hpp"
#include "core/pipeline/station.hpp"

#include <cstdint>
#include <string>
#include <vector>

namespace telestation::rpc {

struct EventFilter {
    events::Severity minSeverity = events::Severity::Info;
    std::vector<events::EventKind> kinds; // empty: every kind
    std::vector<std::string> streams;     // empty: every stream; "" = the station's own events

    [[nodiscard]] bool passes(const events::Event& event) const;
};

class EventFollower {
public:
    struct Start {
        std::uint64_t after = 0;     // > 0: the events numbered after it
        bool history = false;        // after = 0: the events the log still keeps first, else from now
    };
    struct Taken {
        std::vector<events::Event> events; // oldest first, those that pass the filter
        std::uint64_t missed = 0;          // numbers skipped since the previous take (no longer kept)
    };

    // Errors: `after` beyond the newest event (numbers restart with every station run).
    [[nodiscard]] static Result<EventFollower> create(const pipeline::Station& station, Start start,
                                                      EventFilter filter);

    [[nodiscard]] Taken take();
    // The newest event number looked at so far, filtered-out events included.
    [[nodiscard]] std::uint64_t lastNumber() const noexcept { return m_last; }

private:
    EventFollower(const pipeline::Station& station, std::uint64_t last, bool fromHistory, EventFilter filter);

    const pipeline::Station* m_station;
    std::uint64_t m_last;       // the newest number seen
    bool m_fromHistory;         // the first take starts wherever the log does: nothing is missed there
    EventFilter m_filter;
};

} // namespace telestation::rpc
