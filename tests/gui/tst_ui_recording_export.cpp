// The recordings browser's export against a real recording: two streams recorded here with the
// recorder ("tm": Packet5, "hk": HK_Status of the training mission, built by the simulator's packet
// factory, both every 10 ms at the same instants, several segments). The worker (RecordingExport)
// writes exactly what the built `telestation-mdb decode` writes for the same selection (long and
// wide); a time range and a segment selection restrict the rows exactly; a cancel leaves no file (and
// a file already there as it was); a file that cannot be created, and a write that fails midway (a file
// size limit standing in for a full disk, which also stops the read early), are reported and leave no
// file; an input is never overwritten. Through the widgets: the dialog refuses an empty choice (and
// the other problems) with the reason, a choice made with the filter, a check box and "Check shown"
// exports the selected segments, Cancel stops a running export while the GUI stays responsive.
#include "core/common/time_text.hpp"
#include "core/pipeline/station.hpp"
#include "core/record/recording_catalog.hpp"
#include "core/record/stream_recorder.hpp"
#include "sim/engine/packet_factory.hpp"
#include "tests/support/gui_session.hpp"
#include "tests/support/test_paths.hpp"
#include "tests/support/training_mission.hpp"
#include "ui/dialogs/recording_export_dialog.hpp"
#include "ui/models/mission_tree_model.hpp"
#include "ui/models/parameter_choice_model.hpp"
#include "ui/models/recordings_model.hpp"
#include "ui/session/recording_export.hpp"
#include "ui/widgets/recording_export_progress.hpp"
#include "ui/widgets/recordings_browser.hpp"

#include <QCheckBox>
#include <QDateTimeEdit>
#include <QDir>
#include <QFile>
#include <QItemSelectionModel>
#include <QLabel>
#include <QLineEdit>
#include <QProcess>
#include <QProgressBar>
#include <QPushButton>
#include <QRadioButton>
#include <QSemaphore>
#include <QSignalSpy>
#include <QSortFilterProxyModel>
#include <QStandardPaths>
#include <QTableView>
#include <QTemporaryDir>
#include <QTreeView>
#include <QtTest>

#include <atomic>
#include <csignal>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include <sys/resource.h>

using namespace telestation;
using ui::RecordingExport;
using ui::RecordingExportRequest;
using ui::RecordingExportResult;
using Outcome = RecordingExportResult::Outcome;

namespace {

constexpr int kTimes = 1500;                            // per stream: 3000 packets, more than 1024
constexpr std::int64_t kT0 = 1'780'000'000'000'000'000; // 2026-05-28T20:26:40Z
constexpr std::int64_t kStepNs = 10'000'000;            // 10 ms
constexpr int kTimeout = 120000;

std::int64_t timeOf(int i)
{
    return kT0 + std::int64_t{i} * kStepNs;
}

QString iso(std::int64_t ns)
{
    return QString::fromStdString(text::formatTimeNs(ns));
}

std::size_t parameterIndex(const mdb::PacketDef& def, const std::string& name)
{
    for (std::size_t i = 0; i < def.parameters.size(); ++i)
        if (def.parameters[i].name == name)
            return i;
    qFatal("no parameter %s in %s", name.c_str(), def.name.c_str());
}

const mdb::PacketDef& packetDef(const std::string& name)
{
    for (const auto& p : test::trainingDatabase().packets)
        if (p.name == name)
            return p;
    qFatal("no packet %s", name.c_str());
}

std::vector<std::string> allParameters(const std::string& packet)
{
    std::vector<std::string> names;
    for (const auto& q : packetDef(packet).parameters)
        names.push_back(packet + "." + q.name);
    return names;
}

QByteArray readFile(const QString& path)
{
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
}

QStringList lines(const QByteArray& text)
{
    QStringList out = QString::fromUtf8(text).split(QLatin1Char('\n'));
    if (!out.isEmpty() && out.last().isEmpty())
        out.removeLast();
    return out;
}

QStringList entries(const QString& directory)
{
    return QDir(directory).entryList(QDir::AllEntries | QDir::NoDotAndDotDot | QDir::Hidden | QDir::System);
}

// `telestation-mdb decode` on the recording, written to `output`; its exit code.
int runTool(const QString& directory, const std::vector<std::string>& parameters, const QString& output,
            QStringList extra = {})
{
    QStringList names;
    for (const auto& p : parameters)
        names << QString::fromStdString(p);
    QProcess process;
    process.start(test::binDir() + QStringLiteral("/telestation-mdb"),
                  QStringList{QStringLiteral("decode"), QStringLiteral("--mdb"),
                              QString::fromStdString(test::trainingDatabasePath()), QStringLiteral("--input"), directory,
                              QStringLiteral("--parameters"), names.join(QLatin1Char(',')), QStringLiteral("--output"),
                              output}
                      + extra);
    if (!process.waitForFinished(kTimeout))
        return -1;
    return process.exitStatus() == QProcess::NormalExit ? process.exitCode() : -1;
}

// The time column of long CSV rows (packet_index,time,…) or wide ones (time,…).
QStringList timesOf(const QStringList& rows, int column)
{
    QStringList times;
    for (const QString& row : rows)
        times << row.section(QLatin1Char(','), column, column);
    return times;
}

} // namespace

