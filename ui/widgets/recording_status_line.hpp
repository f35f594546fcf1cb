// The recorder's state on one line of the recordings browser: "Recording to DIR", "Not recording", or —
// after a failure (a full disk, a write error) — why recording stopped, in red, with "Resume recording":
// each stream that stopped then records into a new segment from its next packet
// (StationSession::resumeRecording). From the session's snapshot of each tick while visible.
#pragma once

#include "ui/session/snapshot_feed.hpp"

#include <QWidget>

class QLabel;
class QPushButton;

namespace telestation::ui {

class StationSession;

class RecordingStatusLine : public QWidget {
    Q_OBJECT

public:
    explicit RecordingStatusLine(StationSession& session, QWidget* parent = nullptr);

    [[nodiscard]] QString text() const; // the line as shown
    [[nodiscard]] bool showsFailure() const noexcept { return m_failed; }
    [[nodiscard]] QPushButton* resumeButton() const noexcept { return m_resume; }

public Q_SLOTS:
    void showState(const telestation::ui::SharedSnapshot& snapshot);
    void resume();

Q_SIGNALS:
    // "Resume recording" was clicked: what the station did.
    void resumed(const QString& message);

private:
    StationSession& m_session;
    QLabel* m_state = nullptr;
    QPushButton* m_resume = nullptr;
    bool m_failed = false;
};

} // namespace telestation::ui
