// Recorder: the worker that drains each stream's record packet queue into a record::StreamRecorder per
// stream (segment files + the SQLite catalog in the profile's recording directory). A failure — an
// unwritable directory, a full disk, a write error — stops recording for that stream with one event:
// what was written stays readable, packets whose buffered write was lost move from "recorded" to
// "record errors", later packets count as record errors; other streams and processing continue until
// the operator resumes recording (Station::resumeRecording), which starts a new segment. Segment
// rollovers, failures and resumptions are events.
// Internal to core/pipeline.
#pragma once

#include "core/pipeline/worker.hpp"
#include "core/record/recording_catalog.hpp"
#include "core/record/stream_recorder.hpp"

#include <chrono>
#include <memory>
#include <utility>
#include <vector>

namespace telestation::pipeline {

class Recorder final : public QueueWorker {
public:
    explicit Recorder(StationCore& core);
    ~Recorder() override;

private:
    // A stream's recording (recorder thread only).
    struct StreamRecording {
        std::unique_ptr<record::StreamRecorder> recorder;
        bool failed = false;
        // Packets and bytes per type recorded into the current segment: if a write fails, what the
        // writer had buffered is lost and moves from "recorded" to "record errors".
        std::vector<std::pair<std::uint64_t, std::uint64_t>> segment;
        std::uint64_t rollovers = 0;
        std::string file; // the open segment's file name
        std::uint64_t serial = 0; // the stream's (stream_table.hpp): a removed stream's recording is closed
        std::uint32_t renames = 0; // the stream's renames when the recording was opened
        std::string stream;       // its name when the recording was opened
    };

    void starting() override; // an unwritable directory is reported at start, not at the first packet
    void beforeRound() override; // an operator's "resume recording" after a failure
    void handle(Stream& stream, std::span<const PacketHandle> batch) override;
    void finished() override; // closes the recordings

    void openCatalog();
    void closeRemoved(); // the recordings of streams removed since the last look
    void flushNow();     // every flush interval: buffered records to the files
    void close(StreamRecording& r, Stream* s);
    void record(Stream& s, StreamRecording& r, PacketHandle h);
    void fail(Stream& s, StreamRecording& r, const std::string& what);
    void uncountUnwritten(Stream& s, StreamRecording& r);
    void rolledOver(Stream& s, StreamRecording& r);
    // The stream's recording state as the snapshot shows it (RecordingStatus::setStreamState).
    void publish(const StreamRecording& r, std::string state);

    std::chrono::milliseconds m_flushInterval{1000}; // the profile's recording options
    bool m_syncOnFlush = false;
    std::chrono::steady_clock::time_point m_nextFlush{};
    std::unique_ptr<record::RecordingCatalog> m_catalog;
    bool m_catalogFailed = false;
    std::uint64_t m_resumeRequests = 0;
    std::uint64_t m_removalsSeen = 0;
    std::vector<StreamRecording> m_streams; // index = stream id (StreamTable::kCapacity of them)
};

} // namespace telestation::pipeline
