// The plot display: min/max decimation against a brute-force reference (every column keeps its first,
// minimum, maximum and last sample), the bounded sample history (wrap-around, order, rejects), and the
// widget (curves drawn on the canvas, pause freezing the time axis while samples keep arriving, zoom by
// mouse pausing and moving every plot, the time window combo, the legend, limit lines, the repaint timer
// stopped while hidden, the timer's redraw one plot per turn). Prints (does not assert) the redraw time of 4 curves x 1 million points.
#include "ui/displays/plot_display.hpp"
#include "ui/plotting/decimation.hpp"
#include "ui/plotting/sample_history.hpp"

#include <QComboBox>
#include <QElapsedTimer>
#include <QImage>
#include <QLabel>
#include <QPen>
#include <QRandomGenerator>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTabWidget>
#include <QToolButton>
#include <QtTest>

#include <qwt_legend.h>
#include <qwt_legend_label.h>
#include <qwt_plot.h>
#include <qwt_plot_canvas.h>
#include <qwt_plot_curve.h>
#include <qwt_plot_marker.h>
#include <qwt_scale_div.h>
#include <qwt_scale_draw.h>
#include <qwt_scale_map.h>
#include <qwt_scale_widget.h>
#include <qwt_text.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <numbers>
#include <optional>
#include <set>
#include <tuple>
#include <vector>

using namespace telestation;
using ui::PlotDisplay;
using ui::Sample;
using ui::SampleHistory;

namespace {

// 2024-05-01 12:00:00 UTC: times in the widget tests look like real receive times.
constexpr double kEpoch = 1714564800.0;

// The reference: linear scans, a map of columns and a set of indexes; shares only columnOf() (the
// definition of a column) with the implementation.
std::vector<Sample> bruteForce(const SampleHistory& history, double t0, double t1, int columns)
{
    std::vector<Sample> out;
    if (columns <= 0 || !(t0 < t1) || history.empty())
        return out;
    std::optional<std::size_t> before;
    std::optional<std::size_t> after;
    std::map<int, std::vector<std::size_t>> byColumn;
    for (std::size_t i = 0; i < history.size(); ++i) {
        const double t = history.at(i).time;
        if (t < t0)
            before = i;
        else if (t > t1)
            after = after.value_or(i);
        else
            byColumn[ui::columnOf(t, t0, t1, columns)].push_back(i);
    }
    if (before)
        out.push_back(history.at(*before));
    for (const auto& [column, indexes] : byColumn) {
        std::size_t minIndex = indexes.front();
        std::size_t maxIndex = indexes.front();
        for (const std::size_t i : indexes) {
            if (history.at(i).value < history.at(minIndex).value)
                minIndex = i;
            if (history.at(i).value > history.at(maxIndex).value)
                maxIndex = i;
        }
        for (const std::size_t i : std::set<std::size_t>{indexes.front(), minIndex, maxIndex, indexes.back()})
            out.push_back(history.at(i));
    }
    if (after)
        out.push_back(history.at(*after));
    return out;
}

// The property itself, stated without reference to tie-breaking: in every column that holds samples, the
// decimated points include the column's minimum, maximum, first and last value, lie in the column, and
// come in time order; columns without samples produce no point.
void verifyColumnsKeepExtremes(const SampleHistory& history, double t0, double t1, int columns,
                               const std::vector<Sample>& out)
{
    struct Column {
        double min = INFINITY;
        double max = -INFINITY;
        std::optional<Sample> first;
        Sample last;
        std::vector<Sample> drawn;
    };
    std::map<int, Column> truth;
    for (std::size_t i = 0; i < history.size(); ++i) {
        const Sample& s = history.at(i);
        if (s.time < t0 || s.time > t1)
            continue;
        Column& c = truth[ui::columnOf(s.time, t0, t1, columns)];
        c.min = std::min(c.min, s.value);
        c.max = std::max(c.max, s.value);
        if (!c.first)
            c.first = s;
        c.last = s;
    }
    for (std::size_t k = 1; k < out.size(); ++k)
        QVERIFY2(out[k - 1].time <= out[k].time, "decimated points out of time order");
    for (const Sample& p : out) {
        if (p.time < t0 || p.time > t1)
            continue;
        const auto it = truth.find(ui::columnOf(p.time, t0, t1, columns));
        QVERIFY2(it != truth.end(), "a point in a column without samples");
        it->second.drawn.push_back(p);
    }
    for (const auto& [column, c] : truth) {
        QVERIFY2(!c.drawn.empty() && c.drawn.size() <= 4, qPrintable(QStringLiteral("column %1").arg(column)));
        const auto [lo, hi] = std::minmax_element(c.drawn.begin(), c.drawn.end(),
                                                  [](const Sample& a, const Sample& b) { return a.value < b.value; });
        QCOMPARE(lo->value, c.min);
        QCOMPARE(hi->value, c.max);
        QCOMPARE(c.drawn.front(), *c.first);
        QCOMPARE(c.drawn.back(), c.last);
    }
}

// A random walk with spikes, at times with random gaps, long pauses and repeated times.
std::vector<Sample> randomSamples(quint32 seed, std::size_t count, double start)
{
    QRandomGenerator random(seed);
    std::vector<Sample> samples;
    samples.reserve(count);
    double t = start;
    double v = 0;
    for (std::size_t i = 0; i < count; ++i) {
        const double roll = random.generateDouble();
        if (roll < 0.05)
            t += 0; // same time as the previous sample
        else if (roll < 0.06)
            t += random.bounded(50.0); // a pause in the data
        else
            t += random.bounded(0.02);
        v += random.generateDouble() - 0.5;
        const double spike = random.generateDouble() < 0.001 ? (random.generateDouble() - 0.5) * 1000 : 0;
        samples.push_back({t, v + spike});
    }
    return samples;
}

// Appends in batches of varied sizes, as the owner of a display does.
void appendInBatches(SampleHistory& history, const std::vector<Sample>& samples, quint32 seed)
{
    QRandomGenerator random(seed);
    std::size_t pos = 0;
    while (pos < samples.size()) {
        const std::size_t n = std::min<std::size_t>(samples.size() - pos, 1 + random.bounded(5000u));
        history.append(std::span<const Sample>(samples).subspan(pos, n));
        pos += n;
    }
}

bool closeTo(QRgb pixel, const QColor& color, int tolerance = 12)
{
    return std::abs(qRed(pixel) - color.red()) <= tolerance && std::abs(qGreen(pixel) - color.green()) <= tolerance
           && std::abs(qBlue(pixel) - color.blue()) <= tolerance;
}

// The fraction of the canvas's pixel columns (inside its frame) where `color` appears.
double columnsShowing(QWidget* canvas, const QColor& color)
{
    const QImage image = canvas->grab().toImage().convertToFormat(QImage::Format_RGB32);
    int showing = 0;
    int total = 0;
    for (int x = 3; x < image.width() - 3; ++x) {
        ++total;
        for (int y = 1; y < image.height() - 1; ++y) {
            if (closeTo(image.pixel(x, y), color)) {
                ++showing;
                break;
            }
        }
    }
    return total > 0 ? static_cast<double>(showing) / total : 0.0;
}

// Red at ±5.5, yellow at ±4: a sine of amplitude 6 crosses them all.
mdb::NumericLimits temperatureLimits()
{
    mdb::NumericLimits limits;
    limits.redLow = -5.5;
    limits.yellowLow = -4;
    limits.yellowHigh = 4;
    limits.redHigh = 5.5;
    return limits;
}

std::vector<Sample> sine(std::size_t count, double start, double step, double amplitude, double period)
{
    std::vector<Sample> samples(count);
    for (std::size_t i = 0; i < count; ++i) {
        const double t = start + static_cast<double>(i) * step;
        samples[i] = {t, amplitude * std::sin(2 * std::numbers::pi * (t - start) / period)};
    }
    return samples;
}

const QColor kBlue(0x4f, 0xc3, 0xf7);
const QColor kOrange(0xff, 0xb7, 0x4d);
const QColor kGreen(0x81, 0xc7, 0x84);
const QColor kPink(0xf0, 0x62, 0x92);
const QColor kRedLimit(0xef, 0x53, 0x50); // the display's red limit lines

// Where QwtPlotMarker draws a horizontal line's label aligned left, in canvas pixels: its own reading of
// Qwt's placement (the line's half width, at least 1, plus the marker's spacing from the canvas's left
// edge and from the line), not the display's.
QRectF drawnLabelRect(const QwtPlot& plot, const QwtPlotMarker& line)
{
    const QwtText label = line.label();
    const QSizeF size = label.textSize(plot.canvas()->font());
    const double offset = std::max(line.linePen().width() / 2, 1) + line.spacing();
    const double y = plot.canvasMap(line.yAxis()).transform(line.yValue());
    const double left = plot.canvas()->contentsRect().left() + offset;
    const bool above = (line.labelAlignment() & Qt::AlignTop) != 0;
    return {left, above ? y - offset - size.height() : y + offset, size.width(), size.height()};
}

// Every shown limit label of the display lies inside its canvas's frame and clear of the others; returns
// how many are shown, or -1 (with a warning saying which) when one is not.
int checkLimitLabels(const PlotDisplay& display, const QString& context)
{
    int shown = 0;
    for (int p = 0; p < display.plotCount(); ++p) {
        const QwtPlot& plot = *display.plot(p);
        const QRectF inside = plot.canvas()->contentsRect();
        std::vector<std::pair<QRectF, QString>> placed;
        for (int c = 0; c < display.curveCount(); ++c) {
            for (const QwtPlotMarker* line : display.limitLines(c)) {
                if (line->label().isEmpty() || line->plot() != &plot)
                    continue;
                const QRectF rect = drawnLabelRect(plot, *line);
                const QString text = line->label().text();
                if (!(rect.left() >= inside.left() && rect.right() <= inside.right() && rect.top() >= inside.top()
                      && rect.bottom() <= inside.bottom())) {
                    qWarning("%s: '%s' at (%g,%g %gx%g) is not inside the canvas's frame (%g,%g %gx%g)",
                             qPrintable(context), qPrintable(text), rect.x(), rect.y(), rect.width(), rect.height(),
                             inside.x(), inside.y(), inside.width(), inside.height());
                    return -1;
                }
                for (const auto& [other, otherText] : placed) {
                    if (other.adjusted(-1, -1, 1, 1).intersects(rect)) { // touching labels read as one
                        qWarning("%s: '%s' covers '%s'", qPrintable(context), qPrintable(text), qPrintable(otherText));
                        return -1;
                    }
                }
                placed.emplace_back(rect, text);
                ++shown;
            }
        }
    }
    return shown;
}

// The time axis's labels along the bottom of `plot`: each one's centre and width, in canvas pixels.
std::vector<std::pair<double, double>> timeLabels(const QwtPlot& plot)
{
    const QwtScaleDiv& division = plot.axisScaleDiv(QwtAxis::XBottom);
    const QwtScaleMap map = plot.canvasMap(QwtAxis::XBottom);
    const QwtScaleDraw* draw = plot.axisScaleDraw(QwtAxis::XBottom);
    const QFont font = plot.axisWidget(QwtAxis::XBottom)->font();
    std::vector<std::pair<double, double>> labels;
    for (const double tick : division.ticks(QwtScaleDiv::MajorTick)) {
        if (!division.contains(tick))
            continue;
        labels.emplace_back(map.transform(tick), draw->labelSize(font, tick).width());
    }
    return labels;
}

} // namespace

