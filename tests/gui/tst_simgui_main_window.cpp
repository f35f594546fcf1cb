// The simulator's window driven through its widgets, against real streams sending UDP to loopback
// receivers of the test: start/stop, the live counters (0/s once stopped), rate and fault changes applied
// to the running stream, the rate hint as text, the add/edit dialog, scenario save/open, the demo
// scenario as the example it opens with, polling paused while hidden, and streams stopped when the
// window goes.
#include "core/common/paths.hpp"
#include "core/mdb/sqlite_store.hpp"
#include "sim/engine/scenario.hpp"
#include "sim/engine/simulator.hpp"
#include "sim/gui/rate_control.hpp"
#include "sim/gui/sim_main_window.hpp"
#include "sim/gui/stream_dialog.hpp"
#include "sim/gui/stream_table_model.hpp"
#include "tests/support/test_paths.hpp"

#include <QAction>
#include <QCheckBox>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QFile>
#include <QFileDialog>
#include <QFileInfo>
#include <QScopeGuard>
#include <QSettings>
#include <QLabel>
#include <QLayout>
#include <QLineEdit>
#include <QNetworkDatagram>
#include <QPushButton>
#include <QScreen>
#include <QSlider>
#include <QSpinBox>
#include <QTableView>
#include <QTableWidget>
#include <QTcpSocket>
#include <QTemporaryDir>
#include <QTimer>
#include <QToolBar>
#include <QUdpSocket>
#include <QtTest>

#include <functional>
#include <memory>

using namespace telestation;
using sim::Rate;
using sim::gui::StreamTableModel;

namespace {

// Counts the datagrams arriving on a loopback port of its own.
class UdpReceiver {
public:
    UdpReceiver()
    {
        m_socket.bind(QHostAddress::LocalHost, 0);
        m_socket.setSocketOption(QAbstractSocket::ReceiveBufferSizeSocketOption, 4 * 1024 * 1024);
        QObject::connect(&m_socket, &QUdpSocket::readyRead, &m_socket, [this] {
            while (m_socket.hasPendingDatagrams()) {
                m_bytes += static_cast<std::uint64_t>(m_socket.receiveDatagram().data().size());
                ++m_datagrams;
            }
        });
    }
    [[nodiscard]] bool bound() const { return m_socket.state() == QAbstractSocket::BoundState; }
    [[nodiscard]] std::string url() const { return "udp://127.0.0.1:" + std::to_string(m_socket.localPort()); }
    [[nodiscard]] std::uint64_t datagrams() const { return m_datagrams; }
    [[nodiscard]] std::uint64_t bytes() const { return m_bytes; }

private:
    QUdpSocket m_socket;
    std::uint64_t m_datagrams = 0;
    std::uint64_t m_bytes = 0;
};

sim::StreamConfig streamConfig(const std::string& name, const std::string& destination, double pps,
                               const std::string& packet = "HK_Status")
{
    sim::StreamConfig config;
    config.name = name;
    config.destination = destination;
    config.mix.push_back(sim::MixEntry{packet, 1});
    config.rate = Rate{Rate::Unit::PacketsPerSecond, pps};
    return config;
}

// The rate as the operator writes it (exact: the shortest text that reads back to the same rate).
QString rateText(const Rate& rate)
{
    return QString::fromStdString(sim::toString(rate));
}

template <typename T>
T* child(QObject& parent, const char* name)
{
    return parent.findChild<T*>(QString::fromLatin1(name));
}

// Clicks the tool bar button of an action; false (with a message) when it is missing or disabled.
bool clickAction(QMainWindow& window, const char* name)
{
    auto* action = child<QAction>(window, name);
    auto* toolBar = child<QToolBar>(window, "streamToolBar");
    if (!action || !toolBar) {
        qWarning("no action %s or no tool bar", name);
        return false;
    }
    if (!action->isEnabled()) {
        qWarning("action %s is disabled", name);
        return false;
    }
    QWidget* button = toolBar->widgetForAction(action);
    if (!button) {
        qWarning("action %s has no tool bar button", name);
        return false;
    }
    QTest::mouseClick(button, Qt::LeftButton);
    return true;
}

void clickRow(QTableView& table, int row)
{
    const QRect rect = table.visualRect(table.model()->index(row, StreamTableModel::Name));
    QTest::mouseClick(table.viewport(), Qt::LeftButton, {}, rect.center());
}

QVariant cell(QTableView& table, int row, int column, int role = StreamTableModel::ValueRole)
{
    return table.model()->index(row, column).data(role);
}

// Replaces a line edit's text as typed, then presses Return.
void typeAndReturn(QLineEdit& edit, const QString& text)
{
    edit.setFocus();
    edit.selectAll();
    QTest::keyClick(&edit, Qt::Key_Backspace);
    QTest::keyClicks(&edit, text);
    QTest::keyClick(&edit, Qt::Key_Return);
}

void retype(QLineEdit& edit, const QString& text)
{
    edit.selectAll();
    QTest::keyClick(&edit, Qt::Key_Backspace);
    QTest::keyClicks(&edit, text);
}

int packetRow(QTableWidget& table, const QString& name)
{
    for (int row = 0; row < table.rowCount(); ++row)
        if (table.item(row, 0)->text() == name)
            return row;
    return -1;
}

} // namespace

