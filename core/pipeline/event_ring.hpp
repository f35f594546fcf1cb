// RawEvent, EventRing: how the hot threads (router, processor) tell the station's event thread that a
// fault happened — a small fixed-size record pushed into a bounded SPSC ring, only when a fault
// happens (never per good packet), with no allocation, lock or text. The event thread
// (event_monitor) turns each into an events::Event with names and words. A full ring (the event thread
// far behind) loses the record, never blocks: the loss is counted and reported. Internal.
#pragma once

#include "core/common/clock.hpp"
#include "core/events/event.hpp"
#include "core/pipeline/counters.hpp"
#include "core/pipeline/spsc_ring.hpp"

#include <cstdint>
#include <mutex>
#include <vector>

namespace telestation::pipeline {

enum class RawEventKind : std::uint8_t {
    Gap,          // amount = packets lost
    Duplicate,
    Late,         // an out-of-order arrival
    Resync,       // a count far behind the newest (the sender restarted)
    Malformed,    // reason = MalformedReason
    LayoutError,  // reason = decode::LayoutStatus
    Limit,        // parameterIndex, from/to = decode::LimitState, value, state
};

// Why the router dropped a packet as malformed (the header check's error is kept in `detail`).
enum class MalformedReason : std::uint8_t { Header, LengthNotAllowed, ShorterThanLayout };

struct RawEvent {
    std::int64_t timeNs = 0;         // the packet's receive time
    double value = 0;                // limits: the calibrated value
    std::uint64_t amount = 1;
    std::uint32_t typeIndex = 0;
    std::uint32_t parameterIndex = 0; // limits: index in the packet definition
    std::int32_t state = -1;         // limits: an enumeration's state index
    std::uint32_t size = 0;          // Malformed, LayoutError: the packet's bytes
    std::uint16_t streamId = 0;
    std::uint16_t apid = 0;
    RawEventKind kind = RawEventKind::Gap;
    std::uint8_t reason = 0;         // Malformed: MalformedReason; LayoutError: decode::LayoutStatus
    std::uint8_t detail = 0;         // Malformed by header: ccsds::HeaderError; packet length in `amount`
    std::uint8_t from = 0, to = 0;   // limits: decode::LimitState before and now
};

struct EventRing {
    static constexpr std::size_t kCapacity = 1u << 15; // ~1.5 MiB; drained every event-thread round

    SpscRing<RawEvent> ring{kCapacity};
    Counter lost{0}; // producer: records that found the ring full

    void push(const RawEvent& e) noexcept
    {
        if (!ring.push(e)) [[unlikely]]
            bump(lost);
    }
};

// The way in for every other thread (receivers, recorder, forwarder, controls): whole events, under a
// mutex — they are rare (connections, failures, operator actions), never per packet. Bounded like the
// rings: past kMax waiting (the event thread stalled) an event is counted in `lost`, not kept.
class EventInbox {
public:
    static constexpr std::size_t kMax = 65536;

    void post(events::Event e)
    {
        if (e.timeNs == 0)
            e.timeNs = clock::realtimeNs();
        std::lock_guard lock(m_mutex);
        if (m_pending.size() >= kMax) {
            ++m_lost;
            return;
        }
        m_pending.push_back(std::move(e));
    }
    [[nodiscard]] std::uint64_t lost() const
    {
        std::lock_guard lock(m_mutex);
        return m_lost;
    }
    // Moves what is pending to the end of `out`.
    void takeInto(std::vector<events::Event>& out)
    {
        std::lock_guard lock(m_mutex);
        for (auto& e : m_pending)
            out.push_back(std::move(e));
        m_pending.clear();
    }

private:
    mutable std::mutex m_mutex;
    std::vector<events::Event> m_pending;
    std::uint64_t m_lost = 0;
};

} // namespace telestation::pipeline
