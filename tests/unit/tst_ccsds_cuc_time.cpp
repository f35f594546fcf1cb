// Unit tests of CCSDS unsegmented time code (CUC) decoding and encoding.
#include "core/ccsds/cuc_time.hpp"

#include <QtTest>

#include <array>
#include <chrono>
#include <cmath>
#include <limits>
#include <random>
#include <vector>

using namespace telestation::ccsds;

namespace {

constexpr std::int64_t kNs = 1'000'000'000;

// The field bytes for a format, built by hand: optional P-field, then big-endian coarse and fine.
std::vector<std::uint8_t> field(const CucFormat& f, std::uint64_t coarse, std::uint64_t fine, int pField = -1)
{
    std::vector<std::uint8_t> bytes;
    if (f.hasPField)
        bytes.push_back(static_cast<std::uint8_t>(pField));
    for (int i = f.coarseBytes - 1; i >= 0; --i)
        bytes.push_back(static_cast<std::uint8_t>(coarse >> (8 * i)));
    for (int i = f.fineBytes - 1; i >= 0; --i)
        bytes.push_back(static_cast<std::uint8_t>(fine >> (8 * i)));
    return bytes;
}

CucFormat format(int coarse, int fine, bool pField = false, std::int64_t epoch = kTai1958UnixSeconds)
{
    CucFormat f;
    f.coarseBytes = static_cast<std::uint8_t>(coarse);
    f.fineBytes = static_cast<std::uint8_t>(fine);
    f.hasPField = pField;
    f.epochUnixSeconds = epoch;
    return f;
}

// Length of one fine tick in ns (as a real number).
double tickNs(const CucFormat& f)
{
    return 1e9 / std::ldexp(1.0, 8 * f.fineBytes);
}

std::int64_t unixSecondsOf(int year, unsigned month, unsigned day)
{
    using namespace std::chrono;
    const sys_days d{std::chrono::year{year} / std::chrono::month{month} / std::chrono::day{day}};
    return duration_cast<seconds>(d.time_since_epoch()).count();
}

} // namespace

class TestCcsdsCucTime : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void epochConstants();
    void sizes();
    void validity();
    void eachCoarseAndFineSize_data();
    void eachCoarseAndFineSize();
    void fineRounding();
    void eachEpoch_data();
    void eachEpoch();
    void pFieldAccepted();
    void pFieldRejected();
    void pFieldWritten();
    void shortFieldRejected();
    void decodeOverflowRejected();
    void encodeKnownBytes();
    void roundTripWithinOneTick_data();
    void roundTripWithinOneTick();
    void clampBeforeEpoch();
    void clampBeyondRange();
    void encodeInvalidWritesNothing();
};

void TestCcsdsCucTime::epochConstants()
{
    QCOMPARE(kTai1958UnixSeconds, unixSecondsOf(1958, 1, 1));
    QCOMPARE(kGps1980UnixSeconds, unixSecondsOf(1980, 1, 6));
    QCOMPARE(kUnix1970UnixSeconds, unixSecondsOf(1970, 1, 1));
}

void TestCcsdsCucTime::sizes()
{
    QCOMPARE(cucSize(CucFormat{}), std::size_t{6});
    for (int coarse = 1; coarse <= 4; ++coarse) {
        for (int fine = 0; fine <= 3; ++fine) {
            QCOMPARE(cucSize(format(coarse, fine)), std::size_t(coarse + fine));
            QCOMPARE(cucSize(format(coarse, fine, true)), std::size_t(1 + coarse + fine));
        }
    }
}

void TestCcsdsCucTime::validity()
{
    QVERIFY(isValid(CucFormat{}));
    QVERIFY(isValid(format(1, 0)));
    QVERIFY(isValid(format(4, 3)));
    QVERIFY(!isValid(format(0, 2)));
    QVERIFY(!isValid(format(5, 2)));
    QVERIFY(!isValid(format(4, 4)));

    const std::array<std::uint8_t, 16> bytes{};
    std::int64_t ns = 123;
    QVERIFY(!decodeCuc(bytes, format(0, 2), ns));
    QVERIFY(!decodeCuc(bytes, format(5, 2), ns));
    QVERIFY(!decodeCuc(bytes, format(4, 4), ns));
    QCOMPARE(ns, std::int64_t{123}); // untouched on failure
}

