// Runs the built telestation-mdb on files in a temporary directory: import/export round trips, that a
// failed import writes nothing, diagnostics as file:line:col, exit codes 0/1/2.
#include "core/mdb/sqlite_store.hpp"
#include "core/mdb/summary.hpp"
#include "core/mdb/text_format.hpp"
#include "core/xtce/xtce_import.hpp"
#include "tests/support/test_paths.hpp"
#include "telestation_version.hpp"

#include <QtTest>

#include <random>
#include <string>

using namespace telestation;
using namespace telestation::mdb;

namespace {

const QString kTool = test::binDir() + QStringLiteral("/telestation-mdb");

// Uses every statement of the language: both byte orders, a variable length, secondary ids, a CUC
// header, every calibrator and both kinds of limits.
const QByteArray kValidText = R"(# A small mission for the command-line tests
MISSION "CLI test"

PACKET HK APID 100 LENGTH 32
  DESCRIPTION "Housekeeping"
  SECONDARY_HEADER CUC 4 2 EPOCH GPS
  PARAMETER MODE 96 8 UINT
    DESCRIPTION "Operating mode"
    STATE "SAFE" 0
    STATE "NOMINAL" 1 3
    EXPECTED "NOMINAL"
  PARAMETER TEMP 104 16 INT LITTLE_ENDIAN
    UNITS "degC"
    POLY -40 0.125
    LIMITS -30 -10 50 70
  PARAMETER VOLTS 120 32 FLOAT
    UNITS "V"
    POINT 0 0
    POINT 10 5.5
    LIMITS -1 0 6 7 DISABLED
  PARAMETER NAME 152 64 STRING

PACKET DIAG_A APID 600 LENGTH 24 LITTLE_ENDIAN
  SECONDARY_ID 48 8 1
  PARAMETER VALUE 56 16 UINT

PACKET DIAG_B APID 600 LENGTH VARIABLE 16 64
  SECONDARY_ID 48 8 2
  PARAMETER CODE 56 8 UINT
)";

// A syntax error on line 4 (an unknown data type).
const QByteArray kSyntaxError = "MISSION \"bad\"\n"
                                "PACKET HK APID 100 LENGTH 32\n"
                                "  PARAMETER A 96 8 UINT\n"
                                "  PARAMETER B 104 8 WIDGET\n";

// Parses, but fails validation: the second packet reuses the first one's name (line 3).
const QByteArray kValidationError = "PACKET HK APID 100 LENGTH 32\n"
                                    "  PARAMETER A 96 8 UINT\n"
                                    "PACKET HK APID 101 LENGTH 32\n"
                                    "  PARAMETER B 96 8 UINT\n";

struct Run {
    int exitCode = -1;
    QByteArray out;
    QByteArray err;
};

Run runTool(const QStringList& arguments, const QString& workingDirectory = QString())
{
    QProcess process;
    process.setProgram(kTool);
    process.setArguments(arguments);
    if (!workingDirectory.isEmpty())
        process.setWorkingDirectory(workingDirectory);
    process.start();
    Run run;
    if (!process.waitForFinished(60000)) {
        process.kill();
        process.waitForFinished();
        return run;
    }
    run.out = process.readAllStandardOutput();
    run.err = process.readAllStandardError();
    run.exitCode = process.exitStatus() == QProcess::NormalExit ? process.exitCode() : -1;
    return run;
}

QByteArray readBytes(const QString& path)
{
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
}

bool writeBytes(const QString& path, const QByteArray& bytes)
{
    QFile f(path);
    return f.open(QIODevice::WriteOnly | QIODevice::Truncate) && f.write(bytes) == bytes.size();
}

} // namespace

class TestMdbCli : public QObject {
    Q_OBJECT

private:
    QTemporaryDir m_dir;

    QString path(const QString& name) const { return m_dir.filePath(name); }

