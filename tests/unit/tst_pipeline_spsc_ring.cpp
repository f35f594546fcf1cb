// SpscRing: FIFO order, the exact capacity limit (also for capacities that are not powers of two),
// batch push/pop, the high-water mark, and a two-thread stress run that checks every item in order.
#include "core/pipeline/spsc_ring.hpp"

#include <QtTest>

#include <array>
#include <atomic>
#include <chrono>
#include <cstdint>
#include <random>
#include <thread>
#include <vector>

using telestation::pipeline::SpscRing;

class TestSpscRing : public QObject {
    Q_OBJECT

private slots:
    void fifoOrder();
    void fullAndEmpty_data();
    void fullAndEmpty();
    void wrapsAround();
    void batchPartial();
    void highWater();
    void twoThreadStress();
};

void TestSpscRing::fifoOrder()
{
    SpscRing<int> ring(8);
    QCOMPARE(ring.capacity(), std::size_t{8});
    QCOMPARE(ring.size(), std::size_t{0});
    for (int i = 0; i < 5; ++i)
        QVERIFY(ring.push(i * 10));
    QCOMPARE(ring.size(), std::size_t{5});
    for (int i = 0; i < 5; ++i) {
        int v = -1;
        QVERIFY(ring.pop(v));
        QCOMPARE(v, i * 10);
    }
    int v = -1;
    QVERIFY(!ring.pop(v));
    QCOMPARE(v, -1);
}

void TestSpscRing::fullAndEmpty_data()
{
    QTest::addColumn<int>("capacity");
    QTest::newRow("1") << 1;
    QTest::newRow("2") << 2;
    QTest::newRow("3") << 3;
    QTest::newRow("5") << 5;
    QTest::newRow("8") << 8;
    QTest::newRow("100") << 100;
}

void TestSpscRing::fullAndEmpty()
{
    QFETCH(int, capacity);
    SpscRing<std::uint32_t> ring(static_cast<std::size_t>(capacity));
    QCOMPARE(ring.capacity(), static_cast<std::size_t>(capacity));
    // Several rounds, so that the indexes wrap around the (rounded-up) storage.
    for (std::uint32_t round = 0; round < 4; ++round) {
        std::uint32_t value = round * 1000;
        for (int i = 0; i < capacity; ++i)
            QVERIFY(ring.push(value++));
        QCOMPARE(ring.size(), static_cast<std::size_t>(capacity));
        QVERIFY(!ring.push(999999)); // exactly `capacity`, not the storage size
        const std::array<std::uint32_t, 3> extra{1, 2, 3};
        QCOMPARE(ring.pushBatch(extra), std::size_t{0});
        std::uint32_t expected = round * 1000;
        std::uint32_t v = 0;
        for (int i = 0; i < capacity; ++i) {
            QVERIFY(ring.pop(v));
            QCOMPARE(v, expected++);
        }
        QVERIFY(!ring.pop(v));
        std::array<std::uint32_t, 4> out{};
        QCOMPARE(ring.popBatch(out), std::size_t{0});
        QCOMPARE(ring.size(), std::size_t{0});
    }
}

void TestSpscRing::wrapsAround()
{
    SpscRing<int> ring(6); // storage 8: interleaved push/pop crosses the wrap in varying places
    int next = 0;
    int expected = 0;
    for (int step = 0; step < 100; ++step) {
        for (int i = 0; i < 1 + step % 5; ++i)
            if (ring.push(next))
                ++next;
        int v = 0;
        for (int i = 0; i < 1 + step % 3; ++i)
            if (ring.pop(v))
                QCOMPARE(v, expected++);
        QVERIFY(ring.size() <= 6);
        QCOMPARE(ring.size(), static_cast<std::size_t>(next - expected));
    }
}

void TestSpscRing::batchPartial()
{
    SpscRing<int> ring(5);
    const std::vector<int> in{1, 2, 3, 4, 5, 6, 7};
    QCOMPARE(ring.pushBatch(in), std::size_t{5}); // only what fits, in order
    QCOMPARE(ring.pushBatch(std::span<const int>(in).subspan(5)), std::size_t{0});
    std::array<int, 3> out{};
    QCOMPARE(ring.popBatch(out), std::size_t{3});
    QCOMPARE(out, (std::array<int, 3>{1, 2, 3}));
    QCOMPARE(ring.pushBatch(std::span<const int>(in).subspan(5)), std::size_t{2}); // wraps in the storage
    std::array<int, 10> rest{};
    QCOMPARE(ring.popBatch(rest), std::size_t{4});
    QCOMPARE(rest[0], 4);
    QCOMPARE(rest[1], 5);
    QCOMPARE(rest[2], 6);
    QCOMPARE(rest[3], 7);
    QCOMPARE(rest[4], 0); // untouched
    QCOMPARE(ring.popBatch(rest), std::size_t{0});
    QCOMPARE(ring.pushBatch(std::span<const int>{}), std::size_t{0});
}

