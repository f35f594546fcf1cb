#include "ui/plotting/decimated_series.hpp"

#include "ui/plotting/decimation.hpp"
#include "ui/plotting/time_axis.hpp"

#include <QWidget>

#include <algorithm>
#include <cmath>
#include <limits>

namespace telestation::ui {

DecimatedSeries::DecimatedSeries(const SampleHistory& history, const QWidget* canvas)
    : m_history(history), m_canvas(canvas)
{
}

QPointF DecimatedSeries::sample(size_t i) const
{
    return {m_points[i].time * kMsPerSecond, m_points[i].value};
}

void DecimatedSeries::setRectOfInterest(const QRectF& rect)
{
    decimate(rect.left(), rect.right(), std::max(m_canvas->width(), 1));
}

void DecimatedSeries::decimate(double x0Ms, double x1Ms, int columns)
{
    // The right edge comes back from Qwt as left + width: compare with a tolerance.
    const double tolerance = std::abs(x1Ms - x0Ms) * 1e-9;
    if (m_valid && columns == m_columns && m_revision == m_history.revision() && x0Ms == m_x0Ms
        && std::abs(x1Ms - m_x1Ms) <= tolerance)
        return;
    m_valid = true;
    m_x0Ms = x0Ms;
    m_x1Ms = x1Ms;
    m_columns = columns;
    m_revision = m_history.revision();
    const double t0 = x0Ms / kMsPerSecond;
    const double t1 = x1Ms / kMsPerSecond;
    decimateMinMax(m_history, t0, t1, columns, m_points);

    m_min = std::numeric_limits<double>::infinity();
    m_max = -std::numeric_limits<double>::infinity();
    for (const Sample& point : m_points) {
        if (point.time < t0 || point.time > t1)
            continue;
        m_min = std::min(m_min, point.value);
        m_max = std::max(m_max, point.value);
    }
    m_bounds = hasValues() ? QRectF(QPointF(x0Ms, m_min), QPointF(x1Ms, m_max)) : QRectF(1, 1, -2, -2);
}

} // namespace telestation::ui
