// The main window fits the screen: on first start, with the demo's displays and every dock, the window,
// its docks and its displays lie inside the screen's available area at 1366×768 and at 1920×1080, no
// display needs to scroll, the streams panel shows its state and count columns and the statistics
// dialog its loss columns (every column at 1920×1080); below 1280×720 it
// opens maximised; a layout saved on a larger screen is not restored, one that fits is.
//
// Each screen size is its own process: this program runs itself again on the offscreen platform with a
// screen of that size (its `configfile` option), with the check as the test function to run, and a
// settings directory of its own. Run directly (without TELESTATION_LAYOUT_SCREEN), a check skips. The
// parent also reads the child's log: the window says which layout it chose.
#include "tests/support/gui_session.hpp"
#include "tests/support/test_paths.hpp"
#include "ui/dialogs/statistics_dialog.hpp"
#include "ui/displays/display_dock.hpp"
#include "ui/main_window.hpp"
#include "ui/models/streams_model.hpp"
#include "ui/widgets/streams_panel.hpp"

#include <QDockWidget>
#include <QFile>
#include <QHeaderView>
#include <QJsonArray>
#include <QJsonDocument>
#include <QMenuBar>
#include <QProcess>
#include <QScreen>
#include <QScrollArea>
#include <QSettings>
#include <QStatusBar>
#include <QTableView>
#include <QTreeView>
#include <QTemporaryDir>
#include <QtTest>

using namespace telestation;

namespace {

const char* const kScreenVariable = "TELESTATION_LAYOUT_SCREEN";

QSize screenWanted()
{
    const QList<QByteArray> parts = qgetenv(kScreenVariable).split('x');
    return parts.size() == 2 ? QSize(parts[0].toInt(), parts[1].toInt()) : QSize();
}

config::StationProfile profileIn(const QTemporaryDir& dir)
{
    config::StationProfile p;
    p.recordingDirectory = dir.filePath(QStringLiteral("rec")).toStdString();
    p.logDirectory = dir.filePath(QStringLiteral("logs")).toStdString();
    for (const char* name : {"health", "science", "tcp-mix"}) { // the demo's streams, by the names its displays use
        config::StreamProfile s;
        s.name = name;
        s.source = "udp://127.0.0.1:0";
        p.streams.push_back(s);
    }
    return p;
}

QList<QJsonObject> demoDisplays()
{
    QList<QJsonObject> specs;
    QString error;
    if (auto loaded = ui::loadDisplayFile(QString::fromStdString(test::sourceDir() + "/resources/displays/demo.json"), &error))
        specs = *loaded;
    else
        qFatal("demo displays: %s", qPrintable(error));
    return specs;
}

QRect globalRect(const QWidget* w)
{
    return QRect(w->mapToGlobal(QPoint(0, 0)), w->size());
}

QString text(const QRect& r)
{
    return QStringLiteral("%1x%2 at %3,%4").arg(r.width()).arg(r.height()).arg(r.x()).arg(r.y());
}

// A child's failures with their locations: its whole output would be cut short in the parent's message.
QByteArray failuresIn(const QByteArray& output)
{
    QByteArray failures;
    bool inFailure = false;
    for (const QByteArray& line : output.split('\n')) {
        if (line.startsWith("FAIL!"))
            inFailure = true;
        else if (!line.startsWith("   "))
            inFailure = false;
        if (inFailure)
            failures += line + '\n';
    }
    return failures.isEmpty() ? output.right(2000) : failures;
}

// The window once its first-start sizing (a zero-time timer after show) has run.
void showAndSettle(ui::MainWindow& window)
{
    window.show();
    QVERIFY(QTest::qWaitForWindowExposed(&window));
    QTest::qWait(300);
}

} // namespace

class TestWindowLayout : public QObject {
    Q_OBJECT

private slots:
    // In this process: one child per screen size.
    void firstStartFitsTheScreen_data();
    void firstStartFitsTheScreen();
    void savedLayoutOnlyWhenItFits_data();
    void savedLayoutOnlyWhenItFits();

    // In the child, on the screen it was given.
    void checkFirstStart();
    void checkRestore();

private:
    static void runChild(const QSize& screen, const char* check, QByteArray* output);
    static void runChildForRow(const char* check, QByteArray* output); // the data row's screen
    static bool isChild() { return screenWanted().isValid(); }
    static void requireScreen();
};

