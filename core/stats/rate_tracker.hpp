// Rates for a statistics snapshot: packets/s, Mbit/s and parameters/s over the interval since the
// previous snapshot, for the station, each stream and each packet type. Runs at the snapshot rate
// (1 Hz), so it keeps its history in ordinary maps.
#pragma once

#include "core/stats/snapshot.hpp"

#include <compare>
#include <cstdint>
#include <functional>
#include <map>
#include <string>

namespace telestation::stats {

class RateTracker {
public:
    // Sets current's Rates (station, streams, packet types) from the counter deltas since the
    // previous call and remembers current's counters for the next one. The interval is taken from
    // uptimeSeconds (monotonic), or from timeNs when neither snapshot has an uptime. All rates are 0
    // on the first call and when the interval is not positive; a rate is 0 when its counter went
    // down (the station restarted). A stream or packet type the previous snapshot did not have
    // counts from 0.
    void update(StationSnapshot& current);

    // Forgets the previous snapshot: the next update() is a first call.
    void reset();

private:
    struct Sample {
        std::uint64_t packets = 0;
        std::uint64_t bytes = 0;
        std::uint64_t parameters = 0;
    };
    // A packet type is (stream, APID[, secondary id]) and its name: types of one APID may differ by
    // criteria on other fields only (XTCE missions), not by a secondary id.
    struct TypeKey {
        std::string stream;
        std::string name;
        std::uint32_t apid = 0;
        bool hasSecondaryId = false;
        std::uint64_t secondaryId = 0;
        friend auto operator<=>(const TypeKey&, const TypeKey&) = default;
    };

    bool m_havePrevious = false;
    std::int64_t m_previousTimeNs = 0;
    double m_previousUptimeSeconds = 0;
    Sample m_station;
    std::map<std::string, Sample, std::less<>> m_streams;
    std::map<TypeKey, Sample> m_types;
};

} // namespace telestation::stats