void TestCcsdsCucTime::eachCoarseAndFineSize_data()
{
    QTest::addColumn<int>("coarseBytes");
    QTest::addColumn<int>("fineBytes");
    for (int coarse = 1; coarse <= 4; ++coarse)
        for (int fine = 0; fine <= 3; ++fine)
            QTest::addRow("coarse %d fine %d", coarse, fine) << coarse << fine;
}

void TestCcsdsCucTime::eachCoarseAndFineSize()
{
    QFETCH(int, coarseBytes);
    QFETCH(int, fineBytes);
    const CucFormat f = format(coarseBytes, fineBytes, false, kUnix1970UnixSeconds);
    const std::uint64_t coarseMax = (std::uint64_t{1} << (8 * coarseBytes)) - 1;
    const std::uint64_t fineMax = (std::uint64_t{1} << (8 * fineBytes)) - 1;

    // Values that use every byte (the top bit set) and the extremes.
    const std::uint64_t coarseValues[] = {0, 1, coarseMax, coarseMax & 0xA5C3E1F7u, coarseMax / 3};
    const std::uint64_t fineValues[] = {0, fineMax, fineMax & 0x9B4D27u, fineMax / 5};
    for (const std::uint64_t coarse : coarseValues) {
        for (const std::uint64_t fine : fineValues) {
            const auto bytes = field(f, coarse, fine);
            QCOMPARE(bytes.size(), cucSize(f));
            std::int64_t ns = 0;
            QVERIFY(decodeCuc(bytes, f, ns));
            const auto fineNs = static_cast<std::int64_t>(std::llround(static_cast<long double>(fine) * 1e9L /
                                                                       std::ldexp(1.0L, 8 * fineBytes)));
            QCOMPARE(ns, static_cast<std::int64_t>(coarse) * kNs + fineNs);
        }
    }
}

void TestCcsdsCucTime::fineRounding()
{
    const CucFormat f1 = format(1, 1, false, 0);
    const CucFormat f2 = format(1, 2, false, 0);
    const CucFormat f3 = format(1, 3, false, 0);
    std::int64_t ns = 0;

    QVERIFY(decodeCuc(field(f1, 0, 1), f1, ns));
    QCOMPARE(ns, std::int64_t{3906250}); // 1/256 s, exact
    QVERIFY(decodeCuc(field(f1, 0, 255), f1, ns));
    QCOMPARE(ns, std::int64_t{996093750});
    QVERIFY(decodeCuc(field(f2, 0, 1), f2, ns));
    QCOMPARE(ns, std::int64_t{15259}); // 15258.789 rounds up
    QVERIFY(decodeCuc(field(f2, 0, 3), f2, ns));
    QCOMPARE(ns, std::int64_t{45776}); // 45776.367 rounds down
    QVERIFY(decodeCuc(field(f2, 0, 0x8000), f2, ns));
    QCOMPARE(ns, std::int64_t{500000000});
    QVERIFY(decodeCuc(field(f3, 0, 1), f3, ns));
    QCOMPARE(ns, std::int64_t{60}); // 59.605 rounds up
    QVERIFY(decodeCuc(field(f3, 0, 2), f3, ns));
    QCOMPARE(ns, std::int64_t{119}); // 119.209 rounds down
    QVERIFY(decodeCuc(field(f3, 0, 0xFFFFFF), f3, ns));
    QCOMPARE(ns, std::int64_t{999999940}); // 999999940.395: never a whole second
    QVERIFY(decodeCuc(field(f3, 7, 0xFFFFFF), f3, ns));
    QCOMPARE(ns, 7 * kNs + 999999940);
}

void TestCcsdsCucTime::eachEpoch_data()
{
    QTest::addColumn<qint64>("epochValue");
    QTest::newRow("TAI 1958") << qint64{kTai1958UnixSeconds};
    QTest::newRow("GPS 1980") << qint64{kGps1980UnixSeconds};
    QTest::newRow("Unix 1970") << qint64{kUnix1970UnixSeconds};
    QTest::newRow("mission 2000") << qint64{unixSecondsOf(2000, 1, 1)};
}

