// Waiting on a condition, never on time: tests poll what they expect and give up only after a timeout
// that a healthy run never comes near (sanitizers and a loaded 2-core machine included).
#pragma once

#include <chrono>
#include <functional>
#include <thread>

namespace telestation::test {

inline constexpr std::chrono::milliseconds kGenerousWait{30'000};

// True as soon as `condition` holds; false if it still does not after `timeout`.
inline bool waitUntil(const std::function<bool()>& condition, std::chrono::milliseconds timeout = kGenerousWait)
{
    const auto deadline = std::chrono::steady_clock::now() + timeout;
    while (!condition()) {
        if (std::chrono::steady_clock::now() >= deadline)
            return condition();
        std::this_thread::sleep_for(std::chrono::milliseconds(2));
    }
    return true;
}

} // namespace telestation::test
