// The simulator's streams as a table: configuration (name, destination, rate, faults) and live
// counters (sent, achieved rate over the last second, not sent, state). The counters are polled:
// refresh() reads each stream's relaxed-atomic LiveCounters once, from a timer of the window.
#pragma once

#include <QAbstractTableModel>
#include <QElapsedTimer>
#include <QIcon>

#include <array>
#include <cstdint>
#include <deque>
#include <vector>

namespace telestation::sim {
class Simulator;
} // namespace telestation::sim

namespace telestation::sim::gui {

class StreamTableModel : public QAbstractTableModel {
    Q_OBJECT

public:
    enum Column { Name, Destination, State, Rate, Sent, PacketsPerSecond, MegabitsPerSecond, NotSent, Faults, ColumnCount };
    // The unformatted value of a cell (numbers as numbers), for tests and sorting.
    static constexpr int ValueRole = Qt::UserRole + 1;

    explicit StreamTableModel(QObject* parent = nullptr);

    // The streams shown; nullptr for none. Resets the model.
    void setSimulator(Simulator* simulator);
    // After streams were added, removed or replaced: rebuilds the rows (and forgets their rate history).
    void reload();
    // Polls every stream's counters and state; emits dataChanged for the live columns.
    void refresh();
    // Forgets the counter history the achieved rates are computed from (after the polling paused).
    void clearRateWindows();

    // Over the last second, as of the last refresh().
    [[nodiscard]] double achievedPacketsPerSecond(int row) const;
    [[nodiscard]] double achievedBitsPerSecond(int row) const;
    [[nodiscard]] QString stateText(int row) const;

    [[nodiscard]] int rowCount(const QModelIndex& parent = {}) const override;
    [[nodiscard]] int columnCount(const QModelIndex& parent = {}) const override;
    [[nodiscard]] QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    [[nodiscard]] QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

private:
    enum class Activity { Stopped, Running, Waiting, Finished, Error, Count };
    struct Sample {
        qint64 ms = 0;
        std::uint64_t packets = 0;
        std::uint64_t bytes = 0;
    };
    struct Row {
        const void* stream = nullptr; // which stream the history belongs to
        std::uint64_t generated = 0;
        std::uint64_t packets = 0;
        std::uint64_t bytes = 0;
        std::uint64_t notSent = 0;
        std::deque<Sample> window;    // samples covering a little over the last second
        double packetsPerSecond = 0;
        double bitsPerSecond = 0;
        Activity activity = Activity::Stopped;
        QString state;
        QString senderState;
    };

    void poll(std::size_t row);

    Simulator* m_simulator = nullptr;
    std::vector<Row> m_rows;
    QElapsedTimer m_clock;
    std::array<QIcon, static_cast<std::size_t>(Activity::Count)> m_icons; // a coloured dot per activity
};

} // namespace telestation::sim::gui
