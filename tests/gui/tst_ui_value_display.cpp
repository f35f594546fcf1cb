// The value display against a real station (one UDP stream on loopback, the simulator sending packets
// with constant generators): the cells equal the values sent (raw, calibrated, enumeration text, units,
// hex/decimal), rows are coloured by limit state and turn grey when stale, refresh() reads only the rows
// whose packet type moved and signals in blocks (never a reset), completion lists the qualified names,
// drops and removal, the timer runs only while visible. Prints (does not assert) the refresh time of
// 1,000 rows.
#include "core/config/station_profile.hpp"
#include "core/pipeline/station.hpp"
#include "sim/engine/sim_stream.hpp"
#include "ui/displays/value_display.hpp"
#include "ui/models/value_table_model.hpp"
#include "tests/support/model_builders.hpp"
#include "tests/support/sim_traffic.hpp"
#include "tests/support/station_fixture.hpp"

#include <QAbstractItemModel>
#include <QColor>
#include <QComboBox>
#include <QCompleter>
#include <QDateTime>
#include <QElapsedTimer>
#include <QItemSelectionModel>
#include <QLabel>
#include <QLineEdit>
#include <QMimeData>
#include <QSettings>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTabWidget>
#include <QTableView>
#include <QToolButton>
#include <QtTest>

#include <algorithm>
#include <chrono>
#include <map>
#include <memory>
#include <string>
#include <thread>
#include <vector>

using namespace telestation;
using namespace std::chrono_literals;
using ui::ValueDisplay;
using ui::ValueTableModel;

namespace {

constexpr int kValue = ValueTableModel::kValueRole;
constexpr int kBulkParameters = 1000;
constexpr std::uint16_t kBulkApid = 50;

// The training database plus "Bulk": 1,000 16-bit parameters in one packet (the training mission has
// 145 parameters in all), every tenth with limits 100..60000 yellow / 50..65000 red.
mdb::MissionDatabase testDb()
{
    auto db = test::trainingDatabase();
    db.packets.push_back(test::makeBulkPacket(kBulkApid, kBulkParameters));
    return db;
}

sim::GeneratorSpec constantRaw(double value)
{
    sim::GeneratorSpec g;
    g.kind = sim::GeneratorKind::Constant;
    g.domain = sim::ValueDomain::Raw;
    g.value = value;
    return g;
}

// Sends `count` packets of each type of `mix` to the station's stream "tm" and waits until they are sent.
void send(const pipeline::Station& station, const std::vector<std::string>& mix,
          const std::map<std::string, sim::GeneratorSpec>& generators, std::uint64_t count = 1)
{
    auto config = test::traffic(test::streamAddress(station, "tm"), mix, count * mix.size(), 2000);
    config.generators = generators;
    test::send(config, station.database());
}

int rowOf(const ValueTableModel& model, const QString& qualifiedName)
{
    for (int r = 0; r < model.rowCount(); ++r)
        if (model.index(r, ValueTableModel::Name).data(kValue).toString() == qualifiedName)
            return r;
    return -1;
}

QVariant cell(const ValueTableModel& model, int row, int column, int role = Qt::DisplayRole)
{
    return model.index(row, column).data(role);
}

QColor background(const ValueTableModel& model, int row, int column = ValueTableModel::Raw)
{
    return cell(model, row, column, Qt::BackgroundRole).value<QColor>();
}

QString hex(std::uint64_t value, int digits)
{
    return QStringLiteral("0x") + QString::number(value, 16).toUpper().rightJustified(digits, QLatin1Char('0'));
}

// dataChanged signals as (first row, last row, first column, last column).
struct Change {
    int top, bottom, left, right;
};
std::vector<Change> changes(const QSignalSpy& spy)
{
    std::vector<Change> out;
    for (const auto& args : spy) {
        const auto tl = args.at(0).value<QModelIndex>();
        const auto br = args.at(1).value<QModelIndex>();
        out.push_back({tl.row(), br.row(), tl.column(), br.column()});
    }
    return out;
}

} // namespace

class TestValueDisplay : public QObject {
    Q_OBJECT

    mdb::MissionDatabase m_db;

