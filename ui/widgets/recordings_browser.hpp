// The recordings browser: the segments of a recording directory (RecordingsModel), playback controls
// for the selected segments, and the progress of every playback stream the station runs.
//
// - The list is read again with Refresh and every 5 s while the browser is visible (recordings grow
//   while the station records). A directory without catalog.sqlite shows "no recordings in DIR" and is
//   left untouched. Browse… picks another directory.
// - "Play selection" emits playRequested(name, url): the session adds a playback stream with that
//   source. The URL is file://DIR?segment=FILE&...&speed=N[&from=T&to=T], checked with
//   io::parseEndpoint and record::playbackOptionsFromQuery before it is emitted; the name is
//   "playback", "playback-2", ... whichever no stream has yet.
// - "Export…" (once the list has rows) opens RecordingExportDialog for the selected segments (all of
//   them when none is selected) with the range above when it is on; its OK starts the export in the
//   background (RecordingExportProgress under the controls: progress, Cancel, the outcome), one at a
//   time; exportFinished(message) says how it went (the main window's status bar). The last export's
//   parameters, layout and file are offered again.
// - Under the directory, the recorder's state (RecordingStatusLine): where it records, or why it stopped
//   with "Resume recording"; resuming lists the directory again.
// - Below, one row per playback (file://) stream of the station: progress, state, Pause/Resume
//   (Station::pauseStream, live) and Stop (emits removeStreamRequested: the session removes the
//   stream). From the session's snapshot of each tick (once a second) while visible.
#pragma once

#include "ui/dialogs/utc_time_range.hpp"
#include "ui/session/recording_export.hpp"
#include "ui/session/snapshot_feed.hpp"

#include <QPointer>
#include <QString>
#include <QStringList>
#include <QWidget>

#include <optional>
#include <vector>

class QAbstractButton;
class QCheckBox;
class QComboBox;
class QDateTimeEdit;
class QLabel;
class QProgressBar;
class QPushButton;
class QTableView;
class QVBoxLayout;

namespace telestation::pipeline {
class Station;
}

namespace telestation::ui {

class PhasedTimer;

class RecordingExportDialog;
class RecordingExportProgress;
class RecordingStatusLine;
class RecordingsModel;
class StationSession;

class RecordingsBrowser : public QWidget {
    Q_OBJECT

public:
    static constexpr int kListIntervalMs = 5000;
    static constexpr int kProgressSteps = 1000; // the progress bars' range

    explicit RecordingsBrowser(StationSession& session, QWidget* parent = nullptr);
    ~RecordingsBrowser() override;

    // Lists `directory` (relative paths are taken from the current directory). The same directory
    // again keeps the rows and their selection.
    void setRecordingDirectory(const QString& directory);
    [[nodiscard]] QString recordingDirectory() const { return m_directory; }
    // nullptr: no station (none yet, or being rebuilt); every row of the progress area goes.
    void setStation(pipeline::Station* station);

    // The request "Play selection" would emit now: the stream name (one the session's profile does
    // not have, nor a request not answered yet) and the URL, or "" and `error`.
    [[nodiscard]] QString nextPlaybackName() const;
    [[nodiscard]] QString playbackUrl(QString* error = nullptr) const;
    // The speed the combo says: 0 = as fast as possible; nullopt when the text is not a speed.
    [[nodiscard]] std::optional<double> speed() const;

    // The line above the table ("no recordings in DIR", a read error, or "").
    [[nodiscard]] QString listMessage() const;
    // The line under the playback controls (why Play or Pause did nothing, or "").
    [[nodiscard]] QString playMessage() const;

    // The progress area: the playback streams shown, each one's progress (0..1) and state text.
    [[nodiscard]] QStringList playbackStreams() const;
    [[nodiscard]] double shownProgress(const QString& stream) const; // -1 when not shown
    [[nodiscard]] QString shownState(const QString& stream) const;
    [[nodiscard]] QAbstractButton* pauseButton(const QString& stream) const;
    [[nodiscard]] QAbstractButton* stopButton(const QString& stream) const;

