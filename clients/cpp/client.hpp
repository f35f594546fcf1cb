// Telestation's C++ client library: a thin layer over the generated gRPC stub of the user API
// (api/proto/telestation/v1/station.proto) for programs outside the station's process.
//
//   telestation::client::Client station("127.0.0.1:50051");          // or with a token / TLS
//   auto db = station.missionDatabase();                               // packet types, parameters
//   auto sub = station.parameters({"Packet5.CPU_LOAD"});              // every sample, in batches
//   while (auto batch = sub.next())
//       for (const auto& s : batch->samples()) use(sub.name(s.parameter_id()), s.calibrated());
//   v1::ParameterBatch batch;                                          // or, the fast way:
//   while (sub.next(batch)) ...                                        // one batch's memory, reused
//
// Subscriptions are read by one thread each; next() blocks until a batch comes or the call ends
// (nullopt: ended; status() says why). Names of parameters and streams arrive once per call and are
// kept by the subscription (name(), streamName()).
#pragma once

#include "telestation/v1/station.grpc.pb.h"

#include <grpcpp/grpcpp.h>

#include <memory>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

namespace telestation::client {

struct Options {
    std::string token;            // sent as "authorization: Bearer TOKEN" when not empty
    std::string tlsRootCertificates; // PEM text: use TLS with these roots (empty: plain, loopback)
    std::string clientName = "cpp-client"; // how the station's statistics name this client
};

// A failed call: its gRPC status code and message.
class Error : public std::runtime_error {
public:
    explicit Error(const grpc::Status& status);
    [[nodiscard]] grpc::StatusCode code() const noexcept { return m_code; }

private:
    grpc::StatusCode m_code;
};

template <typename Batch>
class Subscription {
public:
    Subscription(std::unique_ptr<grpc::ClientContext> context, std::unique_ptr<grpc::ClientReader<Batch>> reader)
        : m_context(std::move(context)), m_reader(std::move(reader))
    {
    }
    ~Subscription() { cancel(); }
    Subscription(Subscription&&) noexcept = default;

    // The next batch; nullopt once the call has ended (status() then says how).
    std::optional<Batch> next()
    {
        Batch batch;
        if (!next(batch))
            return std::nullopt;
        return batch;
    }
    // The next batch into `batch`, whose memory is used again (a reader that keeps one batch allocates
    // nothing per sample once warm); false once the call has ended.
    bool next(Batch& batch)
    {
        if (!m_reader || !m_reader->Read(&batch)) {
            finish();
            return false;
        }
        remember(batch);
        return true;
    }
    // Ends the call (the station frees the subscription).
    void cancel()
    {
        if (m_context && m_reader && !m_finished) {
            m_context->TryCancel();
            finish();
        }
    }
    // Makes a next() blocked on another thread return nullopt (the call is cancelled); thread-safe.
    void interrupt()
    {
        if (m_context)
            m_context->TryCancel();
    }
    [[nodiscard]] const grpc::Status& status() const noexcept { return m_status; }
    // After the end: a value of the call's trailing metadata ("" when absent), e.g. an archive query's
    // "telestation-archive-summary".
    [[nodiscard]] std::string trailer(const std::string& key) const
    {
        if (!m_finished || !m_context)
            return {};
        const auto& trailing = m_context->GetServerTrailingMetadata();
        const auto it = trailing.find(key);
        return it == trailing.end() ? std::string() : std::string(it->second.data(), it->second.size());
    }
    [[nodiscard]] const std::string& name(std::uint32_t parameterId) const { return m_parameterNames.at(parameterId); }
    [[nodiscard]] const std::string& streamName(std::uint32_t streamId) const { return m_streamNames.at(streamId); }

private:
    void finish()
    {
        if (m_finished || !m_reader)
            return;
        m_finished = true;
        m_status = m_reader->Finish();
    }
    void remember(const Batch& batch)
    {
        if constexpr (requires { batch.parameter_names(); })
            for (const auto& n : batch.parameter_names())
                m_parameterNames[n.id()] = n.name();
        if constexpr (requires { batch.stream_names(); })
            for (const auto& n : batch.stream_names())
                m_streamNames[n.id()] = n.name();
    }

