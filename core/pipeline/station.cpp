// The station engine: receivers → network packet queues → router → process / record / forward packet
// queues → processor, recorder, forwarder. See station.hpp and core/pipeline/README.md.
#include "core/pipeline/station.hpp"

#include "core/ccsds/sequence_tracker.hpp"
#include "core/ccsds/space_packet.hpp"
#include "core/io/endpoint.hpp"
#include "core/io/receiver.hpp"
#include "core/io/sender.hpp"
#include "core/pipeline/doorbell.hpp"
#include "core/pipeline/setting_resolver.hpp"
#include "core/pipeline/spsc_ring.hpp"
#include "core/pipeline/station_sources.hpp"
#include "core/record/stream_recorder.hpp"

#include <spdlog/spdlog.h>

#include <algorithm>
#include <array>
#include <atomic>
#include <bit>
#include <cstring>
#include <deque>
#include <mutex>
#include <thread>
#include <time.h>

namespace telestation::pipeline {

namespace {

using config::ProcessingMode;
using namespace std::chrono_literals;

constexpr std::size_t kBatch = 256;           // packets a worker takes from one queue at a time
constexpr std::size_t kMaxDestinations = 64;  // forward destinations per station (a bit mask per type)
constexpr std::size_t kMaxEvents = 1000;

std::int64_t realtimeNs() noexcept
{
    timespec ts{};
    clock_gettime(CLOCK_REALTIME, &ts);
    return std::int64_t{ts.tv_sec} * 1'000'000'000 + ts.tv_nsec;
}

// Counters have one writer thread each: a relaxed load + store is enough (and cheaper than a locked
// add); any thread may read them.
using Counter = std::atomic<std::uint64_t>;
inline void bump(Counter& c, std::uint64_t n = 1) noexcept
{
    c.store(c.load(std::memory_order_relaxed) + n, std::memory_order_relaxed);
}
inline std::uint64_t get(const Counter& c) noexcept { return c.load(std::memory_order_relaxed); }

// Per packet type counters, one cache line group per writer thread.
struct alignas(64) ReceiverTypeCounters {
    Counter networkDrops{0}, networkDropBytes{0};
};
struct alignas(64) RouterTypeCounters {
    Counter received{0}, bytes{0}, unknown{0}, discarded{0}, malformed{0}, shortPackets{0}, longPackets{0}, extraBytes{0};
    Counter processDrops{0}, recordDrops{0}, forwardDrops{0};
    std::atomic<std::int64_t> lastReceiveTimeNs{0};
};
struct alignas(64) ProcessorTypeCounters {
    Counter processed{0}, parametersDecoded{0};
    // Variable layouts are checked when decoded: shorter than the layout (malformed), or longer.
    Counter layoutErrors{0}, longPackets{0}, extraBytes{0};
};
struct alignas(64) RecorderTypeCounters {
    Counter recorded{0}, bytes{0}, errors{0};
};
struct alignas(64) ForwarderTypeCounters {
    Counter forwarded{0}, bytes{0}, errors{0};
};
// Sequence counters per APID (the router publishes the tracker's numbers for the APID it touched).
struct ApidSequence {
    Counter sequenceErrors{0}, lost{0}, largestGap{0}, duplicates{0};
};

// What the workers need of a packet type's settings: trivially copyable, so the workers' local copies
// are refreshed without allocating.
struct TypeSettings {
    ProcessingMode mode = ProcessingMode::ProcessEntirePacket;
    bool record = false;
    std::uint64_t forwardMask = 0; // bit i: destination i
};

// A worker's copy of a versioned master (settings, subscriptions, destinations): taken under the
// master's mutex only when its version moved since the worker's last look — once per batch, never per
// packet.
template <typename Copy>
void refreshIfChanged(const std::atomic<std::uint64_t>& version, std::uint64_t& seen, std::mutex& mutex, Copy&& copy)
{
    if (version.load(std::memory_order_acquire) == seen)
        return;
    std::lock_guard lock(mutex);
    copy();
    seen = version.load(std::memory_order_relaxed);
}

// A bounded queue between two threads, with the operator's numbers.
struct PacketQueue {
    explicit PacketQueue(std::size_t capacity, std::size_t warning = 0) : ring(capacity), warningThreshold(warning) {}
    SpscRing<PacketHandle> ring;
    std::size_t warningThreshold;
    Counter pushed{0};   // producer
    Counter drops{0};    // producer
    Counter warnings{0}; // producer
    Counter done{0};     // consumer: packets taken and finished with
    bool aboveWarning = false; // producer only

    // Pushes a batch; returns how many fit (the caller drops the rest).
    std::size_t pushBatch(std::span<const PacketHandle> items) noexcept
    {
        const std::size_t n = tryPushBatch(items);
        if (n < items.size())
            bump(drops, items.size() - n);
        return n;
    }
    // The same without counting the rest as dropped (a playback source waits and tries again).
    std::size_t tryPushBatch(std::span<const PacketHandle> items) noexcept
    {
        const std::size_t n = ring.pushBatch(items);
        bump(pushed, n);
        if (warningThreshold > 0) {
            const std::size_t depth = ring.size();
            if (depth >= warningThreshold && !aboveWarning) {
                aboveWarning = true;
                bump(warnings);
            } else if (depth < warningThreshold) {
                aboveWarning = false;
            }
        }
        return n;
    }
    [[nodiscard]] stats::QueueStats stats() const noexcept
    {
        stats::QueueStats q;
        q.depth = ring.size();
        q.capacity = ring.capacity();
        q.highWater = ring.highWater();
        q.warningThreshold = warningThreshold;
        q.warnings = get(warnings);
        q.drops = get(drops);
        return q;
    }
    [[nodiscard]] bool drained() const noexcept { return get(pushed) == get(done); }
};

} // namespace

// ---- Stream -------------------------------------------------------------------------------------------

struct Stream {
    Stream(std::uint16_t streamId, const config::StreamProfile& p, io::Endpoint e, const config::QueueOptions& q,
           const PacketTypeTable& types)
        : id(streamId)
        , profile(p)
        , endpoint(std::move(e))
        , transportHeaderBytes(p.transportHeaderBytes)
        , network(q.networkPacketQueueSize, q.networkPacketQueueWarningThreshold)
        , process(q.processPacketQueueSize)
        , recordQueue(q.recordPacketQueueSize)
        , forward(q.forwardPacketQueueSize)
        , receiverCounters(std::make_unique<ReceiverTypeCounters[]>(types.typeCount()))
        , routerCounters(std::make_unique<RouterTypeCounters[]>(types.typeCount()))
        , processorCounters(std::make_unique<ProcessorTypeCounters[]>(types.typeCount()))
        , recorderCounters(std::make_unique<RecorderTypeCounters[]>(types.typeCount()))
        , forwarderCounters(std::make_unique<ForwarderTypeCounters[]>(types.typeCount()))
        , apidSequence(std::make_unique<ApidSequence[]>(ccsds::kApidCount))
        , values(std::make_unique<CurrentValueTable>(types))
        , segmentRecorded(types.typeCount())
    {
        idleState = p.enabled ? "stopped" : "disabled";
    }

    std::uint16_t id;
    config::StreamProfile profile; // as created (source, transport header); settings live in the master table
    io::Endpoint endpoint;
    std::uint32_t transportHeaderBytes;
    bool playback() const noexcept { return endpoint.scheme == io::Scheme::File; }

    // `source` is replaced only while the receiver thread is not running (controlling thread); the
    // mutex keeps snapshot() and friends, which may run on any thread, from reading it meanwhile.
    std::unique_ptr<Source> source;
    mutable std::mutex sourceMutex;
    std::string idleState; // the state shown while there is no source: disabled, stopped, error: why
    std::thread thread;
    std::atomic<bool> running{false};
    std::atomic<bool> stopRequested{false};
    std::atomic<bool> paused{false};

    PacketQueue network, process, recordQueue, forward;
    Counter routed{0}; // router: packets taken from the network queue and finished with
    Counter poolDrops{0};

    std::unique_ptr<ReceiverTypeCounters[]> receiverCounters;
    std::unique_ptr<RouterTypeCounters[]> routerCounters;
    std::unique_ptr<ProcessorTypeCounters[]> processorCounters;
    std::unique_ptr<RecorderTypeCounters[]> recorderCounters;
    std::unique_ptr<ForwarderTypeCounters[]> forwarderCounters;
    std::unique_ptr<ApidSequence[]> apidSequence;
    ApidSequence sequenceTotal; // router
    ccsds::SequenceTracker tracker; // router thread only
    std::unique_ptr<CurrentValueTable> values;