class TestSimMainWindow : public QObject {
    Q_OBJECT

private:
    std::unique_ptr<sim::gui::SimMainWindow> makeWindow(const std::vector<sim::StreamConfig>& configs)
    {
        auto simulator = std::make_unique<sim::Simulator>(m_db);
        for (const auto& config : configs) {
            const auto added = simulator->addStream(config);
            if (!added)
                qFatal("addStream: %s", added.error().toString().c_str());
        }
        return std::make_unique<sim::gui::SimMainWindow>(std::move(simulator), m_mdbPath);
    }

    mdb::MissionDatabase m_db;
    QString m_mdbPath;

private slots:
    void initTestCase()
    {
        qputenv("TELESTATION_DATA_DIR", QByteArray::fromStdString(test::dataDir()));
        m_mdbPath = QString::fromStdString(trainingDatabasePath().string());
        auto db = mdb::loadDatabase(m_mdbPath.toStdString());
        QVERIFY2(db, db ? "" : db.error().toString().c_str());
        m_db = std::move(db).value();
        QVERIFY(m_db.findPacket("HK_Status"));
        QVERIFY(m_db.findPacket("GNC_State"));
    }

    void startRateFaultsStopThroughWidgets()
    {
        UdpReceiver receiver;
        QVERIFY(receiver.bound());
        auto window = makeWindow({streamConfig("alpha", receiver.url(), 50)});
        window->show();
        QVERIFY(QTest::qWaitForWindowExposed(window.get()));
        sim::SimStream& stream = *window->simulator().streams().at(0);

        auto* table = child<QTableView>(*window, "streamTable");
        QVERIFY(table);
        QCOMPARE(table->model()->rowCount(), 1);
        QCOMPARE(cell(*table, 0, StreamTableModel::Name).toString(), QStringLiteral("alpha"));
        QCOMPARE(cell(*table, 0, StreamTableModel::State).toString(), QStringLiteral("stopped"));
        QCOMPARE(cell(*table, 0, StreamTableModel::Sent).toULongLong(), 0ULL);
        QCOMPARE(cell(*table, 0, StreamTableModel::Rate, Qt::DisplayRole).toString(), QStringLiteral("50pps"));

        clickRow(*table, 0);
        QVERIFY(!child<QAction>(*window, "stopStreamAction")->isEnabled());
        QVERIFY(clickAction(*window, "startStreamAction"));
        QVERIFY(stream.running());
        QTRY_VERIFY_WITH_TIMEOUT(receiver.datagrams() > 0, 10000);
        QTRY_VERIFY_WITH_TIMEOUT(cell(*table, 0, StreamTableModel::Sent).toULongLong() > 0, 10000);
        QCOMPARE(cell(*table, 0, StreamTableModel::State).toString(), QStringLiteral("running"));
        QTRY_VERIFY_WITH_TIMEOUT(cell(*table, 0, StreamTableModel::PacketsPerSecond).toDouble() > 0, 10000);
        QTRY_VERIFY_WITH_TIMEOUT(cell(*table, 0, StreamTableModel::MegabitsPerSecond).toDouble() > 0, 10000);
        QVERIFY(!child<QAction>(*window, "startStreamAction")->isEnabled());

        // The rate: a bad entry is refused (and said why), a good one is applied to the running stream.
        auto* rateEdit = child<QLineEdit>(*window, "rateEdit");
        auto* rateError = child<QLabel>(*window, "rateError");
        auto* rateSlider = child<QSlider>(*window, "rateSlider");
        QVERIFY(rateEdit && rateError && rateSlider);
        QCOMPARE(rateEdit->text(), QStringLiteral("50pps"));
        typeAndReturn(*rateEdit, QStringLiteral("fast"));
        QVERIFY(rateError->isVisible());
        QVERIFY(rateError->text().contains(QStringLiteral("fast")));
        QCOMPARE(rateText(stream.config().rate), QStringLiteral("50pps"));
        typeAndReturn(*rateEdit, QStringLiteral("400pps"));
        QVERIFY(!rateError->isVisible());
        QCOMPARE(rateText(stream.config().rate), QStringLiteral("400pps"));
        QCOMPARE(rateSlider->value(), sim::gui::RateControl::positionFor(400));
        QCOMPARE(cell(*table, 0, StreamTableModel::Rate, Qt::DisplayRole).toString(), QStringLiteral("400pps"));
        // The stream really goes faster (50 packets/s before).
        QTRY_VERIFY_WITH_TIMEOUT(cell(*table, 0, StreamTableModel::PacketsPerSecond).toDouble() > 150, 15000);

        // The slider, moved a decade up by the keyboard, applies a round rate.
        rateSlider->setFocus();
        QTest::keyClick(rateSlider, Qt::Key_PageUp);
        QCOMPARE(rateText(stream.config().rate), QStringLiteral("4kpps"));
        QCOMPARE(rateEdit->text(), QStringLiteral("4kpps"));
        typeAndReturn(*rateEdit, QStringLiteral("200pps"));
        QCOMPARE(rateText(stream.config().rate), QStringLiteral("200pps"));

        // Faults: the drop toggle and its probability reach the running stream; garbage is TCP only.
        auto* dropCheck = child<QCheckBox>(*window, "dropCheck");
        auto* dropProbability = child<QDoubleSpinBox>(*window, "dropProbability");
        auto* garbageCheck = child<QCheckBox>(*window, "garbageCheck");
        QVERIFY(dropCheck && dropProbability && garbageCheck);
        QVERIFY(!garbageCheck->isEnabled());
        QVERIFY(!dropProbability->isEnabled());
        QTest::mouseClick(dropCheck, Qt::LeftButton, {}, QPoint(8, dropCheck->height() / 2));
        QVERIFY(dropCheck->isChecked());
        QVERIFY(dropProbability->isEnabled());
        QCOMPARE(stream.config().faults.drop, 0.01);
        dropProbability->setValue(50);
        QCOMPARE(stream.config().faults.drop, 0.5);
        QCOMPARE(stream.config().faults.duplicate, 0.0);
        QTRY_VERIFY_WITH_TIMEOUT(stream.summary().faults.dropped > 0, 10000);
        QTRY_VERIFY(cell(*table, 0, StreamTableModel::Faults, Qt::DisplayRole).toString().contains(QStringLiteral("drop 50%")));
        QTest::mouseClick(dropCheck, Qt::LeftButton, {}, QPoint(8, dropCheck->height() / 2));
        QCOMPARE(stream.config().faults.drop, 0.0);

        QVERIFY(clickAction(*window, "stopStreamAction"));
        QVERIFY(!stream.running());
        QTRY_COMPARE(cell(*table, 0, StreamTableModel::State).toString(), QStringLiteral("stopped"));
        QTest::qWait(300); // datagrams in flight arrive
        const std::uint64_t received = receiver.datagrams();
        QTest::qWait(400);
        QCOMPARE(receiver.datagrams(), received);
        QVERIFY(child<QAction>(*window, "startStreamAction")->isEnabled());
    }

