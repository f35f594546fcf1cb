// Models over the station's statistics snapshot (stats::StationSnapshot) for the statistics dialog:
// a tree of streams and their packet types with every counter and rate, the queues of each stream,
// the forward destinations and the API consumers. They are fed a snapshot at a time (1 Hz, by the
// dialog's timer; after the dialog's Reset, through stats::StatisticsBaseline) and update their rows
// in place — dataChanged for changed rows, row inserts and removals only when a stream, packet type,
// destination or consumer appears or vanishes — so that the views keep their selection, expansion and
// scroll position. Each model describes its columns once, in a table of TableColumn
// (column_table_model.hpp).
#pragma once

#include "core/stats/snapshot.hpp"
#include "core/stats/statistics_baseline.hpp"
#include "ui/models/column_table_model.hpp"

#include <QAbstractItemModel>
#include <QAbstractTableModel>
#include <QString>
#include <QVariant>
#include <QMetaObject>

#include <array>
#include <cstdint>
#include <span>
#include <string>
#include <vector>

namespace telestation::ui {

// Streams (top-level rows) and their packet types (children), one column per counter and rate.
class StreamStatisticsModel : public QAbstractItemModel {
    Q_OBJECT

public:
    enum Column {
        Name,
        State,             // stream: the receiver's state; packet type: mode, record, forward
        PacketsPerSecond,  // rates first: they show at a glance whether anything is arriving
        MegabitsPerSecond,
        ParametersPerSecond,
        Received,
        SequenceErrors,    // what was lost next to what was received: the columns an operator looks for
        Lost,
        LargestGap,
        Duplicates,
        Drops,
        Errors,
        Malformed,
        Processed,
        Recorded,
        Forwarded,
        Unknown,
        Discarded,
        ColumnCount
    };

    explicit StreamStatisticsModel(QObject* parent = nullptr);

    // Shows `snapshot` (already baselined by the caller). `baseline`, when given, lets the largest gap
    // column say "≤ N" after a reset; it must outlive the model or be replaced by the next call.
    void setSnapshot(const stats::StationSnapshot& snapshot,
                     const stats::StatisticsBaseline* baseline = nullptr);

    // The row of a stream, or of a packet type (by its name) under its stream; invalid when absent.
    [[nodiscard]] QModelIndex streamIndex(const QString& stream, int column = Name) const;
    [[nodiscard]] QModelIndex typeIndex(const QString& stream, const QString& type, int column = Name) const;

    [[nodiscard]] QModelIndex index(int row, int column, const QModelIndex& parent = {}) const override;
    [[nodiscard]] QModelIndex parent(const QModelIndex& child) const override;
    [[nodiscard]] int rowCount(const QModelIndex& parent = {}) const override;
    [[nodiscard]] int columnCount(const QModelIndex& parent = {}) const override;
    [[nodiscard]] QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    [[nodiscard]] QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

    // The operator's explanation of a column (header and cell tool tips).
    [[nodiscard]] static QString columnHelp(int column);

private:
    // The numbers of one row, a stream's or a packet type's: what the number columns read.
    struct Numbers {
        const stats::PacketCounters* counters = nullptr;
        const stats::Rates* rates = nullptr;
        std::uint64_t drops = 0;
        std::uint64_t errors = 0;
        std::uint64_t gapBefore = 0; // the baseline's largest gap

        // After a reset, a gap no larger than the one before it cannot be told apart: say so.
        [[nodiscard]] bool gapBounded() const
        {
            return gapBefore > 0 && counters->largestGap == 0 && counters->sequenceErrors > 0;
        }
    };
    // Name and State are written by data() (they differ between streams and packet types).
    static const std::array<TableColumn<Numbers>, ColumnCount> kColumns;
    // What a number cell's tool tip adds to the column's help (empty: nothing).
    [[nodiscard]] static QString countsToolTip(const Numbers& numbers, int column);

