#include "ui/dialogs/utc_time_range.hpp"

#include <QCheckBox>
#include <QDateTimeEdit>

#include <algorithm>
#include <limits>

namespace telestation::ui {

namespace {

constexpr std::int64_t kNsPerMs = 1'000'000;

QDateTime utcFromMs(std::int64_t ms)
{
    return QDateTime::fromMSecsSinceEpoch(ms, Qt::UTC);
}

QDateTimeEdit* utcEdit(QWidget* parent, const QString& objectName)
{
    auto* edit = new QDateTimeEdit(parent);
    edit->setObjectName(objectName);
    edit->setTimeSpec(Qt::UTC);
    edit->setDisplayFormat(QStringLiteral("yyyy-MM-dd HH:mm:ss.zzz"));
    edit->setMinimumDateTime(utcFromMs(0));
    edit->setDateTime(QDateTime::currentDateTimeUtc());
    edit->setEnabled(false);
    return edit;
}

} // namespace

UtcTimeRange::UtcTimeRange(QWidget* parent)
    : QObject(parent), m_check(new QCheckBox(tr("Only from"), parent)),
      m_from(utcEdit(parent, QStringLiteral("fromEdit"))), m_to(utcEdit(parent, QStringLiteral("toEdit")))
{
    m_check->setObjectName(QStringLiteral("rangeCheck"));
    m_check->setToolTip(tr("Only the records received in this time range (UTC, inclusive)"));
    connect(m_check, &QCheckBox::toggled, this, [this](bool on) {
        m_from->setEnabled(on);
        m_to->setEnabled(on);
        Q_EMIT changed();
    });
    connect(m_from, &QDateTimeEdit::dateTimeChanged, this, &UtcTimeRange::changed);
    connect(m_to, &QDateTimeEdit::dateTimeChanged, this, &UtcTimeRange::changed);
}

bool UtcTimeRange::isOn() const
{
    return m_check->isChecked();
}

std::int64_t UtcTimeRange::fromNs() const
{
    return m_from->dateTime().toMSecsSinceEpoch() * kNsPerMs;
}

std::int64_t UtcTimeRange::toNs() const
{
    return m_to->dateTime().toMSecsSinceEpoch() * kNsPerMs;
}

bool UtcTimeRange::isBackwards() const
{
    return isOn() && m_from->dateTime() > m_to->dateTime();
}

void UtcTimeRange::setSpan(const std::vector<record::SegmentInfo>& segments)
{
    std::int64_t first = std::numeric_limits<std::int64_t>::max();
    std::int64_t last = 0;
    for (const auto& s : segments) {
        if (s.firstTimeNs != 0)
            first = std::min(first, s.firstTimeNs);
        last = std::max(last, s.lastTimeNs);
    }
    if (last <= 0 || first > last)
        return;
    m_from->setDateTime(utcFromMs(first / kNsPerMs));                 // down to the ms: inclusive
    m_to->setDateTime(utcFromMs((last + kNsPerMs - 1) / kNsPerMs)); // up to the ms: inclusive
}

void UtcTimeRange::set(bool on, const QDateTime& from, const QDateTime& to)
{
    m_from->setDateTime(from);
    m_to->setDateTime(to);
    m_check->setChecked(on);
}

} // namespace telestation::ui
