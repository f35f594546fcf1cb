// The link test window (issue 18, docs/link-test.md): this simulator as the controller measures the
// network to a responder (a station or another simulator) — the tests chosen, the link's speed for the
// limits, Quick grids — with the progress, a log, a live plot and table per test, and the report saved
// as the command line writes it. The test runs in a thread of its own (link::runLinkTest); each row it
// measures comes to the GUI thread as a copy of the report, queued.
#pragma once

#include "core/link/controller.hpp"
#include "core/link/link_report.hpp"
#include "core/link/tests.hpp"
#include "core/mdb/model.hpp"

#include <QString>
#include <QWidget>

#include <array>
#include <atomic>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <thread>
#include <vector>

class QCheckBox;
class QComboBox;
class QLabel;
class QLineEdit;
class QListWidget;
class QProgressBar;
class QPushButton;
class QTabWidget;
class QTableView;

namespace telestation::sim::gui {

class LinkPlot;
class LinkTableModel;

class LinkTestWindow : public QWidget {
    Q_OBJECT

public:
    static constexpr const char* kDefaultResponder = "127.0.0.1:7700";

    // `mission`: the packets of the telemetry test (the simulator's database when the window opened).
    explicit LinkTestWindow(std::shared_ptr<const mdb::MissionDatabase> mission, QWidget* parent = nullptr);
    ~LinkTestWindow() override; // cancels a running test and waits for its thread

    // The mission for the next run (another scenario was opened); a running test keeps its own.
    void setMission(std::shared_ptr<const mdb::MissionDatabase> mission);

    // Test hooks (the controls do the same): the responder, the tests ticked, Quick, and a last word
    // on the options of the next runs (tiny grids), applied after everything the window sets.
    void setResponderAddress(const QString& hostPort);
    void setTests(const std::vector<telestation::link::TestKind>& tests);
    void setQuick(bool quick);
    void setOptionsForTest(std::function<void(telestation::link::ControllerOptions&)> adjust);

    [[nodiscard]] bool running() const noexcept { return m_thread.joinable(); }
    // The last run's report, partial while it runs; none before the first row.
    [[nodiscard]] const std::optional<telestation::link::LinkReport>& report() const noexcept { return m_report; }
    // The error of the last run ("" when it ran), as the red label shows it.
    [[nodiscard]] QString errorText() const;
    [[nodiscard]] LinkPlot* plot(telestation::link::TestKind test) const;
    [[nodiscard]] LinkTableModel* tableModel(telestation::link::TestKind test) const;

    // Writes the report into `directory` (link-report.md, .json, the CSVs and PNGs); the error, or "".
    QString saveReport(const QString& directory);

public Q_SLOTS:
    // Starts a test with the controls' choices (as Run does); false with the reason in the red label
    // when the choices are wrong or a test runs already.
    bool run();
    void cancel();

Q_SIGNALS:
    // The run ended: `ok` when the responder answered (the report may still say a test failed).
    void finished(bool ok);

protected:
    void closeEvent(QCloseEvent* event) override;

private:
    struct TestTab {
        telestation::link::TestKind test{};
        QCheckBox* check = nullptr;
        LinkPlot* plot = nullptr;
        LinkTableModel* model = nullptr;
        QTableView* table = nullptr;
        int tabIndex = -1;
    };

    void createLayout();
    QWidget* createSettings();
    // The options the controls ask for, or why they cannot be used. `askInterface`: the link speed
    // field is empty, the run reads it from the interface towards the responder (link::wireTowards).
    struct RunChoice {
        telestation::link::ControllerOptions options;
        bool askInterface = false;
    };
    [[nodiscard]] Result<RunChoice> choiceFromControls() const;
    void showReport(const telestation::link::LinkReport& report);
    void progressed(int run, const telestation::link::LinkReport& report, const QString& line);
    void ended(int run, const Result<telestation::link::LinkReport>& result);
    void showError(const QString& message);
    void setRunning(bool on);
    void stopThread(); // cancels and joins
    void saveInteractively();
    void updatePackets();

    std::shared_ptr<const mdb::MissionDatabase> m_mission;
    std::function<void(telestation::link::ControllerOptions&)> m_adjustOptions;
    std::optional<telestation::link::LinkReport> m_report;
    std::thread m_thread;
    std::atomic<bool> m_cancel{false};
    int m_run = 0; // counts runs: what a thread queued for an earlier run is dropped
    int m_expectedRows = 0;

    QLineEdit* m_address = nullptr;
    QLineEdit* m_linkSpeed = nullptr;
    QComboBox* m_packet = nullptr;
    QCheckBox* m_quick = nullptr;
    QPushButton* m_runButton = nullptr;
    QPushButton* m_cancelButton = nullptr;
    QPushButton* m_saveButton = nullptr;
    QProgressBar* m_progress = nullptr;
    QLabel* m_error = nullptr;
    QListWidget* m_log = nullptr;
    QTabWidget* m_tabs = nullptr;
    std::array<TestTab, telestation::link::kAllTests.size()> m_testTabs{};
};

// Rows a run with `options` produces when every test completes (the progress bar's end), and the
// rows `report` holds.
[[nodiscard]] int expectedRows(const telestation::link::ControllerOptions& options);
[[nodiscard]] int rowsDone(const telestation::link::LinkReport& report);

} // namespace telestation::sim::gui
