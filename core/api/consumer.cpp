#include "core/api/consumer.hpp"

#include <algorithm>

namespace telestation::api {

namespace {

Result<int> resolveStream(const pipeline::Station& station, const std::string& stream)
{
    if (stream.empty())
        return pipeline::kAllStreams;
    const auto id = station.streamId(stream);
    if (!id)
        return Error{"no stream named '" + stream + "'", {}};
    return int{*id};
}

} // namespace

// ---- Packets ------------------------------------------------------------------------------------------

PacketSubscription::PacketSubscription(pipeline::Station& station, std::shared_ptr<pipeline::PacketSubscriptionQueue> queue)
    : m_station(station), m_queue(std::move(queue))
{
}

Result<std::unique_ptr<PacketSubscription>> PacketSubscription::create(pipeline::Station& station, const Options& options)
{
    const auto stream = resolveStream(station, options.stream);
    if (!stream)
        return stream.error();
    std::uint32_t type = pipeline::kAllTypes;
    if (options.packet == "unknown") {
        type = pipeline::kUnknownType;
    } else if (!options.packet.empty()) {
        const auto found = station.types().typeByName(options.packet);
        if (!found)
            return Error{"no packet named '" + options.packet + "' in the mission database", {}};
        type = *found;
    }
    const std::size_t capacity = options.capacity > 0 ? options.capacity : station.profile().queues.processPacketQueueSize;
    auto queue = std::make_shared<pipeline::PacketSubscriptionQueue>(
        std::shared_ptr<pipeline::PacketPool>(std::shared_ptr<pipeline::PacketPool>{}, &pipeline::StationAccess::pool(station)), options.name,
        *stream, type, options.delivery, capacity);
    pipeline::StationAccess::add(station, queue);
    return std::unique_ptr<PacketSubscription>(new PacketSubscription(station, std::move(queue)));
}

PacketSubscription::~PacketSubscription()
{
    pipeline::StationAccess::remove(m_station, m_queue.get());
}

PacketView PacketSubscription::view(pipeline::PacketHandle h) const noexcept
{
    const pipeline::PacketMeta& meta = m_queue->pool().meta(h);
    PacketView v;
    v.frame = m_queue->pool().bytes(h);
    v.packet = v.frame.subspan(std::min<std::size_t>(meta.transportHeaderBytes, v.frame.size()));
    v.receiveTimeNs = meta.receiveTimeNs;
    v.streamId = meta.streamId;
    v.apid = meta.apid;
    v.typeIndex = meta.typeIndex;
    return v;
}

// ---- Reading current values ------------------------------------------------------------------------------

ParameterReader::ParameterReader(const pipeline::Station& station) : m_station(station)
{
    std::size_t largest = 0;
    for (std::uint32_t t = 1; t < station.types().typeCount(); ++t)
        largest = std::max<std::size_t>(largest, station.types().maxPacketBytes(t));
    m_packet.resize(largest);
}

std::optional<ParameterSample> ParameterReader::read(std::uint16_t streamId, std::uint32_t parameterId)
{
    if (parameterId >= m_station.types().totalParameters())
        return std::nullopt;
    const auto values = pipeline::StationAccess::currentValues(m_station, streamId);
    if (!values)
        return std::nullopt; // no such stream (any more)
    return read(*values, streamId, parameterId);
}

std::optional<ParameterSample> ParameterReader::read(const pipeline::CurrentValueTable& values, std::uint16_t streamId,
                                                     std::uint32_t parameterId)
{
    const auto& types = m_station.types();
    const auto& info = types.parameter(parameterId);
    ParameterSample sample;
    switch (m_station.mode(streamId, info.typeIndex)) {
    case config::ProcessingMode::ProcessEntirePacket:
        if (!values.read(parameterId, sample))
            return std::nullopt;
        sample.streamId = streamId;
        return sample;
    case config::ProcessingMode::ProcessOnDemand: {
        std::size_t length = 0;
        std::int64_t receiveTime = 0;
        std::uint64_t update = 0;
        if (!values.readPacket(info.typeIndex, m_packet, length, receiveTime, &update))
            return std::nullopt;
        values.countDecoded(info.typeIndex, update);
        PacketView kept;
        kept.packet = std::span<const std::uint8_t>(m_packet.data(), length);
        kept.frame = kept.packet;
        kept.receiveTimeNs = receiveTime;
        kept.streamId = streamId;
        kept.typeIndex = info.typeIndex;
        return decode(kept, info.indexInPacket);
    }
    default:
        return std::nullopt;
    }
}

std::optional<ParameterSample> ParameterReader::decode(const PacketView& packet, std::uint32_t indexInPacket) const
{
    const auto& types = m_station.types();
    if (packet.typeIndex == pipeline::kUnknownType || packet.typeIndex >= types.typeCount()
        || indexInPacket >= types.parameterCount(packet.typeIndex))
        return std::nullopt;
    const auto& plan = types.plan(packet.typeIndex);
    ParameterSample sample;
    sample.parameterId = types.firstParameterId(packet.typeIndex) + indexInPacket;
    sample.streamId = packet.streamId;
    sample.receiveTimeNs = packet.receiveTimeNs;
    sample.value = plan.decodeOne(packet.packet, indexInPacket);
    if (!plan.hasPacketTime() || !plan.packetTime(packet.packet, sample.packetTimeNs))
        sample.packetTimeNs = 0;
    return sample;
}

std::optional<ParameterSample> ParameterReader::read(std::string_view stream, std::string_view qualifiedName)
{
    const auto id = m_station.streamId(stream);
    const auto parameter = m_station.types().parameterId(qualifiedName);
    if (!id || !parameter)
        return std::nullopt;
    return read(*id, *parameter);
}

// ---- Parameters ---------------------------------------------------------------------------------------

ParameterSubscription::ParameterSubscription(pipeline::Station& station)
    : m_station(station), m_reader(station)
{
}

Result<std::unique_ptr<ParameterSubscription>> ParameterSubscription::create(pipeline::Station& station, const Options& options)
{
    const auto stream = resolveStream(station, options.stream);
    if (!stream)
        return stream.error();
    const auto& types = station.types();
    std::vector<std::uint32_t> ids;
    std::string unknownNames;
    for (const auto& name : options.parameters) {
        if (const auto id = types.parameterId(name))
            ids.push_back(*id);
        else
            unknownNames += (unknownNames.empty() ? "'" : ", '") + name + "'";
    }
    if (!unknownNames.empty())
        return Error{"not a parameter of the mission database: " + unknownNames, {}};

    std::unique_ptr<ParameterSubscription> sub(new ParameterSubscription(station));
    if (options.delivery == Delivery::EverySample) {
        const std::size_t capacity = options.capacity > 0
                                         ? options.capacity
                                         : std::size_t{station.profile().queues.processedParameterQueueSize}
                                               * std::max<std::uint32_t>(types.maxParametersPerPacket(), 1);
        sub->m_queue = std::make_shared<pipeline::ParameterSubscriptionQueue>(types, options.name, *stream, ids, capacity);
        pipeline::StationAccess::add(station, sub->m_queue);
        return sub;
    }
    // Listed in the statistics (delivery "newest") like every-sample subscriptions, though it has no queue.
    sub->m_listed = std::make_shared<pipeline::NewestParameterConsumer>(options.name);
    pipeline::StationAccess::add(station, sub->m_listed);
    if (ids.empty())
        for (std::uint32_t id = 0; id < types.totalParameters(); ++id)
            ids.push_back(id);
    for (const std::uint16_t s : station.streamIds()) {
        if (*stream != pipeline::kAllStreams && *stream != s)
            continue;
        auto values = pipeline::StationAccess::currentValues(station, s);
        if (!values)
            continue;
        for (const std::uint32_t id : ids)
            sub->m_newest.push_back({s, id, types.parameter(id).typeIndex, 0, values});
    }
    return sub;
}

std::unique_ptr<ParameterSubscription> ParameterSubscription::createNewest(pipeline::Station& station)
{
    return std::unique_ptr<ParameterSubscription>(new ParameterSubscription(station));
}

ParameterSubscription::~ParameterSubscription()
{
    if (m_queue)
        pipeline::StationAccess::remove(m_station, m_queue.get());
    if (m_listed)
        pipeline::StationAccess::remove(m_station, m_listed.get());
}

std::uint64_t ParameterSubscription::updates(const Newest& entry) const
{
    return entry.values->updates(entry.typeIndex);
}

std::size_t ParameterSubscription::poll(std::span<ParameterSample> out)
{
    if (m_queue)
        return m_queue->take(out);
    // Newest value: each subscribed pair remembers the update count of its packet type when it was
    // last delivered; a pair is due when the count moved. A full buffer leaves the rest due for the
    // next poll, which goes on from where this one stopped (no pair is starved).
    std::size_t n = 0;
    const std::size_t total = m_newest.size();
    const std::size_t start = m_cursor;
    for (std::size_t step = 0; step < total && n < out.size(); ++step) {
        const std::size_t at = (start + step) % total;
        Newest& entry = m_newest[at];
        const std::uint64_t now = updates(entry);
        if (now == entry.seenUpdates)
            continue;
        entry.seenUpdates = now;
        if (auto sample = m_reader.read(*entry.values, entry.streamId, entry.parameterId))
            out[n++] = *sample;
        m_cursor = (at + 1) % total;
    }
    m_delivered += n;
    if (m_listed)
        m_listed->countDelivered(n);
    return n;
}

std::optional<ParameterSample> ParameterSubscription::add(std::uint16_t streamId, std::uint32_t parameterId, bool* added)
{
    if (added)
        *added = false;
    if (m_queue || parameterId >= m_station.types().totalParameters())
        return std::nullopt;
    auto values = pipeline::StationAccess::currentValues(m_station, streamId);
    if (!values)
        return std::nullopt;
    const bool subscribed = std::any_of(m_newest.begin(), m_newest.end(), [&](const Newest& e) {
        return e.streamId == streamId && e.parameterId == parameterId;
    });
    if (subscribed)
        return std::nullopt;
    Newest entry{streamId, parameterId, m_station.types().parameter(parameterId).typeIndex, 0, std::move(values)};
    // The count first: a packet arriving between the two reads is reported again at the next poll.
    entry.seenUpdates = updates(entry);
    m_newest.push_back(entry);
    if (added)
        *added = true;
    return m_reader.read(*entry.values, streamId, parameterId);
}

bool ParameterSubscription::remove(std::uint16_t streamId, std::uint32_t parameterId)
{
    const auto it = std::find_if(m_newest.begin(), m_newest.end(), [&](const Newest& e) {
        return e.streamId == streamId && e.parameterId == parameterId;
    });
    if (it == m_newest.end())
        return false;
    m_newest.erase(it);
    if (m_cursor >= m_newest.size())
        m_cursor = 0;
    return true;
}

std::uint64_t ParameterSubscription::drops() const noexcept
{
    return m_queue ? m_queue->drops() : 0;
}

std::uint64_t ParameterSubscription::delivered() const noexcept
{
    return m_queue ? m_queue->delivered() : m_delivered;
}

} // namespace telestation::api
