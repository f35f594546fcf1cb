// Recorder benchmark: records 1288-byte packets (the size of the training database's Packet5) with
// StreamRecorder as fast as one thread can, rolling over at 1 GiB, and prints MB/s and packets/s.
// For comparison it then measures the directory's raw sequential write speed the same way: plain
// 1 MiB write() calls for the same time, a new file per GiB, fsync at the end of each file.
// Not a test: run it from a release build.
//
//   build/release/bin/bench_record [--dir DIR] [--seconds S]
#include "core/common/command_line.hpp"
#include "core/record/stream_recorder.hpp"

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fcntl.h>
#include <filesystem>
#include <random>
#include <string>
#include <unistd.h>
#include <vector>

using namespace telestation;
namespace fs = std::filesystem;

namespace {

constexpr std::size_t kPacketSize = 1288;
constexpr std::uint64_t kRollover = std::uint64_t{1} << 30;

using Clock = std::chrono::steady_clock;

double secondsSince(Clock::time_point start)
{
    return std::chrono::duration<double>(Clock::now() - start).count();
}

struct Figures {
    double seconds = 0;
    std::uint64_t bytes = 0;
    std::uint64_t packets = 0;
};

int recordRun(const fs::path& dir, double seconds, Figures& out)
{
    auto catalog = record::RecordingCatalog::open(dir.string());
    if (!catalog) {
        std::fprintf(stderr, "bench_record: %s\n", catalog.error().toString().c_str());
        return 1;
    }
    auto recorder = record::StreamRecorder::create(**catalog, "bench", 1, kRollover);
    if (!recorder) {
        std::fprintf(stderr, "bench_record: %s\n", recorder.error().toString().c_str());
        return 1;
    }
    // 64 different packets, CCSDS-like primary header in front of random bytes.
    std::vector<std::vector<std::uint8_t>> packets(64, std::vector<std::uint8_t>(kPacketSize));
    std::mt19937 rng(1);
    for (auto& p : packets)
        for (auto& b : p)
            b = static_cast<std::uint8_t>(rng());
    record::RecordMeta meta{0, 1, 7, false};
    const auto start = Clock::now();
    const auto deadline = start + std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(seconds));
    std::uint64_t n = 0;
    while (Clock::now() < deadline) {
        for (int i = 0; i < 1024; ++i, ++n) {
            meta.receiveTimeNs = static_cast<std::int64_t>(n) * 1000;
            meta.apid = static_cast<std::uint16_t>(n % 8);
            if (!(*recorder)->record(meta, packets[n % packets.size()])) {
                std::fprintf(stderr, "bench_record: %s\n", (*recorder)->error().c_str());
                return 1;
            }
        }
    }
    if (auto st = (*recorder)->close(); !st) { // includes the last flush and fsync
        std::fprintf(stderr, "bench_record: %s\n", st.error().toString().c_str());
        return 1;
    }
    out.seconds = secondsSince(start);
    out.packets = (*recorder)->recordedPackets();
    out.bytes = out.packets * (kPacketSize + record::kRecordOverhead);
    std::printf("record: %llu packets in %.2f s, %llu segment(s)\n", static_cast<unsigned long long>(out.packets), out.seconds,
                static_cast<unsigned long long>((*recorder)->rollovers() + 1));
    return 0;
}

