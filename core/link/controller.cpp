#include "core/link/controller.hpp"

#include "core/link/control_channel.hpp"
#include "core/link/rate_search.hpp"
#include "core/io/socket_util.hpp"

#include <arpa/inet.h>
#include <ifaddrs.h>
#include <net/if.h>

#include <algorithm>
#include <ctime>
#include <fstream>

namespace telestation::link {

namespace {

using namespace std::chrono_literals;

struct Cancelled {};

std::string utcNow()
{
    const std::time_t now = std::time(nullptr);
    std::tm utc{};
    ::gmtime_r(&now, &utc);
    char text[32];
    std::strftime(text, sizeof text, "%Y-%m-%dT%H:%M:%SZ", &utc);
    return text;
}

double activeSeconds(const PhaseResult& r)
{
    return r.firstNs >= 0 && r.lastNs > r.firstNs ? double(r.lastNs - r.firstNs) / 1e9 : 0.0;
}

class Session {
public:
    Session(const ControllerOptions& options, ControlChannel channel, std::string host)
        : m_options(options), m_channel(std::move(channel)), m_host(std::move(host))
    {
    }

    // One phase: the responder opens, `send` sends, the responder reports. The error says which
    // side failed; a failure of the control connection itself is thrown as ChannelBroken.
    Result<PhaseResult> phase(const PhaseRequest& request, const std::function<Result<SendCounts>(const Target&)>& send, SendCounts& sent)
    {
        if (m_options.cancel && m_options.cancel->load())
            throw Cancelled{};
        control(m_channel.send(startMessage(request)));
        const Json ready = control(m_channel.receive(60s));
        const auto kind = kindOf(ready);
        if (!kind)
            broken(kind.error().message);
        if (*kind == MessageKind::Error)
            return Error{"the responder refused the phase: " + errorReason(ready), {}};
        if (*kind != MessageKind::Ready)
            broken("the responder answered start with '" + std::string(messageName(*kind)) + "'");
        const auto port = readyPort(ready);
        if (!port)
            broken(port.error().message);
        auto counts = send(Target{m_host, *port});
        control(m_channel.send(finishMessage()));
        const Json answer = control(m_channel.receive(90s));
        const auto answerKind = kindOf(answer);
        if (!answerKind)
            broken(answerKind.error().message);
        if (*answerKind == MessageKind::Error)
            return Error{"the responder: " + errorReason(answer), {}};
        if (*answerKind != MessageKind::Result || !answer.contains("result"))
            broken("the responder answered finish with '" + std::string(messageName(*answerKind)) + "'");
        auto result = phaseResultFromJson(answer.at("result"), "$.result");
        if (!result)
            broken("the responder's result: " + result.error().message);
        if (!counts)
            return Error{"sending failed: " + counts.error().message, {}};
        sent = std::move(*counts);
        return result;
    }

    // Says bye and waits (a few seconds at most) until the responder has closed the connection: its
    // session is over then, so that a run started straight after this one is not told "busy".
    void bye()
    {
        if (!m_channel.send(byeMessage()))
            return;
        for (int i = 0; i < 4 && m_channel.receive(5s).ok(); ++i) {
        }
    }

    struct ChannelBroken {
        std::string why;
    };

private:
    template <typename T>
    T control(Result<T> r)
    {
        if (!r)
            broken(r.error().message);
        return std::move(r).value();
    }
    void control(const Status& s)
    {
        if (!s)
            broken(s.error().message);
    }
    [[noreturn]] void broken(const std::string& why) { throw ChannelBroken{why}; }

    const ControllerOptions& m_options;
    ControlChannel m_channel;
    std::string m_host;
};

class Run {
public:
    Run(const ControllerOptions& options, Session& session, LinkReport& report) : m_o(options), m_s(session), m_r(report) {}

    void test(TestKind kind)
    {
        switch (kind) {
        case TestKind::MessageRate: return messageRate();
        case TestKind::UdpGrid: return udpGrid();
        case TestKind::TcpFlows: return flows();
        case TestKind::BlockSweep: return blocks();
        case TestKind::Telemetry: return telemetry();
        }
    }

private:
    void say(const std::string& line)
    {
        if (m_o.progress)
            m_o.progress(m_r, line);
    }

    void failed(TestKind kind, const std::string& why)
    {
        m_r.failures.emplace_back(kind, why);
        say(std::string(testName(kind)) + ": " + why);
    }