class TestPlotDisplay : public QObject {
    Q_OBJECT

private slots:
    void initTestCase() { QStandardPaths::setTestModeEnabled(true); }

    // --- the history -------------------------------------------------------------------------------

    void historyWrapKeepsNewestInOrder()
    {
        SampleHistory history(8);
        QVERIFY(history.empty());
        int next = 0;
        for (const int batch : {3, 5, 7, 6}) {
            std::vector<Sample> samples;
            for (int k = 0; k < batch; ++k, ++next)
                samples.push_back({double(next), double(next) * 10});
            history.append(samples);
        }
        QCOMPARE(history.size(), std::size_t{8});
        QCOMPARE(history.capacity(), std::size_t{8});
        QCOMPARE(history.appended(), std::uint64_t{21});
        QCOMPARE(history.rejected(), std::uint64_t{0});
        for (std::size_t i = 0; i < history.size(); ++i)
            QCOMPARE(history.at(i), (Sample{double(13 + i), double(13 + i) * 10}));
        QCOMPARE(history.oldest().time, 13.0);
        QCOMPARE(history.newest().time, 20.0);
        // The two pieces, in order, are the samples kept.
        const auto segments = history.segments();
        std::vector<Sample> joined;
        for (const auto& segment : segments) {
            QCOMPARE(segment.times.size(), segment.values.size());
            for (std::size_t i = 0; i < segment.times.size(); ++i)
                joined.push_back({segment.times[i], segment.values[i]});
        }
        QCOMPARE(joined.size(), history.size());
        for (std::size_t i = 0; i < joined.size(); ++i)
            QCOMPARE(joined[i], history.at(i));
        QVERIFY(!segments[1].times.empty()); // it did wrap

        // Many wraps, batches larger than the capacity among them.
        SampleHistory big(1000);
        std::vector<Sample> all;
        for (int batch = 0; batch < 10; ++batch) {
            std::vector<Sample> samples;
            for (int k = 0; k < 777 + batch * 150; ++k)
                samples.push_back({double(all.size() + samples.size()), double(k)});
            all.insert(all.end(), samples.begin(), samples.end());
            big.append(samples);
            const std::size_t kept = std::min<std::size_t>(all.size(), 1000);
            QCOMPARE(big.size(), kept);
            for (std::size_t i = 0; i < kept; ++i)
                QCOMPARE(big.at(i), all[all.size() - kept + i]);
        }

        const auto revision = big.revision();
        big.clear();
        QVERIFY(big.empty());
        QVERIFY(big.revision() != revision);
        big.append(Sample{1, 2});
        QCOMPARE(big.size(), std::size_t{1});
        QCOMPARE(big.oldest(), (Sample{1, 2}));
    }

    void historyRejectsOutOfOrderAndNonFinite()
    {
        SampleHistory history(16);
        const std::vector<Sample> samples{{1, 1},        {2, 2},        {1.5, 3} /* older than the newest */,
                                          {NAN, 4},      {3, INFINITY}, {2, 5} /* same time: kept */,
                                          {-INFINITY, 6}, {4, -1}};
        history.append(samples);
        QCOMPARE(history.size(), std::size_t{4});
        QCOMPARE(history.rejected(), std::uint64_t{4});
        QCOMPARE(history.appended(), std::uint64_t{4});
        QCOMPARE(history.at(2), (Sample{2, 5}));
        QCOMPARE(history.newest(), (Sample{4, -1}));
        // Order is checked against what is kept, across calls.
        history.append(Sample{3.9, 0});
        QCOMPARE(history.rejected(), std::uint64_t{5});
    }

