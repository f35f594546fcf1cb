// The machine's reference figures for telestation-perf. The disk write rate is measured for real in a
// temporary directory. iperf3's loss-free UDP rate search is checked against stand-in iperf3 scripts
// (the real iperf3 serves, the stand-in client reports loss above a known rate, so the sequence of
// rates tried is known in advance) and once against the real iperf3 on loopback. The child processes
// it runs are perf::Child's, whose stop, environment and descriptors are checked here too.
#include "tools/perf/perf_process.hpp"
#include "tools/perf/perf_reference.hpp"

#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QRegularExpression>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QtTest>

#include <algorithm>
#include <cerrno>
#include <csignal>
#include <cstdint>
#include <fcntl.h>
#include <optional>
#include <sys/wait.h>
#include <unistd.h>
#include <vector>

using namespace telestation::perf;

namespace {

constexpr std::uint64_t kMiB = 1ull << 20;
// A socket buffer that any kernel's default net.core.rmem_max and wmem_max (208 KiB) allow.
constexpr std::size_t kSmallBuffer = 128 * 1024;

// Whether every child process this test started has ended and been reaped (no zombie either).
bool noChildrenLeft()
{
    errno = 0;
    return waitpid(-1, nullptr, WNOHANG) == -1 && errno == ECHILD;
}

QStringList entriesOf(const QString& directory)
{
    return QDir(directory).entryList(QDir::AllEntries | QDir::Hidden | QDir::System | QDir::NoDotAndDotDot);
}

QString realIperf3()
{
    return QStandardPaths::findExecutable(QStringLiteral("iperf3"));
}

// net.core.rmem_max and the like; nullopt when /proc does not say.
std::optional<std::size_t> netCoreLimit(const char* name)
{
    QFile file(QStringLiteral("/proc/sys/net/core/") + QLatin1String(name));
    bool ok = false;
    const std::size_t value = file.open(QIODevice::ReadOnly) ? file.readAll().trimmed().toULongLong(&ok) : 0;
    return ok ? std::optional(value) : std::nullopt;
}

// Points TMPDIR at a directory of its own while it lives, so a test can see what is left in it.
class TemporaryTmpdir {
public:
    TemporaryTmpdir()
        : m_old(qgetenv("TMPDIR"))
        , m_hadOld(qEnvironmentVariableIsSet("TMPDIR"))
    {
        qputenv("TMPDIR", m_dir.path().toUtf8());
    }
    ~TemporaryTmpdir()
    {
        if (m_hadOld)
            qputenv("TMPDIR", m_old);
        else
            qunsetenv("TMPDIR");
    }
    TemporaryTmpdir(const TemporaryTmpdir&) = delete;
    TemporaryTmpdir& operator=(const TemporaryTmpdir&) = delete;

