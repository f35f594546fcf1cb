#include "core/stats/status_line.hpp"

#include <algorithm>
#include <array>
#include <charconv>
#include <cmath>
#include <cstddef>
#include <ctime>
#include <string_view>
#include <utility>
#include <vector>

namespace telestation::stats {

namespace {

constexpr std::int64_t kNsPerSecond = 1'000'000'000;

std::string fixed(double value, int decimals)
{
    if (!std::isfinite(value))
        return "-";
    std::array<char, 64> buffer {};
    const auto result
        = std::to_chars(buffer.data(), buffer.data() + buffer.size(), value, std::chars_format::fixed, decimals);
    if (result.ec != std::errc {})
        return "-"; // beyond 10^60: not a statistic
    std::string text(buffer.data(), result.ptr);
    if (text == "-0" || text == "-0.0" || text == "-0.00" || text == "-0.000")
        text.erase(0, 1); // a tiny negative rounded to zero
    return text;
}

std::string twoDigits(long value)
{
    std::string text = std::to_string(value);
    if (text.size() < 2)
        text.insert(0, 1, '0');
    return text;
}

// Seconds since the epoch of a realtime timestamp, rounded down (also before 1970).
std::time_t secondsOf(std::int64_t timeNs)
{
    std::int64_t seconds = timeNs / kNsPerSecond;
    if (timeNs % kNsPerSecond < 0)
        --seconds;
    return static_cast<std::time_t>(seconds);
}

// "HH:MM:SSZ" (UTC: ground stations keep UTC), or "--:--:--" for a snapshot without a time.
std::string clockTime(std::int64_t timeNs, bool withDate)
{
    if (timeNs == 0)
        return withDate ? "(no time)" : "--:--:--";
    const std::time_t seconds = secondsOf(timeNs);
    std::tm utc {};
    if (gmtime_r(&seconds, &utc) == nullptr)
        return "--:--:--";
    std::string text;
    if (withDate) {
        text += std::to_string(utc.tm_year + 1900) + '-' + twoDigits(utc.tm_mon + 1) + '-' + twoDigits(utc.tm_mday)
            + ' ';
    }
    text += twoDigits(utc.tm_hour) + ':' + twoDigits(utc.tm_min) + ':' + twoDigits(utc.tm_sec) + 'Z';
    return text;
}

std::uint64_t queueDrops(const PacketCounters& counters, const StreamStats& s) noexcept
{
    return std::max(counters.processDrops, s.processQueue.drops) + std::max(counters.recordDrops, s.recordQueue.drops)
        + std::max(counters.forwardDrops, s.forwardQueue.drops);
}

// The counters of one kind of loss, summed.
std::uint64_t sumOf(const PacketCounters& c, Loss loss) noexcept
{
    std::uint64_t sum = 0;
    for (const CounterField& field : kCounterFields) {
        if (field.loss == loss)
            sum += c.*field.member;
    }
    return sum;
}

std::uint64_t receiverDrops(const StreamStats& s) noexcept
{
    return s.kernelDrops + s.poolDrops + s.networkQueue.drops;
}

std::uint64_t receiverErrors(const StreamStats& s) noexcept
{
    return s.framingErrors + s.truncatedPackets;
}

// Display width of UTF-8 text: one column per code point (names may hold "°C" and the like).
std::size_t displayWidth(std::string_view text) noexcept
{
    return static_cast<std::size_t>(
        std::count_if(text.begin(), text.end(), [](char c) { return (static_cast<unsigned char>(c) & 0xC0) != 0x80; }));
}

// A plain-text table: columns two spaces apart, numbers right-aligned, a dashed line under the header.
class Table {
public:
    struct Column {
        std::string_view title;
        bool number;
    };

    explicit Table(std::vector<Column> columns)
        : m_columns(std::move(columns))
    { }

    void addRow(std::vector<std::string> cells) { m_rows.push_back(std::move(cells)); }

