// The event log dock: the station's operator events (connections made and lost, sequence gaps,
// limits, alarms, recording and forwarding trouble, "station stopped" ...) newest at the bottom, with
// filters by severity and kind, a search over stream, packet type, parameter and text, and export of
// the rows shown to CSV.
//
// It polls an event source (the session's events(after) in the workstation) four times a second, only
// while visible (the timer starts in showEvent and stops in hideEvent; showing it catches up at
// once). It follows the newest event unless the operator has scrolled away from the bottom.
//
// History, from the station's event archive (setArchive): "Load earlier…" puts the archive's events
// before the oldest shown above it, a page (kHistoryPage rows) per click; "Range…" shows a time range
// of the archive instead of the live log (paged back the same way; "Live" returns); "Export range…"
// writes a range's events to CSV with the archive's columns, a page per event-loop turn. The archive
// is read on the GUI thread only on those clicks, a page per query, never per tick. The archive's
// trouble (the station's eventStorageError) is shown under the log in red.
#pragma once

#include "core/pipeline/station.hpp"
#include "ui/models/event_history.hpp"
#include "ui/models/event_log_model.hpp"
#include "ui/session/phased_timer.hpp"

#include <QDockWidget>

#include <chrono>
#include <cstdint>
#include <functional>
#include <optional>
#include <utility>
#include <vector>

class QComboBox;
class QLabel;
class QLineEdit;
class QPushButton;
class QTableView;

namespace telestation::ui {

class EventLogDock : public QDockWidget {
    Q_OBJECT

public:
    // Events numbered above `after`, oldest first. Called on the GUI thread; must be cheap.
    using EventSource = std::function<std::vector<events::Event>(std::uint64_t after)>;
    // The event archive: its file ("" when none) and its trouble ("" when fine), asked on the GUI
    // thread at each poll: must be cheap.
    struct Archive {
        std::function<QString()> path;
        std::function<QString()> trouble;
    };
    static constexpr std::chrono::milliseconds kPollInterval{250};

    // The severity filter's choices, in the combo's order.
    enum class SeverityFilter { All, WarningAndAbove, Errors, Critical };

    explicit EventLogDock(EventSource source, QWidget* parent = nullptr,
                          std::size_t capacity = EventLogModel::kDefaultCapacity);
    ~EventLogDock() override;

    // Fetches new events now (the timer does this while visible).
    void poll();

    void setSeverityFilter(SeverityFilter filter);
    [[nodiscard]] SeverityFilter severityFilter() const;
    void setSearchText(const QString& text);
    // nullopt: every kind.
    void setKindFilter(std::optional<events::EventKind> kind);

    void setArchive(Archive archive);
    // Puts the archive's page of events before the oldest row shown above it (in the live log or the
    // range shown). False, with the reason under the log, when the archive cannot be read.
    bool loadEarlier();
    // Shows the archive's events of [fromNs, toNs) (its newest page; loadEarlier() for more) instead of
    // the live log, which goes on taking events meanwhile; showLive() returns to it.
    bool showRange(std::int64_t fromNs, std::int64_t toNs);
    void showLive();
    [[nodiscard]] std::optional<std::pair<std::int64_t, std::int64_t>> range() const { return m_range; }
    // Writes the archive's events of [fromNs, toNs) to `path` as CSV (events::writeCsv); the job runs on
    // the event loop and reports under the log; nullptr (and why there) when one is running already.
    // The dock owns the job and deletes it (later) once done.
    EventRangeExport* exportRange(const QString& path, std::int64_t fromNs, std::int64_t toNs);
    // The history's and the archive's line under the log.
    [[nodiscard]] QString archiveStatusText() const;
    // Writes the rows shown (the filters apply), oldest first, as CSV (RFC 4180: a header record,
    // CRLF line breaks, UTF-8) to `path`, replacing it only when all is written. On failure returns
    // false and, when `error` is given, says why.
    [[nodiscard]] bool exportCsv(const QString& path, QString* error = nullptr) const;

    [[nodiscard]] bool isPolling() const noexcept { return m_timer.isActive(); }
    [[nodiscard]] std::uint64_t pollCount() const noexcept { return m_polls; }
    // True while new events scroll into view (the view is at its bottom).
    [[nodiscard]] bool followsNewest() const;

    // The live log (model()) and the rows shown now: the live log's, or the range's.
    [[nodiscard]] EventLogModel* model() const noexcept { return m_model; }
    [[nodiscard]] EventLogModel* shownModel() const noexcept { return m_range ? m_rangeModel : m_model; }
    [[nodiscard]] EventLogFilterModel* filterModel() const noexcept { return m_filter; }
    [[nodiscard]] QTableView* view() const noexcept { return m_view; }

protected:
    void showEvent(QShowEvent* event) override;
    void hideEvent(QHideEvent* event) override;

private:
    void exportWithDialog();
    void rangeWithDialog();
    void exportRangeWithDialog();
    void updateStatus();
    void setHistoryNote(const QString& text, bool error);
    void updateArchiveStatus();

    EventSource m_source;
    PhasedTimer m_timer{kPollInterval};
    std::uint64_t m_polls = 0;

    EventLogModel* m_model = nullptr;
    EventLogModel* m_rangeModel = nullptr; // the range shown, while one is
    std::optional<std::pair<std::int64_t, std::int64_t>> m_range;
    std::size_t m_capacity;
    Archive m_archive;
    QString m_historyNote;
    bool m_historyNoteIsError = false;
    bool m_archiveStatusIsError = false;
    EventRangeExport* m_rangeExport = nullptr; // the export running, if any
    EventLogFilterModel* m_filter = nullptr;
    QTableView* m_view = nullptr;
    QComboBox* m_severity = nullptr;
    QComboBox* m_kind = nullptr;
    QLineEdit* m_search = nullptr;
    QPushButton* m_export = nullptr;
    QPushButton* m_loadEarlier = nullptr;
    QPushButton* m_rangeButton = nullptr;
    QPushButton* m_live = nullptr;
    QPushButton* m_exportRange = nullptr;
    QLabel* m_status = nullptr;
    QLabel* m_archiveStatus = nullptr;
};

} // namespace telestation::ui