    void historyFindsTimeRanges()
    {
        SampleHistory history(500);
        const std::vector<Sample> samples = randomSamples(7, 1300, 100.0); // wraps, repeated times
        history.append(samples);
        std::vector<double> times;
        for (std::size_t i = 0; i < history.size(); ++i)
            times.push_back(history.at(i).time);
        QRandomGenerator random(11);
        for (int round = 0; round < 300; ++round) {
            // Times that exist (repeated ones among them), between samples, and outside the history.
            double t = round % 3 == 0 ? times[random.bounded(quint32(times.size()))]
                                      : times.front() - 5 + random.generateDouble() * (times.back() - times.front() + 10);
            const auto lower = std::size_t(std::lower_bound(times.begin(), times.end(), t) - times.begin());
            const auto upper = std::size_t(std::upper_bound(times.begin(), times.end(), t) - times.begin());
            QCOMPARE(history.lowerBound(t), lower);
            QCOMPARE(history.upperBound(t), upper);
            const double t1 = t + random.generateDouble() * 20;
            const auto range = history.indexRange(t, t1);
            QCOMPARE(range.begin, lower);
            QCOMPARE(range.end,
                     std::max(lower, std::size_t(std::upper_bound(times.begin(), times.end(), t1) - times.begin())));
        }
        const auto none = history.indexRange(5, 4);
        QCOMPARE(none.begin, none.end);
    }

    // --- decimation ----------------------------------------------------------------------------------

    void columnsSplitTheWindowEvenly()
    {
        QCOMPARE(ui::columnOf(10.0, 10.0, 20.0, 100), 0);
        QCOMPARE(ui::columnOf(20.0, 10.0, 20.0, 100), 99); // the right edge belongs to the last column
        QCOMPARE(ui::columnOf(15.0, 10.0, 20.0, 100), 50);
        QCOMPARE(ui::columnOf(15.0, 10.0, 20.0, 1), 0);
        // Evenly spaced samples fill every column equally; columns never go backwards.
        std::vector<int> counts(250, 0);
        int previous = 0;
        for (int i = 0; i < 250 * 40; ++i) {
            const double t = kEpoch + (i + 0.5) * (3600.0 / (250 * 40));
            const int column = ui::columnOf(t, kEpoch, kEpoch + 3600, 250);
            QVERIFY(column >= previous);
            previous = column;
            ++counts[std::size_t(column)];
        }
        QVERIFY(std::all_of(counts.begin(), counts.end(), [](int n) { return n == 40; }));
    }

    void decimationKeepsEveryColumnsMinAndMax_data()
    {
        QTest::addColumn<quint32>("seed");
        QTest::addColumn<int>("count");
        QTest::addColumn<int>("capacity");
        QTest::addColumn<int>("columns");
        QTest::newRow("dense, 100k samples in 800 columns") << 1u << 100000 << (1 << 20) << 800;
        QTest::newRow("sparse, 500 samples in 2000 columns") << 2u << 500 << (1 << 20) << 2000;
        QTest::newRow("wrapped ring, 300k samples kept 65536") << 3u << 300000 << 65536 << 1000;
        QTest::newRow("one column") << 4u << 20000 << (1 << 20) << 1;
        QTest::newRow("a column per sample or so") << 5u << 3000 << 2048 << 1500;
    }

    void decimationKeepsEveryColumnsMinAndMax()
    {
        QFETCH(quint32, seed);
        QFETCH(int, count);
        QFETCH(int, capacity);
        QFETCH(int, columns);
        SampleHistory history(static_cast<std::size_t>(capacity));
        appendInBatches(history, randomSamples(seed, static_cast<std::size_t>(count), kEpoch), seed);
        const double first = history.oldest().time;
        const double last = history.newest().time;
        const double span = last - first;
        struct Window {
            double t0;
            double t1;
        };
        std::vector<Window> windows{{first, last},
                                    {first + span * 0.25, first + span * 0.6},
                                    {first - span * 0.5, first + span * 0.1}, // starts before the history
                                    {last - span * 0.1, last + span},         // ends after it
                                    {first - 10, last + 10}};
        QRandomGenerator random(seed * 31);
        for (int k = 0; k < 5; ++k) {
            const double a = first + random.generateDouble() * span;
            windows.push_back({a, a + random.generateDouble() * span * 0.3 + 1e-3});
        }
        std::vector<Sample> out;
        for (const Window& w : windows) {
            ui::decimateMinMax(history, w.t0, w.t1, columns, out);
            const std::vector<Sample> expected = bruteForce(history, w.t0, w.t1, columns);
            QCOMPARE(out.size(), expected.size());
            QVERIFY(out == expected);
            verifyColumnsKeepExtremes(history, w.t0, w.t1, columns, out);
            if (QTest::currentTestFailed())
                return;
            QVERIFY(out.size() <= 4 * std::size_t(columns) + 2);
        }
    }

    void decimationEdgeCases()
    {
        std::vector<Sample> out{{1, 1}}; // replaced, not appended to
        SampleHistory empty;
        ui::decimateMinMax(empty, 0, 10, 100, out);
        QVERIFY(out.empty());

        SampleHistory one;
        one.append(Sample{5, 42});
        ui::decimateMinMax(one, 0, 10, 100, out);
        QCOMPARE(out, (std::vector<Sample>{{5, 42}}));
        // No columns, an empty or reversed window, NaN: nothing.
        for (const auto& [t0, t1, columns] : std::vector<std::tuple<double, double, int>>{
                 {0, 10, 0}, {0, 10, -3}, {5, 5, 100}, {10, 0, 100}, {NAN, 10, 100}, {0, NAN, 100}}) {
            ui::decimateMinMax(one, t0, t1, columns, out);
            QVERIFY(out.empty());
        }
        // The window beyond the history: only the newest sample, as the neighbour the line comes from;
        // before the history: only the oldest, as the neighbour the line goes to.
        SampleHistory some;
        some.append(std::vector<Sample>{{1, 10}, {2, 20}, {3, 30}});
        ui::decimateMinMax(some, 4, 8, 100, out);
        QCOMPARE(out, (std::vector<Sample>{{3, 30}}));
        ui::decimateMinMax(some, -8, 0.5, 100, out);
        QCOMPARE(out, (std::vector<Sample>{{1, 10}}));
        // Samples exactly on the edges are inside; the neighbours outside come along.
        ui::decimateMinMax(some, 2, 3, 10, out);
        QCOMPARE(out, (std::vector<Sample>{{1, 10}, {2, 20}, {3, 30}}));

        // All in one column: first, min, max, last, in time order (min after max here).
        SampleHistory column;
        column.append(std::vector<Sample>{{0.0, 3}, {0.1, 9}, {0.2, 4}, {0.3, -7}, {0.4, 5}, {0.5, 2}});
        ui::decimateMinMax(column, 0, 1000, 100, out);
        QCOMPARE(out, (std::vector<Sample>{{0.0, 3}, {0.1, 9}, {0.3, -7}, {0.5, 2}}));
        // The first sample is the minimum and the last the maximum: two points, not four.
        SampleHistory ramp;
        ramp.append(std::vector<Sample>{{0.0, 1}, {0.1, 2}, {0.2, 3}, {0.3, 4}});
        ui::decimateMinMax(ramp, 0, 1000, 100, out);
        QCOMPARE(out, (std::vector<Sample>{{0.0, 1}, {0.3, 4}}));
        // Equal values: the earliest wins, still at most 4 points, and the last sample closes the column.
        SampleHistory flat;
        flat.append(std::vector<Sample>{{0.0, 1}, {0.1, 1}, {0.2, 1}});
        ui::decimateMinMax(flat, 0, 1000, 100, out);
        QCOMPARE(out, (std::vector<Sample>{{0.0, 1}, {0.2, 1}}));

        // Columns without samples produce nothing: 10 samples spread over 1000 columns give 10 points.
        SampleHistory sparse;
        for (int i = 0; i < 10; ++i)
            sparse.append(Sample{i * 100.0 + 3, double(i % 3)});
        ui::decimateMinMax(sparse, 0, 1000, 1000, out);
        QCOMPARE(out.size(), std::size_t{10});
        for (int i = 0; i < 10; ++i)
            QCOMPARE(out[std::size_t(i)].time, i * 100.0 + 3);
    }

