#include "core/stats/snapshot_json.hpp"

#include <array>
#include <cassert>
#include <charconv>
#include <cmath>
#include <cstddef>
#include <cstdint>

namespace telestation::stats {

namespace {

// Length of the well-formed UTF-8 sequence starting at text[i] (RFC 3629: no overlong forms, no
// surrogates, nothing above U+10FFFF), or 0 if the bytes there are not one.
std::size_t utf8SequenceLength(std::string_view text, std::size_t i) noexcept
{
    const auto byte = [&](std::size_t k) { return static_cast<unsigned char>(text[k]); };
    const unsigned char lead = byte(i);
    std::size_t length = 0;
    unsigned char secondMin = 0x80;
    unsigned char secondMax = 0xBF;
    if (lead >= 0xC2 && lead <= 0xDF) {
        length = 2;
    } else if (lead >= 0xE0 && lead <= 0xEF) {
        length = 3;
        if (lead == 0xE0)
            secondMin = 0xA0; // overlong
        if (lead == 0xED)
            secondMax = 0x9F; // surrogates
    } else if (lead >= 0xF0 && lead <= 0xF4) {
        length = 4;
        if (lead == 0xF0)
            secondMin = 0x90; // overlong
        if (lead == 0xF4)
            secondMax = 0x8F; // above U+10FFFF
    } else {
        return 0;
    }
    if (text.size() - i < length)
        return 0;
    if (byte(i + 1) < secondMin || byte(i + 1) > secondMax)
        return 0;
    for (std::size_t k = 2; k < length; ++k) {
        if (byte(i + k) < 0x80 || byte(i + k) > 0xBF)
            return 0;
    }
    return length;
}

// A streaming writer for one document: tracks commas and, when pretty, newlines and indentation.
class Writer {
public:
    Writer(std::string& out, bool pretty)
        : m_out(out)
        , m_pretty(pretty)
    { }

    void beginObject() { open('{'); }
    void endObject() { close('}'); }
    void beginArray() { open('['); }
    void endArray() { close(']'); }

    void key(std::string_view name)
    {
        beforeValue();
        appendJsonString(m_out, name);
        m_out += m_pretty ? ": " : ":";
        m_afterKey = true;
    }

    void u64(std::string_view name, std::uint64_t value)
    {
        key(name);
        beforeValue();
        appendNumber(value);
    }
    void i64(std::string_view name, std::int64_t value)
    {
        key(name);
        beforeValue();
        appendNumber(value);
    }
    void f64(std::string_view name, double value)
    {
        key(name);
        beforeValue();
        if (!std::isfinite(value)) {
            m_out += "null"; // JSON has no NaN or infinity
            return;
        }
        appendNumber(value);
    }
    void boolean(std::string_view name, bool value)
    {
        key(name);
        beforeValue();
        m_out += value ? "true" : "false";
    }
    void string(std::string_view name, std::string_view value)
    {
        key(name);
        beforeValue();
        appendJsonString(m_out, value);
    }
    void objectKey(std::string_view name)
    {
        key(name);
        beginObject();
    }
    void arrayKey(std::string_view name)
    {
        key(name);
        beginArray();
    }

private:
    template <typename T> void appendNumber(T value)
    {
        std::array<char, 32> buffer {}; // the longest shortest double is 24 characters
        const auto result = std::to_chars(buffer.data(), buffer.data() + buffer.size(), value);
        assert(result.ec == std::errc {});
        m_out.append(buffer.data(), result.ptr);
    }

    // Before a key, or a value that is not behind a key: the comma and the line break.
    void beforeValue()
    {
        if (m_afterKey) {
            m_afterKey = false;
            return;
        }
        if (m_depth == 0)
            return;
        if (!m_empty[m_depth])
            m_out += ',';
        m_empty[m_depth] = false;
        if (m_pretty)
            newLine();
    }

    void open(char bracket)
    {
        beforeValue();
        m_out += bracket;
        ++m_depth;
        assert(m_depth < m_empty.size());
        m_empty[m_depth] = true;
    }

    void close(char bracket)
    {
        const bool empty = m_empty[m_depth];
        --m_depth;
        if (m_pretty && !empty)
            newLine();
        m_out += bracket;
    }

    void newLine()
    {
        m_out += '\n';
        m_out.append(2 * m_depth, ' ');
    }

