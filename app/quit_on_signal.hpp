// SIGINT and SIGTERM end the workstation cleanly (a terminal's Ctrl-C, `kill`, a test harness): the
// event loop ends, and the station stops as it does when the window closes — every packet received is
// processed, recorded and forwarded, the recordings are closed. Nothing is asked (unsaved changes stay
// unsaved) and the window's layout is not saved: a signal is not the operator's Quit.
#pragma once

#include <QObject>

class QSocketNotifier;

namespace telestation::app {

class QuitOnSignal : public QObject {
public:
    // Blocks SIGINT and SIGTERM in the calling thread. Call before any other thread starts, so that
    // every thread inherits the mask and the signals reach only this object's descriptor.
    static void blockSignals();

    // Takes the signals through a signalfd watched by the event loop; false (with the reason logged)
    // when it cannot, and then the signals keep their default action.
    explicit QuitOnSignal(QObject* parent = nullptr);
    ~QuitOnSignal() override;
    [[nodiscard]] bool active() const noexcept { return m_fd >= 0; }

private:
    void take();
    int m_fd = -1;
    QSocketNotifier* m_notifier = nullptr;
};

} // namespace telestation::app
