#include "tools/perf/perf_chart.hpp"

#include <QBrush>
#include <QColor>
#include <QFont>
#include <QFontMetrics>
#include <QGuiApplication>
#include <QImageWriter>
#include <QPainter>
#include <QRect>
#include <QSaveFile>
#include <QString>

#include <algorithm>
#include <cmath>
#include <limits>
#include <optional>

namespace telestation::perf {
namespace {

// Beyond this the image is a mistake, not a chart (and would cost gigabytes).
constexpr int kMaxDimension = 16384;
// Below this the row labels, bars and value labels cannot share a line.
constexpr int kMinWidth = 320;
// The width the sizes below are designed for; other widths scale them.
constexpr double kDesignWidth = 1200.0;
// More decades than this squeezes every bar into a sliver; smaller values are clamped to the left edge.
constexpr int kMaxDecades = 12;

const QColor kTextColor(0x20, 0x21, 0x24);
const QColor kSecondaryTextColor(0x5f, 0x63, 0x68);
const QColor kMajorGridColor(0xcc, 0xd0, 0xd5);
const QColor kMinorGridColor(0xee, 0xf0, 0xf2);
const QColor kAxisColor(0x80, 0x86, 0x8b);
const QColor kBandColor(0xf6, 0xf7, 0xf9);
// The ratio is ours, so it takes a darker shade of our bar's colour (not the bar's exact colour, which
// tests look for).
const QColor kRatioColor(0x0d, 0x3c, 0x8a);
// A bar that lost packets: a pale fill of our colour under our colour's hatching, so it still reads as ours.
const QColor kLossFillColor(0xd6, 0xe3, 0xf6);
// Digit groups: "3 120", with a space that never breaks the number and is narrower than a word space.
const QChar kGroupSeparator(0x202F);
const QChar kTimesSign(0x00D7);

bool measured(double mbps)
{
    return std::isfinite(mbps) && mbps > 0;
}

// Fonts, margins and bars grow with the image, so a 2400 px chart looks like a 1200 px one, only sharper.
double scaleFor(int width)
{
    // Not below 0.85: smaller text stops being readable long before the bars stop fitting.
    return std::clamp(width / kDesignWidth, 0.85, 3.0);
}

int toInt(double v)
{
    return static_cast<int>(std::lround(v));
}

QString groupThousands(long long n)
{
    const QString digits = QString::number(n < 0 ? -n : n);
    QString out;
    for (qsizetype i = 0; i < digits.size(); ++i) {
        if (i > 0 && (digits.size() - i) % 3 == 0)
            out += kGroupSeparator;
        out += digits[i];
    }
    return n < 0 ? QStringLiteral("-") + out : out;
}

// "30.5", "5" — no trailing zeros, which would suggest a precision TReK's figures do not have.
QString trimmedDecimal(double v, int decimals)
{
    QString s = QString::number(v, 'f', decimals);
    if (s.contains(QLatin1Char('.'))) {
        while (s.endsWith(QLatin1Char('0')))
            s.chop(1);
        if (s.endsWith(QLatin1Char('.')))
            s.chop(1);
    }
    return s;
}

// About three significant digits, whole numbers grouped: "3 120", "25.6", "4.25", "0.125".
QString formatNumber(double v)
{
    if (v >= 99.5)
        return groupThousands(std::llround(v));
    if (v >= 9.995)
        return trimmedDecimal(v, 1);
    if (v >= 0.9995)
        return trimmedDecimal(v, 2);
    return QString::number(v, 'g', 3);
}

QString formatMbps(double v)
{
    return formatNumber(v) + QStringLiteral(" Mbit/s");
}

// Whole numbers from 10 up: "×122", not "×121.9", which claims more than two runs on different machines
// can say.
QString formatRatio(double ratio)
{
    if (ratio >= 9.95)
        return kTimesSign + groupThousands(std::llround(ratio));
    if (ratio >= 0.995)
        return kTimesSign + trimmedDecimal(ratio, 1);
    return kTimesSign + trimmedDecimal(ratio, 2);
}

QString decadeLabel(int exponent)
{
    if (exponent >= 0)
        return groupThousands(std::llround(std::pow(10.0, exponent)));
    return QString::number(std::pow(10.0, exponent), 'f', -exponent);
}

// The decades that enclose every value drawn: strictly below the smallest (a value on the axis's left
// edge would be a bar of no length) and at or above the largest.
struct DecadeRange {
    int low = 0;
    int high = 3;
};

DecadeRange decadeRange(const std::vector<ChartRow>& rows)
{
    double smallest = std::numeric_limits<double>::infinity();
    double largest = 0;
    for (const ChartRow& row : rows) {
        for (const double v : {row.oursMbps, row.trekMbps, row.referenceMbps}) {
            if (!measured(v))
                continue;
            smallest = std::min(smallest, v);
            largest = std::max(largest, v);
        }
    }
    if (largest <= 0)
        return {};
    DecadeRange range;
    range.low = static_cast<int>(std::floor(std::log10(smallest)));
    if (std::pow(10.0, range.low) >= smallest * (1 - 1e-12))
        --range.low;
    range.high = static_cast<int>(std::ceil(std::log10(largest)));
    if (std::pow(10.0, range.high) < largest)
        ++range.high;
    range.high = std::max(range.high, range.low + 1);
    range.low = std::max(range.low, range.high - kMaxDecades);
    return range;
}

struct LogAxis {
    DecadeRange decades;
    int left = 0;
    int right = 0;

