#include "ui/models/streams_model.hpp"

#include "core/stats/status_line.hpp"
#include "ui/text/number_format.hpp"
#include "ui/session/station_session.hpp"

#include <QBrush>
#include <QColor>
#include <QFont>
#include <QLocale>

#include <algorithm>

namespace telestation::ui {

namespace {

const QColor kErrorColour(0xc0, 0x39, 0x2b);
const QColor kIdleColour(0x80, 0x80, 0x80);

QString megabits(double value)
{
    if (value >= 1000)
        return compactText(value);
    return QLocale().toString(value, 'f', value < 10 ? 2 : 1);
}

bool isError(const QString& state)
{
    return state.startsWith(QStringLiteral("error"));
}

} // namespace

StreamsModel::StreamsModel(const StationSession& session, QObject* parent)
    : QAbstractTableModel(parent), m_session(session)
{
}

void StreamsModel::setStation(const pipeline::Station* station)
{
    // One reset with the new rows (not an empty one first): views keep their selection by name.
    beginResetModel();
    m_station = station;
    m_snapshot = m_session.snapshots().latest();
    m_rows = readRows();
    endResetModel();
}

std::vector<StreamsModel::Row> StreamsModel::readRows() const
{
    std::vector<Row> rows;
    if (!m_station)
        return rows;
    const config::StationProfile& profile = m_session.profile();
    rows.reserve(profile.streams.size());
    for (const config::StreamProfile& stream : profile.streams) {
        Row row;
        row.profile = stream;
        if (m_snapshot) {
            const auto& streams = m_snapshot->streams;
            const auto found = std::find_if(streams.begin(), streams.end(),
                                            [&](const stats::StreamStats& s) { return s.name == stream.name; });
            if (found != streams.end()) {
                row.stats = *found;
                row.stats.packetTypes.clear(); // not shown here; keeps the copies small
            }
        }
        rows.push_back(std::move(row));
    }
    return rows;
}

void StreamsModel::setSnapshot(const SharedSnapshot& snapshot)
{
    if (!m_station)
        return;
    ++m_refreshes;
    m_snapshot = snapshot;
    std::vector<Row> rows = readRows();
    const bool sameStreams = rows.size() == m_rows.size()
                             && std::equal(rows.begin(), rows.end(), m_rows.begin(), [](const Row& a, const Row& b) {
                                    return a.profile.name == b.profile.name;
                                });
    if (!sameStreams) {
        beginResetModel();
        m_rows = std::move(rows);
        endResetModel();
        return;
    }
    for (std::size_t i = 0; i < rows.size(); ++i) {
        if (rows[i].profile == m_rows[i].profile && rows[i].stats == m_rows[i].stats)
            continue;
        m_rows[i] = std::move(rows[i]);
        const int r = static_cast<int>(i);
        Q_EMIT dataChanged(index(r, 0), index(r, ColumnCount - 1));
    }
}

int StreamsModel::rowCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : static_cast<int>(m_rows.size());
}

int StreamsModel::columnCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

std::uint64_t StreamsModel::lossOf(const stats::StreamStats& stream) noexcept
{
    // dropCount takes every queue's drops once, the packet pool's and the kernel's.
    return stream.counters.packetsLost + stats::dropCount(stream);
}

QString StreamsModel::stateText(const config::StreamProfile& profile, const stats::StreamStats& stream)
{
    // A stream whose recording stopped says so first: it goes on receiving, but what it should record is lost.
    const QString recording = recordingFailed(stream) ? tr("recording stopped; ") : QString();
    if (!stream.state.empty())
        return recording + QString::fromStdString(stream.state);
    if (stream.running)
        return recording + tr("running");
    return recording + (profile.enabled ? tr("stopped") : tr("disabled"));
}

bool StreamsModel::recordingFailed(const stats::StreamStats& stream)
{
    return stream.recording.starts_with("failed");
}

QString StreamsModel::lossTooltip(const stats::StreamStats& s)
{
    const auto line = [](const QString& what, std::uint64_t value) {
        return QStringLiteral("%1: %2").arg(what, countText(value));
    };
    const std::uint64_t process = std::max(s.counters.processDrops, s.processQueue.drops);
    const std::uint64_t record = std::max(s.counters.recordDrops, s.recordQueue.drops);
    const std::uint64_t forward = std::max(s.counters.forwardDrops, s.forwardQueue.drops);
    const QStringList lines{
        line(tr("Lost in sequence gaps"), s.counters.packetsLost),
        line(tr("Dropped by the kernel (socket buffer full)"), s.kernelDrops),
        line(tr("Dropped: no free packet pool slot"), s.poolDrops),
        line(tr("Dropped: network packet queue full"), s.networkQueue.drops),
        line(tr("Dropped: process packet queue full"), process),
        line(tr("Dropped: record packet queue full"), record),
        line(tr("Dropped: forward packet queue full"), forward),
    };
    return lines.join(QLatin1Char('\n'));
}

