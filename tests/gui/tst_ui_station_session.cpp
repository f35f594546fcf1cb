// The workstation session against real stations on loopback: opening profiles (good, broken, one that
// does not fit the database), a stream whose port is taken starting in error while the others run,
// add / replace / remove live on the same station (and a refused change leaving it as it was),
// live start/stop marking the profile dirty, save / save as round trips, the event log numbering on;
// and the plot display fed by a parameter subscription.
#include "core/config/station_profile.hpp"
#include "core/pipeline/station.hpp"
#include "sim/engine/sim_stream.hpp"
#include "tests/support/held_udp_port.hpp"
#include "tests/support/sim_traffic.hpp"
#include "tests/support/station_fixture.hpp"
#include "tests/support/test_paths.hpp"
#include "ui/displays/parameter_plot.hpp"
#include "ui/session/station_session.hpp"

#include <QFile>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QtTest>


#include <set>

using namespace telestation;
using namespace std::chrono_literals;

namespace {

config::StationProfile twoStreams(const QTemporaryDir& dir)
{
    config::StationProfile p;
    p.mdb = test::trainingDatabasePath();
    p.recordingDirectory = dir.filePath(QStringLiteral("rec")).toStdString();
    p.logDirectory = dir.filePath(QStringLiteral("logs")).toStdString();
    p.streams.push_back(test::streamProfile("alpha"));
    p.streams.push_back(test::streamProfile("beta", "udp://127.0.0.2:0")); // a profile never has one source twice
    p.streams[0].packets.push_back({7, std::nullopt, config::ProcessingMode::ProcessEntirePacket, false, {}});
    return p;
}

// Sends `count` packets of `packet` with the simulator, generators as given.
void send(const pipeline::Station& station, const std::string& stream, const std::string& packet, std::uint64_t count,
          std::map<std::string, sim::GeneratorSpec> generators = {})
{
    auto config = test::traffic(test::streamAddress(station, stream), {packet}, count, 2000);
    config.generators = std::move(generators);
    test::send(config, station.database());
}

bool hasEvent(const std::vector<events::Event>& events, const QString& text)
{
    for (const auto& e : events)
        if (QString::fromStdString(e.text).contains(text))
            return true;
    return false;
}

} // namespace

class TestStationSession : public QObject {
    Q_OBJECT

private slots:
    void initTestCase() { QStandardPaths::setTestModeEnabled(true); }

    void opensAProfileAndStartsItsStreams()
    {
        QTemporaryDir dir;
        ui::StationSession session;
        QSignalSpy changed(&session, &ui::StationSession::stationChanged);
        QString error;
        QVERIFY2(session.open(twoStreams(dir), {}, &error), qPrintable(error));
        QCOMPARE(changed.count(), 1);
        QVERIFY(session.station());
        QVERIFY(session.station()->streamRunning("alpha"));
        QVERIFY(session.station()->streamRunning("beta"));
        QVERIFY(!session.isDirty());
        QCOMPARE(session.streamNames(), (QStringList{QStringLiteral("alpha"), QStringLiteral("beta")}));
        QVERIFY(session.database() && session.database()->findPacket("Packet5"));
        QVERIFY(hasEvent(session.events(0), QStringLiteral("profile (new) opened")));
    }

