// Edit limits…: a parameter's limits, changed live by the operator. Shows the limits in effect (the
// mission database's, or an operator's kept in the profile) and offers three choices: check these
// limits (the four bounds, each optional: an empty field is no bound), do not check this parameter, or
// restore the mission database's limits. Entries are checked as they are typed (numbers, bounds in
// order red low ≤ yellow low ≤ yellow high ≤ red high, at least one); OK stays disabled with the
// reason shown in red, or with a plain note when nothing would change. An enumeration or a text
// parameter has no numeric bounds: its checking can only be turned off or restored, and the dialog
// says so.
//
// OK hands the setting to the caller's `apply` (the workstation: StationSession::setLimits, which
// marks the profile unsaved); a refusal is shown and the dialog stays open.
#pragma once

#include "core/config/station_profile.hpp"
#include "core/pipeline/limit_settings.hpp"

#include <QDialog>
#include <QString>

#include <array>
#include <functional>
#include <optional>

class QDialogButtonBox;
class QLabel;
class QLineEdit;
class QRadioButton;

namespace telestation::ui {

class StationSession;

// What the dialog edits.
struct LimitSubject {
    QString parameter;  // qualified name
    QString units;
    bool numeric = true; // numeric bounds apply (not an enumeration, not text)
    pipeline::EffectiveLimits inEffect;
    pipeline::EffectiveLimits mission; // what restoring brings back
};

// A parameter of the session's running station; nullopt (and why in `error`) when there is none.
[[nodiscard]] std::optional<LimitSubject> limitSubject(const StationSession& session, const QString& parameter,
                                                       QString* error = nullptr);

class LimitEditDialog : public QDialog {
    Q_OBJECT

public:
    enum class Choice { Check, Off, Restore };
    enum Bound { RedLow, YellowLow, YellowHigh, RedHigh, BoundCount };
    // Applies a setting (nullopt: the mission database's limits); false with the reason when refused.
    using Apply = std::function<bool(const std::optional<config::LimitSetting>& setting, QString* error)>;

    LimitEditDialog(LimitSubject subject, Apply apply, QWidget* parent = nullptr);

    // Opens the dialog (non-modal; it deletes itself when closed) for a parameter of the session,
    // applying through the session. nullptr, and why in `error`, when the parameter does not exist.
    static LimitEditDialog* openFor(StationSession& session, const QString& parameter, QWidget* parent,
                                    QString* error = nullptr);

    void setChoice(Choice choice);
    [[nodiscard]] Choice choice() const;
    void setBound(Bound bound, const QString& text);
    [[nodiscard]] QString bound(Bound bound) const;

    // Why OK is disabled ("" when it is enabled): an entry that does not check, or nothing to change.
    [[nodiscard]] QString problem() const { return m_problem; }
    [[nodiscard]] bool canApply() const noexcept { return m_problem.isEmpty(); }
    // What OK applies (when canApply()): the setting, or nullopt for the mission database's limits.
    [[nodiscard]] std::optional<config::LimitSetting> setting() const { return m_setting; }
    [[nodiscard]] const LimitSubject& subject() const noexcept { return m_subject; }

    // "yellow 30 .. 150, red 20 .. 180 (the mission database's)" — the limits in effect in words.
    [[nodiscard]] static QString describe(const pipeline::EffectiveLimits& limits);

public Q_SLOTS:
    void accept() override;

private:
    void validate();
    void fillBounds(const pipeline::EffectiveLimits& limits);

    LimitSubject m_subject;
    Apply m_apply;
    std::optional<config::LimitSetting> m_setting;
    QString m_problem;

    QRadioButton* m_check = nullptr;
    QRadioButton* m_off = nullptr;
    QRadioButton* m_restore = nullptr;
    std::array<QLineEdit*, BoundCount> m_bounds{};
    QLabel* m_reason = nullptr;
    QDialogButtonBox* m_buttons = nullptr;
};

} // namespace telestation::ui
