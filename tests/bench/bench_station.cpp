// Station benchmark (issue 4): runs the training simulator and a headless station as two processes
// over loopback UDP, at rising rates, and finds for each way of handling packets the highest rate the
// station takes with 100% delivery:
//
//   passthru  pass thru, a consumer pulling every packet           (--consume packets)
//   record    pass thru + record                                   (--recordings DIR)
//   forward   pass thru + forward to a UDP socket this program drains with recvmmsg
//   process   process entire packet, a consumer pulling every parameter (--consume parameters)
//
// 100% delivery: the station received every packet the simulator sent, exited 0 (nothing lost,
// dropped or malformed anywhere), processed every one, and — per mode — its consumer got every
// packet / every parameter, it recorded every one, or every one arrived at the forward socket.
// Every mode passes each packet through the process queue too (the processor delivers pass thru
// packets), so a drop there is loss in every mode. Prints one line per run (what was lost where, when
// something was, and how much CPU other programs took meanwhile) and a table of the best rates.
// CPU % = the child's user + system time (wait4) over the simulator's sending time; 100 = one core.
// Not a test: run it from a release build.
//
//   build/release/bin/bench_station [--modes passthru,record,forward,process] [--rates 250,500,...]
//       [--seconds S] [--record-dir DIR] [--bin-dir DIR] [--queues JSON] [--quick] [--max-failures N]
//       [--keep] [--packet NAME] [--mdb FILE]
#include "tests/bench/bench_support.hpp"
#include "sim/core/sim_summary.hpp"

#include <nlohmann/json.hpp>

#include <arpa/inet.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <netinet/udp.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <ctime>
#include <filesystem>
#include <fstream>
#include <optional>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

using namespace telestation;
namespace fs = std::filesystem;
using Json = nlohmann::json;
using Clock = std::chrono::steady_clock;

namespace {

constexpr const char* kProgram = "bench_station";

enum class Mode { PassThru, Record, Forward, Process };

struct ModeInfo {
    Mode mode;
    const char* option; // as written in --modes
    const char* title;  // in the output
};

constexpr ModeInfo kModes[] = {
    {Mode::PassThru, "passthru", "pass thru"},
    {Mode::Record, "record", "record"},
    {Mode::Forward, "forward", "forward"},
    {Mode::Process, "process", "process entire packet"},
};

double secondsSince(Clock::time_point start)
{
    return std::chrono::duration<double>(Clock::now() - start).count();
}

void sleepMs(int ms)
{
    std::this_thread::sleep_for(std::chrono::milliseconds(ms));
}

std::vector<std::string> splitList(const std::string& text)
{
    std::vector<std::string> parts;
    std::string item;
    std::istringstream in(text);
    while (std::getline(in, item, ','))
        if (!item.empty())
            parts.push_back(item);
    return parts;
}

// A rate in Mbit/s as a number the simulator's --rate takes: digits with an optional fraction, no exponent.
std::string rateNumber(double mbps)
{
    char text[64];
    std::snprintf(text, sizeof text, "%.3f", mbps);
    std::string s = text;
    while (s.back() == '0')
        s.pop_back();
    if (s.back() == '.')
        s.pop_back();
    return s;
}

std::string rateText(double mbps)
{
    return rateNumber(mbps) + "Mbps";
}

std::string readFile(const fs::path& path)
{
    std::ifstream in(path, std::ios::binary);
    std::ostringstream out;
    out << in.rdbuf();
    return out.str();
}

// The filesystem a directory is on, from the longest mount point in /proc/self/mounts that contains it.
std::string filesystemOf(const fs::path& dir)
{
    std::error_code ec;
    const std::string path = fs::canonical(dir, ec).string();
    std::ifstream mounts("/proc/self/mounts");
    std::string line;
    std::string best, bestType, bestDevice;
    while (std::getline(mounts, line)) {
        std::istringstream fields(line);
        std::string device, mountPoint, type;
        if (!(fields >> device >> mountPoint >> type))
            continue;
        const bool contains = mountPoint == "/" || path == mountPoint
            || (path.size() > mountPoint.size() && path.compare(0, mountPoint.size(), mountPoint) == 0
                && path[mountPoint.size()] == '/');
        if (contains && mountPoint.size() >= best.size()) {
            best = mountPoint;
            bestType = type;
            bestDevice = device;
        }
    }
    if (best.empty())
        return "unknown filesystem";
    return bestType + " (" + bestDevice + " on " + best + ")";
}

// CPU seconds the whole machine has spent busy since boot (all CPUs; /proc/stat, idle and iowait
// excluded), and this process's own CPU seconds: what other programs used during a run is the
// difference, a measure of how noisy the run's figures are.
double machineBusySeconds()
{
    std::ifstream stat("/proc/stat");
    std::string cpu;
    unsigned long long user = 0, nice = 0, system = 0, idle = 0, iowait = 0, irq = 0, softirq = 0, steal = 0;
    if (!(stat >> cpu >> user >> nice >> system >> idle >> iowait >> irq >> softirq >> steal) || cpu != "cpu")
        return 0;
    return double(user + nice + system + irq + softirq + steal) / double(::sysconf(_SC_CLK_TCK));
}

double selfCpuSeconds()
{
    rusage usage{};
    ::getrusage(RUSAGE_SELF, &usage);
    return double(usage.ru_utime.tv_sec) + double(usage.ru_utime.tv_usec) / 1e6 + double(usage.ru_stime.tv_sec)
        + double(usage.ru_stime.tv_usec) / 1e6;
}

// The machine's UDP error counters (/proc/net/snmp): datagrams the kernel dropped for want of room in a
// receive buffer, and sends that failed for want of buffer. Machine-wide — other programs' sockets
// count too — but they confirm or rule out the kernel when the station's own counters do not add up
// (a dropped GSO/GRO buffer counts once in the socket's own drop counter, however many packets it held).
struct UdpErrors {
    std::uint64_t receiveBuffer = 0;
    std::uint64_t sendBuffer = 0;
};

UdpErrors udpErrors()
{
    std::ifstream snmp("/proc/net/snmp");
    std::string names, values;
    while (std::getline(snmp, names)) {
        if (names.rfind("Udp:", 0) != 0 || !std::getline(snmp, values))
            continue;
        std::istringstream n(names), v(values);
        std::string name, value;
        UdpErrors out;
        while (n >> name && v >> value) {
            if (name == "RcvbufErrors")
                out.receiveBuffer = std::strtoull(value.c_str(), nullptr, 10);
            if (name == "SndbufErrors")
                out.sendBuffer = std::strtoull(value.c_str(), nullptr, 10);
        }
        return out;
    }
    return {};
}

// --- child processes ----------------------------------------------------------------------------

struct Exit {
    int code = -1;            // exit status, or 128 + signal
    double cpuSeconds = 0;    // user + system, from wait4
    double wallSeconds = 0;   // spawn to exit
};

class Child {
public:
    Child() = default;
    Child(const Child&) = delete;
    Child& operator=(const Child&) = delete;
    // Kills a child that is still running when the benchmark gives up on it (error paths).
    ~Child()
    {
        if (m_pid > 0) {
            ::kill(m_pid, SIGKILL);
            ::waitpid(m_pid, nullptr, 0);
        }
    }

