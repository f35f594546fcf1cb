// The event log dock: the station's operator events (connections made and lost, recording and
// forwarding trouble, "station stopped" ...) newest at the bottom, with a severity filter, a search
// over stream and text, and export of the rows shown to CSV.
//
// It polls an event source (Station::events(after) in the workstation) four times a second, only
// while visible (the timer starts in showEvent and stops in hideEvent; showing it catches up at
// once). It follows the newest event unless the operator has scrolled away from the bottom.
#pragma once

#include "core/pipeline/station.hpp"
#include "ui/models/event_log_model.hpp"

#include <QDockWidget>
#include <QTimer>

#include <chrono>
#include <cstdint>
#include <functional>
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

    // Writes the rows shown (the filters apply), oldest first, as CSV (RFC 4180: a header record,
    // CRLF line breaks, UTF-8) to `path`, replacing it only when all is written. On failure returns
    // false and, when `error` is given, says why.
    [[nodiscard]] bool exportCsv(const QString& path, QString* error = nullptr) const;

    [[nodiscard]] bool isPolling() const noexcept { return m_timer.isActive(); }
    [[nodiscard]] std::uint64_t pollCount() const noexcept { return m_polls; }
    // True while new events scroll into view (the view is at its bottom).
    [[nodiscard]] bool followsNewest() const;

    [[nodiscard]] EventLogModel* model() const noexcept { return m_model; }
    [[nodiscard]] EventLogFilterModel* filterModel() const noexcept { return m_filter; }
    [[nodiscard]] QTableView* view() const noexcept { return m_view; }

protected:
    void showEvent(QShowEvent* event) override;
    void hideEvent(QHideEvent* event) override;

private:
    void exportWithDialog();
    void updateStatus();

    EventSource m_source;
    QTimer m_timer;
    std::uint64_t m_polls = 0;

    EventLogModel* m_model = nullptr;
    EventLogFilterModel* m_filter = nullptr;
    QTableView* m_view = nullptr;
    QComboBox* m_severity = nullptr;
    QLineEdit* m_search = nullptr;
    QPushButton* m_export = nullptr;
    QLabel* m_status = nullptr;
};

} // namespace telestation::ui
