#include "ui/widgets/event_log_dock.hpp"

#include "ui/text/number_format.hpp"

#include <QComboBox>
#include <QFileDialog>
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
    : QDockWidget(tr("Event Log"), parent), m_source(std::move(source))
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

    m_search = new QLineEdit(content);
    m_search->setObjectName(QStringLiteral("eventSearch"));
    m_search->setPlaceholderText(tr("Search stream or text"));
    m_search->setClearButtonEnabled(true);

    m_export = new QPushButton(tr("Export CSV…"), content);
    m_export->setObjectName(QStringLiteral("eventExport"));
    m_export->setToolTip(tr("Save the events shown (with the filters applied) as a CSV file"));

    m_status = new QLabel(content);
    m_status->setObjectName(QStringLiteral("eventStatus"));

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
    header->resizeSection(EventLogModel::Time, fm.horizontalAdvance(QStringLiteral("8888-88-88 88:88:88.888")) + 16);
    header->resizeSection(EventLogModel::Severity, fm.horizontalAdvance(QStringLiteral("Warning")) + 40);
    header->resizeSection(EventLogModel::Stream, fm.horizontalAdvance(QStringLiteral("(station)")) + 40);

    auto* bar = new QHBoxLayout;
    bar->addWidget(m_severity);
    bar->addWidget(m_search, 1);
    bar->addWidget(m_export);
    auto* layout = new QVBoxLayout(content);
    layout->setContentsMargins(4, 4, 4, 4);
    layout->addLayout(bar);
    layout->addWidget(m_view, 1);
    layout->addWidget(m_status);
    setWidget(content);

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
    connect(m_export, &QPushButton::clicked, this, &EventLogDock::exportWithDialog);

    m_timer.setInterval(kPollInterval);
    connect(&m_timer, &QTimer::timeout, this, &EventLogDock::poll);
    updateStatus();
}

EventLogDock::~EventLogDock() = default;

void EventLogDock::poll()
{
    ++m_polls;
    if (!m_source)
        return;
    const std::vector<events::Event> events = m_source(m_model->lastNumber());
    if (events.empty())
        return;
    // Decide before the rows arrive: afterwards the view's range has grown and we would look scrolled up.
    const bool follow = followsNewest();
    m_model->append(events);
    if (follow)
        m_view->scrollToBottom();
    updateStatus();
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
    for (int row = 0; row < m_filter->rowCount(); ++row) {
        const int sourceRow = m_filter->mapToSource(m_filter->index(row, 0)).row();
        file.write(csvRecord(m_model->event(sourceRow)).toUtf8() + crlf);
    }
    if (!file.commit())
        return fail(tr("cannot write %1: %2").arg(path, file.errorString()));
    return true;
}

void EventLogDock::exportWithDialog()
{
    const QString path = QFileDialog::getSaveFileName(this, tr("Export Events"), QStringLiteral("events.csv"),
                                                      tr("CSV files (*.csv);;All files (*)"));
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
                       .arg(locale.toString(m_filter->rowCount()), locale.toString(m_model->rowCount()));
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
