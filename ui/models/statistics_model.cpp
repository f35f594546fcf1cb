#include "ui/models/statistics_model.hpp"

#include "core/stats/status_line.hpp"
#include "ui/text/number_format.hpp"
#include "ui/widgets/queue_bar.hpp"

#include <QDateTime>
#include <QFont>

#include <algorithm>
#include <cstddef>

namespace telestation::ui {

namespace {

QVariant countValue(std::uint64_t value)
{
    return QVariant::fromValue<qulonglong>(value);
}

QVariant levelValue(const stats::QueueStats& q)
{
    return QVariant::fromValue(QueueLevel{q.depth, q.capacity, q.warningThreshold, q.highWater});
}

QString utcTime(std::int64_t ns)
{
    return QDateTime::fromMSecsSinceEpoch(ns / 1'000'000, Qt::UTC).toString(QStringLiteral("yyyy-MM-dd HH:mm:ss.zzz 'UTC'"));
}

template <typename Model, typename Row, std::size_t N>
QString columnHelpOf(const std::array<TableColumn<Row>, N>& columns, int column)
{
    if (column < 0 || column >= static_cast<int>(N))
        return {};
    return Model::tr(columns[static_cast<std::size_t>(column)].help);
}

// headerData() of a model: the column's header text and, as its tool tip, its help.
template <typename Model, typename Row, std::size_t N>
QVariant headerDataOf(const std::array<TableColumn<Row>, N>& columns, int section, Qt::Orientation orientation,
                      int role)
{
    if (orientation != Qt::Horizontal)
        return {};
    if (role == Qt::ToolTipRole)
        return columnHelpOf<Model>(columns, section);
    if (role != Qt::DisplayRole || section < 0 || section >= static_cast<int>(N))
        return {};
    return Model::tr(columns[static_cast<std::size_t>(section)].header);
}

QString modeText(const std::string& mode)
{
    if (mode == "passThru")
        return QObject::tr("Pass thru");
    if (mode == "processOnDemand")
        return QObject::tr("Process on demand");
    if (mode == "processEntirePacket")
        return QObject::tr("Process entire packet");
    if (mode == "discard")
        return QObject::tr("Discard");
    return QString::fromStdString(mode);
}

QString typeLabel(const stats::PacketTypeStats& t)
{
    const QString name = QString::fromStdString(t.name);
    if (t.name == "unknown" && t.apid == 0 && !t.hasSecondaryId)
        return name;
    if (t.hasSecondaryId)
        return QObject::tr("%1 (APID %2 / %3)").arg(name).arg(t.apid).arg(t.secondaryId);
    return QObject::tr("%1 (APID %2)").arg(name).arg(t.apid);
}

QString typeSettingsText(const stats::PacketTypeStats& t)
{
    QString text = modeText(t.mode);
    if (t.record)
        text += QObject::tr(", record");
    if (t.forwardDestinations > 0)
        text += t.forwardDestinations == 1 ? QObject::tr(", forward to 1 destination")
                                           : QObject::tr(", forward to %1 destinations").arg(t.forwardDestinations);
    return text;
}

} // namespace

// ---- StreamStatisticsModel ----------------------------------------------------------------------------

// In Column order. Name and State are written by data() itself (streams and packet types differ).
const std::array<TableColumn<StreamStatisticsModel::Numbers>, StreamStatisticsModel::ColumnCount>
    StreamStatisticsModel::kColumns = {{
        {QT_TR_NOOP("Stream / packet type"),
         QT_TR_NOOP("The stream, and under it each packet type (APID [/ secondary id]) received or configured on it"),
         CellFormat::Text, nullptr},
        {QT_TR_NOOP("State / mode"),
         QT_TR_NOOP("Stream: what its receiver is doing. Packet type: its processing mode, recording and forwarding"),
         CellFormat::Text, nullptr},
        {QT_TR_NOOP("Packets/s"), QT_TR_NOOP("Packets received per second over the last refresh interval"),
         CellFormat::Rate, [](const Numbers& n) -> QVariant { return n.rates->packetsPerSecond; }},
        {QT_TR_NOOP("Mbit/s"), QT_TR_NOOP("Megabits received per second (packet bytes) over the last refresh interval"),
         CellFormat::Rate, [](const Numbers& n) -> QVariant { return n.rates->megabitsPerSecond; }},
        {QT_TR_NOOP("Parameters/s"), QT_TR_NOOP("Parameters decoded per second over the last refresh interval"),
         CellFormat::Rate, [](const Numbers& n) -> QVariant { return n.rates->parametersPerSecond; }},
        {QT_TR_NOOP("Received"),
         QT_TR_NOOP("Received: packets that arrived, those the network packet queue dropped included"),
         CellFormat::Count, [](const Numbers& n) { return countValue(n.counters->packetsReceived); }},
        {QT_TR_NOOP("Sequence\nerrors"),
         QT_TR_NOOP("Sequence errors: CCSDS sequence count gaps, duplicates, late arrivals and resynchronisations"),
         CellFormat::Count, [](const Numbers& n) { return countValue(n.counters->sequenceErrors); }, nullptr,
         CellTone::Notice},
        {QT_TR_NOOP("Lost"), QT_TR_NOOP("Lost: packets missing from CCSDS sequence gaps, net of late arrivals"),
         CellFormat::Count, [](const Numbers& n) { return countValue(n.counters->packetsLost); }, nullptr,
         CellTone::Loss},
        {QT_TR_NOOP("Largest\ngap"), QT_TR_NOOP("Largest gap: the most packets missing in one sequence gap"),
         CellFormat::Count, [](const Numbers& n) { return countValue(n.counters->largestGap); },
         [](const Numbers& n) {
             return n.gapBounded() ? QStringLiteral("≤ %1").arg(countText(n.gapBefore))
                                   : countText(n.counters->largestGap);
         },
         CellTone::Notice},
        {QT_TR_NOOP("Duplicates"), QT_TR_NOOP("Duplicates: packets that repeated the previous sequence count"),
         CellFormat::Count, [](const Numbers& n) { return countValue(n.counters->duplicates); }, nullptr,
         CellTone::Notice},
        {QT_TR_NOOP("Drops"),
         QT_TR_NOOP("Drops: packets dropped because a queue was full (network, process, record, forward); for a "
                    "stream also those the kernel dropped and those with no free packet pool slot"),
         CellFormat::Count, [](const Numbers& n) { return countValue(n.drops); }, nullptr, CellTone::Loss},
        {QT_TR_NOOP("Errors"),
         QT_TR_NOOP("Errors: packets not recorded because the recorder failed, or not sent to a forward destination; "
                    "for a stream also framing errors and truncated packets"),
         CellFormat::Count, [](const Numbers& n) { return countValue(n.errors); }, nullptr, CellTone::Loss},
        {QT_TR_NOOP("Malformed"),
         QT_TR_NOOP("Malformed: packets with a bad primary header, or whose length field disagrees with the bytes "
                    "received"),
         CellFormat::Count, [](const Numbers& n) { return countValue(n.counters->malformed); }, nullptr,
         CellTone::Loss},
        {QT_TR_NOOP("Processed"),
         QT_TR_NOOP("Processed: packets the processor handled — passed through, kept for on-demand decoding, or "
                    "decoded"),
         CellFormat::Count, [](const Numbers& n) { return countValue(n.counters->packetsProcessed); }},
        {QT_TR_NOOP("Recorded"), QT_TR_NOOP("Recorded: packets written to the recording"), CellFormat::Count,
         [](const Numbers& n) { return countValue(n.counters->packetsRecorded); }},
        {QT_TR_NOOP("Forwarded"),
         QT_TR_NOOP("Forwarded: packets handed to every forward destination of their packet type"), CellFormat::Count,
         [](const Numbers& n) { return countValue(n.counters->packetsForwarded); }},
        {QT_TR_NOOP("Unknown"), QT_TR_NOOP("Unknown: packets with no definition in the mission database"),
         CellFormat::Count, [](const Numbers& n) { return countValue(n.counters->unknown); }},
        {QT_TR_NOOP("Discarded"),
         QT_TR_NOOP("Discarded: unknown packets the stream is set to discard (counted, not lost)"), CellFormat::Count,
         [](const Numbers& n) { return countValue(n.counters->discarded); }},
    }};

QString StreamStatisticsModel::countsToolTip(const Numbers& n, int column)
{
    const stats::PacketCounters& c = *n.counters;
    switch (column) {
    case Received:
        return QObject::tr("%1 packets, %2 bytes received")
            .arg(countText(c.packetsReceived), countText(c.bytesReceived));
    case Processed:
        return QObject::tr("%1 packets processed, %2 parameters decoded")
            .arg(countText(c.packetsProcessed), countText(c.parametersDecoded));
    case Recorded:
        return QObject::tr("%1 packets, %2 bytes recorded")
            .arg(countText(c.packetsRecorded), countText(c.bytesRecorded));
    case Forwarded:
        return QObject::tr("%1 packets, %2 bytes forwarded")
            .arg(countText(c.packetsForwarded), countText(c.bytesForwarded));
    case LargestGap:
        if (n.gapBounded())
            return QObject::tr("Gaps since the reset were no larger than %1, the largest before the reset "
                               "(the engine keeps only its largest gap since start)")
                .arg(countText(n.gapBefore));
        break;
    default: break;
    }
    return {};
}

StreamStatisticsModel::StreamStatisticsModel(QObject* parent) : QAbstractItemModel(parent) {}

QString StreamStatisticsModel::columnHelp(int column)
{
    return columnHelpOf<StreamStatisticsModel>(kColumns, column);
}

void StreamStatisticsModel::setSnapshot(const stats::StationSnapshot& snapshot,
                                        const stats::StatisticsBaseline* baseline)
{
    std::vector<std::string> keys;
    keys.reserve(snapshot.streams.size());
    for (const auto& s : snapshot.streams)
        keys.push_back(s.name);
    const detail::SyncPlan plan = detail::planSync(detail::keysOf(m_streams), keys);

    if (plan.reorder) {
        beginResetModel();
        m_streams.clear();
        for (const auto& s : snapshot.streams) {
            StreamRow row;
            row.key = s.name;
            row.id = m_nextId++;
            row.stats = s;
            row.stats.packetTypes.clear();
            row.gapBefore = baseline ? baseline->largestGapBefore(s.name) : 0;
            for (const auto& t : s.packetTypes)
                row.types.push_back(
                    {stats::packetTypeKey(t), t, baseline ? baseline->largestGapBefore(s.name, &t) : 0});
            m_streams.push_back(std::move(row));
        }
        endResetModel();
        return;
    }

    for (const int r : plan.removals) {
        beginRemoveRows({}, r, r);
        m_streams.erase(m_streams.begin() + r);
        endRemoveRows();
    }
    for (const int r : plan.insertions) {
        beginInsertRows({}, r, r);
        StreamRow row;
        row.key = keys[static_cast<std::size_t>(r)];
        row.id = m_nextId++;
        m_streams.insert(m_streams.begin() + r, std::move(row));
        endInsertRows();
    }

    for (std::size_t i = 0; i < m_streams.size(); ++i) {
        StreamRow& row = m_streams[i];
        stats::StreamStats s = snapshot.streams[i];
        std::vector<stats::PacketTypeStats> types = std::move(s.packetTypes);
        s.packetTypes.clear();
        const std::uint64_t gapBefore = baseline ? baseline->largestGapBefore(s.name) : 0;
        const bool changed = !(row.stats == s) || row.gapBefore != gapBefore;
        row.stats = std::move(s);
        row.gapBefore = gapBefore;
        if (changed) {
            const int r = static_cast<int>(i);
            Q_EMIT dataChanged(index(r, 0), index(r, ColumnCount - 1));
        }
        syncTypes(static_cast<int>(i), types, baseline);
    }
}

void StreamStatisticsModel::syncTypes(int streamRow, std::vector<stats::PacketTypeStats>& types,
                                      const stats::StatisticsBaseline* baseline)
{
    StreamRow& stream = m_streams[static_cast<std::size_t>(streamRow)];
    const QModelIndex parentIndex = index(streamRow, 0);
    std::vector<std::string> keys;
    keys.reserve(types.size());
    for (const auto& t : types)
        keys.push_back(stats::packetTypeKey(t));
    const detail::SyncPlan plan = detail::planSync(detail::keysOf(stream.types), keys);
    if (plan.reorder) {
        // Packet types keep the station's table order, so this is not expected; rebuild the children.
        if (!stream.types.empty()) {
            beginRemoveRows(parentIndex, 0, static_cast<int>(stream.types.size()) - 1);
            stream.types.clear();
            endRemoveRows();
        }
        if (!types.empty()) {
            beginInsertRows(parentIndex, 0, static_cast<int>(types.size()) - 1);
            for (std::size_t i = 0; i < types.size(); ++i)
                stream.types.push_back({keys[i], types[i], baseline ? baseline->largestGapBefore(stream.key, &types[i]) : 0});
            endInsertRows();
        }
        return;
    }
    for (const int r : plan.removals) {
        beginRemoveRows(parentIndex, r, r);
        stream.types.erase(stream.types.begin() + r);
        endRemoveRows();
    }
    for (const int r : plan.insertions) {
        beginInsertRows(parentIndex, r, r);
        stream.types.insert(stream.types.begin() + r, TypeRow{keys[static_cast<std::size_t>(r)], {}, 0});
        endInsertRows();
    }
    int first = -1;
    int last = -1;
    for (std::size_t i = 0; i < stream.types.size(); ++i) {
        TypeRow& row = stream.types[i];
        const std::uint64_t gapBefore = baseline ? baseline->largestGapBefore(stream.key, &types[i]) : 0;
        if (row.stats == types[i] && row.gapBefore == gapBefore)
            continue;
        row.stats = std::move(types[i]);
        row.gapBefore = gapBefore;
        if (first < 0)
            first = static_cast<int>(i);
        last = static_cast<int>(i);
    }
    if (first >= 0)
        Q_EMIT dataChanged(index(first, 0, parentIndex), index(last, ColumnCount - 1, parentIndex));
}

QModelIndex StreamStatisticsModel::streamIndex(const QString& stream, int column) const
{
    const std::string name = stream.toStdString();
    for (std::size_t i = 0; i < m_streams.size(); ++i)
        if (m_streams[i].key == name)
            return index(static_cast<int>(i), column);
    return {};
}

QModelIndex StreamStatisticsModel::typeIndex(const QString& stream, const QString& type, int column) const
{
    const QModelIndex parentIndex = streamIndex(stream);
    if (!parentIndex.isValid())
        return {};
    const std::string name = type.toStdString();
    const auto& types = m_streams[static_cast<std::size_t>(parentIndex.row())].types;
    for (std::size_t i = 0; i < types.size(); ++i)
        if (types[i].stats.name == name)
            return index(static_cast<int>(i), column, parentIndex);
    return {};
}

int StreamStatisticsModel::streamRowOf(quintptr id) const
{
    for (std::size_t i = 0; i < m_streams.size(); ++i)
        if (m_streams[i].id == id)
            return static_cast<int>(i);
    return -1;
}

QModelIndex StreamStatisticsModel::index(int row, int column, const QModelIndex& parent) const
{
    if (row < 0 || column < 0 || column >= ColumnCount)
        return {};
    if (!parent.isValid())
        return row < static_cast<int>(m_streams.size()) ? createIndex(row, column, quintptr{0}) : QModelIndex();
    if (parent.internalId() != 0 || parent.row() >= static_cast<int>(m_streams.size()))
        return {}; // packet types have no children
    const StreamRow& stream = m_streams[static_cast<std::size_t>(parent.row())];
    return row < static_cast<int>(stream.types.size()) ? createIndex(row, column, stream.id) : QModelIndex();
}

QModelIndex StreamStatisticsModel::parent(const QModelIndex& child) const
{
    if (!child.isValid() || child.internalId() == 0)
        return {};
    const int row = streamRowOf(child.internalId());
    return row < 0 ? QModelIndex() : createIndex(row, 0, quintptr{0});
}

int StreamStatisticsModel::rowCount(const QModelIndex& parent) const
{
    if (!parent.isValid())
        return static_cast<int>(m_streams.size());
    if (parent.internalId() != 0 || parent.column() != 0 || parent.row() >= static_cast<int>(m_streams.size()))
        return 0;
    return static_cast<int>(m_streams[static_cast<std::size_t>(parent.row())].types.size());
}

int StreamStatisticsModel::columnCount(const QModelIndex&) const
{
    return ColumnCount;
}

QVariant StreamStatisticsModel::data(const QModelIndex& index, int role) const
{
    if (!index.isValid())
        return {};
    const int column = index.column();
    if (role == Qt::TextAlignmentRole)
        return detail::cellAlignment(kColumns[static_cast<std::size_t>(column)].format != CellFormat::Text);

    if (index.internalId() == 0) {
        if (index.row() >= static_cast<int>(m_streams.size()))
            return {};
        const StreamRow& row = m_streams[static_cast<std::size_t>(index.row())];
        const stats::StreamStats& s = row.stats;
        if (column == Name || column == State) {
            const QString text = column == Name ? QString::fromStdString(s.name)
                                 : s.state.empty() ? (s.running ? tr("running") : tr("stopped"))
                                                   : QString::fromStdString(s.state);
            if (role == Qt::DisplayRole || role == kCellValueRole) {
                if (column == State && role == Qt::DisplayRole && s.progress >= 0)
                    return tr("%1 (%2%)").arg(text).arg(qRound(s.progress * 100));
                return text;
            }
            if (role == Qt::ToolTipRole) {
                if (column == State)
                    return text;
                return tr("%1\nSource: %2\nKernel drops %3, packet pool drops %4, framing errors %5, skipped bytes %6, "
                          "truncated packets %7, connects %8, disconnects %9")
                    .arg(QString::fromStdString(s.name), QString::fromStdString(s.source), countText(s.kernelDrops),
                         countText(s.poolDrops), countText(s.framingErrors), countText(s.skippedBytes),
                         countText(s.truncatedPackets), countText(s.connects), countText(s.disconnects));
            }
            if (role == Qt::FontRole && column == Name) {
                QFont font;
                font.setBold(true);
                return font;
            }
            return {};
        }
        const Numbers numbers{&s.counters, &s.rates, stats::dropCount(s), stats::errorCount(s), row.gapBefore};
        if (role == Qt::ToolTipRole) {
            QString tip = countsToolTip(numbers, column);
            if (column == Drops)
                tip = tr("Kernel %1, packet pool %2, network queue %3, process queue %4, record queue %5, forward queue %6")
                          .arg(countText(s.kernelDrops), countText(s.poolDrops), countText(s.networkQueue.drops),
                               countText(std::max(s.processQueue.drops, s.counters.processDrops)),
                               countText(std::max(s.recordQueue.drops, s.counters.recordDrops)),
                               countText(std::max(s.forwardQueue.drops, s.counters.forwardDrops)));
            return tip.isEmpty() ? columnHelp(column) : columnHelp(column) + QStringLiteral("\n") + tip;
        }
        return cellData(kColumns[static_cast<std::size_t>(column)], numbers, role);
    }

    const int streamRow = streamRowOf(index.internalId());
    if (streamRow < 0)
        return {};
    const StreamRow& stream = m_streams[static_cast<std::size_t>(streamRow)];
    if (index.row() >= static_cast<int>(stream.types.size()))
        return {};
    const TypeRow& row = stream.types[static_cast<std::size_t>(index.row())];
    const stats::PacketTypeStats& t = row.stats;
    if (column == Name || column == State) {
        if (role == kCellValueRole)
            return column == Name ? QString::fromStdString(t.name) : QString::fromStdString(t.mode);
        if (role == Qt::DisplayRole)
            return column == Name ? typeLabel(t) : typeSettingsText(t);
        if (role == Qt::ToolTipRole) {
            if (column == State)
                return typeSettingsText(t);
            QString tip = typeLabel(t);
            tip += t.lastReceiveTimeNs > 0 ? tr("\nLast packet received %1").arg(utcTime(t.lastReceiveTimeNs))
                                           : tr("\nNo packet received yet");
            return tip;
        }
        return {};
    }
    const Numbers numbers{&t.counters, &t.rates, stats::dropCount(t.counters), stats::errorCount(t.counters),
                          row.gapBefore};
    if (role == Qt::ToolTipRole) {
        QString tip = countsToolTip(numbers, column);
        if (column == Drops)
            tip = tr("Network queue %1, process queue %2, record queue %3, forward queue %4")
                      .arg(countText(t.counters.networkDrops), countText(t.counters.processDrops),
                           countText(t.counters.recordDrops), countText(t.counters.forwardDrops));
        return tip.isEmpty() ? columnHelp(column) : columnHelp(column) + QStringLiteral("\n") + tip;
    }
    return cellData(kColumns[static_cast<std::size_t>(column)], numbers, role);
}

QVariant StreamStatisticsModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation == Qt::Horizontal && role == Qt::TextAlignmentRole) {
        const bool number = section >= 0 && section < ColumnCount
                            && kColumns[static_cast<std::size_t>(section)].format != CellFormat::Text;
        return detail::cellAlignment(number);
    }
    return headerDataOf<StreamStatisticsModel>(kColumns, section, orientation, role);
}