    // A valid OUT.mdb made by the tool, for the tests that need one.
    QString importValid(const QString& name)
    {
        const QString in = path(name + QStringLiteral(".tdef"));
        const QString out = path(name + QStringLiteral(".mdb"));
        if (!writeBytes(in, kValidText))
            return {};
        const Run run = runTool({ QStringLiteral("import"), in, out });
        return run.exitCode == 0 ? out : QString();
    }

private slots:
    void initTestCase()
    {
        QVERIFY(m_dir.isValid());
        QVERIFY2(QFileInfo(kTool).isExecutable(), qPrintable(kTool));
        // The test's own text must be valid, or the tests below would prove nothing.
        const ImportResult parsed = parseText(kValidText.toStdString(), "valid.tdef");
        QVERIFY(parsed.ok());
        QVERIFY(parsed.diagnostics.empty());
        QCOMPARE(parsed.database.packets.size(), std::size_t { 3 });
    }

    void versionAndHelp()
    {
        Run run = runTool({ QStringLiteral("--version") });
        QCOMPARE(run.exitCode, 0);
        QVERIFY2(run.out.contains(QByteArray("telestation-mdb ") + kVersion), run.out.constData());
        QVERIFY(run.err.isEmpty());

        for (const QString& option : { QStringLiteral("--help"), QStringLiteral("-h") }) {
            run = runTool({ option });
            QCOMPARE(run.exitCode, 0);
            for (const char* command : { "import", "export", "check", "summary" })
                QVERIFY2(run.out.contains(command), command);
            QVERIFY(run.err.isEmpty());
        }
    }

    void wrongArguments_data()
    {
        QTest::addColumn<QStringList>("arguments");
        QTest::newRow("nothing") << QStringList {};
        QTest::newRow("unknown command") << QStringList { "frobnicate" };
        QTest::newRow("unknown option") << QStringList { "--bogus" };
        QTest::newRow("import without output") << QStringList { "import", "in.tdef" };
        QTest::newRow("import with three files") << QStringList { "import", "in.tdef", "out.mdb", "more.mdb" };
        QTest::newRow("import to standard output") << QStringList { "import", "in.tdef", "-" };
        QTest::newRow("import from standard input") << QStringList { "import", "-", "out.mdb" };
        QTest::newRow("export without output") << QStringList { "export", "in.mdb" };
        QTest::newRow("check without file") << QStringList { "check" };
        QTest::newRow("check with an option") << QStringList { "check", "--strict", "in.tdef" };
        QTest::newRow("summary with two files") << QStringList { "summary", "a.mdb", "b.mdb" };
        QTest::newRow("version with an argument") << QStringList { "--version", "x" };
        QTest::newRow("empty file name") << QStringList { "check", "" };
        QTest::newRow("export is never lenient") << QStringList { "export", "in.mdb", "out.tdef", "--lenient" };
        QTest::newRow("lenient import without output") << QStringList { "import", "in.xml", "--lenient" };
    }
    void wrongArguments()
    {
        QFETCH(QStringList, arguments);
        const QString work = path(QStringLiteral("usage-%1").arg(QTest::currentDataTag()));
        QVERIFY(QDir().mkpath(work));
        QVERIFY(writeBytes(work + QStringLiteral("/in.tdef"), kValidText));
        const Run run = runTool(arguments, work);
        QCOMPARE(run.exitCode, 2);
        QVERIFY(run.out.isEmpty());
        QVERIFY2(run.err.startsWith("telestation-mdb: "), run.err.constData());
        QCOMPARE(run.err.count('\n'), 1); // one line
        QVERIFY(run.err.endsWith('\n'));
        // Nothing was written.
        QCOMPARE(QDir(work).entryList(QDir::Files), QStringList { QStringLiteral("in.tdef") });
    }