    [[nodiscard]] RecordingsModel* model() const noexcept { return m_model; }
    // The recorder's state, and "Resume recording" after a failure.
    [[nodiscard]] RecordingStatusLine* recordingStatus() const noexcept { return m_recordingStatus; }
    [[nodiscard]] QTableView* view() const noexcept { return m_view; }
    [[nodiscard]] QComboBox* speedCombo() const noexcept { return m_speed; }
    [[nodiscard]] QCheckBox* rangeCheck() const noexcept { return m_range->check(); }
    [[nodiscard]] QDateTimeEdit* fromEdit() const noexcept { return m_range->from(); }
    [[nodiscard]] QDateTimeEdit* toEdit() const noexcept { return m_range->to(); }
    [[nodiscard]] QPushButton* playButton() const noexcept { return m_play; }
    [[nodiscard]] QPushButton* exportButton() const noexcept { return m_export; }
    // The export dialog while it is open (nullptr otherwise), and the export's progress and outcome.
    [[nodiscard]] RecordingExportDialog* exportDialog() const;
    [[nodiscard]] RecordingExportProgress* exportProgress() const noexcept { return m_exportProgress; }
    [[nodiscard]] QPushButton* refreshButton() const noexcept { return m_refresh; }
    [[nodiscard]] QPushButton* browseButton() const noexcept { return m_browse; }
    [[nodiscard]] bool isPolling() const; // the list's timer
    // The feed's snapshot the progress area shows (nullptr before the first).
    [[nodiscard]] SharedSnapshot feedSnapshot() const { return m_snapshot; }

public Q_SLOTS:
    // Lists the directory again (in the background; the model's listed() says when it is done).
    void refresh();
    // Shows the session's latest snapshot in the progress area again (each tick does this while the
    // browser is visible).
    void refreshProgress();
    void playSelection();
    // Opens the export dialog (see the header); its OK starts the export.
    void exportSelection();
    void browse();

Q_SIGNALS:
    void playRequested(const QString& streamName, const QString& url);
    void removeStreamRequested(const QString& name);
    void recordingDirectoryChanged(const QString& directory);
    // An export ended: what was written, or why not (RecordingExportProgress::resultText).
    void exportFinished(const QString& message);

protected:
    void showEvent(QShowEvent* event) override;
    void hideEvent(QHideEvent* event) override;

private:
    struct ProgressRow {
        QString name;
        QWidget* widget = nullptr;
        QProgressBar* bar = nullptr;
        QLabel* state = nullptr;
        QPushButton* pause = nullptr;
        QPushButton* stop = nullptr;
        double progress = -1;
    };

    void showProgress(const SharedSnapshot& snapshot);
    [[nodiscard]] bool stationMayRecordHere() const;
    void onListed();
    void onSelectionChanged();
    // The selected rows' segments, in row order.
    [[nodiscard]] std::vector<record::SegmentInfo> selectedSegments() const;
    void updatePlayEnabled();
    void startExport(const RecordingExportRequest& request);
    void rebuildProgressRows(const QStringList& names);
    void togglePause(const QString& name);
    [[nodiscard]] const ProgressRow* row(const QString& name) const;
    void showListMessage(const QString& text, bool error);
    void showPlayMessage(const QString& text);

    StationSession& m_session;
    pipeline::Station* m_station = nullptr;
    SharedSnapshot m_snapshot;
    QString m_directory;
    QStringList m_requested; // playback names asked for since the last station

    RecordingsModel* m_model = nullptr;
    QLabel* m_directoryLabel = nullptr;
    QPushButton* m_browse = nullptr;
    QPushButton* m_refresh = nullptr;
    QLabel* m_listMessage = nullptr;
    RecordingStatusLine* m_recordingStatus = nullptr;
    QTableView* m_view = nullptr;
    QComboBox* m_speed = nullptr;
    UtcTimeRange* m_range = nullptr;
    QPushButton* m_play = nullptr;
    QPushButton* m_export = nullptr;
    QLabel* m_playMessage = nullptr;
    QPointer<RecordingExportDialog> m_exportDialog;
    RecordingExportProgress* m_exportProgress = nullptr;
    RecordingExportRequest m_lastExport; // its parameters, layout and file are offered again
    QVBoxLayout* m_progressLayout = nullptr;
    QLabel* m_noPlayback = nullptr;
    std::vector<ProgressRow> m_rows;
    PhasedTimer* m_listTimer = nullptr;
};

} // namespace telestation::ui
