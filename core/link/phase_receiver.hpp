// The responder's side of one phase: opens the phase's port (UDP, or TCP accepting up to the requested
// number of flows) on the responder's address, counts what arrives in a thread of its own
// (`ts-link-rx`), and hands the counts over when the controller says the phase is finished.
#pragma once

#include "core/common/result.hpp"
#include "core/link/protocol.hpp"

#include <chrono>
#include <cstdint>
#include <memory>
#include <string>

namespace telestation::link {

class PhaseReceiver {
public:
    // Opens an ephemeral port on `bindHost` (the address the control connection arrived on) and starts
    // counting. Errors name the system's reason.
    [[nodiscard]] static Result<std::unique_ptr<PhaseReceiver>> open(const PhaseRequest& request, const std::string& bindHost);
    ~PhaseReceiver();
    PhaseReceiver(const PhaseReceiver&) = delete;
    PhaseReceiver& operator=(const PhaseReceiver&) = delete;

    [[nodiscard]] std::uint16_t port() const noexcept;

    // Ends the phase: waits until the traffic has drained — every TCP flow closed by the sender, or
    // nothing received on UDP for `quiet` — but at most `limit`, then stops and returns the counts.
    [[nodiscard]] PhaseResult finish(std::chrono::milliseconds quiet, std::chrono::milliseconds limit);

    struct Impl;

private:
    explicit PhaseReceiver(std::unique_ptr<Impl> impl);
    std::unique_ptr<Impl> m_impl;
};

// The monotonic clock in ns, as both ends stamp their own events (never compared across hosts).
[[nodiscard]] std::int64_t monotonicNs() noexcept;
// CPU seconds the calling thread has used.
[[nodiscard]] double threadCpuSeconds() noexcept;

} // namespace telestation::link