    // Stopped, a stream sends nothing: its rate reads 0 at once (not the last second's average), and so
    // do the totals. The rate hint under the slider reads as text, not as a placeholder.
    void stoppedStreamShowsNoRate()
    {
        UdpReceiver receiver;
        QVERIFY(receiver.bound());
        auto window = makeWindow({streamConfig("alpha", receiver.url(), 400)});
        window->show();
        QVERIFY(QTest::qWaitForWindowExposed(window.get()));
        auto* table = child<QTableView>(*window, "streamTable");
        QVERIFY(table);
        clickRow(*table, 0);
        QVERIFY(clickAction(*window, "startStreamAction"));
        QTRY_VERIFY_WITH_TIMEOUT(cell(*table, 0, StreamTableModel::PacketsPerSecond).toDouble() > 50, 10000);

        QVERIFY(clickAction(*window, "stopStreamAction"));
        QCOMPARE(cell(*table, 0, StreamTableModel::PacketsPerSecond).toDouble(), 0.0);
        QCOMPARE(cell(*table, 0, StreamTableModel::MegabitsPerSecond).toDouble(), 0.0);
        QCOMPARE(cell(*table, 0, StreamTableModel::PacketsPerSecond, Qt::DisplayRole).toString(), QStringLiteral("0"));
        auto* totals = child<QLabel>(*window, "totalsLabel");
        QVERIFY(totals);
        QVERIFY2(totals->text().contains(QStringLiteral("0 of 1 streams running — 0 packets/s")), qPrintable(totals->text()));

        auto* hint = child<QLabel>(*window, "rateHint");
        QVERIFY(hint && hint->isVisible());
        QVERIFY(hint->text().contains(QStringLiteral("packets/s")));
        QCOMPARE(hint->palette().color(QPalette::WindowText), window->palette().color(QPalette::WindowText));
        QVERIFY(!hint->font().italic());
        QVERIFY(!hint->text().contains(QStringLiteral("<i>")));
    }

