// Playback: the catalog read without writing to it, the selection, one segment reader per stream and a
// merge by receive time across the streams, paced by due times on the steady clock.
#include "core/record/playback.hpp"

#include "core/common/time_text.hpp"

#include "core/record/catalog_detail.hpp"
#include "core/record/record_detail.hpp"

#include <spdlog/spdlog.h>

#include <algorithm>
#include <atomic>
#include <cctype>
#include <charconv>
#include <cmath>
#include <filesystem>
#include <limits>
#include <mutex>
#include <system_error>
#include <thread>
#include <tuple>

namespace telestation::record {
namespace {

namespace fs = std::filesystem;
using Clock = std::chrono::steady_clock;

// While skipping records outside the time range, look at the clock this often so that a long skip
// still returns within the timeout.
constexpr std::uint64_t kSkipsPerClockCheck = 256;

Error pathError(const std::string& path, std::string message)
{
    return Error{std::move(message), {path, 0, 0}};
}

std::string joined(const std::vector<std::string>& names)
{
    std::string out;
    for (const auto& name : names)
        out += (out.empty() ? "" : ", ") + name;
    return out.empty() ? "none" : out;
}

// ---- the catalog, read-only ------------------------------------------------------------------------

Result<std::vector<SegmentInfo>> querySegments(sqlite::Connection& db, const std::string& dbPath)
{
    const auto fail = [&](const Error& e) { return pathError(dbPath, "cannot read the catalog: " + e.message); };
    auto applicationId = db.queryInteger("PRAGMA application_id");
    if (!applicationId)
        return fail(applicationId.error());
    if (*applicationId != detail::kCatalogApplicationId)
        return pathError(dbPath, "not a recording catalog");
    std::vector<SegmentInfo> out;
    if (auto st = detail::readSegmentRows(db, {}, 0, 0, out); !st)
        return fail(st.error());
    return out;
}

// Reads the catalog without writing to it: RecordingCatalog::open would recover OPEN segments (which
// may be the recorder's current ones) and needs a writable directory. A WAL database on read-only
// media cannot be opened read-only without its -shm file; it is then read as immutable.
Result<std::vector<SegmentInfo>> readCatalog(const std::string& dbPath)
{
    if (auto db = sqlite::Connection::open(dbPath, sqlite::OpenMode::ReadOnly)) {
        auto segments = querySegments(*db, dbPath);
        if (segments || segments.error().message.find("not a recording catalog") != std::string::npos)
            return segments;
    }
    auto db = sqlite::Connection::openImmutable(dbPath);
    if (!db)
        return pathError(dbPath, "cannot open the catalog: " + db.error().message);
    return querySegments(*db, dbPath);
}

// Counts and times of a segment from the file itself (OPEN segments, damaged ones the catalog could not
// count, single files).
void fillFromScan(SegmentInfo& info, const std::string& path)
{
    auto summary = detail::summarizeSegment(path);
    if (!summary)
        return; // reported when playback reaches the segment and cannot open it either
    detail::setFromSummary(info, *summary);
}

} // namespace

// ---- options ---------------------------------------------------------------------------------------

double PlaybackProgress::fraction() const noexcept
{
    if (finished)
        return 1.0;
    if (recordsTotal == 0)
        return 0.0;
    return std::min(1.0, static_cast<double>(recordsPlayed + recordsSkipped) / static_cast<double>(recordsTotal));
}

Result<PlaybackOptions> playbackOptionsFromQuery(std::span<const std::pair<std::string, std::string>> query)
{
    PlaybackOptions options;
    bool haveSpeed = false, haveFrom = false, haveTo = false, haveRepeat = false;
    for (const auto& [key, value] : query) {
        const auto quotedValue = "'" + value + "'";
        if (key == "speed") {
            const auto speed = text::parsePlainDecimal(value);
            if (haveSpeed)
                return Error{"speed is given twice", {}};
            if (!speed)
                return Error{"speed " + quotedValue + " is not a number >= 0", {}};
            options.speed = *speed;
            haveSpeed = true;
        } else if (key == "from" || key == "to") {
            bool& have = key == "from" ? haveFrom : haveTo;
            if (have)
                return Error{key + " is given twice", {}};
            const auto time = text::parseTimeNs(value);
            if (!time)
                return Error{
                    key + " " + quotedValue + " is not a time (integer ns since the Unix epoch or ISO-8601 UTC)", {}};
            (key == "from" ? options.fromNs : options.toNs) = *time;
            have = true;
        } else if (key == "stream") {
            if (value.empty())
                return Error{"empty stream name", {}};
            options.streams.push_back(value);
        } else if (key == "segment") {
            if (value.empty())
                return Error{"empty segment name", {}};
            options.segments.push_back(value);
        } else if (key == "repeat") {
            if (haveRepeat)
                return Error{"repeat is given twice", {}};
            if (value != "0" && value != "1")
                return Error{"repeat " + quotedValue + " is not 0 or 1", {}};
            options.repeat = value == "1";
            haveRepeat = true;
        } else {
            return Error{"unknown playback option '" + key + "' (expected speed, from, to, stream, segment or repeat)", {}};
        }
    }
    if (options.fromNs != 0 && options.toNs != 0 && options.fromNs > options.toNs)
        return Error{"to is before from", {}};
    return options;
}

// ---- PlaybackSource --------------------------------------------------------------------------------

struct PlaybackSource::Impl {
    // One per selected stream: its segments in play order, the open reader and its pending record.
    struct Cursor {
        std::vector<std::size_t> segments; // indices into Impl::segments
        std::size_t next = 0;              // the next of `segments` to open
        std::size_t current = 0;           // index into Impl::segments of the open one
        std::unique_ptr<SegmentReader> reader;
        std::uint64_t readFromSegment = 0;
        bool pending = false; // meta/payload hold the next record of this stream
        RecordMeta meta;
        std::vector<std::uint8_t> payload;
    };

