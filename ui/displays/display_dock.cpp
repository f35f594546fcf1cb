#include "ui/displays/display_dock.hpp"

#include "core/pipeline/station.hpp"
#include "ui/displays/packet_view.hpp"
#include "ui/displays/parameter_plot.hpp"
#include "ui/displays/value_display.hpp"
#include "ui/models/value_table_model.hpp"
#include "ui/widgets/dock_content.hpp"

#include <QCloseEvent>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QLabel>
#include <QSaveFile>

namespace telestation::ui {

namespace {

const QString kType = QStringLiteral("type");
const QString kTitle = QStringLiteral("title");

QString str(const std::string& s)
{
    return QString::fromStdString(s);
}

QJsonObject valuesSpec(const ValueDisplay& display)
{
    const ValueTableModel& model = *display.model();
    QJsonArray rows;
    for (int r = 0; r < model.rowCount(); ++r) {
        // Names, not ids: a display file outlives a mission database revision.
        rows.append(QJsonObject{
            {QStringLiteral("stream"), str(display.station().streamName(model.streamId(r)))},
            {QStringLiteral("parameter"), str(display.station().types().parameter(model.parameterId(r)).qualifiedName)}});
    }
    return QJsonObject{{kType, QStringLiteral("values")},
                       {QStringLiteral("rawHex"), display.isRawHex()},
                       {QStringLiteral("stream"), display.addStream()},
                       {QStringLiteral("rows"), rows}};
}

ValueDisplay* valuesFromSpec(pipeline::Station& station, const QJsonObject& spec, QWidget* parent, QStringList* problems)
{
    auto* display = new ValueDisplay(station, parent);
    if (spec.contains(QStringLiteral("rawHex")))
        display->setRawHex(spec.value(QStringLiteral("rawHex")).toBool());
    for (const auto& value : spec.value(QStringLiteral("rows")).toArray()) {
        const QJsonObject row = value.toObject();
        QString why;
        if (!display->model()->addParameter(row.value(QStringLiteral("stream")).toString(),
                                            row.value(QStringLiteral("parameter")).toString(), &why)
            && problems)
            problems->append(why);
    }
    display->setAddStream(spec.value(QStringLiteral("stream")).toString());
    return display;
}

} // namespace

QWidget* createDisplay(pipeline::Station& station, SnapshotFeed& snapshots, const QJsonObject& spec, QWidget* parent,
                       QStringList* problems, QString* error)
{
    const QString type = spec.value(kType).toString();
    if (type == QLatin1String("values"))
        return valuesFromSpec(station, spec, parent, problems);
    if (type == QLatin1String("plot"))
        return ParameterPlot::fromSpec(station, spec, parent, problems);
    if (type == QLatin1String("packet")) {
        auto* view = PacketView::fromSpec(station, snapshots, spec, parent);
        if (!view && error)
            *error = QObject::tr("a packet view needs a \"stream\" and a \"packet\"");
        return view;
    }
    if (error)
        *error = QObject::tr("'%1' is not a kind of display (values, plot, packet)").arg(type);
    return nullptr;
}

QJsonObject displaySpec(const QWidget* display)
{
    if (const auto* values = qobject_cast<const ValueDisplay*>(display))
        return valuesSpec(*values);
    if (const auto* plot = qobject_cast<const ParameterPlot*>(display))
        return plot->spec();
    if (const auto* packet = qobject_cast<const PacketView*>(display)) {
        QJsonObject spec = packet->spec();
        spec.insert(kType, QStringLiteral("packet"));
        return spec;
    }
    return {};
}

bool saveDisplayFile(const QString& path, const QList<QJsonObject>& specs, QString* error)
{
    QJsonArray displays;
    for (const auto& s : specs)
        displays.append(s);
    const QJsonObject root{{QStringLiteral("format"), QString::fromLatin1(kDisplayFileFormat)},
                           {QStringLiteral("version"), 1},
                           {QStringLiteral("displays"), displays}};
    QSaveFile file(path);
    if (!file.open(QIODevice::WriteOnly) || file.write(QJsonDocument(root).toJson()) < 0 || !file.commit()) {
        if (error)
            *error = QObject::tr("Cannot write %1: %2").arg(path, file.errorString());
        return false;
    }
    return true;
}

std::optional<QList<QJsonObject>> loadDisplayFile(const QString& path, QString* error)
{
    const auto fail = [&](const QString& why) {
        if (error)
            *error = QObject::tr("%1: %2").arg(path, why);
        return std::nullopt;
    };
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        return fail(file.errorString());
    QJsonParseError parseError;
    const QJsonDocument doc = QJsonDocument::fromJson(file.readAll(), &parseError);
    if (doc.isNull())
        return fail(QObject::tr("not JSON (%1 at byte %2)").arg(parseError.errorString()).arg(parseError.offset));
    const QJsonObject root = doc.object();
    if (root.value(QStringLiteral("format")).toString() != QLatin1String(kDisplayFileFormat))
        return fail(QObject::tr("not a display file (\"format\" must be \"%1\")").arg(QLatin1String(kDisplayFileFormat)));
    if (root.value(QStringLiteral("version")).toInt() != 1)
        return fail(QObject::tr("display file version %1 is not supported (1 is)").arg(root.value(QStringLiteral("version")).toInt()));
    QList<QJsonObject> specs;
    QStringList problems;
    const QJsonArray displays = root.value(QStringLiteral("displays")).toArray();
    for (qsizetype i = 0; i < displays.size(); ++i) {
        const QJsonObject spec = displays[i].toObject();
        const QString type = spec.value(kType).toString();
        if (type != QLatin1String("values") && type != QLatin1String("plot") && type != QLatin1String("packet"))
            problems << QObject::tr("displays[%1]: '%2' is not a kind of display (values, plot, packet)").arg(i).arg(type);
        else
            specs.append(spec);
    }
    if (!problems.isEmpty())
        return fail(problems.join(QStringLiteral("; ")));
    return specs;
}

DisplayDock::DisplayDock(const QJsonObject& spec, pipeline::Station* station, SnapshotFeed& snapshots, QWidget* parent)
    : QDockWidget(parent), m_spec(spec), m_snapshots(snapshots)
{
    setAttribute(Qt::WA_DeleteOnClose);
    setWindowTitle(title());
    setFeatures(QDockWidget::DockWidgetClosable | QDockWidget::DockWidgetMovable | QDockWidget::DockWidgetFloatable);
    m_placeholder = new QLabel(tr("Waiting for the station…"), this);
    m_placeholder->setAlignment(Qt::AlignCenter);
    setDockContent(*this, m_placeholder);
    attach(station);
}

QString DisplayDock::title() const
{
    const QString t = m_spec.value(kTitle).toString();
    if (!t.isEmpty())
        return t;
    const QString type = m_spec.value(kType).toString();
    if (type == QLatin1String("plot"))
        return tr("Plot");
    if (type == QLatin1String("packet"))
        return tr("Packet %1").arg(m_spec.value(QStringLiteral("packet")).toString());
    return tr("Values");
}

QJsonObject DisplayDock::spec() const
{
    if (!m_display)
        return m_spec;
    QJsonObject s = displaySpec(m_display);
    s.insert(kTitle, m_spec.value(kTitle));
    return s;
}

void DisplayDock::detach()
{
    if (!m_display)
        return;
    m_spec = spec();
    m_placeholder = new QLabel(tr("The station is restarting…"), this);
    m_placeholder->setAlignment(Qt::AlignCenter);
    setDockContent(*this, m_placeholder);
    delete m_display;
    m_display = nullptr;
}

void DisplayDock::refreshStreams()
{
    if (m_display) // every display has a refreshStreams slot (value display, plot, packet view)
        QMetaObject::invokeMethod(m_display, "refreshStreams");
}

void DisplayDock::attach(pipeline::Station* station)
{
    if (!station)
        return;
    detach();
    m_problems.clear();
    QString error;
    m_display = createDisplay(*station, m_snapshots, m_spec, this, &m_problems, &error);
    if (!m_display) {
        m_placeholder->setText(error);
        return;
    }
    setDockContent(*this, m_display);
    delete m_placeholder;
    m_placeholder = nullptr;
    if (auto* values = qobject_cast<ValueDisplay*>(m_display)) {
        connect(values, &ValueDisplay::showAlarmRequested, this, &DisplayDock::showAlarmRequested);
        connect(values, &ValueDisplay::editLimitsRequested, this, &DisplayDock::editLimitsRequested);
    }
}

void DisplayDock::closeEvent(QCloseEvent* event)
{
    Q_EMIT closed(this);
    QDockWidget::closeEvent(event);
}

} // namespace telestation::ui