int rawRun(const fs::path& dir, double seconds, Figures& out)
{
    std::vector<std::uint8_t> block(std::size_t{1} << 20);
    std::mt19937 rng(2);
    for (auto& b : block)
        b = static_cast<std::uint8_t>(rng());
    const auto start = Clock::now();
    const auto deadline = start + std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(seconds));
    int fd = -1;
    std::uint64_t inFile = 0;
    int files = 0;
    auto closeFile = [&] {
        if (fd >= 0) {
            ::fsync(fd);
            ::close(fd);
            fd = -1;
        }
    };
    while (Clock::now() < deadline) {
        if (fd < 0 || inFile + block.size() > kRollover) {
            closeFile();
            const std::string path = (dir / ("raw-" + std::to_string(++files) + ".bin")).string();
            fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
            if (fd < 0) {
                std::fprintf(stderr, "bench_record: %s: %s\n", path.c_str(), std::strerror(errno));
                return 1;
            }
            inFile = 0;
        }
        std::size_t done = 0;
        while (done < block.size()) {
            const ssize_t w = ::write(fd, block.data() + done, block.size() - done);
            if (w < 0 && errno == EINTR)
                continue;
            if (w <= 0) {
                std::fprintf(stderr, "bench_record: raw write: %s\n", std::strerror(errno));
                closeFile();
                return 1;
            }
            done += static_cast<std::size_t>(w);
        }
        inFile += block.size();
        out.bytes += block.size();
    }
    closeFile();
    out.seconds = secondsSince(start);
    return 0;
}

} // namespace

int main(int argc, char** argv)
{
    CommandLine cli("bench_record", "Recording throughput (StreamRecorder) against the directory's raw write speed.");
    cli.addFlag("help", "Show this help.");
    cli.addOption("dir", "DIR", "Directory to record into (emptied of the benchmark's files afterwards); default: a new one in /tmp.");
    cli.addOption("seconds", "S", "How long each of the two runs lasts; default 3.");
    if (const auto ok = cli.parse(argc, argv); !ok) {
        std::fprintf(stderr, "bench_record: %s\n", ok.error().message.c_str());
        return 2;
    }
    if (cli.isSet("help")) {
        std::fputs(cli.helpText().c_str(), stdout);
        return 0;
    }
    const auto seconds = cli.number("seconds", 3);
    if (!seconds || *seconds <= 0) {
        std::fprintf(stderr, "bench_record: --seconds needs a number above zero\n");
        return 2;
    }
    bool ownDir = false;
    fs::path base;
    if (cli.isSet("dir")) {
        base = cli.value("dir");
    } else {
        char pattern[] = "/tmp/bench_record-XXXXXX";
        if (!::mkdtemp(pattern)) {
            std::fprintf(stderr, "bench_record: mkdtemp: %s\n", std::strerror(errno));
            return 1;
        }
        base = pattern;
        ownDir = true;
    }
    // Each run gets its own subdirectory, emptied afterwards so that the second run has the same room.
    const fs::path recordDir = base / "bench_record-segments";
    const fs::path rawDir = base / "bench_record-raw";
    std::error_code ec;
    fs::create_directories(rawDir, ec);
    if (ec) {
        std::fprintf(stderr, "bench_record: %s: %s\n", rawDir.c_str(), ec.message().c_str());
        return 1;
    }
    Figures rec;
    Figures raw;
    int rc = recordRun(recordDir, *seconds, rec);
    fs::remove_all(recordDir, ec);
    if (rc == 0)
        rc = rawRun(rawDir, *seconds, raw);
    fs::remove_all(rawDir, ec);
    if (ownDir)
        fs::remove_all(base, ec);
    if (rc != 0)
        return rc;
    const double recMBps = static_cast<double>(rec.bytes) / rec.seconds / 1e6;
    const double rawMBps = static_cast<double>(raw.bytes) / raw.seconds / 1e6;
    std::printf("directory: %s\n", base.c_str());
    std::printf("recorder: %.1f MB/s (%.2f Gbit/s of packets), %.0f packets/s of %zu bytes\n", recMBps,
                static_cast<double>(rec.packets * kPacketSize) * 8 / rec.seconds / 1e9, static_cast<double>(rec.packets) / rec.seconds,
                kPacketSize);
    std::printf("raw 1 MiB write(): %.1f MB/s\n", rawMBps);
    std::printf("recorder / raw: %.0f %%\n", rawMBps > 0 ? 100 * recMBps / rawMBps : 0.0);
    return 0;
}