void TestCcsdsCucTime::eachEpoch()
{
    QFETCH(qint64, epochValue);
    const std::int64_t epoch = epochValue;
    for (const bool pField : {false, true}) {
        const CucFormat f = format(4, 2, pField, epoch);
        std::int64_t ns = 0;
        QVERIFY(decodeCuc(field(f, 0, 0, cucPField(f)), f, ns));
        QCOMPARE(ns, epoch * kNs);
        // 2024-03-01 12:00:00.5 in this epoch's seconds.
        const std::int64_t when = unixSecondsOf(2024, 3, 1) + 12 * 3600;
        QVERIFY(decodeCuc(field(f, static_cast<std::uint64_t>(when - epoch), 0x8000, cucPField(f)), f, ns));
        QCOMPARE(ns, when * kNs + kNs / 2);
    }
}

void TestCcsdsCucTime::pFieldAccepted()
{
    // 0 001 11 10: level 1 (TAI), 4 coarse, 2 fine.
    const CucFormat f = format(4, 2, true);
    std::int64_t ns = 0;
    QVERIFY(decodeCuc(field(f, 10, 0, 0x1E), f, ns));
    QCOMPARE(ns, (kTai1958UnixSeconds + 10) * kNs);
    // 0 010 11 10: level 2 (agency epoch) is accepted too: the format's epoch is what counts.
    QVERIFY(decodeCuc(field(f, 11, 0, 0x2E), f, ns));
    QCOMPARE(ns, (kTai1958UnixSeconds + 11) * kNs);

    // Every size combination, hand-encoded: id 2, (coarse - 1) << 2, fine.
    for (int coarse = 1; coarse <= 4; ++coarse) {
        for (int fine = 0; fine <= 3; ++fine) {
            const CucFormat g = format(coarse, fine, true, kGps1980UnixSeconds);
            const int p = 0x20 | ((coarse - 1) << 2) | fine;
            QVERIFY(decodeCuc(field(g, 1, 0, p), g, ns));
            QCOMPARE(ns, (kGps1980UnixSeconds + 1) * kNs);
        }
    }
}

void TestCcsdsCucTime::pFieldRejected()
{
    const CucFormat f = format(4, 2, true);
    std::int64_t ns = 77;
    for (const int id : {0, 3, 4, 5, 6, 7})
        QVERIFY2(!decodeCuc(field(f, 10, 0, (id << 4) | 0x0E), f, ns), qPrintable(QString::number(id)));
    QVERIFY(!decodeCuc(field(f, 10, 0, 0x80 | 0x1E), f, ns)); // extension flag: a second P-field octet
    QVERIFY(!decodeCuc(field(f, 10, 0, 0x1A), f, ns));        // says 3 coarse bytes
    QVERIFY(!decodeCuc(field(f, 10, 0, 0x1D), f, ns));        // says 1 fine byte
    QVERIFY(!decodeCuc(field(f, 10, 0, 0x13), f, ns));        // says 1 coarse, 3 fine
    QCOMPARE(ns, std::int64_t{77});
    QVERIFY(decodeCuc(field(f, 10, 0, 0x1E), f, ns)); // the same bytes with the right P-field decode

    // Without a P-field in the format, the first byte is coarse time, whatever its value.
    const CucFormat g = format(4, 2, false, 0);
    QVERIFY(decodeCuc(field(g, 0xFF000000u, 0), g, ns));
    QCOMPARE(ns, std::int64_t{0xFF000000} * kNs);
}

void TestCcsdsCucTime::pFieldWritten()
{
    QCOMPARE(cucPField(format(4, 2, true)), std::uint8_t{0x1E});
    QCOMPARE(cucPField(format(4, 2, true, kGps1980UnixSeconds)), std::uint8_t{0x2E});
    QCOMPARE(cucPField(format(1, 0, true)), std::uint8_t{0x10});
    QCOMPARE(cucPField(format(2, 3, true, 0)), std::uint8_t{0x27});

    std::array<std::uint8_t, 7> out{};
    const CucFormat f = format(4, 2, true, kGps1980UnixSeconds);
    QVERIFY(encodeCuc(kGps1980UnixSeconds * kNs, f, out));
    QCOMPARE(out[0], std::uint8_t{0x2E});
    std::int64_t ns = 0;
    QVERIFY(decodeCuc(out, f, ns));
    QCOMPARE(ns, kGps1980UnixSeconds * kNs);
}

