#include "ui/displays/plot_display.hpp"

#include "core/common/clock.hpp"

#include "ui/plotting/aligned_legend.hpp"
#include "ui/plotting/decimated_series.hpp"
#include "ui/plotting/hideable_curve.hpp"
#include "ui/plotting/plot_theme.hpp"
#include "ui/plotting/tick_spacing.hpp"
#include "ui/plotting/time_axis.hpp"
#include "ui/plotting/time_panner.hpp"
#include "ui/plotting/time_zoomer.hpp"
#include "ui/session/phased_timer.hpp"

#include <QComboBox>
#include <QElapsedTimer>
#include <QEvent>
#include <QHBoxLayout>
#include <QLabel>
#include <QPen>
#include <QSignalBlocker>
#include <QSplitter>
#include <QStyle>
#include <QToolButton>
#include <QVBoxLayout>

#include <qwt_legend.h>
#include <qwt_legend_label.h>
#include <qwt_plot.h>
#include <qwt_plot_canvas.h>
#include <qwt_plot_curve.h>
#include <qwt_plot_marker.h>
#include <qwt_plot_zoomer.h>
#include <qwt_scale_draw.h>
#include <qwt_scale_map.h>
#include <qwt_scale_widget.h>
#include <qwt_text.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>

namespace telestation::ui {

namespace {

// Limit lines on the dark canvas (plot_theme.hpp).
const QColor kRedLimitColor(0xef, 0x53, 0x50);
const QColor kYellowLimitColor(0xff, 0xca, 0x28);
// The selected plot's frame, and the others' (plot_theme's grid colour: seen, not in the way).
const QColor kSelectionColor(0x29, 0xb6, 0xf6);
constexpr int kCanvasFrameWidth = 2;

constexpr std::array<double, 11> kWindowChoices{1, 5, 10, 30, 60, 300, 600, 1800, 3600, 4 * 3600, 12 * 3600};
constexpr int kMaxRefreshIntervalMs = 1000;

QString windowLabel(double seconds)
{
    if (seconds < 60)
        return QObject::tr("%1 s").arg(seconds, 0, 'g', 4);
    if (seconds < 3600)
        return QObject::tr("%1 min").arg(seconds / 60, 0, 'g', 4);
    return QObject::tr("%1 h").arg(seconds / 3600, 0, 'g', 4);
}

QwtAxisId yAxisOf(PlotDisplay::Axis axis)
{
    return axis == PlotDisplay::Axis::Right ? QwtAxis::YRight : QwtAxis::YLeft;
}

// A limit's dashed line and its label ("name what value"); the label is shown, moved or shortened by
// placeLimitLabels().
struct LimitLine {
    QwtPlotMarker* marker = nullptr; // owned by the plot
    QwtText label;                   // the whole label, as drawn when nothing is in its way
    QString shortText;               // without the curve's name, for a canvas narrower than the whole label
    bool high = false;               // a high limit's label goes above its line, a low one's below
};

} // namespace

struct PlotDisplay::Plot {
    QwtPlot* plot = nullptr;         // owned by the splitter
    QwtPlotZoomer* zoomer = nullptr; // owned by the canvas
    bool usesRightAxis = false;
    int drawnCanvasWidth = -1;
};

struct PlotDisplay::Curve {
    QString name;                           // as given; the legend adds a note to it
    std::unique_ptr<SampleHistory> history; // DecimatedSeries refers to it: its address must not change
    HideableCurve* item = nullptr;          // owned by its plot
    DecimatedSeries* data = nullptr;        // owned by item
    int plotIndex = 0;
    Axis axis = Axis::Left;
    std::vector<LimitLine> limitLines;
};

PlotDisplay::PlotDisplay(QWidget* parent) : QWidget(parent)
{
    setObjectName(QStringLiteral("plotDisplay"));
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(2);
    layout->addLayout(createToolBar());
    m_splitter = new QSplitter(Qt::Vertical, this);
    m_splitter->setChildrenCollapsible(false);
    layout->addWidget(m_splitter, 1);

    m_refreshTimer = new PhasedTimer(std::chrono::milliseconds(m_baseIntervalMs), this);
    m_refreshTimer->setObjectName(QStringLiteral("plotRefreshTimer"));
    // Behind another tab nothing is drawn (the histories keep filling); in front it draws at once.
    m_refreshTimer->skipWhileUnseen(this);
    connect(m_refreshTimer, &PhasedTimer::timeout, this, &PlotDisplay::refreshInTurns);

    updateLiveRange();
    addPlot();
    updateStatus();
}

PlotDisplay::~PlotDisplay()
{
    m_refreshTimer->stop();
    // The plots (and the curves' data referring to the histories) go before the histories.
    delete m_splitter;
    m_splitter = nullptr;
}

QLayout* PlotDisplay::createToolBar()
{
    auto* bar = new QHBoxLayout;
    bar->setContentsMargins(4, 2, 4, 0);
    bar->addWidget(new QLabel(tr("Window"), this));
    m_windowCombo = new QComboBox(this);
    m_windowCombo->setObjectName(QStringLiteral("timeWindowCombo"));
    m_windowCombo->setToolTip(tr("Span of time shown while live"));
    for (const double seconds : kWindowChoices)
        m_windowCombo->addItem(windowLabel(seconds), seconds);
    m_windowCombo->setCurrentIndex(m_windowCombo->findData(m_window));
    connect(m_windowCombo, &QComboBox::activated, this,
            [this](int index) { setTimeWindow(m_windowCombo->itemData(index).toDouble()); });
    bar->addWidget(m_windowCombo);

    const auto makeButton = [this, bar](const QString& name, const QString& text, const QString& tip) {
        auto* button = new QToolButton(this);
        button->setObjectName(name);
        button->setText(text);
        button->setToolTip(tip);
        button->setCheckable(true);
        button->setAutoRaise(true);
        button->setToolButtonStyle(Qt::ToolButtonTextBesideIcon);
        bar->addWidget(button);
        return button;
    };
    m_pauseButton = makeButton(QStringLiteral("pauseButton"), tr("Pause"),
                               tr("Freeze the view; samples are still collected. Zooming or panning pauses too."));
    m_pauseButton->setIcon(style()->standardIcon(QStyle::SP_MediaPause));
    connect(m_pauseButton, &QToolButton::toggled, this, &PlotDisplay::setPaused);
    m_autoscaleButton = makeButton(QStringLiteral("autoscaleButton"), tr("Autoscale"),
                                   tr("Fit the value axes to the data shown while live"));
    m_autoscaleButton->setChecked(m_autoscale);
    connect(m_autoscaleButton, &QToolButton::toggled, this, &PlotDisplay::setAutoscale);
    m_legendButton = makeButton(QStringLiteral("legendButton"), tr("Legend"),
                                tr("Show the legend; click an entry to hide or show its curve"));
    m_legendButton->setChecked(m_legendVisible);
    connect(m_legendButton, &QToolButton::toggled, this, &PlotDisplay::setLegendVisible);
    bar->addStretch(1);
    m_statusLabel = new QLabel(this);
    m_statusLabel->setObjectName(QStringLiteral("plotDisplayStatus"));
    m_statusLabel->setToolTip(tr("Left drag: zoom · right click: back to the paused view · middle drag: pan"));
    bar->addWidget(m_statusLabel);
    return bar;
}

int PlotDisplay::addPlot(const QString& title)
{
    const int index = plotCount();
    auto entry = std::make_unique<Plot>();
    auto* plot = new QwtPlot(m_splitter);
    entry->plot = plot;
    plot->setObjectName(QStringLiteral("plot%1").arg(index));
    plot->setAutoFillBackground(true);
    plot->setPalette(plot_theme::darkPalette(plot->palette()));
    if (!title.isEmpty()) {
        QwtText text(title);
        text.setColor(plot_theme::kTextColor);
        QFont font = plot->font();
        font.setBold(true);
        text.setFont(font);
        plot->setTitle(text);
    }
    plot_theme::setDarkCanvas(*plot);
    if (auto* canvas = qobject_cast<QwtPlotCanvas*>(plot->canvas())) {
        canvas->setFrameStyle(QFrame::Box | QFrame::Plain);
        canvas->setLineWidth(kCanvasFrameWidth);
        canvas->setPalette(plot_theme::darkPalette(canvas->palette()));
        canvas->installEventFilter(this); // a click selects the plot (and, on the canvas, starts a zoom)
        // Paint within refresh(), so that its measured duration (and the rate adaptation) includes drawing.
        canvas->setPaintAttribute(QwtPlotCanvas::ImmediatePaint, true);
    }
    // Small enough for two plots in a display beside the tables on a 1366×768 screen; Qwt's own hint
    // (axes, title and legend at full length) would ask for 850 px.
    plot->setMinimumSize(240, 90);
    plot->setContentsMargins(0, 0, 6, 0); // the legend's frames clear the window's edge
    plot->installEventFilter(this); // a click on its title, axes or legend selects it without zooming

    setUtcTimeAxis(*plot, QwtAxis::XBottom);
    for (const QwtAxisId axis : {QwtAxis::YLeft, QwtAxis::YRight})
        spaceTicksToFit(*plot, axis);
    for (const QwtAxisId axis : {QwtAxis::XBottom, QwtAxis::YLeft, QwtAxis::YRight})
        plot->setAxisAutoScale(axis, false);
    plot->setAxisScale(QwtAxis::YLeft, 0.0, 1.0);
    plot->setAxisScale(QwtAxis::YRight, 0.0, 1.0);

    entry->zoomer = new TimeZoomer(plot->canvas(), [this] { setPaused(true); });
    connect(entry->zoomer, &QwtPlotZoomer::zoomed, this, [this, index] { userViewChanged(index); });
    auto* panner = new TimePanner(plot->canvas(), [this] { setPaused(true); });
    connect(panner, &QwtPanner::panned, this, [this, index] { userViewChanged(index); });

    m_splitter->addWidget(plot);
    m_plots.push_back(std::move(entry));
    if (m_legendVisible)
        insertLegend(*m_plots.back());
    // The time axis title once, under the bottom plot.
    for (const auto& p : m_plots)
        p->plot->setAxisTitle(QwtAxis::XBottom, QwtText());
    QwtText timeTitle(tr("Time (UTC)"));
    timeTitle.setColor(plot_theme::kTextColor);
    plot->setAxisTitle(QwtAxis::XBottom, timeTitle);
    markCurrentPlot();
    m_dirty = true;
    return index;
}

QColor PlotDisplay::selectionColor()
{
    return kSelectionColor;
}

void PlotDisplay::setCurrentPlot(int plotIndex)
{
    if (plotIndex < 0 || plotIndex >= plotCount() || plotIndex == m_currentPlot)
        return;
    m_currentPlot = plotIndex;
    markCurrentPlot();
    Q_EMIT currentPlotChanged(plotIndex);
}

// The selected plot's canvas frame in the selection colour, the others' in the grid's; one plot alone
// needs no mark. Every frame has the same width, so that selecting moves nothing.
void PlotDisplay::markCurrentPlot()
{
    for (int i = 0; i < plotCount(); ++i) {
        QWidget* canvas = m_plots[static_cast<std::size_t>(i)]->plot->canvas();
        const QColor frame = i == m_currentPlot && plotCount() > 1 ? kSelectionColor : plot_theme::kGridColor;
        QPalette palette = canvas->palette();
        if (palette.color(QPalette::WindowText) == frame)
            continue;
        palette.setColor(QPalette::WindowText, frame);
        palette.setColor(QPalette::Dark, frame); // the frame styles draw a plain box in one of these
        canvas->setPalette(palette);
        canvas->update();
    }
}

bool PlotDisplay::eventFilter(QObject* watched, QEvent* event)
{
    if (event->type() == QEvent::MouseButtonPress) {
        for (int i = 0; i < plotCount(); ++i) {
            const QwtPlot* plot = m_plots[static_cast<std::size_t>(i)]->plot;
            if (watched == plot || watched == plot->canvas())
                setCurrentPlot(i);
        }
    }
    return QWidget::eventFilter(watched, event); // zooming and panning go on
}

QwtPlot* PlotDisplay::plot(int plotIndex) const
{
    if (plotIndex < 0 || plotIndex >= plotCount())
        return nullptr;
    return m_plots[static_cast<std::size_t>(plotIndex)]->plot;
}

int PlotDisplay::addCurve(int plotIndex, const QString& name, const QColor& color, Axis axis,
                          const std::optional<mdb::NumericLimits>& limits, std::size_t historyCapacity)
{
    if (plotIndex < 0 || plotIndex >= plotCount())
        return -1;
    Plot& target = *m_plots[static_cast<std::size_t>(plotIndex)];
    auto curve = std::make_unique<Curve>();
    curve->history = std::make_unique<SampleHistory>(historyCapacity);
    curve->plotIndex = plotIndex;
    curve->axis = axis;
    curve->name = name;
    curve->item = new HideableCurve(name);
    curve->item->setPen(color, 1.0);
    curve->item->setYAxis(yAxisOf(axis));
    curve->item->setZ(20);
    // The decimated data changes with the x range: Qwt tells it through setRectOfInterest.
    curve->item->setItemInterest(QwtPlotItem::ScaleInterest, true);
    curve->data = new DecimatedSeries(*curve->history, target.plot->canvas());
    curve->item->setData(curve->data);
    curve->item->attach(target.plot);

    if (limits && limits->enabled) {
        const auto addLine = [&](double value, const QColor& lineColor, const QString& what, bool high) {
            auto* marker = new QwtPlotMarker(QStringLiteral("%1 %2").arg(name, what));
            marker->setLineStyle(QwtPlotMarker::HLine);
            marker->setYValue(value);
            marker->setYAxis(yAxisOf(axis));
            marker->setLinePen(lineColor, 1.0, Qt::DashLine);
            QwtText label(QStringLiteral("%1 %2 %3").arg(name, what).arg(value, 0, 'g', 6));
            label.setColor(lineColor);
            QFont font = target.plot->font();
            font.setPointSizeF(font.pointSizeF() * 0.85);
            label.setFont(font);
            marker->setLabel(label);
            // On the left: new data arrives on the right, where the operator looks.
            marker->setLabelAlignment(Qt::AlignLeft | (high ? Qt::AlignTop : Qt::AlignBottom));
            marker->setZ(15); // under the curves
            marker->attach(target.plot);
            curve->limitLines.push_back({marker, label, QStringLiteral("%1 %2").arg(what).arg(value, 0, 'g', 6), high});
        };
        addLine(limits->redHigh, kRedLimitColor, tr("red high"), true);
        if (limits->yellowHigh != limits->redHigh)
            addLine(limits->yellowHigh, kYellowLimitColor, tr("yellow high"), true);
        if (limits->yellowLow != limits->redLow)
            addLine(limits->yellowLow, kYellowLimitColor, tr("yellow low"), false);
        addLine(limits->redLow, kRedLimitColor, tr("red low"), false);
    }

    if (axis == Axis::Right)
        target.usesRightAxis = true;
    if (auto* legend = qobject_cast<QwtLegend*>(target.plot->legend())) {
        if (auto* label = qobject_cast<QwtLegendLabel*>(legend->legendWidget(target.plot->itemToInfo(curve->item))))
            label->setChecked(true);
    }
    m_curves.push_back(std::move(curve));
    m_dirty = true;
    return curveCount() - 1;
}

void PlotDisplay::setCurveNote(int curveId, const QString& note)
{
    if (curveId < 0 || curveId >= curveCount())
        return;
    Curve& c = *m_curves[static_cast<std::size_t>(curveId)];
    c.item->setTitle(note.isEmpty() ? c.name : tr("%1 (%2)").arg(c.name, note));
}

QwtPlotCurve* PlotDisplay::curve(int curveId) const
{
    if (curveId < 0 || curveId >= curveCount())
        return nullptr;
    return m_curves[static_cast<std::size_t>(curveId)]->item;
}

const SampleHistory& PlotDisplay::history(int curveId) const
{
    Q_ASSERT(curveId >= 0 && curveId < curveCount());
    return *m_curves[static_cast<std::size_t>(curveId)]->history;
}

std::span<const Sample> PlotDisplay::drawnPoints(int curveId) const
{
    if (curveId < 0 || curveId >= curveCount())
        return {};
    return m_curves[static_cast<std::size_t>(curveId)]->data->points();
}

std::vector<QwtPlotMarker*> PlotDisplay::limitLines(int curveId) const
{
    if (curveId < 0 || curveId >= curveCount())
        return {};
    std::vector<QwtPlotMarker*> markers;
    for (const LimitLine& line : m_curves[static_cast<std::size_t>(curveId)]->limitLines)
        markers.push_back(line.marker);
    return markers;
}

void PlotDisplay::appendSamples(int curveId, std::span<const Sample> samples)
{
    Q_ASSERT(curveId >= 0 && curveId < curveCount());
    if (curveId < 0 || curveId >= curveCount() || samples.empty())
        return;
    m_curves[static_cast<std::size_t>(curveId)]->history->append(samples);
    // A paused view does not move: new samples lie beyond it and wait for the return to live.
    if (!m_paused)
        m_dirty = true;
}

void PlotDisplay::clearHistory()
{
    for (const auto& curve : m_curves)
        curve->history->clear();
    m_dirty = true;
}

void PlotDisplay::setTimeWindow(double seconds)
{
    if (!(seconds > 0) || !std::isfinite(seconds))
        return;
    m_window = seconds;
    int index = m_windowCombo->findData(seconds);
    if (index < 0) {
        // A window that is not among the choices: listed in order, so that the operator sees it.
        index = 0;
        while (index < m_windowCombo->count() && m_windowCombo->itemData(index).toDouble() < seconds)
            ++index;
        m_windowCombo->insertItem(index, windowLabel(seconds), seconds);
    }
    {
        const QSignalBlocker blocker(m_windowCombo);
        m_windowCombo->setCurrentIndex(index);
    }
    if (m_paused) {
        // Keep the right edge of the frozen view; the new width starts a new zoom history.
        m_view.begin = m_view.end - seconds;
        applyTimeRange();
        for (const auto& p : m_plots)
            p->zoomer->setZoomBase(false);
    }
    m_dirty = true;
}

void PlotDisplay::setPaused(bool paused)
{
    if (paused == m_paused)
        return;
    m_paused = paused;
    // Paused: the frozen view is where a right click returns after zooming. Live: the zoom history goes.
    if (paused)
        applyTimeRange();
    for (const auto& p : m_plots)
        p->zoomer->setZoomBase(false);
    m_dirty = true;
    {
        const QSignalBlocker blocker(m_pauseButton);
        m_pauseButton->setChecked(paused);
    }
    updateStatus();
    Q_EMIT pausedChanged(paused);
}

void PlotDisplay::setAutoscale(bool on)
{
    m_autoscale = on;
    const QSignalBlocker blocker(m_autoscaleButton);
    m_autoscaleButton->setChecked(on);
    m_dirty = true;
}

void PlotDisplay::setLegendVisible(bool visible)
{
    if (visible == m_legendVisible)
        return;
    m_legendVisible = visible;
    {
        const QSignalBlocker blocker(m_legendButton);
        m_legendButton->setChecked(visible);
    }
    for (const auto& p : m_plots) {
        if (visible)
            insertLegend(*p);
        else
            p->plot->insertLegend(nullptr);
    }
    m_dirty = true;
}

void PlotDisplay::insertLegend(Plot& plot)
{
    auto* legend = new AlignedLegend;
    legend->setDefaultItemMode(QwtLegendData::Checkable);
    plot_theme::setDarkLegend(*legend);
    plot.plot->insertLegend(legend, QwtPlot::RightLegend);
    QwtPlot* qwtPlot = plot.plot;
    for (QwtPlotItem* item : qwtPlot->itemList(QwtPlotItem::Rtti_PlotCurve)) {
        if (auto* label = qobject_cast<QwtLegendLabel*>(legend->legendWidget(qwtPlot->itemToInfo(item))))
            label->setChecked(item->isVisible());
    }
    connect(legend, &QwtLegend::checked, this, [this, qwtPlot](const QVariant& info, bool on, int) {
        if (QwtPlotItem* item = qwtPlot->infoToItem(info)) {
            if (auto* curve = dynamic_cast<HideableCurve*>(item))
                curve->setShown(on);
            else
                item->setVisible(on);
            m_dirty = true;
            refresh();
        }
    });
}

void PlotDisplay::setRefreshRate(int hz)
{
    m_baseIntervalMs = std::clamp(1000 / std::max(hz, 1), 1, kMaxRefreshIntervalMs);
    m_refreshTimer->setInterval(m_baseIntervalMs);
}

bool PlotDisplay::isRefreshActive() const
{
    return m_refreshTimer->isActive();
}

void PlotDisplay::setTimeRange(double begin, double end)
{
    if (!(begin < end) || !std::isfinite(begin) || !std::isfinite(end))
        return;
    setPaused(true);
    m_view = {begin, end};
    applyTimeRange();
    m_dirty = true;
}

void PlotDisplay::showEvent(QShowEvent* event)
{
    QWidget::showEvent(event);
    m_dirty = true;
    m_refreshTimer->start();
    refresh();
}

void PlotDisplay::hideEvent(QHideEvent* event)
{
    QWidget::hideEvent(event);
    // A hidden display costs nothing: samples keep arriving in the histories, nothing is drawn.
    m_refreshTimer->stop();
    m_nextPlot = -1;
}

void PlotDisplay::updateLiveRange()
{
    double newest = -std::numeric_limits<double>::infinity();
    for (const auto& curve : m_curves) {
        if (!curve->history->empty())
            newest = std::max(newest, curve->history->newest().time);
    }
    // Without data, the window ends now, so that the time axis reads sensibly from the start.
    if (!std::isfinite(newest))
        newest = static_cast<double>(clock::realtimeNs()) * 1e-9;
    m_view = {newest - m_window, newest};
}

void PlotDisplay::applyTimeRange()
{
    for (const auto& p : m_plots)
        p->plot->setAxisScale(QwtAxis::XBottom, m_view.begin * kMsPerSecond, m_view.end * kMsPerSecond);
}

void PlotDisplay::userViewChanged(int plotIndex)
{
    // A zoom or pan of one plot moves the time axis of all of them; each keeps its own value axes.
    const QwtInterval x = m_plots[static_cast<std::size_t>(plotIndex)]->plot->axisInterval(QwtAxis::XBottom);
    m_view = {x.minValue() / kMsPerSecond, x.maxValue() / kMsPerSecond};
    m_dirty = true;
    refresh();
}

bool PlotDisplay::refresh()
{
    if (m_nextPlot >= 0) {
        // A redraw in turns under way is overtaken by this one, which draws what it had not yet drawn.
        m_nextPlot = -1;
        m_dirty = true;
    }
    QElapsedTimer clock;
    clock.start();
    if (!beginRedraw())
        return false;
    for (int i = 0; i < plotCount(); ++i)
        prepare(i);
    alignAxes();
    placeLimitLabels();
    for (int i = 0; i < plotCount(); ++i)
        replot(i);
    m_redrawNs = clock.nsecsElapsed();
    endRedraw();
    return true;
}

void PlotDisplay::refreshInTurns()
{
    // One plot per turn of the event loop (issue 14): drawing every plot of a large display in one turn
    // was the longest thing the GUI thread did; between the plots other events get their turn.
    if (m_nextPlot >= 0)
        return; // the previous redraw is still under way
    QElapsedTimer clock;
    clock.start();
    if (!beginRedraw())
        return;
    m_redrawNs = clock.nsecsElapsed();
    m_nextPlot = 0;
    drawNextPlot();
}

void PlotDisplay::drawNextPlot()
{
    if (m_nextPlot < 0)
        return; // overtaken by refresh(), or hidden
    QElapsedTimer clock;
    clock.start();
    if (m_nextPlot < plotCount()) {
        prepare(m_nextPlot);
        alignAxes();
        placeLimitLabels();
        replot(m_nextPlot);
        ++m_nextPlot;
    }
    m_redrawNs += clock.nsecsElapsed();
    if (m_nextPlot < plotCount()) {
        QMetaObject::invokeMethod(this, &PlotDisplay::drawNextPlot, Qt::QueuedConnection);
        return;
    }
    m_nextPlot = -1;
    endRedraw();
}

bool PlotDisplay::beginRedraw()
{
    bool resized = false;
    for (const auto& p : m_plots)
        resized = resized || p->plot->canvas()->width() != p->drawnCanvasWidth;
    if (!m_dirty && !resized)
        return false;
    if (!m_paused)
        updateLiveRange();
    applyTimeRange();
    m_dirty = false; // what changes from now on is for the next redraw
    return true;
}

void PlotDisplay::prepare(int plotIndex)
{
    const QWidget* canvas = m_plots[static_cast<std::size_t>(plotIndex)]->plot->canvas();
    for (const auto& curve : m_curves) {
        // A hidden curve costs nothing; Qwt has it decimated (setRectOfInterest) when it is shown again.
        if (curve->plotIndex != plotIndex || !curve->item->isVisible())
            continue;
        curve->data->decimate(m_view.begin * kMsPerSecond, m_view.end * kMsPerSecond, std::max(canvas->width(), 1));
    }
    if (m_autoscale && !m_paused)
        autoscaleAxes(plotIndex);
}

void PlotDisplay::replot(int plotIndex)
{
    const auto& p = m_plots[static_cast<std::size_t>(plotIndex)];
    p->drawnCanvasWidth = p->plot->canvas()->width();
    p->plot->replot();
}

void PlotDisplay::endRedraw()
{
    m_lastRefreshMs = static_cast<double>(m_redrawNs) / 1e6;
    adaptRefreshInterval();
}

void PlotDisplay::autoscaleAxes(int plotIndex)
{
    QwtPlot* plot = m_plots[static_cast<std::size_t>(plotIndex)]->plot;
    for (const Axis axis : {Axis::Left, Axis::Right}) {
        double low = std::numeric_limits<double>::infinity();
        double high = -std::numeric_limits<double>::infinity();
        for (const auto& curve : m_curves) {
            if (curve->plotIndex != plotIndex || curve->axis != axis || !curve->item->isVisible()
                || !curve->data->hasValues())
                continue;
            low = std::min(low, curve->data->minValue());
            high = std::max(high, curve->data->maxValue());
        }
        if (!(low <= high))
            continue;
        // 5 % headroom; a flat line gets a band around it.
        const double span = high - low;
        const double pad = span > 0 ? span * 0.05 : (high != 0 ? std::abs(high) * 0.05 : 0.5);
        const double targetLow = low - pad;
        const double targetHigh = high + pad;
        // Hysteresis: keep the current scale while it holds the data and the data fills half of it.
        const QwtInterval current = plot->axisInterval(yAxisOf(axis));
        if (current.minValue() <= low && high <= current.maxValue() && targetHigh - targetLow >= 0.5 * current.width())
            continue;
        plot->setAxisScale(yAxisOf(axis), targetLow, targetHigh);
    }
}

void PlotDisplay::alignAxes()
{
    // A plot shows its right axis when one of its curves uses it. When another plot of the stack has one, it
    // gets an empty right axis of the same width, so that all canvases (and time axes) line up; the same
    // for the left axes and the legends.
    const bool anyRight = std::any_of(m_plots.begin(), m_plots.end(), [](const auto& p) { return p->usesRightAxis; });
    for (const auto& p : m_plots) {
        p->plot->setAxisVisible(QwtAxis::YRight, anyRight);
        if (!anyRight)
            continue;
        QwtScaleDraw* draw = p->plot->axisScaleDraw(QwtAxis::YRight);
        if (draw->hasComponent(QwtAbstractScaleDraw::Labels) == p->usesRightAxis)
            continue;
        for (const auto component :
             {QwtAbstractScaleDraw::Backbone, QwtAbstractScaleDraw::Ticks, QwtAbstractScaleDraw::Labels})
            draw->enableComponent(component, p->usesRightAxis);
        p->plot->updateLayout();
    }
    if (m_plots.size() < 2)
        return;
    if (m_legendVisible) {
        int width = 0;
        for (const auto& p : m_plots) {
            if (const auto* legend = dynamic_cast<const AlignedLegend*>(p->plot->legend()))
                width = std::max(width, legend->naturalWidth());
        }
        for (const auto& p : m_plots) {
            auto* legend = dynamic_cast<AlignedLegend*>(p->plot->legend());
            if (legend && legend->alignedWidth() != width) {
                legend->setAlignedWidth(width);
                p->plot->updateLayout();
            }
        }
    }
    for (const auto& p : m_plots)
        p->plot->updateAxes();
    for (const QwtAxisId axis : {QwtAxis::YLeft, QwtAxis::YRight}) {
        double extent = 0;
        for (const auto& p : m_plots) {
            QwtScaleWidget* widget = p->plot->axisWidget(axis);
            QwtScaleDraw* draw = widget->scaleDraw();
            const double current = draw->minimumExtent();
            draw->setMinimumExtent(0);
            extent = std::max(extent, draw->extent(widget->font()));
            draw->setMinimumExtent(current);
        }
        for (const auto& p : m_plots) {
            QwtScaleDraw* draw = p->plot->axisWidget(axis)->scaleDraw();
            if (draw->minimumExtent() != extent) {
                draw->setMinimumExtent(extent);
                p->plot->updateLayout();
            }
        }
    }
}

// A limit's label goes above a high limit's line and below a low one's, inside the canvas's frame and
// clear of the labels placed before it: on the other side of its line when its own side is taken or
// outside the frame (a line near an edge, as autoscale leaves it), without the curve's name when the
// whole label is wider than the canvas, else not at all. Lines of several curves drawn on the same row
// with the same limit (three rates limited alike) share the first one's label: "(+2)". The rectangles
// are the ones QwtPlotMarker draws in (limitLabelRect), so that what is checked is what is seen.
void PlotDisplay::placeLimitLabels()
{
    // A label to place: the first line of a row, and how many other curves' lines share it.
    struct Row {
        LimitLine* line;
        double y;
        int sharing;
    };
    for (std::size_t plotIndex = 0; plotIndex < m_plots.size(); ++plotIndex) {
        const QwtPlot* plot = m_plots[plotIndex]->plot;
        const QRectF inside = plot->canvas()->contentsRect();
        std::vector<Row> rows;
        std::vector<LimitLine*> hidden;
        for (const auto& curve : m_curves) {
            if (static_cast<std::size_t>(curve->plotIndex) != plotIndex)
                continue;
            const QwtScaleMap map = plot->canvasMap(yAxisOf(curve->axis));
            for (LimitLine& line : curve->limitLines) {
                const double y = map.transform(line.marker->yValue());
                const auto same = std::find_if(rows.begin(), rows.end(), [&](const Row& r) {
                    return std::abs(r.y - y) < 1 && r.line->marker->yValue() == line.marker->yValue()
                        && r.line->high == line.high;
                });
                if (same != rows.end()) {
                    ++same->sharing;
                    hidden.push_back(&line);
                } else {
                    rows.push_back({&line, y, 0});
                }
            }
        }
        std::vector<QRectF> placed;
        placed.reserve(rows.size());
        const auto fits = [&](const QRectF& r) {
            return r.left() >= inside.left() && r.right() <= inside.right() && r.top() >= inside.top()
                && r.bottom() <= inside.bottom()
                // A pixel or two between labels, so that two of them never read as one.
                && std::none_of(placed.begin(), placed.end(),
                                [&](const QRectF& p) { return p.adjusted(-2, -2, 2, 2).intersects(r); });
        };
        for (const Row& row : rows) {
            LimitLine& line = *row.line;
            const QString suffix = row.sharing > 0 ? QStringLiteral(" (+%1)").arg(row.sharing) : QString();
            bool done = false;
            for (const QString& text : {line.label.text() + suffix, line.shortText + suffix}) {
                QwtText label = line.label;
                label.setText(text);
                for (const bool above : {line.high, !line.high}) {
                    const QRectF rect = limitLabelRect(*line.marker, label, inside, row.y, above);
                    if (done || !fits(rect))
                        continue;
                    const Qt::Alignment wanted = Qt::AlignLeft | (above ? Qt::AlignTop : Qt::AlignBottom);
                    if (line.marker->labelAlignment() != wanted)
                        line.marker->setLabelAlignment(wanted);
                    if (line.marker->label().text() != text)
                        line.marker->setLabel(label);
                    placed.push_back(rect);
                    done = true;
                }
            }
            if (!done)
                hidden.push_back(&line);
        }
        for (LimitLine* line : hidden) {
            if (!line->marker->label().isEmpty())
                line->marker->setLabel(QwtText());
        }
    }
}

QRectF PlotDisplay::limitLabelRect(const QwtPlotMarker& marker, const QwtText& label, const QRectF& canvas, double y,
                                   bool above)
{
    // As QwtPlotMarker::drawLabel places a horizontal line's label aligned left: the line's half width
    // (at least 1) plus the marker's spacing away from the canvas's left edge and from the line.
    const double offset = std::max(marker.linePen().width() / 2, 1) + marker.spacing();
    const QSizeF size = label.textSize();
    const double top = above ? y - offset - size.height() : y + offset;
    return {canvas.left() + offset, top, size.width(), size.height()};
}

void PlotDisplay::updateStatus()
{
    if (m_paused) {
        m_statusLabel->setText(tr("Paused — still collecting"));
        m_statusLabel->setStyleSheet(QStringLiteral("color: #b26a00; font-weight: bold;"));
    } else {
        m_statusLabel->setText(tr("Live"));
        m_statusLabel->setStyleSheet(QStringLiteral("color: #2e7d32; font-weight: bold;"));
    }
}

void PlotDisplay::adaptRefreshInterval()
{
    // Leave the event loop at least half of its time: a redraw of d ms waits at least 2d ms for the next.
    const int wanted = std::clamp(static_cast<int>(std::ceil(2 * m_lastRefreshMs)), m_baseIntervalMs, kMaxRefreshIntervalMs);
    if (m_refreshTimer->interval() != wanted)
        m_refreshTimer->setInterval(wanted);
}

} // namespace telestation::ui
