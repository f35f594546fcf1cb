// The training simulator's window: the streams of a Simulator with their live counters, start/stop,
// rate, packet mix and fault controls, and scenario open/save. Polls the streams' counters on a timer;
// nothing per packet reaches the GUI thread.
#pragma once

#include <QElapsedTimer>
#include <QMainWindow>

#include <cstddef>
#include <memory>
#include <vector>

class QAction;
class QLabel;
class QTableView;
class QTimer;

namespace telestation::sim {
class Simulator;
struct StreamConfig;
} // namespace telestation::sim

namespace telestation::sim::gui {

class LinkTestWindow;
class RatePlot;
class StreamPanel;
class StreamTableModel;

class SimMainWindow : public QMainWindow {
    Q_OBJECT

public:
    // `fallbackMdbPath`: the database for scenarios that name none (the training database).
    SimMainWindow(std::unique_ptr<Simulator> simulator, QString fallbackMdbPath, QWidget* parent = nullptr);
    ~SimMainWindow() override; // stops every stream

    [[nodiscard]] Simulator& simulator() noexcept { return *m_simulator; }

    // Replaces the streams with a scenario's (stopping the current ones). Returns an error message
    // ("" on success), which the interactive path also shows in a message box.
    QString openScenario(const QString& path);
    QString saveScenario(const QString& path);
    // The ready example the window opens with when it is given no streams: the demo scenario (the one
    // `telestation --demo` feeds its station with), its streams stopped until the operator starts them.
    [[nodiscard]] static QString exampleScenarioPath();
    QString openExample();
    // Tools › Link test…: the link test window (one, kept while this window lives), shown and raised.
    LinkTestWindow* showLinkTest();

protected:
    void showEvent(QShowEvent* event) override;
    void hideEvent(QHideEvent* event) override;
    void changeEvent(QEvent* event) override;
    void closeEvent(QCloseEvent* event) override;

private:
    static constexpr int kRefreshMs = 250;
    // The file dialogs' purpose (ui/dialogs/file_dialog_folder.hpp): scenarios remember their own folder.
    static inline const QString kScenarioFolder = QStringLiteral("scenarios");

    void createActions();
    void createMenus();
    void createLayout();
    void setPolling(bool on);
    void refresh();
    void updateActions();
    void updateStatus();
    void updateDatabaseLabel();
    void updateTitle();
    void showSelectedStream();
    void streamsChanged(int selectRow); // after streams were added, removed or replaced
    [[nodiscard]] std::vector<std::size_t> selectedRows() const;
    [[nodiscard]] int currentRow() const;
    [[nodiscard]] QStringList streamNames(int exceptRow) const;

    void addStream();
    void editStream();
    void removeStreams();
    void startSelected();
    void stopSelected();
    void startAll();
    void stopAll();
    // Stops the stream at `index`, replaces it by one made from `config` at the same position, and
    // restarts it if it was running. On an error the old stream is put back; returns the message.
    QString replaceStream(std::size_t index, const StreamConfig& config);
    void openScenarioInteractively();
    void saveScenarioInteractively();
    // Where "Save scenario as" proposes to save (see the .cpp).
    [[nodiscard]] QString saveSuggestion() const;
    void showAbout();

    std::unique_ptr<Simulator> m_simulator;
    QString m_fallbackMdbPath;
    QString m_scenarioPath;

    StreamTableModel* m_model = nullptr;
    QTableView* m_table = nullptr;
    StreamPanel* m_panel = nullptr;
    RatePlot* m_plot = nullptr;
    QTimer* m_refreshTimer = nullptr;
    QElapsedTimer m_clock; // the rate plot's time axis
    QLabel* m_totalsLabel = nullptr;
    QLabel* m_databaseLabel = nullptr;

    QAction* m_addAction = nullptr;
    QAction* m_editAction = nullptr;
    QAction* m_removeAction = nullptr;
    QAction* m_startAction = nullptr;
    QAction* m_stopAction = nullptr;
    QAction* m_startAllAction = nullptr;
    QAction* m_stopAllAction = nullptr;
    QAction* m_openAction = nullptr;
    QAction* m_saveAction = nullptr;
    QAction* m_quitAction = nullptr;
    QAction* m_aboutAction = nullptr;
    QAction* m_linkTestAction = nullptr;
    LinkTestWindow* m_linkTest = nullptr; // made when first asked for; a child window, deleted with this one
};

} // namespace telestation::sim::gui
