#include "app/quit_on_signal.hpp"

#include <QCoreApplication>
#include <QSocketNotifier>

#include <spdlog/spdlog.h>

#include <pthread.h>
#include <signal.h>
#include <sys/signalfd.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

namespace telestation::app {

namespace {

sigset_t quitSignals()
{
    sigset_t set;
    sigemptyset(&set);
    sigaddset(&set, SIGINT);
    sigaddset(&set, SIGTERM);
    return set;
}

} // namespace

void QuitOnSignal::blockSignals()
{
    const sigset_t set = quitSignals();
    pthread_sigmask(SIG_BLOCK, &set, nullptr);
}

QuitOnSignal::QuitOnSignal(QObject* parent) : QObject(parent)
{
    const sigset_t set = quitSignals();
    m_fd = ::signalfd(-1, &set, SFD_NONBLOCK | SFD_CLOEXEC);
    if (m_fd < 0) {
        spdlog::warn("SIGINT and SIGTERM cannot be taken (signalfd: {}); they end the program at once",
                     std::strerror(errno));
        pthread_sigmask(SIG_UNBLOCK, &set, nullptr);
        return;
    }
    m_notifier = new QSocketNotifier(m_fd, QSocketNotifier::Read, this);
    connect(m_notifier, &QSocketNotifier::activated, this, &QuitOnSignal::take);
}

QuitOnSignal::~QuitOnSignal()
{
    if (m_fd >= 0)
        ::close(m_fd);
}

void QuitOnSignal::take()
{
    signalfd_siginfo info{};
    int sig = 0;
    while (::read(m_fd, &info, sizeof info) == static_cast<ssize_t>(sizeof info))
        sig = static_cast<int>(info.ssi_signo);
    if (sig == 0)
        return;
    spdlog::info("stopping on {}", sig == SIGINT ? "SIGINT" : "SIGTERM");
    QCoreApplication::exit(0);
}

} // namespace telestation::app
