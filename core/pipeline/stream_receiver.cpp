#include "core/pipeline/stream_receiver.hpp"

#include "core/common/thread_name.hpp"

#include "core/pipeline/worker.hpp"

#include <algorithm>
#include <cstring>
#include <optional>
#include <string>

namespace telestation::pipeline {

namespace {

using namespace std::chrono_literals;

constexpr int kFinalPolls = 64; // a sender that goes on sending cannot keep a stopping receiver

class StreamSink final : public io::PacketSink {
public:
    StreamSink(Stream& stream, PacketPool& pool, const PacketTypeTable& types, Doorbell& bell)
        : m_stream(stream), m_pool(pool), m_types(types), m_bell(bell)
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
            if (m_stream.playback() && !m_stream.stopRequested.load(std::memory_order_relaxed)) {
                std::this_thread::sleep_for(100us); // wait for the router to make room
                continue;
            }
            dropFrom(first);
            break;
        }
        m_count = 0;
    }
    // Dropped: each counted against its packet type.
    void dropFrom(std::size_t first)
    {
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
    }

    Stream& m_stream;
    PacketPool& m_pool;
    const PacketTypeTable& m_types;
    Doorbell& m_bell;
    std::array<PacketHandle, kBatch> m_batch{};
    std::size_t m_count = 0;
};

void receive(StationCore& core, Stream& s)
{
    StreamSink sink(s, *core.pool, core.types, core.routerBell);
    std::uint64_t connects = 0, disconnects = 0, kernelDrops = 0, framingErrors = 0, skippedBytes = 0;
    std::optional<std::chrono::steady_clock::time_point> pausedSince;
    while (!s.stopRequested.load(std::memory_order_relaxed)) {
        if (s.paused.load(std::memory_order_relaxed)) {
            if (!pausedSince)
                pausedSince = std::chrono::steady_clock::now();
            std::this_thread::sleep_for(std::min<std::chrono::milliseconds>(core.options.pollTimeout, 20ms));
            continue;
        }
        if (pausedSince) {
            s.source->resumed(std::chrono::steady_clock::now() - *pausedSince);
            pausedSince.reset();
        }
        s.source->poll(core.options.pollTimeout, sink);
        // Connections made and lost become operator events (TCP sources; a few loads per poll).
        const io::ReceiverStats rs = s.source->stats();
        if (rs.connects != connects || rs.disconnects != disconnects) {
            if (rs.connects > connects)
                core.event(events::EventKind::Stream, events::Severity::Info, s.profile.name, s.source->state(), "connection");
            if (rs.disconnects > disconnects)
                core.event(events::EventKind::Stream, events::Severity::Warning, s.profile.name,
                           "connection ended (" + std::to_string(rs.disconnects) + " so far); " + s.source->state(),
                           "connection");
            connects = rs.connects;
            disconnects = rs.disconnects;
        }
        // Loss the receiver sees: the kernel's drops (UDP) and framing errors (TCP), once per poll that
        // moved them; the event thread merges a storm.
        if (rs.kernelDrops != kernelDrops) [[unlikely]] {
            const std::uint64_t n = rs.kernelDrops - kernelDrops;
            core.event(events::EventKind::KernelDrop, events::Severity::Warning, s.profile.name,
                       std::to_string(n) + " datagrams dropped by the kernel (socket receive buffer full)", {}, n);
            kernelDrops = rs.kernelDrops;
        }
        if (rs.framingErrors != framingErrors) [[unlikely]] {
            const std::uint64_t n = rs.framingErrors - framingErrors;
            core.event(events::EventKind::FramingError, events::Severity::Warning, s.profile.name,
                       std::to_string(n) + " framing errors: no plausible packet header where one should start; "
                           + std::to_string(rs.skippedBytes - skippedBytes) + " bytes skipped to resynchronise",
                       {}, n);
            framingErrors = rs.framingErrors;
            skippedBytes = rs.skippedBytes;
        }
        if (s.source->finished()) {
            // Done stays done: the profile no longer starts it (Start plays it again from the beginning).
            core.setPlayback(s.profile.name, false, 0);
            core.event(events::EventKind::Playback, events::Severity::Info, s.profile.name,
                       "playback finished; it stays stopped until started again (from the beginning)", "finished");
            break; // stopped by itself: not running; the source stays to show its state and progress
        }
    }
    // Stopping (the stream stops, is removed or its source changes): what the socket holds already
    // arrived, so it is received and passes the queues rather than going down with the socket.
    if (!s.playback())
        for (int i = 0; i < kFinalPolls && s.source->poll(std::chrono::milliseconds(0), sink) > 0; ++i) {
        }
    s.running.store(false);
}

} // namespace

void startReceiver(StationCore& core, Stream& s)
{
    s.stopRequested = false;
    s.paused = false;
    s.running = true;
    core.event(s.playback() ? events::EventKind::Playback : events::EventKind::Stream, events::Severity::Info,
               s.profile.name, (s.playback() ? "playback started: " : "") + s.source->state(), "started");
    s.thread = std::thread([&core, &s] {
        setThreadName("ts-receiver-" + std::to_string(s.id));
        receive(core, s);
    });
}

void stopReceiver(Stream& s)
{
    s.stopRequested = true;
    if (s.thread.joinable())
        s.thread.join();
}

} // namespace telestation::pipeline
