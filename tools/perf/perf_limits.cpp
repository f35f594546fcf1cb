#include "tools/perf/perf_limits.hpp"

#include "sim/engine/scenario.hpp"
#include "sim/engine/value_generator.hpp"
#include "tools/perf/perf_report.hpp"
#include "tools/perf/perf_station_host.hpp"

#include <algorithm>
#include <map>

namespace telestation::perf {

namespace {

constexpr double kBusyWindowSeconds = 3;

double threadSeconds(const std::map<std::string, double>& threads, const char* name)
{
    const auto it = threads.find(name);
    return it == threads.end() ? 0 : it->second;
}

double perMillion(double seconds, std::uint64_t packets)
{
    return packets > 0 ? seconds / (double(packets) / 1e6) : 0;
}

double rise(double from, double to)
{
    return from > 0 ? 100 * (to - from) / from : 0;
}

double median(std::vector<double> values)
{
    if (values.empty())
        return 0;
    std::sort(values.begin(), values.end());
    const std::size_t n = values.size();
    return n % 2 ? values[n / 2] : (values[n / 2 - 1] + values[n / 2]) / 2;
}

// Waits until the machine is as quiet as asked; returns the seconds waited.
double waitUntilIdle(const LimitsOptions& o, bool checkLoad, const std::function<void(const std::string&)>& say)
{
    if (o.idleLoad < 0)
        return 0;
    const auto start = Clock::now();
    bool told = false;
    for (;;) {
        const double load = loadAverage();
        const double busy = machineBusyPercent(kBusyWindowSeconds);
        if ((!checkLoad || load <= o.idleLoad) && busy <= o.idleBusyPercent)
            break;
        if (secondsSince(start) > o.idleTimeoutSeconds) {
            say("  the machine did not become idle within " + rateNumber(o.idleTimeoutSeconds) + " s (load "
                + fixed(load, 2) + ", " + fixed(busy, 0) + "% busy); going on");
            break;
        }
        if (!told)
            say("  waiting for the machine to be idle: load " + fixed(load, 2) + (checkLoad ? " (at most " + fixed(o.idleLoad, 2) + ")" : "")
                + ", " + fixed(busy, 0) + "% busy over " + rateNumber(kBusyWindowSeconds) + " s (at most "
                + fixed(o.idleBusyPercent, 0) + "%)");
        told = true;
    }
    return secondsSince(start);
}

} // namespace

LimitPlan planLimitExercise(const mdb::PacketDef& packet, double periodSeconds)
{
    LimitPlan plan;
    std::map<std::string, sim::GeneratorSpec> within, crossing;
    for (std::size_t i = 0; i < packet.parameters.size(); ++i) {
        const mdb::ParameterDef& p = packet.parameters[i];
        const std::string name = packet.name + "." + p.name;
        std::string why;
        const auto a = sim::limitExerciseGenerator(packet, p, i, sim::LimitExercise::Within, periodSeconds, &why);
        const auto b = sim::limitExerciseGenerator(packet, p, i, sim::LimitExercise::Crossing, periodSeconds, &why);
        if (!a || !b) {
            if (why != "no limits")
                plan.excluded.push_back({name, why});
            continue;
        }
        within[name] = a->spec;
        crossing[name] = b->spec;
        plan.exercised.push_back({name, std::holds_alternative<mdb::StateLimits>(p.limits), b->yellow, b->red});
    }
    plan.within = Json::parse(sim::generatorsToJson(within));
    plan.crossing = Json::parse(sim::generatorsToJson(crossing));
    return plan;
}

double LimitsRun::processorCpu() const
{
    return threadSeconds(run.threadCpu, "ts-processor");
}

double LimitsRun::eventsCpu() const
{
    return threadSeconds(run.threadCpu, "ts-events");
}

double LimitsRun::processorCpuPerMillion() const
{
    return perMillion(processorCpu(), run.processed);
}

double LimitsRun::processorUserCpuPerMillion() const
{
    return perMillion(threadSeconds(run.threadUserCpu, "ts-processor"), run.processed);
}

std::uint64_t LimitsRun::lost() const
{
    return run.sent > run.processed ? run.sent - run.processed : 0;
}

bool LimitsRun::nothingLost() const
{
    return run.ok && run.events.unreported == 0;
}

double LimitsRound::risePercent() const
{
    return rise(within.processorCpuPerMillion(), crossing.processorCpuPerMillion());
}

double LimitsRound::userRisePercent() const
{
    return rise(within.processorUserCpuPerMillion(), crossing.processorUserCpuPerMillion());
}

double LimitsReport::medianRisePercent() const
{
    std::vector<double> rises;
    for (const auto& r : rounds)
        rises.push_back(r.risePercent());
    return median(rises);
}

double LimitsReport::medianUserRisePercent() const
{
    std::vector<double> rises;
    for (const auto& r : rounds)
        rises.push_back(r.userRisePercent());
    return median(rises);
}

bool LimitsReport::nothingLost() const
{
    return !rounds.empty() && std::all_of(rounds.begin(), rounds.end(), [](const LimitsRound& r) {
        return r.within.nothingLost() && r.crossing.nothingLost();
    });
}

bool LimitsReport::exercisedAsPlanned() const
{
    const std::size_t expected = plan.exercised.size() * streams;
    return !rounds.empty() && std::all_of(rounds.begin(), rounds.end(), [&](const LimitsRound& r) {
        return r.within.run.events.limitTransitions() == 0 && r.crossing.run.events.parametersInViolation.size() == expected;
    });
}

bool LimitsReport::passed() const
{
    return nothingLost() && exercisedAsPlanned() && medianRisePercent() < options.maxRisePercent;
}

std::string runLimits(StationHost& host, LimitsReport& report, const std::function<void(const std::string&)>& say)
{
    const LimitsOptions& o = report.options;
    report.streams = report.test->streams.size();
    const auto runOne = [&](LimitsRound& round, bool crossing, bool first) -> std::string {
        LimitsRun& out = crossing ? round.crossing : round.within;
        out.waitedSeconds = waitUntilIdle(o, first, say);
        out.loadBefore = loadAverage();
        RunOptions run = o.run;
        run.generators = crossing ? report.plan.crossing : report.plan.within;
        run.label = "r" + std::to_string(round.number) + (crossing ? "-crossing" : "-within");
        if (auto e = runTest(run, host, *report.test, o.mbps, out.run); !e.empty())
            return e;
        const RunResult& r = out.run;
        say("  " + std::string(crossing ? "(b) crossing" : "(a) within  ") + "  sent " + grouped(double(r.sent)) + ", "
            + (r.ok ? "100% delivered" : "LOSS: " + r.failure) + "; limit events " + grouped(double(r.events.limitTransitions()))
            + "; ts-processor " + fixed(out.processorCpu(), 3) + " s = " + fixed(out.processorCpuPerMillion(), 4)
            + " s per million packets (user space " + fixed(out.processorUserCpuPerMillion(), 4) + "); ts-events " + fixed(out.eventsCpu(), 3) + " s; load " + fixed(out.loadBefore, 2)
            + ", other programs' CPU " + fixed(r.otherCpuPercent, 0) + "%");
        return {};
    };
    for (int n = 1; n <= o.rounds; ++n) {
        LimitsRound round;
        round.number = n;
        round.crossingFirst = n % 2 == 0;
        say("round " + std::to_string(n) + " of " + std::to_string(o.rounds));
        if (auto e = runOne(round, round.crossingFirst, true); !e.empty())
            return e;
        if (auto e = runOne(round, !round.crossingFirst, false); !e.empty())
            return e;
        say("  rise of the processor's CPU per packet: " + fixed(round.risePercent(), 2) + "% (user space "
            + fixed(round.userRisePercent(), 2) + "%)");
        report.rounds.push_back(std::move(round));
    }
    return {};
}

} // namespace telestation::perf