    // One UDP stream "tm": Packet5 and Bulk processed entirely.
    std::unique_ptr<pipeline::Station> startStation()
    {
        config::StationProfile profile;
        profile.streams = {test::streamProfile("tm", "udp://127.0.0.1:0",
                                               {{7, std::nullopt, config::ProcessingMode::ProcessEntirePacket, false, {}},
                                                {kBulkApid, std::nullopt, config::ProcessingMode::ProcessEntirePacket, false, {}}})};
        auto station = test::startStation(profile, m_db);
        if (!station)
            qFatal("the station did not start");
        return station;
    }

    static std::map<std::string, sim::GeneratorSpec> packet5Values()
    {
        return {
            {"Packet5.BUS_28V_VOLTAGE", constantRaw(28000)},  // POLY 0 0.001 -> 28 V, within 25..31
            {"Packet5.TC_REJECTED_COUNT", constantRaw(7)},    // LIMITS 0 0 0 3 -> red high
            {"Packet5.OPS_MODE", constantRaw(3)},             // "SCIENCE", expected
            {"Packet5.BUS_28V_CURRENT", constantRaw(17000)},  // POLY 0 0.0005 -> 8.5 A, yellow high (8..10)
            {"Packet5.FOCUS_OFFSET", constantRaw(0x1D)},      // 5-bit signed: -3 step
            {"Packet5.SAFE_MODE_FLAG", constantRaw(1)},       // "SAFE", not expected
        };
    }

private slots:
    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true);
        QSettings().clear();
        m_db = testDb();
    }

    void init() { QSettings().clear(); }

    // Three parameters added by name (one typed into the line edit): the cells equal the values sent.
    void cellsShowTheValuesSent()
    {
        auto station = startStation();
        const std::uint16_t port = station->localPort("tm");
        QVERIFY(port != 0);
        ValueDisplay display(*station);
        ValueTableModel& model = *display.model();
        QSignalSpy resets(&model, &QAbstractItemModel::modelReset);

        auto* edit = display.findChild<QLineEdit*>(QStringLiteral("parameterEdit"));
        QVERIFY(edit);
        QTest::keyClicks(edit, QStringLiteral("Packet5.BUS_28V_VOLTAGE"));
        QTest::keyClick(edit, Qt::Key_Return);
        QCOMPARE(model.rowCount(), 1);
        QVERIFY(edit->text().isEmpty());
        QVERIFY(display.addParameter(QStringLiteral("Packet5.TC_REJECTED_COUNT")));
        QVERIFY(display.addParameter(QStringLiteral("Packet5.OPS_MODE")));
        QCOMPARE(model.rowCount(), 3);
        // Nothing received yet: empty cells, no colour.
        QVERIFY(!model.sample(0));
        QCOMPARE(model.rowState(0), ValueTableModel::RowState::NoValue);
        QVERIFY(!cell(model, 0, ValueTableModel::Raw, Qt::BackgroundRole).isValid());
        QCOMPARE(cell(model, 0, ValueTableModel::Units).toString(), QStringLiteral("V"));

        // Refused: twice the same, not a parameter.
        QVERIFY(!display.addParameter(QStringLiteral("Packet5.OPS_MODE")));
        QVERIFY(!display.addParameter(QStringLiteral("Packet5.NO_SUCH")));
        auto* message = display.findChild<QLabel*>(QStringLiteral("messageLabel"));
        QVERIFY(message->text().contains(QStringLiteral("Packet5.NO_SUCH")));
        QCOMPARE(model.rowCount(), 3);

        send(*station, {"Packet5"}, packet5Values());
        QVERIFY(test::settle(*station, "tm", 1));
        QSignalSpy changed(&model, &QAbstractItemModel::dataChanged);
        QCOMPARE(model.refresh(), 3);

        const int volt = rowOf(model, QStringLiteral("Packet5.BUS_28V_VOLTAGE"));
        const int rejected = rowOf(model, QStringLiteral("Packet5.TC_REJECTED_COUNT"));
        const int mode = rowOf(model, QStringLiteral("Packet5.OPS_MODE"));
        QVERIFY(volt >= 0 && rejected >= 0 && mode >= 0);

        QCOMPARE(cell(model, volt, ValueTableModel::Raw, kValue).toULongLong(), 28000ull);
        QCOMPARE(cell(model, volt, ValueTableModel::Raw).toString(), hex(28000, 4));
        QCOMPARE(cell(model, volt, ValueTableModel::Converted, kValue).toULongLong(), 28000ull);
        QVERIFY(qFuzzyCompare(cell(model, volt, ValueTableModel::Calibrated, kValue).toDouble(), 28.0));
        QCOMPARE(cell(model, volt, ValueTableModel::Calibrated).toString(), QStringLiteral("28"));
        QCOMPARE(cell(model, volt, ValueTableModel::Limit).toString(), QStringLiteral("normal"));

        QCOMPARE(cell(model, rejected, ValueTableModel::Raw, kValue).toULongLong(), 7ull);
        QCOMPARE(cell(model, rejected, ValueTableModel::Raw).toString(), hex(7, 2));
        QCOMPARE(cell(model, rejected, ValueTableModel::Calibrated, kValue).toDouble(), 7.0);
        QCOMPARE(cell(model, rejected, ValueTableModel::Limit).toString(), QStringLiteral("red high"));

        QCOMPARE(cell(model, mode, ValueTableModel::Raw, kValue).toULongLong(), 3ull);
        QCOMPARE(cell(model, mode, ValueTableModel::Raw).toString(), hex(3, 1));
        QCOMPARE(cell(model, mode, ValueTableModel::Calibrated).toString(), QStringLiteral("SCIENCE"));

        // Colours: green for normal, red for red limits; dark text on both.
        QCOMPARE(model.rowState(volt), ValueTableModel::RowState::Normal);
        QCOMPARE(model.rowState(rejected), ValueTableModel::RowState::Red);
        QCOMPARE(model.rowState(mode), ValueTableModel::RowState::Normal);
        const QColor green = background(model, volt);
        const QColor red = background(model, rejected, ValueTableModel::Name);
        QVERIFY(green.isValid() && green.green() > green.red() && green.green() > green.blue());
        QVERIFY(red.isValid() && red.red() > red.green() && red.red() > red.blue());
        QVERIFY(cell(model, rejected, ValueTableModel::Age, Qt::ForegroundRole).value<QColor>().lightness() < 100);

        // Packet time (UTC, from the secondary header) and age (since receive) are plausible.
        const auto sample = model.sample(volt);
        QVERIFY(sample && sample->packetTimeNs != 0);
        QDateTime packetTime = QDateTime::fromString(cell(model, volt, ValueTableModel::PacketTime).toString(),
                                                     QStringLiteral("yyyy-MM-dd hh:mm:ss.zzz"));
        QVERIFY(packetTime.isValid());
        packetTime.setTimeSpec(Qt::UTC);
        QCOMPARE(packetTime.toMSecsSinceEpoch(), sample->packetTimeNs / 1'000'000);
        QCOMPARE(cell(model, volt, ValueTableModel::PacketTime, kValue).toLongLong(), sample->packetTimeNs);
        const double age = cell(model, volt, ValueTableModel::Age, kValue).toDouble();
        QVERIFY2(age >= 0 && age < 10, qPrintable(QString::number(age)));

        // The refresh signalled the three rows as one block, then the age column.
        auto blocks = changes(changed);
        QCOMPARE(blocks.size(), std::size_t{2});
        QCOMPARE(blocks[0].top, 0);
        QCOMPARE(blocks[0].bottom, 2);
        QCOMPARE(blocks[0].left, 0);
        QCOMPARE(blocks[0].right, ValueTableModel::ColumnCount - 1);
        QCOMPARE(blocks[1].left, ValueTableModel::Age);
        QCOMPARE(blocks[1].right, ValueTableModel::Age);

        // Nothing new: no row is read, only the ages move.
        changed.clear();
        QCOMPARE(model.refresh(), 0);
        blocks = changes(changed);
        QCOMPARE(blocks.size(), std::size_t{1});
        QCOMPARE(blocks[0].left, ValueTableModel::Age);

        // A row of another packet type in the middle: a new Packet5 signals two blocks around it.
        QVERIFY(model.addParameter(QStringLiteral("tm"), QStringLiteral("Bulk.P000")));
        QVERIFY(model.addParameter(QStringLiteral("tm"), QStringLiteral("Packet5.UPTIME")));
        changed.clear();
        auto values = packet5Values();
        values["Packet5.BUS_28V_VOLTAGE"] = constantRaw(33000); // 33 V: red high now
        send(*station, {"Packet5"}, values);
        QVERIFY(test::settle(*station, "tm", 2));
        QCOMPARE(model.refresh(), 4);
        blocks = changes(changed);
        QCOMPARE(blocks.size(), std::size_t{3});
        QCOMPARE(blocks[0].top, 0);
        QCOMPARE(blocks[0].bottom, 2);
        QCOMPARE(blocks[1].top, 4);
        QCOMPARE(blocks[1].bottom, 4);
        QCOMPARE(cell(model, volt, ValueTableModel::Raw, kValue).toULongLong(), 33000ull);
        QCOMPARE(model.rowState(volt), ValueTableModel::RowState::Red);
        QCOMPARE(cell(model, volt, ValueTableModel::Limit).toString(), QStringLiteral("red high"));
        QCOMPARE(resets.count(), 0);
    }

    // The raw format toggle: decimal text, remembered in the settings for the next display.
    void rawHexOrDecimal()
    {
        auto station = startStation();
        {
            ValueDisplay display(*station);
            QVERIFY(display.isRawHex()); // the default
            QVERIFY(display.addParameter(QStringLiteral("Packet5.BUS_28V_VOLTAGE")));
            send(*station, {"Packet5"}, packet5Values());
            QVERIFY(test::settle(*station, "tm", 1));
            display.refresh();
            ValueTableModel& model = *display.model();
            QCOMPARE(cell(model, 0, ValueTableModel::Raw).toString(), hex(28000, 4));
            QSignalSpy changed(&model, &QAbstractItemModel::dataChanged);
            display.findChild<QToolButton*>(QStringLiteral("rawHexButton"))->click();
            QVERIFY(!display.isRawHex());
            QCOMPARE(changed.count(), 1);
            QCOMPARE(cell(model, 0, ValueTableModel::Raw).toString(), QStringLiteral("28000"));
        }
        ValueDisplay again(*station);
        QVERIFY(!again.isRawHex());
        QCOMPARE(again.model()->rawFormat(), ValueTableModel::RawFormat::Decimal);
        again.setRawHex(true);
        QVERIFY(again.findChild<QToolButton*>(QStringLiteral("rawHexButton"))->isChecked());
    }

    // A row turns grey when no value came for longer than the stale timeout, and back when one comes.
    void staleAfterTheTimeout()
    {
        auto station = startStation();
        ValueDisplay display(*station);
        display.setStaleTimeout(0.3);
        ValueTableModel& model = *display.model();
        QVERIFY(display.addParameter(QStringLiteral("Packet5.TC_REJECTED_COUNT")));
        send(*station, {"Packet5"}, packet5Values());
        QVERIFY(test::settle(*station, "tm", 1));
        model.refresh();
        QCOMPARE(model.rowState(0), ValueTableModel::RowState::Red);

        std::this_thread::sleep_for(400ms);
        QSignalSpy changed(&model, &QAbstractItemModel::dataChanged);
        QCOMPARE(model.refresh(), 0); // nothing read: the clock alone made it stale
        QCOMPARE(model.rowState(0), ValueTableModel::RowState::Stale);
        QCOMPARE(changes(changed).size(), std::size_t{2}); // the row (its colour), the ages
        const QColor grey = background(model, 0);
        QVERIFY(grey.isValid() && grey.red() == grey.green() && grey.green() == grey.blue());
        QVERIFY(cell(model, 0, ValueTableModel::Raw, Qt::ForegroundRole).value<QColor>().lightness() > 100);
        QVERIFY(cell(model, 0, ValueTableModel::Age, kValue).toDouble() > 0.3);
        // The value is still shown.
        QCOMPARE(cell(model, 0, ValueTableModel::Raw, kValue).toULongLong(), 7ull);

        send(*station, {"Packet5"}, packet5Values());
        QVERIFY(test::settle(*station, "tm", 2));
        model.refresh();
        QCOMPARE(model.rowState(0), ValueTableModel::RowState::Red);
        // The setting is remembered.
        QCOMPARE(QSettings().value(QStringLiteral("valueDisplay/staleSeconds")).toDouble(), 0.3);
    }

    void completionListsQualifiedNames()
    {
        auto station = startStation();
        ValueDisplay display(*station);
        QCompleter* completer = display.completer();
        QVERIFY(completer);
        QCOMPARE(completer->model()->rowCount(), static_cast<int>(station->types().totalParameters()));
        QStringList all;
        for (int r = 0; r < completer->model()->rowCount(); ++r)
            all << completer->model()->index(r, 0).data().toString();
        QVERIFY(all.contains(QStringLiteral("Packet5.BUS_28V_VOLTAGE")));
        QVERIFY(all.contains(QStringLiteral("HK_Status.OPS_MODE")));
        QVERIFY(all.contains(QStringLiteral("Bulk.P999")));

        // Case-insensitive, anywhere in the name.
        completer->setCompletionPrefix(QStringLiteral("28v_volt"));
        QCOMPARE(completer->completionCount(), 1);
        QCOMPARE(completer->currentCompletion(), QStringLiteral("Packet5.BUS_28V_VOLTAGE"));
        completer->setCompletionPrefix(QStringLiteral("ops_mode"));
        QVERIFY(completer->completionCount() >= 2);
        for (int i = 0; completer->setCurrentRow(i); ++i)
            QVERIFY(completer->currentCompletion().contains(QStringLiteral("OPS_MODE")));
    }

    void dropAndRemove()
    {
        auto station = startStation();
        ValueDisplay display(*station);
        ValueTableModel& model = *display.model();
        QMimeData mime;
        mime.setData(QString::fromLatin1(ValueTableModel::kParameterMimeType),
                     "Packet5.FOCUS_OFFSET\nnot.a.parameter\nPacket5.UPTIME\nPacket5.OPS_MODE\n");
        QVERIFY(model.canDropMimeData(&mime, Qt::CopyAction, -1, -1, {}));
        QVERIFY(model.dropMimeData(&mime, Qt::CopyAction, -1, -1, {}));
        QCOMPARE(model.rowCount(), 3);
        QMimeData text;
        text.setText(QStringLiteral("nothing.here"));
        QVERIFY(!model.canDropMimeData(&text, Qt::CopyAction, -1, -1, {}));

        auto* remove = display.findChild<QToolButton*>(QStringLiteral("removeButton"));
        QVERIFY(!remove->isEnabled());
        auto* selection = display.view()->selectionModel();
        selection->select(model.index(0, 0), QItemSelectionModel::Select | QItemSelectionModel::Rows);
        selection->select(model.index(2, 0), QItemSelectionModel::Select | QItemSelectionModel::Rows);
        QVERIFY(remove->isEnabled());
        remove->click();
        QCOMPARE(model.rowCount(), 1);
        QCOMPARE(cell(model, 0, ValueTableModel::Name).toString(), QStringLiteral("Packet5.UPTIME"));
    }

    void timerRunsOnlyWhileVisible()
    {
        auto station = startStation();
        QTabWidget tabs;
        auto* display = new ValueDisplay(*station);
        tabs.addTab(display, QStringLiteral("Values"));
        tabs.addTab(new QLabel(QStringLiteral("other")), QStringLiteral("Other"));
        QVERIFY(!display->isRefreshActive());
        QVERIFY(display->addParameter(QStringLiteral("Packet5.BUS_28V_VOLTAGE")));
        tabs.show();
        QVERIFY(QTest::qWaitForWindowExposed(&tabs));
        QVERIFY(display->isRefreshActive());
        // The timer shows what arrives, on its own.
        send(*station, {"Packet5"}, packet5Values());
        QTRY_COMPARE(cell(*display->model(), 0, ValueTableModel::Raw, kValue).toULongLong(), 28000ull);

        tabs.setCurrentIndex(1);
        QVERIFY(!display->isRefreshActive());
        auto values = packet5Values();
        values["Packet5.BUS_28V_VOLTAGE"] = constantRaw(29000);
        send(*station, {"Packet5"}, values);
        QVERIFY(test::settle(*station, "tm", 2));
        QTest::qWait(300);
        QCOMPARE(cell(*display->model(), 0, ValueTableModel::Raw, kValue).toULongLong(), 28000ull); // not read while hidden
        tabs.setCurrentIndex(0);
        QVERIFY(display->isRefreshActive());
        QCOMPARE(cell(*display->model(), 0, ValueTableModel::Raw, kValue).toULongLong(), 29000ull); // caught up on show
    }

    // A screenshot with rows in every colour.
    void screenshot()
    {
        auto station = startStation();
        ValueDisplay display(*station);
        for (const char* name : {"Packet5.BUS_28V_VOLTAGE", "Packet5.BUS_28V_CURRENT", "Packet5.TC_REJECTED_COUNT",
                                 "Packet5.OPS_MODE", "Packet5.SAFE_MODE_FLAG", "Packet5.FOCUS_OFFSET",
                                 "Packet5.UPTIME", "Packet5.SW_VERSION", "Packet5.TOTAL_POWER", "Bulk.P000",
                                 "HK_Status.OPS_MODE"})
            QVERIFY2(display.addParameter(QString::fromLatin1(name)), name);
        send(*station, {"Packet5"}, packet5Values());
        send(*station, {"Bulk"}, {{"Bulk.P000", constantRaw(4000)}});
        QVERIFY(test::settle(*station, "tm", 2));
        display.resize(1250, 380);
        display.show();
        QVERIFY(QTest::qWaitForWindowExposed(&display));
        display.refresh();
        ValueTableModel& model = *display.model();
        QCOMPARE(model.rowState(1), ValueTableModel::RowState::Yellow);     // 8.5 A
        QCOMPARE(model.rowState(4), ValueTableModel::RowState::Yellow);     // SAFE: unexpected state
        QCOMPARE(cell(model, 4, ValueTableModel::Calibrated).toString(), QStringLiteral("SAFE"));
        QCOMPARE(cell(model, 5, ValueTableModel::Converted, kValue).toLongLong(), -3ll);
        QCOMPARE(cell(model, 10, ValueTableModel::Raw).toString(), QString()); // HK_Status not sent
        QCOMPARE(cell(model, 7, ValueTableModel::Converted).toString(), QStringLiteral("16 bytes"));
        QVERIFY(display.grab().save(QStringLiteral("/tmp/h-guivalues-display.png")));
    }

    // A measurement, not a test of speed: refresh() of 1,000 rows of one packet type when every row
    // changed, and when none did. Asserts only that the values are those sent.
    void measureThousandRows()
    {
        auto station = startStation();
        ValueDisplay display(*station);
        ValueTableModel& model = *display.model();
        const auto first = station->types().parameterId("Bulk.P000");
        QVERIFY(first);
        for (int i = 0; i < kBulkParameters; ++i)
            QVERIFY(model.addParameter(0, *first + static_cast<std::uint32_t>(i)));
        QCOMPARE(model.rowCount(), kBulkParameters);
        display.resize(1250, 900);
        display.show();
        QVERIFY(QTest::qWaitForWindowExposed(&display));

        constexpr int kRounds = 5;
        std::vector<double> changedMs;
        std::vector<double> idleMs;
        for (int round = 0; round < kRounds; ++round) {
            std::map<std::string, sim::GeneratorSpec> values;
            for (int i = 0; i < kBulkParameters; ++i)
                values["Bulk.P" + std::to_string(1000 + i).substr(1)] = constantRaw(round * 1000 + i);
            send(*station, {"Bulk"}, values);
            QVERIFY(test::settle(*station, "tm", static_cast<std::uint64_t>(round + 1)));

            QElapsedTimer clock;
            clock.start();
            QCOMPARE(model.refresh(), kBulkParameters);
            changedMs.push_back(static_cast<double>(clock.nsecsElapsed()) / 1e6);
            for (int i = 0; i < kBulkParameters; ++i)
                QCOMPARE(cell(model, i, ValueTableModel::Raw, kValue).toULongLong(), static_cast<qulonglong>(round * 1000 + i));
            clock.restart();
            QCOMPARE(model.refresh(), 0);
            idleMs.push_back(static_cast<double>(clock.nsecsElapsed()) / 1e6);
        }
        // Row 0 (raw 4000: within limits) and row 10 (raw 4010) are green; the rest have no limits.
        QCOMPARE(model.rowState(10), ValueTableModel::RowState::Normal);
        QCOMPARE(model.rowState(11), ValueTableModel::RowState::NoLimits);

        // And a repaint of the view after a refresh in which every row changed.
        QElapsedTimer paint;
        paint.start();
        display.view()->viewport()->repaint();
        const double paintMs = static_cast<double>(paint.nsecsElapsed()) / 1e6;

        std::sort(changedMs.begin(), changedMs.end());
        std::sort(idleMs.begin(), idleMs.end());
        qInfo("value display, %d rows: refresh with every row changed median %.2f ms (max %.2f), "
              "with none changed median %.2f ms (max %.2f); repaint of the visible rows %.1f ms",
              kBulkParameters, changedMs[kRounds / 2], changedMs.back(), idleMs[kRounds / 2], idleMs.back(), paintMs);
        display.grab().save(QStringLiteral("/tmp/h-guivalues-1000.png"));
    }
};

QTEST_MAIN(TestValueDisplay)
#include "tst_ui_value_display.moc"
