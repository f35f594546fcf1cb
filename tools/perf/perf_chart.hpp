// The chart telestation-perf writes beside its Markdown table: for each of TReK Release 1's eight
// performance tests, TReK's figure on its 2001 PC-933 and ours on this machine as horizontal grouped bars
// on a logarithmic Mbit/s axis (the two differ by 100-1000x, so a linear axis would flatten TReK's bars
// to nothing). Qt Gui only: QImage + QPainter, no widgets; the caller creates a QGuiApplication (with
// QT_QPA_PLATFORM=offscreen when there is no display), because text rendering needs one.
#pragma once

#include <QImage>
#include <QRgb>

#include <string>
#include <vector>

namespace telestation::perf {

// The bar colours, public so that tests can find the bars in the image. Bars are drawn without
// anti-aliasing, so their pixels carry exactly these values.
inline constexpr QRgb kTrekBarColor = qRgb(0x9a, 0xa0, 0xa6);
inline constexpr QRgb kTelestationBarColor = qRgb(0x1a, 0x5f, 0xc8);
// The outline of a Telestation bar that lost packets at every rate tried.
inline constexpr QRgb kLossOutlineColor = qRgb(0xd0, 0x21, 0x21);
inline constexpr QRgb kReferenceTickColor = qRgb(0xe0, 0x8a, 0x00);

struct ChartRow {
    std::string label; // "1 Pass thru", "2 Record", ... "8 Typical end user"
    // Zero, negative or not finite: not measured ("not measured" is written instead of a bar).
    double oursMbps = 0;
    double trekMbps = 0; // TReK's figure on the PC-933; zero or less: none
    // False: no rate tried reached 100 % delivery; our bar is hatched, outlined in red, marked "(loss)"
    // and given no ratio, since a lossy rate is not comparable with TReK's.
    bool passed = true;
    // The machine's own ceiling for this test (e.g. iperf3's loss-free UDP loopback rate), drawn as a tick
    // across the row; zero: none.
    double referenceMbps = 0;
};

struct ChartOptions {
    std::string title;
    std::string subtitle; // the machine and the date
    int width = 1200;
    int height = 0; // 0: from the row count
    // The legend's words for the reference tick; the value is appended when every row has the same one.
    std::string referenceLabel = "Machine reference: iperf3 UDP loopback, loss-free";
};

// Renders the chart and saves it as a PNG (atomically: no partial file is left behind). Returns an empty
// string on success, else what went wrong (no QGuiApplication, a bad size, the file cannot be written).
[[nodiscard]] std::string renderComparisonChart(const std::vector<ChartRow>& rows, const ChartOptions& options,
                                                const std::string& pngPath);

// The same chart as an image; a null image when it cannot be drawn (no QGuiApplication, a bad size).
[[nodiscard]] QImage comparisonChartImage(const std::vector<ChartRow>& rows, const ChartOptions& options);

} // namespace telestation::perf
