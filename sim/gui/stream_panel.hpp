// The selected stream's controls, beside the stream table: its rate (RateControl), its packet mix
// (read-only: change it with Edit…), and its faults (FaultPanel). Rate and fault changes are applied
// to the running stream at once (SimStream::setRate / setFaults).
#pragma once

#include "core/mdb/model.hpp"

#include <QWidget>

#include <array>

class QGroupBox;
class QLabel;
class QTableWidget;

namespace telestation::sim {
class SimStream;
} // namespace telestation::sim

namespace telestation::sim::gui {

class FaultPanel;
class RateControl;

class StreamPanel : public QWidget {
    Q_OBJECT

public:
    explicit StreamPanel(QWidget* parent = nullptr);

    // The stream to show and control; nullptr when none is selected. `db` resolves its mix.
    void setStream(SimStream* stream, const mdb::MissionDatabase* db);
    [[nodiscard]] SimStream* stream() const noexcept { return m_stream; }
    // Updates the stream's statistics (the window's refresh timer calls this).
    void refresh();

    // Finds the definition a mix entry names (a packet name, or an APID in decimal), as the stream does.
    [[nodiscard]] static const mdb::PacketDef* resolveMixEntry(const mdb::MissionDatabase& db, const std::string& packet);

Q_SIGNALS:
    // The stream's rate or faults were changed from this panel.
    void streamEdited();

private:
    void showMix(const mdb::MissionDatabase* db);
    void fitMixHeight();

    SimStream* m_stream = nullptr;
    QLabel* m_title = nullptr;
    QGroupBox* m_rateBox = nullptr;
    QGroupBox* m_mixBox = nullptr;
    QGroupBox* m_faultBox = nullptr;
    QGroupBox* m_statisticsBox = nullptr;
    RateControl* m_rate = nullptr;
    QTableWidget* m_mix = nullptr;
    FaultPanel* m_faults = nullptr;
    enum Statistic { RunTime, Generated, Sent, BytesSent, NotSent, Dropped, Duplicated, Reordered, CorruptedHeaders,
                     Truncated, GarbageRuns, StatisticCount };
    std::array<QLabel*, StatisticCount> m_statistics{};
};

} // namespace telestation::sim::gui
