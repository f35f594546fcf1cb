// The streams of a station as a table: one row per stream of the session's profile (enabled or not)
// with its source, the receiver's state, packets/s, Mbit/s, losses and playback progress from the
// session's snapshot of the last tick (rates filled in by the feed). The owner hands it each tick's
// snapshot (1 Hz while visible); nothing is pushed from the engine.
#pragma once

#include "core/config/station_profile.hpp"
#include "core/stats/snapshot.hpp"
#include "ui/session/snapshot_feed.hpp"

#include <QAbstractTableModel>
#include <QStringList>

#include <cstdint>
#include <vector>

namespace telestation::pipeline {
class Station;
}

namespace telestation::ui {

class StationSession;

class StreamsModel : public QAbstractTableModel {
    Q_OBJECT

public:
    // The source last: it is the one that may be long, and it gives way (elided) to the counts.
    enum Column { Name, State, PacketRate, DataRate, Loss, Progress, Source, ColumnCount };
    // The number behind a cell: packets/s, Mbit/s, lost packets (quint64), progress 0..1 (-1 = live).
    static constexpr int kValueRole = Qt::UserRole + 1;

    explicit StreamsModel(const StationSession& session, QObject* parent = nullptr);

    // Drops every row of the previous station and shows the session's streams at once (nullptr: no
    // station, no rows).
    void setStation(const pipeline::Station* station);
    // Shows the session's profile with this snapshot's counts; rows are updated in place while the
    // streams stay the same, the model is reset when streams were added, removed or renamed.
    void setSnapshot(const SharedSnapshot& snapshot);

    [[nodiscard]] int rowCount(const QModelIndex& parent = {}) const override;
    [[nodiscard]] int columnCount(const QModelIndex& parent = {}) const override;
    [[nodiscard]] QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    [[nodiscard]] QVariant headerData(int section, Qt::Orientation orientation, int role) const override;

    [[nodiscard]] int rowOf(const QString& name) const;
    [[nodiscard]] QString streamName(int row) const;
    [[nodiscard]] QStringList streamNames() const;
    // The stream as the station's profile has it now (with every live change).
    [[nodiscard]] const config::StreamProfile& streamProfile(int row) const { return m_rows.at(static_cast<std::size_t>(row)).profile; }
    // The stream's statistics of the last snapshot (rates filled in).
    [[nodiscard]] const stats::StreamStats& streamStats(int row) const { return m_rows.at(static_cast<std::size_t>(row)).stats; }
    [[nodiscard]] bool isRunning(int row) const;
    // Whether a stream plays a recording back (a file:// source): the Playback column is for those.
    [[nodiscard]] bool hasPlayback() const;
    // Packets lost on the way in: sequence gaps + drops at every queue and the packet pool + kernel drops.
    [[nodiscard]] static std::uint64_t lossOf(const stats::StreamStats& stream) noexcept;
    // The state as shown: the receiver's text, or stopped / disabled when it has none.
    [[nodiscard]] static QString stateText(const config::StreamProfile& profile, const stats::StreamStats& stream);
    // Recording of the stream stopped on a failure (full disk): its state says so, in red, until resumed.
    [[nodiscard]] static bool recordingFailed(const stats::StreamStats& stream);
    [[nodiscard]] std::uint64_t refreshCount() const noexcept { return m_refreshes; }
    // The feed's snapshot shown now (nullptr before the first).
    [[nodiscard]] const SharedSnapshot& snapshot() const noexcept { return m_snapshot; }

private:
    struct Row {
        config::StreamProfile profile;
        stats::StreamStats stats;
    };
    [[nodiscard]] std::vector<Row> readRows() const; // the session's streams with m_snapshot's counts
    [[nodiscard]] QVariant display(const Row& row, int column) const;
    [[nodiscard]] static QString lossTooltip(const stats::StreamStats& stream);

    const StationSession& m_session;
    const pipeline::Station* m_station = nullptr;
    SharedSnapshot m_snapshot;
    std::vector<Row> m_rows;
    std::uint64_t m_refreshes = 0;
};

} // namespace telestation::ui
