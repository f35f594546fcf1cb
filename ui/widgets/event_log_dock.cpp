#include "ui/widgets/event_log_dock.hpp"

#include "ui/dialogs/event_range_dialog.hpp"
#include "ui/dialogs/file_dialog_folder.hpp"
#include "ui/models/tones.hpp"
#include "ui/text/number_format.hpp"
#include "ui/widgets/dock_content.hpp"

#include <QComboBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QLocale>
#include <QMessageBox>
#include <QPushButton>
#include <QSaveFile>
#include <QScrollBar>
#include <QTableView>
#include <QVBoxLayout>

#include <utility>

namespace telestation::ui {

EventLogDock::EventLogDock(EventSource source, QWidget* parent, std::size_t capacity)
    : QDockWidget(tr("Event Log"), parent), m_source(std::move(source)), m_capacity(capacity)
{
    setObjectName(QStringLiteral("EventLogDock"));

    m_model = new EventLogModel(capacity, this);
    m_filter = new EventLogFilterModel(this);
    m_filter->setSourceModel(m_model);

    auto* content = new QWidget(this);

    m_severity = new QComboBox(content);
    m_severity->setObjectName(QStringLiteral("eventSeverityFilter"));
    // Item order = SeverityFilter's order.
    m_severity->addItem(tr("All events"));
    m_severity->addItem(tr("Warnings and errors"));
    m_severity->addItem(tr("Errors only"));
    m_severity->addItem(tr("Critical only"));
    m_severity->setToolTip(tr("Show events of this severity or worse"));

    m_kind = new QComboBox(content);
    m_kind->setObjectName(QStringLiteral("eventKindFilter"));
    m_kind->addItem(tr("All kinds"), -1);
    for (int k = 0; k < events::kEventKindCount; ++k)
        m_kind->addItem(QString::fromLatin1(events::eventKindName(static_cast<events::EventKind>(k))), k);
    m_kind->setToolTip(tr("Show events of this kind only"));

    m_search = new QLineEdit(content);
    m_search->setObjectName(QStringLiteral("eventSearch"));
    m_search->setPlaceholderText(tr("Search stream, packet type, parameter or text"));
    m_search->setClearButtonEnabled(true);

    m_export = new QPushButton(tr("Export CSV…"), content);
    m_export->setObjectName(QStringLiteral("eventExport"));
    m_export->setToolTip(tr("Save the events shown (with the filters applied) as a CSV file"));

    m_loadEarlier = new QPushButton(tr("Load earlier…"), content);
    m_loadEarlier->setObjectName(QStringLiteral("eventLoadEarlier"));
    m_loadEarlier->setToolTip(tr("Read the %1 events before the oldest shown from the event archive").arg(kHistoryPage));
    m_rangeButton = new QPushButton(tr("Range…"), content);
    m_rangeButton->setObjectName(QStringLiteral("eventRange"));
    m_rangeButton->setToolTip(tr("Show the archive's events of a time range instead of the live log"));
    m_live = new QPushButton(tr("Live"), content);
    m_live->setObjectName(QStringLiteral("eventLive"));
    m_live->setToolTip(tr("Back to the live log"));
    m_live->hide();
    m_exportRange = new QPushButton(tr("Export range…"), content);
    m_exportRange->setObjectName(QStringLiteral("eventExportRange"));
    m_exportRange->setToolTip(tr("Save the archive's events of a time range as a CSV file (every column)"));

    m_status = new QLabel(content);
    m_status->setObjectName(QStringLiteral("eventStatus"));
    m_archiveStatus = new QLabel(content);
    m_archiveStatus->setObjectName(QStringLiteral("eventArchiveStatus"));
    m_archiveStatus->setWordWrap(true);
    m_archiveStatus->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_archiveStatus->hide();

    m_view = new QTableView(content);
    m_view->setObjectName(QStringLiteral("eventView"));
    m_view->setModel(m_filter);
    m_view->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_view->setAlternatingRowColors(true);
    m_view->setWordWrap(false);
    m_view->setSortingEnabled(false); // the log's order is the engine's order
    m_view->verticalHeader()->hide();
    // Fixed row heights: no per-row size hints over ten thousand rows.
    m_view->verticalHeader()->setSectionResizeMode(QHeaderView::Fixed);
    m_view->verticalHeader()->setDefaultSectionSize(m_view->fontMetrics().height() + 8);
    QHeaderView* header = m_view->horizontalHeader();
    header->setHighlightSections(false);
    header->setStretchLastSection(true);
    const QFontMetrics fm = m_view->fontMetrics();
    QFont bold = m_view->font(); // critical events are written in bold
    bold.setBold(true);
    header->resizeSection(EventLogModel::Time, QFontMetrics(bold).horizontalAdvance(QStringLiteral("8888-88-88 88:88:88.888")) + 16);
    header->resizeSection(EventLogModel::Severity, fm.horizontalAdvance(QStringLiteral("Warning")) + 40);
    header->resizeSection(EventLogModel::Kind, fm.horizontalAdvance(QStringLiteral("queueWarningCleared")) + 16);
    header->resizeSection(EventLogModel::Stream, fm.horizontalAdvance(QStringLiteral("(station)")) + 40);
    header->resizeSection(EventLogModel::PacketType, fm.horizontalAdvance(QStringLiteral("Packet type__")) + 16);
    header->resizeSection(EventLogModel::Parameter, fm.horizontalAdvance(QStringLiteral("Packet5.COOLANT_FLOW_RATE")) + 16);
    header->resizeSection(EventLogModel::Count, fm.horizontalAdvance(QStringLiteral("×88,888")) + 16);

    auto* bar = new QHBoxLayout;
    bar->addWidget(m_severity);
    bar->addWidget(m_kind);
    bar->addWidget(m_search, 1);
    bar->addWidget(m_loadEarlier);
    bar->addWidget(m_rangeButton);
    bar->addWidget(m_live);
    bar->addWidget(m_export);
    bar->addWidget(m_exportRange);
    auto* layout = new QVBoxLayout(content);
    layout->setContentsMargins(4, 4, 4, 4);
    layout->addLayout(bar);
    layout->addWidget(m_view, 1);
    auto* statusBar = new QHBoxLayout;
    statusBar->setSpacing(24);
    statusBar->addWidget(m_status);
    statusBar->addWidget(m_archiveStatus, 1);
    layout->addLayout(statusBar);
    setDockContent(*this, content);

    connect(m_severity, &QComboBox::currentIndexChanged, this, [this](int index) {
        static constexpr events::Severity kMinimum[] = {
            events::Severity::Info, events::Severity::Warning, events::Severity::Error, events::Severity::Critical};
        if (index >= 0 && index < 4)
            m_filter->setMinimumSeverity(kMinimum[index]);
        updateStatus();
    });
    connect(m_search, &QLineEdit::textChanged, this, [this](const QString& text) {
        m_filter->setSearchText(text);
        updateStatus();
    });
    connect(m_kind, &QComboBox::currentIndexChanged, this, [this](int index) {
        const int kind = m_kind->itemData(index).toInt();
        m_filter->setKind(kind < 0 ? std::nullopt : std::optional(static_cast<events::EventKind>(kind)));
        updateStatus();
    });
    connect(m_export, &QPushButton::clicked, this, &EventLogDock::exportWithDialog);
    connect(m_loadEarlier, &QPushButton::clicked, this, &EventLogDock::loadEarlier);
    connect(m_rangeButton, &QPushButton::clicked, this, &EventLogDock::rangeWithDialog);
    connect(m_live, &QPushButton::clicked, this, &EventLogDock::showLive);
    connect(m_exportRange, &QPushButton::clicked, this, &EventLogDock::exportRangeWithDialog);

    m_timer.skipWhileUnseen(this); // tabbed behind the alarm list: no polling; it catches up in front
    connect(&m_timer, &PhasedTimer::timeout, this, &EventLogDock::poll);
    setArchive({});
    updateStatus();
}

EventLogDock::~EventLogDock() = default;

void EventLogDock::poll()
{
    ++m_polls;
    updateArchiveStatus();
    if (!m_source)
        return;
    const std::vector<events::Event> events = m_source(m_model->lastNumber());
    if (events.empty())
        return;
    // Decide before the rows arrive: afterwards the view's range has grown and we would look scrolled up.
    const bool follow = !m_range && followsNewest();
    m_model->append(events);
    if (follow)
        m_view->scrollToBottom();
    updateStatus();
}

void EventLogDock::setKindFilter(std::optional<events::EventKind> kind)
{
    m_kind->setCurrentIndex(kind ? static_cast<int>(*kind) + 1 : 0);
}

void EventLogDock::setArchive(Archive archive)
{
    m_archive = std::move(archive);
    updateArchiveStatus();
}

bool EventLogDock::loadEarlier()
{
    if (!m_range)
        poll(); // the newest live events first: the history goes above what the live log has
    EventLogModel* target = shownModel();
    events::EventFilter filter;
    filter.newestFirst = true;
    filter.limit = kHistoryPage;
    if (m_range) {
        filter.fromNs = m_range->first;
        filter.toNs = m_range->second;
    }
    if (target->rowCount() > 0) {
        if (const auto position = target->archivePosition(0))
            filter.after = position; // the archive's order: exact across rows of one timestamp
        else // live rows: up to and including the earliest one's time; prependArchived leaves out repeats
            filter.toNs = std::min(filter.toNs, *target->earliestTimeNs() + 1);
    }
    auto page = readArchivePage(m_archive.path ? m_archive.path() : QString(), filter);
    if (!page) {
        setHistoryNote(tr("The event archive cannot be read: %1").arg(QString::fromStdString(page.error().message)), true);
        return false;
    }
    const int added = target->prependArchived(*page);
    const QString count = countText(static_cast<std::uint64_t>(added));
    const bool complete = page->size() < filter.limit;
    QString note;
    if (m_range && target->rowCount() == added) // the range's first page: its newest events
        note = complete ? tr("All %1 events of the range").arg(count)
                        : tr("The range's newest %1 events; Load earlier… for more").arg(count);
    else if (added == 0 && !complete && target->rowCount() >= static_cast<int>(target->capacity()))
        note = tr("The log is full (%1 rows): use Range… to look further back").arg(countText(target->capacity()));
    else
        note = (added == 1 ? tr("1 earlier event loaded from the archive") : tr("%1 earlier events loaded from the archive").arg(count))
               + (!complete ? QString() : m_range ? tr("; that is the whole range") : tr("; that is all the archive has"));
    setHistoryNote(note + QLatin1Char('.'), false);
    if (added > 0)
        m_view->scrollToTop(); // what was asked for
    updateStatus();
    return true;
}

bool EventLogDock::showRange(std::int64_t fromNs, std::int64_t toNs)
{
    auto* next = new EventLogModel(m_capacity, this);
    const auto previous = m_range;
    EventLogModel* previousModel = m_rangeModel;
    m_range = {fromNs, toNs};
    m_rangeModel = next;
    if (!loadEarlier()) {
        m_range = previous;
        m_rangeModel = previousModel;
        delete next;
        return false;
    }
    m_filter->setSourceModel(next);
    delete previousModel;
    m_live->show();
    setWindowTitle(tr("Event Log (archive)"));
    m_view->scrollToBottom();
    updateStatus();
    return true;
}

void EventLogDock::showLive()
{
    if (!m_range)
        return;
    m_filter->setSourceModel(m_model);
    m_range.reset();
    delete m_rangeModel;
    m_rangeModel = nullptr;
    m_live->hide();
    setWindowTitle(tr("Event Log"));
    setHistoryNote({}, false);
    m_view->scrollToBottom();
    updateStatus();
}

EventRangeExport* EventLogDock::exportRange(const QString& path, std::int64_t fromNs, std::int64_t toNs)
{
    if (m_rangeExport) {
        setHistoryNote(tr("An export is running already."), true);
        return nullptr;
    }
    auto* job = new EventRangeExport(m_archive.path ? m_archive.path() : QString(), fromNs, toNs, path, this);
    m_rangeExport = job;
    m_exportRange->setEnabled(false);
    connect(job, &EventRangeExport::progress, this, [this](std::uint64_t written) {
        setHistoryNote(tr("Exporting… %1 events written").arg(countText(written)), false);
    });
    connect(job, &EventRangeExport::done, this, [this, job](bool ok, const QString& error) {
        m_rangeExport = nullptr;
        updateArchiveStatus();
        if (ok)
            setHistoryNote(tr("%1 events exported to %2.").arg(countText(job->written()), job->csvPath()), false);
        else
            setHistoryNote(tr("Export failed: %1").arg(error), true);
        job->deleteLater();
    });
    setHistoryNote(tr("Exporting…"), false);
    job->start(); // may be done at once (an archive that cannot be opened): then deleted later
    return job;
}

void EventLogDock::rangeWithDialog()
{
    EventRangeDialog dialog(tr("Show events of a time range"), this);
    if (m_range)
        dialog.setRange(m_range->first, m_range->second);
    if (dialog.exec() == QDialog::Accepted)
        showRange(dialog.fromNs(), dialog.toNs());
}

void EventLogDock::exportRangeWithDialog()
{
    EventRangeDialog dialog(tr("Export events of a time range"), this);
    if (m_range)
        dialog.setRange(m_range->first, m_range->second);
    if (dialog.exec() != QDialog::Accepted)
        return;
    const QString path = FileDialogFolder::saveFile(this, FileDialogFolder::kEventExports, tr("Export Events"),
                                                    QStringLiteral("events-range.csv"), tr("CSV files (*.csv);;All files (*)"));
    if (!path.isEmpty())
        exportRange(path, dialog.fromNs(), dialog.toNs());
}

void EventLogDock::setHistoryNote(const QString& text, bool error)
{
    m_historyNote = text;
    m_historyNoteIsError = error;
    updateArchiveStatus();
}

void EventLogDock::updateArchiveStatus()
{
    // The archive's trouble first: events are kept in memory meanwhile, but nothing is stored.
    const QString trouble = m_archive.trouble ? m_archive.trouble() : QString();
    const bool hasArchive = m_archive.path && !m_archive.path().isEmpty();
    m_loadEarlier->setEnabled(hasArchive);
    m_rangeButton->setEnabled(hasArchive);
    m_exportRange->setEnabled(hasArchive && !m_rangeExport);
    const bool error = !trouble.isEmpty() || m_historyNoteIsError;
    const QString text = trouble.isEmpty() ? m_historyNote : tr("Event archive: %1").arg(trouble);
    if (text == m_archiveStatus->text() && error == m_archiveStatusIsError)
        return; // four times a second: nothing to repaint
    m_archiveStatusIsError = error;
    m_archiveStatus->setText(text);
    m_archiveStatus->setVisible(!text.isEmpty());
    tone::setTextColour(m_archiveStatus, error ? tone::kErrorText : palette().color(QPalette::WindowText));
}

QString EventLogDock::archiveStatusText() const
{
    return m_archiveStatus->text();
}

void EventLogDock::setSeverityFilter(SeverityFilter filter)
{
    m_severity->setCurrentIndex(static_cast<int>(filter));
}

EventLogDock::SeverityFilter EventLogDock::severityFilter() const
{
    return static_cast<SeverityFilter>(m_severity->currentIndex());
}

void EventLogDock::setSearchText(const QString& text)
{
    m_search->setText(text);
}

bool EventLogDock::followsNewest() const
{
    const QScrollBar* bar = m_view->verticalScrollBar();
    return bar->value() >= bar->maximum();
}

bool EventLogDock::exportCsv(const QString& path, QString* error) const
{
    QSaveFile file(path);
    const auto fail = [&](const QString& why) {
        if (error != nullptr)
            *error = why;
        return false;
    };
    if (!file.open(QIODevice::WriteOnly))
        return fail(tr("cannot write %1: %2").arg(path, file.errorString()));
    const QByteArray crlf("\r\n");
    file.write(csvHeader().toUtf8() + crlf);
    const EventLogModel* shown = shownModel();
    for (int row = 0; row < m_filter->rowCount(); ++row) {
        const int sourceRow = m_filter->mapToSource(m_filter->index(row, 0)).row();
        file.write(csvRecord(shown->eventAt(sourceRow)).toUtf8() + crlf);
    }
    if (!file.commit())
        return fail(tr("cannot write %1: %2").arg(path, file.errorString()));
    return true;
}

void EventLogDock::exportWithDialog()
{
    const QString path = FileDialogFolder::saveFile(this, FileDialogFolder::kEventExports, tr("Export Events"),
                                                    QStringLiteral("events.csv"), tr("CSV files (*.csv);;All files (*)"));
    if (path.isEmpty())
        return;
    QString error;
    if (!exportCsv(path, &error))
        QMessageBox::warning(this, tr("Export Events"), error);
}

void EventLogDock::updateStatus()
{
    const QLocale locale;
    QString text = tr("%1 of %2 events shown")
                       .arg(locale.toString(m_filter->rowCount()), locale.toString(shownModel()->rowCount()));
    if (m_range) {
        m_status->setText(text + tr(" from the archive, %1 to %2 UTC")
                                     .arg(EventLogModel::displayTime(m_range->first).left(19),
                                          EventLogModel::displayTime(m_range->second).left(19)));
        return;
    }
    if (m_model->droppedCount() > 0)
        text += tr("; %1 oldest removed (the log keeps %2)")
                    .arg(countText(m_model->droppedCount()), countText(m_model->capacity()));
    if (m_model->missedCount() > 0)
        text += tr("; %1 missed (the station keeps only its newest events)")
                    .arg(countText(m_model->missedCount()));
    m_status->setText(text);
}

void EventLogDock::showEvent(QShowEvent* event)
{
    QDockWidget::showEvent(event);
    poll(); // catch up at once rather than a tick later
    m_timer.start();
}

void EventLogDock::hideEvent(QHideEvent* event)
{
    QDockWidget::hideEvent(event);
    m_timer.stop();
}

} // namespace telestation::ui