    // Recorder thread only.
    std::unique_ptr<record::StreamRecorder> recorder;
    bool recorderFailed = false;
    // Packets and bytes per type recorded into the current segment: if a write fails, what the
    // writer had buffered is lost and moves from "recorded" to "record errors".
    std::vector<std::pair<std::uint64_t, std::uint64_t>> segmentRecorded;
    std::uint64_t segmentRollovers = 0;
};

// ---- Impl -------------------------------------------------------------------------------------------------

struct Station::Impl {
    Impl(mdb::MissionDatabase database, PacketTypeTable table, const StationOptions& o)
        : db(std::move(database)), types(std::move(table)), options(o), pool(std::make_shared<PacketPool>(o.pool))
    {
    }

    mdb::MissionDatabase db;
    PacketTypeTable types;
    StationOptions options;
    std::shared_ptr<PacketPool> pool;
    std::vector<std::unique_ptr<Stream>> streams;
    std::chrono::steady_clock::time_point started = std::chrono::steady_clock::now();

    // Settings: the master copy (under the mutex), versioned; workers refresh their copies between
    // batches when the version moved.
    mutable std::mutex settingsMutex;
    config::StationProfile profile;
    std::vector<std::vector<TypeSettings>> settings; // [stream][type]
    std::vector<std::string> destinations;          // forward destination URLs; index = mask bit
    std::atomic<std::uint64_t> settingsVersion{1};

    // Subscriptions: the master lists (under the mutex), versioned like the settings.
    mutable std::mutex subscriptionMutex;
    std::vector<std::shared_ptr<PacketSubscriptionQueue>> packetSubscriptions;
    std::vector<std::shared_ptr<ParameterSubscriptionQueue>> parameterSubscriptions;
    std::atomic<std::uint64_t> subscriptionVersion{1};

    // Events.
    mutable std::mutex eventMutex;
    std::deque<StationEvent> eventLog;
    std::uint64_t eventCount = 0;

    // Recording (the catalog is used by the recorder thread only once open).
    std::unique_ptr<record::RecordingCatalog> catalog;
    bool catalogFailed = false;
    mutable std::mutex recordingStateMutex;
    std::string recordingState = "off";
    std::atomic<std::uint64_t> recordingErrors{0};

    // Forwarding: per destination numbers the forwarder publishes (its Senders are its own).
    struct DestinationView {
        Counter packets{0}, bytes{0}, notSent{0}, connects{0}, disconnects{0};
        std::atomic<bool> connected{false};
        std::string state = "not opened"; // under destinationMutex
    };
    mutable std::mutex destinationMutex;
    std::array<DestinationView, kMaxDestinations> destinationViews;

    // Threads.
    std::atomic<bool> sourcesDone{false}; // every receiver thread has ended
    std::atomic<bool> routerDone{false};
    std::atomic<bool> isRunning{false};
    Doorbell routerBell, processorBell, recorderBell, forwarderBell;
    std::thread router, processor, recorder, forwarder;

    void event(EventSeverity severity, std::string stream, std::string text);
    [[nodiscard]] std::vector<std::uint16_t> definedApids() const
    {
        std::vector<std::uint16_t> apids;
        for (std::uint32_t t = 1; t < types.typeCount(); ++t)
            apids.push_back(types.definition(t).apid);
        return apids;
    }
    // The largest packet the mission database defines (the bound for TCP framing).
    [[nodiscard]] std::size_t largestPacket() const
    {
        std::size_t largest = 0;
        for (std::uint32_t t = 1; t < types.typeCount(); ++t)
            largest = std::max<std::size_t>(largest, types.maxPacketBytes(t));
        return largest > 0 ? largest : ccsds::kMaxPacketSize;
    }
    void setRecordingState(std::string state);

    std::uint32_t destinationIndex(const std::string& url); // settingsMutex held
    TypeSettings toTypeSettings(ProcessingMode mode, bool record, const std::vector<std::string>& forward);

    void receiverLoop(Stream& s);
    void startReceiver(Stream& s); // s.source is open
    void stopReceiver(Stream& s);
    void setEnabled(Stream& s, bool enabled);
    [[nodiscard]] Stream* findStream(std::string_view name) const;
    void routerLoop();
    std::size_t routeBatch(Stream& s, const std::vector<TypeSettings>& settings);
    void processorLoop();
    void recorderLoop();
    void forwarderLoop();

    template <typename Service, typename HasWork>
    void workerLoop(Doorbell& bell, const std::atomic<bool>& upstreamDone, Service&& service, HasWork&& hasWork);
    // The loop of a worker that services one queue of every stream: `before()` once per round (settings
    // refresh), `handle(stream, batch)` for each batch taken; ends when the router has ended and the
    // queues are empty.
    template <typename Before, typename Handle>
    void queueWorkerLoop(Doorbell& bell, PacketQueue Stream::*queue, Before&& before, Handle&& handle);
    [[nodiscard]] bool anyQueued(PacketQueue Stream::*queue) const noexcept;
};

void Station::Impl::event(EventSeverity severity, std::string stream, std::string text)
{
    switch (severity) {
    case EventSeverity::Info:
        spdlog::info("{}{}{}", stream, stream.empty() ? "" : ": ", text);
        break;
    case EventSeverity::Warning:
        spdlog::warn("{}{}{}", stream, stream.empty() ? "" : ": ", text);
        break;
    case EventSeverity::Error:
        spdlog::error("{}{}{}", stream, stream.empty() ? "" : ": ", text);
        break;
    }
    std::lock_guard lock(eventMutex);
    eventLog.push_back(StationEvent{++eventCount, realtimeNs(), severity, std::move(stream), std::move(text)});
    if (eventLog.size() > kMaxEvents)
        eventLog.pop_front();
}

void Station::Impl::setRecordingState(std::string state)
{
    std::lock_guard lock(recordingStateMutex);
    recordingState = std::move(state);
}

std::uint32_t Station::Impl::destinationIndex(const std::string& url)
{
    const auto it = std::find(destinations.begin(), destinations.end(), url);
    if (it != destinations.end())
        return static_cast<std::uint32_t>(it - destinations.begin());
    destinations.push_back(url);
    return static_cast<std::uint32_t>(destinations.size() - 1);
}

TypeSettings Station::Impl::toTypeSettings(ProcessingMode mode, bool record, const std::vector<std::string>& forward)
{
    TypeSettings t;
    t.mode = mode;
    t.record = record;
    for (const auto& url : forward)
        t.forwardMask |= std::uint64_t{1} << destinationIndex(url);
    return t;
}

// Sleeps when there is nothing to do; ends when the upstream has ended and the queues are empty.
template <typename Service, typename HasWork>
void Station::Impl::workerLoop(Doorbell& bell, const std::atomic<bool>& upstreamDone, Service&& service, HasWork&& hasWork)
{
    for (;;) {
        if (service() > 0)
            continue;
        // Read "upstream done" before the last look at the queues: anything pushed before it was set
        // is then visible to that look.
        const bool finishing = upstreamDone.load(std::memory_order_acquire);
        const std::uint32_t ticket = bell.prepare();
        if (hasWork()) {
            bell.cancel();
            continue;
        }
        if (finishing) {
            bell.cancel();
            return;
        }
        bell.wait(ticket, options.pollTimeout);
    }
}

bool Station::Impl::anyQueued(PacketQueue Stream::*queue) const noexcept
{
    for (const auto& s : streams)
        if (((*s).*queue).ring.size() > 0)
            return true;
    return false;
}

template <typename Before, typename Handle>
void Station::Impl::queueWorkerLoop(Doorbell& bell, PacketQueue Stream::*queue, Before&& before, Handle&& handle)
{
    std::array<PacketHandle, kBatch> batch{};
    workerLoop(
        bell, routerDone,
        [&] {
            before();
            std::size_t work = 0;
            for (auto& s : streams) {
                PacketQueue& q = (*s).*queue;
                const std::size_t n = q.ring.popBatch(batch);
                if (n == 0)
                    continue;
                handle(*s, std::span<const PacketHandle>(batch.data(), n));
                bump(q.done, n);
                work += n;
            }
            return work;
        },
        [&] { return anyQueued(queue); });
}

// ---- Receiving ----------------------------------------------------------------------------------------

namespace {

// Takes frames from a source into pool slots and pushes them, a batch at a time, into the stream's
// network packet queue. A live source never waits: a full queue drops the newest packets (counted
// against the queue and their packet type). A playback source waits for room instead (nothing is lost
// by replaying faster than the station can take).
class StreamSink final : public io::PacketSink {
public:
    StreamSink(Stream& stream, PacketPool& pool, const PacketTypeTable& types, Doorbell& bell, const std::atomic<bool>& stop)
        : m_stream(stream), m_pool(pool), m_types(types), m_bell(bell), m_stop(stop)
    {
    }