    std::string& m_out;
    bool m_pretty;
    bool m_afterKey = false;
    std::size_t m_depth = 0;
    std::array<bool, 16> m_empty {}; // per open container: nothing written in it yet
};

void writeMembers(Writer& w, const QueueStats& q)
{
    w.u64("depth", q.depth);
    w.u64("capacity", q.capacity);
    w.u64("highWater", q.highWater);
    w.u64("warningThreshold", q.warningThreshold);
    w.u64("warnings", q.warnings);
    w.u64("drops", q.drops);
}

void writeMembers(Writer& w, const PacketCounters& c)
{
    for (const CounterField& field : kCounterFields)
        w.u64(field.key, c.*field.member);
}

void writeMembers(Writer& w, const Rates& r)
{
    w.f64("packetsPerSecond", r.packetsPerSecond);
    w.f64("megabitsPerSecond", r.megabitsPerSecond);
    w.f64("parametersPerSecond", r.parametersPerSecond);
}

// `name: {members}` for the three nested value types above.
template <typename T> void writeObject(Writer& w, std::string_view name, const T& value)
{
    w.objectKey(name);
    writeMembers(w, value);
    w.endObject();
}

void writeMembers(Writer& w, const PacketTypeStats& t)
{
    w.string("name", t.name);
    w.u64("apid", t.apid);
    w.boolean("hasSecondaryId", t.hasSecondaryId);
    w.u64("secondaryId", t.secondaryId);
    w.string("mode", t.mode);
    w.boolean("record", t.record);
    w.u64("forwardDestinations", t.forwardDestinations);
    writeObject(w, "counters", t.counters);
    writeObject(w, "rates", t.rates);
    w.i64("lastReceiveTimeNs", t.lastReceiveTimeNs);
}

void writeMembers(Writer& w, const StreamStats& s)
{
    w.string("name", s.name);
    w.string("source", s.source);
    w.string("state", s.state);
    w.string("recording", s.recording);
    w.boolean("running", s.running);
    writeObject(w, "counters", s.counters);
    writeObject(w, "rates", s.rates);
    w.u64("kernelDrops", s.kernelDrops);
    w.u64("framingErrors", s.framingErrors);
    w.u64("skippedBytes", s.skippedBytes);
    w.u64("truncatedPackets", s.truncatedPackets);
    w.u64("poolDrops", s.poolDrops);
    w.u64("connects", s.connects);
    w.u64("disconnects", s.disconnects);
    w.f64("progress", s.progress);
    for (const StreamQueueField& queue : kStreamQueues)
        writeObject(w, queue.key, s.*queue.member);
    w.arrayKey("packetTypes");
    for (const auto& type : s.packetTypes) {
        w.beginObject();
        writeMembers(w, type);
        w.endObject();
    }
    w.endArray();
}

void writeMembers(Writer& w, const ForwardStats& f)
{
    w.string("destination", f.destination);
    w.string("state", f.state);
    w.boolean("connected", f.connected);
    w.u64("packets", f.packets);
    w.u64("bytes", f.bytes);
    w.u64("notSent", f.notSent);
    w.u64("connects", f.connects);
    w.u64("disconnects", f.disconnects);
}

void writeMembers(Writer& w, const ConsumerStats& c)
{
    w.string("name", c.name);
    w.string("kind", c.kind);
    w.string("delivery", c.delivery);
    writeObject(w, "queue", c.queue);
    w.u64("delivered", c.delivered);
}

// {"active": {"warning": 1, "error": 0, "critical": 2}, "unacknowledged": {...}, "shelved": 0}
void writeAlarms(Writer& w, const AlarmTally& a)
{
    static constexpr std::array<std::string_view, 3> kSeverities{"warning", "error", "critical"};
    w.objectKey("alarms");
    for (const auto& [name, counts] : {std::pair{"active", &a.active}, std::pair{"unacknowledged", &a.unacknowledged}}) {
        w.objectKey(name);
        for (std::size_t i = 0; i < kSeverities.size(); ++i)
            w.u64(kSeverities[i], (*counts)[i + 1]);
        w.endObject();
    }
    w.u64("shelved", a.shelved);
    w.endObject();
}

template <typename T> void writeArray(Writer& w, std::string_view name, const std::vector<T>& items)
{
    w.arrayKey(name);
    for (const auto& item : items) {
        w.beginObject();
        writeMembers(w, item);
        w.endObject();
    }
    w.endArray();
}

void writeMembers(Writer& w, const StationSnapshot& s)
{
    w.i64("timeNs", s.timeNs);
    w.f64("uptimeSeconds", s.uptimeSeconds);
    w.f64("cpuPercent", s.cpuPercent);
    writeObject(w, "totals", s.totals);
    writeObject(w, "rates", s.rates);
    w.u64("recordingErrors", s.recordingErrors);
    w.string("recordingState", s.recordingState);
    w.u64("poolInUse", s.poolInUse);
    w.u64("poolCapacity", s.poolCapacity);
    w.u64("events", s.events);
    writeAlarms(w, s.alarms);
    writeArray(w, "streams", s.streams);
    writeArray(w, "forwards", s.forwards);
    writeArray(w, "consumers", s.consumers);
}

template <typename T> std::string document(const T& value, bool pretty)
{
    std::string out;
    Writer w(out, pretty);
    w.beginObject();
    writeMembers(w, value);
    w.endObject();
    return out;
}

} // namespace

void appendJsonString(std::string& out, std::string_view text)
{
    static constexpr char kHex[] = "0123456789abcdef";
    out += '"';
    std::size_t i = 0;
    while (i < text.size()) {
        const auto c = static_cast<unsigned char>(text[i]);
        if (c == '"' || c == '\\') {
            out += '\\';
            out += static_cast<char>(c);
            ++i;
        } else if (c < 0x20) {
            out += "\\u00";
            out += kHex[c >> 4];
            out += kHex[c & 0xF];
            ++i;
        } else if (c < 0x80) {
            out += static_cast<char>(c);
            ++i;
        } else if (const std::size_t length = utf8SequenceLength(text, i); length != 0) {
            out.append(text.substr(i, length));
            i += length;
        } else {
            out += "\xEF\xBF\xBD"; // U+FFFD REPLACEMENT CHARACTER
            ++i;
        }
    }
    out += '"';
}

std::string toJson(const StationSnapshot& snapshot)
{
    return document(snapshot, false);
}

std::string toJsonPretty(const StationSnapshot& snapshot)
{
    return document(snapshot, true);
}

std::string toJson(const PacketCounters& counters)
{
    return document(counters, false);
}

std::string toJson(const QueueStats& queue)
{
    return document(queue, false);
}

std::string toJson(const Rates& rates)
{
    return document(rates, false);
}

} // namespace telestation::stats
