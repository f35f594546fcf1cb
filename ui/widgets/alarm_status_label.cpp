#include "ui/widgets/alarm_status_label.hpp"

#include "ui/models/alarm_list_model.hpp"
#include "ui/models/tones.hpp"
#include "ui/session/station_session.hpp"

#include <QMouseEvent>
#include <QStringList>

namespace telestation::ui {

AlarmStatusLabel::AlarmStatusLabel(StationSession& session, QWidget* parent)
    : QLabel(parent), m_session(session), m_watch(session)
{
    setObjectName(QStringLiteral("alarmStatusLabel"));
    setCursor(Qt::PointingHandCursor);
    setToolTip(tr("Unacknowledged alarms by severity; click for the alarm list"));
    m_timer.skipWhileUnseen(this); // a minimised window keeps the label "visible"
    connect(&m_timer, &PhasedTimer::timeout, this, &AlarmStatusLabel::poll);
    connect(&m_session, &StationSession::stationChanged, this, &AlarmStatusLabel::refresh);
    refresh();
}

QString AlarmStatusLabel::countsText(const events::AlarmCounts& counts)
{
    QStringList parts;
    for (int s = events::kSeverityCount - 1; s >= 0; --s)
        if (const auto n = counts.unacknowledged[static_cast<std::size_t>(s)]; n > 0)
            parts << tr("%1 %2").arg(n).arg(AlarmListModel::severityText(static_cast<events::Severity>(s)));
    QString text = parts.isEmpty() ? tr("Alarms: none unacknowledged")
                                   : tr("Alarms: %1 unacknowledged").arg(parts.join(QStringLiteral(" · ")));
    QStringList besides;
    if (const auto active = counts.totalActive(); active > 0)
        besides << tr("%1 active").arg(active);
    if (counts.shelved > 0)
        besides << tr("%1 shelved").arg(counts.shelved);
    if (!besides.isEmpty())
        text += tr(" (%1)").arg(besides.join(QStringLiteral(", ")));
    return text;
}

void AlarmStatusLabel::poll()
{
    if (m_watch.due())
        showCounts(m_session.alarmCounts());
}

void AlarmStatusLabel::refresh()
{
    (void)m_watch.due(true); // counted now: the next poll need not count again
    showCounts(m_session.alarmCounts());
}

void AlarmStatusLabel::showCounts(const events::AlarmCounts& counts)
{
    setText(countsText(counts));
    // The most severe unacknowledged alarm's colour, as the alarm list paints it; neutral when none.
    int worst = -1;
    for (int s = 0; s < events::kSeverityCount; ++s)
        if (counts.unacknowledged[static_cast<std::size_t>(s)] > 0)
            worst = s;
    if (worst < 0) {
        setStyleSheet(QString());
        return;
    }
    const QColor background = AlarmListModel::severityBackground(static_cast<events::Severity>(worst));
    setStyleSheet(QStringLiteral("QLabel { background: %1; color: %2; font-weight: bold; padding: 1px 6px; "
                                 "border-radius: 3px; }")
                      .arg(background.name(), tone::kColouredText.name()));
}

void AlarmStatusLabel::mousePressEvent(QMouseEvent* event)
{
    if (event->button() == Qt::LeftButton)
        Q_EMIT clicked();
    QLabel::mousePressEvent(event);
}

void AlarmStatusLabel::showEvent(QShowEvent* event)
{
    QLabel::showEvent(event);
    refresh();
    m_timer.start();
}

void AlarmStatusLabel::hideEvent(QHideEvent* event)
{
    QLabel::hideEvent(event);
    m_timer.stop();
}

} // namespace telestation::ui
