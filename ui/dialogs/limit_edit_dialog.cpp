#include "ui/dialogs/limit_edit_dialog.hpp"

#include "core/pipeline/station.hpp"
#include "ui/models/tones.hpp"
#include "ui/session/station_session.hpp"
#include "ui/text/number_format.hpp"

#include <QButtonGroup>
#include <QDialogButtonBox>
#include <QFormLayout>
#include <QLabel>
#include <QLineEdit>
#include <QLocale>
#include <QPushButton>
#include <QRadioButton>
#include <QVBoxLayout>

#include <algorithm>
#include <cmath>
#include <variant>

namespace telestation::ui {

namespace {

using pipeline::EffectiveLimits;

const char* const kBoundNames[] = {QT_TRANSLATE_NOOP("telestation::ui::LimitEditDialog", "Red low"),
                                   QT_TRANSLATE_NOOP("telestation::ui::LimitEditDialog", "Yellow low"),
                                   QT_TRANSLATE_NOOP("telestation::ui::LimitEditDialog", "Yellow high"),
                                   QT_TRANSLATE_NOOP("telestation::ui::LimitEditDialog", "Red high")};

QString boundName(int bound)
{
    return LimitEditDialog::tr(kBoundNames[bound]);
}

// A bound as typed: the C locale's way ("182.5") or the operator's locale's ("182,5").
std::optional<double> parseNumber(const QString& text)
{
    bool ok = false;
    double value = QLocale::c().toDouble(text, &ok);
    if (!ok)
        value = QLocale().toDouble(text, &ok);
    if (!ok || !std::isfinite(value))
        return std::nullopt;
    return value;
}

std::array<double, LimitEditDialog::BoundCount> boundsOf(const EffectiveLimits& l)
{
    return {l.redLow, l.yellowLow, l.yellowHigh, l.redHigh};
}

// Two settings that check the same way (where they come from aside).
bool sameEffect(const EffectiveLimits& a, const EffectiveLimits& b)
{
    const bool aChecks = a.kind != EffectiveLimits::Kind::None && a.enabled;
    const bool bChecks = b.kind != EffectiveLimits::Kind::None && b.enabled;
    if (!aChecks || !bChecks)
        return aChecks == bChecks;
    return a.kind == b.kind && boundsOf(a) == boundsOf(b) && a.expectedStates == b.expectedStates;
}

// The limits a setting puts in effect.
EffectiveLimits effectOf(const config::LimitSetting& s)
{
    EffectiveLimits e;
    e.fromProfile = true;
    e.enabled = s.enabled;
    if (!s.enabled)
        return e;
    e.kind = EffectiveLimits::Kind::Numeric;
    const double inf = decode::LimitOverride::kInf;
    e.redLow = s.redLow.value_or(-inf);
    e.yellowLow = s.yellowLow.value_or(-inf);
    e.yellowHigh = s.yellowHigh.value_or(inf);
    e.redHigh = s.redHigh.value_or(inf);
    return e;
}

} // namespace

std::optional<LimitSubject> limitSubject(const StationSession& session, const QString& parameter, QString* error)
{
    const auto fail = [&](const QString& why) -> std::optional<LimitSubject> {
        if (error)
            *error = why;
        return std::nullopt;
    };
    const pipeline::Station* station = session.station();
    if (!station)
        return fail(StationSession::tr("there is no station"));
    const auto& types = station->types();
    const auto id = types.parameterId(parameter.toStdString());
    auto inEffect = session.limits(parameter);
    auto mission = session.missionLimits(parameter);
    if (!id || !inEffect || !mission)
        return fail(LimitEditDialog::tr("There is no parameter named %1 in the mission database.").arg(parameter));
    const pipeline::ParameterInfo& info = types.parameter(*id);
    const mdb::ParameterDef& def = types.definition(info.typeIndex).parameters[info.indexInPacket];
    LimitSubject subject;
    subject.parameter = parameter;
    subject.units = QString::fromStdString(def.units);
    // The station's own rule (pipeline::toLimitOverride): numeric bounds on numbers, not on an
    // enumeration or text. It refuses anything else anyway; the dialog only says so first.
    subject.numeric = def.type != mdb::DataType::String && def.type != mdb::DataType::Bytes
                      && !std::holds_alternative<mdb::EnumerationCalibrator>(def.calibrator);
    subject.inEffect = *inEffect;
    subject.mission = *mission;
    return subject;
}

LimitEditDialog* LimitEditDialog::openFor(StationSession& session, const QString& parameter, QWidget* parent,
                                          QString* error)
{
    auto subject = limitSubject(session, parameter, error);
    if (!subject)
        return nullptr;
    auto* dialog = new LimitEditDialog(
        std::move(*subject),
        [&session, parameter](const std::optional<config::LimitSetting>& setting, QString* why) {
            return session.setLimits(parameter, setting, why);
        },
        parent);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    // The station may be replaced while the dialog is open: its limits would then be another's.
    connect(&session, &StationSession::stationAboutToChange, dialog, &QDialog::reject);
    dialog->show();
    return dialog;
}

LimitEditDialog::LimitEditDialog(LimitSubject subject, Apply apply, QWidget* parent)
    : QDialog(parent), m_subject(std::move(subject)), m_apply(std::move(apply))
{
    setObjectName(QStringLiteral("limitEditDialog"));
    setWindowTitle(tr("Limits of %1").arg(m_subject.parameter));

    auto* inEffect = new QLabel(tr("In effect: %1").arg(describe(m_subject.inEffect)), this);
    inEffect->setObjectName(QStringLiteral("limitsInEffect"));
    inEffect->setWordWrap(true);
    inEffect->setTextInteractionFlags(Qt::TextSelectableByMouse);

    m_check = new QRadioButton(tr("&Check these limits"), this);
    m_check->setObjectName(QStringLiteral("checkLimits"));
    m_off = new QRadioButton(tr("&Do not check this parameter's limits"), this);
    m_off->setObjectName(QStringLiteral("limitsOff"));
    m_restore = new QRadioButton(tr("&Restore the mission database's limits: %1")
                                     .arg(QString::fromStdString(pipeline::describeLimits(m_subject.mission))),
                                 this);
    m_restore->setObjectName(QStringLiteral("restoreLimits"));
    auto* group = new QButtonGroup(this);
    for (QRadioButton* b : {m_check, m_off, m_restore})
        group->addButton(b);

    auto* bounds = new QWidget(this);
    auto* form = new QFormLayout(bounds);
    form->setContentsMargins(24, 0, 0, 0); // under "Check these limits", which they belong to
    const QString units = m_subject.units.isEmpty() ? QString() : tr(" (%1)").arg(m_subject.units);
    static const char* const kObjectNames[] = {"redLow", "yellowLow", "yellowHigh", "redHigh"};
    for (int b = 0; b < BoundCount; ++b) {
        auto* edit = new QLineEdit(bounds);
        edit->setObjectName(QLatin1String(kObjectNames[b]));
        edit->setPlaceholderText(tr("no bound"));
        edit->setClearButtonEnabled(true);
        m_bounds[static_cast<std::size_t>(b)] = edit;
        connect(edit, &QLineEdit::textChanged, this, &LimitEditDialog::validate);
        form->addRow(boundName(b) + units + QLatin1Char(':'), edit);
    }

    auto* rule = new QLabel(tr("A value below red low or above red high is red; below yellow low or above yellow "
                               "high, yellow. Leave a field empty for no bound."),
                            this);
    rule->setWordWrap(true);

    m_reason = new QLabel(this);
    m_reason->setObjectName(QStringLiteral("reasonLabel"));
    m_reason->setWordWrap(true);
    m_reason->setTextInteractionFlags(Qt::TextSelectableByMouse);
    // Room for two lines whether or not there is a reason: the fields stay put while the operator types.
    m_reason->setMinimumHeight(2 * m_reason->fontMetrics().lineSpacing());
    m_reason->setAlignment(Qt::AlignLeft | Qt::AlignTop);

    m_buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, this);
    m_buttons->button(QDialogButtonBox::Ok)->setObjectName(QStringLiteral("okButton"));
    connect(m_buttons, &QDialogButtonBox::accepted, this, &LimitEditDialog::accept);
    connect(m_buttons, &QDialogButtonBox::rejected, this, &LimitEditDialog::reject);

