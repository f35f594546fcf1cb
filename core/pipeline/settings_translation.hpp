// From what operators write (a station profile, a packet setting changed live) to what the workers
// read (LiveSettings): the checks and the translation, in one place. Internal to core/pipeline.
#pragma once

#include "core/common/result.hpp"
#include "core/config/station_profile.hpp"
#include "core/pipeline/live_settings.hpp"
#include "core/pipeline/packet_types.hpp"

#include <string>
#include <string_view>
#include <vector>

namespace telestation::pipeline {

// A forward destination must parse as an endpoint that can be sent to (file:// cannot).
[[nodiscard]] Status checkForwardDestination(const std::string& url);

// Fills `settings` from the profile (one row of type settings per stream, the destinations they name).
// Every problem is listed, one line each: a packet entry that names no packet definition, a forward
// destination that cannot be one, too many destinations.
[[nodiscard]] Status translateProfile(const config::StationProfile& profile, const PacketTypeTable& types,
                                      LiveSettings& settings);

// A stream added or replaced live. checkStreamSettings finds every problem of its settings without
// changing anything (packet entries that name no packet definition, discard for a defined packet,
// unknown packets neither passed through nor discarded, forward destinations that cannot be one, too
// many destinations). installStreamSettings then writes its row of type settings and its profile entry
// (added, or replacing the entry of the same id) and returns the version that holds them;
// removeStreamSettings drops its profile entry (its row stays for workers that still look, until the id
// is reused).
[[nodiscard]] Status checkStreamSettings(const config::StreamProfile& stream, const PacketTypeTable& types,
                                         const LiveSettings& settings);
std::uint64_t installStreamSettings(LiveSettings& settings, const PacketTypeTable& types, std::uint16_t streamId,
                                    const config::StreamProfile& stream);
void removeStreamSettings(LiveSettings& settings, std::uint16_t streamId);

// Live changes of stream `streamId` (named `stream` in messages); they take effect at the workers' next
// batch. A packet setting replaces the profile's setting with the same key and applies to the types it
// names that have no more specific setting (setting_resolver.hpp).
[[nodiscard]] Status applyPacketSettings(LiveSettings& settings, const PacketTypeTable& types, std::uint16_t streamId,
                                         std::string_view stream, const config::PacketSettings& given);
[[nodiscard]] Status applyUnknownSettings(LiveSettings& settings, std::uint16_t streamId, config::ProcessingMode mode,
                                          bool record, const std::vector<std::string>& forward);

} // namespace telestation::pipeline
