// The station end to end over loopback with the simulator as the sender: counts, decoded values,
// modes, live settings, the consumer API.
#include "core/api/consumer.hpp"
#include "core/common/paths.hpp"
#include "core/config/station_profile.hpp"
#include "core/pipeline/station.hpp"
#include "sim/engine/sim_stream.hpp"
#include "tests/support/held_udp_port.hpp"
#include "tests/support/sim_traffic.hpp"
#include "tests/support/station_fixture.hpp"
#include "tests/support/wait_until.hpp"

#include <QTemporaryDir>
#include <QtTest>

#include <map>
#include <thread>


using namespace telestation;
using namespace std::chrono_literals;

namespace {

using test::settle;
using test::typeStats;

// Records `packets` HK_Status packets sent at 400 packets/s into `recordings`; true when all were recorded.
bool recordHealth(const std::string& recordings, std::uint64_t packets)
{
    config::StationProfile profile;
    profile.recordingDirectory = recordings;
    config::StreamProfile sp;
    sp.name = "health";
    sp.source = "udp://127.0.0.1:0";
    sp.packets.push_back({100, std::nullopt, config::ProcessingMode::ProcessEntirePacket, true, {}});
    profile.streams.push_back(sp);
    auto live = pipeline::Station::create(profile, test::trainingDatabase());
    if (!live || !(*live)->start())
        return false;
    const auto summary = test::sendPackets(**live, "health", {"HK_Status"}, packets, 400);
    const bool settled = settle(**live, "health", summary.sent.packets);
    (*live)->stop();
    return settled && (*live)->snapshot().streams[0].counters.packetsRecorded == packets;
}

// A profile with one playback stream "replay" of `source`.
config::StationProfile replayProfile(const QTemporaryDir& dir, const std::string& source)
{
    config::StationProfile profile;
    profile.recordingDirectory = dir.filePath("unused").toStdString();
    config::StreamProfile rp;
    rp.name = "replay";
    rp.source = source;
    profile.streams.push_back(rp);
    return profile;
}

} // namespace

class TestStation : public QObject {
    Q_OBJECT

private slots:
    void udpProcessEntirePacketCountsAndValues();
    void playbackReproducesStatistics();
    void streamsStartAndStopOneAtATime();
    void playbackPausesWhereItIs();
    void playbackStaysFinishedAndResumesWhereStopped();
    void playbackRepeats();
};

void TestStation::udpProcessEntirePacketCountsAndValues()
{
    QTemporaryDir dir;
    const auto& db = test::trainingDatabase();
    const auto profile = test::stationProfile(dir, {test::streamProfile("health", "udp://127.0.0.1:0", {
        {7, std::nullopt, config::ProcessingMode::ProcessEntirePacket, true, {}},
        {100, std::nullopt, config::ProcessingMode::ProcessOnDemand, false, {}},
    })});

    auto station = pipeline::Station::create(profile, db);
    QVERIFY2(station, station ? "" : station.error().message.c_str());
    auto& st = **station;
    QVERIFY(st.start());
    const auto port = st.localPort("health");
    QVERIFY(port != 0);

    api::ParameterSubscription::Options po;
    po.parameters = {"Packet5.SAFE_MODE_FLAG"};
    auto params = api::ParameterSubscription::create(st, po);
    QVERIFY2(params, params ? "" : params.error().message.c_str());

    const auto summary = test::sendPackets(st, "health", {"Packet5", "HK_Status"}, 4000, 20000);
    QVERIFY(settle(st, "health", summary.sent.packets));
    const auto snap = st.snapshot();
    QCOMPARE(snap.streams.size(), std::size_t{1});
    const auto& s = snap.streams[0];
    QCOMPARE(s.counters.packetsReceived, summary.sent.packets);
    QCOMPARE(s.counters.bytesReceived, summary.sent.bytes);
    QCOMPARE(s.counters.packetsLost, std::uint64_t{0});
    const auto* p5 = typeStats(s, "Packet5");
    QVERIFY(p5);
    QCOMPARE(p5->counters.packetsReceived, summary.apids.at(7).packets);
    QCOMPARE(p5->counters.packetsProcessed, summary.apids.at(7).packets);
    QCOMPARE(p5->counters.packetsRecorded, summary.apids.at(7).packets);
    QCOMPARE(p5->counters.parametersDecoded, summary.apids.at(7).packets * 88);
    const auto* hk = typeStats(s, "HK_Status");
    QVERIFY(hk);
    QCOMPARE(hk->counters.packetsProcessed, summary.apids.at(100).packets);
    QCOMPARE(hk->counters.parametersDecoded, std::uint64_t{0});

    std::vector<api::ParameterSample> samples(100000);
    const std::size_t n = (*params)->poll(samples);
    QCOMPARE(n, std::size_t{summary.apids.at(7).packets});

    api::ParameterReader reader(st);
    const auto hkValue = reader.read("health", "HK_Status.BUS_VOLTAGE");
    QVERIFY(hkValue.has_value());
    QVERIFY(hkValue->value.present);
    st.stop();
}

