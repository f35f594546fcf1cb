#include "ui/plotting/time_axis.hpp"

#include "ui/plotting/tick_spacing.hpp"

#include <QDateTime>
#include <QFontMetrics>
#include <QString>

#include <qwt_date.h>
#include <qwt_date_scale_draw.h>
#include <qwt_date_scale_engine.h>
#include <qwt_plot.h>
#include <qwt_scale_div.h>
#include <qwt_scale_widget.h>

#include <algorithm>
#include <cmath>

namespace telestation::ui {

namespace {

// A date scale engine that takes fewer major ticks while their labels would run into each other on the
// plot's canvas as it is now: the labels' width depends on the step Qwt picks (hh:mm, hh:mm:ss,
// hh:mm:ss.zzz), which the tick count alone (tick_spacing) cannot know.
class FittingDateScaleEngine final : public QwtDateScaleEngine {
public:
    FittingDateScaleEngine(QwtPlot& plot, QwtAxisId axis) : QwtDateScaleEngine(Qt::UTC), m_plot(plot), m_axis(axis) {}

    QwtScaleDiv divideScale(double x1, double x2, int maxMajorSteps, int maxMinorSteps, double stepSize) const override
    {
        QwtScaleDiv division = QwtDateScaleEngine::divideScale(x1, x2, maxMajorSteps, maxMinorSteps, stepSize);
        for (int steps = maxMajorSteps - 1; steps >= 1 && !labelsFit(division); --steps)
            division = QwtDateScaleEngine::divideScale(x1, x2, steps, maxMinorSteps, stepSize);
        return division;
    }

private:
    // Adjacent labels, centred on their ticks, at least a few pixels apart along the canvas.
    [[nodiscard]] bool labelsFit(const QwtScaleDiv& division) const
    {
        const double length = m_plot.canvas()->contentsRect().width();
        const double span = std::abs(division.upperBound() - division.lowerBound());
        if (length <= 0 || span <= 0)
            return true; // not laid out yet: the next division, on the real width, decides
        QList<double> ticks;
        for (const double t : division.ticks(QwtScaleDiv::MajorTick))
            if (division.contains(t))
                ticks << t;
        if (ticks.size() < 2)
            return true;
        QwtScaleDraw* draw = m_plot.axisScaleDraw(m_axis);
        draw->setScaleDiv(division); // labels as they will be printed for this division
        const QFont font = m_plot.axisWidget(m_axis)->font();
        const double gap = QFontMetrics(font).averageCharWidth() * 2.0;
        double previousHalf = draw->labelSize(font, ticks.front()).width() / 2;
        for (qsizetype i = 1; i < ticks.size(); ++i) {
            const double half = draw->labelSize(font, ticks[i]).width() / 2;
            const double apart = std::abs(ticks[i] - ticks[i - 1]) / span * length;
            if (previousHalf + half + gap > apart)
                return false;
            previousHalf = half;
        }
        return true;
    }

    QwtPlot& m_plot;
    QwtAxisId m_axis;
};

} // namespace

void setUtcTimeAxis(QwtPlot& plot, QwtAxisId axis)
{
    plot.setAxisScaleEngine(axis, new FittingDateScaleEngine(plot, axis));
    auto* timeDraw = new QwtDateScaleDraw(Qt::UTC);
    timeDraw->setDateFormat(QwtDate::Millisecond, QStringLiteral("hh:mm:ss.zzz"));
    timeDraw->setDateFormat(QwtDate::Second, QStringLiteral("hh:mm:ss"));
    timeDraw->setDateFormat(QwtDate::Minute, QStringLiteral("hh:mm"));
    timeDraw->setDateFormat(QwtDate::Hour, QStringLiteral("hh:mm"));
    timeDraw->setDateFormat(QwtDate::Day, QStringLiteral("ddd dd MMM"));
    plot.setAxisScaleDraw(axis, timeDraw);
    spaceTicksToFit(plot, axis, QStringLiteral("88:88:88"));
}

QString utcTimeText(double ms)
{
    return QwtDate::toDateTime(ms, Qt::UTC).toString(QStringLiteral("hh:mm:ss.zzz"));
}

} // namespace telestation::ui