    std::unique_ptr<grpc::ClientContext> m_context;
    std::unique_ptr<grpc::ClientReader<Batch>> m_reader;
    grpc::Status m_status;
    bool m_finished = false;
    std::unordered_map<std::uint32_t, std::string> m_parameterNames;
    std::unordered_map<std::uint32_t, std::string> m_streamNames;
};

using ParameterSubscription = Subscription<v1::ParameterBatch>;
using PacketSubscription = Subscription<v1::PacketBatch>;
using StatisticsSubscription = Subscription<v1::Statistics>;
// Events in batches; a batch's `missed` counts events the station no longer kept for this call.
using EventSubscription = Subscription<v1::EventBatch>;
// The whole alarm list at once, then again whenever it changes.
using AlarmSubscription = Subscription<v1::AlarmList>;

class Client {
public:
    // `target`: "HOST:PORT" of the station's API.
    explicit Client(const std::string& target, Options options = {});

    [[nodiscard]] v1::ServerInfo serverInfo();
    [[nodiscard]] v1::MissionDatabase missionDatabase();
    // Every sample (or the newest at `rateHz`) of the named parameters ("PACKET.PARAMETER"; none: all).
    [[nodiscard]] ParameterSubscription parameters(const std::vector<std::string>& names, const std::string& stream = {},
                                                   v1::Delivery delivery = v1::DELIVERY_EVERY_SAMPLE, double rateHz = 0);
    // The full request, for what parameters() does not offer (packet types, capacity, batch size).
    [[nodiscard]] ParameterSubscription parameters(v1::SubscribeParametersRequest request);
    [[nodiscard]] PacketSubscription packets(const std::string& stream = {}, const std::string& packetType = {},
                                             v1::Delivery delivery = v1::DELIVERY_EVERY_SAMPLE);
    [[nodiscard]] PacketSubscription packets(v1::SubscribePacketsRequest request);
    [[nodiscard]] StatisticsSubscription statistics(std::uint32_t intervalMs = 1000);
    [[nodiscard]] v1::CurrentValues currentValues(const std::string& stream, const std::vector<std::string>& names);
    // The station's events from now on (`after` 0), after an event number, or (`history`) starting with
    // the events it keeps. The first batch comes at once: the subscription is in place.
    [[nodiscard]] EventSubscription events(std::uint64_t after = 0, bool history = false);
    // The full request, for the filters (minimum severity, kinds, streams).
    [[nodiscard]] EventSubscription events(const v1::SubscribeEventsRequest& request);
    [[nodiscard]] AlarmSubscription alarms();

    // The archive (the station's recordings): its segments; recorded parameters and packets by time
    // range, stream, segment and type, in receive-time order. The call ends after the last batch;
    // trailer("telestation-archive-summary") then says what was read.
    [[nodiscard]] v1::RecordingList recordings();
    [[nodiscard]] ParameterSubscription archiveParameters(const v1::ArchiveParametersRequest& request);
    [[nodiscard]] PacketSubscription archivePackets(const v1::ArchivePacketsRequest& request);

    // Control (a control token off loopback); each returns what the station did.
    std::string setPacketSettings(const v1::SetPacketSettingsRequest& request);
    std::string setMode(const std::string& stream, const std::string& packetType, v1::ProcessingMode mode);
    std::string startStream(const std::string& stream);
    std::string stopStream(const std::string& stream);
    // After recording stopped on a failure (a full disk): record again, into new segments.
    std::string resumeRecording();
    // Alarms by id (v1::Alarm::id); the acknowledgement, shelving or unshelving records this client.
    std::string acknowledgeAlarms(const std::vector<std::uint64_t>& ids, const std::string& comment = {});
    std::string acknowledgeAllAlarms(const std::string& comment = {});
    std::string shelveAlarms(const std::vector<std::uint64_t>& ids, std::uint32_t seconds,
                             const std::string& comment = {});
    std::string unshelveAlarms(const std::vector<std::uint64_t>& ids);

    [[nodiscard]] v1::Station::Stub& stub() noexcept { return *m_stub; }
    [[nodiscard]] v1::Archive::Stub& archiveStub() noexcept { return *m_archive; }

private:
    [[nodiscard]] std::unique_ptr<grpc::ClientContext> context() const;
    // A control call's request with this client's name; its reply's message, or Error.
    template <typename Request>
    using ControlCall = grpc::Status (v1::Station::Stub::*)(grpc::ClientContext*, const Request&, v1::ControlReply*);
    template <typename Request>
    std::string control(ControlCall<Request> call, Request request);

    Options m_options;
    std::shared_ptr<grpc::Channel> m_channel;
    std::unique_ptr<v1::Station::Stub> m_stub;
    std::unique_ptr<v1::Archive::Stub> m_archive;
};

} // namespace telestation::client
