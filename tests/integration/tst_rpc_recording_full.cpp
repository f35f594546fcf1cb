// A full disk, for real: the recording directory is on a small tmpfs the test mounts (as root; skipped
// otherwise) and fills. Recording stops with an error event saying so while the station keeps receiving,
// processing and forwarding; what was written reads back; once space is freed an API client resumes
// recording (ResumeRecording) into a new segment; the catalog, whose writes failed with the disk, is in
// line with the files when opened again. The mount is always removed.
#include "clients/cpp/client.hpp"
#include "core/record/playback.hpp"
#include "core/record/recording_catalog.hpp"
#include "rpc/api_server.hpp"
#include "tests/support/capture_receiver.hpp"
#include "tests/support/sim_traffic.hpp"
#include "tests/support/small_disk.hpp"
#include "tests/support/station_fixture.hpp"
#include "tests/support/training_mission.hpp"
#include "tests/support/wait_until.hpp"

#include <QTemporaryDir>
#include <QtTest>


using namespace telestation;

namespace {

using u64 = std::uint64_t;

stats::PacketCounters counters(const pipeline::Station& st)
{
    const auto snap = st.snapshot();
    const auto* s = test::streamStats(snap, "tm");
    const auto* t = s ? test::typeStats(*s, "Packet5") : nullptr;
    return t ? t->counters : stats::PacketCounters{};
}

std::string streamRecording(const pipeline::Station& st)
{
    const auto snap = st.snapshot();
    const auto* s = test::streamStats(snap, "tm");
    return s ? s->recording : "(no stream)";
}

bool hasEvent(const pipeline::Station& st, events::EventKind kind, events::Severity severity,
              std::initializer_list<std::string_view> words)
{
    for (const auto& e : st.events())
        if (e.kind == kind && e.severity == severity &&
            std::all_of(words.begin(), words.end(), [&](std::string_view w) { return e.text.find(w) != std::string::npos; }))
            return true;
    return false;
}

std::string eventList(const pipeline::Station& st)
{
    std::string out;
    for (const auto& e : st.events())
        out += std::string(events::eventKindName(e.kind)) + ": " + e.text + "\n";
    return out;
}

// Every record of the recording, by playback: how many, and what it reported.
u64 playBack(const std::string& directory, std::string* problem)
{
    auto source = record::PlaybackSource::open(directory, {});
    if (!source) {
        *problem = source.error().toString();
        return 0;
    }
    u64 played = 0;
    while (!(*source)->finished())
        played += (*source)->poll(std::chrono::milliseconds(100), [](const record::RecordMeta&, std::span<const std::uint8_t>) {});
    *problem = (*source)->progress().problem;
    return played;
}

} // namespace

class TestRpcRecordingFull : public QObject {
    Q_OBJECT

private slots:
    void aFullDiskStopsRecordingAndAnApiClientResumesIt();
};

