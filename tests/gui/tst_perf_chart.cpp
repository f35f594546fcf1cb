// telestation-perf's comparison chart, judged from its pixels: the PNG is written at the requested width
// and is not blank; one Telestation and one TReK bar per measured test, longer for larger values and
// logarithmic in length (their ratios follow log10, with the axis starting a decade below the smallest
// value); no bar where nothing was measured; a lossy result hatched and outlined instead of solid; the
// reference tick; errors for a path that cannot be written and for a nonsense size.
#include "tools/perf/perf_chart.hpp"

#include <QDir>
#include <QFileInfo>
#include <QImageReader>
#include <QSet>
#include <QTemporaryDir>
#include <QtTest>

#include <cmath>
#include <limits>
#include <vector>

using namespace telestation;
using perf::ChartOptions;
using perf::ChartRow;

namespace {

// TReK Release 1's figures on its PC-933, with plausible figures of ours.
std::vector<ChartRow> eightTests()
{
    return {
        {"1 Pass thru", 3000, 25.6, true, 9000},
        {"2 Record", 1800, 52.1, true, 0},
        {"3 Forward", 2500, 35.7, true, 9000},
        {"4 Record + forward", 1500, 30.5, true, 9000},
        {"5 Process entire packet", 1100, 5, true, 0},
        {"6 Process entire packet + record + forward", 800, 4, true, 9000},
        {"7 Pass thru + record + forward", 1400, 20.1, true, 9000},
        {"8 Typical end user", 900, 11.1, true, 9000},
    };
}

ChartOptions options()
{
    ChartOptions o;
    o.title = "Telestation vs TReK Release 1";
    o.subtitle = "test machine, 2025-01-01";
    return o;
}

// A horizontal bar as found in the image: the pixel rows where `color` runs for at least some length,
// and the longest run among them (text drawn over the bar's middle shortens some rows, never its edges).
struct FoundBar {
    int top = 0;
    int bottom = 0;
    int left = 0;
    int length = 0;
};

// Bars of exactly `color`, top to bottom. Legend swatches are shorter than `minRun` and so not bars.
std::vector<FoundBar> barsOf(const QImage& picture, QRgb color, int minRun = 40)
{
    const QImage image = picture.convertToFormat(QImage::Format_RGB32);
    std::vector<FoundBar> bars;
    bool inBar = false;
    for (int y = 0; y < image.height(); ++y) {
        int bestLength = 0;
        int bestLeft = 0;
        int run = 0;
        for (int x = 0; x < image.width(); ++x) {
            run = image.pixel(x, y) == color ? run + 1 : 0;
            if (run > bestLength) {
                bestLength = run;
                bestLeft = x - run + 1;
            }
        }
        if (bestLength < minRun) {
            inBar = false;
            continue;
        }
        if (!inBar)
            bars.push_back({y, y, bestLeft, 0});
        inBar = true;
        FoundBar& bar = bars.back();
        bar.bottom = y;
        if (bestLength > bar.length) {
            bar.length = bestLength;
            bar.left = bestLeft;
        }
    }
    return bars;
}

int countPixels(const QImage& picture, QRgb color)
{
    const QImage image = picture.convertToFormat(QImage::Format_RGB32);
    int count = 0;
    for (int y = 0; y < image.height(); ++y)
        for (int x = 0; x < image.width(); ++x)
            count += image.pixel(x, y) == color ? 1 : 0;
    return count;
}

} // namespace

