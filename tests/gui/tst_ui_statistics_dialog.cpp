// The statistics dialog against a real station (UDP on loopback, the simulator as the sender) and
// against hand-made snapshots: its cells equal the engine's snapshot, it takes the snapshot feed's
// ticks only while visible, Reset zeroes its view and not the engine's counters, rows update in place
// (no model reset, the selection and expansion stay), and the queue bar paints its levels in the
// documented colours.
#include "core/api/consumer.hpp"
#include "core/config/station_profile.hpp"
#include "core/pipeline/station.hpp"
#include "core/stats/status_line.hpp"
#include "sim/engine/sim_stream.hpp"
#include "ui/dialogs/statistics_dialog.hpp"
#include "ui/models/statistics_model.hpp"
#include "ui/widgets/queue_bar.hpp"
#include "tests/support/sim_traffic.hpp"
#include "tests/support/station_fixture.hpp"

#include <QElapsedTimer>
#include <QHostAddress>
#include <QItemSelectionModel>
#include <QLocale>
#include <QPushButton>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTabWidget>
#include <QTableView>
#include <QTemporaryDir>
#include <QTreeView>
#include <QUdpSocket>
#include <QRegularExpression>
#include <QtTest>

#include <chrono>
#include <memory>
#include <thread>

using namespace telestation;
using namespace std::chrono_literals;
using ui::ConsumerStatisticsModel;
using ui::ForwardStatisticsModel;
using ui::QueueBar;
using ui::QueueLevel;
using ui::QueueStatisticsModel;
using ui::StatisticsDialog;
using ui::StreamStatisticsModel;