    std::string directory; // segment files are relative to it
    PlaybackOptions options;
    std::int64_t lowNs = std::numeric_limits<std::int64_t>::min();
    std::int64_t highNs = std::numeric_limits<std::int64_t>::max();
    std::vector<SegmentInfo> segments;
    const std::string* delivering = nullptr; // the stream of the record being delivered
    std::vector<Cursor> cursors;

    bool started = false; // pacing: the first delivered record's time and wall time
    std::int64_t firstRecordNs = 0;
    Clock::time_point firstRecordWall;

    std::atomic<std::uint64_t> recordsTotal{0};
    std::atomic<std::uint64_t> recordsPlayed{0};
    std::atomic<std::uint64_t> recordsSkipped{0};
    std::atomic<std::uint64_t> segmentsDone{0};
    std::atomic<bool> done{false};
    mutable std::mutex problemMutex;
    std::string problem;

    void report(const SegmentInfo& info, const std::string& what)
    {
        spdlog::warn("playback of {}: {}: {}", directory.empty() ? "." : directory, info.file, what);
        const std::lock_guard lock(problemMutex);
        problem += (problem.empty() ? "" : "; ") + info.file + ": " + what;
    }

    // The segment's expected count was in recordsTotal; now that it is read, what it really had is.
    void endSegment(Cursor& c)
    {
        const SegmentInfo& info = segments[c.current];
        if (c.reader) {
            switch (c.reader->end()) {
            case SegmentEnd::Clean: break;
            case SegmentEnd::TruncatedRecord: report(info, "truncated: " + c.reader->problem()); break;
            case SegmentEnd::Damaged:
                report(info, "damaged: " + c.reader->problem() + "; the rest of this segment is skipped");
                break;
            }
        }
        // One update, so that a reader never sees a total that is off in between.
        if (c.readFromSegment > info.packets)
            recordsTotal.fetch_add(c.readFromSegment - info.packets, std::memory_order_relaxed);
        else if (c.readFromSegment < info.packets)
            recordsTotal.fetch_sub(info.packets - c.readFromSegment, std::memory_order_relaxed);
        segmentsDone.fetch_add(1, std::memory_order_relaxed);
        c.reader.reset();
    }

    // Reads the cursor's next record, going on to its next segment at the end of one.
    void advance(Cursor& c)
    {
        c.pending = false;
        while (true) {
            if (c.reader) {
                if (c.reader->next(c.meta, c.payload)) {
                    ++c.readFromSegment;
                    c.pending = true;
                    return;
                }
                endSegment(c);
            }
            if (c.next == c.segments.size())
                return;
            c.current = c.segments[c.next++];
            c.readFromSegment = 0;
            const SegmentInfo& info = segments[c.current];
            const auto path = detail::segmentPath(directory, info.file);
            auto reader = path ? SegmentReader::open(*path) : Result<std::unique_ptr<SegmentReader>>(path.error());
            if (!reader) {
                report(info, "cannot read: " + reader.error().message);
                endSegment(c);
                continue;
            }
            c.reader = std::move(*reader);
        }
    }

