// The alarm list dock: the station's alarms (AlarmListModel) with what an operator does to them —
// Acknowledge the selected alarms, Acknowledge all, Shelve the selected for 15 min / 1 h / 8 h,
// Unshelve — each with the optional comment typed beside the buttons, in the local user's name, through
// StationSession. A refusal (an alarm acknowledged meanwhile by someone else, one gone) is shown in red
// under the list.
//
// It takes the alarms four times a second while visible, only when the session's alarmsVersion() moved,
// and at least once a second (a shelf's time left, a shelf that ended); a hidden dock takes nothing.
// "Visible" is QDockWidget::visibilityChanged's: a dock in a tab behind another is not (QMainWindow
// keeps such a dock shown, moved out of sight, so show and hide events do not tell).
#pragma once

#include "ui/models/alarm_list_model.hpp"
#include "ui/session/alarm_watch.hpp"
#include "ui/session/phased_timer.hpp"

#include <QDockWidget>

#include <chrono>
#include <cstdint>
#include <vector>

class QLabel;
class QLineEdit;
class QPushButton;
class QTableView;
class QToolButton;

namespace telestation::ui {

class StationSession;

class AlarmListDock : public QDockWidget {
    Q_OBJECT

public:
    // The shelf times the Shelve menu offers.
    static constexpr std::chrono::seconds kShelveTimes[] = {std::chrono::minutes(15), std::chrono::hours(1),
                                                           std::chrono::hours(8)};

    explicit AlarmListDock(StationSession& session, QWidget* parent = nullptr);
    ~AlarmListDock() override;

    // Takes the alarms when the version moved, a second has passed, or `force`.
    void refresh(bool force = false);

    // Selects a parameter's alarm (on `stream`, or any when "") and scrolls to it; false when none is
    // listed (the status line says so).
    bool showParameterAlarm(const QString& stream, const QString& parameter);
    bool selectAlarm(std::uint64_t id);
    // The alarms of the selected rows, in the list's order.
    [[nodiscard]] std::vector<std::uint64_t> selectedAlarms() const;

    // The operator's actions on the selection (or on all), with the comment typed beside the buttons.
    // Each refusal is listed in the status line; true when every alarm was taken.
    bool acknowledgeSelected();
    void acknowledgeAll();
    bool shelveSelected(std::chrono::seconds duration);
    bool unshelveSelected();

    [[nodiscard]] AlarmListModel* model() const noexcept { return m_model; }
    [[nodiscard]] QTableView* view() const noexcept { return m_view; }
    [[nodiscard]] QString statusText() const;
    [[nodiscard]] bool isPolling() const noexcept { return m_timer.isActive(); }

Q_SIGNALS:
    // After an operator action: the alarms changed (the status bar's counts follow at once).
    void alarmsChanged();

private:
    // Runs `action` on every selected alarm, then refreshes and reports what was refused.
    template <typename Action> bool onSelected(const QString& what, Action action);
    void afterAction(const QStringList& refusals);
    void updateButtons();
    void showStatus(const QString& text, bool error);
    [[nodiscard]] QString listedText() const;

    StationSession& m_session;
    PhasedTimer m_timer{AlarmWatch::kPollInterval};
    AlarmWatch m_watch;

    AlarmListModel* m_model = nullptr;
    QTableView* m_view = nullptr;
    QPushButton* m_acknowledge = nullptr;
    QPushButton* m_acknowledgeAll = nullptr;
    QToolButton* m_shelve = nullptr;
    QPushButton* m_unshelve = nullptr;
    QLineEdit* m_comment = nullptr;
    QLabel* m_status = nullptr;
    bool m_statusIsError = false;
    std::chrono::steady_clock::time_point m_errorShownAt{};
};

} // namespace telestation::ui
