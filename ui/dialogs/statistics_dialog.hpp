// The statistics dialog: the engine's statistics per stream and packet type (rates, received, then
// what was lost — sequence errors, lost, largest gap, duplicates, drops, errors, malformed — then
// processed, recorded, forwarded, unknown, discarded), each stream's queues as bars against their capacity, the forward destinations and
// the API consumers, with a header line of CPU, uptime, totals and rates.
//
// It shows the session's snapshot feed (one snapshot a second, with rates and the process's CPU
// filled in, the same one every view shows) while visible: a hidden dialog ignores the ticks and
// shows the latest snapshot at once when shown again. Reset zeroes the dialog's view, not the
// engine's counters, so the headless reports and other views are unaffected (see StatisticsBaseline).
#pragma once

#include "core/stats/snapshot.hpp"
#include "core/stats/statistics_baseline.hpp"
#include "ui/models/statistics_model.hpp"
#include "ui/session/snapshot_feed.hpp"

#include <QDialog>

#include <cstdint>
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
    explicit StatisticsDialog(SnapshotFeed& feed, QWidget* parent = nullptr);
    ~StatisticsDialog() override;

    // The Reset button: from now on the counters show what happened since this moment (the feed
    // takes a snapshot now, for every view).
    void resetStatistics();
    // Shows totals since the station started again.
    void clearReset();

    // The snapshot of the last refresh as the feed handed it, with rates and CPU filled in.
    [[nodiscard]] const stats::StationSnapshot& lastSnapshot() const noexcept;
    [[nodiscard]] SharedSnapshot feedSnapshot() const { return m_last; }
    // What the views show: lastSnapshot() less the reset baseline.
    [[nodiscard]] const stats::StationSnapshot& shownSnapshot() const noexcept { return m_shown; }
    [[nodiscard]] bool hasReset() const noexcept { return m_baseline.active(); }
    [[nodiscard]] std::uint64_t refreshCount() const noexcept { return m_refreshes; }
    [[nodiscard]] QString headerText() const;
    // The size the dialog opens at: room for every column of the streams, within the screen.
    [[nodiscard]] QSize defaultSize() const;

    [[nodiscard]] StreamStatisticsModel* streamModel() const noexcept { return m_streamModel; }
    [[nodiscard]] QueueStatisticsModel* queueModel() const noexcept { return m_queueModel; }
    [[nodiscard]] ForwardStatisticsModel* forwardModel() const noexcept { return m_forwardModel; }
    [[nodiscard]] ConsumerStatisticsModel* consumerModel() const noexcept { return m_consumerModel; }
    [[nodiscard]] QTreeView* streamView() const noexcept { return m_streamView; }
    [[nodiscard]] QTableView* queueView() const noexcept { return m_queueView; }

Q_SIGNALS:
    // After each refresh, once the models hold the new snapshot.
    void refreshed();

private:
    void display(SharedSnapshot snapshot);
    void sizeColumnsOnce();
    void updateHeader();
    void updateTabTitles();

    SnapshotFeed& m_feed;
    stats::StatisticsBaseline m_baseline;
    SharedSnapshot m_last;
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
