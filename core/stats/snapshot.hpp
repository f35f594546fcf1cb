// The station's statistics snapshot: one plain value type that the GUI, the headless reports and the
// tests all read, under the same names (the JSON keys are the member names). Taken by
// pipeline::Station::snapshot() at any time (1 Hz by the observers); counters are totals since the
// station started; rates are over the interval since the previous snapshot (RateTracker).
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <string_view>
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
    std::uint64_t packetsDecoded = 0;    // whose parameters were decoded: every packet processed entirely; on
                                         // demand, each kept packet a subscriber or reader decoded (once)
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

    // Adds `other` field by field (packet types into their stream, streams into the totals): every
    // counter is summed except largestGap, a maximum, which takes the larger of the two.
    PacketCounters& operator+=(const PacketCounters& other) noexcept;
    // What was counted since `baseline`, an earlier value of the same counters (a view's Reset):
    // - totals: the difference; one below its baseline restarted, so all of it is newer: as it is;
    // - largestGap: itself when larger than the baseline's (a gap known to be newer), else 0;
    // - when packetsReceived is below its baseline the item restarted: everything as it is.
    [[nodiscard]] PacketCounters since(const PacketCounters& baseline) const noexcept;

    friend bool operator==(const PacketCounters&, const PacketCounters&) = default;
};

// How a counter adds up over packet types, streams and the station (and so what it is since a
// baseline): see PacketCounters::operator+= and since().
enum class Combine : std::uint8_t {
    Sum, // a total
    Max, // a maximum (largestGap)
};

// What a counter says about loss: StationSnapshot::hasLoss() (any non-zero loss counter),
// dropCount() (the Drop ones) and errorCount() (the Error ones) in status_line.hpp.
enum class Loss : std::uint8_t {
    None,  // counted, not loss
    Lost,  // missing or unreadable (packetsLost, malformed)
    Drop,  // dropped at a full queue
    Error, // not recorded or not forwarded because the recorder or a destination failed
};

struct CounterField {
    std::string_view key; // the member's name: the JSON key
    std::uint64_t PacketCounters::*member;
    Combine combine;
    Loss loss;
};

// Every member of PacketCounters once, in declaration order: what the JSON, the sums, the baseline and
// the loss checks go through, so that a new counter is added to the struct and here, nowhere else.
inline constexpr std::array<CounterField, 25> kCounterFields { {
    { "packetsReceived", &PacketCounters::packetsReceived, Combine::Sum, Loss::None },
    { "bytesReceived", &PacketCounters::bytesReceived, Combine::Sum, Loss::None },
    { "packetsProcessed", &PacketCounters::packetsProcessed, Combine::Sum, Loss::None },
    { "packetsRecorded", &PacketCounters::packetsRecorded, Combine::Sum, Loss::None },
    { "bytesRecorded", &PacketCounters::bytesRecorded, Combine::Sum, Loss::None },
    { "packetsForwarded", &PacketCounters::packetsForwarded, Combine::Sum, Loss::None },
    { "bytesForwarded", &PacketCounters::bytesForwarded, Combine::Sum, Loss::None },
    { "parametersDecoded", &PacketCounters::parametersDecoded, Combine::Sum, Loss::None },
    { "packetsDecoded", &PacketCounters::packetsDecoded, Combine::Sum, Loss::None },
    { "unknown", &PacketCounters::unknown, Combine::Sum, Loss::None },
    { "discarded", &PacketCounters::discarded, Combine::Sum, Loss::None },
    { "malformed", &PacketCounters::malformed, Combine::Sum, Loss::Lost },
    { "layoutErrors", &PacketCounters::layoutErrors, Combine::Sum, Loss::None }, // a reason for malformed
    { "longPackets", &PacketCounters::longPackets, Combine::Sum, Loss::None },
    { "extraBytes", &PacketCounters::extraBytes, Combine::Sum, Loss::None },
    { "sequenceErrors", &PacketCounters::sequenceErrors, Combine::Sum, Loss::None },
    { "packetsLost", &PacketCounters::packetsLost, Combine::Sum, Loss::Lost },
    { "largestGap", &PacketCounters::largestGap, Combine::Max, Loss::None },
    { "duplicates", &PacketCounters::duplicates, Combine::Sum, Loss::None },
    { "networkDrops", &PacketCounters::networkDrops, Combine::Sum, Loss::Drop },
    { "processDrops", &PacketCounters::processDrops, Combine::Sum, Loss::Drop },
    { "recordDrops", &PacketCounters::recordDrops, Combine::Sum, Loss::Drop },
    { "forwardDrops", &PacketCounters::forwardDrops, Combine::Sum, Loss::Drop },
    { "recordErrors", &PacketCounters::recordErrors, Combine::Sum, Loss::Error },
    { "forwardErrors", &PacketCounters::forwardErrors, Combine::Sum, Loss::Error },
} };
// A member added to PacketCounters and not to the table fails here.
static_assert(sizeof(PacketCounters) == kCounterFields.size() * sizeof(std::uint64_t));

