// StreamFramer: cuts CCSDS space packets out of a byte stream (TCP), each optionally preceded by a
// fixed-length transport header, using the primary header's length field. Memory is bounded (one
// buffer of transport header + the largest packet it accepts, allocated once); no allocation per
// packet.
//
// Resynchronisation: a header that cannot start a packet (version not 0, a length above
// maxPacketSize, a type or APID the options exclude) is a framing error. The framer then skips one
// byte at a time until a plausible header appears (transport header bytes are not examined), and
// counts the bytes it skipped. It never waits for more than one packet's worth of bytes.
//
// Plausible header, exactly: version bits 0, type bit == expectedType, APID 2047 only with acceptIdle
// (the type is checked for idle packets too), packetLength() = dataLength + 7 <= maxPacketSize
// (maxPacketSize is clamped to kMaxPacketSize; below kMinPacketSize nothing is plausible). The
// secondary header flag and the sequence flags and count are not examined. A plausible header is
// trusted: its length is followed even when it is wrong (see core/ccsds/README.md, "Stream framer").
//
// With a transport header of N bytes the candidate frame starts N bytes before the candidate packet
// header; while hunting the frame start moves one byte at a time, so a frame found after garbage
// carries the N bytes in front of its header whatever they are.
#pragma once

#include "core/ccsds/space_packet.hpp"

#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

namespace telestation::ccsds {

struct FramerOptions {
    std::size_t transportHeaderBytes = 0;
    std::size_t maxPacketSize = kMaxPacketSize; // a longer length field is a framing error
    PacketType expectedType = PacketType::Telemetry;
    bool acceptIdle = false;                    // APID 2047 as a packet start (dropped, counted)
    // While hunting after a framing error, a candidate must also have one of these APIDs (empty: any).
    // Resynchronising on a packet type the mission defines, not on data that happens to look like a
    // header: a run of zero bytes is an endless series of plausible 7-byte packets of APID 0.
    std::vector<std::uint16_t> resyncApids;
};

struct FramerStats {
    std::uint64_t packets = 0;       // complete packets delivered
    std::uint64_t framingErrors = 0; // implausible headers where a packet should start
    std::uint64_t resyncs = 0;       // times a plausible header was found again after an error
    std::uint64_t skippedBytes = 0;  // bytes dropped while hunting
    std::uint64_t idlePackets = 0;   // with acceptIdle: idle packets framed and dropped
    friend bool operator==(const FramerStats&, const FramerStats&) = default;
};

class StreamFramer {
public:
    class Sink {
    public:
        virtual ~Sink() = default;
        // A complete packet: `frame` holds the transport header (if any) and the packet; valid only
        // during the call.
        virtual void onPacket(std::span<const std::uint8_t> frame) = 0;
    };

    explicit StreamFramer(const FramerOptions& options = {});

    // Feeds bytes as they arrive (any split); delivers every packet they complete to `sink`.
    void push(std::span<const std::uint8_t> bytes, Sink& sink);
    // The connection ended: a partial packet still buffered is discarded and counted in `truncated`.
    void reset() noexcept;

    [[nodiscard]] const FramerStats& stats() const noexcept { return m_stats; }
    [[nodiscard]] std::uint64_t truncated() const noexcept { return m_truncated; } // partial packets dropped by reset()
    [[nodiscard]] std::size_t buffered() const noexcept { return m_size; }
    // Bytes the internal buffer holds at most: transportHeaderBytes + max(maxPacketSize, 6).
    [[nodiscard]] std::size_t capacity() const noexcept { return m_buffer.size(); }
    // The options in effect (maxPacketSize clamped to kMaxPacketSize).
    [[nodiscard]] const FramerOptions& options() const noexcept { return m_options; }
    // True while looking for a plausible header after a framing error.
    [[nodiscard]] bool hunting() const noexcept { return m_hunting; }

private:
    // Frame length (transport header + packet) if `header` (6 bytes) is plausible, else 0.
    [[nodiscard]] std::size_t frameLength(const std::uint8_t* header, bool& idle) const noexcept;
    // A candidate frame start was rejected (one byte skipped) or accepted.
    void rejectCandidate() noexcept;
    void acceptCandidate() noexcept;
    void deliver(std::span<const std::uint8_t> frame, bool idle, Sink& sink);
    // Continues the frame whose first bytes are buffered; returns the number of input bytes used.
    // Leaves m_size == 0 when the rest of the input can be read in place.
    std::size_t continueBuffered(const std::uint8_t* in, std::size_t n, Sink& sink);

    FramerOptions m_options;
    std::vector<std::uint8_t> m_buffer; // size fixed at construction; m_size bytes in use
    std::vector<bool> m_resyncApid;     // per APID, from options.resyncApids (empty: any)
    std::size_t m_size = 0;
    std::size_t m_headerEnd = 0;        // transportHeaderBytes + 6: bytes needed to judge a candidate
    bool m_hunting = false;
    FramerStats m_stats;
    std::uint64_t m_truncated = 0;
};

} // namespace telestation::ccsds
