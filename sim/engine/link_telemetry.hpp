// The simulator's packets for the link test's telemetry test (core/link): a mission's packet type at a
// given rate to the responder's test station, through the same SimStream that feeds the station in
// training, so that the figure is the simulator's and the station's together.
#pragma once

#include "core/link/controller.hpp"
#include "core/mdb/model.hpp"

namespace telestation::sim {

class LinkTelemetrySender final : public link::TelemetrySender {
public:
    explicit LinkTelemetrySender(const mdb::MissionDatabase& mission) : m_mission(mission) {}

    [[nodiscard]] Result<std::uint32_t> packetBytes(const std::string& packet) override;
    [[nodiscard]] Result<std::uint64_t> send(const link::Target& target, const std::string& packet, double packetsPerSecond,
                                             std::chrono::milliseconds duration) override;

private:
    const mdb::MissionDatabase& m_mission;
};

} // namespace telestation::sim
