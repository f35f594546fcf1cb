// The executables as a user starts them: --help and --version without a display, --headless with the
// training mission database, argument errors, and the GUI starting and quitting cleanly (SIGTERM too),
// with displays opened later.
#include "tests/support/test_paths.hpp"

#include <QtTest>

#include <QProcess>
#include <QProcessEnvironment>
#include <QTemporaryDir>

namespace {

struct Run {
    int exitCode = -1;
    QProcess::ExitStatus status = QProcess::CrashExit;
    QString out;
    QString err;
};

// Runs a program from the build's bin/ with no display at all unless `platform` is given.
Run run(const QString& program, const QStringList& args, const QString& platform = {})
{
    QProcess p;
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.remove(QStringLiteral("DISPLAY"));
    env.remove(QStringLiteral("WAYLAND_DISPLAY"));
    env.remove(QStringLiteral("QT_QPA_PLATFORM"));
    if (!platform.isEmpty())
        env.insert(QStringLiteral("QT_QPA_PLATFORM"), platform);
    p.setProcessEnvironment(env);
    p.start(telestation::test::binDir() + QLatin1Char('/') + program, args);
    Run r;
    if (!p.waitForStarted(10000) || !p.waitForFinished(60000)) {
        p.kill();
        p.waitForFinished();
        r.err = QStringLiteral("did not start or finish: ") + p.errorString();
        return r;
    }
    r.exitCode = p.exitCode();
    r.status = p.exitStatus();
    r.out = QString::fromUtf8(p.readAllStandardOutput());
    r.err = QString::fromUtf8(p.readAllStandardError());
    return r;
}

} // namespace

class TestAppCli : public QObject {
    Q_OBJECT

private slots:
    void versionAndHelpWithoutDisplay_data()
    {
        QTest::addColumn<QString>("program");
        QTest::newRow("station") << QStringLiteral("telestation");
        QTest::newRow("simulator") << QStringLiteral("telestation-sim");
    }

    void versionAndHelpWithoutDisplay()
    {
        QFETCH(QString, program);
        const Run version = run(program, {QStringLiteral("--version")});
        QCOMPARE(version.exitCode, 0);
        QCOMPARE(version.status, QProcess::NormalExit);
        QVERIFY2(version.out.startsWith(program + QLatin1Char(' ')), qPrintable(version.out));
        QVERIFY(version.out.contains(QRegularExpression(QStringLiteral("\\d+\\.\\d+\\.\\d+"))));

        const Run help = run(program, {QStringLiteral("--help")});
        QCOMPARE(help.exitCode, 0);
        QVERIFY(help.out.contains(QStringLiteral("Usage: ") + program));
        QVERIFY(help.out.contains(QStringLiteral("--version")));
        QVERIFY(!help.out.contains(QStringLiteral("--quit-after"))); // hidden test hook
    }

    void wrongArgumentIsOneLineAndExitCode2_data()
    {
        QTest::addColumn<QString>("program");
        QTest::addColumn<QStringList>("args");
        QTest::newRow("unknown option") << QStringLiteral("telestation") << QStringList{QStringLiteral("--bogus")};
        QTest::newRow("positional") << QStringLiteral("telestation") << QStringList{QStringLiteral("file")};
        QTest::newRow("missing value") << QStringLiteral("telestation") << QStringList{QStringLiteral("--mdb")};
        QTest::newRow("bad number") << QStringLiteral("telestation") << QStringList{QStringLiteral("--quit-after=x")};
        QTest::newRow("sim unknown") << QStringLiteral("telestation-sim") << QStringList{QStringLiteral("--nope")};
    }

    void wrongArgumentIsOneLineAndExitCode2()
    {
        QFETCH(QString, program);
        QFETCH(QStringList, args);
        const Run r = run(program, args);
        QCOMPARE(r.exitCode, 2);
        QCOMPARE(r.err.count(QLatin1Char('\n')), 1);
        QVERIFY2(r.err.startsWith(program + QStringLiteral(": ")), qPrintable(r.err));
    }

    void headlessPrintsVersionAndTrainingDatabase()
    {
        const Run r = run(QStringLiteral("telestation"), {QStringLiteral("--headless")});
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        QVERIFY(r.out.contains(QStringLiteral("Telestation ")));
        QVERIFY(r.out.contains(QStringLiteral("training.mdb")));
        QVERIFY2(r.out.contains(QStringLiteral("Packet5")), qPrintable(r.out));
        QVERIFY(r.out.contains(QStringLiteral("1288")));
    }

    void missingDatabaseIsAClearError()
    {
        QTemporaryDir dir;
        const QString missing = dir.filePath(QStringLiteral("none.mdb"));
        const Run r = run(QStringLiteral("telestation"), {QStringLiteral("--headless"), QStringLiteral("--mdb"), missing});
        QCOMPARE(r.exitCode, 1);
        QVERIFY2(r.err.contains(missing), qPrintable(r.err));
    }

