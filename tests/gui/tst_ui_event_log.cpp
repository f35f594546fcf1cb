// The event log dock and its models, with a hand-fed event source and with a real station (a TCP
// client stream whose server the test accepts and then drops; stop() → "station stopped"): rows in
// the engine's order, severity and kind filters and search, the kind, packet type, parameter and count
// columns, CSV export read back by an RFC 4180 parser, the bounded history, polling only while
// visible, following the newest event unless scrolled up. History from a real archive file written
// with events::EventArchive: "Load earlier…" pages back exactly (pages that end inside a run of events
// sharing a timestamp, live rows that are in the archive too), a time range shown and paged, a range
// exported and parsed back, the archive's trouble shown in red.
#include "core/config/station_profile.hpp"
#include "core/events/event_archive.hpp"
#include "core/pipeline/station.hpp"
#include "ui/models/event_log_model.hpp"
#include "ui/widgets/event_log_dock.hpp"
#include "core/common/time_text.hpp"
#include "tests/support/station_fixture.hpp"
#include "ui/models/tones.hpp"

#include <QComboBox>
#include <QFile>
#include <QHostAddress>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QScrollBar>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTableView>
#include <QTcpServer>
#include <QTcpSocket>
#include <QTemporaryDir>
#include <QtTest>

#include <memory>
#include <vector>

using namespace telestation;
using events::Event;
using ui::EventLogDock;
using ui::EventLogFilterModel;
using ui::EventLogModel;

namespace {

Event ev(std::uint64_t number, std::int64_t ns, events::Severity severity, std::string stream, std::string text)
{
    Event e;
    e.number = number;
    e.timeNs = ns;
    e.severity = severity;
    e.stream = std::move(stream);
    e.text = std::move(text);
    return e;
}

// A source the test appends to; counts the calls, as the dock's poller would make them.
struct HandFed {
    std::vector<Event> events;
    int calls = 0;

    void add(events::Severity severity, std::string stream, std::string text)
    {
        const std::uint64_t number = events.size() + 1;
        // 2026-01-02 03:04:05.678 UTC plus a second per event, with sub-millisecond digits to drop.
        const std::int64_t ns = 1'767'323'045'678'123'456LL + static_cast<std::int64_t>(number) * 1'000'000'000LL;
        events.push_back(ev(number, ns, severity, std::move(stream), std::move(text)));
    }

    EventLogDock::EventSource source()
    {
        return [this](std::uint64_t after) {
            ++calls;
            std::vector<Event> out;
            for (const Event& e : events)
                if (e.number > after)
                    out.push_back(e);
            return out;
        };
    }
};

// RFC 4180 reader: records of fields; quoted fields may hold commas, CR, LF and doubled quotes.
// Returns false on a malformed file (a quote inside an unquoted field, an unterminated quote).
bool parseCsv(const QString& text, QList<QStringList>* records)
{
    QStringList record;
    QString field;
    bool quoted = false;    // inside a quoted field
    bool wasQuoted = false; // the current field was quoted (only a separator may follow its end)
    qsizetype i = 0;
    const auto endField = [&] {
        record << field;
        field.clear();
        wasQuoted = false;
    };
    while (i < text.size()) {
        const QChar c = text[i];
        if (quoted) {
            if (c == QLatin1Char('"')) {
                if (i + 1 < text.size() && text[i + 1] == QLatin1Char('"')) {
                    field += QLatin1Char('"');
                    i += 2;
                    continue;
                }
                quoted = false;
                wasQuoted = true;
            } else {
                field += c;
            }
            ++i;
            continue;
        }
        if (c == QLatin1Char(',')) {
            endField();
        } else if (c == QLatin1Char('\r') && i + 1 < text.size() && text[i + 1] == QLatin1Char('\n')) {
            endField();
            *records << record;
            record.clear();
            ++i;
        } else if (c == QLatin1Char('"') && field.isEmpty() && !wasQuoted) {
            quoted = true;
        } else if (c == QLatin1Char('"') || wasQuoted || c == QLatin1Char('\n') || c == QLatin1Char('\r')) {
            return false; // a quote, or text after a closing quote, or a bare line break
        } else {
            field += c;
        }
        ++i;
    }
    if (quoted)
        return false;
    if (!field.isEmpty() || !record.isEmpty()) {
        endField();
        *records << record;
    }
    return true;
}

QStringList column(const QAbstractItemModel& model, int col)
{
    QStringList out;
    for (int r = 0; r < model.rowCount(); ++r)
        out << model.data(model.index(r, col)).toString();
    return out;
}

// An archive of `count` events, 7 to a timestamp (a page of 500 ends inside a run), every field used.
struct ArchiveFile {
    QTemporaryDir dir;
    QString path = dir.filePath(QStringLiteral("events.sqlite"));
    std::vector<Event> events; // as appended: the archive's ids are 1, 2, ...

    static std::int64_t timeOf(int i) { return 1'767'323'045'000'000'000LL + static_cast<std::int64_t>(i / 7) * 1'000'000; }

