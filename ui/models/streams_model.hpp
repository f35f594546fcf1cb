// The streams of a station as a table: one row per stream of the station's profile (enabled or not)
// with its source, the receiver's state, packets/s, Mbit/s, losses and playback progress. Polled: the
// owner calls refresh() (1 Hz while visible); nothing is pushed from the engine.
//
// The engine's snapshot leaves rates to its observers, so this model keeps its own stats::RateTracker:
// the rates of a refresh are over the interval since the previous refresh.
#pragma once

#include "core/config/station_profile.hpp"
#include "core/stats/rate_tracker.hpp"
#include "core/stats/snapshot.hpp"

#include <QAbstractTableModel>
#include <QStringList>

#include <cstdint>
#include <vector>

namespace telestation::pipeline {
class Station;
}

namespace telestation::ui {

class StreamsModel : public QAbstractTableModel {
    Q_OBJECT

public:
    enum Column { Name, Source, State, PacketRate, DataRate, Loss, Progress, ColumnCount };
    // The number behind a cell: packets/s, Mbit/s, lost packets (quint64), progress 0..1 (-1 = live).
    static constexpr int kValueRole = Qt::UserRole + 1;

    explicit StreamsModel(QObject* parent = nullptr);

    // Drops every row of the previous station and reads the new one at once (nullptr: no rows).
    void setStation(pipeline::Station* station);
    // Reads the station's profile and snapshot now; rows are updated in place while the streams stay
    // the same, the model is reset when streams were added, removed or renamed.
    void refresh();

    [[nodiscard]] int rowCount(const QModelIndex& parent = {}) const override;
    [[nodiscard]] int columnCount(const QModelIndex& parent = {}) const override;
    [[nodiscard]] QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    [[nodiscard]] QVariant headerData(int section, Qt::Orientation orientation, int role) const override;

    [[nodiscard]] int rowOf(const QString& name) const;
    [[nodiscard]] QString streamName(int row) const;
    [[nodiscard]] QStringList streamNames() const;
    // The stream as the station's profile has it now (with every live change).
    [[nodiscard]] const config::StreamProfile& streamProfile(int row) const { return m_rows.at(static_cast<std::size_t>(row)).profile; }
    // The stream's statistics of the last refresh (rates filled in).
    [[nodiscard]] const stats::StreamStats& streamStats(int row) const { return m_rows.at(static_cast<std::size_t>(row)).stats; }
    [[nodiscard]] bool isRunning(int row) const;
    // Packets lost on the way in: sequence gaps + drops at every queue and the packet pool + kernel drops.
    [[nodiscard]] static std::uint64_t lossOf(const stats::StreamStats& stream) noexcept;
    // The state as shown: the receiver's text, or stopped / disabled when it has none.
    [[nodiscard]] static QString stateText(const config::StreamProfile& profile, const stats::StreamStats& stream);
    [[nodiscard]] std::uint64_t refreshCount() const noexcept { return m_refreshes; }

private:
    struct Row {
        config::StreamProfile profile;
        stats::StreamStats stats;
    };
    [[nodiscard]] std::vector<Row> readRows(); // the station's streams now (updates the rates)
    [[nodiscard]] QVariant display(const Row& row, int column) const;
    [[nodiscard]] static QString lossTooltip(const stats::StreamStats& stream);

    pipeline::Station* m_station = nullptr;
    std::vector<Row> m_rows;
    stats::RateTracker m_rates;
    std::uint64_t m_refreshes = 0;
};

} // namespace telestation::ui
