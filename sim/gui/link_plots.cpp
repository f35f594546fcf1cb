#include "sim/gui/link_plots.hpp"

#include "ui/plotting/plot_theme.hpp"
#include "ui/text/number_format.hpp"

#include <qwt_legend.h>
#include <qwt_plot_curve.h>
#include <qwt_plot_marker.h>
#include <qwt_plot_renderer.h>
#include <qwt_scale_draw.h>
#include <qwt_scale_engine.h>
#include <qwt_symbol.h>
#include <qwt_text.h>

#include <QImage>
#include <QLayout>
#include <QPen>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <optional>

namespace telestation::sim::gui {

namespace plot_theme = telestation::ui::plot_theme;

namespace {

// Sizes in bytes on a log-2 axis: 512, 1 Ki, 64 Ki, 1 Mi.
class BytesScaleDraw final : public QwtScaleDraw {
public:
    QwtText label(double exact) const override
    {
        // A log scale's ticks come out as 1023.9999…: the byte counts they stand for are whole.
        const double value = std::round(exact);
        if (value >= 1024.0 * 1024.0)
            return QwtText(QStringLiteral("%1 Mi").arg(value / (1024.0 * 1024.0), 0, 'g', 3));
        if (value >= 1024.0)
            return QwtText(QStringLiteral("%1 Ki").arg(value / 1024.0, 0, 'g', 3));
        return QwtText(QString::number(value, 'g', 3));
    }
};

// Rates from 1000 on as the GUI writes them elsewhere ("1.50M" KB/s), not "1.5e+06".
class RateScaleDraw final : public QwtScaleDraw {
public:
    QwtText label(double value) const override
    {
        return std::abs(value) >= 1000 ? QwtText(telestation::ui::compactText(value)) : QwtScaleDraw::label(value);
    }
};

enum class XScale { Bytes, Linear, Count, Log10 };

// Each test's plot: its titles and the kind of x axis; the curves are drawn by LinkPlot::draw….
struct PlotLayout {
    telestation::link::TestKind test;
    const char* title;
    const char* xTitle;
    const char* yTitle;
    const char* yRightTitle; // nullptr: no right axis
    XScale x;
};

constexpr PlotLayout kLayouts[] = {
    {telestation::link::TestKind::MessageRate, "Message rate vs size (TCP and UDP)", "Message size (bytes)", "KB/s (1 KB = 1000 B)", nullptr,
     XScale::Bytes},
    {telestation::link::TestKind::UdpGrid, "UDP send and receive rate vs requested gap (solid: send, dashed: receive)", "Requested gap between packets (µs)",
     "Mbit/s (UDP payload)", nullptr, XScale::Linear},
    {telestation::link::TestKind::TcpFlows, "TCP parallel flows (total window constant)", "Parallel TCP flows", "Mbit/s (all flows)", nullptr,
     XScale::Count},
    {telestation::link::TestKind::BlockSweep, "One TCP stream vs block size per write", "Block size per write (bytes)", "Mbit/s", "CPU (% of one core)",
     XScale::Bytes},
    {telestation::link::TestKind::Telemetry, "Telemetry through the station: rates tried", "Rate asked for (Mbit/s, packet bytes)",
     "Delivered (% of sent)", nullptr, XScale::Log10},
};

const PlotLayout& layoutOf(telestation::link::TestKind test)
{
    for (const PlotLayout& layout : kLayouts)
        if (layout.test == test)
            return layout;
    return kLayouts[0];
}

const QColor kLimitColor = plot_theme::kTextColor;
const QColor kDeliveredColor = plot_theme::curveColor(2); // green
const QColor kLostColor = plot_theme::curveColor(3);      // red

QString linkText(const telestation::link::WireModel& wire)
{
    const QString source = QString::fromStdString(wire.source.empty() ? std::string("not given") : wire.source);
    if (!wire.known())
        return QObject::tr("Link speed unknown (%1): no wire limits drawn").arg(source);
    return QObject::tr("Link %1 (%2), MTU %3 B — dashed: the wire's limit")
        .arg(QString::fromStdString(telestation::link::bitRateText(wire.bitsPerSecond)), source)
        .arg(wire.mtu);
}

QString failureText(const telestation::link::LinkReport& report, telestation::link::TestKind test)
{
    for (const auto& [kind, why] : report.failures)
        if (kind == test)
            return QObject::tr("Not completed: %1").arg(QString::fromStdString(why));
    return {};
}

Status writeText(const std::filesystem::path& path, const std::string& content)
{
    std::ofstream out(path, std::ios::binary | std::ios::trunc);
    out << content;
    out.close();
    if (!out)
        return Error{"cannot write " + path.string(), {}};
    return {};
}

} // namespace

LinkPlot::LinkPlot(telestation::link::TestKind test, QWidget* parent) : QwtPlot(parent), m_test(test)
{
    const PlotLayout& layout = layoutOf(test);
    setObjectName(QStringLiteral("linkPlot-%1").arg(QLatin1String(telestation::link::testName(test).data(), static_cast<qsizetype>(telestation::link::testName(test).size()))));
    setAutoFillBackground(true);
    setPalette(plot_theme::darkPalette(palette()));
    QwtText title(tr(layout.title));
    QFont titleFont = font();
    titleFont.setBold(true);
    titleFont.setPointSizeF(titleFont.pointSizeF() * 1.25);
    title.setFont(titleFont);
    title.setColor(plot_theme::kTextColor);
    setTitle(title);
    plot_theme::setDarkCanvas(*this);

    setAxisTitle(QwtAxis::XBottom, tr(layout.xTitle));
    setAxisTitle(QwtAxis::YLeft, tr(layout.yTitle));
    switch (layout.x) {
    case XScale::Bytes:
    case XScale::Count: {
        auto* engine = new QwtLogScaleEngine(2);
        setAxisScaleEngine(QwtAxis::XBottom, engine);
        if (layout.x == XScale::Bytes)
            setAxisScaleDraw(QwtAxis::XBottom, new BytesScaleDraw);
        break;
    }
    case XScale::Log10:
        setAxisScaleEngine(QwtAxis::XBottom, new QwtLogScaleEngine(10));
        break;
    case XScale::Linear:
        break;
    }
    const std::vector<QwtAxisId> yAxes = layout.yRightTitle ? std::vector<QwtAxisId>{QwtAxis::YLeft, QwtAxis::YRight}
                                                            : std::vector<QwtAxisId>{QwtAxis::YLeft};
    for (const QwtAxisId axis : yAxes) {
        // Rates and percentages from zero, whatever the lowest figure.
        auto* engine = new QwtLinearScaleEngine;
        engine->setAttribute(QwtScaleEngine::IncludeReference, true);
        engine->setReference(0.0);
        setAxisScaleEngine(axis, engine);
        setAxisScaleDraw(axis, new RateScaleDraw);
        setAxisAutoScale(axis, true);
    }
    if (layout.yRightTitle) {
        setAxisVisible(QwtAxis::YRight, true);
        setAxisTitle(QwtAxis::YRight, tr(layout.yRightTitle));
    }
    if (test == telestation::link::TestKind::Telemetry)
        setAxisScale(QwtAxis::YLeft, 0.0, 105.0);

    auto* legend = new QwtLegend;
    legend->setObjectName(QStringLiteral("linkPlotLegend"));
    plot_theme::setDarkLegend(*legend, plot_theme::kCanvasColor, plot_theme::kTextColor);
    if (QLayout* entries = legend->contentsWidget()->layout())
        entries->setContentsMargins(8, 6, 8, 6);
    insertLegend(legend, QwtPlot::RightLegend);
    setContentsMargins(6, 8, 10, 6); // the title and the legend clear the window's (and the image's) edges
    setMinimumSize(320, 220);
    draw(telestation::link::LinkReport{}); // the axes before any report, with no footer: nothing is known yet
    updateAxes();
}

int LinkPlot::curveCount() const
{
    return static_cast<int>(itemList(QwtPlotItem::Rtti_PlotCurve).size());
}

std::size_t LinkPlot::pointCount() const
{
    std::size_t points = 0;
    for (const QwtPlotItem* item : itemList(QwtPlotItem::Rtti_PlotCurve))
        points += static_cast<const QwtPlotCurve*>(item)->dataSize();
    return points;
}

void LinkPlot::setReport(const telestation::link::LinkReport& report)
{
    detachItems(QwtPlotItem::Rtti_PlotCurve, true);
    detachItems(QwtPlotItem::Rtti_PlotMarker, true);
    QString footer = linkText(report.wire);
    if (const QString failed = failureText(report, m_test); !failed.isEmpty())
        footer += QStringLiteral("\n") + failed;
    QwtText footerText(footer);
    footerText.setColor(plot_theme::kTextColor);
    setFooter(footerText);
    draw(report);
    replot();
}

void LinkPlot::draw(const telestation::link::LinkReport& report)
{
    switch (m_test) {
    case telestation::link::TestKind::MessageRate: drawMessageRate(report); break;
    case telestation::link::TestKind::UdpGrid: drawUdpGrid(report); break;
    case telestation::link::TestKind::TcpFlows: drawFlows(report); break;
    case telestation::link::TestKind::BlockSweep: drawBlocks(report); break;
    case telestation::link::TestKind::Telemetry: drawTelemetry(report); break;
    }
}

// --- the items every plot is made of ---------------------------------------------------------------

QwtPlotCurve* LinkPlot::addCurve(const QString& title, const CurveStyle& style, const std::vector<QPointF>& points)
{
    auto* curve = new QwtPlotCurve(title);
    QPen pen(style.color, style.line == Line::Solid ? 2.0 : 1.5);
    pen.setStyle(style.line == Line::Dashed ? Qt::DashLine : style.line == Line::Dotted ? Qt::DotLine : Qt::SolidLine);
    curve->setPen(pen);
    if (style.line == Line::None)
        curve->setStyle(QwtPlotCurve::NoCurve);
    if (style.symbols) {
        // Open symbols on dashed curves, so that two curves meeting still show both.
        const QBrush brush = style.line == Line::Dashed ? QBrush(plot_theme::kCanvasColor) : QBrush(style.color);
        curve->setSymbol(new QwtSymbol(QwtSymbol::Ellipse, brush, QPen(style.color, 1.5), QSize(8, 8)));
    }
    curve->setRenderHint(QwtPlotItem::RenderAntialiased);
    curve->setLegendAttribute(QwtPlotCurve::LegendShowLine, true);
    curve->setLegendAttribute(QwtPlotCurve::LegendShowSymbol, style.symbols);
    curve->setItemAttribute(QwtPlotItem::Legend, style.legend);
    curve->setYAxis(style.yAxis);
    curve->setSamples(QVector<QPointF>(points.begin(), points.end()));
    curve->attach(this);
    return curve;
}

void LinkPlot::addHorizontalLimit(const QString& title, const QColor& color, double y, double x0, double x1)
{
    addCurve(title, CurveStyle{color, Line::Dashed, false, true, QwtAxis::YLeft}, {QPointF(x0, y), QPointF(x1, y)});
}

void LinkPlot::addVerticalLine(const QString& title, const QColor& color, Line line, double x, double y0, double y1)
{
    addCurve(title, CurveStyle{color, line, false, !title.isEmpty(), QwtAxis::YLeft}, {QPointF(x, y0), QPointF(x, y1)});
}

void LinkPlot::addVerticalMarker(const QColor& color, double x)
{
    auto* marker = new QwtPlotMarker;
    marker->setLineStyle(QwtPlotMarker::VLine);
    marker->setLinePen(color, 1.5, Qt::DotLine);
    marker->setXValue(x);
    marker->attach(this);
}

void LinkPlot::setLogXRange(const std::vector<double>& xs, double base, double emptyLow, double emptyHigh)
{
    double low = 0;
    double high = 0;
    for (const double x : xs)
        if (x > 0) {
            low = low > 0 ? std::min(low, x) : x;
            high = std::max(high, x);
        }
    if (low <= 0) { // nothing measured yet: the test's usual span, so that the axis reads sensibly
        low = emptyLow;
        high = emptyHigh;
    }
    // Room for the symbols at either end.
    const double room = std::sqrt(base);
    setAxisScale(QwtAxis::XBottom, low / room, high * room);
}

// --- the tests ---------------------------------------------------------------------------------------

void LinkPlot::drawMessageRate(const telestation::link::LinkReport& report)
{
    std::vector<double> xs;
    for (const telestation::link::Transport transport : {telestation::link::Transport::Tcp, telestation::link::Transport::Udp}) {
        std::vector<QPointF> measured;
        std::vector<QPointF> limit;
        for (const auto& row : report.messageRate) {
            if (row.transport != transport || row.bytes == 0)
                continue;
            measured.emplace_back(row.bytes, row.kilobytesPerSecond);
            if (row.limitKilobytesPerSecond)
                limit.emplace_back(row.bytes, *row.limitKilobytesPerSecond);
            xs.push_back(row.bytes);
        }
        const auto byX = [](const QPointF& a, const QPointF& b) { return a.x() < b.x(); };
        std::sort(measured.begin(), measured.end(), byX);
        std::sort(limit.begin(), limit.end(), byX);
        const QString name = transport == telestation::link::Transport::Tcp ? QStringLiteral("TCP") : QStringLiteral("UDP");
        const QColor color = plot_theme::curveColor(transport == telestation::link::Transport::Tcp ? 0 : 1);
        if (!measured.empty())
            addCurve(name, CurveStyle{color, Line::Solid, true, true, QwtAxis::YLeft}, measured);
        if (!limit.empty())
            addCurve(tr("%1 wire limit").arg(name), CurveStyle{color, Line::Dashed, false, true, QwtAxis::YLeft}, limit);
    }
    setLogXRange(xs, 2, 4, 65536); // message sizes
}

void LinkPlot::drawUdpGrid(const telestation::link::LinkReport& report)
{
    // The sizes in the order they were measured, each with its rows by gap.
    std::vector<std::uint32_t> sizes;
    for (const auto& row : report.udpGrid)
        if (std::find(sizes.begin(), sizes.end(), row.bytes) == sizes.end())
            sizes.push_back(row.bytes);
    double highest = 0;
    for (std::size_t i = 0; i < sizes.size(); ++i) {
        std::vector<QPointF> sent;
        std::vector<QPointF> received;
        std::optional<double> wireMicroseconds;
        for (const auto& row : report.udpGrid) {
            if (row.bytes != sizes[i])
                continue;
            const double gap = double(row.gapNs) / 1e3;
            sent.emplace_back(gap, row.sendMbps);
            received.emplace_back(gap, row.receiveMbps);
            highest = std::max(highest, gap);
            if (row.wireNs)
                wireMicroseconds = *row.wireNs / 1e3;
        }
        const auto byX = [](const QPointF& a, const QPointF& b) { return a.x() < b.x(); };
        std::sort(sent.begin(), sent.end(), byX);
        std::sort(received.begin(), received.end(), byX);
        // Left of the size's dotted line the gap asked for is shorter than the packet's time on the
        // wire: the sender cannot keep it, and the rates flatten into the wedge. The legend says where.
        const QColor color = plot_theme::curveColor(i);
        const QString wire = wireMicroseconds ? tr(" (wire %1 µs)").arg(*wireMicroseconds, 0, 'f', 1) : QString();
        addCurve(tr("%1 B send%2").arg(sizes[i]).arg(wire), CurveStyle{color, Line::Solid, true, true, QwtAxis::YLeft}, sent);
        addCurve(tr("%1 B receive").arg(sizes[i]), CurveStyle{color, Line::Dashed, true, true, QwtAxis::YLeft}, received);
        if (wireMicroseconds) {
            addVerticalMarker(color, *wireMicroseconds);
            highest = std::max(highest, *wireMicroseconds);
        }
    }
    if (highest <= 0)
        highest = 1;
    setAxisScale(QwtAxis::XBottom, -0.03 * highest, 1.06 * highest);
}

void LinkPlot::drawFlows(const telestation::link::LinkReport& report)
{
    std::vector<QPointF> median;
    std::vector<QPointF> mean;
    std::vector<double> xs;
    std::optional<double> limit;
    for (const auto& row : report.flows) {
        median.emplace_back(row.flows, row.medianMbps);
        mean.emplace_back(row.flows, row.meanMbps);
        xs.push_back(row.flows);
        if (row.limitMbps)
            limit = row.limitMbps;
    }
    const auto byX = [](const QPointF& a, const QPointF& b) { return a.x() < b.x(); };
    std::sort(median.begin(), median.end(), byX);
    std::sort(mean.begin(), mean.end(), byX);
    if (!median.empty()) {
        addCurve(tr("median of intervals"), CurveStyle{plot_theme::curveColor(0), Line::Solid, true, true, QwtAxis::YLeft}, median);
        addCurve(tr("mean over the run"), CurveStyle{plot_theme::curveColor(4), Line::Dotted, true, true, QwtAxis::YLeft}, mean);
    }
    if (limit && !median.empty())
        addHorizontalLimit(tr("TCP wire limit"), kLimitColor, *limit, median.front().x(), median.back().x());
    setLogXRange(xs, 2, 1, 16); // flows
}

void LinkPlot::drawBlocks(const telestation::link::LinkReport& report)
{
    std::vector<QPointF> rate;
    std::vector<QPointF> senderCpu;
    std::vector<QPointF> receiverCpu;
    std::vector<double> xs;
    std::optional<double> limit;
    for (const auto& row : report.blocks) {
        rate.emplace_back(row.blockBytes, row.mbps);
        senderCpu.emplace_back(row.blockBytes, row.senderCpuPercent);
        receiverCpu.emplace_back(row.blockBytes, row.receiverCpuPercent);
        xs.push_back(row.blockBytes);
        if (row.limitMbps)
            limit = row.limitMbps;
    }
    const auto byX = [](const QPointF& a, const QPointF& b) { return a.x() < b.x(); };
    for (auto* points : {&rate, &senderCpu, &receiverCpu})
        std::sort(points->begin(), points->end(), byX);
    if (!rate.empty()) {
        addCurve(tr("Mbit/s"), CurveStyle{plot_theme::curveColor(0), Line::Solid, true, true, QwtAxis::YLeft}, rate);
        addCurve(tr("sender CPU %"), CurveStyle{plot_theme::curveColor(1), Line::Dotted, true, true, QwtAxis::YRight}, senderCpu);
        addCurve(tr("receiver CPU %"), CurveStyle{plot_theme::curveColor(4), Line::Dotted, true, true, QwtAxis::YRight}, receiverCpu);
    }
    if (limit && !rate.empty())
        addHorizontalLimit(tr("TCP wire limit"), kLimitColor, *limit, rate.front().x(), rate.back().x());
    setLogXRange(xs, 2, 16, 262144); // block sizes
}

void LinkPlot::drawTelemetry(const telestation::link::LinkReport& report)
{
    if (!report.telemetry)
        return setLogXRange({}, 10, 10, 1000); // Mbit/s
    const telestation::link::TelemetryResult& result = *report.telemetry;
    std::vector<QPointF> delivered;
    std::vector<QPointF> lost;
    std::vector<double> xs;
    for (const auto& attempt : result.tries) {
        const double percent = attempt.sent ? 100.0 * double(attempt.station.processed) / double(attempt.sent) : 0.0;
        (attempt.delivered() ? delivered : lost).emplace_back(attempt.mbps, std::min(percent, 100.0));
        xs.push_back(attempt.mbps);
    }
    const QString packet = QString::fromStdString(result.packet);
    addCurve(tr("%1: 100% delivered").arg(packet), CurveStyle{kDeliveredColor, Line::None, true, true, QwtAxis::YLeft}, delivered);
    addCurve(tr("%1: not all delivered").arg(packet), CurveStyle{kLostColor, Line::None, true, true, QwtAxis::YLeft}, lost);
    if (result.bestMbps) {
        addVerticalLine(tr("best: %1 Mbit/s").arg(*result.bestMbps, 0, 'f', 2), kDeliveredColor, Line::Solid, *result.bestMbps, 0, 100);
        xs.push_back(*result.bestMbps);
    }
    if (result.limitMbps) {
        addVerticalLine(tr("wire limit: %1 Mbit/s").arg(*result.limitMbps, 0, 'f', 1), kLimitColor, Line::Dashed, *result.limitMbps, 0, 100);
        xs.push_back(*result.limitMbps);
    }
    setLogXRange(xs, 10, 10, 1000); // Mbit/s
}

// --- files -------------------------------------------------------------------------------------------

bool hasPlotData(const telestation::link::LinkReport& report, telestation::link::TestKind test)
{
    switch (test) {
    case telestation::link::TestKind::MessageRate: return !report.messageRate.empty();
    case telestation::link::TestKind::UdpGrid: return !report.udpGrid.empty();
    case telestation::link::TestKind::TcpFlows: return !report.flows.empty();
    case telestation::link::TestKind::BlockSweep: return !report.blocks.empty();
    case telestation::link::TestKind::Telemetry: return report.telemetry && !report.telemetry->tries.empty();
    }
    return false;
}

Result<std::vector<std::string>> writeLinkPlots(const telestation::link::LinkReport& report, const std::string& directory)
{
    std::vector<std::string> written;
    for (const telestation::link::TestKind test : telestation::link::kAllTests) {
        if (!hasPlotData(report, test))
            continue;
        LinkPlot plot(test);
        plot.resize(LinkPlot::kImageWidth, LinkPlot::kImageHeight);
        plot.setReport(report);
        QImage image(LinkPlot::kImageWidth, LinkPlot::kImageHeight, QImage::Format_ARGB32_Premultiplied);
        image.fill(plot_theme::kFrameColor);
        QwtPlotRenderer renderer;
        renderer.renderTo(&plot, image);
        const std::string path = (std::filesystem::path(directory) / ("link-" + std::string(telestation::link::testName(test)) + ".png")).string();
        if (!image.save(QString::fromStdString(path), "PNG"))
            return Error{"cannot write " + path, {}};
        written.push_back(path);
    }
    return written;
}

Result<std::vector<std::string>> writeLinkReport(const telestation::link::LinkReport& report, const std::string& directory)
{
    std::error_code ec;
    std::filesystem::create_directories(directory, ec);
    if (ec)
        return Error{"cannot create " + directory + ": " + ec.message(), {}};
    const std::filesystem::path dir(directory);
    std::vector<std::pair<std::string, std::string>> files{{"link-report.md", telestation::link::toMarkdown(report)},
                                                           {"link-report.json", telestation::link::toJson(report).dump(2) + "\n"}};
    for (auto& csv : telestation::link::toCsvFiles(report))
        files.push_back(std::move(csv));
    std::vector<std::string> written;
    for (const auto& [name, content] : files) {
        if (auto status = writeText(dir / name, content); !status)
            return status.error();
        written.push_back((dir / name).string());
    }
    auto plots = writeLinkPlots(report, directory);
    if (!plots)
        return plots.error();
    written.insert(written.end(), plots->begin(), plots->end());
    return written;
}

} // namespace telestation::sim::gui
