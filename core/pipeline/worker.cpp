#include "core/pipeline/worker.hpp"

#include "core/common/thread_name.hpp"

#include <chrono>
#include <thread>

namespace telestation::pipeline {

Worker::Worker(StationCore& core, Doorbell& bell, const std::atomic<bool>& upstreamDone, const char* threadName)
    : m_core(core), m_bell(bell), m_upstreamDone(upstreamDone), m_threadName(threadName)
{
}

Worker::~Worker()
{
    join();
}

void Worker::start()
{
    m_looping.store(true, std::memory_order_release);
    m_thread = std::thread([this] { run(); });
}

void Worker::awaitPass() const
{
    // Sequentially consistent with the unpublish before it and the workers' slot loads after their
    // increment (stream_table.hpp): a pass counted after `seen` loads the slots after the unpublish.
    const std::uint64_t seen = m_passes.load(std::memory_order_seq_cst);
    // Two increments: a whole pass begun after the call (the recorder has also had its beforeRound).
    while (m_looping.load(std::memory_order_acquire) && m_passes.load(std::memory_order_seq_cst) < seen + 2) {
        m_bell.ring();
        std::this_thread::sleep_for(std::chrono::microseconds(100));
    }
}

void Worker::join()
{
    if (m_thread.joinable())
        m_thread.join();
}

void Worker::run()
{
    setThreadName(m_threadName);
    starting();
    for (;;) {
        m_passes.fetch_add(1, std::memory_order_seq_cst); // holds no stream pointer here
        if (serviceRound() > 0)
            continue;
        // Read "upstream done" before the last look at the queues: anything pushed before it was set
        // is then visible to that look.
        const bool finishing = m_upstreamDone.load(std::memory_order_acquire);
        const std::uint32_t ticket = m_bell.prepare();
        if (hasWork()) {
            m_bell.cancel();
            continue;
        }
        if (finishing) {
            m_bell.cancel();
            break;
        }
        m_bell.wait(ticket, m_core.options.pollTimeout);
    }
    finished();
    m_looping.store(false, std::memory_order_release);
}

QueueWorker::QueueWorker(StationCore& core, Doorbell& bell, PacketQueue Stream::*queue, const char* threadName)
    : Worker(core, bell, core.routerDone, threadName), m_queue(queue)
{
}

std::size_t QueueWorker::serviceRound()
{
    beforeRound();
    std::size_t work = 0;
    m_core.streams.forEach([&](Stream& s) {
        PacketQueue& q = s.*m_queue;
        const std::size_t n = q.ring.popBatch(m_batch);
        if (n == 0)
            return;
        handle(s, std::span<const PacketHandle>(m_batch.data(), n));
        bump(q.done, n);
        work += n;
    });
    return work;
}

bool QueueWorker::hasWork() const
{
    return m_core.streams.any([&](const Stream& s) { return (s.*m_queue).ring.size() > 0; });
}

} // namespace telestation::pipeline