    [[nodiscard]] bool isValid() const { return m_dir.isValid(); }
    [[nodiscard]] QString path() const { return m_dir.path(); }

private:
    QTemporaryDir m_dir;
    QByteArray m_old;
    bool m_hadOld;
};

// Skips a test whose stand-in serves with the real iperf3.
#define SKIP_WITHOUT_IPERF3()                                                                                          \
    do {                                                                                                               \
        if (realIperf3().isEmpty())                                                                                    \
            QSKIP("iperf3 is not installed (apt-get install iperf3)");                                                 \
    } while (false)

// The start of every stand-in script: each call's arguments are appended to calls.log beside it.
constexpr const char* kLogCall = "#!/bin/bash\n"
                                 "echo \"$*\" >> \"$(dirname \"$0\")/calls.log\"\n";

// A stand-in iperf3 that answers --version as "iperf 3.99" and does `otherwise` for anything else.
QByteArray versionOnly(const QByteArray& otherwise)
{
    return kLogCall + QByteArray("[ \"$1\" = --version ] && { echo \"iperf 3.99\"; exit 0; }\n") + otherwise;
}

// A stand-in iperf3: the real one serves (so the server really listens on the port it was given), the
// client only releases that one-off server and reports what CLIENT_BODY prints.
QByteArray standIn(const QByteArray& clientBody)
{
    QByteArray script = kLogCall
        + QByteArray("case \"$1\" in\n"
                     "--version) echo \"iperf 3.99 (stand-in)\"; exit 0 ;;\n"
                     "-s) exec \"@REAL@\" \"$@\" ;;\n"
                     "esac\n"
                     "port=0\n"
                     "rate=0\n"
                     "while [ $# -gt 0 ]; do\n"
                     "    case \"$1\" in\n"
                     "    -p) port=$2; shift ;;\n"
                     "    -b) rate=${2%M}; shift ;;\n"
                     "    esac\n"
                     "    shift\n"
                     "done\n"
                     "# The one-off server waits for a client: a connection that closes at once ends it.\n"
                     "exec 3<>\"/dev/tcp/127.0.0.1/$port\" && exec 3>&-\n"
                     "CLIENT_BODY\n");
    script.replace("CLIENT_BODY", clientBody);
    return script;
}

// A stand-in script as an executable "iperf3" in a temporary directory of its own; "@REAL@" in it
// becomes the real iperf3's path.
class FakeIperf3 {
public:
    explicit FakeIperf3(QByteArray script)
    {
        script.replace("@REAL@", realIperf3().toUtf8());
        QFile file(m_dir.filePath(QStringLiteral("iperf3")));
        if (!m_dir.isValid() || !file.open(QIODevice::WriteOnly) || file.write(script) != script.size())
            return;
        file.close();
        file.setPermissions(QFile::ReadOwner | QFile::WriteOwner | QFile::ExeOwner);
        m_path = file.fileName();
    }

    [[nodiscard]] bool isValid() const { return !m_path.isEmpty(); }

    // The stand-in with a socket buffer that every kernel allows: the stand-in client does not use it,
    // only its -w argument is looked at.
    [[nodiscard]] UdpReferenceOptions options() const
    {
        UdpReferenceOptions options;
        options.iperf3 = m_path.toStdString();
        options.socketBufferBytes = kSmallBuffer;
        return options;
    }

    [[nodiscard]] QStringList calls() const
    {
        QFile log(m_dir.filePath(QStringLiteral("calls.log")));
        if (!log.open(QIODevice::ReadOnly))
            return {};
        return QString::fromUtf8(log.readAll()).split(QLatin1Char('\n'), Qt::SkipEmptyParts);
    }

    // The calls that started an iperf3 client ("-c ...").
    [[nodiscard]] QStringList clientCalls() const
    {
        QStringList clients;
        for (const QString& call : calls())
            if (call.startsWith(QStringLiteral("-c ")))
                clients << call;
        return clients;
    }

private:
    QTemporaryDir m_dir;
    QString m_path;
};

// A client that loses 7 datagrams above 300 Mbit/s and none at or below it; it receives what it was
// asked for, 100 datagrams per Mbit/s over 1 s.
const QByteArray kLossAbove300
    = "lost=0\n"
      "[ \"$rate\" -gt 300 ] && lost=7\n"
      "packets=$((rate * 100))\n"
      "bits=$((rate * 1000000))\n"
      "printf '{\"start\":{},\"intervals\":[],\"end\":{"
      "\"sum_sent\":{\"seconds\":1,\"bits_per_second\":%d,\"packets\":%d,\"lost_packets\":0},"
      "\"sum_received\":{\"seconds\":1,\"bits_per_second\":%d,\"packets\":%d,\"lost_packets\":%d}}}' "
      "$bits $packets $bits $packets $lost\n";

std::vector<double> askedRates(const UdpReference& reference)
{
    std::vector<double> rates;
    for (const auto& run : reference.tries)
        rates.push_back(run.askedMbps);
    return rates;
}

QByteArray describe(const UdpReference& reference)
{
    QByteArray text = "available " + QByteArray::number(reference.available) + ", reason '"
        + QByteArray::fromStdString(reference.reason) + "', loss-free " + QByteArray::number(reference.lossFreeMbps)
        + " Mbit/s, tries:";
    for (const auto& run : reference.tries)
        text += " " + QByteArray::number(run.askedMbps) + (run.ok ? " ok" : " lossy")
            + (run.error.empty() ? QByteArray() : " (" + QByteArray::fromStdString(run.error) + ")");
    return text;
}

// Waits up to 5 s for `text` to appear in `path`.
bool waitForText(const QString& path, const QByteArray& text)
{
    QElapsedTimer timer;
    timer.start();
    while (timer.elapsed() < 5000) {
        QFile file(path);
        if (file.open(QIODevice::ReadOnly) && file.readAll().contains(text))
            return true;
        sleepMs(10);
    }
    return false;
}

} // namespace