void TestWindowLayout::runChild(const QSize& screen, const char* check, QByteArray* output)
{
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const QString config = dir.filePath(QStringLiteral("screen.json"));
    QFile file(config);
    QVERIFY(file.open(QIODevice::WriteOnly));
    const QJsonObject s{{QStringLiteral("name"), QStringLiteral("test")}, {QStringLiteral("x"), 0}, {QStringLiteral("y"), 0},
                        {QStringLiteral("width"), screen.width()}, {QStringLiteral("height"), screen.height()},
                        {QStringLiteral("logicalDpi"), 96}, {QStringLiteral("logicalBaseDpi"), 96}, {QStringLiteral("dpr"), 1}};
    file.write(QJsonDocument(QJsonObject{{QStringLiteral("screens"), QJsonArray{s}}}).toJson());
    file.close();
    QProcess child;
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.insert(QStringLiteral("QT_QPA_PLATFORM"), QStringLiteral("offscreen:configfile=") + config);
    env.insert(QString::fromLatin1(kScreenVariable), QStringLiteral("%1x%2").arg(screen.width()).arg(screen.height()));
    env.insert(QStringLiteral("XDG_CONFIG_HOME"), dir.filePath(QStringLiteral("config"))); // the window's QSettings
    child.setProcessEnvironment(env);
    child.setProcessChannelMode(QProcess::MergedChannels);
    child.start(QCoreApplication::applicationFilePath(), {QString::fromLatin1(check)});
    QVERIFY(child.waitForFinished(120000));
    *output = child.readAll();
    QVERIFY2(child.exitStatus() == QProcess::NormalExit && child.exitCode() == 0, failuresIn(*output).constData());
    QVERIFY2(output->contains("PASS   : TestWindowLayout::") && !output->contains("SKIP"), output->right(2000).constData());
}

void TestWindowLayout::requireScreen()
{
    const QScreen* screen = QGuiApplication::primaryScreen();
    QVERIFY(screen);
    QCOMPARE(screen->size(), screenWanted()); // the offscreen platform took the configuration
}

void TestWindowLayout::firstStartFitsTheScreen_data()
{
    QTest::addColumn<QSize>("screen");
    QTest::newRow("1366x768") << QSize(1366, 768);
    QTest::newRow("1920x1080") << QSize(1920, 1080);
    QTest::newRow("1024x600 (maximised)") << QSize(1024, 600);
}

void TestWindowLayout::firstStartFitsTheScreen()
{
    QByteArray output;
    runChildForRow("checkFirstStart", &output);
    if (isChild() || QTest::currentTestFailed())
        return;
    QVERIFY2(output.contains("window: first-start layout on the screen's available"), output.right(2000).constData());
}

void TestWindowLayout::savedLayoutOnlyWhenItFits_data()
{
    firstStartFitsTheScreen_data();
}

void TestWindowLayout::savedLayoutOnlyWhenItFits()
{
    QByteArray output;
    runChildForRow("checkRestore", &output);
    if (isChild() || QTest::currentTestFailed())
        return;
    QVERIFY2(output.contains("window: the last session's layout ("), output.right(2000).constData());
    QFETCH(QSize, screen);
    if (screen.width() >= 1280 && screen.height() >= 720) // the larger screen's layout comes last
        QVERIFY2(output.contains("does not fit the screen's available"), output.right(2000).constData());
}

void TestWindowLayout::runChildForRow(const char* check, QByteArray* output)
{
    if (isChild())
        QSKIP("the parent's");
    QFETCH(QSize, screen);
    runChild(screen, check, output);
}

