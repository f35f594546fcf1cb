// `telestation --headless` as a program the test starts (the integration tests of the headless mode and
// of what survives a crash): a free UDP port for its stream, the process started without a display, and
// the wait for its first status line (its sockets are bound by then). Header-only.
#pragma once

#include "tests/support/test_paths.hpp"

#include <QDeadlineTimer>
#include <QObject>
#include <QProcess>
#include <QProcessEnvironment>
#include <QStringList>

#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cstdint>

namespace telestation::test {

// A port of the given socket type on 127.0.0.1 that nobody uses right now (bound and released; the
// station binds it next).
inline std::uint16_t freePort(int type)
{
    const int fd = ::socket(AF_INET, type, 0);
    sockaddr_in addr{};
    addr.sin_family = AF_INET;
    addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    ::bind(fd, reinterpret_cast<sockaddr*>(&addr), sizeof addr);
    socklen_t len = sizeof addr;
    ::getsockname(fd, reinterpret_cast<sockaddr*>(&addr), &len);
    ::close(fd);
    return ntohs(addr.sin_port);
}

inline std::uint16_t freeUdpPort()
{
    return freePort(SOCK_DGRAM);
}

// The built `telestation` with these arguments, without a display.
inline QProcess* startTelestation(QObject* parent, const QStringList& args)
{
    auto* p = new QProcess(parent);
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.remove(QStringLiteral("DISPLAY"));
    env.remove(QStringLiteral("WAYLAND_DISPLAY"));
    p->setProcessEnvironment(env);
    p->start(binDir() + QStringLiteral("/telestation"), args);
    return p;
}

// Waits until the headless station printed its first status line (printed after start: its sockets are
// bound). False when it ended or did not print one in 15 s.
inline bool waitForStatusLine(QProcess& p)
{
    QByteArray out;
    QDeadlineTimer deadline(15000);
    while (!deadline.hasExpired()) {
        if (p.waitForReadyRead(200)) {
            out += p.peek(1 << 20);
            if (out.contains("up 00:"))
                return true;
        }
        if (p.state() == QProcess::NotRunning)
            return false;
    }
    return false;
}

} // namespace telestation::test
