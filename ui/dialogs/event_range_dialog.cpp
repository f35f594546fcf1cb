#include "ui/dialogs/event_range_dialog.hpp"

#include "ui/models/tones.hpp"

#include <QDateTime>
#include <QDateTimeEdit>
#include <QDialogButtonBox>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QPushButton>
#include <QTimeZone>
#include <QVBoxLayout>

namespace telestation::ui {

namespace {

constexpr std::int64_t kNsPerMs = 1'000'000;

QDateTimeEdit* utcEdit(QWidget* parent, const char* name)
{
    auto* edit = new QDateTimeEdit(parent);
    edit->setObjectName(QLatin1String(name));
    edit->setTimeSpec(Qt::UTC);
    edit->setDisplayFormat(QStringLiteral("yyyy-MM-dd HH:mm:ss"));
    edit->setCalendarPopup(true);
    return edit;
}

} // namespace

EventRangeDialog::EventRangeDialog(const QString& title, QWidget* parent) : QDialog(parent)
{
    setObjectName(QStringLiteral("eventRangeDialog"));
    setWindowTitle(title);
    m_from = utcEdit(this, "rangeFrom");
    m_to = utcEdit(this, "rangeTo");

    auto* quick = new QHBoxLayout;
    const std::pair<const char*, std::int64_t> choices[] = {
        {QT_TR_NOOP("Last hour"), 3600}, {QT_TR_NOOP("Last day"), 86'400}, {QT_TR_NOOP("Last week"), 7 * 86'400}};
    for (const auto& [name, seconds] : choices) {
        auto* button = new QPushButton(tr(name), this);
        button->setAutoDefault(false);
        connect(button, &QPushButton::clicked, this, [this, s = seconds] { setLast(s); });
        quick->addWidget(button);
    }
    quick->addStretch(1);

    m_reason = new QLabel(this);
    m_reason->setObjectName(QStringLiteral("reasonLabel"));
    tone::setTextColour(m_reason, tone::kErrorText);
    m_buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, this);
    m_buttons->button(QDialogButtonBox::Ok)->setObjectName(QStringLiteral("okButton"));
    connect(m_buttons, &QDialogButtonBox::accepted, this, &QDialog::accept);
    connect(m_buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);

    auto* form = new QFormLayout;
    form->addRow(tr("From (UTC):"), m_from);
    form->addRow(tr("To (UTC):"), m_to);
    auto* layout = new QVBoxLayout(this);
    layout->addLayout(form);
    layout->addLayout(quick);
    layout->addWidget(m_reason);
    layout->addWidget(m_buttons);

    connect(m_from, &QDateTimeEdit::dateTimeChanged, this, &EventRangeDialog::validate);
    connect(m_to, &QDateTimeEdit::dateTimeChanged, this, &EventRangeDialog::validate);
    setLast(3600);
    setMinimumWidth(fontMetrics().horizontalAdvance(title) + 160); // the title in full
}

void EventRangeDialog::setLast(std::int64_t seconds)
{
    const QDateTime now = QDateTime::currentDateTimeUtc();
    // Up to the next whole second, so that what happened this second is in.
    const QDateTime to = QDateTime::fromSecsSinceEpoch(now.toSecsSinceEpoch() + 1, QTimeZone::utc());
    m_to->setDateTime(to);
    m_from->setDateTime(to.addSecs(-seconds));
}

void EventRangeDialog::setRange(std::int64_t fromNs, std::int64_t toNs)
{
    m_from->setDateTime(QDateTime::fromMSecsSinceEpoch(fromNs / kNsPerMs, QTimeZone::utc()));
    m_to->setDateTime(QDateTime::fromMSecsSinceEpoch(toNs / kNsPerMs, QTimeZone::utc()));
}

std::int64_t EventRangeDialog::fromNs() const
{
    return m_from->dateTime().toMSecsSinceEpoch() * kNsPerMs;
}

std::int64_t EventRangeDialog::toNs() const
{
    return m_to->dateTime().toMSecsSinceEpoch() * kNsPerMs;
}

QString EventRangeDialog::problem() const
{
    return m_reason->text();
}

void EventRangeDialog::validate()
{
    const bool ok = fromNs() < toNs();
    m_reason->setText(ok ? QString() : tr("\"From\" must come before \"to\"."));
    m_buttons->button(QDialogButtonBox::Ok)->setEnabled(ok);
}

} // namespace telestation::ui
