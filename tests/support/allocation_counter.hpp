// Counts heap allocations, so that a test can show a code path allocates nothing. Replaces the global
// operator new and delete: include this header in exactly ONE translation unit of a test executable.
#pragma once

#include <atomic>
#include <cstdlib>
#include <new>

namespace telestation::test {

inline std::atomic<long> g_allocationCount{0}; // all threads
inline thread_local long t_allocationCount = 0; // this thread (other threads' work does not disturb it)

[[nodiscard]] inline long allocations() noexcept { return g_allocationCount.load(std::memory_order_relaxed); }
[[nodiscard]] inline long threadAllocations() noexcept { return t_allocationCount; }

} // namespace telestation::test

void* operator new(std::size_t size)
{
    telestation::test::g_allocationCount.fetch_add(1, std::memory_order_relaxed);
    ++telestation::test::t_allocationCount;
    if (void* p = std::malloc(size != 0 ? size : 1))
        return p;
    throw std::bad_alloc();
}
void operator delete(void* p) noexcept { std::free(p); }
void operator delete(void* p, std::size_t) noexcept { std::free(p); }
// The nothrow forms too (std::stable_sort's temporary buffer uses them): otherwise they would come from
// the runtime while their delete comes from here, which AddressSanitizer reports as a mismatch.
void* operator new(std::size_t size, const std::nothrow_t&) noexcept
{
    telestation::test::g_allocationCount.fetch_add(1, std::memory_order_relaxed);
    ++telestation::test::t_allocationCount;
    return std::malloc(size != 0 ? size : 1);
}
void operator delete(void* p, const std::nothrow_t&) noexcept { std::free(p); }
