#include "core/config/mission_file.hpp"
#include "sim/engine/simulator.hpp"

#include "core/mdb/sqlite_store.hpp"

namespace telestation::sim {

Result<std::unique_ptr<Simulator>> Simulator::fromScenario(const Scenario& scenario, const std::string& fallbackMdbPath,
                                                           const io::SenderOptions& options)
{
    const std::string path = scenario.mdb.empty() ? fallbackMdbPath : scenario.mdb;
    auto mission = config::loadMission(path);
    if (!mission.ok())
        return mission.error();
    auto simulator = std::make_unique<Simulator>(std::move(*mission.database), scenario.mdb);
    for (const auto& config : scenario.streams)
        if (auto added = simulator->addStream(config, options); !added)
            return added.error();
    return simulator;
}

Status Simulator::addStream(const StreamConfig& config, const io::SenderOptions& options)
{
    auto stream = SimStream::create(config, m_db, options);
    if (!stream)
        return stream.error();
    m_streams.push_back(std::move(stream).value());
    return {};
}

void Simulator::removeStream(std::size_t index)
{
    if (index >= m_streams.size())
        return;
    m_streams[index]->stop();
    m_streams.erase(m_streams.begin() + static_cast<std::ptrdiff_t>(index));
}

Scenario Simulator::scenario() const
{
    Scenario s;
    s.mdb = m_mdbPath;
    for (const auto& stream : m_streams)
        s.streams.push_back(stream->config());
    return s;
}

void Simulator::startAll()
{
    for (auto& s : m_streams)
        s->start();
}

void Simulator::stopAll()
{
    for (auto& s : m_streams)
        s->stop();
}

bool Simulator::anyRunning() const
{
    for (const auto& s : m_streams)
        if (s->running())
            return true;
    return false;
}

SimSummary Simulator::summary() const
{
    SimSummary summary;
    for (const auto& s : m_streams)
        summary.streams.push_back(s->summary());
    return summary;
}

} // namespace telestation::sim
