// The plot display: strip charts of parameters against time. One or more Qwt plots stacked top to bottom
// share the time axis; each holds curves with their own colour, y axis (left/right) and limit lines.
// Every curve keeps a bounded SampleHistory and is drawn through min/max decimation per pixel column, so
// a million points per curve redraw at frame rate.
//
// The display does not touch the engine: its owner feeds it with appendSamples() (e.g. from an
// api::ParameterSubscription polled on a timer). Repaints are coalesced by a timer (30 Hz by default)
// that runs only while the display is in sight, and happen only when something changed; the timer's
// redraw takes one plot per turn of the event loop, so that a display of many plots never holds the GUI
// thread for all of them at once.
//
// Operator controls: time window (1 s .. 12 h), pause (the view freezes; samples are still collected),
// zoom (left drag; right click returns to the paused view), pan (middle drag), autoscale, legend (click
// an entry to hide/show its curve; a hidden curve's entry is greyed and struck out). Zooming or panning
// pauses the display; un-pausing returns to live. A click on a plot selects it (currentPlot(): where its
// owner puts the curves the operator types); with more than one plot, the selected one's frame is
// drawn in the selection colour.
#pragma once

#include "core/mdb/model.hpp"
#include "ui/plotting/sample_history.hpp"

#include <QColor>
#include <QRectF>
#include <QString>
#include <QWidget>

#include <memory>
#include <optional>
#include <span>
#include <vector>

class QComboBox;
class QLabel;
class QLayout;
class QSplitter;
class QToolButton;
class QwtPlot;
class QwtPlotCurve;
class QwtPlotMarker;
class QwtText;

namespace telestation::ui {

class PhasedTimer;

class PlotDisplay : public QWidget {
    Q_OBJECT

public:
    enum class Axis { Left, Right };
    static constexpr int kDefaultRefreshHz = 30;
    static constexpr double kDefaultTimeWindowSeconds = 60;

    // A display with one (empty) plot.
    explicit PlotDisplay(QWidget* parent = nullptr);
    ~PlotDisplay() override;

    // Adds a plot below the others; returns its index.
    int addPlot(const QString& title = {});
    [[nodiscard]] int plotCount() const noexcept { return static_cast<int>(m_plots.size()); }
    [[nodiscard]] QwtPlot* plot(int plotIndex) const;
    // The selected plot (0 at first); selecting one marks it when there are several.
    [[nodiscard]] int currentPlot() const noexcept { return m_currentPlot; }
    void setCurrentPlot(int plotIndex);
    [[nodiscard]] static QColor selectionColor();

    // Adds a curve to plot `plotIndex` and returns its id for appendSamples(), or -1 when there is no
    // such plot. `limits` (when given and enabled) are drawn as horizontal lines on the curve's axis:
    // red and yellow, dashed, labelled with the curve's name.
    int addCurve(int plotIndex, const QString& name, const QColor& color, Axis axis = Axis::Left,
                 const std::optional<mdb::NumericLimits>& limits = std::nullopt,
                 std::size_t historyCapacity = SampleHistory::kDefaultCapacity);
    [[nodiscard]] int curveCount() const noexcept { return static_cast<int>(m_curves.size()); }
    [[nodiscard]] QwtPlotCurve* curve(int curveId) const;
    // A note after the curve's name in the legend ("" = none): why it gets no samples.
    void setCurveNote(int curveId, const QString& note);
    // Precondition: 0 <= curveId < curveCount().
    [[nodiscard]] const SampleHistory& history(int curveId) const;
    // The points drawn at the last redraw (after decimation); empty for an unknown curve.
    [[nodiscard]] std::span<const Sample> drawnPoints(int curveId) const;
    [[nodiscard]] std::vector<QwtPlotMarker*> limitLines(int curveId) const;
    // Where `marker` (a horizontal limit line, its label aligned left) draws `label` on a canvas whose
    // contents are `canvas`, its line at `y` (canvas pixels), the label above or below the line.
    [[nodiscard]] static QRectF limitLabelRect(const QwtPlotMarker& marker, const QwtText& label, const QRectF& canvas,
                                               double y, bool above);

