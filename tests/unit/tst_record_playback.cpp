// Playback of recordings written by StreamRecorder: every record byte-identical and in receive-time order
// across two streams and several segments; selection by stream, segment and time range; one segment file;
// pacing at speed 0 / 1 / 10 and the bounded wait; truncated and damaged segments; progress from another
// thread; errors; the read-only catalog; no allocation per record; the file:// query conversion.
#include "core/record/playback.hpp"
#include "core/record/stream_recorder.hpp"
#include "tests/support/allocation_counter.hpp"

#include <QtTest>

#include <algorithm>
#include <atomic>
#include <filesystem>
#include <fstream>
#include <thread>
#include <sys/wait.h>
#include <unistd.h>

using namespace telestation;
using namespace telestation::record;
using namespace std::chrono_literals;

namespace {

namespace fs = std::filesystem;

constexpr std::int64_t kT0 = 1'795'348'800'000'000'000; // 2026-11-22T12:00:00Z

struct Rec {
    RecordMeta meta;
    std::vector<std::uint8_t> payload;
    friend bool operator==(const Rec&, const Rec&) = default;
};

// Receive times are unique in these recordings. (std::sort, not std::stable_sort: the latter's
// temporary buffer comes from nothrow new, which allocation_counter.hpp does not replace — ASan then
// sees a new/free mismatch.)
bool byTime(const Rec& a, const Rec& b)
{
    return a.meta.receiveTimeNs < b.meta.receiveTimeNs;
}

struct StreamSpec {
    std::string name;
    std::uint16_t id = 0;
    std::size_t count = 0;
    std::int64_t firstNs = kT0;
    std::int64_t stepNs = 1'000'000;
    std::size_t fixedSize = 0; // 0: 20..120 bytes varying with the record
};

// Records the streams into `dir` (segments of at most maxFileSize bytes), feeding each recorder in time
// order, and returns every record sorted by receive time. Payload bytes depend on stream and index.
std::vector<Rec> writeRecording(const std::string& dir, const std::vector<StreamSpec>& streams,
                                std::uint64_t maxFileSize)
{
    std::vector<Rec> all;
    for (const auto& s : streams) {
        for (std::size_t i = 0; i < s.count; ++i) {
            Rec r;
            r.meta = RecordMeta{s.firstNs + static_cast<std::int64_t>(i) * s.stepNs, s.id,
                                static_cast<std::uint16_t>(100 + i % 3), i % 7 == 3};
            r.payload.resize(s.fixedSize != 0 ? s.fixedSize : 20 + (i * 37 + s.id * 11) % 101);
            for (std::size_t b = 0; b < r.payload.size(); ++b)
                r.payload[b] = static_cast<std::uint8_t>(i * 31 + b * 7 + s.id);
            all.push_back(std::move(r));
        }
    }
    std::sort(all.begin(), all.end(), byTime);
    auto catalog = RecordingCatalog::open(dir);
    if (!catalog)
        qFatal("catalog: %s", catalog.error().toString().c_str());
    std::vector<std::unique_ptr<StreamRecorder>> recorders;
    for (const auto& s : streams) {
        auto recorder = StreamRecorder::create(**catalog, s.name, s.id, maxFileSize);
        if (!recorder)
            qFatal("recorder: %s", recorder.error().toString().c_str());
        recorders.push_back(std::move(*recorder));
    }
    for (const auto& r : all) {
        const auto at =
            std::find_if(streams.begin(), streams.end(), [&](const StreamSpec& s) { return s.id == r.meta.streamId; });
        if (!recorders[static_cast<std::size_t>(at - streams.begin())]->record(r.meta, r.payload))
            qFatal("record failed");
    }
    for (auto& recorder : recorders)
        if (!recorder->close())
            qFatal("close failed");
    return all;
}

// tm: 60 records 1 ms apart; hk: 40 records 1.5 ms apart, 0.25 ms later (no two times are equal).
std::vector<StreamSpec> twoStreams()
{
    return {{"tm", 1, 60, kT0, 1'000'000, 0}, {"hk", 2, 40, kT0 + 250'000, 1'500'000, 0}};
}

std::vector<Rec> readSegment(const std::string& path)
{
    std::vector<Rec> out;
    auto reader = SegmentReader::open(path);
    if (!reader)
        return out;
    Rec r;
    while ((*reader)->next(r.meta, r.payload))
        out.push_back(r);
    return out;
}

std::vector<SegmentInfo> catalogSegments(const std::string& dir, const std::string& stream = {})
{
    auto catalog = RecordingCatalog::open(dir);
    std::vector<SegmentInfo> out;
    if (!catalog)
        return out;
    for (auto& s : (*catalog)->segments())
        if (stream.empty() || s.streamName == stream)
            out.push_back(std::move(s));
    return out;
}

std::string segmentPath(const std::string& dir, const SegmentInfo& info)
{
    return (fs::path(dir) / info.file).string();
}

// Polls until finished (at most 20 s), collecting what is delivered.
std::vector<Rec> playAll(PlaybackSource& source, std::size_t maxRecords = 256)
{
    std::vector<Rec> out;
    const PlaybackSource::Deliver deliver = [&](const RecordMeta& meta, std::span<const std::uint8_t> payload) {
        out.push_back({meta, {payload.begin(), payload.end()}});
    };
    QElapsedTimer timer;
    timer.start();
    while (!source.finished() && timer.elapsed() < 20'000)
        source.poll(100ms, deliver, maxRecords);
    return out;
}

// "" when equal, else where they first differ.
QString difference(const std::vector<Rec>& actual, const std::vector<Rec>& expected)
{
    for (std::size_t i = 0; i < std::min(actual.size(), expected.size()); ++i) {
        if (!(actual[i] == expected[i]))
            return QStringLiteral("record %1 differs: time %2 stream %3 size %4, expected time %5 stream %6 size %7")
                .arg(i)
                .arg(actual[i].meta.receiveTimeNs)
                .arg(actual[i].meta.streamId)
                .arg(actual[i].payload.size())
                .arg(expected[i].meta.receiveTimeNs)
                .arg(expected[i].meta.streamId)
                .arg(expected[i].payload.size());
    }
    if (actual.size() != expected.size())
        return QStringLiteral("%1 records, expected %2").arg(actual.size()).arg(expected.size());
    return {};
}

std::vector<Rec> withoutStream(std::vector<Rec> records, std::uint16_t streamId)
{
    std::erase_if(records, [&](const Rec& r) { return r.meta.streamId == streamId; });
    return records;
}

std::unique_ptr<PlaybackSource> openOrFail(const std::string& path, const PlaybackOptions& options)
{
    auto source = PlaybackSource::open(path, options);
    if (!source) {
        qWarning("open: %s", source.error().toString().c_str());
        return nullptr;
    }
    return std::move(*source);
}

} // namespace

class TestRecordPlayback : public QObject {
    Q_OBJECT

private slots:
    void playsEveryRecordInTimeOrder()
    {
        QTemporaryDir dir;
        const std::string path = dir.path().toStdString();
        const auto expected = writeRecording(path, twoStreams(), 1500);
        const auto segments = catalogSegments(path);
        QVERIFY2(catalogSegments(path, "tm").size() >= 3 && catalogSegments(path, "hk").size() >= 2,
                 qPrintable(QString::number(segments.size())));

        auto source = openOrFail(path, {});
        QVERIFY(source);
        QCOMPARE(source->progress().recordsTotal, std::uint64_t{100});
        QCOMPARE(source->progress().fraction(), 0.0);
        const auto played = playAll(*source, 7);
        QVERIFY2(difference(played, expected).isEmpty(), qPrintable(difference(played, expected)));
        // Interleaved across the streams, not one stream after the other.
        QCOMPARE(played[0].meta.streamId, std::uint16_t{1});
        QCOMPARE(played[1].meta.streamId, std::uint16_t{2});

        const auto p = source->progress();
        QVERIFY(p.finished);
        QCOMPARE(p.recordsTotal, std::uint64_t{100});
        QCOMPARE(p.recordsPlayed, std::uint64_t{100});
        QCOMPARE(p.recordsSkipped, std::uint64_t{0});
        QCOMPARE(p.segmentsTotal, std::uint64_t{segments.size()});
        QCOMPARE(p.segmentsDone, std::uint64_t{segments.size()});
        QCOMPARE(p.problem, std::string());
        QCOMPARE(p.fraction(), 1.0);
        QCOMPARE(source->poll(10ms, [](const RecordMeta&, std::span<const std::uint8_t>) {}), std::size_t{0});
    }

    void selectsStreams()
    {
        QTemporaryDir dir;
        const std::string path = dir.path().toStdString();
        const auto expected = writeRecording(path, twoStreams(), 1500);

        PlaybackOptions options;
        options.streams = {"hk"};
        auto source = openOrFail(path, options);
        QVERIFY(source);
        const auto played = playAll(*source);
        const QString diff = difference(played, withoutStream(expected, 1));
        QVERIFY2(diff.isEmpty(), qPrintable(diff));
        QCOMPARE(source->progress().segmentsTotal, std::uint64_t{catalogSegments(path, "hk").size()});
        QCOMPARE(source->progress().recordsSkipped, std::uint64_t{0});

        options.streams = {"hk", "tm"};
        source = openOrFail(path, options);
        QVERIFY(source);
        QCOMPARE(playAll(*source).size(), expected.size());

        options.streams = {"tm", "nope"};
        auto missing = PlaybackSource::open(path, options);
        QVERIFY(!missing);
        const auto message = missing.error().toString();
        QVERIFY2(message.find("stream 'nope' is not in the recording (streams: ") != std::string::npos,
                 message.c_str());
        QVERIFY2(message.find(path) != std::string::npos, message.c_str());
    }

    void selectsTimeRange()
    {
        QTemporaryDir dir;
        const std::string path = dir.path().toStdString();
        const auto expected = writeRecording(path, twoStreams(), 1500);

        const auto check = [&](std::size_t first, std::size_t last, std::int64_t fromNs, std::int64_t toNs) {
            PlaybackOptions options;
            options.fromNs = fromNs;
            options.toNs = toNs;
            auto source = openOrFail(path, options);
            QVERIFY(source);
            const auto played = playAll(*source);
            const std::vector<Rec> inRange(expected.begin() + static_cast<std::ptrdiff_t>(first),
                                           expected.begin() + static_cast<std::ptrdiff_t>(last) + 1);
            QVERIFY2(difference(played, inRange).isEmpty(), qPrintable(difference(played, inRange)));
            // Skipped: the records of the segments the range touches, minus those played.
            auto catalog = RecordingCatalog::open(path);
            QVERIFY(catalog);
            std::uint64_t inTouchedSegments = 0;
            constexpr auto kMin = std::numeric_limits<std::int64_t>::min();
            constexpr auto kMax = std::numeric_limits<std::int64_t>::max();
            const auto touched = (*catalog)->segmentsBetween(fromNs != 0 ? fromNs : kMin, toNs != 0 ? toNs : kMax);
            for (const auto& s : touched)
                inTouchedSegments += s.packets;
            const auto p = source->progress();
            QCOMPARE(p.recordsPlayed, std::uint64_t{inRange.size()});
            QCOMPARE(p.recordsSkipped, inTouchedSegments - inRange.size());
            QCOMPARE(p.recordsTotal, inTouchedSegments);
            QCOMPARE(p.segmentsTotal, std::uint64_t{touched.size()});
            QCOMPARE(p.fraction(), 1.0);
        };
        // Inclusive bounds at exact record times, in the middle of the recording.
        check(30, 70, expected[30].meta.receiveTimeNs, expected[70].meta.receiveTimeNs);
        // Bounds between records; open ends.
        check(11, 99, expected[10].meta.receiveTimeNs + 1, 0);
        check(0, 49, 0, expected[50].meta.receiveTimeNs - 1);
        check(42, 42, expected[42].meta.receiveTimeNs, expected[42].meta.receiveTimeNs);

        // A range without records: zero records, finished at once, no error.
        PlaybackOptions before;
        before.toNs = kT0 - 1;
        auto empty = openOrFail(path, before);
        QVERIFY(empty);
        QCOMPARE(playAll(*empty).size(), std::size_t{0});
        QCOMPARE(empty->progress().recordsTotal, std::uint64_t{0});
        QCOMPARE(empty->progress().fraction(), 1.0);
    }

    void selectsSegments()
    {
        QTemporaryDir dir;
        const std::string path = dir.path().toStdString();
        writeRecording(path, twoStreams(), 1500);
        const auto tm = catalogSegments(path, "tm");
        const auto hk = catalogSegments(path, "hk");
        PlaybackOptions options;
        options.segments = {hk[1].file, tm[1].file};
        auto source = openOrFail(path, options);
        QVERIFY(source);
        auto expected = readSegment(segmentPath(path, tm[1]));
        const auto hkRecords = readSegment(segmentPath(path, hk[1]));
        expected.insert(expected.end(), hkRecords.begin(), hkRecords.end());
        std::sort(expected.begin(), expected.end(), byTime);
        QVERIFY(expected.size() >= 4);
        const auto played = playAll(*source);
        QVERIFY2(difference(played, expected).isEmpty(), qPrintable(difference(played, expected)));
        QCOMPARE(source->progress().segmentsTotal, std::uint64_t{2});

        // Both selections apply.
        options.streams = {"tm"};
        source = openOrFail(path, options);
        QVERIFY(source);
        QCOMPARE(playAll(*source), readSegment(segmentPath(path, tm[1])));

        options.segments = {"no-such.tsrec"};
        auto missing = PlaybackSource::open(path, options);
        QVERIFY(!missing);
        QVERIFY(missing.error().message.find("segment 'no-such.tsrec' is not in the recording") != std::string::npos);
    }

    void playsOneSegmentFile()
    {
        QTemporaryDir dir;
        const std::string path = dir.path().toStdString();
        writeRecording(path, twoStreams(), 1500);
        const auto tm = catalogSegments(path, "tm");
        const std::string file = segmentPath(path, tm[1]);
        const auto expected = readSegment(file);
        QVERIFY(!expected.empty());

        auto source = openOrFail(file, {});
        QVERIFY(source);
        QCOMPARE(source->progress().recordsTotal, std::uint64_t{expected.size()});
        QCOMPARE(source->segments().size(), std::size_t{1});
        QCOMPARE(source->segments()[0].streamName, std::string("tm"));
        QCOMPARE(playAll(*source), expected);
        QCOMPARE(source->progress().segmentsDone, std::uint64_t{1});

        // A time range inside the file.
        PlaybackOptions options;
        options.fromNs = expected[1].meta.receiveTimeNs;
        source = openOrFail(file, options);
        QVERIFY(source);
        QCOMPARE(playAll(*source), std::vector<Rec>(expected.begin() + 1, expected.end()));
        QCOMPARE(source->progress().recordsSkipped, std::uint64_t{1});

        // Selections naming something else than this file's stream or name are errors.
        options = {};
        options.streams = {"hk"};
        QVERIFY(!PlaybackSource::open(file, options));
        options = {};
        options.segments = {tm[0].file};
        QVERIFY(!PlaybackSource::open(file, options));
        options.segments = {tm[1].file};
        QVERIFY(PlaybackSource::open(file, options));
    }

    void speedZeroIsFast()
    {
        QTemporaryDir dir;
        const std::string path = dir.path().toStdString();
        // 2,000 records one second apart: 33 minutes of receive time.
        const auto expected = writeRecording(path, {{"tm", 1, 2000, kT0, 1'000'000'000, 0}}, 64 * 1024);
        auto source = openOrFail(path, {});
        QVERIFY(source);
        QElapsedTimer timer;
        timer.start();
        const auto played = playAll(*source);
        QVERIFY2(timer.elapsed() < 2000, qPrintable(QString::number(timer.elapsed())));
        QCOMPARE(played.size(), expected.size());
    }

    void speedPacesRecords_data()
    {
        QTest::addColumn<double>("speed");
        QTest::addColumn<int>("count");
        QTest::addColumn<qint64>("stepNs");
        QTest::addColumn<qint64>("minimumMs");
        QTest::newRow("real time, 300 ms") << 1.0 << 31 << qint64{10'000'000} << qint64{280};
        QTest::newRow("10 times, 1 s") << 10.0 << 11 << qint64{100'000'000} << qint64{95};
        QTest::newRow("half speed, 100 ms") << 0.5 << 11 << qint64{10'000'000} << qint64{190};
    }

    void speedPacesRecords()
    {
        QFETCH(double, speed);
        QFETCH(int, count);
        QFETCH(qint64, stepNs);
        QFETCH(qint64, minimumMs);
        QTemporaryDir dir;
        const std::string path = dir.path().toStdString();
        const auto expected = writeRecording(path, {{"tm", 1, std::size_t(count), kT0, stepNs, 0}}, 600);
        QVERIFY(catalogSegments(path).size() > 1);
        PlaybackOptions options;
        options.speed = speed;
        auto source = openOrFail(path, options);
        QVERIFY(source);

        std::vector<std::int64_t> wallNs;
        std::vector<std::int64_t> timeNs;
        const PlaybackSource::Deliver deliver = [&](const RecordMeta& meta, std::span<const std::uint8_t>) {
            const auto now = std::chrono::steady_clock::now().time_since_epoch();
            wallNs.push_back(std::chrono::duration_cast<std::chrono::nanoseconds>(now).count());
            timeNs.push_back(meta.receiveTimeNs);
        };
        QElapsedTimer timer;
        timer.start();
        while (!source->finished() && timer.elapsed() < 20'000)
            source->poll(50ms, deliver);
        const qint64 elapsed = timer.elapsed();
        QCOMPARE(wallNs.size(), std::size_t(count));
        QVERIFY2(elapsed >= minimumMs, qPrintable(QString::number(elapsed)));
        QVERIFY2(elapsed < 10 * minimumMs + 2000, qPrintable(QString::number(elapsed)));
        // No record before its due time (measured from the first delivery, which is a little after the
        // source's own start: 3 ms of slack for a busy machine).
        for (std::size_t i = 1; i < wallNs.size(); ++i) {
            const double due = static_cast<double>(timeNs[i] - timeNs[0]) / speed;
            QVERIFY2(static_cast<double>(wallNs[i] - wallNs[0]) >= due - 3e6,
                     qPrintable(QStringLiteral("record %1 at %2 ns, due at %3 ns")
                                    .arg(i)
                                    .arg(wallNs[i] - wallNs[0])
                                    .arg(due)));
        }
    }

    void pollNeverBlocksLongerThanItsTimeout()
    {
        QTemporaryDir dir;
        const std::string path = dir.path().toStdString();
        writeRecording(path, {{"tm", 1, 2, kT0, 1'000'000'000, 0}}, 64 * 1024);
        PlaybackOptions options;
        options.speed = 1;
        auto source = openOrFail(path, options);
        QVERIFY(source);
        std::size_t got = 0;
        const PlaybackSource::Deliver deliver = [&](const RecordMeta&, std::span<const std::uint8_t>) { ++got; };
        QCOMPARE(source->poll(10ms, deliver), std::size_t{1}); // the first record is due at once
        // The second is due in 1 s: each poll waits its 10 ms and returns empty-handed.
        for (int i = 0; i < 5; ++i) {
            QElapsedTimer timer;
            timer.start();
            QCOMPARE(source->poll(10ms, deliver), std::size_t{0});
            const qint64 ns = timer.nsecsElapsed();
            QVERIFY2(ns >= 9'000'000 && ns < 150'000'000, qPrintable(QString::number(ns)));
            QVERIFY(!source->finished());
        }
        QElapsedTimer timer;
        timer.start();
        QCOMPARE(source->poll(0ms, deliver), std::size_t{0});
        QVERIFY(timer.nsecsElapsed() < 100'000'000);
        QCOMPARE(got, std::size_t{1});
        QCOMPARE(source->progress().fraction(), 0.5);
    }

    void truncatedLastSegment()
    {
        QTemporaryDir dir;
        const std::string path = dir.path().toStdString();
        auto expected = writeRecording(path, twoStreams(), 1500);
        const auto tm = catalogSegments(path, "tm");
        const std::string last = segmentPath(path, tm.back());
        const auto inLast = readSegment(last);
        // Cut the file inside its last record (a crash while writing).
        fs::resize_file(last, fs::file_size(last) - 5);
        std::erase(expected, inLast.back());

        auto source = openOrFail(path, {});
        QVERIFY(source);
        const auto played = playAll(*source);
        QVERIFY2(difference(played, expected).isEmpty(), qPrintable(difference(played, expected)));
        const auto p = source->progress();
        QVERIFY(p.finished);
        QVERIFY2(p.problem.find(tm.back().file + ": truncated: ") == 0, p.problem.c_str());
        QVERIFY2(p.problem.find("byte offset") != std::string::npos, p.problem.c_str());
        QCOMPARE(p.recordsTotal, std::uint64_t{expected.size()}); // corrected to what was intact
        QCOMPARE(p.recordsPlayed, std::uint64_t{expected.size()});
        QCOMPARE(p.fraction(), 1.0);
    }

    void damagedRecordSkipsTheRestOfItsSegment()
    {
        QTemporaryDir dir;
        const std::string path = dir.path().toStdString();
        auto expected = writeRecording(path, twoStreams(), 1500);
        const auto tm = catalogSegments(path, "tm");
        QVERIFY(tm.size() >= 3);
        const std::string damaged = segmentPath(path, tm[1]);
        const auto inSegment = readSegment(damaged);
        QVERIFY(inSegment.size() >= 4);
        // Flip a payload byte of the segment's third record.
        std::uint64_t offset = kFileHeaderSize;
        for (std::size_t i = 0; i < 2; ++i)
            offset += kRecordOverhead + inSegment[i].payload.size();
        offset += 24 + 3; // record header, then the payload's fourth byte
        {
            std::fstream f(damaged, std::ios::in | std::ios::out | std::ios::binary);
            f.seekg(static_cast<std::streamoff>(offset));
            char byte = 0;
            f.read(&byte, 1);
            byte = static_cast<char>(byte ^ 0x20);
            f.seekp(static_cast<std::streamoff>(offset));
            f.write(&byte, 1);
        }
        for (std::size_t i = 2; i < inSegment.size(); ++i)
            std::erase(expected, inSegment[i]);

        auto source = openOrFail(path, {});
        QVERIFY(source);
        const auto played = playAll(*source);
        // Everything else, including the records of tm's later segments, is played.
        QVERIFY2(difference(played, expected).isEmpty(), qPrintable(difference(played, expected)));
        const auto p = source->progress();
        QVERIFY2(p.problem.find(tm[1].file + ": damaged: record CRC mismatch at byte offset") == 0, p.problem.c_str());
        QCOMPARE(p.recordsPlayed, std::uint64_t{expected.size()});
        QCOMPARE(p.recordsTotal, std::uint64_t{expected.size()});
        QCOMPARE(p.segmentsDone, p.segmentsTotal);
    }

    void missingSegmentFileIsReported()
    {
        QTemporaryDir dir;
        const std::string path = dir.path().toStdString();
        auto expected = writeRecording(path, twoStreams(), 1500);
        const auto hk = catalogSegments(path, "hk");
        for (const auto& r : readSegment(segmentPath(path, hk[0])))
            std::erase(expected, r);
        fs::remove(segmentPath(path, hk[0]));
        auto source = openOrFail(path, {});
        QVERIFY(source);
        const auto played = playAll(*source);
        QVERIFY2(difference(played, expected).isEmpty(), qPrintable(difference(played, expected)));
        const std::string problem = source->progress().problem;
        QVERIFY2(problem.find(hk[0].file + ": cannot read: cannot open: ") == 0, problem.c_str());
        QCOMPARE(source->progress().fraction(), 1.0);
    }

    // A catalog names its segments relative to the recording directory; a row naming a path elsewhere
    // (a corrupt or hostile catalog: "../x", "/dev/stdin", a FIFO) is reported, never opened.
    void segmentOutsideTheDirectoryIsNotRead()
    {
        QTemporaryDir dir;
        const std::string path = dir.path().toStdString() + "/rec";
        const std::string outside = dir.path().toStdString() + "/outside";
        const auto expected = writeRecording(path, {{"tm", 1, 30, kT0, 1'000'000, 0}}, 1 << 20);
        writeRecording(outside, {{"tm", 1, 30, kT0 + 500'000, 1'000'000, 0}}, 1 << 20);
        SegmentInfo elsewhere = catalogSegments(outside).at(0);
        elsewhere.file = "../outside/" + elsewhere.file;
        elsewhere.streamName = "hk";
        {
            auto catalog = RecordingCatalog::open(path);
            QVERIFY(catalog);
            QVERIFY((*catalog)->addSegment(elsewhere));
        }
        auto source = openOrFail(path, {});
        QVERIFY(source);
        const auto played = playAll(*source);
        QVERIFY2(difference(played, expected).isEmpty(), qPrintable(difference(played, expected)));
        const std::string problem = source->progress().problem;
        QVERIFY2(problem == elsewhere.file + ": cannot read: '" + elsewhere.file +
                                "' is not a file name in the recording directory",
                 problem.c_str());
    }

    void progressFromAnotherThread()
    {
        QTemporaryDir dir;
        const std::string path = dir.path().toStdString();
        const auto expected = writeRecording(path, twoStreams(), 1500);
        auto source = openOrFail(path, {});
        QVERIFY(source);
        QCOMPARE(source->progress().fraction(), 0.0);

        std::atomic<bool> stop{false};
        std::atomic<bool> monotonic{true};
        std::atomic<int> samples{0};
        std::thread observer([&] {
            double last = 0;
            std::uint64_t lastPlayed = 0;
            while (!stop.load()) {
                const auto p = source->progress();
                if (p.fraction() < last || p.recordsPlayed < lastPlayed || p.fraction() > 1.0)
                    monotonic = false;
                last = p.fraction();
                lastPlayed = p.recordsPlayed;
                ++samples;
            }
        });
        std::vector<double> fractions;
        const PlaybackSource::Deliver deliver = [](const RecordMeta&, std::span<const std::uint8_t>) {};
        while (!source->finished()) {
            source->poll(10ms, deliver, 9);
            fractions.push_back(source->progress().fraction());
            std::this_thread::sleep_for(1ms);
        }
        stop = true;
        observer.join();
        QVERIFY(monotonic.load());
        QVERIFY(samples.load() > 0);
        QVERIFY(std::is_sorted(fractions.begin(), fractions.end()));
        QVERIFY(fractions.front() > 0.0 && fractions.front() < 0.2);
        QCOMPARE(fractions.back(), 1.0);
        QVERIFY(std::any_of(fractions.begin(), fractions.end(), [](double f) { return f > 0.4 && f < 0.6; }));
    }

    void openErrors()
    {
        QTemporaryDir dir;
        const std::string path = dir.path().toStdString();

        const std::string missing = path + "/no/such/recording";
        auto r = PlaybackSource::open(missing, {});
        QVERIFY(!r);
        QVERIFY2(r.error().toString().find(missing) == 0, r.error().toString().c_str());
        QVERIFY2(r.error().message.find("no such file or directory") != std::string::npos, r.error().message.c_str());

        // An empty directory is not a recording (documented choice: an error, not zero records).
        const std::string empty = path + "/empty";
        fs::create_directory(empty);
        r = PlaybackSource::open(empty, {});
        QVERIFY(!r);
        QVERIFY2(r.error().toString() == empty + ": not a recording directory (it has no catalog.sqlite)",
                 r.error().toString().c_str());
        QVERIFY(!fs::exists(empty + "/catalog.sqlite")); // and nothing was created

        const std::string notSegment = path + "/notes.tsrec";
        std::ofstream(notSegment) << "not a recording segment at all, just text\n";
        r = PlaybackSource::open(notSegment, {});
        QVERIFY(!r);
        QVERIFY2(r.error().toString().find(notSegment + ": not a recording segment") == 0,
                 r.error().toString().c_str());

        const std::string notCatalog = path + "/other";
        fs::create_directory(notCatalog);
        std::ofstream(notCatalog + "/catalog.sqlite") << "not SQLite";
        r = PlaybackSource::open(notCatalog, {});
        QVERIFY(!r);
        QVERIFY2(r.error().toString().find("catalog.sqlite") != std::string::npos, r.error().toString().c_str());

        writeRecording(path + "/rec", twoStreams(), 1500);
        PlaybackOptions options;
        options.speed = -1;
        QVERIFY(!PlaybackSource::open(path + "/rec", options));
        options.speed = std::numeric_limits<double>::quiet_NaN();
        QVERIFY(!PlaybackSource::open(path + "/rec", options));
        options = {};
        options.fromNs = kT0 + 2;
        options.toNs = kT0 + 1;
        r = PlaybackSource::open(path + "/rec", options);
        QVERIFY(!r);
        QVERIFY(r.error().message.find("ends before it starts") != std::string::npos);
        options.toNs = kT0 + 2;
        QVERIFY(PlaybackSource::open(path + "/rec", options));
    }

    void emptyRecordingHasZeroRecords()
    {
        QTemporaryDir dir;
        const std::string path = dir.path().toStdString();
        QVERIFY(RecordingCatalog::open(path)); // a catalog without segments
        auto source = openOrFail(path, {});
        QVERIFY(source);
        QCOMPARE(source->progress().recordsTotal, std::uint64_t{0});
        QCOMPARE(source->progress().fraction(), 0.0);
        QCOMPARE(source->poll(10ms, [](const RecordMeta&, std::span<const std::uint8_t>) {}), std::size_t{0});
        QVERIFY(source->finished());
        QCOMPARE(source->progress().fraction(), 1.0);
        QCOMPARE(source->progress().segmentsTotal, std::uint64_t{0});
    }

    // A segment still OPEN in the catalog (being recorded, or left by a crash): counted from the file,
    // played, and the catalog is not touched (no recovery by playback).
    void openSegmentIsScannedAndCatalogNotWritten()
    {
        QTemporaryDir dir;
        const std::string path = dir.path().toStdString();
        const auto expected = writeRecording(path, twoStreams(), 1500);
        auto tm = catalogSegments(path, "tm");
        SegmentInfo live = tm.back();
        live.state = SegmentState::Open;
        live.packets = 0;
        live.firstTimeNs = live.lastTimeNs = 0;
        live.apidPackets.clear();
        {
            auto catalog = RecordingCatalog::open(path);
            QVERIFY(catalog);
            QVERIFY((*catalog)->updateSegment(live));
        }
        const auto catalogBytes = [&] {
            std::ifstream f(path + "/catalog.sqlite", std::ios::binary);
            return std::string(std::istreambuf_iterator<char>(f), {});
        };
        const std::string before = catalogBytes();

        auto source = openOrFail(path, {});
        QVERIFY(source);
        QCOMPARE(source->progress().recordsTotal, std::uint64_t{expected.size()});
        const auto played = playAll(*source);
        QVERIFY2(difference(played, expected).isEmpty(), qPrintable(difference(played, expected)));
        source.reset();
        QVERIFY(catalogBytes() == before);

        // Read-only media: a WAL catalog without its -shm file in a directory nobody may write to. Root
        // ignores permissions, so then the check runs in a child that drops to the user nobody.
        fs::remove(path + "/catalog.sqlite-shm");
        fs::remove(path + "/catalog.sqlite-wal");
        using fs::perms;
        fs::permissions(path, perms::owner_read | perms::owner_exec | perms::group_read | perms::group_exec
                                  | perms::others_read | perms::others_exec);
        const auto playsReadOnly = [&] {
            auto readOnly = PlaybackSource::open(path, {});
            return readOnly && playAll(**readOnly).size() == expected.size() && (*readOnly)->progress().problem.empty();
        };
        bool ok = false;
        if (::geteuid() == 0) {
            const pid_t child = ::fork();
            if (child == 0) {
                if (::setgid(65534) != 0 || ::setuid(65534) != 0)
                    ::_exit(2);
                ::_exit(playsReadOnly() ? 0 : 1);
            }
            int status = -1;
            ok = child > 0 && ::waitpid(child, &status, 0) == child && WIFEXITED(status) && WEXITSTATUS(status) == 0;
        } else {
            ok = playsReadOnly();
        }
        fs::permissions(path, perms::owner_all, fs::perm_options::add);
        QVERIFY(ok);
        QVERIFY(!fs::exists(path + "/catalog.sqlite-shm"));
    }

    void steadyStateAllocatesNothing()
    {
        QTemporaryDir dir;
        const std::string path = dir.path().toStdString();
        writeRecording(path, {{"tm", 1, 5000, kT0, 1'000, 200}}, 64 * 1024 * 1024);
        auto source = openOrFail(path, {});
        QVERIFY(source);
        std::size_t bytes = 0;
        const PlaybackSource::Deliver deliver = [&](const RecordMeta&, std::span<const std::uint8_t> payload) {
            bytes += payload.size();
        };
        QCOMPARE(source->poll(10ms, deliver, 100), std::size_t{100});
        const long before = test::threadAllocations();
        std::size_t played = 0;
        for (int i = 0; i < 40; ++i)
            played += source->poll(10ms, deliver, 100);
        QCOMPARE(test::threadAllocations() - before, 0L);
        QCOMPARE(played, std::size_t{4000});
        QCOMPARE(bytes, std::size_t{4100 * 200});
    }

    void parsesTimes()
    {
        QCOMPARE(parseTimeNs("2026-11-22T12:00:00Z"), std::optional<std::int64_t>(kT0));
        QCOMPARE(parseTimeNs("2026-11-22T12:00:00.25Z"), std::optional<std::int64_t>(kT0 + 250'000'000));
        QCOMPARE(parseTimeNs("2026-11-22T12:00:00.000000001Z"), std::optional<std::int64_t>(kT0 + 1));
        QCOMPARE(parseTimeNs("1970-01-01T00:00:00Z"), std::optional<std::int64_t>(0));
        QCOMPARE(parseTimeNs("2000-03-01T00:00:00Z"), std::optional<std::int64_t>(951'868'800'000'000'000));
        QCOMPARE(parseTimeNs("2024-02-29T23:59:59Z"), std::optional<std::int64_t>(1'709'251'199'000'000'000));
        QCOMPARE(parseTimeNs("2262-04-11T23:47:16.854775807Z"),
                 std::optional<std::int64_t>(std::numeric_limits<std::int64_t>::max()));
        QCOMPARE(parseTimeNs("1795348800000000000"), std::optional<std::int64_t>(kT0));
        QCOMPARE(parseTimeNs("0"), std::optional<std::int64_t>(0));
        for (const char* bad : {"", "-1", "1e9", "9223372036854775808", "2026-11-22", "2026-11-22T12:00:00",
                                "2026-11-22T12:00Z", "2026-02-29T00:00:00Z", "2026-11-31T00:00:00Z",
                                "2026-00-01T00:00:00Z", "2026-11-22T24:00:00Z",
                                "2026-11-22T12:60:00Z", "2026-11-22T12:00:60Z", "2026-11-22T12:00:00.Z",
                                "2026-11-22T12:00:00.1234567890Z", "2026-11-22T12:00:00+00:00", "2026-11-22t12:00:00z",
                                "1969-12-31T23:59:59Z", "2262-04-11T23:47:16.854775808Z", "2026-11-22T12:00:00Zx"})
            QVERIFY2(!parseTimeNs(bad), bad);
    }

    void optionsFromQuery()
    {
        const std::vector<std::pair<std::string, std::string>> query{
            {"stream", "tm"}, {"speed", "2.5"}, {"from", "2026-11-22T12:00:00Z"}, {"to", "1795348800500000000"},
            {"stream", "hk"}, {"segment", "tm-1.tsrec"}};
        auto options = playbackOptionsFromQuery(query);
        QVERIFY2(options, options ? "" : options.error().message.c_str());
        PlaybackOptions expected;
        expected.speed = 2.5;
        expected.fromNs = kT0;
        expected.toNs = kT0 + 500'000'000;
        expected.streams = {"tm", "hk"};
        expected.segments = {"tm-1.tsrec"};
        QVERIFY(*options == expected);
        QVERIFY(*playbackOptionsFromQuery({}) == PlaybackOptions{});

        using Query = std::vector<std::pair<std::string, std::string>>;
        const auto fails = [](const Query& q, const std::string& what) {
            auto r = playbackOptionsFromQuery(q);
            return !r && r.error().message.find(what) != std::string::npos;
        };
        QVERIFY(fails({{"speed", "-1"}}, "speed '-1' is not a number >= 0"));
        QVERIFY(fails({{"speed", "1"}, {"speed", "2"}}, "speed is given twice"));
        QVERIFY(fails({{"from", "noon"}}, "from 'noon' is not a time"));
        QVERIFY(fails({{"to", "1"}, {"to", "2"}}, "to is given twice"));
        QVERIFY(fails({{"from", "20"}, {"to", "10"}}, "to is before from"));
        QVERIFY(fails({{"iface", "1.2.3.4"}}, "unknown playback option 'iface'"));
        QVERIFY(fails({{"stream", ""}}, "empty stream name"));
        auto openEnd = playbackOptionsFromQuery(Query{{"from", "20"}, {"to", "0"}});
        QVERIFY(openEnd && openEnd->fromNs == 20 && openEnd->toNs == 0);
    }
};

QTEST_GUILESS_MAIN(TestRecordPlayback)
#include "tst_record_playback.moc"