void TestSpscRing::highWater()
{
    SpscRing<int> ring(10);
    QCOMPARE(ring.highWater(), std::size_t{0});
    for (int i = 0; i < 4; ++i)
        QVERIFY(ring.push(i));
    QCOMPARE(ring.highWater(), std::size_t{4});
    int v = 0;
    for (int i = 0; i < 3; ++i)
        QVERIFY(ring.pop(v));
    QVERIFY(ring.push(9)); // size 2: the mark stays at 4, not at a count against a stale head
    QCOMPARE(ring.highWater(), std::size_t{4});
    const std::array<int, 3> three{1, 2, 3};
    QCOMPARE(ring.pushBatch(three), std::size_t{3}); // size 5
    QCOMPARE(ring.highWater(), std::size_t{5});
    ring.resetHighWater();
    QCOMPARE(ring.highWater(), std::size_t{0});
    QVERIFY(ring.push(4)); // size 6
    QCOMPARE(ring.highWater(), std::size_t{6});
    std::array<int, 16> out{};
    QCOMPARE(ring.popBatch(out), std::size_t{6});
    QCOMPARE(ring.highWater(), std::size_t{6}); // popping does not lower it
    for (int i = 0; i < 12; ++i)
        (void)ring.push(i);
    QCOMPARE(ring.highWater(), std::size_t{10}); // never beyond the capacity
}

void TestSpscRing::twoThreadStress()
{
    // Small ring, random batch sizes on both sides: the ring is full and empty often, and batches
    // cross the wrap in all positions. The consumer checks the exact sequence.
    constexpr std::uint32_t kCount = 5'000'000; // well under a second in Debug, and under TSan
    SpscRing<std::uint32_t> ring(1000);
    const auto start = std::chrono::steady_clock::now();

    std::atomic<bool> producerDone{false};
    std::thread producer([&ring, &producerDone] {
        std::mt19937 random(12345);
        std::uniform_int_distribution<std::uint32_t> batchSize(1, 100);
        std::array<std::uint32_t, 100> batch{};
        std::uint32_t next = 0;
        while (next < kCount) {
            const std::uint32_t n = std::min(batchSize(random), kCount - next);
            for (std::uint32_t i = 0; i < n; ++i)
                batch[i] = next + i;
            std::size_t sent = 0;
            while (sent < n) {
                if (random() % 4 == 0) { // a single push now and then
                    if (ring.push(batch[sent]))
                        ++sent;
                } else {
                    sent += ring.pushBatch(std::span<const std::uint32_t>(batch.data() + sent, n - sent));
                }
                if (sent < n)
                    std::this_thread::yield();
            }
            next += n;
        }
        producerDone.store(true, std::memory_order_release);
    });

    std::mt19937 random(54321);
    std::uniform_int_distribution<std::size_t> batchSize(1, 128);
    std::array<std::uint32_t, 128> out{};
    std::uint32_t expected = 0;
    bool inOrder = true;
    while (expected < kCount && inOrder) {
        const std::size_t got = ring.popBatch(std::span<std::uint32_t>(out.data(), batchSize(random)));
        if (got == 0) {
            std::uint32_t one = 0;
            if (ring.pop(one)) {
                inOrder = one == expected++;
            } else {
                std::this_thread::yield();
            }
            continue;
        }
        for (std::size_t i = 0; i < got && inOrder; ++i)
            inOrder = out[i] == expected++;
    }
    if (!inOrder) { // let the producer finish so that the thread can be joined
        std::uint32_t drain = 0;
        while (!producerDone.load(std::memory_order_acquire))
            (void)ring.pop(drain);
    }
    producer.join();
    QVERIFY2(inOrder, qPrintable(QStringLiteral("sequence broken near item %1").arg(expected)));
    QCOMPARE(expected, kCount);
    QCOMPARE(ring.size(), std::size_t{0});
    QVERIFY(ring.highWater() >= 1);
    QVERIFY(ring.highWater() <= 1000);
    qInfo("%u items in %lld ms", kCount,
          static_cast<long long>(std::chrono::duration_cast<std::chrono::milliseconds>(
                                     std::chrono::steady_clock::now() - start)
                                     .count()));
}

QTEST_GUILESS_MAIN(TestSpscRing)
#include "tst_pipeline_spsc_ring.moc"
