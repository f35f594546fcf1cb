// The link test's plots (issue 18, docs/link-test.md): one Qwt plot per test, drawn from a LinkReport
// with the wire's limits beside the measured figures — the link test window's live tabs and the
// report's PNG files (`telestation-sim link --out DIR`, the window's Save report…) are the same plot.
#pragma once

#include "core/common/result.hpp"
#include "core/link/link_report.hpp"
#include "core/link/tests.hpp"

#include <QColor>
#include <QPointF>
#include <QString>

#include <qwt_axis_id.h>
#include <qwt_plot.h>

#include <cstddef>
#include <string>
#include <vector>

class QwtPlotCurve;

namespace telestation::sim::gui {

class LinkPlot : public QwtPlot {
    Q_OBJECT

public:
    // The size the report's PNG files are drawn at.
    static constexpr int kImageWidth = 1200;
    static constexpr int kImageHeight = 700;

    explicit LinkPlot(telestation::link::TestKind test, QWidget* parent = nullptr);

    [[nodiscard]] telestation::link::TestKind test() const noexcept { return m_test; }
    // Draws this test's rows of `report`, replacing what the previous report drew.
    void setReport(const telestation::link::LinkReport& report);
    // Curves drawn, and their points over all of them (the tests look at these).
    [[nodiscard]] int curveCount() const;
    [[nodiscard]] std::size_t pointCount() const;

private:
    enum class Line { Solid, Dashed, Dotted, None };
    struct CurveStyle {
        QColor color;
        Line line = Line::Solid;
        bool symbols = true;
        bool legend = true;
        QwtAxisId yAxis = QwtAxis::YLeft;
    };
    QwtPlotCurve* addCurve(const QString& title, const CurveStyle& style, const std::vector<QPointF>& points);
    // A dashed horizontal limit across [x0, x1] (a curve, so that the axis scales to it).
    void addHorizontalLimit(const QString& title, const QColor& color, double y, double x0, double x1);
    // A vertical line at `x` over [y0, y1], in the legend when it has a title.
    void addVerticalLine(const QString& title, const QColor& color, Line line, double x, double y0, double y1);
    void addVerticalMarker(const QColor& color, double x); // a dotted line, out of the legend
    // A logarithmic x axis over the values, with half an octave (base 2) or decade (base 10) of room;
    // over [emptyLow, emptyHigh] while there are none.
    void setLogXRange(const std::vector<double>& xs, double base, double emptyLow, double emptyHigh);

    void draw(const telestation::link::LinkReport& report); // this test's curves and x axis
    void drawMessageRate(const telestation::link::LinkReport& report);
    void drawUdpGrid(const telestation::link::LinkReport& report);
    void drawFlows(const telestation::link::LinkReport& report);
    void drawBlocks(const telestation::link::LinkReport& report);
    void drawTelemetry(const telestation::link::LinkReport& report);

    telestation::link::TestKind m_test;
};

// Whether `report` holds rows for the test's plot.
[[nodiscard]] bool hasPlotData(const telestation::link::LinkReport& report, telestation::link::TestKind test);

// Draws each test that has rows into DIRECTORY/link-<test>.png (LinkPlot::kImageWidth × kImageHeight)
// and returns the files written; the error names the file that could not be written. Needs a
// QApplication — the plots are widgets (the command line makes one on the offscreen platform).
[[nodiscard]] Result<std::vector<std::string>> writeLinkPlots(const telestation::link::LinkReport& report,
                                                              const std::string& directory);

// The whole report into DIRECTORY (created when missing): link-report.md, link-report.json, a CSV per
// test (link::toCsvFiles) and the plots; returns every file written. Needs a QApplication.
[[nodiscard]] Result<std::vector<std::string>> writeLinkReport(const telestation::link::LinkReport& report,
                                                               const std::string& directory);

} // namespace telestation::sim::gui