    explicit ArchiveFile(int count)
    {
        for (int i = 0; i < count; ++i) {
            Event e = ev(static_cast<std::uint64_t>(i + 1), timeOf(i),
                         static_cast<events::Severity>(i % events::kSeverityCount), i % 2 ? "tm" : "hk",
                         "archived event " + std::to_string(i));
            e.kind = i % 3 == 0 ? events::EventKind::SequenceGap : events::EventKind::LimitViolation;
            e.packetType = "Packet5";
            e.parameter = i % 3 == 0 ? "" : "Packet5.COOLANT_FLOW_RATE";
            e.count = static_cast<std::uint64_t>(1 + i % 5);
            e.amount = static_cast<std::uint64_t>(i);
            events.push_back(std::move(e));
        }
        auto archive = events::EventArchive::open(path.toStdString());
        if (!archive || !archive->append(events))
            qFatal("cannot write the test archive %s", qPrintable(path));
    }
};

// The texts of a model's rows.
QStringList texts(const EventLogModel& m)
{
    return column(m, EventLogModel::Text);
}

QList<qulonglong> numbers(const QAbstractItemModel& model)
{
    QList<qulonglong> out;
    for (int r = 0; r < model.rowCount(); ++r)
        out << model.data(model.index(r, 0), ui::kEventNumberRole).toULongLong();
    return out;
}

} // namespace

class TestEventLog : public QObject {
    Q_OBJECT

private slots:
    void initTestCase() { QStandardPaths::setTestModeEnabled(true); }

    // Rows appear in the source's order, in batches (one insert per poll), with the columns formatted.
    void rowsAppearInOrder()
    {
        HandFed fed;
        fed.add(events::Severity::Info, "tm", "connecting to 127.0.0.1:5000");
        fed.add(events::Severity::Warning, "tm", "connection ended (1 so far)");
        EventLogDock dock(fed.source());
        QSignalSpy inserts(dock.model(), &QAbstractItemModel::rowsInserted);
        dock.poll();
        QCOMPARE(dock.model()->rowCount(), 2);
        QCOMPARE(inserts.count(), 1);
        fed.add(events::Severity::Error, "", "recording is off: disk full");
        fed.add(events::Severity::Info, "", "station stopped");
        fed.add(events::Severity::Info, "hk", "playback finished");
        dock.poll();
        QCOMPARE(inserts.count(), 2);
        QCOMPARE(inserts.last().at(1).toInt(), 2); // first new row
        QCOMPARE(inserts.last().at(2).toInt(), 4); // last new row
        dock.poll(); // nothing new: nothing inserted
        QCOMPARE(inserts.count(), 2);

        const EventLogModel& m = *dock.model();
        QCOMPARE(numbers(m), (QList<qulonglong>{1, 2, 3, 4, 5}));
        QCOMPARE(column(m, EventLogModel::Text),
                 (QStringList{"connecting to 127.0.0.1:5000", "connection ended (1 so far)", "recording is off: disk full",
                              "station stopped", "playback finished"}));
        QCOMPARE(column(m, EventLogModel::Stream), (QStringList{"tm", "tm", "(station)", "(station)", "hk"}));
        QCOMPARE(column(m, EventLogModel::Severity), (QStringList{"Info", "Warning", "Error", "Info", "Info"}));
        // UTC with milliseconds, truncated: event 1 is at 03:04:06.678123456.
        QCOMPARE(m.data(m.index(0, EventLogModel::Time)).toString(), QStringLiteral("2026-01-02 03:04:06.678"));
        QCOMPARE(m.data(m.index(4, EventLogModel::Time)).toString(), QStringLiteral("2026-01-02 03:04:10.678"));
        QCOMPARE(EventLogModel::isoTime(fed.events[0].timeNs), QStringLiteral("2026-01-02T03:04:06.678Z"));
        QCOMPARE(EventLogModel::displayTime(-1), QStringLiteral("1969-12-31 23:59:59.999"));
        // Colour and icon by severity.
        QVERIFY(!m.data(m.index(0, EventLogModel::Text), Qt::ForegroundRole).isValid());
        const QColor warning = m.data(m.index(1, EventLogModel::Text), Qt::ForegroundRole).value<QBrush>().color();
        const QColor error = m.data(m.index(2, EventLogModel::Text), Qt::ForegroundRole).value<QBrush>().color();
        QVERIFY(warning.isValid() && error.isValid() && warning != error);
        QVERIFY(!m.data(m.index(0, EventLogModel::Severity), Qt::DecorationRole).value<QIcon>().isNull());
        QVERIFY(!m.data(m.index(0, EventLogModel::Text), Qt::DecorationRole).isValid());
        QCOMPARE(dock.model()->missedCount(), 0u);
    }

    // A source that returns events already seen adds nothing; a jump in the numbers counts as missed.
    void overlapAndMissedEvents()
    {
        EventLogModel m;
        std::vector<Event> batch{ev(1, 10, events::Severity::Info, "a", "one"), ev(2, 20, events::Severity::Info, "a", "two")};
        m.append(batch);
        m.append(batch);
        QCOMPARE(m.rowCount(), 2);
        std::vector<Event> later{ev(2, 20, events::Severity::Info, "a", "two"), ev(6, 60, events::Severity::Info, "a", "six"),
                                        ev(7, 70, events::Severity::Info, "a", "seven")};
        m.append(later);
        QCOMPARE(numbers(m), (QList<qulonglong>{1, 2, 6, 7}));
        QCOMPARE(m.missedCount(), 3u);
        QCOMPARE(m.lastNumber(), 7u);
    }

