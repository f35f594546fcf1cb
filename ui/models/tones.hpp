// The colours the views use for severities and limit states, defined once so that a warning is the
// same amber and a red limit the same red in the event log, the statistics, the value displays, the
// alarm list and the dialogs' error lines. Operators learn them; tests find them here.
#pragma once

#include <QColor>
#include <QPalette>
#include <QWidget>

namespace telestation::ui::tone {

// Text on the window's own background.
inline const QColor kWarningText{0xa0, 0x62, 0x00}; // warnings, a notice in a count
inline const QColor kErrorText{0xc0, 0x39, 0x2b};   // errors, losses, refusals, a check that failed
inline const QColor kMutedText{0x80, 0x80, 0x80};   // set aside: stale values, shelved alarms

// Pastel backgrounds with dark text (kColouredText): readable in light and dark themes alike.
inline const QColor kNormalBackground{0xc8, 0xe6, 0xc9}; // within limits
inline const QColor kYellowBackground{0xff, 0xf1, 0x76}; // yellow limit, warning
inline const QColor kOrangeBackground{0xff, 0xcc, 0x80}; // error (between a warning and a red limit)
inline const QColor kRedBackground{0xef, 0x9a, 0x9a};    // red limit, critical
inline const QColor kStaleBackground{0xd6, 0xd6, 0xd6};  // no recent value
inline const QColor kColouredText{0x1a, 0x1a, 0x1a};

// Writes a label's (or any widget's) text in `colour`, e.g. the reason an entry is refused.
inline void setTextColour(QWidget* widget, const QColor& colour)
{
    QPalette palette = widget->palette();
    palette.setColor(QPalette::WindowText, colour);
    widget->setPalette(palette);
}

} // namespace telestation::ui::tone
