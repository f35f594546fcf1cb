// The link test's responder in the station (docs/link-test.md): started beside a running station when
// the profile's `linkResponder` or `--link-responder` asks, or alone (`telestation --headless
// --link-responder ADDR:PORT` without a profile) until SIGINT or SIGTERM.
#pragma once

#include "core/common/result.hpp"
#include "core/config/station_profile.hpp"
#include "core/link/responder.hpp"
#include "core/mdb/model.hpp"

#include <memory>
#include <string>

namespace telestation::app {

// Starts the responder with a copy of the station's mission (for the telemetry test). Logs where it
// listens; the error names the address and the system's reason.
[[nodiscard]] Result<std::unique_ptr<link::Responder>> startLinkResponder(const config::LinkResponderOptions& options,
                                                                          const mdb::MissionDatabase& mission);

// The responder alone, with the mission database at `mdbPath`, until SIGINT or SIGTERM. Exit code: 0,
// 1 when it cannot start (the mission, or the address).
int runLinkResponderOnly(const config::LinkResponderOptions& options, const std::string& mdbPath);

} // namespace telestation::app
