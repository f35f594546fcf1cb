// The rubber-band zoomer of a time plot (left drag; right click returns to the zoom base; Ctrl+right
// click zooms out one step). It calls `onBegin` before the operator starts a zoom, so that a live view
// can pause and not move under the rubber band, and shows the cursor's time as UTC with its value.
#pragma once

#include <qwt_plot_zoomer.h>

#include <functional>

namespace telestation::ui {

class TimeZoomer : public QwtPlotZoomer {
public:
    TimeZoomer(QWidget* canvas, std::function<void()> onBegin);

protected:
    void begin() override;
    [[nodiscard]] QwtText trackerTextF(const QPointF& pos) const override;

private:
    std::function<void()> m_onBegin;
};

} // namespace telestation::ui