// Records a stream with sequence gaps and duplicates, then plays the recording back through a second
// station (as fast as possible): the per-type statistics are the same.
void TestStation::playbackReproducesStatistics()
{
    QTemporaryDir dir;
    const auto& db = test::trainingDatabase();
    const std::string recordings = dir.filePath("rec").toStdString();
    config::StationProfile profile;
    profile.recordingDirectory = recordings;
    profile.queues.maxRecordFileSize = 64 * 1024; // several segments
    config::StreamProfile sp;
    sp.name = "health";
    sp.source = "udp://127.0.0.1:0";
    sp.packets.push_back({7, std::nullopt, config::ProcessingMode::ProcessEntirePacket, true, {}});
    sp.packets.push_back({100, std::nullopt, config::ProcessingMode::PassThru, true, {}});
    profile.streams.push_back(sp);

    auto live = pipeline::Station::create(profile, db);
    QVERIFY(live);
    QVERIFY((*live)->start());
    auto c = test::traffic(test::streamAddress(**live, "health"), {"Packet5", "HK_Status"}, 3000, 20000);
    c.mix[1].weight = 2; // HK_Status twice as often as Packet5
    c.faults.drop = 0.02;
    c.faults.duplicate = 0.01;
    const auto summary = test::send(c, db);
    QVERIFY(settle(**live, "health", summary.sent.packets));
    (*live)->stop();
    const auto recorded = (*live)->snapshot();
    QVERIFY(summary.faults.dropped > 0);
    QCOMPARE(recorded.streams[0].counters.packetsLost, summary.faults.dropped);
    QCOMPARE(recorded.streams[0].counters.packetsRecorded, summary.sent.packets);

    // Play it back.
    config::StationProfile replayProfile;
    replayProfile.recordingDirectory = dir.filePath("unused").toStdString();
    config::StreamProfile rp = sp;
    rp.source = "file://" + recordings;
    for (auto& p : rp.packets)
        p.record = false;
    replayProfile.streams.push_back(rp);
    auto replay = pipeline::Station::create(replayProfile, db);
    QVERIFY2(replay, replay ? "" : replay.error().message.c_str());
    QVERIFY((*replay)->start());
    QTRY_VERIFY_WITH_TIMEOUT((*replay)->playbackFinished(), 10000);
    QVERIFY((*replay)->waitIdle(5s));
    const auto replayed = (*replay)->snapshot();
    (*replay)->stop();
    const auto& a = recorded.streams[0];
    const auto& b = replayed.streams[0];
    QCOMPARE(b.progress, 1.0);
    QCOMPARE(b.counters.packetsReceived, a.counters.packetsReceived);
    QCOMPARE(b.counters.bytesReceived, a.counters.bytesReceived);
    QCOMPARE(b.counters.packetsLost, a.counters.packetsLost);
    QCOMPARE(b.counters.duplicates, a.counters.duplicates);
    QCOMPARE(b.counters.sequenceErrors, a.counters.sequenceErrors);
    QCOMPARE(b.counters.largestGap, a.counters.largestGap);
    QCOMPARE(b.counters.parametersDecoded, a.counters.parametersDecoded);
    for (const char* name : {"Packet5", "HK_Status"}) {
        const auto* ta = typeStats(a, name);
        const auto* tb = typeStats(b, name);
        QVERIFY(ta && tb);
        QCOMPARE(tb->counters.packetsReceived, ta->counters.packetsReceived);
        QCOMPARE(tb->counters.packetsProcessed, ta->counters.packetsProcessed);
        QCOMPARE(tb->counters.packetsLost, ta->counters.packetsLost);
        QCOMPARE(tb->lastReceiveTimeNs, ta->lastReceiveTimeNs); // original receive times
    }
    QCOMPARE(b.networkQueue.drops + b.processQueue.drops, std::uint64_t{0});
}