class TestPerfReference : public QObject {
    Q_OBJECT

private slots:
    void diskWriteIntoTemporaryDirectory()
    {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const DiskReference disk = measureDiskWrite(dir.path().toStdString(), 64 * kMiB);
        QVERIFY2(disk.ok, disk.error.c_str());
        QVERIFY(disk.error.empty());
        QCOMPARE(disk.bytes, 64 * kMiB);
        QCOMPARE(disk.directory, dir.path().toStdString());
        QVERIFY(disk.seconds > 0);
        QVERIFY(disk.megabytesPerSecond > 0);
        QVERIFY(qAbs(disk.megabytesPerSecond - 64.0 * 1048576 / 1e6 / disk.seconds) < 1e-6);
        QVERIFY2(
            !disk.filesystem.empty() && disk.filesystem.find(" on /") != std::string::npos, disk.filesystem.c_str());
        QVERIFY2(entriesOf(dir.path()).isEmpty(), qPrintable(entriesOf(dir.path()).join(u' ')));
        qInfo("%s: %.0f MB/s on %s", qPrintable(dir.path()), disk.megabytesPerSecond, disk.filesystem.c_str());
    }

    // In a chroot or a container /proc/self/mounts may not list the directory's file system, or not be
    // there at all: statfs names it then (issue 17 — "unknown filesystem" failed the test there).
    void filesystemWithoutTheMountTable()
    {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const std::string fromTable = filesystemOf(dir.path().toStdString());
        QVERIFY2(fromTable.find(" on /") != std::string::npos, fromTable.c_str());

        // A table that lists only a mount point elsewhere (what a chroot sees), and no table at all.
        const QString table = dir.filePath("mounts");
        QFile file(table);
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.write("/dev/vdb /srv/elsewhere ext4 rw 0 0\n");
        file.close();
        const QDir sub(dir.filePath("sub"));
        QVERIFY(QDir().mkpath(sub.path()));
        for (const QString& mounts : {table, dir.filePath("no-such-table")}) {
            const std::string text = filesystemOf(sub.path().toStdString(), mounts.toStdString());
            QVERIFY2(text.find("from statfs, on " + QDir(sub).canonicalPath().toStdString()) != std::string::npos,
                text.c_str());
            QVERIFY2(text.find("unknown") == std::string::npos, text.c_str());
            // The type statfs gives is the type the mount table gives, where the names agree.
            const std::string tableType = fromTable.substr(0, fromTable.find(' '));
            if (tableType == "tmpfs" || tableType == "xfs" || tableType == "btrfs" || tableType == "overlay")
                QCOMPARE(text.substr(0, text.find(' ')), tableType);
            else if (tableType.rfind("ext", 0) == 0)
                QCOMPARE(text.substr(0, text.find(' ')), std::string("ext2/3/4"));
            qInfo("%s: %s", qPrintable(mounts), text.c_str());
        }
        const std::string missing = filesystemOf(dir.filePath("absent").toStdString(), table.toStdString());
        QVERIFY2(missing.rfind("unknown filesystem (", 0) == 0, missing.c_str());
    }

