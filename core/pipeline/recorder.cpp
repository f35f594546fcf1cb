#include "core/pipeline/recorder.hpp"

#include <algorithm>

namespace telestation::pipeline {

Recorder::Recorder(StationCore& core) : QueueWorker(core, core.recorderBell, &Stream::recordQueue, "ts-recorder")
{
    m_streams.resize(StreamTable::kCapacity);
    for (auto& r : m_streams)
        r.segment.resize(core.types.typeCount());
}

Recorder::~Recorder() = default;

void Recorder::starting()
{
    bool anyRecording = false;
    {
        std::lock_guard lock(m_core.settings.mutex);
        const config::RecordingOptions& options = m_core.settings.profile.recording; // fixed once created
        m_flushInterval = std::chrono::milliseconds(options.flushIntervalMs);
        m_syncOnFlush = options.syncOnFlush;
        for (const auto& perStream : m_core.settings.perType)
            for (const auto& t : perStream)
                anyRecording = anyRecording || t.record;
    }
    if (anyRecording)
        openCatalog();
}

void Recorder::beforeRound()
{
    closeRemoved();
    flushNow();
    const std::uint64_t requests = m_core.recording.resumeRequests.load(std::memory_order_acquire);
    if (requests == m_resumeRequests)
        return;
    m_resumeRequests = requests;
    bool any = m_catalogFailed;
    m_catalogFailed = false; // tried again at the next packet to record
    for (auto& r : m_streams) {
        if (!r.failed)
            continue;
        any = true;
        r.failed = false;
        if (r.recorder)
            (void)r.recorder->close(); // its failure was reported; what it wrote stays readable
        r.recorder.reset();
        publish(r, {}); // until its next packet opens a segment
    }
    if (any)
        m_core.recording.setState(m_catalog ? "recording to " + m_core.settings.profile.recordingDirectory : "off");
}

// Every flush interval (the profile's recording.flushIntervalMs): what the segment writers buffered goes
// to the files — the most a crash of the station can lose, and how far behind readers of a recording in
// progress (playback, archive queries) are; with recording.syncOnFlush also to the disk. A failure
// stops that stream's recording at once, as a failed write of a packet would.
void Recorder::flushNow()
{
    const auto now = std::chrono::steady_clock::now();
    if (now < m_nextFlush)
        return;
    m_nextFlush = now + m_flushInterval;
    for (std::size_t id = 0; id < m_streams.size(); ++id) {
        StreamRecording& r = m_streams[id];
        if (!r.recorder || r.failed || r.recorder->flush(m_syncOnFlush))
            continue;
        Stream* s = m_core.streams.at(id);
        if (s && s->serial == r.serial)
            fail(*s, r, "recording stopped: " + r.recorder->error() + " (what was written stays readable)");
    }
}

void Recorder::closeRemoved()
{
    const std::uint64_t removals = m_core.streamRemovals.load(std::memory_order_acquire);
    if (removals == m_removalsSeen)
        return;
    m_removalsSeen = removals;
    for (std::size_t id = 0; id < m_streams.size(); ++id) {
        StreamRecording& r = m_streams[id];
        const Stream* s = m_core.streams.at(id);
        if (r.recorder && (!s || s->serial != r.serial)) {
            close(r, nullptr);
            r.failed = false;
        }
    }
}

// Closes a stream's recording (what it wrote stays readable); a failure to close is reported once.
// `s`: the stream when it still runs (its counters take the packets the close could not write).
void Recorder::close(StreamRecording& r, Stream* s)
{
    if (auto st = r.recorder->close(); !st && !r.failed) {
        r.failed = true;
        if (s)
            uncountUnwritten(*s, r);
        m_core.recording.errors.fetch_add(1, std::memory_order_relaxed);
        m_core.recording.setState("failed: " + st.error().toString());
        publish(r, "failed: " + st.error().toString());
        m_core.event(events::EventKind::RecordingError, events::Severity::Error, r.stream,
                     "closing the recording: " + st.error().toString(), "failed");
    } else if (!r.failed) {
        publish(r, {});
    }
    r.recorder.reset();
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
        m_core.event(events::EventKind::RecordingError, events::Severity::Error, "",
                     "recording is off: " + opened.error().toString(), "catalog");
        return;
    }
    m_catalog = std::move(*opened);
    // What opening found out of line with the segment files (a crash, a lost or damaged catalog): an
    // event each, each a source of its own so that the storm limiter does not merge them.
    const auto& repairs = m_catalog->repairs();
    for (std::size_t i = 0; i < repairs.size(); ++i)
        m_core.event(events::EventKind::Recording, events::Severity::Warning, "", "recording catalog: " + repairs[i],
                     "catalog repair " + std::to_string(i + 1));
    m_core.recording.setState("recording to " + directory);
    m_core.event(events::EventKind::Recording, events::Severity::Info, "", "recording to " + directory, "catalog");
}

