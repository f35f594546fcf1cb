// Simulator: the mission database and the streams of one simulator process — what the CLI and the
// GUI drive. Streams run on threads of their own; this object is used from one thread.
#pragma once

#include "core/common/result.hpp"
#include "core/mdb/model.hpp"
#include "sim/engine/scenario.hpp"
#include "sim/engine/sim_stream.hpp"
#include "sim/engine/sim_summary.hpp"

#include <memory>
#include <string>
#include <vector>

namespace telestation::sim {

class Simulator {
public:
    // `mdbPath`: what scenario() reports as the database ("" = the training database).
    explicit Simulator(mdb::MissionDatabase db, std::string mdbPath = {}) : m_db(std::move(db)), m_mdbPath(std::move(mdbPath)) {}

    // Loads the database a scenario names ("" = `fallbackMdbPath`), then creates every stream.
    [[nodiscard]] static Result<std::unique_ptr<Simulator>> fromScenario(const Scenario& scenario,
                                                                         const std::string& fallbackMdbPath,
                                                                         const io::SenderOptions& options = {});

    [[nodiscard]] Status addStream(const StreamConfig& config, const io::SenderOptions& options = {});
    void removeStream(std::size_t index); // stops it first

    [[nodiscard]] const mdb::MissionDatabase& database() const noexcept { return m_db; }
    [[nodiscard]] std::vector<std::unique_ptr<SimStream>>& streams() noexcept { return m_streams; }
    [[nodiscard]] Scenario scenario() const; // the current streams' configurations

    void startAll();
    void stopAll();
    [[nodiscard]] bool anyRunning() const;
    [[nodiscard]] SimSummary summary() const;

private:
    mdb::MissionDatabase m_db;
    std::string m_mdbPath;
    std::vector<std::unique_ptr<SimStream>> m_streams;
};

} // namespace telestation::sim