// The station's event thread reports within a round (~50 ms): wait for it.
static bool hasEvent(const pipeline::Station& st, std::string_view stream, std::string_view text)
{
    return test::waitUntil([&] {
        for (const auto& e : st.events())
            if (e.stream == stream && e.text.find(text) != std::string::npos)
                return true;
        return false;
    });
}

// startStream / stopStream change one stream while the others keep receiving; a source that cannot
// open leaves the stream in "error: why" and the rest running.
void TestStation::streamsStartAndStopOneAtATime()
{
    QTemporaryDir dir;
    const auto& db = test::trainingDatabase();
    // A port some other program holds, for the stream that cannot open.
    const test::HeldUdpPort holder;
    QVERIFY(holder.port() != 0);
    config::StationProfile profile;
    profile.recordingDirectory = dir.filePath("rec").toStdString();
    for (const char* name : {"a", "b", "busy"}) {
        config::StreamProfile sp;
        sp.name = name;
        sp.source = std::string(name) == "busy" ? "udp://127.0.0.1:" + std::to_string(holder.port())
                                                 : "udp://127.0.0.1:0";
        sp.enabled = std::string(name) == "a";
        profile.streams.push_back(sp);
    }
    auto station = pipeline::Station::create(profile, db);
    QVERIFY2(station, station ? "" : station.error().message.c_str());
    auto& st = **station;
    QVERIFY(st.start());
    QCOMPARE(st.snapshot().streams[1].state, std::string("disabled"));
    QCOMPARE(st.localPort("b"), std::uint16_t{0});

    QVERIFY(st.startStream("b"));
    QVERIFY(st.streamRunning("b"));
    QVERIFY(st.profile().streams[1].enabled);
    const auto portB = st.localPort("b");
    QVERIFY(portB != 0);
    QVERIFY(st.startStream("b")); // idempotent
    QCOMPARE(st.localPort("b"), portB);

    // Each stream's packets since it started, to wait for.
    std::map<std::string, std::uint64_t> sent;
    const auto send = [&](const std::string& stream, std::uint64_t count) {
        sent[stream] += test::sendPackets(st, stream, {"HK_Status"}, count, 20000).sent.packets;
        QVERIFY(settle(st, stream, sent[stream]));
    };
    send("b", 100);
    QCOMPARE(st.snapshot().streams[1].counters.packetsReceived, std::uint64_t{100});

    QVERIFY(st.stopStream("a"));
    QVERIFY(!st.streamRunning("a"));
    QVERIFY(!st.profile().streams[0].enabled);
    QCOMPARE(st.snapshot().streams[0].state, std::string("stopped"));
    QCOMPARE(st.localPort("a"), std::uint16_t{0});
    QVERIFY(hasEvent(st, "a", "stopped by the operator"));
    send("b", 50); // b is untouched
    QCOMPARE(st.snapshot().streams[1].counters.packetsReceived, std::uint64_t{150});

    QVERIFY(st.startStream("a"));
    const auto portA = st.localPort("a");
    QVERIFY(portA != 0);
    send("a", 70);
    QCOMPARE(st.snapshot().streams[0].counters.packetsReceived, std::uint64_t{70});

    const auto failed = st.startStream("busy");
    QVERIFY(!failed);
    QVERIFY(failed.error().message.find("busy") != std::string::npos);
    const auto busyState = st.snapshot().streams[2].state;
    QVERIFY2(busyState.rfind("error: ", 0) == 0, busyState.c_str());
    QVERIFY(!st.streamRunning("busy"));
    QVERIFY(hasEvent(st, "busy", "cannot start"));
    QVERIFY(st.streamRunning("a") && st.streamRunning("b"));
    QVERIFY(!st.startStream("nope"));
    QVERIFY(!st.pauseStream("a", true)); // live streams cannot pause
    st.stop();
    QVERIFY(!st.streamRunning("a"));
}

