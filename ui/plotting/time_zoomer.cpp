#include "ui/plotting/time_zoomer.hpp"

#include "ui/plotting/plot_theme.hpp"
#include "ui/plotting/time_axis.hpp"

#include <QPen>

#include <qwt_text.h>

namespace telestation::ui {

TimeZoomer::TimeZoomer(QWidget* canvas, std::function<void()> onBegin)
    : QwtPlotZoomer(canvas, false), m_onBegin(std::move(onBegin))
{
    // The panner has the middle button; Ctrl+right click zooms out one step.
    setMousePattern(QwtEventPattern::MouseSelect3, Qt::RightButton, Qt::ControlModifier);
    setRubberBandPen(QPen(plot_theme::kTextColor, 1, Qt::DashLine));
    setTrackerPen(QPen(plot_theme::kTextColor));
    setTrackerMode(QwtPicker::ActiveOnly);
}

void TimeZoomer::begin()
{
    m_onBegin();
    QwtPlotZoomer::begin();
}

QwtText TimeZoomer::trackerTextF(const QPointF& pos) const
{
    return QwtText(QStringLiteral("%1  %2").arg(utcTimeText(pos.x())).arg(pos.y(), 0, 'g', 6));
}

} // namespace telestation::ui