// ---- QueueStatisticsModel -----------------------------------------------------------------------------

// In Column order.
const std::array<TableColumn<QueueStatisticsModel::Row>, QueueStatisticsModel::ColumnCount>
    QueueStatisticsModel::kColumns = {{
        {QT_TR_NOOP("Stream"), QT_TR_NOOP("The stream the queue belongs to"), CellFormat::Text,
         [](const Row& r) -> QVariant { return QString::fromStdString(r.stream); }},
        {QT_TR_NOOP("Queue"),
         QT_TR_NOOP("Network: from the receiver to the router. Process, record, forward: from the router to the "
                    "processor, the recorder and the forwarder"),
         CellFormat::Text, [](const Row& r) -> QVariant { return kindName(r.kind); }},
        {QT_TR_NOOP("Fill"),
         QT_TR_NOOP("The depth drawn against the capacity: green, amber from the warning threshold (the black "
                    "tick), red when full; the blue mark is the high water"),
         CellFormat::Fill, [](const Row& r) { return levelValue(r.queue); }},
        {QT_TR_NOOP("Depth"), QT_TR_NOOP("Packets waiting in the queue now"), CellFormat::Count,
         [](const Row& r) { return countValue(r.queue.depth); }},
        {QT_TR_NOOP("Capacity"), QT_TR_NOOP("The most packets the queue holds; one more is dropped"), CellFormat::Count,
         [](const Row& r) { return countValue(r.queue.capacity); }},
        {QT_TR_NOOP("High water"),
         QT_TR_NOOP("The deepest the queue has been (since the reset: sampled once a second until the "
                    "engine's high water passes its value at the reset)"),
         CellFormat::Count, [](const Row& r) { return countValue(r.queue.highWater); }},
        {QT_TR_NOOP("Warning at"), QT_TR_NOOP("The depth at which the queue counts a warning (none: no threshold)"),
         CellFormat::Count, [](const Row& r) { return countValue(r.queue.warningThreshold); },
         [](const Row& r) { return r.queue.warningThreshold == 0 ? tr("none") : countText(r.queue.warningThreshold); }},
        {QT_TR_NOOP("Warnings"), QT_TR_NOOP("Times the depth reached the warning threshold"), CellFormat::Count,
         [](const Row& r) { return countValue(r.queue.warnings); }, nullptr, CellTone::Notice},
        {QT_TR_NOOP("Drops"), QT_TR_NOOP("Packets dropped because the queue was full"), CellFormat::Count,
         [](const Row& r) { return countValue(r.queue.drops); }, nullptr, CellTone::Loss},
    }};

