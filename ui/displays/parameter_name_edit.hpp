// The add-parameter field of the value display and the parameter plot: a line edit completing qualified
// parameter names (PACKET.PARAMETER; "VOLT" finds every voltage, whatever its packet), cleared once its
// name was added.
#pragma once

#include <QLineEdit>
#include <QStringList>

namespace telestation::ui {

class ParameterNameEdit : public QLineEdit {
    Q_OBJECT

public:
    ParameterNameEdit(const QStringList& names, const QString& placeholder, QWidget* parent = nullptr);

    // The name typed, trimmed.
    [[nodiscard]] QString name() const { return text().trimmed(); }
    // `name` was added: the field is cleared, now and once more after a completion picked with Return in
    // the list (the Return reaches the field, which adds the name, before the completer writes its
    // choice into the field).
    void clearAdded(const QString& name);
};

} // namespace telestation::ui