    void onPacket(std::span<const std::uint8_t> frame, std::int64_t receiveTimeNs) override
    {
        const PacketHandle h = m_pool.acquire(frame.size());
        if (h == kNoPacket) {
            bump(m_stream.poolDrops);
            return;
        }
        std::memcpy(m_pool.storage(h).data(), frame.data(), frame.size());
        PacketMeta& meta = m_pool.meta(h);
        meta.receiveTimeNs = receiveTimeNs;
        meta.length = static_cast<std::uint32_t>(frame.size());
        meta.streamId = m_stream.id;
        meta.transportHeaderBytes = static_cast<std::uint16_t>(m_stream.transportHeaderBytes);
        m_batch[m_count++] = h;
        if (m_count == m_batch.size())
            flush();
    }
    void onBatchEnd() override { flush(); }

private:
    void flush()
    {
        std::size_t first = 0;
        while (first < m_count) {
            const std::span<const PacketHandle> rest(m_batch.data() + first, m_count - first);
            const std::size_t pushed = m_stream.network.tryPushBatch(rest);
            first += pushed;
            if (pushed > 0)
                m_bell.ring();
            if (first == m_count)
                break;
            if (m_stream.playback() && !m_stop.load(std::memory_order_relaxed)) {
                std::this_thread::sleep_for(100us); // wait for the router to make room
                continue;
            }
            // Dropped: count each against its packet type.
            for (std::size_t i = first; i < m_count; ++i) {
                const PacketHandle h = m_batch[i];
                const auto bytes = m_pool.bytes(h);
                const std::size_t skip = m_stream.transportHeaderBytes;
                const std::uint32_t type = bytes.size() > skip ? m_types.classify(bytes.subspan(skip)) : kUnknownType;
                bump(m_stream.receiverCounters[type].networkDrops);
                bump(m_stream.receiverCounters[type].networkDropBytes, bytes.size());
                m_pool.release(h);
            }
            bump(m_stream.network.drops, m_count - first);
            break;
        }
        m_count = 0;
    }

