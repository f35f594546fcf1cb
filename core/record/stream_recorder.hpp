// The per-stream recorder: writes one stream's packets into segment files in a recording directory
// and lists each segment in the directory's catalog (recording_catalog.hpp). The recorder thread owns
// one per recorded stream.
#pragma once

#include "core/common/result.hpp"
#include "core/record/recording_catalog.hpp"
#include "core/record/segment_file.hpp"

#include <cstdint>
#include <map>
#include <memory>
#include <span>
#include <string>

namespace telestation::record {

// Records one stream into segment files in the catalog's directory, rolling over to a new segment
// when the next record would make the file exceed `maxFileSize` (a segment always takes at least one
// record). Files are named <stream>-<UTC yyyymmddThhmmss>-<sequence>.tsrec. The catalog is updated when
// a segment opens, rolls over and closes — not per record. Not thread-safe: the recorder thread owns it.
class StreamRecorder {
public:
    // Recovers the stream's segments still marked open first (RecordingCatalog::recoverOpenSegments).
    [[nodiscard]] static Result<std::unique_ptr<StreamRecorder>> create(RecordingCatalog& catalog, std::string streamName,
                                                                        std::uint16_t streamId, std::uint64_t maxFileSize);
    ~StreamRecorder(); // closes

    // Records a packet; no allocation in steady state. False once the recorder has failed (disk full,
    // write error): it then stops for good, error() says why, the segment is closed as far as it was
    // written, and the catalog says so.
    bool record(const RecordMeta& meta, std::span<const std::uint8_t> packet) noexcept;
    [[nodiscard]] Status close();
    // Writes what is buffered to the segment file, so that readers of a recording in progress
    // (playback, archive queries) see it and a crash of the process cannot lose it; with `sync` also
    // fdatasync, so that a power loss cannot either. A failure fails the recorder as record() does.
    bool flush(bool sync = false) noexcept;

    [[nodiscard]] bool failed() const noexcept;
    [[nodiscard]] const std::string& error() const noexcept;
    [[nodiscard]] std::uint64_t rollovers() const noexcept;
    // The open segment's file name (in the catalog's directory); "" when none is open.
    [[nodiscard]] std::string currentFile() const;
    [[nodiscard]] std::uint64_t recordedPackets() const noexcept;
    [[nodiscard]] std::uint64_t recordedBytes() const noexcept;
    // After a failure: per APID, the packets record() had accepted (returned true for) that never
    // reached the file — the writer's buffer lost at the failed write. Empty otherwise.
    [[nodiscard]] const std::map<std::uint16_t, std::uint64_t>& unwrittenPackets() const noexcept;

private:
    struct Impl;
    explicit StreamRecorder(std::unique_ptr<Impl> impl);
    std::unique_ptr<Impl> m_impl;
};

} // namespace telestation::record