    // Severity filter and search (case-insensitive over stream and text, not over time or severity).
    void filtersSelectRows()
    {
        HandFed fed;
        fed.add(events::Severity::Info, "tm", "connected to 10.0.0.1:5000");
        fed.add(events::Severity::Warning, "tm", "connection ended (1 so far)");
        fed.add(events::Severity::Error, "hk", "recording stopped: No space left");
        fed.add(events::Severity::Info, "", "station stopped");
        fed.add(events::Severity::Warning, "", "forward destination udp://x:1 is down");
        fed.add(events::Severity::Error, "", "forward to tcp://y:2: refused (retrying in 5 s)");
        EventLogDock dock(fed.source());
        dock.poll();
        const EventLogFilterModel& f = *dock.filterModel();
        QCOMPARE(numbers(f), (QList<qulonglong>{1, 2, 3, 4, 5, 6}));

        auto* combo = dock.findChild<QComboBox*>(QStringLiteral("eventSeverityFilter"));
        QVERIFY(combo);
        combo->setCurrentIndex(1); // as the operator does
        QCOMPARE(dock.severityFilter(), EventLogDock::SeverityFilter::WarningAndAbove);
        QCOMPARE(numbers(f), (QList<qulonglong>{2, 3, 5, 6}));
        dock.setSeverityFilter(EventLogDock::SeverityFilter::Errors);
        QCOMPARE(numbers(f), (QList<qulonglong>{3, 6}));

        auto* search = dock.findChild<QLineEdit*>(QStringLiteral("eventSearch"));
        QVERIFY(search);
        QTest::keyClicks(search, QStringLiteral("FORWARD"));
        QCOMPARE(numbers(f), (QList<qulonglong>{6}));
        dock.setSeverityFilter(EventLogDock::SeverityFilter::All);
        QCOMPARE(numbers(f), (QList<qulonglong>{5, 6}));
        dock.setSearchText(QStringLiteral("hK")); // the stream column
        QCOMPARE(numbers(f), (QList<qulonglong>{3}));
        dock.setSearchText(QStringLiteral("Warning")); // a severity name is not searched
        QCOMPARE(f.rowCount(), 0);
        dock.setSearchText(QStringLiteral("2026")); // nor is the time
        QCOMPARE(f.rowCount(), 0);
        dock.setSearchText(QString());
        QCOMPARE(f.rowCount(), 6);

        // New events pass through the active filter as they arrive.
        dock.setSeverityFilter(EventLogDock::SeverityFilter::Errors);
        fed.add(events::Severity::Info, "tm", "connecting");
        fed.add(events::Severity::Error, "tm", "recording stopped: I/O error");
        dock.poll();
        QCOMPARE(numbers(f), (QList<qulonglong>{3, 6, 8}));
        QCOMPARE(dock.model()->rowCount(), 8);
    }

    void csvFieldQuoting_data()
    {
        QTest::addColumn<QString>("value");
        QTest::addColumn<QString>("field");
        QTest::newRow("plain") << "plain text" << "plain text";
        QTest::newRow("empty") << "" << "";
        QTest::newRow("comma") << "a,b" << "\"a,b\"";
        QTest::newRow("quote") << "say \"hi\"" << "\"say \"\"hi\"\"\"";
        QTest::newRow("newline") << "a\nb" << "\"a\nb\"";
        QTest::newRow("cr") << "a\rb" << "\"a\rb\"";
        QTest::newRow("leading space") << " a" << "\" a\"";
    }

    void csvFieldQuoting()
    {
        QFETCH(QString, value);
        QFETCH(QString, field);
        QCOMPARE(ui::csvField(value), field);
    }

