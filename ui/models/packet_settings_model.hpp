// The packet settings of one stream as a table: one row per packet type of the mission database (APID,
// secondary id, name) and a last row for the unknown packets, with the processing mode, record and
// forward destinations — editable — and the live counts of the stream in the session's snapshot
// (received, processed, recorded, forwarded, dropped). A row is its type (type index, name), never its (APID, secondary id)
// alone: XTCE missions tell types of one APID apart by criteria on other fields.
//
// Settings are read from the session's profile. Edits go live through the session
// (StationSession::setPacketSettings / setUnknownSettings: the station applies them, the profile is
// marked unsaved), starting from the settings the profile has now so the fields not edited are kept. The setting written names
// the row's type alone: by (APID, secondary id) where that identifies exactly this type (so profiles of
// .tdef missions look as they always did), else by packet name (pipeline::SettingResolver). A refused change leaves
// the row as it was and reports the engine's error (settingRefused); an applied one emits
// settingsChanged. Counts and settings are read again with each snapshot the owner hands it
// (setSnapshot: 1 Hz while the table is visible).
#pragma once

#include "core/config/station_profile.hpp"
#include "core/stats/snapshot.hpp"
#include "ui/session/snapshot_feed.hpp"

#include <QAbstractTableModel>
#include <QStringList>

#include <cstdint>
#include <optional>
#include <vector>

namespace telestation::pipeline {
class Station;
}

namespace telestation::ui {

class StationSession;

class PacketSettingsModel : public QAbstractTableModel {
    Q_OBJECT

public:
    enum Column { Apid, Name, Mode, Record, Forward, Received, Processed, Recorded, Forwarded, Dropped, ColumnCount };
    static constexpr int kModeRole = Qt::UserRole + 1;        // int(config::ProcessingMode)
    static constexpr int kModeChoicesRole = Qt::UserRole + 2; // QVariantList of int modes the row may take
    static constexpr int kForwardRole = Qt::UserRole + 3;     // QStringList of destination URLs
    static constexpr int kCountRole = Qt::UserRole + 4;       // quint64, the count columns

    explicit PacketSettingsModel(StationSession& session, QObject* parent = nullptr);

    // Either may be called at any time; rows exist while the station has a stream of this name.
    void setStation(pipeline::Station* station);
    void setStream(const QString& stream);
    [[nodiscard]] QString stream() const { return m_stream; }
    // Reads the stream's settings from the session's profile and its counts from `snapshot`.
    void setSnapshot(const SharedSnapshot& snapshot);
    // The feed's snapshot the counts are from (nullptr before the first).
    [[nodiscard]] const SharedSnapshot& snapshot() const noexcept { return m_snapshot; }

    [[nodiscard]] int rowCount(const QModelIndex& parent = {}) const override;
    [[nodiscard]] int columnCount(const QModelIndex& parent = {}) const override;
    [[nodiscard]] QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    [[nodiscard]] QVariant headerData(int section, Qt::Orientation orientation, int role) const override;
    [[nodiscard]] Qt::ItemFlags flags(const QModelIndex& index) const override;
    // Mode (Qt::EditRole: an int config::ProcessingMode, or its name), Record (Qt::CheckStateRole),
    // Forward (Qt::EditRole: a QStringList or a comma-separated string). False when the station refused.
    bool setData(const QModelIndex& index, const QVariant& value, int role = Qt::EditRole) override;

    [[nodiscard]] bool isUnknownRow(int row) const { return row >= 0 && row == unknownRow(); }
    [[nodiscard]] int unknownRow() const { return m_rows.empty() ? -1 : static_cast<int>(m_rows.size()) - 1; }
    [[nodiscard]] int rowOfType(const QString& packetName) const;
    [[nodiscard]] std::uint32_t typeIndex(int row) const { return m_rows.at(static_cast<std::size_t>(row)).type; }
    [[nodiscard]] config::ProcessingMode mode(int row) const { return m_rows.at(static_cast<std::size_t>(row)).mode; }
    [[nodiscard]] bool record(int row) const { return m_rows.at(static_cast<std::size_t>(row)).record; }
    [[nodiscard]] QStringList forward(int row) const { return m_rows.at(static_cast<std::size_t>(row)).forward; }
    [[nodiscard]] const stats::PacketCounters& counters(int row) const { return m_rows.at(static_cast<std::size_t>(row)).counters; }
    [[nodiscard]] QString typeLabel(int row) const;

    // The last refusal's text ("" after a change that was applied).
    [[nodiscard]] QString lastError() const { return m_lastError; }

    [[nodiscard]] static QString modeText(config::ProcessingMode mode);
    // What the station profile refuses in a forward destination that Station::setPacketSettings lets
    // through (port 0 other than tcp-listen://); "" when there is nothing.
    [[nodiscard]] static QString profileDestinationError(const QString& url);

Q_SIGNALS:
    void settingsChanged(const QString& stream);
    void settingRefused(const QString& message);

private:
    struct Row {
        std::uint32_t type = 0; // the station's type index; 0 = unknown packets
        QString name;
        std::uint16_t apid = 0;
        std::optional<std::uint64_t> secondaryId;
        QString description;
        config::ProcessingMode mode = config::ProcessingMode::ProcessEntirePacket;
        bool record = false;
        QStringList forward;
        stats::PacketCounters counters;
    };
    struct Change {
        std::optional<config::ProcessingMode> mode;
        std::optional<bool> record;
        std::optional<QStringList> forward;
    };

    void rebuild();
    [[nodiscard]] bool readSettings(std::vector<Row>& rows) const;
    void readCounters(std::vector<Row>& rows) const;
    void updateRows(std::vector<Row> rows);
    [[nodiscard]] bool apply(int row, const Change& change);
    void refuse(int row, const QString& message);

    StationSession& m_session;
    pipeline::Station* m_station = nullptr;
    SharedSnapshot m_snapshot;
    QString m_stream;
    std::vector<Row> m_rows;
    QString m_lastError;
};

} // namespace telestation::ui
