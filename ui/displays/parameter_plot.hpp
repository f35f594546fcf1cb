// A plot display of parameters: ui::PlotDisplay (strip charts, decimation, zoom, pan, pause, legend,
// limit lines) fed by one api::ParameterSubscription (every sample) for all of its curves.
//
// Curves are added by qualified name for the stream chosen in the combo (with completion), or by
// dropping parameters from the mission database browser onto a plot. x is the receive time (monotonic
// per stream, unlike packet times); y the calibrated value (the converted one without a calibrator).
//
// The subscription is polled at 10 Hz even while the display is hidden, so that the history has no
// holes when it is shown again; what stops while hidden is the redraw (PlotDisplay's timer). A poll is
// one batch copy out of the subscription's queue, never per-packet work on the GUI thread.
#pragma once

#include "ui/displays/plot_display.hpp"

#include <QColor>
#include <QJsonObject>
#include <QString>
#include <QWidget>

#include <cstdint>
#include <memory>
#include <vector>

class QComboBox;
class QLabel;
class QToolButton;

namespace telestation::pipeline {
class Station;
struct ParameterSample;
} // namespace telestation::pipeline
namespace telestation::api {
class ParameterSubscription;
}

namespace telestation::ui {

class ParameterNameEdit;
class PhasedTimer;
class StreamChooser;

class ParameterPlot : public QWidget {
    Q_OBJECT

public:
    static constexpr int kPollHz = 10;
    static constexpr std::size_t kQueueSamples = 1 << 18;

    struct CurveSpec {
        QString stream;
        QString parameter; // qualified name
        QColor color;      // invalid: the next colour of the palette
        PlotDisplay::Axis axis = PlotDisplay::Axis::Left;
        int plot = 0;
    };

    explicit ParameterPlot(pipeline::Station& station, QWidget* parent = nullptr);
    ~ParameterPlot() override;

    // Streams were added, changed or removed: the stream selector lists them again (choice kept).
    Q_INVOKABLE void refreshStreams();

    // Adds a plot (strip chart) below the others; returns its index. The plot that receives typed curves
    // is the selected one (PlotDisplay::currentPlot(): a click on a plot selects it, "Add plot" selects
    // the new one).
    int addPlot(const QString& title = {});
    // False (the reason in `error` and on the display) for an unknown stream or parameter, a plot that
    // does not exist, or a curve already on that plot.
    bool addCurve(CurveSpec curve, QString* error = nullptr);
    [[nodiscard]] const std::vector<CurveSpec>& curves() const noexcept { return m_curves; }
    [[nodiscard]] PlotDisplay* plotDisplay() const noexcept { return m_plot; }
    [[nodiscard]] StreamChooser* streamChooser() const noexcept { return m_streamCombo; }
    [[nodiscard]] ParameterNameEdit* nameEdit() const noexcept { return m_nameEdit; }
    [[nodiscard]] QToolButton* addPlotButton() const noexcept { return m_addPlotButton; }

    // {"type":"plot","window":S,"stream":S,"plots":[{"title":T,"curves":[{"stream","parameter","color","axis"}]}]}
    // (the top "stream": the combo's choice).
    [[nodiscard]] QJsonObject spec() const;
    // Builds a display from spec(); curves that no longer resolve are skipped and listed in `problems`.
    static ParameterPlot* fromSpec(pipeline::Station& station, const QJsonObject& spec, QWidget* parent,
                                   QStringList* problems = nullptr);

    // Takes what the subscription holds (what the timer does); returns the samples appended.
    std::size_t poll();
    [[nodiscard]] std::uint64_t samplesTaken() const noexcept { return m_samplesTaken; }

protected:
    void dragEnterEvent(QDragEnterEvent* event) override;
    void dropEvent(QDropEvent* event) override;

private:
    void subscribe();
    // Each curve whose packet type is not decoded on its stream (Pass Thru) says so in the legend.
    void noteUndecodedCurves();
    void addFromEdit();
    void showMessage(const QString& text, bool error);
    [[nodiscard]] int plotAt(const QPoint& position) const;

    pipeline::Station& m_station;
    PlotDisplay* m_plot = nullptr;
    StreamChooser* m_streamCombo = nullptr;
    QComboBox* m_axisCombo = nullptr;
    ParameterNameEdit* m_nameEdit = nullptr;
    QToolButton* m_addPlotButton = nullptr;
    QLabel* m_message = nullptr;
    PhasedTimer* m_timer = nullptr;

    std::vector<CurveSpec> m_curves;
    std::vector<std::string> m_plotTitles;
    std::unique_ptr<api::ParameterSubscription> m_subscription;
    // (stream id, parameter id) of each curve, index = curve id.
    std::vector<std::pair<std::uint16_t, std::uint32_t>> m_keys;
    std::vector<pipeline::ParameterSample> m_buffer;
    std::vector<std::vector<Sample>> m_pending; // per curve, reused between polls
    std::vector<bool> m_undecoded;               // per curve: the note shown
    std::uint64_t m_samplesTaken = 0;
};

} // namespace telestation::ui
