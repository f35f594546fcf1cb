#include "ui/widgets/dock_content.hpp"

#include <QDockWidget>
#include <QScrollArea>

namespace telestation::ui {

void setDockContent(QDockWidget& dock, QWidget* content)
{
    auto* scroll = qobject_cast<QScrollArea*>(dock.widget());
    if (!scroll) {
        scroll = new QScrollArea(&dock);
        scroll->setObjectName(QStringLiteral("dockScroll"));
        scroll->setWidgetResizable(true); // the content fills the dock, down to its minimum size
        scroll->setFrameShape(QFrame::NoFrame);
        dock.setWidget(scroll);
    }
    if (QWidget* previous = scroll->takeWidget()) {
        previous->hide();
        previous->setParent(&dock); // still owned by the dock until its owner deletes it
    }
    scroll->setWidget(content);
}

} // namespace telestation::ui
