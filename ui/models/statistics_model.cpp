#include "ui/models/statistics_model.hpp"

#include "core/stats/status_line.hpp"
#include "ui/text/number_format.hpp"
#include "ui/widgets/queue_bar.hpp"

#include <QBrush>
#include <QColor>
#include <QDateTime>
#include <QFont>

#include <algorithm>
#include <string_view>
#include <unordered_map>
#include <unordered_set>

namespace telestation::ui {

namespace {

const QColor kLossColor(0xc0, 0x39, 0x2b);
const QColor kNoticeColor(0xa0, 0x62, 0x00);

QVariant countValue(std::uint64_t value)
{
    return QVariant::fromValue<qulonglong>(value);
}

double fillFraction(const stats::QueueStats& q)
{
    return q.capacity > 0 ? static_cast<double>(std::min(q.depth, q.capacity)) / static_cast<double>(q.capacity) : 0.0;
}

QVariant fillData(const stats::QueueStats& q, int role)
{
    if (role == kQueueLevelRole)
        return QVariant::fromValue(QueueLevel{q.depth, q.capacity, q.warningThreshold, q.highWater});
    if (role == kStatisticsValueRole)
        return fillFraction(q);
    if (role == Qt::DisplayRole) // the delegate paints a bar instead; this is for copies and screen readers
        return QStringLiteral("%1%").arg(qRound(fillFraction(q) * 100));
    return {};
}

QString utcTime(std::int64_t ns)
{
    return QDateTime::fromMSecsSinceEpoch(ns / 1'000'000, Qt::UTC).toString(QStringLiteral("yyyy-MM-dd HH:mm:ss.zzz 'UTC'"));
}

// What is needed to bring a list of rows keyed `before` to `after` with row removals and inserts only.
struct SyncPlan {
    bool reorder = false;        // kept rows changed order (or keys repeat): reset instead
    std::vector<int> removals;   // rows of `before`, descending
    std::vector<int> insertions; // rows of `after`, ascending
};

SyncPlan planSync(const std::vector<std::string>& before, const std::vector<std::string>& after)
{
    SyncPlan plan;
    std::unordered_map<std::string_view, int> position;
    for (std::size_t i = 0; i < after.size(); ++i) {
        if (!position.emplace(after[i], static_cast<int>(i)).second) {
            plan.reorder = true;
            return plan;
        }
    }
    std::unordered_set<int> kept;
    int last = -1;
    for (std::size_t i = 0; i < before.size(); ++i) {
        const auto it = position.find(before[i]);
        if (it == position.end()) {
            plan.removals.push_back(static_cast<int>(i));
            continue;
        }
        if (it->second <= last) {
            plan.reorder = true;
            return plan;
        }
        last = it->second;
        kept.insert(it->second);
    }
    std::reverse(plan.removals.begin(), plan.removals.end());
    for (std::size_t i = 0; i < after.size(); ++i)
        if (!kept.contains(static_cast<int>(i)))
            plan.insertions.push_back(static_cast<int>(i));
    return plan;
}

template <typename Row> std::vector<std::string> keysOf(const std::vector<Row>& rows)
{
    std::vector<std::string> keys;
    keys.reserve(rows.size());
    for (const Row& row : rows)
        keys.push_back(row.key);
    return keys;
}

QVariant alignment(bool number)
{
    return number ? QVariant(Qt::AlignRight | Qt::AlignVCenter) : QVariant(Qt::AlignLeft | Qt::AlignVCenter);
}

std::string queueKey(const std::string& stream, int which)
{
    return stats::queueKey(stream, stats::kStreamQueues[static_cast<std::size_t>(which)]);
}

const stats::QueueStats& queueOf(const stats::StreamStats& s, int which)
{
    return s.*stats::kStreamQueues[static_cast<std::size_t>(which)].member;
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

namespace {

std::uint64_t counterOf(const stats::PacketCounters& c, int column)
{
    using C = StreamStatisticsModel::Column;
    switch (column) {
    case C::Received: return c.packetsReceived;
    case C::Processed: return c.packetsProcessed;
    case C::Recorded: return c.packetsRecorded;
    case C::Forwarded: return c.packetsForwarded;
    case C::Unknown: return c.unknown;
    case C::Discarded: return c.discarded;
    case C::Malformed: return c.malformed;
    case C::SequenceErrors: return c.sequenceErrors;
    case C::Lost: return c.packetsLost;
    case C::LargestGap: return c.largestGap;
    case C::Duplicates: return c.duplicates;
    default: return 0;
    }
}

double rateOf(const stats::Rates& r, int column)
{
    using C = StreamStatisticsModel::Column;
    switch (column) {
    case C::PacketsPerSecond: return r.packetsPerSecond;
    case C::MegabitsPerSecond: return r.megabitsPerSecond;
    case C::ParametersPerSecond: return r.parametersPerSecond;
    default: return 0;
    }
}

bool isRateColumn(int column)
{
    return column >= StreamStatisticsModel::PacketsPerSecond && column <= StreamStatisticsModel::ParametersPerSecond;
}

bool isCountColumn(int column)
{
    return column >= StreamStatisticsModel::Received && column <= StreamStatisticsModel::Errors;
}

// Shared by stream and packet type rows: the numbers of one row.
struct RowNumbers {
    const stats::PacketCounters* counters = nullptr;
    const stats::Rates* rates = nullptr;
    std::uint64_t drops = 0;
    std::uint64_t errors = 0;
    std::uint64_t gapBefore = 0;

    [[nodiscard]] std::uint64_t count(int column) const
    {
        if (column == StreamStatisticsModel::Drops)
            return drops;
        if (column == StreamStatisticsModel::Errors)
            return errors;
        return counterOf(*counters, column);
    }
    // After a reset, a gap no larger than the one before it cannot be told apart: say so.
    [[nodiscard]] bool gapBounded() const
    {
        return gapBefore > 0 && counters->largestGap == 0 && counters->sequenceErrors > 0;
    }
};

QVariant numberData(const RowNumbers& n, int column, int role)
{
    if (isRateColumn(column)) {
        const double rate = rateOf(*n.rates, column);
        if (role == kStatisticsValueRole)
            return rate;
        if (role == Qt::DisplayRole)
            return compactText(rate);
        return {};
    }
    const std::uint64_t value = n.count(column);
    if (role == kStatisticsValueRole)
        return countValue(value);
    if (role == Qt::DisplayRole) {
        if (column == StreamStatisticsModel::LargestGap && n.gapBounded())
            return QStringLiteral("≤ %1").arg(countText(n.gapBefore));
        return countText(value);
    }
    if (role == Qt::ForegroundRole && value > 0) {
        switch (column) {
        case StreamStatisticsModel::Malformed:
        case StreamStatisticsModel::Lost:
        case StreamStatisticsModel::Drops:
        case StreamStatisticsModel::Errors: return QBrush(kLossColor);
        case StreamStatisticsModel::SequenceErrors:
        case StreamStatisticsModel::Duplicates:
        case StreamStatisticsModel::LargestGap: return QBrush(kNoticeColor);
        default: break;
        }
    }
    return {};
}

QString countsToolTip(const RowNumbers& n, int column)
{
    const stats::PacketCounters& c = *n.counters;
    switch (column) {
    case StreamStatisticsModel::Received:
        return QObject::tr("%1 packets, %2 bytes received").arg(countText(c.packetsReceived), countText(c.bytesReceived));
    case StreamStatisticsModel::Processed:
        return QObject::tr("%1 packets processed, %2 parameters decoded").arg(countText(c.packetsProcessed), countText(c.parametersDecoded));
    case StreamStatisticsModel::Recorded:
        return QObject::tr("%1 packets, %2 bytes recorded").arg(countText(c.packetsRecorded), countText(c.bytesRecorded));
    case StreamStatisticsModel::Forwarded:
        return QObject::tr("%1 packets, %2 bytes forwarded").arg(countText(c.packetsForwarded), countText(c.bytesForwarded));
    case StreamStatisticsModel::LargestGap:
        if (n.gapBounded())
            return QObject::tr("Gaps since the reset were no larger than %1, the largest before the reset "
                               "(the engine keeps only its largest gap since start)")
                .arg(countText(n.gapBefore));
        break;
    default: break;
    }
    return {};
}

} // namespace

StreamStatisticsModel::StreamStatisticsModel(QObject* parent) : QAbstractItemModel(parent) {}

QString StreamStatisticsModel::columnHelp(int column)
{
    switch (column) {
    case Name: return tr("The stream, and under it each packet type (APID [/ secondary id]) received or configured on it");
    case State: return tr("Stream: what its receiver is doing. Packet type: its processing mode, recording and forwarding");
    case Received: return tr("Received: packets that arrived, those the network packet queue dropped included");
    case Processed: return tr("Processed: packets the processor handled — passed through, kept for on-demand decoding, or decoded");
    case Recorded: return tr("Recorded: packets written to the recording");
    case Forwarded: return tr("Forwarded: packets handed to every forward destination of their packet type");
    case Unknown: return tr("Unknown: packets with no definition in the mission database");
    case Discarded: return tr("Discarded: unknown packets the stream is set to discard (counted, not lost)");
    case Malformed: return tr("Malformed: packets with a bad primary header, or whose length field disagrees with the bytes received");
    case SequenceErrors: return tr("Sequence errors: CCSDS sequence count gaps, duplicates, late arrivals and resynchronisations");
    case Lost: return tr("Lost: packets missing from CCSDS sequence gaps, net of late arrivals");
    case LargestGap: return tr("Largest gap: the most packets missing in one sequence gap");
    case Duplicates: return tr("Duplicates: packets that repeated the previous sequence count");
    case Drops: return tr("Drops: packets dropped because a queue was full (network, process, record, forward); for a stream "
                          "also those the kernel dropped and those with no free packet pool slot");
    case Errors: return tr("Errors: packets not recorded because the recorder failed, or not sent to a forward destination; "
                           "for a stream also framing errors and truncated packets");
    case PacketsPerSecond: return tr("Packets received per second over the last refresh interval");
    case MegabitsPerSecond: return tr("Megabits received per second (packet bytes) over the last refresh interval");
    case ParametersPerSecond: return tr("Parameters decoded per second over the last refresh interval");
    default: return {};
    }
}

void StreamStatisticsModel::setSnapshot(const stats::StationSnapshot& snapshot, const stats::StatisticsBaseline* baseline)
{
    std::vector<std::string> keys;
    keys.reserve(snapshot.streams.size());
    for (const auto& s : snapshot.streams)
        keys.push_back(s.name);
    const SyncPlan plan = planSync(keysOf(m_streams), keys);

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
                row.types.push_back({stats::packetTypeKey(t), t, baseline ? baseline->largestGapBefore(s.name, &t) : 0});
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
    const SyncPlan plan = planSync(keysOf(stream.types), keys);
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
        return alignment(isCountColumn(column) || isRateColumn(column));

    if (index.internalId() == 0) {
        if (index.row() >= static_cast<int>(m_streams.size()))
            return {};
        const StreamRow& row = m_streams[static_cast<std::size_t>(index.row())];
        const stats::StreamStats& s = row.stats;
        if (column == Name || column == State) {
            const QString text = column == Name ? QString::fromStdString(s.name)
                                 : s.state.empty() ? (s.running ? tr("running") : tr("stopped"))
                                                   : QString::fromStdString(s.state);
            if (role == Qt::DisplayRole || role == kStatisticsValueRole) {
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
                         countText(s.poolDrops), countText(s.framingErrors), countText(s.skippedBytes), countText(s.truncatedPackets),
                         countText(s.connects), countText(s.disconnects));
            }
            if (role == Qt::FontRole && column == Name) {
                QFont font;
                font.setBold(true);
                return font;
            }
            return {};
        }
        const RowNumbers numbers{&s.counters, &s.rates, stats::dropCount(s), stats::errorCount(s), row.gapBefore};
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
        return numberData(numbers, column, role);
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
        if (role == kStatisticsValueRole)
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
    const RowNumbers numbers{&t.counters, &t.rates, stats::dropCount(t.counters), stats::errorCount(t.counters),
                             row.gapBefore};
    if (role == Qt::ToolTipRole) {
        QString tip = countsToolTip(numbers, column);
        if (column == Drops)
            tip = tr("Network queue %1, process queue %2, record queue %3, forward queue %4")
                      .arg(countText(t.counters.networkDrops), countText(t.counters.processDrops), countText(t.counters.recordDrops),
                           countText(t.counters.forwardDrops));
        return tip.isEmpty() ? columnHelp(column) : columnHelp(column) + QStringLiteral("\n") + tip;
    }
    return numberData(numbers, column, role);
}

QVariant StreamStatisticsModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal)
        return {};
    if (role == Qt::ToolTipRole)
        return columnHelp(section);
    if (role == Qt::TextAlignmentRole)
        return alignment(isCountColumn(section) || isRateColumn(section));
    if (role != Qt::DisplayRole)
        return {};
    switch (section) {
    case Name: return tr("Stream / packet type");
    case State: return tr("State / mode");
    case Received: return tr("Received");
    case Processed: return tr("Processed");
    case Recorded: return tr("Recorded");
    case Forwarded: return tr("Forwarded");
    case Unknown: return tr("Unknown");
    case Discarded: return tr("Discarded");
    case Malformed: return tr("Malformed");
    case SequenceErrors: return tr("Seq. errors");
    case Lost: return tr("Lost");
    case LargestGap: return tr("Largest gap");
    case Duplicates: return tr("Duplicates");
    case Drops: return tr("Drops");
    case Errors: return tr("Errors");
    case PacketsPerSecond: return tr("Packets/s");
    case MegabitsPerSecond: return tr("Mbit/s");
    case ParametersPerSecond: return tr("Parameters/s");
    default: return {};
    }
}

// ---- KeyedTableModel ----------------------------------------------------------------------------------

template <typename Row> void KeyedTableModel::syncRows(std::vector<Row>& rows, std::vector<Row> next)
{
    const SyncPlan plan = planSync(keysOf(rows), keysOf(next));
    if (plan.reorder) {
        beginResetModel();
        rows = std::move(next);
        endResetModel();
        return;
    }
    for (const int r : plan.removals) {
        beginRemoveRows({}, r, r);
        rows.erase(rows.begin() + r);
        endRemoveRows();
    }
    for (const int r : plan.insertions) {
        beginInsertRows({}, r, r);
        rows.insert(rows.begin() + r, next[static_cast<std::size_t>(r)]);
        endInsertRows();
    }
    int first = -1;
    int last = -1;
    for (std::size_t i = 0; i < rows.size(); ++i) {
        if (rows[i] == next[i])
            continue;
        rows[i] = std::move(next[i]);
        if (first < 0)
            first = static_cast<int>(i);
        last = static_cast<int>(i);
    }
    if (first >= 0)
        Q_EMIT dataChanged(index(first, 0), index(last, columnCount() - 1));
}

// ---- QueueStatisticsModel -----------------------------------------------------------------------------

QueueStatisticsModel::QueueStatisticsModel(QObject* parent) : KeyedTableModel(parent) {}

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
    switch (column) {
    case Stream: return tr("The stream the queue belongs to");
    case Queue: return tr("Network: from the receiver to the router. Process, record, forward: from the router to the "
                          "processor, the recorder and the forwarder");
    case Fill: return tr("The depth drawn against the capacity: green, amber from the warning threshold (the black "
                         "tick), red when full; the blue mark is the high water");
    case Depth: return tr("Packets waiting in the queue now");
    case Capacity: return tr("The most packets the queue holds; one more is dropped");
    case HighWater: return tr("The deepest the queue has been (since the reset: sampled once a second until the "
                              "engine's high water passes its value at the reset)");
    case WarningThreshold: return tr("The depth at which the queue counts a warning (none: no threshold)");
    case Warnings: return tr("Times the depth reached the warning threshold");
    case Drops: return tr("Packets dropped because the queue was full");
    default: return {};
    }
}

