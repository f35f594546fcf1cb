#include "ui/displays/parameter_name_edit.hpp"

#include <QCompleter>
#include <QPointer>
#include <QTimer>

namespace telestation::ui {

ParameterNameEdit::ParameterNameEdit(const QStringList& names, const QString& placeholder, QWidget* parent)
    : QLineEdit(parent)
{
    setObjectName(QStringLiteral("parameterEdit"));
    setPlaceholderText(placeholder);
    setClearButtonEnabled(true);
    auto* completer = new QCompleter(names, this);
    completer->setCaseSensitivity(Qt::CaseInsensitive);
    completer->setFilterMode(Qt::MatchContains);
    completer->setMaxVisibleItems(15);
    setCompleter(completer);
}

void ParameterNameEdit::clearAdded(const QString& name)
{
    clear();
    // The completer's choice arrives after this event has been handled: clear it then, unless the
    // operator has typed something else meanwhile.
    QTimer::singleShot(0, this, [this, name] {
        if (text().trimmed() == name)
            clear();
    });
}

} // namespace telestation::ui