    void messageRate()
    {
        for (const Transport transport : {Transport::Tcp, Transport::Udp})
            for (const std::uint32_t wanted : m_o.messageSizes) {
                const std::uint32_t bytes = transport == Transport::Udp ? std::clamp<std::uint32_t>(wanted, 4, kMaxUdpPayload) : wanted;
                PhaseRequest request;
                request.test = TestKind::MessageRate;
                request.transport = transport;
                request.framed = transport == Transport::Tcp;
                SendCounts sent;
                auto result = m_s.phase(request, [&](const Target& t) -> Result<SendCounts> {
                    if (transport == Transport::Tcp)
                        return sendFramedMessages(t, bytes, m_o.messageTime);
                    DatagramPlan plan;
                    plan.bytes = bytes;
                    plan.duration = m_o.messageTime;
                    return sendDatagrams(t, plan);
                }, sent);
                if (!result)
                    return failed(TestKind::MessageRate, std::string(transportName(transport)) + " " + std::to_string(bytes) + " B: " + result.error().message);
                MessageRateRow row;
                row.transport = transport;
                row.bytes = bytes;
                row.seconds = sent.seconds();
                row.sent = sent.messages;
                row.received = result->messages;
                const double seconds = activeSeconds(*result);
                if (seconds > 0) {
                    row.messagesPerSecond = double(result->messages) / seconds;
                    row.kilobytesPerSecond = double(result->messages) * bytes / seconds / 1000.0;
                }
                const auto limit = transport == Transport::Tcp ? tcpMessageLimit(m_o.wire, bytes) : udpPayloadLimit(m_o.wire, bytes);
                if (limit) {
                    row.limitKilobytesPerSecond = *limit / 1000.0;
                    row.limitMessagesPerSecond = *limit / bytes;
                }
                m_r.messageRate.push_back(row);
                say("msgrate " + std::string(transportName(transport)) + " " + std::to_string(bytes) + " B: "
                    + std::to_string(std::llround(row.messagesPerSecond)) + " messages/s, " + std::to_string(std::llround(row.kilobytesPerSecond))
                    + " KB/s");
            }
    }

    void udpGrid()
    {
        for (const std::uint32_t bytes : m_o.udpSizes)
            for (const std::int64_t gap : m_o.udpGapsNs) {
                PhaseRequest request;
                request.test = TestKind::UdpGrid;
                request.transport = Transport::Udp;
                SendCounts sent;
                auto result = m_s.phase(request, [&](const Target& t) {
                    DatagramPlan plan;
                    plan.bytes = bytes;
                    plan.count = m_o.udpCount;
                    plan.gapNs = gap;
                    return sendDatagrams(t, plan);
                }, sent);
                if (!result)
                    return failed(TestKind::UdpGrid, std::to_string(bytes) + " B at " + std::to_string(gap / 1000) + " us: " + result.error().message);
                UdpGridRow row;
                row.bytes = bytes;
                row.gapNs = gap;
                row.count = m_o.udpCount;
                row.requestedSeconds = double(gap) * double(m_o.udpCount) / 1e9;
                row.sendSeconds = sent.seconds();
                row.sent = sent.messages;
                row.received = result->messages;
                row.sendErrors = sent.sendErrors;
                row.lost = row.count > result->messages ? row.count - result->messages : 0;
                row.reordered = result->reordered;
                if (row.sendSeconds > 0)
                    row.sendMbps = double(sent.bytes) * 8 / row.sendSeconds / 1e6;
                if (const double seconds = activeSeconds(*result); seconds > 0)
                    row.receiveMbps = double(result->bytes) * 8 / seconds / 1e6;
                if (const auto wire = udpWireSeconds(m_o.wire, bytes))
                    row.wireNs = *wire * 1e9;
                m_r.udpGrid.push_back(row);
                say("udpmon " + std::to_string(bytes) + " B, gap " + std::to_string(gap / 1000) + " us: send "
                    + std::to_string(std::llround(row.sendMbps)) + " Mbit/s, receive " + std::to_string(std::llround(row.receiveMbps))
                    + " Mbit/s, lost " + std::to_string(row.lost));
            }
    }

    void flows()
    {
        for (const std::uint32_t n : m_o.flowCounts) {
            PhaseRequest request;
            request.test = TestKind::TcpFlows;
            request.transport = Transport::Tcp;
            request.flows = n;
            request.windowBytes = m_o.totalWindowBytes / std::max<std::uint32_t>(1, n);
            request.sampleMs = m_o.sampleMs;
            SendCounts sent;
            auto result = m_s.phase(request, [&](const Target& t) {
                return sendTcpFlows(t, n, m_o.totalWindowBytes, 128 * 1024, m_o.flowsTime);
            }, sent);
            if (!result)
                return failed(TestKind::TcpFlows, std::to_string(n) + " flows: " + result.error().message);
            FlowsRow row;
            row.flows = n;
            row.windowBytes = m_o.totalWindowBytes;
            row.seconds = sent.seconds();
            row.bytes = result->bytes;
            row.intervalMbps = exactIntervalMbps(result->samples, std::int64_t(m_o.sampleMs) * 1'000'000, result->lastNs);
            row.medianMbps = median(row.intervalMbps);
            if (const double seconds = activeSeconds(*result); seconds > 0)
                row.meanMbps = double(result->bytes) * 8 / seconds / 1e6;
            if (const auto limit = tcpPayloadLimit(m_o.wire))
                row.limitMbps = *limit * 8 / 1e6;
            m_r.flows.push_back(row);
            say("flows " + std::to_string(n) + ": median " + std::to_string(std::llround(row.medianMbps)) + " Mbit/s");
        }
    }

