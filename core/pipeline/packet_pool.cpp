#include "core/pipeline/packet_pool.hpp"

#include <algorithm>
#include <cassert>

namespace telestation::pipeline {

namespace {

constexpr std::size_t kCacheLine = 64;
constexpr std::size_t kSlotAlignment = 64; // each slot starts on its own cache line

constexpr std::size_t roundUp(std::size_t value, std::size_t to) noexcept { return (value + to - 1) / to * to; }

// A free-list head: the low 32 bits are the top slot's handle (kNoPacket when empty), the high 32 bits a
// tag bumped by every change, so that a pop that read an old top and its next link cannot succeed after
// the top was popped and pushed back in the meantime (ABA).
constexpr std::uint64_t packHead(PacketHandle index, std::uint32_t tag) noexcept
{
    return (static_cast<std::uint64_t>(tag) << 32) | index;
}
constexpr PacketHandle headIndex(std::uint64_t head) noexcept { return static_cast<PacketHandle>(head & 0xFFFFFFFFu); }
constexpr std::uint32_t headTag(std::uint64_t head) noexcept { return static_cast<std::uint32_t>(head >> 32); }

} // namespace

struct PacketPool::Impl {
    // One size class: a block of equal slots with its own free list.
    struct SizeClass {
        alignas(kCacheLine) std::atomic<std::uint64_t> freeHead{packHead(kNoPacket, 0)};
        PacketHandle first = 0; // handles first .. first + count - 1
        std::uint32_t count = 0;
        std::size_t slotBytes = 0;
        std::size_t stride = 0;
        std::unique_ptr<std::uint8_t[]> storage; // count * stride bytes, allocated once
    };

    explicit Impl(const PoolOptions& options)
        : total(static_cast<std::size_t>(options.smallSlots) + options.largeSlots)
        , meta(std::make_unique<PacketMeta[]>(total))
        , refs(std::make_unique<std::atomic<std::uint32_t>[]>(total))
        , next(std::make_unique<std::atomic<PacketHandle>[]>(total))
    {
        assert(total < kNoPacket);
        setUp(small, 0, options.smallSlots, options.smallSlotBytes);
        setUp(large, options.smallSlots, options.largeSlots, options.largeSlotBytes);
    }

    void setUp(SizeClass& sizeClass, PacketHandle first, std::uint32_t count, std::size_t slotBytes)
    {
        sizeClass.first = first;
        sizeClass.count = count;
        sizeClass.slotBytes = slotBytes;
        sizeClass.stride = roundUp(std::max<std::size_t>(slotBytes, 1), kSlotAlignment);
        if (count == 0)
            return;
        // Not zeroed: the receiver overwrites what it uses, and untouched pages of a large pool then stay
        // uncommitted until first used.
        sizeClass.storage = std::make_unique_for_overwrite<std::uint8_t[]>(count * sizeClass.stride);
        // Chain the slots in handle order, so that the first acquires hand out the lowest handles.
        for (std::uint32_t i = 0; i < count; ++i)
            next[first + i].store(i + 1 < count ? first + i + 1 : kNoPacket, std::memory_order_relaxed);
        sizeClass.freeHead.store(packHead(first, 0), std::memory_order_relaxed);
    }

    [[nodiscard]] const SizeClass& classOf(PacketHandle h) const noexcept { return h < large.first ? small : large; }
    [[nodiscard]] SizeClass& classOf(PacketHandle h) noexcept { return h < large.first ? small : large; }

    PacketHandle pop(SizeClass& sizeClass) noexcept
    {
        // Acquire: the slot's previous owner released it (its writes to the slot and to next[]) before
        // pushing it; whoever pops it next must see those writes.
        std::uint64_t head = sizeClass.freeHead.load(std::memory_order_acquire);
        for (;;) {
            const PacketHandle top = headIndex(head);
            if (top == kNoPacket)
                return kNoPacket;
            // May be stale if another thread pops `top` meanwhile: the tag then makes the CAS fail.
            const PacketHandle after = next[top].load(std::memory_order_relaxed);
            if (sizeClass.freeHead.compare_exchange_weak(head, packHead(after, headTag(head) + 1),
                                                         std::memory_order_acquire, std::memory_order_acquire))
                return top;
        }
    }

    void push(SizeClass& sizeClass, PacketHandle h) noexcept
    {
        std::uint64_t head = sizeClass.freeHead.load(std::memory_order_relaxed);
        for (;;) {
            next[h].store(headIndex(head), std::memory_order_relaxed);
            if (sizeClass.freeHead.compare_exchange_weak(head, packHead(h, headTag(head) + 1),
                                                         std::memory_order_release, std::memory_order_relaxed))
                return;
        }
    }

