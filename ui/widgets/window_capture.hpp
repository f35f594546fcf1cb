// Test and documentation hooks shared by the executables: close a window after a delay, optionally
// saving a PNG of it first (docs/images, visual checks under Xvfb or the offscreen platform).
#pragma once

#include <QString>

class QWidget;

namespace telestation::ui {

// After `delayMs`, saves `window` as PNG to `pngPath` (unless empty) and closes it. A failed save is
// reported on stderr and makes the application exit with code 1.
void closeLater(QWidget& window, int delayMs, const QString& pngPath);

} // namespace telestation::ui
