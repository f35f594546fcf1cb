// The mission loader: the three forms told apart by content (whatever the file is called), the XTCE
// cache beside the file (written on the first load, used on the next, replaced when the file changes,
// rebuilt when damaged, and a warning — not a failure — when it cannot be written), and the errors.
#include "core/config/mission_file.hpp"
#include "core/mdb/sqlite_store.hpp"
#include "core/mdb/text_format.hpp"
#include "tests/support/test_paths.hpp"

#include <QtTest>

#include <filesystem>
#include <fstream>
#include <sstream>

using namespace telestation;
namespace fs = std::filesystem;

namespace {

const std::string kData = test::referenceDataDir();
const std::string kJpss = kData + "/missions/jpss1/jpss1_geolocation_xtce_v1.xml";

std::string readAll(const std::string& path)
{
    std::ifstream in(path, std::ios::binary);
    std::stringstream s;
    s << in.rdbuf();
    return s.str();
}

void writeAll(const std::string& path, const std::string& text)
{
    std::ofstream(path, std::ios::binary) << text;
}

std::vector<std::string> cachesIn(const fs::path& dir)
{
    std::vector<std::string> out;
    for (const auto& e : fs::directory_iterator(dir))
        if (e.path().extension() == ".mdb")
            out.push_back(e.path().filename().string());
    std::sort(out.begin(), out.end());
    return out;
}

} // namespace

class TestMissionFile : public QObject {
    Q_OBJECT

private slots:
    void theFormsAreToldApartByContent()
    {
        QTemporaryDir dir;
        // The training mission as text, as SQLite and (from the reference data) XTCE, each under a
        // misleading name.
        const std::string text = dir.filePath("mission.mdb").toStdString();
        fs::copy_file(test::trainingDefinitionPath(), text);
        const std::string sqlite = dir.filePath("mission.xml").toStdString();
        QVERIFY(mdb::saveDatabase(mdb::readTextFile(text).database, sqlite).ok());
        const std::string xtce = dir.filePath("mission.tdef").toStdString();
        fs::copy_file(kJpss, xtce);

        const auto a = config::loadMission(text);
        QVERIFY2(a.ok(), a.ok() ? "" : a.error().toString().c_str());
        QCOMPARE(a.format, config::MissionFormat::Text);
        const auto b = config::loadMission(sqlite);
        QVERIFY(b.ok());
        QCOMPARE(b.format, config::MissionFormat::Sqlite);
        QVERIFY(*a.database == *b.database);
        const auto c = config::loadMission(xtce);
        QVERIFY2(c.ok(), c.ok() ? "" : c.error().toString().c_str());
        QCOMPARE(c.format, config::MissionFormat::Xtce);
        QCOMPARE(c.database->packets.size(), std::size_t{1});
        QCOMPARE(c.database->packets[0].apid, std::uint16_t{11});
    }

    void anXtceFileIsCompiledOnceAndCachedBesideIt()
    {
        QTemporaryDir dir;
        const std::string path = dir.filePath("jpss.xml").toStdString();
        fs::copy_file(kJpss, path);

        const auto first = config::loadMission(path);
        QVERIFY(first.ok());
        QVERIFY(!first.fromCache);
        QCOMPARE(first.cachePath, config::xtceCachePath(path, readAll(path), false));
        QVERIFY(fs::exists(first.cachePath));
        const auto second = config::loadMission(path);
        QVERIFY(second.ok());
        QVERIFY(second.fromCache);
        QVERIFY(*second.database == *first.database);

        // A changed file gets a new cache; the old one goes.
        writeAll(path, readAll(path) + "\n<!-- edited -->\n");
        const auto third = config::loadMission(path);
        QVERIFY(third.ok());
        QVERIFY(!third.fromCache);
        QVERIFY(third.cachePath != first.cachePath);
        QCOMPARE(cachesIn(dir.path().toStdString()), std::vector<std::string>{fs::path(third.cachePath).filename().string()});

        // Lenient and strict imports are cached apart.
        config::MissionLoadOptions lenient;
        lenient.lenient = true;
        QVERIFY(config::loadMission(path, lenient).cachePath != third.cachePath);
    }