void TestWindowLayout::checkFirstStart()
{
    if (!isChild())
        QSKIP("runs in a child process with a screen of its own");
    requireScreen();
    QTemporaryDir dir;
    auto session = test::openSession(profileIn(dir));
    QSettings().clear();
    ui::MainWindow window(*session);
    window.restoreLayout(demoDisplays());
    showAndSettle(window);
    const QRect available = window.screen()->availableGeometry();
    const bool small = available.width() < 1280 || available.height() < 720;
    QCOMPARE(window.isMaximized(), small);
    QVERIFY2(available.contains(window.frameGeometry()),
             qPrintable(QStringLiteral("window %1, screen %2").arg(text(window.frameGeometry()), text(available))));
    QVERIFY(window.minimumSizeHint().width() <= available.width());
    QVERIFY(window.minimumSizeHint().height() <= available.height());
    const QRect inside = globalRect(&window);
    QVERIFY(inside.contains(globalRect(window.menuBar())));
    QVERIFY(inside.contains(globalRect(window.statusBar())));
    QVERIFY(inside.contains(globalRect(window.centralWidget())));

    // Every dock the window opened with: shown inside the window, or a tab behind one that is (Qt keeps
    // a tab behind "visible", out of sight).
    const auto docks = window.findChildren<QDockWidget*>(Qt::FindDirectChildrenOnly);
    QVERIFY(docks.size() >= 7); // mission database, recordings, event log, alarms, the demo's displays
    const auto inFront = [](const QWidget* d) { return d->isVisible() && !d->visibleRegion().isEmpty(); };
    for (QDockWidget* dock : docks) {
        QVERIFY2(dock->isVisible(), qPrintable(dock->objectName() + QStringLiteral(" closed on first start")));
        if (!inFront(dock)) {
            bool behindOneInFront = false;
            for (const QDockWidget* other : window.tabifiedDockWidgets(dock))
                behindOneInFront = behindOneInFront || inFront(other);
            QVERIFY2(behindOneInFront, qPrintable(dock->objectName() + QStringLiteral(" is neither shown nor a tab")));
            continue;
        }
        const QRect r = globalRect(dock);
        QVERIFY2(inside.contains(r), qPrintable(QStringLiteral("%1: %2 outside the window %3").arg(dock->objectName(), text(r), text(inside))));
        QVERIFY2(r.width() >= 150 && r.height() >= 100, qPrintable(dock->objectName() + QStringLiteral(" too small: ") + text(r)));
    }

    // The streams panel's state and counts in sight, each as wide as its header at least (the source, the
    // last column, gives way: elided).
    if (!small) {
        const QTableView* streams = window.streamsPanel()->view();
        const QHeaderView* header = streams->horizontalHeader();
        const int viewport = streams->viewport()->width();
        for (const int column : {int(ui::StreamsModel::State), int(ui::StreamsModel::PacketRate),
                                 int(ui::StreamsModel::DataRate), int(ui::StreamsModel::Loss)}) {
            const QString name = streams->model()->headerData(column, Qt::Horizontal).toString();
            const int left = header->sectionViewportPosition(column);
            const int width = header->sectionSize(column);
            QVERIFY2(!header->isSectionHidden(column) && left >= 0 && left + width <= viewport,
                     qPrintable(QStringLiteral("streams panel: %1 at %2..%3 px, the view shows 0..%4 px")
                                    .arg(name)
                                    .arg(left)
                                    .arg(left + width)
                                    .arg(viewport)));
            QVERIFY2(width >= streams->fontMetrics().horizontalAdvance(name),
                     qPrintable(QStringLiteral("streams panel: %1 only %2 px wide").arg(name).arg(width)));
        }
    }

    // The statistics dialog at its default size: the loss columns of the streams in sight without
    // scrolling; on a 1920×1080 screen every column.
    if (!small) {
        ui::StatisticsDialog* dialog = window.statisticsDialog();
        dialog->show();
        QVERIFY(QTest::qWaitForWindowExposed(dialog));
        QVERIFY2(available.contains(dialog->frameGeometry()), qPrintable(text(dialog->frameGeometry())));
        session->snapshots().tick();
        QTRY_VERIFY(dialog->streamModel()->rowCount() == 3);
        QCoreApplication::processEvents();
        const QTreeView* tree = dialog->streamView();
        const QHeaderView* header = tree->header();
        const int viewport = tree->viewport()->width();
        for (const int column : {int(ui::StreamStatisticsModel::SequenceErrors), int(ui::StreamStatisticsModel::Lost),
                                 int(ui::StreamStatisticsModel::LargestGap), int(ui::StreamStatisticsModel::Duplicates),
                                 int(ui::StreamStatisticsModel::Drops), int(ui::StreamStatisticsModel::Errors)}) {
            const int left = header->sectionViewportPosition(column);
            QVERIFY2(left >= 0 && left + header->sectionSize(column) <= viewport,
                     qPrintable(QStringLiteral("statistics: %1 at %2..%3 px, the view shows 0..%4 px")
                                    .arg(tree->model()->headerData(column, Qt::Horizontal).toString().replace(u'\n', u' '))
                                    .arg(left)
                                    .arg(left + header->sectionSize(column))
                                    .arg(viewport)));
        }
        if (available.width() >= 1900)
            QVERIFY2(header->length() <= viewport,
                     qPrintable(QStringLiteral("statistics: %1 px of columns in a view of %2 px").arg(header->length()).arg(viewport)));
        dialog->close();
    }

    // The displays: every one opened, those in front wholly shown (nothing to scroll to) on a
    // comfortable screen; on a small one they may scroll.
    const auto displays = window.displays();
    QCOMPARE(displays.size(), demoDisplays().size());
    for (const ui::DisplayDock* dock : displays) {
        QVERIFY2(dock->display(), qPrintable(dock->objectName() + QStringLiteral(": ") + dock->problems().join(u';')));
        if (!inFront(dock) || small)
            continue;
        const auto* scroll = dock->findChild<QScrollArea*>();
        QVERIFY(scroll && scroll->widget() == dock->display());
        const QSize content = dock->display()->size();
        const QSize view = scroll->viewport()->size();
        QVERIFY2(content.width() <= view.width() && content.height() <= view.height(),
                 qPrintable(QStringLiteral("%1: content %2x%3 in a view of %4x%5 (cut off, must scroll)")
                                .arg(dock->objectName())
                                .arg(content.width())
                                .arg(content.height())
                                .arg(view.width())
                                .arg(view.height())));
        QVERIFY(inside.contains(globalRect(scroll->viewport())));
    }
}

