// A one-line progress bar on a terminal, for command-line tools reading large files:
//   "decoding  42% [################                      ]  512.0 MB of 1.2 GB  3,811,200 packets"
// Redrawn at most 10 times a second however often update() is called; cleared by finish().
#pragma once

#include <chrono>
#include <cstdint>
#include <cstdio>
#include <string>

namespace telestation::tools {

class ProgressBar {
public:
    // `enabled` false: every call does nothing (stderr is not a terminal, or the input is small).
    ProgressBar(std::FILE* terminal, bool enabled, std::uint64_t totalBytes);

    // Cheap when nothing is drawn: one clock read.
    void update(double fraction, std::uint64_t packets);
    // Erases the bar (the summary follows on a clean line).
    void finish();

    [[nodiscard]] bool enabled() const noexcept { return m_enabled; }
    [[nodiscard]] std::uint64_t redraws() const noexcept { return m_redraws; }

private:
    static constexpr std::chrono::milliseconds kInterval{100};

    std::FILE* m_terminal;
    bool m_enabled;
    std::uint64_t m_totalBytes;
    std::chrono::steady_clock::time_point m_next{};
    std::uint64_t m_redraws = 0;
    std::string m_line;
};

// "512.0 MB", "1.2 GB", "900 B" (decimal units, as disks are sold).
[[nodiscard]] std::string byteSize(std::uint64_t bytes);
// "3,811,200"
[[nodiscard]] std::string groupedNumber(std::uint64_t n);

} // namespace telestation::tools
