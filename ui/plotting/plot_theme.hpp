// The dark theme every Qwt plot of Telestation shares (the workstation's plot display, the simulator's
// rate chart): canvas, grid, text and frame colours, the colours curves take in turn, and the palette
// that puts a plot's legend and frame on the dark background, so that light curve colours read
// everywhere.
#pragma once

#include <QColor>
#include <QPalette>

#include <cstddef>

class QwtLegend;
class QwtPlot;

namespace telestation::ui::plot_theme {

inline const QColor kCanvasColor(0x1e, 0x22, 0x28);
inline const QColor kFrameColor(0x26, 0x2a, 0x31);
inline const QColor kGridColor(0x44, 0x4a, 0x55);
inline const QColor kTextColor(0xd0, 0xd4, 0xda);

// How many colours curveColor() cycles through.
inline constexpr std::size_t kCurveColorCount = 12;
// The colour of the index-th curve: distinct on the dark canvas, in the order curves take them; after
// the last the first comes again.
[[nodiscard]] QColor curveColor(std::size_t index);

// `palette` with its window, base and button roles in `background` and their texts in `text`.
[[nodiscard]] QPalette darkPalette(QPalette palette, const QColor& background = kFrameColor,
                                   const QColor& text = kTextColor);

// The dark canvas with dotted major grid lines.
void setDarkCanvas(QwtPlot& plot);

// The legend (and the widget holding its entries) filled with `background`, its text in `text`.
void setDarkLegend(QwtLegend& legend, const QColor& background = kFrameColor, const QColor& text = kTextColor);

} // namespace telestation::ui::plot_theme