namespace {

constexpr int kValue = ui::kCellValueRole;

// Sends `count` packets of Packet5 and HK_Status to the station's stream "tm" and waits until they are
// all sent; `drop` packets are built but not sent, so the station sees sequence gaps.
sim::StreamSummary sendPackets(const pipeline::Station& station, std::uint64_t count, double drop, std::uint64_t seed)
{
    auto c = test::traffic(test::streamAddress(station, "tm"), {"Packet5", "HK_Status"}, count);
    c.seed = seed;
    c.faults.drop = drop;
    return test::send(c, station.database());
}

QVariant cell(const QAbstractItemModel& model, const QModelIndex& index, int role = kValue)
{
    return model.data(index, role);
}

std::uint64_t number(const QAbstractItemModel& model, const QModelIndex& index)
{
    return static_cast<std::uint64_t>(model.data(index, kValue).toULongLong());
}

QString text(std::uint64_t n)
{
    return QLocale().toString(static_cast<qulonglong>(n));
}

std::uint64_t streamColumnValue(const stats::PacketCounters& c, int column)
{
    switch (column) {
    case StreamStatisticsModel::Received: return c.packetsReceived;
    case StreamStatisticsModel::Processed: return c.packetsProcessed;
    case StreamStatisticsModel::Recorded: return c.packetsRecorded;
    case StreamStatisticsModel::Forwarded: return c.packetsForwarded;
    case StreamStatisticsModel::Unknown: return c.unknown;
    case StreamStatisticsModel::Discarded: return c.discarded;
    case StreamStatisticsModel::Malformed: return c.malformed;
    case StreamStatisticsModel::SequenceErrors: return c.sequenceErrors;
    case StreamStatisticsModel::Lost: return c.packetsLost;
    case StreamStatisticsModel::LargestGap: return c.largestGap;
    case StreamStatisticsModel::Duplicates: return c.duplicates;
    default: qFatal("not a counter column: %d", column);
    }
}

constexpr int kCounterColumns[] = {
    StreamStatisticsModel::Received,  StreamStatisticsModel::Processed,      StreamStatisticsModel::Recorded,
    StreamStatisticsModel::Forwarded, StreamStatisticsModel::Unknown,        StreamStatisticsModel::Discarded,
    StreamStatisticsModel::Malformed, StreamStatisticsModel::SequenceErrors, StreamStatisticsModel::Lost,
    StreamStatisticsModel::LargestGap, StreamStatisticsModel::Duplicates};

QueueStatisticsModel::Kind kKinds[] = {QueueStatisticsModel::Kind::Network, QueueStatisticsModel::Kind::Process,
                                       QueueStatisticsModel::Kind::Record, QueueStatisticsModel::Kind::Forward};

const stats::QueueStats& queueOf(const stats::StreamStats& s, QueueStatisticsModel::Kind kind)
{
    switch (kind) {
    case QueueStatisticsModel::Kind::Network: return s.networkQueue;
    case QueueStatisticsModel::Kind::Process: return s.processQueue;
    case QueueStatisticsModel::Kind::Record: return s.recordQueue;
    case QueueStatisticsModel::Kind::Forward: return s.forwardQueue;
    }
    qFatal("bad queue kind");
}

// Every cell of every model of the dialog against `snap` (numbers exactly; counts also as shown).
// Returns through QTest's macros: call with QVERIFY(!QTest::currentTestFailed()) after it.
void checkModelsShow(const StatisticsDialog& dialog, const stats::StationSnapshot& snap)
{
    const StreamStatisticsModel& tree = *dialog.streamModel();
    QCOMPARE(tree.rowCount(), static_cast<int>(snap.streams.size()));
    for (const auto& s : snap.streams) {
        const QString name = QString::fromStdString(s.name);
        const QModelIndex row = tree.streamIndex(name);
        QVERIFY2(row.isValid(), qPrintable(name));
        for (const int column : kCounterColumns) {
            const QModelIndex index = tree.streamIndex(name, column);
            QCOMPARE(number(tree, index), streamColumnValue(s.counters, column));
            if (column != StreamStatisticsModel::LargestGap)
                QCOMPARE(cell(tree, index, Qt::DisplayRole).toString(), text(streamColumnValue(s.counters, column)));
        }
        QCOMPARE(number(tree, tree.streamIndex(name, StreamStatisticsModel::Drops)), stats::dropCount(s));
        QCOMPARE(number(tree, tree.streamIndex(name, StreamStatisticsModel::Errors)), stats::errorCount(s));
        QCOMPARE(cell(tree, tree.streamIndex(name, StreamStatisticsModel::PacketsPerSecond)).toDouble(), s.rates.packetsPerSecond);
        QCOMPARE(cell(tree, tree.streamIndex(name, StreamStatisticsModel::MegabitsPerSecond)).toDouble(), s.rates.megabitsPerSecond);
        QCOMPARE(cell(tree, tree.streamIndex(name, StreamStatisticsModel::ParametersPerSecond)).toDouble(),
                 s.rates.parametersPerSecond);

        QCOMPARE(tree.rowCount(row), static_cast<int>(s.packetTypes.size()));
        for (std::size_t i = 0; i < s.packetTypes.size(); ++i) {
            const auto& t = s.packetTypes[i];
            const QModelIndex typeRow = tree.index(static_cast<int>(i), StreamStatisticsModel::Name, row);
            QCOMPARE(cell(tree, typeRow).toString(), QString::fromStdString(t.name));
            QCOMPARE(cell(tree, typeRow.siblingAtColumn(StreamStatisticsModel::State)).toString(), QString::fromStdString(t.mode));
            for (const int column : kCounterColumns)
                QCOMPARE(number(tree, typeRow.siblingAtColumn(column)), streamColumnValue(t.counters, column));
            QCOMPARE(number(tree, typeRow.siblingAtColumn(StreamStatisticsModel::Drops)), stats::dropCount(t.counters));
            QCOMPARE(number(tree, typeRow.siblingAtColumn(StreamStatisticsModel::Errors)), stats::errorCount(t.counters));
            QCOMPARE(cell(tree, typeRow.siblingAtColumn(StreamStatisticsModel::PacketsPerSecond)).toDouble(),
                     t.rates.packetsPerSecond);
        }

        const QueueStatisticsModel& queues = *dialog.queueModel();
        for (const auto kind : kKinds) {
            const int r = queues.rowOf(name, kind);
            QVERIFY(r >= 0);
            const stats::QueueStats& q = queueOf(s, kind);
            QCOMPARE(number(queues, queues.index(r, QueueStatisticsModel::Depth)), q.depth);
            QCOMPARE(cell(queues, queues.index(r, QueueStatisticsModel::Depth), Qt::DisplayRole).toString(), text(q.depth));
            QCOMPARE(number(queues, queues.index(r, QueueStatisticsModel::Capacity)), q.capacity);
            QCOMPARE(number(queues, queues.index(r, QueueStatisticsModel::HighWater)), q.highWater);
            QCOMPARE(number(queues, queues.index(r, QueueStatisticsModel::WarningThreshold)), q.warningThreshold);
            QCOMPARE(number(queues, queues.index(r, QueueStatisticsModel::Warnings)), q.warnings);
            QCOMPARE(number(queues, queues.index(r, QueueStatisticsModel::Drops)), q.drops);
            const QModelIndex fill = queues.index(r, QueueStatisticsModel::Fill);
            QCOMPARE(fill.data(ui::kQueueLevelRole).value<QueueLevel>(), (QueueLevel{q.depth, q.capacity, q.warningThreshold, q.highWater}));
            QCOMPARE(fill.data(kValue).toDouble(), q.capacity > 0 ? double(q.depth) / double(q.capacity) : 0.0);
        }
    }
    QCOMPARE(dialog.queueModel()->rowCount(), static_cast<int>(snap.streams.size()) * QueueStatisticsModel::kQueuesPerStream);

    const ForwardStatisticsModel& forwards = *dialog.forwardModel();
    QCOMPARE(forwards.rowCount(), static_cast<int>(snap.forwards.size()));
    for (int r = 0; r < forwards.rowCount(); ++r) {
        const auto& f = snap.forwards[static_cast<std::size_t>(r)];
        QCOMPARE(cell(forwards, forwards.index(r, ForwardStatisticsModel::Destination)).toString(), QString::fromStdString(f.destination));
        QCOMPARE(number(forwards, forwards.index(r, ForwardStatisticsModel::Packets)), f.packets);
        QCOMPARE(number(forwards, forwards.index(r, ForwardStatisticsModel::Bytes)), f.bytes);
        QCOMPARE(number(forwards, forwards.index(r, ForwardStatisticsModel::NotSent)), f.notSent);
    }
    const ConsumerStatisticsModel& consumers = *dialog.consumerModel();
    QCOMPARE(consumers.rowCount(), static_cast<int>(snap.consumers.size()));
    for (int r = 0; r < consumers.rowCount(); ++r) {
        const auto& c = snap.consumers[static_cast<std::size_t>(r)];
        QCOMPARE(cell(consumers, consumers.index(r, ConsumerStatisticsModel::Name)).toString(), QString::fromStdString(c.name));
        QCOMPARE(number(consumers, consumers.index(r, ConsumerStatisticsModel::Depth)), c.queue.depth);
        QCOMPARE(number(consumers, consumers.index(r, ConsumerStatisticsModel::Capacity)), c.queue.capacity);
        QCOMPARE(consumers.index(r, ConsumerStatisticsModel::Fill).data(ui::kQueueLevelRole).value<QueueLevel>(),
                 (QueueLevel{c.queue.depth, c.queue.capacity, c.queue.warningThreshold, c.queue.highWater}));
        QCOMPARE(number(consumers, consumers.index(r, ConsumerStatisticsModel::HighWater)), c.queue.highWater);
        QCOMPARE(number(consumers, consumers.index(r, ConsumerStatisticsModel::Drops)), c.queue.drops);
        QCOMPARE(number(consumers, consumers.index(r, ConsumerStatisticsModel::Delivered)), c.delivered);
    }
}

// The engine's numbers of two snapshots are the same (times, rates and CPU aside).
void checkSameCounts(const stats::StationSnapshot& a, const stats::StationSnapshot& b)
{
    QCOMPARE(a.totals, b.totals);
    QCOMPARE(a.streams.size(), b.streams.size());
    for (std::size_t i = 0; i < a.streams.size(); ++i) {
        const auto& x = a.streams[i];
        const auto& y = b.streams[i];
        QCOMPARE(x.name, y.name);
        QCOMPARE(x.counters, y.counters);
        QCOMPARE(x.networkQueue, y.networkQueue);
        QCOMPARE(x.processQueue, y.processQueue);
        QCOMPARE(x.recordQueue, y.recordQueue);
        QCOMPARE(x.forwardQueue, y.forwardQueue);
        QCOMPARE(x.packetTypes.size(), y.packetTypes.size());
        for (std::size_t t = 0; t < x.packetTypes.size(); ++t) {
            QCOMPARE(x.packetTypes[t].name, y.packetTypes[t].name);
            QCOMPARE(x.packetTypes[t].counters, y.packetTypes[t].counters);
        }
    }
    QCOMPARE(a.forwards, b.forwards);
    QCOMPARE(a.consumers, b.consumers);
}

// A snapshot as an engine could report it, with every kind of row.
stats::StationSnapshot handMadeSnapshot()
{
    stats::StationSnapshot s;
    s.timeNs = 1'700'000'000'000'000'000;
    s.uptimeSeconds = 100;
    s.poolInUse = 40;
    s.poolCapacity = 65536;
    s.recordingState = "recording to /data/rec";
    stats::StreamStats alpha;
    alpha.name = "alpha";
    alpha.source = "udp://127.0.0.1:47001";
    alpha.state = "receiving on 127.0.0.1:47001";
    alpha.running = true;
    alpha.networkQueue = {30, 100, 45, 60, 2, 1};
    alpha.processQueue = {80, 100, 90, 0, 0, 0};
    alpha.recordQueue = {100, 100, 100, 0, 0, 7};
    alpha.forwardQueue = {0, 100, 3, 0, 0, 0};
    const auto addType = [&alpha](const char* name, std::uint32_t apid, std::uint64_t received, const char* mode) {
        stats::PacketTypeStats t;
        t.name = name;
        t.apid = apid;
        t.mode = mode;
        t.counters.packetsReceived = received;
        t.counters.bytesReceived = received * 100;
        t.counters.packetsProcessed = received;
        alpha.packetTypes.push_back(t);
    };
    addType("unknown", 0, 3, "passThru");
    addType("A", 10, 1000, "processEntirePacket");
    addType("B", 20, 2000, "passThru");
    alpha.packetTypes[0].counters.unknown = 3;
    alpha.packetTypes[1].counters.sequenceErrors = 2;
    alpha.packetTypes[1].counters.packetsLost = 6;
    alpha.packetTypes[1].counters.largestGap = 5;
    alpha.packetTypes[1].record = true;
    alpha.packetTypes[2].forwardDestinations = 1;
    for (const auto& t : alpha.packetTypes) {
        alpha.counters.packetsReceived += t.counters.packetsReceived;
        alpha.counters.bytesReceived += t.counters.bytesReceived;
        alpha.counters.packetsProcessed += t.counters.packetsProcessed;
        alpha.counters.unknown += t.counters.unknown;
        alpha.counters.sequenceErrors += t.counters.sequenceErrors;
        alpha.counters.packetsLost += t.counters.packetsLost;
        alpha.counters.largestGap = std::max(alpha.counters.largestGap, t.counters.largestGap);
    }
    s.streams.push_back(alpha);
    s.totals = alpha.counters;
    stats::ForwardStats f;
    f.destination = "udp://10.0.0.2:5000";
    f.state = "sending to 10.0.0.2:5000";
    f.connected = true;
    f.packets = 2000;
    f.bytes = 200000;
    s.forwards.push_back(f);
    stats::ConsumerStats c;
    c.name = "display";
    c.kind = "parameters";
    c.delivery = "everySample";
    c.queue = {12, 64, 20, 0, 0, 0};
    c.delivered = 500;
    s.consumers.push_back(c);
    return s;
}

stats::PacketTypeStats* mutableType(stats::StationSnapshot& s, std::string_view stream, std::string_view name)
{
    for (auto& st : s.streams)
        if (st.name == stream)
            for (auto& t : st.packetTypes)
                if (t.name == name)
                    return &t;
    return nullptr;
}

QRgb pixel(const QImage& image, int x, int y)
{
    return image.pixel(x, y) & 0xffffffu;
}

QRgb rgb(const QColor& color)
{
    return color.rgb() & 0xffffffu;
}

} // namespace

