// Lowers the calling thread's scheduling priority: its nice value, which Linux keeps per thread
// (setpriority on the thread's id). For threads whose work can wait a few milliseconds — the event
// monitor's storm summaries, alarm changes, SQLite archive and JSON lines — so that when the cores are
// full they never take one from the data path (receivers, router, processor, recorder), whose queues
// overflow within tens of milliseconds. Lowering needs no privilege. Header-only, POSIX + Linux.
#pragma once

#include <sys/resource.h>
#include <unistd.h>

#include <cerrno>

namespace telestation {

// The nice value of threads that only report (0 is the default, 19 the lowest priority). At 10 the
// scheduler gives such a thread about a tenth of a busy core's share when it competes with a thread at 0,
// and all of an idle core.
inline constexpr int kReportingThreadNice = 10;

// Sets the calling thread's nice value to `nice` unless it is already at least that low; true on success.
inline bool lowerThreadPriority(int nice) noexcept
{
    const pid_t tid = ::gettid();
    errno = 0;
    const int current = ::getpriority(PRIO_PROCESS, static_cast<id_t>(tid));
    if (current == -1 && errno != 0)
        return false;
    if (current >= nice)
        return true;
    return ::setpriority(PRIO_PROCESS, static_cast<id_t>(tid), nice) == 0;
}

} // namespace telestation