    void render(std::string& out) const
    {
        std::vector<std::size_t> widths(m_columns.size());
        for (std::size_t c = 0; c < m_columns.size(); ++c) {
            widths[c] = displayWidth(m_columns[c].title);
            for (const auto& row : m_rows)
                widths[c] = std::max(widths[c], displayWidth(row[c]));
        }
        std::vector<std::string> header;
        for (const auto& column : m_columns)
            header.emplace_back(column.title);
        renderRow(out, header, widths);
        std::size_t total = 0;
        for (const auto width : widths)
            total += width;
        out.append(total + 2 * (widths.size() - 1), '-');
        out += '\n';
        for (const auto& row : m_rows)
            renderRow(out, row, widths);
    }

private:
    void renderRow(
        std::string& out, const std::vector<std::string>& cells, const std::vector<std::size_t>& widths) const
    {
        std::string line;
        for (std::size_t c = 0; c < m_columns.size(); ++c) {
            if (c != 0)
                line += "  ";
            const std::size_t pad = widths[c] - displayWidth(cells[c]);
            if (m_columns[c].number)
                line.append(pad, ' ');
            line += cells[c];
            if (!m_columns[c].number)
                line.append(pad, ' ');
        }
        while (!line.empty() && line.back() == ' ')
            line.pop_back();
        out += line;
        out += '\n';
    }