    auto* layout = new QVBoxLayout(this);
    layout->addWidget(inEffect);
    layout->addSpacing(6);
    layout->addWidget(m_check);
    layout->addWidget(bounds);
    layout->addWidget(rule);
    if (!m_subject.numeric) {
        auto* note = new QLabel(tr("%1 is not a number (an enumeration or text): it has no numeric bounds. Its "
                                   "checking can only be turned off, or the mission database's restored.")
                                    .arg(m_subject.parameter),
                                this);
        note->setObjectName(QStringLiteral("notNumericNote"));
        note->setWordWrap(true);
        layout->addWidget(note);
        // No bounds to give: the choice and its fields would only be noise.
        m_check->setEnabled(false);
        m_check->hide();
        bounds->hide();
        rule->hide();
    }
    layout->addWidget(m_off);
    layout->addWidget(m_restore);
    layout->addSpacing(6);
    layout->addWidget(m_reason);
    layout->addStretch(1);
    layout->addWidget(m_buttons);

    // Start from what is in effect.
    const EffectiveLimits& now = m_subject.inEffect;
    if (now.fromProfile && !now.enabled)
        setChoice(Choice::Off);
    else if (m_subject.numeric)
        setChoice(Choice::Check);
    else
        setChoice(Choice::Restore);
    fillBounds(now.kind == EffectiveLimits::Kind::Numeric ? now : m_subject.mission);
    for (QRadioButton* b : {m_check, m_off, m_restore})
        connect(b, &QRadioButton::toggled, this, &LimitEditDialog::validate);
    validate();
    resize(sizeHint().expandedTo(QSize(460, 0)));
}

