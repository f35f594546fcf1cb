// The far end of a link test (docs/link-test.md): listens for one controller at a time on its control
// address, opens each phase's port when asked, counts what arrives and reports it. It runs inside the
// station (`telestation --headless --link-responder ADDR:PORT`, or the profile's "linkResponder") or
// a second simulator (`telestation-sim link --respond ADDR:PORT`).
//
// Who may connect: loopback, and the addresses it was told (`allow`); anyone else is told why and
// disconnected. A second controller while a test runs is told the responder is busy. When the
// controller goes away (closes, resets, or its host vanishes: TCP keep-alive), whatever the test had
// open is closed and the responder waits for the next one.
#pragma once

#include "core/common/result.hpp"
#include "core/mdb/model.hpp"

#include <atomic>
#include <cstdint>
#include <memory>
#include <string>
#include <thread>
#include <vector>

namespace telestation::link {

struct ResponderOptions {
    std::string listen;              // "HOST:PORT" (port 0: the system picks one)
    std::vector<std::string> allow;  // controller addresses allowed besides loopback (names resolved at start)
    // The mission for the telemetry test (the station's, or the simulator's); without one, that test is
    // refused with a reason and the others run.
    std::shared_ptr<const mdb::MissionDatabase> mission;
    bool once = false;               // stop after the first test session
};

struct ResponderCounts {
    std::uint64_t sessions = 0; // test sessions served to their end
    std::uint64_t refused = 0;  // connections refused: not allowed, or busy
    std::uint64_t phases = 0;   // phases run
};

class Responder {
public:
    [[nodiscard]] static Result<std::unique_ptr<Responder>> start(ResponderOptions options);
    ~Responder(); // stops
    Responder(const Responder&) = delete;
    Responder& operator=(const Responder&) = delete;

    void stop();
    [[nodiscard]] std::uint16_t port() const noexcept;    // the control port actually bound
    [[nodiscard]] std::string address() const;           // "127.0.0.1:7700"
    [[nodiscard]] bool finished() const noexcept;        // `once` and its session is over, or stopped
    [[nodiscard]] bool busy() const noexcept;            // a session is running
    [[nodiscard]] ResponderCounts counts() const noexcept;

    struct Impl;

private:
    explicit Responder(std::unique_ptr<Impl> impl);
    std::unique_ptr<Impl> m_impl;
};

} // namespace telestation::link
