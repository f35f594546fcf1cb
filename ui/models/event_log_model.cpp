#include "ui/models/event_log_model.hpp"

#include "ui/models/tones.hpp"

#include <QApplication>
#include <QBrush>
#include <QColor>
#include <QDateTime>
#include <QStringList>
#include <QStyle>

#include <algorithm>

namespace telestation::ui {

namespace {

QDateTime utc(std::int64_t ns)
{
    // Floor, not truncate: a time before the epoch must not round up into the next millisecond.
    const std::int64_t ms = ns >= 0 ? ns / 1'000'000 : -((-ns + 999'999) / 1'000'000);
    return QDateTime::fromMSecsSinceEpoch(ms, Qt::UTC);
}

QString fromStd(const std::string& s)
{
    return QString::fromStdString(s);
}

} // namespace

// ---- EventLogModel ----

EventLogModel::EventLogModel(std::size_t capacity, QObject* parent)
    : QAbstractTableModel(parent), m_capacity(std::max<std::size_t>(capacity, 1))
{
}

void EventLogModel::append(std::span<const events::Event> events)
{
    // Skip what we already have (the source may overlap), count what the engine no longer had.
    auto first = std::find_if(events.begin(), events.end(),
                              [this](const events::Event& e) { return e.number > m_lastNumber; });
    if (first == events.end())
        return;
    std::uint64_t expected = m_lastNumber + 1;
    for (auto it = first; it != events.end(); ++it) {
        if (it->number > expected)
            m_missed += it->number - expected;
        expected = std::max(expected, it->number + 1);
    }
    m_lastNumber = events.back().number > m_lastNumber ? events.back().number : m_lastNumber;

    // A batch larger than the capacity keeps only its newest events: insert just those.
    auto count = static_cast<std::size_t>(events.end() - first);
    if (count > m_capacity) {
        m_dropped += count - m_capacity;
        first += static_cast<std::ptrdiff_t>(count - m_capacity);
        count = m_capacity;
    }

    // Make room first, so the view never holds more than the capacity.
    const std::size_t excess = m_events.size() + count > m_capacity ? m_events.size() + count - m_capacity : 0;
    if (excess > 0) {
        beginRemoveRows({}, 0, static_cast<int>(excess) - 1);
        m_events.erase(m_events.begin(), m_events.begin() + static_cast<std::ptrdiff_t>(excess));
        m_dropped += excess;
        endRemoveRows();
    }

    const int row = static_cast<int>(m_events.size());
    beginInsertRows({}, row, row + static_cast<int>(count) - 1);
    m_events.insert(m_events.end(), first, events.end());
    endInsertRows();
}

void EventLogModel::clear()
{
    // lastNumber stays: the poller continues after it, so cleared events do not come back.
    beginResetModel();
    m_events.clear();
    endResetModel();
}

const events::Event& EventLogModel::event(int row) const
{
    return m_events.at(static_cast<std::size_t>(row));
}

int EventLogModel::rowCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : static_cast<int>(m_events.size());
}

int EventLogModel::columnCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant EventLogModel::data(const QModelIndex& index, int role) const
{
    if (!index.isValid() || index.row() < 0 || index.row() >= rowCount())
        return {};
    const events::Event& e = m_events[static_cast<std::size_t>(index.row())];
    switch (role) {
    case kEventSeverityRole: return static_cast<int>(e.severity);
    case kEventNumberRole: return QVariant::fromValue<qulonglong>(e.number);
    case kEventTimeRole: return QVariant::fromValue<qlonglong>(e.timeNs);
    case Qt::DisplayRole:
        switch (index.column()) {
        case Time: return displayTime(e.timeNs);
        case Severity: return severityName(e.severity);
        case Stream: return e.stream.empty() ? tr("(station)") : fromStd(e.stream);
        case Text: return fromStd(e.text);
        default: return {};
        }
    case Qt::ToolTipRole:
        if (index.column() == Text) // long texts are cut off by the column: the tool tip has it all
            return fromStd(e.text);
        if (index.column() == Time)
            return tr("Event %1").arg(e.number);
        return {};
    case Qt::DecorationRole: {
        if (index.column() != Severity || qApp == nullptr)
            return {};
        QStyle* style = QApplication::style();
        switch (e.severity) {
        case events::Severity::Info: return style->standardIcon(QStyle::SP_MessageBoxInformation);
        case events::Severity::Warning: return style->standardIcon(QStyle::SP_MessageBoxWarning);
        case events::Severity::Error:
        case events::Severity::Critical: return style->standardIcon(QStyle::SP_MessageBoxCritical);
        }
        return {};
    }
    case Qt::ForegroundRole:
        if (e.severity == events::Severity::Warning)
            return QBrush(tone::kWarningText);
        if (e.severity >= events::Severity::Error)
            return QBrush(tone::kErrorText);
        return {};
    default: return {};
    }
}

QVariant EventLogModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return QAbstractTableModel::headerData(section, orientation, role);
    switch (section) {
    case Time: return tr("Time (UTC)");
    case Severity: return tr("Severity");
    case Stream: return tr("Stream");
    case Text: return tr("Event");
    default: return {};
    }
}

QString EventLogModel::displayTime(std::int64_t ns)
{
    return utc(ns).toString(QStringLiteral("yyyy-MM-dd HH:mm:ss.zzz"));
}

QString EventLogModel::isoTime(std::int64_t ns)
{
    return utc(ns).toString(QStringLiteral("yyyy-MM-ddTHH:mm:ss.zzzZ"));
}

QString EventLogModel::severityName(events::Severity severity)
{
    switch (severity) {
    case events::Severity::Info: return tr("Info");
    case events::Severity::Warning: return tr("Warning");
    case events::Severity::Error: return tr("Error");
    case events::Severity::Critical: return tr("Critical");
    }
    return {};
}

// ---- EventLogFilterModel ----

EventLogFilterModel::EventLogFilterModel(QObject* parent) : QSortFilterProxyModel(parent)
{
}

void EventLogFilterModel::setMinimumSeverity(events::Severity severity)
{
    if (severity == m_minimum)
        return;
    m_minimum = severity;
    invalidateFilter();
}

void EventLogFilterModel::setSearchText(const QString& text)
{
    if (text == m_search)
        return;
    m_search = text;
    invalidateFilter();
}

bool EventLogFilterModel::filterAcceptsRow(int sourceRow, const QModelIndex& sourceParent) const
{
    const QAbstractItemModel* source = sourceModel();
    if (source == nullptr)
        return false;
    const int severity = source->data(source->index(sourceRow, EventLogModel::Time, sourceParent), kEventSeverityRole).toInt();
    if (severity < static_cast<int>(m_minimum))
        return false;
    if (m_search.isEmpty())
        return true;
    for (const int column : {EventLogModel::Stream, EventLogModel::Text}) {
        const QString value = source->data(source->index(sourceRow, column, sourceParent)).toString();
        if (value.contains(m_search, Qt::CaseInsensitive))
            return true;
    }
    return false;
}

// ---- CSV ----

QString csvField(const QString& value)
{
    const bool quote = value.contains(QLatin1Char(',')) || value.contains(QLatin1Char('"')) ||
                       value.contains(QLatin1Char('\r')) || value.contains(QLatin1Char('\n')) ||
                       value.startsWith(QLatin1Char(' ')) || value.endsWith(QLatin1Char(' '));
    if (!quote)
        return value;
    QString quoted = value;
    quoted.replace(QLatin1Char('"'), QStringLiteral("\"\""));
    return QLatin1Char('"') + quoted + QLatin1Char('"');
}

QString csvHeader()
{
    return QStringLiteral("Number,Time (UTC),Severity,Stream,Text");
}

QString csvRecord(const events::Event& event)
{
    // The severity's English name, not tr(): scripts read these files.
    static constexpr const char* kNames[] = {"Info", "Warning", "Error", "Critical"};
    const char* severity = kNames[static_cast<int>(event.severity) % 4];
    return QStringList{QString::number(event.number), EventLogModel::isoTime(event.timeNs),
                       QString::fromLatin1(severity), csvField(fromStd(event.stream)), csvField(fromStd(event.text))}
        .join(QLatin1Char(','));
}

} // namespace telestation::ui
