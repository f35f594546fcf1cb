// Time on a Qwt axis: the axis carries milliseconds since the Unix epoch (QwtDate's convention), while
// samples carry seconds (Sample::time); the labels read as UTC clock time.
#pragma once

#include <qwt_axis_id.h>

class QString;
class QwtPlot;

namespace telestation::ui {

inline constexpr double kMsPerSecond = 1000.0;

// Axis `axis` of `plot` shows UTC clock time, with ticks on round seconds, minutes and hours, as many as
// their labels fit along the canvas without running into each other (whatever the step's format).
void setUtcTimeAxis(QwtPlot& plot, QwtAxisId axis);

// "hh:mm:ss.zzz" (UTC) of `ms` milliseconds since the epoch.
[[nodiscard]] QString utcTimeText(double ms);

} // namespace telestation::ui
