#include "sim/gui/stream_table_model.hpp"

#include "sim/engine/simulator.hpp"
#include "sim/gui/gui_text.hpp"

#include <QBrush>
#include <QColor>
#include <QIcon>
#include <QPainter>
#include <QPixmap>

namespace telestation::sim::gui {

namespace {

constexpr qint64 kRateWindowMs = 1000;

// Indexed by StreamTableModel::Activity.
QColor activityColor(int activity)
{
    switch (activity) {
    case 1: return QColor(0x2e, 0xa0, 0x43); // running
    case 2: return QColor(0xd4, 0x9a, 0x00); // waiting for a connection or a client
    case 3: return QColor(0x3b, 0x7d, 0xd8); // finished
    case 4: return QColor(0xc0, 0x39, 0x2b); // error
    default: return QColor(0x8a, 0x8f, 0x98); // stopped
    }
}

QIcon dotIcon(const QColor& color)
{
    QPixmap pixmap(12, 12);
    pixmap.fill(Qt::transparent);
    QPainter painter(&pixmap);
    painter.setRenderHint(QPainter::Antialiasing);
    painter.setPen(color.darker(130));
    painter.setBrush(color);
    painter.drawEllipse(QRectF(1.5, 1.5, 9, 9));
    return QIcon(pixmap);
}

} // namespace

StreamTableModel::StreamTableModel(QObject* parent) : QAbstractTableModel(parent)
{
    m_clock.start();
    for (std::size_t i = 0; i < m_icons.size(); ++i)
        m_icons[i] = dotIcon(activityColor(static_cast<int>(i)));
}

void StreamTableModel::setSimulator(Simulator* simulator)
{
    m_simulator = simulator;
    reload();
}

void StreamTableModel::reload()
{
    beginResetModel();
    m_rows.clear();
    if (m_simulator) {
        m_rows.resize(m_simulator->streams().size());
        for (std::size_t i = 0; i < m_rows.size(); ++i)
            poll(i);
    }
    endResetModel();
}

void StreamTableModel::clearRateWindows()
{
    for (Row& row : m_rows) {
        row.window.clear();
        row.packetsPerSecond = 0;
        row.bitsPerSecond = 0;
    }
}

void StreamTableModel::refresh()
{
    if (!m_simulator)
        return;
    if (m_simulator->streams().size() != m_rows.size()) {
        reload();
        return;
    }
    for (std::size_t i = 0; i < m_rows.size(); ++i)
        poll(i);
    if (!m_rows.empty())
        Q_EMIT dataChanged(index(0, 0), index(rowCount() - 1, ColumnCount - 1),
                           {Qt::DisplayRole, Qt::DecorationRole, Qt::ToolTipRole, ValueRole});
}

void StreamTableModel::poll(std::size_t index)
{
    const SimStream& stream = *m_simulator->streams()[index];
    Row& row = m_rows[index];
    const LiveCounters live = stream.live();
    const qint64 now = m_clock.elapsed();
    // A restarted stream counts from zero again; a replaced one is another stream; a stopped one sends
    // nothing now, whatever it sent in the last second.
    if (row.stream != &stream || live.packets < row.packets || live.bytes < row.bytes || !live.running) {
        row.window.clear();
        row.stream = &stream;
    }
    row.generated = live.generated;
    row.packets = live.packets;
    row.bytes = live.bytes;
    row.notSent = live.notSent;

    row.window.push_back(Sample{now, live.packets, live.bytes});
    while (row.window.size() > 2 && row.window[1].ms <= now - kRateWindowMs)
        row.window.pop_front();
    const Sample& first = row.window.front();
    const Sample& last = row.window.back();
    const double seconds = double(last.ms - first.ms) / 1000.0;
    if (!live.running) {
        row.packetsPerSecond = 0;
        row.bitsPerSecond = 0;
    } else if (seconds > 0.1) {
        row.packetsPerSecond = double(last.packets - first.packets) / seconds;
        row.bitsPerSecond = 8.0 * double(last.bytes - first.bytes) / seconds;
    }

    row.senderState = QString::fromStdString(stream.senderState());
    if (live.running) {
        // The senders' states (core/io): "sending to HOST:PORT[ (last error: …)]", "connected to
        // HOST:PORT[ (peer not keeping up)]", "connecting to HOST:PORT", "error: … (retry in N ms)",
        // "listening on HOST:PORT (N clients)".
        const QString& s = row.senderState;
        const auto detail = [&s] {
            const qsizetype open = s.indexOf(QLatin1Char('('));
            return open < 0 ? QString() : s.mid(open);
        };
        if (s.startsWith(QLatin1String("sending")) || s.startsWith(QLatin1String("connected"))) {
            const QString extra = detail();
            row.activity = extra.isEmpty() ? Activity::Running : Activity::Waiting;
            row.state = extra.isEmpty() ? tr("running") : tr("running %1").arg(extra);
        } else if (s.startsWith(QLatin1String("connecting"))) {
            row.activity = Activity::Waiting;
            row.state = tr("connecting…");
        } else if (s.startsWith(QLatin1String("error"))) {
            row.activity = Activity::Error;
            row.state = s;
        } else if (s.startsWith(QLatin1String("listening"))) {
            row.activity = s.contains(QLatin1String("(0 clients)")) ? Activity::Waiting : Activity::Running;
            row.state = s;
        } else {
            row.activity = Activity::Running;
            row.state = s.isEmpty() ? tr("running") : s;
        }
    } else if (live.finished) {
        row.activity = Activity::Finished;
        row.state = tr("finished");
    } else {
        row.activity = Activity::Stopped;
        row.state = tr("stopped");
    }
}

double StreamTableModel::achievedPacketsPerSecond(int row) const
{
    return row >= 0 && row < rowCount() ? m_rows[static_cast<std::size_t>(row)].packetsPerSecond : 0.0;
}

double StreamTableModel::achievedBitsPerSecond(int row) const
{
    return row >= 0 && row < rowCount() ? m_rows[static_cast<std::size_t>(row)].bitsPerSecond : 0.0;
}

QString StreamTableModel::stateText(int row) const
{
    return row >= 0 && row < rowCount() ? m_rows[static_cast<std::size_t>(row)].state : QString();
}

int StreamTableModel::rowCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : static_cast<int>(m_rows.size());
}