    struct TypeRow {
        std::string key;
        stats::PacketTypeStats stats;
        std::uint64_t gapBefore = 0; // baseline's largest gap, for "≤ N"
    };
    struct StreamRow {
        std::string key;
        quintptr id = 0; // stable while the row exists: children's internal id
        stats::StreamStats stats; // packetTypes emptied: they live in `types`
        std::uint64_t gapBefore = 0;
        std::vector<TypeRow> types;
    };

    [[nodiscard]] int streamRowOf(quintptr id) const;
    void syncTypes(int streamRow, std::vector<stats::PacketTypeStats>& types,
                   const stats::StatisticsBaseline* baseline);

    std::vector<StreamRow> m_streams;
    quintptr m_nextId = 1;
};

// The rows of the flat tables (a `key` and operator== for KeyedTableModel::syncRows).
struct ForwardStatisticsRow {
    std::string key;
    stats::ForwardStats stats;
    friend bool operator==(const ForwardStatisticsRow&, const ForwardStatisticsRow&) = default;
};
struct ConsumerStatisticsRow {
    std::string key;
    stats::ConsumerStats stats;
    friend bool operator==(const ConsumerStatisticsRow&, const ConsumerStatisticsRow&) = default;
};

// Four rows per stream: its network, process, record and forward packet queues.
enum class QueueKind { Network, Process, Record, Forward }; // in kStreamQueues' order
struct QueueStatisticsRow {
    std::string key;
    std::string stream;
    QueueKind kind = QueueKind::Network;
    stats::QueueStats queue;
    friend bool operator==(const QueueStatisticsRow&, const QueueStatisticsRow&) = default;
};

class QueueStatisticsModel : public ColumnTableModel<QueueStatisticsRow> {
    Q_OBJECT

public:
    // Fill: the bar (kQueueLevelRole; its value is depth / capacity, 0..1); Depth: the number.
    enum Column { Stream, Queue, Fill, Depth, Capacity, HighWater, WarningThreshold, Warnings, Drops, ColumnCount };
    using Kind = QueueKind;
    static constexpr int kQueuesPerStream = static_cast<int>(stats::kStreamQueues.size());

    explicit QueueStatisticsModel(QObject* parent = nullptr);

    void setSnapshot(const stats::StationSnapshot& snapshot);
    [[nodiscard]] int rowOf(const QString& stream, Kind kind) const; // -1 when absent
    [[nodiscard]] static QString kindName(Kind kind);

    [[nodiscard]] static QString columnHelp(int column);

private:
    using Row = QueueStatisticsRow;
    [[nodiscard]] QString cellToolTip(const Row& row, int column) const override;
    static const std::array<TableColumn<Row>, ColumnCount> kColumns;
};

// The forward destinations (shared by every stream): state and counts.
class ForwardStatisticsModel : public ColumnTableModel<ForwardStatisticsRow> {
    Q_OBJECT

public:
    enum Column { Destination, State, Packets, Bytes, NotSent, Connects, Disconnects, ColumnCount };

    explicit ForwardStatisticsModel(QObject* parent = nullptr);

    void setSnapshot(const stats::StationSnapshot& snapshot);

    [[nodiscard]] static QString columnHelp(int column);

private:
    using Row = ForwardStatisticsRow;
    static const std::array<TableColumn<Row>, ColumnCount> kColumns;
};

// The API consumers (packet and parameter subscriptions) with their queues.
class ConsumerStatisticsModel : public ColumnTableModel<ConsumerStatisticsRow> {
    Q_OBJECT

public:
    // Fill: the queue's bar (kQueueLevelRole; its value is depth / capacity, 0..1).
    enum Column { Name, Kind, Delivery, Fill, Depth, Capacity, HighWater, Drops, Delivered, ColumnCount };

    explicit ConsumerStatisticsModel(QObject* parent = nullptr);

    void setSnapshot(const stats::StationSnapshot& snapshot);

    [[nodiscard]] static QString columnHelp(int column);

private:
    using Row = ConsumerStatisticsRow;
    static const std::array<TableColumn<Row>, ColumnCount> kColumns;
};

} // namespace telestation::ui
