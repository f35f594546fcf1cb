// The main window's status bar messages (issue 15: they ran into each other). One message at a time,
// on one line, for kTimeoutMs; a newer message replaces an older one at once and gets the whole time
// again. A text of several lines (several streams that failed to start) is shown as its first line and
// how many more there are; the whole text is the status bar's tool tip while the message is shown, and
// is in the event log anyway. Permanent widgets (alarm counts, streams, version) are not touched.
#pragma once

#include <QObject>
#include <QString>

class QStatusBar;

namespace telestation::ui {

class StatusMessage : public QObject {
    Q_OBJECT

public:
    // Long enough to read a sentence twice; the event log keeps every one.
    static constexpr int kTimeoutMs = 10000;

    explicit StatusMessage(QStatusBar& bar);

    void show(const QString& text);
    // What the status bar shows now ("" when nothing).
    [[nodiscard]] QString current() const;

    // "first line (+2 more: see the event log)"; "" for a blank text.
    [[nodiscard]] static QString oneLine(const QString& text);

private:
    QStatusBar& m_bar;
};

} // namespace telestation::ui