    // --- the widget ------------------------------------------------------------------------------------

    void displayDrawsCurvesLimitsAndAxes()
    {
        PlotDisplay display;
        const int second = display.addPlot(QStringLiteral("Power"));
        QCOMPARE(display.plotCount(), 2);
        display.plot(0)->setTitle(QStringLiteral("Thermal"));
        const mdb::NumericLimits limits = temperatureLimits();
        const int temperature = display.addCurve(0, QStringLiteral("TEMP_A"), kBlue, PlotDisplay::Axis::Left, limits);
        const int pressure = display.addCurve(0, QStringLiteral("PRESS"), kOrange, PlotDisplay::Axis::Right);
        const int voltage = display.addCurve(second, QStringLiteral("BUS_V"), kGreen);
        QCOMPARE(display.addCurve(5, QStringLiteral("nowhere"), kPink), -1);
        QCOMPARE(display.curveCount(), 3);

        // 60 s at 2 kHz per curve, the time window 60 s.
        const double start = kEpoch;
        const std::vector<Sample> sineSamples = sine(120000, start, 0.0005, 6, 20);
        display.appendSamples(temperature, sineSamples);
        std::vector<Sample> ramp(120000);
        for (std::size_t i = 0; i < ramp.size(); ++i)
            ramp[i] = {start + double(i) * 0.0005, 900 + double(i) * 0.001 + (i % 200 < 100 ? 3 : 0)};
        display.appendSamples(pressure, ramp);
        std::vector<Sample> square(120000);
        for (std::size_t i = 0; i < square.size(); ++i)
            square[i] = {start + double(i) * 0.0005, (i / 10000) % 2 == 0 ? 27.5 : 28.5};
        display.appendSamples(voltage, square);

        display.resize(1200, 760);
        display.show();
        QVERIFY(QTest::qWaitForWindowExposed(&display));
        display.refresh();

        // Live: the window ends at the newest sample.
        QCOMPARE(display.timeRange().end, sineSamples.back().time);
        QCOMPARE(display.timeRange().end - display.timeRange().begin, 60.0);
        const QwtInterval x = display.plot(1)->axisInterval(QwtAxis::XBottom);
        QCOMPARE(x.maxValue(), sineSamples.back().time * 1000);

        // Decimated to the canvas: a few points per pixel column, not 120000.
        const int width = display.plot(0)->canvas()->width();
        QVERIFY(width > 500);
        QVERIFY(display.drawnPoints(temperature).size() <= std::size_t(4 * width + 2));
        QVERIFY(display.drawnPoints(temperature).size() >= std::size_t(width));

        // The curves are on the canvas across its width.
        QVERIFY2(columnsShowing(display.plot(0)->canvas(), kBlue) > 0.9, "the sine curve is not drawn across the canvas");
        QVERIFY2(columnsShowing(display.plot(0)->canvas(), kOrange) > 0.9, "the right-axis curve is not drawn");
        QVERIFY2(columnsShowing(display.plot(1)->canvas(), kGreen) > 0.9, "the curve of the second plot is not drawn");
        QCOMPARE(columnsShowing(display.plot(1)->canvas(), kBlue), 0.0);

        // Autoscale fits each axis to its curves.
        const QwtInterval left = display.plot(0)->axisInterval(QwtAxis::YLeft);
        QVERIFY(left.minValue() <= -6 && left.maxValue() >= 6);
        QVERIFY(left.width() < 24);
        const QwtInterval right = display.plot(0)->axisInterval(QwtAxis::YRight);
        QVERIFY(right.minValue() <= 900 && right.maxValue() >= 1022.8);
        QVERIFY(right.minValue() > 800);
        QVERIFY(display.plot(0)->isAxisVisible(QwtAxis::YRight));
        // The other plot gets an empty right axis so that the canvases line up.
        QVERIFY(display.plot(1)->isAxisVisible(QwtAxis::YRight));
        QCOMPARE(display.plot(1)->canvas()->geometry().left(), display.plot(0)->canvas()->geometry().left());
        QCOMPARE(display.plot(1)->canvas()->width(), display.plot(0)->canvas()->width());

        // Limit lines: four dashed horizontal lines on the curve's axis.
        const auto lines = display.limitLines(temperature);
        QCOMPARE(lines.size(), std::size_t{4});
        std::vector<double> values;
        for (const QwtPlotMarker* line : lines) {
            QCOMPARE(line->lineStyle(), QwtPlotMarker::HLine);
            QCOMPARE(line->yAxis(), QwtAxisId(QwtAxis::YLeft));
            values.push_back(line->yValue());
        }
        std::sort(values.begin(), values.end());
        QCOMPARE(values, (std::vector<double>{-5.5, -4, 4, 5.5}));
        QVERIFY(display.limitLines(pressure).empty());
        QVERIFY2(columnsShowing(display.plot(0)->canvas(), kRedLimit) > 0.5, "the red limit lines are not drawn");

        QVERIFY(display.grab().save(QStringLiteral("/tmp/h-guiplot-display.png")));
    }