class TestPerfChart : public QObject {
    Q_OBJECT

private slots:
    // The file is a PNG of the requested width, the same picture comparisonChartImage() returns.
    void writesPngOfRequestedWidth()
    {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const QString path = dir.filePath(QStringLiteral("chart.png"));
        const std::string error = perf::renderComparisonChart(eightTests(), options(), path.toStdString());
        QVERIFY2(error.empty(), error.c_str());
        QVERIFY(QFileInfo::exists(path));

        QImageReader reader(path);
        QCOMPARE(reader.format(), QByteArray("png"));
        const QImage loaded = reader.read();
        QVERIFY2(!loaded.isNull(), qPrintable(reader.errorString()));
        QCOMPARE(loaded.width(), 1200);
        const QImage drawn = perf::comparisonChartImage(eightTests(), options());
        QCOMPARE(loaded.size(), drawn.size());
        QCOMPARE(loaded.convertToFormat(QImage::Format_RGB32), drawn.convertToFormat(QImage::Format_RGB32));
        // No temporary file left beside it.
        QCOMPARE(QDir(dir.path()).entryList(QDir::Files), QStringList{QStringLiteral("chart.png")});

        ChartOptions wide = options();
        wide.width = 1800;
        QCOMPARE(perf::comparisonChartImage(eightTests(), wide).width(), 1800);
        ChartOptions fixed = options();
        fixed.height = 900;
        QCOMPARE(perf::comparisonChartImage(eightTests(), fixed).size(), QSize(1200, 900));
    }

    // A white page with text, grid, both bar colours and the reference tick on it.
    void isNotBlank()
    {
        const QImage image = perf::comparisonChartImage(eightTests(), options()).convertToFormat(QImage::Format_RGB32);
        QVERIFY(!image.isNull());
        QCOMPARE(image.pixel(0, 0), qRgb(255, 255, 255));
        QCOMPARE(image.pixel(image.width() - 1, image.height() - 1), qRgb(255, 255, 255));
        QSet<QRgb> colours;
        for (int y = 0; y < image.height(); ++y)
            for (int x = 0; x < image.width(); ++x)
                colours.insert(image.pixel(x, y));
        QVERIFY2(colours.size() > 50, qPrintable(QStringLiteral("%1 distinct colours").arg(colours.size())));
        QVERIFY(countPixels(image, perf::kTelestationBarColor) > 8 * 300 * 10);
        QVERIFY(countPixels(image, perf::kTrekBarColor) > 8 * 50 * 10);
        QVERIFY(countPixels(image, perf::kReferenceTickColor) > 6 * 20);
    }

    // One bar of each kind per test, ours longer than TReK's in every row, and the lengths in the same
    // order as the values.
    void oneBarPerTestOrderedByValue()
    {
        const std::vector<ChartRow> rows = eightTests();
        const QImage image = perf::comparisonChartImage(rows, options());
        const std::vector<FoundBar> ours = barsOf(image, perf::kTelestationBarColor);
        const std::vector<FoundBar> trek = barsOf(image, perf::kTrekBarColor);
        QCOMPARE(ours.size(), rows.size());
        QCOMPARE(trek.size(), rows.size());
        for (std::size_t i = 0; i < rows.size(); ++i) {
            QVERIFY(trek[i].bottom < ours[i].top); // TReK's bar above ours in each group
            QVERIFY(ours[i].length > trek[i].length);
            QCOMPARE(ours[i].left, trek[i].left); // both start on the axis
            for (std::size_t j = 0; j < rows.size(); ++j) {
                if (rows[i].oursMbps > rows[j].oursMbps)
                    QVERIFY2(ours[i].length > ours[j].length, qPrintable(QStringLiteral("rows %1, %2").arg(i).arg(j)));
                if (rows[i].trekMbps > rows[j].trekMbps)
                    QVERIFY2(trek[i].length > trek[j].length, qPrintable(QStringLiteral("rows %1, %2").arg(i).arg(j)));
            }
        }
    }

