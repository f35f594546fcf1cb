// The controls of the value display and the parameter plot on a real station (issue 15, point 6): the
// add-parameter field is empty once its parameter was added (typed and Return, or picked in the
// completion list with Return) and keeps what it has when the name is refused; typed curves go to the
// selected plot, which is marked (its frame in the selection colour), a click selecting another; "Add
// plot" adds a plot, selects it, and leaves the controls where they were under the cursor.
#include "core/pipeline/station.hpp"
#include "ui/displays/parameter_name_edit.hpp"
#include "ui/displays/parameter_plot.hpp"
#include "ui/displays/plot_display.hpp"
#include "ui/displays/value_display.hpp"
#include "ui/models/value_table_model.hpp"
#include "ui/widgets/dock_content.hpp"
#include "tests/support/station_fixture.hpp"

#include <QAbstractItemView>
#include <QCompleter>
#include <QDockWidget>
#include <QLabel>
#include <QLineEdit>
#include <QMainWindow>
#include <QSettings>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QToolButton>
#include <QtTest>

#include <qwt_plot.h>
#include <qwt_plot_canvas.h>
#include <qwt_scale_widget.h>

#include <memory>

using namespace telestation;
using ui::ParameterNameEdit;
using ui::ParameterPlot;
using ui::PlotDisplay;
using ui::ValueDisplay;

namespace {

// Types a name and presses Return in the field.
void typeAndReturn(QLineEdit& edit, const QString& text)
{
    edit.setFocus();
    edit.clear();
    QTest::keyClicks(&edit, text);
    if (QAbstractItemView* popup = edit.completer()->popup(); popup->isVisible())
        popup->hide(); // typed, not picked
    QTest::keyClick(&edit, Qt::Key_Return);
}

// Types part of a name, picks the first completion offered with Down and Return in the list.
void pickCompletion(QLineEdit& edit, const QString& part)
{
    edit.setFocus();
    edit.clear();
    QTest::keyClicks(&edit, part);
    QAbstractItemView* popup = edit.completer()->popup();
    QTRY_VERIFY(popup->isVisible());
    QTest::keyClick(popup, Qt::Key_Down);
    QTest::keyClick(popup, Qt::Key_Return);
}

// The colour of a canvas's frame: the middle of its left edge.
QColor frameColour(QwtPlot& plot)
{
    QWidget* canvas = plot.canvas();
    return canvas->grab().toImage().pixelColor(0, canvas->height() / 2);
}

} // namespace

class TestDisplayControls : public QObject {
    Q_OBJECT

    QTemporaryDir m_dir;
    std::unique_ptr<pipeline::Station> m_station;

private slots:
    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true);
        QSettings().clear();
        QVERIFY(m_dir.isValid());
        m_station = test::startStation(test::stationProfile(m_dir, {test::streamProfile("tm")}), test::trainingDatabase());
        QVERIFY(m_station);
    }

    void cleanupTestCase() { m_station.reset(); }

    void valueFieldClearsAfterAdd()
    {
        ValueDisplay display(*m_station);
        display.resize(900, 400);
        display.show();
        QVERIFY(QTest::qWaitForWindowExposed(&display));
        auto* edit = display.findChild<ParameterNameEdit*>();
        QVERIFY(edit);

        typeAndReturn(*edit, QStringLiteral("Packet5.UPTIME"));
        QCOMPARE(display.model()->rowCount(), 1);
        QCOMPARE(edit->text(), QString());

        pickCompletion(*edit, QStringLiteral("28v_volt"));
        QTRY_COMPARE(display.model()->rowCount(), 2);
        QTRY_COMPARE(edit->text(), QString());
        QCoreApplication::processEvents();
        QCOMPARE(edit->text(), QString()); // and it stays so

        // Refused (already shown, or no such parameter): the name stays, to be corrected.
        typeAndReturn(*edit, QStringLiteral("Packet5.UPTIME"));
        QCOMPARE(display.model()->rowCount(), 2);
        QCoreApplication::processEvents();
        QCOMPARE(edit->text(), QStringLiteral("Packet5.UPTIME"));
    }

    void plotFieldClearsAndTypedCurvesGoToTheSelectedPlot()
    {
        ParameterPlot display(*m_station);
        display.resize(1000, 600);
        display.show();
        QVERIFY(QTest::qWaitForWindowExposed(&display));
        PlotDisplay& plots = *display.plotDisplay();
        ParameterNameEdit& edit = *display.nameEdit();

        typeAndReturn(edit, QStringLiteral("Packet5.UPTIME"));
        QCOMPARE(display.curves().size(), std::size_t{1});
        QCOMPARE(display.curves().back().plot, 0);
        QCOMPARE(edit.text(), QString());

        // "Add plot": a second plot, selected, marked; the first not.
        QTest::mouseClick(display.addPlotButton(), Qt::LeftButton);
        QCOMPARE(plots.plotCount(), 2);
        QCOMPARE(plots.currentPlot(), 1);
        plots.refresh();
        QCOMPARE(frameColour(*plots.plot(1)), PlotDisplay::selectionColor());
        QVERIFY(frameColour(*plots.plot(0)) != PlotDisplay::selectionColor());

        pickCompletion(edit, QStringLiteral("28v_volt"));
        QTRY_COMPARE(display.curves().size(), std::size_t{2});
        QCOMPARE(display.curves().back().plot, 1);
        QTRY_COMPARE(edit.text(), QString());

        // A click on the first plot (its value axis: the canvas would start a zoom) selects it: the mark
        // moves, typed curves go there.
        QWidget* axis = plots.plot(0)->axisWidget(QwtAxis::YLeft);
        QTest::mouseClick(axis, Qt::LeftButton, {}, axis->rect().center());
        QCOMPARE(plots.currentPlot(), 0);
        QVERIFY(!plots.isPaused());
        plots.refresh();
        QCOMPARE(frameColour(*plots.plot(0)), PlotDisplay::selectionColor());
        QVERIFY(frameColour(*plots.plot(1)) != PlotDisplay::selectionColor());
        typeAndReturn(edit, QStringLiteral("Packet5.CPU_LOAD"));
        QCOMPARE(display.curves().size(), std::size_t{3});
        QCOMPARE(display.curves().back().plot, 0);
        QCOMPARE(edit.text(), QString());
    }

    // In a dock too short for another plot (its scroll bar appears), "Add plot" stays where it was under
    // the cursor, click after click.
    void addPlotStaysUnderTheCursor()
    {
        QMainWindow window;
        auto* dock = new QDockWidget(QStringLiteral("Plot"), &window);
        auto* display = new ParameterPlot(*m_station);
        ui::setDockContent(*dock, display);
        window.setCentralWidget(new QLabel(QStringLiteral("tables")));
        window.addDockWidget(Qt::RightDockWidgetArea, dock);
        window.resize(900, 330);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        QToolButton* button = display->addPlotButton();
        for (int plots = 2; plots <= 4; ++plots) {
            const QPoint before = button->mapTo(&window, button->rect().center());
            QTest::mouseClick(button, Qt::LeftButton);
            QCoreApplication::processEvents();
            QCOMPARE(display->plotDisplay()->plotCount(), plots);
            QCOMPARE(button->mapTo(&window, button->rect().center()), before);
            QVERIFY(window.childAt(before) == button || button->isAncestorOf(window.childAt(before)));
        }
        QVERIFY2(display->height() > dock->widget()->height() - 4, "the dock never had to scroll: the test shows nothing");
    }
};

QTEST_MAIN(TestDisplayControls)
#include "tst_ui_display_controls.moc"