    void importThenExportEqualsWriteText()
    {
        const QString in = path(QStringLiteral("roundtrip.tdef"));
        const QString out = path(QStringLiteral("roundtrip.mdb"));
        QVERIFY(writeBytes(in, kValidText));
        Run run = runTool({ QStringLiteral("import"), in, out });
        QCOMPARE(run.exitCode, 0);
        QVERIFY2(run.err.isEmpty(), run.err.constData());

        const ImportResult parsed = parseText(kValidText.toStdString(), in.toStdString());
        QVERIFY(parsed.ok());
        const auto loaded = loadDatabase(out.toStdString());
        QVERIFY2(loaded.ok(), loaded.ok() ? "" : loaded.error().toString().c_str());
        QVERIFY(*loaded == parsed.database);
        QCOMPARE(*schemaVersion(out.toStdString()), kSchemaVersion);

        const QByteArray canonical = QByteArray::fromStdString(writeText(parsed.database));
        const QString exported = path(QStringLiteral("roundtrip-export.tdef"));
        run = runTool({ QStringLiteral("export"), out, exported });
        QCOMPARE(run.exitCode, 0);
        QCOMPARE(readBytes(exported), canonical);

        run = runTool({ QStringLiteral("export"), out, QStringLiteral("-") });
        QCOMPARE(run.exitCode, 0);
        QCOMPARE(run.out, canonical);

        // The export imports back to the same database.
        const QString again = path(QStringLiteral("roundtrip-again.mdb"));
        QCOMPARE(runTool({ QStringLiteral("import"), exported, again }).exitCode, 0);
        const auto reloaded = loadDatabase(again.toStdString());
        QVERIFY(reloaded.ok());
        QVERIFY(*reloaded == parsed.database);
    }

    void importReplacesExistingDatabase()
    {
        const QString out = importValid(QStringLiteral("replace"));
        QVERIFY(!out.isEmpty());
        const QString in = path(QStringLiteral("replace-small.tdef"));
        QVERIFY(writeBytes(in, "MISSION \"small\"\nPACKET ONLY APID 5 LENGTH 8\n  PARAMETER X 48 8 UINT\n"));
        const Run run = runTool({ QStringLiteral("import"), in, out });
        QCOMPARE(run.exitCode, 0);
        const auto loaded = loadDatabase(out.toStdString());
        QVERIFY(loaded.ok());
        QCOMPARE(loaded->name, std::string("small"));
        QCOMPARE(loaded->packets.size(), std::size_t { 1 });
    }

    void failedImportWritesNothing_data()
    {
        QTest::addColumn<QByteArray>("text");
        QTest::addColumn<int>("line");
        QTest::newRow("syntax error") << kSyntaxError << 4;
        QTest::newRow("validation error") << kValidationError << 3;
    }
    void failedImportWritesNothing()
    {
        QFETCH(QByteArray, text);
        QFETCH(int, line);
        const QString out = importValid(QStringLiteral("keep-%1").arg(line));
        QVERIFY(!out.isEmpty());
        const QByteArray before = readBytes(out);

        const QString in = path(QStringLiteral("broken-%1.tdef").arg(line));
        QVERIFY(writeBytes(in, text));
        Run run = runTool({ QStringLiteral("import"), in, out });
        QCOMPARE(run.exitCode, 1);
        QCOMPARE(readBytes(out), before);
        QVERIFY(!QFile::exists(out + QStringLiteral("-journal")));
        const QRegularExpression located(
            QRegularExpression::escape(in) + QStringLiteral(":%1:[0-9]+: error: ").arg(line));
        QVERIFY2(located.match(QString::fromUtf8(run.err)).hasMatch(), run.err.constData());

        // And with no OUT before, there is none after.
        const QString fresh = path(QStringLiteral("never-%1.mdb").arg(line));
        run = runTool({ QStringLiteral("import"), in, fresh });
        QCOMPARE(run.exitCode, 1);
        QVERIFY(!QFile::exists(fresh));
    }