    // Starts args[0] with stdout and stderr into files (the station prints its summary table there).
    [[nodiscard]] bool start(const std::vector<std::string>& args, const fs::path& out, const fs::path& err)
    {
        std::vector<char*> argv;
        for (const auto& a : args)
            argv.push_back(const_cast<char*>(a.c_str())); // posix_spawn's signature; it does not write
        argv.push_back(nullptr);
        posix_spawn_file_actions_t actions;
        posix_spawn_file_actions_init(&actions);
        posix_spawn_file_actions_addopen(&actions, STDOUT_FILENO, out.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
        posix_spawn_file_actions_addopen(&actions, STDERR_FILENO, err.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
        m_started = Clock::now();
        const int rc = ::posix_spawn(&m_pid, args[0].c_str(), &actions, nullptr, argv.data(), environ);
        posix_spawn_file_actions_destroy(&actions);
        if (rc != 0) {
            std::fprintf(stderr, "%s: cannot start %s: %s\n", kProgram, args[0].c_str(), std::strerror(rc));
            m_pid = -1;
            return false;
        }
        return true;
    }

    [[nodiscard]] bool running() const noexcept { return m_pid > 0; }
    void sendSignal(int sig) const
    {
        if (m_pid > 0)
            ::kill(m_pid, sig);
    }

    // Reaps the child if it has exited (waiting up to `timeoutSeconds`); nothing while it still runs.
    [[nodiscard]] std::optional<Exit> wait(double timeoutSeconds)
    {
        const auto deadline = Clock::now() + std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(timeoutSeconds));
        for (;;) {
            int status = 0;
            rusage usage{};
            const pid_t r = ::wait4(m_pid, &status, WNOHANG, &usage);
            if (r == m_pid) {
                m_pid = -1;
                Exit e;
                e.code = WIFEXITED(status) ? WEXITSTATUS(status) : WIFSIGNALED(status) ? 128 + WTERMSIG(status) : -1;
                e.cpuSeconds = double(usage.ru_utime.tv_sec) + double(usage.ru_utime.tv_usec) / 1e6
                    + double(usage.ru_stime.tv_sec) + double(usage.ru_stime.tv_usec) / 1e6;
                e.wallSeconds = secondsSince(m_started);
                return e;
            }
            if (r < 0 && errno != EINTR)
                return std::nullopt;
            if (Clock::now() >= deadline)
                return std::nullopt;
            sleepMs(5);
        }
    }

private:
    pid_t m_pid = -1;
    Clock::time_point m_started;
};

// A free loopback UDP port: bound to port 0, read back, closed. Another program could take it before
// the station does; the station would then fail to start and the run says so.
std::uint16_t freeUdpPort()
{
    const int fd = ::socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
    sockaddr_in addr{};
    addr.sin_family = AF_INET;
    addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    socklen_t len = sizeof addr;
    std::uint16_t port = 0;
    if (fd >= 0 && ::bind(fd, reinterpret_cast<sockaddr*>(&addr), sizeof addr) == 0
        && ::getsockname(fd, reinterpret_cast<sockaddr*>(&addr), &len) == 0)
        port = ntohs(addr.sin_port);
    if (fd >= 0)
        ::close(fd);
    return port;
}

// Whether some socket is bound to this UDP port, from /proc/net/udp (local address "0100007F:1F90").
// Reading the table, rather than trying to bind the port, cannot get in the station's way.
bool udpPortBound(std::uint16_t port)
{
    std::ifstream table("/proc/net/udp");
    std::string line;
    std::getline(table, line); // header
    while (std::getline(table, line)) {
        std::istringstream fields(line);
        std::string slot, local;
        if (!(fields >> slot >> local))
            continue;
        const auto colon = local.find(':');
        if (colon == std::string::npos)
            continue;
        if (std::strtoul(local.c_str() + colon + 1, nullptr, 16) == port)
            return true;
    }
    return false;
}

// --- the forward destination --------------------------------------------------------------------

// Counts what the station forwards: a UDP socket drained with recvmmsg on its own thread. UDP GRO, when
// the kernel has it, hands over runs of equal-sized datagrams as one buffer, which keeps this thread's
// share of the two cores small; the segment size says how many packets a buffer holds.
class ForwardDrain {
public:
    ~ForwardDrain() { stop(); }