    void brokenProfilesAreRefusedWithTheReason()
    {
        QTemporaryDir dir;
        ui::StationSession session;
        QString error;
        QVERIFY(session.open(twoStreams(dir), {}, &error));
        auto* before = session.station();

        const QString broken = dir.filePath(QStringLiteral("broken.json"));
        QFile f(broken);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write("{\"streams\": [{\"name\": \"x\", \"source\": \"udp:/" "/127.0.0.1:0\", \"packets\": [{\"apid\": 7, \"mode\": \"fast\"}]}]}");
        f.close();
        QVERIFY(!session.openFile(broken, &error));
        QVERIFY2(error.contains(QStringLiteral("$.streams[0].packets[0].mode")), qPrintable(error));
        QCOMPARE(session.station(), before); // untouched

        auto unfit = twoStreams(dir);
        unfit.streams[0].packets.push_back({999, std::nullopt, config::ProcessingMode::ProcessEntirePacket, false, {}});
        QVERIFY(!session.open(unfit, {}, &error));
        QVERIFY2(error.contains(QStringLiteral("999")), qPrintable(error));
        QCOMPARE(session.station(), before);

        auto noDb = twoStreams(dir);
        noDb.mdb = dir.filePath(QStringLiteral("missing.mdb")).toStdString();
        QVERIFY(!session.open(noDb, {}, &error));
        QVERIFY2(error.contains(QStringLiteral("missing.mdb")), qPrintable(error));
        QCOMPARE(session.station(), before);
    }

    void aStreamThatCannotOpenShowsWhyWhileTheOthersRun()
    {
        QTemporaryDir dir;
        const test::HeldUdpPort holder;
        QVERIFY(holder.port() != 0);

        auto profile = twoStreams(dir);
        profile.streams[1].source = "udp://127.0.0.1:" + std::to_string(holder.port());
        ui::StationSession session;
        QSignalSpy problems(&session, &ui::StationSession::problem);
        QString error;
        QVERIFY2(session.open(profile, {}, &error), qPrintable(error));
        QCOMPARE(problems.count(), 1);
        QVERIFY(problems.at(0).at(0).toString().contains(QStringLiteral("beta")));
        QVERIFY(session.station()->streamRunning("alpha"));
        QVERIFY(!session.station()->streamRunning("beta"));
        const auto state = session.station()->snapshot().streams[1].state;
        QVERIFY2(state.rfind("error: ", 0) == 0, state.c_str());
        QVERIFY(session.profile().streams[1].enabled); // still wanted: saving keeps it
    }

