// The workstation's main window. Issue 2 scope: the window, its menus and status bar, and a Qwt strip
// chart as the central widget; streams, packet tables and displays arrive with the pipeline.
#pragma once

#include "core/mdb/model.hpp"

#include <QMainWindow>

class QwtPlot;
class QLabel;

namespace telestation::ui {

class MainWindow : public QMainWindow {
    Q_OBJECT

public:
    explicit MainWindow(QWidget* parent = nullptr);

    // Shows what mission database the station has loaded (name, packets, parameters) in the status bar.
    void setMissionDatabase(const mdb::MissionDatabase& db, const QString& path);

    [[nodiscard]] QwtPlot* plot() const { return m_plot; }
    [[nodiscard]] QString missionSummary() const;

private:
    void showAbout();

    QwtPlot* m_plot = nullptr;
    QLabel* m_missionLabel = nullptr;
};

} // namespace telestation::ui
