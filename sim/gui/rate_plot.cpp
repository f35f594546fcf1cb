#include "sim/gui/rate_plot.hpp"

#include "ui/plotting/aligned_legend.hpp"
#include "ui/plotting/plot_theme.hpp"

#include <qwt_legend.h>
#include <qwt_plot_curve.h>
#include <qwt_text.h>

#include <QLayout>
#include <QPen>
#include <QVector>

#include <algorithm>

namespace telestation::sim::gui {

namespace {

namespace plot_theme = ui::plot_theme;

// The streams' curves take the theme's first eight colours in turn.
constexpr std::size_t kStreamColorCount = 8;
const QColor kLegendTextColor(0xdd, 0xdd, 0xdd);
const QColor kTotalColor(0xf5, 0xf5, 0xf5);

} // namespace

RatePlot::RatePlot(QWidget* parent) : QwtPlot(parent)
{
    setObjectName(QStringLiteral("ratePlot"));
    setTitle(QwtText(tr("Achieved send rate")));
    setAxisTitle(QwtAxis::XBottom, tr("Time (s)"));
    setAxisTitle(QwtAxis::YLeft, tr("Mbit/s"));
    setAxisScale(QwtAxis::XBottom, -kSpanSeconds, 0.0);
    setAxisScale(QwtAxis::YLeft, 0.0, 1.0);
    plot_theme::setDarkCanvas(*this);
    // The legend shares the canvas's dark background, so that the light total curve shows in it too.
    auto* legend = new ui::AlignedLegend;
    legend->setObjectName(QStringLiteral("ratePlotLegend"));
    plot_theme::setDarkLegend(*legend, plot_theme::kCanvasColor, kLegendTextColor);
    // Room around the entries and a width that reads at a glance (stream names are short: the legend
    // would otherwise hug them against the window's edge).
    if (QLayout* entries = legend->contentsWidget()->layout())
        entries->setContentsMargins(10, 6, 10, 6);
    legend->setAlignedWidth(legend->fontMetrics().horizontalAdvance(QStringLiteral("stream-00000")) + 48);
    insertLegend(legend, QwtPlot::RightLegend);

    m_total.name = tr("Total");
    m_total.curve = new QwtPlotCurve(m_total.name);
    m_total.curve->setPen(kTotalColor, 2.0);
    m_total.curve->setRenderHint(QwtPlotItem::RenderAntialiased);
    m_total.curve->setZ(10); // above the streams' curves
    m_total.curve->attach(this);
    setMinimumHeight(160);
}

RatePlot::~RatePlot() = default;

double RatePlot::lastTotalBitsPerSecond() const noexcept
{
    return m_total.points.empty() ? 0.0 : m_total.points.back().second * 1e6;
}

void RatePlot::append(Series& series, double seconds, double megabits)
{
    series.points.emplace_back(seconds, megabits);
    // Keep one point beyond the left edge so that the curve starts at the edge.
    while (series.points.size() > 2 && series.points[1].first < seconds - kSpanSeconds)
        series.points.pop_front();
}

void RatePlot::showSeries(Series& series, double now)
{
    QVector<QPointF> samples;
    samples.reserve(static_cast<int>(series.points.size()));
    for (const auto& [t, value] : series.points)
        samples.append(QPointF(t - now, value));
    series.curve->setSamples(samples);
}

void RatePlot::addSample(double seconds, const std::vector<StreamRate>& rates)
{
    // Curves of streams that are gone go too.
    std::erase_if(m_series, [&rates](const std::unique_ptr<Series>& series) {
        const bool present = std::any_of(rates.begin(), rates.end(), [&](const StreamRate& r) { return r.name == series->name; });
        if (!present) {
            series->curve->detach();
            delete series->curve;
        }
        return !present;
    });
    double total = 0;
    double highest = 0;
    for (const StreamRate& rate : rates) {
        auto it = std::find_if(m_series.begin(), m_series.end(), [&](const auto& s) { return s->name == rate.name; });
        if (it == m_series.end()) {
            auto series = std::make_unique<Series>();
            series->name = rate.name;
            series->curve = new QwtPlotCurve(rate.name);
            const auto colorIndex = static_cast<std::size_t>(m_colorIndex++) % kStreamColorCount;
            series->curve->setPen(plot_theme::curveColor(colorIndex), 1.5);
            series->curve->setRenderHint(QwtPlotItem::RenderAntialiased);
            series->curve->attach(this);
            m_series.push_back(std::move(series));
            it = std::prev(m_series.end());
        }
        const double megabits = rate.bitsPerSecond / 1e6;
        append(**it, seconds, megabits);
        total += megabits;
    }
    append(m_total, seconds, total);

    for (const auto& series : m_series) {
        showSeries(*series, seconds);
        for (const auto& point : series->points)
            highest = std::max(highest, point.second);
    }
    showSeries(m_total, seconds);
    for (const auto& point : m_total.points)
        highest = std::max(highest, point.second);
    // Zero-based, with headroom; never a degenerate scale when nothing is sent.
    setAxisScale(QwtAxis::YLeft, 0.0, std::max(highest * 1.15, 0.01));
    replot();
}

void RatePlot::clearHistory()
{
    for (const auto& series : m_series) {
        series->curve->detach();
        delete series->curve;
    }
    m_series.clear();
    m_total.points.clear();
    m_total.curve->setSamples(QVector<QPointF>{});
    m_colorIndex = 0;
    replot();
}

} // namespace telestation::sim::gui
