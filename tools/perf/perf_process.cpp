#include "tools/perf/perf_process.hpp"

#include <arpa/inet.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <netinet/udp.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/statfs.h>
#include <sys/utsname.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <initializer_list>
#include <map>
#include <sstream>
#include <system_error>

extern char** environ;

namespace telestation::perf {

namespace fs = std::filesystem;

double secondsSince(Clock::time_point start)
{
    return std::chrono::duration<double>(Clock::now() - start).count();
}

void sleepMs(int ms)
{
    std::this_thread::sleep_for(std::chrono::milliseconds(ms));
}

std::string readFile(const fs::path& path)
{
    std::ifstream in(path, std::ios::binary);
    std::ostringstream out;
    out << in.rdbuf();
    return out.str();
}

bool writeFile(const fs::path& path, const std::string& text)
{
    std::ofstream out(path, std::ios::binary | std::ios::trunc);
    out << text;
    return static_cast<bool>(out);
}

namespace {

// std::strerror is not thread-safe; the generic category's message is the same text.
std::string systemError(int error)
{
    return std::error_code(error, std::generic_category()).message();
}

// "\040" in /proc/self/mounts is a space in the path, and so on.
std::string unescapeMountField(const std::string& field)
{
    const auto isOctal = [](char c) { return c >= '0' && c <= '7'; };
    std::string text;
    for (std::size_t i = 0; i < field.size(); ++i) {
        if (field[i] == '\\' && i + 3 < field.size() && isOctal(field[i + 1]) && isOctal(field[i + 2])
            && isOctal(field[i + 3])) {
            text.push_back(
                static_cast<char>((field[i + 1] - '0') * 64 + (field[i + 2] - '0') * 8 + (field[i + 3] - '0')));
            i += 3;
        } else {
            text.push_back(field[i]);
        }
    }
    return text;
}

} // namespace

std::string freshDirectory(const fs::path& dir)
{
    std::error_code ec;
    fs::remove_all(dir, ec);
    fs::create_directories(dir, ec);
    return ec ? dir.string() + ": " + ec.message() : std::string();
}

namespace {

// The file system types statfs(2) reports (linux/magic.h) that a station's disk may be.
std::string statfsTypeName(long type)
{
    static const std::map<unsigned long, const char*> names = {
        {0xEF53, "ext2/3/4"}, {0x58465342, "xfs"}, {0x9123683E, "btrfs"}, {0x01021994, "tmpfs"},
        {0x794C7630, "overlay"}, {0x6969, "nfs"}, {0xFF534D42, "cifs"}, {0x2FC12FC1, "zfs"},
        {0x65735546, "fuse"}, {0xF2F52010, "f2fs"}, {0x4D44, "vfat"}, {0x5346544E, "ntfs"},
        {0x3153464A, "jfs"}, {0x52654973, "reiserfs"}, {0x858458F6, "ramfs"}, {0x73717368, "squashfs"},
        {0x01161970, "gfs2"}, {0xCA451A4E, "bcachefs"}, {0x9FA0, "proc"}, {0x62656572, "sysfs"},
    };
    const auto found = names.find(static_cast<unsigned long>(type) & 0xFFFFFFFFul);
    if (found != names.end())
        return found->second;
    char hex[32];
    std::snprintf(hex, sizeof hex, "type 0x%lx", static_cast<unsigned long>(type) & 0xFFFFFFFFul);
    return hex;
}

} // namespace

std::string filesystemOf(const fs::path& dir, const fs::path& mountTable)
{
    std::error_code ec;
    const std::string path = fs::canonical(dir, ec).string();
    std::ifstream mounts(mountTable);
    std::string line, best, bestType, bestDevice;
    while (std::getline(mounts, line)) {
        std::istringstream fields(line);
        std::string device, mountPoint, type;
        if (!(fields >> device >> mountPoint >> type))
            continue;
        device = unescapeMountField(device);
        mountPoint = unescapeMountField(mountPoint);
        const bool contains = mountPoint == "/" || path == mountPoint
            || (path.size() > mountPoint.size() && path.compare(0, mountPoint.size(), mountPoint) == 0
                && path[mountPoint.size()] == '/');
        if (contains && mountPoint.size() >= best.size()) {
            best = mountPoint;
            bestType = type;
            bestDevice = device;
        }
    }
    if (!best.empty())
        return bestType + " (" + bestDevice + " on " + best + ")";
    struct statfs info {};
    const std::string shown = path.empty() ? dir.string() : path;
    if (::statfs(shown.c_str(), &info) != 0)
        return "unknown filesystem (" + shown + ": " + systemError(errno) + ")";
    return statfsTypeName(static_cast<long>(info.f_type)) + " (from statfs, on " + shown + ")";
}

TemporaryDirectory::TemporaryDirectory(const std::string& prefix)
{
    const char* tmp = std::getenv("TMPDIR");
    const std::string parent = tmp != nullptr && *tmp != '\0' ? tmp : "/tmp";
    std::string pattern = parent + "/" + prefix + "XXXXXX";
    if (::mkdtemp(pattern.data()) != nullptr)
        m_path = pattern;
    else
        m_error = "cannot create a temporary directory in " + parent + ": " + systemError(errno);
}

TemporaryDirectory::~TemporaryDirectory()
{
    std::error_code ec;
    if (!m_path.empty())
        fs::remove_all(m_path, ec);
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
    return (model.empty() ? std::string("unknown CPU") : model) + ", " + std::to_string(std::thread::hardware_concurrency())
        + " CPUs";
}

std::string kernelText()
{
    utsname u{};
    if (::uname(&u) != 0)
        return "unknown kernel";
    return std::string(u.sysname) + " " + u.release;
}

double machineBusySeconds()
{
    std::ifstream stat("/proc/stat");
    std::string cpu;
    unsigned long long user = 0, nice = 0, system = 0, idle = 0, iowait = 0, irq = 0, softirq = 0, steal = 0;
    if (!(stat >> cpu >> user >> nice >> system >> idle >> iowait >> irq >> softirq >> steal) || cpu != "cpu")
        return 0;
    return double(user + nice + system + irq + softirq + steal) / double(::sysconf(_SC_CLK_TCK));
}

double machineBusyPercent(double seconds)
{
    const double before = machineBusySeconds();
    const auto start = Clock::now();
    sleepMs(static_cast<int>(seconds * 1000));
    const double cpus = std::max(1u, std::thread::hardware_concurrency());
    return 100 * (machineBusySeconds() - before) / (cpus * std::max(secondsSince(start), 1e-3));
}

double selfCpuSeconds()
{
    rusage usage{};
    ::getrusage(RUSAGE_SELF, &usage);
    return double(usage.ru_utime.tv_sec) + double(usage.ru_utime.tv_usec) / 1e6 + double(usage.ru_stime.tv_sec)
        + double(usage.ru_stime.tv_usec) / 1e6;
}

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

// User + system CPU seconds from /proc/PID/stat or /proc/PID/task/TID/stat: the command name is in
// parentheses and may hold spaces; fields 14 and 15 (utime, stime, in clock ticks) follow the closing
// parenthesis as fields 12 and 13.
namespace {
struct StatCpu {
    double user = 0, system = 0; // seconds
};
std::optional<StatCpu> statCpu(const fs::path& statFile)
{
    const std::string stat = readFile(statFile);
    const auto close = stat.rfind(')');
    if (close == std::string::npos)
        return std::nullopt;
    std::istringstream fields(stat.substr(close + 2));
    std::string field;
    unsigned long long utime = 0, stime = 0;
    for (int i = 3; i <= 15 && (fields >> field); ++i) {
        if (i == 14)
            utime = std::strtoull(field.c_str(), nullptr, 10);
        if (i == 15)
            stime = std::strtoull(field.c_str(), nullptr, 10);
    }
    const double tick = double(::sysconf(_SC_CLK_TCK));
    return StatCpu{double(utime) / tick, double(stime) / tick};
}
} // namespace

std::optional<ProcessSample> sampleProcess(pid_t pid)
{
    const fs::path proc = fs::path("/proc") / std::to_string(pid);
    ProcessSample sample;
    {
        std::ifstream status(proc / "status");
        std::string line;
        bool found = false;
        while (std::getline(status, line))
            if (line.rfind("VmRSS:", 0) == 0) {
                sample.rssBytes = std::strtoull(line.c_str() + 6, nullptr, 10) * 1024; // "VmRSS:   1234 kB"
                found = true;
                break;
            }
        if (!found)
            return std::nullopt;
    }
    const auto cpu = statCpu(proc / "stat");
    if (!cpu)
        return std::nullopt;
    sample.cpuSeconds = cpu->user + cpu->system;
    return sample;
}

ThreadCpuTimes threadCpuSeconds(pid_t pid)
{
    ThreadCpuTimes out;
    std::error_code ec;
    const fs::path tasks = fs::path("/proc") / std::to_string(pid) / "task";
    for (fs::directory_iterator task(tasks, ec), end; !ec && task != end; task.increment(ec)) {
        std::string name = readFile(task->path() / "comm");
        while (!name.empty() && name.back() == '\n')
            name.pop_back();
        // schedstat's first field: nanoseconds on a CPU, exact; stat's ticks where it is missing.
        const auto ticks = statCpu(task->path() / "stat");
        if (name.empty() || !ticks) // a thread that ended meanwhile
            continue;
        std::istringstream schedstat(readFile(task->path() / "schedstat"));
        unsigned long long ns = 0;
        out.seconds[name] += schedstat >> ns ? double(ns) / 1e9 : ticks->user + ticks->system;
        out.userSeconds[name] += ticks->user;
    }
    return out;
}

double loadAverage()
{
    std::ifstream loadavg("/proc/loadavg");
    double oneMinute = 0;
    loadavg >> oneMinute;
    return oneMinute;
}

// ---- Child ----------------------------------------------------------------------------------------

std::string describeExit(const Exit& exit)
{
    if (exit.signal > 0)
        return "was killed by signal " + std::to_string(exit.signal);
    if (exit.code < 0)
        return "ended with an unknown status";
    return "exited with status " + std::to_string(exit.code);
}

Child::~Child()
{
    if (m_pid > 0) {
        ::kill(m_pid, SIGKILL);
        while (::waitpid(m_pid, nullptr, 0) < 0 && errno == EINTR) { }
    }
}

std::string Child::start(const std::vector<std::string>& args, const fs::path& out, const fs::path& err,
                         const std::vector<std::string>& environment)
{
    if (args.empty())
        return "no program to start";
    if (running())
        (void)stop();
    std::vector<char*> argv;
    for (const auto& a : args)
        argv.push_back(const_cast<char*>(a.c_str())); // posix_spawn's signature; it does not write
    argv.push_back(nullptr);
    std::vector<std::string> env;
    std::vector<char*> envp;
    if (!environment.empty()) {
        const auto replaced = [&](const char* entry) {
            for (const auto& e : environment) {
                const auto name = e.substr(0, e.find('=') + 1); // "LC_ALL="
                if (std::strncmp(entry, name.c_str(), name.size()) == 0)
                    return true;
            }
            return false;
        };
        for (char** entry = environ; entry != nullptr && *entry != nullptr; ++entry)
            if (!replaced(*entry))
                env.emplace_back(*entry);
        env.insert(env.end(), environment.begin(), environment.end());
        for (auto& e : env)
            envp.push_back(e.data());
        envp.push_back(nullptr);
    }
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_addopen(&actions, STDIN_FILENO, "/dev/null", O_RDONLY, 0);
    posix_spawn_file_actions_addopen(&actions, STDOUT_FILENO, out.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    if (err == out) // one open file: both streams in the order written, neither over the other
        posix_spawn_file_actions_adddup2(&actions, STDOUT_FILENO, STDERR_FILENO);
    else
        posix_spawn_file_actions_addopen(&actions, STDERR_FILENO, err.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
#if defined(__GLIBC__) && __GLIBC_PREREQ(2, 34)
    posix_spawn_file_actions_addclosefrom_np(&actions, STDERR_FILENO + 1);
#endif
    // The child gets default signal handling and no blocked signals, whatever this process has: stop()
    // relies on SIGTERM.
    posix_spawnattr_t attributes;
    posix_spawnattr_init(&attributes);
    sigset_t none, all;
    sigemptyset(&none);
    sigfillset(&all);
    posix_spawnattr_setsigmask(&attributes, &none);
    posix_spawnattr_setsigdefault(&attributes, &all);
    posix_spawnattr_setflags(&attributes, POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF);
    m_started = Clock::now();
    const int rc = ::posix_spawn(&m_pid, args[0].c_str(), &actions, &attributes, argv.data(),
                                 envp.empty() ? environ : envp.data());
    posix_spawnattr_destroy(&attributes);
    posix_spawn_file_actions_destroy(&actions);
    if (rc != 0) {
        m_pid = -1;
        return "cannot start " + args[0] + ": " + systemError(rc);
    }
    return {};
}

void Child::sendSignal(int sig) const
{
    if (m_pid > 0)
        ::kill(m_pid, sig);
}

std::optional<Exit> Child::wait(double timeoutSeconds)
{
    const auto deadline = Clock::now()
        + std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(timeoutSeconds));
    for (;;) {
        if (m_pid <= 0)
            return std::nullopt;
        int status = 0;
        rusage usage{};
        const pid_t r = ::wait4(m_pid, &status, WNOHANG, &usage);
        if (r == m_pid || (r < 0 && errno == ECHILD)) { // ECHILD: SIGCHLD ignored, the status is gone
            Exit e;
            if (r == m_pid) {
                e.signal = WIFSIGNALED(status) ? WTERMSIG(status) : 0;
                e.code = WIFEXITED(status) ? WEXITSTATUS(status) : e.signal > 0 ? 128 + e.signal : -1;
                e.cpuSeconds = double(usage.ru_utime.tv_sec) + double(usage.ru_utime.tv_usec) / 1e6
                    + double(usage.ru_stime.tv_sec) + double(usage.ru_stime.tv_usec) / 1e6;
            }
            e.wallSeconds = secondsSince(m_started);
            m_pid = -1;
            return e;
        }
        if (r < 0 && errno != EINTR)
            return std::nullopt;
        if (Clock::now() >= deadline)
            return std::nullopt;
        sleepMs(5);
    }
}

std::optional<Exit> Child::stop(double graceSeconds)
{
    if (m_pid <= 0)
        return std::nullopt;
    sendSignal(SIGTERM);
    if (auto e = wait(graceSeconds))
        return e;
    sendSignal(SIGKILL);
    return wait(1e9); // SIGKILL cannot be caught: this returns as soon as the kernel has ended it
}

// ---- ports ----------------------------------------------------------------------------------------

namespace {

std::uint16_t freeLoopbackPort(int type)
{
    const int fd = ::socket(AF_INET, type | SOCK_CLOEXEC, 0);
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

// Whether the kernel's socket tables (/proc/net/udp, ...) hold a socket on local `port`, in `state`
// when one is given ("0A": TCP's LISTEN).
bool portInTables(std::initializer_list<const char*> files, std::uint16_t port, const char* state)
{
    for (const char* file : files) {
        std::ifstream table(file);
        std::string line;
        std::getline(table, line); // header
        while (std::getline(table, line)) {
            std::istringstream fields(line);
            std::string slot, local, remote, socketState;
            if (!(fields >> slot >> local >> remote >> socketState))
                continue;
            const auto colon = local.rfind(':');
            if (colon != std::string::npos && std::strtoul(local.c_str() + colon + 1, nullptr, 16) == port
                && (state == nullptr || socketState == state))
                return true;
        }
    }
    return false;
}

} // namespace

std::uint16_t freeUdpPort()
{
    return freeLoopbackPort(SOCK_DGRAM);
}

std::uint16_t freeTcpPort()
{
    return freeLoopbackPort(SOCK_STREAM);
}

std::vector<std::uint16_t> freeUdpPorts(std::size_t count)
{
    std::vector<std::uint16_t> ports;
    while (ports.size() < count) {
        const std::uint16_t port = freeUdpPort();
        if (port == 0)
            return {};
        // distinct: a free port is closed again before the next one is looked for
        if (std::find(ports.begin(), ports.end(), port) == ports.end())
            ports.push_back(port);
    }
    return ports;
}

bool udpPortBound(std::uint16_t port)
{
    return portInTables({"/proc/net/udp", "/proc/net/udp6"}, port, nullptr);
}

bool tcpPortListening(std::uint16_t port)
{
    return portInTables({"/proc/net/tcp", "/proc/net/tcp6"}, port, "0A");
}

// ---- ForwardDrain ---------------------------------------------------------------------------------

namespace {

constexpr int kDrainBatch = 64;
constexpr std::size_t kDrainBufferBytes = 65536;
constexpr std::size_t kDrainControlBytes = CMSG_SPACE(sizeof(int)) + 16;

int groSegmentSize(msghdr& h)
{
    for (cmsghdr* c = CMSG_FIRSTHDR(&h); c; c = CMSG_NXTHDR(&h, c))
        if (c->cmsg_level == SOL_UDP && c->cmsg_type == UDP_GRO && c->cmsg_len >= CMSG_LEN(sizeof(int))) {
            int segment = 0;
            std::memcpy(&segment, CMSG_DATA(c), sizeof segment);
            return segment;
        }
    return 0;
}

} // namespace

bool ForwardDrain::open(const std::string& address)
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
    if (::inet_pton(AF_INET, address.c_str(), &addr.sin_addr) != 1)
        return false;
    socklen_t len = sizeof addr;
    if (::bind(m_fd, reinterpret_cast<sockaddr*>(&addr), sizeof addr) != 0
        || ::getsockname(m_fd, reinterpret_cast<sockaddr*>(&addr), &len) != 0)
        return false;
    m_port = ntohs(addr.sin_port);
    m_stop = false;
    m_thread = std::thread([this] { run(); });
    return true;
}

void ForwardDrain::stop()
{
    m_stop = true;
    if (m_thread.joinable())
        m_thread.join();
    if (m_fd >= 0)
        ::close(m_fd);
    m_fd = -1;
}

void ForwardDrain::run()
{
    std::vector<std::uint8_t> buffers(kDrainBatch * kDrainBufferBytes);
    std::vector<iovec> iov(kDrainBatch);
    std::vector<mmsghdr> msgs(kDrainBatch);
    struct alignas(cmsghdr) Control { // read through cmsghdr
        unsigned char bytes[kDrainControlBytes];
    };
    std::vector<Control> control(kDrainBatch);
    while (!m_stop.load(std::memory_order_relaxed)) {
        pollfd p{m_fd, POLLIN, 0};
        if (::poll(&p, 1, 20) <= 0)
            continue;
        for (std::size_t i = 0; i < kDrainBatch; ++i) {
            iov[i] = {buffers.data() + i * kDrainBufferBytes, kDrainBufferBytes};
            msgs[i] = {};
            msgs[i].msg_hdr.msg_iov = &iov[i];
            msgs[i].msg_hdr.msg_iovlen = 1;
            msgs[i].msg_hdr.msg_control = control[i].bytes;
            msgs[i].msg_hdr.msg_controllen = kDrainControlBytes;
        }
        const int n = ::recvmmsg(m_fd, msgs.data(), kDrainBatch, MSG_DONTWAIT, nullptr);
        if (n <= 0)
            continue;
        std::uint64_t packets = 0, bytes = 0;
        for (std::size_t i = 0; i < std::size_t(n); ++i) {
            const std::uint64_t length = msgs[i].msg_len;
            const int segment = m_gro ? groSegmentSize(msgs[i].msg_hdr) : 0;
            packets += segment > 0 ? (length + std::uint64_t(segment) - 1) / std::uint64_t(segment) : 1;
            bytes += length;
        }
        m_packets.fetch_add(packets, std::memory_order_relaxed);
        m_bytes.fetch_add(bytes, std::memory_order_relaxed);
    }
}

} // namespace telestation::perf