void Recorder::handle(Stream& stream, std::span<const PacketHandle> batch)
{
    StreamRecording& r = m_streams[stream.id];
    const std::uint32_t renames = stream.renames.load(std::memory_order_relaxed);
    // The first packet of this stream (or of its id's new stream), or of its new name: a recording
    // of its own, under its name.
    if (r.serial != stream.serial || r.renames != renames) [[unlikely]] {
        if (r.recorder)
            close(r, r.serial == stream.serial ? &stream : nullptr);
        if (r.serial != stream.serial) {
            r.failed = false;
            publish(r, {}); // another stream's state
        }
        r.serial = stream.serial;
        r.renames = renames;
    }
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
        r.stream = s.name();
        auto created = record::StreamRecorder::create(*m_catalog, r.stream, s.id,
                                                      m_core.settings.profile.queues.maxRecordFileSize);
        if (created) {
            r.recorder = std::move(*created);
            r.rollovers = r.recorder->rollovers();
            r.file = r.recorder->currentFile();
            std::fill(r.segment.begin(), r.segment.end(), std::pair<std::uint64_t, std::uint64_t>{});
            publish(r, "recording into " + r.file);
            m_core.event(events::EventKind::Recording, events::Severity::Info, r.stream,
                         (m_resumeRequests > 0 ? "recording resumed into " : "recording into ") + r.file, "segment opened");
        } else {
            r.failed = true;
            m_core.recording.errors.fetch_add(1, std::memory_order_relaxed);
            m_core.recording.setState("failed: " + created.error().toString());
            publish(r, "failed: " + created.error().toString());
            m_core.event(events::EventKind::RecordingError, events::Severity::Error, r.stream,
                         "recording stopped: " + created.error().toString(), "failed");
        }
    }
    const auto bytes = pool.bytes(h);
    if (r.recorder && !r.failed && r.recorder->record(record::RecordMeta{meta.receiveTimeNs, s.id, meta.apid}, bytes)) {
        bump(rc.recorded);
        bump(rc.bytes, bytes.size());
        if (r.recorder->rollovers() != r.rollovers) [[unlikely]] // this packet opened a new segment
            rolledOver(s, r);
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
    publish(r, "failed: " + r.recorder->error());
    m_core.event(events::EventKind::RecordingError, events::Severity::Error, s.name(), what, "failed");
}

// The segment just closed, with what it holds, and the one this packet opened.
void Recorder::rolledOver(Stream& s, StreamRecording& r)
{
    std::uint64_t packets = 0, bytes = 0;
    for (const auto& [p, b] : r.segment) {
        packets += p;
        bytes += b;
    }
    const std::string next = r.recorder->currentFile();
    m_core.event(events::EventKind::Recording, events::Severity::Info, s.name(),
                 "recording segment rolled over: " + r.file + " closed with " + std::to_string(packets) + " packets, "
                     + std::to_string(bytes) + " bytes; now " + next,
                 "rollover");
    r.rollovers = r.recorder->rollovers();
    r.file = next;
    publish(r, "recording into " + next);
    std::fill(r.segment.begin(), r.segment.end(), std::pair<std::uint64_t, std::uint64_t>{});
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

void Recorder::publish(const StreamRecording& r, std::string state)
{
    m_core.recording.setStreamState(static_cast<std::uint16_t>(&r - m_streams.data()), std::move(state));
}

void Recorder::finished()
{
    for (std::size_t id = 0; id < m_streams.size(); ++id) {
        StreamRecording& r = m_streams[id];
        if (!r.recorder)
            continue;
        Stream* s = m_core.streams.at(id);
        close(r, s && s->serial == r.serial ? s : nullptr);
    }
}

} // namespace telestation::pipeline
