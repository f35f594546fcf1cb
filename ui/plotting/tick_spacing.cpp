#include "ui/plotting/tick_spacing.hpp"

#include <QEvent>
#include <QFontMetrics>
#include <QObject>

#include <qwt_plot.h>

#include <algorithm>

namespace telestation::ui {

namespace {

class TickSpacing final : public QObject {
public:
    TickSpacing(QwtPlot& plot, QwtAxisId axis, const QString& widestLabel)
        : QObject(&plot), m_plot(plot), m_axis(axis), m_widestLabel(widestLabel)
    {
    }

    bool eventFilter(QObject* watched, QEvent* event) override
    {
        if (event->type() == QEvent::Resize && watched == m_plot.canvas()) // laid out: its size is final
            fit();
        return false;
    }

    void fit()
    {
        const QFontMetrics metrics(m_plot.axisFont(m_axis));
        const bool horizontal = QwtAxis::isXAxis(m_axis);
        const int label = horizontal ? metrics.horizontalAdvance(m_widestLabel) + 24 : metrics.height() + 4;
        const int length = horizontal ? m_plot.canvas()->width() : m_plot.canvas()->height();
        const int ticks = std::clamp(length / std::max(label, 1), 2, kMaxMajorTicks);
        if (ticks != m_plot.axisMaxMajor(m_axis))
            m_plot.setAxisMaxMajor(m_axis, ticks);
    }

private:
    QwtPlot& m_plot;
    QwtAxisId m_axis;
    QString m_widestLabel;
};

} // namespace

void spaceTicksToFit(QwtPlot& plot, QwtAxisId axis, const QString& widestLabel)
{
    plot.setAxisMaxMajor(axis, kMaxMajorTicks);
    plot.canvas()->installEventFilter(new TickSpacing(plot, axis, widestLabel));
}

} // namespace telestation::ui
