// PacketPool: preallocated storage for received packets. A receiver thread takes a slot, fills it with
// the bytes as received (transport header + packet) and stamps it; the slot then travels through the
// station's queues as a PacketHandle (a 32-bit index) and may sit in several queues at once without a
// copy (the process, record and forward queues): each holder owns one reference; the last release
// returns the slot. No allocation and no lock after construction.
//
// Slots come in two size classes: small slots (default 2 KiB: most telemetry packets) and large slots
// (room for the largest CCSDS packet, 65,542 bytes, plus a transport header); acquire() picks the
// smallest that fits. When the small slots are exhausted, a packet that fits a small slot takes a large
// slot instead (a burst of small packets should not be dropped while large slots sit idle); only when no
// fitting slot of either class is free is it a counted acquire failure (the receiver drops and counts).
// acquire() resets the slot's PacketMeta to its defaults.
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>

namespace telestation::pipeline {

using PacketHandle = std::uint32_t;
inline constexpr PacketHandle kNoPacket = 0xFFFFFFFFu;

// What travels with a packet's bytes.
struct PacketMeta {
    std::int64_t receiveTimeNs = 0; // CLOCK_REALTIME when the receiver got it
    std::uint32_t length = 0;       // bytes used in the slot (transport header + packet)
    std::uint16_t streamId = 0;
    std::uint16_t apid = 0;         // filled by the router (0 until then)
    std::uint32_t typeIndex = 0;    // the packet type's index in the stream's table (router)
    std::uint16_t transportHeaderBytes = 0;
    std::uint64_t forwardMask = 0;  // the router's choice of forward destinations (bit i: destination i)
};

struct PoolOptions {
    std::uint32_t smallSlots = 65536;
    std::uint32_t smallSlotBytes = 2048;
    std::uint32_t largeSlots = 256;
    std::uint32_t largeSlotBytes = 65542 + 65535; // the largest packet + the largest transport header
};

struct PoolStats {
    std::uint64_t acquired = 0;
    std::uint64_t acquireFailures = 0; // no free slot of a fitting class
    std::uint32_t inUse = 0;           // slots currently held
    std::uint32_t inUseHighWater = 0;
};

class PacketPool {
public:
    explicit PacketPool(const PoolOptions& options = {});
    ~PacketPool();
    PacketPool(const PacketPool&) = delete;
    PacketPool& operator=(const PacketPool&) = delete;

    // A free slot with room for `bytes`, holding one reference; kNoPacket when none is free (counted).
    // Any thread; lock-free.
    [[nodiscard]] PacketHandle acquire(std::size_t bytes) noexcept;
    // The slot's whole storage (for the receiver to fill) and its used part.
    [[nodiscard]] std::span<std::uint8_t> storage(PacketHandle h) noexcept;
    [[nodiscard]] std::span<const std::uint8_t> bytes(PacketHandle h) const noexcept; // meta(h).length bytes
    [[nodiscard]] PacketMeta& meta(PacketHandle h) noexcept;
    [[nodiscard]] const PacketMeta& meta(PacketHandle h) const noexcept;

    // Reference counting: addRef before handing the packet to another queue; release when done with it.
    // The last release returns the slot (any thread; lock-free).
    void addRef(PacketHandle h, std::uint32_t count = 1) noexcept;
    void release(PacketHandle h) noexcept;

    [[nodiscard]] PoolStats stats() const noexcept;
    [[nodiscard]] std::size_t capacity() const noexcept; // total slots

private:
    // Storage, metadata, reference counts and the lock-free free lists (packet_pool.cpp); behind a
    // pointer so that the header stays small and the layout can change without recompiling users.
    struct Impl;
    std::unique_ptr<Impl> m_impl;
};

} // namespace telestation::pipeline
