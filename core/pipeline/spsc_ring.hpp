// SpscRing<T>: a bounded single-producer / single-consumer ring — the queues between the station's
// threads (network packet queue, process/record/forward queues). Lock-free, allocation-free after
// construction; batch push/pop; the producer tracks the high-water mark. Capacity is any value >= 1
// (the storage is rounded up to a power of two internally, the limit stays exact).
//
// Thread rules: exactly one thread calls the push functions, exactly one (other) thread calls the pop
// functions; size(), capacity() and highWater() may be read from any thread (approximate while busy).
#pragma once

#include <algorithm>
#include <atomic>
#include <bit>
#include <cassert>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>
#include <type_traits>

namespace telestation::pipeline {

template <typename T>
class SpscRing {
    static_assert(std::is_trivially_copyable_v<T>, "ring elements are copied as bytes (use indexes, not owners)");

public:
    explicit SpscRing(std::size_t capacity);
    SpscRing(const SpscRing&) = delete;
    SpscRing& operator=(const SpscRing&) = delete;

    // Producer side. push: false when full (the caller counts the drop). pushBatch: pushes as many of
    // `items` as fit, in order, and returns how many.
    [[nodiscard]] bool push(const T& item) noexcept;
    [[nodiscard]] std::size_t pushBatch(std::span<const T> items) noexcept;

    // Consumer side. pop: false when empty. popBatch: up to out.size() items, returns how many.
    [[nodiscard]] bool pop(T& item) noexcept;
    [[nodiscard]] std::size_t popBatch(std::span<T> out) noexcept;

    [[nodiscard]] std::size_t size() const noexcept;
    [[nodiscard]] std::size_t capacity() const noexcept { return m_capacity; }
    [[nodiscard]] std::size_t highWater() const noexcept; // the largest size the producer has seen
    void resetHighWater() noexcept;                      // any thread (statistics reset)

private:
    // One cache line per side: the indexes are written by one thread each, and a shared line would
    // bounce between the cores on every push and pop.
    static constexpr std::size_t kCacheLine = 64;

    // Copies `n` items between the ring (starting at index `at`) and a linear buffer, in at most two
    // pieces (the storage wraps around).
    void copyIn(std::size_t at, const T* from, std::size_t n) noexcept;
    void copyOut(std::size_t at, T* to, std::size_t n) const noexcept;
    void noteSize(std::size_t tail) noexcept;

    // Immutable after construction (read by both sides).
    std::size_t m_capacity;
    std::size_t m_mask;
    std::unique_ptr<T[]> m_storage;

