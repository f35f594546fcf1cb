// What telestation-perf needs of the operating system: child processes (the station and the
// simulator) with their CPU time, free loopback ports, the machine's busy time and UDP error
// counters, a process's resident memory, the filesystem of a directory, and a UDP socket that
// drains and counts what the station forwards.
#pragma once

#include <atomic>
#include <chrono>
#include <cstdint>
#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <sys/types.h>
#include <thread>
#include <vector>

namespace telestation::perf {

using Clock = std::chrono::steady_clock;

[[nodiscard]] double secondsSince(Clock::time_point start);
void sleepMs(int ms);
[[nodiscard]] std::string readFile(const std::filesystem::path& path);
[[nodiscard]] bool writeFile(const std::filesystem::path& path, const std::string& text);
// Removes whatever is at `dir` and creates it anew (with its parents); error text, empty on success.
[[nodiscard]] std::string freshDirectory(const std::filesystem::path& dir);

// "ext4 (/dev/vda on /)": the longest mount point in the mount table (/proc/self/mounts) that contains
// the directory (of equal ones the last, which hides the others). In a chroot or a container the table
// may not list it (or not be readable): then statfs(2) names the type, "ext2/3/4 (from statfs, on DIR)".
[[nodiscard]] std::string filesystemOf(
    const std::filesystem::path& dir, const std::filesystem::path& mountTable = "/proc/self/mounts");

// A private directory (mkdtemp, mode 0700) under $TMPDIR, else /tmp, removed with all it holds when
// this goes: for children's output files that no path may leave behind.
class TemporaryDirectory {
public:
    explicit TemporaryDirectory(const std::string& prefix = "telestation-perf-");
    TemporaryDirectory(const TemporaryDirectory&) = delete;
    TemporaryDirectory& operator=(const TemporaryDirectory&) = delete;
    ~TemporaryDirectory();

    [[nodiscard]] bool ok() const noexcept { return !m_path.empty(); }
    [[nodiscard]] const std::filesystem::path& path() const noexcept { return m_path; }
    [[nodiscard]] const std::string& error() const noexcept { return m_error; } // when not ok()

private:
    std::filesystem::path m_path;
    std::string m_error;
};
// "AMD EPYC 7B13, 2 CPUs"
[[nodiscard]] std::string machineText();
[[nodiscard]] std::string kernelText();

// CPU seconds the whole machine spent busy since boot (all CPUs; idle and iowait excluded), and this
// process's own: what other programs used during a run is the difference, a measure of its noise.
[[nodiscard]] double machineBusySeconds();
[[nodiscard]] double selfCpuSeconds();
// How busy the machine is: the share of all its CPUs busy over the next `seconds` (waits that long),
// in percent.
[[nodiscard]] double machineBusyPercent(double seconds);

// The machine's UDP error counters (/proc/net/snmp): receive-buffer and send-buffer errors.
struct UdpErrors {
    std::uint64_t receiveBuffer = 0;
    std::uint64_t sendBuffer = 0;
};
[[nodiscard]] UdpErrors udpErrors();

// A process's resident set (VmRSS) in bytes and its user + system CPU seconds, from /proc.
struct ProcessSample {
    std::uint64_t rssBytes = 0;
    double cpuSeconds = 0;
};
[[nodiscard]] std::optional<ProcessSample> sampleProcess(pid_t pid);
// The CPU seconds of each of a process's threads so far, summed by thread name ("ts-processor"; the
// station names its threads): from /proc/PID/task/TID/schedstat (nanoseconds), else stat (ticks); and
// of that, the time in user space (stat's utime, in clock ticks): without the kernel's share, which
// for a thread that sleeps and wakes often (switching in, futexes) moves with what else runs.
struct ThreadCpuTimes {
    std::map<std::string, double> seconds;
    std::map<std::string, double> userSeconds;
};
[[nodiscard]] ThreadCpuTimes threadCpuSeconds(pid_t pid);
// The machine's load average over the last minute (/proc/loadavg).
[[nodiscard]] double loadAverage();

struct Exit {
    int code = -1;          // exit status, or 128 + signal; -1 when unknown (SIGCHLD ignored: reaped by the kernel)
    int signal = 0;         // the signal that ended it, 0 when it exited
    double cpuSeconds = 0;  // user + system, from wait4
    double wallSeconds = 0; // spawn to exit
};
// "exited with status 1", "was killed by signal 9"
[[nodiscard]] std::string describeExit(const Exit& exit);

// A child process with stdin from /dev/null and stdout and stderr in files (one file when both are
// the same path). It gets default signal handling, no blocked signals and, with glibc 2.34 or later,
// no descriptor of ours beyond 2 (the sockets of a station under test must not live on in it).
// Killed (SIGKILL) and reaped if still running when destroyed.
class Child {
public:
    Child() = default;
    Child(const Child&) = delete;
    Child& operator=(const Child&) = delete;
    ~Child();

