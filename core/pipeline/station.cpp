// The station's lifecycle and controls: create (profile → streams and settings), start and stop (the
// workers and the receivers), one stream at a time, live settings, and the read-only views. The stages
// themselves: stream_receiver, packet_acceptor + router, processor, recorder, forwarder (each a
// worker, worker.hpp), snapshot_assembly, settings_translation. See core/pipeline/README.md.
#include "core/pipeline/station.hpp"

#include "core/common/clock.hpp"
#include "core/io/endpoint.hpp"
#include "core/pipeline/forwarder.hpp"
#include "core/pipeline/processor.hpp"
#include "core/pipeline/recorder.hpp"
#include "core/pipeline/router.hpp"
#include "core/pipeline/settings_translation.hpp"
#include "core/pipeline/snapshot_assembly.hpp"
#include "core/pipeline/station_core.hpp"
#include "core/pipeline/stream_receiver.hpp"

#include <algorithm>
#include <filesystem>
#include <thread>

namespace telestation::pipeline {

struct Station::Impl {
    Impl(mdb::MissionDatabase db, PacketTypeTable types, const StationOptions& options)
        : core(std::move(db), std::move(types), options)
    {
    }
    // The workers exist once the streams do (create); start() runs them, stop() joins them.
    void createWorkers()
    {
        workers = {std::make_unique<Router>(core), std::make_unique<Processor>(core), std::make_unique<Recorder>(core),
                   std::make_unique<Forwarder>(core)};
    }
    // Opens a source as the stream `s` would (nothing changes); a playback from `resumeFromNs` (0: its start).
    Result<std::unique_ptr<Source>> openFor(const io::Endpoint& endpoint, std::uint32_t transportHeaderBytes,
                                            std::int64_t resumeFromNs) const;
    // Opens a stream's source (a playback where the profile says it stopped, or at `resumeFromNs`); on
    // failure the stream shows "error: why" and the error is the why.
    Status open(Stream& s, std::optional<std::int64_t> resumeFromNs = std::nullopt);
    // What addStream and replaceStream check before anything changes; the source's endpoint.
    Result<io::Endpoint> check(const config::StreamProfile& sp, const Stream* replacing) const;
    // Lets what the stream's stopped receiver had received pass every queue.
    void drain(const Stream& s);
    // Takes a stopped, drained stream out and frees it once no thread can hold it (stream_table.hpp).
    void retire(Stream& s);
    // The stream `name`, or an error that says there is none.
    Result<Stream*> stream(std::string_view name) const;
    void setEnabled(Stream& s, bool enabled);
    [[nodiscard]] bool enabled(const Stream& s) const; // whether the profile receives it now

