// Doorbell: how a worker thread sleeps when all its queues are empty and how producers wake it,
// without a syscall per packet. An event count on a futex: the worker announces that it is about to
// sleep, checks its queues once more, then sleeps (with a timeout, a safety net); a producer rings
// after publishing a batch and makes the futex call only when someone is announced as sleeping.
//
//   worker:   auto ticket = bell.prepare(); if (queuesEmpty()) bell.wait(ticket, 50ms); else bell.cancel();
//   producer: queue.pushBatch(...); bell.ring();
//
// Correctness (no lost wake-up): prepare() and ring() are both read-modify-writes of the sleeper
// count, so they are totally ordered. If ring() comes first, the worker's increment synchronises with
// it and the worker's last look sees the packets published before ring(); if prepare() comes first,
// ring() sees a sleeper. (No standalone fence: ThreadSanitizer does not model fences.)
#pragma once

#include <atomic>
#include <chrono>
#include <cstdint>

#include <climits>
#include <ctime>
#include <linux/futex.h>
#include <sys/syscall.h>
#include <unistd.h>

namespace telestation::pipeline {

class Doorbell {
public:
    [[nodiscard]] std::uint32_t prepare() noexcept
    {
        m_sleepers.fetch_add(1, std::memory_order_seq_cst);
        return m_sequence.load(std::memory_order_seq_cst);
    }
    void cancel() noexcept { m_sleepers.fetch_sub(1, std::memory_order_seq_cst); }
    // Sleeps until rung (after prepare() returned `ticket`) or the timeout passes.
    void wait(std::uint32_t ticket, std::chrono::nanoseconds timeout) noexcept
    {
        timespec ts{};
        ts.tv_sec = static_cast<time_t>(timeout.count() / 1'000'000'000);
        ts.tv_nsec = static_cast<long>(timeout.count() % 1'000'000'000);
        if (m_sequence.load(std::memory_order_seq_cst) == ticket)
            syscall(SYS_futex, reinterpret_cast<std::uint32_t*>(&m_sequence), FUTEX_WAIT_PRIVATE, ticket, &ts, nullptr, 0);
        m_sleepers.fetch_sub(1, std::memory_order_seq_cst);
    }
    void ring() noexcept
    {
        if (m_sleepers.fetch_add(0, std::memory_order_seq_cst) == 0)
            return;
        m_sequence.fetch_add(1, std::memory_order_seq_cst);
        syscall(SYS_futex, reinterpret_cast<std::uint32_t*>(&m_sequence), FUTEX_WAKE_PRIVATE, INT_MAX, nullptr, nullptr, 0);
    }

private:
    static_assert(sizeof(std::atomic<std::uint32_t>) == sizeof(std::uint32_t));
    std::atomic<std::uint32_t> m_sequence{0};
    std::atomic<std::uint32_t> m_sleepers{0};
};

} // namespace telestation::pipeline