    void streamsChangeLiveOnTheSameStation()
    {
        QTemporaryDir dir;
        ui::StationSession session;
        QString error;
        QVERIFY(session.open(twoStreams(dir), {}, &error));
        // A live change first: it must survive the stream changes.
        QVERIFY(session.setPacketSettings(QStringLiteral("beta"), {100, std::nullopt, config::ProcessingMode::PassThru, true, {}}));
        QVERIFY(session.isDirty());
        QVERIFY(session.profile() == session.station()->profile());
        auto* station = session.station();
        const std::uint16_t alphaPort = station->localPort("alpha");
        send(*station, "alpha", "HK_Status", 40);
        QVERIFY(test::settle(*station, "alpha", 40));

        QSignalSpy about(&session, &ui::StationSession::stationAboutToChange);
        QSignalSpy changed(&session, &ui::StationSession::stationChanged);
        QSignalSpy streams(&session, &ui::StationSession::streamsChanged);
        QSignalSpy profile(&session, &ui::StationSession::profileChanged);
        QVERIFY2(session.addStream(test::streamProfile("gamma"), &error), qPrintable(error));
        QCOMPARE(session.station(), station); // the same engine: nothing restarted
        QCOMPARE(about.count(), 0);
        QCOMPARE(changed.count(), 0);
        QCOMPARE(streams.count(), 1);
        QCOMPARE(profile.count(), 1);
        QCOMPARE(station->streamCount(), std::size_t{3});
        QVERIFY(station->streamRunning("gamma"));
        QVERIFY(session.isDirty());
        QVERIFY(session.profile() == station->profile());
        const auto beta = session.profile().streams[1];
        QCOMPARE(beta.packets.size(), std::size_t{1});
        QVERIFY(beta.packets[0].mode == config::ProcessingMode::PassThru);
        QVERIFY(beta.packets[0].record);

        // The new stream receives; alpha's counters went on from where they were, on the same socket.
        send(*station, "gamma", "HK_Status", 25);
        QVERIFY(test::settle(*station, "gamma", 25));
        QCOMPARE(test::streamStats(station->snapshot(), "gamma")->counters.packetsReceived, std::uint64_t{25});
        QCOMPARE(station->localPort("alpha"), alphaPort);
        QCOMPARE(test::streamStats(station->snapshot(), "alpha")->counters.packetsReceived, std::uint64_t{40});

        // Refused: a duplicate name, a source the engine cannot parse. Nothing changes.
        QVERIFY(!session.addStream(test::streamProfile("gamma"), &error));
        QVERIFY(error.contains(QStringLiteral("already")));
        QVERIFY(!session.addStream(test::streamProfile("delta", "carrier-pigeon://x"), &error));
        QVERIFY2(!error.isEmpty(), "no reason given");
        QCOMPARE(session.station(), station);
        QCOMPARE(streams.count(), 1);

        auto renamed = session.profile().streams[2];
        renamed.name = "gamma2";
        QVERIFY2(session.replaceStream(QStringLiteral("gamma"), renamed, &error), qPrintable(error));
        QCOMPARE(session.streamNames(), (QStringList{QStringLiteral("alpha"), QStringLiteral("beta"), QStringLiteral("gamma2")}));
        QCOMPARE(test::streamStats(station->snapshot(), "gamma2")->counters.packetsReceived, std::uint64_t{25}); // kept
        QVERIFY(session.removeStream(QStringLiteral("beta"), &error));
        QCOMPARE(session.streamNames(), (QStringList{QStringLiteral("alpha"), QStringLiteral("gamma2")}));
        QVERIFY(!session.removeStream(QStringLiteral("beta"), &error));
        QCOMPARE(streams.count(), 3);
        QCOMPARE(about.count(), 0);
        QCOMPARE(changed.count(), 0);
        QCOMPARE(session.station(), station);

        // alpha ran on through all of it.
        send(*station, "alpha", "HK_Status", 30);
        QVERIFY(test::settle(*station, "alpha", 70));
        QCOMPARE(test::streamStats(station->snapshot(), "alpha")->counters.packetsReceived, std::uint64_t{70});

        // One numbering: strictly increasing, nothing repeated; notes say what changed, no restart.
        const auto events = session.events(0);
        std::set<std::uint64_t> numbers;
        for (std::size_t i = 0; i < events.size(); ++i) {
            numbers.insert(events[i].number);
            if (i > 0)
                QVERIFY(events[i].number > events[i - 1].number);
        }
        QCOMPARE(numbers.size(), events.size());
        QVERIFY(hasEvent(events, QStringLiteral("stream gamma added")));
        QVERIFY(hasEvent(events, QStringLiteral("stream gamma changed (now gamma2)")));
        QVERIFY(hasEvent(events, QStringLiteral("stream beta removed")));
        QVERIFY(!hasEvent(events, QStringLiteral("station restarted")));
        QVERIFY(!hasEvent(events, QStringLiteral("station stopped")));
        const auto last = events.back().number;
        QVERIFY(session.events(last).empty());
    }