    void blocks()
    {
        for (const std::uint32_t block : m_o.blockSizes) {
            PhaseRequest request;
            request.test = TestKind::BlockSweep;
            request.transport = Transport::Tcp;
            SendCounts sent;
            auto result = m_s.phase(request, [&](const Target& t) { return sendTcpFlows(t, 1, 0, block, m_o.blockTime); }, sent);
            if (!result)
                return failed(TestKind::BlockSweep, std::to_string(block) + " B blocks: " + result.error().message);
            BlockRow row;
            row.blockBytes = block;
            row.seconds = sent.seconds();
            row.bytes = result->bytes;
            if (const double seconds = activeSeconds(*result); seconds > 0) {
                row.mbps = double(result->bytes) * 8 / seconds / 1e6;
                row.receiverCpuPercent = 100 * result->cpuSeconds / seconds;
            }
            if (row.seconds > 0)
                row.senderCpuPercent = 100 * sent.cpuSeconds / row.seconds;
            if (const auto limit = tcpPayloadLimit(m_o.wire))
                row.limitMbps = *limit * 8 / 1e6;
            m_r.blocks.push_back(row);
            say("blocks " + std::to_string(block) + " B: " + std::to_string(std::llround(row.mbps)) + " Mbit/s");
        }
    }

    void telemetry()
    {
        if (!m_o.telemetry)
            return failed(TestKind::Telemetry, "no mission packets to send (this controller has no telemetry sender)");
        auto bytes = m_o.telemetry->packetBytes(m_o.packet);
        if (!bytes)
            return failed(TestKind::Telemetry, bytes.error().message);
        TelemetryResult& out = m_r.telemetry.emplace();
        out.packet = m_o.packet;
        out.packetBytes = *bytes;
        if (const auto limit = udpPayloadLimit(m_o.wire, *bytes))
            out.limitMbps = *limit * 8 / 1e6;
        RateSearch::Options search;
        search.start = std::min(m_o.telemetryStartMbps, out.limitMbps.value_or(m_o.telemetryStartMbps));
        search.maximum = out.limitMbps.value_or(m_o.telemetryMaxMbps);
        search.minimum = 0.01;
        search.maxTries = m_o.telemetryTries;
        RateSearch rates(search);
        while (const auto mbps = rates.next()) {
            TelemetryTry attempt;
            attempt.mbps = *mbps;
            attempt.packetsPerSecond = *mbps * 1e6 / 8 / *bytes;
            PhaseRequest request;
            request.test = TestKind::Telemetry;
            request.transport = Transport::Udp;
            request.packet = m_o.packet;
            SendCounts sent;
            auto result = m_s.phase(request, [&](const Target& t) -> Result<SendCounts> {
                auto n = m_o.telemetry->send(t, m_o.packet, attempt.packetsPerSecond, m_o.telemetryTime);
                if (!n)
                    return n.error();
                SendCounts c;
                c.messages = *n;
                return c;
            }, sent);
            if (!result)
                return failed(TestKind::Telemetry, result.error().message);
            attempt.sent = sent.messages;
            attempt.station = result->station;
            out.tries.push_back(attempt);
            rates.record(*mbps, attempt.delivered());
            say("telemetry " + m_o.packet + " at " + std::to_string(*mbps).substr(0, 7) + " Mbit/s: " + std::to_string(attempt.station.received)
                + " of " + std::to_string(attempt.sent) + (attempt.delivered() ? " (100%)" : " (not all)"));
        }
        out.bestMbps = rates.bestPassing();
    }

