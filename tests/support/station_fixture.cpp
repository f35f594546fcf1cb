#include "tests/support/station_fixture.hpp"

#include "tests/support/wait_until.hpp"

#include <QtGlobal>

#include <utility>

namespace telestation::test {

std::string udpUrl(std::uint16_t port)
{
    return "udp://127.0.0.1:" + std::to_string(port);
}

std::string tcpUrl(std::uint16_t port)
{
    return "tcp://127.0.0.1:" + std::to_string(port);
}

config::StreamProfile streamProfile(std::string name, std::string source, std::vector<config::PacketSettings> packets)
{
    config::StreamProfile stream;
    stream.name = std::move(name);
    stream.source = std::move(source);
    stream.packets = std::move(packets);
    return stream;
}

config::StationProfile stationProfile(const QTemporaryDir& dir, std::vector<config::StreamProfile> streams)
{
    config::StationProfile profile;
    profile.recordingDirectory = dir.filePath(QStringLiteral("rec")).toStdString();
    profile.streams = std::move(streams);
    return profile;
}

std::unique_ptr<pipeline::Station> startStation(const config::StationProfile& profile, mdb::MissionDatabase db,
                                                const pipeline::StationOptions& options)
{
    auto created = pipeline::Station::create(profile, std::move(db), options);
    if (!created) {
        qWarning("station: %s", created.error().message.c_str());
        return nullptr;
    }
    if (auto started = (*created)->start(); !started) {
        qWarning("station start: %s", started.error().message.c_str());
        return nullptr;
    }
    return std::move(*created);
}

std::uint64_t arrivals(const stats::StreamStats& stream)
{
    return stream.counters.packetsReceived + stream.kernelDrops + stream.poolDrops;
}

bool settle(const pipeline::Station& station, std::string_view stream, std::uint64_t expected)
{
    const bool arrived = waitUntil([&] {
        const auto snapshot = station.snapshot();
        const auto* s = streamStats(snapshot, stream);
        return s && arrivals(*s) >= expected;
    });
    return station.waitIdle(kGenerousWait) && arrived;
}

const stats::StreamStats* streamStats(const stats::StationSnapshot& snapshot, std::string_view stream)
{
    for (const auto& s : snapshot.streams)
        if (s.name == stream)
            return &s;
    return nullptr;
}

const stats::PacketTypeStats* typeStats(const stats::StreamStats& stream, std::string_view type)
{
    for (const auto& t : stream.packetTypes)
        if (t.name == type)
            return &t;
    return nullptr;
}

} // namespace telestation::test
