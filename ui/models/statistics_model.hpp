// Models over the station's statistics snapshot (stats::StationSnapshot) for the statistics dialog:
// a tree of streams and their packet types with every counter and rate, the queues of each stream,
// the forward destinations and the API consumers. They are fed a snapshot at a time (1 Hz, by the
// dialog's timer) and update their rows in place — dataChanged for changed rows, row inserts and
// removals only when a stream, packet type, destination or consumer appears or vanishes — so that the
// views keep their selection, expansion and scroll position.
//
// StatisticsBaseline is the dialog's Reset: it remembers a snapshot and turns later snapshots into
// "since the reset" views. It never touches the engine, whose counters stay totals since start.
#pragma once

#include "core/stats/snapshot.hpp"

#include <QAbstractItemModel>
#include <QAbstractTableModel>
#include <QString>

#include <cstdint>
#include <map>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

namespace telestation::ui {

// Roles shared by the statistics models.
// The unformatted value of a cell: qulonglong for counts, double for rates, QString for texts.
inline constexpr int kStatisticsValueRole = Qt::UserRole + 1;
// A QueueLevel (ui/widgets/queue_bar.hpp) for the cells QueueBarDelegate paints.
inline constexpr int kQueueLevelRole = Qt::UserRole + 2;

// "Reset" for a view: counters shown as (current − baseline). What it does to each kind of number:
// - Counters (packets, bytes, errors, drops, warnings, connects, delivered ...): current − baseline.
//   A counter below its baseline means the station or the item restarted: it is shown as it is.
// - Queue depth, capacity and warning threshold: never baselined (they are states, not totals).
// - High water (queues, consumer queues): the engine keeps only its maximum since start. After a
//   reset the view shows the deepest depth it sampled since the reset (a lower bound, sampled at each
//   apply()), until the engine's high water rises above its value at the reset — from then on the
//   engine's value, which is exact.
// - Largest gap: likewise a maximum since start. After a reset it shows 0 until the engine sees a gap
//   larger than the largest before the reset; largestGapBefore() lets a view say "≤ N" meanwhile.
// - Rates, CPU, uptime, states: passed through.
// Items that appear after the reset (a new stream, packet type, destination or consumer) count from 0
// anyway: they are shown as they are.
class StatisticsBaseline {
public:
    // Makes `snapshot` the zero of the view.
    void reset(const stats::StationSnapshot& snapshot);
    // No baseline: apply() passes snapshots through.
    void clear();
    [[nodiscard]] bool active() const noexcept { return m_active; }
    // When reset() was called (the baseline's timeNs; 0 when not active).
    [[nodiscard]] std::int64_t resetTimeNs() const noexcept { return m_active ? m_base.timeNs : 0; }

    // The view of `current` since the reset. Not const: it samples the queue depths for the high water.
    [[nodiscard]] stats::StationSnapshot apply(const stats::StationSnapshot& current);

    // The largest gap at the reset of a stream (type == nullptr) or one of its packet types; 0 when
    // there is no baseline or it did not have the item.
    [[nodiscard]] std::uint64_t largestGapBefore(const std::string& stream,
                                                 const stats::PacketTypeStats* type = nullptr) const;

private:
    [[nodiscard]] std::uint64_t sampledHighWater(const std::string& key, const stats::QueueStats& now,
                                                 const stats::QueueStats& base);
    [[nodiscard]] const stats::StreamStats* baseStream(const std::string& name) const;
    [[nodiscard]] const stats::PacketTypeStats* baseType(const std::string& stream, const std::string& typeKey) const;

    bool m_active = false;
    stats::StationSnapshot m_base;
    // Lookups into m_base (which does not change until the next reset): by stream name, and by
    // stream name + '\n' + packetTypeKey.
    std::unordered_map<std::string, std::size_t> m_streamIndex;
    std::unordered_map<std::string, std::pair<std::size_t, std::size_t>> m_typeIndex;
    std::map<std::string, std::uint64_t, std::less<>> m_observedDepth; // queue key -> deepest seen since reset
};

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
        Processed,
        Recorded,
        Forwarded,
        Unknown,
        Discarded,
        Malformed,
        SequenceErrors,
        Lost,
        LargestGap,
        Duplicates,
        Drops,
        Errors,
        ColumnCount
    };

    explicit StreamStatisticsModel(QObject* parent = nullptr);

    // Shows `snapshot` (already baselined by the caller). `baseline`, when given, lets the largest gap
    // column say "≤ N" after a reset; it must outlive the model or be replaced by the next call.
    void setSnapshot(const stats::StationSnapshot& snapshot, const StatisticsBaseline* baseline = nullptr);

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
    void syncTypes(int streamRow, std::vector<stats::PacketTypeStats>& types, const StatisticsBaseline* baseline);

    std::vector<StreamRow> m_streams;
    quintptr m_nextId = 1;
};

