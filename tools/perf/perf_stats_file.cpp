#include "tools/perf/perf_stats_file.hpp"

namespace telestation::perf {

namespace fs = std::filesystem;

Json lastSnapshot(const fs::path& statsFile)
{
    std::string text = readFile(statsFile);
    while (!text.empty() && text.back() != '\n') // a line still being written
        text.pop_back();
    if (text.empty())
        return Json();
    text.pop_back();
    const auto start = text.rfind('\n');
    Json j = Json::parse(start == std::string::npos ? text : text.substr(start + 1), nullptr, false);
    return j.is_discarded() || !j.contains("totals") ? Json() : j;
}

std::optional<Progress> progressSoFar(const fs::path& statsFile)
{
    const Json j = lastSnapshot(statsFile);
    if (j.is_null())
        return std::nullopt;
    const Json& totals = member(j, "totals");
    return Progress{u64(totals, "packetsReceived"), u64(totals, "packetsProcessed")};
}

void waitForCatchUp(const fs::path& statsFile, std::uint64_t expected)
{
    Progress last;
    auto lastChange = Clock::now();
    const auto deadline = Clock::now() + std::chrono::seconds(30);
    while (Clock::now() < deadline) {
        const auto now = progressSoFar(statsFile);
        if (now && now->received >= expected && now->processed >= now->received)
            return;
        if (now && *now != last) {
            last = *now;
            lastChange = Clock::now();
        } else if (secondsSince(lastChange) > 1.5) {
            return;
        }
        sleepMs(20);
    }
}

} // namespace telestation::perf