    void importWithWarningsSucceeds()
    {
        const QString in = path(QStringLiteral("warning.tdef"));
        const QString out = path(QStringLiteral("warning.mdb"));
        QVERIFY(writeBytes(in, "PACKET EMPTY APID 1 LENGTH 8\n"));
        const Run run = runTool({ QStringLiteral("import"), in, out });
        QCOMPARE(run.exitCode, 0);
        const QRegularExpression located(QRegularExpression::escape(in) + QStringLiteral(":1:[0-9]+: warning: "));
        QVERIFY2(located.match(QString::fromUtf8(run.err)).hasMatch(), run.err.constData());
        QVERIFY(loadDatabase(out.toStdString()).ok());
    }

    void importRefusesNonText()
    {
        const QString db = importValid(QStringLiteral("as-input"));
        QVERIFY(!db.isEmpty());
        const QString out = path(QStringLiteral("as-input-out.mdb"));
        Run run = runTool({ QStringLiteral("import"), db, out });
        QCOMPARE(run.exitCode, 1);
        QVERIFY(!QFile::exists(out));
        QVERIFY(run.err.contains(db.toUtf8()));

        // Into a directory that does not exist: an error naming the output, exit 1.
        const QString in = path(QStringLiteral("as-input.tdef"));
        const QString nowhere = path(QStringLiteral("no/such/dir/out.mdb"));
        run = runTool({ QStringLiteral("import"), in, nowhere });
        QCOMPARE(run.exitCode, 1);
        QVERIFY2(run.err.contains(nowhere.toUtf8()), run.err.constData());
    }

    void checkDecidesByContent()
    {
        const QString db = importValid(QStringLiteral("check"));
        QVERIFY(!db.isEmpty());

        Run run = runTool({ QStringLiteral("check"), db });
        QCOMPARE(run.exitCode, 0);
        QVERIFY(run.out.contains("3 packets, 6 parameters"));

        // A database named .tdef is still a database; text named .mdb is still text.
        const QString disguisedDb = path(QStringLiteral("really-a-db.tdef"));
        QVERIFY(QFile::copy(db, disguisedDb));
        run = runTool({ QStringLiteral("check"), disguisedDb });
        QCOMPARE(run.exitCode, 0);
        QVERIFY(run.out.contains("3 packets, 6 parameters"));

        const QString disguisedText = path(QStringLiteral("really-text.mdb"));
        QVERIFY(writeBytes(disguisedText, kValidText));
        run = runTool({ QStringLiteral("check"), disguisedText });
        QCOMPARE(run.exitCode, 0);
        QVERIFY(run.out.contains("3 packets, 6 parameters"));

        const QString broken = path(QStringLiteral("check-broken.tdef"));
        QVERIFY(writeBytes(broken, kSyntaxError));
        run = runTool({ QStringLiteral("check"), broken });
        QCOMPARE(run.exitCode, 1);
        QVERIFY2(run.err.contains(broken.toUtf8() + ":4:"), run.err.constData());

        QByteArray random(4096, '\0');
        std::mt19937 generator(99);
        for (auto& byte : random)
            byte = static_cast<char>(generator() & 0xFF);
        random[10] = '\0';
        const QString noise = path(QStringLiteral("noise.mdb"));
        QVERIFY(writeBytes(noise, random));
        run = runTool({ QStringLiteral("check"), noise });
        QCOMPARE(run.exitCode, 1);
        QCOMPARE(run.err.count('\n'), 1);
        QVERIFY(run.err.startsWith(noise.toUtf8() + ": error: "));

        const QString missing = path(QStringLiteral("missing.tdef"));
        run = runTool({ QStringLiteral("check"), missing });
        QCOMPARE(run.exitCode, 1);
        QVERIFY(run.err.contains(missing.toUtf8()));
    }

