// PacketPool: accounting, size-class choice and fallback, exhaustion, reference counting across several
// holders, the bytes/meta round trip, no allocation on the hot path, and a four-thread stress run.
#include "core/pipeline/packet_pool.hpp"
#include "core/pipeline/spsc_ring.hpp"

#include "tests/support/allocation_counter.hpp" // the one translation unit of this test that includes it

#include <QtTest>

#include <atomic>
#include <set>
#include <thread>
#include <vector>

using namespace telestation::pipeline;

namespace {

PoolOptions smallOptions()
{
    PoolOptions o;
    o.smallSlots = 4;
    o.smallSlotBytes = 100;
    o.largeSlots = 2;
    o.largeSlotBytes = 1000;
    return o;
}

std::uint8_t pattern(PacketHandle serial, std::size_t i)
{
    return static_cast<std::uint8_t>((serial * 31u + i * 7u) & 0xFFu);
}

} // namespace

class TestPacketPool : public QObject {
    Q_OBJECT

private slots:
    void acquireReleaseAccounting();
    void sizeClassChoiceAndFallback();
    void exhaustionCounted();
    void referenceCounting();
    void bytesAndMetaRoundTrip();
    void noAllocationOnHotPath();
    void multiThreadStress();
};

void TestPacketPool::acquireReleaseAccounting()
{
    PacketPool pool(smallOptions());
    QCOMPARE(pool.capacity(), std::size_t{6});
    PoolStats s = pool.stats();
    QCOMPARE(s.acquired, std::uint64_t{0});
    QCOMPARE(s.inUse, std::uint32_t{0});

    const PacketHandle a = pool.acquire(10);
    const PacketHandle b = pool.acquire(10);
    QVERIFY(a != kNoPacket);
    QVERIFY(b != kNoPacket);
    QVERIFY(a != b);
    s = pool.stats();
    QCOMPARE(s.acquired, std::uint64_t{2});
    QCOMPARE(s.inUse, std::uint32_t{2});
    QCOMPARE(s.inUseHighWater, std::uint32_t{2});
    pool.release(a);
    s = pool.stats();
    QCOMPARE(s.inUse, std::uint32_t{1});
    QCOMPARE(s.inUseHighWater, std::uint32_t{2});
    const PacketHandle c = pool.acquire(10);
    QVERIFY(c != kNoPacket);
    QVERIFY(c != b);
    pool.release(b);
    pool.release(c);
    s = pool.stats();
    QCOMPARE(s.acquired, std::uint64_t{3});
    QCOMPARE(s.inUse, std::uint32_t{0});
    QCOMPARE(s.acquireFailures, std::uint64_t{0});
}

void TestPacketPool::sizeClassChoiceAndFallback()
{
    PacketPool pool(smallOptions());
    std::vector<PacketHandle> smalls;
    for (int i = 0; i < 4; ++i) {
        const PacketHandle h = pool.acquire(i == 0 ? 100 : 1); // 100: exactly the small slot size
        QVERIFY(h != kNoPacket);
        QCOMPARE(pool.storage(h).size(), std::size_t{100}); // the smallest class that fits
        smalls.push_back(h);
    }
    const PacketHandle big = pool.acquire(101); // one byte too many for a small slot
    QVERIFY(big != kNoPacket);
    QCOMPARE(pool.storage(big).size(), std::size_t{1000});
    // Small slots exhausted: a small packet falls back to the large class.
    const PacketHandle fallback = pool.acquire(20);
    QVERIFY(fallback != kNoPacket);
    QCOMPARE(pool.storage(fallback).size(), std::size_t{1000});
    QCOMPARE(pool.stats().acquireFailures, std::uint64_t{0});
    QCOMPARE(pool.acquire(20), kNoPacket); // now nothing fits anywhere
    QCOMPARE(pool.stats().acquireFailures, std::uint64_t{1});
    // A returned small slot is preferred again.
    pool.release(smalls[2]);
    const PacketHandle again = pool.acquire(50);
    QCOMPARE(again, smalls[2]);
    QCOMPARE(pool.storage(again).size(), std::size_t{100});
    for (PacketHandle h : {smalls[0], smalls[1], again, smalls[3], big, fallback})
        pool.release(h);
    QCOMPARE(pool.stats().inUse, std::uint32_t{0});
}

void TestPacketPool::exhaustionCounted()
{
    PacketPool pool(smallOptions());
    QCOMPARE(pool.acquire(1001), kNoPacket); // larger than any slot
    QCOMPARE(pool.stats().acquireFailures, std::uint64_t{1});
    std::vector<PacketHandle> large;
    for (int i = 0; i < 2; ++i)
        large.push_back(pool.acquire(500));
    QVERIFY(large[0] != kNoPacket && large[1] != kNoPacket);
    QCOMPARE(pool.acquire(500), kNoPacket); // large class exhausted; small slots cannot help
    QCOMPARE(pool.acquire(999), kNoPacket);
    PoolStats s = pool.stats();
    QCOMPARE(s.acquireFailures, std::uint64_t{3});
    QCOMPARE(s.acquired, std::uint64_t{2});
    QCOMPARE(s.inUse, std::uint32_t{2});
    QVERIFY(pool.acquire(5) != kNoPacket); // small slots are still free
    pool.release(large[0]);
    QVERIFY(pool.acquire(500) != kNoPacket);
    QCOMPARE(pool.stats().acquireFailures, std::uint64_t{3});
}

