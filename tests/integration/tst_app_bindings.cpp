// Every socket the station binds is where its profile says (issue 17, "security basics"): a headless
// station with a UDP stream, a TCP listening stream, a UDP forward destination, a TCP listening forward
// destination and the API, all on 127.0.0.1, has no socket on a wildcard or any other address, listens
// on exactly the profile's listening ports and the API's, and binds UDP only on its stream's port (a
// sender's socket is connected, not listening). Read from /proc/PID/net after the station is up.
#include "tests/support/headless_process.hpp"
#include "tests/support/test_paths.hpp"

#include <QtTest>

#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QProcessEnvironment>
#include <QTemporaryDir>

#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <set>

namespace {

struct Socket {
    QString protocol; // tcp, tcp6, udp, udp6
    QString address;  // as /proc shows it: hex
    std::uint16_t port = 0;
    int state = 0;    // TCP_LISTEN is 10; a bound, unconnected UDP socket is 7 (TCP_CLOSE)
    bool connected = false; // has a remote address
    QString text() const
    {
        return QStringLiteral("%1 %2:%3 state %4%5").arg(protocol, address).arg(port).arg(state).arg(
            connected ? QStringLiteral(" connected") : QString());
    }
};

// The inodes of the sockets the process has open.
std::set<QString> socketInodes(qint64 pid)
{
    std::set<QString> inodes;
    const QDir fds(QStringLiteral("/proc/%1/fd").arg(pid));
    for (const QString& fd : fds.entryList(QDir::NoDotAndDotDot | QDir::System | QDir::Files)) {
        char buffer[128] = {};
        const ssize_t n = ::readlink(fds.filePath(fd).toLocal8Bit().constData(), buffer, sizeof buffer - 1);
        const QString name = QString::fromLatin1(buffer, n > 0 ? int(n) : 0);
        if (name.startsWith(QStringLiteral("socket:[")))
            inodes.insert(name.mid(8, name.size() - 9));
    }
    return inodes;
}

// The process's IP sockets, from /proc/PID/net/{tcp,tcp6,udp,udp6} (the table of its network namespace,
// so only the rows with one of its inodes).
std::vector<Socket> socketsOf(qint64 pid)
{
    const std::set<QString> inodes = socketInodes(pid);
    std::vector<Socket> out;
    for (const QString& protocol : {QStringLiteral("tcp"), QStringLiteral("tcp6"), QStringLiteral("udp"), QStringLiteral("udp6")}) {
        QFile table(QStringLiteral("/proc/%1/net/%2").arg(pid).arg(protocol));
        if (!table.open(QIODevice::ReadOnly))
            continue;
        const QList<QByteArray> lines = table.readAll().split('\n');
        for (int i = 1; i < lines.size(); ++i) {
            const QStringList f = QString::fromLatin1(lines[i]).split(u' ', Qt::SkipEmptyParts);
            if (f.size() < 10 || inodes.count(f[9]) == 0)
                continue;
            Socket s;
            s.protocol = protocol;
            const QStringList local = f[1].split(u':');
            const QStringList remote = f[2].split(u':');
            s.address = local[0];
            s.port = static_cast<std::uint16_t>(local[1].toUInt(nullptr, 16));
            s.state = f[3].toInt(nullptr, 16);
            s.connected = remote[1].toUInt(nullptr, 16) != 0;
            out.push_back(s);
        }
    }
    return out;
}

// The profile: everything on 127.0.0.1, the API on any free port.
QString writeProfile(const QTemporaryDir& dir, std::uint16_t udpStream, std::uint16_t udpDestination,
                     std::uint16_t tcpForward, std::uint16_t tcpStream)
{
    auto url = [](const char* scheme, std::uint16_t port) {
        return QStringLiteral("%1://127.0.0.1:%2").arg(QLatin1String(scheme)).arg(port);
    };
    const QJsonObject unknown{{QStringLiteral("mode"), QStringLiteral("passThru")},
                              {QStringLiteral("forward"), QJsonArray{url("udp", udpDestination), url("tcp-listen", tcpForward)}}};
    const QJsonObject tm{{QStringLiteral("name"), QStringLiteral("tm")},
                         {QStringLiteral("source"), url("udp", udpStream)},
                         {QStringLiteral("unknownPackets"), unknown}};
    const QJsonObject hk{{QStringLiteral("name"), QStringLiteral("hk")}, {QStringLiteral("source"), url("tcp-listen", tcpStream)}};
    const QJsonObject profile{{QStringLiteral("recordingDirectory"), QStringLiteral("rec")},
                              {QStringLiteral("logDirectory"), QStringLiteral("logs")},
                              {QStringLiteral("api"), QJsonObject{{QStringLiteral("address"), QStringLiteral("127.0.0.1")},
                                                                  {QStringLiteral("port"), 0}}},
                              {QStringLiteral("streams"), QJsonArray{tm, hk}}};
    const QString path = dir.filePath(QStringLiteral("station.json"));
    QFile f(path);
    if (!f.open(QIODevice::WriteOnly) || f.write(QJsonDocument(profile).toJson()) < 0)
        return {};
    return path;
}

// 127.0.0.1 as /proc/net/tcp writes it, and as /proc/net/tcp6 writes ::ffff:127.0.0.1 (gRPC binds an
// IPv6 socket to the v4-mapped address, which takes connections to 127.0.0.1 only).
const QString kLoopbackV4 = QStringLiteral("0100007F");
const QString kLoopbackV4Mapped = QStringLiteral("0000000000000000FFFF00000100007F");
constexpr int kTcpListen = 10;

} // namespace

