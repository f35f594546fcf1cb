// telestation-perf's reports: the Markdown tables laid out like TReK's (one small table per test with
// TReK's PC-933 figures beside ours, and a summary table), the JSON results, and the chart's rows.
#pragma once

#include "tools/perf/perf_chart.hpp"
#include "tools/perf/perf_endurance.hpp"
#include "tools/perf/perf_limits.hpp"
#include "tools/perf/perf_reference.hpp"
#include "tools/perf/perf_suite.hpp"

#include <string>
#include <vector>

namespace telestation::perf {

struct SuiteReport {
    std::string date;         // "2026-11-25 09:10"
    std::string machine;      // machineText()
    std::string kernel;
    std::string command;      // the command line, to rerun it
    std::string recordFilesystem;
    double secondsPerRun = 0;
    ConsumerPlace consumer = ConsumerPlace::InProcess;
    UdpReference udp;         // may be unavailable
    DiskReference disk;       // may have failed
    std::vector<SearchResult> results;
};

[[nodiscard]] std::string suiteMarkdown(const SuiteReport& report);
[[nodiscard]] Json suiteJson(const SuiteReport& report);
[[nodiscard]] std::vector<ChartRow> chartRows(const SuiteReport& report);

[[nodiscard]] std::string enduranceMarkdown(const EnduranceOptions& options, const EnduranceResult& result,
                                            const std::string& machine, const std::string& date, const std::string& command);
[[nodiscard]] Json enduranceJson(const EnduranceOptions& options, const EnduranceResult& result);

// Where the API consumers ran, in words: "in the station's process (its --consume)", "external C++ clients ...".
[[nodiscard]] std::string consumerPlaceText(ConsumerPlace place);

// One run as the JSON files give it: rates, counts, failure, CPU (the station's threads by name), events.
[[nodiscard]] Json runJson(const RunResult& run);

// telestation-perf limits: a table with a row per run and the verdict; the same as JSON, and as CSV
// (a line per run).
[[nodiscard]] std::string limitsMarkdown(const LimitsReport& report);
[[nodiscard]] Json limitsJson(const LimitsReport& report);
[[nodiscard]] std::string limitsCsv(const LimitsReport& report);

// "1 234 567" — thousands apart, as the tables print them.
[[nodiscard]] std::string grouped(double value);
// A number with `decimals` digits after the point.
[[nodiscard]] std::string fixed(double value, int decimals);

} // namespace telestation::perf
