#include "core/pipeline/event_monitor.hpp"

#include "core/common/clock.hpp"
#include "core/common/thread_name.hpp"
#include "core/pipeline/event_text.hpp"

#include <array>
#include <chrono>

namespace telestation::pipeline {

using events::Event;
using events::EventKind;
using events::Severity;

EventMonitor::EventMonitor(StationCore& core, std::string archivePath, int retentionDays)
    : m_core(core)
    , m_archivePath(std::move(archivePath))
    , m_retentionDays(retentionDays)
    , m_limiter(core.options.eventStormWindow.count())
    , m_watch(StreamTable::kCapacity)
{
}

EventMonitor::~EventMonitor()
{
    stop();
}

void EventMonitor::start()
{
    if (m_thread.joinable())
        return;
    {
        std::lock_guard lock(m_wakeMutex);
        m_stopRequested = false;
    }
    m_thread = std::thread([this] { run(); });
}

void EventMonitor::stop()
{
    if (m_thread.joinable()) {
        {
            std::lock_guard lock(m_wakeMutex);
            m_stopRequested = true;
        }
        m_wake.notify_all();
        m_thread.join();
    }
    roundNow(true);
}

void EventMonitor::run()
{
    setThreadName("ts-events");
    std::unique_lock lock(m_wakeMutex);
    while (!m_stopRequested) {
        lock.unlock();
        roundNow(false);
        lock.lock();
        m_wake.wait_for(lock, std::chrono::milliseconds(kRoundMs), [this] { return m_stopRequested; });
    }
}

void EventMonitor::roundNow(bool flushAll)
{
    std::lock_guard lock(m_roundMutex);
    round(flushAll);
}

void EventMonitor::addSink(EventSink sink)
{
    std::lock_guard lock(m_roundMutex);
    m_sinks.push_back(std::move(sink));
}

std::uint64_t EventMonitor::merged() const
{
    std::lock_guard lock(m_roundMutex);
    return m_limiter.merged();
}

std::uint64_t EventMonitor::ringLosses() const
{
    return get(m_core.routerEvents.lost) + get(m_core.processorEvents.lost) + m_core.inbox.lost();
}

std::string EventMonitor::storageError() const
{
    std::lock_guard lock(m_roundMutex);
    return m_storageError;
}

void EventMonitor::round(bool flushAll)
{
    const std::int64_t nowNs = clock::realtimeNs();
    const std::int64_t monoNs = clock::monotonicNs();
    if (!m_store && !m_archivePath.empty())
        m_store.emplace(m_archivePath, m_retentionDays);
    collect(nowNs);
    watchStreams(nowNs, monoNs);
    for (auto& summary : m_limiter.flush(nowNs, flushAll))
        m_batch.push_back(std::move(summary));
    deliver(nowNs);
}

void EventMonitor::admit(Event e, std::int64_t nowNs)
{
    // The audit trail (an operator's limit edit, an API client's control call, an operator's action on an
    // alarm — the only alarm events with a user) is never merged: each action is its own event, however
    // quickly they follow each other.
    const bool audit = e.kind == EventKind::LimitEdited || (e.kind == EventKind::Station && e.detail == "api")
                       || (e.kind == EventKind::Alarm && !e.user.empty());
    if (audit || m_limiter.admit(e, nowNs))
        m_batch.push_back(std::move(e));
}

// The rings of the router and the processor, then the inbox of everyone else.
void EventMonitor::collect(std::int64_t nowNs)
{
    std::vector<config::LimitSetting> limits;
    bool limitsRead = false;
    std::array<RawEvent, 256> raw{};
    for (EventRing* ring : {&m_core.routerEvents, &m_core.processorEvents}) {
        std::size_t n;
        while ((n = ring->ring.popBatch(std::span<RawEvent>(raw.data(), raw.size()))) > 0) {
            for (std::size_t i = 0; i < n; ++i) {
                if (raw[i].kind == RawEventKind::Limit && !limitsRead) {
                    std::lock_guard lock(m_core.settings.mutex);
                    limits = m_core.settings.profile.limits;
                    limitsRead = true;
                }
                admitRaw(raw[i], nowNs, limits);
            }
        }
    }
    const std::uint64_t losses = ringLosses();
    if (losses != m_ringLossesSeen) {
        Event e;
        e.kind = EventKind::Station;
        e.severity = Severity::Error;
        e.amount = losses - m_ringLossesSeen;
        e.timeNs = nowNs;
        e.text = std::to_string(e.amount)
            + " events could not be reported (the event thread fell behind); the counters still count what happened";
        m_ringLossesSeen = losses;
        admit(std::move(e), nowNs);
    }
    m_core.inbox.takeInto(m_inbox);
    for (auto& e : m_inbox)
        admit(std::move(e), nowNs);
    m_inbox.clear();
}

// A sequence fault or a malformed packet of a source whose window is open merges without being made
// into an event (a storm of 100,000 a second costs a hash look-up each); a limit transition is always
// made, since its summary says where the parameter stands.
void EventMonitor::admitRaw(const RawEvent& raw, std::int64_t nowNs, const std::vector<config::LimitSetting>& limits)
{
    const bool mergeable = raw.kind != RawEventKind::Limit;
    const std::uint64_t key = (std::uint64_t{static_cast<std::uint8_t>(raw.kind)} << 60)
        | (std::uint64_t{raw.reason & 0xFu} << 56) | (std::uint64_t{raw.detail} << 48)
        | (std::uint64_t{raw.streamId & 0xFFFu} << 36) | (std::uint64_t{raw.apid & 0x7FFu} << 25)
        | (raw.typeIndex & 0x1FFFFFFu);
    if (mergeable) {
        const auto known = m_rawKeys.find(key);
        if (known != m_rawKeys.end() && m_limiter.tryMerge(known->second, raw.timeNs, 1, raw.amount, Severity::Warning))
            return;
    }
    Event e = describeRawEvent(raw, nameOf(raw.streamId), m_core.types, limits);
    if (mergeable)
        m_rawKeys.try_emplace(key, events::StormLimiter::keyOf(e));
    admit(std::move(e), nowNs);
}

namespace {

// A new stream's watch: nothing seen yet.
template <typename Watch>
Watch freshWatch(std::uint64_t serial)
{
    Watch w;
    w.serial = serial;
    return w;
}

} // namespace

// The stream's name now, or the one it had when last watched if it was removed since. Only for an event
// that is not merged into a storm (a few a second): the lock is not taken per raw event.
const std::string& EventMonitor::nameOf(std::uint16_t streamId)
{
    std::lock_guard lock(m_core.streams.mutex);
    StreamWatch& w = m_watch.at(streamId);
    if (const Stream* s = m_core.streams.at(streamId)) {
        if (s->serial != w.serial)
            w = freshWatch<StreamWatch>(s->serial);
        s->nameInto(w.name);
    }
    return w.name;
}

void EventMonitor::watchStreams(std::int64_t nowNs, std::int64_t monoNs)
{
    std::lock_guard lock(m_core.streams.mutex);
    m_core.streams.forEach([&](Stream& s) {
        StreamWatch& w = m_watch[s.id];
        if (w.serial != s.serial) // a stream new to this id
            w = freshWatch<StreamWatch>(s.serial);
        s.nameInto(w.name);
        watchQueues(s, w, nowNs);
        watchStaleness(s, w, nowNs, monoNs);
    });
}

// Drops per queue, and the network queue's warning threshold crossed up and back down.
void EventMonitor::watchQueues(Stream& s, StreamWatch& w, std::int64_t nowNs)
{
    static constexpr std::array<const char*, 4> kNames{"network packet queue", "process packet queue",
                                                       "record packet queue", "forward packet queue"};
    const std::array<const PacketQueue*, 4> queues{&s.network, &s.process, &s.recordQueue, &s.forward};
    for (std::size_t q = 0; q < queues.size(); ++q) {
        const std::uint64_t drops = get(queues[q]->drops);
        if (drops == w.drops[q])
            continue;
        Event e;
        e.kind = EventKind::QueueDrop;
        e.severity = Severity::Error;
        e.stream = w.name;
        e.detail = kNames[q];
        e.amount = drops - w.drops[q];
        e.timeNs = nowNs;
        e.text = std::string(kNames[q]) + ": " + events::formatCount(e.amount) + " packets dropped, the queue was full ("
            + events::formatCount(queues[q]->ring.capacity()) + " packets)";
        w.drops[q] = drops;
        admit(std::move(e), nowNs);
    }
    const PacketQueue& net = s.network;
    if (net.warningThreshold == 0)
        return;
    const std::uint64_t warnings = get(net.warnings);
    const auto crossing = [&](EventKind kind, Severity severity, std::string text, std::uint64_t amount) {
        Event e;
        e.kind = kind;
        e.severity = severity;
        e.stream = w.name;
        e.detail = kNames[0];
        e.amount = amount;
        e.timeNs = nowNs;
        e.text = std::string(kNames[0]) + ": " + text;
        admit(std::move(e), nowNs);
    };
    if (warnings != w.warnings) {
        const std::string threshold = events::formatCount(net.warningThreshold) + " of " + events::formatCount(net.ring.capacity());
        // Several crossings between two looks (up and back down in a few ms) are one event with their number.
        const std::uint64_t ups = warnings - w.warnings;
        crossing(EventKind::QueueWarning, Severity::Warning,
                 "depth rose above its warning threshold (" + threshold + ")"
                     + (ups > 1 ? ", " + events::formatCount(ups) + " times" : std::string()),
                 ups);
        w.aboveWarning = true;
        w.warnings = warnings;
    }
    const bool above = net.aboveWarning.load(std::memory_order_relaxed) && net.ring.size() >= net.warningThreshold;
    if (w.aboveWarning && !above) {
        w.aboveWarning = false;
        crossing(EventKind::QueueWarningCleared, Severity::Info, "depth back below its warning threshold", 0);
    }
}

// No packet (received or dropped) for the stream's stale time while it runs: stale, until packets come.
void EventMonitor::watchStaleness(Stream& s, StreamWatch& w, std::int64_t nowNs, std::int64_t monoNs)
{
    const std::uint64_t arrivals = get(s.network.pushed) + get(s.network.drops);
    const bool running = s.running.load(std::memory_order_relaxed) && !s.paused.load(std::memory_order_relaxed);
    const auto report = [&](EventKind kind, Severity severity, std::string text) {
        Event e;
        e.kind = kind;
        e.severity = severity;
        e.stream = w.name;
        e.timeNs = nowNs;
        e.text = std::move(text);
        admit(std::move(e), nowNs);
    };
    if (arrivals != w.arrivals || !running || !w.wasRunning) {
        if (w.stale && arrivals != w.arrivals)
            report(EventKind::StreamResumed, Severity::Info, "packets arriving again");
        else if (w.stale && !running)
            report(EventKind::StreamResumed, Severity::Info, "stream stopped: no longer watched for staleness");
        if (w.stale && (arrivals != w.arrivals || !running))
            w.stale = false;
        w.arrivals = arrivals;
        w.lastActivityNs = monoNs;
        w.wasRunning = running;
        return;
    }
    const double staleAfter = s.staleAfterSeconds.load(std::memory_order_relaxed);
    if (w.stale || staleAfter <= 0)
        return;
    const auto quietNs = monoNs - w.lastActivityNs;
    if (static_cast<double>(quietNs) >= staleAfter * 1e9) {
        w.stale = true;
        char seconds[32];
        std::snprintf(seconds, sizeof seconds, "%g", staleAfter);
        report(EventKind::StreamStale, Severity::Error, std::string("stale: no packet for ") + seconds + " s");
    }
}

// Alarms first (their changes join the batch), then the log numbers every event, the archive stores
// them and the sinks see them.
void EventMonitor::deliver(std::int64_t nowNs)
{
    const std::size_t found = m_batch.size();
    for (std::size_t i = 0; i < found; ++i)
        for (auto& change : m_core.alarms.onEvent(m_batch[i]))
            m_batch.push_back(std::move(change));
    for (auto& change : m_core.alarms.tick(nowNs))
        m_batch.push_back(std::move(change));
    if (m_batch.empty() && !m_store)
        return;
    for (auto& e : m_batch)
        m_core.events.add(e);
    if (m_store) {
        auto storage = m_store->store(m_batch, nowNs);
        for (auto& e : storage) {
            m_core.events.add(e);
            m_batch.push_back(std::move(e));
        }
        m_storageError = m_store->healthy() ? std::string() : m_store->lastError();
    }
    if (!m_batch.empty())
        for (const auto& sink : m_sinks)
            sink(m_batch);
    m_batch.clear();
}

} // namespace telestation::pipeline