    std::size_t total;
    std::unique_ptr<PacketMeta[]> meta;
    std::unique_ptr<std::atomic<std::uint32_t>[]> refs;
    std::unique_ptr<std::atomic<PacketHandle>[]> next; // free-list links, meaningful only for free slots
    SizeClass small;
    SizeClass large;

    // Statistics (relaxed: they order nothing).
    alignas(kCacheLine) std::atomic<std::uint64_t> acquired{0};
    std::atomic<std::uint64_t> acquireFailures{0};
    std::atomic<std::uint32_t> inUse{0};
    std::atomic<std::uint32_t> inUseHighWater{0};
};

PacketPool::PacketPool(const PoolOptions& options) : m_impl(std::make_unique<Impl>(options)) {}

PacketPool::~PacketPool() = default;

PacketHandle PacketPool::acquire(std::size_t bytes) noexcept
{
    Impl& d = *m_impl;
    PacketHandle h = kNoPacket;
    if (bytes <= d.small.slotBytes)
        h = d.pop(d.small);
    if (h == kNoPacket && bytes <= d.large.slotBytes)
        h = d.pop(d.large); // the fitting class, or the fallback for a small packet
    if (h == kNoPacket) {
        d.acquireFailures.fetch_add(1, std::memory_order_relaxed);
        return kNoPacket;
    }
    d.meta[h] = PacketMeta{};
    d.refs[h].store(1, std::memory_order_relaxed); // the slot is ours alone until handed on
    d.acquired.fetch_add(1, std::memory_order_relaxed);
    const std::uint32_t now = d.inUse.fetch_add(1, std::memory_order_relaxed) + 1;
    std::uint32_t mark = d.inUseHighWater.load(std::memory_order_relaxed);
    while (now > mark && !d.inUseHighWater.compare_exchange_weak(mark, now, std::memory_order_relaxed)) {
    }
    return h;
}

std::span<std::uint8_t> PacketPool::storage(PacketHandle h) noexcept
{
    assert(h < m_impl->total);
    Impl::SizeClass& c = m_impl->classOf(h);
    return {c.storage.get() + static_cast<std::size_t>(h - c.first) * c.stride, c.slotBytes};
}

std::span<const std::uint8_t> PacketPool::bytes(PacketHandle h) const noexcept
{
    assert(h < m_impl->total);
    const Impl::SizeClass& c = m_impl->classOf(h);
    const std::size_t length = std::min<std::size_t>(m_impl->meta[h].length, c.slotBytes);
    return {c.storage.get() + static_cast<std::size_t>(h - c.first) * c.stride, length};
}

PacketMeta& PacketPool::meta(PacketHandle h) noexcept
{
    assert(h < m_impl->total);
    return m_impl->meta[h];
}

const PacketMeta& PacketPool::meta(PacketHandle h) const noexcept
{
    assert(h < m_impl->total);
    return m_impl->meta[h];
}

void PacketPool::addRef(PacketHandle h, std::uint32_t count) noexcept
{
    assert(h < m_impl->total);
    // Relaxed: the caller already holds a reference, so the slot cannot be returned meanwhile.
    [[maybe_unused]] const std::uint32_t before = m_impl->refs[h].fetch_add(count, std::memory_order_relaxed);
    assert(before > 0 && "addRef on a slot nobody holds");
}

void PacketPool::release(PacketHandle h) noexcept
{
    Impl& d = *m_impl;
    assert(h < d.total);
    // acq_rel: every holder's reads and writes of the slot happen before the last release returns it.
    const std::uint32_t before = d.refs[h].fetch_sub(1, std::memory_order_acq_rel);
    assert(before > 0 && "release of a slot with no reference left");
    if (before != 1)
        return;
    d.inUse.fetch_sub(1, std::memory_order_relaxed);
    d.push(d.classOf(h), h);
}

PoolStats PacketPool::stats() const noexcept
{
    const Impl& d = *m_impl;
    PoolStats s;
    s.acquired = d.acquired.load(std::memory_order_relaxed);
    s.acquireFailures = d.acquireFailures.load(std::memory_order_relaxed);
    s.inUse = d.inUse.load(std::memory_order_relaxed);
    s.inUseHighWater = d.inUseHighWater.load(std::memory_order_relaxed);
    return s;
}

std::size_t PacketPool::capacity() const noexcept { return m_impl->total; }

} // namespace telestation::pipeline
