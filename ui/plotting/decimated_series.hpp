// A curve's data as Qwt sees it: the min/max decimated points of a SampleHistory, computed for the x
// range and canvas width being drawn. No copy of the history; the decimated points are reused between
// redraws and recomputed only when the range, the width or the history changed. x is in milliseconds
// since the epoch (time_axis.hpp), y the value.
#pragma once

#include "ui/plotting/sample_history.hpp"

#include <QPointF>
#include <QRectF>

#include <qwt_series_data.h>

#include <cstdint>
#include <limits>
#include <span>
#include <vector>

class QWidget;

namespace telestation::ui {

class DecimatedSeries : public QwtSeriesData<QPointF> {
public:
    // `history` and `canvas` must outlive the series.
    DecimatedSeries(const SampleHistory& history, const QWidget* canvas);

    [[nodiscard]] size_t size() const override { return m_points.size(); }
    [[nodiscard]] QPointF sample(size_t i) const override;
    [[nodiscard]] QRectF boundingRect() const override { return m_bounds; }
    // Qwt calls this on every replot that recomputes the scales (zoom, pan, the display's own):
    // re-decimates for the new range at the canvas's width.
    void setRectOfInterest(const QRectF& rect) override;

    // Decimates [x0Ms, x1Ms] into `columns` pixel columns, unless nothing changed since the last time.
    void decimate(double x0Ms, double x1Ms, int columns);

    // The value range within the window (not of the neighbours outside it), for autoscale.
    [[nodiscard]] bool hasValues() const noexcept { return m_min <= m_max; }
    [[nodiscard]] double minValue() const noexcept { return m_min; }
    [[nodiscard]] double maxValue() const noexcept { return m_max; }
    // The points drawn, in seconds (Sample::time).
    [[nodiscard]] std::span<const Sample> points() const noexcept { return m_points; }

private:
    const SampleHistory& m_history;
    const QWidget* m_canvas;
    std::vector<Sample> m_points;
    QRectF m_bounds{1, 1, -2, -2};
    double m_min = std::numeric_limits<double>::infinity();
    double m_max = -std::numeric_limits<double>::infinity();
    double m_x0Ms = 0;
    double m_x1Ms = 0;
    int m_columns = 0;
    std::uint64_t m_revision = 0;
    bool m_valid = false;
};

} // namespace telestation::ui
