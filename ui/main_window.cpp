#include "ui/main_window.hpp"

#include "telestation_version.hpp"

#include <QApplication>
#include <QLabel>
#include <QMenuBar>
#include <QMessageBox>
#include <QStatusBar>

#include <qwt_legend.h>
#include <qwt_plot.h>
#include <qwt_plot_canvas.h>
#include <qwt_plot_grid.h>

namespace telestation::ui {

MainWindow::MainWindow(QWidget* parent) : QMainWindow(parent)
{
    setWindowTitle(QStringLiteral("Telestation"));
    setObjectName(QStringLiteral("MainWindow"));

    m_plot = new QwtPlot(this);
    m_plot->setObjectName(QStringLiteral("stripChart"));
    m_plot->setTitle(tr("Strip chart"));
    m_plot->setAxisTitle(QwtAxis::XBottom, tr("Time (s)"));
    m_plot->setAxisTitle(QwtAxis::YLeft, tr("Value"));
    m_plot->setAxisScale(QwtAxis::XBottom, -60.0, 0.0);
    m_plot->setCanvasBackground(QColor(0x1e, 0x22, 0x28));
    auto* grid = new QwtPlotGrid;
    grid->setMajorPen(QColor(0x44, 0x4a, 0x55), 0.0, Qt::DotLine);
    grid->attach(m_plot);
    m_plot->insertLegend(new QwtLegend, QwtPlot::RightLegend);
    setCentralWidget(m_plot);

    auto* fileMenu = menuBar()->addMenu(tr("&File"));
    auto* quit = fileMenu->addAction(tr("&Quit"), this, &QWidget::close);
    quit->setShortcut(QKeySequence::Quit);
    auto* helpMenu = menuBar()->addMenu(tr("&Help"));
    helpMenu->addAction(tr("&About Telestation"), this, &MainWindow::showAbout);

    m_missionLabel = new QLabel(tr("No mission database"), this);
    m_missionLabel->setObjectName(QStringLiteral("missionLabel"));
    statusBar()->addWidget(m_missionLabel, 1);
    statusBar()->addPermanentWidget(new QLabel(QStringLiteral("Telestation %1").arg(QLatin1String(kVersion)), this));
    resize(1100, 700);
}

void MainWindow::setMissionDatabase(const mdb::MissionDatabase& db, const QString& path)
{
    const QString name = db.name.empty() ? tr("(unnamed mission)") : QString::fromStdString(db.name);
    m_missionLabel->setText(tr("Mission database: %1 — %2 packet types, %3 parameters")
                                .arg(name)
                                .arg(db.packets.size())
                                .arg(db.parameterCount()));
    m_missionLabel->setToolTip(path);
}

QString MainWindow::missionSummary() const
{
    return m_missionLabel->text();
}

void MainWindow::showAbout()
{
    QMessageBox::about(this, tr("About Telestation"),
                       tr("<b>Telestation %1</b><p>Ground-station telemetry workstation.</p>"
                          "<p>Qt %2, Qwt %3</p>")
                           .arg(QLatin1String(kVersion), QLatin1String(qVersion()), QLatin1String(QWT_VERSION_STR)));
}

} // namespace telestation::ui
