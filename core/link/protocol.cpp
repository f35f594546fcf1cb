#include "core/link/protocol.hpp"

#include "core/json/json_reading.hpp"

#include <array>
#include <cmath>
#include <limits>

namespace telestation::link {

namespace {

constexpr std::array<std::pair<MessageKind, std::string_view>, 7> kMessageNames{{
    {MessageKind::Hello, "hello"},
    {MessageKind::Start, "start"},
    {MessageKind::Ready, "ready"},
    {MessageKind::Finish, "finish"},
    {MessageKind::Result, "result"},
    {MessageKind::Error, "error"},
    {MessageKind::Bye, "bye"},
}};

// Strict reading of one object's members: each read checks the member's kind and range and keeps the
// first problem, so that a caller reads every field and asks once whether all were right.
class Fields {
public:
    Fields(const Json& object, std::string path) : m_object(object), m_path(std::move(path))
    {
        if (!object.is_object())
            fail(m_path + " must be an object, not " + json::describe(object));
    }

    [[nodiscard]] const Json* find(std::string_view key, bool required)
    {
        if (m_error)
            return nullptr;
        const auto it = m_object.find(key);
        if (it == m_object.end()) {
            if (required)
                fail(json::member(m_path, key) + " is missing");
            return nullptr;
        }
        return &*it;
    }

    template <typename T>
    void unsignedNumber(std::string_view key, T& out, std::uint64_t max, bool required = false)
    {
        const Json* v = find(key, required);
        if (!v)
            return;
        // JSON read from text holds 0 and up as unsigned; JSON built in memory from an int holds it signed.
        const bool whole = v->is_number_unsigned() || (v->is_number_integer() && v->get<std::int64_t>() >= 0);
        if (!whole || v->get<std::uint64_t>() > max)
            return fail(json::member(m_path, key) + " must be a whole number 0.." + std::to_string(max) + ", not "
                        + json::shown(*v, 40, json::StringStyle::JsonQuoted));
        out = static_cast<T>(v->get<std::uint64_t>());
    }

    // A monotonic time in ns, or -1 for "none".
    void time(std::string_view key, std::int64_t& out)
    {
        const Json* v = find(key, false);
        if (!v)
            return;
        // An unsigned number above int64's range would read as a negative one (2^64 − 1 as −1, "none").
        const bool tooLarge = v->is_number_unsigned() && v->get<std::uint64_t>() > std::uint64_t(std::numeric_limits<std::int64_t>::max());
        if (!v->is_number_integer() || tooLarge || v->get<std::int64_t>() < -1)
            return fail(json::member(m_path, key) + " must be a whole number of nanoseconds (or -1), not "
                        + json::shown(*v, 40, json::StringStyle::JsonQuoted));
        out = v->get<std::int64_t>();
    }

    void seconds(std::string_view key, double& out)
    {
        const Json* v = find(key, false);
        if (!v)
            return;
        if (!v->is_number() || !std::isfinite(v->get<double>()) || v->get<double>() < 0)
            return fail(json::member(m_path, key) + " must be a number of seconds (0 or more), not "
                        + json::shown(*v, 40, json::StringStyle::JsonQuoted));
        out = v->get<double>();
    }

    void boolean(std::string_view key, bool& out)
    {
        const Json* v = find(key, false);
        if (!v)
            return;
        if (!v->is_boolean())
            return fail(json::member(m_path, key) + " must be true or false, not " + json::shown(*v, 40, json::StringStyle::JsonQuoted));
        out = v->get<bool>();
    }

    void text(std::string_view key, std::string& out, std::size_t maxLength, bool required = false)
    {
        const Json* v = find(key, required);
        if (!v)
            return;
        if (!v->is_string() || v->get_ref<const std::string&>().size() > maxLength)
            return fail(json::member(m_path, key) + " must be a string of at most " + std::to_string(maxLength)
                        + " characters, not " + json::shown(*v, 40, json::StringStyle::JsonQuoted));
        out = v->get<std::string>();
    }

