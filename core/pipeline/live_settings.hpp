// LiveSettings: the master copy of what operators set — the profile as it is now, each packet type's
// settings per stream and the forward destinations — under one mutex and versioned. Workers keep
// their own copies and refresh them between batches when the version moved (refreshIfChanged), never
// per packet. Internal to core/pipeline; settings_translation.hpp fills and changes it.
#pragma once

#include "core/config/station_profile.hpp"
#include "core/decode/limit_override.hpp"

#include <atomic>
#include <cstdint>
#include <mutex>
#include <stdexcept>
#include <string>
#include <vector>

namespace telestation::pipeline {

inline constexpr std::size_t kMaxDestinations = 64; // forward destinations per station (a bit mask per type)

// What the workers need of a packet type's settings: trivially copyable, so the workers' local copies
// are refreshed without allocating.
struct TypeSettings {
    config::ProcessingMode mode = config::ProcessingMode::ProcessEntirePacket;
    bool record = false;
    std::uint64_t forwardMask = 0; // bit i: destination i
    // Set by the operator (listed in snapshots even before a packet of the type arrived).
    [[nodiscard]] bool configured() const noexcept
    {
        return record || forwardMask != 0 || mode != config::ProcessingMode::ProcessEntirePacket;
    }
};

struct LiveSettings {
    mutable std::mutex mutex;
    config::StationProfile profile;              // with every live change
    std::vector<std::uint16_t> streamIds;        // the stream id of each of profile.streams
    std::vector<std::vector<TypeSettings>> perType; // [stream id][type]; a removed id's row stays until reused
    std::vector<std::string> destinations;       // forward destination URLs; index = mask bit
    std::vector<std::vector<decode::LimitOverride>> limitOverrides; // [type]: the profile's `limits`
    std::atomic<std::uint64_t> version{1};

    // mutex held for both:
    // The destinations as a mask (new URLs get the next bit).
    [[nodiscard]] TypeSettings toTypeSettings(config::ProcessingMode mode, bool record,
                                              const std::vector<std::string>& forward);
    void changed() noexcept { version.fetch_add(1, std::memory_order_release); }
    // The profile entry of stream `id` (it must have one).
    [[nodiscard]] config::StreamProfile& streamProfile(std::uint16_t id)
    {
        for (std::size_t i = 0; i < streamIds.size(); ++i)
            if (streamIds[i] == id)
                return profile.streams[i];
        throw std::out_of_range("no stream " + std::to_string(id) + " in the live settings");
    }
    [[nodiscard]] const config::StreamProfile& streamProfile(std::uint16_t id) const
    {
        return const_cast<LiveSettings&>(*this).streamProfile(id);
    }
};

// A worker's copy of a versioned master (settings, subscriptions): taken under the master's mutex only
// when its version moved since the worker's last look — once per batch, never per packet.
template <typename Copy>
void refreshIfChanged(const std::atomic<std::uint64_t>& version, std::uint64_t& seen, std::mutex& mutex, Copy&& copy)
{
    if (version.load(std::memory_order_acquire) == seen)
        return;
    std::lock_guard lock(mutex);
    copy();
    seen = version.load(std::memory_order_relaxed);
}

} // namespace telestation::pipeline
