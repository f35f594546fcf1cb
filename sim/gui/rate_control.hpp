// A stream's rate: a slider on a logarithmic scale (1 to 1,000,000 packets/s) and a line edit that
// takes the rate syntax ("100pps", "25.6Mbps", "flood"), kept in step. Emits rateEdited when the
// operator commits a valid rate (slider released or moved by keys, Return or focus out in the edit).
#pragma once

#include "sim/engine/rate.hpp"

#include <QWidget>

class QLabel;
class QLineEdit;
class QSlider;

namespace telestation::sim::gui {

class RateControl : public QWidget {
    Q_OBJECT

public:
    explicit RateControl(QWidget* parent = nullptr);

    // Shows `rate` (no signal). `averagePacketBytes` converts between bit and packet rates.
    void setRate(const Rate& rate, double averagePacketBytes);
    [[nodiscard]] const Rate& rate() const noexcept { return m_rate; }

    // The slider's scale: position <-> packets per second.
    static constexpr int kSliderSteps = 600; // 100 steps per decade, 1 .. 1e6 packets/s
    [[nodiscard]] static double packetsPerSecondAt(int position);
    [[nodiscard]] static int positionFor(double packetsPerSecond);

Q_SIGNALS:
    void rateEdited(const telestation::sim::Rate& rate);

private:
    [[nodiscard]] Rate rateAtSliderPosition(int position) const;
    void showSlider(const Rate& rate);
    void showHint(const Rate& rate);
    void onSliderMoved(int position);
    void onSliderValueChanged(int position);
    void onTextEdited(const QString& text);
    void onEditingFinished();
    void commit(const Rate& rate);

    QSlider* m_slider = nullptr;
    QLineEdit* m_edit = nullptr;
    QLabel* m_hint = nullptr;
    QLabel* m_error = nullptr;
    Rate m_rate;
    double m_averagePacketBytes = 0;
};

} // namespace telestation::sim::gui