void TestWindowLayout::checkRestore()
{
    if (!isChild())
        QSKIP("runs in a child process with a screen of its own");
    requireScreen();
    QTemporaryDir dir;
    auto session = test::openSession(profileIn(dir));
    QSettings().clear();
    const QRect available = QGuiApplication::primaryScreen()->availableGeometry();
    if (available.width() < 1280 || available.height() < 720) {
        // Maximised on a small screen, the alarm list closed: it comes back maximised, the list closed.
        {
            ui::MainWindow window(*session);
            window.restoreLayout(demoDisplays());
            showAndSettle(window);
            QVERIFY(window.isMaximized());
            window.findChild<QDockWidget*>(QStringLiteral("alarmListDock"))->close();
            window.saveLayout();
        }
        ui::MainWindow window(*session);
        window.restoreLayout();
        showAndSettle(window);
        QVERIFY(window.isMaximized());
        QVERIFY(window.findChild<QDockWidget*>(QStringLiteral("alarmListDock"))->isHidden());
        return;
    }
    {
        // A layout that fits: a smaller window, the alarm list closed. It comes back as it was.
        ui::MainWindow window(*session);
        window.restoreLayout(demoDisplays());
        showAndSettle(window);
        window.resize(1000, 600);
        window.move(available.topLeft() + QPoint(20, 20));
        QTest::qWait(100);
        window.findChild<QDockWidget*>(QStringLiteral("alarmListDock"))->close();
        window.saveLayout();
    }
    {
        ui::MainWindow window(*session);
        window.restoreLayout();
        showAndSettle(window);
        QCOMPARE(window.size(), QSize(1000, 600));
        QVERIFY(window.findChild<QDockWidget*>(QStringLiteral("alarmListDock"))->isHidden());
        // Now as if saved on a larger screen: the frame it remembers does not fit this one.
        window.saveLayout();
        QSettings().setValue(QStringLiteral("window/frame"), QRect(0, 0, available.width() + 554, available.height() + 312));
    }
    {
        ui::MainWindow window(*session);
        window.restoreLayout();
        showAndSettle(window);
        QVERIFY2(available.contains(window.frameGeometry()), qPrintable(text(window.frameGeometry())));
        QVERIFY(window.width() > 1000); // the first start's size, not the saved one
        QVERIFY(window.findChild<QDockWidget*>(QStringLiteral("alarmListDock"))->isVisible()
                || !window.findChild<QDockWidget*>(QStringLiteral("alarmListDock"))->isHidden());
    }
}

QTEST_MAIN(TestWindowLayout)
#include "tst_ui_window_layout.moc"
