// The recordings browser against real recordings: a station records a few hundred packets (the
// simulator sends them over loopback) into several 64 KiB segments; the browser lists exactly the
// catalog's segments; selecting rows, choosing a speed and pressing Play emits a request whose URL the
// engine's own parsers read back to the selection; a second station plays that URL and the progress
// area follows it, Pause (clicked) holds it and Resume plays it to the end. A directory without a
// catalog is left untouched, and a directory a station is recording into is read without changing
// its catalog (the recorder's open segment stays open).
#include "core/config/station_profile.hpp"
#include "core/io/endpoint.hpp"
#include "core/pipeline/station.hpp"
#include "core/record/playback.hpp"
#include "core/record/recording_catalog.hpp"
#include "sim/engine/sim_stream.hpp"
#include "ui/models/recordings_model.hpp"
#include "ui/widgets/recordings_browser.hpp"
#include "tests/support/test_paths.hpp"
#include "tests/support/gui_session.hpp"
#include "tests/support/sim_traffic.hpp"
#include "tests/support/station_fixture.hpp"

#include <QAbstractButton>
#include <QCheckBox>
#include <QComboBox>
#include <QDateTimeEdit>
#include <QDir>
#include <QItemSelectionModel>
#include <QLineEdit>
#include <QProgressBar>
#include <QPushButton>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTableView>
#include <QTemporaryDir>
#include <QtTest>

#include <chrono>
#include <memory>
#include <string>
#include <thread>
#include <vector>

using namespace telestation;
using namespace std::chrono_literals;
using ui::RecordingsBrowser;
using ui::RecordingsModel;

namespace {

constexpr int kValue = RecordingsModel::kValueRole;
constexpr std::uint64_t kPackets = 300;

// One UDP stream "hk" recording Packet5 and HK_Status into `directory`, 64 KiB segments.
config::StationProfile recordingProfile(const std::string& directory)
{
    config::StationProfile profile;
    profile.recordingDirectory = directory;
    profile.queues.maxRecordFileSize = 64 * 1024;
    config::StreamProfile sp;
    sp.name = "hk";
    sp.source = "udp://127.0.0.1:0";
    sp.packets.push_back({ 7, std::nullopt, config::ProcessingMode::PassThru, true, {} });
    sp.packets.push_back({ 100, std::nullopt, config::ProcessingMode::PassThru, true, {} });
    profile.streams.push_back(sp);
    return profile;
}

// Packet5 twice as often as HK_Status to the station's stream "hk"; returns once they are sent.
sim::StreamSummary sendPackets(const pipeline::Station& station, std::uint64_t count, double pps)
{
    auto c = test::traffic(test::streamAddress(station, "hk"), { "Packet5", "HK_Status" }, count, pps);
    c.mix[0].weight = 2;
    return test::send(c, station.database());
}

std::vector<record::SegmentInfo> catalogSegments(const QString& directory)
{
    auto catalog = record::RecordingCatalog::open(directory.toStdString());
    if (!catalog)
        qFatal("catalog: %s", catalog.error().toString().c_str());
    return (*catalog)->segments();
}

void clickRow(QTableView& view, int row, Qt::KeyboardModifiers modifiers = {})
{
    const QRect rect = view.visualRect(view.model()->index(row, RecordingsModel::File));
    QTest::mouseClick(view.viewport(), Qt::LeftButton, modifiers, rect.center());
}

void chooseSpeed(RecordingsBrowser& browser, const QString& text)
{
    QComboBox* combo = browser.speedCombo();
    const int item = combo->findText(text);
    if (item >= 0) {
        combo->setCurrentIndex(item);
        return;
    }
    combo->lineEdit()->selectAll();
    QTest::keyClicks(combo->lineEdit(), text);
}

QStringList entries(const QString& directory)
{
    return QDir(directory).entryList(QDir::AllEntries | QDir::NoDotAndDotDot | QDir::Hidden | QDir::System);
}

} // namespace

class TestRecordings : public QObject {
    Q_OBJECT