    // The rate chart's legend is wider than its longest entry needs, with room around it, and the
    // window is not taller than the screen it opens on.
    void legendReadableAndWindowOnTheScreen()
    {
        auto window = makeWindow({streamConfig("tcp-mix", "udp://127.0.0.1:9", 10), streamConfig("b", "udp://127.0.0.1:9", 10)});
        window->show();
        QVERIFY(QTest::qWaitForWindowExposed(window.get()));
        const QRect available = window->screen()->availableGeometry();
        // Not taller than the screen (the offscreen screen is narrower than the controls need: the width
        // is theirs).
        QVERIFY2(window->frameGeometry().height() <= available.height(),
                 qPrintable(QStringLiteral("%1 px high on a screen of %2").arg(window->frameGeometry().height()).arg(available.height())));
        auto* legend = child<QWidget>(*window, "ratePlotLegend");
        QVERIFY(legend && legend->isVisible());
        QTRY_VERIFY(legend->width() > 0);
        const int entry = legend->fontMetrics().horizontalAdvance(QStringLiteral("tcp-mix"));
        QVERIFY2(legend->width() >= entry + 60, qPrintable(QStringLiteral("legend %1 px for an entry of %2 px").arg(legend->width()).arg(entry)));
        auto* plot = child<QWidget>(*window, "ratePlot");
        QVERIFY(plot);
        QVERIFY(legend->geometry().right() <= plot->width() - 1);
    }

    // Opened without streams (no --scenario, no --dest), the window offers the demo scenario, ready and
    // stopped.
    void opensTheExampleStopped()
    {
        auto window = makeWindow({});
        QCOMPARE(window->openExample(), QString());
        window->show();
        QVERIFY(QTest::qWaitForWindowExposed(window.get()));
        const auto demo = sim::loadScenarioFile(sim::gui::SimMainWindow::exampleScenarioPath().toStdString());
        QVERIFY2(demo, demo ? "" : demo.error().toString().c_str());
        QVERIFY(!demo->streams.empty());
        auto* table = child<QTableView>(*window, "streamTable");
        QVERIFY(table);
        QCOMPARE(table->model()->rowCount(), static_cast<int>(demo->streams.size()));
        for (int row = 0; row < table->model()->rowCount(); ++row) {
            QCOMPARE(cell(*table, row, StreamTableModel::Name).toString(),
                     QString::fromStdString(demo->streams[static_cast<std::size_t>(row)].name));
            QCOMPARE(cell(*table, row, StreamTableModel::State).toString(), QStringLiteral("stopped"));
        }
        QVERIFY(!window->simulator().anyRunning());
        QVERIFY(window->windowTitle().contains(QStringLiteral("demo.json")));
        QVERIFY(child<QAction>(*window, "startAllAction")->isEnabled());
    }

