#include "ui/main_window.hpp"

#include "core/pipeline/station.hpp"
#include "telestation_version.hpp"
#include "ui/dialogs/definition_file_dialog.hpp"
#include "ui/dialogs/file_dialog_folder.hpp"
#include "ui/dialogs/limit_edit_dialog.hpp"
#include "ui/dialogs/statistics_dialog.hpp"
#include "ui/displays/display_dock.hpp"
#include "ui/displays/value_display.hpp"
#include "ui/models/value_table_model.hpp"
#include "ui/session/station_session.hpp"
#include "ui/widgets/alarm_list_dock.hpp"
#include "ui/widgets/alarm_status_label.hpp"
#include "ui/widgets/event_log_dock.hpp"
#include "ui/widgets/mission_browser.hpp"
#include "ui/widgets/packet_table.hpp"
#include "ui/widgets/recordings_browser.hpp"
#include "ui/widgets/status_message.hpp"
#include "ui/widgets/streams_panel.hpp"
#include "ui/widgets/dock_content.hpp"

#include <QAction>
#include <QApplication>
#include <QCloseEvent>
#include <QFileInfo>
#include <QGuiApplication>
#include <QJsonArray>
#include <QJsonDocument>
#include <QLabel>
#include <QMenu>
#include <QMenuBar>
#include <QMessageBox>
#include <QMoveEvent>
#include <QPushButton>
#include <QResizeEvent>
#include <QScreen>
#include <QSettings>
#include <QSplitter>
#include <QStatusBar>
#include <QTimer>

#include <qwt_global.h>
#include <spdlog/spdlog.h>