void QueueStatisticsModel::setSnapshot(const stats::StationSnapshot& snapshot)
{
    std::vector<Row> rows;
    rows.reserve(snapshot.streams.size() * kQueuesPerStream);
    for (const auto& s : snapshot.streams)
        for (int q = 0; q < kQueuesPerStream; ++q)
            rows.push_back({queueKey(s.name, q), s.name, static_cast<Kind>(q), queueOf(s, q)});
    syncRows(m_rows, std::move(rows));
}

int QueueStatisticsModel::rowOf(const QString& stream, Kind kind) const
{
    const std::string key = queueKey(stream.toStdString(), static_cast<int>(kind));
    for (std::size_t i = 0; i < m_rows.size(); ++i)
        if (m_rows[i].key == key)
            return static_cast<int>(i);
    return -1;
}

int QueueStatisticsModel::rowCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : static_cast<int>(m_rows.size());
}

int QueueStatisticsModel::columnCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant QueueStatisticsModel::data(const QModelIndex& index, int role) const
{
    if (!index.isValid() || index.row() >= rowCount())
        return {};
    const Row& row = m_rows[static_cast<std::size_t>(index.row())];
    const stats::QueueStats& q = row.queue;
    const int column = index.column();
    if (role == Qt::TextAlignmentRole)
        return alignment(column >= Fill);
    if (role == Qt::ToolTipRole) {
        if (column == Fill)
            return tr("%1 of %2 packets; high water %3; warning at %4")
                .arg(countText(q.depth), countText(q.capacity), countText(q.highWater),
                     q.warningThreshold > 0 ? countText(q.warningThreshold) : tr("none"));
        return columnHelp(column);
    }
    if (column == Fill)
        return fillData(q, role);
    if (role == Qt::ForegroundRole && column == Drops && q.drops > 0)
        return QBrush(kLossColor);
    if (role == Qt::ForegroundRole && column == Warnings && q.warnings > 0)
        return QBrush(kNoticeColor);
    if (role != Qt::DisplayRole && role != kStatisticsValueRole)
        return {};
    const bool display = role == Qt::DisplayRole;
    const auto number = [display](std::uint64_t v) { return display ? QVariant(countText(v)) : countValue(v); };
    switch (column) {
    case Stream: return QString::fromStdString(row.stream);
    case Queue: return kindName(row.kind);
    case Depth: return number(q.depth);
    case Capacity: return number(q.capacity);
    case HighWater: return number(q.highWater);
    case WarningThreshold:
        if (display && q.warningThreshold == 0)
            return tr("none");
        return number(q.warningThreshold);
    case Warnings: return number(q.warnings);
    case Drops: return number(q.drops);
    default: return {};
    }
}