    [[nodiscard]] bool open()
    {
        m_fd = ::socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
        if (m_fd < 0)
            return false;
        const int size = 64 * 1024 * 1024;
        if (::setsockopt(m_fd, SOL_SOCKET, SO_RCVBUFFORCE, &size, sizeof size) != 0)
            ::setsockopt(m_fd, SOL_SOCKET, SO_RCVBUF, &size, sizeof size);
        const int on = 1;
        m_gro = ::setsockopt(m_fd, SOL_UDP, UDP_GRO, &on, sizeof on) == 0;
        sockaddr_in addr{};
        addr.sin_family = AF_INET;
        addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
        socklen_t len = sizeof addr;
        if (::bind(m_fd, reinterpret_cast<sockaddr*>(&addr), sizeof addr) != 0
            || ::getsockname(m_fd, reinterpret_cast<sockaddr*>(&addr), &len) != 0)
            return false;
        m_port = ntohs(addr.sin_port);
        m_stop = false;
        m_thread = std::thread([this] { run(); });
        return true;
    }
    void stop()
    {
        m_stop = true;
        if (m_thread.joinable())
            m_thread.join();
        if (m_fd >= 0)
            ::close(m_fd);
        m_fd = -1;
    }
    [[nodiscard]] std::uint16_t port() const noexcept { return m_port; }
    [[nodiscard]] std::uint64_t packets() const noexcept { return m_packets.load(); }
    [[nodiscard]] std::uint64_t bytes() const noexcept { return m_bytes.load(); }

private:
    static constexpr int kBatch = 64;
    static constexpr std::size_t kBufferBytes = 65536;
    static constexpr std::size_t kControlBytes = CMSG_SPACE(sizeof(int)) + 16;

    void run()
    {
        std::vector<std::uint8_t> buffers(kBatch * kBufferBytes);
        std::vector<iovec> iov(kBatch);
        std::vector<mmsghdr> msgs(kBatch);
        // alignas: the control buffer is read through cmsghdr.
        struct alignas(cmsghdr) Control {
            unsigned char bytes[kControlBytes];
        };
        std::vector<Control> control(kBatch);
        while (!m_stop.load(std::memory_order_relaxed)) {
            pollfd p{m_fd, POLLIN, 0};
            if (::poll(&p, 1, 20) <= 0)
                continue;
            for (int i = 0; i < kBatch; ++i) {
                iov[std::size_t(i)] = {buffers.data() + std::size_t(i) * kBufferBytes, kBufferBytes};
                msgs[std::size_t(i)] = {};
                msgs[std::size_t(i)].msg_hdr.msg_iov = &iov[std::size_t(i)];
                msgs[std::size_t(i)].msg_hdr.msg_iovlen = 1;
                msgs[std::size_t(i)].msg_hdr.msg_control = control[std::size_t(i)].bytes;
                msgs[std::size_t(i)].msg_hdr.msg_controllen = kControlBytes;
            }
            const int n = ::recvmmsg(m_fd, msgs.data(), kBatch, MSG_DONTWAIT, nullptr);
            if (n <= 0)
                continue;
            std::uint64_t packets = 0, bytes = 0;
            for (int i = 0; i < n; ++i) {
                const std::uint64_t length = msgs[std::size_t(i)].msg_len;
                const int segment = m_gro ? segmentSize(msgs[std::size_t(i)].msg_hdr) : 0;
                packets += segment > 0 ? (length + std::uint64_t(segment) - 1) / std::uint64_t(segment) : 1;
                bytes += length;
            }
            m_packets.fetch_add(packets, std::memory_order_relaxed);
            m_bytes.fetch_add(bytes, std::memory_order_relaxed);
        }
    }
    static int segmentSize(msghdr& h)
    {
        for (cmsghdr* c = CMSG_FIRSTHDR(&h); c; c = CMSG_NXTHDR(&h, c))
            if (c->cmsg_level == SOL_UDP && c->cmsg_type == UDP_GRO && c->cmsg_len >= CMSG_LEN(sizeof(int))) {
                int segment = 0;
                std::memcpy(&segment, CMSG_DATA(c), sizeof segment);
                return segment;
            }
        return 0;
    }

