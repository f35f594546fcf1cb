#include "sim/engine/link_telemetry.hpp"

#include "core/io/endpoint.hpp"
#include "sim/engine/sim_stream.hpp"

#include <cmath>

namespace telestation::sim {

namespace {

StreamConfig configFor(const link::Target& target, const std::string& packet, double packetsPerSecond, std::uint64_t count)
{
    StreamConfig config;
    config.name = "link-test";
    io::Endpoint destination;
    destination.scheme = io::Scheme::Udp;
    destination.host = target.host;
    destination.port = target.port;
    config.destination = destination.toString();
    config.mix.push_back({packet, 1});
    config.rate = Rate{Rate::Unit::PacketsPerSecond, packetsPerSecond};
    config.count = count;
    return config;
}

} // namespace

Result<std::uint32_t> LinkTelemetrySender::packetBytes(const std::string& packet)
{
    auto stream = SimStream::create(configFor({"127.0.0.1", 9}, packet, 1, 1), m_mission);
    if (!stream)
        return Error{"the telemetry test's packet: " + stream.error().message, {}};
    return static_cast<std::uint32_t>(std::lround((*stream)->averagePacketBytes()));
}

Result<std::uint64_t> LinkTelemetrySender::send(const link::Target& target, const std::string& packet, double packetsPerSecond,
                                                std::chrono::milliseconds duration)
{
    const auto count = static_cast<std::uint64_t>(std::max(1.0, std::round(packetsPerSecond * double(duration.count()) / 1000.0)));
    auto stream = SimStream::create(configFor(target, packet, packetsPerSecond, count), m_mission);
    if (!stream)
        return stream.error();
    (*stream)->start();
    (*stream)->wait();
    // Every packet built counts as sent: one the kernel refused (a full queue) was lost on this side,
    // and 100% delivery means every packet the test asked for.
    return (*stream)->summary().generated;
}

} // namespace telestation::sim
