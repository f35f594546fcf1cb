// The station's statistics snapshot: one plain value type that the GUI, the headless reports and the
// tests all read, under the same names (the JSON keys are the member names). Taken by
// pipeline::Station::snapshot() at any time (1 Hz by the observers); counters are totals since the
// station started; rates are over the interval since the previous snapshot (RateTracker).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace telestation::stats {

// One bounded queue as operators configure it (TReK's queue names).
struct QueueStats {
    std::uint64_t depth = 0;         // packets in the queue now
    std::uint64_t capacity = 0;
    std::uint64_t highWater = 0;     // the deepest it has been
    std::uint64_t warningThreshold = 0; // 0 = none (only the network packet queue has one)
    std::uint64_t warnings = 0;      // times the depth rose past the warning threshold
    std::uint64_t drops = 0;         // packets dropped because the queue was full
    friend bool operator==(const QueueStats&, const QueueStats&) = default;
};

// Counters shared by a stream and each of its packet types.
struct PacketCounters {
    std::uint64_t packetsReceived = 0;
    std::uint64_t bytesReceived = 0;
    std::uint64_t packetsProcessed = 0;  // delivered by the processor (pass thru, kept, or decoded)
    std::uint64_t packetsRecorded = 0;
    std::uint64_t bytesRecorded = 0;
    std::uint64_t packetsForwarded = 0;  // handed to every destination of the type (per destination: forwards)
    std::uint64_t bytesForwarded = 0;
    std::uint64_t parametersDecoded = 0;
    std::uint64_t unknown = 0;           // packets with no definition
    std::uint64_t discarded = 0;         // unknown packets dropped by the stream's default (counted, not lost)
    std::uint64_t malformed = 0;         // bad primary header, length not as defined, or shorter than its layout
    std::uint64_t layoutErrors = 0;      // of malformed: shorter than the layout, or a size from the data out of range
    std::uint64_t longPackets = 0;       // longer than their layout: decoded normally, the extra bytes counted
    std::uint64_t extraBytes = 0;        // bytes after the end of the layout, summed over longPackets
    std::uint64_t sequenceErrors = 0;    // gaps + duplicates + late + resyncs
    std::uint64_t packetsLost = 0;       // missing from CCSDS sequence gaps (net of late arrivals)
    std::uint64_t largestGap = 0;
    std::uint64_t duplicates = 0;
    std::uint64_t networkDrops = 0;      // dropped: network packet queue full
    std::uint64_t processDrops = 0;      // dropped: process packet queue full
    std::uint64_t recordDrops = 0;       // dropped: record packet queue full
    std::uint64_t forwardDrops = 0;      // dropped: forward packet queue full
    std::uint64_t recordErrors = 0;      // not recorded: the recorder had failed (disk full, write error)
    std::uint64_t forwardErrors = 0;     // not sent to a destination (down, would block, error)
    friend bool operator==(const PacketCounters&, const PacketCounters&) = default;
};

// Rates over the last interval (packets/s, Mbit/s on the packet bytes, parameters/s).
struct Rates {
    double packetsPerSecond = 0;
    double megabitsPerSecond = 0;
    double parametersPerSecond = 0;
    friend bool operator==(const Rates&, const Rates&) = default;
};

struct PacketTypeStats {
    std::string name;                 // the packet definition's name, or "unknown"
    std::uint32_t apid = 0;
    bool hasSecondaryId = false;
    std::uint64_t secondaryId = 0;
    std::string mode;                 // passThru, processOnDemand, processEntirePacket, discard
    bool record = false;
    std::uint32_t forwardDestinations = 0;
    PacketCounters counters;
    Rates rates;
    std::int64_t lastReceiveTimeNs = 0; // 0 = none yet
    friend bool operator==(const PacketTypeStats&, const PacketTypeStats&) = default;
};

struct StreamStats {
    std::string name;
    std::string source;               // the source URL
    std::string state;                // the receiver's state text, e.g. "receiving on 127.0.0.1:5000"
    bool running = false;
    PacketCounters counters;          // sums over the stream's packet types
    Rates rates;
    // Receiver level (before packet types are known).
    std::uint64_t kernelDrops = 0;    // UDP: dropped by the kernel (SO_RXQ_OVFL)
    std::uint64_t framingErrors = 0;  // TCP
    std::uint64_t skippedBytes = 0;   // TCP: bytes dropped while resynchronising
    std::uint64_t truncatedPackets = 0; // TCP: partial packet at a disconnect; UDP: datagram too large
    std::uint64_t poolDrops = 0;      // no free packet pool slot
    std::uint64_t connects = 0;
    std::uint64_t disconnects = 0;
    double progress = -1;             // playback: 0..1; -1 for live sources
    QueueStats networkQueue;          // Network Packet Queue
    QueueStats processQueue;          // Process Packet Queue
    QueueStats recordQueue;           // Record Packet Queue
    QueueStats forwardQueue;          // Forward Packet Queue
    std::vector<PacketTypeStats> packetTypes; // in the order of the station's table
    friend bool operator==(const StreamStats&, const StreamStats&) = default;
};

struct ForwardStats {
    std::string destination;          // URL
    std::string state;
    bool connected = false;
    std::uint64_t packets = 0;
    std::uint64_t bytes = 0;
    std::uint64_t notSent = 0;
    std::uint64_t connects = 0;
    std::uint64_t disconnects = 0;
    friend bool operator==(const ForwardStats&, const ForwardStats&) = default;
};

struct ConsumerStats {
    std::string name;
    std::string kind;                 // "packets" or "parameters"
    std::string delivery;             // "everySample" or "newest"
    QueueStats queue;                 // Processed Parameter Queue (parameters) / packet queue; drops = overflows
    std::uint64_t delivered = 0;      // items taken by the consumer
    friend bool operator==(const ConsumerStats&, const ConsumerStats&) = default;
};

struct StationSnapshot {
    std::int64_t timeNs = 0;          // CLOCK_REALTIME when taken
    double uptimeSeconds = 0;
    double cpuPercent = 0;            // the process's CPU over the last interval; 100 = one core
    PacketCounters totals;            // sums over the streams
    Rates rates;
    std::uint64_t recordingErrors = 0; // recorders that have failed
    std::string recordingState;        // "off", "recording to DIR", "failed: ..."
    std::uint64_t poolInUse = 0;
    std::uint64_t poolCapacity = 0;
    std::uint64_t events = 0;          // operator events logged so far (errors, connects, ...)
    std::vector<StreamStats> streams;
    std::vector<ForwardStats> forwards;
    std::vector<ConsumerStats> consumers;

    // Anything lost, dropped or malformed (the headless mode's exit code 3).
    [[nodiscard]] bool hasLoss() const noexcept;
    friend bool operator==(const StationSnapshot&, const StationSnapshot&) = default;
};

} // namespace telestation::stats
