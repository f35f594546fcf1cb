// StormLimiter: keeps a flood of faults from flooding the event log without hiding how much happened.
// The first event of a kind from one source (stream, packet type, parameter, detail) is reported at
// once; further ones within the next second are merged, and when that second ends one summary line
// stands for all of them ("APID 7: 412 gaps, 9,870 packets lost in the last 1.0 s") with the merged
// count and amount, so the counts summed over what is reported always equal what happened. A source
// quiet for a whole window is forgotten: its next event is reported at once again. One thread.
#pragma once

#include "core/events/event.hpp"

#include <cstdint>
#include <map>
#include <string>
#include <tuple>
#include <vector>

namespace telestation::events {

class StormLimiter {
public:
    static constexpr std::int64_t kWindowNs = 1'000'000'000;

    explicit StormLimiter(std::int64_t windowNs = kWindowNs) : m_windowNs(windowNs) {}

    // True: report `event` now (the first of its source in a window). False: it was merged into the
    // source's next summary. Windows are placed by the event's time (nowNs when it has none).
    [[nodiscard]] bool admit(const Event& event, std::int64_t nowNs);
    // Where an event belongs: its source (the kind filed under, stream, packet type, parameter, detail).
    using Key = std::tuple<EventKind, std::string, std::string, std::string, std::string>;
    [[nodiscard]] static Key keyOf(const Event& event);
    // The cheap way for a storm: merges `count` events of a known source without making them, when
    // admit() would merge them (the source's window is open); false otherwise — then make the event
    // and admit() it.
    [[nodiscard]] bool tryMerge(const Key& key, std::int64_t timeNs, std::uint64_t count, std::uint64_t amount,
                                Severity severity);
    // The summaries of the windows that ended by nowNs (every open window when `all`, e.g. when the
    // station stops), oldest source first. A summary's time is the end of its window.
    [[nodiscard]] std::vector<Event> flush(std::int64_t nowNs, bool all = false);

    // Events merged into summaries so far (reported or still pending).
    [[nodiscard]] std::uint64_t merged() const noexcept { return m_merged; }
    [[nodiscard]] std::size_t openSources() const noexcept { return m_sources.size(); }

private:
    // Transitions of one parameter, or one queue's warning crossings up and down, or one stream's stale
    // and resumed reports, are one source: their summary says where the source stands now.
    struct Window {
        std::int64_t startNs = 0;
        std::int64_t endNs = 0;
        std::uint64_t count = 0;  // merged events
        std::uint64_t amount = 0; // their amounts summed
        Severity worst = Severity::Info;
        Event last;               // the newest event of the source: where it stands now
    };
    [[nodiscard]] static Event summarise(const Window& window, std::int64_t nowNs);

    std::int64_t m_windowNs;
    std::map<Key, Window> m_sources;
    std::uint64_t m_merged = 0;
};

// "9,870": counts as operators read them.
[[nodiscard]] std::string formatCount(std::uint64_t n);

} // namespace telestation::events
