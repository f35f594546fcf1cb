// The link test's control protocol: JSON objects, one per line, on the one TCP connection between the
// controller (the simulator) and the responder (the station or a second simulator). Test traffic goes
// on ports of its own that the responder opens for each phase.
//
//   controller → responder            responder → controller
//   {"type":"hello","version":1}       {"type":"hello","version":1,"host":…}  or  {"type":"error",…}
//   {"type":"start","phase":{…}}       {"type":"ready","port":N}
//   … test traffic to port N …
//   {"type":"finish"}                  {"type":"result","result":{…}}
//   … more phases …
//   {"type":"bye"} or the connection closes: the responder ends whatever runs.
//
// Everything read from the peer is checked strictly (kinds of number, ranges, array shapes): a
// message that breaks a rule is refused with a reason naming its JSON path, never half-used.
#pragma once

#include "core/common/result.hpp"
#include "core/link/tests.hpp"

#include <nlohmann/json.hpp>

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace telestation::link {

using Json = nlohmann::json;

inline constexpr int kProtocolVersion = 1;
inline constexpr std::uint32_t kMaxFlows = 64;
inline constexpr std::uint32_t kMaxSamplesPerFlow = 100'000;

enum class Transport : std::uint8_t { Tcp, Udp };
[[nodiscard]] std::string_view transportName(Transport transport) noexcept; // "tcp", "udp"

// What the responder must open and count for one phase. The controller keeps the rest of the test's
// parameters (sizes, gaps, durations): the responder only receives.
struct PhaseRequest {
    TestKind test = TestKind::MessageRate;
    Transport transport = Transport::Tcp;
    std::uint32_t flows = 1;       // TCP connections the phase's port accepts (1..kMaxFlows)
    std::uint32_t windowBytes = 0; // each flow's receive buffer (SO_RCVBUF); 0: the system's default
    std::uint32_t sampleMs = 0;    // sample every flow's byte count this often (0: no samples)
    bool framed = false;           // TCP: length-prefixed messages, counted one by one
    std::string packet;            // telemetry: the packet type sent (a name in the responder's mission)
    friend bool operator==(const PhaseRequest&, const PhaseRequest&) = default;
};

struct FlowSample {
    std::int64_t ns = 0;     // the responder's monotonic clock
    std::uint64_t bytes = 0; // the flow's bytes received so far
    friend bool operator==(const FlowSample&, const FlowSample&) = default;
};

// What the station made of the telemetry phase's packets.
struct StationCounts {
    std::uint64_t received = 0;   // packets the stream took in
    std::uint64_t processed = 0;  // decoded in full (process entire packet)
    std::uint64_t sequenceErrors = 0;
    std::uint64_t dropped = 0;    // by the kernel, for want of a pool slot, or from a full queue
    std::uint64_t malformed = 0;
    friend bool operator==(const StationCounts&, const StationCounts&) = default;
};

// What the responder counted in one phase.
struct PhaseResult {
    std::uint64_t messages = 0;   // datagrams (UDP) or framed messages (TCP) received
    std::uint64_t bytes = 0;      // payload bytes received, all flows
    std::int64_t firstNs = -1;    // first and last byte received (responder's monotonic clock); -1: none
    std::int64_t lastNs = -1;
    std::uint64_t reordered = 0;  // UDP: datagrams that came after one sent later
    std::uint64_t duplicates = 0; // UDP: datagrams received twice
    std::uint32_t connections = 0; // TCP flows accepted
    double cpuSeconds = 0;        // the receiving thread's CPU time over the phase
    std::vector<std::vector<FlowSample>> samples; // per flow, when the request asked for samples
    StationCounts station;        // telemetry only
    friend bool operator==(const PhaseResult&, const PhaseResult&) = default;
};

[[nodiscard]] Json toJson(const PhaseRequest& request);
[[nodiscard]] Json toJson(const PhaseResult& result);
// `path` names the object in messages ("$.phase").
[[nodiscard]] Result<PhaseRequest> phaseRequestFromJson(const Json& value, const std::string& path);
[[nodiscard]] Result<PhaseResult> phaseResultFromJson(const Json& value, const std::string& path);

// ---- Messages -------------------------------------------------------------------------------------

enum class MessageKind : std::uint8_t { Hello, Start, Ready, Finish, Result, Error, Bye };

// A message's "type", checked: an object with a known string "type". The reason names what is wrong.
[[nodiscard]] Result<MessageKind> kindOf(const Json& message);
[[nodiscard]] std::string_view messageName(MessageKind kind) noexcept;

[[nodiscard]] Json helloMessage(std::string_view host);
[[nodiscard]] Json startMessage(const PhaseRequest& request);
[[nodiscard]] Json readyMessage(std::uint16_t port);
[[nodiscard]] Json finishMessage();
[[nodiscard]] Json resultMessage(const PhaseResult& result);
[[nodiscard]] Json errorMessage(std::string_view reason);
[[nodiscard]] Json byeMessage();

// Reads the fields of a checked message (kindOf said which): the port of "ready" (1..65535), the
// reason of "error", the host and version of "hello".
[[nodiscard]] Result<std::uint16_t> readyPort(const Json& message);
[[nodiscard]] std::string errorReason(const Json& message);
struct Hello {
    int version = 0;
    std::string host;
};
[[nodiscard]] Result<Hello> helloFrom(const Json& message);

} // namespace telestation::link
