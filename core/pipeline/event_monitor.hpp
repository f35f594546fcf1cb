// EventMonitor: the station's event thread. Every kRoundMs it takes what the hot threads reported
// (RawEvent rings) and what the other threads posted (the inbox), looks at the counters only it
// watches (queue drops, warning-threshold crossings, streams gone quiet), bounds storms
// (events::StormLimiter), and hands each batch to the alarms, the in-memory log, the archive and
// the observers (sinks: the headless JSON lines, tests). Never on the hot path: the hot threads pay
// one ring push per fault, nothing per good packet. Internal to core/pipeline.
#pragma once

#include "core/events/event_store.hpp"
#include "core/events/storm_limiter.hpp"
#include "core/pipeline/station_core.hpp"

#include <atomic>
#include <condition_variable>
#include <functional>
#include <mutex>
#include <optional>
#include <span>
#include <thread>
#include <unordered_map>
#include <vector>

namespace telestation::pipeline {

using EventSink = std::function<void(std::span<const events::Event>)>;

class EventMonitor {
public:
    static constexpr int kRoundMs = 50;

    // `archivePath`: "" = no archive.
    EventMonitor(StationCore& core, std::string archivePath, int retentionDays);
    ~EventMonitor(); // stops
    EventMonitor(const EventMonitor&) = delete;
    EventMonitor& operator=(const EventMonitor&) = delete;

    void start();
    // One last round that also reports every storm summary still open, then the thread ends. Restartable.
    void stop();
    // A round now on the caller's thread (merged summaries reported only when their second is over, or
    // all of them with `flushAll`). Serialised with the thread's rounds.
    void roundNow(bool flushAll);

    void addSink(EventSink sink);
    // Merged into summaries so far; reports lost because a ring or the inbox was full.
    [[nodiscard]] std::uint64_t merged() const;
    [[nodiscard]] std::uint64_t ringLosses() const;
    // The archive's health ("" = fine or no archive) and path.
    [[nodiscard]] std::string storageError() const;
    [[nodiscard]] const std::string& archivePath() const noexcept { return m_archivePath; }

private:
    // What the event thread last saw of one stream.
    struct StreamWatch {
        std::uint64_t serial = 0;               // the stream's (a new stream of the same id starts afresh)
        std::string name;                       // names its raw events after it was removed
        std::uint64_t arrivals = 0;             // network queue pushes + drops
        std::int64_t lastActivityNs = 0;        // monotonic
        bool stale = false;
        bool wasRunning = false;
        std::array<std::uint64_t, 4> drops{};   // network, process, record, forward
        std::uint64_t warnings = 0;
        bool aboveWarning = false;
    };

    void run();
    void round(bool flushAll);
    void collect(std::int64_t nowNs);
    void watchStreams(std::int64_t nowNs, std::int64_t monoNs);
    [[nodiscard]] const std::string& nameOf(std::uint16_t streamId);
    void watchQueues(Stream& s, StreamWatch& w, std::int64_t nowNs);
    void watchStaleness(Stream& s, StreamWatch& w, std::int64_t nowNs, std::int64_t monoNs);
    void admit(events::Event e, std::int64_t nowNs);
    void admitRaw(const RawEvent& raw, std::int64_t nowNs, const std::vector<config::LimitSetting>& limits);
    void deliver(std::int64_t nowNs);

    StationCore& m_core;
    std::string m_archivePath;
    std::optional<events::EventStore> m_store; // created on the thread's first round
    int m_retentionDays;
    events::StormLimiter m_limiter;
    std::vector<StreamWatch> m_watch; // index = stream id
    // A storm's raw events merge by their source's key, found once per source (no text made per event).
    std::unordered_map<std::uint64_t, events::StormLimiter::Key> m_rawKeys;
    std::vector<events::Event> m_batch;
    std::vector<events::Event> m_inbox;
    std::uint64_t m_ringLossesSeen = 0;

    mutable std::mutex m_roundMutex; // one round at a time (the thread or roundNow)
    std::vector<EventSink> m_sinks;  // under m_roundMutex
    std::string m_storageError;      // under m_roundMutex

    std::mutex m_wakeMutex;
    std::condition_variable m_wake;
    bool m_stopRequested = false;
    std::thread m_thread;
};

} // namespace telestation::pipeline
