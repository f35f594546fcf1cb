// AlarmListModel: the station's alarms (pipeline::Station::alarms(), through StationSession) as the
// operator's list — severity, state, stream, parameter (or "loss" / "stale" for a stream's alarm),
// limit state, trigger and current value, violations, first and last time, who acknowledged or shelved
// it and why. Rows keep the station's order (most severe first, then the newest), are kept by alarm id
// and updated in place (ColumnTableModel), so the view keeps its selection while values move.
//
// Colours: an active unacknowledged alarm fills its row with its severity's colour (critical red,
// error orange, warning yellow); acknowledged, only its severity cell; back to normal but not yet
// acknowledged, its text in the severity's colour on the plain background (dimmer); shelved, grey
// italic text.
#pragma once

#include "core/events/alarm.hpp"
#include "ui/models/column_table_model.hpp"

#include <array>
#include <cstdint>
#include <string>
#include <vector>

namespace telestation::ui {

// One alarm as listed, with what depends on the time of the refresh (its state, the shelf left).
struct AlarmListRow {
    std::string key; // the alarm's id
    events::Alarm alarm;
    events::AlarmState state = events::AlarmState::ActiveUnacknowledged;
    std::int64_t shelfLeftMinutes = 0; // rounded up; shelved alarms only
    friend bool operator==(const AlarmListRow& a, const AlarmListRow& b);
};

class AlarmListModel : public ColumnTableModel<AlarmListRow> {
    Q_OBJECT

public:
    enum Column {
        Severity,
        State,
        Stream,
        Parameter,
        LimitState,
        TriggerValue,
        LatestValue,
        Violations,
        First,
        Last,
        Acknowledged,
        ColumnCount
    };
    // Per row (any column): the alarm's id (qulonglong), its latched severity (events::Severity as int),
    // its state (events::AlarmState as int).
    static constexpr int kAlarmIdRole = Qt::UserRole + 10;
    static constexpr int kSeverityRole = Qt::UserRole + 11;
    static constexpr int kStateRole = Qt::UserRole + 12;

    explicit AlarmListModel(QObject* parent = nullptr);

    // The alarms in the station's order, as of nowNs (realtime clock: shelves end at a time).
    void setAlarms(const std::vector<events::Alarm>& alarms, std::int64_t nowNs);

    [[nodiscard]] const events::Alarm& alarm(int row) const { return m_rows.at(static_cast<std::size_t>(row)).alarm; }
    [[nodiscard]] events::AlarmState state(int row) const { return m_rows.at(static_cast<std::size_t>(row)).state; }
    // The row of an alarm, -1 when it is not listed.
    [[nodiscard]] int rowOf(std::uint64_t id) const;
    // The row of a parameter's alarm on a stream ("" = on any stream), -1 when none is listed.
    [[nodiscard]] int rowOfParameter(const QString& stream, const QString& parameter) const;

    [[nodiscard]] QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;

    // "critical", "error", "warning", "info"; "active unacknowledged", ... "shelved".
    [[nodiscard]] static QString severityText(events::Severity severity);
    [[nodiscard]] static QString stateText(events::AlarmState state);
    // The background that stands for a severity (critical red, error orange, warning yellow).
    [[nodiscard]] static QColor severityBackground(events::Severity severity);

    [[nodiscard]] static QString columnHelp(int column);

private:
    using Row = AlarmListRow;
    [[nodiscard]] QString cellToolTip(const Row& row, int column) const override;
    [[nodiscard]] static QVariant rowTone(const Row& row, int column, int role);
    static const std::array<TableColumn<Row>, ColumnCount> kColumns;
};

} // namespace telestation::ui