namespace telestation::ui {

namespace {

const QString kGeometryKey = QStringLiteral("window/geometry");
const QString kStateKey = QStringLiteral("window/state");
const QString kSplitterKey = QStringLiteral("window/splitter");
const QString kFrameKey = QStringLiteral("window/frame"); // the frame's rectangle: does it fit this screen?
const QString kDisplaysKey = QStringLiteral("window/displays");
const QString kRecentKey = QStringLiteral("profiles/recent");
const QString kDockNameKey = QStringLiteral("dock");
const QString kProfileFilter = QStringLiteral("Station profiles (*.json);;All files (*)");
const QString kDisplayFilter = QStringLiteral("Display files (*.tsdisplays *.json);;All files (*)");

// Below this the first start opens maximised: the docks scroll or share tabs in what there is.
constexpr QSize kComfortableScreen{1280, 720};
// A window manager's frame before the window is shown (title bar and borders); measured once shown.
constexpr QMargins kFrameGuess{4, 30, 4, 4};

} // namespace

MainWindow::MainWindow(StationSession& session, QWidget* parent) : QMainWindow(parent), m_session(session)
{
    setObjectName(QStringLiteral("MainWindow"));
    setDockNestingEnabled(true);
    setDockOptions(QMainWindow::AllowTabbedDocks | QMainWindow::AllowNestedDocks | QMainWindow::AnimatedDocks);

    m_streams = new StreamsPanel(m_session, this);
    m_streams->setObjectName(QStringLiteral("streamsPanel"));
    m_packets = new PacketTable(m_session, this);
    m_packets->setObjectName(QStringLiteral("packetTable"));
    m_splitter = new QSplitter(Qt::Vertical, this);
    m_splitter->setObjectName(QStringLiteral("configSplitter"));
    m_splitter->addWidget(m_streams);
    m_splitter->addWidget(m_packets);
    m_splitter->setStretchFactor(0, 1);
    m_splitter->setStretchFactor(1, 2);
    setCentralWidget(m_splitter);

    m_browser = new MissionBrowser(this);
    auto* browserDock = new QDockWidget(tr("Mission database"), this);
    browserDock->setObjectName(QStringLiteral("missionDock"));
    setDockContent(*browserDock, m_browser);
    addDockWidget(Qt::LeftDockWidgetArea, browserDock);

    m_recordings = new RecordingsBrowser(m_session, this);
    auto* recordingsDock = new QDockWidget(tr("Recordings"), this);
    recordingsDock->setObjectName(QStringLiteral("recordingsDock"));
    setDockContent(*recordingsDock, m_recordings);
    addDockWidget(Qt::LeftDockWidgetArea, recordingsDock);
    tabifyDockWidget(browserDock, recordingsDock);
    browserDock->raise();

    m_eventLog = new EventLogDock([this](std::uint64_t after) { return m_session.events(after); }, this);
    m_eventLog->setObjectName(QStringLiteral("eventLogDock"));
    m_eventLog->setArchive({[this] { return m_session.eventArchivePath(); }, [this] { return m_session.eventStorageError(); }});
    addDockWidget(Qt::BottomDockWidgetArea, m_eventLog);
    m_alarms = new AlarmListDock(m_session, this);
    m_alarms->setObjectName(QStringLiteral("alarmListDock"));
    addDockWidget(Qt::BottomDockWidgetArea, m_alarms);
    tabifyDockWidget(m_eventLog, m_alarms);
    m_eventLog->raise();

    m_missionLabel = new QLabel(tr("No mission database"), this);
    m_missionLabel->setObjectName(QStringLiteral("missionLabel"));
    m_missionLabel->setMinimumWidth(80); // cut on a narrow screen rather than widen the window; whole in its tooltip
    m_streamsLabel = new QLabel(this);
    statusBar()->addWidget(m_missionLabel, 1);
    m_alarmStatus = new AlarmStatusLabel(m_session, this);
    statusBar()->addPermanentWidget(m_alarmStatus);
    statusBar()->addPermanentWidget(m_streamsLabel);
    m_apiLabel = new QLabel(this);
    m_apiLabel->setObjectName(QStringLiteral("apiLabel"));
    m_apiLabel->hide(); // until the application says where the API is served
    statusBar()->addPermanentWidget(m_apiLabel);
    statusBar()->addPermanentWidget(new QLabel(QStringLiteral("Telestation %1").arg(QLatin1String(kVersion)), this));
    m_status = new StatusMessage(*statusBar());

    createMenus();
    connectViews();
    connectSession();
    placeOnScreen();
    stationChanged(m_session.station());
    updateTitle();
}

MainWindow::~MainWindow()
{
    // Displays and views hold subscriptions into the station: they go before the session's station.
    stationAboutToChange();
}

void MainWindow::createMenus()
{
    auto* file = menuBar()->addMenu(tr("&File"));
    file->addAction(tr("&New Profile"), QKeySequence::New, this, [this] { newProfile(); });
    file->addAction(tr("&Open Profile…"), QKeySequence::Open, this, [this] {
        const QString path = FileDialogFolder::openFile(this, FileDialogFolder::kProfiles, tr("Open station profile"), kProfileFilter);
        if (!path.isEmpty())
            openProfile(path);
    });
    m_recentMenu = file->addMenu(tr("Open &Recent"));
    m_recentMenu->setObjectName(QStringLiteral("recentMenu"));
    file->addAction(tr("&Save Profile"), QKeySequence::Save, this, [this] { saveProfile(); });
    file->addAction(tr("Save Profile &As…"), QKeySequence::SaveAs, this, [this] {
        const QString path = saveProfileFileName();
        if (!path.isEmpty())
            saveProfileAs(path);
    });
    file->addSeparator();
    file->addAction(tr("Open &Display File…"), this, [this] {
        const QString path = FileDialogFolder::openFile(this, FileDialogFolder::kDisplays, tr("Open display file"), kDisplayFilter);
        QString error;
        if (!path.isEmpty() && !openDisplayFile(path, &error))
            report(tr("Display file"), error);
    });
    file->addAction(tr("Save Displays As…"), this, [this] {
        QString path = FileDialogFolder::saveFile(this, FileDialogFolder::kDisplays, tr("Save display file"),
                                                  QStringLiteral("displays.tsdisplays"), kDisplayFilter);
        if (path.isEmpty())
            return;
        if (QFileInfo(path).suffix().isEmpty())
            path += QStringLiteral(".tsdisplays");
        QString error;
        if (!saveDisplayFile(path, &error))
            report(tr("Display file"), error);
    });
    file->addSeparator();
    file->addAction(tr("&Quit"), QKeySequence::Quit, this, &QWidget::close);
    updateRecentMenu();

    auto* stream = menuBar()->addMenu(tr("&Streams"));
    stream->addAction(tr("&Add Stream…"), QKeySequence(tr("Ctrl+Shift+A")), m_streams, &StreamsPanel::addStream);
    stream->addAction(tr("&Edit Stream…"), QKeySequence(tr("Ctrl+Shift+E")), m_streams, &StreamsPanel::editStream);
    stream->addSeparator();
    stream->addAction(tr("Start &All"), this, [this] {
        QStringList errors; // one message for all of them: the first and how many more
        for (const auto& name : m_session.streamNames()) {
            QString error;
            if (!m_session.startStream(name, &error))
                errors << error;
        }
        if (!errors.isEmpty())
            m_status->show(errors.join(QLatin1Char('\n')));
    });
    stream->addAction(tr("Stop A&ll"), this, [this] {
        for (const auto& name : m_session.streamNames())
            m_session.stopStream(name);
    });

    auto* displays = menuBar()->addMenu(tr("&Displays"));
    displays->addAction(tr("New &Value Display"), QKeySequence(tr("Ctrl+Shift+V")), this, [this] { newDisplay(QStringLiteral("values")); });
    displays->addAction(tr("New &Plot Display"), QKeySequence(tr("Ctrl+Shift+P")), this, [this] { newDisplay(QStringLiteral("plot")); });
    displays->addAction(tr("New Packet Vie&w"), QKeySequence(tr("Ctrl+Shift+K")), this, [this] { newDisplay(QStringLiteral("packet")); });

    auto* view = menuBar()->addMenu(tr("&View"));
    view->addAction(tr("&Statistics…"), QKeySequence(tr("Ctrl+I")), this, &MainWindow::showStatistics);
    view->addSeparator();
    for (auto* dock : findChildren<QDockWidget*>())
        view->addAction(dock->toggleViewAction());

    auto* help = menuBar()->addMenu(tr("&Help"));
    help->addAction(tr("&About Telestation"), this, [this] {
        QMessageBox::about(this, tr("About Telestation"),
                           tr("<b>Telestation %1</b><p>Ground-station telemetry workstation.</p><p>Qt %2, Qwt %3</p>")
                               .arg(QLatin1String(kVersion), QLatin1String(qVersion()), QLatin1String(QWT_VERSION_STR)));
    });
}

void MainWindow::connectViews()
{
    connect(m_streams, &StreamsPanel::currentStreamChanged, m_packets, &PacketTable::setStream);
    connect(m_streams, &StreamsPanel::removeStreamRequested, this, [this](const QString& name) {
        QString error;
        if (!m_session.removeStream(name, &error))
            report(tr("Remove stream"), error);
    });
    connect(m_streams, &StreamsPanel::startStreamRequested, this, [this](const QString& name) {
        QString error;
        if (!m_session.startStream(name, &error))
            report(tr("Start stream"), error);
    });
    connect(m_streams, &StreamsPanel::stopStreamRequested, this, [this](const QString& name) {
        QString error;
        if (!m_session.stopStream(name, &error))
            report(tr("Stop stream"), error);
    });
    connect(m_browser, &MissionBrowser::parametersActivated, this, &MainWindow::addParametersToValues);
    connect(m_browser, &MissionBrowser::editLimitsRequested, this, &MainWindow::editLimits);
    m_browser->setUseMission([this](const QString& path, QString* error) { return m_session.useMission(path, error); });
    connect(m_alarmStatus, &AlarmStatusLabel::clicked, this, &MainWindow::showAlarmList);
    connect(m_alarms, &AlarmListDock::alarmsChanged, m_alarmStatus, &AlarmStatusLabel::refresh);
    connect(m_recordings, &RecordingsBrowser::playRequested, this, [this](const QString& name, const QString& url) {
        config::StreamProfile s;
        s.name = name.toStdString();
        s.source = url.toStdString();
        QString error;
        if (!m_session.addStream(s, &error))
            report(tr("Playback"), error);
    });
    connect(m_recordings, &RecordingsBrowser::exportFinished, m_status, &StatusMessage::show);
    connect(m_recordings, &RecordingsBrowser::removeStreamRequested, this, [this](const QString& name) {
        QString error;
        if (!m_session.removeStream(name, &error))
            report(tr("Playback"), error);
    });
}

void MainWindow::connectSession()
{
    connect(&m_session, &StationSession::stationAboutToChange, this, &MainWindow::stationAboutToChange);
    connect(&m_session, &StationSession::stationChanged, this, &MainWindow::stationChanged);
    connect(&m_session, &StationSession::streamsChanged, this, &MainWindow::streamsChanged);
    connect(&m_session, &StationSession::dirtyChanged, this, &MainWindow::updateTitle);
    connect(&m_session, &StationSession::profileChanged, this, &MainWindow::updateTitle);
    connect(&m_session, &StationSession::problem, m_status, &StatusMessage::show);
}

void MainWindow::stationAboutToChange()
{
    for (auto* dock : displays())
        dock->detach();
    m_streams->setStation(nullptr);
    m_packets->setStation(nullptr);
    m_recordings->setStation(nullptr);
    m_browser->setDatabase(nullptr);
}

void MainWindow::stationChanged(pipeline::Station* station)
{
    m_streams->setStation(station);
    m_packets->setStation(station);
    m_recordings->setStation(station);
    m_browser->setDatabase(m_session.database());
    for (auto* dock : displays())
        dock->attach(station);
    if (station)
        m_recordings->setRecordingDirectory(QString::fromStdString(m_session.profile().recordingDirectory));
    // The packet table shows the stream highlighted in the streams panel, which kept its choice by
    // name (or took the first stream when the new station has no stream of that name).
    m_packets->setStream(m_streams->currentStream());
    if (const auto* db = m_session.database()) {
        const QString name = db->name.empty() ? tr("(unnamed mission)") : QString::fromStdString(db->name);
        m_missionLabel->setText(tr("Mission database: %1 — %2 packet types, %3 parameters")
                                    .arg(name)
                                    .arg(db->packets.size())
                                    .arg(db->parameterCount()));
        m_missionLabel->setToolTip(m_session.databasePath());
    } else {
        m_missionLabel->setText(tr("No mission database"));
    }
    m_streamsLabel->setText(tr("%n stream(s)", nullptr, static_cast<int>(m_session.streamNames().size())));
}

// A stream added, changed or removed on the same station: the displays' stream selectors list the
// streams again, keeping their choice, and the status bar counts them.
void MainWindow::streamsChanged()
{
    // The streams panel and the packet table follow the session's streamsChanged themselves.
    for (auto* dock : displays())
        dock->refreshStreams();
    m_streamsLabel->setText(tr("%n stream(s)", nullptr, static_cast<int>(m_session.streamNames().size())));
}

QString MainWindow::missionSummary() const
{
    return m_missionLabel->text();
}

void MainWindow::updateTitle()
{
    const QString path = m_session.profilePath();
    const QString name = path.isEmpty() ? tr("Untitled profile") : QFileInfo(path).fileName();
    setWindowTitle(tr("%1[*] — Telestation").arg(name));
    setWindowModified(m_session.isDirty());
}

void MainWindow::setApiStatus(const QString& text, const QString& toolTip, bool problem)
{
    m_apiLabel->setText(text);
    m_apiLabel->setToolTip(toolTip);
    m_apiLabel->setStyleSheet(problem ? QStringLiteral("color: #c0392b;") : QString());
    m_apiLabel->show();
}

void MainWindow::report(const QString& title, const QString& text)
{
    // Not exec(): the station keeps being shown while the operator reads.
    auto* box = new QMessageBox(QMessageBox::Warning, title, text, QMessageBox::Ok, this);
    box->setObjectName(QStringLiteral("problemBox"));
    box->setAttribute(Qt::WA_DeleteOnClose);
    box->open();
    m_status->show(text);
}

// ---- Profiles ------------------------------------------------------------------------------------------

bool MainWindow::maybeSave()
{
    if (!m_session.isDirty())
        return true;
    QMessageBox box(QMessageBox::Question, tr("Unsaved changes"),
                    tr("The station profile has unsaved changes. Save them?"),
                    QMessageBox::Save | QMessageBox::Discard | QMessageBox::Cancel, this);
    box.setObjectName(QStringLiteral("unsavedPrompt"));
    box.setDefaultButton(QMessageBox::Save);
    switch (box.exec()) {
    case QMessageBox::Save:
        if (m_session.profilePath().isEmpty()) {
            const QString path = saveProfileFileName();
            return !path.isEmpty() && saveProfileAs(path);
        }
        return saveProfile();
    case QMessageBox::Discard:
        return true;
    default:
        return false;
    }
}

bool MainWindow::openProfile(const QString& path)
{
    if (!maybeSave())
        return false;
    QString error;
    const bool opened = m_session.openFile(path, &error);
    if (!error.isEmpty())
        report(tr("Open profile"), error);
    if (m_session.profilePath() == QFileInfo(path).absoluteFilePath())
        addRecent(m_session.profilePath());
    return opened;
}

bool MainWindow::newProfile()
{
    if (!maybeSave())
        return false;
    QString error;
    if (!m_session.openNew(&error)) {
        report(tr("New profile"), error);
        return false;
    }
    return true;
}

bool MainWindow::saveProfile()
{
    if (m_session.profilePath().isEmpty()) {
        const QString path = saveProfileFileName();
        return !path.isEmpty() && saveProfileAs(path);
    }
    QString error;
    if (!m_session.save(&error)) {
        report(tr("Save profile"), error);
        return false;
    }
    return true;
}

bool MainWindow::saveProfileAs(const QString& path)
{
    QString error;
    if (!m_session.saveAs(path, &error)) {
        report(tr("Save profile"), error);
        return false;
    }
    addRecent(m_session.profilePath());
    return true;
}

QString MainWindow::saveProfileFileName()
{
    const QString current = m_session.profilePath();
    return FileDialogFolder::saveFile(this, FileDialogFolder::kProfiles, tr("Save station profile"),
                                      current.isEmpty() ? QStringLiteral("profile.json") : current, kProfileFilter);
}

QStringList MainWindow::recentProfiles() const
{
    return QSettings().value(kRecentKey).toStringList();
}

void MainWindow::addRecent(const QString& path)
{
    FileDialogFolder(FileDialogFolder::kProfiles).remember(path); // Open Recent too moves the profiles folder
    QStringList recent = recentProfiles();
    recent.removeAll(path);
    recent.prepend(path);
    while (recent.size() > kMaxRecentProfiles)
        recent.removeLast();
    QSettings().setValue(kRecentKey, recent);
    updateRecentMenu();
}

void MainWindow::updateRecentMenu()
{
    m_recentMenu->clear();
    const QStringList recent = recentProfiles();
    for (int i = 0; i < recent.size(); ++i) {
        const QString path = recent[i];
        m_recentMenu->addAction(QStringLiteral("&%1 %2").arg(i + 1).arg(path), this, [this, path] { openProfile(path); });
    }
    m_recentMenu->setEnabled(!recent.isEmpty());
}

// ---- Displays ------------------------------------------------------------------------------------------

QList<DisplayDock*> MainWindow::displays() const
{
    return findChildren<DisplayDock*>(QString(), Qt::FindDirectChildrenOnly);
}

QString MainWindow::nextDisplayName() const
{
    QStringList used;
    for (const auto* d : displays())
        used << d->objectName();
    for (int n = 1;; ++n) {
        const QString name = QStringLiteral("display-%1").arg(n);
        if (!used.contains(name))
            return name;
    }
}

DisplayDock* MainWindow::openDisplay(QJsonObject spec)
{
    QString name = spec.value(kDockNameKey).toString();
    for (const auto* d : displays())
        if (d->objectName() == name)
            name.clear();
    if (name.isEmpty())
        name = nextDisplayName();
    spec.remove(kDockNameKey);
    auto* dock = new DisplayDock(spec, m_session.station(), m_session.snapshots(), this);
    dock->setObjectName(name);
    addDockWidget(Qt::RightDockWidgetArea, dock);
    connect(dock, &DisplayDock::showAlarmRequested, this, &MainWindow::showAlarm);
    connect(dock, &DisplayDock::editLimitsRequested, this, &MainWindow::editLimits);
    if (auto* values = qobject_cast<ValueDisplay*>(dock->display()))
        m_lastValues = values;
    if (!dock->problems().isEmpty())
        m_status->show(tr("%1: %2").arg(dock->title(), dock->problems().join(QStringLiteral("; "))));
    return dock;
}

DisplayDock* MainWindow::newDisplay(const QString& type)
{
    QJsonObject spec{{QStringLiteral("type"), type}};
    if (type == QLatin1String("packet")) {
        const config::StationProfile& profile = m_session.profile();
        const auto* db = m_session.database();
        if (profile.streams.empty() || !db || db->packets.empty()) {
            report(tr("Packet view"), tr("A packet view needs a stream and a mission database with packets."));
            return nullptr;
        }
        spec.insert(QStringLiteral("stream"), QString::fromStdString(profile.streams.front().name));
        spec.insert(QStringLiteral("packet"), QString::fromStdString(db->packets.front().name));
    }
    auto* dock = openDisplay(spec);
    dock->show();
    dock->raise();
    return dock;
}

void MainWindow::addParametersToValues(const QStringList& names)
{
    if (!m_lastValues) {
        auto* dock = newDisplay(QStringLiteral("values"));
        m_lastValues = dock ? qobject_cast<ValueDisplay*>(dock->display()) : nullptr;
    }
    if (!m_lastValues)
        return;
    for (const auto& name : names)
        m_lastValues->addParameter(name);
}

bool MainWindow::openDisplayFile(const QString& path, QString* error)
{
    const auto specs = loadDisplayFile(path, error);
    if (!specs)
        return false;
    for (const auto& spec : *specs)
        openDisplay(spec);
    return true;
}

bool MainWindow::saveDisplayFile(const QString& path, QString* error) const
{
    QList<QJsonObject> specs;
    for (const auto* d : displays())
        specs.append(d->spec());
    return ui::saveDisplayFile(path, specs, error);
}

// ---- Layout ----------------------------------------------------------------------------------------------

bool MainWindow::fitsScreen(const QRect& frame)
{
    if (!frame.isValid())
        return false;
    const QScreen* screen = QGuiApplication::screenAt(frame.center());
    return screen && screen->availableGeometry().contains(frame);
}

// The first start's place: the whole available area of the window's screen; below a comfortable size,
// maximised. The window manager's frame is not known before the window is shown: the frame's corner goes
// to the area's corner (move() places the frame), the size allows for a guessed frame, and
// fitFrameToScreen() takes the rest of the area once the real frame is there.
void MainWindow::placeOnScreen()
{
    const QScreen* s = screen() ? screen() : QGuiApplication::primaryScreen();
    if (!s)
        return;
    const QRect available = s->availableGeometry();
    if (available.width() < kComfortableScreen.width() || available.height() < kComfortableScreen.height()) {
        m_fitFramePending = false;
        setGeometry(available);
        setWindowState(windowState() | Qt::WindowMaximized);
        return;
    }
    m_fitFramePending = true;
    resize(available.size().shrunkBy(kFrameGuess));
    move(available.topLeft());
}

// Once the window manager has framed the first-start window, its frame takes exactly the screen's
// available area: a frame larger than guessed would stick out (cut off at the bottom), a smaller one
// would leave a gap. Without a window manager (no frame) the guess stays.
void MainWindow::fitFrameToScreen()
{
    if (!m_fitFramePending || !isVisible())
        return;
    if (windowState() & (Qt::WindowMaximized | Qt::WindowFullScreen)) {
        m_fitFramePending = false;
        return;
    }
    const QRect frame = frameGeometry();
    const QRect inside = geometry();
    const QMargins margins(inside.left() - frame.left(), inside.top() - frame.top(), frame.right() - inside.right(),
                           frame.bottom() - inside.bottom());
    const QScreen* s = screen();
    if (!s || margins.isNull())
        return; // not framed (yet)
    m_fitFramePending = false;
    const QRect wanted = s->availableGeometry().marginsRemoved(margins);
    if (wanted != inside)
        setGeometry(wanted);
}

void MainWindow::moveEvent(QMoveEvent* event)
{
    QMainWindow::moveEvent(event);
    fitFrameToScreen(); // a window manager's frame arrives as a move of the window inside it
}

void MainWindow::resizeEvent(QResizeEvent* event)
{
    QMainWindow::resizeEvent(event);
    fitFrameToScreen();
}

// Which layout the window opened with, and why: the first thing to look at when an operator says the
// window came up cut off or not as they left it.
void MainWindow::logLayoutChoice(const QRect& savedFrame, bool fits, bool geometryRestored, bool stateRestored) const
{
    const auto text = [](const QRect& r) {
        return QStringLiteral("%1x%2 at %3,%4").arg(r.width()).arg(r.height()).arg(r.x()).arg(r.y()).toStdString();
    };
    const QScreen* s = screen() ? screen() : QGuiApplication::primaryScreen();
    const std::string available = s ? text(s->availableGeometry()) : std::string("no screen");
    const char* const maximised = (windowState() & Qt::WindowMaximized) ? ", maximised" : "";
    if (geometryRestored)
        spdlog::info("window: the last session's layout ({}; screen {})", text(savedFrame), available);
    else if (stateRestored)
        spdlog::info("window: the last session's docks; its window ({}) was for a screen of another size: the screen's "
                     "available {}{}", text(savedFrame), available, maximised);
    else if (!savedFrame.isValid())
        spdlog::info("window: first-start layout on the screen's available {}{}", available, maximised);
    else if (!fits)
        spdlog::info("window: the last session's layout ({}) does not fit the screen's available {}; first-start layout{}",
                     text(savedFrame), available, maximised);
    else
        spdlog::warn("window: the last session's dock layout could not be read; first-start layout on {}{}", available, maximised);
}

void MainWindow::saveLayout() const
{
    QSettings settings;
    // A maximised window's frame may reach past the screen's edges (borders drawn outside): the area it
    // fills stands for it.
    const bool maximised = isMaximized() || isFullScreen();
    settings.setValue(kFrameKey, maximised && screen() ? screen()->availableGeometry() : frameGeometry());
    settings.setValue(kGeometryKey, saveGeometry());
    settings.setValue(kStateKey, saveState());
    settings.setValue(kSplitterKey, m_splitter->saveState());
    QJsonArray open;
    for (const auto* d : displays()) {
        QJsonObject spec = d->spec();
        spec.insert(kDockNameKey, d->objectName());
        open.append(spec);
    }
    settings.setValue(kDisplaysKey, QString::fromUtf8(QJsonDocument(open).toJson(QJsonDocument::Compact)));
}

void MainWindow::restoreLayout(const std::optional<QList<QJsonObject>>& displaysToOpen)
{
    QSettings settings;
    QList<QJsonObject> specs;
    if (displaysToOpen) {
        specs = *displaysToOpen;
    } else {
        for (const auto& v : QJsonDocument::fromJson(settings.value(kDisplaysKey).toString().toUtf8()).array())
            specs.append(v.toObject());
    }
    for (const auto& spec : specs)
        openDisplay(spec);
    // The last session's layout only when its frame fits a screen as it is now (a layout saved on a
    // larger screen, or on a monitor since unplugged, would open cut off).
    const QRect savedFrame = settings.value(kFrameKey).toRect();
    const bool fits = fitsScreen(savedFrame);
    bool restored = false;
    bool geometryRestored = false;
    if (fits) {
        // Qt declines a geometry saved on a screen of another width (by more than a quarter): the window
        // then keeps the first start's place, with the saved docks.
        geometryRestored = restoreGeometry(settings.value(kGeometryKey).toByteArray());
        restored = restoreState(settings.value(kStateKey).toByteArray());
        m_splitter->restoreState(settings.value(kSplitterKey).toByteArray());
    }
    if (!restored)
        placeOnScreen();
    else if (geometryRestored)
        m_fitFramePending = false; // the saved frame stands as it was
    logLayoutChoice(savedFrame, fits, restored && geometryRestored, restored);
    if (!restored) {
        // First start: displays take most of the width, the mission database a sixth (its tree would
        // otherwise ask for room its columns do not need), the streams and packet tables the rest.
        // Sized once the window is shown and laid out: before that, the dock areas have no size to share.
        QTimer::singleShot(0, this, [this] { fitFrameToScreen(); });
        arrangeDisplays();
        QTimer::singleShot(0, this, [this] {
            if (auto* browser = findChild<QDockWidget*>(QStringLiteral("missionDock")))
                resizeDocks({browser}, {width() / 6}, Qt::Horizontal);
            // The event log and alarms below: a little over a fifth of the height (five rows at 1080 px,
            // two at 768, where the displays need the height more; the splitter gives the log more).
            resizeDocks({m_eventLog}, {std::max(170, height() * 22 / 100)}, Qt::Vertical);
        });
    }
}

void MainWindow::openDisplays(const QList<QJsonObject>& specs)
{
    for (const auto& spec : specs)
        openDisplay(spec);
    arrangeDisplays();
}

void MainWindow::arrangeDisplays()
{
    // A packet view needs less room than a table of values: it shares the first value display's place
    // as a tab (values in front), so that the values and the plots have the height.
    DisplayDock* firstValues = nullptr;
    for (auto* d : displays())
        if (!firstValues && d->spec().value(QStringLiteral("type")).toString() == QLatin1String("values"))
            firstValues = d;
    if (firstValues) {
        for (auto* d : displays())
            if (d->spec().value(QStringLiteral("type")).toString() == QLatin1String("packet"))
                tabifyDockWidget(firstValues, d);
        firstValues->raise();
    }
    // Sized once laid out (the window shown): the displays take about half the width, a plot a third
    // more height than a table.
    QTimer::singleShot(0, this, [this] {
        QList<QDockWidget*> right;
        QList<int> widths, heights;
        int totalHeight = 0, totalWeight = 0;
        for (auto* d : displays()) {
            right << d;
            widths << width() * 48 / 100;
            const QString type = d->spec().value(QStringLiteral("type")).toString();
            heights << (type == QLatin1String("plot") ? 4 : 3);
            totalWeight += heights.back();
            totalHeight += d->height();
        }
        for (int& h : heights) // pixels: the docks' present height shared by weight
            h = totalHeight * h / std::max(totalWeight, 1);
        if (!right.isEmpty()) {
            resizeDocks(right, widths, Qt::Horizontal);
            resizeDocks(right, heights, Qt::Vertical);
        }
    });
}

StatisticsDialog* MainWindow::statisticsDialog()
{
    if (!m_statistics) {
        m_statistics = new StatisticsDialog(m_session.snapshots(), this);
        m_statistics->setObjectName(QStringLiteral("statisticsDialog"));
    }
    return m_statistics;
}

void MainWindow::showStatistics()
{
    auto* dialog = statisticsDialog();
    dialog->show();
    dialog->raise();
    dialog->activateWindow();
}

void MainWindow::showAlarmList()
{
    m_alarms->show();
    m_alarms->raise();
}

bool MainWindow::showAlarm(const QString& stream, const QString& parameter)
{
    showAlarmList();
    return m_alarms->showParameterAlarm(stream, parameter);
}

LimitEditDialog* MainWindow::editLimits(const QString& parameter)
{
    QString error;
    auto* dialog = LimitEditDialog::openFor(m_session, parameter, this, &error);
    if (!dialog)
        report(tr("Edit limits"), error);
    return dialog;
}

void MainWindow::closeEvent(QCloseEvent* event)
{
    if (!maybeSave()) {
        event->ignore();
        return;
    }
    saveLayout();
    event->accept();
}

} // namespace telestation::ui
