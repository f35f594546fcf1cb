// The workstation's main window over a StationSession.
//
// Layout: the streams panel above the selected stream's packet table (the central splitter); the
// mission database browser and the recordings browser tabbed in the left dock area; the event log and
// the alarm list tabbed at the bottom (the status bar counts unacknowledged alarms; a click raises the
// list); displays (value tables, plots, packet views) as docks on the right, as many as wanted, each one
// can be tabbed, split or floated. Window geometry, dock layout, the splitter and the open displays are
// kept in QSettings and come back at the next start; recent profiles too.
//
// Nothing here runs per packet: the views that show counts share the session's snapshot of each tick
// (once a second) while visible; displays poll their own API subscriptions.
#pragma once

#include <QJsonObject>
#include <QList>
#include <QMainWindow>
#include <QPointer>

#include <optional>

class QLabel;
class QMenu;
class QSplitter;

namespace telestation::pipeline {
class Station;
}

namespace telestation::ui {

class AlarmListDock;
class AlarmStatusLabel;
class DisplayDock;
class EventLogDock;
class LimitEditDialog;
class MissionBrowser;
class PacketTable;
class RecordingsBrowser;
class StationSession;
class StatisticsDialog;
class StatusMessage;
class StreamsPanel;
class ValueDisplay;

class MainWindow : public QMainWindow {
    Q_OBJECT

public:
    static constexpr int kMaxRecentProfiles = 8;

    explicit MainWindow(StationSession& session, QWidget* parent = nullptr);
    // The user API's state in the status bar ("API 127.0.0.1:50051"); `problem` shows it in red.
    void setApiStatus(const QString& text, const QString& toolTip, bool problem);
    ~MainWindow() override;

    // Restores geometry, docks and the open displays from the settings (call after the session opened
    // its profile). `displays`, when given, replaces the remembered displays (the demo's display file).
    void restoreLayout(const std::optional<QList<QJsonObject>>& displays = std::nullopt);
    void saveLayout() const;

    // Displays.
    DisplayDock* openDisplay(QJsonObject spec);
    [[nodiscard]] QList<DisplayDock*> displays() const;
    bool openDisplayFile(const QString& path, QString* error = nullptr);
    // Opens displays beside those open and lays them all out as on a first start (a packet view tabbed
    // behind the first value display; displays about half the width): a display file opened later in
    // a run (`telestation --displays FILE --displays-after S`).
    void openDisplays(const QList<QJsonObject>& specs);
    bool saveDisplayFile(const QString& path, QString* error = nullptr) const;

    // Profile actions (File menu). Each asks about unsaved changes first; false when cancelled/failed.
    bool openProfile(const QString& path);
    bool newProfile();
    bool saveProfile();
    bool saveProfileAs(const QString& path);
    [[nodiscard]] QStringList recentProfiles() const;

    // Asks to save unsaved changes: true to go on (saved or discarded), false when cancelled.
    bool maybeSave();

    [[nodiscard]] StationSession& session() const noexcept { return m_session; }
    [[nodiscard]] StreamsPanel* streamsPanel() const noexcept { return m_streams; }
    [[nodiscard]] PacketTable* packetTable() const noexcept { return m_packets; }
    [[nodiscard]] MissionBrowser* missionBrowser() const noexcept { return m_browser; }
    [[nodiscard]] RecordingsBrowser* recordingsBrowser() const noexcept { return m_recordings; }
    [[nodiscard]] EventLogDock* eventLog() const noexcept { return m_eventLog; }
    [[nodiscard]] AlarmListDock* alarmList() const noexcept { return m_alarms; }
    [[nodiscard]] AlarmStatusLabel* alarmStatus() const noexcept { return m_alarmStatus; }
    [[nodiscard]] StatusMessage* statusMessage() const noexcept { return m_status; }
    [[nodiscard]] StatisticsDialog* statisticsDialog(); // created on first use
    [[nodiscard]] QString missionSummary() const;

public Q_SLOTS:
    void showStatistics();
    void showAlarmList();
    // Raises the alarm list with a parameter's alarm selected; false when it has none listed.
    bool showAlarm(const QString& stream, const QString& parameter);
    // Opens Edit limits… for a parameter (nullptr, reported, when there is no such parameter).
    LimitEditDialog* editLimits(const QString& parameter);

protected:
    void closeEvent(QCloseEvent* event) override;
    void moveEvent(QMoveEvent* event) override;
    void resizeEvent(QResizeEvent* event) override;

private:
    void createMenus();
    [[nodiscard]] static bool fitsScreen(const QRect& frame); // inside one screen's available area
    void placeOnScreen();
    void fitFrameToScreen();
    void logLayoutChoice(const QRect& savedFrame, bool fits, bool geometryRestored, bool stateRestored) const;
    void connectSession();
    void connectViews();
    void stationAboutToChange();
    void stationChanged(pipeline::Station* station);
    void streamsChanged();
    void updateTitle();
    void updateRecentMenu();
    void addRecent(const QString& path);
    void report(const QString& title, const QString& text);
    // Save As…: the profile's own file suggested, else profile.json where profiles were last saved.
    [[nodiscard]] QString saveProfileFileName();
    void addParametersToValues(const QStringList& names);
    DisplayDock* newDisplay(const QString& type);
    void arrangeDisplays(); // the first start's arrangement of the open displays
    [[nodiscard]] QString nextDisplayName() const;

    StationSession& m_session;
    QSplitter* m_splitter = nullptr;
    StreamsPanel* m_streams = nullptr;
    PacketTable* m_packets = nullptr;
    MissionBrowser* m_browser = nullptr;
    RecordingsBrowser* m_recordings = nullptr;
    EventLogDock* m_eventLog = nullptr;
    AlarmListDock* m_alarms = nullptr;
    AlarmStatusLabel* m_alarmStatus = nullptr;
    StatisticsDialog* m_statistics = nullptr;
    QMenu* m_recentMenu = nullptr;
    QLabel* m_missionLabel = nullptr;
    QLabel* m_streamsLabel = nullptr;
    QLabel* m_apiLabel = nullptr;
    StatusMessage* m_status = nullptr; // the status bar's one message at a time
    QPointer<ValueDisplay> m_lastValues; // where activated parameters go
    bool m_fitFramePending = false; // a first-start window waiting for its frame (fitFrameToScreen)
};

} // namespace telestation::ui