    void diskWriteOfSizeNotAMultipleOfTheBlock()
    {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const std::uint64_t bytes = 3 * kMiB + 1000;
        const DiskReference disk = measureDiskWrite(dir.path().toStdString(), bytes, 1 << 20);
        QVERIFY2(disk.ok, disk.error.c_str());
        QCOMPARE(disk.bytes, bytes);
        QVERIFY(entriesOf(dir.path()).isEmpty());
    }

    void diskWriteIntoMissingDirectory()
    {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const std::string missing = dir.filePath(QStringLiteral("not-there")).toStdString();
        const DiskReference disk = measureDiskWrite(missing, 4 * kMiB);
        QVERIFY(!disk.ok);
        QVERIFY2(disk.error.find(missing) != std::string::npos, disk.error.c_str());
        QVERIFY2(disk.error.find("No such file or directory") != std::string::npos, disk.error.c_str());
        QCOMPARE(disk.bytes, std::uint64_t(0));
        QVERIFY(entriesOf(dir.path()).isEmpty());
    }

    void diskWriteIntoAFile()
    {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const QString path = dir.filePath(QStringLiteral("plain-file"));
        QFile file(path);
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.close();
        const DiskReference disk = measureDiskWrite(path.toStdString(), 4 * kMiB);
        QVERIFY(!disk.ok);
        QVERIFY2(disk.error.find(path.toStdString()) != std::string::npos, disk.error.c_str());
    }

    void diskWriteRefusesMoreThanTheFreeSpace()
    {
        // Must be refused before the first byte: filling the disk would hurt the whole machine.
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const DiskReference disk = measureDiskWrite(dir.path().toStdString(), 1ull << 62);
        QVERIFY(!disk.ok);
        QVERIFY2(disk.error.find("free") != std::string::npos, disk.error.c_str());
        QVERIFY2(disk.error.find(dir.path().toStdString()) != std::string::npos, disk.error.c_str());
        QVERIFY(entriesOf(dir.path()).isEmpty());
    }

    void udpWithoutIperf3()
    {
        UdpReferenceOptions options;
        options.iperf3 = "/nonexistent/iperf3";
        const UdpReference udp = measureUdpReference(options);
        QVERIFY(!udp.available);
        QVERIFY2(udp.reason.find("not installed") != std::string::npos, udp.reason.c_str());
        QVERIFY(udp.tries.empty());
        QCOMPARE(udp.lossFreeMbps, 0.0);
        QCOMPARE(udp.datagramBytes, 1288);
        QCOMPARE(udp.socketBufferBytes, std::size_t(64 * kMiB)); // the station's receive buffer
    }

    void udpWithIperf3ThatDoesNotRun()
    {
        const FakeIperf3 iperf3("#!/bin/bash\necho 'iperf3: cannot load libiperf.so.0' >&2\nexit 127\n");
        QVERIFY(iperf3.isValid());
        const UdpReference udp = measureUdpReference(iperf3.options());
        QVERIFY(!udp.available);
        QVERIFY2(udp.reason.find("status 127") != std::string::npos, udp.reason.c_str());
        QVERIFY2(udp.reason.find("libiperf") != std::string::npos, udp.reason.c_str());
        QVERIFY(noChildrenLeft());
    }

