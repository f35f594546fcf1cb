// PhasedTimer: the GUI's repeating timer for periodic view work (a display's refresh, a dock's poll, the
// snapshot feed's tick). Plain QTimers of one period that start together fire in the same turn of the
// event loop, so their work adds up into one long turn (issue 14); a PhasedTimer fires at its own phase
// of the period instead.
//
// Phases: the running timers of one period share it evenly. A process-wide allocator (GUI thread only)
// gives the i-th of N running timers of period P the phase base + i·P/N, counted from one epoch of the
// process's steady clock, so timers started at different moments still keep apart; a timer that starts
// or stops moves the others of its period to their new phases (never firing one of them again sooner
// than half a period after its previous shot). `base` is a fraction of P/N set by the golden ratio per
// period, so that groups of different periods (100 ms displays, 250 ms docks) do not line up either.
// The first shot comes at the timer's next phase point, within one period of start(); then one per
// period. A shot that comes late by more than a period skips the missed ones (like QTimer). Shots use
// Qt::PreciseTimer: a coarse timer's slack would be aligned by Qt and bring the shots back together.
//
// Sight (skipWhileUnseen): a view's work is wasted where nobody sees it. A dock tabbed behind another
// stays shown (QMainWindow moves it out of sight), and a minimised window keeps its widgets visible, so
// hide events do not tell; isSeen() does. The timer keeps running but emits nothing while its widget is
// out of sight, and emits at once when the widget's dock comes to the front again after a skipped shot.
#pragma once

#include <QMetaObject>
#include <QObject>
#include <QPointer>
#include <QTimer>

#include <chrono>
#include <cstdint>

class QDockWidget;
class QWidget;

namespace telestation::ui {

class PhasedTimer : public QObject {
    Q_OBJECT

public:
    explicit PhasedTimer(std::chrono::milliseconds period, QObject* parent = nullptr);
    ~PhasedTimer() override;
    PhasedTimer(const PhasedTimer&) = delete;
    PhasedTimer& operator=(const PhasedTimer&) = delete;

    // A new period; a running timer moves to its phase among the timers of the new period.
    void setInterval(std::chrono::milliseconds period);
    void setInterval(int ms) { setInterval(std::chrono::milliseconds(ms)); }
    [[nodiscard]] int interval() const noexcept { return static_cast<int>(m_period.count()); }
    [[nodiscard]] std::chrono::milliseconds intervalAsDuration() const noexcept { return m_period; }
    [[nodiscard]] bool isActive() const noexcept { return m_active; }
    // Where in the period it fires, from the process's epoch, in [0, period): meaningful while active.
    [[nodiscard]] std::chrono::nanoseconds phase() const noexcept { return m_phase; }
    // Shots emitted since construction (skipped ones not counted).
    [[nodiscard]] std::uint64_t shots() const noexcept { return m_shots; }

    // Emits nothing while `widget` is out of sight (isSeen), and one shot at once when its dock comes to
    // the front while the timer runs. The widget's own show event is the view's to handle (it usually
    // refreshes there and starts the timer). Ends with the widget.
    void skipWhileUnseen(QWidget* widget);
    // Shown, in a window that is not minimised, and not clipped away (a dock tabbed behind another).
    [[nodiscard]] static bool isSeen(const QWidget* widget);

    // How many timers of `period` run now (for tests).
    [[nodiscard]] static int runningWithPeriod(std::chrono::milliseconds period);

public Q_SLOTS:
    void start();
    void stop();

Q_SIGNALS:
    void timeout();

private:
    friend class PhaseAllocator;
    void setPhase(std::chrono::nanoseconds phase);
    void arm();
    void shoot();
    void followDock();

    std::chrono::milliseconds m_period;
    std::chrono::nanoseconds m_phase{0};
    bool m_active = false;
    std::chrono::steady_clock::time_point m_due{};       // the phase point the armed shot is for
    std::chrono::steady_clock::time_point m_lastShot{};  // the phase point of the previous shot
    std::uint64_t m_shots = 0;
    bool m_skipped = false; // the last shot was out of sight
    QTimer m_shot;
    QPointer<QWidget> m_sight;
    QPointer<QDockWidget> m_dock;
    QMetaObject::Connection m_dockConnection;
};

} // namespace telestation::ui
