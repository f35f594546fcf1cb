#include "tools/perf/perf_delivery.hpp"

namespace telestation::perf {

namespace {

void mismatch(std::string& out, const std::string& where, const char* what, std::uint64_t got, std::uint64_t expected)
{
    if (got != expected)
        out += (out.empty() ? "" : "; ") + where + ": " + what + " " + std::to_string(got) + " of " + std::to_string(expected);
}

const stats::StreamStats* findStream(const stats::StationSnapshot& station, const std::string& name)
{
    for (const auto& s : station.streams)
        if (s.name == name)
            return &s;
    return nullptr;
}

} // namespace

Delivery checkDelivery(const sim::SimSummary& sent, const stats::StationSnapshot& station,
                       const std::map<std::string, std::uint32_t>& parameters)
{
    Delivery d;
    for (const sim::StreamSummary& simStream : sent.streams) {
        const std::string where = "stream " + simStream.name;
        d.sent += simStream.sent.packets;
        mismatch(d.failure, where, "sent by the simulator", simStream.sent.packets, simStream.generated);
        const stats::StreamStats* stream = findStream(station, simStream.name);
        if (!stream) {
            d.failure += (d.failure.empty() ? "" : "; ") + where + ": not in the station";
            continue;
        }
        const stats::PacketCounters& sc = stream->counters;
        d.streams.push_back({simStream.name, simStream.bitsPerSecond / 1e6, simStream.sent.packets, sc.packetsReceived,
                             sc.packetsProcessed, sc.parametersDecoded, sc.packetsRecorded, sc.packetsForwarded});
        mismatch(d.failure, where, "received", sc.packetsReceived, simStream.sent.packets);
        for (const auto& [apid, traffic] : simStream.apids) {
            const std::string at = where + " APID " + std::to_string(apid);
            const stats::PacketTypeStats* type = nullptr;
            for (const auto& t : stream->packetTypes)
                if (t.apid == apid && t.name != "unknown")
                    type = &t;
            if (!type) {
                d.failure += (d.failure.empty() ? "" : "; ") + at + ": no packet type";
                continue;
            }
            const stats::PacketCounters& c = type->counters;
            mismatch(d.failure, at, "received", c.packetsReceived, traffic.packets);
            mismatch(d.failure, at, "processed", c.packetsProcessed, traffic.packets);
            if (type->mode == "processEntirePacket") {
                const auto n = parameters.find(type->name);
                mismatch(d.failure, at, "decoded", c.packetsDecoded, traffic.packets);
                if (n != parameters.end())
                    mismatch(d.failure, at, "parameters decoded", c.parametersDecoded, traffic.packets * n->second);
            }
            if (type->record) {
                d.toRecord += traffic.packets;
                mismatch(d.failure, at, "recorded", c.packetsRecorded, traffic.packets);
            }
            if (type->forwardDestinations > 0) {
                d.toForward += traffic.packets;
                mismatch(d.failure, at, "forwarded", c.packetsForwarded, traffic.packets);
            }
        }
    }
    d.received = station.totals.packetsReceived;
    d.processed = station.totals.packetsProcessed;
    d.decoded = station.totals.parametersDecoded;
    d.recorded = station.totals.packetsRecorded;
    d.forwarded = station.totals.packetsForwarded;
    return d;
}

} // namespace telestation::perf
