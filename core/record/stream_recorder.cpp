// The per-stream recorder: one open segment at a time, rollover at the size limit, the catalog
// touched only when a segment opens or closes. Its per-record path is SegmentWriter::append plus a
// counter increment in a preallocated per-APID array.
#include "core/record/stream_recorder.hpp"

#include "core/common/clock.hpp"
#include "core/record/record_detail.hpp"

#include <spdlog/spdlog.h>

#include <algorithm>
#include <array>
#include <ctime>
#include <filesystem>

namespace telestation::record {
namespace {

namespace fs = std::filesystem;

constexpr std::size_t kApidSlots = 65536; // RecordMeta::apid is 16 bits wide

bool validStreamName(const std::string& name)
{
    if (name.empty() || name.size() > detail::kStreamNameSize)
        return false;
    return std::all_of(name.begin(), name.end(), [](char c) {
        return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' || c == '.' || c == '-';
    });
}

} // namespace

struct StreamRecorder::Impl {
    RecordingCatalog* catalog = nullptr;
    std::string stream;
    std::uint16_t streamId = 0;
    std::uint64_t maxFileSize = 0;
    std::uint64_t nextSequence = 1;

    std::unique_ptr<SegmentWriter> writer;
    SegmentInfo info; // the open segment's catalog entry
    std::unique_ptr<std::array<std::uint64_t, kApidSlots>> apidCounts = std::make_unique<std::array<std::uint64_t, kApidSlots>>();

    bool failed = false;
    bool closed = false;
    std::string error;
    std::map<std::uint16_t, std::uint64_t> unwritten; // after a failure: accepted but not on disk, per APID
    std::uint64_t rollovers = 0;
    std::uint64_t packets = 0;
    std::uint64_t bytes = 0;

    // The catalog entry first, then the file: a crash in between leaves an entry without a file, which
    // the catalog's recovery removes — never a file the catalog does not list.
    Status openSegment()
    {
        const std::int64_t created = clock::realtimeNs();
        SegmentInfo next;
        next.streamName = stream;
        next.sequence = nextSequence;
        next.file = detail::segmentFileName(stream, created, next.sequence);
        auto id = catalog->addSegment(next);
        if (!id)
            return id.error();
        next.id = *id;
        const std::string path = (fs::path(catalog->directory()) / next.file).string();
        auto w = SegmentWriter::create(path, SegmentHeader{kFormatVersion, created, next.sequence, stream});
        if (!w) {
            if (auto st = catalog->removeSegment(next.id); !st) // else recovery removes it at the next open
                spdlog::error("recording of stream {}: {}", stream, st.error().toString());
            return w.error();
        }
        next.bytes = (*w)->bytesWritten();
        ++nextSequence;
        writer = std::move(*w);
        info = std::move(next);
        apidCounts->fill(0);
        return {};
    }

    // Closes the open segment and records it in the catalog as closed. After a write failure the
    // counts come from reading the file back: exactly what reached the disk intact.
    Status closeSegment()
    {
        if (!writer)
            return {};
        const bool ok = writer->close();
        if (ok) {
            info.packets = writer->records();
            info.bytes = writer->bytesWritten();
            info.firstTimeNs = writer->firstTimeNs().value_or(0);
            info.lastTimeNs = writer->lastTimeNs().value_or(0);
            info.apidPackets.clear();
            for (std::size_t apid = 0; apid < kApidSlots; ++apid)
                if ((*apidCounts)[apid] != 0)
                    info.apidPackets[static_cast<std::uint16_t>(apid)] = (*apidCounts)[apid];
            info.problem.clear();
        } else {
            info.problem = "recording stopped: " + writer->error();
            auto summary = detail::summarizeSegment(writer->path());
            if (summary) {
                // Records accepted into the writer's buffer that never reached the file.
                for (std::size_t apid = 0; apid < kApidSlots; ++apid) {
                    const auto it = summary->apidPackets.find(static_cast<std::uint16_t>(apid));
                    const std::uint64_t onDisk = it == summary->apidPackets.end() ? 0 : it->second;
                    if ((*apidCounts)[apid] > onDisk)
                        unwritten[static_cast<std::uint16_t>(apid)] = (*apidCounts)[apid] - onDisk;
                }
                detail::setFromSummary(info, *summary);
                if (summary->scan.end != SegmentEnd::Clean)
                    info.problem += "; " + summary->scan.problem;
            } else {
                info.problem += "; " + summary.error().toString();
            }
        }
        info.state = SegmentState::Closed; // what was written is intact either way
        const std::string writerError = ok ? std::string() : writer->error();
        writer.reset();
        if (auto st = catalog->updateSegment(info); !st)
            return st;
        if (!ok)
            return Error{writerError, {}};
        return {};
    }

