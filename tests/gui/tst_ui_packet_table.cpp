// The packet table against a real session (UDP on loopback, port 0, the training mission database):
// one row per packet type plus the unknown packets; the mode changed through the combo-box delegate,
// record through the check box and the forward destinations through their dialog all reach the
// station through the session (its profile, the engine, unsaved changes) and are announced; refused changes show the engine's reason and leave
// the cell as it was; the live counts equal the snapshot's counters of the stream's packet types.
#include "core/config/station_profile.hpp"
#include "core/pipeline/station.hpp"
#include "core/mdb/sqlite_store.hpp"
#include "core/stats/status_line.hpp"
#include "sim/engine/sim_stream.hpp"
#include "ui/dialogs/forward_editor_dialog.hpp"
#include "ui/models/packet_settings_model.hpp"
#include "ui/widgets/packet_table.hpp"
#include "tests/support/gui_session.hpp"
#include "tests/support/sim_traffic.hpp"
#include "tests/support/station_fixture.hpp"

#include <QApplication>
#include <QComboBox>
#include <QHostAddress>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QPushButton>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTableView>
#include <QTemporaryDir>
#include <QUdpSocket>
#include <QtTest>

#include <algorithm>
#include <chrono>
#include <memory>
#include <optional>
#include <vector>

using namespace telestation;
using namespace std::chrono_literals;
using config::ProcessingMode;
using ui::ForwardEditorDialog;
using ui::PacketSettingsModel;
using ui::PacketTable;

namespace {

// Processing modes compared (and printed) by their profile names.
QString name(telestation::config::ProcessingMode mode)
{
    return QString::fromLatin1(telestation::config::toString(mode).data());
}

const config::StreamProfile& streamOf(const config::StationProfile& profile, const std::string& name)
{
    for (const auto& s : profile.streams)
        if (s.name == name)
            return s;
    qFatal("no stream %s", name.c_str());
}

std::optional<config::PacketSettings> entry(const pipeline::Station& station, std::uint16_t apid,
                                            std::optional<std::uint64_t> secondaryId = std::nullopt)
{
    const config::StationProfile profile = station.profile();
    for (const auto& p : streamOf(profile, "tm").packets)
        if (p.apid == apid && p.secondaryId == secondaryId)
            return p;
    return std::nullopt;
}

int row(const PacketSettingsModel& model, const char* packet)
{
    const int r = model.rowOfType(QString::fromLatin1(packet));
    if (r < 0)
        qFatal("no row for %s", packet);
    return r;
}

ProcessingMode engineMode(const pipeline::Station& station, const char* packet)
{
    const auto type = station.types().typeByName(packet);
    if (!type)
        qFatal("no type %s", packet);
    return station.mode(*station.streamId("tm"), *type);
}

template <typename T>
T* child(QWidget* parent, const char* name)
{
    auto* w = parent->findChild<T*>(QString::fromLatin1(name));
    if (!w)
        qFatal("no child %s", name);
    return w;
}

// A space packet of `apid` (primary header, no secondary header) with `dataBytes` of zeros.
QByteArray rawPacket(std::uint16_t apid, std::uint16_t sequence, int dataBytes)
{
    QByteArray p(6 + dataBytes, '\0');
    p[0] = static_cast<char>((apid >> 8) & 0x07);
    p[1] = static_cast<char>(apid & 0xFF);
    p[2] = static_cast<char>(0xC0 | ((sequence >> 8) & 0x3F));
    p[3] = static_cast<char>(sequence & 0xFF);
    const int length = dataBytes - 1;
    p[4] = static_cast<char>((length >> 8) & 0xFF);
    p[5] = static_cast<char>(length & 0xFF);
    return p;
}

// Two packet types on APID 1424 told apart only by a criterion on the byte after the primary header (as
// XTCE missions do: IDEX's Sci0TypeZero "TYPE == 1", Sci0TypeNonZero "TYPE > 1"), and one type alone on
// APID 5. No secondary ids.
mdb::MissionDatabase criteriaDb()
{
    mdb::MissionDatabase db;
    const auto packet = [](std::string name, std::uint16_t apid, std::vector<mdb::FieldCriterion> criteria) {
        mdb::PacketDef p;
        p.name = std::move(name);
        p.apid = apid;
        p.length = 8;
        p.criteria = std::move(criteria);
        mdb::ParameterDef type;
        type.name = "TYPE";
        type.bitOffset = 48;
        type.bitLength = 8;
        mdb::ParameterDef value = type;
        value.name = "V";
        value.bitOffset = 56;
        p.parameters = {type, value};
        return p;
    };
    db.packets.push_back(packet("SciZero", 1424, {{48, 8, mdb::CompareOp::Equal, 1}}));
    db.packets.push_back(packet("SciNonZero", 1424, {{48, 8, mdb::CompareOp::Greater, 1}}));
    db.packets.push_back(packet("Lone", 5, {}));
    return db;
}

// An 8-byte packet of `apid` whose first data byte is `type`.
QByteArray typedPacket(std::uint16_t apid, std::uint16_t sequence, std::uint8_t type)
{
    QByteArray p = rawPacket(apid, sequence, 2);
    p[6] = static_cast<char>(type);
    return p;
}

} // namespace

