// StationCore: what the station's threads share — the mission's packet types, the pool, the streams,
// the live settings, the subscriptions, the event log, the recording and forwarding status the
// workers publish, and the doorbells and end flags that pace the workers. Station owns one; each
// worker and the snapshot assembly take it by reference. Internal to core/pipeline.
#pragma once

#include "core/mdb/model.hpp"
#include "core/pipeline/doorbell.hpp"
#include "core/events/alarm.hpp"
#include "core/pipeline/event_log.hpp"
#include "core/pipeline/event_ring.hpp"
#include "core/pipeline/live_settings.hpp"
#include "core/pipeline/packet_pool.hpp"
#include "core/pipeline/packet_types.hpp"
#include "core/pipeline/station_options.hpp"
#include "core/pipeline/stream.hpp"
#include "core/pipeline/stream_table.hpp"
#include "core/pipeline/subscription_registry.hpp"

#include <array>
#include <atomic>
#include <chrono>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace telestation::pipeline {

// The recorder's state as operators see it.
class RecordingStatus {
public:
    void setState(std::string state)
    {
        std::lock_guard lock(m_mutex);
        m_state = std::move(state);
    }
    [[nodiscard]] std::string state() const
    {
        std::lock_guard lock(m_mutex);
        return m_state;
    }
    // One stream's recording (by stream id; the recorder writes it when a segment opens, rolls over,
    // fails or closes): "" not recorded, "recording into FILE", "failed: WHY".
    void setStreamState(std::uint16_t id, std::string state)
    {
        std::lock_guard lock(m_mutex);
        m_streams[id] = std::move(state);
    }
    [[nodiscard]] std::string streamState(std::uint16_t id) const
    {
        std::lock_guard lock(m_mutex);
        return m_streams[id];
    }
    std::atomic<std::uint64_t> errors{0}; // failures that stopped recording (catalog, stream, close)
    std::atomic<std::uint64_t> resumeRequests{0}; // the operator asked to resume after a failure

private:
    mutable std::mutex m_mutex;
    std::string m_state = "off";
    std::array<std::string, StreamTable::kCapacity> m_streams;
};

// A forward destination's numbers as the forwarder publishes them (its senders are its own).
struct DestinationView {
    Counter packets{0}, bytes{0}, notSent{0}, connects{0}, disconnects{0};
    std::atomic<bool> connected{false};
    std::string state = "not opened"; // under ForwardStatus::mutex
};
struct ForwardStatus {
    mutable std::mutex mutex;
    std::array<DestinationView, kMaxDestinations> destinations; // index = mask bit
};

struct StationCore {
    StationCore(mdb::MissionDatabase database, PacketTypeTable table, const StationOptions& o)
        : db(std::move(database)), types(std::move(table)), options(o), pool(std::make_shared<PacketPool>(o.pool)), events(o.logEvents)
    {
    }

    mdb::MissionDatabase db;
    PacketTypeTable types;
    StationOptions options;
    std::shared_ptr<PacketPool> pool;
    StreamTable streams; // index = stream id; see stream_table.hpp for who may read it how
    std::uint64_t nextSerial = 1; // controlling thread
    std::atomic<std::uint64_t> streamRemovals{0}; // moves with every stream removed (workers drop its state)
    std::chrono::steady_clock::time_point started = std::chrono::steady_clock::now();

    LiveSettings settings;
    SubscriptionRegistry subscriptions;
    // Events: the hot threads' rings and the others' inbox, all drained by the event thread
    // (event_monitor), which keeps the log, the alarms and the archive.
    EventRing routerEvents, processorEvents;
    EventInbox inbox;
    EventLog events;
    events::AlarmManager alarms;
    RecordingStatus recording;
    ForwardStatus forwards;

    std::atomic<bool> sourcesDone{false}; // every receiver thread has ended
    std::atomic<bool> routerDone{false};
    Doorbell routerBell, processorBell, recorderBell, forwarderBell;

    // The stream of that name, or nullptr (the controlling thread, or under streams.mutex).
    [[nodiscard]] Stream* findStream(std::string_view name) const { return streams.find(name); }
    // An event from any thread but the router and the processor (never per packet). `detail` tells this
    // source apart from others of its kind and stream, so that a storm merges only what is alike
    // ("paused" and "resumed" are two sources; a flapping connection's ends and starts are one).
    void event(events::EventKind kind, events::Severity severity, std::string stream, std::string text,
               std::string detail = {}, std::uint64_t amount = 0)
    {
        events::Event e;
        e.kind = kind;
        e.severity = severity;
        e.stream = std::move(stream);
        e.text = std::move(text);
        e.detail = std::move(detail);
        e.amount = amount;
        report(std::move(e));
    }
    void report(events::Event e) { inbox.post(std::move(e)); }

    // A playback stream as the profile keeps it: whether it plays when the station starts, and where it
    // resumes (StreamProfile::playbackPositionNs). Any thread (the settings mutex).
    void setPlayback(const std::string& stream, std::optional<bool> enabled, std::int64_t positionNs)
    {
        std::lock_guard lock(settings.mutex);
        for (auto& sp : settings.profile.streams)
            if (sp.name == stream) {
                sp.enabled = enabled.value_or(sp.enabled);
                sp.playbackPositionNs = positionNs;
            }
    }
    [[nodiscard]] std::int64_t playbackPosition(const std::string& stream) const
    {
        std::lock_guard lock(settings.mutex);
        for (const auto& sp : settings.profile.streams)
            if (sp.name == stream)
                return sp.playbackPositionNs;
        return 0;
    }
};

} // namespace telestation::pipeline