    void summaryOfEitherForm()
    {
        const QString db = importValid(QStringLiteral("summary"));
        QVERIFY(!db.isEmpty());
        const auto loaded = loadDatabase(db.toStdString());
        QVERIFY(loaded.ok());
        const QByteArray expected = QByteArray::fromStdString(summarize(*loaded));
        QVERIFY(expected.contains("CLI test"));

        Run run = runTool({ QStringLiteral("summary"), db });
        QCOMPARE(run.exitCode, 0);
        QCOMPARE(run.out, expected);

        run = runTool({ QStringLiteral("summary"), path(QStringLiteral("summary.tdef")) });
        QCOMPARE(run.exitCode, 0);
        QCOMPARE(run.out, expected);
    }

    void exportErrors()
    {
        const QString missing = path(QStringLiteral("absent.mdb"));
        Run run = runTool({ QStringLiteral("export"), missing, QStringLiteral("-") });
        QCOMPARE(run.exitCode, 1);
        QVERIFY(run.out.isEmpty());
        QVERIFY2(run.err.contains(missing.toUtf8()), run.err.constData());

        // A database from a newer Telestation: refused, with the versions.
        const QString db = importValid(QStringLiteral("newer"));
        QVERIFY(!db.isEmpty());
        QByteArray bytes = readBytes(db);
        // user_version is the big-endian 32-bit integer at offset 60 of the SQLite header.
        bytes[60] = 0;
        bytes[61] = 0;
        bytes[62] = 0;
        bytes[63] = 9;
        QVERIFY(writeBytes(db, bytes));
        run = runTool({ QStringLiteral("export"), db, path(QStringLiteral("newer.out.tdef")) });
        QCOMPARE(run.exitCode, 1);
        QVERIFY2(run.err.contains("created by a newer Telestation: schema 9, this build reads up to 3"),
            run.err.constData());
        QVERIFY(!QFile::exists(path(QStringLiteral("newer.out.tdef"))));
    }

    // XTCE (issue 12): told apart by content, imported, validated, saved.
    void importXtceJpss()
    {
        const QString in = QString::fromStdString(test::referenceDataDir() + "/missions/jpss1/jpss1_geolocation_xtce_v1.xml");
        const QString out = path(QStringLiteral("jpss.mdb"));
        const Run run = runTool({ QStringLiteral("import"), in, out });
        QCOMPARE(run.exitCode, 0);
        QVERIFY2(run.err.isEmpty(), run.err.constData());
        QVERIFY2(run.out.contains("wrote " + out.toUtf8() + ": 1 packets, 27 parameters"), run.out.constData());
        const auto loaded = loadDatabase(out.toStdString());
        QVERIFY2(loaded.ok(), loaded.ok() ? "" : loaded.error().toString().c_str());
        QCOMPARE(loaded->packets.size(), std::size_t { 1 });
        QCOMPARE(loaded->packets.front().name, std::string("JPSS_ATT_EPHEM"));
        QCOMPARE(loaded->packets.front().apid, std::uint16_t { 11 });
        const auto imported = xtce::readXtceFile(in.toStdString());
        QVERIFY(imported.ok());
        QVERIFY(*loaded == imported.database);
    }

    // The round trip through XTCE: importing an export gives back the database it was written from.
    void exportXtceThenImportGivesTheSameDatabase()
    {
        const QString training = QString::fromStdString(test::trainingDatabasePath());
        const QString xml = path(QStringLiteral("training-export.xml"));
        const QString back = path(QStringLiteral("training-back.mdb"));
        Run run = runTool({ QStringLiteral("export"), QStringLiteral("--format"), QStringLiteral("xtce"), training, xml });
        QCOMPARE(run.exitCode, 0);
        run = runTool({ QStringLiteral("import"), xml, back });
        QCOMPARE(run.exitCode, 0);
        QVERIFY2(run.err.isEmpty(), run.err.constData());

        const Run original = runTool({ QStringLiteral("export"), training, QStringLiteral("-") });
        QCOMPARE(original.exitCode, 0);
        QVERIFY(!original.out.isEmpty());
        const Run again = runTool({ QStringLiteral("export"), back, QStringLiteral("-") });
        QCOMPARE(again.exitCode, 0);
        QCOMPARE(again.out, original.out);
        const auto loadedTraining = loadDatabase(training.toStdString());
        const auto loadedBack = loadDatabase(back.toStdString());
        QVERIFY(loadedTraining.ok() && loadedBack.ok());
        QVERIFY(*loadedBack == *loadedTraining);
    }