    std::vector<Column> m_columns;
    std::vector<std::vector<std::string>> m_rows;
};

std::string count(std::uint64_t value)
{
    return std::to_string(value);
}

// The columns streams and packet types share, after their names.
void appendCounterCells(
    std::vector<std::string>& cells, const PacketCounters& c, std::uint64_t drops, std::uint64_t errors, const Rates& r)
{
    cells.push_back(count(c.packetsReceived));
    cells.push_back(count(c.bytesReceived));
    cells.push_back(count(c.packetsProcessed));
    cells.push_back(count(c.packetsRecorded));
    cells.push_back(count(c.packetsForwarded));
    cells.push_back(count(c.packetsLost));
    cells.push_back(count(drops));
    cells.push_back(count(c.malformed));
    cells.push_back(count(errors));
    cells.push_back(fixed(r.packetsPerSecond, 1));
    cells.push_back(fixed(r.megabitsPerSecond, 3));
    cells.push_back(fixed(r.parametersPerSecond, 1));
}

const std::vector<Table::Column> kCounterColumns = { { "received", true }, { "bytes", true }, { "processed", true },
    { "recorded", true }, { "forwarded", true }, { "lost", true }, { "drops", true }, { "malformed", true },
    { "errors", true }, { "pkt/s", true }, { "Mbit/s", true }, { "par/s", true } };

std::vector<Table::Column> columns(std::vector<Table::Column> before, std::vector<Table::Column> after = {})
{
    before.insert(before.end(), kCounterColumns.begin(), kCounterColumns.end());
    before.insert(before.end(), after.begin(), after.end());
    return before;
}

void appendStreams(std::string& out, const StationSnapshot& s)
{
    Table table(columns({ { "stream", false } }, { { "state", false } }));
    for (const auto& stream : s.streams) {
        std::vector<std::string> cells { stream.name };
        appendCounterCells(cells, stream.counters, dropCount(stream), errorCount(stream), stream.rates);
        std::string state = stream.state.empty() ? (stream.running ? "running" : "stopped") : stream.state;
        if (stream.progress >= 0)
            state += " (" + fixed(stream.progress * 100.0, 0) + "%)";
        cells.push_back(std::move(state));
        table.addRow(std::move(cells));
    }
    std::vector<std::string> total { "total" };
    appendCounterCells(total, s.totals, dropCount(s), errorCount(s), s.rates);
    total.emplace_back();
    table.addRow(std::move(total));
    out += "\nStreams\n";
    table.render(out);
}

void appendPacketTypes(std::string& out, const StationSnapshot& s)
{
    Table table(columns({ { "stream", false }, { "packet type", false }, { "apid", true }, { "secondary id", true },
        { "mode", false } }));
    bool any = false;
    for (const auto& stream : s.streams) {
        for (const auto& type : stream.packetTypes) {
            std::vector<std::string> cells { stream.name, type.name, count(type.apid),
                type.hasSecondaryId ? count(type.secondaryId) : "-", type.mode };
            appendCounterCells(cells, type.counters, dropCount(type.counters), errorCount(type.counters), type.rates);
            table.addRow(std::move(cells));
            any = true;
        }
    }
    if (!any)
        return;
    out += "\nPacket types\n";
    table.render(out);
}

void appendQueues(std::string& out, const StationSnapshot& s)
{
    if (s.streams.empty())
        return;
    Table table({ { "stream", false }, { "queue", false }, { "depth", true }, { "capacity", true },
        { "high water", true }, { "warning at", true }, { "warnings", true }, { "drops", true } });
    for (const auto& stream : s.streams) {
        for (const StreamQueueField& queue : kStreamQueues) {
            const QueueStats& q = stream.*queue.member;
            table.addRow({ stream.name, std::string(queue.name), count(q.depth), count(q.capacity), count(q.highWater),
                q.warningThreshold != 0 ? count(q.warningThreshold) : "-", count(q.warnings), count(q.drops) });
        }
    }
    out += "\nQueues\n";
    table.render(out);
}

void appendForwards(std::string& out, const StationSnapshot& s)
{
    if (s.forwards.empty())
        return;
    Table table({ { "destination", false }, { "connected", false }, { "packets", true }, { "bytes", true },
        { "not sent", true }, { "connects", true }, { "disconnects", true }, { "state", false } });
    for (const auto& f : s.forwards) {
        table.addRow({ f.destination, f.connected ? "yes" : "no", count(f.packets), count(f.bytes), count(f.notSent),
            count(f.connects), count(f.disconnects), f.state });
    }
    out += "\nForwards\n";
    table.render(out);
}

void appendConsumers(std::string& out, const StationSnapshot& s)
{
    if (s.consumers.empty())
        return;
    Table table({ { "consumer", false }, { "kind", false }, { "delivery", false }, { "delivered", true },
        { "depth", true }, { "capacity", true }, { "high water", true }, { "drops", true } });
    for (const auto& c : s.consumers) {
        table.addRow({ c.name, c.kind, c.delivery, count(c.delivered), count(c.queue.depth), count(c.queue.capacity),
            count(c.queue.highWater), count(c.queue.drops) });
    }
    out += "\nConsumers\n";
    table.render(out);
}

} // namespace

std::string formatCompact(double value)
{
    if (std::isnan(value))
        return "-";
    if (value < 0)
        return "-" + formatCompact(-value);
    if (std::isinf(value))
        return "inf";
    if (value < 1000) {
        if (value == std::floor(value))
            return fixed(value, 0);
        if (value < 100 && std::round(value * 10) < 1000)
            return fixed(value, 1);
        if (std::round(value) < 1000)
            return fixed(value, 0);
        // 999.5 and up round to 1000: shown as 1.00k below.
    }
    static constexpr std::string_view kSuffixes = "kMGTPE";
    double scaled = value;
    for (const char suffix : kSuffixes) {
        scaled /= 1000.0;
        // Three significant digits, chosen after rounding (9.996k is 10.0k, 999.6k is 1.00M).
        int decimals = scaled < 10 ? 2 : scaled < 100 ? 1 : 0;
        const double factor = std::pow(10.0, decimals);
        const double rounded = std::round(scaled * factor) / factor;
        if (rounded >= 1000 && suffix != kSuffixes.back())
            continue;
        decimals = rounded < 10 ? 2 : rounded < 100 ? 1 : 0;
        return fixed(rounded, decimals) + suffix;
    }
    return "-"; // not reached
}

std::string formatCount(std::uint64_t value)
{
    if (value < 1000)
        return std::to_string(value);
    return formatCompact(static_cast<double>(value));
}

std::string formatDuration(double seconds)
{
    if (!std::isfinite(seconds) || seconds < 0)
        seconds = 0;
    const auto total = static_cast<long long>(std::min(std::floor(seconds), 9.2e18));
    const long long days = total / 86400;
    const long long inDay = total % 86400;
    std::string text;
    if (days > 0)
        text = std::to_string(days) + "d ";
    text += twoDigits(static_cast<long>(inDay / 3600)) + ':' + twoDigits(static_cast<long>(inDay / 60 % 60)) + ':'
        + twoDigits(static_cast<long>(inDay % 60));
    return text;
}

std::uint64_t dropCount(const PacketCounters& c) noexcept
{
    return sumOf(c, Loss::Drop);
}

std::uint64_t dropCount(const StreamStats& s) noexcept
{
    return queueDrops(s.counters, s) + receiverDrops(s);
}

std::uint64_t dropCount(const StationSnapshot& snapshot) noexcept
{
    std::uint64_t queues = 0;
    std::uint64_t receivers = 0;
    for (const auto& stream : snapshot.streams) {
        queues += queueDrops(stream.counters, stream);
        receivers += receiverDrops(stream);
    }
    std::uint64_t consumers = 0;
    for (const auto& consumer : snapshot.consumers)
        consumers += consumer.queue.drops;
    // totals are the streams' sums; the larger covers a snapshot without streams. Network queue drops
    // are in `receivers` (from the queues), so the totals' share of them is not added again.
    const PacketCounters& t = snapshot.totals;
    return std::max(queues, t.processDrops + t.recordDrops + t.forwardDrops)
         + std::max(receivers, t.networkDrops) + consumers;
}

std::uint64_t errorCount(const PacketCounters& c) noexcept
{
    return sumOf(c, Loss::Error);
}

std::uint64_t errorCount(const StreamStats& s) noexcept
{
    return errorCount(s.counters) + receiverErrors(s);
}

std::uint64_t errorCount(const StationSnapshot& snapshot) noexcept
{
    std::uint64_t recordErrors = 0;
    std::uint64_t forwardErrors = 0;
    std::uint64_t receivers = 0;
    for (const auto& stream : snapshot.streams) {
        recordErrors += stream.counters.recordErrors;
        forwardErrors += stream.counters.forwardErrors;
        receivers += receiverErrors(stream);
    }
    // A destination's notSent is its share of forwardErrors: the larger of the two views counts.
    std::uint64_t notSent = 0;
    for (const auto& forward : snapshot.forwards)
        notSent += forward.notSent;
    return std::max(recordErrors, snapshot.totals.recordErrors)
        + std::max({ forwardErrors, snapshot.totals.forwardErrors, notSent }) + receivers;
}

std::string statusLine(const StationSnapshot& s)
{
    std::string line = clockTime(s.timeNs, false);
    line += " up " + formatDuration(s.uptimeSeconds);
    line += " | " + formatCompact(s.rates.packetsPerSecond) + " pkt/s ";
    line += fixed(s.rates.megabitsPerSecond, 1) + " Mbit/s ";
    line += formatCompact(s.rates.parametersPerSecond) + " par/s";
    line += " | rx " + formatCount(s.totals.packetsReceived);
    line += " lost " + formatCount(s.totals.packetsLost);
    line += " drop " + formatCount(dropCount(s));
    line += " malformed " + formatCount(s.totals.malformed);
    line += " err " + formatCount(errorCount(s));
    line += " | cpu " + fixed(s.cpuPercent, 0) + '%';
    if (s.alarms.totalActive() > 0 || s.alarms.totalUnacknowledged() > 0) {
        line += " | alarms " + formatCount(s.alarms.active[3]) + " crit " + formatCount(s.alarms.active[2]) + " err "
            + formatCount(s.alarms.active[1]) + " warn, " + formatCount(s.alarms.totalUnacknowledged()) + " unack";
    }
    line += " | ";
    if (s.streams.empty())
        line += "no streams";
    for (std::size_t i = 0; i < s.streams.size(); ++i) {
        const auto& stream = s.streams[i];
        if (i != 0)
            line += "; ";
        line += stream.name + ": ";
        line += stream.state.empty() ? (stream.running ? "running" : "stopped") : stream.state;
        if (stream.progress >= 0)
            line += ' ' + fixed(stream.progress * 100.0, 0) + '%';
    }
    if (!s.recordingState.empty() && s.recordingState != "off")
        line += " | rec " + s.recordingState;
    // A state text (an error message) must not break the one-line format.
    std::replace_if(
        line.begin(), line.end(), [](char c) { return c == '\n' || c == '\r'; }, ' ');
    return line;
}

std::string summaryTable(const StationSnapshot& s)
{
    std::string out = "Station at " + clockTime(s.timeNs, true) + ", up " + formatDuration(s.uptimeSeconds) + ", cpu "
        + fixed(s.cpuPercent, 0) + "%, packet pool " + count(s.poolInUse) + '/' + count(s.poolCapacity) + ", events "
        + count(s.events) + '\n';
    out += "Recording: " + (s.recordingState.empty() ? std::string("off") : s.recordingState) + ", failed recorders "
        + count(s.recordingErrors) + '\n';
    if (s.hasLoss()) {
        out += "Loss: yes (lost " + count(s.totals.packetsLost) + ", drops " + count(dropCount(s)) + ", malformed "
            + count(s.totals.malformed) + ", errors " + count(errorCount(s)) + ")\n";
    } else {
        out += "Loss: none\n";
    }
    appendStreams(out, s);
    appendPacketTypes(out, s);
    appendQueues(out, s);
    appendForwards(out, s);
    appendConsumers(out, s);
    return out;
}

} // namespace telestation::stats