QueueStatisticsModel::QueueStatisticsModel(QObject* parent)
    : ColumnTableModel(staticMetaObject, kColumns, parent)
{
}

QString QueueStatisticsModel::kindName(Kind kind)
{
    switch (kind) {
    case Kind::Network: return tr("Network packet queue");
    case Kind::Process: return tr("Process packet queue");
    case Kind::Record: return tr("Record packet queue");
    case Kind::Forward: return tr("Forward packet queue");
    }
    return {};
}

QString QueueStatisticsModel::columnHelp(int column)
{
    return columnHelpOf<QueueStatisticsModel>(kColumns, column);
}

void QueueStatisticsModel::setSnapshot(const stats::StationSnapshot& snapshot)
{
    std::vector<Row> rows;
    rows.reserve(snapshot.streams.size() * kQueuesPerStream);
    for (const auto& s : snapshot.streams) {
        for (std::size_t q = 0; q < stats::kStreamQueues.size(); ++q) {
            const stats::StreamQueueField& queue = stats::kStreamQueues[q];
            rows.push_back({stats::queueKey(s.name, queue), s.name, static_cast<Kind>(q), s.*queue.member});
        }
    }
    setRows(std::move(rows));
}

int QueueStatisticsModel::rowOf(const QString& stream, Kind kind) const
{
    const std::string key
        = stats::queueKey(stream.toStdString(), stats::kStreamQueues[static_cast<std::size_t>(kind)]);
    for (std::size_t i = 0; i < m_rows.size(); ++i)
        if (m_rows[i].key == key)
            return static_cast<int>(i);
    return -1;
}

