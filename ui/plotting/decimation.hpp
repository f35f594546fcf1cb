// Min/max decimation per pixel column: what a plot draws of a curve with far more samples than pixels,
// so that a million points redraw at frame rate and no spike disappears.
#pragma once

#include "ui/plotting/sample_history.hpp"

#include <cmath>
#include <vector>

namespace telestation::ui {

// The column (0..columns-1) of time t in the window [t0, t1] split into `columns` equal columns; t1 itself
// belongs to the last column. Monotonic in t. Preconditions: t0 < t1, columns > 0, t0 <= t <= t1.
[[nodiscard]] inline int columnOf(double t, double t0, double t1, int columns) noexcept
{
    const double column = std::floor((t - t0) / (t1 - t0) * columns);
    if (column < 0)
        return 0;
    return column >= columns ? columns - 1 : static_cast<int>(column);
}

// Replaces `out` with the points to draw for `history` over the window [t0, t1] at `columns` pixel
// columns (`out` is cleared and reused: no allocation once it has grown):
//  - per column that holds samples, in time order: its first sample, its minimum, its maximum and its
//    last sample, each once (1 to 4 points; ties go to the earliest sample). The polyline through them
//    keeps every column's extremes and joins each column to the next at the right values;
//  - a column without samples produces nothing: the line joins the neighbouring columns across it
//    (a strip chart draws through a gap rather than break; gaps in time are shown by the straight line);
//  - before the first column, the last sample older than t0, and after the last column, the first sample
//    newer than t1, when they exist, so that the line runs to the edges of the plot.
// Nothing is produced when columns <= 0 or !(t0 < t1). O(samples in the window + columns * log(samples)).
void decimateMinMax(const SampleHistory& history, double t0, double t1, int columns, std::vector<Sample>& out);

} // namespace telestation::ui
