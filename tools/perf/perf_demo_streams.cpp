#include "tools/perf/perf_demo_streams.hpp"

#include "core/common/paths.hpp"
#include "core/mdb/sqlite_store.hpp"
#include "sim/engine/scenario.hpp"
#include "sim/engine/sim_stream.hpp"
#include "tools/perf/perf_station_host.hpp"

namespace telestation::perf {

namespace fs = std::filesystem;

namespace {

Json readJson(const fs::path& path, std::string& error)
{
    const std::string text = readFile(path);
    Json j = Json::parse(text, nullptr, false);
    if (text.empty() || j.is_discarded())
        error = path.string() + ": cannot read it as JSON";
    return j;
}

} // namespace

std::string loadDemoStreams(const fs::path& dataDir, const std::string& mdbPath, double totalMbps, DemoStreams& out)
{
    out = DemoStreams{};
    const fs::path scenarioPath = dataDir / "scenarios" / "demo.json";
    const fs::path profilePath = dataDir / "profiles" / "training.json";
    out.displayFile = dataDir / "displays" / "demo.json";
    if (!fs::exists(out.displayFile))
        return out.displayFile.string() + ": no such file";
    auto scenario = sim::loadScenarioFile(scenarioPath.string());
    if (!scenario)
        return scenario.error().toString();
    std::string error;
    const Json scenarioJson = readJson(scenarioPath, error);
    const Json profileJson = readJson(profilePath, error);
    if (!error.empty())
        return error;
    auto db = mdb::loadDatabase(mdbPath.empty() ? trainingDatabasePath().string() : mdbPath);
    if (!db)
        return db.error().toString();

    // Each fault-free stream's bit rate in the demo: its rate as written, for its mix's mean packet size
    // as the simulator computes it (a stream made only to ask, sending nowhere).
    std::vector<double> demoBits;
    double demoTotal = 0;
    for (std::size_t i = 0; i < scenario->streams.size(); ++i) {
        const sim::StreamConfig& config = scenario->streams[i];
        if (config.faults.any())
            continue;
        sim::StreamConfig probe = config;
        probe.destination = "udp://127.0.0.1:9";
        auto made = sim::SimStream::create(probe, *db);
        if (!made)
            return "the demo scenario's stream " + config.name + ": " + made.error().toString();
        const double pps = config.rate.packetsPerSecond((*made)->averagePacketBytes());
        if (pps <= 0)
            return "the demo scenario's stream " + config.name + " has no rate to scale (flood)";
        const double bits = pps * (*made)->averagePacketBytes() * 8;
        DemoStream stream;
        stream.name = config.name;
        stream.scenarioStream = scenarioJson["streams"][i];
        stream.scenarioStream.erase("destination");
        for (const Json& s : profileJson["streams"])
            if (s.value("name", std::string()) == config.name)
                stream.profileStream = s;
        if (stream.profileStream.is_null())
            return profilePath.string() + ": no stream " + config.name + " (the demo scenario sends one)";
        stream.tcp = stream.profileStream.value("source", std::string()).rfind(kTcpServerScheme, 0) == 0;
        stream.profileStream["source"] = stream.tcp ? kTcpServerScheme : "";
        out.streams.push_back(std::move(stream));
        demoBits.push_back(bits);
        demoTotal += bits;
    }
    if (out.streams.empty())
        return scenarioPath.string() + ": no stream without faults";
    for (std::size_t i = 0; i < out.streams.size(); ++i) {
        out.streams[i].mbps = totalMbps * demoBits[i] / demoTotal;
        out.streams[i].scenarioStream["rate"] = rateText(out.streams[i].mbps);
    }
    return {};
}

Json guiDisplays(const DemoStreams& demo, const std::vector<std::string>& parameterNames, std::size_t count,
                 const std::string& stream, std::string& error)
{
    Json file = readJson(demo.displayFile, error);
    if (!error.empty())
        return Json();
    if (!file.contains("displays") || !file["displays"].is_array()) {
        error = demo.displayFile.string() + ": no displays";
        return Json();
    }
    Json rows = Json::array();
    for (std::size_t i = 0; i < parameterNames.size() && i < count; ++i)
        rows.push_back({{"stream", stream}, {"parameter", parameterNames[i]}});
    file["displays"].push_back({{"type", "values"}, {"title", "TReK value display"}, {"rows", rows}});
    return file;
}

Json demoScenarioStream(const DemoStream& stream, const std::string& stationAddress, std::uint16_t port)
{
    Json s = stream.scenarioStream;
    s["destination"] = std::string(stream.tcp ? "tcp://" : "udp://") + stationAddress + ":" + std::to_string(port);
    return s;
}

} // namespace telestation::perf