// A paused playback delivers nothing; resumed, it keeps the recording's pace from where it stopped
// (it does not burst what fell due during the pause) and plays every record.
void TestStation::playbackPausesWhereItIs()
{
    QTemporaryDir dir;
    const auto& db = test::trainingDatabase();
    const std::string recordings = dir.filePath("rec").toStdString();
    QVERIFY(recordHealth(recordings, 400)); // one second of data
    auto replay = pipeline::Station::create(replayProfile(dir, "file://" + recordings + "?speed=1"), db);
    QVERIFY2(replay, replay ? "" : replay.error().message.c_str());
    auto& st = **replay;
    QVERIFY(st.start());
    QTRY_VERIFY_WITH_TIMEOUT(st.snapshot().streams[0].counters.packetsReceived > 40, 5000);
    QVERIFY(st.pauseStream("replay", true));
    QVERIFY(st.streamPaused("replay"));
    std::this_thread::sleep_for(100ms); // the receiver notices within one poll
    const auto atPause = st.snapshot().streams[0];
    QVERIFY2(atPause.state.rfind("paused", 0) == 0, atPause.state.c_str());
    std::this_thread::sleep_for(600ms);
    const auto stillPaused = st.snapshot().streams[0];
    QCOMPARE(stillPaused.counters.packetsReceived, atPause.counters.packetsReceived);
    QCOMPARE(stillPaused.progress, atPause.progress);
    QVERIFY(atPause.progress < 0.9);

    QVERIFY(st.pauseStream("replay", false));
    // 200 ms after resuming, about 80 more records are due; a playback that caught up on the pause
    // would have delivered every remaining record at once.
    std::this_thread::sleep_for(200ms);
    const auto resumed = st.snapshot().streams[0].counters.packetsReceived;
    QVERIFY2(resumed > atPause.counters.packetsReceived, std::to_string(resumed).c_str());
    QVERIFY2(resumed < 400, std::to_string(resumed).c_str());
    QTRY_VERIFY_WITH_TIMEOUT(st.playbackFinished(), 5000);
    QVERIFY(st.waitIdle(5s));
    QCOMPARE(st.snapshot().streams[0].counters.packetsReceived, std::uint64_t{400});
    QVERIFY(hasEvent(st, "replay", "playback started"));
    QVERIFY(hasEvent(st, "replay", "playback paused"));
    QVERIFY(hasEvent(st, "replay", "playback resumed"));
    QVERIFY(hasEvent(st, "replay", "playback finished"));
    st.stop();
}