    void saveAndOpenScenario()
    {
        UdpReceiver receiver;
        sim::StreamConfig alpha = streamConfig("alpha", receiver.url(), 100);
        alpha.faults.drop = 0.1;
        sim::StreamConfig beta = streamConfig("beta", "udp://127.0.0.1:9", 10, "GNC_State");
        beta.mix.push_back(sim::MixEntry{"HK_Status", 2.5});
        beta.count = 500;
        beta.transportHeaderBytes = 4;
        beta.seed = 42;
        auto window = makeWindow({alpha, beta});
        window->show();
        QVERIFY(QTest::qWaitForWindowExposed(window.get()));

        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const QString path = dir.filePath(QStringLiteral("two-streams.json"));
        QCOMPARE(window->saveScenario(path), QString());
        QVERIFY(QFile::exists(path));
        QVERIFY(window->windowTitle().contains(QStringLiteral("two-streams.json")));
        QVERIFY(!window->saveScenario(dir.filePath(QStringLiteral("no/such/dir/x.json"))).isEmpty());

        // Opened in another window: the same streams.
        auto other = makeWindow({});
        other->show();
        QVERIFY(QTest::qWaitForWindowExposed(other.get()));
        auto* otherTable = child<QTableView>(*other, "streamTable");
        QCOMPARE(otherTable->model()->rowCount(), 0);
        QCOMPARE(other->openScenario(path), QString());
        QCOMPARE(other->simulator().scenario().streams, window->simulator().scenario().streams);
        QCOMPARE(other->simulator().scenario().streams.size(), std::size_t{2});
        QCOMPARE(otherTable->model()->rowCount(), 2);
        QCOMPARE(cell(*otherTable, 1, StreamTableModel::Name).toString(), QStringLiteral("beta"));

        // Opened again in the first window (replacing its streams): the same streams again.
        window->simulator().streams()[0]->setRate(Rate{Rate::Unit::PacketsPerSecond, 7});
        QCOMPARE(window->openScenario(path), QString());
        QCOMPARE(window->simulator().scenario().streams, (std::vector<sim::StreamConfig>{alpha, beta}));

        // A missing file and a scenario naming an unknown packet type: errors, the streams stay.
        QVERIFY(!window->openScenario(dir.filePath(QStringLiteral("missing.json"))).isEmpty());
        sim::Scenario bad;
        bad.streams.push_back(streamConfig("gamma", receiver.url(), 10, "NoSuchPacket"));
        const QString badPath = dir.filePath(QStringLiteral("bad.json"));
        QVERIFY(sim::saveScenarioFile(bad, badPath.toStdString()));
        const QString error = window->openScenario(badPath);
        QVERIFY2(error.contains(QStringLiteral("NoSuchPacket")), qPrintable(error));
        QCOMPARE(window->simulator().scenario().streams, (std::vector<sim::StreamConfig>{alpha, beta}));
        QCOMPARE(child<QTableView>(*window, "streamTable")->model()->rowCount(), 2);
    }

    // The scenario file dialogs start in a folder the operator chose, never in the installation or the
    // working directory: "Save scenario as" on the installed example proposes its name at home; once
    // saved somewhere, Save as and Open start there.
    void scenarioDialogsStartInSensibleFolders()
    {
        QTemporaryDir settings, home, working, chosen;
        QVERIFY(settings.isValid() && home.isValid() && working.isValid() && chosen.isValid());
        QSettings::setPath(QSettings::NativeFormat, QSettings::UserScope, settings.path());
        QSettings::setPath(QSettings::IniFormat, QSettings::UserScope, settings.path());
        const QByteArray oldHome = qgetenv("HOME");
        qputenv("HOME", home.path().toLocal8Bit());
        const QString oldWorking = QDir::currentPath();
        QVERIFY(QDir::setCurrent(working.path()));
        QApplication::setAttribute(Qt::AA_DontUseNativeDialogs);
        const auto restore = qScopeGuard([&] {
            qputenv("HOME", oldHome);
            QDir::setCurrent(oldWorking);
        });
        const auto canonical = [](const QString& path) { return QFileInfo(path).canonicalFilePath(); };

        auto window = makeWindow({});
        QCOMPARE(window->openExample(), QString());
        window->show();
        QVERIFY(QTest::qWaitForWindowExposed(window.get()));
        // Runs `drive` on the file dialog `action` opens; false when none opened.
        const auto withFileDialog = [&](const char* action, const std::function<void(QFileDialog&)>& drive) {
            bool seen = false;
            QTimer::singleShot(0, window.get(), [&] {
                auto* dialog = qobject_cast<QFileDialog*>(QApplication::activeModalWidget());
                if (!dialog)
                    return;
                seen = true;
                drive(*dialog);
                if (dialog->isVisible())
                    dialog->reject();
            });
            child<QAction>(*window, action)->trigger();
            return seen;
        };

        // The example is open: Save as proposes demo.json at home, not in the installed data.
        QVERIFY(withFileDialog("saveScenarioAction", [&](QFileDialog& d) {
            QCOMPARE(canonical(d.directory().absolutePath()), canonical(home.path()));
            QCOMPARE(d.selectedFiles().value(0).section(QLatin1Char('/'), -1), QStringLiteral("demo.json"));
        }));
        // Saved into a folder of the operator's: the file and the folder are remembered.
        const QString saved = chosen.filePath(QStringLiteral("pass-42.json"));
        QVERIFY(withFileDialog("saveScenarioAction", [&](QFileDialog& d) {
            d.selectFile(saved);
            static_cast<QDialog&>(d).accept();
        }));
        QVERIFY(QFile::exists(saved));
        QVERIFY(window->windowTitle().contains(QStringLiteral("pass-42.json")));
        QVERIFY(withFileDialog("saveScenarioAction", [&](QFileDialog& d) {
            QCOMPARE(canonical(d.directory().absolutePath()), canonical(chosen.path()));
            QCOMPARE(canonical(d.selectedFiles().value(0)), canonical(saved));
        }));
        QVERIFY(withFileDialog("openScenarioAction", [&](QFileDialog& d) {
            QCOMPARE(canonical(d.directory().absolutePath()), canonical(chosen.path()));
        }));
        // A new window without a scenario: Open starts in the folder used last, not the working directory.
        auto fresh = makeWindow({});
        fresh->show();
        QVERIFY(QTest::qWaitForWindowExposed(fresh.get()));
        bool seen = false;
        QTimer::singleShot(0, fresh.get(), [&] {
            auto* dialog = qobject_cast<QFileDialog*>(QApplication::activeModalWidget());
            if (!dialog)
                return;
            seen = true;
            QCOMPARE(canonical(dialog->directory().absolutePath()), canonical(chosen.path()));
            dialog->reject();
        });
        child<QAction>(*fresh, "openScenarioAction")->trigger();
        QVERIFY(seen);
    }

