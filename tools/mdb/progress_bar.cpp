#include "tools/mdb/progress_bar.hpp"

#include <algorithm>
#include <cmath>

namespace telestation::tools {

ProgressBar::ProgressBar(std::FILE* terminal, bool enabled, std::uint64_t totalBytes)
    : m_terminal(terminal), m_enabled(enabled), m_totalBytes(totalBytes)
{
}

void ProgressBar::update(double fraction, std::uint64_t packets)
{
    if (!m_enabled)
        return;
    const auto now = std::chrono::steady_clock::now();
    if (now < m_next)
        return;
    m_next = now + kInterval;
    ++m_redraws;
    constexpr int kWidth = 40;
    fraction = std::clamp(fraction, 0.0, 1.0);
    const int filled = static_cast<int>(std::floor(fraction * kWidth));
    char percent[8];
    std::snprintf(percent, sizeof percent, "%3d%%", static_cast<int>(std::floor(fraction * 100)));
    m_line = std::string("\rdecoding ") + percent;
    m_line += " [" + std::string(static_cast<std::size_t>(filled), '#')
        + std::string(static_cast<std::size_t>(kWidth - filled), ' ') + "]  ";
    m_line += byteSize(static_cast<std::uint64_t>(fraction * static_cast<double>(m_totalBytes))) + " of "
        + byteSize(m_totalBytes) + "  " + groupedNumber(packets) + " packets\x1b[K";
    std::fputs(m_line.c_str(), m_terminal);
    std::fflush(m_terminal);
}

void ProgressBar::finish()
{
    if (!m_enabled || m_redraws == 0)
        return;
    std::fputs("\r\x1b[K", m_terminal);
    std::fflush(m_terminal);
}

std::string byteSize(std::uint64_t bytes)
{
    if (bytes < 1000)
        return std::to_string(bytes) + " B";
    static constexpr const char* kUnits[] = {"kB", "MB", "GB", "TB", "PB"};
    double value = static_cast<double>(bytes) / 1000;
    std::size_t unit = 0;
    while (value >= 1000 && unit + 1 < std::size(kUnits)) {
        value /= 1000;
        ++unit;
    }
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.1f %s", value, kUnits[unit]);
    return buf;
}

std::string groupedNumber(std::uint64_t n)
{
    std::string digits = std::to_string(n);
    std::string out;
    for (std::size_t i = 0; i < digits.size(); ++i) {
        if (i > 0 && (digits.size() - i) % 3 == 0)
            out.push_back(',');
        out.push_back(digits[i]);
    }
    return out;
}

} // namespace telestation::tools
