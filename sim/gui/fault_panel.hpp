// Fault toggles of a stream: per fault kind a check box and a probability (per packet, shown in
// percent). Changes are emitted at once (faultsEdited) so that the window applies them live.
#pragma once

#include "sim/engine/scenario.hpp"

#include <QWidget>

#include <array>

class QCheckBox;
class QDoubleSpinBox;

namespace telestation::sim::gui {

class FaultPanel : public QWidget {
    Q_OBJECT

public:
    explicit FaultPanel(QWidget* parent = nullptr);

    // Shows `faults` (no signal). `tcp`: garbage insertion is possible (TCP destinations only).
    void setFaults(const FaultConfig& faults, bool tcp);
    [[nodiscard]] FaultConfig faults() const;

    static constexpr double kDefaultPercent = 1.0; // a fault switched on without a probability yet

Q_SIGNALS:
    void faultsEdited(const telestation::sim::FaultConfig& faults);

private:
    struct Row {
        QCheckBox* check = nullptr;
        QDoubleSpinBox* percent = nullptr;
        double probability = FaultPanel::kDefaultPercent / 100.0; // exact, as configured or last entered
    };
    void updateEnabled();
    void emitFaults();

    std::array<Row, 6> m_rows{};
    bool m_tcp = false;
};

} // namespace telestation::sim::gui