QString QueueStatisticsModel::cellToolTip(const Row& row, int column) const
{
    const stats::QueueStats& q = row.queue;
    if (column == Fill)
        return tr("%1 of %2 packets; high water %3; warning at %4")
            .arg(countText(q.depth), countText(q.capacity), countText(q.highWater),
                 q.warningThreshold > 0 ? countText(q.warningThreshold) : tr("none"));
    return columnHelp(column);
}


// ---- ForwardStatisticsModel ---------------------------------------------------------------------------

// In Column order.
const std::array<TableColumn<ForwardStatisticsModel::Row>, ForwardStatisticsModel::ColumnCount>
    ForwardStatisticsModel::kColumns = {{
        {QT_TR_NOOP("Destination"),
         QT_TR_NOOP("Where packets are forwarded to, as configured (bytes exactly as received)"), CellFormat::Text,
         [](const Row& r) -> QVariant { return QString::fromStdString(r.stats.destination); }},
        {QT_TR_NOOP("State"), QT_TR_NOOP("The destination's connection state"), CellFormat::Text,
         [](const Row& r) -> QVariant {
             if (r.stats.state.empty())
                 return r.stats.connected ? tr("connected") : tr("not connected");
             return QString::fromStdString(r.stats.state);
         },
         nullptr, CellTone::Notice, [](const Row& r) { return !r.stats.connected; }},
        {QT_TR_NOOP("Packets"), QT_TR_NOOP("Packets sent to this destination"), CellFormat::Count,
         [](const Row& r) { return countValue(r.stats.packets); }},
        {QT_TR_NOOP("Bytes"), QT_TR_NOOP("Bytes sent to this destination"), CellFormat::Count,
         [](const Row& r) { return countValue(r.stats.bytes); }},
        {QT_TR_NOOP("Not sent"),
         QT_TR_NOOP("Packets not sent to this destination: down, not keeping up, or a send error"), CellFormat::Count,
         [](const Row& r) { return countValue(r.stats.notSent); }, nullptr, CellTone::Loss},
        {QT_TR_NOOP("Connects"), QT_TR_NOOP("Times the destination connected"), CellFormat::Count,
         [](const Row& r) { return countValue(r.stats.connects); }},
        {QT_TR_NOOP("Disconnects"), QT_TR_NOOP("Times the destination disconnected"), CellFormat::Count,
         [](const Row& r) { return countValue(r.stats.disconnects); }},
    }};

