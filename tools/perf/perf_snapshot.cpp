#include "tools/perf/perf_snapshot.hpp"

namespace telestation::perf {

namespace {

stats::PacketCounters countersFromJson(const Json& json)
{
    stats::PacketCounters c;
    for (const stats::CounterField& field : stats::kCounterFields)
        c.*field.member = u64(json, std::string(field.key).c_str());
    return c;
}

std::string text(const Json& object, const char* key)
{
    const Json& value = member(object, key);
    return value.is_string() ? value.get<std::string>() : std::string();
}

// "packetsLost 3, malformed 1": the loss counters that are not zero.
std::string lossCounters(const stats::PacketCounters& c)
{
    std::string out;
    for (const stats::CounterField& field : stats::kCounterFields)
        if (field.loss != stats::Loss::None && c.*field.member != 0)
            out += (out.empty() ? "" : ", ") + std::string(field.key) + " " + std::to_string(c.*field.member);
    return out;
}

void add(std::string& out, const std::string& what, const std::string& found)
{
    if (!found.empty())
        out += (out.empty() ? "" : "; ") + what + ": " + found;
}

} // namespace

stats::StationSnapshot snapshotFromJson(const Json& json)
{
    stats::StationSnapshot s;
    s.totals = countersFromJson(member(json, "totals"));
    s.events = u64(json, "events");
    for (const Json& stream : member(json, "streams").is_array() ? member(json, "streams") : Json::array()) {
        stats::StreamStats st;
        st.name = text(stream, "name");
        st.source = text(stream, "source");
        st.counters = countersFromJson(member(stream, "counters"));
        st.kernelDrops = u64(stream, "kernelDrops");
        st.framingErrors = u64(stream, "framingErrors");
        st.skippedBytes = u64(stream, "skippedBytes");
        st.truncatedPackets = u64(stream, "truncatedPackets");
        st.poolDrops = u64(stream, "poolDrops");
        st.connects = u64(stream, "connects");
        st.disconnects = u64(stream, "disconnects");
        for (const stats::StreamQueueField& queue : stats::kStreamQueues) {
            const Json& q = member(stream, std::string(queue.key).c_str());
            stats::QueueStats& to = st.*queue.member;
            to.depth = u64(q, "depth");
            to.capacity = u64(q, "capacity");
            to.highWater = u64(q, "highWater");
            to.drops = u64(q, "drops");
        }
        for (const Json& type : member(stream, "packetTypes").is_array() ? member(stream, "packetTypes") : Json::array()) {
            stats::PacketTypeStats t;
            t.name = text(type, "name");
            t.apid = static_cast<std::uint32_t>(u64(type, "apid"));
            t.mode = text(type, "mode");
            t.record = member(type, "record").is_boolean() && member(type, "record").get<bool>();
            t.forwardDestinations = static_cast<std::uint32_t>(u64(type, "forwardDestinations"));
            t.counters = countersFromJson(member(type, "counters"));
            st.packetTypes.push_back(std::move(t));
        }
        s.streams.push_back(std::move(st));
    }
    for (const Json& forward : member(json, "forwards").is_array() ? member(json, "forwards") : Json::array())
        s.forwards.push_back({text(forward, "destination"), text(forward, "state"), false, u64(forward, "packets"),
                              u64(forward, "bytes"), u64(forward, "notSent"), u64(forward, "connects"),
                              u64(forward, "disconnects")});
    for (const Json& consumer : member(json, "consumers").is_array() ? member(json, "consumers") : Json::array()) {
        stats::ConsumerStats c;
        c.name = text(consumer, "name");
        c.kind = text(consumer, "kind");
        c.delivery = text(consumer, "delivery");
        c.queue.drops = u64(member(consumer, "queue"), "drops");
        c.delivered = u64(consumer, "delivered");
        s.consumers.push_back(std::move(c));
    }
    return s;
}

std::string lossText(const stats::StationSnapshot& s)
{
    if (!s.hasLoss())
        return {};
    std::string out;
    add(out, "totals", lossCounters(s.totals));
    for (const auto& st : s.streams) {
        std::string found = lossCounters(st.counters);
        for (const auto& [name, value] : {std::pair<const char*, std::uint64_t>{"kernelDrops", st.kernelDrops},
                                          {"framingErrors", st.framingErrors}, {"truncatedPackets", st.truncatedPackets},
                                          {"poolDrops", st.poolDrops}})
            if (value != 0)
                found += (found.empty() ? "" : ", ") + std::string(name) + " " + std::to_string(value);
        for (const stats::StreamQueueField& queue : stats::kStreamQueues)
            if ((st.*queue.member).drops != 0)
                found += (found.empty() ? "" : ", ") + std::string(queue.key) + " drops "
                    + std::to_string((st.*queue.member).drops);
        add(out, "stream " + st.name, found);
    }
    for (const auto& f : s.forwards)
        if (f.notSent != 0)
            add(out, "forward " + f.destination, "notSent " + std::to_string(f.notSent));
    for (const auto& c : s.consumers)
        if (c.queue.drops != 0)
            add(out, "consumer " + c.name, "drops " + std::to_string(c.queue.drops));
    return out.empty() ? "loss (see the snapshot)" : out;
}

} // namespace telestation::perf