QVariant QueueStatisticsModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal)
        return {};
    if (role == Qt::ToolTipRole)
        return columnHelp(section);
    if (role != Qt::DisplayRole)
        return {};
    switch (section) {
    case Stream: return tr("Stream");
    case Queue: return tr("Queue");
    case Fill: return tr("Fill");
    case Depth: return tr("Depth");
    case Capacity: return tr("Capacity");
    case HighWater: return tr("High water");
    case WarningThreshold: return tr("Warning at");
    case Warnings: return tr("Warnings");
    case Drops: return tr("Drops");
    default: return {};
    }
}

// ---- ForwardStatisticsModel ---------------------------------------------------------------------------

ForwardStatisticsModel::ForwardStatisticsModel(QObject* parent) : KeyedTableModel(parent) {}

QString ForwardStatisticsModel::columnHelp(int column)
{
    switch (column) {
    case Destination: return tr("Where packets are forwarded to, as configured (bytes exactly as received)");
    case State: return tr("The destination's connection state");
    case Packets: return tr("Packets sent to this destination");
    case Bytes: return tr("Bytes sent to this destination");
    case NotSent: return tr("Packets not sent to this destination: down, not keeping up, or a send error");
    case Connects: return tr("Times the destination connected");
    case Disconnects: return tr("Times the destination disconnected");
    default: return {};
    }
}