    void fail(std::string message)
    {
        if (!m_error)
            m_error = Error{std::move(message), {}};
    }
    [[nodiscard]] const std::optional<Error>& error() const { return m_error; }
    [[nodiscard]] const std::string& path() const { return m_path; }

private:
    const Json& m_object;
    std::string m_path;
    std::optional<Error> m_error;
};

constexpr std::uint64_t kU64 = std::numeric_limits<std::uint64_t>::max();

} // namespace

std::string_view transportName(Transport transport) noexcept
{
    return transport == Transport::Tcp ? "tcp" : "udp";
}

Json toJson(const PhaseRequest& request)
{
    Json out = {{"test", testName(request.test)},     {"transport", transportName(request.transport)},
                {"flows", request.flows},             {"windowBytes", request.windowBytes},
                {"sampleMs", request.sampleMs},       {"framed", request.framed}};
    if (!request.packet.empty())
        out["packet"] = request.packet;
    return out;
}

Result<PhaseRequest> phaseRequestFromJson(const Json& value, const std::string& path)
{
    PhaseRequest request;
    Fields f(value, path);
    std::string test, transport;
    f.text("test", test, 32, true);
    f.text("transport", transport, 8, true);
    f.unsignedNumber("flows", request.flows, kMaxFlows);
    f.unsignedNumber("windowBytes", request.windowBytes, 1u << 30);
    f.unsignedNumber("sampleMs", request.sampleMs, 60'000);
    f.boolean("framed", request.framed);
    f.text("packet", request.packet, 256);
    if (f.error())
        return *f.error();
    if (auto tests = parseTestList(test); !tests || tests->size() != 1)
        return Error{json::member(path, "test") + ": " + (tests ? "one test, not " + test : tests.error().message), {}};
    else
        request.test = tests->front();
    if (transport == "tcp")
        request.transport = Transport::Tcp;
    else if (transport == "udp")
        request.transport = Transport::Udp;
    else
        return Error{json::member(path, "transport") + " must be \"tcp\" or \"udp\", not \"" + transport + "\"", {}};
    if (request.flows == 0)
        return Error{json::member(path, "flows") + " must be 1.." + std::to_string(kMaxFlows), {}};
    if (request.test == TestKind::Telemetry && request.packet.empty())
        return Error{json::member(path, "packet") + " is missing (the telemetry test sends a packet type)", {}};
    return request;
}

Json toJson(const PhaseResult& result)
{
    Json out = {{"messages", result.messages},     {"bytes", result.bytes},         {"firstNs", result.firstNs},
                {"lastNs", result.lastNs},         {"reordered", result.reordered}, {"duplicates", result.duplicates},
                {"connections", result.connections}, {"cpuSeconds", result.cpuSeconds}};
    if (!result.samples.empty()) {
        Json flows = Json::array();
        for (const auto& flow : result.samples) {
            Json samples = Json::array();
            for (const FlowSample& s : flow)
                samples.push_back(Json::array({s.ns, s.bytes}));
            flows.push_back(std::move(samples));
        }
        out["samples"] = std::move(flows);
    }
    const StationCounts& s = result.station;
    if (s != StationCounts{})
        out["station"] = {{"received", s.received},   {"processed", s.processed}, {"sequenceErrors", s.sequenceErrors},
                          {"dropped", s.dropped},     {"malformed", s.malformed}};
    return out;
}

Result<PhaseResult> phaseResultFromJson(const Json& value, const std::string& path)
{
    PhaseResult result;
    Fields f(value, path);
    f.unsignedNumber("messages", result.messages, kU64);
    f.unsignedNumber("bytes", result.bytes, kU64);
    f.time("firstNs", result.firstNs);
    f.time("lastNs", result.lastNs);
    f.unsignedNumber("reordered", result.reordered, kU64);
    f.unsignedNumber("duplicates", result.duplicates, kU64);
    f.unsignedNumber("connections", result.connections, kMaxFlows);
    f.seconds("cpuSeconds", result.cpuSeconds);
    if (const Json* station = f.find("station", false)) {
        Fields s(*station, json::member(path, "station"));
        s.unsignedNumber("received", result.station.received, kU64);
        s.unsignedNumber("processed", result.station.processed, kU64);
        s.unsignedNumber("sequenceErrors", result.station.sequenceErrors, kU64);
        s.unsignedNumber("dropped", result.station.dropped, kU64);
        s.unsignedNumber("malformed", result.station.malformed, kU64);
        if (s.error())
            return *s.error();
    }
    if (const Json* flows = f.find("samples", false)) {
        const std::string flowsPath = json::member(path, "samples");
        if (!flows->is_array() || flows->size() > kMaxFlows)
            return Error{flowsPath + " must be an array of at most " + std::to_string(kMaxFlows) + " flows", {}};
        for (std::size_t i = 0; i < flows->size(); ++i) {
            const Json& flow = (*flows)[i];
            const std::string flowPath = json::element(flowsPath, i);
            if (!flow.is_array() || flow.size() > kMaxSamplesPerFlow)
                return Error{flowPath + " must be an array of at most " + std::to_string(kMaxSamplesPerFlow) + " samples", {}};
            auto& out = result.samples.emplace_back();
            out.reserve(flow.size());
            for (std::size_t k = 0; k < flow.size(); ++k) {
                const Json& pair = flow[k];
                if (!pair.is_array() || pair.size() != 2 || !pair[0].is_number_integer() || !pair[1].is_number_unsigned()
                    || pair[0].get<std::int64_t>() < 0)
                    return Error{json::element(flowPath, k) + " must be [nanoseconds, bytes] (whole numbers, 0 or more)", {}};
                out.push_back({pair[0].get<std::int64_t>(), pair[1].get<std::uint64_t>()});
            }
        }
    }
    if (f.error())
        return *f.error();
    return result;
}

Result<MessageKind> kindOf(const Json& message)
{
    if (!message.is_object())
        return Error{"a control message must be a JSON object, not " + json::describe(message), {}};
    const auto type = message.find("type");
    if (type == message.end())
        return Error{"a control message needs a \"type\"", {}};
    if (!type->is_string())
        return Error{"$.type must be a string, not " + json::describe(*type), {}};
    for (const auto& [kind, name] : kMessageNames)
        if (name == type->get_ref<const std::string&>())
            return kind;
    return Error{"unknown control message type " + json::shown(*type, 40, json::StringStyle::JsonQuoted), {}};
}

std::string_view messageName(MessageKind kind) noexcept
{
    for (const auto& [k, name] : kMessageNames)
        if (k == kind)
            return name;
    return "?";
}

Json helloMessage(std::string_view host)
{
    return {{"type", "hello"}, {"version", kProtocolVersion}, {"host", std::string(host)}};
}

Json startMessage(const PhaseRequest& request)
{
    return {{"type", "start"}, {"phase", toJson(request)}};
}

Json readyMessage(std::uint16_t port)
{
    return {{"type", "ready"}, {"port", port}};
}

Json finishMessage()
{
    return {{"type", "finish"}};
}

Json resultMessage(const PhaseResult& result)
{
    return {{"type", "result"}, {"result", toJson(result)}};
}

Json errorMessage(std::string_view reason)
{
    return {{"type", "error"}, {"message", std::string(reason)}};
}

Json byeMessage()
{
    return {{"type", "bye"}};
}

Result<std::uint16_t> readyPort(const Json& message)
{
    std::uint32_t port = 0;
    Fields f(message, "$");
    f.unsignedNumber("port", port, 65535, true);
    if (f.error())
        return *f.error();
    if (port == 0)
        return Error{"$.port must be 1..65535", {}};
    return static_cast<std::uint16_t>(port);
}

std::string errorReason(const Json& message)
{
    const auto it = message.find("message");
    if (it != message.end() && it->is_string())
        return it->get<std::string>();
    return "(the peer gave no reason)";
}

Result<Hello> helloFrom(const Json& message)
{
    Hello hello;
    std::uint32_t version = 0;
    Fields f(message, "$");
    f.unsignedNumber("version", version, 1000, true);
    f.text("host", hello.host, 256);
    if (f.error())
        return *f.error();
    hello.version = static_cast<int>(version);
    return hello;
}

} // namespace telestation::link