void LimitEditDialog::fillBounds(const EffectiveLimits& limits)
{
    if (limits.kind != EffectiveLimits::Kind::Numeric)
        return;
    const auto bounds = boundsOf(limits);
    for (int b = 0; b < BoundCount; ++b) {
        const double value = bounds[static_cast<std::size_t>(b)];
        m_bounds[static_cast<std::size_t>(b)]->setText(std::isinf(value) ? QString() : valueText(value));
    }
}

void LimitEditDialog::setChoice(Choice choice)
{
    (choice == Choice::Check ? m_check : choice == Choice::Off ? m_off : m_restore)->setChecked(true);
}

LimitEditDialog::Choice LimitEditDialog::choice() const
{
    if (m_check->isChecked())
        return Choice::Check;
    return m_off->isChecked() ? Choice::Off : Choice::Restore;
}

void LimitEditDialog::setBound(Bound bound, const QString& text)
{
    m_bounds[static_cast<std::size_t>(bound)]->setText(text);
}

QString LimitEditDialog::bound(Bound bound) const
{
    return m_bounds[static_cast<std::size_t>(bound)]->text();
}

QString LimitEditDialog::describe(const EffectiveLimits& limits)
{
    const QString words = QString::fromStdString(pipeline::describeLimits(limits));
    return limits.fromProfile ? tr("%1 (set by an operator, kept in the profile)").arg(words)
                              : tr("%1 (the mission database's)").arg(words);
}

void LimitEditDialog::validate()
{
    const bool check = choice() == Choice::Check;
    for (QLineEdit* edit : m_bounds)
        edit->setEnabled(check && m_subject.numeric);

    QString problem;
    bool note = false; // not a fault: nothing would change, or nothing typed yet
    m_setting.reset();
    if (choice() == Choice::Restore) {
        note = !m_subject.inEffect.fromProfile;
        if (note)
            problem = tr("The mission database's limits are in effect already.");
    } else {
        config::LimitSetting s;
        s.parameter = m_subject.parameter.toStdString();
        s.enabled = check;
        if (check) {
            std::array<std::optional<double>, BoundCount> values;
            for (int b = 0; b < BoundCount && problem.isEmpty(); ++b) {
                const QString text = m_bounds[static_cast<std::size_t>(b)]->text().trimmed();
                if (text.isEmpty())
                    continue;
                values[static_cast<std::size_t>(b)] = parseNumber(text);
                if (!values[static_cast<std::size_t>(b)])
                    problem = tr("%1: \"%2\" is not a number.").arg(boundName(b), text);
            }
            // In order where given: red low ≤ yellow low ≤ yellow high ≤ red high.
            int previous = -1;
            for (int b = 0; b < BoundCount && problem.isEmpty(); ++b) {
                if (!values[static_cast<std::size_t>(b)])
                    continue;
                if (previous >= 0 && *values[static_cast<std::size_t>(b)] < *values[static_cast<std::size_t>(previous)])
                    problem = tr("%1 (%2) is below %3 (%4): the bounds go red low ≤ yellow low ≤ yellow high ≤ red high.")
                                  .arg(boundName(b), valueText(*values[static_cast<std::size_t>(b)]),
                                       boundName(previous).toLower(),
                                       valueText(*values[static_cast<std::size_t>(previous)]));
                previous = b;
            }
            if (problem.isEmpty() && std::none_of(values.begin(), values.end(), [](const auto& v) { return v.has_value(); })) {
                problem = tr("Give at least one bound, or choose not to check this parameter.");
                note = true; // what a parameter without limits opens with
            }
            s.redLow = values[RedLow];
            s.yellowLow = values[YellowLow];
            s.yellowHigh = values[YellowHigh];
            s.redHigh = values[RedHigh];
        }
        if (problem.isEmpty()) {
            note = sameEffect(effectOf(s), m_subject.inEffect);
            if (note)
                problem = check ? tr("These are the limits in effect.") : tr("This parameter's limits are not checked now.");
            else
                m_setting = s;
        }
    }
    m_problem = problem;
    m_reason->setText(problem);
    // Only a wrong entry is red.
    tone::setTextColour(m_reason, note ? palette().color(QPalette::WindowText) : tone::kErrorText);
    m_buttons->button(QDialogButtonBox::Ok)->setEnabled(problem.isEmpty());
}

void LimitEditDialog::accept()
{
    if (!canApply())
        return;
    QString error;
    if (m_apply && !m_apply(m_setting, &error)) {
        m_reason->setText(tr("The station refused: %1").arg(error));
        tone::setTextColour(m_reason, tone::kErrorText);
        return;
    }
    QDialog::accept();
}

} // namespace telestation::ui
