// The red line that says why an entry, or OK, is refused — below a field or beside OK: word-wrapped,
// selectable (a system's message can be copied), hidden until there is something to say. One kind of
// line in every dialog, in the one error colour (tones.hpp).
#pragma once

#include "ui/models/tones.hpp"

#include <QLabel>
#include <QString>

namespace telestation::ui {

[[nodiscard]] inline QLabel* newErrorLabel(QWidget* parent, const QString& objectName)
{
    auto* label = new QLabel(parent);
    label->setObjectName(objectName);
    label->setWordWrap(true);
    label->setTextInteractionFlags(Qt::TextSelectableByMouse);
    tone::setTextColour(label, tone::kErrorText);
    label->hide();
    return label;
}

} // namespace telestation::ui