    void aSmallPlotKeepsItsLabelsApartAndInside()
    {
        // As small as a plot gets beside the tables on a 1366×768 screen: the value axis prints only as
        // many labels as fit one above the other; a limit's label next to the canvas's edge (the curve
        // just crosses its red limits, so autoscale leaves them near the edges) is drawn inside, and
        // labels do not cover each other: three curves limited alike share one label per line.
        PlotDisplay display;
        const mdb::NumericLimits limits = temperatureLimits();
        const int id = display.addCurve(0, QStringLiteral("TEMP_A"), kBlue, PlotDisplay::Axis::Left, limits);
        display.appendSamples(id, sine(6000, kEpoch, 0.01, 5.6, 10));
        for (const char* name : {"TEMP_B", "TEMP_C"})
            display.appendSamples(display.addCurve(0, QString::fromLatin1(name), kGreen, PlotDisplay::Axis::Left, limits),
                                  sine(6000, kEpoch, 0.01, 3, 7));
        display.resize(420, 170);
        display.show();
        QVERIFY(QTest::qWaitForWindowExposed(&display));
        display.refresh();

        const QwtPlot* plot = display.plot(0);
        const int canvasHeight = plot->canvas()->height();
        QVERIFY2(canvasHeight > 30 && canvasHeight < 130, qPrintable(QString::number(canvasHeight)));
        const QList<double> ticks = plot->axisScaleDiv(QwtAxis::YLeft).ticks(QwtScaleDiv::MajorTick);
        const int labelHeight = QFontMetrics(plot->axisFont(QwtAxis::YLeft)).height();
        QVERIFY(ticks.size() >= 2);
        QVERIFY2((ticks.size() - 1) * (labelHeight + 4) <= canvasHeight, // a few pixels between labels
                 qPrintable(QStringLiteral("%1 labels of %2 px on a canvas of %3 px").arg(ticks.size()).arg(labelHeight).arg(canvasHeight)));

        const QwtScaleMap map = plot->canvasMap(QwtAxis::YLeft);
        QCOMPARE(display.limitLines(id).size(), std::size_t{4});
        std::vector<std::pair<QRectF, QString>> labels;
        for (int curve = 0; curve < display.curveCount(); ++curve) {
            for (const QwtPlotMarker* line : display.limitLines(curve)) {
                if (curve > 0) { // limited as TEMP_A: its label stands for them
                    QVERIFY2(line->label().isEmpty(), qPrintable(line->label().text()));
                    continue;
                }
                if (line->label().isEmpty())
                    continue; // no room on either side
                QVERIFY2(line->label().text().endsWith(QStringLiteral("(+2)")), qPrintable(line->label().text()));
                const double y = map.transform(line->yValue());
                const QSizeF size = line->label().textSize();
                const bool above = (line->labelAlignment() & Qt::AlignTop) != 0;
                const QRectF rect(0, above ? y - size.height() : y, size.width(), size.height());
                QVERIFY2(rect.top() >= 0 && rect.bottom() <= canvasHeight,
                         qPrintable(QStringLiteral("%1: label from %2 to %3 px, canvas %4 px")
                                        .arg(line->label().text())
                                        .arg(rect.top())
                                        .arg(rect.bottom())
                                        .arg(canvasHeight)));
                for (const auto& [other, text] : labels)
                    QVERIFY2(!other.intersects(rect), qPrintable(text + QStringLiteral(" covers ") + line->label().text()));
                labels.emplace_back(rect, line->label().text());
            }
        }
        QVERIFY(labels.size() >= 2); // the red lines' labels at least: next to the edges, inside
    }

    // Limits close together (red and yellow a few pixels apart), on a plot as short and narrow as a plot
    // gets, the lines moved across the canvas pixel by pixel (the value axis rescaled): every label drawn
    // lies inside the canvas's frame and clear of the others, where Qwt really draws it; a label wider
    // than the canvas drops the curve's name.
    void closeLimitLabelsStayApartAndInside()
    {
        PlotDisplay display;
        display.setAutoscale(false);
        mdb::NumericLimits limits;
        limits.redLow = -5.3;
        limits.yellowLow = -5;
        limits.yellowHigh = 5;
        limits.redHigh = 5.3;
        const QString longName = QStringLiteral("SPECTROMETER_LE.DETECTOR_TEMPERATURE_A");
        const int id = display.addCurve(0, longName, kBlue, PlotDisplay::Axis::Left, limits);
        display.appendSamples(id, sine(600, kEpoch, 0.1, 5.2, 10));
        display.resize(330, 190);
        display.show();
        QVERIFY(QTest::qWaitForWindowExposed(&display));
        QwtPlot& plot = *display.plot(0);
        int everShown = 0;
        bool shortened = false;
        for (double top = 5.35; top < 7.5; top += 0.02) {
            plot.setAxisScale(QwtAxis::YLeft, -top, top);
            display.setPaused(true);
            display.setTimeRange(kEpoch, kEpoch + 60); // a redraw of the same data on the new scale
            display.refresh();
            const int shown = checkLimitLabels(display, QStringLiteral("scale ±%1").arg(top));
            QVERIFY(shown >= 0);
            everShown = std::max(everShown, shown);
            for (const QwtPlotMarker* line : display.limitLines(id))
                shortened = shortened || (!line->label().isEmpty() && !line->label().text().contains(longName));
        }
        QVERIFY2(everShown >= 2, "no room for two labels at any scale");
        QVERIFY2(shortened, "the labels wider than the canvas were not shortened");
    }

    // A narrow plot (as beside the tables at 1366×768): at every time window the combo offers, and zoomed
    // to fractions of a second, the time axis's labels keep apart (whatever their format: hh:mm,
    // hh:mm:ss, hh:mm:ss.zzz) and there are at least two.
    void timeAxisLabelsKeepApartOnANarrowPlot_data()
    {
        QTest::addColumn<int>("width");
        QTest::newRow("260 px") << 260;
        QTest::newRow("360 px") << 360;
        QTest::newRow("520 px") << 520;
    }

    void timeAxisLabelsKeepApartOnANarrowPlot()
    {
        QFETCH(int, width);
        PlotDisplay display;
        const int id = display.addCurve(0, QStringLiteral("A"), kBlue);
        display.appendSamples(id, sine(20000, kEpoch, 0.01, 5, 10));
        display.resize(width, 220);
        display.show();
        QVERIFY(QTest::qWaitForWindowExposed(&display));
        const QwtPlot& plot = *display.plot(0);
        const double end = kEpoch + 199.99;
        for (const double span : {0.2, 0.5, 1.0, 2.5, 5.0, 10.0, 30.0, 60.0, 300.0, 600.0, 1800.0, 3600.0, 4 * 3600.0, 12 * 3600.0}) {
            display.setTimeRange(end - span, end - 0.0371); // not on a round second: the labels read hh:mm:ss.zzz
            display.refresh();
            const auto labels = timeLabels(plot);
            const QString context = QStringLiteral("%1 s on a canvas of %2 px").arg(span).arg(plot.canvas()->width());
            QVERIFY2(labels.size() >= 2, qPrintable(context + QStringLiteral(": fewer than two labels")));
            for (std::size_t i = 1; i < labels.size(); ++i) {
                const double apart = labels[i].first - labels[i - 1].first;
                const double needed = (labels[i].second + labels[i - 1].second) / 2;
                QVERIFY2(apart >= needed + 2,
                         qPrintable(context + QStringLiteral(": labels %1 and %2 are %3 px apart, %4 px wide")
                                                  .arg(i - 1)
                                                  .arg(i)
                                                  .arg(apart)
                                                  .arg(needed)));
            }
        }
    }

