#include "ui/dialogs/statistics_dialog.hpp"

#include "core/stats/status_line.hpp"
#include "ui/text/number_format.hpp"
#include "ui/widgets/queue_bar.hpp"

#include <QDateTime>
#include <QDialogButtonBox>
#include <QGuiApplication>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLocale>
#include <QPushButton>
#include <QScreen>
#include <QSplitter>
#include <QTabWidget>
#include <QTableView>
#include <QTreeView>
#include <QVBoxLayout>

#include <algorithm>
#include <utility>

namespace telestation::ui {

namespace {

QString duration(double seconds)
{
    return QString::fromStdString(stats::formatDuration(seconds));
}

QTableView* makeTable(QAbstractItemModel* model, const QString& name, QWidget* parent)
{
    auto* view = new QTableView(parent);
    view->setObjectName(name);
    view->setModel(model);
    view->setAlternatingRowColors(true);
    view->setSelectionBehavior(QAbstractItemView::SelectRows);
    view->setWordWrap(false);
    view->verticalHeader()->hide();
    view->verticalHeader()->setDefaultSectionSize(view->fontMetrics().height() + 10);
    view->horizontalHeader()->setStretchLastSection(false);
    view->horizontalHeader()->setHighlightSections(false);
    return view;
}

} // namespace

StatisticsDialog::StatisticsDialog(SnapshotFeed& feed, QWidget* parent) : QDialog(parent), m_feed(feed)
{
    setObjectName(QStringLiteral("StatisticsDialog"));
    setWindowTitle(tr("Statistics"));

    m_streamModel = new StreamStatisticsModel(this);
    m_queueModel = new QueueStatisticsModel(this);
    m_forwardModel = new ForwardStatisticsModel(this);
    m_consumerModel = new ConsumerStatisticsModel(this);

    m_header = new QLabel(this);
    m_header->setObjectName(QStringLiteral("statisticsHeader"));
    m_header->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_header->setToolTip(tr("CPU: the whole process over the last refresh interval (100% = one core). Rates are over "
                            "the last refresh interval; counts are since the station started, or since the reset."));

    m_streamView = new QTreeView(this);
    m_streamView->setObjectName(QStringLiteral("streamStatistics"));
    m_streamView->setModel(m_streamModel);
    // A reset model (not expected: rows are updated in place) collapses everything: expand anew.
    connect(m_streamModel, &QAbstractItemModel::modelReset, this, [this] { m_expanded.clear(); });
    m_streamView->setAlternatingRowColors(true);
    m_streamView->setUniformRowHeights(true);
    m_streamView->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_streamView->header()->setStretchLastSection(false);
    m_streamView->header()->setHighlightSections(false);

    m_queueView = makeTable(m_queueModel, QStringLiteral("queueStatistics"), this);
    m_queueView->setItemDelegateForColumn(QueueStatisticsModel::Fill, new QueueBarDelegate(kQueueLevelRole, m_queueView));
    m_forwardView = makeTable(m_forwardModel, QStringLiteral("forwardStatistics"), this);
    m_consumerView = makeTable(m_consumerModel, QStringLiteral("consumerStatistics"), this);
    m_consumerView->setItemDelegateForColumn(ConsumerStatisticsModel::Fill,
                                             new QueueBarDelegate(kQueueLevelRole, m_consumerView));

    m_tabs = new QTabWidget(this);
    m_tabs->setObjectName(QStringLiteral("statisticsTabs"));
    m_tabs->addTab(m_queueView, QString());
    m_tabs->addTab(m_forwardView, QString());
    m_tabs->addTab(m_consumerView, QString());
    updateTabTitles();

    auto* splitter = new QSplitter(Qt::Vertical, this);
    splitter->addWidget(m_streamView);
    splitter->addWidget(m_tabs);
    splitter->setStretchFactor(0, 3);
    splitter->setStretchFactor(1, 2);
    splitter->setChildrenCollapsible(false);

    m_resetLabel = new QLabel(this);
    m_resetLabel->setObjectName(QStringLiteral("resetLabel"));
    m_resetButton = new QPushButton(tr("&Reset"), this);
    m_resetButton->setObjectName(QStringLiteral("resetButton"));
    m_resetButton->setToolTip(tr("Count from zero from now on. Reset zeroes this dialog's view, not the engine's "
                                 "counters, so the headless reports and other views are unaffected."));
    m_clearResetButton = new QPushButton(tr("Show &totals"), this);
    m_clearResetButton->setObjectName(QStringLiteral("showTotalsButton"));
    m_clearResetButton->setToolTip(tr("Show the counts since the station started again"));
    m_clearResetButton->setEnabled(false);
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Close, this);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    connect(m_resetButton, &QPushButton::clicked, this, &StatisticsDialog::resetStatistics);
    connect(m_clearResetButton, &QPushButton::clicked, this, &StatisticsDialog::clearReset);

