// The main window's status bar badge for alarms: how many unacknowledged alarms there are of each
// severity ("Alarms: 2 critical · 1 warning unacknowledged"), on the most severe one's colour; a
// neutral "Alarms: none unacknowledged" (with what is active or shelved) otherwise. A click asks for
// the alarm list (clicked()). Like the alarm list, it looks four times a second while visible and
// counts only when the session's alarmsVersion() moved, or a second has passed (a shelf that ended);
// at once after an operator's action (refresh()). The list and the label then agree.
#pragma once

#include "core/events/alarm.hpp"
#include "ui/session/alarm_watch.hpp"
#include "ui/session/phased_timer.hpp"

#include <QLabel>

namespace telestation::ui {

class StationSession;

class AlarmStatusLabel : public QLabel {
    Q_OBJECT

public:
    explicit AlarmStatusLabel(StationSession& session, QWidget* parent = nullptr);

    // The text for a set of counts (tests; what refresh() shows).
    [[nodiscard]] static QString countsText(const events::AlarmCounts& counts);

public Q_SLOTS:
    // Counts now.
    void refresh();

Q_SIGNALS:
    void clicked();

protected:
    void mousePressEvent(QMouseEvent* event) override;
    void showEvent(QShowEvent* event) override;
    void hideEvent(QHideEvent* event) override;

private:
    void poll();
    void showCounts(const events::AlarmCounts& counts);

    StationSession& m_session;
    PhasedTimer m_timer{AlarmWatch::kPollInterval};
    AlarmWatch m_watch;
};

} // namespace telestation::ui