    // A curve hidden from the legend stays listed, greyed and struck out; shown again, it reads as before.
    void legendMarksHiddenCurves()
    {
        PlotDisplay display;
        const int a = display.addCurve(0, QStringLiteral("A"), kBlue);
        const int b = display.addCurve(0, QStringLiteral("B"), kGreen);
        display.appendSamples(a, sine(600, kEpoch, 0.1, 5, 10));
        display.appendSamples(b, sine(600, kEpoch, 0.1, 2, 3));
        display.resize(900, 400);
        display.show();
        QVERIFY(QTest::qWaitForWindowExposed(&display));
        display.refresh();
        auto* legend = qobject_cast<QwtLegend*>(display.plot(0)->legend());
        QVERIFY(legend);
        const auto labelOf = [&](int curve) {
            return qobject_cast<QwtLegendLabel*>(legend->legendWidget(display.plot(0)->itemToInfo(display.curve(curve))));
        };
        QVERIFY(labelOf(a) && labelOf(b));
        const QColor shownColour = labelOf(a)->palette().color(QPalette::WindowText);
        const auto looksHidden = [](const QwtLegendLabel* label) {
            return label->data().title().font().strikeOut() && label->text().color().isValid();
        };
        QVERIFY(!looksHidden(labelOf(b)));

        QTest::mouseClick(labelOf(b), Qt::LeftButton);
        QVERIFY(!display.curve(b)->isVisible());
        QVERIFY2(looksHidden(labelOf(b)), "the hidden curve's entry is not struck out");
        QVERIFY(labelOf(b)->text().color() != shownColour);
        QVERIFY(!labelOf(b)->isChecked());
        QVERIFY(!looksHidden(labelOf(a)));
        // Still so after the legend was rebuilt (legend off and on).
        display.setLegendVisible(false);
        display.setLegendVisible(true);
        legend = qobject_cast<QwtLegend*>(display.plot(0)->legend());
        QVERIFY(legend && labelOf(b));
        QVERIFY(looksHidden(labelOf(b)));
        QVERIFY(!labelOf(b)->isChecked());

        QTest::mouseClick(labelOf(b), Qt::LeftButton);
        QVERIFY(display.curve(b)->isVisible());
        QVERIFY(!labelOf(b)->data().title().font().strikeOut());
    }

    void decimationKeepsASpikeVisible()
    {
        // One sample in 200000 is a spike: autoscale (fed by the decimated points) must reach it.
        PlotDisplay display;
        const int id = display.addCurve(0, QStringLiteral("NOISE"), kPink);
        std::vector<Sample> samples = sine(200000, kEpoch, 0.0003, 1, 7);
        samples[123457].value = 250;
        display.appendSamples(id, samples);
        display.resize(900, 400);
        display.show();
        QVERIFY(QTest::qWaitForWindowExposed(&display));
        display.refresh();
        QVERIFY(display.plot(0)->axisInterval(QwtAxis::YLeft).maxValue() >= 250);
        const auto drawn = display.drawnPoints(id);
        QVERIFY(std::any_of(drawn.begin(), drawn.end(), [](const Sample& s) { return s.value == 250; }));
    }

    void pauseFreezesTheTimeAxisWhileSamplesArrive()
    {
        PlotDisplay display;
        const int id = display.addCurve(0, QStringLiteral("TEMP_A"), kBlue);
        display.appendSamples(id, sine(10000, kEpoch, 0.01, 5, 10));
        display.resize(800, 400);
        display.show();
        QVERIFY(QTest::qWaitForWindowExposed(&display));
        display.refresh();
        const PlotDisplay::TimeRange live = display.timeRange();
        QCOMPARE(live.end, kEpoch + 9999 * 0.01);

        QSignalSpy paused(&display, &PlotDisplay::pausedChanged);
        auto* pauseButton = display.findChild<QToolButton*>(QStringLiteral("pauseButton"));
        QVERIFY(pauseButton);
        pauseButton->click(); // the operator's way
        QVERIFY(display.isPaused());
        QCOMPARE(paused.count(), 1);
        QCOMPARE(paused.at(0).at(0).toBool(), true);
        QVERIFY(display.findChild<QLabel*>(QStringLiteral("plotDisplayStatus"))->text().contains(QStringLiteral("Paused")));

        const QwtInterval before = display.plot(0)->axisInterval(QwtAxis::XBottom);
        for (int batch = 1; batch <= 5; ++batch) {
            display.appendSamples(id, sine(1000, kEpoch + 100 + batch * 10, 0.01, 5, 10));
            display.refresh();
            QCOMPARE(display.timeRange().begin, live.begin);
            QCOMPARE(display.timeRange().end, live.end);
            QCOMPARE(display.plot(0)->axisInterval(QwtAxis::XBottom).minValue(), before.minValue());
            QCOMPARE(display.plot(0)->axisInterval(QwtAxis::XBottom).maxValue(), before.maxValue());
        }
        // Still collected.
        QCOMPARE(display.history(id).size(), std::size_t{15000});
        // The timer has nothing to redraw for appends while paused.
        QVERIFY(!display.refresh());

        // Back to live: the window jumps to the newest sample.
        pauseButton->click();
        QVERIFY(!display.isPaused());
        QCOMPARE(paused.count(), 2);
        QVERIFY(display.refresh());
        QCOMPARE(display.timeRange().end, display.history(id).newest().time);
        QCOMPARE(display.plot(0)->axisInterval(QwtAxis::XBottom).maxValue(), display.history(id).newest().time * 1000);
    }

    void zoomWithTheMousePausesAndMovesEveryPlot()
    {
        PlotDisplay display;
        display.addPlot();
        const int a = display.addCurve(0, QStringLiteral("A"), kBlue);
        const int b = display.addCurve(1, QStringLiteral("B"), kGreen);
        display.appendSamples(a, sine(6000, kEpoch, 0.01, 5, 10));
        display.appendSamples(b, sine(6000, kEpoch, 0.01, 2, 3));
        display.resize(1000, 700);
        display.show();
        QVERIFY(QTest::qWaitForWindowExposed(&display));
        display.refresh();
        const PlotDisplay::TimeRange live = display.timeRange();

        // A left drag over the middle half of the top canvas.
        QWidget* canvas = display.plot(0)->canvas();
        const int w = canvas->width();
        const int h = canvas->height();
        QTest::mousePress(canvas, Qt::LeftButton, Qt::NoModifier, QPoint(w / 4, h / 4));
        QVERIFY(display.isPaused()); // paused as soon as the zoom starts
        QTest::mouseMove(canvas, QPoint(w / 2, h / 2));
        QTest::mouseMove(canvas, QPoint(3 * w / 4, 3 * h / 4));
        QTest::mouseRelease(canvas, Qt::LeftButton, Qt::NoModifier, QPoint(3 * w / 4, 3 * h / 4));

        const PlotDisplay::TimeRange zoomed = display.timeRange();
        const double liveSpan = live.end - live.begin;
        QVERIFY2(zoomed.end - zoomed.begin < liveSpan * 0.6, qPrintable(QString::number(zoomed.end - zoomed.begin)));
        QVERIFY(zoomed.begin > live.begin && zoomed.end < live.end);
        // Both plots show the zoomed time range; the drawn points were decimated for it.
        for (int plot = 0; plot < 2; ++plot) {
            const QwtInterval x = display.plot(plot)->axisInterval(QwtAxis::XBottom);
            QCOMPARE(x.minValue() / 1000, zoomed.begin);
            QVERIFY(std::abs(x.maxValue() / 1000 - zoomed.end) < 1e-6);
        }
        for (const int id : {a, b}) {
            const auto drawn = display.drawnPoints(id);
            QVERIFY(drawn.size() > 2);
            QVERIFY(drawn[1].time >= zoomed.begin && drawn[drawn.size() - 2].time <= zoomed.end + 1e-6);
        }

        // Right click: back to the paused view (still paused).
        QTest::mouseClick(canvas, Qt::RightButton, Qt::NoModifier, QPoint(w / 2, h / 2));
        QVERIFY(display.isPaused());
        QVERIFY(std::abs(display.timeRange().begin - live.begin) < 1e-6);
        QVERIFY(std::abs(display.timeRange().end - live.end) < 1e-6);

        // A programmatic zoom, then live again.
        display.setTimeRange(kEpoch + 10, kEpoch + 20);
        display.refresh();
        QCOMPARE(display.plot(1)->axisInterval(QwtAxis::XBottom).minValue(), (kEpoch + 10) * 1000);
        display.setPaused(false);
        display.refresh();
        QCOMPARE(display.timeRange().end, live.end);
    }

