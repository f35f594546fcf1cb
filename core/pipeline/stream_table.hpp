// StreamTable: the station's streams while they come and go. A fixed-capacity table of slots, index =
// stream id; each slot is an atomic Stream pointer (null = no stream), so the worker threads find the
// streams without a lock or an allocation. Streams are added and removed one at a time by the
// controlling thread only, while the workers run.
//
// Reclamation (core/pipeline/README.md, "Streams that come and go"): a removed stream is unpublished
// (its slot set to null), then freed only once no thread can still hold its pointer:
//   - the workers (router, processor, recorder, forwarder) read slots without a lock; each counts its
//     passes at the top of its loop, where it holds no stream pointer. The controlling thread waits
//     until every running worker has begun a whole new pass after the unpublish (Worker::awaitPass,
//     which rings the worker's doorbell so that a sleeping worker passes at once);
//   - every other thread (snapshots, the event thread, consumers' look-ups) reads the table under
//     `mutex`, which the controlling thread takes before it frees a stream;
//   - the stream's own receiver thread has been joined.
// A freed slot may be given to a stream added later (once the ids have gone round); `serial` tells a
// stream from the earlier occupants of its slot (per-stream state the workers and the event thread keep
// by id is reset when the serial differs). Internal to core/pipeline.
#pragma once

#include "core/pipeline/stream.hpp"

#include <array>
#include <atomic>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <mutex>
#include <optional>
#include <string_view>

namespace telestation::pipeline {

class StreamTable {
public:
    static constexpr std::size_t kCapacity = 256; // streams at once; ids are 0 .. kCapacity - 1

    // ---- Any thread that may (workers: lock-free; others: under `mutex`) ----
    // Sequentially consistent (a plain load on x86-64): ordered with the unpublish and the workers'
    // pass counts, on which reclamation relies.
    [[nodiscard]] Stream* at(std::size_t id) const noexcept
    {
        return id < kCapacity ? m_slots[id].load(std::memory_order_seq_cst) : nullptr;
    }
    // One past the highest id ever used: the workers' loops stop here.
    [[nodiscard]] std::size_t bound() const noexcept { return m_bound.load(std::memory_order_acquire); }
    // fn(Stream&) for every stream, in id order.
    template <typename Fn>
    void forEach(Fn&& fn) const
    {
        const std::size_t end = bound();
        for (std::size_t id = 0; id < end; ++id)
            if (Stream* s = at(id))
                fn(*s);
    }
    template <typename Pred>
    [[nodiscard]] bool any(Pred&& pred) const
    {
        const std::size_t end = bound();
        for (std::size_t id = 0; id < end; ++id)
            if (Stream* s = at(id); s && pred(*s))
                return true;
        return false;
    }
    // The stream of that name, or nullptr (the controlling thread, or under `mutex`).
    [[nodiscard]] Stream* find(std::string_view name) const
    {
        Stream* found = nullptr;
        forEach([&](Stream& s) {
            if (!found && s.name() == name)
                found = &s;
        });
        return found;
    }
    [[nodiscard]] std::size_t size() const noexcept { return m_size.load(std::memory_order_relaxed); }

    // ---- The controlling thread ----
    // The next free id after the last one given, cyclically (a removed stream's id is given again only
    // once the table has gone round: consumers that still hold it rarely meet another stream under
    // it), or nullopt when the table is full.
    [[nodiscard]] std::optional<std::uint16_t> freeId() const noexcept
    {
        for (std::size_t i = 0; i < kCapacity; ++i) {
            const std::size_t id = (m_next + i) % kCapacity;
            if (!m_owned[id])
                return static_cast<std::uint16_t>(id);
        }
        return std::nullopt;
    }
    // Publishes a stream at its id (which must be free): the workers see it from their next round.
    void publish(std::unique_ptr<Stream> stream)
    {
        const std::uint16_t id = stream->id;
        Stream* raw = stream.get();
        m_owned[id] = std::move(stream);
        m_next = (id + 1u) % kCapacity;
        m_size.fetch_add(1, std::memory_order_relaxed);
        if (id + 1u > m_bound.load(std::memory_order_relaxed))
            m_bound.store(id + 1u, std::memory_order_release);
        m_slots[id].store(raw, std::memory_order_release);
    }
    // Takes a stream out of the table: no thread finds it any more, but the workers may still hold it
    // until their next pass; the caller frees it only after that (Station::Impl::retire).
    [[nodiscard]] std::unique_ptr<Stream> unpublish(std::uint16_t id)
    {
        m_slots[id].store(nullptr, std::memory_order_seq_cst);
        m_size.fetch_sub(1, std::memory_order_relaxed);
        return std::move(m_owned[id]);
    }

    // Held by readers that are neither the workers nor the controlling thread, and by the controlling
    // thread when it publishes or frees a stream.
    mutable std::mutex mutex;

private:
    std::array<std::atomic<Stream*>, kCapacity> m_slots{};
    std::array<std::unique_ptr<Stream>, kCapacity> m_owned{}; // controlling thread
    std::size_t m_next = 0;                                    // controlling thread: where freeId looks first
    std::atomic<std::size_t> m_bound{0};
    std::atomic<std::size_t> m_size{0};
};

} // namespace telestation::pipeline
