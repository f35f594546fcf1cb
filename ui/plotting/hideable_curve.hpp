// A curve whose legend entry shows whether it is drawn: a hidden curve's entry is greyed and struck
// out, so that a legend clicked some time ago still says which curves are missing from the canvas.
#pragma once

#include <qwt_plot_curve.h>

namespace telestation::ui {

class HideableCurve : public QwtPlotCurve {
public:
    using QwtPlotCurve::QwtPlotCurve;

    // Shows or hides the curve and updates its legend entry.
    void setShown(bool shown);
    [[nodiscard]] QList<QwtLegendData> legendData() const override;
};

} // namespace telestation::ui
