#include "core/link/station_telemetry.hpp"

#include "core/config/station_profile.hpp"
#include "core/io/endpoint.hpp"
#include "core/pipeline/station.hpp"

#include <algorithm>
#include <filesystem>
#include <thread>

namespace telestation::link {

namespace {

constexpr const char* kStream = "link-test";

std::string udpSource(const std::string& host)
{
    io::Endpoint source;
    source.scheme = io::Scheme::Udp;
    source.host = host;
    return source.toString(); // port 0: the system picks one
}

} // namespace

StationTelemetry::StationTelemetry(std::unique_ptr<pipeline::Station> station) : m_station(std::move(station)) {}

StationTelemetry::~StationTelemetry()
{
    if (m_station)
        m_station->stop();
}

Result<std::unique_ptr<StationTelemetry>> StationTelemetry::open(const mdb::MissionDatabase& mission, const std::string& packet,
                                                                 const std::string& bindHost)
{
    const bool defined = std::any_of(mission.packets.begin(), mission.packets.end(), [&](const auto& p) { return p.name == packet; });
    if (!defined)
        return Error{"the responder's mission database has no packet type '" + packet + "'", {}};
    config::StationProfile profile;
    profile.events.archive = false;
    profile.recordingDirectory = (std::filesystem::temp_directory_path() / "telestation-link-test").string();
    config::StreamProfile stream;
    stream.name = kStream;
    stream.source = udpSource(bindHost);
    config::PacketSettings settings;
    settings.packet = packet;
    settings.mode = config::ProcessingMode::ProcessEntirePacket;
    stream.packets.push_back(settings);
    profile.streams.push_back(stream);
    // Its test traffic crosses limits like any Packet5 stream: those events stay out of the log it
    // shares with the operator's station (the counts come back to the controller instead).
    pipeline::StationOptions options;
    options.logEvents = false;
    auto station = pipeline::Station::create(profile, mission, options);
    if (!station)
        return Error{"the test station: " + station.error().message, {}};
    if (auto started = (*station)->start(); !started)
        return Error{"the test station: " + started.error().message, {}};
    return std::unique_ptr<StationTelemetry>(new StationTelemetry(std::move(*station)));
}

std::uint16_t StationTelemetry::port() const
{
    return m_station->localPort(kStream);
}

StationCounts StationTelemetry::finish(std::chrono::milliseconds quiet, std::chrono::milliseconds limit)
{
    using SteadyClock = std::chrono::steady_clock;
    const auto deadline = SteadyClock::now() + limit;
    auto arrivals = [&] {
        for (const auto& s : m_station->snapshot().streams)
            if (s.name == kStream)
                return s.counters.packetsReceived + s.kernelDrops + s.poolDrops;
        return std::uint64_t(0);
    };
    std::uint64_t seen = arrivals();
    auto lastChange = SteadyClock::now();
    while (SteadyClock::now() < deadline) {
        std::this_thread::sleep_for(std::chrono::milliseconds(20));
        if (const std::uint64_t now = arrivals(); now != seen) {
            seen = now;
            lastChange = SteadyClock::now();
        } else if (SteadyClock::now() - lastChange >= quiet && m_station->idle()) {
            break;
        }
    }
    m_station->stop();
    StationCounts counts;
    for (const auto& s : m_station->snapshot().streams) {
        if (s.name != kStream)
            continue;
        const auto& c = s.counters;
        counts.received = c.packetsReceived;
        counts.processed = c.packetsDecoded;
        counts.sequenceErrors = c.sequenceErrors;
        counts.malformed = c.malformed;
        counts.dropped = s.kernelDrops + s.poolDrops + c.networkDrops + c.processDrops + c.recordDrops + c.forwardDrops;
    }
    return counts;
}

} // namespace telestation::link