class TestAppBindings : public QObject {
    Q_OBJECT

private slots:
    void everySocketIsWhereTheProfileSays()
    {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const std::uint16_t udpStream = telestation::test::freePort(SOCK_DGRAM);
        const std::uint16_t tcpStream = telestation::test::freePort(SOCK_STREAM);
        const std::uint16_t tcpForward = telestation::test::freePort(SOCK_STREAM);
        const std::uint16_t udpDestination = telestation::test::freePort(SOCK_DGRAM);
        const QString profile = writeProfile(dir, udpStream, udpDestination, tcpForward, tcpStream);
        QVERIFY(!profile.isEmpty());

        QProcess station;
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.remove(QStringLiteral("DISPLAY"));
        env.remove(QStringLiteral("WAYLAND_DISPLAY"));
        station.setProcessEnvironment(env);
        station.setProcessChannelMode(QProcess::MergedChannels);
        station.start(telestation::test::binDir() + QStringLiteral("/telestation"),
                      {QStringLiteral("--headless"), QStringLiteral("--profile"), profile});
        QVERIFY(station.waitForStarted(10000));
        // Up: both listening streams, the forward listener and the API are listening.
        std::vector<Socket> sockets;
        QDeadlineTimer deadline(60000);
        auto listening = [&] {
            int n = 0;
            for (const Socket& s : sockets)
                n += s.state == kTcpListen ? 1 : 0;
            return n;
        };
        while (!deadline.hasExpired() && station.state() == QProcess::Running) {
            sockets = socketsOf(station.processId());
            if (listening() >= 3)
                break;
            QTest::qWait(100);
        }
        QTest::qWait(500); // anything else it would open at start-up
        sockets = socketsOf(station.processId());
        QStringList all;
        for (const Socket& s : sockets)
            all << s.text();
        qInfo("%s", qPrintable(all.join(QStringLiteral("; "))));
        QVERIFY2(station.state() == QProcess::Running, station.readAll().constData());

        std::set<std::uint16_t> listeningPorts;
        std::set<std::uint16_t> boundUdpPorts;
        for (const Socket& s : sockets) {
            // Nothing on a wildcard (0.0.0.0, ::) or another address: only 127.0.0.1, as the profile says.
            QVERIFY2(s.address == kLoopbackV4 || s.address == kLoopbackV4Mapped, qPrintable(s.text()));
            if (s.state == kTcpListen)
                listeningPorts.insert(s.port);
            if (s.protocol == QStringLiteral("udp") && !s.connected)
                boundUdpPorts.insert(s.port);
        }
        // Listening: the TCP stream, the TCP forward destination and the API (any free port) — no more.
        QCOMPARE(listeningPorts.size(), std::size_t{3});
        QVERIFY(listeningPorts.count(tcpStream) == 1);
        QVERIFY(listeningPorts.count(tcpForward) == 1);
        // Receiving UDP: the stream's port only (the forwarder's socket is connected to its destination).
        QCOMPARE(boundUdpPorts, std::set<std::uint16_t>{udpStream});

        station.terminate();
        QVERIFY(station.waitForFinished(20000));
    }
};

QTEST_GUILESS_MAIN(TestAppBindings)
#include "tst_app_bindings.moc"