void ForwardStatisticsModel::setSnapshot(const stats::StationSnapshot& snapshot)
{
    std::vector<Row> rows;
    rows.reserve(snapshot.forwards.size());
    for (const auto& f : snapshot.forwards)
        rows.push_back({f.destination, f});
    syncRows(m_rows, std::move(rows));
}

int ForwardStatisticsModel::rowCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : static_cast<int>(m_rows.size());
}

int ForwardStatisticsModel::columnCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant ForwardStatisticsModel::data(const QModelIndex& index, int role) const
{
    if (!index.isValid() || index.row() >= rowCount())
        return {};
    const stats::ForwardStats& f = m_rows[static_cast<std::size_t>(index.row())].stats;
    const int column = index.column();
    if (role == Qt::TextAlignmentRole)
        return alignment(column >= Packets);
    if (role == Qt::ToolTipRole)
        return columnHelp(column);
    if (role == Qt::ForegroundRole) {
        if (column == NotSent && f.notSent > 0)
            return QBrush(kLossColor);
        if (column == State && !f.connected)
            return QBrush(kNoticeColor);
        return {};
    }
    if (role != Qt::DisplayRole && role != kStatisticsValueRole)
        return {};
    const bool display = role == Qt::DisplayRole;
    const auto number = [display](std::uint64_t v) { return display ? QVariant(countText(v)) : countValue(v); };
    switch (column) {
    case Destination: return QString::fromStdString(f.destination);
    case State:
        if (f.state.empty())
            return f.connected ? tr("connected") : tr("not connected");
        return QString::fromStdString(f.state);
    case Packets: return number(f.packets);
    case Bytes: return number(f.bytes);
    case NotSent: return number(f.notSent);
    case Connects: return number(f.connects);
    case Disconnects: return number(f.disconnects);
    default: return {};
    }
}