    // Appends samples (time order; see SampleHistory::append) to a curve's history. Cheap: the redraw
    // happens on the next timer tick, and not at all while paused.
    void appendSamples(int curveId, std::span<const Sample> samples);
    // Forgets the history of every curve.
    void clearHistory();

    // The span of time shown while live, ending at the newest sample of any curve.
    void setTimeWindow(double seconds);
    [[nodiscard]] double timeWindow() const noexcept { return m_window; }
    void setPaused(bool paused);
    [[nodiscard]] bool isPaused() const noexcept { return m_paused; }
    // While live, fits each y axis to the data shown (with hysteresis, so that the axis does not jitter).
    void setAutoscale(bool on);
    [[nodiscard]] bool autoscale() const noexcept { return m_autoscale; }
    void setLegendVisible(bool visible);
    [[nodiscard]] bool isLegendVisible() const noexcept { return m_legendVisible; }
    // The highest repaint rate; a redraw that takes long lowers it so that the event loop stays responsive.
    void setRefreshRate(int hz);
    [[nodiscard]] bool isRefreshActive() const;

    struct TimeRange {
        double begin = 0; // seconds, as Sample::time
        double end = 0;
    };
    // What the time axis shows (or will show at the next redraw).
    [[nodiscard]] TimeRange timeRange() const noexcept { return m_view; }
    // Shows [begin, end] on every plot and pauses (a programmatic zoom).
    void setTimeRange(double begin, double end);

    // Redraws every plot now if anything changed since the last redraw; true if it redrew. The timer
    // redraws the same in turns: one plot per turn of the event loop (refreshInTurns).
    bool refresh();
    // Duration of the last redraw (all its plots, not the turns between), ms.
    [[nodiscard]] double lastRefreshMs() const noexcept { return m_lastRefreshMs; }

Q_SIGNALS:
    void pausedChanged(bool paused);
    void currentPlotChanged(int plotIndex);

protected:
    bool eventFilter(QObject* watched, QEvent* event) override;
    void showEvent(QShowEvent* event) override;
    void hideEvent(QHideEvent* event) override;

private:
    struct Plot;
    struct Curve;

    QLayout* createToolBar();
    void updateLiveRange();
    void applyTimeRange();
    void autoscaleAxes(int plotIndex);
    void refreshInTurns();
    void drawNextPlot();
    bool beginRedraw();
    void prepare(int plotIndex);
    void replot(int plotIndex);
    void endRedraw();
    void alignAxes();
    void placeLimitLabels();
    void markCurrentPlot();
    void insertLegend(Plot& plot);
    void userViewChanged(int plotIndex);
    void updateStatus();
    void adaptRefreshInterval();

    std::vector<std::unique_ptr<Plot>> m_plots;
    std::vector<std::unique_ptr<Curve>> m_curves;

    QSplitter* m_splitter = nullptr;
    QComboBox* m_windowCombo = nullptr;
    QToolButton* m_pauseButton = nullptr;
    QToolButton* m_autoscaleButton = nullptr;
    QToolButton* m_legendButton = nullptr;
    QLabel* m_statusLabel = nullptr;
    PhasedTimer* m_refreshTimer = nullptr;

    TimeRange m_view;
    double m_window = kDefaultTimeWindowSeconds;
    int m_baseIntervalMs = 1000 / kDefaultRefreshHz;
    bool m_paused = false;
    bool m_autoscale = true;
    bool m_legendVisible = true;
    bool m_dirty = true;
    double m_lastRefreshMs = 0;
    int m_currentPlot = 0;
    int m_nextPlot = -1;      // the plot the redraw in turns draws next; -1: none under way
    qint64 m_redrawNs = 0;    // the redraw's time so far
};

} // namespace telestation::ui