    // Bars are logarithmic and start a decade below the smallest value: 10, 100 and 1000 Mbit/s on an
    // axis from 1 Mbit/s are 1, 2 and 3 equal steps long (linear lengths would go 1 : 10 : 100); 25.6
    // and 3000 on an axis from 10 are in the ratio log10(300) / log10(2.56).
    void barsAreLogarithmic_data()
    {
        QTest::addColumn<double>("trek");
        QTest::addColumn<double>("smaller");
        QTest::addColumn<double>("larger");
        QTest::addColumn<double>("axisStart");
        QTest::newRow("decades") << 10.0 << 100.0 << 1000.0 << 1.0;
        QTest::newRow("pass thru") << 25.6 << 800.0 << 3000.0 << 10.0;
        QTest::newRow("below one") << 0.5 << 3.0 << 40.0 << 0.1;
    }
    void barsAreLogarithmic()
    {
        QFETCH(double, trek);
        QFETCH(double, smaller);
        QFETCH(double, larger);
        QFETCH(double, axisStart);
        const std::vector<ChartRow> rows{{"small", smaller, trek, true, 0}, {"large", larger, trek, true, 0}};
        const QImage image = perf::comparisonChartImage(rows, options());
        const std::vector<FoundBar> ours = barsOf(image, perf::kTelestationBarColor);
        const std::vector<FoundBar> trekBars = barsOf(image, perf::kTrekBarColor);
        QCOMPARE(ours.size(), std::size_t(2));
        QCOMPARE(trekBars.size(), std::size_t(2));
        QCOMPARE(trekBars[0].length, trekBars[1].length);
        QVERIFY(ours[1].length > ours[0].length);

        const auto steps = [&](double v) { return std::log10(v / axisStart); };
        const double expected = steps(larger) / steps(smaller);
        const double measured = double(ours[1].length) / ours[0].length;
        QVERIFY2(std::abs(measured - expected) < 0.02 * expected,
                 qPrintable(QStringLiteral("length ratio %1, expected %2").arg(measured).arg(expected)));
        const double expectedTrek = steps(trek) / steps(smaller);
        const double measuredTrek = double(trekBars[0].length) / ours[0].length;
        QVERIFY2(std::abs(measuredTrek - expectedTrek) < 0.03 * expectedTrek,
                 qPrintable(QStringLiteral("TReK ratio %1, expected %2").arg(measuredTrek).arg(expectedTrek)));
    }

    // Zero or NaN: "not measured", and no Telestation bar — while TReK's bars are still drawn.
    void notMeasuredDrawsNoBar()
    {
        const std::vector<ChartRow> measured{{"1 Pass thru", 500, 25.6, true, 0}, {"2 Record", 400, 52.1, true, 0}};
        QCOMPARE(barsOf(perf::comparisonChartImage(measured, options()), perf::kTelestationBarColor).size(),
                 std::size_t(2));

        const std::vector<ChartRow> unmeasured{{"1 Pass thru", 0, 25.6, true, 0},
                                               {"2 Record", std::numeric_limits<double>::quiet_NaN(), 52.1, true, 0}};
        const QImage image = perf::comparisonChartImage(unmeasured, options());
        QVERIFY(!image.isNull());
        QCOMPARE(barsOf(image, perf::kTelestationBarColor).size(), std::size_t(0));
        QCOMPARE(barsOf(image, perf::kTrekBarColor).size(), std::size_t(2));

        const std::vector<ChartRow> mixed{{"1 Pass thru", 500, 25.6, true, 0}, {"2 Record", 0, 52.1, true, 0}};
        const QImage mixedImage = perf::comparisonChartImage(mixed, options());
        const std::vector<FoundBar> ours = barsOf(mixedImage, perf::kTelestationBarColor);
        const std::vector<FoundBar> trek = barsOf(mixedImage, perf::kTrekBarColor);
        QCOMPARE(ours.size(), std::size_t(1));
        QCOMPARE(trek.size(), std::size_t(2));
        QVERIFY(ours[0].top < trek[1].top); // the one bar belongs to the first row
    }