    void udpServerThatCannotStart()
    {
        const FakeIperf3 iperf3(
            versionOnly("echo \"iperf3: error - unable to start listener for connections: Address already in use\"\n"
                        "exit 1\n"));
        QVERIFY(iperf3.isValid());
        const TemporaryTmpdir tmp;
        QVERIFY(tmp.isValid());
        const UdpReference udp = measureUdpReference(iperf3.options());
        QVERIFY2(udp.available, describe(udp).constData());
        QCOMPARE(udp.iperfVersion, std::string("iperf 3.99"));
        QVERIFY2(udp.reason.find("Address already in use") != std::string::npos, udp.reason.c_str());
        QVERIFY2(udp.reason.find("exited with status 1") != std::string::npos, udp.reason.c_str());
        QVERIFY2(udp.reason.find('\0') == std::string::npos, udp.reason.c_str()); // output of the last attempt only
        QCOMPARE(udp.tries.size(), std::size_t(1));
        QVERIFY(!udp.tries.front().ok);
        QCOMPARE(udp.lossFreeMbps, 0.0);
        // --version, then three ports tried for the server; no client without a server.
        const QStringList calls = iperf3.calls();
        QCOMPARE(calls.size(), 4);
        for (int i = 1; i < calls.size(); ++i)
            QVERIFY2(calls[i].startsWith(QStringLiteral("-s -1 -B 127.0.0.1 -p ")), qPrintable(calls[i]));
        QVERIFY(noChildrenLeft());
        // The children's output files went with their private directory.
        QVERIFY2(entriesOf(tmp.path()).isEmpty(), qPrintable(entriesOf(tmp.path()).join(u' ')));
    }

    void udpSocketBufferAboveTheSystemLimitIsRefused()
    {
        const auto rmem = netCoreLimit("rmem_max");
        const auto wmem = netCoreLimit("wmem_max");
        if (!rmem || !wmem)
            QSKIP("no /proc/sys/net/core/rmem_max and wmem_max to read");
        const FakeIperf3 iperf3(versionOnly("exit 1\n"));
        QVERIFY(iperf3.isValid());
        UdpReferenceOptions options = iperf3.options();
        // iperf3 would fail every run ("socket buffer size not set correctly"), or get less than
        // asked: refused before the first, with what to do about it.
        options.socketBufferBytes = std::max(*rmem, *wmem) + 4096;
        const UdpReference udp = measureUdpReference(options);
        QVERIFY2(udp.available, describe(udp).constData());
        QCOMPARE(udp.socketBufferBytes, options.socketBufferBytes);
        QVERIFY2(udp.reason.find("net.core.") != std::string::npos, udp.reason.c_str());
        QVERIFY2(udp.reason.find("sysctl -w net.core.rmem_max=" + std::to_string(options.socketBufferBytes))
                != std::string::npos,
            udp.reason.c_str());
        QVERIFY(udp.tries.empty());
        QCOMPARE(iperf3.calls(), QStringList { QStringLiteral("--version") });
    }

    void udpClientErrorInJson()
    {
        SKIP_WITHOUT_IPERF3();
        // iperf3 3.12 reports errors in its JSON and still exits with 0.
        const FakeIperf3 iperf3(
            standIn("echo '{\"start\":{},\"intervals\":[],\"end\":{},\"error\":\"unable to send control message: Bad "
                    "file descriptor\"}'\n"));
        QVERIFY(iperf3.isValid());
        const UdpReference udp = measureUdpReference(iperf3.options());
        QVERIFY(udp.available);
        QVERIFY2(udp.reason.find("unable to send control message") != std::string::npos, udp.reason.c_str());
        QCOMPARE(udp.tries.size(), std::size_t(1));
        QCOMPARE(udp.lossFreeMbps, 0.0);
        QVERIFY(noChildrenLeft());
    }

    void udpClientWithoutJson()
    {
        SKIP_WITHOUT_IPERF3();
        const FakeIperf3 iperf3(standIn("echo 'iperf3: parameter error - bad rate' >&2\necho 'Usage: iperf3'\nexit 2"));
        QVERIFY(iperf3.isValid());
        const UdpReference udp = measureUdpReference(iperf3.options());
        QVERIFY(udp.available);
        QVERIFY2(udp.reason.find("exited with status 2") != std::string::npos, udp.reason.c_str());
        QVERIFY2(udp.reason.find("parameter error - bad rate") != std::string::npos, udp.reason.c_str());
        QVERIFY(noChildrenLeft());
    }

