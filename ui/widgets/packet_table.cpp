#include "ui/widgets/packet_table.hpp"

#include "core/config/station_profile.hpp"
#include "ui/dialogs/forward_editor_dialog.hpp"
#include "ui/models/packet_settings_model.hpp"
#include "ui/models/tones.hpp"
#include "ui/session/station_session.hpp"

#include <QComboBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QItemSelectionModel>
#include <QLabel>
#include <QPushButton>
#include <QTableView>
#include <QVBoxLayout>

#include <algorithm>

namespace telestation::ui {

// ---- ProcessingModeDelegate -----------------------------------------------------------------------

QWidget* ProcessingModeDelegate::createEditor(QWidget* parent, const QStyleOptionViewItem& /*option*/,
                                              const QModelIndex& index) const
{
    auto* combo = new QComboBox(parent);
    combo->setObjectName(QStringLiteral("modeEditor"));
    const QVariantList choices = index.data(PacketSettingsModel::kModeChoicesRole).toList();
    for (const QVariant& choice : choices)
        combo->addItem(PacketSettingsModel::modeText(static_cast<config::ProcessingMode>(choice.toInt())), choice);
    // Picking an item (mouse or keyboard in the popup) is the operator's decision: apply it at once.
    auto* self = const_cast<ProcessingModeDelegate*>(this);
    connect(combo, &QComboBox::activated, self, [self, combo] {
        Q_EMIT self->commitData(combo);
        Q_EMIT self->closeEditor(combo);
    });
    return combo;
}

void ProcessingModeDelegate::setEditorData(QWidget* editor, const QModelIndex& index) const
{
    auto* combo = qobject_cast<QComboBox*>(editor);
    if (!combo)
        return;
    const int at = combo->findData(index.data(PacketSettingsModel::kModeRole));
    combo->setCurrentIndex(std::max(at, 0));
}

void ProcessingModeDelegate::setModelData(QWidget* editor, QAbstractItemModel* model, const QModelIndex& index) const
{
    auto* combo = qobject_cast<QComboBox*>(editor);
    if (!combo || combo->currentIndex() < 0)
        return;
    if (combo->currentData() == index.data(PacketSettingsModel::kModeRole))
        return; // unchanged: nothing to apply
    model->setData(index, combo->currentData(), Qt::EditRole);
}

void ProcessingModeDelegate::updateEditorGeometry(QWidget* editor, const QStyleOptionViewItem& option,
                                                  const QModelIndex& /*index*/) const
{
    editor->setGeometry(option.rect);
}

// ---- PacketTable ----------------------------------------------------------------------------------

PacketTable::PacketTable(StationSession& session, QWidget* parent) : QWidget(parent), m_session(session)
{
    setObjectName(QStringLiteral("packetTable"));
    m_model = new PacketSettingsModel(session, this);

    m_title = new QLabel(this);
    m_title->setObjectName(QStringLiteral("packetTableTitle"));
    m_forward = new QPushButton(tr("&Forward…"), this);
    m_forward->setObjectName(QStringLiteral("forwardButton"));
    m_forward->setToolTip(tr("Edit the forward destinations of the selected packet type"));
    auto* top = new QHBoxLayout;
    top->setContentsMargins(4, 2, 4, 2);
    top->addWidget(m_title, 1);
    top->addWidget(m_forward);

    // The engine's reason for a refused change stays until the next change goes through or it is closed.
    m_messageBar = new QWidget(this);
    m_message = new QLabel(m_messageBar);
    m_message->setObjectName(QStringLiteral("messageLabel"));
    m_message->setWordWrap(true);
    m_message->setTextInteractionFlags(Qt::TextSelectableByMouse);
    tone::setTextColour(m_message, tone::kErrorText);
    m_closeMessage = new QPushButton(tr("Close"), m_messageBar);
    m_closeMessage->setObjectName(QStringLiteral("closeMessageButton"));
    auto* messageLayout = new QHBoxLayout(m_messageBar);
    messageLayout->setContentsMargins(4, 2, 4, 2);
    messageLayout->addWidget(m_message, 1);
    messageLayout->addWidget(m_closeMessage, 0, Qt::AlignTop);
    m_messageBar->hide();

    m_view = new QTableView(this);
    m_view->setObjectName(QStringLiteral("packetView"));
    m_view->setModel(m_model);
    m_view->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_view->setSelectionMode(QAbstractItemView::SingleSelection);
    m_view->setEditTriggers(QAbstractItemView::DoubleClicked | QAbstractItemView::EditKeyPressed
                            | QAbstractItemView::SelectedClicked);
    m_view->setItemDelegateForColumn(PacketSettingsModel::Mode, new ProcessingModeDelegate(m_view));
    m_view->setAlternatingRowColors(true);
    m_view->setWordWrap(false);
    m_view->verticalHeader()->hide();
    m_view->verticalHeader()->setDefaultSectionSize(m_view->fontMetrics().height() + 12);
    m_view->horizontalHeader()->setHighlightSections(false);
    m_view->horizontalHeader()->setStretchLastSection(false);
    m_view->horizontalHeader()->setSectionResizeMode(PacketSettingsModel::Forward, QHeaderView::Stretch);

    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(0);
    layout->addLayout(top);
    layout->addWidget(m_messageBar);
    layout->addWidget(m_view, 1);

    connect(m_model, &PacketSettingsModel::settingRefused, this, &PacketTable::showMessage);
    connect(m_model, &PacketSettingsModel::settingsChanged, this, [this](const QString& stream) {
        showMessage(QString());
        Q_EMIT settingsChanged(stream);
    });
    connect(m_model, &QAbstractItemModel::modelReset, this, [this] {
        updateTitle();
        updateButtons();
    });
    connect(m_closeMessage, &QPushButton::clicked, this, [this] { showMessage(QString()); });
    connect(m_view, &QTableView::doubleClicked, this, [this](const QModelIndex& index) {
        if (index.isValid() && index.column() == PacketSettingsModel::Forward)
            editForward(index.row());
    });
    connect(m_view->selectionModel(), &QItemSelectionModel::currentRowChanged, this, &PacketTable::updateButtons);
    connect(m_forward, &QPushButton::clicked, this, [this] {
        const QModelIndex current = m_view->currentIndex();
        if (current.isValid())
            editForward(current.row());
    });

    // Streams added, changed or removed on the same station: read again at once (selection kept).
    connect(&session, &StationSession::streamsChanged, this, &PacketTable::refresh);

    session.snapshots().follow(this, [this](const SharedSnapshot& snapshot) { showSnapshot(snapshot); });
    updateTitle();
    updateButtons();
}

PacketTable::~PacketTable() = default;

void PacketTable::setStation(pipeline::Station* station)
{
    showMessage(QString());
    m_model->setStation(station);
}

void PacketTable::setStream(const QString& stream)
{
    if (stream != m_model->stream())
        showMessage(QString());
    m_model->setStream(stream);
    updateTitle();
}

QString PacketTable::stream() const
{
    return m_model->stream();
}

QString PacketTable::message() const
{
    return m_messageBar->isHidden() ? QString() : m_message->text();
}

void PacketTable::showMessage(const QString& text)
{
    m_message->setText(text);
    m_messageBar->setVisible(!text.isEmpty());
}

void PacketTable::updateTitle()
{
    if (m_model->stream().isEmpty())
        m_title->setText(tr("No stream selected"));
    else if (m_model->rowCount() == 0)
        m_title->setText(tr("Stream %1 is not in the station").arg(m_model->stream()));
    else
        m_title->setText(tr("Packet types of stream <b>%1</b>").arg(m_model->stream().toHtmlEscaped()));
}

void PacketTable::updateButtons()
{
    m_forward->setEnabled(m_view->currentIndex().isValid()
                          && (m_model->flags(m_model->index(m_view->currentIndex().row(), PacketSettingsModel::Mode))
                              & Qt::ItemIsEditable));
}

SharedSnapshot PacketTable::feedSnapshot() const
{
    return m_model->snapshot();
}

void PacketTable::refresh()
{
    showSnapshot(m_session.snapshots().latest());
}

void PacketTable::showSnapshot(const SharedSnapshot& snapshot)
{
    m_model->setSnapshot(snapshot);
    if (!m_sized && m_model->rowCount() > 0) {
        m_sized = true;
        m_view->resizeColumnsToContents();
        // The mode column fits its longest choice, so the combo box editor does not cut it.
        const int modeWidth = m_view->fontMetrics().horizontalAdvance(
                                  PacketSettingsModel::modeText(config::ProcessingMode::ProcessEntirePacket))
                              + 48;
        m_view->setColumnWidth(PacketSettingsModel::Mode, std::max(m_view->columnWidth(PacketSettingsModel::Mode), modeWidth));
    }
}

bool PacketTable::editForward(int row)
{
    if (row < 0 || row >= m_model->rowCount())
        return false;
    const QString stream = m_model->stream();
    const QString type = m_model->typeLabel(row);
    ForwardEditorDialog dialog(m_model->forward(row), this);
    dialog.setWindowTitle(tr("Forward %1 of stream %2").arg(type, stream));
    if (dialog.exec() != QDialog::Accepted)
        return false;
    // The table may have moved to another stream (or lost the row) while the dialog was open: the
    // destinations are for the stream and type it was opened on, never for what the row shows now.
    if (m_model->stream() != stream || row >= m_model->rowCount() || m_model->typeLabel(row) != type) {
        showMessage(tr("The forward destinations of %1 were not changed: the table now shows another stream (%2 "
                       "was changed or removed meanwhile).")
                        .arg(type, stream));
        return false;
    }
    const QStringList destinations = dialog.destinations();
    if (destinations == m_model->forward(row))
        return false;
    return m_model->setData(m_model->index(row, PacketSettingsModel::Forward), destinations, Qt::EditRole);
}

} // namespace telestation::ui