QVariant ForwardStatisticsModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal)
        return {};
    if (role == Qt::ToolTipRole)
        return columnHelp(section);
    if (role != Qt::DisplayRole)
        return {};
    switch (section) {
    case Destination: return tr("Destination");
    case State: return tr("State");
    case Packets: return tr("Packets");
    case Bytes: return tr("Bytes");
    case NotSent: return tr("Not sent");
    case Connects: return tr("Connects");
    case Disconnects: return tr("Disconnects");
    default: return {};
    }
}

// ---- ConsumerStatisticsModel --------------------------------------------------------------------------

ConsumerStatisticsModel::ConsumerStatisticsModel(QObject* parent) : KeyedTableModel(parent) {}

QString ConsumerStatisticsModel::columnHelp(int column)
{
    switch (column) {
    case Name: return tr("The consumer's name, as it subscribed through the API");
    case Kind: return tr("What it receives: whole packets or decoded parameters");
    case Delivery: return tr("Every sample: each one queued for the consumer. Newest: only the latest is kept");
    case Fill: return tr("The consumer's queue: its depth against its capacity, red when full (the blue mark is the high water)");
    case Depth: return tr("Items waiting for the consumer now");
    case Capacity: return tr("The most items the consumer's queue holds; more are dropped");
    case HighWater: return tr("The deepest the consumer's queue has been");
    case Drops: return tr("Items dropped because the consumer's queue was full (it did not keep up)");
    case Delivered: return tr("Items the consumer has taken");
    default: return {};
    }
}

