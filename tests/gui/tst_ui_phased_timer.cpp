// PhasedTimer (issue 14): the running timers of one period take distinct phases spread evenly over it
// (and spread again when one stops or moves to another period); a timer keeps its period on average
// (bounds generous enough for a loaded machine: never faster, at most several times slower); stop,
// start and setInterval; a dock tabbed behind another does no refresh work (a plain widget's timer and
// the real event log dock's polls) and catches up at once when its tab comes to the front; a minimised
// window's widgets do no work until it is restored.
#include "ui/session/phased_timer.hpp"
#include "ui/widgets/event_log_dock.hpp"

#include <QDockWidget>
#include <QElapsedTimer>
#include <QLabel>
#include <QMainWindow>
#include <QStandardPaths>
#include <QtTest>

#include <algorithm>
#include <chrono>
#include <memory>
#include <vector>

using namespace telestation;
using namespace std::chrono_literals;
using ui::PhasedTimer;

namespace {

constexpr int kWait = 10000; // ms: what a condition may take on a loaded machine

// The phases of `timers`, sorted.
std::vector<std::int64_t> sortedPhases(const std::vector<std::unique_ptr<PhasedTimer>>& timers)
{
    std::vector<std::int64_t> phases;
    for (const auto& t : timers)
        if (t && t->isActive())
            phases.push_back(t->phase().count());
    std::sort(phases.begin(), phases.end());
    return phases;
}

// True when the sorted phases are distinct and a period/n apart (to 1 µs), around the circle.
bool evenlySpread(const std::vector<std::int64_t>& phases, std::chrono::milliseconds period)
{
    const auto p = std::chrono::nanoseconds(period).count();
    const auto n = static_cast<std::int64_t>(phases.size());
    if (n == 0 || phases.front() < 0 || phases.back() >= p)
        return false;
    for (std::int64_t i = 0; i < n; ++i) {
        const std::int64_t next = i + 1 < n ? phases[static_cast<std::size_t>(i + 1)] : phases.front() + p;
        if (std::llabs(next - phases[static_cast<std::size_t>(i)] - p / n) > 1000)
            return false;
    }
    return true;
}

// A dock with a label in it, its label watched by a timer that counts the work it would do.
struct WatchedDock {
    QDockWidget* dock = nullptr;
    QLabel* label = nullptr;
    PhasedTimer* timer = nullptr;
    int work = 0;
};

} // namespace