void TestCcsdsCucTime::shortFieldRejected()
{
    const CucFormat f = format(4, 2, true);
    const auto bytes = field(f, 1, 1, 0x1E);
    std::int64_t ns = 5;
    QVERIFY(!decodeCuc(std::span(bytes.data(), bytes.size() - 1), f, ns));
    QVERIFY(!decodeCuc(std::span<const std::uint8_t>{}, f, ns));
    QCOMPARE(ns, std::int64_t{5});
    QVERIFY(decodeCuc(bytes, f, ns));
    // Longer is fine: the field is the start of the secondary header.
    auto longer = bytes;
    longer.push_back(0xEE);
    std::int64_t again = 0;
    QVERIFY(decodeCuc(longer, f, again));
    QCOMPARE(again, ns);
}

void TestCcsdsCucTime::decodeOverflowRejected()
{
    const CucFormat f = format(4, 0, false, std::numeric_limits<std::int64_t>::max() / kNs);
    std::int64_t ns = 9;
    QVERIFY(!decodeCuc(field(f, 0xFFFFFFFF, 0), f, ns));
    QCOMPARE(ns, std::int64_t{9});
    const CucFormat g = format(4, 0, false, std::numeric_limits<std::int64_t>::min());
    QVERIFY(!decodeCuc(field(g, 0, 0), g, ns));
    QCOMPARE(ns, std::int64_t{9});
}

void TestCcsdsCucTime::encodeKnownBytes()
{
    // Epoch + 0x01020304 s + 0.75 s (0xC000 of 0x10000) with 4 + 2 bytes.
    const CucFormat f = format(4, 2, false, 0);
    std::array<std::uint8_t, 6> out{};
    QVERIFY(encodeCuc(0x01020304LL * kNs + 750'000'000, f, out));
    const std::array<std::uint8_t, 6> expected{0x01, 0x02, 0x03, 0x04, 0xC0, 0x00};
    QCOMPARE(out, expected);

    // Truncation to whole ticks: 1 ns short of a tick stays in the tick below.
    const CucFormat g = format(1, 1, false, 0);
    std::array<std::uint8_t, 2> two{};
    QVERIFY(encodeCuc(3906250 - 1, g, two));
    QCOMPARE(two[1], std::uint8_t{0});
    QVERIFY(encodeCuc(3906250, g, two));
    QCOMPARE(two[1], std::uint8_t{1});

    // Time before 1970 with a 1958 epoch: floor, not truncation towards zero.
    const CucFormat tai = format(4, 1, false);
    std::array<std::uint8_t, 5> five{};
    QVERIFY(encodeCuc(-kNs / 2, tai, five)); // 1969-12-31 23:59:59.5
    std::int64_t ns = 0;
    QVERIFY(decodeCuc(five, tai, ns));
    QCOMPARE(ns, -kNs / 2);
    QCOMPARE(five[4], std::uint8_t{0x80});
}

void TestCcsdsCucTime::roundTripWithinOneTick_data()
{
    QTest::addColumn<int>("coarseBytes");
    QTest::addColumn<int>("fineBytes");
    QTest::addColumn<bool>("pField");
    QTest::addColumn<qint64>("epochValue");
    const std::pair<const char*, std::int64_t> epochs[] = {
        {"TAI", kTai1958UnixSeconds}, {"GPS", kGps1980UnixSeconds}, {"Unix", kUnix1970UnixSeconds}};
    for (const auto& [name, epoch] : epochs)
        for (int coarse = 1; coarse <= 4; ++coarse)
            for (int fine = 0; fine <= 3; ++fine)
                QTest::addRow("%s coarse %d fine %d", name, coarse, fine)
                    << coarse << fine << (fine % 2 == 1) << qint64{epoch};
}