class TestPacketTable : public QObject {
    Q_OBJECT

    mdb::MissionDatabase m_db;
    QTemporaryDir m_dir;

    // Stream "tm": HK_Status on demand and recorded, Packet5 processed entirely, the rest by default.
    std::unique_ptr<ui::StationSession> makeSession()
    {
        config::StationProfile profile;
        profile.recordingDirectory = m_dir.filePath(QStringLiteral("recordings")).toStdString();
        config::StreamProfile tm;
        tm.name = "tm";
        tm.source = "udp://127.0.0.1:0";
        tm.packets.push_back({100, std::nullopt, ProcessingMode::ProcessOnDemand, true, {}});
        tm.packets.push_back({7, std::nullopt, ProcessingMode::ProcessEntirePacket, false, {}});
        config::StreamProfile other;
        other.name = "other";
        other.source = "udp://127.0.0.1:0";
        other.unknownMode = ProcessingMode::Discard;
        profile.streams = {tm, other};
        return test::openSession(profile);
    }

private slots:
    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true);
        QVERIFY(m_dir.isValid());
        m_db = test::trainingDatabase();
    }

    // One row per packet type of the database (APID, secondary id, name) and the unknown packets last,
    // with the stream's settings.
    void rowsAndSettings()
    {
        auto session = makeSession();
        auto* station = session->station();
        PacketTable table(*session);
        table.setStation(station);
        table.setStream(QStringLiteral("tm"));
        const PacketSettingsModel& model = *table.model();
        QCOMPARE(model.rowCount(), static_cast<int>(m_db.packets.size()) + 1);
        for (std::size_t i = 0; i < m_db.packets.size(); ++i) {
            const int r = static_cast<int>(i);
            QCOMPARE(model.index(r, PacketSettingsModel::Name).data().toString(), QString::fromStdString(m_db.packets[i].name));
            QVERIFY(model.index(r, PacketSettingsModel::Apid).data().toString().startsWith(QString::number(m_db.packets[i].apid)));
        }
        const int diag = row(model, "Diag_Thermal");
        QCOMPARE(model.index(diag, PacketSettingsModel::Apid).data().toString(), QStringLiteral("600 (id 2)"));
        QCOMPARE(model.index(row(model, "HK_Status"), PacketSettingsModel::Apid).data().toString(), QStringLiteral("100"));
        const int unknown = model.unknownRow();
        QCOMPARE(unknown, model.rowCount() - 1);
        QVERIFY(model.isUnknownRow(unknown));
        QCOMPARE(model.index(unknown, PacketSettingsModel::Mode).data().toString(), QStringLiteral("Pass Thru"));

        const int hk = row(model, "HK_Status");
        QCOMPARE(model.index(hk, PacketSettingsModel::Mode).data().toString(), QStringLiteral("Process On Demand"));
        QCOMPARE(model.index(hk, PacketSettingsModel::Record).data(Qt::CheckStateRole).toInt(), int(Qt::Checked));
        QCOMPARE(model.index(row(model, "GNC_State"), PacketSettingsModel::Mode).data().toString(),
                 QStringLiteral("Process Entire Packet"));
        QCOMPARE(model.index(row(model, "GNC_State"), PacketSettingsModel::Record).data(Qt::CheckStateRole).toInt(),
                 int(Qt::Unchecked));
        QVERIFY(model.flags(model.index(hk, PacketSettingsModel::Mode)) & Qt::ItemIsEditable);
        QVERIFY(model.flags(model.index(hk, PacketSettingsModel::Record)) & Qt::ItemIsUserCheckable);

        // Another stream shows its own settings.
        table.setStream(QStringLiteral("other"));
        QCOMPARE(model.index(model.unknownRow(), PacketSettingsModel::Mode).data().toString(), QStringLiteral("Discard"));
        QCOMPARE(model.index(row(model, "HK_Status"), PacketSettingsModel::Mode).data().toString(),
                 QStringLiteral("Process Entire Packet"));
        // No such stream, no station: no rows.
        table.setStream(QStringLiteral("nope"));
        QCOMPARE(model.rowCount(), 0);
        table.setStream(QStringLiteral("tm"));
        QCOMPARE(model.rowCount(), static_cast<int>(m_db.packets.size()) + 1);
        table.setStation(nullptr);
        QCOMPARE(model.rowCount(), 0);
    }

    // The mode through the delegate's combo box: the profile and the engine change, the change is announced.
    void modeThroughDelegate_data()
    {
        QTest::addColumn<QString>("packet"); // "" = the unknown packets
        QTest::addColumn<int>("choices");
        QTest::addColumn<int>("mode");
        QTest::newRow("Packet5 pass thru") << "Packet5" << 3 << int(ProcessingMode::PassThru);
        QTest::newRow("HK_Status entire") << "HK_Status" << 3 << int(ProcessingMode::ProcessEntirePacket);
        QTest::newRow("Diag_Thermal on demand") << "Diag_Thermal" << 3 << int(ProcessingMode::ProcessOnDemand);
        QTest::newRow("unknown discard") << "" << 2 << int(ProcessingMode::Discard);
    }

    void modeThroughDelegate()
    {
        QFETCH(QString, packet);
        QFETCH(int, choices);
        QFETCH(int, mode);
        auto session = makeSession();
        auto* station = session->station();
        PacketTable table(*session);
        table.resize(1000, 400);
        table.setStation(station);
        table.setStream(QStringLiteral("tm"));
        table.show();
        QVERIFY(QTest::qWaitForWindowExposed(&table));
        QSignalSpy changed(&table, &PacketTable::settingsChanged);
        const PacketSettingsModel& model = *table.model();
        const int r = packet.isEmpty() ? model.unknownRow() : model.rowOfType(packet);
        QVERIFY(r >= 0);
        const QModelIndex index = model.index(r, PacketSettingsModel::Mode);

        table.view()->setCurrentIndex(index);
        table.view()->edit(index);
        auto* combo = qobject_cast<QComboBox*>(table.view()->indexWidget(index));
        QVERIFY(combo);
        QCOMPARE(combo->count(), choices);
        QCOMPARE(combo->currentData().toInt(), model.index(r, PacketSettingsModel::Mode).data(PacketSettingsModel::kModeRole).toInt());
        const int item = combo->findData(mode);
        QVERIFY(item >= 0);
        combo->setCurrentIndex(item);
        if (packet == QStringLiteral("Packet5"))
            QVERIFY(table.grab().save(QStringLiteral("/tmp/h-streams-table-editor.png")));
        QTest::keyClick(combo, Qt::Key_Enter);
        QTRY_VERIFY(!table.view()->indexWidget(index));

        QCOMPARE(changed.count(), 1);
        QCOMPARE(changed.at(0).at(0).toString(), QStringLiteral("tm"));
        QCOMPARE(index.data().toString(), PacketSettingsModel::modeText(static_cast<ProcessingMode>(mode)));
        QCOMPARE(table.message(), QString());
        const config::StationProfile profile = station->profile();
        if (packet.isEmpty()) {
            QCOMPARE(int(streamOf(profile, "tm").unknownMode), mode);
            QCOMPARE(name(streamOf(profile, "other").unknownMode), name(ProcessingMode::Discard));
            return;
        }
        const auto* def = m_db.findPacket(packet.toStdString());
        std::optional<std::uint64_t> secondaryId;
        if (def->secondaryId)
            secondaryId = def->secondaryId->value;
        const auto setting = entry(*station, def->apid, secondaryId);
        QVERIFY(setting);
        QCOMPARE(int(setting->mode), mode);
        QCOMPARE(int(engineMode(*station, packet.toLatin1().constData())), mode);
        // Fields not edited are kept: HK_Status stays recorded.
        if (packet == QStringLiteral("HK_Status"))
            QVERIFY(setting->record);
        // The other type of a shared APID is untouched.
        if (packet == QStringLiteral("Diag_Thermal")) {
            QCOMPARE(name(engineMode(*station, "Diag_Power")), name(ProcessingMode::ProcessEntirePacket));
            QVERIFY(!entry(*station, 600, 1));
        }
        if (packet == QStringLiteral("Packet5"))
            QVERIFY(table.grab().save(QStringLiteral("/tmp/h-streams-table-edited.png")));
    }

    // Picking an item in the open combo box (as a click in its popup does) applies it too.
    void modeByActivation()
    {
        auto session = makeSession();
        auto* station = session->station();
        PacketTable table(*session);
        table.setStation(station);
        table.setStream(QStringLiteral("tm"));
        table.show();
        const QModelIndex index = table.model()->index(row(*table.model(), "GNC_State"), PacketSettingsModel::Mode);
        table.view()->setCurrentIndex(index);
        QTest::keyClick(table.view(), Qt::Key_F2);
        auto* combo = qobject_cast<QComboBox*>(table.view()->indexWidget(index));
        QVERIFY(combo);
        const int item = combo->findData(int(ProcessingMode::PassThru));
        combo->setCurrentIndex(item);
        Q_EMIT combo->activated(item);
        QCOMPARE(name(engineMode(*station, "GNC_State")), name(ProcessingMode::PassThru));
        QCOMPARE(name(entry(*station, 400)->mode), name(ProcessingMode::PassThru));
    }

    // Record through the check box; the mode and forward list of the type are kept.
    void recordThroughCheckBox()
    {
        auto session = makeSession();
        auto* station = session->station();
        PacketTable table(*session);
        table.setStation(station);
        table.setStream(QStringLiteral("tm"));
        QSignalSpy changed(&table, &PacketTable::settingsChanged);
        PacketSettingsModel& model = *table.model();

        QVERIFY(model.setData(model.index(row(model, "GNC_State"), PacketSettingsModel::Record), Qt::Checked, Qt::CheckStateRole));
        auto gnc = entry(*station, 400);
        QVERIFY(gnc);
        QVERIFY(gnc->record);
        QCOMPARE(name(gnc->mode), name(ProcessingMode::ProcessEntirePacket));
        QCOMPARE(model.index(row(model, "GNC_State"), PacketSettingsModel::Record).data(Qt::CheckStateRole).toInt(), int(Qt::Checked));

        QVERIFY(model.setData(model.index(row(model, "HK_Status"), PacketSettingsModel::Record), Qt::Unchecked, Qt::CheckStateRole));
        const auto hk = entry(*station, 100);
        QVERIFY(!hk->record);
        QCOMPARE(name(hk->mode), name(ProcessingMode::ProcessOnDemand));

        QVERIFY(model.setData(model.index(model.unknownRow(), PacketSettingsModel::Record), Qt::Checked, Qt::CheckStateRole));
        QVERIFY(streamOf(station->profile(), "tm").recordUnknown);
        QCOMPARE(changed.count(), 3);

        // Setting what is already there changes nothing and announces nothing.
        QVERIFY(model.setData(model.index(row(model, "GNC_State"), PacketSettingsModel::Record), Qt::Checked, Qt::CheckStateRole));
        QCOMPARE(changed.count(), 3);
        // The engine's snapshot agrees.
        const auto snapshot = station->snapshot();
        const auto& types = snapshot.streams.at(0).packetTypes;
        const auto gncStats = std::find_if(types.begin(), types.end(), [](const auto& t) { return t.name == "GNC_State"; });
        QVERIFY(gncStats != types.end());
        QVERIFY(gncStats->record);
    }

    // Forward destinations through their dialog; invalid URLs cannot be added and say why.
    void forwardThroughDialog()
    {
        auto session = makeSession();
        auto* station = session->station();
        PacketTable table(*session);
        table.setStation(station);
        table.setStream(QStringLiteral("tm"));
        table.show();
        QSignalSpy changed(&table, &PacketTable::settingsChanged);
        const int hk = row(*table.model(), "HK_Status");

        QStringList refusals;
        bool seen = false;
        QTimer::singleShot(0, &table, [&] {
            auto* dialog = qobject_cast<ForwardEditorDialog*>(QApplication::activeModalWidget());
            if (!dialog)
                return;
            seen = true;
            auto* edit = child<QLineEdit>(dialog, "urlEdit");
            auto* add = child<QPushButton>(dialog, "addButton");
            for (const char* bad : {"file:///tmp/rec", "udp://127.0.0.1:0", "udp://nohost", "smtp://x:1"}) {
                edit->clear();
                QTest::keyClicks(edit, QString::fromLatin1(bad));
                refusals.push_back(add->isEnabled() ? QString() : dialog->errorText());
                QTest::keyClick(edit, Qt::Key_Return); // neither adds nor accepts
            }
            edit->clear();
            QTest::keyClicks(edit, QStringLiteral("udp://127.0.0.1:47999"));
            QTest::mouseClick(add, Qt::LeftButton);
            QTest::keyClicks(edit, QStringLiteral("tcp-listen://127.0.0.1:0"));
            QTest::keyClick(edit, Qt::Key_Return); // adds what is typed
            QTest::keyClicks(edit, QStringLiteral("udp://127.0.0.1:47999"));
            refusals.push_back(add->isEnabled() ? QString() : dialog->errorText());
            edit->clear();
            QTest::mouseClick(child<QPushButton>(dialog, "okButton"), Qt::LeftButton);
        });
        QVERIFY(table.editForward(hk));
        QVERIFY(seen);
        QCOMPARE(refusals.size(), 5);
        QVERIFY2(refusals[0].contains(QStringLiteral("file://")), qPrintable(refusals[0]));
        QVERIFY2(refusals[1].contains(QStringLiteral("Port 0")), qPrintable(refusals[1]));
        QVERIFY2(refusals[2].contains(QStringLiteral("missing port")), qPrintable(refusals[2]));
        QVERIFY2(refusals[3].contains(QStringLiteral("unknown scheme")), qPrintable(refusals[3]));
        QVERIFY2(refusals[4].contains(QStringLiteral("listed already")), qPrintable(refusals[4]));

        const auto setting = entry(*station, 100);
        QVERIFY(setting);
        QCOMPARE(setting->forward, (std::vector<std::string>{"udp://127.0.0.1:47999", "tcp-listen://127.0.0.1:0"}));
        QCOMPARE(name(setting->mode), name(ProcessingMode::ProcessOnDemand)); // kept
        QVERIFY(setting->record);                                  // kept
        QCOMPARE(changed.count(), 1);
        QCOMPARE(table.model()->index(hk, PacketSettingsModel::Forward).data().toString(),
                 QStringLiteral("udp://127.0.0.1:47999, tcp-listen://127.0.0.1:0"));
        const auto snapshot = station->snapshot();
        const auto& types = snapshot.streams.at(0).packetTypes;
        const auto hkStats = std::find_if(types.begin(), types.end(), [](const auto& t) { return t.name == "HK_Status"; });
        QVERIFY(hkStats != types.end());
        QCOMPARE(hkStats->forwardDestinations, 2u);

        // Removing one in the dialog (and a screenshot of it).
        QTimer::singleShot(0, &table, [&] {
            auto* dialog = qobject_cast<ForwardEditorDialog*>(QApplication::activeModalWidget());
            if (!dialog)
                return;
            QVERIFY(dialog->grab().save(QStringLiteral("/tmp/h-streams-forward.png")));
            dialog->list()->setCurrentRow(1);
            QTest::mouseClick(child<QPushButton>(dialog, "removeButton"), Qt::LeftButton);
            QTest::mouseClick(child<QPushButton>(dialog, "okButton"), Qt::LeftButton);
        });
        QVERIFY(table.editForward(hk));
        QCOMPARE(entry(*station, 100)->forward, std::vector<std::string>{"udp://127.0.0.1:47999"});
        QCOMPARE(changed.count(), 2);
    }

    // What the engine refuses shows its reason; the cell and the profile stay as they were.
    void refusedChangeShowsReason_data()
    {
        QTest::addColumn<int>("column");
        QTest::addColumn<QVariant>("value");
        QTest::addColumn<QString>("reason");
        QTest::newRow("file destination") << int(PacketSettingsModel::Forward) << QVariant(QStringList{"file:///tmp/rec"})
                                          << "file:// cannot be a destination";
        QTest::newRow("unparsable destination") << int(PacketSettingsModel::Forward)
                                                << QVariant(QStringLiteral("udp://127.0.0.1:1, udp://nohost"))
                                                << "missing port";
        QTest::newRow("port 0 destination") << int(PacketSettingsModel::Forward) << QVariant(QStringList{"udp://127.0.0.1:0"})
                                            << "port 0 is only for tcp-listen://";
        QTest::newRow("discard a defined type") << int(PacketSettingsModel::Mode) << QVariant(int(ProcessingMode::Discard))
                                                << "discard is only for unknown packets";
    }

    void refusedChangeShowsReason()
    {
        QFETCH(int, column);
        QFETCH(QVariant, value);
        QFETCH(QString, reason);
        auto session = makeSession();
        auto* station = session->station();
        PacketTable table(*session);
        table.resize(1000, 400);
        table.setStation(station);
        table.setStream(QStringLiteral("tm"));
        table.show();
        QSignalSpy changed(&table, &PacketTable::settingsChanged);
        QSignalSpy refused(table.model(), &PacketSettingsModel::settingRefused);
        const config::StationProfile before = station->profile();
        const QModelIndex index = table.model()->index(row(*table.model(), "HK_Status"), column);
        const QString shown = index.data().toString();

        QVERIFY(!table.model()->setData(index, value, Qt::EditRole));
        QCOMPARE(refused.count(), 1);
        QVERIFY2(table.message().contains(reason), qPrintable(table.message()));
        QVERIFY(table.message().contains(QStringLiteral("HK_Status")));
        QVERIFY(child<QLabel>(&table, "messageLabel")->isVisible());
        QCOMPARE(changed.count(), 0);
        QVERIFY(station->profile() == before);
        QCOMPARE(index.data().toString(), shown);
        QCOMPARE(name(engineMode(*station, "HK_Status")), name(ProcessingMode::ProcessOnDemand));
        if (QTest::currentDataTag() == QByteArray("file destination"))
            QVERIFY(table.grab().save(QStringLiteral("/tmp/h-streams-table-refused.png")));

        // The next change that goes through clears the message.
        QVERIFY(table.model()->setData(table.model()->index(row(*table.model(), "Packet5"), PacketSettingsModel::Mode),
                                       int(ProcessingMode::PassThru), Qt::EditRole));
        QCOMPARE(table.message(), QString());
    }

    // The live counts are the snapshot's counters for each type of the stream: received, processed,
    // recorded, forwarded, dropped — the unknown packets included.
    void liveCountsEqualSnapshot()
    {
        auto session = makeSession();
        auto* station = session->station();
        QUdpSocket forwardSink;
        QVERIFY(forwardSink.bind(QHostAddress::LocalHost, 0));
        const std::string destination = "udp://127.0.0.1:" + std::to_string(forwardSink.localPort());
        QVERIFY(session->setPacketSettings(QStringLiteral("tm"), {7, std::nullopt, ProcessingMode::PassThru, true, {destination}}));

        PacketTable table(*session);
        table.resize(1100, 420);
        table.setStation(station);
        table.setStream(QStringLiteral("tm"));
        table.show();
        QVERIFY(QTest::qWaitForWindowExposed(&table));

        const std::uint16_t port = station->localPort("tm");
        auto c = test::traffic(test::udpUrl(port), {"Packet5", "HK_Status", "GNC_State"}, 400, 4000);
        c.mix[1].weight = 2; // HK_Status twice as often
        test::send(c, m_db);
        QUdpSocket raw;
        for (std::uint16_t i = 0; i < 25; ++i)
            QCOMPARE(raw.writeDatagram(rawPacket(77, i, 10), QHostAddress::LocalHost, port), qint64(16));

        const auto received = [&] {
            const auto s = station->snapshot();
            return s.streams.at(0).counters.packetsReceived;
        };
        QVERIFY(test::settle(*station, "tm", 425));
        QCOMPARE(received(), std::uint64_t(425));
        // The timer shows it within a second.
        const PacketSettingsModel& model = *table.model();
        const int p5 = row(model, "Packet5");
        QTRY_VERIFY_WITH_TIMEOUT(model.index(p5, PacketSettingsModel::Forwarded).data(PacketSettingsModel::kCountRole).toULongLong() > 0, 5000);
        session->snapshots().tick();

        const stats::StationSnapshot snapshot = station->snapshot();
        const stats::StreamStats& tm = snapshot.streams.at(0);
        QCOMPARE(tm.name, std::string("tm"));
        std::uint64_t total = 0;
        for (std::size_t i = 0; i < tm.packetTypes.size(); ++i) {
            const stats::PacketTypeStats& type = tm.packetTypes[i];
            const int r = i == 0 ? model.unknownRow() : model.rowOfType(QString::fromStdString(type.name));
            QVERIFY2(r >= 0, type.name.c_str());
            const auto count = [&](int column) {
                return model.index(r, column).data(PacketSettingsModel::kCountRole).toULongLong();
            };
            QCOMPARE(count(PacketSettingsModel::Received), qulonglong(type.counters.packetsReceived));
            QCOMPARE(count(PacketSettingsModel::Processed), qulonglong(type.counters.packetsDecoded));
            QCOMPARE(count(PacketSettingsModel::Recorded), qulonglong(type.counters.packetsRecorded));
            QCOMPARE(count(PacketSettingsModel::Forwarded), qulonglong(type.counters.packetsForwarded));
            QCOMPARE(count(PacketSettingsModel::Dropped), qulonglong(stats::dropCount(type.counters)));
            QCOMPARE(model.index(r, PacketSettingsModel::Received).data().toString(),
                     QLocale().toString(qulonglong(type.counters.packetsReceived)));
            total += type.counters.packetsReceived;
        }
        QCOMPARE(total, std::uint64_t(425));
        // What was sent, where it was meant to go.
        QCOMPARE(model.index(model.unknownRow(), PacketSettingsModel::Received).data(PacketSettingsModel::kCountRole).toULongLong(), 25ull);
        QCOMPARE(model.index(p5, PacketSettingsModel::Received).data(PacketSettingsModel::kCountRole).toULongLong(), 100ull);
        QCOMPARE(model.index(p5, PacketSettingsModel::Forwarded).data(PacketSettingsModel::kCountRole).toULongLong(), 100ull);
        QCOMPARE(model.index(p5, PacketSettingsModel::Recorded).data(PacketSettingsModel::kCountRole).toULongLong(), 100ull);
        const int hk = row(model, "HK_Status");
        QCOMPARE(model.index(hk, PacketSettingsModel::Received).data(PacketSettingsModel::kCountRole).toULongLong(), 200ull);
        QCOMPARE(model.index(hk, PacketSettingsModel::Recorded).data(PacketSettingsModel::kCountRole).toULongLong(), 200ull);
        // A type nobody sent shows zeros.
        QCOMPARE(model.index(row(model, "Event_Message"), PacketSettingsModel::Received).data(PacketSettingsModel::kCountRole).toULongLong(), 0ull);
        QVERIFY(table.grab().save(QStringLiteral("/tmp/h-streams-table.png")));
    }

    // Types of one APID told apart by criteria: a row each with its own counts; a change to one row
    // is written by name and leaves the other type alone; a type alone on its APID is written by APID.
    void typesOfOneApidByCriteria()
    {
        config::StationProfile profile;
        profile.recordingDirectory = m_dir.filePath(QStringLiteral("recordings")).toStdString();
        config::StreamProfile tm;
        tm.name = "tm";
        tm.source = "udp://127.0.0.1:0";
        config::PacketSettings apid1424;
        apid1424.apid = 1424;
        apid1424.mode = ProcessingMode::ProcessOnDemand;
        apid1424.record = true;
        tm.packets = {apid1424};
        profile.streams = {tm};
        profile.mdb = m_dir.filePath(QStringLiteral("criteria.mdb")).toStdString();
        QVERIFY(mdb::saveDatabase(criteriaDb(), profile.mdb));
        auto session = test::openSession(profile);
        auto* station = session->station();

        PacketTable table(*session);
        table.resize(1100, 300);
        table.setStation(station);
        table.setStream(QStringLiteral("tm"));
        table.show();
        QVERIFY(QTest::qWaitForWindowExposed(&table));
        PacketSettingsModel& model = *table.model();
        QCOMPARE(model.rowCount(), 4);
        const int zero = row(model, "SciZero");
        const int nonZero = row(model, "SciNonZero");
        QVERIFY(zero != nonZero);
        QCOMPARE(model.index(zero, PacketSettingsModel::Apid).data().toString(), QStringLiteral("1424"));
        QCOMPARE(model.index(nonZero, PacketSettingsModel::Apid).data().toString(), QStringLiteral("1424"));
        // The APID's setting applies to both.
        for (const int r : {zero, nonZero}) {
            QCOMPARE(model.index(r, PacketSettingsModel::Mode).data().toString(), QStringLiteral("Process On Demand"));
            QCOMPARE(model.index(r, PacketSettingsModel::Record).data(Qt::CheckStateRole).toInt(), int(Qt::Checked));
        }

        // Each type its own counts: 30 of SciZero, 12 of SciNonZero (TYPE 2 and 7), 5 of Lone.
        const std::uint16_t port = station->localPort("tm");
        QUdpSocket socket;
        std::uint16_t sequence = 0;
        const auto send = [&](std::uint16_t apid, std::uint8_t type, int count) {
            for (int i = 0; i < count; ++i) {
                const QByteArray p = typedPacket(apid, sequence++, type);
                if (socket.writeDatagram(p, QHostAddress::LocalHost, port) != p.size())
                    return false;
            }
            return true;
        };
        QVERIFY(send(1424, 1, 30));
        QVERIFY(send(1424, 2, 6));
        QVERIFY(send(1424, 7, 6));
        QVERIFY(send(5, 0, 5));
        QVERIFY(test::settle(*station, "tm", 47));
        QCOMPARE(station->snapshot().streams.at(0).counters.packetsReceived, std::uint64_t(47));
        session->snapshots().tick();
        const auto count = [&](int r, int column) {
            return model.index(r, column).data(PacketSettingsModel::kCountRole).toULongLong();
        };
        QCOMPARE(count(zero, PacketSettingsModel::Received), 30ull);
        QCOMPARE(count(nonZero, PacketSettingsModel::Received), 12ull);
        QCOMPARE(count(row(model, "Lone"), PacketSettingsModel::Received), 5ull);
        QCOMPARE(count(zero, PacketSettingsModel::Recorded), 30ull);
        QCOMPARE(count(nonZero, PacketSettingsModel::Recorded), 12ull);
        QCOMPARE(count(model.unknownRow(), PacketSettingsModel::Received), 0ull);
        QVERIFY(table.grab().save(QStringLiteral("/tmp/h-settings-criteria-table.png")));

        // One row's mode: written by name, the other type keeps the APID's setting.
        QSignalSpy changed(&table, &PacketTable::settingsChanged);
        QVERIFY(model.setData(model.index(nonZero, PacketSettingsModel::Mode), int(ProcessingMode::PassThru), Qt::EditRole));
        QCOMPARE(changed.count(), 1);
        QCOMPARE(model.index(nonZero, PacketSettingsModel::Mode).data().toString(), QStringLiteral("Pass Thru"));
        QCOMPARE(model.index(zero, PacketSettingsModel::Mode).data().toString(), QStringLiteral("Process On Demand"));
        QCOMPARE(name(engineMode(*station, "SciNonZero")), name(ProcessingMode::PassThru));
        QCOMPARE(name(engineMode(*station, "SciZero")), name(ProcessingMode::ProcessOnDemand));
        std::vector<config::PacketSettings> packets = streamOf(station->profile(), "tm").packets;
        QCOMPARE(packets.size(), std::size_t(2));
        QVERIFY(packets[0] == apid1424); // untouched
        config::PacketSettings named = apid1424; // the fields not edited are kept: recorded
        named.apid = 0;
        named.packet = "SciNonZero";
        named.mode = ProcessingMode::PassThru;
        QVERIFY(packets[1] == named);

        // Again on the same row: the named setting is updated, no new one.
        QVERIFY(model.setData(model.index(nonZero, PacketSettingsModel::Record), Qt::Unchecked, Qt::CheckStateRole));
        packets = streamOf(station->profile(), "tm").packets;
        QCOMPARE(packets.size(), std::size_t(2));
        QVERIFY(!packets[1].record);
        QCOMPARE(packets[1].packet, std::string("SciNonZero"));
        QCOMPARE(model.index(zero, PacketSettingsModel::Record).data(Qt::CheckStateRole).toInt(), int(Qt::Checked));

        // The other row: by name too; the first keeps its own.
        QVERIFY(model.setData(model.index(zero, PacketSettingsModel::Mode), int(ProcessingMode::ProcessEntirePacket), Qt::EditRole));
        QCOMPARE(name(engineMode(*station, "SciZero")), name(ProcessingMode::ProcessEntirePacket));
        QCOMPARE(name(engineMode(*station, "SciNonZero")), name(ProcessingMode::PassThru));
        packets = streamOf(station->profile(), "tm").packets;
        QCOMPARE(packets.size(), std::size_t(3));
        QCOMPARE(packets[2].packet, std::string("SciZero"));
        QVERIFY(packets[2].record);

        // A type alone on its APID: by APID, as always.
        QVERIFY(model.setData(model.index(row(model, "Lone"), PacketSettingsModel::Mode), int(ProcessingMode::PassThru), Qt::EditRole));
        packets = streamOf(station->profile(), "tm").packets;
        QCOMPARE(packets.size(), std::size_t(4));
        QCOMPARE(packets[3].packet, std::string());
        QCOMPARE(packets[3].apid, std::uint16_t(5));
        QVERIFY(!packets[3].secondaryId);

        // The counts stay with their rows after the changes.
        QVERIFY(send(1424, 3, 4));
        QVERIFY(test::settle(*station, "tm", 51));
        QCOMPARE(station->snapshot().streams.at(0).counters.packetsReceived, std::uint64_t(51));
        session->snapshots().tick();
        QCOMPARE(count(nonZero, PacketSettingsModel::Received), 16ull);
        QCOMPARE(count(zero, PacketSettingsModel::Received), 30ull);
        // Processed = decoded: the 30 and 12 came on demand with nobody asking, the last 4 in Pass Thru.
        QCOMPARE(count(zero, PacketSettingsModel::Processed), 0ull);
        QCOMPARE(count(nonZero, PacketSettingsModel::Processed), 0ull);
    }

    // Counts come from the session's ticks, only while the table is visible: the latest at once when
    // shown, each tick then; hidden, none.
    void countsFollowTicksOnlyWhileVisible()
    {
        auto session = makeSession();
        PacketTable table(*session);
        table.setStation(session->station());
        table.setStream(QStringLiteral("tm"));
        const ui::SharedSnapshot before = table.feedSnapshot();
        session->snapshots().tick();
        QVERIFY(table.feedSnapshot() == before); // hidden: the tick is not taken
        QVERIFY(table.feedSnapshot() != session->snapshots().latest());
        table.show();
        QVERIFY(QTest::qWaitForWindowExposed(&table));
        QVERIFY(table.feedSnapshot() && table.feedSnapshot() == session->snapshots().latest());
        session->snapshots().tick();
        QVERIFY(table.feedSnapshot() == session->snapshots().latest());
        table.hide();
        const ui::SharedSnapshot hidden = table.feedSnapshot();
        session->snapshots().tick();
        QVERIFY(table.feedSnapshot() == hidden);
        QVERIFY(hidden != session->snapshots().latest());
    }
};

QTEST_MAIN(TestPacketTable)
#include "tst_ui_packet_table.moc"