    void addStreamDialog()
    {
        UdpReceiver first;
        UdpReceiver second;
        auto window = makeWindow({streamConfig("alpha", first.url(), 10)});
        window->show();
        QVERIFY(QTest::qWaitForWindowExposed(window.get()));

        QVERIFY(clickAction(*window, "addStreamAction"));
        sim::gui::StreamDialog* dialog = nullptr;
        QTRY_VERIFY((dialog = window->findChild<sim::gui::StreamDialog*>()) != nullptr && dialog->isVisible());
        auto* ok = child<QPushButton>(*dialog, "okButton");
        auto* name = child<QLineEdit>(*dialog, "nameEdit");
        auto* destination = child<QLineEdit>(*dialog, "destinationEdit");
        auto* destinationError = child<QLabel>(*dialog, "destinationError");
        auto* packets = child<QTableWidget>(*dialog, "packetTable");
        auto* rate = child<QLineEdit>(*dialog, "streamRateEdit");
        auto* stopAfter = child<QComboBox>(*dialog, "stopAfterCombo");
        auto* count = child<QSpinBox>(*dialog, "countSpin");
        QVERIFY(ok && name && destination && destinationError && packets && rate && stopAfter && count);
        QCOMPARE(name->text(), QStringLiteral("stream2"));
        QVERIFY(!ok->isEnabled()); // no destination yet

        retype(*destination, QStringLiteral("udp://127.0.0.1:notaport"));
        QVERIFY(!ok->isEnabled());
        QVERIFY(destinationError->isVisible());
        QVERIFY(!destinationError->text().isEmpty());
        retype(*destination, QStringLiteral("file:///tmp/recording"));
        QVERIFY(!ok->isEnabled());
        QVERIFY(destinationError->isVisible());
        retype(*destination, QString::fromStdString(second.url()));
        QVERIFY(!destinationError->isVisible());
        QVERIFY(ok->isEnabled());

        retype(*name, QStringLiteral("alpha")); // taken
        QVERIFY(!ok->isEnabled());
        QVERIFY(dialog->validationError().contains(QStringLiteral("alpha")));
        retype(*name, QStringLiteral("gamma"));
        QVERIFY(ok->isEnabled());

        // The mix: GNC_State with weight 3 instead of the default first packet type.
        const int gnc = packetRow(*packets, QStringLiteral("GNC_State"));
        QVERIFY(gnc > 0);
        packets->item(0, 0)->setCheckState(Qt::Unchecked);
        QVERIFY(!ok->isEnabled()); // an empty mix
        packets->item(gnc, 0)->setCheckState(Qt::Checked);
        QVERIFY(ok->isEnabled());
        auto* weight = child<QDoubleSpinBox>(*dialog, "weight_GNC_State");
        QVERIFY(weight && weight->isEnabled());
        weight->setValue(3);

        retype(*rate, QStringLiteral("200 pps"));
        QVERIFY(!ok->isEnabled());
        retype(*rate, QStringLiteral("200pps"));
        QVERIFY(ok->isEnabled());
        stopAfter->setCurrentIndex(2);
        QVERIFY(count->isVisible());
        count->setValue(50);

        QTest::mouseClick(ok, Qt::LeftButton);
        QTRY_VERIFY(window->findChild<sim::gui::StreamDialog*>() == nullptr);
        auto& streams = window->simulator().streams();
        QCOMPARE(streams.size(), std::size_t{2});
        const sim::StreamConfig& added = streams[1]->config();
        QCOMPARE(added.name, std::string("gamma"));
        QCOMPARE(added.destination, second.url());
        QCOMPARE(added.mix, (std::vector<sim::MixEntry>{{"GNC_State", 3}}));
        QCOMPARE(rateText(added.rate), QStringLiteral("200pps"));
        QCOMPARE(added.count, std::optional<std::uint64_t>(50));
        QVERIFY(!added.durationSeconds);

        auto* table = child<QTableView>(*window, "streamTable");
        QCOMPARE(table->model()->rowCount(), 2);
        QCOMPARE(table->currentIndex().row(), 1); // the new stream is selected
        QVERIFY(clickAction(*window, "startStreamAction"));
        QTRY_COMPARE_WITH_TIMEOUT(second.datagrams(), std::uint64_t{50}, 10000);
        QTRY_COMPARE_WITH_TIMEOUT(cell(*table, 1, StreamTableModel::State).toString(), QStringLiteral("finished"), 10000);
        QCOMPARE(first.datagrams(), std::uint64_t{0}); // alpha was not started
        QCOMPARE(second.bytes(), std::uint64_t{50} * m_db.findPacket("GNC_State")->length);

        // Cancel adds nothing.
        QVERIFY(clickAction(*window, "addStreamAction"));
        QTRY_VERIFY((dialog = window->findChild<sim::gui::StreamDialog*>()) != nullptr && dialog->isVisible());
        QTest::mouseClick(child<QPushButton>(*dialog, "cancelButton"), Qt::LeftButton);
        QTRY_VERIFY(window->findChild<sim::gui::StreamDialog*>() == nullptr);
        QCOMPARE(streams.size(), std::size_t{2});
    }

