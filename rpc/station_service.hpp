// The user API's gRPC service (api/proto/telestation/v1/station.proto) over one running
// pipeline::Station: each call maps onto the in-process API (core/api) — a streaming subscription is an
// api::ParameterSubscription or api::PacketSubscription of its own, named after the client, polled by
// the call's gRPC thread and written in batches. A client that reads slowly blocks only its own call
// (HTTP/2 flow control); meanwhile its subscription's bounded queue fills and then drops and counts,
// so the station never waits for a client. Events and alarms are polled from the station's event log
// (an EventFollower per call) and its alarm list's version: nothing per packet.
//
// Access (AccessPolicy): every call first checks the caller's token when tokens are configured; control
// calls need a control token. Refusals are counted (refusals()).
#pragma once

#include "core/pipeline/station.hpp"

#include "telestation/v1/station.grpc.pb.h"

#include <atomic>
#include <chrono>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace telestation::rpc {

// Who may call what. No tokens: every caller may do everything (the default, for a server bound to
// loopback only). With tokens: a call without a known token is refused (UNAUTHENTICATED); a control call
// with a read-only token too (PERMISSION_DENIED).
struct AccessToken {
    std::string token;
    std::string name;     // who holds it: named in control events
    bool control = false; // may change settings and start / stop streams
};

class StationService final : public v1::Station::Service {
public:
    StationService(pipeline::Station& station, std::vector<AccessToken> tokens);

    // Ends every streaming call at its next look (the server is shutting down).
    void stop() noexcept { m_stopping.store(true); }
    [[nodiscard]] std::uint64_t refusals() const noexcept { return m_refusals.load(); }

    grpc::Status GetServerInfo(grpc::ServerContext* context, const v1::GetServerInfoRequest* request,
                               v1::ServerInfo* reply) override;
    grpc::Status GetMissionDatabase(grpc::ServerContext* context, const v1::GetMissionDatabaseRequest* request,
                                    v1::MissionDatabase* reply) override;
    grpc::Status SubscribeParameters(grpc::ServerContext* context, const v1::SubscribeParametersRequest* request,
                                     grpc::ServerWriter<v1::ParameterBatch>* writer) override;
    grpc::Status SubscribePackets(grpc::ServerContext* context, const v1::SubscribePacketsRequest* request,
                                  grpc::ServerWriter<v1::PacketBatch>* writer) override;
    grpc::Status GetCurrentValues(grpc::ServerContext* context, const v1::GetCurrentValuesRequest* request,
                                  v1::CurrentValues* reply) override;
    grpc::Status SubscribeStatistics(grpc::ServerContext* context, const v1::SubscribeStatisticsRequest* request,
                                     grpc::ServerWriter<v1::Statistics>* writer) override;
    grpc::Status SetPacketSettings(grpc::ServerContext* context, const v1::SetPacketSettingsRequest* request,
                                   v1::ControlReply* reply) override;
    grpc::Status StartStream(grpc::ServerContext* context, const v1::StreamRequest* request,
                             v1::ControlReply* reply) override;
    grpc::Status StopStream(grpc::ServerContext* context, const v1::StreamRequest* request,
                            v1::ControlReply* reply) override;
    grpc::Status ResumeRecording(grpc::ServerContext* context, const v1::ResumeRecordingRequest* request,
                                 v1::ControlReply* reply) override;
    grpc::Status SubscribeEvents(grpc::ServerContext* context, const v1::SubscribeEventsRequest* request,
                                 grpc::ServerWriter<v1::EventBatch>* writer) override;
    grpc::Status SubscribeAlarms(grpc::ServerContext* context, const v1::SubscribeAlarmsRequest* request,
                                 grpc::ServerWriter<v1::AlarmList>* writer) override;
    grpc::Status AcknowledgeAlarms(grpc::ServerContext* context, const v1::AcknowledgeAlarmsRequest* request,
                                   v1::ControlReply* reply) override;
    grpc::Status ShelveAlarms(grpc::ServerContext* context, const v1::ShelveAlarmsRequest* request,
                              v1::ControlReply* reply) override;
    grpc::Status UnshelveAlarms(grpc::ServerContext* context, const v1::UnshelveAlarmsRequest* request,
                                v1::ControlReply* reply) override;

    // OK when the caller may make the call; `who` gets the token's name (or the peer's address). The
    // archive service asks it too.
    grpc::Status authorize(const grpc::ServerContext& context, bool control, std::string* who = nullptr);
    // A control call's authorization; `who` names the caller in its events: "CLIENT_NAME TOKEN (PEER)".
    grpc::Status authorizeControl(const grpc::ServerContext& context, const std::string& clientName, std::string& who);
    // Sleeps up to `pause`, less when the call ends meanwhile.
    void pause(const grpc::ServerContext& context, std::chrono::milliseconds pause) const;
    // The call was cancelled, or the server is stopping.
    [[nodiscard]] bool ended(const grpc::ServerContext& context) const noexcept
    {
        return m_stopping.load(std::memory_order_relaxed) || context.IsCancelled();
    }

private:
    // StartStream (`start`) and StopStream.
    grpc::Status streamControl(const grpc::ServerContext& context, const v1::StreamRequest& request, bool start,
                               v1::ControlReply* reply);
    // The control call's event ("api: WHO: WHAT") and reply.
    grpc::Status controlDone(const std::string& who, const std::string& stream, const std::string& what,
                             v1::ControlReply* reply);
    // An operator action on each alarm of `ids` (duplicates once): `act` on each, those the alarm list says
    // `acceptable` is false for first — so that the station refuses such a request with its own reason
    // before anything changed. NOT_FOUND for an alarm not listed, FAILED_PRECONDITION otherwise.
    grpc::Status onEachAlarm(const google::protobuf::RepeatedField<std::uint64_t>& ids,
                             const std::function<bool(const events::Alarm&)>& acceptable,
                             const std::function<Status(std::uint64_t)>& act);

    pipeline::Station& m_station;
    std::vector<AccessToken> m_tokens;
    std::atomic<bool> m_stopping{false};
    std::atomic<std::uint64_t> m_refusals{0};
};

} // namespace telestation::rpc