    Stream& m_stream;
    PacketPool& m_pool;
    const PacketTypeTable& m_types;
    Doorbell& m_bell;
    const std::atomic<bool>& m_stop;
    std::array<PacketHandle, kBatch> m_batch{};
    std::size_t m_count = 0;
};

} // namespace

void Station::Impl::receiverLoop(Stream& s)
{
    StreamSink sink(s, *pool, types, routerBell, s.stopRequested);
    bool reportedEnd = false;
    std::uint64_t connects = 0, disconnects = 0;
    std::optional<std::chrono::steady_clock::time_point> pausedSince;
    while (!s.stopRequested.load(std::memory_order_relaxed)) {
        if (s.paused.load(std::memory_order_relaxed)) {
            if (!pausedSince)
                pausedSince = std::chrono::steady_clock::now();
            std::this_thread::sleep_for(std::min<std::chrono::milliseconds>(options.pollTimeout, 20ms));
            continue;
        }
        if (pausedSince) {
            s.source->resumed(std::chrono::steady_clock::now() - *pausedSince);
            pausedSince.reset();
        }
        s.source->poll(options.pollTimeout, sink);
        // Connections made and lost become operator events (TCP sources; a few loads per poll).
        const io::ReceiverStats rs = s.source->stats();
        if (rs.connects != connects || rs.disconnects != disconnects) {
            if (rs.connects > connects)
                event(EventSeverity::Info, s.profile.name, s.source->state());
            if (rs.disconnects > disconnects)
                event(EventSeverity::Warning, s.profile.name,
                      "connection ended (" + std::to_string(rs.disconnects) + " so far); " + s.source->state());
            connects = rs.connects;
            disconnects = rs.disconnects;
        }
        if (!reportedEnd && s.source->finished()) {
            reportedEnd = true;
            event(EventSeverity::Info, s.profile.name, "playback finished");
        }
    }
    s.running.store(false);
}

// ---- Router -------------------------------------------------------------------------------------------

std::size_t Station::Impl::routeBatch(Stream& s, const std::vector<TypeSettings>& typeSettings)
{
    std::array<PacketHandle, kBatch> in{};
    std::size_t limit = kBatch;
    if (s.playback()) {
        // Take only what every downstream queue has room for: playback is never dropped.
        const auto room = [](const PacketQueue& q) { return q.ring.capacity() - std::min(q.ring.capacity(), q.ring.size()); };
        limit = std::min({limit, room(s.process), room(s.recordQueue), room(s.forward)});
    }
    const std::size_t n = s.network.ring.popBatch(std::span<PacketHandle>(in.data(), limit));
    if (n == 0)
        return 0;

    std::array<PacketHandle, kBatch> toProcess{}, toRecord{}, toForward{};
    std::size_t nProcess = 0, nRecord = 0, nForward = 0;
    const std::size_t skip = s.transportHeaderBytes;
    const ccsds::HeaderPolicy policy{ccsds::PacketType::Telemetry, false, false, false, true};

    for (std::size_t i = 0; i < n; ++i) {
        const PacketHandle h = in[i];
        PacketMeta& meta = pool->meta(h);
        const auto frame = pool->bytes(h);
        const auto packet = frame.size() > skip ? frame.subspan(skip) : std::span<const std::uint8_t>{};
        const ccsds::HeaderCheck check = ccsds::checkPrimaryHeader(packet, policy);
        const std::uint32_t type = packet.size() >= ccsds::kPrimaryHeaderSize ? types.classify(packet) : kUnknownType;
        meta.apid = check.header.apid;
        meta.typeIndex = type;
        RouterTypeCounters& rc = s.routerCounters[type];
        bump(rc.received);
        bump(rc.bytes, frame.size());
        rc.lastReceiveTimeNs.store(meta.receiveTimeNs, std::memory_order_relaxed);

        bool malformed = !check.ok();
        if (!malformed && type != kUnknownType) {
            const auto& def = types.definition(type);
            malformed = def.variableLength ? (packet.size() < def.length || packet.size() > std::max(def.maxLength, def.length))
                                           : packet.size() != def.length;
            if (malformed && def.variableLength && packet.size() < def.length) [[unlikely]]
                bump(rc.shortPackets); // shorter than the shortest its layout can be
            // A fixed layout's end (or the declared length, if longer) is known here; a variable
            // layout's end when the packet is decoded.
            const auto& plan = types.plan(type);
            const std::size_t layoutEnd = std::max<std::size_t>(plan.requiredSize(), def.length);
            if (!malformed && plan.fixedLayout() && packet.size() > layoutEnd) [[unlikely]] {
                bump(rc.longPackets);
                bump(rc.extraBytes, packet.size() - layoutEnd);
            }
        }
        if (malformed) {
            bump(rc.malformed);
            meta.flags |= 1u;
            pool->release(h);
            continue;
        }
        s.tracker.track(check.header.apid, check.header.sequenceCount);
        {
            const ccsds::SequenceCounters& c = s.tracker.counters(check.header.apid);
            ApidSequence& a = s.apidSequence[check.header.apid];
            const std::uint64_t errors = c.sequenceErrors();
            if (errors != get(a.sequenceErrors)) {
                const auto delta = [](Counter& total, const Counter& was, std::uint64_t now) {
                    total.store(get(total) - get(was) + now, std::memory_order_relaxed);
                };
                delta(s.sequenceTotal.sequenceErrors, a.sequenceErrors, errors);
                delta(s.sequenceTotal.lost, a.lost, c.lost);
                delta(s.sequenceTotal.duplicates, a.duplicates, c.duplicates);
                a.sequenceErrors.store(errors, std::memory_order_relaxed);
                a.lost.store(c.lost, std::memory_order_relaxed);
                a.duplicates.store(c.duplicates, std::memory_order_relaxed);
                a.largestGap.store(c.largestGap, std::memory_order_relaxed);
                if (c.largestGap > get(s.sequenceTotal.largestGap))
                    s.sequenceTotal.largestGap.store(c.largestGap, std::memory_order_relaxed);
            } else if (c.lost != get(a.lost)) { // a late arrival reduced the loss
                s.sequenceTotal.lost.store(get(s.sequenceTotal.lost) - get(a.lost) + c.lost, std::memory_order_relaxed);
                a.lost.store(c.lost, std::memory_order_relaxed);
            }
        }
        if (type == kUnknownType)
            bump(rc.unknown);
        const TypeSettings& ts = typeSettings[type];
        if (ts.mode == ProcessingMode::Discard) {
            bump(rc.discarded);
            pool->release(h);
            continue;
        }
        meta.forwardMask = ts.forwardMask; // the forwarder follows the router's decision for this packet
        const std::uint32_t extra = (ts.record ? 1u : 0u) + (ts.forwardMask != 0 ? 1u : 0u);
        if (extra > 0)
            pool->addRef(h, extra);
        toProcess[nProcess++] = h;
        if (ts.record)
            toRecord[nRecord++] = h;
        if (ts.forwardMask != 0)
            toForward[nForward++] = h;
    }

    const auto push = [&](PacketQueue& q, std::span<const PacketHandle> items, Counter RouterTypeCounters::*drops, Doorbell& bell) {
        if (items.empty())
            return;
        const std::size_t pushed = q.pushBatch(items);
        if (pushed > 0)
            bell.ring();
        for (std::size_t i = pushed; i < items.size(); ++i) {
            bump(s.routerCounters[pool->meta(items[i]).typeIndex].*drops);
            pool->release(items[i]);
        }
    };
    push(s.process, {toProcess.data(), nProcess}, &RouterTypeCounters::processDrops, processorBell);
    push(s.recordQueue, {toRecord.data(), nRecord}, &RouterTypeCounters::recordDrops, recorderBell);
    push(s.forward, {toForward.data(), nForward}, &RouterTypeCounters::forwardDrops, forwarderBell);
    bump(s.routed, n);
    return n;
}

void Station::Impl::routerLoop()
{
    std::vector<std::vector<TypeSettings>> local;
    std::uint64_t version = 0;
    const auto refresh = [&] { refreshIfChanged(settingsVersion, version, settingsMutex, [&] { local = settings; }); };
    workerLoop(
        routerBell, sourcesDone,
        [&] {
            refresh();
            std::size_t work = 0;
            for (auto& s : streams)
                work += routeBatch(*s, local[s->id]);
            return work;
        },
        [&] { return anyQueued(&Stream::network); });
    routerDone.store(true, std::memory_order_release);
    processorBell.ring();
    recorderBell.ring();
    forwarderBell.ring();
}

// ---- Processor ----------------------------------------------------------------------------------------

void Station::Impl::processorLoop()
{
    std::vector<std::vector<TypeSettings>> local;
    std::uint64_t version = 0;
    std::vector<std::shared_ptr<PacketSubscriptionQueue>> packetSubs;
    std::vector<std::shared_ptr<ParameterSubscriptionQueue>> parameterSubs;
    std::uint64_t subVersion = 0;
    std::vector<decode::DecodedValue> values(std::max<std::uint32_t>(types.maxParametersPerPacket(), 1));
    std::vector<ParameterSample> samples(values.size());

    const auto refresh = [&] {
        refreshIfChanged(settingsVersion, version, settingsMutex, [&] { local = settings; });
        refreshIfChanged(subscriptionVersion, subVersion, subscriptionMutex, [&] {
            packetSubs = packetSubscriptions;
            parameterSubs = parameterSubscriptions;
        });
    };

    const auto processOne = [&](Stream& s, PacketHandle h) {
        const PacketMeta& meta = pool->meta(h);
        const std::uint32_t type = meta.typeIndex;
        const auto frame = pool->bytes(h);
        const auto packet = frame.subspan(std::min<std::size_t>(meta.transportHeaderBytes, frame.size()));
        ProcessorTypeCounters& pc = s.processorCounters[type];
        const ProcessingMode mode = type == kUnknownType ? ProcessingMode::PassThru : local[s.id][type].mode;
        if (mode == ProcessingMode::ProcessOnDemand) {
            s.values->keepPacket(type, packet, meta.receiveTimeNs);
        } else if (mode == ProcessingMode::ProcessEntirePacket) {
            const auto& plan = types.plan(type);
            const std::size_t count = plan.parameterCount();
            decode::LayoutReport layout;
            plan.decode(packet, std::span<decode::DecodedValue>(values.data(), count), &layout);
            if (!plan.fixedLayout()) {
                if (layout.status != decode::LayoutStatus::Complete)
                    bump(pc.layoutErrors);
                else if (packet.size() > layout.endByte()) {
                    bump(pc.longPackets);
                    bump(pc.extraBytes, packet.size() - layout.endByte());
                }
            }
            std::int64_t packetTime = 0;
            if (plan.hasPacketTime() && !plan.packetTime(packet, packetTime))
                packetTime = 0;
            s.values->publish(type, std::span<const decode::DecodedValue>(values.data(), count), packetTime, meta.receiveTimeNs);
            bump(pc.parametersDecoded, count);
            if (!parameterSubs.empty()) {
                const std::uint32_t firstId = types.firstParameterId(type);
                for (std::size_t i = 0; i < count; ++i) {
                    ParameterSample& sample = samples[i];
                    sample.parameterId = firstId + static_cast<std::uint32_t>(i);
                    sample.streamId = s.id;
                    sample.packetTimeNs = packetTime;
                    sample.receiveTimeNs = meta.receiveTimeNs;
                    sample.value = values[i];
                }
                for (const auto& sub : parameterSubs)
                    if (sub->wantsStream(s.id))
                        sub->offer(type, std::span<const ParameterSample>(samples.data(), count));
            }
        }
        for (const auto& sub : packetSubs)
            if (sub->wants(s.id, type))
                sub->offer(h);
        bump(pc.processed);
        pool->release(h);
    };

    queueWorkerLoop(processorBell, &Stream::process, refresh, [&](Stream& s, std::span<const PacketHandle> batch) {
        for (const PacketHandle h : batch)
            processOne(s, h);
    });
}

// ---- Recorder -----------------------------------------------------------------------------------------

void Station::Impl::recorderLoop()
{
    const auto openCatalog = [&] {
        if (catalog || catalogFailed)
            return;
        auto opened = record::RecordingCatalog::open(profile.recordingDirectory);
        if (!opened) {
            catalogFailed = true;
            recordingErrors.fetch_add(1, std::memory_order_relaxed);
            setRecordingState("failed: " + opened.error().toString());
            event(EventSeverity::Error, "", "recording is off: " + opened.error().toString());
            return;
        }
        catalog = std::move(*opened);
        setRecordingState("recording to " + profile.recordingDirectory);
        event(EventSeverity::Info, "", "recording to " + profile.recordingDirectory);
    };
    bool anyRecording = false;
    {
        std::lock_guard lock(settingsMutex);
        for (const auto& perStream : settings)
            for (const auto& t : perStream)
                anyRecording = anyRecording || t.record;
    }
    if (anyRecording)
        openCatalog(); // report an unwritable directory at start, not at the first packet

    // A failed write lost the writer's buffer: those packets were counted recorded, but are not on disk.
    const auto uncount = [&](Stream& s) {
        for (const auto& [apid, lost] : s.recorder->unwrittenPackets()) {
            std::uint64_t left = lost;
            for (std::uint32_t t = 0; t < types.typeCount() && left > 0; ++t) {
                if (t != kUnknownType && types.definition(t).apid != apid)
                    continue;
                auto& [packets, bytes] = s.segmentRecorded[t];
                const std::uint64_t n = std::min(left, packets);
                if (n == 0)
                    continue;
                const std::uint64_t b = bytes / packets * n; // bytes of the lost ones, on average
                RecorderTypeCounters& rc = s.recorderCounters[t];
                rc.recorded.store(get(rc.recorded) - n, std::memory_order_relaxed);
                rc.bytes.store(get(rc.bytes) - b, std::memory_order_relaxed);
                bump(rc.errors, n);
                packets -= n;
                bytes -= b;
                left -= n;
            }
        }
    };
    const auto recordOne = [&](Stream& s, PacketHandle h) {
        const PacketMeta& meta = pool->meta(h);
        RecorderTypeCounters& rc = s.recorderCounters[meta.typeIndex];
        openCatalog();
        if (catalog && !s.recorder && !s.recorderFailed) {
            auto created = record::StreamRecorder::create(*catalog, s.profile.name, s.id, profile.queues.maxRecordFileSize);
            if (created) {
                s.recorder = std::move(*created);
            } else {
                s.recorderFailed = true;
                recordingErrors.fetch_add(1, std::memory_order_relaxed);
                event(EventSeverity::Error, s.profile.name, "recording stopped: " + created.error().toString());
            }
        }
        const auto bytes = pool->bytes(h);
        if (s.recorder && !s.recorderFailed
            && s.recorder->record(record::RecordMeta{meta.receiveTimeNs, s.id, meta.apid, (meta.flags & 1u) != 0}, bytes)) {
            bump(rc.recorded);
            bump(rc.bytes, bytes.size());
            if (s.recorder->rollovers() != s.segmentRollovers) { // this packet opened a new segment
                s.segmentRollovers = s.recorder->rollovers();
                std::fill(s.segmentRecorded.begin(), s.segmentRecorded.end(), std::pair<std::uint64_t, std::uint64_t>{});
            }
            auto& [packets, total] = s.segmentRecorded[meta.typeIndex];
            ++packets;
            total += bytes.size();
        } else {
            if (s.recorder && !s.recorderFailed) {
                s.recorderFailed = true;
                uncount(s);
                recordingErrors.fetch_add(1, std::memory_order_relaxed);
                setRecordingState("failed: " + s.recorder->error());
                event(EventSeverity::Error, s.profile.name, "recording stopped: " + s.recorder->error()
                                                                + " (what was written stays readable)");
            }
            bump(rc.errors);
        }
        pool->release(h);
    };

    queueWorkerLoop(recorderBell, &Stream::recordQueue, [] {}, [&](Stream& s, std::span<const PacketHandle> batch) {
        for (const PacketHandle h : batch)
            recordOne(s, h);
    });
    for (auto& s : streams) {
        if (!s->recorder)
            continue;
        if (auto st = s->recorder->close(); !st && !s->recorderFailed) {
            s->recorderFailed = true;
            uncount(*s);
            recordingErrors.fetch_add(1, std::memory_order_relaxed);
            setRecordingState("failed: " + st.error().toString());
            event(EventSeverity::Error, s->profile.name, "closing the recording: " + st.error().toString());
        }
        s->recorder.reset();
    }
}

// ---- Forwarder ----------------------------------------------------------------------------------------

void Station::Impl::forwarderLoop()
{
    struct Destination {
        std::string url;
        std::unique_ptr<io::Sender> sender;
        std::chrono::steady_clock::time_point retryAt{};
        enum class Link : std::uint8_t { Unknown, Up, Down } link = Link::Unknown;
        std::string lastState;
    };
    std::vector<Destination> dests;
    std::uint64_t version = 0;
    const auto refresh = [&] { // new destinations (the packets carry the router's choice)
        refreshIfChanged(settingsVersion, version, settingsMutex, [&] {
            for (std::size_t i = dests.size(); i < destinations.size(); ++i)
                dests.push_back(Destination{destinations[i], nullptr, {}, Destination::Link::Unknown, {}});
        });
    };
    const auto ensureOpen = [&](std::size_t index) -> io::Sender* {
        Destination& d = dests[index];
        if (d.sender)
            return d.sender.get();
        const auto now = std::chrono::steady_clock::now();
        if (now < d.retryAt)
            return nullptr;
        auto endpoint = io::parseEndpoint(d.url);
        io::SenderOptions o;
        o.blocking = false; // never let a slow destination stall the others
        auto sender = endpoint ? io::openSender(*endpoint, o) : Result<std::unique_ptr<io::Sender>>(endpoint.error());
        if (!sender) {
            d.retryAt = now + 5s;
            event(EventSeverity::Error, "", "forward to " + d.url + ": " + sender.error().toString() + " (retrying in 5 s)");
            std::lock_guard lock(destinationMutex);
            destinationViews[index].state = "error: " + sender.error().message;
            return nullptr;
        }
        d.sender = std::move(*sender);
        return d.sender.get();
    };
    const auto publish = [&](std::size_t index, bool withState) {
        Destination& d = dests[index];
        if (!d.sender)
            return;
        DestinationView& v = destinationViews[index];
        const io::SenderStats& st = d.sender->stats();
        v.packets.store(st.packets, std::memory_order_relaxed);
        v.bytes.store(st.bytes, std::memory_order_relaxed);
        v.notSent.store(st.notSent, std::memory_order_relaxed);
        v.connects.store(st.connects, std::memory_order_relaxed);
        v.disconnects.store(st.disconnects, std::memory_order_relaxed);
        const bool connected = d.sender->connected();
        v.connected.store(connected, std::memory_order_relaxed);
        // Up when connected; down when it was up, or when it has never been up and packets for it
        // could not be sent (a destination that is down from the start is reported too).
        using Link = Destination::Link;
        if (connected && d.link != Link::Up) {
            d.link = Link::Up;
            event(EventSeverity::Info, "", "forward destination " + d.url + " is up");
        } else if (!connected && (d.link == Link::Up || (d.link == Link::Unknown && st.notSent > 0))) {
            d.link = Link::Down;
            event(EventSeverity::Warning, "", "forward destination " + d.url + " is down");
        }
        if (!withState)
            return;
        std::string state = d.sender->state(); // allocates: only on the periodic refresh
        if (state != d.lastState) {
            d.lastState = state;
            std::lock_guard lock(destinationMutex);
            v.state = std::move(state);
        }
    };

    std::array<std::span<const std::uint8_t>, kBatch> spans{};
    std::array<std::uint32_t, kBatch> typesOf{};
    auto lastPublish = std::chrono::steady_clock::now();

    const auto sendBatch = [&](Stream& s, std::span<const PacketHandle> batch) {
        std::uint64_t used = 0;
        for (const PacketHandle h : batch)
            used |= pool->meta(h).forwardMask;
        while (used != 0) {
            const auto d = static_cast<std::size_t>(std::countr_zero(used));
            used &= used - 1;
            const std::uint64_t bit = std::uint64_t{1} << d;
            std::size_t m = 0;
            for (const PacketHandle h : batch) {
                const PacketMeta& meta = pool->meta(h);
                if (meta.forwardMask & bit) {
                    spans[m] = pool->bytes(h);
                    typesOf[m++] = meta.typeIndex;
                }
            }
            io::Sender* sender = d < dests.size() ? ensureOpen(d) : nullptr;
            const std::size_t sent = sender ? sender->send(std::span(spans.data(), m)) : 0;
            // Senders send in order and stop at the first packet they cannot send.
            for (std::size_t i = 0; i < m; ++i) {
                ForwarderTypeCounters& fc = s.forwarderCounters[typesOf[i]];
                if (i < sent) {
                    bump(fc.forwarded);
                    bump(fc.bytes, spans[i].size());
                } else {
                    bump(fc.errors);
                }
            }
            if (d < dests.size())
                publish(d, false);
        }
        for (const PacketHandle h : batch)
            pool->release(h);
    };
    const auto beforeRound = [&] {
        refresh();
        // Senders connect and reconnect on send calls; keep idle TCP destinations moving too.
        const auto now = std::chrono::steady_clock::now();
        if (now - lastPublish < 200ms)
            return;
        lastPublish = now;
        for (std::size_t d = 0; d < dests.size(); ++d) {
            if (io::Sender* sender = ensureOpen(d)) {
                if (!sender->connected())
                    (void)sender->send({});
                publish(d, true);
            }
        }
    };
    queueWorkerLoop(forwarderBell, &Stream::forward, beforeRound, sendBatch);
}

// ---- Station ------------------------------------------------------------------------------------------

Station::Station(std::unique_ptr<Impl> impl) : m_impl(std::move(impl)) {}

Station::~Station()
{
    stop();
}

Result<std::unique_ptr<Station>> Station::create(const config::StationProfile& profile, mdb::MissionDatabase db,
                                                 const StationOptions& options)
{
    auto table = PacketTypeTable::build(db);
    if (!table)
        return Error{"mission database: " + table.error().message, {}};
    auto impl = std::make_unique<Impl>(std::move(db), std::move(*table), options);
    impl->profile = profile;
    std::string problems;
    const auto problem = [&](const std::string& text) { problems += (problems.empty() ? "" : "\n") + text; };

    for (std::size_t si = 0; si < profile.streams.size(); ++si) {
        const auto& sp = profile.streams[si];
        const std::string where = "stream " + sp.name;
        auto endpoint = io::parseEndpoint(sp.source);
        if (!endpoint) {
            problem(where + ": " + endpoint.error().message);
            continue;
        }
        auto stream = std::make_unique<Stream>(static_cast<std::uint16_t>(impl->streams.size()), sp, std::move(*endpoint),
                                               profile.queues, impl->types);
        std::vector<TypeSettings> perType(impl->types.typeCount());
        perType[kUnknownType] = impl->toTypeSettings(sp.unknownMode, sp.recordUnknown, sp.forwardUnknown);
        // APID-only settings first, then (APID, secondary id), then by name: the more specific win
        // (setting_resolver.hpp).
        for (const SettingScope scope : {SettingScope::Apid, SettingScope::SecondaryId, SettingScope::Packet}) {
            for (const auto& ps : sp.packets) {
                if (scopeOf(ps) != scope)
                    continue;
                const auto types = typesOf(impl->types, ps);
                if (types.empty()) {
                    problem(where + ": " + describeKey(ps) + " has no packet definition in the mission database");
                    continue;
                }
                for (const std::uint32_t type : types)
                    perType[type] = impl->toTypeSettings(ps.mode, ps.record, ps.forward);
            }
        }
        impl->settings.push_back(std::move(perType));
        impl->streams.push_back(std::move(stream));
    }
    for (const auto& url : impl->destinations)
        if (auto e = io::parseEndpoint(url); !e || e->scheme == io::Scheme::File)
            problem("forward destination " + url + ": " + (e ? "file:// cannot be a destination" : e.error().message));
    if (impl->destinations.size() > kMaxDestinations)
        problem("more than " + std::to_string(kMaxDestinations) + " forward destinations");
    if (!problems.empty())
        return Error{problems, {}};
    return std::unique_ptr<Station>(new Station(std::move(impl)));
}

Status Station::start()
{
    Impl& d = *m_impl;
    if (d.isRunning.load())
        return {};
    std::string problems;
    for (auto& s : d.streams) {
        if (!s->profile.enabled)
            continue;
        auto source = openSource(s->endpoint, s->transportHeaderBytes, d.options.receiveBufferBytes, d.largestPacket(),
                                 d.definedApids());
        std::lock_guard lock(s->sourceMutex);
        if (!source) {
            problems += (problems.empty() ? "" : "\n") + ("stream " + s->profile.name + ": " + source.error().message);
            s->idleState = "error: " + source.error().message;
            continue;
        }
        s->source = std::move(*source);
    }
    if (!problems.empty()) {
        for (auto& s : d.streams) {
            std::lock_guard lock(s->sourceMutex);
            s->source.reset();
        }
        return Error{problems, {}};
    }
    d.sourcesDone = false;
    d.routerDone = false;
    d.started = std::chrono::steady_clock::now();
    d.router = std::thread([&d] { d.routerLoop(); });
    d.processor = std::thread([&d] { d.processorLoop(); });
    d.recorder = std::thread([&d] { d.recorderLoop(); });
    d.forwarder = std::thread([&d] { d.forwarderLoop(); });
    for (auto& s : d.streams) {
        if (!s->source)
            continue;
        d.startReceiver(*s);
    }
    d.isRunning = true;
    return {};
}

void Station::Impl::startReceiver(Stream& s)
{
    s.stopRequested = false;
    s.paused = false;
    s.running = true;
    event(EventSeverity::Info, s.profile.name, s.source->state());
    s.thread = std::thread([this, &s] { receiverLoop(s); });
}

void Station::Impl::stopReceiver(Stream& s)
{
    s.stopRequested = true;
    if (s.thread.joinable())
        s.thread.join();
}

void Station::Impl::setEnabled(Stream& s, bool enabled)
{
    s.profile.enabled = enabled;
    std::lock_guard lock(settingsMutex);
    profile.streams.at(s.id).enabled = enabled;
}

Stream* Station::Impl::findStream(std::string_view name) const
{
    for (const auto& s : streams)
        if (s->profile.name == name)
            return s.get();
    return nullptr;
}

Status Station::startStream(std::string_view stream)
{
    Impl& d = *m_impl;
    Stream* s = d.findStream(stream);
    if (!s)
        return Error{"no stream named " + std::string(stream), {}};
    d.setEnabled(*s, true); // the operator's intent, kept even when the source fails to open
    if (!d.isRunning.load()) {
        std::lock_guard lock(s->sourceMutex);
        s->idleState = "stopped";
        return {}; // start() opens it
    }
    if (s->thread.joinable())
        return {};
    auto source = openSource(s->endpoint, s->transportHeaderBytes, d.options.receiveBufferBytes, d.largestPacket(),
                             d.definedApids());
    {
        std::lock_guard lock(s->sourceMutex);
        if (!source) {
            s->idleState = "error: " + source.error().message;
        } else {
            s->source = std::move(*source);
            s->idleState.clear();
        }
    }
    if (!source) {
        d.event(EventSeverity::Error, s->profile.name, "cannot start: " + source.error().message);
        return Error{"stream " + s->profile.name + ": " + source.error().message, {}};
    }
    d.startReceiver(*s);
    return {};
}

Status Station::stopStream(std::string_view stream)
{
    Impl& d = *m_impl;
    Stream* s = d.findStream(stream);
    if (!s)
        return Error{"no stream named " + std::string(stream), {}};
    d.setEnabled(*s, false);
    const bool wasRunning = s->thread.joinable();
    d.stopReceiver(*s);
    s->paused = false;
    {
        std::lock_guard lock(s->sourceMutex);
        s->source.reset();
        s->idleState = "stopped";
    }
    if (wasRunning)
        d.event(EventSeverity::Info, s->profile.name, "stopped by the operator");
    return {};
}

Status Station::pauseStream(std::string_view stream, bool paused)
{
    Impl& d = *m_impl;
    Stream* s = d.findStream(stream);
    if (!s)
        return Error{"no stream named " + std::string(stream), {}};
    {
        std::lock_guard lock(s->sourceMutex);
        if (!s->source || !s->running.load())
            return Error{"stream " + s->profile.name + " is not running", {}};
        if (!s->source->pausable())
            return Error{"stream " + s->profile.name
                             + " is live: only playback can be paused (stop it instead; a paused socket would drop)",
                         {}};
    }
    if (s->paused.exchange(paused) != paused)
        d.event(EventSeverity::Info, s->profile.name, paused ? "playback paused" : "playback resumed");
    return {};
}

bool Station::streamRunning(std::string_view stream) const
{
    const Stream* s = m_impl->findStream(stream);
    return s && s->running.load();
}

bool Station::streamPaused(std::string_view stream) const
{
    const Stream* s = m_impl->findStream(stream);
    return s && s->paused.load();
}

void Station::stop()
{
    Impl& d = *m_impl;
    if (!d.isRunning.exchange(false))
        return;
    for (auto& s : d.streams)
        s->stopRequested = true;
    for (auto& s : d.streams)
        d.stopReceiver(*s);
    d.sourcesDone.store(true, std::memory_order_release);
    d.routerBell.ring();
    d.router.join();
    d.processor.join();
    d.recorder.join();
    d.forwarder.join();
    for (auto& s : d.streams) {
        std::lock_guard lock(s->sourceMutex);
        if (s->source)
            s->idleState = "stopped";
        s->source.reset();
        s->paused = false;
    }
    d.event(EventSeverity::Info, "", "station stopped");
}

bool Station::running() const noexcept
{
    return m_impl->isRunning.load();
}

bool Station::idle() const noexcept
{
    for (const auto& s : m_impl->streams) {
        if (get(s->network.pushed) != get(s->routed))
            return false;
        if (!s->process.drained() || !s->recordQueue.drained() || !s->forward.drained())
            return false;
    }
    return true;
}

bool Station::waitIdle(std::chrono::milliseconds timeout) const
{
    const auto deadline = std::chrono::steady_clock::now() + timeout;
    while (!idle()) {
        if (std::chrono::steady_clock::now() >= deadline)
            return false;
        std::this_thread::sleep_for(1ms);
    }
    return true;
}

bool Station::playbackFinished() const noexcept
{
    bool any = false;
    for (const auto& s : m_impl->streams) {
        std::lock_guard lock(s->sourceMutex);
        if (!s->playback() || !s->source)
            continue;
        any = true;
        if (!s->source->finished())
            return false;
    }
    return any;
}

Status Station::setPacketSettings(std::string_view stream, const config::PacketSettings& given)
{
    Impl& d = *m_impl;
    config::PacketSettings settings = given;
    if (settings.byName()) { // the name alone keys it, as the profile writes it
        settings.apid = 0;
        settings.secondaryId.reset();
    }
    const auto id = streamId(stream);
    if (!id)
        return Error{"no stream named " + std::string(stream), {}};
    const auto types = typesOf(d.types, settings);
    if (types.empty()) {
        if (settings.byName())
            return Error{"stream " + std::string(stream) + ": " + describeKey(settings)
                             + " has no packet definition in the mission database",
                         {}};
        return Error{"APID " + std::to_string(settings.apid) + " has no packet definition in the mission database", {}};
    }
    if (settings.mode == ProcessingMode::Discard)
        return Error{"discard is only for unknown packets", {}};
    for (const auto& url : settings.forward)
        if (auto e = io::parseEndpoint(url); !e || e->scheme == io::Scheme::File)
            return Error{"forward destination " + url + ": " + (e ? "file:// cannot be a destination" : e.error().message), {}};
    std::lock_guard lock(d.settingsMutex);
    if (d.destinations.size() + settings.forward.size() > kMaxDestinations)
        return Error{"more than " + std::to_string(kMaxDestinations) + " forward destinations", {}};
    auto& packets = d.profile.streams[*id].packets;
    const TypeSettings applied = d.toTypeSettings(settings.mode, settings.record, settings.forward);
    auto it = std::find_if(packets.begin(), packets.end(),
                           [&](const config::PacketSettings& p) { return p.sameKey(settings); });
    if (it != packets.end()) {
        *it = settings;
    } else {
        packets.push_back(settings);
        it = packets.end() - 1;
    }
    // The types this setting names that have no more specific setting of their own.
    const auto index = static_cast<std::size_t>(it - packets.begin());
    const SettingResolver resolver(d.types, packets);
    for (const std::uint32_t type : types)
        if (resolver.applying(type) == index)
            d.settings[*id][type] = applied;
    d.settingsVersion.fetch_add(1, std::memory_order_release);
    return {};
}

Status Station::setUnknownSettings(std::string_view stream, config::ProcessingMode mode, bool record,
                                   const std::vector<std::string>& forward)
{
    Impl& d = *m_impl;
    const auto id = streamId(stream);
    if (!id)
        return Error{"no stream named " + std::string(stream), {}};
    if (mode != ProcessingMode::PassThru && mode != ProcessingMode::Discard)
        return Error{"unknown packets are passed through or discarded", {}};
    for (const auto& url : forward)
        if (auto e = io::parseEndpoint(url); !e || e->scheme == io::Scheme::File)
            return Error{"forward destination " + url + ": " + (e ? "file:// cannot be a destination" : e.error().message), {}};
    std::lock_guard lock(d.settingsMutex);
    d.settings[*id][kUnknownType] = d.toTypeSettings(mode, record, forward);
    auto& sp = d.profile.streams[*id];
    sp.unknownMode = mode;
    sp.recordUnknown = record;
    sp.forwardUnknown = forward;
    d.settingsVersion.fetch_add(1, std::memory_order_release);
    return {};
}

config::StationProfile Station::profile() const
{
    std::lock_guard lock(m_impl->settingsMutex);
    return m_impl->profile;
}

stats::StationSnapshot Station::snapshot() const
{
    const Impl& d = *m_impl;
    stats::StationSnapshot snap;
    snap.timeNs = realtimeNs();
    snap.uptimeSeconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - d.started).count();
    std::vector<std::vector<TypeSettings>> settings;
    std::vector<std::string> destinations;
    {
        std::lock_guard lock(d.settingsMutex);
        settings = d.settings;
        destinations = d.destinations;
    }
    const auto add = [](stats::PacketCounters& to, const stats::PacketCounters& from) {
        to.packetsReceived += from.packetsReceived;
        to.bytesReceived += from.bytesReceived;
        to.packetsProcessed += from.packetsProcessed;
        to.packetsRecorded += from.packetsRecorded;
        to.bytesRecorded += from.bytesRecorded;
        to.packetsForwarded += from.packetsForwarded;
        to.bytesForwarded += from.bytesForwarded;
        to.parametersDecoded += from.parametersDecoded;
        to.unknown += from.unknown;
        to.discarded += from.discarded;
        to.malformed += from.malformed;
        to.layoutErrors += from.layoutErrors;
        to.longPackets += from.longPackets;
        to.extraBytes += from.extraBytes;
        to.networkDrops += from.networkDrops;
        to.processDrops += from.processDrops;
        to.recordDrops += from.recordDrops;
        to.forwardDrops += from.forwardDrops;
        to.recordErrors += from.recordErrors;
        to.forwardErrors += from.forwardErrors;
    };
    for (const auto& sp : d.streams) {
        const Stream& s = *sp;
        stats::StreamStats ss;
        ss.name = s.profile.name;
        ss.source = s.profile.source;
        ss.running = s.running.load();
        std::lock_guard sourceLock(s.sourceMutex);
        if (s.source) {
            ss.state = s.paused.load() ? "paused; " + s.source->state() : s.source->state();
            const io::ReceiverStats rs = s.source->stats();
            ss.kernelDrops = rs.kernelDrops;
            ss.framingErrors = rs.framingErrors;
            ss.skippedBytes = rs.skippedBytes;
            ss.truncatedPackets = rs.truncatedPackets + rs.truncatedDatagrams;
            ss.connects = rs.connects;
            ss.disconnects = rs.disconnects;
            ss.progress = s.source->progress();
        } else {
            ss.state = s.idleState;
        }
        ss.poolDrops = get(s.poolDrops);
        ss.networkQueue = s.network.stats();
        ss.processQueue = s.process.stats();
        ss.recordQueue = s.recordQueue.stats();
        ss.forwardQueue = s.forward.stats();
        for (std::uint32_t t = 0; t < d.types.typeCount(); ++t) {
            stats::PacketTypeStats ts;
            stats::PacketCounters& c = ts.counters;
            const RouterTypeCounters& rc = s.routerCounters[t];
            c.networkDrops = get(s.receiverCounters[t].networkDrops);
            c.packetsReceived = get(rc.received) + c.networkDrops;
            c.bytesReceived = get(rc.bytes) + get(s.receiverCounters[t].networkDropBytes); // as packetsReceived
            c.unknown = get(rc.unknown);
            c.discarded = get(rc.discarded);
            const ProcessorTypeCounters& pc = s.processorCounters[t];
            c.malformed = get(rc.malformed) + get(pc.layoutErrors);
            c.layoutErrors = get(rc.shortPackets) + get(pc.layoutErrors);
            c.longPackets = get(rc.longPackets) + get(pc.longPackets);
            c.extraBytes = get(rc.extraBytes) + get(pc.extraBytes);
            c.processDrops = get(rc.processDrops);
            c.recordDrops = get(rc.recordDrops);
            c.forwardDrops = get(rc.forwardDrops);
            c.packetsProcessed = get(s.processorCounters[t].processed);
            c.parametersDecoded = get(s.processorCounters[t].parametersDecoded);
            c.packetsRecorded = get(s.recorderCounters[t].recorded);
            c.bytesRecorded = get(s.recorderCounters[t].bytes);
            c.recordErrors = get(s.recorderCounters[t].errors);
            c.packetsForwarded = get(s.forwarderCounters[t].forwarded);
            c.bytesForwarded = get(s.forwarderCounters[t].bytes);
            c.forwardErrors = get(s.forwarderCounters[t].errors);
            ts.lastReceiveTimeNs = rc.lastReceiveTimeNs.load(std::memory_order_relaxed);
            const TypeSettings& set = settings[s.id][t];
            ts.mode = std::string(config::toString(set.mode));
            ts.record = set.record;
            ts.forwardDestinations = static_cast<std::uint32_t>(std::popcount(set.forwardMask));
            ts.name = std::string(d.types.typeName(t));
            if (t != kUnknownType) {
                const auto& def = d.types.definition(t);
                ts.apid = def.apid;
                ts.hasSecondaryId = def.secondaryId.has_value();
                ts.secondaryId = def.secondaryId ? def.secondaryId->value : 0;
                const ApidSequence& a = s.apidSequence[def.apid];
                c.sequenceErrors = get(a.sequenceErrors);
                c.packetsLost = get(a.lost);
                c.largestGap = get(a.largestGap);
                c.duplicates = get(a.duplicates);
            }
            // Types nobody has sent and nobody configured stay out of the snapshot; the unknown type
            // is always listed.
            const bool configured = set.record || set.forwardMask != 0
                                    || set.mode != ProcessingMode::ProcessEntirePacket;
            if (t == kUnknownType || configured || c.packetsReceived > 0)
                ss.packetTypes.push_back(std::move(ts));
            add(ss.counters, c);
        }
        // Sequence numbers of the stream as a whole (unknown APIDs included; shared APIDs once).
        ss.counters.sequenceErrors = get(s.sequenceTotal.sequenceErrors);
        ss.counters.packetsLost = get(s.sequenceTotal.lost);
        ss.counters.largestGap = get(s.sequenceTotal.largestGap);
        ss.counters.duplicates = get(s.sequenceTotal.duplicates);
        if (!ss.packetTypes.empty()) {
            // The unknown type's sequence numbers: the stream's minus the defined APIDs'.
            auto& unknown = ss.packetTypes.front().counters;
            std::uint64_t errors = 0, lost = 0, dups = 0;
            std::vector<bool> seen(ccsds::kApidCount, false);
            for (std::uint32_t t = 1; t < d.types.typeCount(); ++t) {
                const auto apid = d.types.definition(t).apid;
                if (seen[apid])
                    continue;
                seen[apid] = true;
                errors += get(s.apidSequence[apid].sequenceErrors);
                lost += get(s.apidSequence[apid].lost);
                dups += get(s.apidSequence[apid].duplicates);
            }
            unknown.sequenceErrors = ss.counters.sequenceErrors - std::min(errors, ss.counters.sequenceErrors);
            unknown.packetsLost = ss.counters.packetsLost - std::min(lost, ss.counters.packetsLost);
            unknown.duplicates = ss.counters.duplicates - std::min(dups, ss.counters.duplicates);
        }
        add(snap.totals, ss.counters);
        snap.totals.sequenceErrors += ss.counters.sequenceErrors;
        snap.totals.packetsLost += ss.counters.packetsLost;
        snap.totals.duplicates += ss.counters.duplicates;
        snap.totals.largestGap = std::max(snap.totals.largestGap, ss.counters.largestGap);
        snap.streams.push_back(std::move(ss));
    }
    for (std::size_t i = 0; i < destinations.size() && i < kMaxDestinations; ++i) {
        const Impl::DestinationView& v = d.destinationViews[i];
        stats::ForwardStats f;
        f.destination = destinations[i];
        {
            std::lock_guard lock(d.destinationMutex);
            f.state = v.state;
        }
        f.connected = v.connected.load(std::memory_order_relaxed);
        f.packets = get(v.packets);
        f.bytes = get(v.bytes);
        f.notSent = get(v.notSent);
        f.connects = get(v.connects);
        f.disconnects = get(v.disconnects);
        snap.forwards.push_back(std::move(f));
    }
    {
        std::lock_guard lock(d.subscriptionMutex);
        for (const auto& sub : d.packetSubscriptions) {
            stats::ConsumerStats c;
            c.name = sub->name();
            c.kind = "packets";
            c.delivery = sub->delivery() == Delivery::EverySample ? "everySample" : "newest";
            c.queue.depth = sub->depth();
            c.queue.capacity = sub->capacity();
            c.queue.highWater = sub->highWater();
            c.queue.drops = sub->drops();
            c.delivered = sub->delivered();
            snap.consumers.push_back(std::move(c));
        }
        for (const auto& sub : d.parameterSubscriptions) {
            stats::ConsumerStats c;
            c.name = sub->name();
            c.kind = "parameters";
            c.delivery = "everySample";
            c.queue.depth = sub->depth();
            c.queue.capacity = sub->capacity();
            c.queue.highWater = sub->highWater();
            c.queue.drops = sub->drops();
            c.delivered = sub->delivered();
            snap.consumers.push_back(std::move(c));
        }
    }
    snap.recordingErrors = d.recordingErrors.load(std::memory_order_relaxed);
    {
        std::lock_guard lock(d.recordingStateMutex);
        snap.recordingState = d.recordingState;
    }
    const PoolStats ps = d.pool->stats();
    snap.poolInUse = ps.inUse;
    snap.poolCapacity = d.pool->capacity();
    {
        std::lock_guard lock(d.eventMutex);
        snap.events = d.eventCount;
    }
    return snap;
}

