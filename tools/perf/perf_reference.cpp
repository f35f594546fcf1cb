// How the references are measured: iperf3 runs as perf::Child processes writing into files of a
// private temporary directory, one one-off server per run on a fresh loopback port; the disk
// reference is plain write() calls and one fsync().
#include "tools/perf/perf_reference.hpp"

#include "tools/perf/perf_process.hpp"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <exception>
#include <fcntl.h>
#include <filesystem>
#include <optional>
#include <sstream>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <system_error>
#include <unistd.h>

namespace telestation::perf {

namespace {

namespace fs = std::filesystem;
using Json = nlohmann::json;

constexpr const char* kNotInstalled = "iperf3 is not installed (apt-get install iperf3)";
constexpr const char* kLoopback = "127.0.0.1"; // the only address these runs ever use
constexpr int kMinDatagramBytes = 16; // iperf3's own limits
constexpr int kMaxDatagramBytes = 65507;
constexpr double kMinMbps = 10; // halving stops here
constexpr double kCloseEnough = 1.1; // bisecting stops when lossy / loss-free is below this
constexpr int kListenTimeoutSeconds = 5;
constexpr int kTryMarginSeconds = 10; // beyond the run's own seconds: start-up, handshakes, results
constexpr double kServerExitWaitSeconds = 2;
constexpr int kServerStartAttempts = 3;
constexpr int kPortPickAttempts = 20;
constexpr std::size_t kStampBytes = 4096; // every page of the disk data is made unique
// iperf3 prints numbers with the C library: a locale with a decimal comma would break the JSON.
const std::vector<std::string> kCLocale = { "LC_ALL=C" };

std::string systemError(int error)
{
    // std::strerror is not thread-safe; the generic category's message is the same text.
    return std::error_code(error, std::generic_category()).message();
}

std::string firstLine(const std::string& text)
{
    const auto begin = text.find_first_not_of(" \t\r\n");
    if (begin == std::string::npos)
        return {};
    const auto end = text.find_first_of("\r\n", begin);
    return text.substr(begin, end == std::string::npos ? std::string::npos : end - begin);
}

std::string megabytes(std::uint64_t bytes)
{
    std::ostringstream out;
    out.precision(1);
    out << std::fixed << static_cast<double>(bytes) / 1e6 << " MB";
    return out.str();
}

// Whether a child failed. A status lost to an ignored SIGCHLD (-1) is not held against it: its
// output still tells whether it worked.
bool failed(const Exit& exit)
{
    return exit.code > 0 || exit.signal > 0;
}

double secondsUntil(Clock::time_point deadline)
{
    return std::max(0.0, std::chrono::duration<double>(deadline - Clock::now()).count());
}

bool isExecutableFile(const std::string& path)
{
    struct stat info { };
    return stat(path.c_str(), &info) == 0 && S_ISREG(info.st_mode) && access(path.c_str(), X_OK) == 0;
}

// The path of `program`: itself when it names a path, else the first match in PATH.
std::optional<std::string> findExecutable(const std::string& program)
{
    if (program.empty())
        return std::nullopt;
    if (program.find('/') != std::string::npos)
        return isExecutableFile(program) ? std::optional(program) : std::nullopt;
    const char* path = std::getenv("PATH");
    std::istringstream dirs(path != nullptr ? path : "/usr/local/bin:/usr/bin:/bin");
    std::string dir;
    while (std::getline(dirs, dir, ':')) {
        const std::string candidate = (dir.empty() ? std::string(".") : dir) + "/" + program;
        if (isExecutableFile(candidate))
            return candidate;
    }
    return std::nullopt;
}

// What every iperf3 run shares: the program, where its output goes, what is asked of it.
struct Iperf {
    std::string program;
    fs::path dir; // private, removed when the measurement ends
    const UdpReferenceOptions& options;
};

// "iperf 3.12" from `iperf3 --version`, or nullopt with `error` set.
std::optional<std::string> iperfVersion(const Iperf& iperf, std::string& error)
{
    const fs::path output = iperf.dir / "version.txt";
    Child child;
    error = child.start({ iperf.program, "--version" }, output, output, kCLocale);
    if (!error.empty())
        return std::nullopt;
    const auto exit = child.wait(kListenTimeoutSeconds);
    if (!exit) {
        error = iperf.program + " --version did not answer within " + std::to_string(kListenTimeoutSeconds) + " s";
        return std::nullopt;
    }
    const std::string line = firstLine(readFile(output));
    if (failed(*exit) || line.rfind("iperf", 0) != 0) {
        error = iperf.program + " --version " + describeExit(*exit) + (line.empty() ? "" : ": " + line);
        return std::nullopt;
    }
    return line.substr(0, line.find(" (")); // drops "(cJSON 1.7.15)"
}

// iperf3 sets SO_RCVBUF and SO_SNDBUF, not their FORCE variants, so the kernel caps them at
// net.core.rmem_max and wmem_max (the station, as root, gets its 64 MiB past them); 3.12 then fails
// every run ("socket buffer size not set correctly"), or runs with less than asked. Empty when the
// limits allow `bytes`, or cannot be read (iperf3 then says what it gets).
std::string socketBufferLimitError(std::size_t bytes)
{
    for (const char* name : { "rmem_max", "wmem_max" }) {
        const std::string text = firstLine(readFile(fs::path("/proc/sys/net/core") / name));
        if (!text.empty() && std::strtoull(text.c_str(), nullptr, 10) < bytes)
            return "iperf3 cannot get the socket buffer of " + std::to_string(bytes) + " bytes asked for: net.core."
                + name + " is " + text
                + "; raise both limits (as root: sysctl -w net.core.rmem_max=" + std::to_string(bytes)
                + " net.core.wmem_max=" + std::to_string(bytes) + "), or measure with iperf3's default buffer";
    }
    return {};
}

} // namespace

std::size_t largestPlainSocketBuffer(std::size_t wanted)
{
    for (const char* name : { "rmem_max", "wmem_max" }) {
        const std::string text = firstLine(readFile(fs::path("/proc/sys/net/core") / name));
        if (!text.empty())
            wanted = std::min<std::size_t>(wanted, std::strtoull(text.c_str(), nullptr, 10));
    }
    return wanted;
}

namespace {

// A port free for TCP (iperf3's control connection) whose UDP twin (its data) is free too, right
// now; 0 when none was found. Another process may still take it before iperf3 binds: the server
// start is retried on another port then.
std::uint16_t freeIperfPort()
{
    for (int attempt = 0; attempt < kPortPickAttempts; ++attempt) {
        const std::uint16_t port = freeTcpPort();
        if (port == 0 || !udpPortBound(port))
            return port;
    }
    return 0;
}

// Starts a one-off iperf3 server on a free loopback port and waits until it listens. Returns the
// port, or 0 with `error` set.
std::uint16_t startServer(Child& server, const Iperf& iperf, Clock::time_point deadline, std::string& error)
{
    const fs::path output = iperf.dir / "server.txt"; // truncated at each start: the last attempt's only
    for (int attempt = 0; attempt < kServerStartAttempts; ++attempt) {
        const std::uint16_t port = freeIperfPort();
        if (port == 0) {
            error = "no free port on 127.0.0.1 for the iperf3 server";
            return 0;
        }
        error = server.start(
            { iperf.program, "-s", "-1", "-B", kLoopback, "-p", std::to_string(port) }, output, output, kCLocale);
        if (!error.empty())
            return 0; // the program itself cannot run: another port will not help
        const auto listenDeadline = std::min(Clock::now() + std::chrono::seconds(kListenTimeoutSeconds), deadline);
        for (;;) {
            if (tcpPortListening(port))
                return port;
            if (const auto exit = server.wait(0)) {
                // Most likely the port was taken in between: try another.
                const std::string said = firstLine(readFile(output));
                error = "the iperf3 server on port " + std::to_string(port) + " " + describeExit(*exit)
                    + (said.empty() ? "" : ": " + said);
                break;
            }
            if (Clock::now() >= listenDeadline) {
                (void)server.stop();
                error = "the iperf3 server did not listen on 127.0.0.1:" + std::to_string(port) + " within "
                    + std::to_string(kListenTimeoutSeconds) + " s";
                break;
            }
            sleepMs(5);
        }
        if (Clock::now() >= deadline)
            break;
    }
    return 0;
}

const Json* member(const Json& object, const char* key)
{
    if (!object.is_object())
        return nullptr;
    const auto it = object.find(key);
    return it != object.end() ? &*it : nullptr;
}

std::optional<double> numberAt(const Json* object, const char* key)
{
    const Json* value = object != nullptr ? member(*object, key) : nullptr;
    if (value == nullptr || !value->is_number())
        return std::nullopt;
    return value->get<double>();
}

// Fills `run` from the client's --json output. iperf3 3.12's end.sum mixes the sender's rate and
// packet count with the receiver's loss; end.sum_received is the receiver's own view, so it is
// preferred, and end.sum only stands in for iperf3 versions without it.
void readFigures(const std::string& output, const std::string& errors, const Exit& exit, UdpReferenceTry& run)
{
    const Json json = Json::parse(output, nullptr, false);
    if (json.is_discarded() || !json.is_object()) {
        const std::string said = firstLine(errors.empty() ? output : errors);
        run.error
            = "the iperf3 client " + describeExit(exit) + " without JSON results" + (said.empty() ? "" : ": " + said);
        return;
    }
    // iperf3 3.12 exits with 0 even when it reports an error in its JSON.
    if (const Json* error = member(json, "error")) {
        run.error = "iperf3: " + (error->is_string() ? error->get<std::string>() : error->dump());
        return;
    }
    if (failed(exit)) {
        run.error = "the iperf3 client " + describeExit(exit);
        return;
    }
    const Json* end = member(json, "end");
    const Json* received = end != nullptr ? member(*end, "sum_received") : nullptr;
    const char* receivedName = "end.sum_received";
    if (received == nullptr) {
        received = end != nullptr ? member(*end, "sum") : nullptr;
        receivedName = "end.sum";
    }
    const auto packets = numberAt(received, "packets");
    const auto lost = numberAt(received, "lost_packets");
    const auto bitsPerSecond = numberAt(received, "bits_per_second");
    if (!packets || !lost || !bitsPerSecond) {
        run.error = std::string("iperf3's JSON lacks ") + receivedName
            + ".packets, .lost_packets or .bits_per_second (not a UDP test?)";
        return;
    }
    run.packets = std::llround(*packets);
    run.lostPackets = std::llround(*lost);
    run.receiverMbps = *bitsPerSecond / 1e6;
    run.seconds = numberAt(received, "seconds").value_or(0);
    const Json* sent = member(*end, "sum_sent"); // end is there: received was found in it
    if (sent == nullptr)
        sent = member(*end, "sum");
    run.senderMbps = numberAt(sent, "bits_per_second").value_or(0) / 1e6;
    run.ok = run.lostPackets == 0 && run.packets > 0;
}

// One iperf3 run at `mbps`, its own one-off server included, within seconds + kTryMarginSeconds.
UdpReferenceTry runOnce(const Iperf& iperf, double mbps, int seconds)
{
    UdpReferenceTry run;
    run.askedMbps = mbps;
    const auto deadline = Clock::now() + std::chrono::seconds(seconds + kTryMarginSeconds);
    Child server; // declared before the client: destroyed after it
    const std::uint16_t port = startServer(server, iperf, deadline, run.error);
    if (port == 0)
        return run;

    std::vector<std::string> args = { iperf.program, "-c", kLoopback, "-p", std::to_string(port), "-u", "-l",
        std::to_string(iperf.options.datagramBytes) };
    if (iperf.options.socketBufferBytes > 0)
        args.insert(args.end(), { "-w", std::to_string(iperf.options.socketBufferBytes) });
    args.insert(
        args.end(), { "-b", std::to_string(std::llround(mbps)) + "M", "-t", std::to_string(seconds), "--json" });
    const fs::path output = iperf.dir / "client.json";
    const fs::path errors = iperf.dir / "client.err";
    Child client;
    run.error = client.start(args, output, errors, kCLocale);
    if (!run.error.empty())
        return run;
    const auto exit = client.wait(secondsUntil(deadline));
    if (!exit) {
        run.error = "the iperf3 client did not finish within " + std::to_string(seconds + kTryMarginSeconds) + " s";
        return run;
    }
    // The one-off server ends by itself after its client; its destructor kills it otherwise.
    (void)server.wait(std::min(kServerExitWaitSeconds, secondsUntil(deadline)));
    readFigures(readFile(output), readFile(errors), *exit, run);
    return run;
}

double wholeMbps(double mbps)
{
    return std::max(1.0, std::round(mbps));
}

// The rate search; stops early, with result.reason set, when a run fails.
void searchLossFreeRate(const Iperf& iperf, UdpReference& result)
{
    const UdpReferenceOptions& options = iperf.options;
    const int seconds = static_cast<int>(std::max(1.0, std::round(options.secondsPerTry)));
    const double maxMbps = wholeMbps(options.maxMbps);
    const auto triesLeft = [&] { return static_cast<int>(result.tries.size()) < options.maxTries; };
    // nullopt when the run failed, else whether it lost nothing.
    const auto runAt = [&](double mbps) -> std::optional<bool> {
        result.tries.push_back(runOnce(iperf, mbps, seconds));
        const UdpReferenceTry& run = result.tries.back();
        if (!run.error.empty()) {
            result.reason = run.error;
            return std::nullopt;
        }
        return run.ok;
    };

    double lossFree = 0; // the highest asked rate that lost nothing
    double lossy = 0; // the lowest asked rate that lost datagrams
    double rate = std::min(wholeMbps(options.startMbps), maxMbps);
    auto outcome = runAt(rate);
    if (!outcome)
        return;
    if (*outcome) {
        lossFree = rate;
        while (triesLeft()) {
            const double next = std::min(wholeMbps(rate * 2), maxMbps);
            if (next <= rate)
                break;
            rate = next;
            outcome = runAt(rate);
            if (!outcome)
                return;
            if (!*outcome) {
                lossy = rate;
                break;
            }
            lossFree = rate;
        }
    } else {
        lossy = rate;
        while (triesLeft()) {
            const double next = wholeMbps(std::max(rate / 2, kMinMbps));
            if (next >= rate)
                break;
            rate = next;
            outcome = runAt(rate);
            if (!outcome)
                return;
            if (*outcome) {
                lossFree = rate;
                break;
            }
            lossy = rate;
        }
    }
    while (lossFree > 0 && lossy > 0 && lossy > lossFree * kCloseEnough && triesLeft()) {
        const double middle = wholeMbps((lossFree + lossy) / 2);
        if (middle <= lossFree || middle >= lossy)
            break;
        outcome = runAt(middle);
        if (!outcome)
            return;
        (*outcome ? lossFree : lossy) = middle;
    }
}

void measureUdp(const UdpReferenceOptions& options, UdpReference& result)
{
    const auto program = findExecutable(options.iperf3);
    if (!program) {
        result.reason = options.iperf3.find('/') == std::string::npos
            ? std::string(kNotInstalled)
            : std::string(kNotInstalled) + ": " + options.iperf3 + " is not an executable file";
        return;
    }
    const TemporaryDirectory dir;
    if (!dir.ok()) {
        result.reason = dir.error();
        return;
    }
    const Iperf iperf { *program, dir.path(), options };
    std::string error;
    const auto version = iperfVersion(iperf, error);
    if (!version) {
        result.reason = error;
        return;
    }
    result.iperfVersion = *version;
    result.available = true;

    if (options.datagramBytes < kMinDatagramBytes || options.datagramBytes > kMaxDatagramBytes) {
        result.reason = "a datagram of " + std::to_string(options.datagramBytes) + " bytes is outside iperf3's "
            + std::to_string(kMinDatagramBytes) + ".." + std::to_string(kMaxDatagramBytes);
        return;
    }
    if (options.maxTries < 1 || !(options.startMbps > 0) || !(options.maxMbps > 0)) {
        result.reason = "maxTries, startMbps and maxMbps must be positive";
        return;
    }
    if (options.socketBufferBytes > 0) {
        result.reason = socketBufferLimitError(options.socketBufferBytes);
        if (!result.reason.empty())
            return;
    }

    searchLossFreeRate(iperf, result);

    const UdpReferenceTry* best = nullptr;
    for (const auto& run : result.tries) {
        if (run.ok && (best == nullptr || run.receiverMbps > best->receiverMbps))
            best = &run;
    }
    if (best == nullptr) {
        if (result.reason.empty())
            result.reason = "datagrams were lost at every rate tried";
        return;
    }
    result.lossFreeMbps = best->receiverMbps;
    if (best->seconds > 0)
        result.lossFreePacketsPerSecond = static_cast<double>(best->packets) / best->seconds;
}

// Bytes that no file system compresses or deduplicates away: pseudo-random, and every page stamped
// with its own number in the file.
class DiskData {
public:
    explicit DiskData(std::size_t blockBytes)
        : m_block(blockBytes)
    {
        std::uint64_t state = 0x9E3779B97F4A7C15ull;
        for (auto& byte : m_block) {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            byte = static_cast<unsigned char>(state >> 56);
        }
    }