    int xOf(double mbps) const
    {
        const double t = (std::log10(mbps) - decades.low) / double(decades.high - decades.low);
        return left + toInt(std::clamp(t, 0.0, 1.0) * (right - left));
    }
};

struct Fonts {
    QFont title;
    QFont subtitle;
    QFont legend;
    QFont rowLabel;
    QFont value;
    QFont valueBold;
    QFont note;
    QFont axis;
    QFont axisTitle;
};

Fonts makeFonts(double scale)
{
    QFont base = QGuiApplication::font();
    base.setStyleHint(QFont::SansSerif);
    // Pixel sizes, not points: the image has no screen, and its text must not change with one's DPI.
    const auto sized = [&](double px, bool bold = false, bool italic = false) {
        QFont f(base);
        f.setPixelSize(std::max(6, toInt(px * scale)));
        f.setBold(bold);
        f.setItalic(italic);
        return f;
    };
    return {sized(22, true), sized(14), sized(14), sized(14), sized(13), sized(13, true), sized(13, false, true),
            sized(13), sized(13)};
}

enum class Swatch { Trek, Ours, Loss, Reference };

struct LegendEntry {
    Swatch swatch;
    QString text;
    QPoint topLeft; // of the swatch
};

// A title or subtitle: wrapped onto at most two lines (the caller's titles can be long), else elided
// onto one.
struct TextBlock {
    QString text;
    QRect box;
    bool wrapped = false;
};

TextBlock fitText(const QFontMetrics& metrics, const QString& text, QPoint topLeft, int width)
{
    const QRect wrapped = metrics.boundingRect(QRect(0, 0, width, 100000), Qt::TextWordWrap, text);
    // Fewer than three lines (the bounding box of two is a few pixels taller than two line heights).
    if (wrapped.height() < metrics.height() + 2 * metrics.lineSpacing())
        return {text, QRect(topLeft, QSize(width, wrapped.height())), true};
    return {metrics.elidedText(text, Qt::ElideRight, width), QRect(topLeft, QSize(width, metrics.height())), false};
}

void drawTextBlock(QPainter& painter, const TextBlock& block)
{
    const int flags = block.wrapped ? Qt::AlignLeft | Qt::AlignTop | Qt::TextWordWrap : Qt::AlignLeft | Qt::AlignTop;
    painter.drawText(block.box, flags, block.text);
}

struct Layout {
    double scale = 1;
    int width = 0;
    int height = 0;
    int margin = 0;
    int gap = 0; // between a bar and its label, and similar small spaces
    TextBlock title;
    TextBlock subtitle;
    std::vector<LegendEntry> legend;
    QSize swatchSize;
    int legendLineHeight = 0;
    int labelWidth = 0;
    LogAxis axis;
    int plotTop = 0;
    int plotBottom = 0;
    int groupHeight = 0;
    int groupPadding = 0;
    int barHeight = 0;
    int barGap = 0;
    int axisLabelBaseline = 0;
    int axisTitleBaseline = 0;
    // The reference value shown in the legend when every row shares it; then ticks carry no label.
    std::optional<double> commonReference;
    // False when a given height leaves too little room for the text (see shrinkToFit()).
    bool showValues = true;
    bool showRowLabels = true;
};

// Shrinks `font` until a line of it fits `height` pixels, down to a legible minimum; false if even that
// does not fit. A given chart height can leave lanes thinner than the text: the labels then shrink, and
// below the minimum are left out rather than drawn over each other.
bool shrinkToFit(QFont& font, int height)
{
    constexpr int kMinPixelSize = 8;
    while (QFontMetrics(font).height() > height && font.pixelSize() > kMinPixelSize)
        font.setPixelSize(font.pixelSize() - 1);
    return QFontMetrics(font).height() <= height;
}

std::vector<LegendEntry> legendEntries(const std::vector<ChartRow>& rows, const ChartOptions& options,
                                       std::optional<double> commonReference)
{
    std::vector<LegendEntry> entries{{Swatch::Trek, QStringLiteral("TReK Release 1 on the PC-933 (2001)"), {}},
                                     {Swatch::Ours, QStringLiteral("Telestation on this machine"), {}}};
    const bool anyLoss = std::any_of(rows.begin(), rows.end(),
                                     [](const ChartRow& row) { return !row.passed && measured(row.oursMbps); });
    if (anyLoss)
        entries.push_back({Swatch::Loss, QStringLiteral("Telestation, loss at every rate tried"), {}});
    const bool anyReference
        = std::any_of(rows.begin(), rows.end(), [](const ChartRow& row) { return measured(row.referenceMbps); });
    if (anyReference) {
        QString text = QString::fromStdString(options.referenceLabel);
        if (commonReference)
            text += QStringLiteral(" (%1)").arg(formatMbps(*commonReference));
        entries.push_back({Swatch::Reference, text, {}});
    }
    return entries;
}

std::optional<double> commonReference(const std::vector<ChartRow>& rows)
{
    std::optional<double> common;
    for (const ChartRow& row : rows) {
        if (!measured(row.referenceMbps))
            continue;
        if (common && *common != row.referenceMbps)
            return std::nullopt;
        common = row.referenceMbps;
    }
    return common;
}

// Top to bottom: title, subtitle, legend (flowed onto as many lines as it needs), the row groups, the
// decade labels and the axis title. The height is either given, and the groups share what is left, or
// follows from a comfortable group height; in the first case the fonts of the rows may have to shrink.
Layout computeLayout(const std::vector<ChartRow>& rows, const ChartOptions& options, Fonts& fonts)
{
    Layout layout;
    layout.width = options.width;
    layout.scale = scaleFor(options.width);
    const double s = layout.scale;
    layout.margin = toInt(24 * s);
    layout.gap = toInt(6 * s);
    layout.commonReference = commonReference(rows);

    const QFontMetrics titleMetrics(fonts.title);
    const QFontMetrics subtitleMetrics(fonts.subtitle);
    const QFontMetrics legendMetrics(fonts.legend);
    const QFontMetrics labelMetrics(fonts.rowLabel);
    const QFontMetrics axisMetrics(fonts.axis);
    const QFontMetrics axisTitleMetrics(fonts.axisTitle);

    const int textWidth = layout.width - 2 * layout.margin;
    int y = layout.margin;
    layout.title = fitText(titleMetrics, QString::fromStdString(options.title), QPoint(layout.margin, y), textWidth);
    y += layout.title.box.height();
    if (!options.subtitle.empty()) {
        y += toInt(4 * s);
        layout.subtitle = fitText(subtitleMetrics, QString::fromStdString(options.subtitle),
                                  QPoint(layout.margin, y), textWidth);
        y += layout.subtitle.box.height();
    }
    y += toInt(14 * s);

    layout.swatchSize = QSize(toInt(26 * s), toInt(14 * s));
    layout.legendLineHeight = std::max(legendMetrics.height(), layout.swatchSize.height()) + toInt(6 * s);
    layout.legend = legendEntries(rows, options, layout.commonReference);
    const int legendRight = layout.width - layout.margin;
    int x = layout.margin;
    const int longestText = legendRight - layout.margin - layout.swatchSize.width() - layout.gap;
    for (LegendEntry& entry : layout.legend) {
        entry.text = legendMetrics.elidedText(entry.text, Qt::ElideRight, longestText);
        const int entryWidth = layout.swatchSize.width() + layout.gap + legendMetrics.horizontalAdvance(entry.text);
        if (x > layout.margin && x + entryWidth > legendRight) {
            x = layout.margin;
            y += layout.legendLineHeight;
        }
        entry.topLeft = QPoint(x, y + (layout.legendLineHeight - layout.swatchSize.height()) / 2);
        x += entryWidth + toInt(28 * s);
    }
    y += layout.legendLineHeight + toInt(14 * s);
    layout.plotTop = y;

    // Row labels take what they need up to 30 % of the width; longer ones wrap (or are elided).
    int widest = 0;
    for (const ChartRow& row : rows)
        widest = std::max(widest, labelMetrics.horizontalAdvance(QString::fromStdString(row.label)));
    layout.labelWidth = std::min(widest, toInt(layout.width * 0.3));

    // The last decade label is centred on the axis's right end, so half of it must fit in the margin.
    layout.axis.decades = decadeRange(rows);
    layout.axis.left = layout.margin + layout.labelWidth + toInt(18 * s);
    const int lastLabelHalf = axisMetrics.horizontalAdvance(decadeLabel(layout.axis.decades.high)) / 2;
    layout.axis.right = layout.width - layout.margin - std::max(lastLabelHalf, toInt(8 * s));

    const int tickLength = toInt(5 * s);
    const int footer = tickLength + toInt(4 * s) + axisMetrics.height() + toInt(8 * s) + axisTitleMetrics.height()
                       + layout.margin;
    const int groups = std::max<int>(1, static_cast<int>(rows.size()));
    if (options.height > 0) {
        layout.height = options.height;
        layout.groupHeight = std::max(4, (options.height - footer - layout.plotTop) / groups);
    } else {
        layout.groupHeight = toInt(66 * s);
    }
    layout.groupPadding = std::max(1, toInt(layout.groupHeight * 0.17));
    layout.barGap = std::max(1, toInt(layout.groupHeight * 0.06));
    layout.barHeight = std::max(1, (layout.groupHeight - 2 * layout.groupPadding - layout.barGap) / 2);
    layout.plotBottom = layout.plotTop + groups * layout.groupHeight;
    const int lanePitch = layout.barHeight + layout.barGap;
    layout.showValues = shrinkToFit(fonts.value, lanePitch) && shrinkToFit(fonts.valueBold, lanePitch)
                        && shrinkToFit(fonts.note, lanePitch);
    layout.showRowLabels = shrinkToFit(fonts.rowLabel, layout.groupHeight);
    if (options.height <= 0)
        layout.height = layout.plotBottom + footer;

    const int axisLabelTop = layout.plotBottom + tickLength + toInt(4 * s);
    layout.axisLabelBaseline = axisLabelTop + axisMetrics.ascent();
    layout.axisTitleBaseline = axisLabelTop + axisMetrics.height() + toInt(8 * s) + axisTitleMetrics.ascent();
    return layout;
}

// A label of a value with an optional second part in another font and colour: "3 120 Mbit/s  ×122".
struct ValueLabel {
    QString value;
    QString extra;
    QColor extraColor;