    void startStopAndSaveRoundTrip()
    {
        QTemporaryDir dir;
        ui::StationSession session;
        QString error;
        QVERIFY(session.open(twoStreams(dir), {}, &error));
        QVERIFY(!session.save(&error)); // no file yet
        QVERIFY(error.contains(QStringLiteral("Save As")));

        QSignalSpy dirty(&session, &ui::StationSession::dirtyChanged);
        QVERIFY(session.stopStream(QStringLiteral("beta"), &error));
        QVERIFY(session.isDirty());
        QCOMPARE(dirty.count(), 1);
        QVERIFY(!session.station()->streamRunning("beta"));

        const QString path = dir.filePath(QStringLiteral("station.json"));
        QVERIFY2(session.saveAs(path, &error), qPrintable(error));
        QVERIFY(!session.isDirty());
        QCOMPARE(session.profilePath(), path);
        const auto load = config::loadProfileFile(path.toStdString());
        QString diagnostics;
        for (const auto& d : load.diagnostics)
            diagnostics += QString::fromStdString(d.toString()) + QLatin1Char('\n');
        QVERIFY2(load.ok(), qPrintable(diagnostics));
        QCOMPARE(load.profile, session.profile());
        QVERIFY(!load.profile.streams[1].enabled);

        ui::StationSession again;
        QVERIFY2(again.openFile(path, &error), qPrintable(error));
        QCOMPARE(again.profile(), session.profile());
        QVERIFY(again.station()->streamRunning("alpha"));
        QVERIFY(!again.station()->streamRunning("beta"));

        QVERIFY(session.startStream(QStringLiteral("beta"), &error));
        QVERIFY(session.isDirty());
        QVERIFY(session.save(&error));
        QVERIFY(config::loadProfileFile(path.toStdString()).profile.streams[1].enabled);

        // An unwritable place: a clear error, the profile stays dirty-free only on success.
        QVERIFY(session.stopStream(QStringLiteral("beta"), &error));
        QVERIFY(session.isDirty());
        QVERIFY(!session.saveAs(dir.filePath(QStringLiteral("no/such/dir/station.json")), &error));
        QVERIFY(error.contains(QStringLiteral("no/such/dir")));
        QVERIFY(session.isDirty());
    }

    void plotDisplayTakesEverySampleOfItsCurves()
    {
        QTemporaryDir dir;
        ui::StationSession session;
        QString error;
        QVERIFY(session.open(twoStreams(dir), {}, &error));
        auto& station = *session.station();
        ui::ParameterPlot plot(station);
        plot.addPlot(QStringLiteral("second"));
        QVERIFY(plot.addCurve({QStringLiteral("alpha"), QStringLiteral("Packet5.CPU_LOAD"), {}, ui::PlotDisplay::Axis::Left, 0}, &error));
        QVERIFY(plot.addCurve({QStringLiteral("alpha"), QStringLiteral("Packet5.SAMPLE_CHAMBER_TEMP"), QColor(Qt::red),
                               ui::PlotDisplay::Axis::Right, 1}, &error));
        QVERIFY(!plot.addCurve({QStringLiteral("alpha"), QStringLiteral("Packet5.NOPE"), {}, ui::PlotDisplay::Axis::Left, 0}, &error));
        QVERIFY(error.contains(QStringLiteral("Packet5.NOPE")));
        QVERIFY(!plot.addCurve({QStringLiteral("zeta"), QStringLiteral("Packet5.CPU_LOAD"), {}, ui::PlotDisplay::Axis::Left, 0}, &error));

        sim::GeneratorSpec load;
        load.kind = sim::GeneratorKind::Constant;
        load.value = 42.5;
        send(station, "alpha", "Packet5", 300, {{"Packet5.CPU_LOAD", load}});
        QVERIFY(test::settle(station, "alpha", 300));
        QTRY_COMPARE(plot.plotDisplay()->history(0).size(), std::size_t{300});
        QCOMPARE(plot.plotDisplay()->history(1).size(), std::size_t{300});
        const auto& h = plot.plotDisplay()->history(0);
        for (std::size_t i = 0; i < h.size(); ++i)
            QCOMPARE(h.at(i).value, 42.5);

        // The spec rebuilds the same display.
        const QJsonObject spec = plot.spec();
        QStringList problems;
        std::unique_ptr<ui::ParameterPlot> copy(ui::ParameterPlot::fromSpec(station, spec, nullptr, &problems));
        QVERIFY(problems.isEmpty());
        QCOMPARE(copy->spec(), spec);
        QCOMPARE(copy->plotDisplay()->plotCount(), 2);
        QCOMPARE(copy->curves().at(1).color, QColor(Qt::red));
        QCOMPARE(copy->curves().at(1).axis, ui::PlotDisplay::Axis::Right);
    }
};

QTEST_MAIN(TestStationSession)
#include "tst_ui_station_session.moc"