    // The stream whose pending record is the earliest (the first such stream on equal times).
    Cursor* earliest()
    {
        Cursor* best = nullptr;
        for (auto& c : cursors)
            if (c.pending && (!best || c.meta.receiveTimeNs < best->meta.receiveTimeNs))
                best = &c;
        return best;
    }

    Clock::time_point dueTime(std::int64_t receiveTimeNs) const
    {
        // The difference exactly (a double of a 2026 time in ns is off by up to 128 ns); in double only
        // when it does not fit in 64 bits.
        std::int64_t differenceNs = 0;
        const double offsetNs = (__builtin_sub_overflow(receiveTimeNs, firstRecordNs, &differenceNs)
                                     ? static_cast<double>(receiveTimeNs) - static_cast<double>(firstRecordNs)
                                     : static_cast<double>(differenceNs))
                              / options.speed;
        if (offsetNs <= 0)
            return firstRecordWall;
        // Rounded up: a record is never due before its time. Clamped far beyond any recording's length.
        const double clamped = std::min(std::ceil(offsetNs), 1e18);
        return firstRecordWall + std::chrono::nanoseconds(static_cast<std::int64_t>(clamped));
    }
};

PlaybackSource::PlaybackSource(std::unique_ptr<Impl> impl) : m_impl(std::move(impl)) {}
PlaybackSource::~PlaybackSource() = default;

Result<std::unique_ptr<PlaybackSource>> PlaybackSource::open(const std::string& path, const PlaybackOptions& options)
{
    if (!(options.speed >= 0) || !std::isfinite(options.speed))
        return pathError(path, "playback speed " + std::to_string(options.speed) + " is not a number >= 0");
    if (options.fromNs != 0 && options.toNs != 0 && options.fromNs > options.toNs)
        return pathError(path, "the playback time range ends before it starts (from " + std::to_string(options.fromNs)
                                   + " ns, to " + std::to_string(options.toNs) + " ns)");
    auto impl = std::make_unique<Impl>();
    impl->options = options;
    if (options.fromNs != 0)
        impl->lowNs = options.fromNs;
    if (options.toNs != 0)
        impl->highNs = options.toNs;

    std::error_code ec;
    const auto status = fs::status(path, ec);
    if (status.type() == fs::file_type::not_found)
        return pathError(path, "no such file or directory");
    if (ec)
        return pathError(path, "cannot read: " + ec.message());
    std::vector<SegmentInfo> all;
    if (fs::is_directory(status)) {
        impl->directory = path;
        const std::string dbPath = (fs::path(path) / detail::kCatalogFile).string();
        if (!fs::exists(dbPath, ec))
            return pathError(path, "not a recording directory (it has no catalog.sqlite)");
        auto catalog = readCatalog(dbPath);
        if (!catalog)
            return catalog.error();
        all = std::move(*catalog);
    } else {
        // One segment file: it has to be one (header check); its counts come from a scan.
        auto reader = SegmentReader::open(path);
        if (!reader)
            return reader.error();
        const fs::path file(path);
        impl->directory = file.parent_path().string();
        SegmentInfo info;
        info.file = file.filename().string();
        info.streamName = (*reader)->header().streamName;
        info.sequence = (*reader)->header().sequence;
        info.state = SegmentState::Closed;
        fillFromScan(info, path);
        all.push_back(std::move(info));
    }

    // Names the options give must be in the recording: a typo should not play nothing silently.
    for (const auto& stream : options.streams) {
        if (std::none_of(all.begin(), all.end(), [&](const SegmentInfo& s) { return s.streamName == stream; })) {
            std::vector<std::string> names;
            for (const auto& s : all)
                if (std::find(names.begin(), names.end(), s.streamName) == names.end())
                    names.push_back(s.streamName);
            return pathError(path, "stream '" + stream + "' is not in the recording (streams: " + joined(names) + ")");
        }
    }
    for (const auto& segment : options.segments)
        if (std::none_of(all.begin(), all.end(), [&](const SegmentInfo& s) { return s.file == segment; }))
            return pathError(path, "segment '" + segment + "' is not in the recording");

    const auto listed = [](const std::vector<std::string>& names, const std::string& name) {
        return names.empty() || std::find(names.begin(), names.end(), name) != names.end();
    };
    for (auto& info : all) {
        if (!listed(options.streams, info.streamName) || !listed(options.segments, info.file))
            continue;
        // The catalog cannot count a segment still OPEN (being written, or left by a crash and not
        // recovered yet), nor one it could not read at recovery: read the file.
        const bool uncounted =
            info.state == SegmentState::Open || (info.state == SegmentState::Damaged && info.packets == 0);
        if (uncounted && fs::is_directory(status)) {
            if (const auto file = detail::segmentPath(path, info.file))
                fillFromScan(info, *file);
            if (info.packets == 0) { // still nothing: try it anyway, so that its problem is reported
                impl->segments.push_back(std::move(info));
                continue;
            }
        }
        if (info.packets == 0)
            continue; // an empty segment: nothing to play
        if (info.lastTimeNs < impl->lowNs || info.firstTimeNs > impl->highNs)
            continue;
        impl->segments.push_back(std::move(info));
    }
    std::sort(impl->segments.begin(), impl->segments.end(), [](const SegmentInfo& a, const SegmentInfo& b) {
        return std::tie(a.firstTimeNs, a.sequence, a.streamName, a.file)
             < std::tie(b.firstTimeNs, b.sequence, b.streamName, b.file);
    });

    // One cursor per stream, in the order of the streams' first segments.
    std::vector<std::string> streamOrder;
    for (std::size_t i = 0; i < impl->segments.size(); ++i) {
        const auto& name = impl->segments[i].streamName;
        auto it = std::find(streamOrder.begin(), streamOrder.end(), name);
        if (it == streamOrder.end()) {
            streamOrder.push_back(name);
            impl->cursors.emplace_back();
            it = streamOrder.end() - 1;
        }
        impl->cursors[static_cast<std::size_t>(it - streamOrder.begin())].segments.push_back(i);
        impl->recordsTotal.fetch_add(impl->segments[i].packets, std::memory_order_relaxed);
    }
    for (auto& cursor : impl->cursors)
        impl->advance(cursor);
    return std::unique_ptr<PlaybackSource>(new PlaybackSource(std::move(impl)));
}

std::size_t PlaybackSource::poll(std::chrono::milliseconds timeout, const Deliver& deliver, std::size_t maxRecords)
{
    Impl& d = *m_impl;
    const auto deadline = Clock::now() + timeout;
    std::size_t delivered = 0;
    std::uint64_t skipped = 0;
    while (delivered < maxRecords) {
        Impl::Cursor* c = d.earliest();
        if (!c) {
            d.done.store(true, std::memory_order_release);
            break;
        }
        const std::int64_t t = c->meta.receiveTimeNs;
        if (t < d.lowNs || t > d.highNs) {
            d.recordsSkipped.fetch_add(1, std::memory_order_relaxed);
            d.advance(*c);
            if (++skipped % kSkipsPerClockCheck == 0 && Clock::now() >= deadline)
                break;
            continue;
        }
        if (d.options.speed > 0) {
            if (!d.started) {
                d.started = true;
                d.firstRecordNs = t;
                d.firstRecordWall = Clock::now();
            }
            const auto due = d.dueTime(t);
            if (due > Clock::now()) {
                if (delivered > 0)
                    break; // what is due went out; the caller gets control back before the next wait
                if (due > deadline) {
                    std::this_thread::sleep_until(deadline);
                    break;
                }
                std::this_thread::sleep_until(due);
            }
        }
        d.delivering = &d.segments[c->current].streamName;
        deliver(c->meta, std::span<const std::uint8_t>(c->payload));
        d.recordsPlayed.fetch_add(1, std::memory_order_relaxed);
        ++delivered;
        d.advance(*c);
    }
    return delivered;
}

void PlaybackSource::shiftClock(std::chrono::nanoseconds paused) noexcept
{
    if (m_impl->started && paused.count() > 0)
        m_impl->firstRecordWall += paused;
}

std::string_view PlaybackSource::deliveringStream() const noexcept
{
    return m_impl->delivering ? std::string_view(*m_impl->delivering) : std::string_view();
}

PlaybackProgress PlaybackSource::progress() const
{
    const Impl& d = *m_impl;
    PlaybackProgress p;
    // finished first: when it is true, the counters read after it are final.
    p.finished = d.done.load(std::memory_order_acquire);
    p.recordsTotal = d.recordsTotal.load(std::memory_order_relaxed);
    p.recordsPlayed = d.recordsPlayed.load(std::memory_order_relaxed);
    p.recordsSkipped = d.recordsSkipped.load(std::memory_order_relaxed);
    p.segmentsTotal = d.segments.size();
    p.segmentsDone = d.segmentsDone.load(std::memory_order_relaxed);
    const std::lock_guard lock(d.problemMutex);
    p.problem = d.problem;
    return p;
}

bool PlaybackSource::finished() const noexcept
{
    return m_impl->done.load(std::memory_order_acquire);
}

const std::vector<SegmentInfo>& PlaybackSource::segments() const noexcept
{
    return m_impl->segments;
}

} // namespace telestation::record