    mdb::MissionDatabase m_db;
    QTemporaryDir m_dir;
    QString m_recordings; // recorded once, read by every test
    std::vector<record::SegmentInfo> m_segments; // what the catalog says

    void showBrowser(RecordingsBrowser& browser)
    {
        browser.resize(1100, 640);
        browser.show();
        QVERIFY(QTest::qWaitForWindowExposed(&browser));
    }

    // Refresh clicked once no listing runs; returns when that listing is applied.
    static void relist(RecordingsBrowser& browser)
    {
        QTRY_VERIFY(!browser.model()->isListing());
        QSignalSpy listed(browser.model(), &RecordingsModel::listed);
        QTest::mouseClick(browser.refreshButton(), Qt::LeftButton);
        QTRY_COMPARE(listed.count(), 1);
    }

    // Played back: the URL's options, read with the engine's own parsers.
    static record::PlaybackOptions parse(const QString& url, std::string* path = nullptr)
    {
        const auto endpoint = io::parseEndpoint(url.toStdString());
        if (!endpoint)
            qFatal("url: %s", endpoint.error().toString().c_str());
        if (path)
            *path = endpoint->path;
        const auto options = record::playbackOptionsFromQuery(endpoint->query);
        if (!options)
            qFatal("options: %s", options.error().toString().c_str());
        return *options;
    }

private Q_SLOTS:
    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true);
        QVERIFY(m_dir.isValid());
        m_db = test::trainingDatabase();
        m_recordings = QDir(m_dir.path()).filePath(QStringLiteral("rec"));
        auto station = pipeline::Station::create(recordingProfile(m_recordings.toStdString()), m_db);
        QVERIFY2(station, station ? "" : station.error().message.c_str());
        QVERIFY((*station)->start());
        const auto sent = sendPackets(**station, kPackets, 150); // two seconds of data
        QVERIFY(test::settle(**station, "hk", sent.sent.packets));
        (*station)->stop();
        QCOMPARE((*station)->snapshot().streams[0].counters.packetsRecorded, kPackets);
        m_segments = catalogSegments(m_recordings);
        QVERIFY2(m_segments.size() >= 4, "64 KiB segments: expected several");
    }

    // The rows are the catalog's segments, with their counts, states, times and per-APID tooltips.
    void listsTheCatalog()
    {
        ui::StationSession session; // no station
        RecordingsBrowser browser(session);
        browser.setRecordingDirectory(m_recordings);
        showBrowser(browser);
        RecordingsModel& model = *browser.model();
        QTRY_COMPARE(model.rowCount(), static_cast<int>(m_segments.size()));
        std::uint64_t total = 0;
        for (int r = 0; r < model.rowCount(); ++r) {
            const auto& s = m_segments[static_cast<std::size_t>(r)];
            QCOMPARE(model.index(r, RecordingsModel::File).data().toString(), QString::fromStdString(s.file));
            QCOMPARE(model.index(r, RecordingsModel::Stream).data().toString(), QStringLiteral("hk"));
            QCOMPARE(model.index(r, RecordingsModel::Sequence).data(kValue).toULongLong(), s.sequence);
            QCOMPARE(model.index(r, RecordingsModel::Packets).data(kValue).toULongLong(), s.packets);
            QCOMPARE(model.index(r, RecordingsModel::Bytes).data(kValue).toULongLong(), s.bytes);
            QCOMPARE(model.index(r, RecordingsModel::State).data().toString(), QStringLiteral("closed"));
            QCOMPARE(
                model.index(r, RecordingsModel::FirstTime).data().toString(), RecordingsModel::timeText(s.firstTimeNs));
            QCOMPARE(model.index(r, RecordingsModel::Duration).data(kValue).toLongLong(), s.lastTimeNs - s.firstTimeNs);
            QString apids;
            for (const auto& [apid, count] : s.apidPackets)
                apids += (apids.isEmpty() ? QString() : QStringLiteral("\n"))
                    + QStringLiteral("APID %1: %2").arg(apid).arg(count);
            QVERIFY(!apids.isEmpty());
            QCOMPARE(model.index(r, RecordingsModel::Packets).data(Qt::ToolTipRole).toString(), apids);
            total += s.packets;
        }
        QCOMPARE(total, kPackets);
        QCOMPARE(model.index(0, RecordingsModel::FirstTime).data().toString().size(), 23); // yyyy-MM-dd HH:mm:ss.zzz
        QVERIFY(!model.listing().readOnly); // nothing records here: the full catalog was read
        QVERIFY2(browser.listMessage().contains(QStringLiteral("%1 packets").arg(kPackets)),
            qPrintable(browser.listMessage()));

        // Refresh keeps the rows (and so the selection) in place: no reset, no insert.
        clickRow(*browser.view(), 1);
        QSignalSpy resets(&model, &QAbstractItemModel::modelReset);
        QSignalSpy inserts(&model, &QAbstractItemModel::rowsInserted);
        QSignalSpy listed(&model, &RecordingsModel::listed);
        QTest::mouseClick(browser.refreshButton(), Qt::LeftButton);
        QTRY_COMPARE(listed.count(), 1);
        QCOMPARE(resets.count(), 0);
        QCOMPARE(inserts.count(), 0);
        QCOMPARE(browser.view()->selectionModel()->selectedRows().size(), 1);
        QCOMPARE(browser.view()->selectionModel()->selectedRows().front().row(), 1);

        QVERIFY(browser.isPolling());
        browser.hide();
        QVERIFY(!browser.isPolling());
    }

    // Rows + speed + Play: the URL reads back (io::parseEndpoint, playbackOptionsFromQuery) to the
    // selected segments and the speed; the name avoids the streams that exist.
    void playEmitsAUrlTheEngineReadsBack()
    {
        // The session has streams named "hk" and "playback".
        config::StationProfile profile;
        profile.recordingDirectory = QDir(m_dir.path()).filePath(QStringLiteral("unused")).toStdString();
        for (const char* name : { "hk", "playback" }) {
            config::StreamProfile sp;
            sp.name = name;
            sp.source = "udp://127.0.0.1:0";
            profile.streams.push_back(sp);
        }
        auto session = test::openSession(profile);
        RecordingsBrowser browser(*session);
        browser.setStation(session->station());
        browser.setRecordingDirectory(m_recordings);
        showBrowser(browser);
        QTRY_COMPARE(browser.model()->rowCount(), static_cast<int>(m_segments.size()));
        QSignalSpy play(&browser, &RecordingsBrowser::playRequested);
        QVERIFY(!browser.playButton()->isEnabled()); // nothing selected

        clickRow(*browser.view(), 1);
        clickRow(*browser.view(), 3, Qt::ControlModifier);
        clickRow(*browser.view(), 2, Qt::ControlModifier);
        chooseSpeed(browser, QStringLiteral("×10"));
        QVERIFY(browser.playButton()->isEnabled());
        QTest::mouseClick(browser.playButton(), Qt::LeftButton);
        QCOMPARE(play.count(), 1);
        QCOMPARE(play.at(0).at(0).toString(), QStringLiteral("playback-2"));
        const QString url = play.at(0).at(1).toString();
        QVERIFY2(url.startsWith(
                     QStringLiteral("file://") + QDir(m_recordings).canonicalPath() + QStringLiteral("?segment=")),
            qPrintable(url));
        std::string path;
        auto options = parse(url, &path);
        QCOMPARE(QString::fromStdString(path), QDir(m_recordings).canonicalPath());
        const std::vector<std::string> selected { m_segments[1].file, m_segments[2].file, m_segments[3].file };
        QCOMPARE(options.segments, selected);
        QCOMPARE(options.speed, 10.0);
        QCOMPARE(options.fromNs, std::int64_t { 0 });
        QCOMPARE(options.toNs, std::int64_t { 0 });
        QVERIFY(options.streams.empty());
        // The playback source takes it: the selection has those segments' records.
        {
            auto source = record::PlaybackSource::open(path, options);
            QVERIFY2(source, source ? "" : source.error().toString().c_str());
            QCOMPARE((*source)->progress().recordsTotal,
                m_segments[1].packets + m_segments[2].packets + m_segments[3].packets);
        }
        // A second click does not hand out the same name before the session has added the stream.
        QTest::mouseClick(browser.playButton(), Qt::LeftButton);
        QCOMPARE(play.count(), 2);
        QCOMPARE(play.at(1).at(0).toString(), QStringLiteral("playback-3"));

        // Typed speeds: any plain number above 0, with or without the ×.
        chooseSpeed(browser, QStringLiteral("2.5"));
        QCOMPARE(parse(browser.playbackUrl()).speed, 2.5);
        chooseSpeed(browser, QStringLiteral("×3"));
        QCOMPARE(parse(browser.playbackUrl()).speed, 3.0);
        chooseSpeed(browser, QStringLiteral("As fast as possible"));
        QCOMPARE(parse(browser.playbackUrl()).speed, 0.0);
        for (const QString& bad :
            { QStringLiteral("fast"), QStringLiteral("0"), QStringLiteral("-2"), QStringLiteral("1e3") }) {
            chooseSpeed(browser, bad);
            QVERIFY2(!browser.playButton()->isEnabled(), qPrintable(bad));
            QVERIFY2(
                browser.playMessage().contains(QStringLiteral("is not a speed")), qPrintable(browser.playMessage()));
            QVERIFY(browser.playbackUrl().isEmpty());
        }
        QTest::mouseClick(browser.playButton(), Qt::LeftButton); // disabled: nothing
        QCOMPARE(play.count(), 2);
        chooseSpeed(browser, QStringLiteral("×1"));
        QVERIFY(browser.playButton()->isEnabled());
        QVERIFY(browser.playMessage().isEmpty());

        // The time range: offered from the selection (to the ms, inclusive), off until checked.
        QVERIFY(!browser.fromEdit()->isEnabled());
        QCOMPARE(browser.fromEdit()->dateTime().toMSecsSinceEpoch(), m_segments[1].firstTimeNs / 1'000'000);
        QCOMPARE(browser.toEdit()->dateTime().toMSecsSinceEpoch(), (m_segments[3].lastTimeNs + 999'999) / 1'000'000);
        QTest::mouseClick(browser.rangeCheck(), Qt::LeftButton);
        QVERIFY(browser.fromEdit()->isEnabled());
        const std::int64_t fromMs = m_segments[2].firstTimeNs / 1'000'000 + 7;
        const std::int64_t toMs = m_segments[3].lastTimeNs / 1'000'000 - 3;
        browser.fromEdit()->setDateTime(QDateTime::fromMSecsSinceEpoch(fromMs, Qt::UTC));
        browser.toEdit()->setDateTime(QDateTime::fromMSecsSinceEpoch(toMs, Qt::UTC));
        QTest::mouseClick(browser.playButton(), Qt::LeftButton);
        QCOMPARE(play.count(), 3);
        options = parse(play.at(2).at(1).toString());
        QCOMPARE(options.fromNs, fromMs * 1'000'000);
        QCOMPARE(options.toNs, toMs * 1'000'000);
        QCOMPARE(options.speed, 1.0);
        QCOMPARE(options.segments, selected);
        // Backwards: refused with the reason.
        browser.fromEdit()->setDateTime(QDateTime::fromMSecsSinceEpoch(toMs + 1, Qt::UTC));
        QVERIFY(!browser.playButton()->isEnabled());
        QVERIFY2(
            browser.playMessage().contains(QStringLiteral("ends before it starts")), qPrintable(browser.playMessage()));
        browser.grab().save(QStringLiteral("/tmp/h-playback-recordings-play.png"));
    }

    // A station plays the URL; the progress area follows it; Pause holds it, Resume finishes it, Stop
    // asks for its removal.
    void progressPauseResumeStop()
    {
        ui::StationSession session; // no station until the playback stream is asked for
        RecordingsBrowser browser(session);
        browser.setRecordingDirectory(m_recordings);
        showBrowser(browser);
        QTRY_COMPARE(browser.model()->rowCount(), static_cast<int>(m_segments.size()));
        QSignalSpy play(&browser, &RecordingsBrowser::playRequested);
        QSignalSpy remove(&browser, &RecordingsBrowser::removeStreamRequested);
        browser.view()->selectAll();
        chooseSpeed(browser, QStringLiteral("×1")); // two seconds of data at real time
        QTest::mouseClick(browser.playButton(), Qt::LeftButton);
        QCOMPARE(play.count(), 1);
        QCOMPARE(play.at(0).at(0).toString(), QStringLiteral("playback"));

        config::StationProfile profile;
        profile.recordingDirectory = QDir(m_dir.path()).filePath(QStringLiteral("unused")).toStdString();
        config::StreamProfile sp;
        sp.name = play.at(0).at(0).toString().toStdString();
        sp.source = play.at(0).at(1).toString().toStdString();
        profile.streams.push_back(sp);
        profile.mdb = test::trainingDatabasePath();
        QString error;
        QVERIFY2(session.open(profile, {}, &error), qPrintable(error)); // what the session does on playRequested
        auto& station = *session.station();
        browser.setStation(&station);
        QCOMPARE(browser.playbackStreams(), QStringList { QStringLiteral("playback") });
        QTRY_VERIFY(browser.shownProgress(QStringLiteral("playback")) > 0.0);
        QVERIFY(browser.shownProgress(QStringLiteral("playback")) < 1.0);
        QVERIFY2(browser.shownState(QStringLiteral("playback")).contains(QStringLiteral("playing back")),
            qPrintable(browser.shownState(QStringLiteral("playback"))));
        QAbstractButton* pause = browser.pauseButton(QStringLiteral("playback"));
        QVERIFY(pause && pause->isEnabled());
        QCOMPARE(pause->text(), QStringLiteral("Pause"));

        QTest::mouseClick(pause, Qt::LeftButton);
        QVERIFY(station.streamPaused("playback"));
        QCOMPARE(pause->text(), QStringLiteral("Resume"));
        QTest::qWait(300); // a read in flight when the pause came lands
        session.snapshots().tick();
        const double held = browser.shownProgress(QStringLiteral("playback"));
        QVERIFY(held < 1.0);
        QTest::qWait(1500); // the progress timer runs meanwhile
        QCOMPARE(browser.shownProgress(QStringLiteral("playback")), held);
        QCOMPARE(station.snapshot().streams[0].progress, held);
        QVERIFY(browser.shownState(QStringLiteral("playback")).startsWith(QStringLiteral("paused")));
        const auto* bar = browser.findChild<QWidget*>(QStringLiteral("playback:playback"))
                              ->findChild<QProgressBar*>(QStringLiteral("progressBar"));
        QVERIFY(bar);
        QCOMPARE(bar->value(), static_cast<int>(std::lround(held * RecordingsBrowser::kProgressSteps)));
        browser.grab().save(QStringLiteral("/tmp/h-playback-recordings-paused.png"));

        QTest::mouseClick(pause, Qt::LeftButton);
        QVERIFY(!station.streamPaused("playback"));
        QCOMPARE(pause->text(), QStringLiteral("Pause"));
        QTRY_COMPARE_WITH_TIMEOUT(browser.shownProgress(QStringLiteral("playback")), 1.0, 15000);
        QVERIFY(station.playbackFinished());
        QVERIFY(station.waitIdle(5s));
        QCOMPARE(station.snapshot().streams[0].counters.packetsReceived, kPackets);
        QVERIFY(!pause->isEnabled()); // nothing left to pause

        QTest::mouseClick(browser.stopButton(QStringLiteral("playback")), Qt::LeftButton);
        QCOMPARE(remove.count(), 1);
        QCOMPARE(remove.at(0).at(0).toString(), QStringLiteral("playback"));
        browser.setStation(nullptr); // the session removes the stream: the row goes with the station
        QVERIFY(browser.playbackStreams().isEmpty());
        QVERIFY(!browser.pauseButton(QStringLiteral("playback")));
    }

    // A directory without catalog.sqlite: the message, and nothing created (not even the directory).
    void directoryWithoutCatalogIsLeftAlone()
    {
        const QString empty = QDir(m_dir.path()).filePath(QStringLiteral("empty"));
        QVERIFY(QDir().mkpath(empty));
        const QString missing = QDir(m_dir.path()).filePath(QStringLiteral("missing"));
        ui::StationSession session; // no station
        RecordingsBrowser browser(session);
        showBrowser(browser);
        for (const QString& directory : { empty, missing }) {
            QSignalSpy listed(browser.model(), &RecordingsModel::listed);
            browser.setRecordingDirectory(directory);
            // At least once: the browser's 5 s listing timer may list again on a loaded machine.
            QTRY_VERIFY(listed.count() >= 1);
            QCOMPARE(browser.listMessage(), QStringLiteral("No recordings in %1").arg(directory));
            QCOMPARE(browser.model()->rowCount(), 0);
            const auto before = listed.count();
            QTest::mouseClick(browser.refreshButton(), Qt::LeftButton);
            QTRY_VERIFY(listed.count() > before);
        }
        QVERIFY(entries(empty).isEmpty());
        QVERIFY(!QFileInfo::exists(missing));

        // Back to a real recording: the rows come back, the message says what is there.
        browser.setRecordingDirectory(m_recordings);
        QTRY_COMPARE(browser.model()->rowCount(), static_cast<int>(m_segments.size()));
        QVERIFY(!browser.listMessage().startsWith(QStringLiteral("No recordings")));
        browser.grab().save(QStringLiteral("/tmp/h-playback-recordings-list.png"));
        browser.resize(440, 600); // as in a dock
        QTest::qWait(50);
        browser.grab().save(QStringLiteral("/tmp/h-playback-recordings-narrow.png"));
    }

    // While a station records into the directory its open segment stays OPEN in the catalog (the
    // browser reads without recovering); once it stopped, the closed segments carry no recovery note.
    void liveRecordingIsReadWithoutChangingIt()
    {
        const QString live = QDir(m_dir.path()).filePath(QStringLiteral("live"));
        auto session = test::openSession(recordingProfile(live.toStdString()));
        auto& station = *session->station();
        const auto sent = sendPackets(station, 60, 2000);
        QVERIFY(test::settle(station, "hk", sent.sent.packets));

        RecordingsBrowser browser(*session);
        browser.setStation(&station);
        browser.setRecordingDirectory(live);
        showBrowser(browser);
        QTRY_VERIFY(browser.model()->rowCount() > 0);
        const int last = browser.model()->rowCount() - 1;
        relist(browser);
        QCOMPARE(browser.model()->index(last, RecordingsModel::State).data().toString(), QStringLiteral("open"));
        {
            // The catalog still says OPEN: nothing recovered the recorder's segment.
            auto source = record::PlaybackSource::open(live.toStdString(), {});
            QVERIFY(source);
            QCOMPARE((*source)->segments().back().state, record::SegmentState::Open);
        }
        QVERIFY(browser.model()->listing().readOnly);

        station.stop();
        relist(browser);
        QVERIFY(!browser.model()->listing().readOnly);
        std::uint64_t total = 0;
        for (const auto& s : catalogSegments(live)) {
            QCOMPARE(s.state, record::SegmentState::Closed);
            QVERIFY2(s.problem.find("recovered") == std::string::npos, s.problem.c_str());
            total += s.packets;
        }
        QCOMPARE(total, std::uint64_t { 60 });
        QCOMPARE(browser.model()->index(last, RecordingsModel::State).data().toString(), QStringLiteral("closed"));
    }
};

QTEST_MAIN(TestRecordings)
#include "tst_ui_recordings.moc"
