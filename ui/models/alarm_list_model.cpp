#include "ui/models/alarm_list_model.hpp"

#include "ui/models/event_log_model.hpp"
#include "ui/models/tones.hpp"
#include "ui/text/number_format.hpp"

#include <QBrush>
#include <QFont>

#include <cmath>

namespace telestation::ui {

namespace {

using events::AlarmSource;
using events::AlarmState;

QString fromStd(const std::string& s)
{
    return QString::fromStdString(s);
}

// NaN (no value: a loss alarm, a state) is an empty cell.
QString optionalValue(double value)
{
    return std::isnan(value) ? QString() : valueText(value);
}

bool sameNumber(double a, double b)
{
    return a == b || (std::isnan(a) && std::isnan(b));
}

QString alarmTime(std::int64_t ns)
{
    return ns == 0 ? QString() : EventLogModel::displayTime(ns).left(19); // to the second; the tool tip has ms
}

} // namespace

bool operator==(const AlarmListRow& x, const AlarmListRow& y)
{
    const events::Alarm& a = x.alarm;
    const events::Alarm& b = y.alarm;
    return x.key == y.key && x.state == y.state && x.shelfLeftMinutes == y.shelfLeftMinutes && a.id == b.id
        && a.source == b.source && a.stream == b.stream && a.packetType == b.packetType && a.parameter == b.parameter
        && a.severity == b.severity && a.currentSeverity == b.currentSeverity && a.active == b.active
        && a.acknowledged == b.acknowledged && a.shelvedUntilNs == b.shelvedUntilNs && a.firstNs == b.firstNs
        && a.lastNs == b.lastNs && sameNumber(a.triggerValue, b.triggerValue)
        && sameNumber(a.currentValue, b.currentValue) && sameNumber(a.limit, b.limit) && a.limitState == b.limitState
        && a.violations == b.violations && a.acknowledgedBy == b.acknowledgedBy && a.comment == b.comment
        && a.acknowledgedNs == b.acknowledgedNs;
}

// In Column order.
const std::array<TableColumn<AlarmListModel::Row>, AlarmListModel::ColumnCount> AlarmListModel::kColumns = {{
    {QT_TR_NOOP("Severity"),
     QT_TR_NOOP("The most severe since the alarm was raised or last acknowledged: critical (red limits, unexpected "
                "states), error (an invalid value, a stale stream), warning (yellow limits, packet loss)"),
     CellFormat::Text, [](const Row& r) -> QVariant { return severityText(r.alarm.severity); }},
    {QT_TR_NOOP("State"),
     QT_TR_NOOP("Active or back to normal, acknowledged or not; shelved alarms are put aside for a while"),
     CellFormat::Text, [](const Row& r) -> QVariant { return stateText(r.state); },
     [](const Row& r) {
         if (r.state == AlarmState::Shelved)
             return tr("shelved (%1 min left)").arg(r.shelfLeftMinutes);
         return stateText(r.state);
     }},
    {QT_TR_NOOP("Stream"), QT_TR_NOOP("The stream the alarm belongs to"), CellFormat::Text,
     [](const Row& r) -> QVariant { return fromStd(r.alarm.stream); }},
    {QT_TR_NOOP("Parameter"),
     QT_TR_NOOP("The parameter out of limits, or the stream's own alarm: loss (packets lost or dropped), stale (no "
                "packet for the stream's stale time)"),
     CellFormat::Text, [](const Row& r) -> QVariant {
         if (r.alarm.source == AlarmSource::Parameter)
             return fromStd(r.alarm.parameter);
         return fromStd(std::string(events::alarmSourceName(r.alarm.source)));
     }},
    {QT_TR_NOOP("Limit state"), QT_TR_NOOP("The parameter's latest limit state"), CellFormat::Text,
     [](const Row& r) -> QVariant { return fromStd(r.alarm.limitState); }},
    {QT_TR_NOOP("Trigger value"), QT_TR_NOOP("The value that raised the alarm"), CellFormat::Text,
     [](const Row& r) -> QVariant { return r.alarm.triggerValue; },
     [](const Row& r) { return optionalValue(r.alarm.triggerValue); }},
    {QT_TR_NOOP("Latest value"),
     QT_TR_NOOP("The latest value an event carried (and, while active, the limit it crossed): the value when the "
                "alarm last changed, not necessarily the value now (a value display shows that)"),
     CellFormat::Text, [](const Row& r) -> QVariant { return r.alarm.currentValue; },
     [](const Row& r) {
         const QString value = optionalValue(r.alarm.currentValue);
         // The limit the value crossed, while it is out of limits (back to normal, the limit would read
         // as if the value still crossed it).
         if (value.isEmpty() || std::isnan(r.alarm.limit) || !r.alarm.active)
             return value;
         return tr("%1 (limit %2)").arg(value, valueText(r.alarm.limit));
     }},
    {QT_TR_NOOP("Violations"),
     QT_TR_NOOP("Parameters: times the value went out of normal since raised. Loss: packets lost or dropped"),
     CellFormat::Count, [](const Row& r) -> QVariant { return QVariant::fromValue<qulonglong>(r.alarm.violations); }},
    {QT_TR_NOOP("First (UTC)"), QT_TR_NOOP("When the alarm was raised"), CellFormat::Text,
     [](const Row& r) -> QVariant { return QVariant::fromValue<qlonglong>(r.alarm.firstNs); },
     [](const Row& r) { return alarmTime(r.alarm.firstNs); }},
    {QT_TR_NOOP("Last (UTC)"), QT_TR_NOOP("The latest violation, loss or stale report"), CellFormat::Text,
     [](const Row& r) -> QVariant { return QVariant::fromValue<qlonglong>(r.alarm.lastNs); },
     [](const Row& r) { return alarmTime(r.alarm.lastNs); }},
    {QT_TR_NOOP("Acknowledged / shelved by"),
     QT_TR_NOOP("Who last acknowledged or shelved the alarm, and their comment"), CellFormat::Text,
     [](const Row& r) -> QVariant { return fromStd(r.alarm.acknowledgedBy); },
     [](const Row& r) {
         if (r.alarm.acknowledgedBy.empty())
             return QString();
         if (r.alarm.comment.empty())
             return fromStd(r.alarm.acknowledgedBy);
         return tr("%1: %2").arg(fromStd(r.alarm.acknowledgedBy), fromStd(r.alarm.comment));
     }},
}};

AlarmListModel::AlarmListModel(QObject* parent) : ColumnTableModel(staticMetaObject, kColumns, parent)
{
}

void AlarmListModel::setAlarms(const std::vector<events::Alarm>& alarms, std::int64_t nowNs)
{
    constexpr std::int64_t kNsPerMinute = 60'000'000'000;
    std::vector<Row> rows;
    rows.reserve(alarms.size());
    for (const events::Alarm& a : alarms) {
        Row row{std::to_string(a.id), a, a.state(nowNs)};
        if (row.state == AlarmState::Shelved)
            row.shelfLeftMinutes = (a.shelvedUntilNs - nowNs + kNsPerMinute - 1) / kNsPerMinute;
        rows.push_back(std::move(row));
    }
    setRows(std::move(rows));
}

int AlarmListModel::rowOf(std::uint64_t id) const
{
    for (std::size_t i = 0; i < m_rows.size(); ++i)
        if (m_rows[i].alarm.id == id)
            return static_cast<int>(i);
    return -1;
}

int AlarmListModel::rowOfParameter(const QString& stream, const QString& parameter) const
{
    const std::string s = stream.toStdString();
    const std::string p = parameter.toStdString();
    for (std::size_t i = 0; i < m_rows.size(); ++i) {
        const events::Alarm& a = m_rows[i].alarm;
        if (a.source == AlarmSource::Parameter && a.parameter == p && (s.empty() || a.stream == s))
            return static_cast<int>(i);
    }
    return -1;
}

QVariant AlarmListModel::data(const QModelIndex& index, int role) const
{
    if (!index.isValid() || index.row() >= rowCount())
        return {};
    const Row& row = m_rows[static_cast<std::size_t>(index.row())];
    switch (role) {
    case kAlarmIdRole: return QVariant::fromValue<qulonglong>(row.alarm.id);
    case kSeverityRole: return static_cast<int>(row.alarm.severity);
    case kStateRole: return static_cast<int>(row.state);
    case Qt::BackgroundRole:
    case Qt::ForegroundRole:
    case Qt::FontRole: return rowTone(row, index.column(), role);
    default: return ColumnTableModel::data(index, role);
    }
}

QVariant AlarmListModel::rowTone(const Row& row, int column, int role)
{
    const events::Severity severity = row.alarm.severity;
    const bool colourCell = row.state == AlarmState::ActiveUnacknowledged
                            || (row.state == AlarmState::ActiveAcknowledged && column == Severity);
    switch (role) {
    case Qt::BackgroundRole:
        return colourCell ? QVariant(QBrush(severityBackground(severity))) : QVariant();
    case Qt::ForegroundRole:
        if (colourCell)
            return QBrush(tone::kColouredText);
        if (row.state == AlarmState::Shelved)
            return QBrush(tone::kMutedText);
        if (row.state == AlarmState::ClearedUnacknowledged)
            return QBrush(severity == events::Severity::Warning ? tone::kWarningText : tone::kErrorText);
        return {};
    case Qt::FontRole: {
        if (row.state != AlarmState::Shelved && !(row.state == AlarmState::ActiveUnacknowledged && column == Severity))
            return {};
        QFont font;
        font.setItalic(row.state == AlarmState::Shelved);
        font.setBold(row.state == AlarmState::ActiveUnacknowledged);
        return font;
    }
    default: return {};
    }
}

QString AlarmListModel::cellToolTip(const Row& row, int column) const
{
    const events::Alarm& a = row.alarm;
    switch (column) {
    case Severity:
        if (a.currentSeverity != a.severity)
            return tr("%1\nLatest violation: %2").arg(help(column), severityText(a.currentSeverity));
        return help(column);
    case State:
        if (row.state == AlarmState::Shelved)
            return tr("Shelved until %1 UTC; underneath: %2")
                .arg(EventLogModel::displayTime(a.shelvedUntilNs),
                     stateText(a.active ? (a.acknowledged ? AlarmState::ActiveAcknowledged : AlarmState::ActiveUnacknowledged)
                                        : AlarmState::ClearedUnacknowledged));
        return help(column);
    case Parameter:
        if (!a.packetType.empty())
            return tr("%1\nPacket type: %2").arg(help(column), fromStd(a.packetType));
        return help(column);
    case First: return tr("Raised %1 UTC").arg(EventLogModel::displayTime(a.firstNs));
    case Last: return tr("Latest %1 UTC").arg(EventLogModel::displayTime(a.lastNs));
    case Acknowledged:
        if (a.acknowledgedNs != 0)
            return tr("%1\n%2 at %3 UTC%4")
                .arg(help(column), fromStd(a.acknowledgedBy), EventLogModel::displayTime(a.acknowledgedNs),
                     a.comment.empty() ? QString() : tr(": %1").arg(fromStd(a.comment)));
        return help(column);
    default: return help(column);
    }
}

// The engine's words (events::severityName, alarmStateName): the same in the list, the event log's
// alarm events, the archive and `--events-out`.
QString AlarmListModel::severityText(events::Severity severity)
{
    return QString::fromLatin1(events::severityName(severity));
}

QString AlarmListModel::stateText(events::AlarmState state)
{
    return QString::fromLatin1(events::alarmStateName(state));
}

QColor AlarmListModel::severityBackground(events::Severity severity)
{
    switch (severity) {
    case events::Severity::Critical: return tone::kRedBackground;
    case events::Severity::Error: return tone::kOrangeBackground;
    case events::Severity::Warning: return tone::kYellowBackground;
    case events::Severity::Info: return tone::kNormalBackground;
    }
    return {};
}

QString AlarmListModel::columnHelp(int column)
{
    if (column < 0 || column >= ColumnCount)
        return {};
    return tr(kColumns[static_cast<std::size_t>(column)].help);
}

} // namespace telestation::ui
