#include "tools/perf/perf_station_host.hpp"

#include "tools/perf/perf_stats_file.hpp"

#include <arpa/inet.h>
#include <netdb.h>
#include <netinet/in.h>
#include <poll.h>
#include <signal.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cstdio>
#include <cstring>

namespace telestation::perf {

namespace fs = std::filesystem;

namespace {

std::string systemError(const std::string& what)
{
    return what + ": " + std::strerror(errno);
}

// Splits "HOST:PORT" ("[::1]:PORT" for IPv6 literals).
bool splitHostPort(const std::string& text, std::string& host, std::string& port)
{
    const auto colon = text.rfind(':');
    if (colon == std::string::npos || colon == 0 || colon + 1 == text.size())
        return false;
    host = text.substr(0, colon);
    port = text.substr(colon + 1);
    if (host.size() > 2 && host.front() == '[' && host.back() == ']')
        host = host.substr(1, host.size() - 2);
    return true;
}

std::string addressText(const sockaddr_storage& address)
{
    char text[INET6_ADDRSTRLEN] = "";
    if (address.ss_family == AF_INET)
        ::inet_ntop(AF_INET, &reinterpret_cast<const sockaddr_in&>(address).sin_addr, text, sizeof text);
    else if (address.ss_family == AF_INET6)
        ::inet_ntop(AF_INET6, &reinterpret_cast<const sockaddr_in6&>(address).sin6_addr, text, sizeof text);
    return text;
}

bool sendAll(int fd, const std::string& data)
{
    std::size_t sent = 0;
    while (sent < data.size()) {
        const ssize_t n = ::send(fd, data.data() + sent, data.size() - sent, MSG_NOSIGNAL);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            return false;
        sent += std::size_t(n);
    }
    return true;
}

// Reads one line (without the newline) into `line`; `buffer` keeps what came after it. False on end
// of stream, error, or when nothing arrives within the timeout (< 0: wait for ever; also wakes up every
// 200 ms to check `stop` when given).
bool readLine(int fd, std::string& buffer, std::string& line, double timeoutSeconds, const volatile sig_atomic_t* stop = nullptr)
{
    const auto start = Clock::now();
    for (;;) {
        if (const auto newline = buffer.find('\n'); newline != std::string::npos) {
            line = buffer.substr(0, newline);
            buffer.erase(0, newline + 1);
            return true;
        }
        if (timeoutSeconds >= 0 && secondsSince(start) > timeoutSeconds)
            return false;
        if (stop && *stop)
            return false;
        pollfd p{fd, POLLIN, 0};
        const int ready = ::poll(&p, 1, 200);
        if (ready < 0 && errno != EINTR)
            return false;
        if (ready <= 0)
            continue;
        char chunk[65536];
        const ssize_t n = ::recv(fd, chunk, sizeof chunk, 0);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            return false;
        buffer.append(chunk, std::size_t(n));
        if (buffer.size() > (64u << 20))
            return false; // no reply is that long
    }
}

Json diskJson(const DiskReference& d)
{
    return {{"ok", d.ok}, {"error", d.error}, {"directory", d.directory}, {"filesystem", d.filesystem},
            {"megabytesPerSecond", d.megabytesPerSecond}, {"seconds", d.seconds}, {"bytes", d.bytes}};
}

DiskReference diskFromJson(const Json& j)
{
    DiskReference d;
    d.ok = j.value("ok", false);
    d.error = j.value("error", std::string());
    d.directory = j.value("directory", std::string());
    d.filesystem = j.value("filesystem", std::string());
    d.megabytesPerSecond = j.value("megabytesPerSecond", 0.0);
    d.seconds = j.value("seconds", 0.0);
    d.bytes = j.value("bytes", std::uint64_t{0});
    return d;
}

} // namespace

std::string openForwardDrain(ForwardDrain& drain, const StationHost& host)
{
    if (drain.open(host.local() ? "127.0.0.1" : "0.0.0.0"))
        return {};
    return systemError("cannot open the forward destination's socket");
}

std::string assignSources(Json& profile, const std::string& bindAddress, std::vector<std::uint16_t>& ports)
{
    Json& streams = profile["streams"];
    if (!streams.is_array() || streams.empty())
        return "the profile has no streams";
    const std::vector<std::uint16_t> udp = freeUdpPorts(streams.size());
    if (udp.empty())
        return "no free UDP port on " + bindAddress;
    ports.clear();
    for (std::size_t i = 0; i < streams.size(); ++i) {
        const bool tcp = streams[i].value("source", std::string()).rfind(kTcpServerScheme, 0) == 0;
        std::uint16_t port = udp[i];
        while (tcp && (port = freeTcpPort()) != 0 && std::find(ports.begin(), ports.end(), port) != ports.end()) {
        }
        if (port == 0)
            return "no free TCP port on " + bindAddress;
        ports.push_back(port);
        streams[i]["source"] = (tcp ? kTcpServerScheme : "udp://") + bindAddress + ":" + std::to_string(port);
    }
    return {};
}

std::string waitForSources(Child& station, const Json& profile, const std::vector<std::uint16_t>& ports,
                           const fs::path& stationErr, double timeoutSeconds)
{
    const Json& streams = member(profile, "streams");
    const auto open = [&] {
        for (std::size_t i = 0; i < ports.size(); ++i) {
            const bool tcp = streams.at(i).value("source", std::string()).rfind(kTcpServerScheme, 0) == 0;
            if (!(tcp ? tcpPortListening(ports[i]) : udpPortBound(ports[i])))
                return false;
        }
        return true;
    };
    const auto deadline = Clock::now() + std::chrono::duration<double>(timeoutSeconds);
    while (!open()) {
        if (auto e = station.wait(0))
            return "the station exited (" + std::to_string(e->code) + ") before it bound its ports:\n"
                + readFile(stationErr);
        if (Clock::now() >= deadline)
            return "the station did not bind its ports within " + rateNumber(timeoutSeconds) + " s";
        sleepMs(10);
    }
    return {};
}

// ---- ChildStationHost ---------------------------------------------------------------------------------

std::optional<StationSample> ChildStationHost::sample()
{
    if (!m_station)
        return std::nullopt;
    const auto s = sampleProcess(m_station->pid());
    if (!s)
        return std::nullopt;
    return StationSample{s->rssBytes, s->cpuSeconds, progressSoFar(m_dir / "stats.jsonl").value_or(Progress{}).received};
}

void ChildStationHost::catchUp(std::uint64_t expected)
{
    if (m_station)
        waitForCatchUp(m_dir / "stats.jsonl", expected);
}

DiskReference ChildStationHost::measureDisk()
{
    return measureDiskWrite(m_options.recordDir.string());
}

std::string ChildStationHost::prepareDirectories(const std::string& tag, const std::string& suffix,
                                                 const std::string& subdirectory)
{
    m_dir = m_options.workDir / (tag + suffix);
    m_recordings = m_options.recordDir / ("telestation-perf-" + tag);
    std::error_code ec;
    fs::remove_all(m_recordings, ec);
    return freshDirectory(m_dir / subdirectory);
}

std::string ChildStationHost::endStation(int signal, const std::string& what, StationOutcome& out)
{
    auto threads = threadCpuSeconds(m_station->pid()); // while the threads still run: they end on the signal
    out.threadCpu = std::move(threads.seconds);
    out.threadUserCpu = std::move(threads.userSeconds);
    m_station->sendSignal(signal);
    const auto exit = m_station->wait(120);
    m_station.reset(); // kills it if it did not stop
    if (!exit)
        return what + " did not stop within 120 s of " + (signal == SIGINT ? "SIGINT" : "SIGTERM");
    m_exit = describeExit(*exit);
    out.exitCode = exit->code;
    out.cpuSeconds = exit->cpuSeconds;
    out.wallSeconds = exit->wallSeconds;
    out.out = readFile(m_dir / "station.out");
    out.err = readFile(m_dir / "station.err");
    return {};
}

void ChildStationHost::removeDirectories()
{
    if (m_options.keep)
        return;
    std::error_code ec;
    fs::remove_all(m_dir, ec);
    fs::remove_all(m_recordings, ec);
}

// ---- LocalStationHost ---------------------------------------------------------------------------------

LocalStationHost::LocalStationHost(RunOptions options, std::string bindAddress)
    : ChildStationHost(std::move(options)), m_bindAddress(std::move(bindAddress))
{
}

LocalStationHost::~LocalStationHost() = default; // Child kills a station still running

std::string LocalStationHost::start(const std::string& tag, Json profile, const std::string& consume, double safetySeconds,
                                    std::vector<std::uint16_t>& ports)
{
    if (m_station)
        return "a station is already running";
    if (auto e = prepareDirectories(tag, "-station", "logs"); !e.empty())
        return e;
    if (auto e = assignSources(profile, m_bindAddress, ports); !e.empty())
        return e;
    if (!writeFile(m_dir / "profile.json", profile.dump(2) + "\n"))
        return "cannot write " + (m_dir / "profile.json").string();

    // Stopped with SIGINT once it has everything; --duration only as a safety net.
    std::vector<std::string> args = {(m_options.binDir / "telestation").string(), "--headless", "--profile",
        (m_dir / "profile.json").string(), "--duration", rateNumber(safetySeconds), "--summary-out",
        (m_dir / "station.json").string(), "--stats-out", (m_dir / "stats.jsonl").string(), "--stats-interval", "0.1",
        "--quiet", "--recordings", m_recordings.string(), "--log-dir", (m_dir / "logs").string(), "--events-out",
        (m_dir / "events.jsonl").string()};
    if (!consume.empty())
        args.insert(args.end(), {"--consume", consume});
    if (!m_options.mdb.empty())
        args.insert(args.end(), {"--mdb", m_options.mdb});
    m_station = std::make_unique<Child>();
    if (auto e = m_station->start(args, m_dir / "station.out", m_dir / "station.err"); !e.empty()) {
        m_station.reset();
        return e;
    }
    if (auto e = waitForSources(*m_station, profile, ports, m_dir / "station.err"); !e.empty()) {
        m_station.reset();
        return e;
    }
    return {};
}

std::string LocalStationHost::stop(std::uint64_t expected, StationOutcome& out)
{
    out = StationOutcome{};
    if (!m_station)
        return "no station is running";
    catchUp(expected);
    if (auto e = endStation(SIGINT, "the station", out); !e.empty())
        return e;
    out.events = tallyEvents(readFile(m_dir / "events.jsonl"));
    out.summary = Json::parse(readFile(m_dir / "station.json"), nullptr, false);
    if (out.summary.is_discarded())
        out.summary = Json();
    removeDirectories();
    if (out.exitCode != 0 && out.exitCode != 3)
        return "the station failed (it " + m_exit + "):\n" + out.err;
    if (out.summary.is_null() || !member(out.summary, "streams").is_array())
        return "the station wrote no summary:\n" + out.err;
    return {};
}

// ---- RemoteStationHost --------------------------------------------------------------------------------

std::unique_ptr<RemoteStationHost> RemoteStationHost::connect(const std::string& hostPort, std::string& error)
{
    std::string host, port;
    if (!splitHostPort(hostPort, host, port)) {
        error = "--station takes HOST:PORT, not '" + hostPort + "'";
        return nullptr;
    }
    addrinfo hints{};
    hints.ai_family = AF_UNSPEC;
    hints.ai_socktype = SOCK_STREAM;
    addrinfo* found = nullptr;
    if (const int rc = ::getaddrinfo(host.c_str(), port.c_str(), &hints, &found); rc != 0) {
        error = hostPort + ": " + ::gai_strerror(rc);
        return nullptr;
    }
    int fd = -1;
    for (addrinfo* a = found; a && fd < 0; a = a->ai_next) {
        fd = ::socket(a->ai_family, a->ai_socktype | SOCK_CLOEXEC, a->ai_protocol);
        if (fd >= 0 && ::connect(fd, a->ai_addr, a->ai_addrlen) != 0) {
            error = systemError("cannot connect to the agent at " + hostPort);
            ::close(fd);
            fd = -1;
        }
    }
    ::freeaddrinfo(found);
    if (fd < 0)
        return nullptr;
    std::unique_ptr<RemoteStationHost> remote(new RemoteStationHost(fd, host));
    const auto reply = remote->request({{"op", "address"}}, 10, error);
    if (!reply)
        return nullptr;
    remote->m_peer = reply->value("peer", std::string());
    if (remote->m_peer.empty()) {
        error = "the agent at " + hostPort + " did not say this machine's address";
        return nullptr;
    }
    return remote;
}

RemoteStationHost::~RemoteStationHost()
{
    if (m_fd >= 0)
        ::close(m_fd);
}

std::optional<Json> RemoteStationHost::request(const Json& message, double timeoutSeconds, std::string& error)
{
    if (!sendAll(m_fd, message.dump() + "\n")) {
        error = systemError("the agent connection");
        return std::nullopt;
    }
    std::string line;
    if (!readLine(m_fd, m_buffer, line, timeoutSeconds)) {
        error = "no answer from the agent to '" + message.value("op", std::string()) + "'";
        return std::nullopt;
    }
    Json reply = Json::parse(line, nullptr, false);
    if (reply.is_discarded() || !reply.is_object()) {
        error = "the agent's answer is not JSON: " + line.substr(0, 200);
        return std::nullopt;
    }
    if (!reply.value("ok", false)) {
        error = "agent: " + reply.value("error", std::string("failed"));
        return std::nullopt;
    }
    return reply;
}

std::string RemoteStationHost::start(const std::string& tag, Json profile, const std::string& consume,
                                     double safetySeconds, std::vector<std::uint16_t>& ports)
{
    std::string error;
    const auto reply = request({{"op", "start"}, {"tag", tag}, {"profile", profile}, {"consume", consume},
                                {"safetySeconds", safetySeconds}},
                               60, error);
    if (!reply)
        return error;
    ports.clear();
    for (const auto& p : member(*reply, "ports"))
        ports.push_back(p.get<std::uint16_t>());
    return {};
}

std::optional<StationSample> RemoteStationHost::sample()
{
    std::string error;
    const auto reply = request({{"op", "sample"}}, 30, error);
    if (!reply)
        return std::nullopt;
    return StationSample{u64(*reply, "rssBytes"), reply->value("cpuSeconds", 0.0), u64(*reply, "received")};
}

std::string RemoteStationHost::stop(std::uint64_t expected, StationOutcome& out)
{
    out = StationOutcome{};
    std::string error;
    const auto reply = request({{"op", "stop"}, {"expected", expected}}, 300, error);
    if (!reply)
        return error;
    out.exitCode = reply->value("exit", -1);
    out.cpuSeconds = reply->value("cpuSeconds", 0.0);
    out.wallSeconds = reply->value("wallSeconds", 0.0);
    out.summary = member(*reply, "summary");
    out.out = reply->value("out", std::string());
    out.err = reply->value("err", std::string());
    for (const auto& [key, map] : {std::pair{"threads", &out.threadCpu}, std::pair{"threadsUser", &out.threadUserCpu}})
        for (const auto& [name, seconds] : member(*reply, key).items())
            if (seconds.is_number())
                (*map)[name] = seconds.get<double>();
    out.events = eventTallyFromJson(member(*reply, "events"));
    return {};
}

DiskReference RemoteStationHost::measureDisk()
{
    std::string error;
    const auto reply = request({{"op", "disk"}}, 600, error);
    if (!reply) {
        DiskReference d;
        d.error = error;
        return d;
    }
    return diskFromJson(member(*reply, "disk"));
}

// ---- the agent ----------------------------------------------------------------------------------------

namespace {

volatile sig_atomic_t g_agentStop = 0;

void onAgentSignal(int)
{
    g_agentStop = 1;
}

Json failure(const std::string& error)
{
    return {{"ok", false}, {"error", error}};
}

// Serves one connection until it ends.
void serveConnection(int fd, const RunOptions& options, const std::string& bindAddress)
{
    LocalStationHost host(options, bindAddress);
    std::string buffer, line;
    while (!g_agentStop && readLine(fd, buffer, line, -1, &g_agentStop)) {
        const Json request = Json::parse(line, nullptr, false);
        const std::string op = request.is_object() ? request.value("op", std::string()) : std::string();
        Json reply;
        if (op == "address") {
            sockaddr_storage peer{};
            socklen_t length = sizeof peer;
            ::getpeername(fd, reinterpret_cast<sockaddr*>(&peer), &length);
            reply = {{"ok", true}, {"peer", addressText(peer)}};
        } else if (op == "start") {
            std::vector<std::uint16_t> ports;
            const std::string tag = request.value("tag", std::string("run"));
            const bool safeTag = !tag.empty() && std::all_of(tag.begin(), tag.end(), [](char c) {
                return std::isalnum(static_cast<unsigned char>(c)) || c == '-' || c == '.' || c == '_';
            });
            const auto e = safeTag ? host.start(tag, member(request, "profile"), request.value("consume", std::string()),
                                                request.value("safetySeconds", 600.0), ports)
                                   : std::string("a tag of letters, digits, '-', '.' and '_' only");
            reply = e.empty() ? Json{{"ok", true}, {"ports", ports}} : failure(e);
            std::printf("agent: start %s: %s\n", tag.c_str(), e.empty() ? "running" : e.c_str());
        } else if (op == "sample") {
            const auto s = host.sample();
            reply = s ? Json{{"ok", true}, {"rssBytes", s->rssBytes}, {"cpuSeconds", s->cpuSeconds}, {"received", s->received}}
                      : failure("no station is running");
        } else if (op == "stop") {
            StationOutcome out;
            const auto e = host.stop(request.value("expected", std::uint64_t{0}), out);
            reply = e.empty() ? Json{{"ok", true}, {"exit", out.exitCode}, {"cpuSeconds", out.cpuSeconds},
                                     {"wallSeconds", out.wallSeconds}, {"summary", out.summary}, {"out", out.out},
                                     {"err", out.err}, {"threads", out.threadCpu}, {"threadsUser", out.threadUserCpu},
                                     {"events", toJson(out.events)}}
                              : failure(e);
            std::printf("agent: stop: %s\n", e.empty() ? ("exit " + std::to_string(out.exitCode)).c_str() : e.c_str());
        } else if (op == "disk") {
            reply = {{"ok", true}, {"disk", diskJson(host.measureDisk())}};
        } else {
            reply = failure("unknown request '" + op + "' (address, start, sample, stop, disk)");
        }
        std::fflush(stdout);
        if (!sendAll(fd, reply.dump() + "\n"))
            break;
    }
    StationOutcome ignored;
    (void)host.stop(0, ignored); // a station left running by a vanished driver
}

} // namespace

int runAgent(const RunOptions& options, const std::string& listen, int connections)
{
    std::string host, port;
    if (!splitHostPort(listen, host, port)) {
        std::fprintf(stderr, "telestation-perf agent: --listen takes ADDRESS:PORT, not '%s'\n", listen.c_str());
        return 2;
    }
    addrinfo hints{};
    hints.ai_family = AF_UNSPEC;
    hints.ai_socktype = SOCK_STREAM;
    hints.ai_flags = AI_PASSIVE | AI_NUMERICHOST;
    addrinfo* found = nullptr;
    if (const int rc = ::getaddrinfo(host.c_str(), port.c_str(), &hints, &found); rc != 0) {
        std::fprintf(stderr, "telestation-perf agent: %s: %s\n", listen.c_str(), ::gai_strerror(rc));
        return 2;
    }
    const int server = ::socket(found->ai_family, SOCK_STREAM | SOCK_CLOEXEC, 0);
    const int on = 1;
    ::setsockopt(server, SOL_SOCKET, SO_REUSEADDR, &on, sizeof on);
    const bool bound = server >= 0 && ::bind(server, found->ai_addr, found->ai_addrlen) == 0 && ::listen(server, 4) == 0;
    ::freeaddrinfo(found);
    if (!bound) {
        std::fprintf(stderr, "telestation-perf agent: %s\n", systemError("cannot listen on " + listen).c_str());
        if (server >= 0)
            ::close(server);
        return 1;
    }
    sockaddr_storage local{};
    socklen_t length = sizeof local;
    ::getsockname(server, reinterpret_cast<sockaddr*>(&local), &length);
    const unsigned localPort = local.ss_family == AF_INET6 ? ntohs(reinterpret_cast<sockaddr_in6&>(local).sin6_port)
                                                           : ntohs(reinterpret_cast<sockaddr_in&>(local).sin_port);
    std::printf("listening on %s:%u\n", host.c_str(), localPort);
    std::fflush(stdout);

    struct sigaction action{};
    action.sa_handler = onAgentSignal;
    ::sigaction(SIGINT, &action, nullptr);
    ::sigaction(SIGTERM, &action, nullptr);
    // The stations bind the address the agent listens on (all of them for 0.0.0.0 / ::).
    const std::string bindAddress = host == "::" ? "0.0.0.0" : host;
    int served = 0;
    while (!g_agentStop && (connections <= 0 || served < connections)) {
        pollfd p{server, POLLIN, 0};
        if (::poll(&p, 1, 200) <= 0)
            continue;
        const int fd = ::accept4(server, nullptr, nullptr, SOCK_CLOEXEC);
        if (fd < 0)
            continue;
        serveConnection(fd, options, bindAddress);
        ::close(fd);
        ++served;
    }
    ::close(server);
    return 0;
}

} // namespace telestation::perf
