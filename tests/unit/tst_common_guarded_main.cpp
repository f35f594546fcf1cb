// guardedMain: the body's exit code passes through; an exception the body did not handle ends it with
// exit code 70 and a one-line message on stderr, after the body's destructors ran.
#include "core/common/guarded_main.hpp"

#include <QtTest>

#include <cstdio>
#include <fcntl.h>
#include <new>
#include <stdexcept>
#include <string>
#include <unistd.h>

using namespace telestation;

namespace {

// What `body` writes to stderr while guardedMain runs it, and the exit code it gives.
struct Outcome {
    int code = -1;
    std::string stderrText;
};

template <typename Body>
Outcome runCapturingStderr(Body&& body)
{
    Outcome out;
    int pipeFds[2];
    if (::pipe2(pipeFds, O_CLOEXEC) != 0)
        return out;
    std::fflush(stderr);
    const int saved = ::dup(STDERR_FILENO);
    ::dup2(pipeFds[1], STDERR_FILENO);
    out.code = guardedMain("tst", body);
    std::fflush(stderr);
    ::dup2(saved, STDERR_FILENO);
    ::close(saved);
    ::close(pipeFds[1]);
    char buffer[512];
    for (ssize_t n; (n = ::read(pipeFds[0], buffer, sizeof buffer)) > 0;)
        out.stderrText.append(buffer, static_cast<std::size_t>(n));
    ::close(pipeFds[0]);
    return out;
}

struct SetsOnDestruction {
    bool& flag;
    ~SetsOnDestruction() { flag = true; }
};

} // namespace

class TestCommonGuardedMain : public QObject {
    Q_OBJECT

private slots:
    void exitCodePassesThrough()
    {
        const auto out = runCapturingStderr([] { return 3; });
        QCOMPARE(out.code, 3);
        QCOMPARE(out.stderrText, std::string());
    }

    void outOfMemoryEndsWithMessageAfterUnwinding()
    {
        bool destroyed = false;
        const auto out = runCapturingStderr([&] {
            SetsOnDestruction guard{destroyed};
            throw std::bad_alloc();
            return 0;
        });
        QCOMPARE(out.code, kExitUnexpectedError);
        QVERIFY(destroyed);
        QVERIFY2(out.stderrText.starts_with("tst: stopped by an unexpected error: "), out.stderrText.c_str());
        QVERIFY2(out.stderrText.find("bad_alloc") != std::string::npos, out.stderrText.c_str());
    }

    void anythingThrownIsCaught()
    {
        bool destroyed = false;
        const auto out = runCapturingStderr([&] {
            SetsOnDestruction guard{destroyed};
            throw 42;
            return 0;
        });
        QCOMPARE(out.code, kExitUnexpectedError);
        QVERIFY(destroyed);
        QVERIFY2(out.stderrText.find("not a std::exception") != std::string::npos, out.stderrText.c_str());
        const auto runtime = runCapturingStderr([]() -> int { throw std::runtime_error("disk on fire"); });
        QCOMPARE(runtime.code, kExitUnexpectedError);
        QCOMPARE(runtime.stderrText, std::string("tst: stopped by an unexpected error: disk on fire\n"));
    }
};

QTEST_APPLESS_MAIN(TestCommonGuardedMain)
#include "tst_common_guarded_main.moc"
