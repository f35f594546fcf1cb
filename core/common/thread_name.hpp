// Names the calling thread ("ts-processor"), as top -H, perf and /proc/PID/task/TID/comm show it:
// telestation-perf reads the CPU time of each of the station's threads by these names. Linux keeps 15
// characters; a longer name is cut. Header-only, std + POSIX.
#pragma once

#include <pthread.h>

#include <string>

namespace telestation {

inline constexpr std::size_t kThreadNameMax = 15;

inline void setThreadName(std::string name) noexcept
{
    if (name.size() > kThreadNameMax)
        name.resize(kThreadNameMax);
    ::pthread_setname_np(::pthread_self(), name.c_str()); // fails only for names too long
}

} // namespace telestation