// A total since its baseline: the difference, or the total itself when it is below the baseline (the
// counter restarted, so all of it is newer than the baseline).
[[nodiscard]] constexpr std::uint64_t totalSince(std::uint64_t now, std::uint64_t baseline) noexcept
{
    return now >= baseline ? now - baseline : now;
}

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
    std::string recording;            // "" not recorded, "recording into FILE", "failed: WHY" (resume to record again)
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

struct StreamQueueField {
    std::string_view key;  // the member's name: the JSON key
    std::string_view name; // as tables and view keys name it
    QueueStats StreamStats::*member;
};

// A stream's four queues in the order of the data flow (and of their members).
inline constexpr std::array<StreamQueueField, 4> kStreamQueues { {
    { "networkQueue", "network", &StreamStats::networkQueue },
    { "processQueue", "process", &StreamStats::processQueue },
    { "recordQueue", "record", &StreamStats::recordQueue },
    { "forwardQueue", "forward", &StreamStats::forwardQueue },
} };

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

// The alarms listed now (core/events), per severity — index 0 info (unused), 1 warning, 2 error,
// 3 critical. Shelved alarms count only under `shelved`.
struct AlarmTally {
    std::array<std::uint32_t, 4> active{};         // out of normal now, acknowledged or not
    std::array<std::uint32_t, 4> unacknowledged{}; // active or back to normal, not yet acknowledged
    std::uint32_t shelved = 0;
    [[nodiscard]] std::uint32_t totalActive() const noexcept { return active[0] + active[1] + active[2] + active[3]; }
    [[nodiscard]] std::uint32_t totalUnacknowledged() const noexcept
    {
        return unacknowledged[0] + unacknowledged[1] + unacknowledged[2] + unacknowledged[3];
    }
    friend bool operator==(const AlarmTally&, const AlarmTally&) = default;
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
    std::uint64_t events = 0;          // operator events reported so far (storm summaries count once)
    AlarmTally alarms;
    std::vector<StreamStats> streams;
    std::vector<ForwardStats> forwards;
    std::vector<ConsumerStats> consumers;

    // Anything lost, dropped or malformed (the headless mode's exit code 3).
    [[nodiscard]] bool hasLoss() const noexcept;
    friend bool operator==(const StationSnapshot&, const StationSnapshot&) = default;
};

// How views recognise the same item in two snapshots.
// A packet type within its stream: (name, APID, secondary id) — the unknown type and a defined APID 0
// stay apart.
[[nodiscard]] std::string packetTypeKey(const PacketTypeStats& type);
// A stream's queue: "tm/network".
[[nodiscard]] std::string queueKey(const std::string& stream, const StreamQueueField& queue);
// The consumers in snapshot order: kind, name and, for repeated names, an occurrence number.
[[nodiscard]] std::vector<std::string> consumerKeys(const std::vector<ConsumerStats>& consumers);

} // namespace telestation::stats
