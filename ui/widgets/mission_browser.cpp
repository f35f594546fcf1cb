#include "ui/widgets/mission_browser.hpp"

#include "ui/dialogs/definition_file_dialog.hpp"
#include "ui/dialogs/file_dialog_folder.hpp"
#include "ui/models/mission_tree_model.hpp"
#include "ui/text/number_format.hpp"

#include <QEvent>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QKeyEvent>
#include <QLabel>
#include <QLineEdit>
#include <QLocale>
#include <QMenu>
#include <QSortFilterProxyModel>
#include <QToolButton>
#include <QTreeView>
#include <QVBoxLayout>

namespace telestation::ui {
namespace {

// The filter over the tree. A packet row stands for the parameters shown under it, so that dragging a
// packet while a filter is on drags what the operator sees (everything when no filter is on).
class ParameterFilterModel : public MissionTreeFilter {
public:
    using MissionTreeFilter::MissionTreeFilter;

    // Packet rows replaced by their shown parameter rows.
    [[nodiscard]] QModelIndexList parameterRows(const QModelIndexList& indexes) const
    {
        QModelIndexList rows;
        for (const QModelIndex& index : indexes) {
            if (!index.isValid())
                continue;
            if (index.parent().isValid()) {
                rows << index.siblingAtColumn(0);
                continue;
            }
            for (int r = 0; r < rowCount(index.siblingAtColumn(0)); ++r)
                rows << this->index(r, 0, index.siblingAtColumn(0));
        }
        return rows;
    }

