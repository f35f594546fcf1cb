#include "ui/displays/value_display.hpp"

#include "core/pipeline/station.hpp"
#include "ui/displays/parameter_name_edit.hpp"
#include "ui/displays/stream_chooser.hpp"
#include "ui/models/value_table_model.hpp"
#include "ui/session/phased_timer.hpp"

#include <QAction>
#include <QCompleter>
#include <QElapsedTimer>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QItemSelectionModel>
#include <QLabel>
#include <QMenu>
#include <QSettings>
#include <QTableView>
#include <QToolButton>
#include <QVBoxLayout>

#include <vector>

namespace telestation::ui {

namespace {

const QString kRawFormatKey = QStringLiteral("valueDisplay/rawFormat");
const QString kStaleKey = QStringLiteral("valueDisplay/staleSeconds");
const QString kHex = QStringLiteral("hex");
const QString kDecimal = QStringLiteral("decimal");

} // namespace

ValueDisplay::ValueDisplay(pipeline::Station& station, QWidget* parent)
    : QWidget(parent), m_station(station), m_model(new ValueTableModel(station, this))
{
    m_streamCombo = new StreamChooser(station, this);
    m_streamCombo->setToolTip(tr("The stream whose values are added"));
    connect(m_streamCombo, &StreamChooser::streamChosen, this, [this](const QString& name) {
        if (const auto id = m_station.streamId(name.toStdString()))
            m_model->setDropStream(*id);
    });

    m_nameEdit = new ParameterNameEdit(m_model->qualifiedNames(), tr("Add parameter: PACKET.PARAMETER"), this);
    connect(m_nameEdit, &QLineEdit::returnPressed, this, &ValueDisplay::addFromEdit);

    m_addButton = new QToolButton(this);
    m_addButton->setObjectName(QStringLiteral("addButton"));
    m_addButton->setText(tr("Add"));
    connect(m_addButton, &QToolButton::clicked, this, &ValueDisplay::addFromEdit);

    m_removeButton = new QToolButton(this);
    m_removeButton->setObjectName(QStringLiteral("removeButton"));
    m_removeButton->setText(tr("Remove selected"));
    m_removeButton->setEnabled(false);
    connect(m_removeButton, &QToolButton::clicked, this, &ValueDisplay::removeSelected);

    m_hexButton = new QToolButton(this);
    m_hexButton->setObjectName(QStringLiteral("rawHexButton"));
    m_hexButton->setText(tr("Raw in hex"));
    m_hexButton->setCheckable(true);
    connect(m_hexButton, &QToolButton::toggled, this, &ValueDisplay::setRawHex);

    m_messageLabel = new QLabel(this);
    m_messageLabel->setObjectName(QStringLiteral("messageLabel"));

    auto* bar = new QHBoxLayout;
    bar->addWidget(m_streamCombo);
    bar->addWidget(m_nameEdit, 1);
    bar->addWidget(m_addButton);
    bar->addWidget(m_removeButton);
    bar->addWidget(m_hexButton);

    m_view = new QTableView(this);
    m_view->setObjectName(QStringLiteral("valueTable"));
    m_view->setModel(m_model);
    m_view->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_view->setSelectionMode(QAbstractItemView::ExtendedSelection);
    m_view->setDragDropMode(QAbstractItemView::DropOnly);
    m_view->setAcceptDrops(true);
    m_view->setDropIndicatorShown(false);
    m_view->setWordWrap(false);
    m_view->setShowGrid(false);
    // Fixed row heights and no per-row sizing: the view stays cheap with thousands of rows.
    m_view->verticalHeader()->setSectionResizeMode(QHeaderView::Fixed);
    m_view->verticalHeader()->setDefaultSectionSize(m_view->fontMetrics().height() + 6);
    m_view->verticalHeader()->hide();
    m_view->horizontalHeader()->setStretchLastSection(true);
    const int digit = m_view->fontMetrics().horizontalAdvance(QLatin1Char('0'));
    m_view->setColumnWidth(ValueTableModel::Name, 34 * digit);
    m_view->setColumnWidth(ValueTableModel::Raw, 19 * digit);
    m_view->setColumnWidth(ValueTableModel::Converted, 14 * digit);
    m_view->setColumnWidth(ValueTableModel::Calibrated, 14 * digit);
    m_view->setColumnWidth(ValueTableModel::Units, 7 * digit);
    m_view->setColumnWidth(ValueTableModel::Limit, 15 * digit);
    m_view->setColumnWidth(ValueTableModel::PacketTime, 25 * digit);
    connect(m_view->selectionModel(), &QItemSelectionModel::selectionChanged, this,
            [this] { m_removeButton->setEnabled(m_view->selectionModel()->hasSelection()); });
    auto* removeAction = new QAction(tr("Remove selected"), m_view);
    removeAction->setShortcut(QKeySequence::Delete);
    removeAction->setShortcutContext(Qt::WidgetShortcut);
    connect(removeAction, &QAction::triggered, this, &ValueDisplay::removeSelected);
    m_view->addAction(removeAction);
    m_view->setContextMenuPolicy(Qt::CustomContextMenu);
    connect(m_view, &QTableView::customContextMenuRequested, this, [this](const QPoint& at) {
        const QModelIndex index = m_view->indexAt(at);
        if (!index.isValid())
            return;
        QMenu* menu = rowMenu(index.row(), this);
        menu->setAttribute(Qt::WA_DeleteOnClose);
        menu->popup(m_view->viewport()->mapToGlobal(at));
    });

    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    layout->addLayout(bar);
    layout->addWidget(m_view, 1);
    layout->addWidget(m_messageLabel);

    m_timer = new PhasedTimer(std::chrono::milliseconds(1000 / kRefreshHz), this);
    m_timer->skipWhileUnseen(this); // a tab behind another takes nothing; it catches up when in front
    connect(m_timer, &PhasedTimer::timeout, this, &ValueDisplay::refresh);

    const QSettings settings;
    const bool hex = settings.value(kRawFormatKey, kHex).toString() != kDecimal;
    m_hexButton->setChecked(hex);
    m_model->setRawFormat(hex ? ValueTableModel::RawFormat::Hex : ValueTableModel::RawFormat::Decimal);
    m_model->setStaleTimeout(settings.value(kStaleKey, ValueTableModel::kDefaultStaleSeconds).toDouble());
    showMessage({});
}

ValueDisplay::~ValueDisplay() = default;

QCompleter* ValueDisplay::completer() const
{
    return m_nameEdit->completer();
}

QString ValueDisplay::addStream() const
{
    return m_streamCombo->stream();
}

bool ValueDisplay::setAddStream(const QString& name)
{
    return m_streamCombo->setStream(name);
}

bool ValueDisplay::addParameter(const QString& qualifiedName)
{
    QString error;
    if (!m_model->addParameter(m_streamCombo->stream(), qualifiedName, &error)) {
        showMessage(error);
        return false;
    }
    showMessage({});
    m_view->scrollToBottom();
    return true;
}

void ValueDisplay::addFromEdit()
{
    const QString name = m_nameEdit->name();
    if (name.isEmpty())
        return;
    if (addParameter(name))
        m_nameEdit->clearAdded(name);
}

void ValueDisplay::removeSelected()
{
    std::vector<int> rows;
    for (const QModelIndex& index : m_view->selectionModel()->selectedRows())
        rows.push_back(index.row());
    m_model->removeParameters(std::move(rows));
}

void ValueDisplay::setRawHex(bool hex)
{
    if (m_hexButton->isChecked() != hex)
        m_hexButton->setChecked(hex); // comes back here through toggled()
    m_model->setRawFormat(hex ? ValueTableModel::RawFormat::Hex : ValueTableModel::RawFormat::Decimal);
    QSettings().setValue(kRawFormatKey, hex ? kHex : kDecimal);
}

bool ValueDisplay::isRawHex() const noexcept
{
    return m_model->rawFormat() == ValueTableModel::RawFormat::Hex;
}

void ValueDisplay::setStaleTimeout(double seconds)
{
    if (seconds <= 0)
        return;
    m_model->setStaleTimeout(seconds);
    QSettings().setValue(kStaleKey, seconds);
}

QString ValueDisplay::rowStream(int row) const
{
    return QString::fromStdString(m_station.streamName(m_model->streamId(row)));
}

QString ValueDisplay::rowParameter(int row) const
{
    return QString::fromStdString(m_station.types().parameter(m_model->parameterId(row)).qualifiedName);
}

QMenu* ValueDisplay::rowMenu(int row, QWidget* parent)
{
    auto* menu = new QMenu(parent);
    const QString stream = rowStream(row);
    const QString parameter = rowParameter(row);
    // Asked once, when the menu opens: whether the parameter has an alarm listed now.
    bool hasAlarm = false;
    for (const events::Alarm& alarm : m_station.alarms())
        hasAlarm |= alarm.source == events::AlarmSource::Parameter && alarm.parameter == parameter.toStdString()
                    && alarm.stream == stream.toStdString();
    QAction* show = menu->addAction(tr("Show alarm"), this,
                                    [this, stream, parameter] { Q_EMIT showAlarmRequested(stream, parameter); });
    show->setObjectName(QStringLiteral("showAlarmAction"));
    show->setEnabled(hasAlarm);
    if (!hasAlarm)
        show->setToolTip(tr("%1 has no alarm listed").arg(parameter));
    QAction* limits = menu->addAction(tr("Edit limits…"), this,
                                      [this, parameter] { Q_EMIT editLimitsRequested(parameter); });
    limits->setObjectName(QStringLiteral("editLimitsAction"));
    menu->addSeparator();
    menu->addAction(tr("Remove selected"), this, &ValueDisplay::removeSelected);
    return menu;
}

bool ValueDisplay::isRefreshActive() const
{
    return m_timer->isActive();
}

void ValueDisplay::refresh()
{
    QElapsedTimer clock;
    clock.start();
    m_model->refresh();
    m_lastRefreshMs = static_cast<double>(clock.nsecsElapsed()) / 1e6;
}

void ValueDisplay::showEvent(QShowEvent* event)
{
    QWidget::showEvent(event);
    refresh(); // catch up at once rather than show what was there when hidden
    m_timer->start();
}

void ValueDisplay::hideEvent(QHideEvent* event)
{
    QWidget::hideEvent(event);
    m_timer->stop();
}

void ValueDisplay::showMessage(const QString& text)
{
    m_messageLabel->setText(text);
    m_messageLabel->setVisible(!text.isEmpty());
}

} // namespace telestation::ui

namespace telestation::ui {

void ValueDisplay::refreshStreams()
{
    m_streamCombo->reload();
    // By name: a stream changed live may have another id.
    if (const auto id = m_station.streamId(m_streamCombo->stream().toStdString()))
        m_model->setDropStream(*id);
}

} // namespace telestation::ui