std::vector<StationEvent> Station::events(std::uint64_t after) const
{
    std::lock_guard lock(m_impl->eventMutex);
    std::vector<StationEvent> out;
    for (const auto& e : m_impl->eventLog)
        if (e.number > after)
            out.push_back(e);
    return out;
}

const PacketTypeTable& Station::types() const noexcept
{
    return m_impl->types;
}

const mdb::MissionDatabase& Station::database() const noexcept
{
    return m_impl->db;
}

std::optional<std::uint16_t> Station::streamId(std::string_view name) const
{
    for (const auto& s : m_impl->streams)
        if (s->profile.name == name)
            return s->id;
    return std::nullopt;
}

std::size_t Station::streamCount() const noexcept
{
    return m_impl->streams.size();
}

const std::string& Station::streamName(std::uint16_t streamId) const
{
    return m_impl->streams.at(streamId)->profile.name;
}

std::uint32_t Station::transportHeaderBytes(std::uint16_t streamId) const
{
    return m_impl->streams.at(streamId)->transportHeaderBytes;
}

config::ProcessingMode Station::mode(std::uint16_t streamId, std::uint32_t typeIndex) const
{
    std::lock_guard lock(m_impl->settingsMutex);
    return m_impl->settings.at(streamId).at(typeIndex).mode;
}

