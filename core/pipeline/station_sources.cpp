#include "core/pipeline/station_sources.hpp"

#include "core/record/playback.hpp"

#include <algorithm>
#include <atomic>
#include <mutex>
#include <thread>

namespace telestation::pipeline {

namespace {

class LiveSource final : public Source {
public:
    explicit LiveSource(std::unique_ptr<io::Receiver> receiver) : m_receiver(std::move(receiver)) {}
    std::size_t poll(std::chrono::milliseconds timeout, io::PacketSink& sink) override { return m_receiver->poll(timeout, sink); }
    std::string state() const override { return m_receiver->state(); }
    std::uint16_t localPort() const override { return m_receiver->localPort(); }
    io::ReceiverStats stats() const override { return m_receiver->stats(); }

private:
    std::unique_ptr<io::Receiver> m_receiver;
};

// A recording played back as a stream: records reach the station with their original receive time,
// so a replay reproduces the statistics of the recorded packets. With repeat=1 the selection is opened
// again from its start each time it ends (never finished); else it ends finished.
class PlaybackStreamSource final : public Source {
public:
    // `options`: the URL's (a repeat starts at their `from`, whatever `playback` was opened from).
    PlaybackStreamSource(std::unique_ptr<record::PlaybackSource> playback, std::string path,
                         record::PlaybackOptions options)
        : m_playback(std::move(playback)), m_path(std::move(path)), m_options(std::move(options))
    {
    }

    std::size_t poll(std::chrono::milliseconds timeout, io::PacketSink& sink) override
    {
        if (m_playback->finished() && !(m_options.repeat && playAgain())) {
            std::this_thread::sleep_for(timeout); // nothing left: do not spin
            return 0;
        }
        const std::size_t n = m_playback->poll(
            timeout, [&](const record::RecordMeta& meta, std::span<const std::uint8_t> payload) {
                sink.onPacket(payload, meta.receiveTimeNs);
                m_lastNs.store(meta.receiveTimeNs, std::memory_order_relaxed);
            });
        sink.onBatchEnd();
        m_packets.store(m_packets.load(std::memory_order_relaxed) + n, std::memory_order_relaxed);
        return n;
    }
    std::string state() const override
    {
        const auto p = playbackProgress();
        std::string text = (p.finished ? "played back " : "playing back ") + m_path + " ("
                           + std::to_string(p.recordsPlayed) + " of " + std::to_string(p.recordsTotal) + " records";
        const auto passes = m_passes.load(std::memory_order_relaxed);
        if (m_options.repeat)
            text += passes > 0 ? ", repeat " + std::to_string(passes + 1) : ", repeating";
        text += ")";
        if (!p.problem.empty())
            text += "; " + p.problem;
        return text;
    }
    std::uint16_t localPort() const override { return 0; }
    io::ReceiverStats stats() const override
    {
        io::ReceiverStats s;
        s.packets = m_packets.load(std::memory_order_relaxed);
        return s;
    }
    double progress() const override { return playbackProgress().fraction(); }
    bool finished() const override
    {
        std::lock_guard lock(m_swap);
        return m_playback->finished() && !m_options.repeat;
    }
    bool pausable() const override { return true; }
    void resumed(std::chrono::nanoseconds paused) override { m_playback->shiftClock(paused); }
    std::int64_t positionNs() const override { return m_lastNs.load(std::memory_order_relaxed); }

private:
    record::PlaybackProgress playbackProgress() const
    {
        std::lock_guard lock(m_swap);
        return m_playback->progress();
    }
    // The receiver thread, at the end of a repeating playback: the selection again from its start
    // (false, and finished as it is, if the recording cannot be opened any more).
    bool playAgain()
    {
        auto again = record::PlaybackSource::open(m_path, m_options);
        if (!again)
            return false;
        std::lock_guard lock(m_swap); // progress() and state() may read m_playback from any thread
        m_playback = std::move(*again);
        m_passes.fetch_add(1, std::memory_order_relaxed);
        return true;
    }

    std::unique_ptr<record::PlaybackSource> m_playback;
    std::string m_path;
    record::PlaybackOptions m_options;
    std::atomic<std::uint64_t> m_packets{0};
    std::atomic<std::int64_t> m_lastNs{0};
    std::atomic<std::uint64_t> m_passes{0};
    mutable std::mutex m_swap;
};

} // namespace

Result<std::unique_ptr<Source>> openSource(const io::Endpoint& endpoint, std::uint32_t transportHeaderBytes,
                                           int receiveBufferBytes, std::size_t maxPacketSize,
                                           const std::vector<std::uint16_t>& knownApids, std::int64_t resumeFromNs)
{
    if (endpoint.scheme == io::Scheme::File) {
        auto options = record::playbackOptionsFromQuery(endpoint.query);
        if (!options)
            return options.error();
        record::PlaybackOptions start = *options;
        if (resumeFromNs > start.fromNs && (start.toNs == 0 || resumeFromNs <= start.toNs))
            start.fromNs = resumeFromNs;
        auto playback = record::PlaybackSource::open(endpoint.path, start);
        if (!playback)
            return playback.error();
        return std::unique_ptr<Source>(
            std::make_unique<PlaybackStreamSource>(std::move(*playback), endpoint.path, std::move(*options)));
    }
    io::ReceiverOptions options;
    options.transportHeaderBytes = transportHeaderBytes;
    options.receiveBufferBytes = receiveBufferBytes;
    options.maxPacketSize = maxPacketSize;
    options.resyncApids = knownApids;
    auto receiver = io::openReceiver(endpoint, options);
    if (!receiver)
        return receiver.error();
    return std::unique_ptr<Source>(std::make_unique<LiveSource>(std::move(*receiver)));
}

} // namespace telestation::pipeline
