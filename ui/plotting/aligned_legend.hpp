// A legend whose width can be raised to that of the other plots' legends, so that the canvases of
// stacked plots (and their time axes) line up, or to a width that reads well (the simulator's chart).
#pragma once

#include <qwt_legend.h>

namespace telestation::ui {

class AlignedLegend : public QwtLegend {
public:
    // The width the legend's entries need.
    [[nodiscard]] int naturalWidth() const { return QwtLegend::sizeHint().width(); }
    [[nodiscard]] int alignedWidth() const noexcept { return m_width; }
    void setAlignedWidth(int width) noexcept { m_width = width; }
    [[nodiscard]] QSize sizeHint() const override;

private:
    int m_width = 0;
};

} // namespace telestation::ui