    auto* bottom = new QHBoxLayout;
    bottom->addWidget(m_resetLabel, 1);
    bottom->addWidget(m_resetButton);
    bottom->addWidget(m_clearResetButton);
    bottom->addWidget(buttons);

    auto* layout = new QVBoxLayout(this);
    layout->addWidget(m_header);
    layout->addWidget(splitter, 1);
    layout->addLayout(bottom);

    feed.follow(this, [this](const SharedSnapshot& snapshot) { display(snapshot); });
    updateHeader();
    resize(defaultSize());
}

// Wide enough for every column of the streams on a 1920×1080 screen, for the rates, the received and the
// loss columns on a 1366×768 one; within the screen's available area
// (less room for the window manager's frame).
QSize StatisticsDialog::defaultSize() const
{
    const QSize wanted(1720, 800);
    const QScreen* s = parentWidget() ? parentWidget()->screen() : QGuiApplication::primaryScreen();
    if (!s)
        return wanted;
    return wanted.boundedTo(s->availableGeometry().size() - QSize(24, 48));
}

StatisticsDialog::~StatisticsDialog() = default;

const stats::StationSnapshot& StatisticsDialog::lastSnapshot() const noexcept
{
    static const stats::StationSnapshot kNone;
    return m_last ? *m_last : kNone;
}

void StatisticsDialog::resetStatistics()
{
    m_feed.tick();
    const SharedSnapshot now = m_feed.latest();
    if (!now)
        return;
    m_baseline.reset(*now);
    m_resetUptime = now->uptimeSeconds;
    m_resetTimeNs = now->timeNs;
    display(now);
}

void StatisticsDialog::clearReset()
{
    m_baseline.clear();
    if (m_last)
        display(m_last);
}

void StatisticsDialog::display(SharedSnapshot snapshot)
{
    m_last = std::move(snapshot);
    m_shown = m_baseline.apply(*m_last);
    m_streamModel->setSnapshot(m_shown, &m_baseline);
    m_queueModel->setSnapshot(m_shown);
    m_forwardModel->setSnapshot(m_shown);
    m_consumerModel->setSnapshot(m_shown);

    for (int row = 0; row < m_streamModel->rowCount(); ++row) {
        const QModelIndex index = m_streamModel->index(row, StreamStatisticsModel::Name);
        if (m_expanded.insert(index.data(kCellValueRole).toString().toStdString()).second)
            m_streamView->expand(index);
    }
    sizeColumnsOnce();
    updateHeader();
    updateTabTitles();
    ++m_refreshes;
    Q_EMIT refreshed();
}

