// SimStream: one simulated telemetry stream — builds packets of its mix from the mission database
// (headers, per-APID sequence counts, CUC time, every parameter from its value generator), paces
// them at the configured rate, injects the configured faults, and writes them to its destination.
// Runs on a thread of its own; the GUI and the CLI read its live counters and summary at any time.
#pragma once

#include "core/common/result.hpp"
#include "core/io/sender.hpp"
#include "core/mdb/model.hpp"
#include "sim/engine/scenario.hpp"
#include "sim/engine/sim_summary.hpp"

#include <atomic>
#include <cstdint>
#include <memory>
#include <mutex>
#include <thread>

namespace telestation::sim {

// Counters the GUI polls (relaxed atomics written by the stream's thread once per batch).
struct LiveCounters {
    std::uint64_t generated = 0;
    std::uint64_t packets = 0;
    std::uint64_t bytes = 0;
    std::uint64_t notSent = 0;
    double seconds = 0;      // since the stream started (to its end once it has stopped)
    bool running = false;
    bool finished = false;   // reached its count or duration
};

class SimStream {
public:
    // Resolves the configuration against the database: mix entries (name or APID), generators
    // (unknown parameters are errors), the destination URL and rate; opens the sender (tcp-listen
    // starts listening now). Errors name the stream.
    [[nodiscard]] static Result<std::unique_ptr<SimStream>> create(const StreamConfig& config,
                                                                   const mdb::MissionDatabase& db,
                                                                   const io::SenderOptions& options = {});
    ~SimStream();
    SimStream(const SimStream&) = delete;
    SimStream& operator=(const SimStream&) = delete;

    void start();              // starts the thread (no-op when running); a finished stream starts afresh
    void stop();               // asks the thread to finish and joins it
    void wait();               // joins the thread once it has finished by itself (count/duration)
    [[nodiscard]] bool running() const noexcept { return m_running.load(std::memory_order_acquire); }

    // Live changes, taken at the next batch.
    void setRate(const Rate& rate);
    void setFaults(const FaultConfig& faults);

    [[nodiscard]] const StreamConfig& config() const noexcept { return m_config; }
    [[nodiscard]] LiveCounters live() const noexcept;
    [[nodiscard]] StreamSummary summary() const;
    // The destination's state ("sending to …", "connecting …", "listening on … (n clients)"), as the
    // stream's thread last published it (at most 100 ms old while running). Thread-safe.
    [[nodiscard]] std::string senderState() const;
    [[nodiscard]] std::uint16_t localPort() const; // tcp-listen: the port actually bound
    [[nodiscard]] double averagePacketBytes() const noexcept { return m_averageBytes; }

private:
    struct Impl;
    explicit SimStream(StreamConfig config);
    void run();

    StreamConfig m_config;
    std::unique_ptr<Impl> m_impl;
    double m_averageBytes = 0;
    std::thread m_thread;
    std::atomic<bool> m_running{false};
    std::atomic<bool> m_stopRequested{false};
};

} // namespace telestation::sim
