#include "ui/plotting/time_panner.hpp"

#include <QMouseEvent>

namespace telestation::ui {

TimePanner::TimePanner(QWidget* canvas, std::function<void()> onBegin)
    : QwtPlotPanner(canvas), m_onBegin(std::move(onBegin))
{
    setMouseButton(Qt::MiddleButton);
}

void TimePanner::widgetMousePressEvent(QMouseEvent* event)
{
    Qt::MouseButton button = Qt::NoButton;
    Qt::KeyboardModifiers modifiers;
    getMouseButton(button, modifiers);
    if (event->button() == button)
        m_onBegin();
    QwtPlotPanner::widgetMousePressEvent(event);
}

} // namespace telestation::ui