    void panWithTheMiddleButtonPausesAndMovesEveryPlot()
    {
        PlotDisplay display;
        display.addPlot();
        const int a = display.addCurve(0, QStringLiteral("A"), kBlue);
        const int b = display.addCurve(1, QStringLiteral("B"), kGreen);
        display.appendSamples(a, sine(6000, kEpoch, 0.01, 5, 10));
        display.appendSamples(b, sine(6000, kEpoch, 0.01, 2, 3));
        display.resize(1000, 700);
        display.show();
        QVERIFY(QTest::qWaitForWindowExposed(&display));
        display.refresh();
        const PlotDisplay::TimeRange live = display.timeRange();

        // Drag the lower canvas a quarter of its width to the right: the view moves back in time.
        QWidget* canvas = display.plot(1)->canvas();
        const int w = canvas->width();
        const int h = canvas->height();
        QTest::mousePress(canvas, Qt::MiddleButton, Qt::NoModifier, QPoint(w / 2, h / 2));
        QVERIFY(display.isPaused());
        QTest::mouseMove(canvas, QPoint(w / 2 + w / 8, h / 2));
        QTest::mouseMove(canvas, QPoint(w / 2 + w / 4, h / 2));
        QTest::mouseRelease(canvas, Qt::MiddleButton, Qt::NoModifier, QPoint(w / 2 + w / 4, h / 2));

        const PlotDisplay::TimeRange panned = display.timeRange();
        const double span = live.end - live.begin;
        QVERIFY(std::abs((panned.end - panned.begin) - span) < 1e-6);
        const double shift = live.begin - panned.begin;
        QVERIFY2(shift > span * 0.2 && shift < span * 0.3, qPrintable(QString::number(shift)));
        QVERIFY(std::abs(display.plot(0)->axisInterval(QwtAxis::XBottom).minValue() / 1000 - panned.begin) < 1e-6);
    }

    void timeWindowComboSetsTheSpan()
    {
        PlotDisplay display;
        const int id = display.addCurve(0, QStringLiteral("A"), kBlue);
        display.appendSamples(id, sine(40000, kEpoch, 0.1, 5, 100)); // 4000 s
        display.show();
        QVERIFY(QTest::qWaitForWindowExposed(&display));
        auto* combo = display.findChild<QComboBox*>(QStringLiteral("timeWindowCombo"));
        QVERIFY(combo);
        QCOMPARE(combo->currentText(), QStringLiteral("1 min"));
        QVERIFY(combo->count() >= 10);
        QCOMPARE(combo->itemText(0), QStringLiteral("1 s"));
        QCOMPARE(combo->itemText(combo->count() - 1), QStringLiteral("12 h"));

        const int fiveMinutes = combo->findText(QStringLiteral("5 min"));
        QVERIFY(fiveMinutes >= 0);
        combo->setCurrentIndex(fiveMinutes);
        Q_EMIT combo->activated(fiveMinutes); // what a choice by the operator emits
        QCOMPARE(display.timeWindow(), 300.0);
        display.refresh();
        QCOMPARE(display.timeRange().end - display.timeRange().begin, 300.0);

        // A window that is not listed gets an entry of its own, in order.
        display.setTimeWindow(90);
        QCOMPARE(combo->currentText(), QStringLiteral("1.5 min"));
        QVERIFY(combo->itemData(combo->currentIndex() - 1).toDouble() < 90);
        QVERIFY(combo->itemData(combo->currentIndex() + 1).toDouble() > 90);
        display.setTimeWindow(-1); // ignored
        QCOMPARE(display.timeWindow(), 90.0);

        // While paused the right edge stays and the span changes.
        display.refresh();
        display.setPaused(true);
        const double end = display.timeRange().end;
        display.setTimeWindow(3600);
        display.refresh();
        QCOMPARE(display.timeRange().end, end);
        QCOMPARE(display.timeRange().end - display.timeRange().begin, 3600.0);
    }

    void legendHidesAndShowsCurves()
    {
        PlotDisplay display;
        const int a = display.addCurve(0, QStringLiteral("A"), kBlue);
        const int b = display.addCurve(0, QStringLiteral("B"), kGreen);
        display.appendSamples(a, sine(6000, kEpoch, 0.01, 5, 10));
        display.appendSamples(b, sine(6000, kEpoch, 0.01, 2, 3));
        display.resize(900, 500);
        display.show();
        QVERIFY(QTest::qWaitForWindowExposed(&display));
        display.refresh();
        auto* legend = qobject_cast<QwtLegend*>(display.plot(0)->legend());
        QVERIFY(legend);
        auto* label = qobject_cast<QwtLegendLabel*>(legend->legendWidget(display.plot(0)->itemToInfo(display.curve(b))));
        QVERIFY(label);
        QVERIFY(label->isChecked());
        QVERIFY(columnsShowing(display.plot(0)->canvas(), kGreen) > 0.9);

        QTest::mouseClick(label, Qt::LeftButton);
        QVERIFY(!label->isChecked());
        QVERIFY(!display.curve(b)->isVisible());
        display.refresh();
        QCOMPARE(columnsShowing(display.plot(0)->canvas(), kGreen), 0.0);
        QTest::mouseClick(label, Qt::LeftButton);
        QVERIFY(display.curve(b)->isVisible());

        // The legend button removes and restores the legends.
        display.findChild<QToolButton*>(QStringLiteral("legendButton"))->click();
        QVERIFY(!display.isLegendVisible());
        QVERIFY(display.plot(0)->legend() == nullptr);
        display.setLegendVisible(true);
        QVERIFY(display.plot(0)->legend() != nullptr);
        legend = qobject_cast<QwtLegend*>(display.plot(0)->legend());
        label = qobject_cast<QwtLegendLabel*>(legend->legendWidget(display.plot(0)->itemToInfo(display.curve(a))));
        QVERIFY(label && label->isChecked());
    }

    void hiddenDisplayStopsItsTimer()
    {
        QTabWidget tabs;
        auto* display = new PlotDisplay;
        const int id = display->addCurve(0, QStringLiteral("A"), kBlue);
        tabs.addTab(display, QStringLiteral("Plot"));
        tabs.addTab(new QLabel(QStringLiteral("other")), QStringLiteral("Other"));
        QVERIFY(!display->isRefreshActive()); // never shown yet
        tabs.show();
        QVERIFY(QTest::qWaitForWindowExposed(&tabs));
        QVERIFY(display->isRefreshActive());
        // The timer redraws what arrives, on its own.
        display->appendSamples(id, sine(100, kEpoch, 0.1, 1, 5));
        QTRY_COMPARE(display->timeRange().end, kEpoch + 99 * 0.1);

        tabs.setCurrentIndex(1);
        QVERIFY(!display->isVisible());
        QVERIFY(!display->isRefreshActive());
        display->appendSamples(id, sine(100, kEpoch + 100, 0.1, 1, 5));
        QTest::qWait(100);
        QCOMPARE(display->timeRange().end, kEpoch + 99 * 0.1); // nothing redrawn while hidden

        tabs.setCurrentIndex(0);
        QVERIFY(display->isRefreshActive());
        QCOMPARE(display->timeRange().end, kEpoch + 100 + 99 * 0.1); // caught up on show
        tabs.hide();
        QVERIFY(!display->isRefreshActive());
    }

