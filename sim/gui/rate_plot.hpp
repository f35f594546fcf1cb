// The achieved send rate over the last 60 s: a curve per stream and their total, in Mbit/s. Fed one
// sample per refresh of the window (a few per second); each curve keeps a bounded history.
#pragma once

#include <QString>

#include <qwt_plot.h>

#include <deque>
#include <memory>
#include <vector>

class QwtPlotCurve;

namespace telestation::sim::gui {

class RatePlot : public QwtPlot {
    Q_OBJECT

public:
    static constexpr double kSpanSeconds = 60;

    explicit RatePlot(QWidget* parent = nullptr);
    ~RatePlot() override;

    struct StreamRate {
        QString name;
        double bitsPerSecond = 0;
    };
    // A sample at `seconds` (a monotonic clock) for every stream shown; streams missing from `rates`
    // lose their curve. Redraws.
    void addSample(double seconds, const std::vector<StreamRate>& rates);
    // Forgets every curve's history (another scenario).
    void clearHistory();

    [[nodiscard]] std::size_t curveCount() const noexcept { return m_series.size() + 1; }
    [[nodiscard]] double lastTotalBitsPerSecond() const noexcept;

private:
    struct Series {
        QString name;
        QwtPlotCurve* curve = nullptr; // owned by the plot
        std::deque<std::pair<double, double>> points; // (seconds, Mbit/s)
    };
    void append(Series& series, double seconds, double megabits);
    void showSeries(Series& series, double now);

    std::vector<std::unique_ptr<Series>> m_series;
    Series m_total;
    int m_colorIndex = 0;
};

} // namespace telestation::sim::gui