    int m_fd = -1;
    bool m_gro = false;
    std::uint16_t m_port = 0;
    std::atomic<bool> m_stop{false};
    std::atomic<std::uint64_t> m_packets{0}, m_bytes{0};
    std::thread m_thread;
};

// --- one run ------------------------------------------------------------------------------------

struct Config {
    fs::path binDir;
    fs::path workDir;   // profiles, summaries, logs
    fs::path recordDir; // recordings go into a fresh subdirectory per run
    std::string mdb;    // "" = the training database
    std::string packetName;
    Json queues;        // the profile's "queues" object; null = the defaults
    std::uint16_t apid = 0;
    std::uint64_t parametersPerPacket = 0;
    double seconds = 3;
    bool keep = false;
};

struct Run {
    const ModeInfo* mode = nullptr;
    double requestedMbps = 0;
    bool ok = false;
    std::string failure;    // what was missing where
    std::string note;       // queue high-water marks and the like
    // Simulator
    std::uint64_t sent = 0, sentBytes = 0;
    double sendSeconds = 0, mbps = 0, packetsPerSecond = 0;
    // Station
    int stationExit = -1;
    std::uint64_t received = 0, parameters = 0;
    double stationCpu = 0, simCpu = 0; // seconds
    double otherCpuPercent = 0;        // other programs on the machine during the run (100 = one core)
    [[nodiscard]] double parametersPerSecond() const { return sendSeconds > 0 ? double(parameters) / sendSeconds : 0; }
    [[nodiscard]] double stationCpuPercent() const { return sendSeconds > 0 ? 100 * stationCpu / sendSeconds : 0; }
    [[nodiscard]] double simCpuPercent() const { return sendSeconds > 0 ? 100 * simCpu / sendSeconds : 0; }
};

// A member of a JSON object, or null: const operator[] must not be used on a key that may be missing.
const Json& member(const Json& object, const char* key)
{
    static const Json kNull;
    if (!object.is_object())
        return kNull;
    const auto it = object.find(key);
    return it == object.end() ? kNull : *it;
}

std::uint64_t u64(const Json& object, const char* key)
{
    if (!object.is_object())
        return 0;
    const auto it = object.find(key);
    return it != object.end() && it->is_number_unsigned() ? it->get<std::uint64_t>() : 0;
}

// The last complete line of the station's --stats-out file: its received count so far.
std::optional<std::uint64_t> receivedSoFar(const fs::path& statsFile)
{
    std::string text = readFile(statsFile);
    while (!text.empty() && text.back() != '\n') // a line still being written
        text.pop_back();
    if (text.empty())
        return std::nullopt;
    text.pop_back();
    const auto start = text.rfind('\n');
    const Json j = Json::parse(start == std::string::npos ? text : text.substr(start + 1), nullptr, false);
    if (j.is_discarded() || !j.contains("totals"))
        return std::nullopt;
    return u64(member(j, "totals"), "packetsReceived");
}

void addProblem(std::string& out, const std::string& what, std::uint64_t count)
{
    if (count == 0)
        return;
    if (!out.empty())
        out += ", ";
    out += what + " " + std::to_string(count);
}

void addMismatch(std::string& out, const std::string& what, std::uint64_t got, std::uint64_t expected)
{
    if (got == expected)
        return;
    if (!out.empty())
        out += ", ";
    out += what + " " + std::to_string(got) + " of " + std::to_string(expected);
}

// Returns false when the benchmark cannot go on (a program missing or refusing its options).
bool runOnce(const Config& config, const ModeInfo& mode, double mbps, Run& run)
{
    run.mode = &mode;
    run.requestedMbps = mbps;
    const std::string tag = std::string(mode.option) + "-" + rateText(mbps);
    const fs::path dir = config.workDir / tag;
    const fs::path recordings = config.recordDir / ("bench_station-" + tag);
    std::error_code ec;
    fs::remove_all(dir, ec);
    fs::remove_all(recordings, ec);
    fs::create_directories(dir / "logs", ec);

    ForwardDrain drain;
    if (mode.mode == Mode::Forward && !drain.open()) {
        std::fprintf(stderr, "%s: cannot open the forward socket: %s\n", kProgram, std::strerror(errno));
        return false;
    }
    const std::uint16_t port = freeUdpPort();
    Json packet = {{"apid", config.apid}, {"mode", mode.mode == Mode::Process ? "processEntirePacket" : "passThru"}};
    if (mode.mode == Mode::Record)
        packet["record"] = true;
    if (mode.mode == Mode::Forward)
        packet["forward"] = Json::array({"udp://127.0.0.1:" + std::to_string(drain.port())});
    Json profile = {{"streams", Json::array({{{"name", "bench"},
                                              {"source", "udp://127.0.0.1:" + std::to_string(port)},
                                              {"packets", Json::array({packet})}}})}};
    if (!config.queues.is_null())
        profile["queues"] = config.queues;
    {
        std::ofstream out(dir / "profile.json");
        out << profile.dump(2) << '\n';
    }

    // The station: stopped with SIGINT once it has everything; --duration only as a safety net.
    std::vector<std::string> stationArgs = {(config.binDir / "telestation").string(), "--headless",
        "--profile", (dir / "profile.json").string(), "--duration", std::to_string(config.seconds + 120),
        "--summary-out", (dir / "station.json").string(), "--stats-out", (dir / "stats.jsonl").string(),
        "--stats-interval", "0.1", "--quiet", "--recordings", recordings.string(), "--log-dir", (dir / "logs").string()};
    if (mode.mode == Mode::PassThru)
        stationArgs.insert(stationArgs.end(), {"--consume", "packets"});
    if (mode.mode == Mode::Process)
        stationArgs.insert(stationArgs.end(), {"--consume", "parameters"});
    if (!config.mdb.empty())
        stationArgs.insert(stationArgs.end(), {"--mdb", config.mdb});
    const UdpErrors udpBefore = udpErrors();
    const double busyBefore = machineBusySeconds();
    const double selfBefore = selfCpuSeconds();
    Child station;
    if (!station.start(stationArgs, dir / "station.out", dir / "station.err"))
        return false;
    const auto bindDeadline = Clock::now() + std::chrono::seconds(15);
    while (!udpPortBound(port)) {
        if (auto e = station.wait(0)) {
            std::fprintf(stderr, "%s: the station exited (%d) before it bound port %u:\n%s", kProgram, e->code,
                         unsigned(port), readFile(dir / "station.err").c_str());
            return false;
        }
        if (Clock::now() >= bindDeadline) {
            std::fprintf(stderr, "%s: the station did not bind port %u within 15 s\n", kProgram, unsigned(port));
            return false;
        }
        sleepMs(10);
    }

    std::vector<std::string> simArgs = {(config.binDir / "telestation-sim").string(), "--headless", "--dest",
        "udp://127.0.0.1:" + std::to_string(port), "--packet", config.packetName, "--rate", rateText(mbps),
        "--duration", std::to_string(config.seconds), "--summary-out", (dir / "sim.json").string()};
    if (!config.mdb.empty())
        simArgs.insert(simArgs.end(), {"--mdb", config.mdb});
    Child sim;
    if (!sim.start(simArgs, dir / "sim.out", dir / "sim.err"))
        return false;
    auto simExit = sim.wait(config.seconds + 60);
    if (!simExit) {
        sim.sendSignal(SIGINT);
        simExit = sim.wait(10);
    }
    if (!simExit || simExit->code != 0) {
        std::fprintf(stderr, "%s: the simulator failed (%d):\n%s", kProgram, simExit ? simExit->code : -1,
                     readFile(dir / "sim.err").c_str());
        return false;
    }
    auto simSummary = sim::summaryFromJson(readFile(dir / "sim.json"));
    if (!simSummary) {
        std::fprintf(stderr, "%s: %s: %s\n", kProgram, (dir / "sim.json").c_str(), simSummary.error().message.c_str());
        return false;
    }
    const sim::StreamSummary total = simSummary->total();
    run.sent = total.sent.packets;
    run.sentBytes = total.sent.bytes;
    run.sendSeconds = total.seconds;
    run.mbps = total.bitsPerSecond / 1e6;
    run.packetsPerSecond = total.packetsPerSecond;
    run.simCpu = simExit->cpuSeconds;

    // Let the station catch up with what is still in its socket: until it has received everything the
    // simulator sent, or its count has not moved for 1.5 s (the rest was lost; a starved station can pause that long).
    {
        std::uint64_t last = 0;
        auto lastChange = Clock::now();
        const auto deadline = Clock::now() + std::chrono::seconds(30);
        while (Clock::now() < deadline) {
            const auto now = receivedSoFar(dir / "stats.jsonl");
            if (now && *now >= run.sent)
                break;
            if (now && *now != last) {
                last = *now;
                lastChange = Clock::now();
            } else if (secondsSince(lastChange) > 1.5) {
                break;
            }
            sleepMs(20);
        }
    }
    station.sendSignal(SIGINT);
    auto stationExit = station.wait(60);
    if (!stationExit) {
        std::fprintf(stderr, "%s: the station did not stop within 60 s of SIGINT\n", kProgram);
        return false;
    }
    run.stationExit = stationExit->code;
    run.stationCpu = stationExit->cpuSeconds;
    const double others = machineBusySeconds() - busyBefore - (selfCpuSeconds() - selfBefore) - run.stationCpu - run.simCpu;
    run.otherCpuPercent = std::max(0.0, 100 * others / stationExit->wallSeconds);
    if (run.stationExit != 0 && run.stationExit != 3) {
        std::fprintf(stderr, "%s: the station failed (exit %d):\n%s", kProgram, run.stationExit,
                     readFile(dir / "station.err").c_str());
        return false;
    }
    if (mode.mode == Mode::Forward) {
        // The last forwarded datagrams may still be on their way to our socket.
        std::uint64_t last = drain.packets();
        for (int i = 0; i < 50; ++i) {
            sleepMs(20);
            if (drain.packets() == last && last >= run.sent)
                break;
            last = drain.packets();
        }
        drain.stop();
    }

    const Json summary = Json::parse(readFile(dir / "station.json"), nullptr, false);
    if (summary.is_discarded() || !summary.contains("totals") || !member(summary, "streams").is_array()
        || member(summary, "streams").empty()) {
        std::fprintf(stderr, "%s: %s is not a station summary\n", kProgram, (dir / "station.json").c_str());
        return false;
    }
    const Json& totals = member(summary, "totals");
    const Json& stream = member(summary, "streams").front();
    run.received = u64(totals, "packetsReceived");
    run.parameters = u64(totals, "parametersDecoded");

    // Where packets went missing, in the order of the pipeline.
    std::string f;
    addMismatch(f, "received", run.received, run.sent);
    addMismatch(f, "bytes received", u64(totals, "bytesReceived"), run.sentBytes);
    addProblem(f, "kernel drops", u64(stream, "kernelDrops"));
    const UdpErrors udpAfter = udpErrors();
    const std::uint64_t machineReceiveErrors = udpAfter.receiveBuffer - udpBefore.receiveBuffer;
    const std::uint64_t machineSendErrors = udpAfter.sendBuffer - udpBefore.sendBuffer;
    addProblem(f, "pool drops", u64(stream, "poolDrops"));
    addProblem(f, "truncated", u64(stream, "truncatedPackets"));
    addProblem(f, "network queue drops", u64(member(stream, "networkQueue"), "drops"));
    addProblem(f, "process queue drops", u64(member(stream, "processQueue"), "drops"));
    addProblem(f, "record queue drops", u64(member(stream, "recordQueue"), "drops"));
    addProblem(f, "forward queue drops", u64(member(stream, "forwardQueue"), "drops"));
    addProblem(f, "sequence lost", u64(totals, "packetsLost"));
    addProblem(f, "malformed", u64(totals, "malformed"));
    addProblem(f, "record errors", u64(totals, "recordErrors"));
    addProblem(f, "forward errors", u64(totals, "forwardErrors"));
    addMismatch(f, "processed", u64(totals, "packetsProcessed"), run.received);
    for (const auto& consumer : summary.value("consumers", Json::array())) {
        addProblem(f, "consumer queue drops", u64(member(consumer, "queue"), "drops"));
        if (mode.mode == Mode::PassThru)
            addMismatch(f, "consumer got packets", u64(consumer, "delivered"), run.received);
        if (mode.mode == Mode::Process)
            addMismatch(f, "consumer got parameters", u64(consumer, "delivered"), run.received * config.parametersPerPacket);
    }
    if ((mode.mode == Mode::PassThru || mode.mode == Mode::Process) && summary.value("consumers", Json::array()).empty())
        f += std::string(f.empty() ? "" : ", ") + "no consumer in the summary";
    if (mode.mode == Mode::Process)
        addMismatch(f, "parameters decoded", run.parameters, run.received * config.parametersPerPacket);
    if (mode.mode == Mode::Record)
        addMismatch(f, "recorded", u64(totals, "packetsRecorded"), run.received);
    if (mode.mode == Mode::Forward) {
        addMismatch(f, "forwarded", u64(totals, "packetsForwarded"), run.received);
        for (const auto& forward : summary.value("forwards", Json::array()))
            addProblem(f, "not sent", u64(forward, "notSent"));
        addMismatch(f, "arrived at the forward socket", drain.packets(), run.sent);
        addMismatch(f, "forward socket bytes", drain.bytes(), run.sentBytes);
    }
    if (!f.empty() && (machineReceiveErrors != 0 || machineSendErrors != 0))
        f += "; machine-wide UDP receive / send buffer errors " + std::to_string(machineReceiveErrors) + " / "
            + std::to_string(machineSendErrors);
    if (run.stationExit != 0 && f.empty())
        f = "station exit " + std::to_string(run.stationExit) + " (see " + (dir / "station.out").string() + ")";
    run.failure = f;
    run.ok = f.empty() && run.stationExit == 0 && run.sent > 0;

    // How close the queues came to full: the first thing to look at when a higher rate fails.
    auto highWater = [&](const char* queue) { return u64(member(stream, queue), "highWater"); };
    // Every mode goes through the process queue: pass thru packets are delivered by the processor too.
    run.note = "queue high water: network " + std::to_string(highWater("networkQueue")) + ", process "
        + std::to_string(highWater("processQueue"));
    if (mode.mode == Mode::Record)
        run.note += ", record " + std::to_string(highWater("recordQueue"));
    if (mode.mode == Mode::Forward)
        run.note += ", forward " + std::to_string(highWater("forwardQueue"));
    for (const auto& consumer : summary.value("consumers", Json::array()))
        run.note += ", consumer " + std::to_string(u64(member(consumer, "queue"), "highWater"));

    if (!config.keep) {
        fs::remove_all(recordings, ec);
        fs::remove_all(dir, ec);
    }
    return true;
}

void printRun(const Run& r)
{
    std::printf("%-22s %7.0f Mbit/s asked  %8.1f Mbit/s %8.0f packets/s", r.mode->title, r.requestedMbps, r.mbps,
                r.packetsPerSecond);
    if (r.mode->mode == Mode::Process)
        std::printf(" %6.2f M parameters/s", r.parametersPerSecond() / 1e6);
    std::printf("  station CPU %3.0f%%  sim CPU %3.0f%%  %s\n", r.stationCpuPercent(), r.simCpuPercent(),
                r.ok ? "100% delivered" : "LOSS");
    if (!r.ok)
        std::printf("    sent %llu: %s\n", static_cast<unsigned long long>(r.sent), r.failure.c_str());
    std::printf("    %s; other programs' CPU during the run %.0f%%\n", r.note.c_str(), r.otherCpuPercent);
    std::fflush(stdout);
}

std::string machineText()
{
    std::ifstream cpuinfo("/proc/cpuinfo");
    std::string line, model;
    while (std::getline(cpuinfo, line))
        if (line.rfind("model name", 0) == 0) {
            model = line.substr(line.find(':') + 2);
            break;
        }
    return model + ", " + std::to_string(std::thread::hardware_concurrency()) + " CPUs";
}

} // namespace

int main(int argc, char** argv)
{
    CommandLine cli(kProgram, "Station throughput with zero loss: simulator and headless station over loopback UDP.");
    cli.addOption("modes", "LIST", "Modes to measure: passthru,record,forward,process (default: all four).");
    cli.addOption("rates", "LIST", "Rates to try in Mbit/s, rising (default 250,500,750,1000,1250,1500,2000,2500,3000,4000,5000,6000).");
    cli.addOption("record-dir", "DIR", "Where the record mode records (a subdirectory per run, removed after it); default: the work directory in /tmp.");
    cli.addOption("bin-dir", "DIR", "Where telestation and telestation-sim are; default: this program's directory.");
    cli.addOption("queues", "JSON", "The profile's queue sizes, e.g. '{\"processedParameterQueueSize\": 8192}' (default: the profile defaults).");
    cli.addOption("max-failures", "N", "Stop a mode after N failed rates in a row (default 2; 0 = try every rate).");
    cli.addFlag("quick", "Two rates (500, 1000 Mbit/s) of 1 s each, unless --rates / --seconds say otherwise.");
    cli.addFlag("keep", "Keep the work directory (profiles, summaries, logs, recordings) for a look afterwards.");
    int exitCode = 0;
    // setUp reads --seconds with a default of 3; --quick makes the default 1.
    const bool quick = std::any_of(argv + 1, argv + argc, [](const char* a) { return std::strcmp(a, "--quick") == 0; });
    auto setup = bench::setUp(cli, kProgram, argc, argv, quick ? 1 : 3, exitCode);
    if (!setup)
        return exitCode;

    std::vector<const ModeInfo*> modes;
    for (const std::string& name : splitList(cli.value("modes", "passthru,record,forward,process"))) {
        const auto it = std::find_if(std::begin(kModes), std::end(kModes), [&](const ModeInfo& m) { return name == m.option; });
        if (it == std::end(kModes)) {
            std::fprintf(stderr, "%s: unknown mode '%s' (passthru, record, forward, process)\n", kProgram, name.c_str());
            return 2;
        }
        modes.push_back(&*it);
    }
    std::vector<double> rates;
    for (const std::string& text : splitList(cli.value("rates", quick ? "500,1000" : "250,500,750,1000,1250,1500,2000,2500,3000,4000,5000,6000"))) {
        char* end = nullptr;
        const double v = std::strtod(text.c_str(), &end);
        if (end != text.c_str() + text.size() || !(v > 0) || !std::isfinite(v)) {
            std::fprintf(stderr, "%s: --rates: '%s' is not a rate in Mbit/s\n", kProgram, text.c_str());
            return 2;
        }
        rates.push_back(v);
    }
    if (modes.empty() || rates.empty()) {
        std::fprintf(stderr, "%s: nothing to measure (empty --modes or --rates)\n", kProgram);
        return 2;
    }
    const auto maxFailures = cli.integer("max-failures", 2);
    if (!maxFailures || *maxFailures < 0) {
        std::fprintf(stderr, "%s: --max-failures needs a whole number >= 0\n", kProgram);
        return 2;
    }

    Config config;
    config.binDir = cli.isSet("bin-dir") ? fs::path(cli.value("bin-dir")) : executableDir();
    config.mdb = cli.value("mdb", "");
    if (cli.isSet("queues")) {
        config.queues = Json::parse(cli.value("queues"), nullptr, false);
        if (config.queues.is_discarded() || !config.queues.is_object()) {
            std::fprintf(stderr, "%s: --queues needs a JSON object (see docs/station-profile.md)\n", kProgram);
            return 2;
        }
    }
    config.packetName = setup->packet->name;
    config.apid = setup->packet->apid;
    config.parametersPerPacket = setup->packet->parameters.size();
    config.seconds = setup->seconds;
    config.keep = cli.isSet("keep");
    for (const char* program : {"telestation", "telestation-sim"})
        if (::access((config.binDir / program).c_str(), X_OK) != 0) {
            std::fprintf(stderr, "%s: no %s in %s (see --bin-dir)\n", kProgram, program, config.binDir.c_str());
            return 1;
        }
    char pattern[] = "/tmp/bench_station-XXXXXX";
    if (!::mkdtemp(pattern)) {
        std::fprintf(stderr, "%s: mkdtemp: %s\n", kProgram, std::strerror(errno));
        return 1;
    }
    config.workDir = pattern;
    config.recordDir = cli.isSet("record-dir") ? fs::path(cli.value("record-dir")) : config.workDir;
    std::error_code ec;
    fs::create_directories(config.recordDir, ec);
    if (ec) {
        std::fprintf(stderr, "%s: %s: %s\n", kProgram, config.recordDir.c_str(), ec.message().c_str());
        return 1;
    }

    std::time_t now = std::time(nullptr);
    char date[32];
    std::strftime(date, sizeof date, "%Y-%m-%d %H:%M", std::localtime(&now));
    std::printf("bench_station %s — %s\n", date, machineText().c_str());
    std::printf("programs: %s; packet %s (APID %u, %u bytes, %llu parameters); %.1f s of sending per run\n",
                config.binDir.c_str(), config.packetName.c_str(), unsigned(config.apid), unsigned(setup->packet->length),
                static_cast<unsigned long long>(config.parametersPerPacket), config.seconds);
    std::printf("work directory: %s\n", config.workDir.c_str());
    std::printf("queues: %s\n", config.queues.is_null() ? "the profile defaults" : config.queues.dump().c_str());
    if (std::any_of(modes.begin(), modes.end(), [](const ModeInfo* m) { return m->mode == Mode::Record; }))
        std::printf("record directory: %s, %s\n", config.recordDir.c_str(), filesystemOf(config.recordDir).c_str());
    std::printf("\n");
    std::fflush(stdout);

    struct Best {
        const ModeInfo* mode;
        std::optional<Run> best;
        std::vector<double> failures; // rates asked that had loss
    };
    std::vector<Best> results;
    int rc = 0;
    for (const ModeInfo* mode : modes) {
        Best b{mode, std::nullopt, {}};
        long long failuresInARow = 0;
        for (const double mbps : rates) {
            Run run;
            if (!runOnce(config, *mode, mbps, run)) {
                rc = 1;
                break;
            }
            printRun(run);
            if (run.ok) {
                failuresInARow = 0;
                if (!b.best || run.mbps > b.best->mbps)
                    b.best = run;
            } else {
                b.failures.push_back(mbps);
                if (++failuresInARow == *maxFailures)
                    break;
            }
        }
        results.push_back(b);
        if (rc != 0)
            break;
    }

    if (rc != 0) { // the reason is on stderr; a table would be incomplete
        if (!config.keep)
            fs::remove_all(config.workDir, ec);
        return rc;
    }
    std::printf("\nHighest rate with 100%% delivery (%s, %.1f s per run; CPU %% over the sending time, 100 = one core):\n\n",
                config.packetName.c_str(), config.seconds);
    std::printf("| mode | Mbit/s | packets/s | parameters/s | station CPU %% | sim CPU %% | rates with loss (Mbit/s asked) |\n");
    std::printf("|---|---|---|---|---|---|---|\n");
    for (const Best& b : results) {
        std::string failed;
        for (const double f : b.failures)
            failed += (failed.empty() ? "" : ", ") + rateNumber(f);
        if (failed.empty())
            failed = "none";
        if (!b.best) {
            std::printf("| %s | none | | | | | %s |\n", b.mode->title, failed.c_str());
            continue;
        }
        const Run& r = *b.best;
        char parameters[32] = "";
        if (b.mode->mode == Mode::Process)
            std::snprintf(parameters, sizeof parameters, "%.2f M", r.parametersPerSecond() / 1e6);
        std::printf("| %s | %.0f | %.0f | %s | %.0f | %.0f | %s |\n", b.mode->title, r.mbps, r.packetsPerSecond, parameters,
                    r.stationCpuPercent(), r.simCpuPercent(), failed.c_str());
    }
    std::fflush(stdout);
    if (!config.keep)
        fs::remove_all(config.workDir, ec);
    else
        std::printf("\nkept: %s\n", config.workDir.c_str());
    return rc;
}
