// Station: the telemetry engine. Owns the streams (one receiver thread each), the packet pool, the
// queues operators configure (per stream: network, process, record and forward packet queues) and the
// shared workers that service them: one router, one processor, one recorder and one forwarder thread.
// This class is the lifecycle and the controls; each stage lives in its own file (core/pipeline/README.md
// lists them with the data path, the threads and the rules they keep).
//
// Thread rules: create/start/stop and adding, removing and replacing streams from one controlling
// thread. snapshot(), events(), settings changes, subscriptions and current-value reads may come from
// any thread at any time.
#pragma once

#include "core/common/result.hpp"
#include "core/config/station_profile.hpp"
#include "core/mdb/model.hpp"
#include "core/pipeline/current_values.hpp"
#include "core/events/alarm.hpp"
#include "core/events/event.hpp"
#include "core/pipeline/event_log.hpp"
#include "core/pipeline/event_monitor.hpp"
#include "core/pipeline/limit_settings.hpp"
#include "core/pipeline/packet_pool.hpp"
#include "core/pipeline/packet_types.hpp"
#include "core/pipeline/station_options.hpp"
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

    // Streams that come and go, one at a time, while the station runs (or not); controlling thread.
    // The other streams are not touched: their sockets, counters, sequence counts, queues, current
    // values and recordings go on. Each change is an event and shows in profile().
    // Everything that can be checked is checked before anything changes, and a refused change leaves
    // the station exactly as it was; the error says why (a name that is malformed or already used, a
    // source URL that does not parse, a packet entry that names no packet type, a forward destination
    // that cannot be one; while running also a port in use, a host that cannot be resolved, a missing
    // recording — the source is opened before the stream joins the station).
    // addStream: a new stream (started at once when the station runs and it is enabled).
    [[nodiscard]] Status addStream(const config::StreamProfile& stream);
    // removeStream: its receiver stops; the packets it already received pass every queue (processed,
    // recorded, forwarded) first; then its recording is closed and it is gone. Subscriptions to it
    // alone get nothing more; its id may be given to a stream added later.
    [[nodiscard]] Status removeStream(std::string_view stream);
    // replaceStream: the stream `stream` becomes `replacement` (the name may change), keeping its id,
    // counters, sequence counts, queues and recording. Packet settings, unknown packets and the stale
    // time change live (as setPacketSettings); a new name or transport header restarts its receiver
    // on the open socket (nothing lost); a new source is opened before the old one is closed — unless
    // it needs the very port the old one holds: then the old one is closed first and, if the new one
    // cannot be opened, reopened, and the error returned. Packets that arrive while its own source
    // reopens are lost (the kernel counts them on the old socket, the sender's count shows them).
    [[nodiscard]] Status replaceStream(std::string_view stream, const config::StreamProfile& replacement);
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

    // ---- Events and alarms (docs/events.md) ----
    // Events with number > `after`, oldest first (the newest 1000 are kept in memory; the archive keeps
    // them all). The station's event thread reports them within ~50 ms, storms merged.
    [[nodiscard]] std::vector<events::Event> events(std::uint64_t after = 0) const;
    // Called on the event thread with every batch of events, in order (keep it quick). Any time.
    void addEventSink(EventSink sink);
    // Reports now whatever is pending, every storm summary still open included (tests; before a final
    // summary). stop() does it too.
    void flushEvents();
    // An event from outside the engine (a control call of an API client): kind Station, detail "api".
    void note(events::Severity severity, std::string stream, std::string text);
    // The event archive's file ("" when the profile turns it off) and its trouble ("" when fine).
    [[nodiscard]] std::string eventArchivePath() const;
    [[nodiscard]] std::string eventStorageError() const;

    [[nodiscard]] std::vector<events::Alarm> alarms() const;
    [[nodiscard]] events::AlarmCounts alarmCounts() const;
    [[nodiscard]] std::uint64_t alarmsVersion() const; // moves with every change of alarms()
    // Operator actions on alarms: each is an event with `user` and the comment.
    [[nodiscard]] Status acknowledgeAlarm(std::uint64_t id, std::string_view user, std::string_view comment);
    std::size_t acknowledgeAllAlarms(std::string_view user, std::string_view comment); // how many
    [[nodiscard]] Status shelveAlarm(std::uint64_t id, std::chrono::seconds duration, std::string_view user,
                                     std::string_view comment);
    [[nodiscard]] Status unshelveAlarm(std::uint64_t id, std::string_view user);

    // An operator's limits for a parameter, live (the processor applies them from its next batch) and in
    // profile(); nullopt: back to the mission database's limits. An event records who changed what
    // from what to what.
    [[nodiscard]] Status setLimits(std::string_view parameter, const std::optional<config::LimitSetting>& setting,
                                   std::string_view user);
    [[nodiscard]] Result<EffectiveLimits> limits(std::string_view parameter) const;

    // After a recording failure (disk full, write error): record again, each stream that stopped into a
    // new segment from its next packet (an event says which). Returns what was done, for the operator
    // ("recording had not stopped: nothing to resume" when there was no failure).
    std::string resumeRecording();
    // Whether recording stopped on a failure and waits for resumeRecording() (snapshot().recordingState
    // says why).
    [[nodiscard]] bool recordingFailed() const;

    [[nodiscard]] const PacketTypeTable& types() const noexcept;
    [[nodiscard]] const mdb::MissionDatabase& database() const noexcept;
    // Stream ids index counters, current values and subscriptions. A removed stream's id may be given to
    // a stream added later; ids are not dense: list them with streamIds().
    [[nodiscard]] std::optional<std::uint16_t> streamId(std::string_view name) const;
    [[nodiscard]] std::vector<std::uint16_t> streamIds() const; // in the order of profile().streams
    [[nodiscard]] std::size_t streamCount() const noexcept;
    [[nodiscard]] std::string streamName(std::uint16_t streamId) const; // "" when there is none
    [[nodiscard]] config::ProcessingMode mode(std::uint16_t streamId, std::uint32_t typeIndex) const;
    // The bound port of a stream's source (udp or tcp-listen with port 0), once started; else 0.
    [[nodiscard]] std::uint16_t localPort(std::string_view stream) const;

private:
    friend class StationAccess; // core/api's way to the pool, current values and subscriptions
    struct Impl;
    explicit Station(std::unique_ptr<Impl> impl);
    std::unique_ptr<Impl> m_impl;
};

// What consumers need of a running station besides its public face: the pool their packets live in,
// the current value tables and the subscription lists. For core/api only: the GUI, the headless mode
// and users' code take data through core/api's subscriptions and readers.
class StationAccess {
public:
    [[nodiscard]] static PacketPool& pool(Station& station) noexcept;
    // The stream's current values (nullptr: no such stream); kept alive by the caller after a removal.
    [[nodiscard]] static std::shared_ptr<const CurrentValueTable> currentValues(const Station& station, std::uint16_t streamId);
    // The processor picks a subscription up at its next batch.
    static void add(Station& station, std::shared_ptr<PacketSubscriptionQueue> subscription);
    static void add(Station& station, std::shared_ptr<ParameterSubscriptionQueue> subscription);
    static void remove(Station& station, const PacketSubscriptionQueue* subscription);
    static void remove(Station& station, const ParameterSubscriptionQueue* subscription);
    // A newest-value parameter consumer, listed in the statistics only.
    static void add(Station& station, std::shared_ptr<NewestParameterConsumer> consumer);
    static void remove(Station& station, const NewestParameterConsumer* consumer);
};

} // namespace telestation::pipeline