    // The file read back by an RFC 4180 parser gives the rows shown, quotes, commas and line breaks intact.
    void csvExportRoundTrips()
    {
        HandFed fed;
        fed.add(events::Severity::Info, "tm", "connected to 127.0.0.1:5000");
        fed.add(events::Severity::Error, "", "forward to \"tcp://a,b\": refused, \"retrying\"");
        fed.add(events::Severity::Warning, "tm,2", "two\nlines and a \r\n CRLF");
        fed.add(events::Severity::Info, "hk", "  spaced  ");
        fed.add(events::Severity::Info, "hk", "\xc3\xa9v\xc3\xa9nement \xe2\x80\x94 UTF-8");
        EventLogDock dock(fed.source());
        dock.poll();

        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("events.csv"));
        QString error;
        QVERIFY2(dock.exportCsv(path, &error), qPrintable(error));
        QFile file(path);
        QVERIFY(file.open(QIODevice::ReadOnly));
        const QByteArray bytes = file.readAll();
        QVERIFY(bytes.endsWith("\r\n"));
        QList<QStringList> records;
        QVERIFY(parseCsv(QString::fromUtf8(bytes), &records));
        QCOMPARE(records.size(), 1 + 5);
        QCOMPARE(records[0], (QStringList{"Number", "Time (UTC)", "Severity", "Stream", "Text"}));
        const char* severities[] = {"Info", "Error", "Warning", "Info", "Info"};
        for (int i = 0; i < 5; ++i) {
            const Event& e = fed.events[static_cast<std::size_t>(i)];
            const QStringList& r = records[i + 1];
            QCOMPARE(r.size(), 5);
            QCOMPARE(r[0].toULongLong(), e.number);
            const QDateTime t = QDateTime::fromString(r[1], Qt::ISODateWithMs);
            QVERIFY2(t.isValid(), qPrintable(r[1]));
            QCOMPARE(t.toMSecsSinceEpoch(), e.timeNs / 1'000'000);
            QCOMPARE(r[2], QString::fromLatin1(severities[i]));
            QCOMPARE(r[3], QString::fromStdString(e.stream));
            QCOMPARE(r[4], QString::fromStdString(e.text));
        }

        // Only the rows shown are exported.
        dock.setSeverityFilter(EventLogDock::SeverityFilter::WarningAndAbove);
        QVERIFY(dock.exportCsv(path, &error));
        file.close(); // the export replaced the file: read the new one
        QVERIFY(file.open(QIODevice::ReadOnly));
        records.clear();
        QVERIFY(parseCsv(QString::fromUtf8(file.readAll()), &records));
        QCOMPARE(records.size(), 1 + 2);
        QCOMPARE(records[1][0], QStringLiteral("2"));
        QCOMPARE(records[2][0], QStringLiteral("3"));

