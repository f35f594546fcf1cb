// The station profile (JSON): everything a station needs to run — the mission database, the streams
// with their sources and per-packet-type settings, queue sizes, recording and logging. Loaded,
// validated (every error with its JSON path; unknown keys are errors) and saved. See
// docs/station-profile.md for the format and the defaults.
#pragma once

#include "core/common/diagnostic.hpp"
#include "core/common/result.hpp"

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace telestation::config {

// TReK's processing modes.
enum class ProcessingMode : std::uint8_t {
    PassThru,            // not decoded; the whole packet goes to consumers
    ProcessOnDemand,     // the newest packet is kept; decoded when a display or consumer asks
    ProcessEntirePacket, // every parameter of every packet decoded on arrival
    Discard,             // only for unknown packets: dropped (counted)
};

// What happens to packets of one type of a stream. The type is named by its APID [+ secondary id], or
// by its packet definition's name (`packet`) — the only way to tell apart types of one APID that differ
// by criteria on other fields (XTCE restriction criteria). A `packet` setting beats an (APID, secondary
// id) one, which beats an APID-only one (docs/station-profile.md).
struct PacketSettings {
    PacketSettings() = default;
    // By APID [+ secondary id], as code has always written settings: {7, std::nullopt, mode, record, {}}.
    PacketSettings(std::uint16_t apidValue, std::optional<std::uint64_t> secondaryIdValue, ProcessingMode modeValue,
                   bool recordValue, std::vector<std::string> forwardValue = {})
        : apid(apidValue), secondaryId(secondaryIdValue), mode(modeValue), record(recordValue),
          forward(std::move(forwardValue))
    {
    }

    std::uint16_t apid = 0;                   // not used when `packet` is given
    std::optional<std::uint64_t> secondaryId; // when packet types share the APID; not with `packet`
    ProcessingMode mode = ProcessingMode::ProcessEntirePacket;
    bool record = false;
    std::vector<std::string> forward;         // destination URLs: udp://, tcp://, tcp-listen://
    std::string packet;                       // a packet definition's name; "" = named by apid [+ secondaryId]
    friend bool operator==(const PacketSettings&, const PacketSettings&) = default;

    [[nodiscard]] bool byName() const noexcept { return !packet.empty(); }
    // Whether both name the same packet type(s): the same `packet`, or the same (APID, secondary id).
    [[nodiscard]] bool sameKey(const PacketSettings& other) const noexcept
    {
        if (byName() || other.byName())
            return packet == other.packet;
        return apid == other.apid && secondaryId == other.secondaryId;
    }
};

struct StreamProfile {
    std::string name;                         // unique; letters, digits, '-', '_'
    std::string source;                       // udp://, udp://GROUP?iface=, tcp://, tcp-listen://, file://
    std::uint32_t transportHeaderBytes = 0;   // kept with the packet, skipped for decoding
    bool enabled = true;
    // Packets with no definition (and defined packets without an entry in `packets`, which take the
    // defaults of PacketSettings: process entire packet, no recording, no forwarding).
    ProcessingMode unknownMode = ProcessingMode::PassThru; // PassThru or Discard
    bool recordUnknown = false;
    std::vector<std::string> forwardUnknown;
    std::vector<PacketSettings> packets;      // at most one entry per packet name or (apid, secondaryId)
    // A running stream with no packet for this long is reported stale (an event and an alarm) until
    // packets come again; 0 = never. Seconds, 0 or 0.1 .. 86400.
    double staleAfterSeconds = 5;
    // Playback (file://) only: where a stopped playback resumes — the receive time of the next record to
    // play, 0 = from the start (of the URL's `from`). Set by the station when the operator stops a
    // playback midway, cleared when one finishes.
    std::int64_t playbackPositionNs = 0;
    friend bool operator==(const StreamProfile&, const StreamProfile&) = default;
};

// An operator's limits for one parameter in this station profile, in place of the mission database's
// (the audit trail of every change is in the event log). Disabled: no limit checking at all. Enabled:
// numeric limits on the calibrated value, each bound optional (an absent bound never trips); must be
// ordered redLow <= yellowLow <= yellowHigh <= redHigh where given. An enumeration's expected states
// cannot be changed here, only disabled. Reading the profile checks the name's form only: whether the
// parameter exists is checked by the station when it applies the profile (the parser does not know the
// mission database).
struct LimitSetting {
    std::string parameter; // qualified name, "PACKET.PARAMETER"
    bool enabled = true;
    std::optional<double> redLow, yellowLow, yellowHigh, redHigh;
    friend bool operator==(const LimitSetting&, const LimitSetting&) = default;
};

// Where and how long the station keeps its events (docs/station-profile.md, "events").
struct EventOptions {
    bool archive = true;      // store every event in a SQLite archive
    std::string archiveFile;  // "" = events.sqlite in the recording directory; relative to the profile
    int retentionDays = 90;   // events older than this are deleted; 0 = keep forever
    friend bool operator==(const EventOptions&, const EventOptions&) = default;
};

// Queue options under TReK's names (TReK Release 1 defaults in the comments; those values are
// accepted too). Sizes in packets except maxRecordFileSize (bytes).
struct QueueOptions {
    std::uint32_t networkPacketQueueSize = 8192;             // TReK 100
    std::uint32_t networkPacketQueueWarningThreshold = 6144; // TReK 50; must be <= the size
    std::uint32_t processPacketQueueSize = 4096;             // TReK 20
    std::uint32_t recordPacketQueueSize = 8192;              // TReK 20
    std::uint32_t forwardPacketQueueSize = 8192;             // TReK 20
    std::uint32_t processedParameterQueueSize = 4096;        // TReK 5; packets' worth of samples per consumer
    std::uint64_t maxRecordFileSize = 1ull << 30;            // TReK 10,485,760; 64 KiB .. 1 TiB
    friend bool operator==(const QueueOptions&, const QueueOptions&) = default;
};

// How the recorder writes (docs/station-profile.md, "recording"; docs/RELIABILITY.md): how often what it
// buffered goes to the segment files, and whether each such write is made durable (fdatasync) too.
struct RecordingOptions {
    std::uint32_t flushIntervalMs = 1000; // 10 .. 60,000: at most this much recording is lost to a crash
    bool syncOnFlush = false;             // fdatasync each flush: also a power loss loses at most that
    friend bool operator==(const RecordingOptions&, const RecordingOptions&) = default;
};

// The user API (rpc/, docs/api.md): where the station serves it and who may call it. Off loopback the
// server needs TLS (certificate and key, PEM files; relative paths are relative to the profile) and at
// least one token.
struct ApiToken {
    std::string token;    // the secret a client sends ("authorization: Bearer TOKEN")
    std::string name;     // who holds it: named in the events of its control calls
    bool control = false; // may change settings and start / stop streams (else read-only)
    friend bool operator==(const ApiToken&, const ApiToken&) = default;
};

struct ApiOptions {
    bool enabled = true;
    std::string address = "127.0.0.1";
    std::uint16_t port = 50051;         // 0: any free port (the status bar and the log say which)
    std::string tlsCertificate;
    std::string tlsKey;
    std::vector<ApiToken> tokens;
    friend bool operator==(const ApiOptions&, const ApiOptions&) = default;
};

// The link test's responder (docs/link-test.md): where a simulator's link test finds this station, and
// which controllers besides loopback may run one. Off unless `listen` is given.
struct LinkResponderOptions {
    std::string listen;             // "ADDR:PORT", e.g. "0.0.0.0:7700"; "" = no responder
    std::vector<std::string> allow; // controller addresses (or names) allowed besides loopback
    friend bool operator==(const LinkResponderOptions&, const LinkResponderOptions&) = default;
};

// Whether `address` is a loopback address (127.0.0.0/8, ::1, "localhost"): where the API needs no TLS.
[[nodiscard]] bool isLoopbackAddress(std::string_view address) noexcept;

struct StationProfile {
    std::string mdb;                   // mission database (.mdb); relative paths are relative to the profile
    std::string recordingDirectory = "recordings";
    std::string logDirectory = "logs";
    std::string logLevel = "info";     // trace, debug, info, warning, error
    QueueOptions queues;
    RecordingOptions recording;
    EventOptions events;
    ApiOptions api;
    LinkResponderOptions linkResponder;
    std::vector<LimitSetting> limits;  // at most one per parameter
    std::vector<StreamProfile> streams;
    friend bool operator==(const StationProfile&, const StationProfile&) = default;
};

// Parses and validates. Every problem is reported (not just the first), each as a Diagnostic whose
// message starts with its JSON path ("$.streams[1].packets[0].mode: 'fast' is not a processing mode
// (passThru, processOnDemand, processEntirePacket)"); JSON syntax errors carry line and column.
// The profile is usable only when there is no error (warnings: e.g. a forward list on a discarded type).
struct ProfileLoad {
    StationProfile profile;
    Diagnostics diagnostics;
    [[nodiscard]] bool ok() const { return !hasErrors(diagnostics); }
};
[[nodiscard]] ProfileLoad parseProfile(std::string_view json, std::string_view fileName = "<string>");
// Reads a file; relative paths in it (mdb, recordingDirectory, logDirectory, events.archiveFile, file://
// sources) are made absolute against the profile's directory.
[[nodiscard]] ProfileLoad loadProfileFile(const std::string& path);
// Canonical JSON (stable key order, defaults omitted) that parseProfile reads back equal.
// A stream name: one or more letters, digits, '-' and '_'.
[[nodiscard]] bool isWellFormedName(std::string_view name) noexcept;

[[nodiscard]] std::string profileToJson(const StationProfile& profile);
// Writes atomically (temporary file + rename).
[[nodiscard]] Status saveProfileFile(const StationProfile& profile, const std::string& path);

[[nodiscard]] std::string_view toString(ProcessingMode mode) noexcept; // "passThru", ...

} // namespace telestation::config
