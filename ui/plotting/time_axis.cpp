#include "ui/plotting/time_axis.hpp"

#include <QDateTime>
#include <QEvent>
#include <QFontMetrics>
#include <QString>

#include <qwt_date.h>
#include <qwt_date_scale_draw.h>
#include <qwt_date_scale_engine.h>
#include <qwt_plot.h>

#include <algorithm>

namespace telestation::ui {

namespace {

// As many major ticks as labels fit side by side: a narrow plot (a small screen, a display beside
// others) would otherwise print ten time labels over each other.
class TickSpacing final : public QObject {
public:
    TickSpacing(QwtPlot& plot, QwtAxisId axis) : QObject(&plot), m_plot(plot), m_axis(axis) {}

    bool eventFilter(QObject* watched, QEvent* event) override
    {
        if (event->type() == QEvent::Resize && watched == m_plot.canvas()) { // laid out: its width is final
            const int label = QFontMetrics(m_plot.axisFont(m_axis)).horizontalAdvance(QStringLiteral("88:88:88")) + 24;
            const int ticks = std::clamp(m_plot.canvas()->width() / std::max(label, 1), 2, kMaxMajor);
            if (ticks != m_plot.axisMaxMajor(m_axis))
                m_plot.setAxisMaxMajor(m_axis, ticks);
        }
        return false;
    }

    static constexpr int kMaxMajor = 10;

private:
    QwtPlot& m_plot;
    QwtAxisId m_axis;
};

} // namespace

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
    plot.setAxisMaxMajor(axis, TickSpacing::kMaxMajor);
    plot.canvas()->installEventFilter(new TickSpacing(plot, axis));
}

QString utcTimeText(double ms)
{
    return QwtDate::toDateTime(ms, Qt::UTC).toString(QStringLiteral("hh:mm:ss.zzz"));
}

} // namespace telestation::ui