// Base of the flat statistics tables: rows with a string key, brought up to date in place.
class KeyedTableModel : public QAbstractTableModel {
protected:
    using QAbstractTableModel::QAbstractTableModel;
    // Makes `rows` equal to `next` (Row: a `key` and operator==) with row removals and inserts for
    // keys that vanished or appeared, and one dataChanged over the rows that changed; a model reset
    // only if kept rows changed order.
    template <typename Row> void syncRows(std::vector<Row>& rows, std::vector<Row> next);
};

// Four rows per stream: its network, process, record and forward packet queues.
class QueueStatisticsModel : public KeyedTableModel {
    Q_OBJECT

public:
    // Fill: the bar (kQueueLevelRole; its value is depth / capacity, 0..1); Depth: the number.
    enum Column { Stream, Queue, Fill, Depth, Capacity, HighWater, WarningThreshold, Warnings, Drops, ColumnCount };
    enum class Kind { Network, Process, Record, Forward };
    static constexpr int kQueuesPerStream = 4;

    explicit QueueStatisticsModel(QObject* parent = nullptr);

    void setSnapshot(const stats::StationSnapshot& snapshot);
    [[nodiscard]] int rowOf(const QString& stream, Kind kind) const; // -1 when absent
    [[nodiscard]] static QString kindName(Kind kind);

    [[nodiscard]] int rowCount(const QModelIndex& parent = {}) const override;
    [[nodiscard]] int columnCount(const QModelIndex& parent = {}) const override;
    [[nodiscard]] QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    [[nodiscard]] QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;
    [[nodiscard]] static QString columnHelp(int column);

private:
    struct Row {
        std::string key;
        std::string stream;
        Kind kind = Kind::Network;
        stats::QueueStats queue;
        friend bool operator==(const Row&, const Row&) = default;
    };
    std::vector<Row> m_rows;
};

// The forward destinations (shared by every stream): state and counts.
class ForwardStatisticsModel : public KeyedTableModel {
    Q_OBJECT

public:
    enum Column { Destination, State, Packets, Bytes, NotSent, Connects, Disconnects, ColumnCount };

    explicit ForwardStatisticsModel(QObject* parent = nullptr);

    void setSnapshot(const stats::StationSnapshot& snapshot);

    [[nodiscard]] int rowCount(const QModelIndex& parent = {}) const override;
    [[nodiscard]] int columnCount(const QModelIndex& parent = {}) const override;
    [[nodiscard]] QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    [[nodiscard]] QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;
    [[nodiscard]] static QString columnHelp(int column);

private:
    struct Row {
        std::string key;
        stats::ForwardStats stats;
        friend bool operator==(const Row&, const Row&) = default;
    };
    std::vector<Row> m_rows;
};

// The API consumers (packet and parameter subscriptions) with their queues.
class ConsumerStatisticsModel : public KeyedTableModel {
    Q_OBJECT

public:
    // Fill: the queue's bar (kQueueLevelRole; its value is depth / capacity, 0..1).
    enum Column { Name, Kind, Delivery, Fill, Depth, Capacity, HighWater, Drops, Delivered, ColumnCount };

    explicit ConsumerStatisticsModel(QObject* parent = nullptr);

    void setSnapshot(const stats::StationSnapshot& snapshot);

    [[nodiscard]] int rowCount(const QModelIndex& parent = {}) const override;
    [[nodiscard]] int columnCount(const QModelIndex& parent = {}) const override;
    [[nodiscard]] QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    [[nodiscard]] QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;
    [[nodiscard]] static QString columnHelp(int column);

private:
    struct Row {
        std::string key;
        stats::ConsumerStats stats;
        friend bool operator==(const Row&, const Row&) = default;
    };
    std::vector<Row> m_rows;
};

// Key of a packet type within its stream: (name, APID, secondary id) — the unknown type and a
// defined APID 0 stay apart.
[[nodiscard]] std::string packetTypeKey(const stats::PacketTypeStats& type);
// Keys of the consumers in snapshot order: kind, name and, for repeated names, an occurrence number.
[[nodiscard]] std::vector<std::string> consumerKeys(const std::vector<stats::ConsumerStats>& consumers);

} // namespace telestation::ui