void TestCcsdsCucTime::roundTripWithinOneTick()
{
    QFETCH(int, coarseBytes);
    QFETCH(int, fineBytes);
    QFETCH(bool, pField);
    QFETCH(qint64, epochValue);
    const std::int64_t epoch = epochValue;
    const CucFormat f = format(coarseBytes, fineBytes, pField, epoch);
    const std::int64_t rangeNs =
        static_cast<std::int64_t>((std::uint64_t{1} << (8 * coarseBytes))) * kNs; // [epoch, epoch + range)
    const double tick = tickNs(f);

    std::mt19937_64 random(static_cast<std::uint64_t>(coarseBytes * 10 + fineBytes));
    std::uniform_int_distribution<std::int64_t> offset(0, rangeNs - 1);
    std::vector<std::int64_t> times{epoch * kNs, epoch * kNs + rangeNs - 1, epoch * kNs + 1};
    for (int i = 0; i < 2000; ++i)
        times.push_back(epoch * kNs + offset(random));

    std::vector<std::uint8_t> bytes(cucSize(f));
    for (const std::int64_t t : times) {
        QVERIFY(encodeCuc(t, f, bytes));
        std::int64_t back = 0;
        QVERIFY(decodeCuc(bytes, f, back));
        // Encoding truncates to a tick, decoding rounds to a ns: back is at most one tick early.
        const auto error = static_cast<double>(t - back);
        QVERIFY2(error > -1.0 && error < tick + 1.0,
                 qPrintable(QStringLiteral("t %1 back %2 tick %3").arg(t).arg(back).arg(tick)));
    }
}

void TestCcsdsCucTime::clampBeforeEpoch()
{
    const CucFormat f = format(4, 2, true, kGps1980UnixSeconds);
    std::array<std::uint8_t, 7> out{};
    out.fill(0x55);
    QVERIFY(!encodeCuc(kGps1980UnixSeconds * kNs - 1, f, out)); // 1 ns before the epoch
    const std::array<std::uint8_t, 7> expected{0x2E, 0, 0, 0, 0, 0, 0};
    QCOMPARE(out, expected);
    std::int64_t ns = 0;
    QVERIFY(decodeCuc(out, f, ns));
    QCOMPARE(ns, kGps1980UnixSeconds * kNs);

    QVERIFY(!encodeCuc(std::numeric_limits<std::int64_t>::min(), f, out));
    QCOMPARE(out, expected);
    QVERIFY(encodeCuc(kGps1980UnixSeconds * kNs, f, out)); // the epoch itself is not clamped
    QCOMPARE(out, expected);
}

void TestCcsdsCucTime::clampBeyondRange()
{
    for (int coarse = 1; coarse <= 4; ++coarse) {
        const CucFormat f = format(coarse, 2, false, 0);
        const std::int64_t end = static_cast<std::int64_t>(std::uint64_t{1} << (8 * coarse)) * kNs;
        std::vector<std::uint8_t> out(cucSize(f), 0x11);
        const std::vector<std::uint8_t> allOnes(cucSize(f), 0xFF);

        QVERIFY(encodeCuc(end - 1, f, out)); // the last representable instant
        QCOMPARE(out, allOnes);
        std::fill(out.begin(), out.end(), 0x11);
        QVERIFY(!encodeCuc(end, f, out)); // one ns later: clamped to the same bytes
        QCOMPARE(out, allOnes);
        QVERIFY(!encodeCuc(std::numeric_limits<std::int64_t>::max(), f, out));
        QCOMPARE(out, allOnes);
    }
    // A 4-byte coarse TAI clock ends in 2094.
    const CucFormat tai = format(4, 0, false);
    std::array<std::uint8_t, 4> out{};
    QVERIFY(encodeCuc(unixSecondsOf(2090, 1, 1) * kNs, tai, out));
    QVERIFY(!encodeCuc(unixSecondsOf(2100, 1, 1) * kNs, tai, out));
}

void TestCcsdsCucTime::encodeInvalidWritesNothing()
{
    std::array<std::uint8_t, 8> out{};
    out.fill(0x33);
    const auto untouched = out;
    QVERIFY(!encodeCuc(0, format(0, 2), out));
    QVERIFY(!encodeCuc(0, format(5, 2), out));
    QVERIFY(!encodeCuc(0, format(4, 4), out));
    const CucFormat f = format(4, 3, true, 0); // 8 bytes
    QVERIFY(!encodeCuc(kNs, f, std::span(out.data(), 7)));
    QCOMPARE(out, untouched);
    QVERIFY(encodeCuc(kNs, f, out));
    QVERIFY(out != untouched);
}

QTEST_GUILESS_MAIN(TestCcsdsCucTime)
#include "tst_ccsds_cuc_time.moc"