void StatisticsDialog::sizeColumnsOnce()
{
    // Once, when a view first has rows: later numbers growing wider must not make the columns jump.
    if (!m_treeSized && m_streamModel->rowCount() > 0) {
        m_treeSized = true;
        const int numberWidth = m_streamView->fontMetrics().horizontalAdvance(QStringLiteral("999,999")) + 12;
        for (int c = 0; c < StreamStatisticsModel::ColumnCount; ++c) {
            m_streamView->resizeColumnToContents(c);
            // Room for numbers to grow a few digits (the headers take two lines where a word would make
            // a column wider than its numbers); long state texts are elided (their tool tip has them).
            if (c == StreamStatisticsModel::Name)
                m_streamView->setColumnWidth(c, std::min(m_streamView->columnWidth(c), 280));
            else if (c == StreamStatisticsModel::State)
                m_streamView->setColumnWidth(c, std::min(m_streamView->columnWidth(c), 150));
            else if (c != StreamStatisticsModel::Name)
                m_streamView->setColumnWidth(c, std::max(m_streamView->columnWidth(c), numberWidth));
        }
    }
    if (!m_queuesSized && m_queueModel->rowCount() > 0) {
        m_queuesSized = true;
        m_queueView->resizeColumnsToContents();
        // The bars take the room left (the header has its sections only once the view laid them out).
        m_queueView->horizontalHeader()->setSectionResizeMode(QueueStatisticsModel::Fill, QHeaderView::Stretch);
    }
    if (!m_forwardsSized && m_forwardModel->rowCount() > 0) {
        m_forwardsSized = true;
        m_forwardView->resizeColumnsToContents();
        m_forwardView->horizontalHeader()->setSectionResizeMode(ForwardStatisticsModel::State, QHeaderView::Stretch);
    }
    if (!m_consumersSized && m_consumerModel->rowCount() > 0) {
        m_consumersSized = true;
        m_consumerView->resizeColumnsToContents();
        m_consumerView->horizontalHeader()->setSectionResizeMode(ConsumerStatisticsModel::Fill, QHeaderView::Stretch);
    }
}

void StatisticsDialog::updateHeader()
{
    if (!m_last) {
        m_header->setText(tr("Waiting for the first statistics…"));
    } else {
        const stats::StationSnapshot& s = m_shown;
        const stats::StationSnapshot& last = *m_last;
        const stats::Rates& r = last.rates;
        const QString station =
            tr("CPU %1% · up %2 · packet pool %3 / %4 in use · recording: %5")
                .arg(QLocale().toString(last.cpuPercent, 'f', 0), duration(last.uptimeSeconds),
                     countText(last.poolInUse), countText(last.poolCapacity),
                     last.recordingState.empty() ? tr("off") : QString::fromStdString(last.recordingState));
        const QString totals =
            tr("Received %1 · processed %2 · recorded %3 · forwarded %4 · lost %5 · drops %6 · malformed %7 · "
               "errors %8 · %9 pkt/s · %10 Mbit/s · %11 par/s")
                .arg(countText(s.totals.packetsReceived), countText(s.totals.packetsProcessed),
                     countText(s.totals.packetsRecorded), countText(s.totals.packetsForwarded),
                     countText(s.totals.packetsLost), countText(stats::dropCount(s)), countText(s.totals.malformed),
                     countText(stats::errorCount(s)), compactText(r.packetsPerSecond))
                .arg(compactText(r.megabitsPerSecond), compactText(r.parametersPerSecond));
        m_header->setText(station + QLatin1Char('\n') + totals);
    }

    if (m_baseline.active()) {
        const QString at = m_resetTimeNs > 0
                               ? QDateTime::fromMSecsSinceEpoch(m_resetTimeNs / 1'000'000, Qt::UTC).toString(QStringLiteral("HH:mm:ss 'UTC'"))
                               : tr("(unknown time)");
        m_resetLabel->setText(tr("Counts since the reset at %1 (%2 ago); the engine's own counters are unchanged")
                                  .arg(at, duration(lastSnapshot().uptimeSeconds - m_resetUptime)));
    } else {
        m_resetLabel->setText(tr("Counts since the station started"));
    }
    m_clearResetButton->setEnabled(m_baseline.active());
}

void StatisticsDialog::updateTabTitles()
{
    m_tabs->setTabText(0, tr("Queues (%1)").arg(m_queueModel->rowCount()));
    m_tabs->setTabText(1, tr("Forward destinations (%1)").arg(m_forwardModel->rowCount()));
    m_tabs->setTabText(2, tr("Consumers (%1)").arg(m_consumerModel->rowCount()));
}

QString StatisticsDialog::headerText() const
{
    return m_header->text();
}

} // namespace telestation::ui