    const ControllerOptions& m_o;
    Session& m_s;
    LinkReport& m_r;
};

} // namespace

Result<LinkReport> runLinkTest(const ControllerOptions& options)
{
    auto where = parseHostPort(options.responder, false);
    if (!where)
        return Error{"--to: " + where.error().message, {}};
    auto channel = ControlChannel::connect(options.responder, options.connectTimeout);
    if (!channel)
        return Error{"no link responder at " + options.responder + ": " + channel.error().message, {}};
    if (auto sent = channel->send(helloMessage(hostName())); !sent)
        return Error{"the responder at " + options.responder + ": " + sent.error().message, {}};
    // Not `10s`: cppcheck 2.10 gives up on the whole file at that literal.
    auto answer = channel->receive(std::chrono::seconds{10});
    if (!answer)
        return Error{"the responder at " + options.responder + " did not answer: " + answer.error().message, {}};
    const auto kind = kindOf(*answer);
    if (!kind)
        return Error{"the responder at " + options.responder + " answered: " + kind.error().message, {}};
    if (*kind == MessageKind::Error)
        return Error{"the responder at " + options.responder + " refused the test: " + errorReason(*answer), {}};
    auto hello = helloFrom(*answer);
    if (*kind != MessageKind::Hello || !hello)
        return Error{"the responder at " + options.responder + " did not say hello", {}};

    LinkReport report;
    report.date = utcNow();
    report.command = options.command;
    report.controller = hostName() + " (" + channel->localHost() + ")";
    report.responder = (hello->host.empty() ? std::string("?") : hello->host) + " (" + options.responder + ")";
    report.machine = machineDescription();
    report.kernel = kernelDescription();
    report.wire = options.wire;
    report.tests = options.tests;

    Session session(options, std::move(*channel), where->host);
    Run run(options, session, report);
    TestKind current = options.tests.empty() ? TestKind::MessageRate : options.tests.front();
    try {
        for (const TestKind test : options.tests) {
            current = test;
            run.test(test);
        }
    } catch (const Session::ChannelBroken& broken) {
        return Error{"the control connection to " + options.responder + " broke: " + broken.why, {}};
    } catch (const Cancelled&) {
        report.failures.emplace_back(current, "cancelled by the operator");
    }
    session.bye();
    return report;
}

void quickGrids(ControllerOptions& options)
{
    options.messageSizes = {4, 512, 4096, 65536};
    options.udpSizes = {256, 1472, 8192};
    options.udpGapsNs = {0, 20'000, 100'000};
    options.udpCount = 500;
    options.flowCounts = {1, 4, 16};
    options.blockSizes = {64, 1024, 16384, 262144};
    options.telemetryTries = 4;
    options.messageTime = options.blockTime = options.telemetryTime = 500ms;
    options.flowsTime = 1500ms;
}

WireModel wireOfInterface(const std::string& localAddress)
{
    WireModel wire;
    wire.source = "unknown";
    ifaddrs* list = nullptr;
    if (::getifaddrs(&list) != 0)
        return wire;
    std::string name;
    for (ifaddrs* a = list; a; a = a->ifa_next) {
        if (!a->ifa_addr)
            continue;
        char text[INET6_ADDRSTRLEN] = {};
        if (a->ifa_addr->sa_family == AF_INET)
            ::inet_ntop(AF_INET, &reinterpret_cast<sockaddr_in*>(a->ifa_addr)->sin_addr, text, sizeof text);
        else if (a->ifa_addr->sa_family == AF_INET6)
            ::inet_ntop(AF_INET6, &reinterpret_cast<sockaddr_in6*>(a->ifa_addr)->sin6_addr, text, sizeof text);
        if (localAddress == text) {
            name = a->ifa_name;
            if (a->ifa_flags & IFF_LOOPBACK)
                wire.source = "loopback " + name + ": no wire";
            break;
        }
    }
    ::freeifaddrs(list);
    if (name.empty() || wire.source != "unknown")
        return wire;
    std::ifstream speed("/sys/class/net/" + name + "/speed");
    long megabits = 0;
    if (speed >> megabits && megabits > 0) {
        wire.bitsPerSecond = double(megabits) * 1e6;
        wire.source = "interface " + name + " reports it";
    } else {
        wire.source = "interface " + name + " does not report its speed";
    }
    std::ifstream mtu("/sys/class/net/" + name + "/mtu");
    std::uint32_t value = 0;
    if (mtu >> value && value >= 576)
        wire.mtu = value;
    return wire;
}

WireModel wireTowards(const std::string& hostPort)
{
    WireModel unknown;
    unknown.source = "unknown";
    auto where = parseHostPort(hostPort, false);
    if (!where)
        return unknown;
    io::Endpoint endpoint;
    endpoint.scheme = io::Scheme::Udp;
    endpoint.host = where->host;
    endpoint.port = where->port;
    auto addresses = io::detail::resolve(endpoint, SOCK_DGRAM, false);
    if (!addresses)
        return unknown;
    // A connected UDP socket has a local address once the kernel chose the route; nothing is sent.
    io::detail::UniqueFd fd(::socket(addresses->front().family(), SOCK_DGRAM | SOCK_CLOEXEC, 0));
    if (!fd.valid() || ::connect(fd.get(), addresses->front().get(), addresses->front().length) != 0)
        return unknown;
    return wireOfInterface(hostOf(io::detail::localAddress(fd.get()).toString()));
}

} // namespace telestation::link