    // Returns the error text, empty when it started. `environment` ("LC_ALL=C", ...) is added to this
    // process's, replacing variables of the same names. A child still running is stopped first.
    [[nodiscard]] std::string start(const std::vector<std::string>& args, const std::filesystem::path& out,
                                    const std::filesystem::path& err, const std::vector<std::string>& environment = {});
    [[nodiscard]] bool running() const noexcept { return m_pid > 0; }
    [[nodiscard]] pid_t pid() const noexcept { return m_pid; }
    void sendSignal(int sig) const;
    // Reaps the child if it has exited (waiting up to `timeoutSeconds`); nothing while it still runs.
    [[nodiscard]] std::optional<Exit> wait(double timeoutSeconds);
    // SIGTERM, up to `graceSeconds` for the child to end, then SIGKILL; reaped in any case. nullopt
    // when none was running.
    std::optional<Exit> stop(double graceSeconds = 0.5);

private:
    pid_t m_pid = -1;
    Clock::time_point m_started;
};

// A free loopback UDP port: bound to port 0, read back, closed. Another program could take it before
// the station does; the station would then fail to start, and the run says so.
[[nodiscard]] std::uint16_t freeUdpPort();
// Distinct free loopback UDP ports; empty when none could be had.
[[nodiscard]] std::vector<std::uint16_t> freeUdpPorts(std::size_t count);
// The same for TCP (a server's listening port).
[[nodiscard]] std::uint16_t freeTcpPort();
// Whether a socket is bound to this UDP port (/proc/net/udp and udp6): reading the table cannot get
// in the station's way, as trying to bind the port would.
[[nodiscard]] bool udpPortBound(std::uint16_t port);
// Whether a TCP socket listens on this port (/proc/net/tcp and tcp6): a test connection could use up
// a one-off server's only client.
[[nodiscard]] bool tcpPortListening(std::uint16_t port);

// Counts what the station forwards: a UDP socket drained with recvmmsg on its own thread
// (UDP GRO where the kernel has it, which keeps this thread's share of the cores small).
class ForwardDrain {
public:
    ForwardDrain() = default;
    ForwardDrain(const ForwardDrain&) = delete;
    ForwardDrain& operator=(const ForwardDrain&) = delete;
    ~ForwardDrain() { stop(); }

    // Binds `address` ("127.0.0.1", or "0.0.0.0" for a station on another machine), port 0.
    [[nodiscard]] bool open(const std::string& address = "127.0.0.1");
    void stop();
    [[nodiscard]] std::uint16_t port() const noexcept { return m_port; }
    [[nodiscard]] std::uint64_t packets() const noexcept { return m_packets.load(); }
    [[nodiscard]] std::uint64_t bytes() const noexcept { return m_bytes.load(); }

private:
    void run();
    int m_fd = -1;
    bool m_gro = false;
    std::uint16_t m_port = 0;
    std::atomic<bool> m_stop{false};
    std::atomic<std::uint64_t> m_packets{0}, m_bytes{0};
    std::thread m_thread;
};

} // namespace telestation::perf