void ConsumerStatisticsModel::setSnapshot(const stats::StationSnapshot& snapshot)
{
    const std::vector<std::string> keys = stats::consumerKeys(snapshot.consumers);
    std::vector<Row> rows;
    rows.reserve(keys.size());
    for (std::size_t i = 0; i < keys.size(); ++i)
        rows.push_back({keys[i], snapshot.consumers[i]});
    syncRows(m_rows, std::move(rows));
}

int ConsumerStatisticsModel::rowCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : static_cast<int>(m_rows.size());
}

int ConsumerStatisticsModel::columnCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant ConsumerStatisticsModel::data(const QModelIndex& index, int role) const
{
    if (!index.isValid() || index.row() >= rowCount())
        return {};
    const stats::ConsumerStats& c = m_rows[static_cast<std::size_t>(index.row())].stats;
    const int column = index.column();
    if (role == Qt::TextAlignmentRole)
        return alignment(column >= Fill);
    if (role == Qt::ToolTipRole)
        return columnHelp(column);
    if (column == Fill)
        return fillData(c.queue, role);
    if (role == Qt::ForegroundRole && column == Drops && c.queue.drops > 0)
        return QBrush(kLossColor);
    if (role != Qt::DisplayRole && role != kStatisticsValueRole)
        return {};
    const bool display = role == Qt::DisplayRole;
    const auto number = [display](std::uint64_t v) { return display ? QVariant(countText(v)) : countValue(v); };
    switch (column) {
    case Name: return QString::fromStdString(c.name);
    case Kind:
        if (!display)
            return QString::fromStdString(c.kind);
        return c.kind == "packets" ? tr("Packets") : c.kind == "parameters" ? tr("Parameters") : QString::fromStdString(c.kind);
    case Delivery:
        if (!display)
            return QString::fromStdString(c.delivery);
        return c.delivery == "everySample" ? tr("Every sample")
               : c.delivery == "newest"    ? tr("Newest")
                                           : QString::fromStdString(c.delivery);
    case Depth: return number(c.queue.depth);
    case Capacity: return number(c.queue.capacity);
    case HighWater: return number(c.queue.highWater);
    case Drops: return number(c.queue.drops);
    case Delivered: return number(c.delivered);
    default: return {};
    }
}

QVariant ConsumerStatisticsModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal)
        return {};
    if (role == Qt::ToolTipRole)
        return columnHelp(section);
    if (role != Qt::DisplayRole)
        return {};
    switch (section) {
    case Name: return tr("Consumer");
    case Kind: return tr("Receives");
    case Delivery: return tr("Delivery");
    case Fill: return tr("Queue");
    case Depth: return tr("Depth");
    case Capacity: return tr("Capacity");
    case HighWater: return tr("High water");
    case Drops: return tr("Drops");
    case Delivered: return tr("Delivered");
    default: return {};
    }
}

} // namespace telestation::ui
