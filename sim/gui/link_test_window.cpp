#include "sim/gui/link_test_window.hpp"

#include "core/common/thread_name.hpp"
#include "core/link/control_channel.hpp"
#include "sim/engine/link_telemetry.hpp"
#include "sim/engine/rate.hpp"
#include "sim/gui/link_plots.hpp"
#include "sim/gui/link_table_model.hpp"
#include "ui/dialogs/error_label.hpp"
#include "ui/dialogs/file_dialog_folder.hpp"

#include <QApplication>
#include <QCheckBox>
#include <QCloseEvent>
#include <QComboBox>
#include <QDir>
#include <QGridLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QProgressBar>
#include <QPushButton>
#include <QScreen>
#include <QSplitter>
#include <QTabWidget>
#include <QTableView>
#include <QVBoxLayout>

#include <algorithm>

namespace telestation::sim::gui {

namespace {

// The folder Save report… starts in (ui/dialogs/file_dialog_folder.hpp): reports remember their own.
const QString kReportFolder = QStringLiteral("linkReports");

QString qText(std::string_view text)
{
    return QString::fromUtf8(text.data(), static_cast<qsizetype>(text.size()));
}

bool contains(const std::vector<telestation::link::TestKind>& tests, telestation::link::TestKind test)
{
    return std::find(tests.begin(), tests.end(), test) != tests.end();
}

} // namespace

int expectedRows(const telestation::link::ControllerOptions& options)
{
    std::size_t rows = 0;
    for (const telestation::link::TestKind test : options.tests) {
        switch (test) {
        case telestation::link::TestKind::MessageRate: rows += 2 * options.messageSizes.size(); break; // TCP, then UDP
        case telestation::link::TestKind::UdpGrid: rows += options.udpSizes.size() * options.udpGapsNs.size(); break;
        case telestation::link::TestKind::TcpFlows: rows += options.flowCounts.size(); break;
        case telestation::link::TestKind::BlockSweep: rows += options.blockSizes.size(); break;
        case telestation::link::TestKind::Telemetry: rows += static_cast<std::size_t>(std::max(options.telemetryTries, 0)); break;
        }
    }
    return static_cast<int>(rows);
}

int rowsDone(const telestation::link::LinkReport& report)
{
    const std::size_t rows = report.messageRate.size() + report.udpGrid.size() + report.flows.size() + report.blocks.size()
        + (report.telemetry ? report.telemetry->tries.size() : 0);
    return static_cast<int>(rows);
}

LinkTestWindow::LinkTestWindow(std::shared_ptr<const mdb::MissionDatabase> mission, QWidget* parent)
    : QWidget(parent, Qt::Window), m_mission(std::move(mission))
{
    setObjectName(QStringLiteral("linkTestWindow"));
    setWindowTitle(tr("Link test — Telestation training simulator"));
    createLayout();
    updatePackets();
    setRunning(false);
    // Room for a plot that reads beside its table, within a 1366×768 screen less a window frame.
    QSize size(1280, 860);
    if (const QScreen* s = screen() ? screen() : QGuiApplication::primaryScreen())
        size = size.boundedTo(s->availableGeometry().size() - QSize(16, 40));
    resize(size);
}

LinkTestWindow::~LinkTestWindow()
{
    stopThread();
}

// --- construction -----------------------------------------------------------------------------

QWidget* LinkTestWindow::createSettings()
{
    auto* box = new QGroupBox(tr("Test"));
    auto* grid = new QGridLayout(box);

    m_address = new QLineEdit(QString::fromLatin1(kDefaultResponder));
    m_address->setObjectName(QStringLiteral("linkResponderEdit"));
    m_address->setToolTip(tr("The responder's control address: a station run with --link-responder, or "
                             "`telestation-sim link --respond HOST:PORT` on the other PC"));
    m_address->setMinimumWidth(m_address->fontMetrics().horizontalAdvance(QStringLiteral("groundstation.example:65535")) + 16);
    m_linkSpeed = new QLineEdit;
    m_linkSpeed->setObjectName(QStringLiteral("linkSpeedEdit"));
    m_linkSpeed->setPlaceholderText(tr("as the interface reports"));
    m_linkSpeed->setToolTip(tr("The link's speed for the limits drawn beside the figures, e.g. 100Mbps or 1Gbps. "
                               "Empty: what the network interface towards the responder reports (none on loopback)."));
    m_packet = new QComboBox;
    m_packet->setObjectName(QStringLiteral("linkPacketCombo"));
    m_packet->setToolTip(tr("Telemetry test: the packet type sent through the station (the responder's mission must define it)"));
    m_packet->setSizeAdjustPolicy(QComboBox::AdjustToContents);
    m_quick = new QCheckBox(tr("&Quick"));
    m_quick->setObjectName(QStringLiteral("linkQuickCheck"));
    m_quick->setToolTip(tr("Fewer sizes, gaps and flows, and 0.5-s phases: a first look in under a minute"));

    const auto addField = [grid](const QString& text, QWidget* field, int column) {
        auto* label = new QLabel(text);
        label->setBuddy(field);
        grid->addWidget(label, 0, column);
        grid->addWidget(field, 0, column + 1);
    };
    addField(tr("&Responder:"), m_address, 0);
    addField(tr("&Link speed:"), m_linkSpeed, 2);
    addField(tr("&Packet:"), m_packet, 4);
    grid->addWidget(m_quick, 0, 6);
    grid->setColumnStretch(1, 2);
    grid->setColumnStretch(3, 1);

    auto* checks = new QHBoxLayout;
    checks->addWidget(new QLabel(tr("Tests:")));
    for (std::size_t i = 0; i < telestation::link::kAllTests.size(); ++i) {
        const telestation::link::TestKind test = telestation::link::kAllTests[i];
        auto* check = new QCheckBox(qText(telestation::link::testTitle(test)));
        check->setObjectName(QStringLiteral("linkTestCheck-%1").arg(qText(telestation::link::testName(test))));
        check->setChecked(true);
        m_testTabs[i].test = test;
        m_testTabs[i].check = check;
        checks->addWidget(check);
    }
    checks->addStretch(1);
    grid->addLayout(checks, 1, 0, 1, 7);

    m_runButton = new QPushButton(tr("Run"));
    m_runButton->setObjectName(QStringLiteral("linkRunButton"));
    m_runButton->setDefault(true);
    m_cancelButton = new QPushButton(tr("Cancel"));
    m_cancelButton->setObjectName(QStringLiteral("linkCancelButton"));
    m_cancelButton->setToolTip(tr("Stop after the phase that runs (at most a few seconds)"));
    m_saveButton = new QPushButton(tr("Save report…"));
    m_saveButton->setObjectName(QStringLiteral("linkSaveButton"));
    m_saveButton->setToolTip(tr("Write link-report.md, link-report.json, a CSV and a PNG plot per test into a folder"));
    m_progress = new QProgressBar;
    m_progress->setObjectName(QStringLiteral("linkProgress"));
    m_progress->setFormat(tr("Not run yet"));
    m_progress->setRange(0, 1);
    m_progress->setValue(0);
    auto* buttons = new QHBoxLayout;
    buttons->addWidget(m_runButton);
    buttons->addWidget(m_cancelButton);
    buttons->addWidget(m_progress, 1);
    buttons->addWidget(m_saveButton);
    grid->addLayout(buttons, 2, 0, 1, 7);

    m_error = ui::newErrorLabel(box, QStringLiteral("linkErrorLabel"));
    grid->addWidget(m_error, 3, 0, 1, 7);

    connect(m_runButton, &QPushButton::clicked, this, &LinkTestWindow::run);
    connect(m_cancelButton, &QPushButton::clicked, this, &LinkTestWindow::cancel);
    connect(m_saveButton, &QPushButton::clicked, this, &LinkTestWindow::saveInteractively);
    return box;
}

void LinkTestWindow::createLayout()
{
    QWidget* settings = createSettings(); // first: it makes the tests' check boxes
    m_tabs = new QTabWidget;
    m_tabs->setObjectName(QStringLiteral("linkTabs"));
    for (TestTab& tab : m_testTabs) {
        tab.plot = new LinkPlot(tab.test);
        tab.model = new LinkTableModel(this);
        tab.table = new QTableView;
        tab.table->setObjectName(QStringLiteral("linkTable-%1").arg(qText(telestation::link::testName(tab.test))));
        tab.table->setModel(tab.model);
        tab.table->setEditTriggers(QAbstractItemView::NoEditTriggers);
        tab.table->setSelectionBehavior(QAbstractItemView::SelectRows);
        tab.table->setAlternatingRowColors(true);
        tab.table->setWordWrap(false);
        tab.table->verticalHeader()->hide();
        tab.table->verticalHeader()->setDefaultSectionSize(tab.table->fontMetrics().height() + 8);
        tab.table->horizontalHeader()->setStretchLastSection(false); // a figure stays beside its heading
        auto* split = new QSplitter(Qt::Vertical);
        split->setObjectName(QStringLiteral("linkTabSplitter-%1").arg(qText(telestation::link::testName(tab.test))));
        split->addWidget(tab.plot);
        split->addWidget(tab.table);
        split->setStretchFactor(0, 2);
        split->setStretchFactor(1, 1);
        split->setCollapsible(0, false);
        split->setSizes({460, 160}); // the plot reads, and a few rows of the table are in sight
        tab.tabIndex = m_tabs->addTab(split, qText(telestation::link::testTitle(tab.test)));
    }

    m_log = new QListWidget;
    m_log->setObjectName(QStringLiteral("linkLog"));
    m_log->setUniformItemSizes(true);
    m_log->setToolTip(tr("What each phase measured, as the command line prints it"));

    auto* split = new QSplitter(Qt::Vertical);
    split->setObjectName(QStringLiteral("linkSplitter"));
    split->addWidget(m_tabs);
    split->addWidget(m_log);
    split->setStretchFactor(0, 1);
    split->setStretchFactor(1, 0);
    split->setCollapsible(0, false);
    split->setSizes({640, m_log->fontMetrics().height() * 4});

    auto* layout = new QVBoxLayout(this);
    layout->addWidget(settings);
    layout->addWidget(split, 1);
}

void LinkTestWindow::updatePackets()
{
    const QString previous = m_packet->currentText();
    m_packet->clear();
    if (m_mission)
        for (const mdb::PacketDef& packet : m_mission->packets)
            m_packet->addItem(QString::fromStdString(packet.name));
    // The command line's default packet, when the mission has it.
    const QString wanted = previous.isEmpty() ? QString::fromStdString(telestation::link::ControllerOptions{}.packet) : previous;
    if (const int index = m_packet->findText(wanted); index >= 0)
        m_packet->setCurrentIndex(index);
}

void LinkTestWindow::setMission(std::shared_ptr<const mdb::MissionDatabase> mission)
{
    m_mission = std::move(mission);
    updatePackets();
}

// --- test hooks ---------------------------------------------------------------------------------

void LinkTestWindow::setResponderAddress(const QString& hostPort)
{
    m_address->setText(hostPort);
}

void LinkTestWindow::setTests(const std::vector<telestation::link::TestKind>& tests)
{
    for (TestTab& tab : m_testTabs)
        tab.check->setChecked(contains(tests, tab.test));
}

void LinkTestWindow::setQuick(bool quick)
{
    m_quick->setChecked(quick);
}

void LinkTestWindow::setOptionsForTest(std::function<void(telestation::link::ControllerOptions&)> adjust)
{
    m_adjustOptions = std::move(adjust);
}

QString LinkTestWindow::errorText() const
{
    return m_error->isHidden() ? QString() : m_error->text();
}

LinkPlot* LinkTestWindow::plot(telestation::link::TestKind test) const
{
    for (const TestTab& tab : m_testTabs)
        if (tab.test == test)
            return tab.plot;
    return nullptr;
}

LinkTableModel* LinkTestWindow::tableModel(telestation::link::TestKind test) const
{
    for (const TestTab& tab : m_testTabs)
        if (tab.test == test)
            return tab.model;
    return nullptr;
}

// --- running --------------------------------------------------------------------------------------

Result<LinkTestWindow::RunChoice> LinkTestWindow::choiceFromControls() const
{
    RunChoice choice;
    telestation::link::ControllerOptions& o = choice.options;
    o.responder = m_address->text().trimmed().toStdString();
    if (auto where = telestation::link::parseHostPort(o.responder, false); !where)
        return Error{tr("Responder: %1").arg(QString::fromStdString(where.error().message)).toStdString(), {}};
    o.tests.clear();
    std::string names;
    for (const TestTab& tab : m_testTabs)
        if (tab.check->isChecked()) {
            o.tests.push_back(tab.test);
            names += (names.empty() ? "" : ",") + std::string(telestation::link::testName(tab.test));
        }
    if (o.tests.empty())
        return Error{tr("Choose at least one test").toStdString(), {}};
    if (m_quick->isChecked())
        telestation::link::quickGrids(o);
    std::string command = "telestation-sim link --to " + o.responder + " --tests " + names + (m_quick->isChecked() ? " --quick" : "");
    const QString speed = m_linkSpeed->text().trimmed();
    if (speed.isEmpty()) {
        choice.askInterface = true;
    } else {
        const auto rate = parseRate(speed.toStdString());
        if (!rate || rate->unit != Rate::Unit::BitsPerSecond)
            return Error{tr("Link speed: '%1' is not a bit rate such as 100Mbps or 1Gbps").arg(speed).toStdString(), {}};
        o.wire.bitsPerSecond = rate->value;
        o.wire.source = "given";
        command += " --link-rate " + speed.toStdString();
    }
    if (contains(o.tests, telestation::link::TestKind::Telemetry)) {
        if (m_packet->currentText().isEmpty())
            return Error{tr("Telemetry: the simulator's mission has no packet type to send").toStdString(), {}};
        o.packet = m_packet->currentText().toStdString();
        command += " --packet " + o.packet;
    }
    o.command = command + "  (link test window)";
    if (m_adjustOptions)
        m_adjustOptions(o);
    choice.askInterface = choice.askInterface && !o.wire.known(); // the hook may have given a speed
    return choice;
}

bool LinkTestWindow::run()
{
    if (running()) {
        showError(tr("A link test is running: Cancel it first"));
        return false;
    }
    auto choice = choiceFromControls();
    if (!choice) {
        showError(QString::fromStdString(choice.error().message));
        return false;
    }
    showError({});
    ++m_run;
    m_cancel.store(false);
    m_report.reset();
    m_log->clear();
    m_expectedRows = expectedRows(choice->options);
    m_progress->setFormat(tr("%v of %m rows"));
    m_progress->setRange(0, std::max(1, m_expectedRows));
    m_progress->setValue(0);
    for (const TestTab& tab : m_testTabs)
        m_tabs->setTabEnabled(tab.tabIndex, contains(choice->options.tests, tab.test));
    if (const auto first = std::find_if(m_testTabs.begin(), m_testTabs.end(),
                                        [&](const TestTab& tab) { return contains(choice->options.tests, tab.test); });
        first != m_testTabs.end())
        m_tabs->setCurrentIndex(first->tabIndex);
    telestation::link::LinkReport empty;
    empty.tests = choice->options.tests;
    showReport(empty);
    m_log->addItem(tr("Connecting to %1…").arg(QString::fromStdString(choice->options.responder)));
    setRunning(true);

    const int run = m_run;
    m_thread = std::thread([this, run, choice = std::move(*choice), mission = m_mission]() mutable {
        setThreadName("ts-link-test");
        telestation::link::ControllerOptions& options = choice.options;
        if (choice.askInterface)
            options.wire = telestation::link::wireTowards(options.responder);
        // The sender reads the mission this thread holds, whatever the window is given meanwhile.
        std::unique_ptr<LinkTelemetrySender> sender;
        if (mission && contains(options.tests, telestation::link::TestKind::Telemetry)) {
            sender = std::make_unique<LinkTelemetrySender>(*mission);
            options.telemetry = sender.get();
        }
        options.cancel = &m_cancel;
        // A row a phase, a few a second at most: a queued copy of the report each time is cheap.
        options.progress = [this, run](const telestation::link::LinkReport& report, const std::string& line) {
            auto copy = std::make_shared<const telestation::link::LinkReport>(report);
            QMetaObject::invokeMethod(this, [this, run, copy, text = QString::fromStdString(line)] { progressed(run, *copy, text); },
                                      Qt::QueuedConnection);
        };
        auto result = std::make_shared<const Result<telestation::link::LinkReport>>(telestation::link::runLinkTest(options));
        QMetaObject::invokeMethod(this, [this, run, result] { ended(run, *result); }, Qt::QueuedConnection);
    });
    return true;
}

void LinkTestWindow::cancel()
{
    if (!running())
        return;
    m_cancel.store(true);
    m_cancelButton->setEnabled(false);
    m_log->addItem(tr("Cancelling after the phase that runs…"));
    m_log->scrollToBottom();
}

void LinkTestWindow::progressed(int run, const telestation::link::LinkReport& report, const QString& line)
{
    if (run != m_run)
        return;
    m_log->addItem(line);
    m_log->scrollToBottom();
    m_report = report;
    m_progress->setValue(std::min(rowsDone(report), m_progress->maximum()));
    showReport(report);
}

void LinkTestWindow::ended(int run, const Result<telestation::link::LinkReport>& result)
{
    if (run != m_run)
        return;
    if (m_thread.joinable())
        m_thread.join(); // it has nothing left to do but return
    setRunning(false);
    if (!result) {
        showError(QString::fromStdString(result.error().message));
        m_log->addItem(tr("Failed: %1").arg(QString::fromStdString(result.error().message)));
        m_log->scrollToBottom();
        m_saveButton->setEnabled(m_report.has_value());
        Q_EMIT finished(false);
        return;
    }
    m_report = *result;
    showReport(*m_report);
    m_progress->setValue(m_progress->maximum());
    for (const auto& [test, why] : m_report->failures)
        m_log->addItem(tr("%1 not completed: %2").arg(qText(telestation::link::testTitle(test)), QString::fromStdString(why)));
    m_log->addItem(m_report->failures.empty() ? tr("Done: every test completed") : tr("Done, with tests not completed (above)"));
    m_log->scrollToBottom();
    m_saveButton->setEnabled(true);
    Q_EMIT finished(true);
}

void LinkTestWindow::showReport(const telestation::link::LinkReport& report)
{
    const auto csvFiles = telestation::link::toCsvFiles(report);
    for (TestTab& tab : m_testTabs) {
        tab.plot->setReport(report);
        const std::string name = "link-" + std::string(telestation::link::testName(tab.test)) + ".csv";
        const auto csv = std::find_if(csvFiles.begin(), csvFiles.end(), [&](const auto& file) { return file.first == name; });
        if (csv == csvFiles.end()) {
            tab.model->clear();
            continue;
        }
        const int rows = tab.model->rowCount();
        tab.model->setCsv(csv->second);
        if (tab.model->rowCount() != rows)
            tab.table->resizeColumnsToContents(); // only when rows came: the widths do not jitter otherwise
    }
}

void LinkTestWindow::showError(const QString& message)
{
    m_error->setText(message);
    m_error->setVisible(!message.isEmpty());
}

void LinkTestWindow::setRunning(bool on)
{
    m_runButton->setEnabled(!on);
    m_cancelButton->setEnabled(on);
    m_saveButton->setEnabled(!on && m_report.has_value());
    for (QWidget* w : std::initializer_list<QWidget*>{m_address, m_linkSpeed, m_packet, m_quick})
        w->setEnabled(!on);
    for (const TestTab& tab : m_testTabs)
        tab.check->setEnabled(!on);
}

void LinkTestWindow::stopThread()
{
    if (!m_thread.joinable())
        return;
    // The test stops between phases: this waits for the phase that runs, a few seconds at most.
    m_cancel.store(true);
    m_thread.join();
}

void LinkTestWindow::closeEvent(QCloseEvent* event)
{
    if (running()) {
        QApplication::setOverrideCursor(Qt::WaitCursor);
        stopThread();
        QApplication::restoreOverrideCursor();
        // What the thread queued last still comes (its report, or its error): the run ends as cancelled.
    }
    QWidget::closeEvent(event);
}

// --- the report ----------------------------------------------------------------------------------

QString LinkTestWindow::saveReport(const QString& directory)
{
    if (!m_report)
        return tr("No report yet: Run a test first");
    auto written = writeLinkReport(*m_report, QDir(directory).absolutePath().toStdString());
    if (!written)
        return QString::fromStdString(written.error().message);
    m_log->addItem(tr("Saved %1 files in %2").arg(written->size()).arg(QDir::toNativeSeparators(directory)));
    m_log->scrollToBottom();
    return {};
}

void LinkTestWindow::saveInteractively()
{
    const QString directory = ui::FileDialogFolder::existingFolder(this, kReportFolder, tr("Save the link report into"));
    if (directory.isEmpty())
        return;
    showError(saveReport(directory));
}

} // namespace telestation::sim::gui
