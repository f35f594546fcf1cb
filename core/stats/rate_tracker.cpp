#include "core/stats/rate_tracker.hpp"

#include <cmath>
#include <utility>

namespace telestation::stats {

namespace {

struct Counts {
    std::uint64_t packets;
    std::uint64_t bytes;
    std::uint64_t parameters;
};

Counts countsOf(const PacketCounters& c) noexcept
{
    return { c.packetsReceived, c.bytesReceived, c.parametersDecoded };
}

// A counter that went down was reset (the station restarted): no meaningful delta, so no rate.
double delta(std::uint64_t now, std::uint64_t before) noexcept
{
    return now >= before ? static_cast<double>(now - before) : 0.0;
}

template <typename Sample> Rates ratesBetween(const Counts& now, const Sample& before, double seconds) noexcept
{
    Rates r;
    r.packetsPerSecond = delta(now.packets, before.packets) / seconds;
    r.megabitsPerSecond = delta(now.bytes, before.bytes) * 8.0 / 1e6 / seconds;
    r.parametersPerSecond = delta(now.parameters, before.parameters) / seconds;
    return r;
}

// Seconds between two snapshots; <= 0 (or NaN) when there is no usable interval.
double elapsedSeconds(std::int64_t previousTimeNs, double previousUptime, const StationSnapshot& current)
{
    // Uptime is monotonic; the realtime clock can be stepped (NTP, operator), so it is only the
    // fallback for producers that do not fill in uptimeSeconds.
    if (previousUptime != 0 || current.uptimeSeconds != 0)
        return current.uptimeSeconds - previousUptime;
    return static_cast<double>(current.timeNs - previousTimeNs) / 1e9;
}

} // namespace

void RateTracker::update(StationSnapshot& current)
{
    const double seconds = m_havePrevious ? elapsedSeconds(m_previousTimeNs, m_previousUptimeSeconds, current) : 0.0;
    const bool haveInterval = std::isfinite(seconds) && seconds > 0;
    const Sample zero;

    std::map<std::string, Sample, std::less<>> streams;
    std::map<TypeKey, Sample> types;
    for (auto& stream : current.streams) {
        const Counts now = countsOf(stream.counters);
        if (haveInterval) {
            const auto it = m_streams.find(stream.name);
            stream.rates = ratesBetween(now, it != m_streams.end() ? it->second : zero, seconds);
        } else {
            stream.rates = {};
        }
        streams.try_emplace(stream.name, Sample { now.packets, now.bytes, now.parameters });

        for (auto& type : stream.packetTypes) {
            // The secondary id means nothing without hasSecondaryId: do not let a stale value split
            // one packet type into two keys.
            TypeKey key { stream.name, type.name, type.apid, type.hasSecondaryId,
                type.hasSecondaryId ? type.secondaryId : 0 };
            const Counts typeNow = countsOf(type.counters);
            if (haveInterval) {
                const auto it = m_types.find(key);
                type.rates = ratesBetween(typeNow, it != m_types.end() ? it->second : zero, seconds);
            } else {
                type.rates = {};
            }
            types.try_emplace(std::move(key), Sample { typeNow.packets, typeNow.bytes, typeNow.parameters });
        }
    }

    const Counts stationNow = countsOf(current.totals);
    current.rates = haveInterval ? ratesBetween(stationNow, m_station, seconds) : Rates {};

    m_havePrevious = true;
    m_previousTimeNs = current.timeNs;
    m_previousUptimeSeconds = current.uptimeSeconds;
    m_station = Sample { stationNow.packets, stationNow.bytes, stationNow.parameters };
    m_streams = std::move(streams);
    m_types = std::move(types);
}

void RateTracker::reset()
{
    m_havePrevious = false;
    m_previousTimeNs = 0;
    m_previousUptimeSeconds = 0;
    m_station = {};
    m_streams.clear();
    m_types.clear();
}

} // namespace telestation::stats
