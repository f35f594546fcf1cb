#include "core/link/tests.hpp"

#include <algorithm>

namespace telestation::link {

std::string_view testName(TestKind kind) noexcept
{
    switch (kind) {
    case TestKind::MessageRate: return "msgrate";
    case TestKind::UdpGrid: return "udpmon";
    case TestKind::TcpFlows: return "flows";
    case TestKind::BlockSweep: return "blocks";
    case TestKind::Telemetry: return "telemetry";
    }
    return "?";
}

std::string_view testTitle(TestKind kind) noexcept
{
    switch (kind) {
    case TestKind::MessageRate: return "Message rate vs size";
    case TestKind::UdpGrid: return "UDP size × inter-packet gap";
    case TestKind::TcpFlows: return "TCP parallel flows";
    case TestKind::BlockSweep: return "TCP block size sweep";
    case TestKind::Telemetry: return "Telemetry through the station";
    }
    return "?";
}

Result<std::vector<TestKind>> parseTestList(std::string_view list)
{
    std::vector<TestKind> chosen;
    if (list == "all")
        return std::vector<TestKind>(kAllTests.begin(), kAllTests.end());
    std::size_t start = 0;
    while (start <= list.size()) {
        const std::size_t comma = std::min(list.find(',', start), list.size());
        const std::string_view name = list.substr(start, comma - start);
        const auto found = std::find_if(kAllTests.begin(), kAllTests.end(), [&](TestKind k) { return testName(k) == name; });
        if (found == kAllTests.end()) {
            std::string known;
            for (const TestKind k : kAllTests)
                known += std::string(known.empty() ? "" : ", ") + std::string(testName(k));
            return Error{"unknown link test '" + std::string(name) + "' (known: " + known + ", or all)", {}};
        }
        if (std::find(chosen.begin(), chosen.end(), *found) == chosen.end())
            chosen.push_back(*found);
        start = comma + 1;
    }
    std::sort(chosen.begin(), chosen.end());
    return chosen;
}

} // namespace telestation::link