std::uint16_t Station::localPort(std::string_view stream) const
{
    const auto id = streamId(stream);
    if (!id)
        return 0;
    const auto& s = *m_impl->streams[*id];
    std::lock_guard lock(s.sourceMutex);
    return s.source ? s.source->localPort() : 0;
}

PacketPool& Station::pool() noexcept
{
    return *m_impl->pool;
}

const CurrentValueTable& Station::currentValues(std::uint16_t streamId) const
{
    return *m_impl->streams.at(streamId)->values;
}

void Station::addSubscription(std::shared_ptr<PacketSubscriptionQueue> subscription)
{
    std::lock_guard lock(m_impl->subscriptionMutex);
    m_impl->packetSubscriptions.push_back(std::move(subscription));
    m_impl->subscriptionVersion.fetch_add(1, std::memory_order_release);
}

void Station::addSubscription(std::shared_ptr<ParameterSubscriptionQueue> subscription)
{
    std::lock_guard lock(m_impl->subscriptionMutex);
    m_impl->parameterSubscriptions.push_back(std::move(subscription));
    m_impl->subscriptionVersion.fetch_add(1, std::memory_order_release);
}

void Station::removeSubscription(const PacketSubscriptionQueue* subscription)
{
    std::lock_guard lock(m_impl->subscriptionMutex);
    std::erase_if(m_impl->packetSubscriptions, [&](const auto& s) { return s.get() == subscription; });
    m_impl->subscriptionVersion.fetch_add(1, std::memory_order_release);
}

void Station::removeSubscription(const ParameterSubscriptionQueue* subscription)
{
    std::lock_guard lock(m_impl->subscriptionMutex);
    std::erase_if(m_impl->parameterSubscriptions, [&](const auto& s) { return s.get() == subscription; });
    m_impl->subscriptionVersion.fetch_add(1, std::memory_order_release);
}

} // namespace telestation::pipeline
