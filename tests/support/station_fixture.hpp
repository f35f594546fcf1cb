// A station for tests, in the spirit of QGroundControl's MockLink factories: profiles built in a line,
// a station started on ephemeral ports, settle() to wait until it has taken in what was sent and is
// idle, and the look-up of a stream's or a packet type's statistics in a snapshot. The training
// database comes with it (training_mission.hpp); the simulator's side is in sim_traffic.hpp.
#pragma once

#include "core/config/station_profile.hpp"
#include "core/mdb/model.hpp"
#include "core/pipeline/station.hpp"
#include "core/stats/snapshot.hpp"
#include "tests/support/training_mission.hpp"

#include <QTemporaryDir>

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace telestation::test {

// Loopback addresses: udp://127.0.0.1:<port>, tcp://127.0.0.1:<port> (sources, forward destinations).
[[nodiscard]] std::string udpUrl(std::uint16_t port);
[[nodiscard]] std::string tcpUrl(std::uint16_t port);

// A stream profile in a line: name, source (port 0: the system picks one) and packet settings.
[[nodiscard]] config::StreamProfile streamProfile(std::string name, std::string source = "udp://127.0.0.1:0",
                                                  std::vector<config::PacketSettings> packets = {});

// A station profile with these streams, recording into `dir`/rec.
[[nodiscard]] config::StationProfile stationProfile(const QTemporaryDir& dir, std::vector<config::StreamProfile> streams);

// A station created and started; nullptr (with a warning saying why) when either fails.
[[nodiscard]] std::unique_ptr<pipeline::Station> startStation(const config::StationProfile& profile, mdb::MissionDatabase db,
                                                              const pipeline::StationOptions& options = {});

// The packets a stream has taken in: received, or dropped by the kernel or for want of a pool slot
// before they had a type.
[[nodiscard]] std::uint64_t arrivals(const stats::StreamStats& stream);

// Waits until `stream` has taken in `expected` packets since it started (arrivals()), then until every
// queue is drained. False when that does not happen within a generous timeout.
[[nodiscard]] bool settle(const pipeline::Station& station, std::string_view stream, std::uint64_t expected);

// A stream's, or one of its packet types', statistics in a snapshot (the type by its name or
// "unknown"); nullptr when there is none.
[[nodiscard]] const stats::StreamStats* streamStats(const stats::StationSnapshot& snapshot, std::string_view stream);
[[nodiscard]] const stats::PacketTypeStats* typeStats(const stats::StreamStats& stream, std::string_view type);

} // namespace telestation::test
