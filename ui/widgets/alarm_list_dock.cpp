#include "ui/widgets/alarm_list_dock.hpp"

#include "core/common/clock.hpp"
#include "ui/models/tones.hpp"
#include "ui/session/station_session.hpp"
#include "ui/widgets/dock_content.hpp"

#include <QAction>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QItemSelectionModel>
#include <QLabel>
#include <QLineEdit>
#include <QMenu>
#include <QPushButton>
#include <QTableView>
#include <QToolButton>
#include <QVBoxLayout>

#include <algorithm>

namespace telestation::ui {

namespace {

// How long a refusal stays in the status line before the list's summary comes back.
constexpr std::chrono::seconds kErrorShown{15};

// "15 minutes", "1 hour", "8 hours".
QString shelfName(std::chrono::seconds duration)
{
    const auto hours = duration / std::chrono::hours(1);
    if (duration % std::chrono::hours(1) == std::chrono::seconds(0))
        return hours == 1 ? AlarmListDock::tr("1 hour") : AlarmListDock::tr("%1 hours").arg(hours);
    const auto minutes = duration / std::chrono::minutes(1);
    return minutes == 1 ? AlarmListDock::tr("1 minute") : AlarmListDock::tr("%1 minutes").arg(minutes);
}

} // namespace

AlarmListDock::AlarmListDock(StationSession& session, QWidget* parent)
    : QDockWidget(tr("Alarms"), parent), m_session(session), m_watch(session)
{
    setObjectName(QStringLiteral("AlarmListDock"));
    m_model = new AlarmListModel(this);
    auto* content = new QWidget(this);

    m_acknowledge = new QPushButton(tr("Acknowledge"), content);
    m_acknowledge->setObjectName(QStringLiteral("acknowledgeButton"));
    m_acknowledge->setToolTip(tr("Acknowledge the selected alarms (with the comment, if any)"));
    m_acknowledgeAll = new QPushButton(tr("Acknowledge all"), content);
    m_acknowledgeAll->setObjectName(QStringLiteral("acknowledgeAllButton"));
    m_acknowledgeAll->setToolTip(tr("Acknowledge every unacknowledged alarm, shelved ones included"));

    m_shelve = new QToolButton(content);
    m_shelve->setObjectName(QStringLiteral("shelveButton"));
    m_shelve->setText(tr("Shelve"));
    m_shelve->setToolTip(tr("Put the selected alarms aside for a while: they leave the counts until the time "
                            "is up or they are unshelved"));
    m_shelve->setPopupMode(QToolButton::InstantPopup);
    auto* shelveMenu = new QMenu(m_shelve);
    shelveMenu->setObjectName(QStringLiteral("shelveMenu"));
    for (const std::chrono::seconds duration : kShelveTimes) {
        QAction* action = shelveMenu->addAction(tr("For %1").arg(shelfName(duration)));
        action->setObjectName(QStringLiteral("shelve%1s").arg(duration.count()));
        connect(action, &QAction::triggered, this, [this, duration] { shelveSelected(duration); });
    }
    m_shelve->setMenu(shelveMenu);

    m_unshelve = new QPushButton(tr("Unshelve"), content);
    m_unshelve->setObjectName(QStringLiteral("unshelveButton"));
    m_unshelve->setToolTip(tr("Bring the selected shelved alarms back"));

    m_comment = new QLineEdit(content);
    m_comment->setObjectName(QStringLiteral("alarmComment"));
    m_comment->setPlaceholderText(tr("Comment (optional)"));
    m_comment->setToolTip(tr("Recorded with the acknowledgement or shelving, and your user name (%1)")
                              .arg(StationSession::userName()));
    m_comment->setClearButtonEnabled(true);

    m_status = new QLabel(content);
    m_status->setObjectName(QStringLiteral("alarmStatus"));
    m_status->setWordWrap(true);
    m_status->setTextInteractionFlags(Qt::TextSelectableByMouse);

    m_view = new QTableView(content);
    m_view->setObjectName(QStringLiteral("alarmView"));
    m_view->setModel(m_model);
    m_view->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_view->setSelectionMode(QAbstractItemView::ExtendedSelection);
    m_view->setWordWrap(false);
    m_view->setSortingEnabled(false); // the station's order: most severe first, then the newest
    m_view->setShowGrid(false);
    m_view->verticalHeader()->hide();
    m_view->verticalHeader()->setSectionResizeMode(QHeaderView::Fixed);
    m_view->verticalHeader()->setDefaultSectionSize(m_view->fontMetrics().height() + 8);
    QHeaderView* header = m_view->horizontalHeader();
    header->setHighlightSections(false);
    header->setStretchLastSection(true);
    const int digit = m_view->fontMetrics().horizontalAdvance(QLatin1Char('0'));
    // In AlarmListModel::Column order, in digits; the last column stretches.
    const int widths[] = {10, 30, 8, 30, 16, 12, 20, 10, 20, 20};
    for (int column = 0; column < static_cast<int>(std::size(widths)); ++column)
        header->resizeSection(column, widths[column] * digit);

    auto* bar = new QHBoxLayout;
    bar->addWidget(m_acknowledge);
    bar->addWidget(m_acknowledgeAll);
    bar->addWidget(m_shelve);
    bar->addWidget(m_unshelve);
    bar->addWidget(m_comment, 1);
    auto* layout = new QVBoxLayout(content);
    layout->setContentsMargins(4, 4, 4, 4);
    layout->addLayout(bar);
    layout->addWidget(m_view, 1);
    layout->addWidget(m_status);
    setDockContent(*this, content);

    connect(m_acknowledge, &QPushButton::clicked, this, &AlarmListDock::acknowledgeSelected);
    connect(m_acknowledgeAll, &QPushButton::clicked, this, &AlarmListDock::acknowledgeAll);
    connect(m_unshelve, &QPushButton::clicked, this, &AlarmListDock::unshelveSelected);
    connect(m_view->selectionModel(), &QItemSelectionModel::selectionChanged, this, &AlarmListDock::updateButtons);
    connect(m_model, &QAbstractItemModel::dataChanged, this, &AlarmListDock::updateButtons);
    connect(m_model, &QAbstractItemModel::rowsRemoved, this, &AlarmListDock::updateButtons);

    // A new station has alarms of its own (and a version that starts again).
    connect(&m_session, &StationSession::stationChanged, this, [this] {
        if (isVisible())
            refresh(true);
    });

    m_timer.skipWhileUnseen(this); // a minimised window keeps the dock "visible"
    connect(&m_timer, &PhasedTimer::timeout, this, [this] { refresh(); });
    connect(this, &QDockWidget::visibilityChanged, this, [this](bool visible) {
        if (!visible) {
            m_timer.stop();
            return;
        }
        refresh(true); // what is listed now, not what was when hidden
        m_timer.start();
    });
    updateButtons();
    showStatus(listedText(), false);
}

AlarmListDock::~AlarmListDock() = default;

void AlarmListDock::refresh(bool force)
{
    if (!m_watch.due(force))
        return;
    m_model->setAlarms(m_session.alarms(), clock::realtimeNs());
    if (!m_statusIsError || std::chrono::steady_clock::now() - m_errorShownAt >= kErrorShown)
        showStatus(listedText(), false);
}

std::vector<std::uint64_t> AlarmListDock::selectedAlarms() const
{
    std::vector<int> rows;
    for (const QModelIndex& index : m_view->selectionModel()->selectedRows())
        rows.push_back(index.row());
    std::sort(rows.begin(), rows.end());
    std::vector<std::uint64_t> ids;
    for (const int row : rows)
        ids.push_back(m_model->alarm(row).id);
    return ids;
}

bool AlarmListDock::selectAlarm(std::uint64_t id)
{
    const int row = m_model->rowOf(id);
    if (row < 0)
        return false;
    m_view->selectionModel()->select(m_model->index(row, 0),
                                     QItemSelectionModel::ClearAndSelect | QItemSelectionModel::Rows);
    m_view->selectionModel()->setCurrentIndex(m_model->index(row, 0), QItemSelectionModel::NoUpdate);
    m_view->scrollTo(m_model->index(row, 0));
    return true;
}

bool AlarmListDock::showParameterAlarm(const QString& stream, const QString& parameter)
{
    refresh(true);
    const int row = m_model->rowOfParameter(stream, parameter);
    if (row < 0) {
        showStatus(tr("%1 has no alarm listed.").arg(parameter), false);
        return false;
    }
    return selectAlarm(m_model->alarm(row).id);
}

template <typename Action> bool AlarmListDock::onSelected(const QString& what, Action action)
{
    const std::vector<std::uint64_t> ids = selectedAlarms();
    if (ids.empty()) {
        showStatus(tr("Select the alarms to %1 first.").arg(what), true);
        return false;
    }
    QStringList refusals;
    for (const std::uint64_t id : ids) {
        QString error;
        if (!action(id, &error))
            refusals << error;
    }
    afterAction(refusals);
    return refusals.isEmpty();
}

bool AlarmListDock::acknowledgeSelected()
{
    const QString comment = m_comment->text().trimmed();
    return onSelected(tr("acknowledge"), [&](std::uint64_t id, QString* error) {
        return m_session.acknowledgeAlarm(id, comment, error);
    });
}

void AlarmListDock::acknowledgeAll()
{
    m_session.acknowledgeAllAlarms(m_comment->text().trimmed());
    afterAction({});
}

bool AlarmListDock::shelveSelected(std::chrono::seconds duration)
{
    const QString comment = m_comment->text().trimmed();
    return onSelected(tr("shelve"), [&](std::uint64_t id, QString* error) {
        return m_session.shelveAlarm(id, duration, comment, error);
    });
}

bool AlarmListDock::unshelveSelected()
{
    return onSelected(tr("unshelve"), [&](std::uint64_t id, QString* error) {
        return m_session.unshelveAlarm(id, error);
    });
}

void AlarmListDock::afterAction(const QStringList& refusals)
{
    if (refusals.isEmpty())
        m_comment->clear(); // the comment went with the action; the next one needs its own
    m_statusIsError = false;
    refresh(true);
    if (!refusals.isEmpty())
        showStatus(tr("Refused: %1").arg(refusals.join(QStringLiteral("; "))), true);
    Q_EMIT alarmsChanged();
}

void AlarmListDock::updateButtons()
{
    bool unacknowledged = false;
    bool shelved = false;
    const std::vector<std::uint64_t> ids = selectedAlarms();
    for (const std::uint64_t id : ids) {
        const int row = m_model->rowOf(id);
        const events::AlarmState state = m_model->state(row);
        unacknowledged |= !m_model->alarm(row).acknowledged;
        shelved |= state == events::AlarmState::Shelved;
    }
    bool anyUnacknowledged = false;
    for (int row = 0; row < m_model->rowCount(); ++row)
        anyUnacknowledged |= !m_model->alarm(row).acknowledged;
    m_acknowledge->setEnabled(unacknowledged);
    m_acknowledgeAll->setEnabled(anyUnacknowledged);
    m_shelve->setEnabled(!ids.empty());
    m_unshelve->setEnabled(shelved);
}

QString AlarmListDock::listedText() const
{
    if (m_model->rowCount() == 0)
        return tr("No alarms.");
    int shelved = 0;
    int unacknowledged = 0;
    for (int row = 0; row < m_model->rowCount(); ++row) {
        shelved += m_model->state(row) == events::AlarmState::Shelved;
        unacknowledged += m_model->state(row) != events::AlarmState::Shelved && !m_model->alarm(row).acknowledged;
    }
    QString text = m_model->rowCount() == 1 ? tr("1 alarm listed") : tr("%1 alarms listed").arg(m_model->rowCount());
    text += tr(", %1 unacknowledged").arg(unacknowledged);
    if (shelved > 0)
        text += tr(", %1 shelved").arg(shelved);
    return text + QLatin1Char('.');
}

void AlarmListDock::showStatus(const QString& text, bool error)
{
    m_statusIsError = error;
    if (error)
        m_errorShownAt = std::chrono::steady_clock::now();
    m_status->setText(text);
    tone::setTextColour(m_status, error ? tone::kErrorText : palette().color(QPalette::WindowText));
}

QString AlarmListDock::statusText() const
{
    return m_status->text();
}

} // namespace telestation::ui
