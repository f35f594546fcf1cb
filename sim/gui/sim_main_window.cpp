#include "sim/gui/sim_main_window.hpp"

#include <QMenuBar>
#include <QStatusBar>

#include <qwt_plot.h>
#include <qwt_plot_grid.h>

namespace telestation::sim {

SimMainWindow::SimMainWindow(QWidget* parent) : QMainWindow(parent)
{
    setWindowTitle(QStringLiteral("Telestation training simulator"));
    m_ratePlot = new QwtPlot(this);
    m_ratePlot->setObjectName(QStringLiteral("ratePlot"));
    m_ratePlot->setTitle(tr("Send rate"));
    m_ratePlot->setAxisTitle(QwtAxis::XBottom, tr("Time (s)"));
    m_ratePlot->setAxisTitle(QwtAxis::YLeft, tr("Mbit/s"));
    m_ratePlot->setAxisScale(QwtAxis::XBottom, -60.0, 0.0);
    auto* grid = new QwtPlotGrid;
    grid->setMajorPen(Qt::gray, 0.0, Qt::DotLine);
    grid->attach(m_ratePlot);
    setCentralWidget(m_ratePlot);
    auto* fileMenu = menuBar()->addMenu(tr("&File"));
    fileMenu->addAction(tr("&Quit"), QKeySequence::Quit, this, &QWidget::close);
    statusBar()->showMessage(tr("No streams"));
    resize(900, 560);
}

} // namespace telestation::sim