class TestPhasedTimer : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void initTestCase() { QStandardPaths::setTestModeEnabled(true); }

    // N timers of one period, started one after another, take N distinct phases P/N apart; when two
    // stop, the others spread again over the whole period.
    void phasesOfOnePeriodAreSpread()
    {
        constexpr auto kPeriod = 120ms; // a period no other timer of this process has
        QCOMPARE(PhasedTimer::runningWithPeriod(kPeriod), 0);
        std::vector<std::unique_ptr<PhasedTimer>> timers;
        for (int i = 0; i < 5; ++i) {
            timers.push_back(std::make_unique<PhasedTimer>(kPeriod));
            timers.back()->start();
        }
        QCOMPARE(PhasedTimer::runningWithPeriod(kPeriod), 5);
        const auto five = sortedPhases(timers);
        QCOMPARE(five.size(), std::size_t{5});
        QVERIFY2(evenlySpread(five, kPeriod), "five timers: not 24 ms apart");

        timers[1]->stop();
        timers[3].reset(); // destroyed while running: leaves too
        QCOMPARE(PhasedTimer::runningWithPeriod(kPeriod), 3);
        QVERIFY2(evenlySpread(sortedPhases(timers), kPeriod), "three timers: not 40 ms apart");

        // A timer that runs keeps firing after its phase moved.
        const std::uint64_t before = timers[0]->shots();
        QTRY_VERIFY_WITH_TIMEOUT(timers[0]->shots() >= before + 2, kWait);
    }

    // Groups of different periods do not share a phase grid starting at the same point.
    void groupsOfDifferentPeriodsAreOffset()
    {
        PhasedTimer a(170ms), b(190ms);
        a.start();
        b.start();
        // Alone in its group each timer sits at its group's base: the groups made one after the other
        // have different bases (a fraction of the period by the golden ratio), so not both at 0.
        QVERIFY(a.phase().count() != 0 || b.phase().count() != 0);
        QVERIFY(a.phase() < std::chrono::nanoseconds(170ms));
        QVERIFY(b.phase() < std::chrono::nanoseconds(190ms));
    }

    // The shots never come faster than once a period: each is at its own phase point, the points a
    // period apart, and a late shot skips points rather than doubling up. So from start() to the n-th
    // shot at least n-1 periods pass, on any load. (How close to the period it holds depends on the
    // load: printed, not asserted.)
    void periodHoldsOnAverage()
    {
        constexpr auto kPeriod = 40ms;
        PhasedTimer timer(kPeriod);
        QElapsedTimer clock;
        int shots = 0;
        qint64 lastShotMs = 0;
        connect(&timer, &PhasedTimer::timeout, this, [&] {
            ++shots;
            lastShotMs = clock.elapsed();
        });
        clock.start();
        timer.start();
        QCOMPARE(shots, 0); // nothing synchronously in start()
        QTRY_VERIFY_WITH_TIMEOUT(shots >= 11, kWait);
        const double mean = static_cast<double>(lastShotMs) / (shots - 1);
        QVERIFY2(mean >= 0.95 * kPeriod.count(), qPrintable(QStringLiteral("mean interval %1 ms").arg(mean)));
        qInfo("%d shots, %.1f ms apart on average (period %d ms)", shots, mean, int(kPeriod.count()));
    }

    // A stopped timer fires no more; started again, it fires again.
    void stopAndStartAgain()
    {
        constexpr auto kPeriod = 30ms;
        PhasedTimer timer(kPeriod);
        int shots = 0;
        connect(&timer, &PhasedTimer::timeout, this, [&] { ++shots; });
        timer.start();
        QVERIFY(timer.isActive());
        QTRY_VERIFY_WITH_TIMEOUT(shots >= 1, kWait);
        timer.stop();
        QVERIFY(!timer.isActive());
        QCOMPARE(PhasedTimer::runningWithPeriod(kPeriod), 0);
        const int stoppedAt = shots;
        QTest::qWait(5 * static_cast<int>(kPeriod.count()));
        QCOMPARE(shots, stoppedAt);
        timer.start();
        QTRY_VERIFY_WITH_TIMEOUT(shots > stoppedAt, kWait);
    }

    // setInterval moves a running timer to the other period's group (and keeps it firing at that
    // period); on a stopped timer it only sets the period.
    void setIntervalMovesToTheOtherPeriod()
    {
        PhasedTimer timer(130ms);
        QCOMPARE(timer.interval(), 130);
        timer.start();
        QCOMPARE(PhasedTimer::runningWithPeriod(130ms), 1);
        timer.setInterval(60);
        QCOMPARE(timer.interval(), 60);
        QCOMPARE(PhasedTimer::runningWithPeriod(130ms), 0);
        QCOMPARE(PhasedTimer::runningWithPeriod(60ms), 1);
        QVERIFY(timer.phase() < std::chrono::nanoseconds(60ms));

        // At the new period: never faster than one shot per 60 ms (see periodHoldsOnAverage), so the
        // first 6 shots after setInterval took at least 5 periods.
        QElapsedTimer clock;
        clock.start();
        int shots = 0;
        qint64 lastShotMs = 0;
        connect(&timer, &PhasedTimer::timeout, this, [&] {
            ++shots;
            lastShotMs = clock.elapsed();
        });
        QTRY_VERIFY_WITH_TIMEOUT(shots >= 6, kWait);
        const double mean = static_cast<double>(lastShotMs) / (shots - 1);
        QVERIFY2(mean >= 0.95 * 60, qPrintable(QStringLiteral("mean interval %1 ms").arg(mean)));

        timer.stop();
        timer.setInterval(70);
        QCOMPARE(timer.interval(), 70);
        QCOMPARE(PhasedTimer::runningWithPeriod(70ms), 0);
    }

    // A dock tabbed behind another: its timer emits nothing (no work) however long it runs; when its
    // tab comes to the front it emits at once, and then once a period again.
    void tabbedBehindDoesNoWorkAndCatchesUpInFront()
    {
        QMainWindow window;
        window.setCentralWidget(new QLabel(QStringLiteral("centre")));
        const auto makeDock = [&](const QString& name, WatchedDock& d) {
            d.dock = new QDockWidget(name, &window);
            d.dock->setObjectName(name);
            d.label = new QLabel(name);
            d.dock->setWidget(d.label);
            window.addDockWidget(Qt::BottomDockWidgetArea, d.dock);
            d.timer = new PhasedTimer(25ms, d.label);
            d.timer->skipWhileUnseen(d.label);
            connect(d.timer, &PhasedTimer::timeout, d.label, [&d] { ++d.work; });
        };
        WatchedDock front, behind;
        makeDock(QStringLiteral("front"), front);
        makeDock(QStringLiteral("behind"), behind);
        window.tabifyDockWidget(front.dock, behind.dock);
        front.dock->raise();
        window.resize(600, 400);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        front.timer->start();
        behind.timer->start();

        QTRY_VERIFY_WITH_TIMEOUT(front.work >= 3, kWait);
        QVERIFY(PhasedTimer::isSeen(front.label));
        QVERIFY(!PhasedTimer::isSeen(behind.label));
        QVERIFY(behind.label->isVisible()); // hide events would not have told
        QCOMPARE(behind.work, 0);

        behind.dock->raise();
        QCOMPARE(behind.work, 1); // at once, not a period later
        QTRY_VERIFY_WITH_TIMEOUT(behind.work >= 3, kWait);
        const int frontWork = front.work;
        QTest::qWait(5 * 25);
        QCOMPARE(front.work, frontWork); // now behind: nothing
    }

    // A minimised window keeps its widgets "visible" (isVisible() stays true): the timer does no work
    // while minimised and works again once restored.
    void minimisedWindowDoesNoWork()
    {
        QMainWindow window;
        auto* label = new QLabel(QStringLiteral("centre"));
        window.setCentralWidget(label);
        window.resize(400, 300);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        PhasedTimer timer(25ms);
        timer.skipWhileUnseen(label);
        int work = 0;
        connect(&timer, &PhasedTimer::timeout, this, [&] { ++work; });
        timer.start();
        QTRY_VERIFY_WITH_TIMEOUT(work >= 2, kWait);

        window.showMinimized();
        QTRY_VERIFY_WITH_TIMEOUT(window.isMinimized(), kWait);
        QVERIFY(label->isVisible());
        QVERIFY(!PhasedTimer::isSeen(label));
        QTest::qWait(25); // a shot already under way when the window went
        const int minimised = work;
        QTest::qWait(6 * 25);
        QCOMPARE(work, minimised);

        window.showNormal();
        QTRY_VERIFY_WITH_TIMEOUT(work > minimised, kWait);
    }

    // The real event log dock: tabbed behind it takes no events from its source; in front it takes
    // them at once and then four times a second.
    void eventLogBehindAnotherTabDoesNotPoll()
    {
        int calls = 0;
        QMainWindow window;
        window.setCentralWidget(new QLabel(QStringLiteral("centre")));
        auto* log = new ui::EventLogDock(
            [&calls](std::uint64_t) {
                ++calls;
                return std::vector<events::Event>{};
            },
            &window);
        log->setObjectName(QStringLiteral("log"));
        auto* other = new QDockWidget(QStringLiteral("other"), &window);
        other->setObjectName(QStringLiteral("other"));
        other->setWidget(new QLabel(QStringLiteral("other")));
        window.addDockWidget(Qt::BottomDockWidgetArea, log);
        window.addDockWidget(Qt::BottomDockWidgetArea, other);
        window.tabifyDockWidget(log, other);
        other->raise();
        window.resize(800, 500);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        QVERIFY(!PhasedTimer::isSeen(log));

        const int behind = calls; // the show event's catch-up
        QTest::qWait(4 * static_cast<int>(ui::EventLogDock::kPollInterval.count()));
        QCOMPARE(calls, behind);

        log->raise();
        QCOMPARE(calls, behind + 1); // at once
        QTRY_VERIFY_WITH_TIMEOUT(calls >= behind + 3, kWait);
    }
};

QTEST_MAIN(TestPhasedTimer)
#include "tst_ui_phased_timer.moc"