    void udpClientThatHangsIsKilled()
    {
        SKIP_WITHOUT_IPERF3();
        // Ignores SIGTERM, so only SIGKILL ends it; short sleeps, so nothing outlives it for long.
        const FakeIperf3 iperf3(standIn("trap '' TERM\nwhile :; do sleep 0.1; done"));
        QVERIFY(iperf3.isValid());
        UdpReferenceOptions options = iperf3.options();
        options.secondsPerTry = 1;
        const TemporaryTmpdir tmp;
        QVERIFY(tmp.isValid());
        QElapsedTimer timer;
        timer.start();
        const UdpReference udp = measureUdpReference(options);
        const qint64 elapsedMs = timer.elapsed();
        QVERIFY(udp.available);
        QVERIFY2(udp.reason.find("did not finish within 11 s") != std::string::npos, udp.reason.c_str());
        QCOMPARE(udp.tries.size(), std::size_t(1));
        // Killed at its deadline, not before (how long after depends on the machine's load: printed only).
        QVERIFY2(elapsedMs >= 10'000, qPrintable(QString::number(elapsedMs)));
        qInfo("the stand-in was ended %lld ms after the start", static_cast<long long>(elapsedMs));
        QVERIFY(noChildrenLeft());
        QVERIFY2(entriesOf(tmp.path()).isEmpty(), qPrintable(entriesOf(tmp.path()).join(u' ')));
    }

    void udpSearchDoublesThenBisects()
    {
        SKIP_WITHOUT_IPERF3();
        const FakeIperf3 iperf3(standIn(kLossAbove300));
        QVERIFY(iperf3.isValid());
        UdpReferenceOptions options = iperf3.options();
        options.startMbps = 100;
        options.maxMbps = 20000;
        options.secondsPerTry = 0.4; // iperf3 takes whole seconds: -t 1
        const UdpReference udp = measureUdpReference(options);
        QVERIFY2(udp.available && udp.reason.empty(), describe(udp).constData());
        QCOMPARE(udp.iperfVersion, std::string("iperf 3.99"));
        QCOMPARE(udp.socketBufferBytes, kSmallBuffer);
        // 100 200 lose nothing, 400 loses; then bisect until lossy / loss-free < 1.1 (325 / 300).
        QCOMPARE(askedRates(udp), (std::vector<double> { 100, 200, 400, 300, 350, 325 }));
        QCOMPARE(udp.lossFreeMbps, 300.0);
        QCOMPARE(udp.lossFreePacketsPerSecond, 30000.0);
        QCOMPARE(udp.tries[3].packets, std::int64_t(30000));
        QCOMPARE(udp.tries[2].lostPackets, std::int64_t(7));
        QVERIFY(!udp.tries[2].ok);

        // Loopback only, the datagram size, socket buffer and rate as asked, whole seconds. The -w goes
        // to the client only: iperf3 3.12 refuses it on a server, which takes the client's.
        const QStringList calls = iperf3.calls();
        QCOMPARE(calls.size(), 1 + 2 * 6);
        for (const QString& call : calls)
            if (call.startsWith(QStringLiteral("-s ")))
                QVERIFY2(
                    QRegularExpression(QStringLiteral("^-s -1 -B 127\\.0\\.0\\.1 -p \\d+$")).match(call).hasMatch(),
                    qPrintable(call));
        const QStringList clients = iperf3.clientCalls();
        QCOMPARE(clients.size(), 6);
        QVERIFY2(
            QRegularExpression(QStringLiteral("^-c 127\\.0\\.0\\.1 -p \\d+ -u -l 1288 -w 131072 -b 100M -t 1 --json$"))
                .match(clients[0])
                .hasMatch(),
            qPrintable(clients[0]));
        QVERIFY(noChildrenLeft());
    }

    void udpDefaultSocketBufferAsksNoWindow()
    {
        SKIP_WITHOUT_IPERF3();
        const FakeIperf3 iperf3(standIn(kLossAbove300));
        QVERIFY(iperf3.isValid());
        UdpReferenceOptions options = iperf3.options();
        options.socketBufferBytes = 0; // iperf3's default: no -w at all
        options.startMbps = 100;
        options.maxTries = 1;
        const UdpReference udp = measureUdpReference(options);
        QVERIFY2(udp.available && udp.reason.empty(), describe(udp).constData());
        QCOMPARE(udp.socketBufferBytes, std::size_t(0));
        const QStringList clients = iperf3.clientCalls();
        QCOMPARE(clients.size(), 1);
        QVERIFY2(QRegularExpression(QStringLiteral("^-c 127\\.0\\.0\\.1 -p \\d+ -u -l 1288 -b 100M -t 2 --json$"))
                     .match(clients[0])
                     .hasMatch(),
            qPrintable(clients[0]));
    }

    void udpSearchHalvesWhenTheStartLoses()
    {
        SKIP_WITHOUT_IPERF3();
        const FakeIperf3 iperf3(standIn(kLossAbove300));
        QVERIFY(iperf3.isValid());
        UdpReferenceOptions options = iperf3.options();
        options.startMbps = 1000;
        options.maxMbps = 1000;
        options.secondsPerTry = 1;
        options.datagramBytes = 512;
        const UdpReference udp = measureUdpReference(options);
        QVERIFY2(udp.available && udp.reason.empty(), describe(udp).constData());
        QCOMPARE(udp.datagramBytes, 512);
        QCOMPARE(askedRates(udp), (std::vector<double> { 1000, 500, 250, 375, 313, 282, 298 }));
        QCOMPARE(udp.lossFreeMbps, 298.0);
    }

    void udpSearchStopsAtMaxTries()
    {
        SKIP_WITHOUT_IPERF3();
        const FakeIperf3 iperf3(standIn(kLossAbove300));
        QVERIFY(iperf3.isValid());
        UdpReferenceOptions options = iperf3.options();
        options.startMbps = 100;
        options.maxTries = 3;
        const UdpReference udp = measureUdpReference(options);
        QVERIFY2(udp.available && udp.reason.empty(), describe(udp).constData());
        QCOMPARE(askedRates(udp), (std::vector<double> { 100, 200, 400 }));
        QCOMPARE(udp.lossFreeMbps, 200.0);
    }

    void udpLoopbackWithRealIperf3()
    {
        SKIP_WITHOUT_IPERF3();
        UdpReferenceOptions options;
        options.secondsPerTry = 0.5;
        options.startMbps = 100;
        options.maxMbps = 400;
        options.maxTries = 4;
        // The largest buffer up to the station's 64 MiB that this machine lets iperf3 have: the real
        // iperf3 must accept -w for UDP, and its server get it (3.12 fails the run otherwise).
        options.socketBufferBytes = std::min({ netCoreLimit("rmem_max").value_or(kSmallBuffer),
            netCoreLimit("wmem_max").value_or(kSmallBuffer), std::size_t(64 * kMiB) });
        const UdpReference udp = measureUdpReference(options);
        QVERIFY2(udp.available, describe(udp).constData());
        QVERIFY2(udp.reason.empty(), describe(udp).constData());
        QVERIFY2(udp.iperfVersion.rfind("iperf 3.", 0) == 0, udp.iperfVersion.c_str());
        QVERIFY2(!udp.tries.empty() && udp.tries.size() <= 4, describe(udp).constData());
        QVERIFY2(udp.lossFreeMbps > 0, describe(udp).constData());
        QVERIFY(udp.lossFreePacketsPerSecond > 0);
        for (const auto& run : udp.tries) {
            QVERIFY2(run.error.empty(), run.error.c_str());
            QVERIFY(run.askedMbps >= 10 && run.askedMbps <= 400);
            QVERIFY(run.packets > 0);
        }
        QVERIFY(noChildrenLeft());
        qInfo("-w %zu: %s", udp.socketBufferBytes, describe(udp).constData());
    }

    // ---- perf::Child, as the reference uses it ----------------------------------------------------

    void childStopKillsOneThatIgnoresSigterm()
    {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const std::string out = dir.filePath(QStringLiteral("out.txt")).toStdString();
        Child child;
        QCOMPARE(child.start({ "/bin/bash", "-c", "trap '' TERM; echo ready; while :; do sleep 0.05; done" }, out, out),
            std::string());
        QVERIFY(waitForText(QString::fromStdString(out), "ready"));
        QElapsedTimer timer;
        timer.start();
        const auto exit = child.stop(0.3);
        QVERIFY(exit.has_value());
        QCOMPARE(exit->signal, SIGKILL);
        QCOMPARE(describeExit(*exit), std::string("was killed by signal 9"));
        QVERIFY2(timer.elapsed() >= 290, qPrintable(QString::number(timer.elapsed()))); // SIGTERM's grace first
        QVERIFY(!child.running());
        QVERIFY(!child.stop().has_value()); // nothing left to stop
        QVERIFY(noChildrenLeft());
    }

    void childStopEndsOneWithSigterm()
    {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const std::string out = dir.filePath(QStringLiteral("out.txt")).toStdString();
        // A caller that blocks SIGTERM does not pass that on.
        sigset_t term, old;
        sigemptyset(&term);
        sigaddset(&term, SIGTERM);
        QCOMPARE(pthread_sigmask(SIG_BLOCK, &term, &old), 0);
        Child child;
        const std::string error = child.start({ "/bin/sleep", "30" }, out, out);
        pthread_sigmask(SIG_SETMASK, &old, nullptr);
        QCOMPARE(error, std::string());
        const auto exit = child.stop(5);
        QVERIFY(exit.has_value());
        QCOMPARE(exit->signal, SIGTERM);
        QCOMPARE(exit->code, 128 + SIGTERM);
        // SIGTERM, not the SIGKILL that follows the 5 s grace: it ended on the first signal.
        qInfo("ended after %.2f s", exit->wallSeconds);
        QVERIFY(noChildrenLeft());
    }

    void childEnvironmentAndOneOutputFile()
    {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const std::string out = dir.filePath(QStringLiteral("out.txt")).toStdString();
        qputenv("LC_ALL", "de_DE.UTF-8"); // replaced, not doubled
        qputenv("TELESTATION_TST_KEPT", "kept");
        Child child;
        const std::string error = child.start(
            { "/bin/sh", "-c", "echo \"$LC_ALL $TELESTATION_TST_KEPT\"; echo to-stderr >&2; echo to-stdout" }, out, out,
            { "LC_ALL=C" });
        qunsetenv("LC_ALL");
        qunsetenv("TELESTATION_TST_KEPT");
        QCOMPARE(error, std::string());
        const auto exit = child.wait(10);
        QVERIFY(exit.has_value());
        QCOMPARE(exit->code, 0);
        // stdout and stderr in one file, in the order written, neither over the other.
        QCOMPARE(readFile(out), std::string("C kept\nto-stderr\nto-stdout\n"));
    }

    void childInheritsNoDescriptor()
    {
#if defined(__GLIBC__) && __GLIBC_PREREQ(2, 34)
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const int leaky = ::open(dir.filePath(QStringLiteral("leaky")).toUtf8().constData(), O_WRONLY | O_CREAT, 0600);
        QVERIFY(leaky > 2);
        const std::string out = dir.filePath(QStringLiteral("out.txt")).toStdString();
        Child child;
        const std::string error = child.start(
            { "/bin/sh", "-c", "[ -e /proc/self/fd/" + std::to_string(leaky) + " ] && echo inherited || echo closed" },
            out, out);
        ::close(leaky);
        QCOMPARE(error, std::string());
        QVERIFY(child.wait(10).has_value());
        QCOMPARE(readFile(out), std::string("closed\n"));
#else
        QSKIP("posix_spawn_file_actions_addclosefrom_np needs glibc 2.34");
#endif
    }
};

QTEST_GUILESS_MAIN(TestPerfReference)
#include "tst_perf_reference.moc"