    const unsigned char* next()
    {
        for (std::size_t offset = 0; offset + sizeof m_page <= m_block.size(); offset += kStampBytes) {
            ++m_page;
            std::memcpy(m_block.data() + offset, &m_page, sizeof m_page);
        }
        return m_block.data();
    }

private:
    std::vector<unsigned char> m_block;
    std::uint64_t m_page = 0;
};

// The temporary file: unlinked as soon as it exists, so even a killed process leaves nothing.
class ScratchFile {
public:
    explicit ScratchFile(const std::string& directory)
    {
        std::string path = directory + "/.telestation-perf-XXXXXX";
        m_fd = mkostemp(path.data(), O_CLOEXEC);
        m_error = errno;
        if (m_fd >= 0)
            unlink(path.c_str());
    }
    ~ScratchFile()
    {
        if (m_fd >= 0)
            close(m_fd);
    }
    ScratchFile(const ScratchFile&) = delete;
    ScratchFile& operator=(const ScratchFile&) = delete;

    [[nodiscard]] int fd() const { return m_fd; }
    [[nodiscard]] int error() const { return m_error; }

private:
    int m_fd = -1;
    int m_error = 0;
};

// Writes all `size` bytes, continuing short writes; 0 or errno.
int writeAll(int fd, const unsigned char* data, std::size_t size, std::uint64_t& written)
{
    while (size > 0) {
        const ssize_t n = write(fd, data, size);
        if (n < 0) {
            if (errno == EINTR)
                continue;
            return errno;
        }
        if (n == 0)
            return ENOSPC; // write() makes no progress only when the device is full
        const auto done = static_cast<std::size_t>(n);
        data += done;
        size -= done;
        written += done;
    }
    return 0;
}

void measureDisk(DiskReference& result, std::uint64_t bytes, std::size_t blockBytes)
{
    const std::string& directory = result.directory;
    if (bytes == 0 || blockBytes == 0) {
        result.error = "nothing to write to " + directory + ": bytes and blockBytes must be positive";
        return;
    }
    struct stat info { };
    if (stat(directory.c_str(), &info) != 0) {
        result.error = "cannot use directory " + directory + ": " + systemError(errno);
        return;
    }
    if (!S_ISDIR(info.st_mode)) {
        result.error = directory + " is not a directory";
        return;
    }
    result.filesystem = filesystemOf(directory);

    // Filling the disk would hurt whatever else runs on the machine: refuse before the first byte.
    struct statvfs space { };
    if (statvfs(directory.c_str(), &space) == 0) {
        const std::uint64_t available
            = static_cast<std::uint64_t>(space.f_bavail) * static_cast<std::uint64_t>(space.f_frsize);
        if (available < bytes) {
            result.error = "not enough free space in " + directory + ": " + megabytes(bytes) + " to write, "
                + megabytes(available) + " free";
            return;
        }
    }

    const ScratchFile file(directory);
    if (file.fd() < 0) {
        result.error = "cannot create a temporary file in " + directory + ": " + systemError(file.error());
        return;
    }
    DiskData data(static_cast<std::size_t>(std::min<std::uint64_t>(blockBytes, bytes)));
    std::uint64_t written = 0;
    const auto start = Clock::now();
    while (written < bytes) {
        const auto size = static_cast<std::size_t>(std::min<std::uint64_t>(blockBytes, bytes - written));
        if (const int error = writeAll(file.fd(), data.next(), size, written)) {
            result.error = (error == ENOSPC ? directory + " ran out of space after "
                                            : "writing to a temporary file in " + directory + " failed after ")
                + megabytes(written) + ": " + systemError(error);
            return;
        }
    }
    if (fsync(file.fd()) != 0) {
        result.error = "fsync of a temporary file in " + directory + " failed: " + systemError(errno);
        return;
    }
    const double seconds = secondsSince(start);
    result.bytes = written;
    result.seconds = seconds;
    result.megabytesPerSecond = seconds > 0 ? static_cast<double>(written) / 1e6 / seconds : 0;
    result.ok = true;
}

} // namespace

UdpReference measureUdpReference(const UdpReferenceOptions& options)
{
    UdpReference result;
    result.datagramBytes = options.datagramBytes;
    result.socketBufferBytes = options.socketBufferBytes;
    try {
        measureUdp(options, result);
    } catch (const std::exception& e) {
        result.reason = std::string("measuring the UDP reference failed: ") + e.what();
    }
    return result;
}

DiskReference measureDiskWrite(const std::string& directory, std::uint64_t bytes, std::size_t blockBytes)
{
    DiskReference result;
    result.directory = directory;
    try {
        measureDisk(result, bytes, blockBytes);
    } catch (const std::exception& e) {
        result.ok = false;
        result.error = "measuring the write rate of " + directory + " failed: " + e.what();
    }
    return result;
}

} // namespace telestation::perf
