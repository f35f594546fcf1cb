// The streams panel and the stream dialog against a real station (UDP on loopback, port 0, the training
// mission database, the simulator as the sender): the panel lists every stream of the profile with the
// snapshot's state, rates and losses; Add… composes a profile from the dialog's pieces; invalid pieces
// keep OK disabled with the reason shown; Edit… round-trips multicast, tcp-listen and file:// sources
// (and keeps the packet settings); Remove asks first; Start/Stop emit the stream's name; the panel shows
// the session's snapshot ticks only while visible.
#include "core/config/station_profile.hpp"
#include "core/pipeline/station.hpp"
#include "core/stats/status_line.hpp"
#include "sim/engine/sim_stream.hpp"
#include "ui/dialogs/stream_dialog.hpp"
#include "ui/models/streams_model.hpp"
#include "ui/widgets/eliding_delegate.hpp"
#include "ui/widgets/streams_panel.hpp"
#include "tests/support/test_paths.hpp"
#include "tests/support/gui_session.hpp"
#include "tests/support/sim_traffic.hpp"
#include "tests/support/station_fixture.hpp"

#include <QAbstractButton>
#include <QAction>
#include <QApplication>
#include <QCheckBox>
#include <QComboBox>
#include <QDialogButtonBox>
#include <QDoubleSpinBox>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QMessageBox>
#include <QPushButton>
#include <QSignalSpy>
#include <QSpinBox>
#include <QStandardPaths>
#include <QTableView>
#include <QTemporaryDir>
#include <QToolBar>
#include <QtTest>

#include <chrono>
#include <functional>
#include <memory>
#include <thread>

using namespace telestation;
using namespace std::chrono_literals;
using ui::StreamDialog;
using ui::StreamsModel;
using ui::StreamsPanel;

namespace {

// Processing modes compared (and printed) by their profile names.
QString name(telestation::config::ProcessingMode mode)
{
    return QString::fromLatin1(telestation::config::toString(mode).data());
}

config::StreamProfile stream(const std::string& name, const std::string& source, bool enabled = true)
{
    config::StreamProfile s;
    s.name = name;
    s.source = source;
    s.enabled = enabled;
    return s;
}

QString cell(const StreamsModel& model, int row, int column, int role = Qt::DisplayRole)
{
    return model.index(row, column).data(role).toString();
}

QVariant value(const StreamsModel& model, int row, int column)
{
    return model.index(row, column).data(StreamsModel::kValueRole);
}

void click(QToolBar* bar, QAction* action)
{
    QWidget* button = bar->widgetForAction(action);
    QVERIFY(button);
    QTest::mouseClick(button, Qt::LeftButton);
}

// Types into a line edit or spin box as a user would: everything selected, then the keys.
void typeInto(QWidget* widget, const QString& text)
{
    if (auto* edit = qobject_cast<QLineEdit*>(widget))
        edit->selectAll();
    else if (auto* spin = qobject_cast<QAbstractSpinBox*>(widget))
        spin->selectAll();
    if (text.isEmpty())
        QTest::keyClick(widget, Qt::Key_Delete);
    else
        QTest::keyClicks(widget, text);
}

template <typename T>
T* child(QWidget* parent, const char* name)
{
    auto* w = parent->findChild<T*>(QString::fromLatin1(name));
    if (!w)
        qFatal("no child %s", name);
    return w;
}

bool okEnabled(StreamDialog& dialog)
{
    return child<QPushButton>(&dialog, "okButton")->isEnabled();
}

QString shownError(StreamDialog& dialog)
{
    auto* label = child<QLabel>(&dialog, "errorLabel");
    return label->isHidden() ? QString() : label->text();
}

// Runs `drive` on the dialog the panel opens once it is shown, then closes it if `drive` did not;
// returns whether `drive` saw one.
bool withDialog(StreamsPanel& panel, const std::function<void()>& open, const std::function<void(StreamDialog&)>& drive)
{
    bool seen = false;
    QTimer::singleShot(0, &panel, [&] {
        auto* dialog = panel.findChild<StreamDialog*>();
        if (!dialog)
            return;
        seen = true;
        drive(*dialog);
        if (dialog->isVisible())
            dialog->reject();
    });
    open();
    return seen;
}

} // namespace

class TestStreamsPanel : public QObject {
    Q_OBJECT

    mdb::MissionDatabase m_db;
    QTemporaryDir m_dir;

    config::StationProfile profileOf(const std::vector<config::StreamProfile>& streams)
    {
        config::StationProfile profile;
        profile.mdb = test::trainingDatabasePath();
        profile.recordingDirectory = m_dir.filePath(QStringLiteral("recordings")).toStdString();
        profile.streams = streams;
        return profile;
    }

    std::unique_ptr<ui::StationSession> makeSession(const std::vector<config::StreamProfile>& streams)
    {
        return test::openSession(profileOf(streams));
    }

    // The session opens another profile (a new station).
    void reopen(ui::StationSession& session, const std::vector<config::StreamProfile>& streams)
    {
        QString error;
        if (!session.open(profileOf(streams), {}, &error))
            qFatal("reopen: %s", qPrintable(error));
    }

    static std::vector<config::StreamProfile> twoStreamProfiles()
    {
        return {stream("tm", "udp://127.0.0.1:0"), stream("spare", "tcp-listen://127.0.0.1:0", false)};
    }

    // "tm" (UDP, receiving) and "spare" (tcp-listen, disabled).
    std::unique_ptr<ui::StationSession> twoStreams()
    {
        return makeSession(twoStreamProfiles());
    }

