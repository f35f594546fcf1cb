// The responder's side of the telemetry test: a station of its own with one UDP stream on an
// ephemeral port of the responder's address, the phase's packet type processed entirely (decoded into
// every parameter, limits checked) — the real path of the station: receiver, router, processor — and,
// when the controller says the try is over, what the station made of it. Nothing is recorded and no
// event is archived: a link test leaves no trace in the operator's recordings.
#pragma once

#include "core/common/result.hpp"
#include "core/link/protocol.hpp"
#include "core/mdb/model.hpp"

#include <chrono>
#include <memory>
#include <string>

namespace telestation::pipeline {
class Station;
}

namespace telestation::link {

class StationTelemetry {
public:
    // Refuses a packet name the mission does not define.
    [[nodiscard]] static Result<std::unique_ptr<StationTelemetry>> open(const mdb::MissionDatabase& mission, const std::string& packet,
                                                                        const std::string& bindHost);
    ~StationTelemetry();
    StationTelemetry(const StationTelemetry&) = delete;
    StationTelemetry& operator=(const StationTelemetry&) = delete;

    [[nodiscard]] std::uint16_t port() const;
    // Waits until nothing has arrived for `quiet` and every queue is empty (at most `limit`), stops
    // the station and returns its counts.
    [[nodiscard]] StationCounts finish(std::chrono::milliseconds quiet, std::chrono::milliseconds limit);

private:
    explicit StationTelemetry(std::unique_ptr<pipeline::Station> station);
    std::unique_ptr<pipeline::Station> m_station;
};

} // namespace telestation::link
