// The input of `telestation-mdb decode`: a file of concatenated CCSDS space packets (each optionally
// preceded by a fixed-size transport header), a Telestation recording directory (catalog.sqlite and
// its segments) or one recording segment (.tsrec). The kind is decided by content: a directory is a
// recording, a file starting with the segment magic "TSTREC\r\n" is a segment, anything else is packets.
//
// PacketInput::read() delivers every packet to an InputSink, numbered from 0 in input order, and
// reports what cannot be a packet (a bad primary header, a length field that disagrees with a
// recorded packet's bytes, a truncated last packet) as an InputProblem that takes a packet index too.
// Memory is constant: a packet file is read through one buffer of about 1 MiB, a recording through
// record::PlaybackSource (one segment reader at a time).
#pragma once

#include "core/common/result.hpp"

#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace telestation::archive {

enum class InputKind : std::uint8_t {
    PacketFile,         // concatenated space packets
    RecordingDirectory, // a directory with catalog.sqlite
    SegmentFile,        // one .tsrec segment
};

[[nodiscard]] std::string_view inputKindName(InputKind kind) noexcept;

// What the path is; an error names the path when it is missing or unreadable.
[[nodiscard]] Result<InputKind> detectInputKind(const std::string& path);

struct InputOptions {
    std::size_t transportHeaderBytes = 0; // skipped before each packet (also in recorded payloads)
    // Per APID (2048 entries): the APIDs the mission defines. After a bad primary header in a packet
    // file, reading resumes at the next header with version 0 and one of these APIDs (any APID when
    // empty), so that a run of garbage is not read as a series of invented packets.
    std::vector<bool> knownApids;
    // Recordings only (record::PlaybackOptions): the receive-time range, inclusive (0 = open end), and
    // the streams and segment files to read (empty = all). Streams or segments for a packet file are an
    // error; a time range there is the reader's to apply (DecodeRun applies it to the packet time).
    std::int64_t fromNs = 0;
    std::int64_t toNs = 0;
    std::vector<std::string> streams;
    std::vector<std::string> segments;
};

struct InputPacket {
    std::uint64_t index = 0;                   // 0-based in the input
    std::uint64_t byteOffset = 0;              // packet file: where its transport header (or header) starts
    std::optional<std::int64_t> receiveTimeNs; // recordings
    std::string_view stream;                   // recordings: the recorded stream's name; valid during the call
    std::span<const std::uint8_t> packet;      // the space packet, primary header first; valid during the call
};

enum class InputProblemKind : std::uint8_t {
    BadPrimaryHeader, // the version bits are not 0, or fewer than 6 bytes of header in a record
    LengthMismatch,   // recordings: the length field says another size than the record holds
    TruncatedPacket,  // the file ends inside the last packet
};

[[nodiscard]] std::string_view inputProblemName(InputProblemKind kind) noexcept;

struct InputProblem {
    InputProblemKind kind = InputProblemKind::BadPrimaryHeader;
    std::uint64_t index = 0;      // the packet index it takes
    std::uint64_t byteOffset = 0; // packet file: where it starts
    std::string detail;           // e.g. "version 7, APID 2047; 40 bytes skipped to the next packet"
};

class InputSink {
public:
    virtual ~InputSink() = default;
    virtual void onPacket(const InputPacket& packet) = 0;
    virtual void onProblem(const InputProblem& problem) = 0;
    // Asked between packets: true ends read() early (a cancelled export), without an error.
    [[nodiscard]] virtual bool stopRequested() const { return false; }
};

class PacketInput {
public:
    // Opens the path as detectInputKind() says. Errors name the path.
    [[nodiscard]] static Result<std::unique_ptr<PacketInput>> open(const std::string& path, InputOptions options);
    virtual ~PacketInput() = default;

    [[nodiscard]] virtual InputKind kind() const noexcept = 0;
    // Bytes on disk (the file, or the selected segment files of a recording): decides the progress bar.
    [[nodiscard]] virtual std::uint64_t totalBytes() const noexcept = 0;
    // Reads the whole input into `sink`. An error (an I/O error while reading) names the path; the
    // packets before it have been delivered.
    [[nodiscard]] virtual Status read(InputSink& sink) = 0;
    // How far read() has come, 0..1 (for a progress bar; callable from the sink's callbacks).
    [[nodiscard]] virtual double fraction() const = 0;
    // Recordings, after read(): the segments that were damaged, truncated or unreadable, as
    // record::PlaybackProgress::problem words it ("FILE: what", joined with "; "); "" when none.
    [[nodiscard]] virtual std::string damage() const { return {}; }
};

} // namespace telestation::archive
