#include "tests/support/sim_traffic.hpp"

#include "tests/support/wait_until.hpp"

#include <QtGlobal>

#include <utility>

namespace telestation::test {

std::string streamAddress(const pipeline::Station& station, std::string_view stream)
{
    const std::uint16_t port = station.localPort(stream);
    for (const auto& s : station.profile().streams)
        if (s.name == stream && s.source.starts_with("tcp-listen://"))
            return tcpUrl(port);
    return udpUrl(port);
}

sim::StreamConfig traffic(std::string destination, const std::vector<std::string>& packets,
                          std::optional<std::uint64_t> count, double packetsPerSecond)
{
    sim::StreamConfig config;
    config.name = "sim";
    config.destination = std::move(destination);
    for (const auto& packet : packets)
        config.mix.push_back({packet, 1});
    config.rate = packetsPerSecond > 0 ? sim::Rate{sim::Rate::Unit::PacketsPerSecond, packetsPerSecond}
                                       : sim::Rate{sim::Rate::Unit::Flood, 0};
    config.count = count;
    return config;
}

std::unique_ptr<sim::SimStream> simulator(const sim::StreamConfig& config, const mdb::MissionDatabase& db)
{
    auto stream = sim::SimStream::create(config, db);
    if (!stream)
        qFatal("simulator: %s", stream.error().toString().c_str());
    return std::move(*stream);
}

sim::StreamSummary send(const sim::StreamConfig& config, const mdb::MissionDatabase& db)
{
    auto stream = simulator(config, db);
    stream->start();
    stream->wait();
    return stream->summary();
}

sim::StreamSummary sendPackets(const pipeline::Station& station, std::string_view stream,
                               const std::vector<std::string>& packets, std::uint64_t count, double packetsPerSecond)
{
    return send(traffic(streamAddress(station, stream), packets, count, packetsPerSecond), station.database());
}

sim::StreamSummary sendValues(const pipeline::Station& station, std::string_view stream, const std::string& parameter,
                              const std::vector<double>& values, double packetsPerSecond)
{
    auto config = traffic(streamAddress(station, stream), {parameter.substr(0, parameter.find('.'))}, values.size(),
                          packetsPerSecond);
    sim::GeneratorSpec list;
    list.kind = sim::GeneratorKind::List;
    list.values = values;
    config.generators[parameter] = list;
    return send(config, station.database());
}

bool runPhases(sim::SimStream& sim, const std::vector<Phase>& phases)
{
    sim.start();
    bool ok = true;
    for (const Phase& phase : phases) {
        sim.setFaults(phase.faults);
        const std::uint64_t from = sim.live().generated;
        ok = ok && waitUntil([&] { return sim.live().generated >= from + phase.packets; });
    }
    sim.stop();
    return ok;
}

} // namespace telestation::test