void TestPacketPool::referenceCounting()
{
    PacketPool pool(smallOptions());
    const PacketHandle h = pool.acquire(10);
    // The router hands the packet to the process, record and forward queues: three holders.
    pool.addRef(h, 2);
    pool.release(h); // process done
    QCOMPARE(pool.stats().inUse, std::uint32_t{1});
    pool.release(h); // record done
    QCOMPARE(pool.stats().inUse, std::uint32_t{1});
    // The slot is not free yet: all other small slots can be taken, and h is not among them.
    std::set<PacketHandle> others;
    for (int i = 0; i < 3; ++i)
        others.insert(pool.acquire(10));
    QVERIFY(!others.contains(h));
    QVERIFY(!others.contains(kNoPacket));
    const PacketHandle spill = pool.acquire(10);
    QCOMPARE(pool.storage(spill).size(), std::size_t{1000}); // h still held, so this goes large
    pool.addRef(h); // one more holder appears before the last one leaves
    pool.release(h);
    pool.release(h); // the last reference: the slot returns
    QCOMPARE(pool.stats().inUse, std::uint32_t{4});
    QCOMPARE(pool.acquire(10), h);
}

void TestPacketPool::bytesAndMetaRoundTrip()
{
    PacketPool pool(smallOptions());
    const PacketHandle h = pool.acquire(600);
    std::span<std::uint8_t> out = pool.storage(h);
    QCOMPARE(out.size(), std::size_t{1000});
    for (std::size_t i = 0; i < 600; ++i)
        out[i] = pattern(h, i);
    PacketMeta& m = pool.meta(h);
    m.length = 600;
    m.receiveTimeNs = 1'700'000'000'123'456'789;
    m.streamId = 3;
    m.apid = 0x7FF;
    m.typeIndex = 42;
    m.transportHeaderBytes = 8;
    m.forwardMask = 0x8000000000000001;

    const PacketPool& view = pool;
    const std::span<const std::uint8_t> in = view.bytes(h);
    QCOMPARE(in.size(), std::size_t{600});
    QCOMPARE(in.data(), out.data());
    for (std::size_t i = 0; i < in.size(); ++i)
        QCOMPARE(in[i], pattern(h, i));
    const PacketMeta& back = view.meta(h);
    QCOMPARE(back.receiveTimeNs, std::int64_t{1'700'000'000'123'456'789});
    QCOMPARE(back.streamId, std::uint16_t{3});
    QCOMPARE(back.apid, std::uint16_t{0x7FF});
    QCOMPARE(back.typeIndex, std::uint32_t{42});
    QCOMPARE(back.transportHeaderBytes, std::uint16_t{8});
    QCOMPARE(back.forwardMask, std::uint64_t{0x8000000000000001});

    // Slots do not overlap: filling every slot of both classes leaves each one's pattern intact.
    std::vector<PacketHandle> all{h};
    for (PacketHandle x = pool.acquire(1); x != kNoPacket; x = pool.acquire(1))
        all.push_back(x);
    QCOMPARE(all.size(), pool.capacity());
    for (PacketHandle x : all) {
        auto s = pool.storage(x);
        for (std::size_t i = 0; i < s.size(); ++i)
            s[i] = pattern(x, i);
        pool.meta(x).length = static_cast<std::uint32_t>(s.size());
    }
    for (PacketHandle x : all) {
        const auto b = view.bytes(x);
        for (std::size_t i = 0; i < b.size(); ++i)
            QCOMPARE(b[i], pattern(x, i));
    }
    // A returned and re-acquired slot starts with fresh metadata.
    pool.release(h);
    const PacketHandle again = pool.acquire(600);
    QCOMPARE(again, h);
    QCOMPARE(pool.meta(again).length, std::uint32_t{0});
    QCOMPARE(pool.meta(again).streamId, std::uint16_t{0});
    QCOMPARE(pool.bytes(again).size(), std::size_t{0});
}

void TestPacketPool::noAllocationOnHotPath()
{
    PacketPool pool; // the default options: the station's real sizes
    const long before = telestation::test::threadAllocations();
    std::uint64_t held = 0;
    for (int round = 0; round < 1000; ++round) {
        const PacketHandle a = pool.acquire(200);
        const PacketHandle b = pool.acquire(40000);
        pool.addRef(a, 2);
        pool.release(a);
        pool.release(a);
        pool.release(a);
        pool.release(b);
        held += (a != kNoPacket) + (b != kNoPacket);
    }
    const long after = telestation::test::threadAllocations();
    QCOMPARE(after - before, 0L);
    QCOMPARE(held, std::uint64_t{2000});
    // The counter does count: a deliberate allocation is seen.
    auto probe = std::make_unique<int>(1);
    QCOMPARE(telestation::test::threadAllocations() - after, 1L);
}

