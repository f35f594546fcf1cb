// Fuzz target: the user API's requests as the server decodes and handles them — a protobuf message
// parsed from the wire (what gRPC hands the service) and passed to the call of rpc::StationService that
// takes it, over a station of the training mission with one stream. The station is created but not
// started, so the calls check and apply requests without opening a socket: settings, stream control,
// alarms, current values, the mission database. Streaming calls are left out (they need a live
// connection to write to); their requests are the same messages' fields.
//
// Input: requests, each one byte choosing the call (mod 9), a 16-bit big-endian length and the
// serialized request message, all made on one fresh station — so that a request meets the state an
// earlier one left (settings, a stopped stream) and every input replays the same way.
// Checks: every refusal says why.
#include "rpc/station_service.hpp"
#include "tests/fuzz/fuzz_support.hpp"

#include <google/protobuf/stubs/logging.h>
#include <grpcpp/server_context.h>

#include <memory>

using namespace telestation;

namespace {

// A fresh station per input, so that one input's settings do not change what the next one does.
std::unique_ptr<pipeline::Station> makeStation()
{
    config::StationProfile profile;
    profile.recordingDirectory = fuzz::scratchDir() + "/recordings";
    profile.logDirectory = fuzz::scratchDir() + "/logs";
    profile.events.archive = false;
    config::StreamProfile stream;
    stream.name = "tm";
    stream.source = "udp://127.0.0.1:0";
    profile.streams.push_back(stream);
    pipeline::StationOptions options;
    options.pool = {.smallSlots = 16, .smallSlotBytes = 2048, .largeSlots = 1, .largeSlotBytes = 65542 + 65535};
    auto station = pipeline::Station::create(profile, fuzz::trainingMission(), options);
    if (!station)
        fuzz::fail("station: " + station.error().message);
    return std::move(*station);
}

template <typename Request, typename Reply>
using Call = grpc::Status (rpc::StationService::*)(grpc::ServerContext*, const Request*, Reply*);

template <typename Request, typename Reply>
void serve(rpc::StationService& service, Call<Request, Reply> call, std::span<const std::uint8_t> wire)
{
    Request request;
    if (!request.ParseFromArray(wire.data(), static_cast<int>(wire.size())))
        return; // gRPC refuses a message that does not parse before any call sees it
    grpc::ServerContext context;
    Reply reply;
    const grpc::Status status = (service.*call)(&context, &request, &reply);
    fuzz::check(status.ok() || !status.error_message().empty(), "a refused request without a reason");
}

void serveOne(rpc::StationService& service, int which, std::span<const std::uint8_t> wire)
{
    using S = rpc::StationService;
    switch (which) {
    case 0: serve(service, &S::GetServerInfo, wire); break;
    case 1: serve(service, &S::GetMissionDatabase, wire); break;
    case 2: serve(service, &S::GetCurrentValues, wire); break;
    case 3: serve(service, &S::SetPacketSettings, wire); break;
    case 4: serve(service, &S::StartStream, wire); break;
    case 5: serve(service, &S::StopStream, wire); break;
    case 6: serve(service, &S::AcknowledgeAlarms, wire); break;
    case 7: serve(service, &S::ShelveAlarms, wire); break;
    case 8: serve(service, &S::UnshelveAlarms, wire); break;
    }
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    // protobuf logs every string field that is not UTF-8 (the parse then fails); the run's log is
    // for findings.
    static const bool quiet = (google::protobuf::SetLogHandler(nullptr), true);
    (void)quiet;
    fuzz::FuzzInput in(data, size);
    const auto station = makeStation();
    rpc::StationService service(*station, {});
    while (!in.empty()) {
        const int which = in.byte() % 9;
        serveOne(service, which, in.take(in.u16()));
    }
    return 0;
}
