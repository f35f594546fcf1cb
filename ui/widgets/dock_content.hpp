// A dock's content inside a scroll area: a dock never asks the window for more room than its content's
// minimum size; when the dock is smaller than that (a small screen, many docks), the content scrolls
// instead of the window growing past the screen.
#pragma once

class QDockWidget;
class QWidget;

namespace telestation::ui {

// Shows `content` in `dock` through the dock's scroll area (made on the first call). The content shown
// before is taken out, not deleted: its owner decides (DisplayDock swaps a placeholder and a display).
void setDockContent(QDockWidget& dock, QWidget* content);

} // namespace telestation::ui