    void guiStartsShowsAndQuitsCleanly_data()
    {
        QTest::addColumn<QString>("program");
        QTest::newRow("station") << QStringLiteral("telestation");
        QTest::newRow("simulator") << QStringLiteral("telestation-sim");
    }

    void guiStartsShowsAndQuitsCleanly()
    {
#if defined(__SANITIZE_THREAD__)
        // Qt's own worker threads (QThreadPool) race in ThreadSanitizer's eyes because Debian's Qt is
        // not built with it; suppressing Qt frames would also hide real GUI-vs-engine races.
        QSKIP("GUI processes are not checked under ThreadSanitizer (uninstrumented Qt); the other presets run this");
#endif
        QFETCH(QString, program);
        const Run r = run(program, {QStringLiteral("--quit-after"), QStringLiteral("300")}, QStringLiteral("offscreen"));
        QCOMPARE(r.status, QProcess::NormalExit);
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
    }

    void screenshotHookWritesPng()
    {
#if defined(__SANITIZE_THREAD__)
        QSKIP("GUI processes are not checked under ThreadSanitizer (uninstrumented Qt); the other presets run this");
#endif
        QTemporaryDir dir;
        const QString png = dir.filePath(QStringLiteral("window.png"));
        const Run r = run(QStringLiteral("telestation"),
                          {QStringLiteral("--quit-after"), QStringLiteral("200"), QStringLiteral("--screenshot"), png},
                          QStringLiteral("offscreen"));
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        QFile file(png);
        QVERIFY(file.open(QIODevice::ReadOnly));
        QVERIFY(file.size() > 1000);
        QCOMPARE(file.read(4), QByteArray("\x89PNG"));

        const QString unwritable = dir.filePath(QStringLiteral("no/such/dir/window.png"));
        const Run bad = run(QStringLiteral("telestation"),
                            {QStringLiteral("--quit-after"), QStringLiteral("100"), QStringLiteral("--screenshot"), unwritable},
                            QStringLiteral("offscreen"));
        QCOMPARE(bad.exitCode, 1);
        QVERIFY(bad.err.contains(unwritable));
    }

    // `--displays FILE --displays-after S`: the window starts without displays and opens the file's S
    // seconds later, saying so on stdout; SIGTERM then ends the workstation cleanly (exit 0, the
    // station stopped). Settings of its own: nothing of the user's is read or written.
    void displaysOpenLaterAndSigtermEndsCleanly()
    {
#if defined(__SANITIZE_THREAD__)
        QSKIP("GUI processes are not checked under ThreadSanitizer (uninstrumented Qt); the other presets run this");
#endif
        QTemporaryDir home;
        QVERIFY(home.isValid());
        QProcess p;
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.insert(QStringLiteral("QT_QPA_PLATFORM"), QStringLiteral("offscreen"));
        env.insert(QStringLiteral("XDG_CONFIG_HOME"), home.filePath(QStringLiteral("config")));
        env.insert(QStringLiteral("XDG_DATA_HOME"), home.filePath(QStringLiteral("data")));
        p.setProcessEnvironment(env);
        p.setWorkingDirectory(home.path()); // the new profile's relative logs/ and recordings/
        const QString displays = QString::fromStdString(telestation::test::dataDir()) + QStringLiteral("/displays/demo.json");
        p.start(telestation::test::binDir() + QStringLiteral("/telestation"),
                {QStringLiteral("--displays"), displays, QStringLiteral("--displays-after"), QStringLiteral("0.5")});
        QVERIFY(p.waitForStarted(10000));
        QByteArray out;
        while (!out.contains("displays opened:") && p.state() == QProcess::Running)
            if (p.waitForReadyRead(60000))
                out += p.readAllStandardOutput();
        QVERIFY2(out.contains("displays opened: 3 from " + displays.toUtf8()), out.constData());
        p.terminate(); // SIGTERM
        QVERIFY(p.waitForFinished(60000));
        QCOMPARE(p.exitStatus(), QProcess::NormalExit);
        const QString err = QString::fromUtf8(p.readAllStandardError());
        QVERIFY2(p.exitCode() == 0, qPrintable(err));
        QVERIFY2(err.contains(QStringLiteral("stopping on SIGTERM")), qPrintable(err));
    }

    void displaysAfterNeedsDisplays()
    {
        const Run r = run(QStringLiteral("telestation"), {QStringLiteral("--displays-after"), QStringLiteral("5")},
                          QStringLiteral("offscreen"));
        QCOMPARE(r.exitCode, 2);
        QVERIFY2(r.err.contains(QStringLiteral("needs --displays")), qPrintable(r.err));
    }
};

QTEST_GUILESS_MAIN(TestAppCli)
#include "tst_app_cli.moc"
