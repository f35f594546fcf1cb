#include "core/pipeline/station_sources.hpp"

#include "core/record/playback.hpp"

#include <atomic>
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
// so a replay reproduces the statistics of the recorded packets.
class PlaybackStreamSource final : public Source {
public:
    PlaybackStreamSource(std::unique_ptr<record::PlaybackSource> playback, std::string path)
        : m_playback(std::move(playback)), m_path(std::move(path))
    {
    }
    std::size_t poll(std::chrono::milliseconds timeout, io::PacketSink& sink) override
    {
        if (m_playback->finished()) {
            std::this_thread::sleep_for(timeout); // nothing left: do not spin
            return 0;
        }
        const std::size_t n = m_playback->poll(
            timeout, [&](const record::RecordMeta& meta, std::span<const std::uint8_t> payload) {
                sink.onPacket(payload, meta.receiveTimeNs);
            });
        sink.onBatchEnd();
        m_packets.store(m_packets.load(std::memory_order_relaxed) + n, std::memory_order_relaxed);
        return n;
    }
    std::string state() const override
    {
        const auto p = m_playback->progress();
        std::string text = (p.finished ? "played back " : "playing back ") + m_path + " ("
                           + std::to_string(p.recordsPlayed) + " of " + std::to_string(p.recordsTotal) + " records)";
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
    double progress() const override { return m_playback->progress().fraction(); }
    bool finished() const override { return m_playback->finished(); }
    bool pausable() const override { return true; }
    void resumed(std::chrono::nanoseconds paused) override { m_playback->shiftClock(paused); }

private:
    std::unique_ptr<record::PlaybackSource> m_playback;
    std::string m_path;
    std::atomic<std::uint64_t> m_packets{0};
};

} // namespace

Result<std::unique_ptr<Source>> openSource(const io::Endpoint& endpoint, std::uint32_t transportHeaderBytes,
                                           int receiveBufferBytes, std::size_t maxPacketSize,
                                           const std::vector<std::uint16_t>& knownApids)
{
    if (endpoint.scheme == io::Scheme::File) {
        auto options = record::playbackOptionsFromQuery(endpoint.query);
        if (!options)
            return options.error();
        auto playback = record::PlaybackSource::open(endpoint.path, *options);
        if (!playback)
            return playback.error();
        return std::unique_ptr<Source>(std::make_unique<PlaybackStreamSource>(std::move(*playback), endpoint.path));
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