    void aDamagedCacheIsRebuilt()
    {
        QTemporaryDir dir;
        const std::string path = dir.filePath("jpss.xml").toStdString();
        fs::copy_file(kJpss, path);
        const auto first = config::loadMission(path);
        QVERIFY(first.ok());
        writeAll(first.cachePath, "SQLite format 3");
        const auto again = config::loadMission(path);
        QVERIFY(again.ok());
        QVERIFY(!again.fromCache);
        QVERIFY(*again.database == *first.database);
        QVERIFY(config::loadMission(path).fromCache);
    }

    void aCacheThatCannotBeWrittenIsAWarning()
    {
        QTemporaryDir dir;
        const std::string path = dir.filePath("jpss.xml").toStdString();
        fs::copy_file(kJpss, path);
        // A directory (not empty) where the cache file would go: saving fails even as root.
        const std::string blocked = config::xtceCachePath(path, readAll(path), false);
        fs::create_directory(blocked);
        writeAll(blocked + "/keep", "x");
        const auto loaded = config::loadMission(path);
        QVERIFY(loaded.ok());
        QVERIFY(loaded.cachePath.empty());
        const auto notes = loaded.notes();
        QCOMPARE(notes.size(), std::size_t{1});
        QVERIFY2(notes[0].find("not cached") != std::string::npos, notes[0].c_str());
        // And with the cache off, nothing is written at all.
        QTemporaryDir other;
        const std::string copy = other.filePath("jpss.xml").toStdString();
        fs::copy_file(kJpss, copy);
        config::MissionLoadOptions noCache;
        noCache.useCache = false;
        QVERIFY(config::loadMission(copy, noCache).ok());
        QVERIFY(cachesIn(other.path().toStdString()).empty());
    }

    void errorsNameTheFileAndThePlace()
    {
        QTemporaryDir dir;
        QCOMPARE(config::loadMission(dir.filePath("missing.xml").toStdString()).error().message, std::string("no such file"));
        QCOMPARE(config::loadMission(dir.path().toStdString()).error().message, std::string("not a file"));

        const std::string binary = dir.filePath("noise.bin").toStdString();
        writeAll(binary, std::string("\x01\x02\0\x03", 4));
        const auto noise = config::loadMission(binary);
        QVERIFY(!noise.ok());
        QVERIFY(noise.error().message.find("binary content") != std::string::npos);

        // An XTCE file whose container the station could not tell apart: the error carries the
        // container's line and column; nothing is cached.
        const std::string bad = dir.filePath("bad.xml").toStdString();
        writeAll(bad, "<SpaceSystem name=\"X\">\n  <TelemetryMetaData>\n    <ContainerSet>\n"
                      "      <SequenceContainer name=\"P\"><EntryList>\n"
                      "        <ParameterRefEntry parameterRef=\"Nope\"/>\n"
                      "      </EntryList></SequenceContainer>\n    </ContainerSet>\n"
                      "  </TelemetryMetaData>\n</SpaceSystem>\n");
        const auto broken = config::loadMission(bad);
        QVERIFY(!broken.ok());
        QCOMPARE(broken.error().where.file, bad);
        QCOMPARE(broken.error().where.line, 4);
        QCOMPARE(broken.error().where.column, 7);
        QVERIFY(broken.error().message.find("APID") != std::string::npos);
        QVERIFY(cachesIn(dir.path().toStdString()).empty());

        // A text definition with two errors: the first, and how many more.
        const std::string text = dir.filePath("bad.tdef").toStdString();
        writeAll(text, "PACKET A APID 5000 LENGTH 10\nPACKET B APID 9000 LENGTH 10\n");
        const auto e = config::loadMission(text).error();
        QCOMPARE(e.where.line, 1);
        QVERIFY2(e.message.find("and 1 more error") != std::string::npos, e.message.c_str());
    }
};

QTEST_GUILESS_MAIN(TestMissionFile)
#include "tst_config_mission_file.moc"
