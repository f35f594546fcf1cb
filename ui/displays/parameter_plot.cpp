#include "ui/displays/parameter_plot.hpp"

#include "core/api/consumer.hpp"
#include "core/pipeline/station.hpp"
#include "ui/displays/parameter_name_edit.hpp"
#include "ui/displays/stream_chooser.hpp"
#include "ui/models/value_table_model.hpp"
#include "ui/plotting/plot_theme.hpp"
#include "ui/session/phased_timer.hpp"

#include <QComboBox>
#include <QDragEnterEvent>
#include <QDropEvent>
#include <QHBoxLayout>
#include <QJsonArray>
#include <QLabel>
#include <QMimeData>
#include <QToolButton>
#include <QVBoxLayout>

#include <qwt_plot.h>

#include <algorithm>

namespace telestation::ui {

namespace {

QString str(const std::string& s)
{
    return QString::fromStdString(s);
}

std::optional<mdb::NumericLimits> limitsOf(const mdb::MissionDatabase& db, const QString& qualifiedName)
{
    const auto dot = qualifiedName.indexOf(QLatin1Char('.'));
    if (dot <= 0)
        return std::nullopt;
    const mdb::PacketDef* packet = db.findPacket(qualifiedName.left(dot).toStdString());
    if (!packet)
        return std::nullopt;
    const std::string name = qualifiedName.mid(dot + 1).toStdString();
    for (const auto& p : packet->parameters)
        if (p.name == name)
            if (const auto* limits = std::get_if<mdb::NumericLimits>(&p.limits))
                return *limits;
    return std::nullopt;
}

} // namespace

ParameterPlot::ParameterPlot(pipeline::Station& station, QWidget* parent)
    : QWidget(parent), m_station(station), m_buffer(16384)
{
    setObjectName(QStringLiteral("parameterPlot"));
    setAcceptDrops(true);

    m_streamCombo = new StreamChooser(station, this);
    m_streamCombo->setToolTip(tr("The stream whose parameters are added"));
    QStringList names;
    for (std::uint32_t id = 0; id < station.types().totalParameters(); ++id)
        names << str(station.types().parameter(id).qualifiedName);
    m_nameEdit = new ParameterNameEdit(names, tr("Add a curve to the selected plot: PACKET.PARAMETER, or drop parameters on a plot"), this);
    connect(m_nameEdit, &QLineEdit::returnPressed, this, &ParameterPlot::addFromEdit);
    m_axisCombo = new QComboBox(this);
    m_axisCombo->setObjectName(QStringLiteral("axisCombo"));
    m_axisCombo->addItem(tr("Left axis"));
    m_axisCombo->addItem(tr("Right axis"));
    auto* add = new QToolButton(this);
    add->setText(tr("Add curve"));
    connect(add, &QToolButton::clicked, this, &ParameterPlot::addFromEdit);
    m_addPlotButton = new QToolButton(this);
    m_addPlotButton->setObjectName(QStringLiteral("addPlotButton"));
    m_addPlotButton->setText(tr("Add plot"));
    m_addPlotButton->setToolTip(tr("Another strip chart below, on the same time axis; typed curves go to it"));
    connect(m_addPlotButton, &QToolButton::clicked, this, [this] { m_plot->setCurrentPlot(addPlot()); });
    m_message = new QLabel(this);
    m_message->setObjectName(QStringLiteral("messageLabel"));

    // "Add plot" first: anchored on the left, it stays under the cursor when the new plot makes the
    // dock's scroll bar appear (which takes its width from the right).
    auto* bar = new QHBoxLayout;
    bar->addWidget(m_addPlotButton);
    bar->addWidget(m_streamCombo);
    bar->addWidget(m_nameEdit, 1);
    bar->addWidget(m_axisCombo);
    bar->addWidget(add);
    m_plot = new PlotDisplay(this);
    m_plotTitles.emplace_back();
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(2, 2, 2, 2);
    layout->addLayout(bar);
    layout->addWidget(m_message);
    layout->addWidget(m_plot, 1);
    m_message->hide();

    // Polls also while out of sight: the histories must not miss samples (drawing is what stops).
    m_timer = new PhasedTimer(std::chrono::milliseconds(1000 / kPollHz), this);
    connect(m_timer, &PhasedTimer::timeout, this, [this] { poll(); });
    m_timer->start();
}

ParameterPlot::~ParameterPlot() = default;

void ParameterPlot::refreshStreams()
{
    m_streamCombo->reload(); // read when a curve is added
}

int ParameterPlot::addPlot(const QString& title)
{
    m_plotTitles.push_back(title.toStdString());
    return m_plot->addPlot(title);
}

bool ParameterPlot::addCurve(CurveSpec curve, QString* error)
{
    const auto fail = [&](const QString& why) {
        if (error)
            *error = why;
        showMessage(why, true);
        return false;
    };
    const auto streamId = m_station.streamId(curve.stream.toStdString());
    if (!streamId)
        return fail(tr("There is no stream named %1.").arg(curve.stream));
    const auto parameterId = m_station.types().parameterId(curve.parameter.toStdString());
    if (!parameterId)
        return fail(tr("%1 is not a parameter of the mission database.").arg(curve.parameter));
    if (curve.plot < 0 || curve.plot >= m_plot->plotCount())
        return fail(tr("There is no plot %1.").arg(curve.plot + 1));
    for (const auto& c : m_curves)
        if (c.plot == curve.plot && c.stream == curve.stream && c.parameter == curve.parameter)
            return fail(tr("%1 is already on this plot.").arg(curve.parameter));
    if (!curve.color.isValid())
        curve.color = plot_theme::curveColor(m_curves.size());
    const QString name = m_station.streamCount() > 1 ? curve.stream + QLatin1Char(':') + curve.parameter : curve.parameter;
    const int id = m_plot->addCurve(curve.plot, name, curve.color, curve.axis, limitsOf(m_station.database(), curve.parameter));
    if (id < 0)
        return fail(tr("The curve could not be added."));
    m_curves.push_back(curve);
    m_keys.emplace_back(*streamId, *parameterId);
    m_pending.emplace_back();
    subscribe();
    m_message->hide();
    return true;
}

void ParameterPlot::subscribe()
{
    // One subscription for every curve; rebuilt when the curves change (the history stays).
    m_subscription.reset();
    api::ParameterSubscription::Options o;
    o.name = "plot " + objectName().toStdString();
    for (const auto& c : m_curves)
        o.parameters.push_back(c.parameter.toStdString());
    std::sort(o.parameters.begin(), o.parameters.end());
    o.parameters.erase(std::unique(o.parameters.begin(), o.parameters.end()), o.parameters.end());
    o.capacity = kQueueSamples;
    auto created = api::ParameterSubscription::create(m_station, o);
    if (!created) {
        showMessage(str(created.error().message), true);
        return;
    }
    m_subscription = std::move(*created);
}

std::size_t ParameterPlot::poll()
{
    if (!m_subscription)
        return 0;
    std::size_t total = 0;
    for (;;) {
        const std::size_t n = m_subscription->poll(m_buffer);
        for (std::size_t i = 0; i < n; ++i) {
            const auto& s = m_buffer[i];
            if (!s.value.present)
                continue;
            const Sample point{static_cast<double>(s.receiveTimeNs) / 1e9, s.value.calibrated};
            for (std::size_t c = 0; c < m_keys.size(); ++c)
                if (m_keys[c].first == s.streamId && m_keys[c].second == s.parameterId)
                    m_pending[c].push_back(point);
        }
        total += n;
        if (n < m_buffer.size())
            break;
    }
    noteUndecodedCurves();
    for (std::size_t c = 0; c < m_pending.size(); ++c) {
        if (m_pending[c].empty())
            continue;
        m_plot->appendSamples(static_cast<int>(c), m_pending[c]);
        m_pending[c].clear();
    }
    m_samplesTaken += total;
    return total;
}

void ParameterPlot::noteUndecodedCurves()
{
    m_undecoded.resize(m_keys.size(), false);
    for (std::size_t c = 0; c < m_keys.size(); ++c) {
        const auto [streamId, parameterId] = m_keys[c];
        if (m_station.streamName(streamId).empty())
            continue; // the stream was removed: the curve keeps its history
        const auto type = m_station.types().parameter(parameterId).typeIndex;
        const bool undecoded = m_station.mode(streamId, type) == config::ProcessingMode::PassThru;
        if (undecoded == m_undecoded[c])
            continue;
        m_undecoded[c] = undecoded;
        m_plot->setCurveNote(static_cast<int>(c), undecoded ? tr("not decoded: its packet type is Pass Thru here") : QString());
    }
}

QJsonObject ParameterPlot::spec() const
{
    QJsonArray plots;
    for (int p = 0; p < m_plot->plotCount(); ++p) {
        QJsonArray curves;
        for (const auto& c : m_curves) {
            if (c.plot != p)
                continue;
            curves.append(QJsonObject{{QStringLiteral("stream"), c.stream},
                                      {QStringLiteral("parameter"), c.parameter},
                                      {QStringLiteral("color"), c.color.name()},
                                      {QStringLiteral("axis"), c.axis == PlotDisplay::Axis::Right ? QStringLiteral("right")
                                                                                                   : QStringLiteral("left")}});
        }
        plots.append(QJsonObject{{QStringLiteral("title"), str(m_plotTitles.at(static_cast<std::size_t>(p)))},
                                 {QStringLiteral("curves"), curves}});
    }
    return QJsonObject{{QStringLiteral("type"), QStringLiteral("plot")},
                       {QStringLiteral("window"), m_plot->timeWindow()},
                       {QStringLiteral("stream"), m_streamCombo->stream()},
                       {QStringLiteral("plots"), plots}};
}

ParameterPlot* ParameterPlot::fromSpec(pipeline::Station& station, const QJsonObject& spec, QWidget* parent,
                                       QStringList* problems)
{
    auto* display = new ParameterPlot(station, parent);
    const QJsonArray plots = spec.value(QStringLiteral("plots")).toArray();
    for (int p = 0; p < plots.size(); ++p) {
        const QJsonObject plot = plots[p].toObject();
        const QString title = plot.value(QStringLiteral("title")).toString();
        if (p == 0) {
            display->m_plotTitles[0] = title.toStdString();
            display->m_plot->plot(0)->setTitle(title);
        } else {
            display->addPlot(title);
        }
        for (const auto& value : plot.value(QStringLiteral("curves")).toArray()) {
            const QJsonObject c = value.toObject();
            CurveSpec curve;
            curve.stream = c.value(QStringLiteral("stream")).toString();
            curve.parameter = c.value(QStringLiteral("parameter")).toString();
            curve.color = QColor(c.value(QStringLiteral("color")).toString());
            curve.axis = c.value(QStringLiteral("axis")).toString() == QLatin1String("right") ? PlotDisplay::Axis::Right
                                                                                               : PlotDisplay::Axis::Left;
            curve.plot = p;
            QString why;
            if (!display->addCurve(curve, &why) && problems)
                problems->append(why);
        }
    }
    if (const double window = spec.value(QStringLiteral("window")).toDouble(); window > 0)
        display->m_plot->setTimeWindow(window);
    display->m_streamCombo->setStream(spec.value(QStringLiteral("stream")).toString());
    return display;
}

void ParameterPlot::addFromEdit()
{
    const QString name = m_nameEdit->name();
    if (name.isEmpty())
        return;
    CurveSpec c;
    c.stream = m_streamCombo->stream();
    c.parameter = name;
    c.axis = m_axisCombo->currentIndex() == 1 ? PlotDisplay::Axis::Right : PlotDisplay::Axis::Left;
    c.plot = m_plot->currentPlot();
    if (addCurve(c))
        m_nameEdit->clearAdded(name);
}

void ParameterPlot::showMessage(const QString& text, bool error)
{
    m_message->setText(text);
    m_message->setStyleSheet(error ? QStringLiteral("color: #c62828;") : QString());
    m_message->show();
}

int ParameterPlot::plotAt(const QPoint& position) const
{
    for (int p = 0; p < m_plot->plotCount(); ++p) {
        const QwtPlot* plot = m_plot->plot(p);
        if (plot->rect().contains(plot->mapFrom(this, position)))
            return p;
    }
    return m_plot->plotCount() - 1;
}

void ParameterPlot::dragEnterEvent(QDragEnterEvent* event)
{
    if (event->mimeData()->hasFormat(QString::fromLatin1(ValueTableModel::kParameterMimeType))
        || event->mimeData()->hasText())
        event->acceptProposedAction();
}

void ParameterPlot::dropEvent(QDropEvent* event)
{
    const int plot = plotAt(event->position().toPoint());
    m_plot->setCurrentPlot(plot);
    int added = 0;
    for (const QString& name : ValueTableModel::namesIn(event->mimeData())) {
        CurveSpec c;
        c.stream = m_streamCombo->stream();
        c.parameter = name;
        c.axis = m_axisCombo->currentIndex() == 1 ? PlotDisplay::Axis::Right : PlotDisplay::Axis::Left;
        c.plot = plot;
        added += addCurve(c) ? 1 : 0;
    }
    if (added > 0)
        event->acceptProposedAction();
}

} // namespace telestation::ui
