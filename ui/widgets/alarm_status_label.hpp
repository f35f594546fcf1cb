// The main window's status bar badge for alarms: how many unacknowledged alarms there are of each
// severity ("Alarms: 2 critical · 1 warning unacknowledged"), on the most severe one's colour; a
// neutral "Alarms: none unacknowledged" (with what is active or shelved) otherwise. A click asks for
// the alarm list (clicked()). Counts are taken once a second while the label is visible, and at once
// after an operator's action (refresh()).
#pragma once

#include "core/events/alarm.hpp"

#include <QLabel>
#include <QTimer>

#include <chrono>

namespace telestation::ui {

class StationSession;

class AlarmStatusLabel : public QLabel {
    Q_OBJECT

public:
    static constexpr std::chrono::milliseconds kInterval{1000};

    explicit AlarmStatusLabel(StationSession& session, QWidget* parent = nullptr);

    // The text for a set of counts (tests; what refresh() shows).
    [[nodiscard]] static QString countsText(const events::AlarmCounts& counts);

public Q_SLOTS:
    void refresh();

Q_SIGNALS:
    void clicked();

protected:
    void mousePressEvent(QMouseEvent* event) override;
    void showEvent(QShowEvent* event) override;
    void hideEvent(QHideEvent* event) override;

private:
    StationSession& m_session;
    QTimer m_timer;
};

} // namespace telestation::ui
