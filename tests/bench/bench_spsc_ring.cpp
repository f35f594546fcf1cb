// bench_spsc_ring: a producer and a consumer thread moving 32-bit packet handles through an
// SpscRing<uint32_t> of 8192 in batches of 64, as the receiver and a worker would. Prints million items/s.
// Usage: bench_spsc_ring [seconds]   (default 3)
#include "core/pipeline/spsc_ring.hpp"

#include <array>
#include <atomic>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <thread>

namespace {

constexpr std::size_t kCapacity = 8192;
constexpr std::size_t kBatch = 64;

} // namespace

int main(int argc, char** argv)
{
    double seconds = 3;
    if (argc > 1) {
        char* end = nullptr;
        seconds = std::strtod(argv[1], &end);
        if (end == argv[1] || *end != '\0' || !(seconds > 0)) {
            std::fprintf(stderr, "usage: %s [seconds]\n", argv[0]);
            return 2;
        }
    }

    telestation::pipeline::SpscRing<std::uint32_t> ring(kCapacity);
    std::atomic<bool> stop{false};
    std::uint64_t produced = 0;

    std::thread producer([&] {
        std::array<std::uint32_t, kBatch> batch{};
        std::uint32_t next = 0;
        while (!stop.load(std::memory_order_relaxed)) {
            for (auto& item : batch)
                item = next++;
            std::size_t sent = 0;
            while (sent < kBatch && !stop.load(std::memory_order_relaxed)) {
                const std::size_t n = ring.pushBatch(std::span<const std::uint32_t>(batch).subspan(sent));
                sent += n;
                if (n == 0)
                    std::this_thread::yield();
            }
            produced += sent;
            next -= static_cast<std::uint32_t>(kBatch - sent); // items not sent are sent next time
        }
    });

    std::uint64_t consumed = 0;
    std::uint32_t expected = 0;
    bool inOrder = true;
    std::array<std::uint32_t, kBatch> out{};
    const auto start = std::chrono::steady_clock::now();
    const auto deadline = start + std::chrono::duration<double>(seconds);
    std::uint32_t sinceClock = 0;
    for (;;) {
        const std::size_t n = ring.popBatch(out);
        for (std::size_t i = 0; i < n; ++i)
            inOrder &= out[i] == expected++; // touch every item, as a real consumer would
        consumed += n;
        if (n == 0)
            std::this_thread::yield();
        if (++sinceClock == 256) { // the clock is not free: look at it now and then
            sinceClock = 0;
            if (std::chrono::steady_clock::now() >= deadline)
                break;
        }
    }
    const auto end = std::chrono::steady_clock::now();
    stop.store(true, std::memory_order_relaxed);
    producer.join();
    const double elapsed = std::chrono::duration<double>(end - start).count();

    std::printf("bench_spsc_ring: ring %zu, batch %zu, %.2f s\n", kCapacity, kBatch, elapsed);
    std::printf("  moved %llu items (produced %llu), high water %zu, order %s\n",
                static_cast<unsigned long long>(consumed), static_cast<unsigned long long>(produced), ring.highWater(),
                inOrder ? "ok" : "BROKEN");
    std::printf("  %.1f million items/s\n", static_cast<double>(consumed) / elapsed / 1e6);
    return inOrder ? 0 : 1;
}
