// Recording after a full disk, as the operator sees it in the recordings browser: a small tmpfs (mounted
// by the test, as root; skipped otherwise) fills, the browser's recording line turns to "Recording
// stopped: …" in red with "Resume recording"; once space is freed, clicking it records again into a new
// segment and the line says where it records. The mount is always removed.
#include "core/pipeline/station.hpp"
#include "ui/models/streams_model.hpp"
#include "ui/session/station_session.hpp"
#include "ui/widgets/recording_status_line.hpp"
#include "ui/widgets/recordings_browser.hpp"
#include "tests/support/gui_session.hpp"
#include "tests/support/sim_traffic.hpp"
#include "tests/support/small_disk.hpp"
#include "tests/support/station_fixture.hpp"
#include "tests/support/wait_until.hpp"

#include <QPushButton>
#include <QTemporaryDir>
#include <QtTest>


using namespace telestation;

namespace {

std::uint64_t recorded(const pipeline::Station& st)
{
    const auto snap = st.snapshot();
    const auto* s = test::streamStats(snap, "tm");
    return s ? s->counters.packetsRecorded : 0;
}

} // namespace

class TestUiRecordingResume : public QObject {
    Q_OBJECT

private slots:
    void resumeRecordingAfterAFullDisk();
};

void TestUiRecordingResume::resumeRecordingAfterAFullDisk()
{
    QTemporaryDir dir;
    test::SmallDisk disk(dir.filePath("small").toStdString(), "512k");
    if (!disk.mounted())
        QSKIP(disk.mountError().c_str());
    disk.takeSpace(256 * 1024);

    auto profile = test::stationProfile(dir, {test::streamProfile("tm")});
    profile.recordingDirectory = disk.path() + "/rec";
    profile.events.archiveFile = dir.filePath("events.sqlite").toStdString();
    profile.streams[0].staleAfterSeconds = 0;
    profile.streams[0].packets.push_back({7, std::nullopt, config::ProcessingMode::PassThru, true, {}});
    profile.api.enabled = false;
    auto session = test::openSession(profile);
    ui::RecordingsBrowser browser(*session);
    browser.setStation(session->station());
    browser.setRecordingDirectory(QString::fromStdString(profile.recordingDirectory));
    browser.show();
    ui::RecordingStatusLine* line = browser.recordingStatus();
    QVERIFY(line);
    pipeline::Station& st = *session->station();

    // 1000 Packet5: more than the disk has room for.
    std::uint64_t sent = test::sendPackets(st, "tm", {"Packet5"}, 1000, 5000).sent.packets;
    QVERIFY(test::settle(st, "tm", sent));
    QVERIFY(st.recordingFailed());
    session->snapshots().tick();
    QVERIFY(line->showsFailure());
    QVERIFY2(line->text().startsWith("Recording stopped: ") && line->text().contains("No space left on device"),
             qPrintable(line->text()));
    QVERIFY(line->resumeButton()->isVisible());
    // The streams panel's state says so too, in red.
    ui::StreamsModel streams(*session);
    streams.setStation(session->station());
    streams.setSnapshot(session->snapshots().latest());
    const QModelIndex state = streams.index(0, ui::StreamsModel::State);
    QVERIFY2(state.data().toString().startsWith("recording stopped; "), qPrintable(state.data().toString()));
    QVERIFY(state.data(Qt::ToolTipRole).toString().contains("No space left on device"));
    const std::uint64_t before = recorded(st);

    QVERIFY(disk.freeSpace());
    QTest::mouseClick(line->resumeButton(), Qt::LeftButton);
    QVERIFY(!line->resumeButton()->isVisible());
    const std::uint64_t resumedAt = sent;
    sent += test::sendPackets(st, "tm", {"Packet5"}, 100, 5000).sent.packets;
    QVERIFY(test::settle(st, "tm", sent));
    QCOMPARE(recorded(st), before + (sent - resumedAt));
    session->snapshots().tick();
    QVERIFY(!line->showsFailure());
    QVERIFY2(line->text().startsWith("Recording to "), qPrintable(line->text()));
    QVERIFY(!line->resumeButton()->isVisible());
    streams.setSnapshot(session->snapshots().latest());
    QVERIFY2(!streams.index(0, ui::StreamsModel::State).data().toString().contains("recording stopped"),
             qPrintable(streams.index(0, ui::StreamsModel::State).data().toString()));
    st.flushEvents();
    bool newSegment = false;
    for (const auto& e : st.events())
        newSegment = newSegment || e.text.find("recording resumed into") != std::string::npos;
    QVERIFY(newSegment);
}

QTEST_MAIN(TestUiRecordingResume)
#include "tst_ui_recording_resume.moc"
