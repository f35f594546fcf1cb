// Recording segment files: the packets a station records, each with its receive time, stream and
// APID, protected by a CRC-32C per record. Segments roll over at a maximum size; the catalog
// (recording_catalog.hpp) lists them. Format (all integers little-endian):
//
//   file header (96 bytes): magic "TSTREC\r\n" (8), format version u32 (= 2), header size u32 (= 96),
//     created (ns since the Unix epoch) i64, segment sequence number u64, stream name (32 bytes,
//     ASCII, NUL-padded), reserved (28 bytes, zero), CRC-32C of the preceding 92 bytes u32.
//   Version 1 (read, no longer written) had a 64-byte header: the same fields up to the sequence
//     number, then the stream name in 28 bytes and the CRC-32C of the preceding 60 bytes. Its writer
//     copied names of up to 32 bytes, so the CRC overwrote the last bytes of a 29..32-byte name: the
//     reader then takes the name from the file name (<stream>-<yyyymmddThhmmss>-<sequence>.tsrec)
//     when that one starts with the 28 bytes in the header.
//   records, each: sync u32 (0x54535243 'TSRC'), payload length u32, receive time i64 (ns, realtime),
//     stream id u16, APID u16, flags u16 (bit 0: the packet was malformed), reserved u16, payload
//     (the packet's bytes exactly as received, transport header included), CRC-32C u32 over the
//     record from its length field to the end of the payload.
//
// The writer buffers (1 MiB) and writes in large blocks; it never allocates per record. A failed
// write (disk full, I/O error) puts the writer into an error state: it stops accepting records and
// says why; what was written before stays readable.
#pragma once

#include "core/common/result.hpp"

#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <vector>

namespace telestation::record {

inline constexpr std::uint32_t kFormatVersion = 2;       // the version written
inline constexpr std::size_t kFileHeaderSize = 96;        // of version 2
inline constexpr std::size_t kFileHeaderSizeVersion1 = 64;
inline constexpr std::size_t kRecordOverhead = 28; // sync, length, time, stream, apid, flags, reserved, CRC

// CRC-32C (Castagnoli), as used by iSCSI/ext4; hardware-accelerated where the CPU has SSE4.2.
[[nodiscard]] std::uint32_t crc32c(std::span<const std::uint8_t> bytes, std::uint32_t crc = 0) noexcept;

struct RecordMeta {
    std::int64_t receiveTimeNs = 0;
    std::uint16_t streamId = 0;
    std::uint16_t apid = 0;
    bool malformed = false;
    friend bool operator==(const RecordMeta&, const RecordMeta&) = default;
};

struct SegmentHeader {
    std::uint32_t version = kFormatVersion;
    std::int64_t createdNs = 0;
    std::uint64_t sequence = 0;
    std::string streamName;
};

// Writes one segment file. Not thread-safe: the recorder thread owns it.
class SegmentWriter {
public:
    // Creates the file (fails if it exists) and writes its header.
    [[nodiscard]] static Result<std::unique_ptr<SegmentWriter>> create(const std::string& path, const SegmentHeader& header);
    ~SegmentWriter(); // closes (flushing) if still open

    // Appends a record. False when the writer is in the error state (then error() says why); the
    // record is then not written. A record of more than 65,542 + 65,535 bytes is refused (false,
    // without entering the error state).
    bool append(const RecordMeta& meta, std::span<const std::uint8_t> payload) noexcept;
    // Writes the buffer to the file (not fsync). False on a write error.
    bool flush() noexcept;
    // Makes what reached the file durable (fdatasync), when anything did since the last sync; does not
    // write the buffer (flush() first). A failure puts the writer in the error state ("fdatasync FILE: …").
    bool sync() noexcept;
    // Flushes, fsyncs and closes. False on an error (the file stays readable up to the last good write).
    bool close() noexcept;

    [[nodiscard]] std::uint64_t bytesWritten() const noexcept;   // file size including the buffer
    [[nodiscard]] std::uint64_t records() const noexcept;
    [[nodiscard]] std::optional<std::int64_t> firstTimeNs() const noexcept;
    [[nodiscard]] std::optional<std::int64_t> lastTimeNs() const noexcept;
    [[nodiscard]] bool failed() const noexcept;
    [[nodiscard]] const std::string& error() const noexcept;     // "" unless failed: "write to FILE: No space left on device"
    [[nodiscard]] const std::string& path() const noexcept;

private:
    struct Impl;
    explicit SegmentWriter(std::unique_ptr<Impl> impl);
    std::unique_ptr<Impl> m_impl;
};

// How reading a segment ended.
enum class SegmentEnd : std::uint8_t {
    Clean,           // every byte belonged to an intact record
    TruncatedRecord, // the file ends inside a record (e.g. a crash while writing): expected, not fatal
    Damaged,         // a record failed its CRC or its framing: reading stopped there
};

struct SegmentScan {
    SegmentHeader header;
    std::uint64_t records = 0;        // intact records
    std::uint64_t intactBytes = 0;    // offset just past the last intact record
    SegmentEnd end = SegmentEnd::Clean;
    std::string problem;              // for TruncatedRecord/Damaged: what and at which byte offset
};

// Reads a segment sequentially, checking each record's CRC.
class SegmentReader {
public:
    // Opens the file and checks its header (magic, version 1 or 2, header size, header CRC): errors
    // name the file.
    [[nodiscard]] static Result<std::unique_ptr<SegmentReader>> open(const std::string& path);
    ~SegmentReader();

    [[nodiscard]] const SegmentHeader& header() const noexcept;
    // The next intact record: its metadata, and its payload in `payload` (resized; valid until the
    // next call). False at the end of the intact records; then end() says how reading ended.
    bool next(RecordMeta& meta, std::vector<std::uint8_t>& payload);
    [[nodiscard]] SegmentEnd end() const noexcept;
    [[nodiscard]] const std::string& problem() const noexcept;
    [[nodiscard]] std::uint64_t offset() const noexcept; // just past the last intact record read (the header at first)

private:
    struct Impl;
    explicit SegmentReader(std::unique_ptr<Impl> impl);
    std::unique_ptr<Impl> m_impl;
};

// Reads a whole segment and reports what is in it (for the catalog and for recovery at start-up).
[[nodiscard]] Result<SegmentScan> scanSegment(const std::string& path);

} // namespace telestation::record