        // An unwritable path fails with a reason.
        error.clear();
        QVERIFY(!dock.exportCsv(dir.filePath(QStringLiteral("no/such/dir/events.csv")), &error));
        QVERIFY(!error.isEmpty());
    }

    // The history keeps the newest `capacity` rows, dropping the oldest with one row removal per batch.
    void boundDropsTheOldest()
    {
        HandFed fed;
        for (int i = 0; i < 7; ++i)
            fed.add(events::Severity::Info, "tm", "event " + std::to_string(i + 1));
        EventLogDock dock(fed.source(), nullptr, 5);
        QSignalSpy removals(dock.model(), &QAbstractItemModel::rowsRemoved);
        dock.poll(); // 7 in one batch: only the newest 5 are inserted
        QCOMPARE(numbers(*dock.model()), (QList<qulonglong>{3, 4, 5, 6, 7}));
        QCOMPARE(removals.count(), 0);
        QCOMPARE(dock.model()->droppedCount(), 2u);
        fed.add(events::Severity::Warning, "tm", "event 8");
        fed.add(events::Severity::Info, "tm", "event 9");
        dock.poll();
        QCOMPARE(numbers(*dock.model()), (QList<qulonglong>{5, 6, 7, 8, 9}));
        QCOMPARE(removals.count(), 1);
        QCOMPARE(removals[0].at(1).toInt(), 0);
        QCOMPARE(removals[0].at(2).toInt(), 1);
        QCOMPARE(dock.model()->droppedCount(), 4u);
        QCOMPARE(dock.model()->missedCount(), 0u); // dropped by the log, not missed from the engine
        QCOMPARE(column(*dock.model(), EventLogModel::Text).first(), QStringLiteral("event 5"));
        // The filter follows the removals.
        dock.setSeverityFilter(EventLogDock::SeverityFilter::WarningAndAbove);
        QCOMPARE(numbers(*dock.filterModel()), (QList<qulonglong>{8}));
    }

    // The timer runs only while the dock is visible; showing it catches up at once.
    void hiddenDockDoesNotPoll()
    {
        HandFed fed;
        fed.add(events::Severity::Info, "tm", "first");
        EventLogDock dock(fed.source());
        QVERIFY(!dock.isPolling());
        QTest::qWait(3 * static_cast<int>(EventLogDock::kPollInterval.count()));
        QCOMPARE(fed.calls, 0);
        QCOMPARE(dock.model()->rowCount(), 0);

        dock.show();
        QVERIFY(QTest::qWaitForWindowExposed(&dock));
        QVERIFY(dock.isPolling());
        QCOMPARE(dock.model()->rowCount(), 1); // at show, not a tick later
        fed.add(events::Severity::Info, "tm", "second");
        QTRY_COMPARE_WITH_TIMEOUT(dock.model()->rowCount(), 2, 2000);
        QTRY_VERIFY_WITH_TIMEOUT(fed.calls >= 3, 10000); // keeps polling while shown

        dock.hide();
        QVERIFY(!dock.isPolling());
        const int calls = fed.calls;
        fed.add(events::Severity::Info, "tm", "third");
        QTest::qWait(3 * static_cast<int>(EventLogDock::kPollInterval.count()));
        QCOMPARE(fed.calls, calls);
        QCOMPARE(dock.model()->rowCount(), 2);
    }

    // New rows scroll into view while the view is at its bottom, and not once the operator scrolled up.
    void followsNewestUnlessScrolledUp()
    {
        HandFed fed;
        for (int i = 0; i < 200; ++i)
            fed.add(i % 10 == 0 ? events::Severity::Warning : events::Severity::Info, "tm", "event " + std::to_string(i + 1));
        EventLogDock dock(fed.source());
        dock.resize(700, 300);
        dock.show();
        QVERIFY(QTest::qWaitForWindowExposed(&dock));
        QScrollBar* bar = dock.view()->verticalScrollBar();
        QVERIFY(bar->maximum() > 0);
        QCOMPARE(bar->value(), bar->maximum());
        QVERIFY(dock.followsNewest());

        fed.add(events::Severity::Info, "tm", "event 201");
        dock.poll();
        QCOMPARE(bar->value(), bar->maximum());
        const QModelIndex last = dock.filterModel()->index(dock.filterModel()->rowCount() - 1, 0);
        QVERIFY(dock.view()->viewport()->rect().intersects(dock.view()->visualRect(last)));

        bar->setValue(10); // the operator scrolls up to read
        QVERIFY(!dock.followsNewest());
        fed.add(events::Severity::Info, "tm", "event 202");
        dock.poll();
        QCOMPARE(bar->value(), 10);
        QVERIFY(!dock.followsNewest());
        bar->setValue(bar->maximum()); // back at the bottom: following again
        fed.add(events::Severity::Error, "tm", "event 203");
        dock.poll();
        QCOMPARE(bar->value(), bar->maximum());
        QCOMPARE(dock.model()->rowCount(), 203);
    }

    // A real station: a TCP client stream to the test's server; the test accepts the connection and
    // drops it (connection made → Info, lost → Warning), then stop() → "station stopped".
    void realStationEvents()
    {
        QTcpServer server;
        QVERIFY(server.listen(QHostAddress::LocalHost, 0));
        QTemporaryDir dir;
        const auto profile = test::stationProfile(dir, {test::streamProfile("tm", test::tcpUrl(server.serverPort()))});
        auto created = pipeline::Station::create(profile, test::trainingDatabase());
        QVERIFY2(created, created ? "" : created.error().message.c_str());
        std::unique_ptr<pipeline::Station> station = std::move(*created);

        EventLogDock dock([&station](std::uint64_t after) { return station->events(after); });
        QVERIFY(station->start());
        QVERIFY(server.waitForNewConnection(5000));
        QTcpSocket* peer = server.nextPendingConnection();
        QVERIFY(peer);
        dock.show(); // polls from now on
        QVERIFY(QTest::qWaitForWindowExposed(&dock));
        QTRY_VERIFY_WITH_TIMEOUT(column(*dock.model(), EventLogModel::Text).join('|').contains("connected to"), 5000);
        peer->abort();
        QTRY_VERIFY_WITH_TIMEOUT(column(*dock.model(), EventLogModel::Severity).contains("Warning"), 5000);
        station->stop();
        QTRY_VERIFY_WITH_TIMEOUT(column(*dock.model(), EventLogModel::Text).contains("station stopped"), 2000);

        // The dock holds exactly what the engine has, in its order.
        const std::vector<Event> engine = station->events(0);
        const EventLogModel& m = *dock.model();
        QCOMPARE(m.rowCount(), static_cast<int>(engine.size()));
        for (int r = 0; r < m.rowCount(); ++r) {
            QCOMPARE(m.eventAt(r).number, engine[static_cast<std::size_t>(r)].number);
            QCOMPARE(m.eventAt(r).text, engine[static_cast<std::size_t>(r)].text);
            QCOMPARE(m.eventAt(r).severity, engine[static_cast<std::size_t>(r)].severity);
            if (r > 0)
                QVERIFY(m.eventAt(r).number > m.eventAt(r - 1).number);
        }
        QCOMPARE(m.eventAt(m.rowCount() - 1).text, std::string("station stopped"));
        QCOMPARE(m.eventAt(m.rowCount() - 1).stream, std::string());

        dock.setSeverityFilter(EventLogDock::SeverityFilter::WarningAndAbove);
        QVERIFY(dock.filterModel()->rowCount() >= 1);
        for (int r = 0; r < dock.filterModel()->rowCount(); ++r)
            QCOMPARE(dock.filterModel()->data(dock.filterModel()->index(r, EventLogModel::Stream)).toString(),
                     QStringLiteral("tm"));
        dock.setSeverityFilter(EventLogDock::SeverityFilter::All);
        dock.setSearchText(QStringLiteral("STATION STOPPED"));
        QCOMPARE(dock.filterModel()->rowCount(), 1);
        dock.setSearchText(QString());
        dock.resize(760, 260);
        QVERIFY(dock.grab().save(QStringLiteral("/tmp/h-guievents-station.png")));
    }

    // The new fields in their columns; the kind filter; the search over packet type and parameter.
    void kindColumnsAndFilter()
    {
        HandFed fed;
        fed.add(events::Severity::Info, "tm", "connected");
        fed.add(events::Severity::Critical, "tm", "Packet5.COOLANT_FLOW_RATE: red high, 190 > 180");
        fed.events.back().kind = events::EventKind::LimitViolation;
        fed.events.back().packetType = "Packet5";
        fed.events.back().parameter = "Packet5.COOLANT_FLOW_RATE";
        fed.add(events::Severity::Warning, "tm", "APID 7: 412 gaps, 9,870 packets lost in the last second");
        fed.events.back().kind = events::EventKind::SequenceGap;
        fed.events.back().count = 412;
        fed.events.back().amount = 9870;
        EventLogDock dock(fed.source());
        dock.poll();
        const EventLogModel& m = *dock.model();
        QCOMPARE(column(m, EventLogModel::Kind), (QStringList{"station", "limitViolation", "sequenceGap"}));
        QCOMPARE(column(m, EventLogModel::PacketType), (QStringList{"", "Packet5", ""}));
        QCOMPARE(column(m, EventLogModel::Parameter), (QStringList{"", "Packet5.COOLANT_FLOW_RATE", ""}));
        QCOMPARE(column(m, EventLogModel::Count), (QStringList{"", "", QStringLiteral("×412")}));
        QVERIFY(m.data(m.index(2, EventLogModel::Count), Qt::ToolTipRole).toString().contains(QStringLiteral("9,870")));
        QCOMPARE(column(m, EventLogModel::Severity), (QStringList{"Info", "Critical", "Warning"}));
        QVERIFY(m.data(m.index(1, EventLogModel::Text), Qt::FontRole).value<QFont>().bold());

        auto* kind = dock.findChild<QComboBox*>(QStringLiteral("eventKindFilter"));
        QVERIFY(kind);
        QCOMPARE(kind->count(), 1 + events::kEventKindCount);
        kind->setCurrentIndex(kind->findText(QStringLiteral("sequenceGap")));
        QCOMPARE(numbers(*dock.filterModel()), (QList<qulonglong>{3}));
        dock.setKindFilter(events::EventKind::LimitViolation);
        QCOMPARE(numbers(*dock.filterModel()), (QList<qulonglong>{2}));
        dock.setKindFilter(std::nullopt);
        dock.setSeverityFilter(EventLogDock::SeverityFilter::Critical);
        QCOMPARE(numbers(*dock.filterModel()), (QList<qulonglong>{2}));
        dock.setSeverityFilter(EventLogDock::SeverityFilter::All);
        dock.setSearchText(QStringLiteral("coolant_flow")); // the parameter column (and the text)
        QCOMPARE(numbers(*dock.filterModel()), (QList<qulonglong>{2}));
        dock.setSearchText(QStringLiteral("packet5")); // the packet type column
        QCOMPARE(numbers(*dock.filterModel()), (QList<qulonglong>{2}));
    }

    // "Load earlier…" pages back through a real archive: each event exactly once, in order, the live
    // rows (which the archive has too) not repeated, pages ending inside runs of one timestamp.
    void historyPagesBackExactly()
    {
        ArchiveFile archive(1200);
        // The live log has the archive's last three events (renumbered, as the session does) and a
        // note of the session's own that the archive does not have.
        HandFed fed;
        for (int i = 1197; i < 1200; ++i) {
            Event e = archive.events[static_cast<std::size_t>(i)];
            e.number = fed.events.size() + 1;
            fed.events.push_back(e);
        }
        fed.events.push_back(ev(4, ArchiveFile::timeOf(1300), events::Severity::Info, "", "profile saved"));
        EventLogDock dock(fed.source());
        QString trouble;
        dock.setArchive({[&] { return archive.path; }, [&] { return trouble; }});
        auto* load = dock.findChild<QPushButton*>(QStringLiteral("eventLoadEarlier"));
        QVERIFY(load && load->isEnabled());

        dock.poll();
        QCOMPARE(dock.model()->rowCount(), 4);
        QTest::mouseClick(load, Qt::LeftButton); // 500 back from the earliest live row's time: 3 repeats left out
        QCOMPARE(dock.model()->rowCount(), 4 + 497);
        QVERIFY2(dock.archiveStatusText().startsWith(QStringLiteral("497 earlier events loaded")), qPrintable(dock.archiveStatusText()));
        QVERIFY(dock.loadEarlier());
        QCOMPARE(dock.model()->rowCount(), 4 + 997);
        QVERIFY(dock.loadEarlier());
        QCOMPARE(dock.model()->rowCount(), 4 + 1197);
        QVERIFY(dock.archiveStatusText().contains(QStringLiteral("that is all the archive has")));
        QVERIFY(dock.loadEarlier()); // nothing more
        QCOMPARE(dock.model()->rowCount(), 4 + 1197);

        QStringList expected;
        for (int i = 0; i < 1200; ++i)
            expected << QString::fromStdString(archive.events[static_cast<std::size_t>(i)].text);
        expected << QStringLiteral("profile saved");
        QCOMPARE(texts(*dock.model()), expected);
        // The archived rows carry every field and their place in the archive; the live ones none.
        const EventLogModel& m = *dock.model();
        QVERIFY(m.eventAt(700) == archive.events[700]);
        QCOMPARE(m.archivePosition(700)->id, 701);
        QVERIFY(!m.archivePosition(1198));
        // New live events still arrive below.
        fed.add(events::Severity::Info, "tm", "connected again");
        dock.poll();
        QCOMPARE(texts(*dock.model()).last(), QStringLiteral("connected again"));

        // An archive that cannot be read: said in red, nothing changes.
        EventLogDock other(fed.source());
        other.setArchive({[&] { return archive.dir.filePath(QStringLiteral("missing.sqlite")); }, {}});
        other.poll();
        QVERIFY(!other.loadEarlier());
        QVERIFY(other.archiveStatusText().startsWith(QStringLiteral("The event archive cannot be read")));
        QCOMPARE(other.findChild<QLabel*>(QStringLiteral("eventArchiveStatus"))->palette().color(QPalette::WindowText),
                 ui::tone::kErrorText);
        QCOMPARE(other.model()->rowCount(), 5);
    }

    // Range…: the archive's events of a time range instead of the live log, paged back; Live returns.
    void rangeShownAndPaged()
    {
        ArchiveFile archive(1200);
        HandFed fed;
        fed.add(events::Severity::Info, "tm", "live one");
        EventLogDock dock(fed.source());
        dock.setArchive({[&] { return archive.path; }, {}});
        dock.poll();

        // [event 100's time, event 300's time): events 98..299 (7 to a timestamp: 98 shares 100's).
        const std::int64_t from = ArchiveFile::timeOf(100);
        const std::int64_t to = ArchiveFile::timeOf(300);
        QVERIFY(dock.showRange(from, to));
        QVERIFY(dock.range().has_value());
        QVERIFY(dock.shownModel() != dock.model());
        QStringList expected;
        for (int i = 0; i < 1200; ++i)
            if (ArchiveFile::timeOf(i) >= from && ArchiveFile::timeOf(i) < to)
                expected << QString::fromStdString(archive.events[static_cast<std::size_t>(i)].text);
        QCOMPARE(expected.first(), QStringLiteral("archived event 98"));
        QCOMPARE(texts(*dock.shownModel()), expected);
        QCOMPARE(dock.filterModel()->rowCount(), expected.size());
        QCOMPARE(dock.archiveStatusText(), QStringLiteral("All %1 events of the range.").arg(expected.size()));
        dock.setSearchText(QStringLiteral("archived event 15")); // the filters apply to the range too
        QCOMPARE(dock.filterModel()->rowCount(), 10); // 150..159
        dock.setSearchText(QString());

        // A live event meanwhile goes to the live log, not into the range shown.
        fed.add(events::Severity::Info, "tm", "live two");
        dock.poll();
        QCOMPARE(dock.model()->rowCount(), 2);
        QCOMPARE(dock.shownModel()->rowCount(), expected.size());

        // A range larger than a page: the newest page, then earlier ones.
        QVERIFY(dock.showRange(ArchiveFile::timeOf(0), ArchiveFile::timeOf(5000)));
        QCOMPARE(dock.shownModel()->rowCount(), 500);
        QCOMPARE(texts(*dock.shownModel()).first(), QStringLiteral("archived event 700"));
        QCOMPARE(dock.archiveStatusText(), QStringLiteral("The range's newest 500 events; Load earlier… for more."));
        QVERIFY(dock.loadEarlier());
        QVERIFY(dock.loadEarlier());
        QCOMPARE(dock.archiveStatusText(), QStringLiteral("200 earlier events loaded from the archive; that is the whole range."));
        QCOMPARE(dock.shownModel()->rowCount(), 1200);
        for (int i = 0; i < 1200; ++i)
            QVERIFY(dock.shownModel()->eventAt(i) == archive.events[static_cast<std::size_t>(i)]);

        auto* live = dock.findChild<QPushButton*>(QStringLiteral("eventLive"));
        QVERIFY(live);
        QTest::mouseClick(live, Qt::LeftButton);
        QVERIFY(!dock.range());
        QCOMPARE(dock.shownModel(), dock.model());
        QCOMPARE(texts(*dock.model()), (QStringList{"live one", "live two"}));
        QCOMPARE(dock.filterModel()->rowCount(), 2);
    }

    // Export range…: the archive's events of a range, every column, read back by an RFC 4180 parser;
    // more than a page, one header.
    void rangeExportParsesBack()
    {
        ArchiveFile archive(1200);
        HandFed fed, otherFed; // outlive the docks: their sources refer to them
        EventLogDock dock(fed.source());
        dock.setArchive({[&] { return archive.path; }, {}});
        const QString path = archive.dir.filePath(QStringLiteral("range.csv"));
        const std::int64_t from = ArchiveFile::timeOf(3);
        const std::int64_t to = ArchiveFile::timeOf(1100);
        ui::EventRangeExport* job = dock.exportRange(path, from, to);
        QVERIFY(job);
        QSignalSpy done(job, &ui::EventRangeExport::done);
        QVERIFY(!dock.exportRange(path, from, to)); // one at a time
        QTRY_COMPARE_WITH_TIMEOUT(done.count(), 1, 10000);
        QVERIFY2(done[0][0].toBool(), qPrintable(done[0][1].toString()));

        QFile file(path);
        QVERIFY(file.open(QIODevice::ReadOnly));
        QList<QStringList> records;
        QVERIFY(parseCsv(QString::fromUtf8(file.readAll()), &records));
        QCOMPARE(records[0], (QStringList{"time", "severity", "kind", "stream", "packet type", "parameter", "detail",
                                          "text", "count", "amount", "value", "limit", "limit state", "user"}));
        std::vector<const Event*> inRange;
        for (const Event& e : archive.events)
            if (e.timeNs >= from && e.timeNs < to)
                inRange.push_back(&e);
        QVERIFY(inRange.size() > 1000);
        QCOMPARE(records.size(), static_cast<qsizetype>(1 + inRange.size()));
        for (std::size_t i = 0; i < inRange.size(); ++i) {
            const QStringList& r = records[static_cast<qsizetype>(i + 1)];
            const Event& e = *inRange[i];
            QCOMPARE(r.size(), 14);
            QCOMPARE(r[0], QString::fromStdString(text::formatTimeNs(e.timeNs)));
            QCOMPARE(r[1], QString::fromLatin1(events::severityName(e.severity)));
            QCOMPARE(r[2], QString::fromLatin1(events::eventKindName(e.kind)));
            QCOMPARE(r[5], QString::fromStdString(e.parameter));
            QCOMPARE(r[7], QString::fromStdString(e.text));
            QCOMPARE(r[8].toULongLong(), e.count);
        }
        QVERIFY(dock.archiveStatusText().contains(QStringLiteral("exported to")));

        // An archive that is not there: the export fails, said in red, and no file is left.
        EventLogDock other(otherFed.source());
        other.setArchive({[&] { return archive.dir.filePath(QStringLiteral("missing.sqlite")); }, {}});
        const QString nothing = archive.dir.filePath(QStringLiteral("nothing.csv"));
        ui::EventRangeExport* failing = other.exportRange(nothing, from, to);
        QVERIFY(failing);
        QTRY_VERIFY_WITH_TIMEOUT(other.archiveStatusText().startsWith(QStringLiteral("Export failed")), 10000);
        QVERIFY(!QFile::exists(nothing));
    }

    // The archive's trouble (the station's eventStorageError) under the log, in red, while it lasts.
    void storageTroubleShown()
    {
        QString trouble;
        HandFed fed; // outlives the dock: its source refers to it (a temporary here was a use after scope, ASan)
        EventLogDock dock(fed.source());
        dock.setArchive({[] { return QStringLiteral("/nowhere/events.sqlite"); }, [&] { return trouble; }});
        auto* label = dock.findChild<QLabel*>(QStringLiteral("eventArchiveStatus"));
        QVERIFY(label);
        dock.poll();
        QVERIFY(label->text().isEmpty());
        trouble = QStringLiteral("cannot write /nowhere/events.sqlite: disk full; 12 events waiting");
        dock.poll();
        QCOMPARE(dock.archiveStatusText(), QStringLiteral("Event archive: ") + trouble);
        QCOMPARE(label->palette().color(QPalette::WindowText), ui::tone::kErrorText);
        trouble.clear();
        dock.poll();
        QVERIFY(dock.archiveStatusText().isEmpty());
        // No archive: the history buttons are off.
        dock.setArchive({[] { return QString(); }, {}});
        QVERIFY(!dock.findChild<QPushButton*>(QStringLiteral("eventLoadEarlier"))->isEnabled());
        QVERIFY(!dock.findChild<QPushButton*>(QStringLiteral("eventExportRange"))->isEnabled());
    }

    // A screenshot with every severity, a long text and the status line.
    void screenshot()
    {
        HandFed fed;
        fed.add(events::Severity::Info, "", "recording to /data/recordings");
        fed.add(events::Severity::Info, "tm", "connecting to 10.0.0.7:5000");
        fed.add(events::Severity::Info, "tm", "connected to 10.0.0.7:5000");
        fed.add(events::Severity::Warning, "", "forward destination udp://10.0.0.9:6000 is down");
        fed.add(events::Severity::Error, "hk", "recording stopped: cannot write /data/recordings/hk-0003.ttr: No space left on device");
        fed.add(events::Severity::Warning, "tm", "connection ended (1 so far); error: connection closed by peer (retry in 500 ms)");
        fed.add(events::Severity::Info, "", "station stopped");
        EventLogDock dock(fed.source(), nullptr, 5);
        dock.resize(760, 260);
        dock.show();
        QVERIFY(QTest::qWaitForWindowExposed(&dock));
        QVERIFY(dock.grab().save(QStringLiteral("/tmp/h-guievents-dock.png")));
        dock.setSeverityFilter(EventLogDock::SeverityFilter::WarningAndAbove);
        dock.setSearchText(QStringLiteral("connection"));
        QVERIFY(dock.grab().save(QStringLiteral("/tmp/h-guievents-filtered.png")));
    }
};

QTEST_MAIN(TestEventLog)
#include "tst_ui_event_log.moc"