QVariant StreamsModel::display(const Row& row, int column) const
{
    const stats::StreamStats& s = row.stats;
    switch (column) {
    case Name:
        return QString::fromStdString(row.profile.name);
    case Source:
        return QString::fromStdString(row.profile.source);
    case State:
        return stateText(row.profile, s);
    case PacketRate:
        return compactText(s.rates.packetsPerSecond);
    case DataRate:
        return megabits(s.rates.megabitsPerSecond);
    case Loss:
        return countText(lossOf(s));
    case Progress:
        if (s.progress < 0)
            return QString();
        return QStringLiteral("%1 %").arg(QLocale().toString(std::clamp(s.progress, 0.0, 1.0) * 100.0, 'f', 0));
    default:
        return {};
    }
}

QVariant StreamsModel::data(const QModelIndex& index, int role) const
{
    if (!index.isValid() || index.row() >= rowCount() || index.column() >= ColumnCount)
        return {};
    const Row& row = m_rows[static_cast<std::size_t>(index.row())];
    const stats::StreamStats& s = row.stats;
    const int column = index.column();
    switch (role) {
    case Qt::DisplayRole:
        return display(row, column);
    case kValueRole:
        switch (column) {
        case PacketRate:
            return s.rates.packetsPerSecond;
        case DataRate:
            return s.rates.megabitsPerSecond;
        case Loss:
            return QVariant::fromValue(static_cast<qulonglong>(lossOf(s)));
        case Progress:
            return s.progress;
        default:
            return display(row, column);
        }
    case Qt::ForegroundRole: {
        if (column != State && column != Name)
            return {};
        const QString state = stateText(row.profile, s);
        if (isError(state) || recordingFailed(s))
            return QBrush(kErrorColour);
        if (!s.running)
            return QBrush(kIdleColour);
        return {};
    }
    case Qt::FontRole:
        if (column == Name && !row.profile.enabled) {
            QFont font;
            font.setItalic(true);
            return font;
        }
        return {};
    case Qt::ToolTipRole:
        switch (column) {
        case Name:
            return row.profile.enabled ? QVariant() : tr("Disabled in the profile: not received until started");
        case State:
            return s.recording.empty() ? stateText(row.profile, s)
                                       : stateText(row.profile, s) + QLatin1Char('\n') + QString::fromStdString(s.recording);
        case Source:
            return QString::fromStdString(row.profile.source);
        case Loss:
            return lossTooltip(s);
        case PacketRate:
        case DataRate:
            return tr("Over the last refresh interval; %1 packets, %2 bytes received in all")
                .arg(countText(s.counters.packetsReceived), countText(s.counters.bytesReceived));
        default:
            return {};
        }
    case Qt::TextAlignmentRole:
        if (column == PacketRate || column == DataRate || column == Loss || column == Progress)
            return QVariant(Qt::AlignRight | Qt::AlignVCenter);
        return QVariant(Qt::AlignLeft | Qt::AlignVCenter);
    default:
        return {};
    }
}

QVariant StreamsModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal)
        return {};
    if (role == Qt::DisplayRole) {
        switch (section) {
        case Name: return tr("Stream");
        case Source: return tr("Source");
        case State: return tr("State");
        case PacketRate: return tr("Packets/s");
        case DataRate: return tr("Mbit/s");
        case Loss: return tr("Loss");
        case Progress: return tr("Playback");
        default: return {};
        }
    }
    if (role == Qt::ToolTipRole && section == Loss)
        return tr("Packets lost: sequence gaps, drops at a full queue or packet pool, and kernel drops");
    return {};
}

int StreamsModel::rowOf(const QString& name) const
{
    const std::string wanted = name.toStdString();
    for (std::size_t i = 0; i < m_rows.size(); ++i)
        if (m_rows[i].profile.name == wanted)
            return static_cast<int>(i);
    return -1;
}

QString StreamsModel::streamName(int row) const
{
    if (row < 0 || row >= rowCount())
        return {};
    return QString::fromStdString(m_rows[static_cast<std::size_t>(row)].profile.name);
}

QStringList StreamsModel::streamNames() const
{
    QStringList names;
    for (const Row& row : m_rows)
        names.push_back(QString::fromStdString(row.profile.name));
    return names;
}

bool StreamsModel::hasPlayback() const
{
    return std::any_of(m_rows.begin(), m_rows.end(),
                       [](const Row& row) { return row.profile.source.starts_with("file:") || row.stats.progress >= 0; });
}

bool StreamsModel::isRunning(int row) const
{
    return row >= 0 && row < rowCount() && m_rows[static_cast<std::size_t>(row)].stats.running;
}

} // namespace telestation::ui