    // Indexes run freely (they are never wrapped: a std::size_t does not overflow in practice, and the
    // unsigned difference stays right even if it did); the slot is index & m_mask.
    // Consumer's line: its own index and its last look at the producer's.
    alignas(kCacheLine) std::atomic<std::size_t> m_head{0};
    std::size_t m_cachedTail = 0;
    // Producer's line: its own index, its last look at the consumer's, the high-water mark.
    alignas(kCacheLine) std::atomic<std::size_t> m_tail{0};
    std::size_t m_cachedHead = 0;
    std::atomic<std::size_t> m_highWater{0};
    // (The class is aligned to a cache line, so its size is padded and the next object starts on a
    // line of its own.)
};

template <typename T>
SpscRing<T>::SpscRing(std::size_t capacity)
    : m_capacity(std::max<std::size_t>(capacity, 1)) // a ring of 0 would be useless; treated as 1
    , m_mask(std::bit_ceil(m_capacity) - 1)
    , m_storage(std::make_unique<T[]>(m_mask + 1))
{
    assert(capacity >= 1);
}

template <typename T>
void SpscRing<T>::copyIn(std::size_t at, const T* from, std::size_t n) noexcept
{
    const std::size_t first = at & m_mask;
    const std::size_t part = std::min(n, m_mask + 1 - first);
    std::copy_n(from, part, m_storage.get() + first);
    std::copy_n(from + part, n - part, m_storage.get());
}

template <typename T>
void SpscRing<T>::copyOut(std::size_t at, T* to, std::size_t n) const noexcept
{
    const std::size_t first = at & m_mask;
    const std::size_t part = std::min(n, m_mask + 1 - first);
    std::copy_n(m_storage.get() + first, part, to);
    std::copy_n(m_storage.get(), n - part, to + part);
}

template <typename T>
void SpscRing<T>::noteSize(std::size_t tail) noexcept
{
    // The size against a stale head overestimates; look at the real head only when the estimate
    // would set a new mark, so that the common push touches nothing of the consumer's.
    const std::size_t mark = m_highWater.load(std::memory_order_relaxed);
    if (tail - m_cachedHead <= mark)
        return;
    m_cachedHead = m_head.load(std::memory_order_acquire);
    const std::size_t size = tail - m_cachedHead;
    if (size > mark)
        m_highWater.store(size, std::memory_order_relaxed);
}

template <typename T>
bool SpscRing<T>::push(const T& item) noexcept
{
    const std::size_t tail = m_tail.load(std::memory_order_relaxed);
    if (tail - m_cachedHead >= m_capacity) {
        m_cachedHead = m_head.load(std::memory_order_acquire);
        if (tail - m_cachedHead >= m_capacity)
            return false;
    }
    m_storage[tail & m_mask] = item;
    m_tail.store(tail + 1, std::memory_order_release);
    noteSize(tail + 1);
    return true;
}

template <typename T>
std::size_t SpscRing<T>::pushBatch(std::span<const T> items) noexcept
{
    const std::size_t tail = m_tail.load(std::memory_order_relaxed);
    std::size_t room = m_capacity - (tail - m_cachedHead);
    if (room < items.size()) {
        m_cachedHead = m_head.load(std::memory_order_acquire);
        room = m_capacity - (tail - m_cachedHead);
    }
    const std::size_t n = std::min(room, items.size());
    if (n == 0)
        return 0;
    copyIn(tail, items.data(), n);
    m_tail.store(tail + n, std::memory_order_release); // one publication for the whole batch
    noteSize(tail + n);
    return n;
}

template <typename T>
bool SpscRing<T>::pop(T& item) noexcept
{
    const std::size_t head = m_head.load(std::memory_order_relaxed);
    if (head == m_cachedTail) {
        m_cachedTail = m_tail.load(std::memory_order_acquire);
        if (head == m_cachedTail)
            return false;
    }
    item = m_storage[head & m_mask];
    m_head.store(head + 1, std::memory_order_release);
    return true;
}

template <typename T>
std::size_t SpscRing<T>::popBatch(std::span<T> out) noexcept
{
    const std::size_t head = m_head.load(std::memory_order_relaxed);
    std::size_t available = m_cachedTail - head;
    if (available < out.size()) {
        m_cachedTail = m_tail.load(std::memory_order_acquire);
        available = m_cachedTail - head;
    }
    const std::size_t n = std::min(available, out.size());
    if (n == 0)
        return 0;
    copyOut(head, out.data(), n);
    m_head.store(head + n, std::memory_order_release);
    return n;
}

template <typename T>
std::size_t SpscRing<T>::size() const noexcept
{
    // Head first: the tail read afterwards can only be further on, so the difference never wraps.
    const std::size_t head = m_head.load(std::memory_order_acquire);
    const std::size_t tail = m_tail.load(std::memory_order_acquire);
    return std::min(tail - head, m_capacity);
}

template <typename T>
std::size_t SpscRing<T>::highWater() const noexcept
{
    return m_highWater.load(std::memory_order_relaxed);
}

template <typename T>
void SpscRing<T>::resetHighWater() noexcept
{
    // A reset racing with a producer's update may be overwritten by it: acceptable for a statistic.
    m_highWater.store(0, std::memory_order_relaxed);
}

} // namespace telestation::pipeline
