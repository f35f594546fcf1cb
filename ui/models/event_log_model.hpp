// The event log's models: EventLogModel keeps the station's operator events (connections made and
// lost, sequence gaps, limits, alarms, recording and forwarding trouble, "station stopped" ...) as they
// are polled, one row each, in a bounded history, and earlier events read back from the event archive
// put above them (prependArchived); EventLogFilterModel shows the rows of a minimum severity and a kind
// whose stream, packet type, parameter or text contains a search text. CSV helpers write the rows for
// export (RFC 4180). Columns are described once (kColumns).
#pragma once

#include "core/events/event_archive.hpp"
#include "core/pipeline/station.hpp"

#include <QAbstractTableModel>
#include <QSortFilterProxyModel>
#include <QString>

#include <cstddef>
#include <cstdint>
#include <array>
#include <deque>
#include <optional>
#include <span>

namespace telestation::ui {

// The event's severity as an int (events::Severity's value), on every column.
inline constexpr int kEventSeverityRole = Qt::UserRole + 1;
// The engine's event number (qulonglong), on every column.
inline constexpr int kEventNumberRole = Qt::UserRole + 2;
// The event's time in ns since the epoch (qlonglong), on every column.
inline constexpr int kEventTimeRole = Qt::UserRole + 3;
// The event's kind (events::EventKind as int), on every column.
inline constexpr int kEventKindRole = Qt::UserRole + 4;

class EventLogModel : public QAbstractTableModel {
    Q_OBJECT

public:
    enum Column { Time, Severity, Kind, Stream, PacketType, Parameter, Count, Text, ColumnCount };
    // An operator reads back a shift's worth of events; beyond that the oldest go.
    static constexpr std::size_t kDefaultCapacity = 10'000;

    explicit EventLogModel(std::size_t capacity = kDefaultCapacity, QObject* parent = nullptr);

    // Appends a batch (oldest first, as Station::events() returns them) with one row insert, then
    // drops the oldest rows beyond the capacity with one row removal. Events numbered at or below
    // lastNumber() are ignored (a source may return one twice); a jump in the numbers is counted
    // as missed (the engine keeps only its newest 1000: a slow poller loses the oldest).
    void append(std::span<const events::Event> events);
    void clear();

    // Puts events read back from the archive above the rows (a page as EventArchive::query returns it
    // with newestFirst: the newest first), leaving out those already shown (the same event at the same
    // time: the live rows are in the archive too) and, when the history is full, the oldest of the page.
    // Returns how many rows were added.
    int prependArchived(std::span<const events::ArchivedEvent> newestFirst);
    // Where a row read from the archive sits in it (nullopt for a row polled live): the paging position.
    [[nodiscard]] std::optional<events::EventFilter::Position> archivePosition(int row) const;
    // The earliest time of any row (nullopt when empty): live rows are in the order the session took
    // them, not strictly in time.
    [[nodiscard]] std::optional<std::int64_t> earliestTimeNs() const;

    [[nodiscard]] std::size_t capacity() const noexcept { return m_capacity; }
    // The number of the newest event appended so far (0 when none): the poller's `after`.
    [[nodiscard]] std::uint64_t lastNumber() const noexcept { return m_lastNumber; }
    // Rows dropped to keep the capacity, and events the engine no longer had when polled.
    [[nodiscard]] std::uint64_t droppedCount() const noexcept { return m_dropped; }
    [[nodiscard]] std::uint64_t missedCount() const noexcept { return m_missed; }
    // The event of a row (0 <= row < rowCount()).
    [[nodiscard]] const events::Event& eventAt(int row) const;

    [[nodiscard]] int rowCount(const QModelIndex& parent = {}) const override;
    [[nodiscard]] int columnCount(const QModelIndex& parent = {}) const override;
    [[nodiscard]] QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    [[nodiscard]] QVariant headerData(int section, Qt::Orientation orientation,
                                      int role = Qt::DisplayRole) const override;

    // "2026-11-22 13:34:32.123" (UTC, milliseconds): the Time column.
    [[nodiscard]] static QString displayTime(std::int64_t ns);
    // "2026-11-22T13:34:32.123Z" (ISO 8601, UTC): the CSV's time, which spreadsheets and scripts parse.
    [[nodiscard]] static QString isoTime(std::int64_t ns);
    [[nodiscard]] static QString severityName(events::Severity severity);
    // "×412" for an event that stands for 412 merged ones; "" for one.
    [[nodiscard]] static QString mergedText(std::uint64_t count);
    [[nodiscard]] static QString columnHelp(int column);

private:
    struct Row {
        events::Event event;
        std::optional<events::EventFilter::Position> archived; // read from the archive
    };
    struct ColumnSpec {
        const char* header; // QT_TR_NOOP
        const char* help;   // QT_TR_NOOP: the header's tool tip
        QString (*text)(const events::Event&);
    };
    static const std::array<ColumnSpec, ColumnCount> kColumns;

    std::size_t m_capacity;
    std::deque<Row> m_events;
    std::uint64_t m_lastNumber = 0;
    std::uint64_t m_dropped = 0;
    std::uint64_t m_missed = 0;
};

// Rows of EventLogModel (or any model with kEventSeverityRole and kEventKindRole) at or above a
// severity, of one kind or any, whose Stream, PacketType, Parameter or Text column contains the search
// text, case-insensitively. Keeps the source's order.
class EventLogFilterModel : public QSortFilterProxyModel {
    Q_OBJECT

public:
    explicit EventLogFilterModel(QObject* parent = nullptr);

    void setMinimumSeverity(events::Severity severity);
    [[nodiscard]] events::Severity minimumSeverity() const noexcept { return m_minimum; }
    void setSearchText(const QString& text);
    [[nodiscard]] const QString& searchText() const noexcept { return m_search; }
    void setKind(std::optional<events::EventKind> kind);
    [[nodiscard]] std::optional<events::EventKind> kind() const noexcept { return m_kind; }

protected:
    [[nodiscard]] bool filterAcceptsRow(int sourceRow, const QModelIndex& sourceParent) const override;

private:
    events::Severity m_minimum = events::Severity::Info;
    std::optional<events::EventKind> m_kind;
    QString m_search;
};

// One CSV field (RFC 4180): quoted when it holds a comma, a double quote, CR or LF (or starts or ends
// with a space, which some readers trim), with inner double quotes doubled.
[[nodiscard]] QString csvField(const QString& value);
// The CSV header and one event as a CSV record, without the line break (RFC 4180 uses CRLF).
// Columns: Number, Time (UTC) as isoTime(), Severity, Stream, Text.
[[nodiscard]] QString csvHeader();
[[nodiscard]] QString csvRecord(const events::Event& event);

} // namespace telestation::ui
