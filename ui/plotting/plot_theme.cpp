#include "ui/plotting/plot_theme.hpp"

#include <qwt_legend.h>
#include <qwt_plot.h>
#include <qwt_plot_grid.h>

#include <array>

namespace telestation::ui::plot_theme {

namespace {

constexpr std::array<QRgb, kCurveColorCount> kCurveColors = {0x4fc3f7, 0xffb74d, 0x81c784, 0xe57373,
                                                             0xba68c8, 0xfff176, 0x4db6ac, 0xf06292,
                                                             0xaed581, 0x90a4ae, 0xff8a65, 0x7986cb};

} // namespace

QColor curveColor(std::size_t index)
{
    return QColor::fromRgb(kCurveColors[index % kCurveColors.size()]);
}

QPalette darkPalette(QPalette palette, const QColor& background, const QColor& text)
{
    for (const auto role : {QPalette::Window, QPalette::Base, QPalette::Button})
        palette.setColor(role, background);
    for (const auto role : {QPalette::WindowText, QPalette::Text, QPalette::ButtonText})
        palette.setColor(role, text);
    return palette;
}

void setDarkCanvas(QwtPlot& plot)
{
    plot.setCanvasBackground(kCanvasColor);
    auto* grid = new QwtPlotGrid;
    grid->setMajorPen(kGridColor, 0.0, Qt::DotLine);
    grid->attach(&plot);
}

void setDarkLegend(QwtLegend& legend, const QColor& background, const QColor& text)
{
    legend.setPalette(darkPalette(legend.palette(), background, text));
    legend.contentsWidget()->setPalette(darkPalette(legend.contentsWidget()->palette(), background, text));
    legend.setAutoFillBackground(true);
}

} // namespace telestation::ui::plot_theme