    // A lossy result is not a solid bar: hatched, with a red outline as long as the bar would be.
    void lossIsHatchedAndOutlined()
    {
        const std::vector<ChartRow> passed{{"5 Process entire packet", 1100, 5, true, 0}};
        const QImage passedImage = perf::comparisonChartImage(passed, options());
        const std::vector<FoundBar> solid = barsOf(passedImage, perf::kTelestationBarColor);
        QCOMPARE(solid.size(), std::size_t(1));
        QCOMPARE(barsOf(passedImage, perf::kLossOutlineColor).size(), std::size_t(0));

        std::vector<ChartRow> lost = passed;
        lost[0].passed = false;
        const QImage lostImage = perf::comparisonChartImage(lost, options());
        QCOMPARE(barsOf(lostImage, perf::kTelestationBarColor).size(), std::size_t(0));
        const std::vector<FoundBar> outline = barsOf(lostImage, perf::kLossOutlineColor);
        QVERIFY(!outline.empty()); // its top and bottom edges
        QVERIFY(std::abs(outline.front().length - solid[0].length) <= 1);
        QVERIFY(countPixels(lostImage, perf::kTelestationBarColor) > 100); // the hatching
    }

    // The reference tick is drawn only for rows that have one, across the row, at its value.
    void referenceTick()
    {
        std::vector<ChartRow> rows{{"1 Pass thru", 3000, 25.6, true, 0}};
        QCOMPARE(countPixels(perf::comparisonChartImage(rows, options()), perf::kReferenceTickColor), 0);

        rows[0].referenceMbps = 9000;
        const QImage image = perf::comparisonChartImage(rows, options()).convertToFormat(QImage::Format_RGB32);
        const std::vector<FoundBar> ours = barsOf(image, perf::kTelestationBarColor);
        QCOMPARE(ours.size(), std::size_t(1));
        // The tick crosses the row of our bar, right of its end (9000 > 3000).
        const int y = (ours[0].top + ours[0].bottom) / 2;
        int tickX = -1;
        for (int x = 0; x < image.width() && tickX < 0; ++x)
            if (image.pixel(x, y) == perf::kReferenceTickColor)
                tickX = x;
        QVERIFY(tickX > ours[0].left + ours[0].length);
        // Where 9000 falls: log10(9000/10) / log10(3000/10) bar lengths from the axis.
        const double expected = ours[0].left + ours[0].length * std::log10(900.0) / std::log10(300.0);
        QVERIFY2(std::abs(tickX - expected) <= 4,
                 qPrintable(QStringLiteral("tick at %1, expected %2").arg(tickX).arg(expected)));
    }

    void unwritablePathIsAnError()
    {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const QString missingDir = dir.filePath(QStringLiteral("no/such/dir/chart.png"));
        std::string error = perf::renderComparisonChart(eightTests(), options(), missingDir.toStdString());
        QVERIFY(!error.empty());
        QVERIFY2(error.find(missingDir.toStdString()) != std::string::npos, error.c_str());
        QVERIFY(!QFileInfo::exists(missingDir));

        // A directory where the file should go.
        QVERIFY(QDir(dir.path()).mkdir(QStringLiteral("taken.png")));
        const QString directory = dir.filePath(QStringLiteral("taken.png"));
        error = perf::renderComparisonChart(eightTests(), options(), directory.toStdString());
        QVERIFY(!error.empty());

        QVERIFY(!perf::renderComparisonChart(eightTests(), options(), "").empty());
    }

    void nonsenseSizeIsAnError()
    {
        ChartOptions o = options();
        o.width = 0;
        QVERIFY(perf::comparisonChartImage(eightTests(), o).isNull());
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("chart.png"));
        QVERIFY(!perf::renderComparisonChart(eightTests(), o, path.toStdString()).empty());
        QVERIFY(!QFileInfo::exists(path));
        o.width = 1'000'000;
        QVERIFY(perf::comparisonChartImage(eightTests(), o).isNull());
    }

    // No rows still makes a chart (title, legend, axis), not a crash or an empty file.
    void noRows()
    {
        const QImage image = perf::comparisonChartImage({}, options());
        QVERIFY(!image.isNull());
        QCOMPARE(image.width(), 1200);
        QCOMPARE(barsOf(image, perf::kTelestationBarColor).size(), std::size_t(0));
    }
};

QTEST_MAIN(TestPerfChart)
#include "tst_perf_chart.moc"