// A playback stopped midway is kept in the profile stopped, with its position; the next station resumes
// it there and plays exactly the rest. Once finished it stays finished: neither the profile, nor a live
// change, nor a stop and start of the station starts it; Start plays it again from the beginning.
void TestStation::playbackStaysFinishedAndResumesWhereStopped()
{
    QTemporaryDir dir;
    const auto& db = test::trainingDatabase();
    const std::string recordings = dir.filePath("rec").toStdString();
    QVERIFY(recordHealth(recordings, 400));
    const auto received = [](pipeline::Station& st) { return st.snapshot().streams[0].counters.packetsReceived; };

    auto first = pipeline::Station::create(replayProfile(dir, "file://" + recordings + "?speed=1"), db);
    QVERIFY(first);
    QVERIFY((*first)->start());
    QTRY_VERIFY_WITH_TIMEOUT(received(**first) > 100, 5000);
    QVERIFY((*first)->stopStream("replay"));
    QVERIFY((*first)->waitIdle(5s));
    const std::uint64_t playedFirst = received(**first);
    QVERIFY2(playedFirst < 400, std::to_string(playedFirst).c_str());
    auto profile = (*first)->profile();
    (*first)->stop();
    QVERIFY(!profile.streams[0].enabled);
    QVERIFY(profile.streams[0].playbackPositionNs > 0);

    // Through the profile file, as an operator's saved profile.
    const std::string file = dir.filePath("profile.json").toStdString();
    QVERIFY(config::saveProfileFile(profile, file));
    auto loaded = config::loadProfileFile(file);
    QVERIFY(loaded.ok());
    QCOMPARE(loaded.profile.streams[0].playbackPositionNs, profile.streams[0].playbackPositionNs);

    auto second = pipeline::Station::create(loaded.profile, db);
    QVERIFY(second);
    auto& st = **second;
    QVERIFY(st.start());
    QVERIFY(!st.streamRunning("replay")); // stopped, as the operator left it
    QVERIFY(st.startStream("replay"));
    QTRY_VERIFY_WITH_TIMEOUT(st.playbackFinished(), 5000);
    QVERIFY(st.waitIdle(5s));
    QCOMPARE(received(st) + playedFirst, std::uint64_t{400}); // the rest, exactly
    QTRY_VERIFY_WITH_TIMEOUT(!st.profile().streams[0].enabled, 5000);
    QCOMPARE(st.profile().streams[0].playbackPositionNs, std::int64_t{0});

    // Finished: a station from this profile does not play it again by itself ...
    auto third = pipeline::Station::create(st.profile(), db);
    QVERIFY(third);
    QVERIFY((*third)->start());
    QVERIFY(!(*third)->streamRunning("replay"));
    (*third)->stop();
    // ... nor does a live change of the station (another stream added) or a stop and start of it.
    config::StreamProfile other;
    other.name = "other";
    other.source = "udp://127.0.0.1:0";
    QVERIFY(st.addStream(other));
    QVERIFY(!st.streamRunning("replay"));
    st.stop();
    QVERIFY(st.start());
    QVERIFY(st.streamRunning("other"));
    QVERIFY(!st.streamRunning("replay"));
    QVERIFY(st.waitIdle(5s));
    const std::uint64_t before = received(st);
    QCOMPARE(st.profile().streams[0].enabled, false);
    // ... and Start plays it again from the beginning.
    QVERIFY(st.startStream("replay"));
    QTRY_VERIFY_WITH_TIMEOUT(received(st) == before + 400, 10000);
    QTRY_VERIFY_WITH_TIMEOUT(st.playbackFinished(), 5000);
    st.stop();
}

// repeat=1: the recording plays again from its start each time it ends, and is never finished.
void TestStation::playbackRepeats()
{
    QTemporaryDir dir;
    const std::string recordings = dir.filePath("rec").toStdString();
    QVERIFY(recordHealth(recordings, 100));
    auto replay = pipeline::Station::create(replayProfile(dir, "file://" + recordings + "?speed=0&repeat=1"),
                                            test::trainingDatabase());
    QVERIFY2(replay, replay ? "" : replay.error().message.c_str());
    auto& st = **replay;
    QVERIFY(st.start());
    QTRY_VERIFY_WITH_TIMEOUT(st.snapshot().streams[0].counters.packetsReceived >= 350, 10000);
    QVERIFY(!st.playbackFinished());
    const auto state = st.snapshot().streams[0].state;
    QVERIFY2(state.find("repeat") != std::string::npos, state.c_str());
    QVERIFY(st.profile().streams[0].enabled);
    st.stop();
}

QTEST_GUILESS_MAIN(TestStation)
#include "tst_pipeline_station.moc"
