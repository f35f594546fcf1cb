#include "ui/plotting/time_axis.hpp"

#include "ui/plotting/tick_spacing.hpp"

#include <QDateTime>
#include <QString>

#include <qwt_date.h>
#include <qwt_date_scale_draw.h>
#include <qwt_date_scale_engine.h>
#include <qwt_plot.h>

namespace telestation::ui {

void setUtcTimeAxis(QwtPlot& plot, QwtAxisId axis)
{
    plot.setAxisScaleEngine(axis, new QwtDateScaleEngine(Qt::UTC));
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
