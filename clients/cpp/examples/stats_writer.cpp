// telestation-api-stats: a running station's statistics snapshots, as JSON lines in a file — the same
// lines the headless mode writes with --stats-out (each Statistics message's `json`), from any station
// that serves the user API, the GUI workstation's too. telestation-perf reads a GUI station's counts
// through it (`endurance --gui-last`).
//
//   telestation-api-stats --target HOST:PORT --out FILE [--interval-ms 100]
//
// Each snapshot is written as one line and flushed, so that a reader never waits for a buffer and a
// stopped run keeps what was written. It runs until the station ends the call (the station stopped)
// or the program is stopped; exit 0 when at least one snapshot was written, 1 when none could be.
// TELESTATION_TOKEN in the environment is sent as the call's token.
#include "clients/cpp/client.hpp"

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>

namespace {

int usage(const char* program, const char* problem)
{
    std::fprintf(stderr, "%s: %s\nusage: %s --target HOST:PORT --out FILE [--interval-ms MS]\n", program, problem, program);
    return 2;
}

} // namespace

int main(int argc, char** argv)
{
    std::string target, out;
    unsigned long intervalMs = 100;
    for (int i = 1; i + 1 < argc; i += 2) {
        const std::string option = argv[i];
        if (option == "--target") {
            target = argv[i + 1];
        } else if (option == "--out") {
            out = argv[i + 1];
        } else if (option == "--interval-ms") {
            char* end = nullptr;
            intervalMs = std::strtoul(argv[i + 1], &end, 10);
            if (*end != '\0' || intervalMs < 100)
                return usage(argv[0], "--interval-ms takes a whole number of milliseconds, at least 100");
        } else {
            return usage(argv[0], ("unknown option " + option).c_str());
        }
    }
    if (argc % 2 == 0 || target.empty() || out.empty())
        return usage(argv[0], "--target and --out are required");
    std::FILE* file = std::fopen(out.c_str(), "w");
    if (!file) {
        std::fprintf(stderr, "%s: %s: %s\n", argv[0], out.c_str(), std::strerror(errno));
        return 1;
    }
    telestation::client::Options options;
    if (const char* token = std::getenv("TELESTATION_TOKEN"))
        options.token = token;
    options.clientName = "telestation-api-stats";
    std::uint64_t written = 0;
    try {
        telestation::client::Client station(target, options);
        auto subscription = station.statistics(static_cast<std::uint32_t>(intervalMs));
        telestation::v1::Statistics statistics;
        while (subscription.next(statistics)) {
            std::fputs(statistics.json().c_str(), file);
            std::fputc('\n', file);
            std::fflush(file);
            ++written;
        }
        if (written == 0)
            std::fprintf(stderr, "%s: %s\n", argv[0], subscription.status().error_message().c_str());
    } catch (const telestation::client::Error& e) {
        std::fprintf(stderr, "%s: %s\n", argv[0], e.what());
    }
    std::fclose(file);
    return written > 0 ? 0 : 1;
}
