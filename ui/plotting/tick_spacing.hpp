// As many major ticks on a plot's axis as its labels fit along the canvas: a small plot (a small screen,
// a display beside others) would otherwise print its labels over each other. Follows the canvas's size.
#pragma once

#include <qwt_axis_id.h>

#include <QString>

class QwtPlot;

namespace telestation::ui {

inline constexpr int kMaxMajorTicks = 10;

// `widestLabel`, for a horizontal axis: a label as wide as the widest the axis prints. A vertical axis
// spaces its labels by their height.
void spaceTicksToFit(QwtPlot& plot, QwtAxisId axis, const QString& widestLabel = {});

} // namespace telestation::ui