    void editRunningStream()
    {
        UdpReceiver first;
        UdpReceiver second;
        UdpReceiver betaReceiver;
        sim::StreamConfig alpha = streamConfig("alpha", first.url(), 100);
        alpha.faults.reorder = 0.2;
        auto window = makeWindow({alpha, streamConfig("beta", betaReceiver.url(), 10)});
        window->show();
        QVERIFY(QTest::qWaitForWindowExposed(window.get()));
        auto* table = child<QTableView>(*window, "streamTable");

        clickRow(*table, 0);
        QVERIFY(clickAction(*window, "startStreamAction"));
        QTRY_VERIFY_WITH_TIMEOUT(first.datagrams() > 0, 10000);

        QVERIFY(clickAction(*window, "editStreamAction"));
        sim::gui::StreamDialog* dialog = nullptr;
        QTRY_VERIFY((dialog = window->findChild<sim::gui::StreamDialog*>()) != nullptr && dialog->isVisible());
        QCOMPARE(child<QLineEdit>(*dialog, "nameEdit")->text(), QStringLiteral("alpha"));
        retype(*child<QLineEdit>(*dialog, "destinationEdit"), QString::fromStdString(second.url()));
        retype(*child<QLineEdit>(*dialog, "streamRateEdit"), QStringLiteral("300pps"));
        QTest::mouseClick(child<QPushButton>(*dialog, "okButton"), Qt::LeftButton);
        QTRY_VERIFY(window->findChild<sim::gui::StreamDialog*>() == nullptr);

        auto& streams = window->simulator().streams();
        QCOMPARE(streams.size(), std::size_t{2});
        QCOMPARE(streams[0]->config().name, std::string("alpha")); // at the same position
        QCOMPARE(streams[0]->config().destination, second.url());
        QCOMPARE(rateText(streams[0]->config().rate), QStringLiteral("300pps"));
        QCOMPARE(streams[0]->config().faults.reorder, 0.2); // kept
        QCOMPARE(streams[1]->config().name, std::string("beta"));
        QVERIFY(streams[0]->running()); // restarted
        QVERIFY(!streams[1]->running());
        QTRY_VERIFY_WITH_TIMEOUT(second.datagrams() > 0, 10000);
        QCOMPARE(child<QLineEdit>(*window, "rateEdit")->text(), QStringLiteral("300pps"));
        QCOMPARE(betaReceiver.datagrams(), std::uint64_t{0});

        // Removing the selected stream stops it.
        clickRow(*table, 0);
        QVERIFY(clickAction(*window, "removeStreamAction"));
        QCOMPARE(streams.size(), std::size_t{1});
        QCOMPARE(streams[0]->config().name, std::string("beta"));
        QCOMPARE(table->model()->rowCount(), 1);
        QTest::qWait(300);
        const std::uint64_t received = second.datagrams();
        QTest::qWait(400);
        QCOMPARE(second.datagrams(), received);
    }