ForwardStatisticsModel::ForwardStatisticsModel(QObject* parent)
    : ColumnTableModel(staticMetaObject, kColumns, parent)
{
}

QString ForwardStatisticsModel::columnHelp(int column)
{
    return columnHelpOf<ForwardStatisticsModel>(kColumns, column);
}

void ForwardStatisticsModel::setSnapshot(const stats::StationSnapshot& snapshot)
{
    std::vector<Row> rows;
    rows.reserve(snapshot.forwards.size());
    for (const auto& f : snapshot.forwards)
        rows.push_back({f.destination, f});
    setRows(std::move(rows));
}

// ---- ConsumerStatisticsModel --------------------------------------------------------------------------

// In Column order.
const std::array<TableColumn<ConsumerStatisticsModel::Row>, ConsumerStatisticsModel::ColumnCount>
    ConsumerStatisticsModel::kColumns = {{
        {QT_TR_NOOP("Consumer"), QT_TR_NOOP("The consumer's name, as it subscribed through the API"), CellFormat::Text,
         [](const Row& r) -> QVariant { return QString::fromStdString(r.stats.name); }},
        {QT_TR_NOOP("Receives"), QT_TR_NOOP("What it receives: whole packets or decoded parameters"), CellFormat::Text,
         [](const Row& r) -> QVariant { return QString::fromStdString(r.stats.kind); },
         [](const Row& r) {
             const std::string& kind = r.stats.kind;
             return kind == "packets"      ? tr("Packets")
                    : kind == "parameters" ? tr("Parameters")
                                           : QString::fromStdString(kind);
         }},
        {QT_TR_NOOP("Delivery"),
         QT_TR_NOOP("Every sample: each one queued for the consumer. Newest: only the latest is kept"),
         CellFormat::Text, [](const Row& r) -> QVariant { return QString::fromStdString(r.stats.delivery); },
         [](const Row& r) {
             const std::string& delivery = r.stats.delivery;
             return delivery == "everySample" ? tr("Every sample")
                    : delivery == "newest"    ? tr("Newest")
                                              : QString::fromStdString(delivery);
         }},
        {QT_TR_NOOP("Queue"),
         QT_TR_NOOP("The consumer's queue: its depth against its capacity, red when full (the blue mark is the high "
                    "water)"),
         CellFormat::Fill, [](const Row& r) { return levelValue(r.stats.queue); }},
        {QT_TR_NOOP("Depth"), QT_TR_NOOP("Items waiting for the consumer now"), CellFormat::Count,
         [](const Row& r) { return countValue(r.stats.queue.depth); }},
        {QT_TR_NOOP("Capacity"), QT_TR_NOOP("The most items the consumer's queue holds; more are dropped"),
         CellFormat::Count, [](const Row& r) { return countValue(r.stats.queue.capacity); }},
        {QT_TR_NOOP("High water"), QT_TR_NOOP("The deepest the consumer's queue has been"), CellFormat::Count,
         [](const Row& r) { return countValue(r.stats.queue.highWater); }},
        {QT_TR_NOOP("Drops"), QT_TR_NOOP("Items dropped because the consumer's queue was full (it did not keep up)"),
         CellFormat::Count, [](const Row& r) { return countValue(r.stats.queue.drops); }, nullptr, CellTone::Loss},
        {QT_TR_NOOP("Delivered"), QT_TR_NOOP("Items the consumer has taken"), CellFormat::Count,
         [](const Row& r) { return countValue(r.stats.delivered); }},
    }};

ConsumerStatisticsModel::ConsumerStatisticsModel(QObject* parent)
    : ColumnTableModel(staticMetaObject, kColumns, parent)
{
}

QString ConsumerStatisticsModel::columnHelp(int column)
{
    return columnHelpOf<ConsumerStatisticsModel>(kColumns, column);
}

void ConsumerStatisticsModel::setSnapshot(const stats::StationSnapshot& snapshot)
{
    const std::vector<std::string> keys = stats::consumerKeys(snapshot.consumers);
    std::vector<Row> rows;
    rows.reserve(keys.size());
    for (std::size_t i = 0; i < keys.size(); ++i)
        rows.push_back({keys[i], snapshot.consumers[i]});
    setRows(std::move(rows));
}

} // namespace telestation::ui