    // Stops for good: logs once, closes the segment as far as it was written.
    void fail(std::string why)
    {
        failed = true;
        error = std::move(why);
        spdlog::error("recording of stream {} stopped: {}", stream, error);
        if (auto st = closeSegment(); !st && st.error().message != error)
            spdlog::error("recording of stream {}: {}", stream, st.error().toString());
    }
};

StreamRecorder::StreamRecorder(std::unique_ptr<Impl> impl) : m_impl(std::move(impl)) {}

StreamRecorder::~StreamRecorder()
{
    if (!m_impl || m_impl->closed)
        return;
    try {
        (void)close();
    } catch (const std::exception& e) { // only bad_alloc: a destructor must not end the station for it
        spdlog::error("recording of stream {}: closing failed: {}", m_impl->stream, e.what());
    }
}

Result<std::unique_ptr<StreamRecorder>> StreamRecorder::create(RecordingCatalog& catalog, std::string streamName,
                                                               std::uint16_t streamId, std::uint64_t maxFileSize)
{
    if (!validStreamName(streamName))
        return Error{"invalid stream name '" + streamName + "' (1 to 32 of A-Z a-z 0-9 _ . -)", {}};
    if (maxFileSize < kFileHeaderSize + kRecordOverhead)
        return Error{"maximum segment size " + std::to_string(maxFileSize) + " is too small", {}};
    auto impl = std::make_unique<Impl>();
    impl->catalog = &catalog;
    impl->stream = std::move(streamName);
    impl->streamId = streamId;
    impl->maxFileSize = maxFileSize;
    // A recorder of this stream before this one may have failed to close its segment (a full disk
    // fails the catalog's write too): its entry is brought in line with the file first.
    if (auto st = catalog.recoverOpenSegments(impl->stream); !st)
        return st.error();
    for (const auto& segment : catalog.segments())
        if (segment.streamName == impl->stream)
            impl->nextSequence = std::max(impl->nextSequence, segment.sequence + 1);
    if (auto st = impl->openSegment(); !st)
        return st.error();
    return std::unique_ptr<StreamRecorder>(new StreamRecorder(std::move(impl)));
}

bool StreamRecorder::record(const RecordMeta& meta, std::span<const std::uint8_t> packet) noexcept
{
    Impl& d = *m_impl;
    if (d.failed || d.closed)
        return false;
    if (packet.size() > detail::kMaxPayload)
        return false; // refused, as the writer would; not a reason to stop recording
    try {
        const std::uint64_t size = kRecordOverhead + packet.size();
        if (d.writer->records() > 0 && d.writer->bytesWritten() + size > d.maxFileSize) {
            // Rollover: allocates (file name, catalog), but once per segment, not per record.
            if (auto st = d.closeSegment(); !st) {
                d.fail(st.error().toString());
                return false;
            }
            if (auto st = d.openSegment(); !st) {
                d.fail(st.error().toString());
                return false;
            }
            ++d.rollovers;
        }
        if (!d.writer->append(meta, packet)) {
            d.fail(d.writer->error());
            return false;
        }
    } catch (const std::exception& e) { // out of memory on rollover
        d.failed = true;
        d.error = e.what();
        return false;
    }
    ++(*d.apidCounts)[meta.apid];
    ++d.packets;
    d.bytes += packet.size();
    return true;
}

bool StreamRecorder::flush(bool sync) noexcept
{
    Impl& d = *m_impl;
    if (d.failed || d.closed)
        return false;
    if (!d.writer->flush() || (sync && !d.writer->sync())) {
        try {
            d.fail(d.writer->error());
        } catch (const std::exception&) { // only bad_alloc: stopped all the same, without the reason
            d.failed = true;
        }
        return false;
    }
    return true;
}

Status StreamRecorder::close()
{
    Impl& d = *m_impl;
    if (d.closed)
        return d.failed ? Status(Error{d.error, {}}) : Status();
    d.closed = true;
    if (d.failed)
        return Error{d.error, {}};
    if (auto st = d.closeSegment(); !st) {
        d.failed = true;
        d.error = st.error().toString();
        spdlog::error("recording of stream {}: {}", d.stream, d.error);
        return st;
    }
    return {};
}

bool StreamRecorder::failed() const noexcept { return m_impl->failed; }
const std::string& StreamRecorder::error() const noexcept { return m_impl->error; }
std::uint64_t StreamRecorder::rollovers() const noexcept { return m_impl->rollovers; }
std::string StreamRecorder::currentFile() const { return m_impl->writer ? m_impl->info.file : std::string(); }
std::uint64_t StreamRecorder::recordedPackets() const noexcept { return m_impl->packets; }
std::uint64_t StreamRecorder::recordedBytes() const noexcept { return m_impl->bytes; }
const std::map<std::uint16_t, std::uint64_t>& StreamRecorder::unwrittenPackets() const noexcept { return m_impl->unwritten; }

} // namespace telestation::record