    void importMalformedXtceWritesNothing()
    {
        const QString in = path(QStringLiteral("malformed.xml"));
        const QString out = path(QStringLiteral("malformed.mdb"));
        QVERIFY(writeBytes(in, "<?xml version=\"1.0\"?>\n<SpaceSystem name=\"M\">\n  <TelemetryMetaData>\n</SpaceSystem>\n"));
        const Run run = runTool({ QStringLiteral("import"), in, out, QStringLiteral("--lenient") });
        QCOMPARE(run.exitCode, 1);
        QVERIFY(!QFile::exists(out));
        const QRegularExpression located(QRegularExpression::escape(in) + QStringLiteral(":4:[0-9]+: error: XML: "));
        QVERIFY2(located.match(QString::fromUtf8(run.err)).hasMatch(), run.err.constData());
    }

    void importBogusSatLenient()
    {
        const QString in = QString::fromStdString(test::referenceDataDir() + "/xtce/BogusSAT-1.xml");
        const QString out = path(QStringLiteral("bogus.mdb"));
        Run run = runTool({ QStringLiteral("import"), in, out });
        QCOMPARE(run.exitCode, 1);
        QVERIFY(!QFile::exists(out));
        QVERIFY2(run.err.contains(in.toUtf8() + ":994:6: error: /BogusSAT/SC001/BusElectronics/SensorHistoryBuffer: "),
            run.err.constData());

        run = runTool({ QStringLiteral("import"), in, out, QStringLiteral("--lenient") });
        QCOMPARE(run.exitCode, 0);
        QVERIFY2(run.err.contains(in.toUtf8() + ":994:6: warning: "), run.err.constData());
        QVERIFY2(run.out.contains("not imported from " + in.toUtf8() + " (5):"), run.out.constData());
        QVERIFY2(run.out.contains(in.toUtf8() + ":208:2: /BogusSAT: CommandMetaData: commands are not imported"),
            run.out.constData());
        const auto loaded = loadDatabase(out.toStdString());
        QVERIFY(loaded.ok());
        QCOMPARE(loaded->name, std::string("BogusSAT"));
    }

    void checkAndSummaryOfXtce()
    {
        const QString idex = QString::fromStdString(test::referenceDataDir() + "/missions/idex/idex_combined_science_definition.xml");
        Run run = runTool({ QStringLiteral("check"), idex });
        QCOMPARE(run.exitCode, 0);
        QVERIFY2(run.out.contains(idex.toUtf8() + ": ok: 5 packets, 295 parameters"), run.out.constData());
        run = runTool({ QStringLiteral("summary"), idex });
        QCOMPARE(run.exitCode, 0);
        QVERIFY2(run.out.contains("Sci0TypeNonZero"), run.out.constData());
        QVERIFY2(run.out.contains("Mission: IDEX"), run.out.constData());

        const QString contrived = QString::fromStdString(test::referenceDataDir() + "/missions/jpss1/contrived_inheritance_structure.xml");
        run = runTool({ QStringLiteral("check"), contrived });
        QCOMPARE(run.exitCode, 1);
        run = runTool({ QStringLiteral("check"), contrived, QStringLiteral("--lenient") });
        QCOMPARE(run.exitCode, 0);
        QVERIFY2(run.out.contains(contrived.toUtf8() + ":213:13: /Libera/UNUSED: "), run.out.constData());
    }
};

QTEST_GUILESS_MAIN(TestMdbCli)
#include "tst_mdb_cli.moc"