    std::unique_ptr<sim::SimStream> sender(std::uint16_t port, double rate, double drop)
    {
        auto c = test::traffic(test::udpUrl(port), {"Packet5", "HK_Status"}, std::nullopt, rate);
        c.faults.drop = drop;
        c.seed = 7;
        return test::simulator(c, m_db);
    }

private slots:
    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true);
        QVERIFY(m_dir.isValid());
        m_db = test::trainingDatabase();
    }

    // Every stream of the profile is listed, enabled or not, with its source and the snapshot's state;
    // once packets flow the rates and the losses (the simulator leaves sequence gaps) appear.
    void listsStreamsWithLiveState()
    {
        auto session = twoStreams();
        auto* station = session->station();
        StreamsPanel panel(*session);
        panel.resize(1100, 260);
        panel.setStation(station);
        const StreamsModel& model = *panel.model();
        QCOMPARE(model.rowCount(), 2);
        QCOMPARE(cell(model, 0, StreamsModel::Name), QStringLiteral("tm"));
        QCOMPARE(cell(model, 0, StreamsModel::Source), QStringLiteral("udp://127.0.0.1:0"));
        QCOMPARE(cell(model, 1, StreamsModel::Name), QStringLiteral("spare"));
        QCOMPARE(cell(model, 1, StreamsModel::Source), QStringLiteral("tcp-listen://127.0.0.1:0"));
        // States as the engine words them; a disabled stream is grey, a live one is not.
        QVERIFY(panel.feedSnapshot() && panel.feedSnapshot() == session->snapshots().latest());
        const ui::SharedSnapshot first = panel.feedSnapshot();
        QCOMPARE(cell(model, 0, StreamsModel::State), QString::fromStdString(first->streams.at(0).state));
        QVERIFY(!first->streams.at(0).state.empty());
        QCOMPARE(cell(model, 1, StreamsModel::State), QStringLiteral("disabled"));
        QCOMPARE(model.index(1, StreamsModel::State).data(Qt::ForegroundRole).value<QBrush>().color(), QColor(0x80, 0x80, 0x80));
        QVERIFY(!model.index(0, StreamsModel::State).data(Qt::ForegroundRole).isValid());
        QCOMPARE(cell(model, 0, StreamsModel::Progress), QString());
        QCOMPARE(value(model, 0, StreamsModel::Progress).toDouble(), -1.0);
        // Selecting the first stream happened by itself.
        QCOMPARE(panel.currentStream(), QStringLiteral("tm"));

        panel.show();
        QVERIFY(QTest::qWaitForWindowExposed(&panel));
        auto sim = sender(station->localPort("tm"), 1000, 0.05);
        sim->start();
        // The rate is the simulator's (950 packets/s arrive), give or take the refresh interval and
        // scheduling on a busy machine; the first interval may hold only part of a second of packets.
        QTRY_VERIFY_WITH_TIMEOUT(value(model, 0, StreamsModel::PacketRate).toDouble() > 300, 8000);
        const double rate = value(model, 0, StreamsModel::PacketRate).toDouble();
        // Not thousands of times off (units); a loaded machine may bunch a few seconds' packets together.
        QVERIFY2(rate < 10000, qPrintable(QString::number(rate)));
        QVERIFY(value(model, 0, StreamsModel::DataRate).toDouble() > 0);
        QCOMPARE(cell(model, 0, StreamsModel::PacketRate), QString::fromStdString(stats::formatCompact(rate)));
        QVERIFY(cell(model, 0, StreamsModel::State).startsWith(QStringLiteral("receiving")));
        // 5 % of the packets are never sent: the loss column shows the sequence gaps.
        QTRY_VERIFY_WITH_TIMEOUT(value(model, 0, StreamsModel::Loss).toULongLong() > 0, 8000);
        sim->stop();
        QVERIFY(test::settle(*station, "tm", sim->summary().sent.packets));
        session->snapshots().tick();
        const stats::StationSnapshot snapshot = station->snapshot();
        const stats::StreamStats& tm = snapshot.streams.at(0);
        QCOMPARE(value(model, 0, StreamsModel::Loss).toULongLong(),
                 static_cast<qulonglong>(tm.counters.packetsLost + stats::dropCount(tm)));
        QVERIFY(tm.counters.packetsLost > 0);
        const QString tooltip = cell(model, 0, StreamsModel::Loss, Qt::ToolTipRole);
        QVERIFY2(tooltip.contains(QStringLiteral("Lost in sequence gaps: %1").arg(QLocale().toString(
                     static_cast<qulonglong>(tm.counters.packetsLost)))),
                 qPrintable(tooltip));
        QVERIFY(tooltip.contains(QStringLiteral("kernel")));
        QVERIFY(panel.grab().save(QStringLiteral("/tmp/h-streams-panel.png")));
    }

    // A playback stream shows its progress (a bar over the snapshot's 0..1) while it plays and when done.
    void playbackProgress()
    {
        QTemporaryDir recordings;
        QVERIFY(recordings.isValid());
        {
            config::StationProfile profile;
            profile.recordingDirectory = recordings.path().toStdString();
            config::StreamProfile tm = stream("tm", "udp://127.0.0.1:0");
            tm.packets.push_back({7, std::nullopt, config::ProcessingMode::PassThru, true, {}});
            profile.streams = {tm};
            auto recorder = pipeline::Station::create(profile, m_db);
            QVERIFY(recorder);
            QVERIFY((*recorder)->start());
            auto sim = sender((*recorder)->localPort("tm"), 200, 0);
            sim->start();
            QTRY_VERIFY_WITH_TIMEOUT((*recorder)->snapshot().streams.at(0).counters.packetsRecorded >= 80, 10000);
            sim->stop();
            QVERIFY(test::settle(**recorder, "tm", sim->summary().sent.packets));
            (*recorder)->stop();
        }
        // About 0.4 s recorded, played at a fifth of real time: about 2 s.
        auto session = makeSession(
            {stream("replay", "file://" + recordings.path().toStdString() + "?speed=0.2&stream=tm")});
        auto* station = session->station();
        StreamsPanel panel(*session);
        panel.resize(1100, 200);
        panel.setStation(station);
        panel.show();
        const StreamsModel& model = *panel.model();
        const auto progress = [&] { return value(model, 0, StreamsModel::Progress).toDouble(); };
        QTRY_VERIFY_WITH_TIMEOUT(progress() > 0.05 && progress() < 0.95, 10000);
        QVERIFY(cell(model, 0, StreamsModel::Progress).endsWith(QStringLiteral(" %")));
        QVERIFY(panel.grab().save(QStringLiteral("/tmp/h-streams-panel-playback.png")));
        QTRY_VERIFY_WITH_TIMEOUT(station->playbackFinished(), 15000);
        session->snapshots().tick();
        const double finished = station->snapshot().streams.at(0).progress;
        QCOMPARE(value(model, 0, StreamsModel::Progress).toDouble(), finished);
        QCOMPARE(finished, 1.0);
        QCOMPARE(cell(model, 0, StreamsModel::Progress), QStringLiteral("100 %"));

        // Finished stays finished: stopped by itself (Start offered, Stop not), "played back" in its state,
        // across a live change of the station and a reopened profile.
        const auto stoppedAndFinished = [&] {
            session->snapshots().tick();
            panel.refresh();
            const int row = model.rowOf(QStringLiteral("replay"));
            panel.setCurrentStream(QStringLiteral("replay"));
            return row >= 0 && !model.isRunning(row) && !session->station()->streamRunning("replay")
                   && panel.startStreamAction()->isEnabled() && !panel.stopStreamAction()->isEnabled();
        };
        QTRY_VERIFY_WITH_TIMEOUT(stoppedAndFinished(), 5000);
        QVERIFY2(cell(model, 0, StreamsModel::State).startsWith(QStringLiteral("played back")),
                 qPrintable(cell(model, 0, StreamsModel::State)));
        const std::uint64_t played = station->snapshot().streams.at(0).counters.packetsReceived;
        QVERIFY(session->addStream(stream("other", "udp://127.0.0.1:0")));
        QCOMPARE(session->station(), station);
        QVERIFY(stoppedAndFinished());
        const config::StationProfile kept = session->profile(); // what Save writes
        QCOMPARE(kept.streams.at(0).enabled, false);
        QString error;
        QVERIFY2(session->open(kept, {}, &error), qPrintable(error));
        panel.setStation(session->station());
        QVERIFY(stoppedAndFinished());
        QCOMPARE(session->station()->snapshot().streams.at(0).counters.packetsReceived, std::uint64_t{0});
        // Start (the panel's button) plays it again, from the beginning: every record once more.
        connect(&panel, &StreamsPanel::startStreamRequested, this,
                [&](const QString& name) { QVERIFY(session->startStream(name)); }); // as the main window does
        panel.setCurrentStream(QStringLiteral("replay"));
        click(panel.toolBar(), panel.startStreamAction());
        QTRY_VERIFY_WITH_TIMEOUT(session->station()->playbackFinished() && !session->station()->streamRunning("replay"), 15000);
        QVERIFY(session->station()->waitIdle(std::chrono::seconds(5)));
        QCOMPARE(session->station()->snapshot().streams.at(0).counters.packetsReceived, played);
    }

    // Add… opens the dialog; the pieces typed in make the profile the signal carries.
    void addComposesProfile_data()
    {
        QTest::addColumn<int>("transport");
        QTest::addColumn<QString>("host");
        QTest::addColumn<QString>("group");
        QTest::addColumn<QString>("iface");
        QTest::addColumn<QString>("port");
        QTest::addColumn<QString>("expected");
        QTest::newRow("udp") << int(StreamDialog::Udp) << "127.0.0.1" << "" << "" << "0" << "udp://127.0.0.1:0";
        QTest::newRow("udp ipv6") << int(StreamDialog::Udp) << "::1" << "" << "" << "5000" << "udp://[::1]:5000";
        QTest::newRow("multicast") << int(StreamDialog::UdpMulticast) << "" << "239.192.0.1" << "10.0.0.2" << "5000"
                                   << "udp://239.192.0.1:5000?iface=10.0.0.2";
        QTest::newRow("tcp client") << int(StreamDialog::TcpClient) << "ground.example.org" << "" << "" << "7000"
                                    << "tcp://ground.example.org:7000";
        QTest::newRow("tcp server") << int(StreamDialog::TcpServer) << "0.0.0.0" << "" << "" << "0"
                                    << "tcp-listen://0.0.0.0:0";
    }

    void addComposesProfile()
    {
        QFETCH(int, transport);
        QFETCH(QString, host);
        QFETCH(QString, group);
        QFETCH(QString, iface);
        QFETCH(QString, port);
        QFETCH(QString, expected);
        auto session = twoStreams();
        StreamsPanel panel(*session);
        panel.setStation(session->station());
        panel.show();
        QList<config::StreamProfile> added; // what the dialog composed, not applied (these need not open here)
        panel.setStreamChanges(
            [&](const config::StreamProfile& s, QString*) {
                added << s;
                return true;
            },
            {});
        QString composed;
        const bool seen = withDialog(
            panel, [&] { click(panel.toolBar(), panel.addStreamAction()); },
            [&](StreamDialog& dialog) {
                dialog.setCheckOpening(false); // composing only: these sources need not open on this machine
                typeInto(child<QLineEdit>(&dialog, "nameEdit"), QStringLiteral("down_link-2"));
                child<QComboBox>(&dialog, "transportCombo")->setCurrentIndex(transport);
                if (!host.isEmpty())
                    typeInto(child<QLineEdit>(&dialog, "hostEdit"), host);
                if (!group.isEmpty())
                    typeInto(child<QLineEdit>(&dialog, "groupEdit"), group);
                if (!iface.isEmpty())
                    typeInto(child<QLineEdit>(&dialog, "interfaceEdit"), iface);
                typeInto(child<QLineEdit>(&dialog, "portEdit"), port);
                typeInto(child<QLineEdit>(&dialog, "transportHeaderEdit"), QStringLiteral("12"));
                child<QComboBox>(&dialog, "unknownModeCombo")->setCurrentIndex(1);
                QTest::mouseClick(child<QCheckBox>(&dialog, "recordUnknownCheck"), Qt::LeftButton);
                composed = child<QLineEdit>(&dialog, "urlEdit")->text();
                QTest::mouseClick(child<QPushButton>(&dialog, "okButton"), Qt::LeftButton);
            });
        QVERIFY(seen);
        QCOMPARE(composed, expected);
        QCOMPARE(added.count(), 1);
        const auto& profile = added.at(0);
        QCOMPARE(profile.name, std::string("down_link-2"));
        QCOMPARE(QString::fromStdString(profile.source), expected);
        QCOMPARE(profile.transportHeaderBytes, 12u);
        QCOMPARE(name(profile.unknownMode), name(config::ProcessingMode::Discard));
        QVERIFY(profile.recordUnknown);
        QVERIFY(profile.enabled);
        QVERIFY(profile.packets.empty());
        // What the panel asks for is a source the profile and the endpoint parser accept.
        QVERIFY(io::parseEndpoint(profile.source));
    }

    // A playback stream: path, speed and the other options make a file:// URL.
    void addPlayback()
    {
        StreamDialog dialog(stream("replay", ""), {}, nullptr);
        dialog.show();
        child<QComboBox>(&dialog, "transportCombo")->setCurrentIndex(StreamDialog::Playback);
        QVERIFY(!okEnabled(dialog));
        QVERIFY(shownError(dialog).contains(QStringLiteral("recording")));
        typeInto(child<QLineEdit>(&dialog, "pathEdit"), QStringLiteral("/data/rec what?"));
        typeInto(child<QLineEdit>(&dialog, "speedEdit"), QStringLiteral("2.5"));
        typeInto(child<QLineEdit>(&dialog, "optionsEdit"), QStringLiteral("stream=tm&from=2026-11-22T12:00:00Z"));
        QVERIFY2(okEnabled(dialog), qPrintable(shownError(dialog)));
        const std::string source = dialog.profile().source;
        QCOMPARE(QString::fromStdString(source),
                 QStringLiteral("file:///data/rec what%3F?speed=2.5&stream=tm&from=2026-11-22T12:00:00Z"));
        const auto endpoint = io::parseEndpoint(source);
        QVERIFY(endpoint);
        QCOMPARE(endpoint->path, std::string("/data/rec what?"));
        // As fast as possible is the default: an empty speed writes no speed option.
        typeInto(child<QLineEdit>(&dialog, "speedEdit"), QString());
        QCOMPARE(QString::fromStdString(dialog.profile().source),
                 QStringLiteral("file:///data/rec what%3F?stream=tm&from=2026-11-22T12:00:00Z"));
        QVERIFY(dialog.grab().save(QStringLiteral("/tmp/h-streams-dialog-playback.png")));
    }

    // Invalid pieces keep OK disabled and say why; fixing them enables it again.
    void invalidInputKeepsOkDisabled_data()
    {
        QTest::addColumn<int>("transport");
        QTest::addColumn<QString>("name");
        QTest::addColumn<QString>("host");
        QTest::addColumn<QString>("port");
        QTest::addColumn<QString>("options");
        QTest::addColumn<QString>("reason");
        // A valid entry of each kind is fixed afterwards to prove the reason was the only one.
        QTest::newRow("name clash") << int(StreamDialog::Udp) << "tm" << "127.0.0.1" << "5000" << "" << "already called tm";
        QTest::newRow("empty name") << int(StreamDialog::Udp) << "" << "127.0.0.1" << "5000" << "" << "name";
        QTest::newRow("bad name") << int(StreamDialog::Udp) << "tm 2" << "127.0.0.1" << "5000" << "" << "'tm 2' is not";
        QTest::newRow("bad host") << int(StreamDialog::Udp) << "new" << "bad host!" << "5000" << ""
                                  << "'bad host!' is not an IP address or a host name";
        QTest::newRow("bad ipv4") << int(StreamDialog::TcpServer) << "new" << "300.1.1.1" << "5000" << ""
                                  << "'300.1.1.1' is not an IP address";
        QTest::newRow("no host") << int(StreamDialog::TcpClient) << "new" << "" << "5000" << "" << "server";
        QTest::newRow("tcp port 0") << int(StreamDialog::TcpClient) << "new" << "10.0.0.9" << "0" << "" << "port";
        QTest::newRow("multicast as udp") << int(StreamDialog::Udp) << "new" << "239.1.2.3" << "5000" << ""
                                          << "choose UDP multicast";
        QTest::newRow("playback option") << int(StreamDialog::Playback) << "new" << "" << "" << "speedy=2"
                                         << "unknown option 'speedy'";
    }

    void invalidInputKeepsOkDisabled()
    {
        QFETCH(int, transport);
        QFETCH(QString, name);
        QFETCH(QString, host);
        QFETCH(QString, port);
        QFETCH(QString, options);
        QFETCH(QString, reason);
        StreamDialog dialog(stream("new", ""), {QStringLiteral("tm"), QStringLiteral("spare")}, nullptr);
        dialog.show();
        child<QComboBox>(&dialog, "transportCombo")->setCurrentIndex(transport);
        typeInto(child<QLineEdit>(&dialog, "nameEdit"), name);
        if (transport == StreamDialog::Playback) {
            typeInto(child<QLineEdit>(&dialog, "pathEdit"), QStringLiteral("/data/rec"));
            typeInto(child<QLineEdit>(&dialog, "optionsEdit"), options);
        } else {
            typeInto(child<QLineEdit>(&dialog, "hostEdit"), host);
            typeInto(child<QLineEdit>(&dialog, "portEdit"), port);
        }
        QVERIFY(!okEnabled(dialog));
        QVERIFY2(shownError(dialog).contains(reason), qPrintable(shownError(dialog)));
        QCOMPARE(dialog.validationError(), shownError(dialog));
        // OK pressed anyway (Return) does not accept.
        QTest::keyClick(&dialog, Qt::Key_Return);
        QVERIFY(dialog.isVisible());
        QCOMPARE(dialog.result(), int(QDialog::Rejected));

        // Fixed: OK is enabled and the reason goes away.
        typeInto(child<QLineEdit>(&dialog, "nameEdit"), QStringLiteral("fresh"));
        if (transport == StreamDialog::Playback) {
            typeInto(child<QLineEdit>(&dialog, "optionsEdit"), QStringLiteral("speed=2"));
        } else {
            typeInto(child<QLineEdit>(&dialog, "hostEdit"), QStringLiteral("127.0.0.1"));
            typeInto(child<QLineEdit>(&dialog, "portEdit"), QStringLiteral("5000"));
        }
        QVERIFY2(okEnabled(dialog), qPrintable(shownError(dialog)));
        QCOMPARE(shownError(dialog), QString());
        if (QTest::currentDataTag() == QByteArray("tcp port 0"))
            QVERIFY(dialog.grab().save(QStringLiteral("/tmp/h-streams-dialog-fixed.png")));
    }

    // A source that does not parse (a valid profile cannot hold one) is reported until it is entered anew.
    void unparsableInitialSource()
    {
        StreamDialog dialog(stream("odd", "udp://127.0.0.1"), {}, nullptr);
        dialog.show();
        QVERIFY(!okEnabled(dialog));
        QVERIFY2(shownError(dialog).contains(QStringLiteral("missing port")), qPrintable(shownError(dialog)));
        typeInto(child<QLineEdit>(&dialog, "hostEdit"), QStringLiteral("127.0.0.1"));
        typeInto(child<QLineEdit>(&dialog, "portEdit"), QStringLiteral("5000"));
        QVERIFY2(okEnabled(dialog), qPrintable(shownError(dialog)));
        QCOMPARE(dialog.profile().source, std::string("udp://127.0.0.1:5000"));
    }

    void invalidInputScreenshot()
    {
        StreamDialog dialog(stream("tm2", "tcp://10.0.0.9:7000"), {QStringLiteral("tm")}, nullptr);
        dialog.show();
        typeInto(child<QLineEdit>(&dialog, "portEdit"), QStringLiteral("0"));
        QVERIFY(!okEnabled(dialog));
        QVERIFY(dialog.grab().save(QStringLiteral("/tmp/h-streams-dialog-error.png")));
    }

    // Edit… fills the pieces from any source the profile can hold and gives the same profile back.
    void editRoundTrips_data()
    {
        QTest::addColumn<QString>("source");
        QTest::addColumn<int>("transport");
        QTest::addColumn<QString>("field");   // the child that holds the main piece
        QTest::addColumn<QString>("content"); // what it shows
        QTest::newRow("multicast") << "udp://239.192.0.1:5000?iface=10.0.0.2" << int(StreamDialog::UdpMulticast)
                                   << "groupEdit" << "239.192.0.1";
        QTest::newRow("multicast v6") << "udp://[ff15::1]:5000?iface=[fe80::1%lo]" << int(StreamDialog::UdpMulticast)
                                      << "interfaceEdit" << "fe80::1%lo";
        QTest::newRow("tcp-listen") << "tcp-listen://0.0.0.0:6000" << int(StreamDialog::TcpServer) << "hostEdit"
                                    << "0.0.0.0";
        QTest::newRow("tcp v6") << "tcp://[::1]:7000" << int(StreamDialog::TcpClient) << "hostEdit" << "::1";
        QTest::newRow("file speed") << "file:///data/rec?speed=2.5" << int(StreamDialog::Playback) << "pathEdit"
                                    << "/data/rec";
        QTest::newRow("file options") << "file://recordings/x?from=2026-11-22T12:00:00Z&speed=0.0001&stream=tm&stream=b"
                                      << int(StreamDialog::Playback) << "optionsEdit"
                                      << "from=2026-11-22T12:00:00Z&stream=tm&stream=b";
        QTest::newRow("file escapes") << "file:///data/a%3Fb%25c?speed=1.50" << int(StreamDialog::Playback)
                                      << "pathEdit" << "/data/a?b%c";
        QTest::newRow("spelling kept") << "UDP://localhost:05000" << int(StreamDialog::Udp) << "hostEdit"
                                       << "localhost";
    }

    void editRoundTrips()
    {
        QFETCH(QString, source);
        QFETCH(int, transport);
        QFETCH(QString, field);
        QFETCH(QString, content);
        config::StreamProfile initial = stream("x", source.toStdString(), false);
        initial.transportHeaderBytes = 2000; // above a new stream's maximum: kept
        initial.unknownMode = config::ProcessingMode::Discard;
        initial.forwardUnknown = {"udp://127.0.0.1:47101"};
        initial.packets.push_back({100, std::nullopt, config::ProcessingMode::ProcessOnDemand, true, {}});
        StreamDialog dialog(initial, {QStringLiteral("tm")}, nullptr);
        dialog.show();
        QVERIFY2(okEnabled(dialog), qPrintable(shownError(dialog)));
        QCOMPARE(int(dialog.transport()), transport);
        QCOMPARE(child<QLineEdit>(&dialog, field.toLatin1().constData())->text(), content);
        QCOMPARE(child<QLineEdit>(&dialog, "urlEdit")->text(), source);
        QVERIFY(dialog.profile() == initial);
        if (QTest::currentDataTag() == QByteArray("multicast"))
            QVERIFY(dialog.grab().save(QStringLiteral("/tmp/h-streams-dialog-multicast.png")));
    }

    // Through the panel: Edit… on a stream changes what was changed and keeps the rest.
    void editThroughPanel()
    {
        config::StreamProfile multicast = stream("mc", "udp://239.192.0.1:5000?iface=127.0.0.1", false);
        multicast.packets.push_back({7, std::nullopt, config::ProcessingMode::PassThru, true, {"udp://127.0.0.1:47101"}});
        auto session = makeSession({stream("tm", "udp://127.0.0.1:0"), multicast,
                                    stream("replay", "file:///nowhere/rec?speed=2", false)});
        StreamsPanel panel(*session);
        panel.setStation(session->station());
        panel.show();
        QList<QPair<QString, config::StreamProfile>> edited; // what the dialog composed, not applied
        panel.setStreamChanges({}, [&](const QString& oldName, const config::StreamProfile& s, QString*) {
            edited << qMakePair(oldName, s);
            return true;
        });

        // Unchanged: OK emits nothing (there is nothing to rebuild).
        panel.setCurrentStream(QStringLiteral("mc"));
        QVERIFY(withDialog(panel, [&] { click(panel.toolBar(), panel.editStreamAction()); },
                           [](StreamDialog& d) { QTest::mouseClick(child<QPushButton>(&d, "okButton"), Qt::LeftButton); }));
        QCOMPARE(edited.count(), 0);

        // Renamed and the port changed: the rest of the stream is kept.
        QVERIFY(withDialog(panel, [&] { click(panel.toolBar(), panel.editStreamAction()); },
                           [](StreamDialog& d) {
                               typeInto(child<QLineEdit>(&d, "nameEdit"), QStringLiteral("tm"));
                               QVERIFY(!okEnabled(d)); // another stream's name
                               typeInto(child<QLineEdit>(&d, "nameEdit"), QStringLiteral("multicast"));
                               typeInto(child<QLineEdit>(&d, "portEdit"), QStringLiteral("5001"));
                               QTest::mouseClick(child<QPushButton>(&d, "okButton"), Qt::LeftButton);
                           }));
        QCOMPARE(edited.count(), 1);
        QCOMPARE(edited.at(0).first, QStringLiteral("mc"));
        auto expected = multicast;
        expected.name = "multicast";
        expected.source = "udp://239.192.0.1:5001?iface=127.0.0.1";
        QVERIFY(edited.at(0).second == expected);

        // Playback speed changed by double-clicking the row (also Edit…).
        panel.setCurrentStream(QStringLiteral("replay"));
        const QModelIndex replay = panel.model()->index(panel.model()->rowOf(QStringLiteral("replay")), StreamsModel::Name);
        const QRect rect = panel.view()->visualRect(replay);
        QVERIFY(withDialog(panel,
                           [&] {
                               // What a double click delivers: press, release, then the double click.
                               QTest::mouseClick(panel.view()->viewport(), Qt::LeftButton, {}, rect.center());
                               QTest::mouseDClick(panel.view()->viewport(), Qt::LeftButton, {}, rect.center());
                           },
                           [](StreamDialog& d) {
                               QCOMPARE(child<QLineEdit>(&d, "speedEdit")->text(), QStringLiteral("2"));
                               typeInto(child<QLineEdit>(&d, "speedEdit"), QStringLiteral("4"));
                               QTest::mouseClick(child<QPushButton>(&d, "okButton"), Qt::LeftButton);
                           }));
        QCOMPARE(edited.count(), 2);
        QCOMPARE(edited.at(1).first, QStringLiteral("replay"));
        QCOMPARE(edited.at(1).second.source, std::string("file:///nowhere/rec?speed=4"));
    }

    // Remove asks first (No: nothing; Yes: the request); without confirmation it asks nothing.
    void removeAfterConfirmation()
    {
        auto session = twoStreams();
        StreamsPanel panel(*session);
        panel.setStation(session->station());
        panel.show();
        QSignalSpy removed(&panel, &StreamsPanel::removeStreamRequested);
        panel.setCurrentStream(QStringLiteral("spare"));

        const auto answer = [&](QMessageBox::StandardButton button) {
            bool asked = false;
            QTimer::singleShot(0, &panel, [&] {
                auto* box = qobject_cast<QMessageBox*>(QApplication::activeModalWidget());
                if (!box)
                    return;
                asked = box->text().contains(QStringLiteral("spare"));
                QTest::mouseClick(box->button(button), Qt::LeftButton);
            });
            click(panel.toolBar(), panel.removeStreamAction());
            return asked;
        };
        QVERIFY(answer(QMessageBox::No));
        QCOMPARE(removed.count(), 0);
        QVERIFY(answer(QMessageBox::Yes));
        QCOMPARE(removed.count(), 1);
        QCOMPARE(removed.at(0).at(0).toString(), QStringLiteral("spare"));

        panel.setConfirmRemoval(false);
        panel.setCurrentStream(QStringLiteral("tm"));
        click(panel.toolBar(), panel.removeStreamAction());
        QCOMPARE(removed.count(), 2);
        QCOMPARE(removed.at(1).at(0).toString(), QStringLiteral("tm"));
    }

    // Start / Stop follow the stream's state and emit its name; wired to the session (as the main
    // window does), the state changes.
    void startStopEmitName()
    {
        auto session = twoStreams();
        auto* station = session->station();
        StreamsPanel panel(*session);
        panel.setStation(station);
        panel.show();
        QSignalSpy started(&panel, &StreamsPanel::startStreamRequested);
        QSignalSpy stopped(&panel, &StreamsPanel::stopStreamRequested);
        connect(&panel, &StreamsPanel::startStreamRequested, this,
                [&](const QString& name) { QVERIFY(session->startStream(name)); });
        connect(&panel, &StreamsPanel::stopStreamRequested, this,
                [&](const QString& name) { QVERIFY(session->stopStream(name)); });

        panel.setCurrentStream(QStringLiteral("spare"));
        QVERIFY(panel.startStreamAction()->isEnabled());
        QVERIFY(!panel.stopStreamAction()->isEnabled());
        click(panel.toolBar(), panel.startStreamAction());
        QCOMPARE(started.count(), 1);
        QCOMPARE(started.at(0).at(0).toString(), QStringLiteral("spare"));
        QVERIFY(station->streamRunning("spare"));
        const int row = panel.model()->rowOf(QStringLiteral("spare"));
        QVERIFY(cell(*panel.model(), row, StreamsModel::State).startsWith(QStringLiteral("listening")));
        QVERIFY(!panel.startStreamAction()->isEnabled());
        QVERIFY(panel.stopStreamAction()->isEnabled());

        click(panel.toolBar(), panel.stopStreamAction());
        QCOMPARE(stopped.count(), 1);
        QCOMPARE(stopped.at(0).at(0).toString(), QStringLiteral("spare"));
        QVERIFY(!station->streamRunning("spare"));
        QCOMPARE(cell(*panel.model(), row, StreamsModel::State), QStringLiteral("stopped"));
        QVERIFY(panel.startStreamAction()->isEnabled());
        QVERIFY(!panel.stopStreamAction()->isEnabled());
    }

    // A stream whose source fails to open shows "error: why" in red; Start and Stop are both offered.
    void errorStateIsRed()
    {
        auto first = makeSession({stream("a", "tcp-listen://127.0.0.1:0")});
        const std::uint16_t taken = first->station()->localPort("a");
        QVERIFY(taken != 0);
        auto session = makeSession({stream("b", "tcp-listen://127.0.0.1:" + std::to_string(taken), false)});
        StreamsPanel panel(*session);
        panel.setStation(session->station());
        QVERIFY(!session->startStream(QStringLiteral("b")));
        panel.refresh(); // hidden: the snapshot the session took at the start is shown on request
        QVERIFY(cell(*panel.model(), 0, StreamsModel::State).startsWith(QStringLiteral("error: ")));
        QCOMPARE(panel.model()->index(0, StreamsModel::State).data(Qt::ForegroundRole).value<QBrush>().color(),
                 QColor(0xc0, 0x39, 0x2b));
        QVERIFY(panel.startStreamAction()->isEnabled());
        QVERIFY(panel.stopStreamAction()->isEnabled());
    }

    // Add… and Edit… apply through the session, live: what the running station refuses (a port in
    // use) is shown in the dialog, which stays open, and nothing changes; a valid stream joins (or
    // changes) while the other streams keep running on the same station.
    void refusedChangeKeepsDialogOpen()
    {
        auto holder = makeSession({stream("holder", "tcp-listen://127.0.0.1:0")});
        const std::uint16_t taken = holder->station()->localPort("holder");
        QVERIFY(taken != 0);
        auto session = twoStreams();
        auto* station = session->station();
        QVERIFY(station->running());
        StreamsPanel panel(*session);
        panel.setStation(station);
        panel.show();
        const auto typeServer = [](StreamDialog& d, std::uint16_t port) {
            child<QComboBox>(&d, "transportCombo")->setCurrentIndex(StreamDialog::TcpServer);
            typeInto(child<QLineEdit>(&d, "hostEdit"), QStringLiteral("127.0.0.1"));
            typeInto(child<QLineEdit>(&d, "portEdit"), QString::number(port));
            QTest::mouseClick(child<QPushButton>(&d, "okButton"), Qt::LeftButton);
        };

        QString refused;
        QVERIFY(withDialog(panel, [&] { click(panel.toolBar(), panel.addStreamAction()); },
                           [&](StreamDialog& d) {
                               typeServer(d, taken);
                               QVERIFY(d.isVisible()); // refused: still open, with the reason
                               refused = shownError(d);
                               QCOMPARE(d.refusal(), refused);
                               // Corrected in the same dialog: accepted and closed.
                               typeServer(d, 0);
                               QVERIFY(!d.isVisible());
                           }));
        QVERIFY2(!refused.isEmpty(), "the refusal is shown");
        QCOMPARE(session->station(), station);
        QCOMPARE(session->streamNames(), (QStringList{"tm", "spare", "stream3"}));
        QVERIFY(station->streamRunning("tm"));
        QVERIFY(station->streamRunning("stream3"));
        QCOMPARE(panel.currentStream(), QStringLiteral("stream3"));
        const std::uint16_t port = station->localPort("stream3");
        QVERIFY(port != 0 && port != taken);

        // Edited onto the taken port: refused in the dialog; the stream keeps its port and runs on.
        QVERIFY(withDialog(panel, [&] { click(panel.toolBar(), panel.editStreamAction()); },
                           [&](StreamDialog& d) {
                               typeInto(child<QLineEdit>(&d, "portEdit"), QString::number(taken));
                               QTest::mouseClick(child<QPushButton>(&d, "okButton"), Qt::LeftButton);
                               QVERIFY(d.isVisible());
                               QVERIFY(!shownError(d).isEmpty());
                           }));
        QCOMPARE(station->localPort("stream3"), port);
        QVERIFY(station->streamRunning("stream3"));
        // Renamed, with a transport header: changed live on the same station, and still selected.
        QVERIFY(withDialog(panel, [&] { click(panel.toolBar(), panel.editStreamAction()); },
                           [&](StreamDialog& d) {
                               typeInto(child<QLineEdit>(&d, "nameEdit"), QStringLiteral("downlink"));
                               typeInto(child<QLineEdit>(&d, "transportHeaderEdit"), QStringLiteral("8"));
                               QTest::mouseClick(child<QPushButton>(&d, "okButton"), Qt::LeftButton);
                               QVERIFY(!d.isVisible());
                           }));
        QCOMPARE(session->station(), station);
        QCOMPARE(session->streamNames(), (QStringList{"tm", "spare", "downlink"}));
        QVERIFY(station->streamRunning("downlink"));
        QVERIFY(station->streamRunning("tm"));
        QCOMPARE(panel.currentStream(), QStringLiteral("downlink"));
    }

    // The current stream is announced; a new station (even after none) selects it again by name; no
    // station, no rows; an added or renamed stream is selected once the new station has it.
    void currentStreamFollowsSelection()
    {
        auto session = twoStreams();
        StreamsPanel panel(*session);
        QSignalSpy current(&panel, &StreamsPanel::currentStreamChanged);
        panel.setStation(session->station());
        QCOMPARE(current.count(), 1);
        QCOMPARE(current.at(0).at(0).toString(), QStringLiteral("tm"));
        panel.show();
        QVERIFY(QTest::qWaitForWindowExposed(&panel));
        const QRect rect = panel.view()->visualRect(panel.model()->index(1, StreamsModel::Name));
        QTest::mouseClick(panel.view()->viewport(), Qt::LeftButton, {}, rect.center());
        QCOMPARE(current.count(), 2);
        QCOMPARE(current.at(1).at(0).toString(), QStringLiteral("spare"));

        // Rebuilt: no station for a while, then a new one with the same streams.
        panel.setStation(nullptr);
        QCOMPARE(panel.model()->rowCount(), 0);
        QVERIFY(!panel.editStreamAction()->isEnabled());
        QCOMPARE(panel.currentStream(), QString());
        QCOMPARE(current.count(), 3);
        reopen(*session, twoStreamProfiles());
        panel.setStation(session->station());
        QCOMPARE(panel.model()->rowCount(), 2);
        QCOMPARE(panel.currentStream(), QStringLiteral("spare"));
        QCOMPARE(current.count(), 4);
        // Directly to another station (no nullptr in between) that has it too: nothing to announce.
        reopen(*session, twoStreamProfiles());
        panel.setStation(session->station());
        QCOMPARE(panel.currentStream(), QStringLiteral("spare"));
        QCOMPARE(current.count(), 4);
        // A station without it: the first stream.
        reopen(*session, {stream("other", "udp://127.0.0.1:0"), stream("tm", "udp://127.0.0.1:0")});
        panel.setStation(session->station());
        QCOMPARE(panel.currentStream(), QStringLiteral("other"));

        // Added live (the same station; the panel follows the session's streamsChanged): the new stream
        // becomes current.
        auto* station = session->station();
        QVERIFY(withDialog(panel, [&] { click(panel.toolBar(), panel.addStreamAction()); },
                           [](StreamDialog& d) {
                               QCOMPARE(child<QLineEdit>(&d, "nameEdit")->text(), QStringLiteral("stream3"));
                               typeInto(child<QLineEdit>(&d, "hostEdit"), QStringLiteral("127.0.0.1"));
                               QTest::mouseClick(child<QPushButton>(&d, "okButton"), Qt::LeftButton);
                           }));
        QCOMPARE(session->station(), station);
        QCOMPARE(panel.model()->rowCount(), 3);
        QCOMPARE(panel.currentStream(), QStringLiteral("stream3"));
        // Removed: the panel goes back to a stream that is there.
        QVERIFY(session->removeStream(QStringLiteral("stream3")));
        QCOMPARE(panel.model()->rowCount(), 2);
        QVERIFY(panel.currentStream() != QStringLiteral("stream3") && !panel.currentStream().isEmpty());
    }

    // A long source gives way to the state and the counts: the last column, elided in its middle (scheme
    // and port stay in sight), the whole URL in its tool tip.
    void longSourceElidedInTheMiddle()
    {
        const QString url = QStringLiteral("tcp://telemetry-front-end-processor-2.ground-segment.example.org:47003");
        auto session = makeSession({stream("tm", "udp://127.0.0.1:0"), stream("remote", url.toStdString(), false)});
        StreamsPanel panel(*session);
        panel.resize(620, 200);
        panel.setStation(session->station());
        panel.show();
        QVERIFY(QTest::qWaitForWindowExposed(&panel));
        const QTableView& view = *panel.view();
        const QHeaderView& header = *view.horizontalHeader();
        const int row = panel.model()->rowOf(QStringLiteral("remote"));
        QVERIFY(row >= 0);
        QCOMPARE(header.logicalIndex(header.count() - 1), int(StreamsModel::Source));
        const auto* eliding = dynamic_cast<const ui::ElidingDelegate*>(view.itemDelegateForColumn(StreamsModel::Source));
        QVERIFY(eliding);
        QCOMPARE(eliding->mode(), Qt::ElideMiddle);
        QCOMPARE(view.textElideMode(), Qt::ElideRight); // a state reads from its start: "error: cannot bind …"
        QCOMPARE(cell(*panel.model(), row, StreamsModel::Source, Qt::ToolTipRole), url);
        QVERIFY2(header.sectionSize(StreamsModel::Source) < view.fontMetrics().horizontalAdvance(url),
                 "the source is not cut: the panel is too wide for this test");
        for (const int column : {int(StreamsModel::State), int(StreamsModel::PacketRate), int(StreamsModel::DataRate),
                                 int(StreamsModel::Loss)})
            QVERIFY2(header.sectionViewportPosition(column) + header.sectionSize(column) <= view.viewport()->width(),
                     qPrintable(panel.model()->headerData(column, Qt::Horizontal, Qt::DisplayRole).toString()));
        // What is drawn: the URL's two ends with an ellipsis between.
        const QString drawn = view.fontMetrics().elidedText(url, eliding->mode(), header.sectionSize(StreamsModel::Source) - 8);
        QVERIFY2(drawn.startsWith(QStringLiteral("tcp://")) && drawn.endsWith(QStringLiteral(":47003")), qPrintable(drawn));
    }

    // The panel shows the session's snapshot of every tick while visible (the latest at once when
    // shown, then the session's own once-a-second ticks) and none while hidden.
    void followsTicksOnlyWhileVisible()
    {
        auto session = twoStreams();
        StreamsPanel panel(*session);
        panel.setStation(session->station());
        const auto hidden = panel.model()->refreshCount();
        session->snapshots().tick();
        QCOMPARE(panel.model()->refreshCount(), hidden);
        QVERIFY(panel.feedSnapshot() != session->snapshots().latest());

        panel.show();
        QVERIFY(QTest::qWaitForWindowExposed(&panel));
        QVERIFY(panel.feedSnapshot() == session->snapshots().latest()); // at once when shown
        const auto before = panel.model()->refreshCount();
        session->snapshots().tick();
        QCOMPARE(panel.model()->refreshCount(), before + 1);
        QVERIFY(panel.feedSnapshot() == session->snapshots().latest());
        const auto ticks = session->snapshots().snapshotsTaken();
        QTRY_VERIFY_WITH_TIMEOUT(session->snapshots().snapshotsTaken() >= ticks + 2, 5000); // the session's timer
        QVERIFY(panel.model()->refreshCount() >= before + 3);
        QVERIFY(panel.feedSnapshot() == session->snapshots().latest());

        panel.hide();
        const auto afterHide = panel.model()->refreshCount();
        session->snapshots().tick();
        QCOMPARE(panel.model()->refreshCount(), afterHide);
    }
};

QTEST_MAIN(TestStreamsPanel)
#include "tst_ui_streams_panel.moc"
