#include "ui/widgets/streams_panel.hpp"

#include "core/pipeline/station.hpp"

#include "ui/dialogs/stream_dialog.hpp"
#include "ui/models/streams_model.hpp"
#include "ui/session/station_session.hpp"
#include "ui/widgets/eliding_delegate.hpp"

#include <QAction>
#include <QApplication>
#include <QHeaderView>
#include <QItemSelectionModel>
#include <QMessageBox>
#include <QPainter>
#include <QStyle>
#include <QStyledItemDelegate>
#include <QTableView>
#include <QToolBar>
#include <QVBoxLayout>

#include <algorithm>
#include <cmath>
#include <utility>

namespace telestation::ui {

namespace {

// The playback column as a progress bar; live streams (progress -1) leave the cell empty.
class ProgressDelegate : public QStyledItemDelegate {
public:
    using QStyledItemDelegate::QStyledItemDelegate;

    void paint(QPainter* painter, const QStyleOptionViewItem& option, const QModelIndex& index) const override
    {
        const double progress = index.data(StreamsModel::kValueRole).toDouble();
        if (progress < 0) {
            QStyledItemDelegate::paint(painter, option, index);
            return;
        }
        QStyleOptionViewItem background = option;
        initStyleOption(&background, index);
        background.text.clear();
        const QWidget* widget = option.widget;
        QStyle* style = widget ? widget->style() : QApplication::style();
        style->drawControl(QStyle::CE_ItemViewItem, &background, painter, widget);

        QStyleOptionProgressBar bar;
        bar.rect = option.rect.adjusted(2, 2, -2, -2);
        bar.minimum = 0;
        bar.maximum = 1000;
        bar.progress = static_cast<int>(std::lround(std::clamp(progress, 0.0, 1.0) * 1000));
        bar.text = index.data(Qt::DisplayRole).toString();
        bar.textVisible = true;
        bar.textAlignment = Qt::AlignCenter;
        bar.state = option.state | QStyle::State_Horizontal;
        bar.palette = option.palette;
        bar.fontMetrics = option.fontMetrics;
        style->drawControl(QStyle::CE_ProgressBar, &bar, painter, widget);
    }
};

} // namespace

StreamsPanel::StreamsPanel(StationSession& session, QWidget* parent) : QWidget(parent), m_session(session)
{
    setObjectName(QStringLiteral("streamsPanel"));
    m_model = new StreamsModel(session, this);

    m_toolBar = new QToolBar(this);
    m_toolBar->setObjectName(QStringLiteral("streamsToolBar"));
    m_toolBar->setToolButtonStyle(Qt::ToolButtonTextOnly);
    m_add = m_toolBar->addAction(tr("&Add…"), this, &StreamsPanel::addStream);
    m_add->setObjectName(QStringLiteral("addStreamAction"));
    m_add->setToolTip(tr("Add a stream to the profile"));
    m_edit = m_toolBar->addAction(tr("&Edit…"), this, &StreamsPanel::editStream);
    m_edit->setObjectName(QStringLiteral("editStreamAction"));
    m_edit->setToolTip(tr("Change the selected stream's name, source and options"));
    m_remove = m_toolBar->addAction(tr("&Remove"), this, &StreamsPanel::removeStream);
    m_remove->setObjectName(QStringLiteral("removeStreamAction"));
    m_remove->setToolTip(tr("Remove the selected stream from the profile"));
    m_toolBar->addSeparator();
    m_start = m_toolBar->addAction(tr("&Start"), this, &StreamsPanel::startStream);
    m_start->setObjectName(QStringLiteral("startStreamAction"));
    m_start->setToolTip(tr("Open the selected stream's source and receive (playback starts from the beginning)"));
    m_stop = m_toolBar->addAction(tr("S&top"), this, &StreamsPanel::stopStream);
    m_stop->setObjectName(QStringLiteral("stopStreamAction"));
    m_stop->setToolTip(tr("Stop receiving the selected stream; packets already received are still processed"));

    m_view = new QTableView(this);
    m_view->setObjectName(QStringLiteral("streamsView"));
    m_view->setModel(m_model);
    m_view->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_view->setSelectionMode(QAbstractItemView::SingleSelection);
    m_view->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_view->setAlternatingRowColors(true);
    m_view->setWordWrap(false);
    m_view->verticalHeader()->hide();
    m_view->verticalHeader()->setDefaultSectionSize(m_view->fontMetrics().height() + 10);
    m_view->horizontalHeader()->setHighlightSections(false);
    // The source (the last column) takes the room the counts leave, a long URL elided in its middle
    // (scheme and port stay readable; the whole URL is its tool tip).
    m_view->horizontalHeader()->setStretchLastSection(true);
    m_view->horizontalHeader()->setMinimumSectionSize(40);
    m_view->setItemDelegateForColumn(StreamsModel::Source, new ElidingDelegate(Qt::ElideMiddle, m_view));
    m_view->setItemDelegateForColumn(StreamsModel::Progress, new ProgressDelegate(m_view));
    connect(m_view, &QTableView::doubleClicked, this, [this](const QModelIndex& index) {
        if (index.isValid())
            editStream();
    });
    connect(m_view->selectionModel(), &QItemSelectionModel::currentRowChanged, this,
            &StreamsPanel::onCurrentRowChanged);
    // A reset (streams added, removed, another station) loses the selection: select the same stream
    // again by name, or the first.
    connect(m_model, &QAbstractItemModel::modelReset, this, [this] {
        QString wanted = m_chosen;
        if (m_model->rowOf(wanted) < 0)
            wanted = m_model->streamName(0);
        selectByName(wanted);
        onCurrentRowChanged();
        sizeColumns();
    });

    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(0);
    layout->addWidget(m_toolBar);
    layout->addWidget(m_view, 1);

    // Streams added, changed or removed on the same station: read again at once (selection kept).
    connect(&session, &StationSession::streamsChanged, this, &StreamsPanel::refresh);

    session.snapshots().follow(this, [this](const SharedSnapshot& snapshot) { showSnapshot(snapshot); });
    updateActions();
}

StreamsPanel::~StreamsPanel() = default;

void StreamsPanel::setStation(pipeline::Station* station)
{
    m_model->setStation(station);
    updateActions();
}

SharedSnapshot StreamsPanel::feedSnapshot() const
{
    return m_model->snapshot();
}

void StreamsPanel::refresh()
{
    showSnapshot(m_session.snapshots().latest());
}

void StreamsPanel::showSnapshot(const SharedSnapshot& snapshot)
{
    m_model->setSnapshot(snapshot);
    if (!m_sized && m_model->rowCount() > 0)
        sizeColumns();
    updateActions();
}

// When the streams change (not at each tick: numbers growing would make the columns jump): the name and
// the state as wide as they are (within reason: a long state is elided, its tool tip has it), the counts
// as wide as their header or a number a few digits longer than today's, the playback column only when
// a stream plays a recording back; the source has the rest.
void StreamsPanel::sizeColumns()
{
    if (m_model->rowCount() == 0)
        return;
    m_sized = true;
    const QFontMetrics metrics(m_view->font());
    const int padding = 2 * m_view->style()->pixelMetric(QStyle::PM_FocusFrameHMargin, nullptr, m_view) + 12;
    const auto fit = [&](int column, const QString& sample, int widest) {
        const int header = m_view->horizontalHeader()->sectionSizeHint(column);
        const int contents = static_cast<const QAbstractItemView*>(m_view)->sizeHintForColumn(column);
        const int wanted = std::max({header, contents, metrics.horizontalAdvance(sample) + padding});
        m_view->setColumnWidth(column, std::min(wanted, std::max(header, widest)));
    };
    fit(StreamsModel::Name, QString(), 160);
    fit(StreamsModel::State, QStringLiteral("receiving"), 150);
    fit(StreamsModel::PacketRate, QStringLiteral("999.9k"), 100);
    fit(StreamsModel::DataRate, QStringLiteral("999.9"), 100);
    fit(StreamsModel::Loss, QStringLiteral("99,999"), 100);
    fit(StreamsModel::Progress, QStringLiteral("100 %"), 90);
    m_view->setColumnHidden(StreamsModel::Progress, !m_model->hasPlayback());
}

int StreamsPanel::currentRow() const
{
    const QModelIndex current = m_view->selectionModel()->currentIndex();
    return current.isValid() ? current.row() : -1;
}

void StreamsPanel::selectByName(const QString& name)
{
    const int row = m_model->rowOf(name);
    if (row < 0) {
        m_view->selectionModel()->clear();
        return;
    }
    m_view->selectionModel()->setCurrentIndex(m_model->index(row, 0),
                                              QItemSelectionModel::ClearAndSelect | QItemSelectionModel::Rows);
}

void StreamsPanel::setCurrentStream(const QString& name)
{
    selectByName(name);
    onCurrentRowChanged();
}

void StreamsPanel::onCurrentRowChanged()
{
    const QString name = m_model->streamName(currentRow());
    if (!name.isEmpty())
        m_chosen = name;
    updateActions();
    if (name == m_current)
        return;
    m_current = name;
    Q_EMIT currentStreamChanged(name);
}

void StreamsPanel::updateActions()
{
    const int row = currentRow();
    const bool selected = row >= 0 && row < m_model->rowCount();
    const bool running = selected && m_model->isRunning(row);
    m_edit->setEnabled(selected);
    m_remove->setEnabled(selected);
    m_start->setEnabled(selected && !running);
    // A stream that failed to open stays enabled (it is tried again at the next start): Stop turns it off.
    m_stop->setEnabled(selected && (running || m_model->streamProfile(row).enabled));
}

QString StreamsPanel::newStreamName() const
{
    const QStringList names = m_model->streamNames();
    for (qsizetype n = names.size() + 1;; ++n) {
        const QString name = QStringLiteral("stream%1").arg(n);
        if (!names.contains(name))
            return name;
    }
}

void StreamsPanel::setStreamChanges(AddStream add, ReplaceStream replace)
{
    m_addStream = std::move(add);
    m_replaceStream = std::move(replace);
}

bool StreamsPanel::stationOpensSources() const
{
    const auto* station = m_session.station();
    return station && station->running();
}

void StreamsPanel::addStream()
{
    config::StreamProfile initial;
    initial.name = newStreamName().toStdString();
    StreamDialog dialog(initial, m_model->streamNames(), this);
    // A running station opens the source itself (and refuses with the reason); a stopped one only
    // stores it, so the dialog tries it first.
    dialog.setCheckOpening(!stationOpensSources());
    dialog.setApply([this](const config::StreamProfile& added, QString* error) {
        const QString previous = std::exchange(m_chosen, QString::fromStdString(added.name)); // selected once listed
        const bool done = m_addStream ? m_addStream(added, error) : m_session.addStream(added, error);
        if (!done)
            m_chosen = previous;
        return done;
    });
    dialog.exec();
}

void StreamsPanel::editStream()
{
    const int row = currentRow();
    if (row < 0 || row >= m_model->rowCount())
        return;
    const config::StreamProfile initial = m_model->streamProfile(row);
    const QString oldName = QString::fromStdString(initial.name);
    QStringList others = m_model->streamNames();
    others.removeAll(oldName);
    StreamDialog dialog(initial, others, this);
    // The stream holds its own port while it runs: a running station reopens it (falling back to the
    // same socket), so only a stopped one lets the dialog try the source.
    dialog.setCheckOpening(!stationOpensSources());
    dialog.setApply([this, &initial, &oldName](const config::StreamProfile& edited, QString* error) {
        if (edited == initial)
            return true; // nothing to change
        const QString previous = std::exchange(m_chosen, QString::fromStdString(edited.name)); // follows a rename
        const bool done = m_replaceStream ? m_replaceStream(oldName, edited, error)
                                          : m_session.replaceStream(oldName, edited, error);
        if (!done)
            m_chosen = previous;
        return done;
    });
    dialog.exec();
}

void StreamsPanel::removeStream()
{
    const QString name = m_model->streamName(currentRow());
    if (name.isEmpty())
        return;
    if (m_confirmRemoval) {
        const auto answer = QMessageBox::question(
            this, tr("Remove Stream"),
            tr("Remove the stream %1 from the profile?\n\nIts packet settings go with it; its recordings stay on disk.")
                .arg(name),
            QMessageBox::Yes | QMessageBox::No, QMessageBox::No);
        if (answer != QMessageBox::Yes)
            return;
    }
    Q_EMIT removeStreamRequested(name);
}

void StreamsPanel::startStream()
{
    const QString name = m_model->streamName(currentRow());
    if (name.isEmpty())
        return;
    Q_EMIT startStreamRequested(name);
    refresh(); // the session has acted and taken a snapshot (or rebuilt the station): show the new state now
}

void StreamsPanel::stopStream()
{
    const QString name = m_model->streamName(currentRow());
    if (name.isEmpty())
        return;
    Q_EMIT stopStreamRequested(name);
    refresh();
}

} // namespace telestation::ui
