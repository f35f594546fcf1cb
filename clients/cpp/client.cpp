#include "clients/cpp/client.hpp"

#include <limits>

namespace telestation::client {

namespace {

template <typename Reply>
Reply check(const grpc::Status& status, Reply reply)
{
    if (!status.ok())
        throw Error(status);
    return reply;
}

} // namespace

Error::Error(const grpc::Status& status)
    : std::runtime_error("telestation API: " + status.error_message()), m_code(status.error_code())
{
}

Client::Client(const std::string& target, Options options) : m_options(std::move(options))
{
    std::shared_ptr<grpc::ChannelCredentials> credentials = grpc::InsecureChannelCredentials();
    if (!m_options.tlsRootCertificates.empty()) {
        grpc::SslCredentialsOptions ssl;
        ssl.pem_root_certs = m_options.tlsRootCertificates;
        credentials = grpc::SslCredentials(ssl);
    }
    grpc::ChannelArguments arguments;
    arguments.SetMaxReceiveMessageSize(std::numeric_limits<int>::max()); // batches may be large
    // A connection of its own: two Clients never share one HTTP/2 connection (gRPC pools them by
    // default), so a subscription left unread in one cannot hold up another's flow-control window.
    arguments.SetInt(GRPC_ARG_USE_LOCAL_SUBCHANNEL_POOL, 1);
    m_channel = grpc::CreateCustomChannel(target, credentials, arguments);
    m_stub = v1::Station::NewStub(m_channel);
    m_archive = v1::Archive::NewStub(m_channel);
}

std::unique_ptr<grpc::ClientContext> Client::context() const
{
    auto context = std::make_unique<grpc::ClientContext>();
    if (!m_options.token.empty())
        context->AddMetadata("authorization", "Bearer " + m_options.token);
    return context;
}

v1::ServerInfo Client::serverInfo()
{
    v1::ServerInfo reply;
    const auto status = m_stub->GetServerInfo(context().get(), {}, &reply);
    return check(status, std::move(reply));
}

v1::MissionDatabase Client::missionDatabase()
{
    v1::MissionDatabase reply;
    const auto status = m_stub->GetMissionDatabase(context().get(), {}, &reply);
    return check(status, std::move(reply));
}

ParameterSubscription Client::parameters(const std::vector<std::string>& names, const std::string& stream,
                                         v1::Delivery delivery, double rateHz)
{
    v1::SubscribeParametersRequest request;
    for (const auto& name : names)
        request.add_parameters(name);
    request.set_stream(stream);
    request.set_delivery(delivery);
    request.set_rate_hz(rateHz);
    return parameters(std::move(request));
}

ParameterSubscription Client::parameters(v1::SubscribeParametersRequest request)
{
    if (request.client_name().empty())
        request.set_client_name(m_options.clientName);
    auto ctx = context();
    auto reader = m_stub->SubscribeParameters(ctx.get(), request);
    return {std::move(ctx), std::move(reader)};
}

v1::RecordingList Client::recordings()
{
    v1::RecordingList reply;
    const auto status = m_archive->ListRecordings(context().get(), {}, &reply);
    return check(status, std::move(reply));
}

ParameterSubscription Client::archiveParameters(const v1::ArchiveParametersRequest& request)
{
    auto ctx = context();
    auto reader = m_archive->QueryParameters(ctx.get(), request);
    return {std::move(ctx), std::move(reader)};
}

PacketSubscription Client::archivePackets(const v1::ArchivePacketsRequest& request)
{
    auto ctx = context();
    auto reader = m_archive->QueryPackets(ctx.get(), request);
    return {std::move(ctx), std::move(reader)};
}

PacketSubscription Client::packets(const std::string& stream, const std::string& packetType, v1::Delivery delivery)
{
    v1::SubscribePacketsRequest request;
    request.set_stream(stream);
    request.set_packet_type(packetType);
    request.set_delivery(delivery);
    return packets(std::move(request));
}

PacketSubscription Client::packets(v1::SubscribePacketsRequest request)
{
    if (request.client_name().empty())
        request.set_client_name(m_options.clientName);
    auto ctx = context();
    auto reader = m_stub->SubscribePackets(ctx.get(), request);
    return {std::move(ctx), std::move(reader)};
}

StatisticsSubscription Client::statistics(std::uint32_t intervalMs)
{
    v1::SubscribeStatisticsRequest request;
    request.set_interval_ms(intervalMs);
    auto ctx = context();
    auto reader = m_stub->SubscribeStatistics(ctx.get(), request);
    return {std::move(ctx), std::move(reader)};
}

v1::CurrentValues Client::currentValues(const std::string& stream, const std::vector<std::string>& names)
{
    v1::GetCurrentValuesRequest request;
    request.set_stream(stream);
    for (const auto& name : names)
        request.add_parameters(name);
    v1::CurrentValues reply;
    const auto status = m_stub->GetCurrentValues(context().get(), request, &reply);
    return check(status, std::move(reply));
}

template <typename Request>
std::string Client::control(ControlCall<Request> call, Request request)
{
    if (request.client_name().empty())
        request.set_client_name(m_options.clientName);
    v1::ControlReply reply;
    const auto status = ((*m_stub).*call)(context().get(), request, &reply);
    return check(status, std::move(reply)).message();
}

std::string Client::setPacketSettings(const v1::SetPacketSettingsRequest& request)
{
    return control(&v1::Station::Stub::SetPacketSettings, request);
}

std::string Client::setMode(const std::string& stream, const std::string& packetType, v1::ProcessingMode mode)
{
    v1::SetPacketSettingsRequest request;
    request.set_stream(stream);
    request.set_packet_type(packetType);
    request.set_mode(mode);
    return setPacketSettings(request);
}

std::string Client::startStream(const std::string& stream)
{
    v1::StreamRequest request;
    request.set_stream(stream);
    return control(&v1::Station::Stub::StartStream, request);
}

std::string Client::stopStream(const std::string& stream)
{
    v1::StreamRequest request;
    request.set_stream(stream);
    return control(&v1::Station::Stub::StopStream, request);
}

std::string Client::resumeRecording()
{
    v1::ResumeRecordingRequest request;
    return control(&v1::Station::Stub::ResumeRecording, request);
}

EventSubscription Client::events(std::uint64_t after, bool history)
{
    v1::SubscribeEventsRequest request;
    request.set_after(after);
    request.set_include_history(history);
    return events(request);
}

EventSubscription Client::events(const v1::SubscribeEventsRequest& request)
{
    auto ctx = context();
    auto reader = m_stub->SubscribeEvents(ctx.get(), request);
    return {std::move(ctx), std::move(reader)};
}

AlarmSubscription Client::alarms()
{
    auto ctx = context();
    auto reader = m_stub->SubscribeAlarms(ctx.get(), v1::SubscribeAlarmsRequest());
    return {std::move(ctx), std::move(reader)};
}

std::string Client::acknowledgeAlarms(const std::vector<std::uint64_t>& ids, const std::string& comment)
{
    v1::AcknowledgeAlarmsRequest request;
    request.mutable_ids()->Add(ids.begin(), ids.end());
    request.set_comment(comment);
    return control(&v1::Station::Stub::AcknowledgeAlarms, request);
}

std::string Client::acknowledgeAllAlarms(const std::string& comment)
{
    v1::AcknowledgeAlarmsRequest request;
    request.set_all(true);
    request.set_comment(comment);
    return control(&v1::Station::Stub::AcknowledgeAlarms, request);
}

std::string Client::shelveAlarms(const std::vector<std::uint64_t>& ids, std::uint32_t seconds,
                                 const std::string& comment)
{
    v1::ShelveAlarmsRequest request;
    request.mutable_ids()->Add(ids.begin(), ids.end());
    request.set_duration_seconds(seconds);
    request.set_comment(comment);
    return control(&v1::Station::Stub::ShelveAlarms, request);
}

std::string Client::unshelveAlarms(const std::vector<std::uint64_t>& ids)
{
    v1::UnshelveAlarmsRequest request;
    request.mutable_ids()->Add(ids.begin(), ids.end());
    return control(&v1::Station::Stub::UnshelveAlarms, request);
}

} // namespace telestation::client