    StationCore core;
    std::array<std::unique_ptr<Worker>, 4> workers; // router first: the others end after it
    std::unique_ptr<EventMonitor> monitor;          // the event thread: from create to destruction
    std::atomic<bool> isRunning{false};
};

Result<std::unique_ptr<Source>> Station::Impl::openFor(const io::Endpoint& endpoint, std::uint32_t transportHeaderBytes,
                                                       std::int64_t resumeFromNs) const
{
    // The largest packet the mission database defines bounds TCP framing.
    std::size_t largest = 0;
    std::vector<std::uint16_t> apids;
    for (std::uint32_t t = 1; t < core.types.typeCount(); ++t) {
        largest = std::max<std::size_t>(largest, core.types.maxPacketBytes(t));
        apids.push_back(core.types.definition(t).apid);
    }
    return pipeline::openSource(endpoint, transportHeaderBytes, core.options.receiveBufferBytes,
                                largest > 0 ? largest : ccsds::kMaxPacketSize, apids, resumeFromNs);
}

Status Station::Impl::open(Stream& s, std::optional<std::int64_t> resumeFromNs)
{
    const std::int64_t from = !s.playback() ? 0 : resumeFromNs ? *resumeFromNs : core.playbackPosition(s.profile.name);
    auto source = openFor(s.endpoint, s.transportHeaderBytes, from);
    std::lock_guard lock(s.sourceMutex);
    if (!source) {
        s.idleState = "error: " + source.error().message;
        return source.error();
    }
    s.source = std::move(*source);
    s.idleState.clear();
    return {};
}

Result<Stream*> Station::Impl::stream(std::string_view name) const
{
    if (Stream* s = core.findStream(name))
        return s;
    return Error{"no stream named " + std::string(name), {}};
}

bool Station::Impl::enabled(const Stream& s) const
{
    std::lock_guard lock(core.settings.mutex);
    return core.settings.streamProfile(s.id).enabled;
}

void Station::Impl::setEnabled(Stream& s, bool enabled)
{
    s.profile.enabled = enabled;
    std::lock_guard lock(core.settings.mutex);
    core.settings.streamProfile(s.id).enabled = enabled;
}

// ---- Lifecycle ------------------------------------------------------------------------------------------

Station::Station(std::unique_ptr<Impl> impl) : m_impl(std::move(impl)) {}

Station::~Station()
{
    stop();
    m_impl->monitor.reset(); // its last round reports what is still pending
}

namespace {

// The event archive beside the recordings unless the profile names another file or turns it off.
std::string archivePath(const config::StationProfile& profile)
{
    if (!profile.events.archive)
        return {};
    if (!profile.events.archiveFile.empty())
        return profile.events.archiveFile;
    return (std::filesystem::path(profile.recordingDirectory) / "events.sqlite").string();
}

} // namespace

Result<std::unique_ptr<Station>> Station::create(const config::StationProfile& profile, mdb::MissionDatabase db,
                                                 const StationOptions& options)
{
    auto table = PacketTypeTable::build(db);
    if (!table)
        return Error{"mission database: " + table.error().message, {}};
    auto impl = std::make_unique<Impl>(std::move(db), std::move(*table), options);
    StationCore& core = impl->core;
    std::string problems;
    for (const auto& sp : profile.streams) {
        auto endpoint = io::parseEndpoint(sp.source);
        if (!endpoint) {
            problems += (problems.empty() ? "" : "\n") + ("stream " + sp.name + ": " + endpoint.error().message);
            continue;
        }
        if (core.streams.size() == StreamTable::kCapacity) {
            problems += (problems.empty() ? "" : "\n") + ("more than " + std::to_string(StreamTable::kCapacity) + " streams");
            break;
        }
        core.streams.publish(std::make_unique<Stream>(static_cast<std::uint16_t>(core.streams.size()), core.nextSerial++,
                                                      sp, std::move(*endpoint), profile.queues, core.types));
    }
    if (auto st = translateProfile(profile, core.types, core.settings); !st)
        problems += (problems.empty() ? "" : "\n") + st.error().message;
    if (auto st = translateLimits(profile.limits, core.types, core.settings.limitOverrides); !st)
        problems += (problems.empty() ? "" : "\n") + st.error().message;
    if (!problems.empty())
        return Error{problems, {}};
    impl->createWorkers();
    impl->monitor = std::make_unique<EventMonitor>(core, archivePath(profile), profile.events.retentionDays);
    impl->monitor->start();
    return std::unique_ptr<Station>(new Station(std::move(impl)));
}

Status Station::start()
{
    Impl& d = *m_impl;
    if (d.isRunning.load())
        return {};
    std::string problems;
    d.core.streams.forEach([&](Stream& s) {
        // The live settings' word, not the stream's copy: a playback that finished turned itself off there.
        if (d.enabled(s))
            if (auto st = d.open(s); !st)
                problems += (problems.empty() ? "" : "\n") + ("stream " + s.profile.name + ": " + st.error().message);
    });
    if (!problems.empty()) {
        d.core.streams.forEach([](Stream& s) {
            std::lock_guard lock(s.sourceMutex);
            s.source.reset();
        });
        return Error{problems, {}};
    }
    d.core.sourcesDone = false;
    d.core.routerDone = false;
    d.core.started = std::chrono::steady_clock::now();
    for (auto& w : d.workers)
        w->start();
    d.core.streams.forEach([&](Stream& s) {
        if (s.source)
            startReceiver(d.core, s);
    });
    d.isRunning = true;
    return {};
}

void Station::stop()
{
    Impl& d = *m_impl;
    if (!d.isRunning.exchange(false))
        return;
    d.core.streams.forEach([](Stream& s) { s.stopRequested = true; });
    d.core.streams.forEach([](Stream& s) { stopReceiver(s); });
    d.core.sourcesDone.store(true, std::memory_order_release);
    d.core.routerBell.ring();
    for (auto& w : d.workers) // each ends once its upstream has ended and its queues are empty
        w->join();
    d.core.streams.forEach([&](Stream& s) {
        std::lock_guard lock(s.sourceMutex);
        if (s.playback() && s.source && !s.source->finished() && s.source->positionNs() != 0)
            d.core.setPlayback(s.profile.name, std::nullopt, s.source->positionNs() + 1); // resumes there
        if (s.source)
            s.idleState = "stopped";
        s.source.reset();
        s.paused = false;
    });
    d.core.event(events::EventKind::Station, events::Severity::Info, "", "station stopped");
    d.monitor->roundNow(true);
}

bool Station::running() const noexcept
{
    return m_impl->isRunning.load();
}

namespace {

// Every packet the stream received has passed every queue.
bool drained(const Stream& s) noexcept
{
    return get(s.network.pushed) == get(s.routed) && s.process.drained() && s.recordQueue.drained() && s.forward.drained();
}

} // namespace

bool Station::idle() const noexcept
{
    std::lock_guard lock(m_impl->core.streams.mutex);
    return !m_impl->core.streams.any([](const Stream& s) { return !drained(s); });
}

bool Station::waitIdle(std::chrono::milliseconds timeout) const
{
    const auto deadline = std::chrono::steady_clock::now() + timeout;
    while (!idle()) {
        if (std::chrono::steady_clock::now() >= deadline)
            return false;
        std::this_thread::sleep_for(std::chrono::milliseconds(1));
    }
    return true;
}

bool Station::playbackFinished() const noexcept
{
    bool any = false, unfinished = false;
    std::lock_guard streams(m_impl->core.streams.mutex);
    m_impl->core.streams.forEach([&](const Stream& s) {
        std::lock_guard lock(s.sourceMutex);
        if (!s.playback() || !s.source)
            return;
        any = true;
        unfinished = unfinished || !s.source->finished();
    });
    return any && !unfinished;
}

// ---- One stream at a time ---------------------------------------------------------------------------------

Status Station::startStream(std::string_view name)
{
    Impl& d = *m_impl;
    auto found = d.stream(name);
    if (!found)
        return found.error();
    Stream& s = **found;
    d.setEnabled(s, true); // the operator's intent, kept even when the source fails to open
    if (!d.isRunning.load()) {
        std::lock_guard lock(s.sourceMutex);
        s.idleState = "stopped";
        return {}; // start() opens it
    }
    if (s.thread.joinable()) {
        std::unique_lock lock(s.sourceMutex);
        if (!s.source || !s.source->finished())
            return {};
        lock.unlock();
        stopReceiver(s); // a finished playback: played again from the beginning
    }
    if (auto st = d.open(s); !st) {
        d.core.event(events::EventKind::Stream, events::Severity::Error, s.profile.name, "cannot start: " + st.error().message,
                     "start failed");
        return Error{"stream " + s.profile.name + ": " + st.error().message, {}};
    }
    startReceiver(d.core, s);
    return {};
}

Status Station::stopStream(std::string_view name)
{
    Impl& d = *m_impl;
    auto found = d.stream(name);
    if (!found)
        return found.error();
    Stream& s = **found;
    d.setEnabled(s, false);
    const bool wasRunning = s.thread.joinable();
    stopReceiver(s);
    s.paused = false;
    {
        std::lock_guard lock(s.sourceMutex);
        // A playback stopped midway resumes after its last record; a finished one starts again.
        if (s.playback() && s.source)
            d.core.setPlayback(s.profile.name, false,
                               s.source->finished() || s.source->positionNs() == 0 ? 0 : s.source->positionNs() + 1);
        s.source.reset();
        s.idleState = "stopped";
    }
    if (wasRunning)
        d.core.event(events::EventKind::Stream, events::Severity::Info, s.profile.name, "stopped by the operator", "stopped");
    return {};
}

Status Station::pauseStream(std::string_view name, bool paused)
{
    Impl& d = *m_impl;
    auto found = d.stream(name);
    if (!found)
        return found.error();
    Stream& s = **found;
    {
        std::lock_guard lock(s.sourceMutex);
        if (!s.source || !s.running.load())
            return Error{"stream " + s.profile.name + " is not running", {}};
        if (!s.source->pausable())
            return Error{"stream " + s.profile.name
                             + " is live: only playback can be paused (stop it instead; a paused socket would drop)",
                         {}};
    }
    if (s.paused.exchange(paused) != paused)
        d.core.event(events::EventKind::Playback, events::Severity::Info, s.profile.name,
                     paused ? "playback paused" : "playback resumed", paused ? "paused" : "resumed");
    return {};
}

void Station::note(events::Severity severity, std::string stream, std::string text)
{
    m_impl->core.event(events::EventKind::Station, severity, std::move(stream), std::move(text), "api");
}

bool Station::streamRunning(std::string_view name) const
{
    std::lock_guard lock(m_impl->core.streams.mutex);
    const Stream* s = m_impl->core.findStream(name);
    return s && s->running.load();
}

bool Station::streamPaused(std::string_view name) const
{
    std::lock_guard lock(m_impl->core.streams.mutex);
    const Stream* s = m_impl->core.findStream(name);
    return s && s->paused.load();
}

// ---- Streams that come and go ------------------------------------------------------------------------------

Result<io::Endpoint> Station::Impl::check(const config::StreamProfile& sp, const Stream* replacing) const
{
    std::string problems;
    const auto problem = [&](const std::string& text) { problems += (problems.empty() ? "" : "\n") + text; };
    const std::string who = "stream " + (sp.name.empty() ? std::string("(no name)") : sp.name);
    if (!config::isWellFormedName(sp.name))
        problem(who + ": a stream name is one or more letters, digits, '-' and '_'");
    if (const Stream* other = core.findStream(sp.name); other && other != replacing)
        problem(who + ": a stream of that name exists already");
    auto endpoint = io::parseEndpoint(sp.source);
    if (!endpoint)
        problem(who + ": " + endpoint.error().message);
    if (sp.transportHeaderBytes > 65'535)
        problem(who + ": the transport header is at most 65535 bytes");
    if (sp.staleAfterSeconds != 0 && !(sp.staleAfterSeconds >= 0.1 && sp.staleAfterSeconds <= 86'400))
        problem(who + ": the stale time is 0 (never) or 0.1 .. 86400 seconds");
    if (auto st = checkStreamSettings(sp, core.types, core.settings); !st)
        problem(st.error().message);
    if (!replacing && core.streams.size() >= StreamTable::kCapacity)
        problem(who + ": the station has " + std::to_string(StreamTable::kCapacity) + " streams, its most");
    if (!problems.empty())
        return Error{problems, {}};
    return std::move(*endpoint);
}

void Station::Impl::drain(const Stream& s)
{
    if (!isRunning.load())
        return; // stop() drained every queue
    while (!drained(s)) {
        core.routerBell.ring();
        std::this_thread::sleep_for(std::chrono::microseconds(200));
    }
}

void Station::Impl::retire(Stream& s)
{
    const std::uint16_t id = s.id;
    removeStreamSettings(core.settings, id);
    std::unique_ptr<Stream> owned;
    {
        std::lock_guard lock(core.streams.mutex); // readers on other threads are done with it
        owned = core.streams.unpublish(id);
    }
    core.streamRemovals.fetch_add(1, std::memory_order_release); // the recorder closes its recording
    for (const auto& w : workers) // each has begun a pass without it: none holds it now
        w->awaitPass();
    core.subscriptions.streamRemoved(id);
    monitor->roundNow(false); // its last fault reports are named while its name is known
    owned.reset();
}

Status Station::addStream(const config::StreamProfile& sp)
{
    Impl& d = *m_impl;
    auto endpoint = d.check(sp, nullptr);
    if (!endpoint)
        return endpoint.error();
    const auto id = d.core.streams.freeId();
    if (!id) // check() refused a stream beyond the table's capacity already; kept local to this use
        return Error{"stream " + sp.name + ": the station has " + std::to_string(StreamTable::kCapacity) + " streams, its most", {}};
    config::QueueOptions queues;
    {
        std::lock_guard lock(d.core.settings.mutex);
        queues = d.core.settings.profile.queues;
    }
    auto stream = std::make_unique<Stream>(*id, d.core.nextSerial, sp, std::move(*endpoint), queues, d.core.types);
    Stream& s = *stream;
    const bool start = d.isRunning.load() && sp.enabled;
    if (start) // opened before it joins: a refusal leaves the station as it was
        if (auto st = d.open(s, sp.playbackPositionNs); !st)
            return Error{"stream " + sp.name + ": " + st.error().message, {}};
    ++d.core.nextSerial;
    s.settingsVersion = installStreamSettings(d.core.settings, d.core.types, s.id, sp);
    {
        std::lock_guard lock(d.core.streams.mutex);
        d.core.streams.publish(std::move(stream));
    }
    d.core.event(events::EventKind::Stream, events::Severity::Info, sp.name, "stream added: " + sp.source, "added");
    if (start)
        startReceiver(d.core, s);
    return {};
}

Status Station::removeStream(std::string_view name)
{
    Impl& d = *m_impl;
    auto found = d.stream(name);
    if (!found)
        return found.error();
    Stream& s = **found;
    const std::string removed = s.profile.name;
    stopReceiver(s);
    {
        std::lock_guard lock(s.sourceMutex);
        s.source.reset();
        s.idleState = "removed";
        s.paused = false;
    }
    d.drain(s); // what it received is processed, recorded and forwarded
    d.retire(s);
    d.core.event(events::EventKind::Stream, events::Severity::Info, removed, "stream removed", "removed");
    return {};
}

namespace {

// A source whose port is the one `s`'s open source holds (a replacement that needs it must wait for it).
bool needsPortOf(const Stream& s, const io::Endpoint& next)
{
    if (!s.source || next.scheme != s.endpoint.scheme || next.port == 0)
        return false;
    if (next.scheme != io::Scheme::Udp && next.scheme != io::Scheme::TcpListen)
        return false;
    return next.port == s.source->localPort();
}

bool framedByHeader(const io::Endpoint& e)
{
    return e.scheme == io::Scheme::Tcp || e.scheme == io::Scheme::TcpListen; // TCP framing skips the transport header
}

} // namespace

Status Station::replaceStream(std::string_view name, const config::StreamProfile& sp)
{
    Impl& d = *m_impl;
    auto found = d.stream(name);
    if (!found)
        return found.error();
    Stream& s = **found;
    auto endpoint = d.check(sp, &s);
    if (!endpoint)
        return endpoint.error();
    const std::string was = s.profile.name;
    const bool reopen = *endpoint != s.endpoint
        || (sp.transportHeaderBytes != s.transportHeaderBytes && framedByHeader(*endpoint));
    const bool restart = reopen || sp.name != s.profile.name || sp.transportHeaderBytes != s.transportHeaderBytes;
    const bool receiving = s.thread.joinable();
    const bool run = d.isRunning.load() && sp.enabled;

    // The new source, opened before anything changes. When it needs the very port the old one holds,
    // the old one is closed first and reopened if the new one cannot be opened.
    std::unique_ptr<Source> fresh;
    if (run && (reopen || !s.source)) {
        const std::int64_t from = endpoint->scheme == io::Scheme::File ? sp.playbackPositionNs : 0;
        auto opened = d.openFor(*endpoint, sp.transportHeaderBytes, from);
        if (!opened && receiving && needsPortOf(s, *endpoint)) {
            stopReceiver(s);
            const io::Endpoint previous = s.endpoint;
            {
                std::lock_guard lock(s.sourceMutex);
                if (s.endpoint.port == 0) // reopened on the port it had, which senders know
                    s.endpoint.port = s.source->localPort();
                s.source.reset();
            }
            opened = d.openFor(*endpoint, sp.transportHeaderBytes, from);
            if (!opened) {
                const Status back = d.open(s);
                s.endpoint = previous;
                if (back)
                    startReceiver(d.core, s);
                d.core.event(events::EventKind::Stream, events::Severity::Error, was,
                             "change refused: " + opened.error().message
                                 + (back ? std::string(" (the old source is open again)")
                                         : "; the old source could not be reopened: " + back.error().message),
                             "change refused");
                return Error{"stream " + sp.name + ": " + opened.error().message, {}};
            }
        }
        if (!opened)
            return Error{"stream " + sp.name + ": " + opened.error().message, {}};
        fresh = std::move(*opened);
    }

    // Everything is checked and open: apply.
    if (s.thread.joinable() && (restart || !run))
        stopReceiver(s);
    std::unique_ptr<Source> old;
    {
        std::lock_guard lock(s.sourceMutex);
        if (s.profile.name != sp.name) {
            s.profile.name = sp.name; // the receiver is stopped (restart)
            s.renames.fetch_add(1, std::memory_order_relaxed);
        }
        s.profile.source = sp.source;
        s.profile.enabled = sp.enabled;
        s.profile.transportHeaderBytes = sp.transportHeaderBytes;
        s.profile.staleAfterSeconds = sp.staleAfterSeconds;
        s.profile.unknownMode = sp.unknownMode;
        s.profile.recordUnknown = sp.recordUnknown;
        s.profile.forwardUnknown = sp.forwardUnknown;
        s.profile.packets = sp.packets;
        s.profile.playbackPositionNs = sp.playbackPositionNs;
        s.endpoint = *endpoint;
        if (s.transportHeaderBytes != sp.transportHeaderBytes)
            s.transportHeaderBytes = sp.transportHeaderBytes; // the receiver is stopped (restart)
        s.playbackSource.store(endpoint->scheme == io::Scheme::File, std::memory_order_relaxed);
        s.staleAfterSeconds.store(sp.staleAfterSeconds, std::memory_order_relaxed);
        if (fresh) {
            old = std::move(s.source);
            s.source = std::move(fresh);
            s.idleState.clear();
        } else if (!run) {
            old = std::move(s.source);
            s.idleState = sp.enabled ? "stopped" : "disabled";
        }
    }
    old.reset(); // closed outside the lock: snapshots do not wait for it
    (void)installStreamSettings(d.core.settings, d.core.types, s.id, sp);
    if (run && s.source && !s.thread.joinable())
        startReceiver(d.core, s);
    std::string what = "stream changed";
    if (was != sp.name)
        what += " (was " + was + ")";
    if (reopen)
        what += ": source " + sp.source;
    else if (restart)
        what += ": receiver restarted on its open source";
    else
        what += ": settings only";
    d.core.event(events::EventKind::Stream, events::Severity::Info, sp.name, what, "changed");
    return {};
}

// ---- Live settings --------------------------------------------------------------------------------------

Status Station::setPacketSettings(std::string_view name, const config::PacketSettings& settings)
{
    auto found = m_impl->stream(name);
    if (!found)
        return found.error();
    return applyPacketSettings(m_impl->core.settings, m_impl->core.types, (*found)->id, name, settings);
}

Status Station::setUnknownSettings(std::string_view name, config::ProcessingMode mode, bool record,
                                   const std::vector<std::string>& forward)
{
    auto found = m_impl->stream(name);
    if (!found)
        return found.error();
    return applyUnknownSettings(m_impl->core.settings, (*found)->id, mode, record, forward);
}

config::StationProfile Station::profile() const
{
    std::lock_guard lock(m_impl->core.settings.mutex);
    return m_impl->core.settings.profile;
}

// ---- Views ------------------------------------------------------------------------------------------------

stats::StationSnapshot Station::snapshot() const
{
    return assembleSnapshot(m_impl->core);
}

// ---- Events and alarms --------------------------------------------------------------------------------------

std::vector<events::Event> Station::events(std::uint64_t after) const
{
    return m_impl->core.events.since(after);
}

void Station::addEventSink(EventSink sink)
{
    m_impl->monitor->addSink(std::move(sink));
}

void Station::flushEvents()
{
    m_impl->monitor->roundNow(true);
}

std::string Station::eventArchivePath() const
{
    return m_impl->monitor->archivePath();
}

std::string Station::eventStorageError() const
{
    return m_impl->monitor->storageError();
}

std::vector<events::Alarm> Station::alarms() const
{
    return m_impl->core.alarms.alarms();
}

events::AlarmCounts Station::alarmCounts() const
{
    return m_impl->core.alarms.counts(clock::realtimeNs());
}

std::uint64_t Station::alarmsVersion() const
{
    return m_impl->core.alarms.version();
}

Status Station::acknowledgeAlarm(std::uint64_t id, std::string_view user, std::string_view comment)
{
    auto e = m_impl->core.alarms.acknowledge(id, user, comment, clock::realtimeNs());
    if (!e)
        return e.error();
    m_impl->core.report(std::move(*e));
    return {};
}

std::size_t Station::acknowledgeAllAlarms(std::string_view user, std::string_view comment)
{
    auto events = m_impl->core.alarms.acknowledgeAll(user, comment, clock::realtimeNs());
    for (auto& e : events)
        m_impl->core.report(std::move(e));
    return events.size();
}

Status Station::shelveAlarm(std::uint64_t id, std::chrono::seconds duration, std::string_view user, std::string_view comment)
{
    const std::int64_t ns = std::chrono::duration_cast<std::chrono::nanoseconds>(duration).count();
    auto e = m_impl->core.alarms.shelve(id, ns, user, comment, clock::realtimeNs());
    if (!e)
        return e.error();
    m_impl->core.report(std::move(*e));
    return {};
}

Status Station::unshelveAlarm(std::uint64_t id, std::string_view user)
{
    auto e = m_impl->core.alarms.unshelve(id, user, clock::realtimeNs());
    if (!e)
        return e.error();
    m_impl->core.report(std::move(*e));
    return {};
}

Status Station::setLimits(std::string_view parameter, const std::optional<config::LimitSetting>& setting,
                          std::string_view user)
{
    StationCore& core = m_impl->core;
    auto before = limits(parameter);
    if (!before)
        return before.error();
    if (auto st = applyLimitSetting(core.settings, core.types, parameter, setting); !st)
        return st;
    const EffectiveLimits after = *limits(parameter);
    events::Event e;
    e.kind = events::EventKind::LimitEdited;
    e.severity = events::Severity::Info;
    e.parameter = std::string(parameter);
    const auto id = *core.types.parameterId(parameter);
    e.packetType = std::string(core.types.typeName(core.types.parameter(id).typeIndex));
    e.user = std::string(user);
    e.text = e.parameter + " limits changed by " + e.user + ": " + describeLimits(*before) + " → " + describeLimits(after)
        + (setting ? "" : " (the mission database's)");
    core.report(std::move(e));
    return {};
}

Result<EffectiveLimits> Station::limits(std::string_view parameter) const
{
    const StationCore& core = m_impl->core;
    const auto id = core.types.parameterId(parameter);
    if (!id)
        return Error{"no parameter named " + std::string(parameter) + " in the mission database", {}};
    std::lock_guard lock(core.settings.mutex);
    return effectiveLimits(core.types, *id, core.settings.profile.limits);
}

std::string Station::resumeRecording()
{
    if (!recordingFailed())
        return "recording had not stopped: nothing to resume";
    m_impl->core.recording.resumeRequests.fetch_add(1, std::memory_order_release);
    m_impl->core.recorderBell.ring();
    return "recording resumed: each stream that had stopped records into a new segment from its next packet";
}

bool Station::recordingFailed() const
{
    return m_impl->core.recording.state().starts_with("failed");
}

const PacketTypeTable& Station::types() const noexcept
{
    return m_impl->core.types;
}

const mdb::MissionDatabase& Station::database() const noexcept
{
    return m_impl->core.db;
}

std::optional<std::uint16_t> Station::streamId(std::string_view name) const
{
    std::lock_guard lock(m_impl->core.streams.mutex);
    if (const Stream* s = m_impl->core.findStream(name))
        return s->id;
    return std::nullopt;
}

std::vector<std::uint16_t> Station::streamIds() const
{
    std::lock_guard lock(m_impl->core.settings.mutex);
    return m_impl->core.settings.streamIds;
}

std::size_t Station::streamCount() const noexcept
{
    return m_impl->core.streams.size();
}

std::string Station::streamName(std::uint16_t streamId) const
{
    std::lock_guard lock(m_impl->core.streams.mutex);
    const Stream* s = m_impl->core.streams.at(streamId);
    return s ? s->name() : std::string();
}

config::ProcessingMode Station::mode(std::uint16_t streamId, std::uint32_t typeIndex) const
{
    std::lock_guard lock(m_impl->core.settings.mutex);
    return m_impl->core.settings.perType.at(streamId).at(typeIndex).mode;
}

std::uint16_t Station::localPort(std::string_view name) const
{
    std::lock_guard streams(m_impl->core.streams.mutex);
    const Stream* s = m_impl->core.findStream(name);
    if (!s)
        return 0;
    std::lock_guard lock(s->sourceMutex);
    return s->source ? s->source->localPort() : 0;
}

// ---- core/api's access --------------------------------------------------------------------------------------

PacketPool& StationAccess::pool(Station& station) noexcept
{
    return *station.m_impl->core.pool;
}

std::shared_ptr<const CurrentValueTable> StationAccess::currentValues(const Station& station, std::uint16_t streamId)
{
    std::lock_guard lock(station.m_impl->core.streams.mutex);
    const Stream* s = station.m_impl->core.streams.at(streamId);
    return s ? s->values : nullptr;
}

void StationAccess::add(Station& station, std::shared_ptr<PacketSubscriptionQueue> subscription)
{
    station.m_impl->core.subscriptions.add(std::move(subscription));
}

void StationAccess::add(Station& station, std::shared_ptr<ParameterSubscriptionQueue> subscription)
{
    station.m_impl->core.subscriptions.add(std::move(subscription));
}

void StationAccess::remove(Station& station, const PacketSubscriptionQueue* subscription)
{
    station.m_impl->core.subscriptions.remove(subscription);
}

void StationAccess::remove(Station& station, const ParameterSubscriptionQueue* subscription)
{
    station.m_impl->core.subscriptions.remove(subscription);
}

void StationAccess::add(Station& station, std::shared_ptr<NewestParameterConsumer> consumer)
{
    station.m_impl->core.subscriptions.add(std::move(consumer));
}

void StationAccess::remove(Station& station, const NewestParameterConsumer* consumer)
{
    station.m_impl->core.subscriptions.remove(consumer);
}

} // namespace telestation::pipeline
