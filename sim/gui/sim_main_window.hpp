// The training simulator's window. Issue 2 scope: the window with a Qwt chart of the send rate;
// streams, rate controls and fault toggles arrive with the generator (issue 3).
#pragma once

#include <QMainWindow>

class QwtPlot;

namespace telestation::sim {

class SimMainWindow : public QMainWindow {
    Q_OBJECT

public:
    explicit SimMainWindow(QWidget* parent = nullptr);
    [[nodiscard]] QwtPlot* ratePlot() const { return m_ratePlot; }

private:
    QwtPlot* m_ratePlot = nullptr;
};

} // namespace telestation::sim