class TestRecordingExport : public QObject {
    Q_OBJECT

    QTemporaryDir m_dir;
    QString m_recording;
    std::vector<record::SegmentInfo> m_segments; // the catalog's, "hk" then "tm" by sequence
    std::vector<std::string> m_tmSegments;

    [[nodiscard]] QString path(const QString& name) const { return QDir(m_dir.path()).filePath(name); }

    [[nodiscard]] RecordingExportRequest request(std::vector<std::string> parameters, const QString& output) const
    {
        RecordingExportRequest r;
        r.directory = m_recording;
        r.parameters = std::move(parameters);
        r.outputPath = output;
        r.databasePath = QString::fromStdString(test::trainingDatabasePath());
        return r;
    }

    // Runs an export to its end with a worker of its own.
    static RecordingExportResult exportNow(const RecordingExportRequest& r)
    {
        RecordingExport job;
        QSignalSpy finished(&job, &RecordingExport::finished);
        QString error;
        if (!job.start(r, test::trainingDatabase(), &error))
            qFatal("export refused: %s", qPrintable(error));
        if (!QTest::qWaitFor([&] { return finished.count() == 1; }, kTimeout))
            qFatal("the export did not finish");
        return job.result();
    }

    void showBrowser(ui::RecordingsBrowser& browser)
    {
        browser.setRecordingDirectory(m_recording);
        browser.resize(1000, 700);
        browser.show();
        QVERIFY(QTest::qWaitForWindowExposed(&browser));
        QTRY_COMPARE(browser.model()->rowCount(), static_cast<int>(m_segments.size()));
    }

    static ui::RecordingExportDialog* openDialog(ui::RecordingsBrowser& browser)
    {
        if (!browser.exportButton()->isEnabled())
            return nullptr;
        QTest::mouseClick(browser.exportButton(), Qt::LeftButton);
        ui::RecordingExportDialog* dialog = browser.exportDialog();
        return dialog && QTest::qWaitForWindowExposed(dialog) ? dialog : nullptr;
    }

    // Makes a (name-column) row of the dialog's tree current and toggles its box with the space bar.
    static void toggle(ui::RecordingExportDialog& dialog, const QString& qualifiedName)
    {
        auto* tree = qobject_cast<ui::MissionTreeModel*>(dialog.choiceModel()->sourceModel());
        const QModelIndex shown = dialog.filterModel()->mapFromSource(
            dialog.choiceModel()->mapFromSource(tree->indexOf(qualifiedName)));
        QVERIFY2(shown.isValid(), qPrintable(qualifiedName));
        dialog.parameterView()->setFocus();
        dialog.parameterView()->setCurrentIndex(shown);
        QTest::keyClick(dialog.parameterView(), Qt::Key_Space);
    }

    static void setOutput(ui::RecordingExportDialog& dialog, const QString& output)
    {
        dialog.outputEdit()->selectAll();
        QTest::keyClicks(dialog.outputEdit(), output);
    }

