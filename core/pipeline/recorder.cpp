#include "core/pipeline/recorder.hpp"

#include <algorithm>

namespace telestation::pipeline {

Recorder::Recorder(StationCore& core) : QueueWorker(core, core.recorderBell, &Stream::recordQueue)
{
    m_streams.resize(core.streams.size());
    for (auto& r : m_streams)
        r.segment.resize(core.types.typeCount());
}

Recorder::~Recorder() = default;

void Recorder::starting()
{
    bool anyRecording = false;
    {
        std::lock_guard lock(m_core.settings.mutex);
        for (const auto& perStream : m_core.settings.perType)
            for (const auto& t : perStream)
                anyRecording = anyRecording || t.record;
    }
    if (anyRecording)
        openCatalog();
}

void Recorder::openCatalog()
{
    if (m_catalog || m_catalogFailed)
        return;
    const std::string& directory = m_core.settings.profile.recordingDirectory; // fixed once created
    auto opened = record::RecordingCatalog::open(directory);
    if (!opened) {
        m_catalogFailed = true;
        m_core.recording.errors.fetch_add(1, std::memory_order_relaxed);
        m_core.recording.setState("failed: " + opened.error().toString());
        m_core.event(EventSeverity::Error, "", "recording is off: " + opened.error().toString());
        return;
    }
    m_catalog = std::move(*opened);
    m_core.recording.setState("recording to " + directory);
    m_core.event(EventSeverity::Info, "", "recording to " + directory);
}

void Recorder::handle(Stream& stream, std::span<const PacketHandle> batch)
{
    StreamRecording& r = m_streams[stream.id];
    for (const PacketHandle h : batch)
        record(stream, r, h);
}

void Recorder::record(Stream& s, StreamRecording& r, PacketHandle h)
{
    PacketPool& pool = *m_core.pool;
    const PacketMeta& meta = pool.meta(h);
    RecorderTypeCounters& rc = s.recorderCounters[meta.typeIndex];
    openCatalog();
    if (m_catalog && !r.recorder && !r.failed) {
        auto created = record::StreamRecorder::create(*m_catalog, s.profile.name, s.id,
                                                      m_core.settings.profile.queues.maxRecordFileSize);
        if (created) {
            r.recorder = std::move(*created);
        } else {
            r.failed = true;
            m_core.recording.errors.fetch_add(1, std::memory_order_relaxed);
            m_core.event(EventSeverity::Error, s.profile.name, "recording stopped: " + created.error().toString());
        }
    }
    const auto bytes = pool.bytes(h);
    if (r.recorder && !r.failed && r.recorder->record(record::RecordMeta{meta.receiveTimeNs, s.id, meta.apid}, bytes)) {
        bump(rc.recorded);
        bump(rc.bytes, bytes.size());
        if (r.recorder->rollovers() != r.rollovers) { // this packet opened a new segment
            r.rollovers = r.recorder->rollovers();
            std::fill(r.segment.begin(), r.segment.end(), std::pair<std::uint64_t, std::uint64_t>{});
        }
        auto& [packets, total] = r.segment[meta.typeIndex];
        ++packets;
        total += bytes.size();
    } else {
        if (r.recorder && !r.failed)
            fail(s, r, "recording stopped: " + r.recorder->error() + " (what was written stays readable)");
        bump(rc.errors);
    }
    pool.release(h);
}

void Recorder::fail(Stream& s, StreamRecording& r, const std::string& what)
{
    r.failed = true;
    uncountUnwritten(s, r);
    m_core.recording.errors.fetch_add(1, std::memory_order_relaxed);
    m_core.recording.setState("failed: " + r.recorder->error());
    m_core.event(EventSeverity::Error, s.profile.name, what);
}

// A failed write lost the writer's buffer: those packets were counted recorded, but are not on disk.
void Recorder::uncountUnwritten(Stream& s, StreamRecording& r)
{
    const PacketTypeTable& types = m_core.types;
    for (const auto& [apid, lost] : r.recorder->unwrittenPackets()) {
        std::uint64_t left = lost;
        for (std::uint32_t t = 0; t < types.typeCount() && left > 0; ++t) {
            if (t != kUnknownType && types.definition(t).apid != apid)
                continue;
            auto& [packets, bytes] = r.segment[t];
            const std::uint64_t n = std::min(left, packets);
            if (n == 0)
                continue;
            const std::uint64_t b = bytes / packets * n; // bytes of the lost ones, on average
            RecorderTypeCounters& rc = s.recorderCounters[t];
            set(rc.recorded, get(rc.recorded) - n);
            set(rc.bytes, get(rc.bytes) - b);
            bump(rc.errors, n);
            packets -= n;
            bytes -= b;
            left -= n;
        }
    }
}

void Recorder::finished()
{
    for (auto& s : m_core.streams) {
        StreamRecording& r = m_streams[s->id];
        if (!r.recorder)
            continue;
        if (auto st = r.recorder->close(); !st && !r.failed) {
            r.failed = true;
            uncountUnwritten(*s, r);
            m_core.recording.errors.fetch_add(1, std::memory_order_relaxed);
            m_core.recording.setState("failed: " + st.error().toString());
            m_core.event(EventSeverity::Error, s->profile.name, "closing the recording: " + st.error().toString());
        }
        r.recorder.reset();
    }
}

} // namespace telestation::pipeline
