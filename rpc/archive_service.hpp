// The user API's archive service (service Archive in api/proto/telestation/v1/station.proto): queries
// over the station's recording directory — the segments recorded, and the recorded packets or their
// parameters decoded with the station's current mission database, by time range, stream, segment and
// packet type. Each query reads the recording through core/archive on its own gRPC thread (read-only,
// so recordings being written can be queried), one batch at a time: a client that reads slowly holds
// its own query back (HTTP/2 flow control) and memory stays one batch whatever the range. Access rules
// are the StationService's (read-only calls).
#pragma once

#include "core/pipeline/station.hpp"
#include "rpc/station_service.hpp"

#include "telestation/v1/station.grpc.pb.h"

namespace telestation::rpc {

class ArchiveService final : public v1::Archive::Service {
public:
    // `access` decides who may call and tells when the server stops; both must outlive this service.
    ArchiveService(pipeline::Station& station, StationService& access);

    grpc::Status ListRecordings(grpc::ServerContext* context, const v1::ListRecordingsRequest* request,
                                v1::RecordingList* reply) override;
    grpc::Status QueryParameters(grpc::ServerContext* context, const v1::ArchiveParametersRequest* request,
                                 grpc::ServerWriter<v1::ParameterBatch>* writer) override;
    grpc::Status QueryPackets(grpc::ServerContext* context, const v1::ArchivePacketsRequest* request,
                              grpc::ServerWriter<v1::PacketBatch>* writer) override;

private:
    pipeline::Station& m_station;
    StationService& m_access;
};

} // namespace telestation::rpc
