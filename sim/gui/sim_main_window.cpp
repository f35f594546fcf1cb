#include "sim/gui/sim_main_window.hpp"

#include "core/common/paths.hpp"
#include "sim/engine/simulator.hpp"
#include "sim/gui/gui_text.hpp"
#include "sim/gui/link_test_window.hpp"
#include "sim/gui/rate_plot.hpp"
#include "sim/gui/stream_dialog.hpp"
#include "sim/gui/stream_panel.hpp"
#include "sim/gui/stream_table_model.hpp"
#include "telestation_version.hpp"
#include "ui/dialogs/file_dialog_folder.hpp"

#include <QAction>
#include <QCloseEvent>
#include <QDir>
#include <QFileInfo>
#include <QGuiApplication>
#include <QHeaderView>
#include <QLabel>
#include <QMenuBar>
#include <QMessageBox>
#include <QPainter>
#include <QPixmap>
#include <QScreen>
#include <QScrollArea>
#include <QShortcut>
#include <QSplitter>
#include <QStatusBar>
#include <QStyle>
#include <QTableView>
#include <QTimer>
#include <QToolBar>

#include <algorithm>
#include <set>

namespace telestation::sim::gui {

namespace {

// The styles have no "add" icon: a plus, drawn.
QIcon plusIcon()
{
    QPixmap pixmap(32, 32);
    pixmap.fill(Qt::transparent);
    QPainter painter(&pixmap);
    painter.setRenderHint(QPainter::Antialiasing);
    painter.setPen(Qt::NoPen);
    painter.setBrush(QColor(0x2e, 0xa0, 0x43));
    painter.drawRoundedRect(QRectF(13, 4, 6, 24), 2, 2);
    painter.drawRoundedRect(QRectF(4, 13, 24, 6), 2, 2);
    return QIcon(pixmap);
}

} // namespace

SimMainWindow::SimMainWindow(std::unique_ptr<Simulator> simulator, QString fallbackMdbPath, QWidget* parent)
    : QMainWindow(parent), m_simulator(std::move(simulator)), m_fallbackMdbPath(std::move(fallbackMdbPath))
{
    Q_ASSERT(m_simulator);
    setObjectName(QStringLiteral("SimMainWindow"));
    m_clock.start();

    m_refreshTimer = new QTimer(this);
    m_refreshTimer->setObjectName(QStringLiteral("refreshTimer"));
    m_refreshTimer->setInterval(kRefreshMs);
    connect(m_refreshTimer, &QTimer::timeout, this, &SimMainWindow::refresh);

    createActions();
    createMenus();
    createLayout();
    streamsChanged(m_simulator->streams().empty() ? -1 : 0);
    updateTitle();
    // Room for the table, the chart and the stream's controls, within the screen (less a window
    // manager's frame): on a 1366×768 screen the whole window is in sight.
    QSize size(1320, 860);
    if (const QScreen* s = screen() ? screen() : QGuiApplication::primaryScreen())
        size = size.boundedTo(s->availableGeometry().size() - QSize(16, 40));
    resize(size);

    // Screenshot and demonstration hook (docs/images/simulator.png): start every stream as soon as the
    // window runs. Not an operator feature, hence an environment variable rather than an option.
    if (qEnvironmentVariableIntValue("TELESTATION_SIM_START_ALL") == 1)
        QTimer::singleShot(0, this, &SimMainWindow::startAll);
}

SimMainWindow::~SimMainWindow()
{
    m_refreshTimer->stop();
    // The views and the model point into the simulator: they go before it does, and tell this
    // half-destroyed window nothing on their way.
    QObject::disconnect(m_table->selectionModel(), nullptr, this, nullptr);
    QObject::disconnect(m_panel, nullptr, this, nullptr);
    m_panel->setStream(nullptr, nullptr);
    m_simulator->stopAll();
    m_model->setSimulator(nullptr);
    delete takeCentralWidget();
    delete m_model;
}

// --- construction -----------------------------------------------------------------------------

void SimMainWindow::createActions()
{
    auto action = [this](const QString& objectName, const QString& text, const QString& tip) {
        auto* a = new QAction(text, this);
        a->setObjectName(objectName);
        a->setToolTip(tip);
        a->setStatusTip(tip);
        return a;
    };
    m_addAction = action(QStringLiteral("addStreamAction"), tr("&Add stream…"), tr("Add a stream to the scenario"));
    m_addAction->setShortcut(QKeySequence::New);
    m_addAction->setIcon(plusIcon());
    m_editAction = action(QStringLiteral("editStreamAction"), tr("&Edit…"),
                          tr("Change the selected stream: destination, packet mix, rate, length (a running stream restarts)"));
    m_editAction->setIcon(style()->standardIcon(QStyle::SP_FileDialogDetailedView));
    m_removeAction = action(QStringLiteral("removeStreamAction"), tr("&Remove"), tr("Stop and remove the selected streams"));
    m_removeAction->setIcon(style()->standardIcon(QStyle::SP_TrashIcon));
    m_startAction = action(QStringLiteral("startStreamAction"), tr("&Start"), tr("Start the selected streams"));
    m_startAction->setIcon(style()->standardIcon(QStyle::SP_MediaPlay));
    m_stopAction = action(QStringLiteral("stopStreamAction"), tr("S&top"), tr("Stop the selected streams"));
    m_stopAction->setIcon(style()->standardIcon(QStyle::SP_MediaStop));
    m_startAllAction = action(QStringLiteral("startAllAction"), tr("Start a&ll"), tr("Start every stream"));
    m_startAllAction->setIcon(style()->standardIcon(QStyle::SP_MediaSeekForward));
    m_stopAllAction = action(QStringLiteral("stopAllAction"), tr("Stop all"), tr("Stop every stream"));
    m_stopAllAction->setIcon(style()->standardIcon(QStyle::SP_BrowserStop));
    m_openAction = action(QStringLiteral("openScenarioAction"), tr("&Open scenario…"),
                          tr("Replace the streams with a scenario's (JSON)"));
    m_openAction->setShortcut(QKeySequence::Open);
    m_saveAction = action(QStringLiteral("saveScenarioAction"), tr("&Save scenario as…"),
                          tr("Write the streams, with their current rates and faults, as a scenario (JSON)"));
    m_saveAction->setShortcut(QKeySequence::SaveAs);
    m_quitAction = action(QStringLiteral("quitAction"), tr("&Quit"), tr("Stop every stream and quit"));
    m_quitAction->setShortcut(QKeySequence::Quit);
    m_aboutAction = action(QStringLiteral("aboutAction"), tr("&About the simulator"), tr("Version and libraries"));
    m_linkTestAction = action(QStringLiteral("linkTestAction"), tr("&Link test…"),
                              tr("Measure the network to a station or another simulator: message rate, UDP gaps, TCP flows, "
                                 "block sizes, telemetry through the station"));

    connect(m_addAction, &QAction::triggered, this, &SimMainWindow::addStream);
    connect(m_editAction, &QAction::triggered, this, &SimMainWindow::editStream);
    connect(m_removeAction, &QAction::triggered, this, &SimMainWindow::removeStreams);
    connect(m_startAction, &QAction::triggered, this, &SimMainWindow::startSelected);
    connect(m_stopAction, &QAction::triggered, this, &SimMainWindow::stopSelected);
    connect(m_startAllAction, &QAction::triggered, this, &SimMainWindow::startAll);
    connect(m_stopAllAction, &QAction::triggered, this, &SimMainWindow::stopAll);
    connect(m_openAction, &QAction::triggered, this, &SimMainWindow::openScenarioInteractively);
    connect(m_saveAction, &QAction::triggered, this, &SimMainWindow::saveScenarioInteractively);
    connect(m_quitAction, &QAction::triggered, this, &QWidget::close);
    connect(m_aboutAction, &QAction::triggered, this, &SimMainWindow::showAbout);
    connect(m_linkTestAction, &QAction::triggered, this, &SimMainWindow::showLinkTest);
}

void SimMainWindow::createMenus()
{
    auto* file = menuBar()->addMenu(tr("&File"));
    file->addAction(m_openAction);
    file->addAction(m_saveAction);
    file->addSeparator();
    file->addAction(m_quitAction);
    auto* streams = menuBar()->addMenu(tr("&Streams"));
    streams->addAction(m_addAction);
    streams->addAction(m_editAction);
    streams->addAction(m_removeAction);
    streams->addSeparator();
    streams->addAction(m_startAction);
    streams->addAction(m_stopAction);
    streams->addSeparator();
    streams->addAction(m_startAllAction);
    streams->addAction(m_stopAllAction);
    auto* tools = menuBar()->addMenu(tr("&Tools"));
    tools->addAction(m_linkTestAction);
    auto* help = menuBar()->addMenu(tr("&Help"));
    help->addAction(m_aboutAction);

    auto* toolBar = addToolBar(tr("Streams"));
    toolBar->setObjectName(QStringLiteral("streamToolBar"));
    toolBar->setMovable(false);
    toolBar->setToolButtonStyle(Qt::ToolButtonTextBesideIcon);
    toolBar->addAction(m_addAction);
    toolBar->addAction(m_editAction);
    toolBar->addAction(m_removeAction);
    toolBar->addSeparator();
    toolBar->addAction(m_startAction);
    toolBar->addAction(m_stopAction);
    toolBar->addSeparator();
    toolBar->addAction(m_startAllAction);
    toolBar->addAction(m_stopAllAction);
}

void SimMainWindow::createLayout()
{
    m_model = new StreamTableModel(this);
    m_model->setObjectName(QStringLiteral("streamModel"));
    m_model->setSimulator(m_simulator.get());

    m_table = new QTableView;
    m_table->setObjectName(QStringLiteral("streamTable"));
    m_table->setModel(m_model);
    m_table->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_table->setSelectionMode(QAbstractItemView::ExtendedSelection);
    m_table->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_table->setAlternatingRowColors(true);
    m_table->setWordWrap(false);
    m_table->setTextElideMode(Qt::ElideMiddle);
    m_table->verticalHeader()->hide();
    m_table->verticalHeader()->setDefaultSectionSize(m_table->fontMetrics().height() + 10);
    m_table->horizontalHeader()->setStretchLastSection(true);
    m_table->horizontalHeader()->setHighlightSections(false);
    m_table->setContextMenuPolicy(Qt::ActionsContextMenu);
    for (QAction* a : {m_editAction, m_removeAction, m_startAction, m_stopAction})
        m_table->addAction(a);
    connect(m_table, &QTableView::doubleClicked, this, &SimMainWindow::editStream);
    connect(m_table->selectionModel(), &QItemSelectionModel::currentRowChanged, this, &SimMainWindow::showSelectedStream);
    connect(m_table->selectionModel(), &QItemSelectionModel::selectionChanged, this, &SimMainWindow::updateActions);
    // Delete removes streams only when the table has the focus (not while typing a rate).
    auto* remove = new QShortcut(QKeySequence::Delete, m_table, nullptr, nullptr, Qt::WidgetShortcut);
    connect(remove, &QShortcut::activated, this, &SimMainWindow::removeStreams);

    m_panel = new StreamPanel;
    m_panel->setObjectName(QStringLiteral("streamPanel"));
    connect(m_panel, &StreamPanel::streamEdited, this, [this] { m_model->refresh(); });
    auto* panelScroll = new QScrollArea;
    panelScroll->setObjectName(QStringLiteral("streamPanelScroll"));
    panelScroll->setWidget(m_panel);
    panelScroll->setWidgetResizable(true);
    panelScroll->setFrameShape(QFrame::NoFrame);
    panelScroll->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    panelScroll->setMinimumWidth(std::max(390, m_panel->sizeHint().width() + 24)); // packet names fit

    m_plot = new RatePlot;

    // The streams above their rate chart; the selected stream's controls beside both, full height.
    auto* left = new QSplitter(Qt::Vertical);
    left->setObjectName(QStringLiteral("streamSplitter"));
    left->addWidget(m_table);
    left->addWidget(m_plot);
    left->setStretchFactor(0, 1);
    left->setStretchFactor(1, 1);
    left->setCollapsible(0, false);
    left->setSizes({300, 480}); // a few streams; the chart gets the room
    auto* central = new QSplitter(Qt::Horizontal);
    central->setObjectName(QStringLiteral("mainSplitter"));
    central->addWidget(left);
    central->addWidget(panelScroll);
    central->setStretchFactor(0, 1);
    central->setStretchFactor(1, 0);
    central->setCollapsible(0, false);
    setCentralWidget(central);

    m_totalsLabel = new QLabel(this);
    m_totalsLabel->setObjectName(QStringLiteral("totalsLabel"));
    m_databaseLabel = new QLabel(this);
    m_databaseLabel->setObjectName(QStringLiteral("databaseLabel"));
    statusBar()->addWidget(m_totalsLabel, 1);
    statusBar()->addPermanentWidget(m_databaseLabel);
}

// --- polling -----------------------------------------------------------------------------------

void SimMainWindow::showEvent(QShowEvent* event)
{
    QMainWindow::showEvent(event);
    setPolling(!isMinimized());
}

void SimMainWindow::hideEvent(QHideEvent* event)
{
    QMainWindow::hideEvent(event);
    setPolling(false);
}

void SimMainWindow::changeEvent(QEvent* event)
{
    QMainWindow::changeEvent(event);
    if (event->type() == QEvent::WindowStateChange)
        setPolling(isVisible() && !isMinimized());
}

void SimMainWindow::closeEvent(QCloseEvent* event)
{
    // A closed simulator window sends nothing (the streams would otherwise run on unseen).
    setPolling(false);
    m_simulator->stopAll();
    event->accept();
}

void SimMainWindow::setPolling(bool on)
{
    if (on == m_refreshTimer->isActive())
        return;
    if (!on) {
        m_refreshTimer->stop();
        return;
    }
    // The counters' history is stale after a pause: rates start again from now.
    m_model->clearRateWindows();
    m_refreshTimer->start();
    refresh();
}

void SimMainWindow::refresh()
{
    m_model->refresh();
    std::vector<RatePlot::StreamRate> rates;
    rates.reserve(static_cast<std::size_t>(m_model->rowCount()));
    const auto& streams = m_simulator->streams();
    for (int row = 0; row < m_model->rowCount() && static_cast<std::size_t>(row) < streams.size(); ++row)
        rates.push_back({QString::fromStdString(streams[static_cast<std::size_t>(row)]->config().name),
                         m_model->achievedBitsPerSecond(row)});
    m_plot->addSample(double(m_clock.elapsed()) / 1000.0, rates);
    m_panel->refresh();
    updateActions();
    updateStatus();
}

void SimMainWindow::updateActions()
{
    const auto& streams = m_simulator->streams();
    const std::vector<std::size_t> selected = selectedRows();
    bool anySelectedRunning = false;
    bool anySelectedStopped = false;
    for (std::size_t row : selected) {
        const bool running = streams[row]->running();
        anySelectedRunning = anySelectedRunning || running;
        anySelectedStopped = anySelectedStopped || !running;
    }
    bool anyStopped = false;
    for (const auto& s : streams)
        anyStopped = anyStopped || !s->running();
    m_editAction->setEnabled(currentRow() >= 0);
    m_removeAction->setEnabled(!selected.empty());
    m_startAction->setEnabled(anySelectedStopped);
    m_stopAction->setEnabled(anySelectedRunning);
    m_startAllAction->setEnabled(anyStopped);
    m_stopAllAction->setEnabled(m_simulator->anyRunning());
    m_saveAction->setEnabled(!streams.empty());
}

void SimMainWindow::updateStatus()
{
    const auto& streams = m_simulator->streams();
    std::size_t running = 0;
    for (const auto& s : streams)
        running += s->running() ? 1 : 0;
    double pps = 0;
    double bps = 0;
    for (int row = 0; row < m_model->rowCount(); ++row) {
        pps += m_model->achievedPacketsPerSecond(row);
        bps += m_model->achievedBitsPerSecond(row);
    }
    if (streams.empty())
        m_totalsLabel->setText(tr("No streams: Add stream… or File › Open scenario…"));
    else
        m_totalsLabel->setText(tr("%1 of %2 streams running — %3 packets/s, %4 Mbit/s")
                                   .arg(running)
                                   .arg(streams.size())
                                   .arg(formatPacketRate(pps), formatMegabits(bps)));
}

void SimMainWindow::updateDatabaseLabel()
{
    const auto& db = m_simulator->database();
    const std::string mdbPath = m_simulator->scenario().mdb;
    const QString path = mdbPath.empty() ? m_fallbackMdbPath : QString::fromStdString(mdbPath);
    m_databaseLabel->setText(tr("Mission database: %1 (%2 packet types)")
                                 .arg(db.name.empty() ? QFileInfo(path).fileName() : QString::fromStdString(db.name))
                                 .arg(db.packets.size()));
    m_databaseLabel->setToolTip(path);
}

void SimMainWindow::updateTitle()
{
    const QString app = tr("Telestation training simulator");
    setWindowTitle(m_scenarioPath.isEmpty() ? app : QStringLiteral("%1 — %2").arg(QFileInfo(m_scenarioPath).fileName(), app));
}

// --- selection ---------------------------------------------------------------------------------

std::vector<std::size_t> SimMainWindow::selectedRows() const
{
    std::set<std::size_t> rows;
    const std::size_t count = m_simulator->streams().size();
    for (const QModelIndex& index : m_table->selectionModel()->selectedRows())
        if (index.row() >= 0 && static_cast<std::size_t>(index.row()) < count)
            rows.insert(static_cast<std::size_t>(index.row()));
    return {rows.begin(), rows.end()};
}

int SimMainWindow::currentRow() const
{
    const QModelIndex current = m_table->selectionModel()->currentIndex();
    if (!current.isValid() || static_cast<std::size_t>(current.row()) >= m_simulator->streams().size())
        return -1;
    return current.row();
}

QStringList SimMainWindow::streamNames(int exceptRow) const
{
    QStringList names;
    const auto& streams = m_simulator->streams();
    for (std::size_t i = 0; i < streams.size(); ++i)
        if (static_cast<int>(i) != exceptRow)
            names << QString::fromStdString(streams[i]->config().name);
    return names;
}

void SimMainWindow::showSelectedStream()
{
    const int row = currentRow();
    m_panel->setStream(row >= 0 ? m_simulator->streams()[static_cast<std::size_t>(row)].get() : nullptr,
                       &m_simulator->database());
    updateActions();
}

void SimMainWindow::streamsChanged(int selectRow)
{
    m_model->reload();
    // Widths from the contents once per change of streams, not per refresh (numbers would jitter).
    m_table->resizeColumnsToContents();
    const QFontMetrics metrics(m_table->font());
    const auto atLeast = [this, &metrics](int column, const QString& sample) {
        const int width = metrics.horizontalAdvance(sample) + 24;
        if (m_table->columnWidth(column) < width)
            m_table->setColumnWidth(column, width);
    };
    atLeast(StreamTableModel::Name, QStringLiteral("stream00"));
    atLeast(StreamTableModel::Destination, QStringLiteral("udp://127.0.0.1:50000"));
    atLeast(StreamTableModel::State, QStringLiteral("connecting…    "));
    atLeast(StreamTableModel::Sent, QStringLiteral("000,000,000"));
    atLeast(StreamTableModel::PacketsPerSecond, QStringLiteral("000,000"));
    atLeast(StreamTableModel::MegabitsPerSecond, QStringLiteral("0000.0"));
    atLeast(StreamTableModel::NotSent, QStringLiteral("Not sent"));

    const int rows = m_model->rowCount();
    if (rows > 0) {
        const int row = std::clamp(selectRow, 0, rows - 1);
        m_table->selectionModel()->setCurrentIndex(m_model->index(row, 0),
                                                   QItemSelectionModel::ClearAndSelect | QItemSelectionModel::Rows);
    }
    showSelectedStream();
    updateActions();
    updateStatus();
    updateDatabaseLabel();
}

// --- stream actions ----------------------------------------------------------------------------

void SimMainWindow::addStream()
{
    auto* dialog = new StreamDialog(m_simulator->database(), streamNames(-1), this);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    dialog->setWindowTitle(tr("Add stream"));
    StreamConfig config = dialog->config();
    const QStringList taken = streamNames(-1);
    for (int n = static_cast<int>(taken.size()) + 1;; ++n) {
        const QString name = QStringLiteral("stream%1").arg(n);
        if (!taken.contains(name)) {
            config.name = name.toStdString();
            break;
        }
    }
    dialog->setConfig(config);
    dialog->setAcceptor([this](const StreamConfig& accepted) -> QString {
        if (auto added = m_simulator->addStream(accepted); !added)
            return QString::fromStdString(added.error().toString());
        streamsChanged(static_cast<int>(m_simulator->streams().size()) - 1);
        return {};
    });
    dialog->open();
}

void SimMainWindow::editStream()
{
    const int row = currentRow();
    if (row < 0)
        return;
    const SimStream* stream = m_simulator->streams()[static_cast<std::size_t>(row)].get();
    auto* dialog = new StreamDialog(m_simulator->database(), streamNames(row), this);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    dialog->setWindowTitle(tr("Edit stream %1").arg(QString::fromStdString(stream->config().name)));
    dialog->setConfig(stream->config());
    dialog->setAcceptor([this, stream](const StreamConfig& accepted) -> QString {
        // Found again by identity: the streams may have changed while the dialog was open.
        const auto& streams = m_simulator->streams();
        const auto it = std::find_if(streams.begin(), streams.end(), [stream](const auto& s) { return s.get() == stream; });
        if (it == streams.end())
            return tr("The stream is gone (it was removed or another scenario was opened)");
        return replaceStream(static_cast<std::size_t>(it - streams.begin()), accepted);
    });
    dialog->open();
}

QString SimMainWindow::replaceStream(std::size_t index, const StreamConfig& config)
{
    auto& streams = m_simulator->streams();
    if (index >= streams.size())
        return tr("No stream %1").arg(index + 1);
    const bool wasRunning = streams[index]->running();
    const StreamConfig previous = streams[index]->config();
    m_panel->setStream(nullptr, nullptr);
    // The old stream goes first: the new one may bind the same port (tcp-listen).
    m_simulator->removeStream(index);
    QString error;
    if (auto added = m_simulator->addStream(config); !added) {
        error = QString::fromStdString(added.error().toString());
        if (auto restored = m_simulator->addStream(previous); !restored)
            error += tr("\nThe previous stream could not be restored either: %1")
                         .arg(QString::fromStdString(restored.error().toString()));
    }
    if (streams.size() > index) {
        // addStream appends: move the stream back to its row.
        std::rotate(streams.begin() + static_cast<std::ptrdiff_t>(index), std::prev(streams.end()), streams.end());
        if (wasRunning)
            streams[index]->start();
    }
    streamsChanged(static_cast<int>(index));
    return error;
}

void SimMainWindow::removeStreams()
{
    const std::vector<std::size_t> rows = selectedRows();
    if (rows.empty())
        return;
    m_panel->setStream(nullptr, nullptr);
    for (auto it = rows.rbegin(); it != rows.rend(); ++it)
        m_simulator->removeStream(*it);
    streamsChanged(static_cast<int>(rows.front()));
}

void SimMainWindow::startSelected()
{
    for (std::size_t row : selectedRows())
        m_simulator->streams()[row]->start();
    refresh();
}

void SimMainWindow::stopSelected()
{
    for (std::size_t row : selectedRows())
        m_simulator->streams()[row]->stop();
    refresh();
}

void SimMainWindow::startAll()
{
    for (auto& stream : m_simulator->streams())
        if (!stream->running())
            stream->start();
    refresh();
}

void SimMainWindow::stopAll()
{
    m_simulator->stopAll();
    refresh();
}

// --- scenarios ---------------------------------------------------------------------------------

QString SimMainWindow::exampleScenarioPath()
{
    return QString::fromStdString((dataDir() / "scenarios" / "demo.json").string());
}

QString SimMainWindow::openExample()
{
    return openScenario(exampleScenarioPath()); // opening starts nothing
}

QString SimMainWindow::openScenario(const QString& path)
{
    auto loaded = loadScenarioFile(path.toStdString());
    if (!loaded)
        return QString::fromStdString(loaded.error().toString());
    const Scenario scenario = std::move(loaded).value(); // its mdb path is resolved against the file's folder

    // The current streams go first, so that the scenario's may bind the same ports.
    const Scenario previous = m_simulator->scenario();
    m_panel->setStream(nullptr, nullptr);
    m_simulator->stopAll();
    m_simulator->streams().clear();
    m_model->reload();
    auto created = Simulator::fromScenario(scenario, m_fallbackMdbPath.toStdString());
    if (!created) {
        QString error = QString::fromStdString(created.error().toString());
        for (const StreamConfig& config : previous.streams)
            if (auto restored = m_simulator->addStream(config); !restored)
                error += tr("\nStream %1 could not be restored: %2")
                             .arg(QString::fromStdString(config.name), QString::fromStdString(restored.error().toString()));
        streamsChanged(0);
        return error;
    }
    m_simulator = std::move(created).value();
    m_model->setSimulator(m_simulator.get());
    m_plot->clearHistory();
    m_scenarioPath = path;
    updateTitle();
    streamsChanged(0);
    statusBar()->showMessage(tr("Opened %1").arg(QDir::toNativeSeparators(path)), 5000);
    return {};
}

QString SimMainWindow::saveScenario(const QString& path)
{
    if (auto saved = saveScenarioFile(m_simulator->scenario(), path.toStdString()); !saved)
        return QString::fromStdString(saved.error().toString());
    m_scenarioPath = path;
    updateTitle();
    statusBar()->showMessage(tr("Saved %1").arg(QDir::toNativeSeparators(path)), 5000);
    return {};
}

void SimMainWindow::openScenarioInteractively()
{
    // Starts where the open scenario is (the installed examples at first), else the folder last used.
    const QString path = ui::FileDialogFolder::openFile(this, kScenarioFolder, tr("Open scenario"),
                                                        tr("Scenarios (*.json);;All files (*)"), m_scenarioPath);
    if (path.isEmpty())
        return;
    if (const QString error = openScenario(path); !error.isEmpty())
        QMessageBox::warning(this, tr("Open scenario"), tr("Cannot open %1:\n\n%2").arg(QDir::toNativeSeparators(path), error));
}

QString SimMainWindow::saveSuggestion() const
{
    // The scenario's own file, unless it is the installed example or cannot be written: then its name
    // in the folder last used (or home), never the installation or the working directory.
    const QFileInfo current(m_scenarioPath);
    const bool ownFile = !m_scenarioPath.isEmpty() && current.absoluteFilePath() != QFileInfo(exampleScenarioPath()).absoluteFilePath() &&
                         QFileInfo(current.absolutePath()).isWritable();
    if (ownFile)
        return current.absoluteFilePath();
    return ui::FileDialogFolder(kScenarioFolder).suggestion(m_scenarioPath.isEmpty() ? QStringLiteral("scenario.json") : current.fileName());
}

void SimMainWindow::saveScenarioInteractively()
{
    QString path = ui::FileDialogFolder::saveFile(this, kScenarioFolder, tr("Save scenario as"), saveSuggestion(),
                                                  tr("Scenarios (*.json);;All files (*)"));
    if (path.isEmpty())
        return;
    if (QFileInfo(path).suffix().isEmpty())
        path += QStringLiteral(".json");
    if (const QString error = saveScenario(path); !error.isEmpty())
        QMessageBox::warning(this, tr("Save scenario"), tr("Cannot save %1:\n\n%2").arg(QDir::toNativeSeparators(path), error));
}

LinkTestWindow* SimMainWindow::showLinkTest()
{
    // The window keeps its own copy of the mission: another scenario may replace the simulator (and its
    // database) while a test runs.
    auto mission = std::make_shared<const mdb::MissionDatabase>(m_simulator->database());
    if (!m_linkTest)
        m_linkTest = new LinkTestWindow(std::move(mission), this);
    else if (!m_linkTest->running())
        m_linkTest->setMission(std::move(mission));
    m_linkTest->show();
    m_linkTest->raise();
    m_linkTest->activateWindow();
    return m_linkTest;
}

void SimMainWindow::showAbout()
{
    QMessageBox::about(this, tr("About the training simulator"),
                       tr("<b>Telestation training simulator %1</b>"
                          "<p>Generates CCSDS telemetry streams from the mission database — packet mixes, "
                          "rates, faults — to train operators and test the station.</p>"
                          "<p>Qt %2, Qwt %3</p>")
                           .arg(QLatin1String(kVersion), QLatin1String(qVersion()), QLatin1String(QWT_VERSION_STR)));
}

} // namespace telestation::sim::gui