    void pollingPausesWhileHidden()
    {
        UdpReceiver receiver;
        auto window = makeWindow({streamConfig("alpha", receiver.url(), 200)});
        auto* timer = child<QTimer>(*window, "refreshTimer");
        QVERIFY(timer);
        QVERIFY(!timer->isActive()); // not shown yet
        window->show();
        QVERIFY(QTest::qWaitForWindowExposed(window.get()));
        QVERIFY(timer->isActive());
        QVERIFY(clickAction(*window, "startAllAction"));
        auto* table = child<QTableView>(*window, "streamTable");
        QTRY_VERIFY_WITH_TIMEOUT(cell(*table, 0, StreamTableModel::Sent).toULongLong() > 0, 10000);

        window->hide();
        QVERIFY(!timer->isActive());
        const auto shown = cell(*table, 0, StreamTableModel::Sent).toULongLong();
        const auto before = window->simulator().streams()[0]->live().packets;
        QTRY_VERIFY_WITH_TIMEOUT(window->simulator().streams()[0]->live().packets > before + 20, 10000);
        QTest::qWait(2 * 250);
        QCOMPARE(cell(*table, 0, StreamTableModel::Sent).toULongLong(), shown); // not polled
        QVERIFY(window->simulator().streams()[0]->running()); // hiding does not stop the streams

        window->show();
        QVERIFY(timer->isActive());
        QTRY_VERIFY(cell(*table, 0, StreamTableModel::Sent).toULongLong() > shown);

        window->setWindowState(Qt::WindowMinimized);
        QTRY_VERIFY(!timer->isActive());
        window->setWindowState(Qt::WindowNoState);
        QTRY_VERIFY(timer->isActive());
    }

    void tcpListenStreamShowsItsClients()
    {
        auto window = makeWindow({streamConfig("server", "tcp-listen://127.0.0.1:0", 20)});
        window->show();
        QVERIFY(QTest::qWaitForWindowExposed(window.get()));
        const std::uint16_t port = window->simulator().streams()[0]->localPort();
        QVERIFY(port != 0);
        auto* table = child<QTableView>(*window, "streamTable");
        QVERIFY(child<QCheckBox>(*window, "garbageCheck")->isEnabled()); // a TCP stream
        QVERIFY(clickAction(*window, "startStreamAction"));
        QTRY_VERIFY_WITH_TIMEOUT(cell(*table, 0, StreamTableModel::State).toString().contains(QStringLiteral("(0 clients)")), 10000);
        QVERIFY(cell(*table, 0, StreamTableModel::State).toString().startsWith(QStringLiteral("listening on")));

        QTcpSocket client;
        client.connectToHost(QHostAddress::LocalHost, port);
        QVERIFY(client.waitForConnected(5000));
        QTRY_VERIFY_WITH_TIMEOUT(cell(*table, 0, StreamTableModel::State).toString().contains(QStringLiteral("(1 client)")), 10000);
        QTRY_VERIFY_WITH_TIMEOUT(client.bytesAvailable() >= 32, 10000); // HK_Status packets arrive
        QVERIFY(clickAction(*window, "stopAllAction"));
        QCOMPARE(cell(*table, 0, StreamTableModel::State).toString(), QStringLiteral("stopped"));
    }

    void closingStopsStreams()
    {
        UdpReceiver receiver;
        auto window = makeWindow({streamConfig("alpha", receiver.url(), 200), streamConfig("beta", receiver.url(), 100)});
        window->show();
        QVERIFY(QTest::qWaitForWindowExposed(window.get()));
        QVERIFY(clickAction(*window, "startAllAction"));
        QVERIFY(window->simulator().anyRunning());
        QVERIFY(child<QAction>(*window, "stopAllAction")->isEnabled());
        QVERIFY(!child<QAction>(*window, "startAllAction")->isEnabled());
        QTRY_VERIFY_WITH_TIMEOUT(receiver.datagrams() > 10, 10000);
        QVERIFY(child<QLabel>(*window, "totalsLabel")->text().contains(QStringLiteral("2 of 2 streams running")));

        window.reset(); // the destructor stops every stream
        QTest::qWait(300);
        const std::uint64_t received = receiver.datagrams();
        QTest::qWait(500);
        QCOMPARE(receiver.datagrams(), received);
    }
};

QTEST_MAIN(TestSimMainWindow)
#include "tst_simgui_main_window.moc"
