#include "ui/models/event_log_model.hpp"

#include "ui/models/tones.hpp"
#include "ui/text/number_format.hpp"

#include <QApplication>
#include <QBrush>
#include <QColor>
#include <QDateTime>
#include <QFont>
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

QString fromStd(std::string_view s)
{
    return QString::fromUtf8(s.data(), static_cast<qsizetype>(s.size()));
}

// The same event at the same time (the archive numbers events per station run, the session across runs).
bool sameEvent(const events::Event& shown, const events::Event& archived)
{
    events::Event a = archived;
    a.number = shown.number;
    return a == shown;
}

} // namespace

// In Column order.
const std::array<EventLogModel::ColumnSpec, EventLogModel::ColumnCount> EventLogModel::kColumns = {{
    {QT_TR_NOOP("Time (UTC)"), QT_TR_NOOP("When it happened"), [](const events::Event& e) { return displayTime(e.timeNs); }},
    {QT_TR_NOOP("Severity"), QT_TR_NOOP("Info, warning, error or critical"),
     [](const events::Event& e) { return severityName(e.severity); }},
    {QT_TR_NOOP("Kind"), QT_TR_NOOP("What happened, in the archive's and the filters' words"),
     [](const events::Event& e) { return fromStd(events::eventKindName(e.kind)); }},
    {QT_TR_NOOP("Stream"), QT_TR_NOOP("The stream it concerns, or the station as a whole"),
     [](const events::Event& e) { return e.stream.empty() ? tr("(station)") : fromStd(e.stream); }},
    {QT_TR_NOOP("Packet type"), QT_TR_NOOP("The packet type it concerns, where one does"),
     [](const events::Event& e) { return fromStd(e.packetType); }},
    {QT_TR_NOOP("Parameter"), QT_TR_NOOP("The parameter of a limit, an alarm or a limit edit"),
     [](const events::Event& e) { return fromStd(e.parameter); }},
    {QT_TR_NOOP("Count"), QT_TR_NOOP("How many events of its kind and source the line stands for: a storm merged into one line"),
     [](const events::Event& e) { return mergedText(e.count); }},
    {QT_TR_NOOP("Event"), QT_TR_NOOP("What the operator reads"), [](const events::Event& e) { return fromStd(e.text); }},
}};

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
    for (auto it = first; it != events.end(); ++it)
        m_events.push_back(Row{*it, std::nullopt});
    endInsertRows();
}

int EventLogModel::prependArchived(std::span<const events::ArchivedEvent> newestFirst)
{
    if (newestFirst.empty())
        return 0;
    // Rows shown at the page's times: the only ones a row of the page can repeat.
    const std::int64_t oldest = newestFirst.back().event.timeNs;
    const std::int64_t newest = newestFirst.front().event.timeNs;
    std::vector<const events::Event*> near;
    for (const Row& r : m_events)
        if (r.event.timeNs >= oldest && r.event.timeNs <= newest)
            near.push_back(&r.event);
    std::vector<Row> added; // newest first, as the page
    const std::size_t room = m_capacity - std::min(m_capacity, m_events.size());
    for (const events::ArchivedEvent& a : newestFirst) {
        if (added.size() == room)
            break;
        const bool shown = std::any_of(near.begin(), near.end(), [&](const events::Event* e) { return sameEvent(*e, a.event); });
        if (!shown)
            added.push_back(Row{a.event, a.position()});
    }
    if (added.empty())
        return 0;
    beginInsertRows({}, 0, static_cast<int>(added.size()) - 1);
    for (Row& r : added) // newest first: each goes above the one before it
        m_events.push_front(std::move(r));
    endInsertRows();
    return static_cast<int>(added.size());
}

std::optional<events::EventFilter::Position> EventLogModel::archivePosition(int row) const
{
    return m_events.at(static_cast<std::size_t>(row)).archived;
}

std::optional<std::int64_t> EventLogModel::earliestTimeNs() const
{
    if (m_events.empty())
        return std::nullopt;
    std::int64_t earliest = m_events.front().event.timeNs;
    for (const Row& r : m_events)
        earliest = std::min(earliest, r.event.timeNs);
    return earliest;
}

void EventLogModel::clear()
{
    // lastNumber stays: the poller continues after it, so cleared events do not come back.
    beginResetModel();
    m_events.clear();
    endResetModel();
}

const events::Event& EventLogModel::eventAt(int row) const
{
    return m_events.at(static_cast<std::size_t>(row)).event;
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
    if (!index.isValid() || index.row() < 0 || index.row() >= rowCount() || index.column() >= ColumnCount)
        return {};
    const events::Event& e = m_events[static_cast<std::size_t>(index.row())].event;
    switch (role) {
    case kEventSeverityRole: return static_cast<int>(e.severity);
    case kEventNumberRole: return QVariant::fromValue<qulonglong>(e.number);
    case kEventTimeRole: return QVariant::fromValue<qlonglong>(e.timeNs);
    case kEventKindRole: return static_cast<int>(e.kind);
    case Qt::DisplayRole: return kColumns[static_cast<std::size_t>(index.column())].text(e);
    case Qt::ToolTipRole:
        switch (index.column()) {
        case Text: return fromStd(e.text); // long texts are cut off by the column: the tool tip has it all
        case Time:
            return m_events[static_cast<std::size_t>(index.row())].archived ? tr("Event %1 (from the archive)").arg(e.number)
                                                                             : tr("Event %1").arg(e.number);
        case Count:
            if (e.count <= 1)
                return {};
            return e.amount > 0 ? tr("%1 events merged into this line (amount %2)").arg(countText(e.count), countText(e.amount))
                                : tr("%1 events merged into this line").arg(countText(e.count));
        case Kind:
            return e.detail.empty() ? QVariant() : QVariant(fromStd(e.detail));
        default: return {};
        }
    case Qt::TextAlignmentRole:
        return index.column() == Count ? QVariant(Qt::AlignRight | Qt::AlignVCenter) : QVariant();
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
    case Qt::FontRole: {
        if (e.severity != events::Severity::Critical)
            return {};
        QFont font;
        font.setBold(true);
        return font;
    }
    default: return {};
    }
}

QVariant EventLogModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || section < 0 || section >= ColumnCount)
        return QAbstractTableModel::headerData(section, orientation, role);
    if (role == Qt::DisplayRole)
        return tr(kColumns[static_cast<std::size_t>(section)].header);
    if (role == Qt::ToolTipRole)
        return columnHelp(section);
    return QAbstractTableModel::headerData(section, orientation, role);
}

QString EventLogModel::columnHelp(int column)
{
    if (column < 0 || column >= ColumnCount)
        return {};
    return tr(kColumns[static_cast<std::size_t>(column)].help);
}

QString EventLogModel::mergedText(std::uint64_t count)
{
    return count > 1 ? QStringLiteral("×%1").arg(countText(count)) : QString();
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

void EventLogFilterModel::setKind(std::optional<events::EventKind> kind)
{
    if (kind == m_kind)
        return;
    m_kind = kind;
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
    if (m_kind && source->data(source->index(sourceRow, EventLogModel::Time, sourceParent), kEventKindRole).toInt()
                      != static_cast<int>(*m_kind))
        return false;
    if (m_search.isEmpty())
        return true;
    for (const int column : {EventLogModel::Stream, EventLogModel::PacketType, EventLogModel::Parameter, EventLogModel::Text}) {
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
