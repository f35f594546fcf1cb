// The station's worker threads share one loop: service what is queued, sleep on a doorbell when there
// is nothing, and end once the upstream has ended and nothing is left. Worker is that loop; QueueWorker
// is a worker that drains one of each stream's packet queues a batch at a time (the processor,
// recorder and forwarder). Internal to core/pipeline.
#pragma once

#include "core/pipeline/packet_pool.hpp"
#include "core/pipeline/station_core.hpp"

#include <array>
#include <atomic>
#include <cstddef>
#include <span>
#include <thread>

namespace telestation::pipeline {

inline constexpr std::size_t kBatch = 256; // packets a thread takes from or gives to a queue at a time

class Worker {
public:
    virtual ~Worker();
    Worker(const Worker&) = delete;
    Worker& operator=(const Worker&) = delete;

    void start(); // runs the loop on its own thread
    void join();

    // Reclamation of removed streams (stream_table.hpp), controlling thread: returns once the worker
    // has begun a whole pass after the call (it then holds no stream pointer it loaded before), or at
    // once when the thread is not running. Rings the worker's doorbell so that a sleeping worker passes.
    void awaitPass() const;

protected:
    // `threadName`: the thread's name for tools ("ts-processor"; core/common/thread_name.hpp).
    Worker(StationCore& core, Doorbell& bell, const std::atomic<bool>& upstreamDone, const char* threadName);

    virtual void starting() {}                // on the thread, before the loop
    [[nodiscard]] virtual std::size_t serviceRound() = 0; // packets handled this round
    [[nodiscard]] virtual bool hasWork() const = 0;       // anything queued for this worker
    virtual void finished() {}                // on the thread, after the last packet

    StationCore& m_core;

private:
    void run();

    Doorbell& m_bell;
    const std::atomic<bool>& m_upstreamDone;
    const char* m_threadName;
    std::thread m_thread;
    // Counted at the top of each loop, where the worker holds no stream pointer.
    std::atomic<std::uint64_t> m_passes{0};
    std::atomic<bool> m_looping{false};
};

class QueueWorker : public Worker {
protected:
    // Drains `queue` of every stream; its upstream is the router.
    QueueWorker(StationCore& core, Doorbell& bell, PacketQueue Stream::*queue, const char* threadName);

    virtual void beforeRound() {} // once per round: settings refresh and the like
    virtual void handle(Stream& stream, std::span<const PacketHandle> batch) = 0; // then releases them

private:
    std::size_t serviceRound() final;
    bool hasWork() const final;

    PacketQueue Stream::*m_queue;
    std::array<PacketHandle, kBatch> m_batch{};
};

} // namespace telestation::pipeline
