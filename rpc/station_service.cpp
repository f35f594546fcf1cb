#include "rpc/station_service.hpp"

#include "core/api/consumer.hpp"
#include "core/common/clock.hpp"
#include "core/pipeline/packet_types.hpp"
#include "rpc/event_follower.hpp"
#include "rpc/proto_convert.hpp"
#include "telestation_version.hpp"

#include <algorithm>
#include <array>
#include <chrono>
#include <cmath>
#include <span>
#include <thread>

namespace telestation::rpc {

namespace {

using namespace std::chrono_literals;

constexpr std::uint32_t kSchemaMajor = 1;
constexpr std::uint32_t kSchemaMinor = 2; // 1: events and alarms; 2: ResumeRecording
constexpr std::uint32_t kDefaultParameterBatch = 4096;
constexpr std::uint32_t kMaxParameterBatch = 65536;
constexpr std::uint32_t kDefaultPacketBatch = 1024;
constexpr std::uint32_t kMaxPacketBatch = 16384;
constexpr auto kIdlePoll = 2ms; // an every-sample call with nothing to send looks again after this
constexpr auto kEventPoll = 50ms;  // the event thread reports every 50 ms
constexpr auto kAlarmPoll = 100ms;
constexpr auto kLongestPause = 50ms; // a cancelled call or a stopping server ends within this

grpc::Status invalid(const std::string& why)
{
    return {grpc::StatusCode::INVALID_ARGUMENT, why};
}

std::uint32_t batchSize(std::uint32_t asked, std::uint32_t fallback, std::uint32_t most)
{
    return asked == 0 ? fallback : std::min(asked, most);
}

// NEWEST: the pause between batches for `rateHz` (default 10 a second, at most 1000).
std::chrono::microseconds newestPeriod(double rateHz)
{
    const double hz = rateHz > 0 && std::isfinite(rateHz) ? std::min(rateHz, 1000.0) : 10.0;
    return std::chrono::microseconds(static_cast<std::int64_t>(1e6 / hz));
}

// "NAME (ipv4:127.0.0.1:40123)": how the statistics name an API client's subscription.
std::string clientLabel(const std::string& name, const grpc::ServerContext& context, const char* fallback)
{
    return (name.empty() ? std::string(fallback) : name) + " (" + context.peer() + ")";
}

// Names each stream id once per call.
class StreamNamer {
public:
    explicit StreamNamer(const pipeline::Station& station) : m_station(station) {}
    template <typename Batch>
    void name(std::uint16_t id, Batch& batch)
    {
        if (m_named[id])
            return;
        m_named[id] = true;
        auto* entry = batch.add_stream_names();
        entry->set_id(id);
        entry->set_name(m_station.streamName(id));
    }

private:
    const pipeline::Station& m_station;
    std::vector<bool> m_named = std::vector<bool>(65536, false);
};

std::vector<std::uint64_t> distinct(const google::protobuf::RepeatedField<std::uint64_t>& ids)
{
    std::vector<std::uint64_t> out(ids.begin(), ids.end());
    std::sort(out.begin(), out.end());
    out.erase(std::unique(out.begin(), out.end()), out.end());
    return out;
}

// "alarm 3", "alarms 3, 5".
std::string alarmList(const google::protobuf::RepeatedField<std::uint64_t>& ids)
{
    const auto sorted = distinct(ids);
    std::string out = sorted.size() == 1 ? "alarm " : "alarms ";
    for (std::size_t i = 0; i < sorted.size(); ++i)
        out += (i ? ", " : "") + std::to_string(sorted[i]);
    return out;
}

const events::Alarm* findAlarm(const std::vector<events::Alarm>& alarms, std::uint64_t id)
{
    const auto it = std::find_if(alarms.begin(), alarms.end(), [id](const events::Alarm& a) { return a.id == id; });
    return it == alarms.end() ? nullptr : &*it;
}

const mdb::ParameterDef& definitionOf(const pipeline::PacketTypeTable& types, std::uint32_t parameterId)
{
    const pipeline::ParameterInfo& info = types.parameter(parameterId);
    return types.definition(info.typeIndex).parameters[info.indexInPacket];
}

} // namespace

StationService::StationService(pipeline::Station& station, std::vector<AccessToken> tokens)
    : m_station(station), m_tokens(std::move(tokens))
{
}

grpc::Status StationService::authorize(const grpc::ServerContext& context, bool control, std::string* who)
{
    if (m_tokens.empty()) {
        if (who)
            *who = context.peer();
        return grpc::Status::OK;
    }
    const auto& metadata = context.client_metadata();
    const auto it = metadata.find("authorization");
    const std::string_view given = it == metadata.end() ? std::string_view() : std::string_view(it->second.data(), it->second.size());
    constexpr std::string_view kBearer = "Bearer ";
    const AccessToken* token = nullptr;
    if (given.starts_with(kBearer))
        for (const AccessToken& t : m_tokens)
            if (given.substr(kBearer.size()) == t.token)
                token = &t;
    if (!token) {
        m_refusals.fetch_add(1);
        return {grpc::StatusCode::UNAUTHENTICATED,
                given.empty() ? "a token is required: metadata \"authorization: Bearer TOKEN\"" : "unknown token"};
    }
    if (control && !token->control) {
        m_refusals.fetch_add(1);
        return {grpc::StatusCode::PERMISSION_DENIED, "the token '" + token->name + "' is read-only"};
    }
    if (who)
        *who = token->name + " (" + context.peer() + ")";
    return grpc::Status::OK;
}

grpc::Status StationService::authorizeControl(const grpc::ServerContext& context, const std::string& clientName,
                                              std::string& who)
{
    if (auto st = authorize(context, true, &who); !st.ok())
        return st;
    if (!clientName.empty())
        who = clientName + " " + who;
    return grpc::Status::OK;
}

void StationService::pause(const grpc::ServerContext& context, std::chrono::milliseconds pause) const
{
    const auto end = std::chrono::steady_clock::now() + pause;
    for (auto now = std::chrono::steady_clock::now(); now < end && !ended(context); now = std::chrono::steady_clock::now())
        std::this_thread::sleep_for(std::min<std::chrono::steady_clock::duration>(kLongestPause, end - now));
}

// ---- Server and mission database ----------------------------------------------------------------------

grpc::Status StationService::GetServerInfo(grpc::ServerContext* context, const v1::GetServerInfoRequest*,
                                           v1::ServerInfo* reply)
{
    if (auto st = authorize(*context, false); !st.ok())
        return st;
    reply->set_station_version(kVersion);
    reply->set_schema_major(kSchemaMajor);
    reply->set_schema_minor(kSchemaMinor);
    reply->set_mission(m_station.database().name);
    const auto snapshot = m_station.snapshot();
    for (const auto& s : snapshot.streams) {
        auto* stream = reply->add_streams();
        stream->set_name(s.name);
        stream->set_source(s.source);
        stream->set_running(s.running);
        stream->set_state(s.state);
    }
    return grpc::Status::OK;
}

grpc::Status StationService::GetMissionDatabase(grpc::ServerContext* context, const v1::GetMissionDatabaseRequest*,
                                                v1::MissionDatabase* reply)
{
    if (auto st = authorize(*context, false); !st.ok())
        return st;
    toProto(m_station.database(), m_station.types(), *reply);
    return grpc::Status::OK;
}

// ---- Parameters -----------------------------------------------------------------------------------------

grpc::Status StationService::SubscribeParameters(grpc::ServerContext* context,
                                                 const v1::SubscribeParametersRequest* request,
                                                 grpc::ServerWriter<v1::ParameterBatch>* writer)
{
    if (auto st = authorize(*context, false); !st.ok())
        return st;
    const pipeline::PacketTypeTable& types = m_station.types();
    api::ParameterSubscription::Options options;
    options.name = clientLabel(request->client_name(), *context, "api parameters");
    options.stream = request->stream();
    options.delivery = request->delivery() == v1::DELIVERY_NEWEST ? api::Delivery::Newest : api::Delivery::EverySample;
    options.capacity = request->capacity();
    for (const auto& name : request->parameters())
        options.parameters.push_back(name);
    for (const auto& packet : request->packet_types()) {
        const auto type = types.typeByName(packet);
        if (!type)
            return invalid("no packet type named '" + packet + "'");
        const std::uint32_t first = types.firstParameterId(*type);
        for (std::uint32_t i = 0; i < types.parameterCount(*type); ++i)
            options.parameters.push_back(types.parameter(first + i).qualifiedName);
    }
    if (options.parameters.empty() && request->packet_types_size() > 0)
        return invalid("the packet types named have no parameters");
    auto subscription = api::ParameterSubscription::create(m_station, options);
    if (!subscription)
        return invalid(subscription.error().message);

    const std::uint32_t most = batchSize(request->max_batch(), kDefaultParameterBatch, kMaxParameterBatch);
    std::vector<pipeline::ParameterSample> samples(most);
    std::vector<bool> named(types.totalParameters(), false);
    StreamNamer streams(m_station);
    v1::ParameterBatch batch;
    // The first batch names every parameter asked for by name, even before it has a sample.
    for (const auto& name : options.parameters)
        if (const auto id = types.parameterId(name); id && !named[*id]) {
            named[*id] = true;
            auto* entry = batch.add_parameter_names();
            entry->set_id(*id);
            entry->set_name(name);
        }
    if (!writer->Write(batch))
        return grpc::Status::OK;
    const bool newest = options.delivery == api::Delivery::Newest;
    const auto period = newestPeriod(request->rate_hz());
    std::uint64_t delivered = 0;
    while (!ended(*context)) {
        const std::size_t n = (*subscription)->poll(std::span(samples));
        if (n == 0) {
            std::this_thread::sleep_for(newest ? std::chrono::duration_cast<std::chrono::microseconds>(period)
                                               : std::chrono::microseconds(kIdlePoll));
            continue;
        }
        batch.Clear();
        for (std::size_t i = 0; i < n; ++i) {
            const pipeline::ParameterSample& s = samples[i];
            if (!named[s.parameterId]) {
                named[s.parameterId] = true;
                auto* entry = batch.add_parameter_names();
                entry->set_id(s.parameterId);
                entry->set_name(types.parameter(s.parameterId).qualifiedName);
            }
            streams.name(s.streamId, batch);
            toProto(s, &definitionOf(types, s.parameterId), *batch.add_samples());
        }
        delivered += n;
        batch.set_dropped((*subscription)->drops());
        batch.set_delivered(delivered);
        if (!writer->Write(batch))
            break; // the client went away
        if (newest)
            std::this_thread::sleep_for(period);
    }
    return grpc::Status::OK;
}

grpc::Status StationService::GetCurrentValues(grpc::ServerContext* context, const v1::GetCurrentValuesRequest* request,
                                              v1::CurrentValues* reply)
{
    if (auto st = authorize(*context, false); !st.ok())
        return st;
    const pipeline::PacketTypeTable& types = m_station.types();
    if (!m_station.streamId(request->stream()))
        return invalid("no stream named '" + request->stream() + "'");
    api::ParameterReader reader(m_station);
    for (const auto& name : request->parameters()) {
        const auto id = types.parameterId(name);
        if (!id)
            return invalid("no parameter named '" + name + "'");
        auto* entry = reply->add_parameter_names();
        entry->set_id(*id);
        entry->set_name(name);
        if (const auto sample = reader.read(request->stream(), name))
            toProto(*sample, &definitionOf(types, *id), *reply->add_samples());
    }
    return grpc::Status::OK;
}

// ---- Packets --------------------------------------------------------------------------------------------

grpc::Status StationService::SubscribePackets(grpc::ServerContext* context, const v1::SubscribePacketsRequest* request,
                                              grpc::ServerWriter<v1::PacketBatch>* writer)
{
    if (auto st = authorize(*context, false); !st.ok())
        return st;
    api::PacketSubscription::Options options;
    options.name = clientLabel(request->client_name(), *context, "api packets");
    options.stream = request->stream();
    options.packet = request->packet_type();
    options.delivery = request->delivery() == v1::DELIVERY_NEWEST ? api::Delivery::Newest : api::Delivery::EverySample;
    options.capacity = request->capacity();
    auto subscription = api::PacketSubscription::create(m_station, options);
    if (!subscription)
        return invalid(subscription.error().message);

    const pipeline::PacketTypeTable& types = m_station.types();
    const std::uint32_t most = batchSize(request->max_batch(), kDefaultPacketBatch, kMaxPacketBatch);
    const bool newest = options.delivery == api::Delivery::Newest;
    const auto period = newestPeriod(request->rate_hz());
    StreamNamer streams(m_station);
    v1::PacketBatch batch;
    // An empty first batch: the subscription is in place (the client may start its sender).
    if (!writer->Write(batch))
        return grpc::Status::OK;
    std::uint64_t delivered = 0;
    while (!ended(*context)) {
        batch.Clear();
        const std::size_t n = (*subscription)->poll(
            [&](const api::PacketView& p) {
                streams.name(p.streamId, batch);
                auto* packet = batch.add_packets();
                packet->set_frame(p.frame.data(), p.frame.size());
                packet->set_transport_header_bytes(static_cast<std::uint32_t>(p.frame.size() - p.packet.size()));
                packet->set_receive_time_ns(p.receiveTimeNs);
                packet->set_stream_id(p.streamId);
                packet->set_apid(p.apid);
                if (p.typeIndex != 0)
                    packet->set_packet_type(std::string(types.typeName(p.typeIndex)));
            },
            most);
        if (n == 0) {
            std::this_thread::sleep_for(newest ? std::chrono::duration_cast<std::chrono::microseconds>(period)
                                               : std::chrono::microseconds(kIdlePoll));
            continue;
        }
        delivered += n;
        batch.set_dropped((*subscription)->drops());
        batch.set_delivered(delivered);
        if (!writer->Write(batch))
            break;
        if (newest)
            std::this_thread::sleep_for(period);
    }
    return grpc::Status::OK;
}

// ---- Statistics -----------------------------------------------------------------------------------------

grpc::Status StationService::SubscribeStatistics(grpc::ServerContext* context,
                                                 const v1::SubscribeStatisticsRequest* request,
                                                 grpc::ServerWriter<v1::Statistics>* writer)
{
    if (auto st = authorize(*context, false); !st.ok())
        return st;
    const auto interval = std::chrono::milliseconds(request->interval_ms() == 0 ? 1000 : std::max(100u, request->interval_ms()));
    auto next = std::chrono::steady_clock::now();
    v1::Statistics message;
    while (!ended(*context)) {
        message.Clear();
        toProto(m_station.snapshot(), message);
        if (!writer->Write(message))
            break;
        next += interval;
        pause(*context, std::chrono::ceil<std::chrono::milliseconds>(next - std::chrono::steady_clock::now()));
    }
    return grpc::Status::OK;
}

// ---- Control --------------------------------------------------------------------------------------------

grpc::Status StationService::controlDone(const std::string& who, const std::string& stream, const std::string& what,
                                         v1::ControlReply* reply)
{
    m_station.note(events::Severity::Info, stream, "api: " + who + ": " + what);
    reply->set_message(what);
    return grpc::Status::OK;
}

grpc::Status StationService::SetPacketSettings(grpc::ServerContext* context, const v1::SetPacketSettingsRequest* request,
                                               v1::ControlReply* reply)
{
    std::string who;
    if (auto st = authorizeControl(*context, request->client_name(), who); !st.ok())
        return st;
    const std::string& streamName = request->stream();
    const std::string& packet = request->packet_type();
    const auto streamId = m_station.streamId(streamName);
    if (!streamId)
        return invalid("no stream named '" + streamName + "'");
    const auto type = m_station.types().typeByName(packet);
    if (!type)
        return invalid("no packet type named '" + packet + "'");
    // What the profile holds for the type now (an entry by name or by its APID), else the defaults.
    config::PacketSettings settings;
    settings.mode = m_station.mode(*streamId, *type);
    const mdb::PacketDef& def = m_station.types().definition(*type);
    for (const auto& sp : m_station.profile().streams)
        if (sp.name == streamName)
            for (const auto& entry : sp.packets)
                if (entry.packet == packet || (!entry.byName() && entry.apid == def.apid &&
                                               entry.secondaryId == (def.secondaryId ? std::optional(def.secondaryId->value) : std::nullopt)))
                    settings = entry;
    settings.packet = packet;
    settings.apid = 0;
    settings.secondaryId.reset();
    if (request->mode() != v1::PROCESSING_MODE_UNCHANGED) {
        const auto mode = fromProto(request->mode());
        if (!mode || *mode == config::ProcessingMode::Discard)
            return invalid("a packet type's mode is PASS_THRU, PROCESS_ON_DEMAND or PROCESS_ENTIRE_PACKET");
        settings.mode = *mode;
    }
    if (request->has_record())
        settings.record = request->record();
    if (request->set_forward())
        settings.forward.assign(request->forward().begin(), request->forward().end());
    if (const Status st = m_station.setPacketSettings(streamName, settings); !st)
        return invalid(st.error().message);
    std::string what = packet + ": mode " + std::string(config::toString(settings.mode)) +
                       ", record " + (settings.record ? "on" : "off") + ", forward to " +
                       std::to_string(settings.forward.size()) + " destination(s)";
    return controlDone(who, streamName, what, reply);
}

grpc::Status StationService::StartStream(grpc::ServerContext* context, const v1::StreamRequest* request,
                                         v1::ControlReply* reply)
{
    return streamControl(*context, *request, true, reply);
}

grpc::Status StationService::StopStream(grpc::ServerContext* context, const v1::StreamRequest* request,
                                        v1::ControlReply* reply)
{
    return streamControl(*context, *request, false, reply);
}

grpc::Status StationService::ResumeRecording(grpc::ServerContext* context, const v1::ResumeRecordingRequest* request,
                                             v1::ControlReply* reply)
{
    std::string who;
    if (auto st = authorizeControl(*context, request->client_name(), who); !st.ok())
        return st;
    return controlDone(who, "", m_station.resumeRecording(), reply);
}

grpc::Status StationService::streamControl(const grpc::ServerContext& context, const v1::StreamRequest& request,
                                           bool start, v1::ControlReply* reply)
{
    std::string who;
    if (auto st = authorizeControl(context, request.client_name(), who); !st.ok())
        return st;
    const std::string& stream = request.stream();
    if (const Status st = start ? m_station.startStream(stream) : m_station.stopStream(stream); !st)
        return {grpc::StatusCode::FAILED_PRECONDITION, st.error().message};
    return controlDone(who, stream, (start ? "started stream " : "stopped stream ") + stream, reply);
}

// ---- Events and alarms ----------------------------------------------------------------------------------

grpc::Status StationService::SubscribeEvents(grpc::ServerContext* context, const v1::SubscribeEventsRequest* request,
                                             grpc::ServerWriter<v1::EventBatch>* writer)
{
    if (auto st = authorize(*context, false); !st.ok())
        return st;
    EventFilter filter;
    const auto severity = fromProto(request->min_severity());
    if (!severity)
        return invalid("min_severity " + std::to_string(static_cast<int>(request->min_severity()))
                       + " is not a severity");
    filter.minSeverity = *severity;
    for (const auto& word : request->kinds()) {
        const auto kind = events::parseEventKind(word);
        if (!kind) {
            std::string known;
            for (int k = 0; k < events::kEventKindCount; ++k)
                known += (k ? ", " : "") + std::string(events::eventKindName(static_cast<events::EventKind>(k)));
            return invalid("no event kind '" + word + "' (the kinds: " + known + ")");
        }
        filter.kinds.push_back(*kind);
    }
    for (const auto& stream : request->streams()) {
        if (!stream.empty() && !m_station.streamId(stream))
            return invalid("no stream named '" + stream + "'");
        filter.streams.push_back(stream);
    }
    auto follower = EventFollower::create(m_station, {request->after(), request->include_history()}, std::move(filter));
    if (!follower)
        return {grpc::StatusCode::OUT_OF_RANGE, follower.error().message};

    v1::EventBatch batch;
    std::uint64_t missedTotal = 0;
    // The first batch at once (the subscription is in place), then one whenever there is something to tell.
    for (bool first = true; !ended(*context); first = false) {
        auto taken = follower->take();
        if (first || !taken.events.empty() || taken.missed > 0) {
            batch.Clear();
            for (const auto& e : taken.events)
                toProto(e, *batch.add_events());
            missedTotal += taken.missed;
            batch.set_missed(taken.missed);
            batch.set_missed_total(missedTotal);
            batch.set_last_number(follower->lastNumber());
            if (!writer->Write(batch))
                break;
        }
        pause(*context, kEventPoll);
    }
    return grpc::Status::OK;
}

grpc::Status StationService::SubscribeAlarms(grpc::ServerContext* context, const v1::SubscribeAlarmsRequest*,
                                             grpc::ServerWriter<v1::AlarmList>* writer)
{
    if (auto st = authorize(*context, false); !st.ok())
        return st;
    std::optional<std::uint64_t> sent;
    v1::AlarmList list;
    while (!ended(*context)) {
        // The version first: a change while the list is read is sent again at the next look.
        const std::uint64_t version = m_station.alarmsVersion();
        if (version != sent) {
            list.Clear();
            const std::int64_t now = clock::realtimeNs();
            list.set_time_ns(now);
            list.set_version(version);
            for (const auto& alarm : m_station.alarms())
                toProto(alarm, now, *list.add_alarms());
            toProto(m_station.alarmCounts(), *list.mutable_counts());
            if (!writer->Write(list))
                break;
            sent = version;
        }
        pause(*context, kAlarmPoll);
    }
    return grpc::Status::OK;
}

grpc::Status StationService::onEachAlarm(const google::protobuf::RepeatedField<std::uint64_t>& ids,
                                         const std::function<bool(const events::Alarm&)>& acceptable,
                                         const std::function<Status(std::uint64_t)>& act)
{
    std::vector<std::uint64_t> order = distinct(ids);
    const auto alarms = m_station.alarms();
    std::stable_partition(order.begin(), order.end(), [&](std::uint64_t id) {
        const events::Alarm* alarm = findAlarm(alarms, id);
        return !alarm || !acceptable(*alarm);
    });
    std::string done;
    for (const std::uint64_t id : order) {
        if (const Status st = act(id); !st) {
            const std::string before = done.empty() ? "" : " (done before this refusal: alarms " + done + ")";
            const bool listed = findAlarm(m_station.alarms(), id) != nullptr;
            return {listed ? grpc::StatusCode::FAILED_PRECONDITION : grpc::StatusCode::NOT_FOUND,
                    st.error().message + before};
        }
        done += (done.empty() ? "" : ", ") + std::to_string(id);
    }
    return grpc::Status::OK;
}

grpc::Status StationService::AcknowledgeAlarms(grpc::ServerContext* context,
                                               const v1::AcknowledgeAlarmsRequest* request, v1::ControlReply* reply)
{
    std::string who;
    if (auto st = authorizeControl(*context, request->client_name(), who); !st.ok())
        return st;
    if (request->all() == !request->ids().empty())
        return invalid("name the alarms to acknowledge (ids) or ask for all of them (all), not both");
    const std::string user = "api: " + who;
    if (request->all()) {
        const std::size_t n = m_station.acknowledgeAllAlarms(user, request->comment());
        return controlDone(who, {}, "acknowledged all " + std::to_string(n) + " unacknowledged alarm(s)", reply);
    }
    if (auto st = onEachAlarm(
            request->ids(), [](const events::Alarm& a) { return !a.acknowledged; },
            [&](std::uint64_t id) { return m_station.acknowledgeAlarm(id, user, request->comment()); });
        !st.ok())
        return st;
    return controlDone(who, {}, "acknowledged " + alarmList(request->ids()), reply);
}

grpc::Status StationService::ShelveAlarms(grpc::ServerContext* context, const v1::ShelveAlarmsRequest* request,
                                          v1::ControlReply* reply)
{
    std::string who;
    if (auto st = authorizeControl(*context, request->client_name(), who); !st.ok())
        return st;
    if (request->ids().empty())
        return invalid("name the alarms to shelve (ids)");
    if (request->duration_seconds() == 0)
        return invalid("duration_seconds: the shelf time must be above 0");
    const std::chrono::seconds duration(request->duration_seconds());
    const std::string user = "api: " + who;
    if (auto st = onEachAlarm(
            request->ids(), [](const events::Alarm&) { return true; },
            [&](std::uint64_t id) { return m_station.shelveAlarm(id, duration, user, request->comment()); });
        !st.ok())
        return st;
    const std::string what = "shelved " + alarmList(request->ids()) + " for " + std::to_string(duration.count()) + " s";
    return controlDone(who, {}, what, reply);
}

grpc::Status StationService::UnshelveAlarms(grpc::ServerContext* context, const v1::UnshelveAlarmsRequest* request,
                                            v1::ControlReply* reply)
{
    std::string who;
    if (auto st = authorizeControl(*context, request->client_name(), who); !st.ok())
        return st;
    if (request->ids().empty())
        return invalid("name the alarms to unshelve (ids)");
    const std::string user = "api: " + who;
    if (auto st = onEachAlarm(
            request->ids(),
            [now = clock::realtimeNs()](const events::Alarm& a) { return a.state(now) == events::AlarmState::Shelved; },
            [&](std::uint64_t id) { return m_station.unshelveAlarm(id, user); });
        !st.ok())
        return st;
    return controlDone(who, {}, "unshelved " + alarmList(request->ids()), reply);
}

} // namespace telestation::rpc