void TestRpcRecordingFull::aFullDiskStopsRecordingAndAnApiClientResumesIt()
{
    QTemporaryDir dir;
    test::SmallDisk disk(dir.filePath("small").toStdString(), "768k");
    if (!disk.mounted())
        QSKIP(disk.mountError().c_str());
    disk.takeSpace(384 * 1024); // another program's file: deleting it is how the operator frees space

    test::UdpCapture forwarded;
    auto profile = test::stationProfile(dir, {test::streamProfile("tm")});
    profile.recordingDirectory = disk.path() + "/rec";
    profile.events.archiveFile = dir.filePath("events.sqlite").toStdString(); // not on the small disk
    profile.streams[0].staleAfterSeconds = 0;
    profile.streams[0].packets.push_back(
        {7, std::nullopt, config::ProcessingMode::ProcessEntirePacket, true, {test::udpUrl(forwarded.port())}});
    auto station = test::startStation(profile, test::trainingDatabase());
    QVERIFY(station);
    auto& st = *station;
    auto server = rpc::ApiServer::start(st, {});
    QVERIFY2(server, server ? "" : server.error().message.c_str());
    client::Client api((*server)->target());

    // 1000 Packet5 of 1288 bytes: 1.3 MB, more than the disk holds.
    u64 sent = test::sendPackets(st, "tm", {"Packet5"}, 1000, 5000).sent.packets;
    QVERIFY(test::settle(st, "tm", sent));
    const auto full = counters(st);
    QCOMPARE(full.packetsProcessed, sent);
    QVERIFY(full.recordErrors > 0);
    QCOMPARE(full.packetsRecorded + full.recordErrors, sent);
    QVERIFY(st.recordingFailed());
    QVERIFY2(st.snapshot().recordingState.find("No space left on device") != std::string::npos,
             st.snapshot().recordingState.c_str());
    st.flushEvents();
    QVERIFY2(hasEvent(st, events::EventKind::RecordingError, events::Severity::Error,
                      {"recording stopped", "No space left on device"}),
             eventList(st).c_str());
    // The stream says its recording failed, in the statistics and to API clients.
    QVERIFY2(streamRecording(st).starts_with("failed: write to "), streamRecording(st).c_str());
    {
        auto statistics = api.statistics(100);
        const auto first = statistics.next();
        QVERIFY(first && first->streams_size() == 1);
        QCOMPARE(first->streams(0).recording(), streamRecording(st));
    }

    // The station goes on: receiving, processing and forwarding every packet, recording none.
    const u64 arrived = sent;
    sent += test::sendPackets(st, "tm", {"Packet5"}, 300, 5000).sent.packets;
    QVERIFY(test::settle(st, "tm", sent));
    const auto after = counters(st);
    QCOMPARE(after.packetsProcessed, sent);
    QCOMPARE(after.packetsForwarded, sent);
    QCOMPARE(after.packetsRecorded, full.packetsRecorded);
    QCOMPARE(after.recordErrors, full.recordErrors + (sent - arrived));
    QVERIFY(test::waitUntil([&] { return forwarded.count() == sent; }));

    // What was written reads back, every record the station counts as recorded.
    std::string problem;
    QCOMPARE(playBack(profile.recordingDirectory, &problem), full.packetsRecorded);
    QVERIFY2(problem.find("damaged") == std::string::npos, problem.c_str());

    // Space freed; the operator resumes over the API: a new segment takes every packet from then on.
    QVERIFY(disk.freeSpace());
    const std::string reply = api.resumeRecording();
    QVERIFY2(reply.find("recording resumed") != std::string::npos, reply.c_str());
    const u64 resumedAt = sent;
    sent += test::sendPackets(st, "tm", {"Packet5"}, 100, 5000).sent.packets;
    QVERIFY(test::settle(st, "tm", sent));
    QCOMPARE(counters(st).packetsRecorded, full.packetsRecorded + (sent - resumedAt));
    QVERIFY(!st.recordingFailed());
    QVERIFY(st.snapshot().recordingState.starts_with("recording to"));
    QVERIFY2(streamRecording(st).starts_with("recording into tm-") && streamRecording(st).ends_with("-2.tsrec"),
             streamRecording(st).c_str());
    const std::string again = api.resumeRecording();
    QVERIFY2(again.find("nothing to resume") != std::string::npos, again.c_str());
    st.flushEvents();
    QVERIFY2(hasEvent(st, events::EventKind::Recording, events::Severity::Info, {"recording resumed into", ".tsrec"}),
             eventList(st).c_str());
    QVERIFY2(hasEvent(st, events::EventKind::Station, events::Severity::Info, {"api: ", "recording resumed"}),
             eventList(st).c_str());

    server->reset();
    st.stop(); // closes the new segment
    // The catalog, opened again, is in line with the files: two segments, closed, the second the new one.
    auto catalog = record::RecordingCatalog::open(profile.recordingDirectory);
    QVERIFY2(catalog, catalog ? "" : catalog.error().toString().c_str());
    const auto segments = (*catalog)->segments();
    QCOMPARE(segments.size(), std::size_t{2});
    QCOMPARE(segments[0].packets, full.packetsRecorded);
    QVERIFY2(segments[0].problem.find("No space left on device") != std::string::npos ||
                 segments[0].problem.find("recovered") != std::string::npos,
             segments[0].problem.c_str());
    QCOMPARE(segments[1].sequence, segments[0].sequence + 1);
    QCOMPARE(segments[1].packets, sent - resumedAt);
    for (const auto& s : segments)
        QCOMPARE(s.state, record::SegmentState::Closed);
    catalog->reset();
    QCOMPARE(playBack(profile.recordingDirectory, &problem), full.packetsRecorded + (sent - resumedAt));
}

QTEST_GUILESS_MAIN(TestRpcRecordingFull)
#include "tst_rpc_recording_full.moc"
