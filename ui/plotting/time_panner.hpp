// The panner of a time plot (middle drag). It calls `onBegin` before it moves the view, so that a live
// view can pause first.
#pragma once

#include <qwt_plot_panner.h>

#include <functional>

namespace telestation::ui {

class TimePanner : public QwtPlotPanner {
public:
    TimePanner(QWidget* canvas, std::function<void()> onBegin);

protected:
    void widgetMousePressEvent(QMouseEvent* event) override;

private:
    std::function<void()> m_onBegin;
};

} // namespace telestation::ui