int StreamTableModel::columnCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant StreamTableModel::data(const QModelIndex& index, int role) const
{
    if (!m_simulator || !index.isValid() || index.row() >= rowCount()
        || static_cast<std::size_t>(index.row()) >= m_simulator->streams().size())
        return {};
    const Row& row = m_rows[static_cast<std::size_t>(index.row())];
    const StreamConfig& config = m_simulator->streams()[static_cast<std::size_t>(index.row())]->config();
    const auto column = static_cast<Column>(index.column());

    if (role == Qt::TextAlignmentRole) {
        switch (column) {
        case Sent:
        case PacketsPerSecond:
        case MegabitsPerSecond:
        case NotSent: return QVariant(Qt::AlignRight | Qt::AlignVCenter);
        default: return QVariant(Qt::AlignLeft | Qt::AlignVCenter);
        }
    }
    if (role == Qt::DecorationRole && column == State) {
        return m_icons[static_cast<std::size_t>(row.activity)];
    }
    if (role == Qt::ForegroundRole && column == NotSent && row.notSent > 0)
        return QBrush(QColor(0xc0, 0x39, 0x2b));
    if (role == Qt::ToolTipRole) {
        switch (column) {
        case State: return row.senderState.isEmpty() ? row.state : tr("%1 (sender: %2)").arg(row.state, row.senderState);
        case Sent: return tr("%1 packets, %2 bytes sent; %3 generated").arg(formatCount(row.packets), formatCount(row.bytes), formatCount(row.generated));
        case NotSent: return tr("Packets offered but not written (e.g. no TCP connection)");
        case Faults: return faultSummary(config.faults);
        default: return {};
        }
    }
    if (role == ValueRole) {
        switch (column) {
        case Name: return QString::fromStdString(config.name);
        case Destination: return QString::fromStdString(config.destination);
        case State: return row.state;
        case Rate: return QString::fromStdString(toString(config.rate));
        case Sent: return QVariant::fromValue<qulonglong>(row.packets);
        case PacketsPerSecond: return row.packetsPerSecond;
        case MegabitsPerSecond: return row.bitsPerSecond / 1e6;
        case NotSent: return QVariant::fromValue<qulonglong>(row.notSent);
        case Faults: return config.faults.any();
        case ColumnCount: break;
        }
        return {};
    }
    if (role != Qt::DisplayRole)
        return {};
    switch (column) {
    case Name: return QString::fromStdString(config.name);
    case Destination: return QString::fromStdString(config.destination);
    case State: return row.state;
    case Rate: return QString::fromStdString(toString(config.rate));
    case Sent: return formatCount(row.packets);
    case PacketsPerSecond: return formatPacketRate(row.packetsPerSecond);
    case MegabitsPerSecond: return formatMegabits(row.bitsPerSecond);
    case NotSent: return formatCount(row.notSent);
    case Faults: {
        const QString text = faultSummary(config.faults);
        return text.isEmpty() ? tr("none") : text;
    }
    case ColumnCount: break;
    }
    return {};
}

QVariant StreamTableModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal)
        return role == Qt::DisplayRole ? QVariant(section + 1) : QVariant();
    if (role == Qt::ToolTipRole) {
        switch (section) {
        case Rate: return tr("The configured rate");
        case PacketsPerSecond: return tr("Packets sent per second over the last second");
        case MegabitsPerSecond: return tr("Megabits sent per second over the last second (transport headers included)");
        case NotSent: return tr("Packets offered but not written (e.g. no TCP connection)");
        default: return {};
        }
    }
    if (role != Qt::DisplayRole)
        return {};
    switch (section) {
    case Name: return tr("Stream");
    case Destination: return tr("Destination");
    case State: return tr("State");
    case Rate: return tr("Rate");
    case Sent: return tr("Sent");
    case PacketsPerSecond: return tr("Packets/s");
    case MegabitsPerSecond: return tr("Mbit/s");
    case NotSent: return tr("Not sent");
    case Faults: return tr("Faults");
    default: return {};
    }
}

} // namespace telestation::sim::gui