void TestPacketPool::multiThreadStress()
{
    // Two receivers acquire and fill slots with a pattern derived from a serial number; each hands its
    // packets to both consumers (two references, one SPSC ring per producer-consumer pair, so each
    // packet sits in two queues at once); the consumers verify and release. Small pool: exhaustion and
    // reuse happen all the time, from all four threads.
    PoolOptions o;
    o.smallSlots = 64;
    o.smallSlotBytes = 128;
    o.largeSlots = 16;
    o.largeSlotBytes = 1024;
    PacketPool pool(o);
    constexpr std::uint32_t kPerProducer = 50'000;
    constexpr int kProducers = 2;
    constexpr int kConsumers = 2;
    std::vector<std::unique_ptr<SpscRing<PacketHandle>>> rings; // [producer * kConsumers + consumer]
    for (int i = 0; i < kProducers * kConsumers; ++i)
        rings.push_back(std::make_unique<SpscRing<PacketHandle>>(32));
    std::atomic<int> producersDone{0};
    std::atomic<std::uint64_t> failures{0};
    std::atomic<std::uint64_t> verified{0};

    auto produce = [&](int p) {
        for (std::uint32_t n = 0; n < kPerProducer; ++n) {
            const std::uint32_t serial = static_cast<std::uint32_t>(p) * kPerProducer + n;
            const std::size_t length = 8 + (serial * 13u) % 1000; // both classes
            PacketHandle h = pool.acquire(length);
            while (h == kNoPacket) {
                std::this_thread::yield();
                h = pool.acquire(length);
            }
            auto s = pool.storage(h);
            s[0] = static_cast<std::uint8_t>(serial);
            s[1] = static_cast<std::uint8_t>(serial >> 8);
            s[2] = static_cast<std::uint8_t>(serial >> 16);
            s[3] = static_cast<std::uint8_t>(serial >> 24);
            for (std::size_t i = 4; i < length; ++i)
                s[i] = pattern(serial, i);
            pool.meta(h).length = static_cast<std::uint32_t>(length);
            pool.meta(h).streamId = static_cast<std::uint16_t>(p);
            pool.addRef(h); // one reference per consumer
            for (int c = 0; c < kConsumers; ++c) {
                while (!rings[static_cast<std::size_t>(p * kConsumers + c)]->push(h))
                    std::this_thread::yield();
            }
        }
        producersDone.fetch_add(1, std::memory_order_release);
    };
    auto consume = [&](int c) {
        std::array<PacketHandle, 16> batch{};
        for (;;) {
            const bool finished = producersDone.load(std::memory_order_acquire) == kProducers;
            std::size_t got = 0;
            for (int p = 0; p < kProducers; ++p) {
                auto& ring = *rings[static_cast<std::size_t>(p * kConsumers + c)];
                const std::size_t n = ring.popBatch(batch);
                got += n;
                for (std::size_t k = 0; k < n; ++k) {
                    const PacketHandle h = batch[k];
                    const auto b = pool.bytes(h);
                    const std::uint32_t serial = static_cast<std::uint32_t>(b[0]) | (static_cast<std::uint32_t>(b[1]) << 8) |
                                                 (static_cast<std::uint32_t>(b[2]) << 16) |
                                                 (static_cast<std::uint32_t>(b[3]) << 24);
                    bool ok = b.size() == 8 + (serial * 13u) % 1000 && pool.meta(h).streamId == p &&
                              serial / kPerProducer == static_cast<std::uint32_t>(p);
                    for (std::size_t i = 4; ok && i < b.size(); ++i)
                        ok = b[i] == pattern(serial, i);
                    if (ok)
                        verified.fetch_add(1, std::memory_order_relaxed);
                    else
                        failures.fetch_add(1, std::memory_order_relaxed);
                    pool.release(h);
                }
            }
            if (got == 0) {
                if (finished)
                    return; // the producers were done before this empty sweep: nothing more will come
                std::this_thread::yield();
            }
        }
    };
    std::vector<std::thread> threads;
    for (int p = 0; p < kProducers; ++p)
        threads.emplace_back(produce, p);
    for (int c = 0; c < kConsumers; ++c)
        threads.emplace_back(consume, c);
    for (auto& t : threads)
        t.join();

    QCOMPARE(failures.load(), std::uint64_t{0});
    QCOMPARE(verified.load(), std::uint64_t{kPerProducer} * kProducers * kConsumers);
    const PoolStats s = pool.stats();
    QCOMPARE(s.inUse, std::uint32_t{0});
    QCOMPARE(s.acquired, std::uint64_t{kPerProducer} * kProducers);
    QVERIFY(s.inUseHighWater <= pool.capacity());
    // Every slot is back on its free list: all can be acquired once more, each exactly once.
    std::set<PacketHandle> all;
    for (PacketHandle h = pool.acquire(1); h != kNoPacket; h = pool.acquire(1))
        QVERIFY(all.insert(h).second);
    QCOMPARE(all.size(), pool.capacity());
}

QTEST_GUILESS_MAIN(TestPacketPool)
#include "tst_pipeline_packet_pool.moc"