    // A measurement, not a test of speed: the redraw of 4 curves x 1 million points (decimation and
    // painting), printed for docs/PERFORMANCE.md. Asserts only that the work was done.
    void measureRedrawOfFourMillionPoints()
    {
        constexpr std::size_t kPoints = 1'000'000;
        constexpr double kStep = 0.001; // 1 kHz: 1000 s of data per curve
        PlotDisplay display;
        display.addPlot();
        std::vector<int> ids;
        const QColor colors[] = {kBlue, kOrange, kGreen, kPink};
        for (int k = 0; k < 4; ++k)
            ids.push_back(display.addCurve(k / 2, QStringLiteral("P%1").arg(k), colors[k]));
        QRandomGenerator random(99);
        for (int k = 0; k < 4; ++k) {
            std::vector<Sample> samples = sine(kPoints, kEpoch, kStep, 10 + k, 50 + 30 * k);
            for (Sample& s : samples)
                s.value += random.generateDouble() - 0.5;
            display.appendSamples(ids[std::size_t(k)], samples);
        }
        display.setTimeWindow(double(kPoints) * kStep); // every point in the window
        display.resize(1400, 900);
        display.show();
        QVERIFY(QTest::qWaitForWindowExposed(&display));
        display.refresh();

        // Live: each frame adds 1000 samples per curve (1 s at 1 kHz) and redraws everything shown.
        constexpr int kFrames = 20;
        std::vector<double> frameMs;
        double t = kEpoch + double(kPoints) * kStep;
        for (int frame = 0; frame < kFrames; ++frame) {
            for (int k = 0; k < 4; ++k) {
                std::vector<Sample> batch = sine(1000, t, kStep, 10 + k, 50 + 30 * k);
                for (Sample& s : batch)
                    s.value = (10 + k) * std::sin(2 * std::numbers::pi * (s.time - kEpoch) / (50 + 30 * k));
                display.appendSamples(ids[std::size_t(k)], batch);
            }
            t += 1000 * kStep;
            QElapsedTimer clock;
            clock.start();
            QVERIFY(display.refresh());
            frameMs.push_back(double(clock.nsecsElapsed()) / 1e6);
        }
        QCOMPARE(display.history(ids[0]).size(), kPoints + kFrames * 1000);
        for (const int id : ids)
            QVERIFY(display.drawnPoints(id).size() > 1000);
        std::sort(frameMs.begin(), frameMs.end());
        double sum = 0;
        for (const double ms : frameMs)
            sum += ms;

        // Decimation alone, one curve, the whole million.
        std::vector<Sample> out;
        const SampleHistory& history = display.history(ids[0]);
        QElapsedTimer clock;
        clock.start();
        constexpr int kRounds = 10;
        for (int round = 0; round < kRounds; ++round)
            ui::decimateMinMax(history, history.oldest().time, history.newest().time, 1300, out);
        const double decimateMs = double(clock.nsecsElapsed()) / 1e6 / kRounds;
        QVERIFY(out.size() > 1300);

        qInfo("plot redraw, 4 curves x %zu points in the window, %dx%d canvas: mean %.1f ms, median %.1f ms, "
              "max %.1f ms per frame (%.0f frames/s); decimation alone %.1f ms per curve per million points",
              history.size(), display.plot(0)->canvas()->width(), display.plot(0)->canvas()->height(),
              sum / kFrames, frameMs[kFrames / 2], frameMs.back(), 1000.0 / (sum / kFrames), decimateMs);
        display.grab().save(QStringLiteral("/tmp/h-guiplot-4M.png"));
    }

    // The timer's redraw takes one plot per turn of the event loop (issue 14): when the first plot's
    // canvas paints, an event posted from that paint is delivered before the second plot is drawn. (All
    // in one turn, the second would have painted before the event loop could deliver it.) refresh()
    // still draws every plot at once, also between the turns of a redraw.
    void timerRedrawsOnePlotPerTurn()
    {
        PlotDisplay display;
        display.addPlot();
        display.addPlot();
        const int a = display.addCurve(0, QStringLiteral("A"), kBlue);
        const int b = display.addCurve(1, QStringLiteral("B"), kGreen);
        const int c = display.addCurve(2, QStringLiteral("C"), kPink);
        display.resize(800, 600);
        display.show();
        QVERIFY(QTest::qWaitForWindowExposed(&display));
        display.refresh();

        struct Paints : QObject {
            std::map<QObject*, int> count;
            QObject* first = nullptr;
            QObject marker;
            int secondAtMarker = -1; // the second canvas's paints when the posted event arrived
            QObject* second = nullptr;
            QObject* third = nullptr;
            PlotDisplay* display = nullptr;
            bool midRoundRefresh = false; // refresh() between the turns drew the plots not yet drawn
            bool eventFilter(QObject* watched, QEvent* event) override
            {
                if (event->type() == QEvent::Paint) {
                    ++count[watched];
                    if (watched == first && secondAtMarker < 0)
                        QMetaObject::invokeMethod(&marker, [this] {
                            secondAtMarker = count[second];
                            const int secondNow = count[second], thirdNow = count[third];
                            midRoundRefresh = display->refresh() && count[second] > secondNow && count[third] > thirdNow;
                        }, Qt::QueuedConnection);
                }
                return QObject::eventFilter(watched, event);
            }
        } paints;
        paints.first = display.plot(0)->canvas();
        paints.second = display.plot(1)->canvas();
        paints.third = display.plot(2)->canvas();
        paints.display = &display;
        for (int i = 0; i < 3; ++i)
            display.plot(i)->canvas()->installEventFilter(&paints);
        const int secondBefore = paints.count[paints.second];

        for (const int id : {a, b, c})
            display.appendSamples(id, sine(2000, kEpoch, 0.01, 5, 10));
        QTRY_VERIFY_WITH_TIMEOUT(paints.secondAtMarker >= 0, 10000);
        QCOMPARE(paints.secondAtMarker, secondBefore); // the first plot's turn ended before the second's
        QVERIFY(paints.midRoundRefresh); // refresh() in between draws the rest at once (not "nothing changed")
        QTRY_VERIFY_WITH_TIMEOUT(paints.count[display.plot(2)->canvas()] > 0 && paints.count[paints.second] > secondBefore,
                                 10000);
        QVERIFY(display.lastRefreshMs() > 0);

        // refresh(): every plot in this call.
        for (const int id : {a, b, c})
            display.appendSamples(id, sine(10, kEpoch + 30, 0.01, 5, 10));
        const int secondNow = paints.count[paints.second];
        const int thirdNow = paints.count[display.plot(2)->canvas()];
        QVERIFY(display.refresh());
        QVERIFY(paints.count[paints.second] > secondNow);
        QVERIFY(paints.count[display.plot(2)->canvas()] > thirdNow);
    }
};

QTEST_MAIN(TestPlotDisplay)
#include "tst_ui_plot_display.moc"