    [[nodiscard]] QMimeData* mimeData(const QModelIndexList& indexes) const override
    {
        return QSortFilterProxyModel::mimeData(parameterRows(indexes));
    }
};

} // namespace

MissionBrowser::MissionBrowser(QWidget* parent) : QWidget(parent)
{
    setObjectName(QStringLiteral("MissionBrowser"));

    m_model = new MissionTreeModel(this);
    m_filter = new ParameterFilterModel(this);
    m_filter->setSourceModel(m_model);

    m_filterEdit = new QLineEdit(this);
    m_filterEdit->setObjectName(QStringLiteral("missionFilter"));
    m_filterEdit->setPlaceholderText(tr("Filter: name, units or description"));
    m_filterEdit->setClearButtonEnabled(true);
    m_filterEdit->setToolTip(tr("Shows the parameters whose qualified name, path, aliases, units or description "
                                "contain this text (any case), and the packets whose name, path, aliases or "
                                "description do"));

    m_openButton = new QToolButton(this);
    m_openButton->setObjectName(QStringLiteral("openDefinitionButton"));
    m_openButton->setText(tr("Open definition file…"));
    m_openButton->setToolTip(tr("Check a definition file — XTCE (*.xml) or text (*.tdef): its errors by line, "
                                "or what it defines. The station's database is not changed."));

    m_view = new QTreeView(this);
    m_view->setObjectName(QStringLiteral("missionTree"));
    m_view->setModel(m_filter);
    m_view->setUniformRowHeights(true);
    m_view->setAlternatingRowColors(true);
    m_view->setSelectionMode(QAbstractItemView::ExtendedSelection);
    m_view->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_view->setDragEnabled(true);
    m_view->setDragDropMode(QAbstractItemView::DragOnly);
    m_view->setDefaultDropAction(Qt::CopyAction);
    m_view->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_view->installEventFilter(this);
    m_view->setContextMenuPolicy(Qt::CustomContextMenu);
    connect(m_view, &QTreeView::customContextMenuRequested, this, [this](const QPoint& at) {
        if (QMenu* menu = contextMenu(m_view->indexAt(at), this)) {
            menu->setAttribute(Qt::WA_DeleteOnClose);
            menu->popup(m_view->viewport()->mapToGlobal(at));
        }
    });
    QHeaderView* header = m_view->header();
    header->setStretchLastSection(true);
    const QFontMetrics fm = m_view->fontMetrics();
    const auto width = [&](const char* sample) { return fm.horizontalAdvance(QString::fromLatin1(sample)) + 24; };
    header->resizeSection(MissionTreeModel::Name, width("TIME_OFFSET_TO_STATION_") + 2 * m_view->indentation());
    header->resizeSection(MissionTreeModel::Apid, width("2047 (id 255)"));
    header->resizeSection(MissionTreeModel::Length, width("65542 bytes"));
    header->resizeSection(MissionTreeModel::Parameters, width("Parameters"));
    header->resizeSection(MissionTreeModel::Type, width("STRING LE"));
    header->resizeSection(MissionTreeModel::BitOffset, width("Bit offset"));
    header->resizeSection(MissionTreeModel::BitLength, width("Bits"));
    header->resizeSection(MissionTreeModel::Units, width("deg/s/s"));
    header->resizeSection(MissionTreeModel::Calibration, width("OFF=0, BOOT=1, STANDBY=2, … (8 states)"));
    header->resizeSection(MissionTreeModel::Limits, width("R<-1000 Y<-500 Y>500 R>1000"));

    m_summary = new QLabel(this);
    m_summary->setObjectName(QStringLiteral("missionSummary"));
    m_summary->setTextInteractionFlags(Qt::TextSelectableByMouse);

    auto* bar = new QHBoxLayout;
    bar->addWidget(m_filterEdit, 1);
    bar->addWidget(m_openButton);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    layout->addLayout(bar);
    layout->addWidget(m_view, 1);
    layout->addWidget(m_summary);

    connect(m_filterEdit, &QLineEdit::textChanged, this, &MissionBrowser::applyFilter);
    connect(m_openButton, &QToolButton::clicked, this, &MissionBrowser::chooseDefinitionFile);
    connect(m_view, &QTreeView::doubleClicked, this, [this](const QModelIndex& index) {
        // A packet row expands or collapses on double click; only parameters are activated.
        if (!index.parent().isValid())
            return;
        const QStringList names = m_model->qualifiedNames({m_filter->mapToSource(index)});
        if (!names.isEmpty())
            Q_EMIT parametersActivated(names);
    });
    updateSummary();
}

MissionBrowser::~MissionBrowser() = default;

void MissionBrowser::setDatabase(const mdb::MissionDatabase* db, const QString& source)
{
    m_source = source;
    m_model->setDatabase(db);
    if (!m_filterEdit->text().isEmpty())
        m_view->expandAll();
    updateSummary();
}

const mdb::MissionDatabase* MissionBrowser::database() const noexcept
{
    return m_model->database();
}

void MissionBrowser::setFilterText(const QString& text)
{
    m_filterEdit->setText(text); // applyFilter() follows through textChanged
}

QString MissionBrowser::filterText() const
{
    return m_filterEdit->text();
}

void MissionBrowser::applyFilter(const QString& text)
{
    m_filter->setFilterFixedString(text.trimmed());
    // While filtering, the matches are what the operator is after: show them all.
    if (text.trimmed().isEmpty())
        m_view->collapseAll();
    else
        m_view->expandAll();
    updateSummary();
}

int MissionBrowser::shownParameterCount() const
{
    int n = 0;
    for (int r = 0; r < m_filter->rowCount(); ++r)
        n += m_filter->rowCount(m_filter->index(r, 0));
    return n;
}

QStringList MissionBrowser::selectedQualifiedNames() const
{
    const auto* filter = static_cast<const ParameterFilterModel*>(m_filter);
    QModelIndexList rows;
    for (const QModelIndex& index : filter->parameterRows(m_view->selectionModel()->selectedRows(0)))
        rows << m_filter->mapToSource(index);
    return m_model->qualifiedNames(rows);
}

QMenu* MissionBrowser::contextMenu(const QModelIndex& viewIndex, QWidget* parent)
{
    const QModelIndex source = m_filter->mapToSource(viewIndex);
    if (!m_limitsEditable || m_model->parameter(source) == nullptr)
        return nullptr;
    const QString name = source.siblingAtColumn(0).data(MissionTreeModel::kQualifiedNameRole).toString();
    auto* menu = new QMenu(parent);
    QAction* limits = menu->addAction(tr("Edit limits…"), this, [this, name] { Q_EMIT editLimitsRequested(name); });
    limits->setObjectName(QStringLiteral("editLimitsAction"));
    limits->setToolTip(tr("Change %1's limits on the running station (kept in the profile when it is saved)").arg(name));
    return menu;
}

void MissionBrowser::setDefinitionFileButtonVisible(bool visible)
{
    m_openButton->setVisible(visible);
}

QString MissionBrowser::summaryText() const
{
    return m_summary->text();
}

void MissionBrowser::updateSummary()
{
    const mdb::MissionDatabase* db = m_model->database();
    if (db == nullptr) {
        m_summary->setText(tr("No mission database loaded"));
        m_summary->setToolTip({});
        return;
    }
    const QLocale locale;
    const QString name = db->name.empty() ? tr("(unnamed mission)") : QString::fromStdString(db->name);
    QString text = tr("%1 \u2014 %2 packet types, %3 parameters")
                       .arg(name, countText(db->packets.size()), countText(db->parameterCount()));
    if (!m_filter->filterRegularExpression().pattern().isEmpty())
        text += tr("; %1 shown").arg(locale.toString(shownParameterCount()));
    m_summary->setText(text);
    m_summary->setToolTip(m_source.isEmpty() ? QString() : tr("Loaded from %1").arg(m_source));
}

bool MissionBrowser::eventFilter(QObject* watched, QEvent* event)
{
    if (watched == m_view && event->type() == QEvent::KeyPress) {
        const int key = static_cast<QKeyEvent*>(event)->key();
        if (key == Qt::Key_Return || key == Qt::Key_Enter) {
            const QStringList names = selectedQualifiedNames();
            if (!names.isEmpty())
                Q_EMIT parametersActivated(names);
            return true;
        }
    }
    return QWidget::eventFilter(watched, event);
}

void MissionBrowser::chooseDefinitionFile()
{
    const QString path = FileDialogFolder::openFile(
        this, FileDialogFolder::kDefinitions, tr("Open Definition File"),
        tr("Definition files (*.tdef *.xml *.txt);;XTCE (*.xml);;Text definitions (*.tdef *.txt);;All files (*)"));
    if (!path.isEmpty())
        openDefinitionFile(path);
}

DefinitionFileDialog* MissionBrowser::openDefinitionFile(const QString& path)
{
    auto* dialog = new DefinitionFileDialog(this);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    dialog->setUseMission(m_useMission);
    dialog->loadFile(path); // its result, errors included, is shown by the dialog itself
    dialog->show();
    dialog->raise();
    dialog->activateWindow();
    m_dialog = dialog;
    return dialog;
}

} // namespace telestation::ui