    [[nodiscard]] static std::unique_ptr<ui::StationSession> session(const QTemporaryDir& dir)
    {
        config::StationProfile profile;
        profile.recordingDirectory = QDir(dir.path()).filePath(QStringLiteral("unused")).toStdString();
        return test::openSession(profile);
    }

private Q_SLOTS:
    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true);
        QVERIFY(m_dir.isValid());
        m_recording = path(QStringLiteral("rec"));
        const auto& p5 = packetDef("Packet5");
        const auto& hk = packetDef("HK_Status");
        const sim::PacketFactory p5Factory(p5);
        const sim::PacketFactory hkFactory(hk);
        const std::size_t opsMode = parameterIndex(p5, "OPS_MODE");
        const std::size_t flow = parameterIndex(p5, "COOLANT_FLOW_RATE");
        const std::size_t voltage = parameterIndex(hk, "BUS_VOLTAGE");
        const std::size_t hkMode = parameterIndex(hk, "OPS_MODE");
        {
            auto catalog = record::RecordingCatalog::open(m_recording.toStdString());
            QVERIFY(catalog.ok());
            auto tm = record::StreamRecorder::create(**catalog, "tm", 1, 256 * 1024);
            auto hkRecorder = record::StreamRecorder::create(**catalog, "hk", 2, 1 << 20);
            QVERIFY(tm.ok() && hkRecorder.ok());
            std::vector<std::uint8_t> bytes(p5Factory.packetSize());
            std::vector<std::uint8_t> hkBytes(hkFactory.packetSize());
            for (int i = 0; i < kTimes; ++i) {
                const auto seq = static_cast<std::uint16_t>(i);
                p5Factory.build(bytes, seq, timeOf(i));
                p5Factory.setRaw(bytes, opsMode, static_cast<std::uint64_t>(i % 16));
                p5Factory.setRaw(bytes, flow, static_cast<std::uint64_t>(400 + i % 3000));
                QVERIFY((*tm)->record(record::RecordMeta{timeOf(i), 1, p5.apid, false}, bytes));
                hkFactory.build(hkBytes, seq, timeOf(i));
                hkFactory.setRaw(hkBytes, voltage, static_cast<std::uint64_t>(27000 + i));
                hkFactory.setRaw(hkBytes, hkMode, static_cast<std::uint64_t>(3));
                QVERIFY((*hkRecorder)->record(record::RecordMeta{timeOf(i), 2, hk.apid, false}, hkBytes));
            }
            QVERIFY((*tm)->close().ok());
            QVERIFY((*hkRecorder)->close().ok());
        }
        m_segments = ui::RecordingsModel::listRecording(m_recording, false).segments; // as the browser lists them
        for (const auto& s : m_segments)
            if (s.streamName == "tm")
                m_tmSegments.push_back(s.file);
        QVERIFY2(m_tmSegments.size() >= 4, "256 KiB segments: expected several");
    }

    // Long: the same text as the tool, counts and a summary; nothing but the file is left beside it.
    void longExportEqualsTheTool()
    {
        const QString folder = path(QStringLiteral("long"));
        QVERIFY(QDir().mkpath(folder));
        std::vector<std::string> parameters{"Packet5.OPS_MODE", "Packet5.COOLANT_FLOW_RATE"};
        for (const auto& name : allParameters("HK_Status"))
            parameters.push_back(name);
        const QString output = QDir(folder).filePath(QStringLiteral("export.csv"));
        const RecordingExportResult r = exportNow(request(parameters, output));
        QVERIFY2(r.outcome == Outcome::Written, qPrintable(r.error));
        QCOMPARE(r.outputPath, output);
        QCOMPARE(r.packetsRead, std::uint64_t{2 * kTimes});
        QCOMPARE(r.packetsWritten, std::uint64_t{2 * kTimes});
        QCOMPARE(r.valuesWritten, std::uint64_t{kTimes} * parameters.size());
        QCOMPARE(r.unknownPackets, std::uint64_t{0});
        QCOMPARE(r.malformedPackets, std::uint64_t{0});
        QVERIFY(r.complete);
        QVERIFY2(r.summary.contains(QStringLiteral("(recording): 3000 packets: 3000 decoded, 0 unknown, 0 malformed")),
                 qPrintable(r.summary));
        QCOMPARE(entries(folder), QStringList{QStringLiteral("export.csv")}); // the temporary file was renamed

        const QString expected = path(QStringLiteral("long-tool.csv"));
        QCOMPARE(runTool(m_recording, parameters, expected), 0);
        const QByteArray text = readFile(output);
        QCOMPARE(lines(text).size(), 1 + kTimes * static_cast<int>(parameters.size()));
        QVERIFY(text == readFile(expected));
        QCOMPARE(lines(text).first(), QStringLiteral("packet_index,time,packet,parameter,raw,converted,calibrated,limit"));
        QVERIFY2(ui::RecordingExportProgress::resultText(r).startsWith(
                     QStringLiteral("Exported 3,000 packets, 22,500 values to %1.").arg(output)),
                 qPrintable(ui::RecordingExportProgress::resultText(r)));
    }

    // Wide: one row per time (the two streams' packets of an instant share it), the chosen columns.
    void wideExportHasOneRowPerTime()
    {
        const std::vector<std::string> parameters{"HK_Status.BUS_VOLTAGE", "Packet5.OPS_MODE"};
        RecordingExportRequest r = request(parameters, path(QStringLiteral("wide.csv")));
        r.format = archive::OutputFormat::AlignedCsv;
        const RecordingExportResult result = exportNow(r);
        QVERIFY2(result.outcome == Outcome::Written, qPrintable(result.error));
        const QStringList rows = lines(readFile(r.outputPath));
        QCOMPARE(rows.first(), QStringLiteral("time,Packet5.OPS_MODE,HK_Status.BUS_VOLTAGE"));
        QCOMPARE(rows.size(), 1 + kTimes);
        for (int i = 0; i < kTimes; ++i) {
            const QStringList cells = rows[1 + i].split(QLatin1Char(','));
            QCOMPARE(cells.size(), 3);
            QCOMPARE(cells[0], iso(timeOf(i)));
            QVERIFY2(!cells[1].isEmpty() && !cells[2].isEmpty(), qPrintable(rows[1 + i]));
        }
        const QString expected = path(QStringLiteral("wide-tool.csv"));
        QCOMPARE(runTool(m_recording, parameters, expected, {QStringLiteral("--aligned")}), 0);
        QVERIFY(readFile(r.outputPath) == readFile(expected));
    }

    // A time range gives the tool's rows for --from/--to, exactly those times; a segment selection
    // gives exactly the records of those segments.
    void rangeAndSegmentsRestrictRows()
    {
        const std::vector<std::string> parameters{"Packet5.OPS_MODE", "HK_Status.BUS_VOLTAGE"};
        RecordingExportRequest ranged = request(parameters, path(QStringLiteral("range.csv")));
        ranged.fromNs = timeOf(200);
        ranged.toNs = timeOf(449); // inclusive
        const RecordingExportResult r = exportNow(ranged);
        QVERIFY2(r.outcome == Outcome::Written, qPrintable(r.error));
        QCOMPARE(r.packetsWritten, std::uint64_t{2 * 250});
        const QString expected = path(QStringLiteral("range-tool.csv"));
        QCOMPARE(runTool(m_recording, parameters, expected,
                         {QStringLiteral("--from"), QString::number(ranged.fromNs), QStringLiteral("--to"),
                          QString::number(ranged.toNs)}),
                 0);
        QVERIFY(readFile(ranged.outputPath) == readFile(expected));
        QStringList times;
        for (int i = 200; i <= 449; ++i)
            times << iso(timeOf(i)) << iso(timeOf(i)); // a row of each stream
        QCOMPARE(timesOf(lines(readFile(ranged.outputPath)).mid(1), 1), times);

        // Two "tm" segments: their Packet5 records and nothing of "hk".
        std::vector<record::SegmentInfo> chosen;
        for (const auto& s : m_segments)
            if (s.file == m_tmSegments[1] || s.file == m_tmSegments[2])
                chosen.push_back(s);
        QCOMPARE(chosen.size(), std::size_t{2});
        RecordingExportRequest bySegment = request(parameters, path(QStringLiteral("segments.csv")));
        bySegment.segments = {chosen[0].file, chosen[1].file};
        const RecordingExportResult s = exportNow(bySegment);
        QVERIFY2(s.outcome == Outcome::Written, qPrintable(s.error));
        QCOMPARE(s.packetsRead, chosen[0].packets + chosen[1].packets);
        QCOMPARE(s.packetsWritten, s.packetsRead);
        times.clear();
        for (int i = 0; i < kTimes; ++i)
            if (timeOf(i) >= chosen[0].firstTimeNs && timeOf(i) <= chosen[1].lastTimeNs)
                times << iso(timeOf(i));
        QCOMPARE(static_cast<std::uint64_t>(times.size()), s.packetsRead);
        const QStringList rows = lines(readFile(bySegment.outputPath)).mid(1);
        QCOMPARE(timesOf(rows, 1), times);
        for (const QString& row : rows)
            QVERIFY2(row.section(QLatin1Char(','), 2, 3) == QStringLiteral("Packet5,OPS_MODE"), qPrintable(row));
    }

    // Cancel (from the first progress signal, in the worker: deterministic) leaves no file, and a
    // file already there as it was; nothing else is left in the folder.
    void cancelLeavesNoFile()
    {
        const QString folder = path(QStringLiteral("cancel"));
        QVERIFY(QDir().mkpath(folder));
        const QString fresh = QDir(folder).filePath(QStringLiteral("fresh.csv"));
        const QString existing = QDir(folder).filePath(QStringLiteral("existing.csv"));
        {
            QFile f(existing);
            QVERIFY(f.open(QIODevice::WriteOnly));
            f.write("old\n");
        }
        for (const QString& output : {fresh, existing}) {
            RecordingExport job;
            std::atomic<int> progressSignals{0};
            connect(&job, &RecordingExport::progress, &job, [&](double, quint64) {
                ++progressSignals;
                job.cancel();
            }, Qt::DirectConnection);
            QSignalSpy finished(&job, &RecordingExport::finished);
            QString error;
            QVERIFY2(job.start(request(allParameters("Packet5"), output), test::trainingDatabase(), &error),
                     qPrintable(error));
            QVERIFY(job.isRunning());
            QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 1, kTimeout);
            QVERIFY(!job.isRunning());
            const RecordingExportResult& r = job.result();
            QVERIFY2(r.outcome == Outcome::Cancelled, qPrintable(r.error));
            QCOMPARE(progressSignals.load(), 1);
            QCOMPARE(r.packetsRead, std::uint64_t{1024}); // the first progress comes at 1024; the read ends at the next
            QVERIFY(ui::RecordingExportProgress::resultText(r).contains(QStringLiteral("partial output was removed")));
        }
        QVERIFY(!QFileInfo::exists(fresh));
        QCOMPARE(readFile(existing), QByteArray("old\n"));
        QCOMPARE(entries(folder), QStringList{QStringLiteral("existing.csv")});
    }

    // A file that cannot be created; a write that fails midway (a file size limit for a full disk):
    // the reason, no file, and the read stopped early. Inputs are refused before anything starts.
    void writeFailuresAndInputs()
    {
        const QString plain = path(QStringLiteral("plain-file"));
        {
            QFile f(plain);
            QVERIFY(f.open(QIODevice::WriteOnly));
        }
        const QString impossible = QDir(plain).filePath(QStringLiteral("out.csv")); // "a folder" that is a file
        const RecordingExportResult cannot = exportNow(request({"Packet5.OPS_MODE"}, impossible));
        QCOMPARE(cannot.outcome, Outcome::Failed);
        QVERIFY2(cannot.error.startsWith(QStringLiteral("cannot create %1: ").arg(impossible)), qPrintable(cannot.error));
        QVERIFY2(ui::RecordingExportProgress::resultText(cannot).startsWith(QStringLiteral("Export failed: cannot create")),
                 qPrintable(ui::RecordingExportProgress::resultText(cannot)));

        const QString folder = path(QStringLiteral("full"));
        QVERIFY(QDir().mkpath(folder));
        const QString output = QDir(folder).filePath(QStringLiteral("big.csv"));
        rlimit before{};
        QCOMPARE(::getrlimit(RLIMIT_FSIZE, &before), 0);
        rlimit small = before;
        small.rlim_cur = 1 << 20; // 1 MiB; the export would write far more
        const auto previous = std::signal(SIGXFSZ, SIG_IGN); // EFBIG instead of the signal
        QCOMPARE(::setrlimit(RLIMIT_FSIZE, &small), 0);
        RecordingExportResult full = exportNow(request(allParameters("Packet5"), output));
        QCOMPARE(::setrlimit(RLIMIT_FSIZE, &before), 0);
        std::signal(SIGXFSZ, previous);
        QCOMPARE(full.outcome, Outcome::Failed);
        QVERIFY2(full.error.contains(QString::fromLocal8Bit(std::strerror(EFBIG))), qPrintable(full.error));
        QVERIFY2(full.error.startsWith(output + QStringLiteral(": cannot write")), qPrintable(full.error));
        QVERIFY2(full.packetsRead < 2 * kTimes, qPrintable(QString::number(full.packetsRead))); // stopped early
        QVERIFY(entries(folder).isEmpty());

        RecordingExport job;
        QString error;
        const QString segment = QDir(m_recording).filePath(QString::fromStdString(m_tmSegments[0]));
        const QByteArray segmentBytes = readFile(segment);
        for (const auto& [input, reason] :
             {std::pair{segment, QStringLiteral("is a file of the recording")},
              std::pair{QDir(m_recording).filePath(QStringLiteral("catalog.sqlite")),
                        QStringLiteral("is a file of the recording")},
              std::pair{QString::fromStdString(test::trainingDatabasePath()), QStringLiteral("is the mission database")},
              std::pair{m_recording, QStringLiteral("is a folder")}}) {
            QVERIFY(!job.start(request({"Packet5.OPS_MODE"}, input), test::trainingDatabase(), &error));
            QVERIFY2(error.contains(reason), qPrintable(error));
            QVERIFY(!job.isRunning());
        }
        QVERIFY(readFile(segment) == segmentBytes);
        QVERIFY(!job.start(request({}, path(QStringLiteral("none.csv"))), test::trainingDatabase(), &error));
        QCOMPARE(error, QStringLiteral("No parameter chosen."));
        QVERIFY(!job.start(request({"Packet5.NOPE"}, path(QStringLiteral("none.csv"))), test::trainingDatabase(), &error));
        QVERIFY2(error.contains(QStringLiteral("has no parameter 'NOPE'")), qPrintable(error));
        QVERIFY(!job.start(request({"Packet5.OPS_MODE"}, QStringLiteral("relative.csv")), test::trainingDatabase(), &error));
        QVERIFY2(error.contains(QStringLiteral("full path")), qPrintable(error));
        QVERIFY(!QFileInfo::exists(path(QStringLiteral("none.csv"))));
    }

    // The dialog says why OK is refused and stays open: no parameter, a backwards range, a relative
    // path, an input; with a parameter and a file it is accepted.
    void dialogRefusesAnEmptyChoice()
    {
        auto s = session(m_dir);
        ui::RecordingsBrowser browser(*s);
        QVERIFY(!browser.exportButton()->isEnabled()); // no rows yet
        showBrowser(browser);
        QVERIFY(browser.exportButton()->isEnabled());
        ui::RecordingExportDialog* dialog = openDialog(browser);
        QVERIFY(dialog);
        QVERIFY(dialog->shownProblem().isEmpty()); // nothing in red before OK is pressed
        QCOMPARE(dialog->findChild<QLabel*>(QStringLiteral("chosenLabel"))->text(), QStringLiteral("No parameter chosen"));
        QVERIFY2(dialog->findChild<QLabel*>(QStringLiteral("segmentsLabel"))->text().startsWith(
                     QStringLiteral("All %1 segments of %2, 3,000 packets").arg(m_segments.size()).arg(m_recording)),
                 qPrintable(dialog->findChild<QLabel*>(QStringLiteral("segmentsLabel"))->text()));

        QTest::mouseClick(dialog->okButton(), Qt::LeftButton);
        QVERIFY(dialog->isVisible());
        QVERIFY2(dialog->shownProblem().startsWith(QStringLiteral("Choose at least one parameter")),
                 qPrintable(dialog->shownProblem()));
        toggle(*dialog, QStringLiteral("HK_Status.BUS_VOLTAGE"));
        QCOMPARE(dialog->choiceModel()->chosen(), QStringList{QStringLiteral("HK_Status.BUS_VOLTAGE")});
        QCOMPARE(dialog->findChild<QLabel*>(QStringLiteral("chosenLabel"))->text(), QStringLiteral("1 parameter chosen"));

        // The range: offered as the segments' span, off; backwards is refused.
        QVERIFY(!dialog->fromEdit()->isEnabled());
        QCOMPARE(dialog->fromEdit()->dateTime().toMSecsSinceEpoch(), kT0 / 1'000'000);
        QCOMPARE(dialog->toEdit()->dateTime().toMSecsSinceEpoch(), timeOf(kTimes - 1) / 1'000'000);
        QTest::mouseClick(dialog->rangeCheck(), Qt::LeftButton);
        dialog->fromEdit()->setDateTime(dialog->toEdit()->dateTime().addMSecs(1));
        QCOMPARE(dialog->shownProblem(), QStringLiteral("The time range ends before it starts."));
        QTest::mouseClick(dialog->rangeCheck(), Qt::LeftButton);

        setOutput(*dialog, QStringLiteral("relative.csv"));
        QVERIFY2(dialog->shownProblem().contains(QStringLiteral("full path")), qPrintable(dialog->shownProblem()));
        setOutput(*dialog, QDir(m_recording).filePath(QString::fromStdString(m_tmSegments[0])));
        QVERIFY2(dialog->shownProblem().contains(QStringLiteral("is a file of the recording")),
                 qPrintable(dialog->shownProblem()));
        setOutput(*dialog, path(QStringLiteral("no-such-folder/x.csv")));
        QVERIFY2(dialog->shownProblem().contains(QStringLiteral("does not exist")), qPrintable(dialog->shownProblem()));
        QTest::mouseClick(dialog->okButton(), Qt::LeftButton);
        QVERIFY(dialog->isVisible());

        // Unchecked again: refused again.
        toggle(*dialog, QStringLiteral("HK_Status.BUS_VOLTAGE"));
        setOutput(*dialog, path(QStringLiteral("dialog.csv")));
        QVERIFY2(dialog->shownProblem().startsWith(QStringLiteral("Choose at least one parameter")),
                 qPrintable(dialog->shownProblem()));
        QTest::mouseClick(dialog->okButton(), Qt::LeftButton);
        QVERIFY(dialog->isVisible());
        QVERIFY(!browser.exportProgress()->isRunning());
        QVERIFY(!QFileInfo::exists(path(QStringLiteral("dialog.csv"))));
        dialog->reject();
        QTRY_VERIFY(!browser.exportDialog());

        // The browser's range, when it is on, is the dialog's.
        QTest::mouseClick(browser.rangeCheck(), Qt::LeftButton);
        browser.fromEdit()->setDateTime(QDateTime::fromMSecsSinceEpoch(timeOf(100) / 1'000'000, Qt::UTC));
        browser.toEdit()->setDateTime(QDateTime::fromMSecsSinceEpoch(timeOf(200) / 1'000'000, Qt::UTC));
        dialog = openDialog(browser);
        QVERIFY(dialog);
        QVERIFY(dialog->rangeCheck()->isChecked() && dialog->fromEdit()->isEnabled());
        QCOMPARE(dialog->request().fromNs, timeOf(100));
        QCOMPARE(dialog->request().toNs, timeOf(200));
        dialog->reject();
        QTRY_VERIFY(!browser.exportDialog());
    }

    // Segments selected in the browser, parameters chosen with the filter, a box and "Check shown",
    // Wide, a file: the export runs, the outcome is shown and emitted; Export… offers the same again.
    void dialogExportsThroughItsWidgets()
    {
        auto s = session(m_dir);
        ui::RecordingsBrowser browser(*s);
        showBrowser(browser);
        QSignalSpy finished(&browser, &ui::RecordingsBrowser::exportFinished);
        std::vector<int> rows;
        for (int r = 0; r < browser.model()->rowCount(); ++r) {
            const std::string file = browser.model()->segment(r).file;
            if (file == m_tmSegments[1] || file == m_tmSegments[2])
                rows.push_back(r);
        }
        QCOMPARE(rows.size(), std::size_t{2});
        browser.view()->selectionModel()->select(browser.model()->index(rows[0], 0),
                                                 QItemSelectionModel::Select | QItemSelectionModel::Rows);
        browser.view()->selectionModel()->select(browser.model()->index(rows[1], 0),
                                                 QItemSelectionModel::Select | QItemSelectionModel::Rows);
        ui::RecordingExportDialog* dialog = openDialog(browser);
        QVERIFY(dialog);
        QVERIFY2(dialog->findChild<QLabel*>(QStringLiteral("segmentsLabel"))->text().startsWith(
                     QStringLiteral("2 selected segments of ")),
                 qPrintable(dialog->findChild<QLabel*>(QStringLiteral("segmentsLabel"))->text()));

        QTest::keyClicks(dialog->filterEdit(), QStringLiteral("bus_volt"));
        QCOMPARE(dialog->filterModel()->rowCount(), 1); // HK_Status alone
        toggle(*dialog, QStringLiteral("HK_Status.BUS_VOLTAGE"));
        dialog->filterEdit()->clear();
        QTest::keyClicks(dialog->filterEdit(), QStringLiteral("OPS_MODE"));
        QTest::mouseClick(dialog->checkShownButton(), Qt::LeftButton); // Packet5's and HK_Status's
        dialog->filterEdit()->clear();
        QCOMPARE(dialog->choiceModel()->chosen(),
                 (QStringList{QStringLiteral("Packet5.OPS_MODE"), QStringLiteral("HK_Status.BUS_VOLTAGE"),
                              QStringLiteral("HK_Status.OPS_MODE")}));
        // A packet's box: partly checked; checked, it stands for all of its parameters.
        auto* choice = dialog->choiceModel();
        const auto* tree = qobject_cast<ui::MissionTreeModel*>(choice->sourceModel());
        const QModelIndex hk = choice->mapFromSource(tree->indexOf(QStringLiteral("HK_Status")));
        QCOMPARE(hk.data(Qt::CheckStateRole).toInt(), static_cast<int>(Qt::PartiallyChecked));
        toggle(*dialog, QStringLiteral("HK_Status"));
        QCOMPARE(hk.data(Qt::CheckStateRole).toInt(), static_cast<int>(Qt::Checked));
        QCOMPARE(choice->chosenCount(), 1 + static_cast<int>(allParameters("HK_Status").size()));
        toggle(*dialog, QStringLiteral("HK_Status"));
        QCOMPARE(hk.data(Qt::CheckStateRole).toInt(), static_cast<int>(Qt::Unchecked));
        toggle(*dialog, QStringLiteral("HK_Status.BUS_VOLTAGE"));
        toggle(*dialog, QStringLiteral("HK_Status.OPS_MODE"));
        QCOMPARE(choice->chosenCount(), 3);

        QTest::mouseClick(dialog->wideButton(), Qt::LeftButton);
        const QString output = path(QStringLiteral("through-widgets.csv"));
        setOutput(*dialog, output);
        const RecordingExportRequest asked = dialog->request();
        QCOMPARE(asked.segments, (std::vector<std::string>{m_tmSegments[1], m_tmSegments[2]}));
        QCOMPARE(asked.fromNs, std::int64_t{0});
        QTest::mouseClick(dialog->okButton(), Qt::LeftButton);
        QTRY_VERIFY(!browser.exportDialog());
        QVERIFY(browser.exportProgress()->isVisible());
        QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 1, kTimeout);
        const QString message = finished.at(0).at(0).toString();
        QVERIFY2(message.startsWith(QStringLiteral("Exported ")) && message.contains(output), qPrintable(message));
        QCOMPARE(browser.exportProgress()->message(), message);
        QVERIFY(browser.exportProgress()->detailsButton()->isVisible());
        QVERIFY(browser.exportButton()->isEnabled());
        const QStringList written = lines(readFile(output));
        QCOMPARE(written.first(), QStringLiteral("time,Packet5.OPS_MODE,HK_Status.BUS_VOLTAGE,HK_Status.OPS_MODE"));
        std::uint64_t packets = 0;
        for (const auto& seg : m_segments)
            if (seg.file == m_tmSegments[1] || seg.file == m_tmSegments[2])
                packets += seg.packets;
        QCOMPARE(static_cast<std::uint64_t>(written.size() - 1), packets); // one row per time
        for (const QString& row : written.mid(1))
            QVERIFY2(row.endsWith(QStringLiteral(",,")), qPrintable(row)); // no hk segment selected

        // Export… again: the same parameters, layout and file.
        dialog = openDialog(browser);
        QVERIFY(dialog);
        QCOMPARE(dialog->choiceModel()->chosenCount(), 3);
        QVERIFY(dialog->wideButton()->isChecked());
        QCOMPARE(dialog->outputEdit()->text(), output);
        QVERIFY2(dialog->findChild<QLabel*>(QStringLiteral("outputNote"))->text().contains(QStringLiteral("replaced")),
                 qPrintable(dialog->findChild<QLabel*>(QStringLiteral("outputNote"))->text()));
        dialog->reject();
        QTRY_VERIFY(!browser.exportDialog());
    }

    // Cancel clicked while the export runs: the worker is held at its first progress signal until the
    // click, so the GUI is seen to show progress meanwhile; then no file and the reason.
    void cancelThroughTheBrowser()
    {
        QSemaphore clicked; // outlives the browser, whose worker may still look at it
        std::atomic<bool> held{false};
        auto s = session(m_dir);
        ui::RecordingsBrowser browser(*s);
        // Whatever happens below, the worker is let go before the browser waits for it.
        const std::unique_ptr<QSemaphore, void (*)(QSemaphore*)> letGo(&clicked, [](QSemaphore* c) { c->release(); });
        showBrowser(browser);
        QSignalSpy finished(&browser, &ui::RecordingsBrowser::exportFinished);
        RecordingExport* job = browser.exportProgress()->exporter();
        connect(job, &RecordingExport::progress, job, [&](double, quint64) {
            if (!held.exchange(true))
                clicked.tryAcquire(1, kTimeout); // the worker waits here for the click
        }, Qt::DirectConnection);

        ui::RecordingExportDialog* dialog = openDialog(browser);
        QVERIFY(dialog);
        toggle(*dialog, QStringLiteral("Packet5"));
        const QString output = path(QStringLiteral("cancelled.csv"));
        setOutput(*dialog, output);
        QTest::mouseClick(dialog->okButton(), Qt::LeftButton);
        QTRY_VERIFY(!browser.exportDialog());
        QVERIFY(browser.exportProgress()->isRunning());
        QVERIFY(!browser.exportButton()->isEnabled()); // one at a time
        QTRY_VERIFY_WITH_TIMEOUT(held.load(), kTimeout);
        // The GUI thread runs meanwhile: the progress the worker sent is shown.
        QTRY_VERIFY(browser.exportProgress()->bar()->value() > 0);
        auto* packets = browser.exportProgress()->findChild<QLabel*>(QStringLiteral("exportPackets"));
        QTRY_COMPARE(packets->text(), QStringLiteral("1,024 packets"));
        QVERIFY(browser.exportProgress()->cancelButton()->isVisible());
        // Meanwhile the output goes to a temporary file (unnamed on Linux), never to the target itself.
        QVERIFY(!QFileInfo::exists(output));
        QTest::mouseClick(browser.exportProgress()->cancelButton(), Qt::LeftButton);
        clicked.release();
        QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 1, kTimeout);
        const QString message = finished.at(0).at(0).toString();
        QCOMPARE(message, QStringLiteral("Export cancelled after 1,024 packets: the partial output was removed, "
                                         "nothing was written to %1.").arg(output));
        QVERIFY(!QFileInfo::exists(output));
        for (const QString& name : entries(m_dir.path()))
            QVERIFY2(!name.startsWith(QStringLiteral("cancelled.csv")), qPrintable(name)); // no temporary file
        QVERIFY(!browser.exportProgress()->cancelButton()->isVisible());
        QVERIFY(browser.exportButton()->isEnabled());
    }
};

QTEST_MAIN(TestRecordingExport)
#include "tst_ui_recording_export.moc"