class TestStatisticsDialog : public QObject {
    Q_OBJECT

    mdb::MissionDatabase m_db;

    // The station of the tests: one UDP stream; Packet5 decoded and recorded; HK_Status passed
    // through and forwarded to a loopback socket of the test.
    std::unique_ptr<pipeline::Station> makeStation(const QTemporaryDir& dir, std::uint16_t forwardPort)
    {
        config::StationProfile profile;
        profile.recordingDirectory = dir.filePath(QStringLiteral("rec")).toStdString();
        config::StreamProfile sp;
        sp.name = "tm";
        sp.source = "udp://127.0.0.1:0";
        sp.packets.push_back({7, std::nullopt, config::ProcessingMode::ProcessEntirePacket, true, {}});
        sp.packets.push_back({100, std::nullopt, config::ProcessingMode::PassThru, false,
                              {"udp://127.0.0.1:" + std::to_string(forwardPort)}});
        profile.streams.push_back(sp);
        auto station = pipeline::Station::create(profile, m_db);
        if (!station)
            qFatal("station: %s", station.error().message.c_str());
        return std::move(*station);
    }

private slots:
    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true);
        m_db = test::trainingDatabase();
    }

    // The dialog's cells equal the engine's snapshot taken at the same refresh, which equals the
    // engine's snapshot afterwards (nothing arrives any more) and the simulator's own counts.
    void cellsEqualTheEngineSnapshot()
    {
        QTemporaryDir dir;
        QUdpSocket forwardSink;
        QVERIFY(forwardSink.bind(QHostAddress::LocalHost, 0));
        auto station = makeStation(dir, forwardSink.localPort());
        QVERIFY(station->start());
        api::ParameterSubscription::Options po;
        po.name = "safe mode display";
        po.parameters = {"Packet5.SAFE_MODE_FLAG"};
        po.capacity = 1024;
        auto subscription = api::ParameterSubscription::create(*station, po);
        QVERIFY2(subscription, subscription ? "" : subscription.error().message.c_str());

        const sim::StreamSummary sent = sendPackets(*station, 600, 0.03, 7);
        QVERIFY(test::settle(*station, "tm", sent.sent.packets));
        QVERIFY(sent.faults.dropped > 0);

        int calls = 0;
        ui::SnapshotFeed feed([&] {
            ++calls;
            return std::optional(station->snapshot());
        });
        feed.tick();
        StatisticsDialog dialog(feed);
        dialog.show();
        QVERIFY(QTest::qWaitForWindowExposed(&dialog));
        const auto shownAt = dialog.refreshCount();
        QCOMPARE(shownAt, std::uint64_t{1}); // the latest at once when shown
        QVERIFY(dialog.feedSnapshot() == feed.latest());
        feed.start();
        QTRY_VERIFY_WITH_TIMEOUT(dialog.refreshCount() > shownAt, 3000); // the feed's tick
        QCOMPARE(static_cast<std::uint64_t>(calls), dialog.refreshCount()); // one snapshot per tick, all shown

        const stats::StationSnapshot used = dialog.lastSnapshot();
        checkModelsShow(dialog, used);
        QVERIFY(!QTest::currentTestFailed());
        checkSameCounts(used, station->snapshot());
        QVERIFY(!QTest::currentTestFailed());

        // Against what the simulator did, so that equal numbers are also right numbers.
        const auto& tm = used.streams.at(0);
        QCOMPARE(tm.counters.packetsReceived, sent.sent.packets);
        QCOMPARE(tm.counters.packetsLost, sent.faults.dropped);
        const QModelIndex lost = dialog.streamModel()->streamIndex(QStringLiteral("tm"), StreamStatisticsModel::Lost);
        QCOMPARE(number(*dialog.streamModel(), lost), sent.faults.dropped);
        const auto* p5 = test::typeStats(tm, "Packet5");
        QVERIFY(p5);
        QCOMPARE(p5->counters.packetsReceived, sent.apids.at(7).packets);
        QCOMPARE(number(*dialog.streamModel(),
                        dialog.streamModel()->typeIndex(QStringLiteral("tm"), QStringLiteral("Packet5"), StreamStatisticsModel::Recorded)),
                 sent.apids.at(7).packets);
        QCOMPARE(dialog.consumerModel()->rowCount(), 1);
        QCOMPARE(number(*dialog.consumerModel(), dialog.consumerModel()->index(0, ConsumerStatisticsModel::Depth)),
                 sent.apids.at(7).packets); // one sample per Packet5, none taken yet
        QCOMPARE(dialog.forwardModel()->rowCount(), 1);
        QCOMPARE(number(*dialog.forwardModel(), dialog.forwardModel()->index(0, ForwardStatisticsModel::Packets)),
                 sent.apids.at(100).packets);
        QVERIFY(dialog.headerText().contains(text(sent.sent.packets)));
        QVERIFY(dialog.headerText().contains(QStringLiteral("CPU")));

        QVERIFY(dialog.grab().save(QStringLiteral("/tmp/h-guistats-dialog.png")));
        auto* tabs = dialog.findChild<QTabWidget*>(QStringLiteral("statisticsTabs"));
        QVERIFY(tabs);
        tabs->setCurrentIndex(2);
        QVERIFY(dialog.grab().save(QStringLiteral("/tmp/h-guistats-consumers.png")));
        tabs->setCurrentIndex(0);

        // Stopped: the numbers are final; a refresh shows exactly them.
        station->stop();
        feed.tick();
        checkModelsShow(dialog, dialog.lastSnapshot());
        QVERIFY(!QTest::currentTestFailed());
        checkSameCounts(dialog.lastSnapshot(), station->snapshot());
        QVERIFY(!QTest::currentTestFailed());
    }

    // The streams' header reads as words (no "Seq."-style abbreviations: units such as Mbit/s are words),
    // each column explained in its tool tip; the loss columns follow the received count.
    void headerReadsNaturally()
    {
        StreamStatisticsModel model;
        for (int c = 0; c < StreamStatisticsModel::ColumnCount; ++c) {
            const QString header = model.headerData(c, Qt::Horizontal, Qt::DisplayRole).toString();
            QVERIFY2(!header.isEmpty() && !header.contains(u'.'), qPrintable(header));
            for (const QString& word : header.split(QRegularExpression(QStringLiteral("[\\s/]+")), Qt::SkipEmptyParts))
                QVERIFY2(word.size() >= 4 || word == QStringLiteral("s") || word == QStringLiteral("gap")
                             || word == QStringLiteral("Lost"),
                         qPrintable(QStringLiteral("'%1' in '%2'").arg(word, header)));
            QVERIFY2(model.headerData(c, Qt::Horizontal, Qt::ToolTipRole).toString().size() > header.size(), qPrintable(header));
        }
        QCOMPARE(int(StreamStatisticsModel::SequenceErrors), int(StreamStatisticsModel::Received) + 1);
        QCOMPARE(int(StreamStatisticsModel::Errors), int(StreamStatisticsModel::SequenceErrors) + 5);
    }

    // Hidden, the dialog takes none of the feed's ticks. Shown, it shows the latest snapshot at once and
    // then every tick; hidden again, none.
    void followsTicksOnlyWhileVisible()
    {
        int calls = 0;
        ui::SnapshotFeed feed([&calls] {
            ++calls;
            return std::optional(handMadeSnapshot());
        });
        StatisticsDialog dialog(feed);
        feed.tick();
        QCOMPARE(calls, 1);
        QCOMPARE(dialog.refreshCount(), std::uint64_t{0});
        QVERIFY(!dialog.feedSnapshot());

        dialog.show();
        QVERIFY(QTest::qWaitForWindowExposed(&dialog));
        QCOMPARE(dialog.refreshCount(), std::uint64_t{1});
        QVERIFY(dialog.feedSnapshot() == feed.latest());
        feed.tick();
        QCOMPARE(dialog.refreshCount(), std::uint64_t{2});
        QVERIFY(dialog.feedSnapshot() == feed.latest());

        dialog.hide();
        feed.tick();
        QCOMPARE(dialog.refreshCount(), std::uint64_t{2});
        QVERIFY(dialog.feedSnapshot() != feed.latest());

        dialog.show();
        QCOMPARE(dialog.refreshCount(), std::uint64_t{3});
        QVERIFY(dialog.feedSnapshot() == feed.latest());
        QCOMPARE(calls, 3); // the dialog asked for no snapshot of its own
        dialog.close();
        feed.tick();
        QCOMPARE(dialog.refreshCount(), std::uint64_t{3});
    }

    // Reset zeroes the dialog's counters, not the engine's; more packets then show as the difference.
    void resetShowsTheDifference()
    {
        QTemporaryDir dir;
        QUdpSocket forwardSink;
        QVERIFY(forwardSink.bind(QHostAddress::LocalHost, 0));
        auto station = makeStation(dir, forwardSink.localPort());
        QVERIFY(station->start());
        const sim::StreamSummary first = sendPackets(*station, 400, 0.03, 1);
        QVERIFY(test::settle(*station, "tm", first.sent.packets));

        ui::SnapshotFeed feed([&] { return std::optional(station->snapshot()); });
        feed.start();
        StatisticsDialog dialog(feed);
        dialog.show();
        QVERIFY(QTest::qWaitForWindowExposed(&dialog));
        const stats::StationSnapshot atReset = station->snapshot(); // stable: nothing is arriving
        QCOMPARE(atReset.totals.packetsReceived, first.sent.packets);
        auto* reset = dialog.findChild<QPushButton*>(QStringLiteral("resetButton"));
        QVERIFY(reset);
        QTest::mouseClick(reset, Qt::LeftButton);
        QVERIFY(dialog.hasReset());

        const StreamStatisticsModel& tree = *dialog.streamModel();
        const QString tm = QStringLiteral("tm");
        for (const int column : kCounterColumns) {
            QCOMPARE(number(tree, tree.streamIndex(tm, column)), std::uint64_t{0});
            for (const char* type : {"Packet5", "HK_Status"})
                QCOMPARE(number(tree, tree.typeIndex(tm, QString::fromLatin1(type), column)), std::uint64_t{0});
        }
        QCOMPARE(tree.streamIndex(tm, StreamStatisticsModel::Received).data().toString(), QStringLiteral("0"));
        QCOMPARE(number(*dialog.forwardModel(), dialog.forwardModel()->index(0, ForwardStatisticsModel::Packets)), std::uint64_t{0});
        // Queue states are not baselined.
        const int network = dialog.queueModel()->rowOf(tm, QueueStatisticsModel::Kind::Network);
        QCOMPARE(number(*dialog.queueModel(), dialog.queueModel()->index(network, QueueStatisticsModel::Capacity)),
                 atReset.streams[0].networkQueue.capacity);
        // The engine's counters are untouched.
        QCOMPARE(station->snapshot().totals.packetsReceived, first.sent.packets);

        const sim::StreamSummary second = sendPackets(*station, 300, 0.05, 2);
        QVERIFY(test::settle(*station, "tm", first.sent.packets + second.sent.packets));
        const stats::StationSnapshot now = station->snapshot();
        QTRY_VERIFY_WITH_TIMEOUT(dialog.lastSnapshot().totals.packetsReceived == now.totals.packetsReceived, 3000);

        QCOMPARE(number(tree, tree.streamIndex(tm, StreamStatisticsModel::Received)), second.sent.packets);
        QCOMPARE(tree.streamIndex(tm, StreamStatisticsModel::Received).data().toString(), text(second.sent.packets));
        const auto& s0 = atReset.streams[0];
        const auto& s1 = now.streams[0];
        for (const int column : kCounterColumns) {
            if (column == StreamStatisticsModel::LargestGap)
                continue; // a maximum, not a total: see the hand-made test
            QCOMPARE(number(tree, tree.streamIndex(tm, column)),
                     streamColumnValue(s1.counters, column) - streamColumnValue(s0.counters, column));
            for (const char* type : {"Packet5", "HK_Status"}) {
                const auto* before = test::typeStats(s0, type);
                const auto* after = test::typeStats(s1, type);
                QVERIFY(before && after);
                QCOMPARE(number(tree, tree.typeIndex(tm, QString::fromLatin1(type), column)),
                         streamColumnValue(after->counters, column) - streamColumnValue(before->counters, column));
            }
        }
        QCOMPARE(number(tree, tree.typeIndex(tm, QStringLiteral("HK_Status"), StreamStatisticsModel::Received)),
                 second.apids.at(100).packets);
        QCOMPARE(number(*dialog.forwardModel(), dialog.forwardModel()->index(0, ForwardStatisticsModel::Packets)),
                 now.forwards.at(0).packets - atReset.forwards.at(0).packets);
        QCOMPARE(station->snapshot().totals.packetsReceived, first.sent.packets + second.sent.packets);

        // Back to totals since start.
        auto* totals = dialog.findChild<QPushButton*>(QStringLiteral("showTotalsButton"));
        QVERIFY(totals && totals->isEnabled());
        QTest::mouseClick(totals, Qt::LeftButton);
        QVERIFY(!dialog.hasReset());
        QCOMPARE(number(tree, tree.streamIndex(tm, StreamStatisticsModel::Received)), now.totals.packetsReceived);
        station->stop();
    }

    // Reset with maxima: high water and largest gap show what is known to be newer than the reset.
    void resetKeepsMaximaHonest()
    {
        stats::StationSnapshot snap = handMadeSnapshot();
        ui::SnapshotFeed feed([&snap] { return std::optional(snap); });
        StatisticsDialog dialog(feed);
        dialog.show();
        QVERIFY(QTest::qWaitForWindowExposed(&dialog));
        dialog.resetStatistics();
        const StreamStatisticsModel& tree = *dialog.streamModel();
        const QueueStatisticsModel& queues = *dialog.queueModel();
        const QString alpha = QStringLiteral("alpha");
        const int network = queues.rowOf(alpha, QueueStatisticsModel::Kind::Network);
        const QModelIndex gap = tree.typeIndex(alpha, QStringLiteral("A"), StreamStatisticsModel::LargestGap);
        const QModelIndex highWater = queues.index(network, QueueStatisticsModel::HighWater);
        QCOMPARE(number(queues, queues.index(network, QueueStatisticsModel::Depth)), std::uint64_t{30});
        QCOMPARE(number(queues, highWater), std::uint64_t{30}); // the depth at the reset
        QCOMPARE(number(queues, queues.index(network, QueueStatisticsModel::Drops)), std::uint64_t{0});
        QCOMPARE(number(tree, gap), std::uint64_t{0});
        QCOMPARE(gap.data().toString(), QStringLiteral("0"));

        // Deeper than at the reset but below the engine's high water; a gap no larger than before.
        snap.streams[0].networkQueue.depth = 40;
        snap.streams[0].networkQueue.drops = 4;
        auto* a = mutableType(snap, "alpha", "A");
        a->counters.sequenceErrors += 1;
        a->counters.packetsLost += 2;
        a->counters.packetsReceived += 10;
        feed.tick();
        QCOMPARE(number(queues, highWater), std::uint64_t{40});
        QCOMPARE(number(queues, queues.index(network, QueueStatisticsModel::Drops)), std::uint64_t{3});
        QCOMPARE(number(tree, gap), std::uint64_t{0});
        QCOMPARE(gap.data().toString(), QStringLiteral("≤ 5"));
        QCOMPARE(number(tree, tree.typeIndex(alpha, QStringLiteral("A"), StreamStatisticsModel::Lost)), std::uint64_t{2});
        QCOMPARE(number(tree, tree.typeIndex(alpha, QStringLiteral("A"), StreamStatisticsModel::Received)), std::uint64_t{10});

        // The depth falls back: the sampled high water stays; then the engine's passes its old value.
        snap.streams[0].networkQueue.depth = 5;
        feed.tick();
        QCOMPARE(number(queues, highWater), std::uint64_t{40});
        snap.streams[0].networkQueue.highWater = 70;
        a->counters.largestGap = 9;
        feed.tick();
        QCOMPARE(number(queues, highWater), std::uint64_t{70});
        QCOMPARE(number(tree, gap), std::uint64_t{9});
        QCOMPARE(gap.data().toString(), text(9));
        // A counter below its baseline: the station restarted; shown as it is.
        snap.streams[0].packetTypes[2].counters.packetsReceived = 7;
        feed.tick();
        QCOMPARE(number(tree, tree.typeIndex(alpha, QStringLiteral("B"), StreamStatisticsModel::Received)), std::uint64_t{7});
    }

    // New and vanished streams and packet types are row inserts and removals: no model reset, the
    // selection and expansion stay; changed numbers are dataChanged.
    void updatesRowsInPlace()
    {
        stats::StationSnapshot snap = handMadeSnapshot();
        ui::SnapshotFeed feed([&snap] { return std::optional(snap); });
        feed.tick();
        StatisticsDialog dialog(feed);
        dialog.show();
        QVERIFY(QTest::qWaitForWindowExposed(&dialog));
        StreamStatisticsModel& tree = *dialog.streamModel();
        QTreeView& view = *dialog.streamView();
        const QString alpha = QStringLiteral("alpha");
        QVERIFY(view.isExpanded(tree.streamIndex(alpha)));
        view.selectionModel()->setCurrentIndex(tree.typeIndex(alpha, QStringLiteral("B")),
                                               QItemSelectionModel::ClearAndSelect | QItemSelectionModel::Rows);
        QSignalSpy resets(&tree, &QAbstractItemModel::modelReset);
        QSignalSpy inserted(&tree, &QAbstractItemModel::rowsInserted);
        QSignalSpy removed(&tree, &QAbstractItemModel::rowsRemoved);
        QSignalSpy changed(&tree, &QAbstractItemModel::dataChanged);
        QSignalSpy queueResets(dialog.queueModel(), &QAbstractItemModel::modelReset);
        QSignalSpy queueInserts(dialog.queueModel(), &QAbstractItemModel::rowsInserted);
        QSignalSpy queueChanges(dialog.queueModel(), &QAbstractItemModel::dataChanged);

        // Unchanged: nothing to say.
        feed.tick();
        QCOMPARE(changed.count(), 0);
        QCOMPARE(queueChanges.count(), 0);

        // A packet type appears before B (the station's table order), B counts on, a stream appears.
        stats::PacketTypeStats c;
        c.name = "C";
        c.apid = 15;
        c.mode = "processOnDemand";
        c.counters.packetsReceived = 1;
        snap.streams[0].packetTypes.insert(snap.streams[0].packetTypes.begin() + 2, c);
        mutableType(snap, "alpha", "B")->counters.packetsReceived += 5;
        stats::StreamStats beta;
        beta.name = "beta";
        beta.state = "listening on 0.0.0.0:6000";
        beta.packetTypes.push_back(snap.streams[0].packetTypes[0]); // unknown
        beta.packetTypes.push_back(snap.streams[0].packetTypes[1]); // A
        snap.streams.insert(snap.streams.begin(), beta);
        feed.tick();
        QCOMPARE(resets.count(), 0);
        QCOMPARE(inserted.count(), 4); // beta, its two packet types, C
        QCOMPARE(queueResets.count(), 0);
        QCOMPARE(queueInserts.count(), QueueStatisticsModel::kQueuesPerStream); // beta's queues, before alpha's
        QCOMPARE(dialog.queueModel()->rowOf(alpha, QueueStatisticsModel::Kind::Network), QueueStatisticsModel::kQueuesPerStream);
        QVERIFY(changed.count() > 0);
        QCOMPARE(tree.rowCount(), 2);
        QCOMPARE(tree.streamIndex(alpha).row(), 1);
        QCOMPARE(tree.typeIndex(alpha, QStringLiteral("C")).row(), 2);
        QCOMPARE(tree.typeIndex(alpha, QStringLiteral("B")).row(), 3);
        QCOMPARE(number(tree, tree.typeIndex(alpha, QStringLiteral("B"), StreamStatisticsModel::Received)), std::uint64_t{2005});
        QCOMPARE(view.currentIndex(), tree.typeIndex(alpha, QStringLiteral("B")));
        QVERIFY(view.selectionModel()->isRowSelected(3, tree.streamIndex(alpha)));
        QVERIFY(view.isExpanded(tree.streamIndex(alpha)));
        QVERIFY(view.isExpanded(tree.streamIndex(QStringLiteral("beta"))));
        checkModelsShow(dialog, snap);
        QVERIFY(!QTest::currentTestFailed());

        // The operator collapses beta; it stays collapsed. Type A vanishes from both streams, then beta.
        view.collapse(tree.streamIndex(QStringLiteral("beta")));
        snap.streams[0].packetTypes.erase(snap.streams[0].packetTypes.begin() + 1);
        snap.streams[1].packetTypes.erase(snap.streams[1].packetTypes.begin() + 1);
        feed.tick();
        QCOMPARE(removed.count(), 2);
        QVERIFY(!view.isExpanded(tree.streamIndex(QStringLiteral("beta"))));
        QVERIFY(!tree.typeIndex(alpha, QStringLiteral("A")).isValid());
        QCOMPARE(tree.typeIndex(alpha, QStringLiteral("B")).row(), 2);
        snap.streams.erase(snap.streams.begin());
        feed.tick();
        QCOMPARE(resets.count(), 0);
        QCOMPARE(removed.count(), 3);
        QCOMPARE(tree.rowCount(), 1);
        QCOMPARE(view.currentIndex(), tree.typeIndex(alpha, QStringLiteral("B")));
        QVERIFY(view.selectionModel()->isRowSelected(2, tree.streamIndex(alpha)));
        QVERIFY(view.isExpanded(tree.streamIndex(alpha)));
        checkModelsShow(dialog, snap);
        QVERIFY(!QTest::currentTestFailed());
        QCOMPARE(dialog.queueModel()->rowCount(), QueueStatisticsModel::kQueuesPerStream);

        // Cells explain themselves.
        QVERIFY(tree.typeIndex(alpha, QStringLiteral("B"), StreamStatisticsModel::Lost)
                    .data(Qt::ToolTipRole).toString().contains(QStringLiteral("net of late arrivals")));
        QVERIFY(tree.headerData(StreamStatisticsModel::Malformed, Qt::Horizontal, Qt::ToolTipRole)
                    .toString().contains(QStringLiteral("length field")));

        // The queues table draws its bars: the warning tick of the network queue where QueueBar puts it.
        QTableView& queues = *dialog.queueView();
        const int network = dialog.queueModel()->rowOf(alpha, QueueStatisticsModel::Kind::Network);
        const QModelIndex depth = dialog.queueModel()->index(network, QueueStatisticsModel::Fill);
        const QRect cellRect = queues.visualRect(depth).adjusted(3, 1, -3, -1);
        const QueueLevel level = depth.data(ui::kQueueLevelRole).value<QueueLevel>();
        QCOMPARE(level.warningThreshold, std::uint64_t{60});
        const QImage image = queues.viewport()->grab().toImage();
        const int x = QueueBar::warningTickX(cellRect, level);
        QVERIFY(x > cellRect.left());
        QCOMPARE(pixel(image, x, cellRect.top() + 1), rgb(QueueBar::kTickColor));
        const int processRow = dialog.queueModel()->rowOf(alpha, QueueStatisticsModel::Kind::Process);
        const QRect processRect =
            queues.visualRect(dialog.queueModel()->index(processRow, QueueStatisticsModel::Fill)).adjusted(3, 1, -3, -1);
        const QRect bar = QueueBar::barRect(processRect);
        QCOMPARE(pixel(image, bar.left() + 3, bar.top() + 2), rgb(QueueBar::kNormalColor)); // 80 of 100, no threshold
        const int recordRow = dialog.queueModel()->rowOf(alpha, QueueStatisticsModel::Kind::Record);
        const QRect recordRect =
            queues.visualRect(dialog.queueModel()->index(recordRow, QueueStatisticsModel::Fill)).adjusted(3, 1, -3, -1);
        QCOMPARE(pixel(image, QueueBar::barRect(recordRect).left() + 3, QueueBar::barRect(recordRect).top() + 2),
                 rgb(QueueBar::kFullColor)); // full
        QVERIFY(dialog.grab().save(QStringLiteral("/tmp/h-guistats-handmade.png")));
    }

    // The dialog shows what the feed fills in where the engine leaves it to observers: rates over the
    // interval since the previous tick (not affected by a reset) and the process's CPU.
    void fillsInRatesAndCpu()
    {
        stats::StationSnapshot snap = handMadeSnapshot();
        ui::SnapshotFeed feed([&snap] { return std::optional(snap); });
        StatisticsDialog dialog(feed);
        dialog.show();
        QVERIFY(QTest::qWaitForWindowExposed(&dialog));
        feed.tick();
        QCOMPARE(dialog.lastSnapshot().rates.packetsPerSecond, 0.0); // no interval yet
        const auto step = [&snap] {
            snap.uptimeSeconds += 2;
            snap.totals.packetsReceived += 1000;
            snap.totals.bytesReceived += 250'000;
            snap.streams[0].counters.packetsReceived += 1000;
            mutableType(snap, "alpha", "B")->counters.packetsReceived += 600;
        };
        step();
        dialog.resetStatistics();
        step();
        // Busy for a while so that the process has used some CPU since the previous poll.
        QElapsedTimer busy;
        busy.start();
        volatile double sink = 0;
        while (busy.elapsed() < 300)
            sink = sink + 1.0;
        feed.tick();
        const StreamStatisticsModel& tree = *dialog.streamModel();
        const QString alpha = QStringLiteral("alpha");
        QCOMPARE(cell(tree, tree.streamIndex(alpha, StreamStatisticsModel::PacketsPerSecond)).toDouble(), 500.0);
        QCOMPARE(tree.streamIndex(alpha, StreamStatisticsModel::PacketsPerSecond).data().toString(), QStringLiteral("500"));
        QCOMPARE(cell(tree, tree.typeIndex(alpha, QStringLiteral("B"), StreamStatisticsModel::PacketsPerSecond)).toDouble(), 300.0);
        QCOMPARE(number(tree, tree.streamIndex(alpha, StreamStatisticsModel::Received)), std::uint64_t{1000}); // since the reset
        QCOMPARE(dialog.lastSnapshot().rates.megabitsPerSecond, 1.0);
        QVERIFY(dialog.headerText().contains(QStringLiteral("500 pkt/s")));
        QVERIFY(dialog.headerText().contains(QStringLiteral("1 Mbit/s")));
        QVERIFY(dialog.lastSnapshot().cpuPercent > 0);
        QVERIFY(dialog.feedSnapshot() == feed.latest());
        QVERIFY(dialog.headerText().contains(QStringLiteral("CPU %1%").arg(QLocale().toString(dialog.lastSnapshot().cpuPercent, 'f', 0))));
    }

    // The bar: the warning tick, the high-water mark and the fill in its colours.
    void queueBarPaints()
    {
        QueueBar bar;
        bar.setTextVisible(false);
        bar.resize(400, 30);
        QueueLevel level{30, 100, 60, 45};
        bar.setLevel(level);
        const QRect rect = bar.rect();
        const QRect inner = QueueBar::barRect(rect);
        QVERIFY(inner.top() > rect.top()); // room above the bar where only the tick shows

        QImage image = bar.grab().toImage();
        const int tick = QueueBar::warningTickX(rect, level);
        QCOMPARE(tick, inner.left() + qRound(0.6 * inner.width()));
        QCOMPARE(pixel(image, tick, rect.top()), rgb(QueueBar::kTickColor));
        QCOMPARE(pixel(image, tick, inner.center().y()), rgb(QueueBar::kTickColor));
        QCOMPARE(pixel(image, tick, rect.bottom()), rgb(QueueBar::kTickColor));
        QVERIFY(pixel(image, tick + 5, rect.top()) != rgb(QueueBar::kTickColor)); // only the tick sticks out
        QCOMPARE(pixel(image, inner.left() + 5, inner.center().y()), rgb(QueueBar::kNormalColor));
        QCOMPARE(pixel(image, QueueBar::xFor(rect, 35, 100), inner.center().y()), rgb(QueueBar::kTroughColor));
        QCOMPARE(pixel(image, QueueBar::highWaterX(rect, level), inner.center().y()), rgb(QueueBar::kHighWaterColor));
        QCOMPARE(pixel(image, QueueBar::xFor(rect, 25, 100), inner.center().y()), rgb(QueueBar::kNormalColor));
        QCOMPARE(pixel(image, QueueBar::xFor(rect, 90, 100), inner.center().y()), rgb(QueueBar::kTroughColor));

        // Past the warning threshold: the fill turns amber; full: red.
        level.depth = 80;
        bar.setLevel(level);
        image = bar.grab().toImage();
        QCOMPARE(pixel(image, inner.left() + 5, inner.center().y()), rgb(QueueBar::kWarningColor));
        QCOMPARE(pixel(image, QueueBar::xFor(rect, 70, 100), inner.center().y()), rgb(QueueBar::kWarningColor));
        QCOMPARE(pixel(image, tick, rect.top()), rgb(QueueBar::kTickColor));
        level.depth = 60; // reaching the threshold counts, as in the engine
        bar.setLevel(level);
        QCOMPARE(pixel(bar.grab().toImage(), inner.left() + 5, inner.center().y()), rgb(QueueBar::kWarningColor));
        level.depth = 100;
        bar.setLevel(level);
        QCOMPARE(pixel(bar.grab().toImage(), inner.left() + 5, inner.center().y()), rgb(QueueBar::kFullColor));

        // No threshold: no tick, never amber.
        level = QueueLevel{80, 100, 0, 0};
        bar.setLevel(level);
        image = bar.grab().toImage();
        QCOMPARE(QueueBar::warningTickX(rect, level), -1);
        QVERIFY(pixel(image, tick, rect.top()) != rgb(QueueBar::kTickColor));
        QCOMPARE(pixel(image, inner.left() + 5, inner.center().y()), rgb(QueueBar::kNormalColor));

        // With its text, for a look.
        bar.setTextVisible(true);
        bar.setLevel(QueueLevel{6500, 8192, 6144, 7000});
        QVERIFY(bar.grab().save(QStringLiteral("/tmp/h-guistats-queuebar.png")));
    }
};

QTEST_MAIN(TestStatisticsDialog)
#include "tst_ui_statistics_dialog.moc"
