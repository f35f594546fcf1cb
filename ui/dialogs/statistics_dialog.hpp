// The statistics dialog: the engine's statistics per stream and packet type (received, processed,
// recorded, forwarded, unknown, malformed, sequence errors, lost, largest gap, duplicates, drops,
// errors, rates), each stream's queues as bars against their capacity, the forward destinations and
// the API consumers, with a header line of CPU, uptime, totals and rates.
//
// It polls a snapshot source once a second, only while visible (the timer starts in showEvent and
// stops in hideEvent), and fills in what the engine's snapshot leaves to its observers: the rates
// (its own stats::RateTracker, over the interval since its previous poll) and the process's CPU (its
// own stats::CpuMeter). Reset zeroes the dialog's view, not the engine's counters, so the headless
// reports and other views are unaffected (see StatisticsBaseline).
#pragma once

#include "core/stats/cpu_meter.hpp"
#include "core/stats/rate_tracker.hpp"
#include "core/stats/snapshot.hpp"
#include "core/stats/statistics_baseline.hpp"
#include "ui/models/statistics_model.hpp"

#include <QDialog>
#include <QTimer>

#include <chrono>
#include <cstdint>
#include <functional>
#include <set>
#include <string>

class QLabel;
class QPushButton;
class QTableView;
class QTabWidget;
class QTreeView;

namespace telestation::ui {

class StatisticsDialog : public QDialog {
    Q_OBJECT

public:
    // Called on the GUI thread at each refresh; must be cheap (a Station::snapshot() is).
    using SnapshotSource = std::function<stats::StationSnapshot()>;
    static constexpr std::chrono::milliseconds kRefreshInterval{1000};

    explicit StatisticsDialog(SnapshotSource source, QWidget* parent = nullptr);
    ~StatisticsDialog() override;

    // Takes a snapshot now and shows it (the timer does this once a second while visible).
    void refresh();
    // The Reset button: from now on the counters show what happened since this moment.
    void resetStatistics();
    // Shows totals since the station started again.
    void clearReset();

    // The snapshot of the last refresh as the source returned it, with rates and CPU filled in.
    [[nodiscard]] const stats::StationSnapshot& lastSnapshot() const noexcept { return m_last; }
    // What the views show: lastSnapshot() less the reset baseline.
    [[nodiscard]] const stats::StationSnapshot& shownSnapshot() const noexcept { return m_shown; }
    [[nodiscard]] bool hasReset() const noexcept { return m_baseline.active(); }
    [[nodiscard]] std::uint64_t refreshCount() const noexcept { return m_refreshes; }
    [[nodiscard]] bool isPolling() const noexcept { return m_timer.isActive(); }
    [[nodiscard]] QString headerText() const;

    [[nodiscard]] StreamStatisticsModel* streamModel() const noexcept { return m_streamModel; }
    [[nodiscard]] QueueStatisticsModel* queueModel() const noexcept { return m_queueModel; }
    [[nodiscard]] ForwardStatisticsModel* forwardModel() const noexcept { return m_forwardModel; }
    [[nodiscard]] ConsumerStatisticsModel* consumerModel() const noexcept { return m_consumerModel; }
    [[nodiscard]] QTreeView* streamView() const noexcept { return m_streamView; }
    [[nodiscard]] QTableView* queueView() const noexcept { return m_queueView; }

Q_SIGNALS:
    // After each refresh, once the models hold the new snapshot.
    void refreshed();

protected:
    void showEvent(QShowEvent* event) override;
    void hideEvent(QHideEvent* event) override;

private:
    void onTimer();
    [[nodiscard]] stats::StationSnapshot take();
    void display(stats::StationSnapshot snapshot);
    void sizeColumnsOnce();
    void updateHeader();
    void updateTabTitles();

    SnapshotSource m_source;
    QTimer m_timer;
    stats::RateTracker m_rates;
    stats::CpuMeter m_cpu;
    stats::StatisticsBaseline m_baseline;
    stats::StationSnapshot m_last;
    stats::StationSnapshot m_shown;
    std::uint64_t m_refreshes = 0;
    double m_resetUptime = 0;
    std::int64_t m_resetTimeNs = 0;
    std::set<std::string> m_expanded; // streams expanded once when they appeared (the operator may collapse them)
    bool m_treeSized = false;
    bool m_queuesSized = false;
    bool m_forwardsSized = false;
    bool m_consumersSized = false;

    StreamStatisticsModel* m_streamModel = nullptr;
    QueueStatisticsModel* m_queueModel = nullptr;
    ForwardStatisticsModel* m_forwardModel = nullptr;
    ConsumerStatisticsModel* m_consumerModel = nullptr;
    QLabel* m_header = nullptr;
    QLabel* m_resetLabel = nullptr;
    QTreeView* m_streamView = nullptr;
    QTableView* m_queueView = nullptr;
    QTableView* m_forwardView = nullptr;
    QTableView* m_consumerView = nullptr;
    QTabWidget* m_tabs = nullptr;
    QPushButton* m_resetButton = nullptr;
    QPushButton* m_clearResetButton = nullptr;
};

} // namespace telestation::ui
