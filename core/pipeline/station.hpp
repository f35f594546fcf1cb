// Station: the telemetry engine. Owns the streams (one receiver thread each), the packet pool, the
// queues operators configure (per stream: network, process, record and forward packet queues) and the
// shared workers that service them: one router, one processor, one recorder and one forwarder thread.
// See core/pipeline/README.md for the data path, the threads and the rules it keeps.
//
// Thread rules: create/start/stop from one controlling thread. snapshot(), events(), settings changes,
// subscriptions and current-value reads may come from any thread at any time.
#pragma once

#include "core/common/result.hpp"
#include "core/config/station_profile.hpp"
#include "core/mdb/model.hpp"
#include "core/pipeline/current_values.hpp"
#include "core/pipeline/packet_pool.hpp"
#include "core/pipeline/packet_types.hpp"
#include "core/pipeline/subscriptions.hpp"
#include "core/stats/snapshot.hpp"

#include <chrono>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace telestation::pipeline {

enum class EventSeverity : std::uint8_t { Info, Warning, Error };

// Something an operator should see: a connection, a recorder failure, a destination down or back.
// Never per packet.
struct StationEvent {
    std::uint64_t number = 0;      // 1, 2, ... in order
    std::int64_t timeNs = 0;
    EventSeverity severity = EventSeverity::Info;
    std::string stream;            // "" for the station as a whole
    std::string text;
};

struct StationOptions {
    PoolOptions pool;
    std::chrono::milliseconds pollTimeout{20}; // receivers and workers notice a stop within this
    int receiveBufferBytes = 64 * 1024 * 1024;
};

class Station {
public:
    // Checks the profile against the mission database (packet entries must name defined packet
    // types, by APID [+ secondary id] or by name; forward destinations and sources must parse) and prepares everything; opens nothing yet.
    [[nodiscard]] static Result<std::unique_ptr<Station>> create(const config::StationProfile& profile,
                                                                 mdb::MissionDatabase db,
                                                                 const StationOptions& options = {});
    ~Station(); // stops

    Station(const Station&) = delete;
    Station& operator=(const Station&) = delete;

    // Opens every enabled stream's source and starts the threads. If any source fails to open,
    // nothing runs and the error lists every failure. An unwritable recording directory is not an
    // error here: recording reports it as an event and counts record errors; the rest runs.
    [[nodiscard]] Status start();
    // Stops the sources, lets every packet already received pass through the queues (processed,
    // recorded, forwarded), closes the recordings and joins the threads. Idempotent.
    void stop();
    [[nodiscard]] bool running() const noexcept;
    // True when every packet received so far has passed every queue (tests, playback).
    [[nodiscard]] bool idle() const noexcept;
    // Waits until idle() or the timeout; returns idle().
    bool waitIdle(std::chrono::milliseconds timeout) const;
    // True when every playback (file://) stream has played all its records (false if there is none).
    [[nodiscard]] bool playbackFinished() const noexcept;

    // One stream at a time, while the station runs (controlling thread). startStream opens the stream's
    // source (an error names why: the port is taken, the recording is missing; the stream then shows
    // "error: <reason>" as its state) and starts its receiver; a playback stream starts from its first
    // record again. stopStream stops the receiver and closes the source; packets it had already received
    // still pass every queue. Both are idempotent, leave the other streams untouched, log an event and
    // set the stream's `enabled` in profile(). pauseStream holds a playback (file://) stream where it is
    // (live streams cannot be paused: the kernel would drop what arrives); its pace resumes from there.
    [[nodiscard]] Status startStream(std::string_view stream);
    [[nodiscard]] Status stopStream(std::string_view stream);
    [[nodiscard]] Status pauseStream(std::string_view stream, bool paused);
    [[nodiscard]] bool streamRunning(std::string_view stream) const;
    [[nodiscard]] bool streamPaused(std::string_view stream) const;

    // Live settings: take effect within one batch, without restarting anything. A packet setting
    // replaces the profile's setting with the same key (packet name, or APID and secondary id) and
    // applies to the types it names that have no more specific setting (setting_resolver.hpp).
    [[nodiscard]] Status setPacketSettings(std::string_view stream, const config::PacketSettings& settings);
    [[nodiscard]] Status setUnknownSettings(std::string_view stream, config::ProcessingMode mode, bool record,
                                            const std::vector<std::string>& forward);
    // The profile as it is now (with every live change).
    [[nodiscard]] config::StationProfile profile() const;

    [[nodiscard]] stats::StationSnapshot snapshot() const;
    // Events with number > `after`, oldest first (at most the newest 1000 are kept).
    [[nodiscard]] std::vector<StationEvent> events(std::uint64_t after = 0) const;

    [[nodiscard]] const PacketTypeTable& types() const noexcept;
    [[nodiscard]] const mdb::MissionDatabase& database() const noexcept;
    [[nodiscard]] std::optional<std::uint16_t> streamId(std::string_view name) const;
    [[nodiscard]] std::size_t streamCount() const noexcept;
    [[nodiscard]] const std::string& streamName(std::uint16_t streamId) const;
    [[nodiscard]] std::uint32_t transportHeaderBytes(std::uint16_t streamId) const;
    [[nodiscard]] config::ProcessingMode mode(std::uint16_t streamId, std::uint32_t typeIndex) const;
    // The bound port of a stream's source (udp or tcp-listen with port 0), once started; else 0.
    [[nodiscard]] std::uint16_t localPort(std::string_view stream) const;

    [[nodiscard]] PacketPool& pool() noexcept;
    [[nodiscard]] const CurrentValueTable& currentValues(std::uint16_t streamId) const;

    // Consumers (core/api wraps these). The processor picks a subscription up at its next batch.
    void addSubscription(std::shared_ptr<PacketSubscriptionQueue> subscription);
    void addSubscription(std::shared_ptr<ParameterSubscriptionQueue> subscription);
    void removeSubscription(const PacketSubscriptionQueue* subscription);
    void removeSubscription(const ParameterSubscriptionQueue* subscription);

    struct Impl;

private:
    explicit Station(std::unique_ptr<Impl> impl);
    std::unique_ptr<Impl> m_impl;
};

} // namespace telestation::pipeline