    int width(const Fonts& fonts) const
    {
        const int valueWidth = QFontMetrics(fonts.value).horizontalAdvance(value);
        if (extra.isEmpty())
            return valueWidth;
        return valueWidth + QFontMetrics(fonts.value).horizontalAdvance(QStringLiteral("  "))
               + QFontMetrics(fonts.valueBold).horizontalAdvance(extra);
    }
};

struct Interval {
    int from = 0;
    int to = 0;

    bool overlaps(int a, int b) const { return a < to && b > from; }
};

struct Placement {
    int x = 0;
    bool inside = false; // drawn over the bar's end
    bool plate = false;  // needs a white plate behind it to stay readable
};

// Right of the bar when it fits there, else inside the bar's end; either way clear of the reference tick
// that crosses the row. When nothing is clear, the label sits on a white plate.
Placement placeLabel(QRect bar, int textWidth, int limitRight, std::optional<Interval> tick, int gap)
{
    const auto clear = [&](int a, int b) { return !tick || !tick->overlaps(a - gap / 2, b + gap / 2); };
    const int outside = bar.right() + 1 + gap;
    if (outside + textWidth <= limitRight && clear(outside, outside + textWidth))
        return {outside, false, false};
    const int inside = bar.right() + 1 - gap - textWidth;
    const bool fitsInside = inside >= bar.left() + gap;
    if (fitsInside && clear(inside, inside + textWidth))
        return {inside, true, false};
    // A tick crossing the bar's end: inside the bar, just left of the tick.
    if (tick && tick->from <= bar.right()) {
        const int beforeTick = tick->from - gap - textWidth;
        if (beforeTick >= bar.left() + gap)
            return {beforeTick, true, false};
    }
    if (tick) {
        const int beyond = tick->to + gap;
        if (beyond >= outside && beyond + textWidth <= limitRight)
            return {beyond, false, false};
    }
    if (fitsInside)
        return {inside, true, true};
    return {std::max(bar.left(), limitRight - textWidth), false, true};
}

void drawValueLabel(QPainter& painter, const Fonts& fonts, const ValueLabel& label, QPoint baselineStart,
                    const QColor& valueColor, const QColor& extraColor)
{
    painter.setFont(fonts.value);
    painter.setPen(valueColor);
    painter.drawText(baselineStart, label.value);
    if (label.extra.isEmpty())
        return;
    const QFontMetrics metrics(fonts.value);
    const int x = baselineStart.x() + metrics.horizontalAdvance(label.value + QStringLiteral("  "));
    painter.setFont(fonts.valueBold);
    painter.setPen(extraColor);
    painter.drawText(QPoint(x, baselineStart.y()), label.extra);
}

// Bars are filled without anti-aliasing on whole pixels, so their colour is exact and their ends crisp.
void fillBar(QPainter& painter, QRect bar, bool loss)
{
    if (!loss) {
        painter.fillRect(bar, QColor(kTelestationBarColor));
        return;
    }
    painter.fillRect(bar, kLossFillColor);
    painter.fillRect(bar, QBrush(QColor(kTelestationBarColor), Qt::BDiagPattern));
    const int outline = std::max(1, std::min(2, bar.height() / 4));
    painter.fillRect(QRect(bar.left(), bar.top(), bar.width(), outline), QColor(kLossOutlineColor));
    painter.fillRect(QRect(bar.left(), bar.bottom() + 1 - outline, bar.width(), outline), QColor(kLossOutlineColor));
    painter.fillRect(QRect(bar.left(), bar.top(), outline, bar.height()), QColor(kLossOutlineColor));
    painter.fillRect(QRect(bar.right() + 1 - outline, bar.top(), outline, bar.height()), QColor(kLossOutlineColor));
}

void drawReferenceTick(QPainter& painter, int x, int top, int bottom, int thickness)
{
    // A white edge keeps the tick visible where it crosses a bar.
    painter.fillRect(QRect(x - thickness / 2 - 1, top, thickness + 2, bottom - top), Qt::white);
    painter.fillRect(QRect(x - thickness / 2, top, thickness, bottom - top), QColor(kReferenceTickColor));
}

void drawSwatch(QPainter& painter, const Layout& layout, const LegendEntry& entry)
{
    const QRect box(entry.topLeft, layout.swatchSize);
    switch (entry.swatch) {
    case Swatch::Trek:
        painter.fillRect(box, QColor(kTrekBarColor));
        break;
    case Swatch::Ours:
        painter.fillRect(box, QColor(kTelestationBarColor));
        break;
    case Swatch::Loss:
        fillBar(painter, box, true);
        break;
    case Swatch::Reference: {
        const int thickness = std::max(2, toInt(3 * layout.scale));
        drawReferenceTick(painter, box.center().x(), box.top() - toInt(3 * layout.scale),
                          box.bottom() + 1 + toInt(3 * layout.scale), thickness);
        break;
    }
    }
}

void drawHeader(QPainter& painter, const Layout& layout, const Fonts& fonts)
{
    painter.setPen(kTextColor);
    painter.setFont(fonts.title);
    drawTextBlock(painter, layout.title);
    if (!layout.subtitle.text.isEmpty()) {
        painter.setPen(kSecondaryTextColor);
        painter.setFont(fonts.subtitle);
        drawTextBlock(painter, layout.subtitle);
    }
    const QFontMetrics legendMetrics(fonts.legend);
    painter.setFont(fonts.legend);
    for (const LegendEntry& entry : layout.legend) {
        drawSwatch(painter, layout, entry);
        const int textX = entry.topLeft.x() + layout.swatchSize.width() + layout.gap;
        const int baseline = entry.topLeft.y() + (layout.swatchSize.height() + legendMetrics.ascent()
                                                  - legendMetrics.descent()) / 2;
        painter.setPen(kTextColor);
        painter.drawText(QPoint(textX, baseline), entry.text);
    }
}

// Decade lines, and between them the 2..9 lines when the decades are wide enough for them not to blur.
void drawGrid(QPainter& painter, const Layout& layout)
{
    const LogAxis& axis = layout.axis;
    const int decadeWidth = (axis.right - axis.left) / (axis.decades.high - axis.decades.low);
    if (decadeWidth >= toInt(60 * layout.scale)) {
        for (int e = axis.decades.low; e < axis.decades.high; ++e) {
            for (int m = 2; m <= 9; ++m) {
                const int x = axis.xOf(m * std::pow(10.0, e));
                painter.fillRect(QRect(x, layout.plotTop, 1, layout.plotBottom - layout.plotTop), kMinorGridColor);
            }
        }
    }
    for (int e = axis.decades.low; e <= axis.decades.high; ++e) {
        const int x = axis.xOf(std::pow(10.0, e));
        painter.fillRect(QRect(x, layout.plotTop, 1, layout.plotBottom - layout.plotTop), kMajorGridColor);
    }
}

void drawAxis(QPainter& painter, const Layout& layout, const Fonts& fonts)
{
    const LogAxis& axis = layout.axis;
    const int tickLength = toInt(5 * layout.scale);
    painter.fillRect(QRect(axis.left, layout.plotTop, 1, layout.plotBottom - layout.plotTop), kAxisColor);
    painter.fillRect(QRect(axis.left, layout.plotBottom, axis.right - axis.left + 1, 1), kAxisColor);

    // Every decade is labelled unless the labels would touch; then every second, third, ... one.
    const QFontMetrics metrics(fonts.axis);
    const int decades = axis.decades.high - axis.decades.low;
    const double decadeWidth = double(axis.right - axis.left) / decades;
    int widest = 0;
    for (int e = axis.decades.low; e <= axis.decades.high; ++e)
        widest = std::max(widest, metrics.horizontalAdvance(decadeLabel(e)));
    int step = 1;
    while (step < decades && step * decadeWidth < widest + 12 * layout.scale)
        ++step;

    painter.setFont(fonts.axis);
    painter.setPen(kSecondaryTextColor);
    for (int e = axis.decades.low; e <= axis.decades.high; ++e) {
        const int x = axis.xOf(std::pow(10.0, e));
        painter.fillRect(QRect(x, layout.plotBottom, 1, tickLength), kAxisColor);
        if ((e - axis.decades.low) % step != 0)
            continue;
        const QString text = decadeLabel(e);
        painter.drawText(QPoint(x - metrics.horizontalAdvance(text) / 2, layout.axisLabelBaseline), text);
    }

    const QFontMetrics titleMetrics(fonts.axisTitle);
    QString title = QStringLiteral("Throughput, Mbit/s (logarithmic scale)");
    if (titleMetrics.horizontalAdvance(title) > layout.width - 2 * layout.margin)
        title = titleMetrics.elidedText(QStringLiteral("Mbit/s (log scale)"), Qt::ElideRight,
                                        layout.width - 2 * layout.margin);
    painter.setFont(fonts.axisTitle);
    painter.setPen(kTextColor);
    // Centred under the axis, moved left if that would run off the image.
    const int titleWidth = titleMetrics.horizontalAdvance(title);
    const int titleX = std::min((axis.left + axis.right - titleWidth) / 2, layout.width - layout.margin - titleWidth);
    painter.drawText(QPoint(std::max(layout.margin, titleX), layout.axisTitleBaseline), title);
}

void drawRowLabel(QPainter& painter, const Layout& layout, const Fonts& fonts, const QString& label, int groupTop)
{
    if (layout.labelWidth <= 0 || !layout.showRowLabels)
        return;
    const QFontMetrics metrics(fonts.rowLabel);
    const QRect box(layout.margin, groupTop, layout.labelWidth, layout.groupHeight);
    painter.setFont(fonts.rowLabel);
    painter.setPen(kTextColor);
    const int flags = Qt::AlignLeft | Qt::AlignVCenter | Qt::TextWordWrap;
    if (metrics.boundingRect(QRect(0, 0, box.width(), 100000), flags, label).height() <= box.height()) {
        painter.drawText(box, flags, label);
        return;
    }
    painter.drawText(box, Qt::AlignLeft | Qt::AlignVCenter,
                     metrics.elidedText(label, Qt::ElideRight, layout.labelWidth));
}

// One bar with its label, or "not measured" in its place. Returns the horizontal extent it occupies, so
// that the reference tick's own label can keep clear of it.
Interval drawBar(QPainter& painter, const Layout& layout, const Fonts& fonts, int laneTop, double mbps,
                 bool ours, bool loss, const ValueLabel& label, std::optional<Interval> tick)
{
    const QFontMetrics valueMetrics(fonts.value);
    const int baseline = laneTop + (layout.barHeight + valueMetrics.ascent() - valueMetrics.descent()) / 2;
    const int left = layout.axis.left + 1; // the axis line stays visible
    if (!measured(mbps)) {
        if (!layout.showValues)
            return {left, left};
        const QString text = QStringLiteral("not measured");
        painter.setFont(fonts.note);
        painter.setPen(kSecondaryTextColor);
        painter.drawText(QPoint(left + layout.gap, baseline), text);
        return {left, left + layout.gap + QFontMetrics(fonts.note).horizontalAdvance(text)};
    }
    const int right = std::max(left, layout.axis.xOf(mbps));
    const QRect bar(left, laneTop, std::max(1, right - left), layout.barHeight);
    if (ours)
        fillBar(painter, bar, loss);
    else
        painter.fillRect(bar, QColor(kTrekBarColor));

    if (!layout.showValues)
        return {left, bar.right() + 1};
    const int textWidth = label.width(fonts);
    const Placement place = placeLabel(bar, textWidth, layout.width - layout.margin / 2, tick, layout.gap);
    if (place.plate) {
        const int pad = std::max(2, layout.gap / 2);
        painter.fillRect(QRect(place.x - pad, baseline - valueMetrics.ascent() - 1, textWidth + 2 * pad,
                               valueMetrics.height() + 2),
                         Qt::white);
    }
    // White reads on our strong colour; on TReK's grey only dark text does.
    const bool onSolidBar = place.inside && !place.plate && !loss;
    QColor valueColor = ours ? kTextColor : kSecondaryTextColor;
    QColor extraColor = label.extraColor;
    if (onSolidBar)
        valueColor = extraColor = ours ? QColor(Qt::white) : kTextColor;
    drawValueLabel(painter, fonts, label, QPoint(place.x, baseline), valueColor, extraColor);
    return {left, std::max(bar.right() + 1, place.x + textWidth)};
}

void drawRow(QPainter& painter, const Layout& layout, const Fonts& fonts, const ChartRow& row, int groupTop)
{
    drawRowLabel(painter, layout, fonts, QString::fromStdString(row.label), groupTop);

    const int trekTop = groupTop + layout.groupPadding;
    const int oursTop = trekTop + layout.barHeight + layout.barGap;
    const int thickness = std::max(2, toInt(3 * layout.scale));
    std::optional<Interval> tick;
    int tickX = 0;
    if (measured(row.referenceMbps)) {
        tickX = layout.axis.xOf(row.referenceMbps);
        tick = Interval{tickX - thickness / 2 - 1, tickX + thickness / 2 + 2};
    }

    ValueLabel trekLabel{formatMbps(row.trekMbps), {}, {}};
    const Interval trekExtent
        = drawBar(painter, layout, fonts, trekTop, row.trekMbps, false, false, trekLabel, tick);

    ValueLabel oursLabel{formatMbps(row.oursMbps), {}, kRatioColor};
    if (!row.passed)
        oursLabel = {oursLabel.value, QStringLiteral("(loss)"), QColor(kLossOutlineColor)};
    else if (measured(row.trekMbps))
        oursLabel.extra = formatRatio(row.oursMbps / row.trekMbps);
    drawBar(painter, layout, fonts, oursTop, row.oursMbps, true, !row.passed, oursLabel, tick);

    if (!tick)
        return;
    const int overhang = std::max(2, layout.groupPadding / 2);
    drawReferenceTick(painter, tickX, trekTop - overhang, oursTop + layout.barHeight + overhang, thickness);
    if (layout.commonReference || !layout.showValues)
        return;
    // Rows with different references: each tick says its value, in the TReK lane where that is free
    // (TReK's bars are short), right of the tick or else left of it.
    const QString text = formatNumber(row.referenceMbps);
    const QFontMetrics metrics(fonts.value);
    const int width = metrics.horizontalAdvance(text);
    const int baseline = trekTop + (layout.barHeight + metrics.ascent() - metrics.descent()) / 2;
    const int rightX = tick->to + layout.gap / 2;
    const int leftX = tick->from - layout.gap / 2 - width;
    std::optional<int> x;
    if (rightX + width <= layout.width - layout.margin / 2 && !trekExtent.overlaps(rightX - layout.gap, rightX + width))
        x = rightX;
    else if (!trekExtent.overlaps(leftX - layout.gap, leftX + width))
        x = leftX;
    if (!x)
        return;
    painter.setFont(fonts.value);
    painter.setPen(QColor(kReferenceTickColor).darker(130));
    painter.drawText(QPoint(*x, baseline), text);
}

std::string checkDrawable(const ChartOptions& options)
{
    if (!qobject_cast<QGuiApplication*>(QCoreApplication::instance()))
        return "the chart needs a QGuiApplication (with QT_QPA_PLATFORM=offscreen when there is no display)";
    if (options.width < kMinWidth || options.width > kMaxDimension)
        return "chart width " + std::to_string(options.width) + " is outside " + std::to_string(kMinWidth) + ".."
               + std::to_string(kMaxDimension);
    if (options.height != 0 && (options.height < 100 || options.height > kMaxDimension))
        return "chart height " + std::to_string(options.height) + " is outside 100.." + std::to_string(kMaxDimension);
    return {};
}

} // namespace

QImage comparisonChartImage(const std::vector<ChartRow>& rows, const ChartOptions& options)
{
    if (!checkDrawable(options).empty())
        return {};
    Fonts fonts = makeFonts(scaleFor(options.width));
    const Layout layout = computeLayout(rows, options, fonts);
    if (layout.height > kMaxDimension)
        return {};

    QImage image(layout.width, layout.height, QImage::Format_RGB32);
    image.fill(Qt::white);
    QPainter painter(&image);
    painter.setRenderHint(QPainter::Antialiasing, false);
    painter.setRenderHint(QPainter::TextAntialiasing, true);

    for (std::size_t i = 1; i < rows.size(); i += 2) {
        const int top = layout.plotTop + static_cast<int>(i) * layout.groupHeight;
        painter.fillRect(QRect(layout.margin / 2, top, layout.width - layout.margin, layout.groupHeight), kBandColor);
    }
    drawGrid(painter, layout);
    drawHeader(painter, layout, fonts);
    if (rows.empty()) {
        painter.setFont(fonts.note);
        painter.setPen(kSecondaryTextColor);
        painter.drawText(QRect(layout.axis.left, layout.plotTop, layout.axis.right - layout.axis.left,
                               layout.plotBottom - layout.plotTop),
                         Qt::AlignCenter, QStringLiteral("no results"));
    }
    for (std::size_t i = 0; i < rows.size(); ++i)
        drawRow(painter, layout, fonts, rows[i], layout.plotTop + static_cast<int>(i) * layout.groupHeight);
    drawAxis(painter, layout, fonts);
    painter.end();
    return image;
}

std::string renderComparisonChart(const std::vector<ChartRow>& rows, const ChartOptions& options,
                                  const std::string& pngPath)
{
    if (pngPath.empty())
        return "no file name given for the chart";
    if (std::string problem = checkDrawable(options); !problem.empty())
        return problem;
    const QImage image = comparisonChartImage(rows, options);
    if (image.isNull())
        return "the chart would be taller than " + std::to_string(kMaxDimension) + " pixels";

    // QSaveFile writes beside the target and renames on commit: a failed write leaves no truncated PNG.
    QSaveFile file(QString::fromStdString(pngPath));
    if (!file.open(QIODevice::WriteOnly))
        return "cannot write " + pngPath + ": " + file.errorString().toStdString();
    QImageWriter writer(&file, "png");
    if (!writer.write(image)) {
        file.cancelWriting();
        return "cannot write " + pngPath + ": " + writer.errorString().toStdString();
    }
    if (!file.commit())
        return "cannot write " + pngPath + ": " + file.errorString().toStdString();
    return {};
}

} // namespace telestation::perf
