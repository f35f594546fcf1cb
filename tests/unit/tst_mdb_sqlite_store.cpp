// Tests of the SQLite storage of the mission database: exact round trips, atomic saves, the schema's
// constraints, the upgrade of version-1 files, and refusal (never a crash) of files that are not
// mission databases or are damaged. Also the summary, which is about the same model.
#include "core/mdb/sqlite_store.hpp"
#include "core/mdb/summary.hpp"
#include "core/mdb/text_format.hpp"
#include "tests/support/mdb_schema_history.hpp"

#include <QElapsedTimer>
#include <QtTest>

#include <sqlite3.h>

#include <bit>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <functional>
#include <limits>
#include <random>
#include <string>
#include <vector>

using namespace telestation;
using namespace telestation::mdb;

namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();

// A database that uses every field of the model, every optional both present and absent and every
// alternative of every variant, with values at the edges of their types.
MissionDatabase richDatabase()
{
    MissionDatabase db;
    db.name = "Training mission \xE2\x9C\x93 \"quoted\"";

    PacketDef hk;
    hk.name = "HK_FAST";
    hk.apid = 100;
    hk.length = 64;
    hk.byteOrder = ByteOrder::BigEndian;
    hk.description = "Housekeeping, fast rate";
    hk.secondaryHeader = CucLayout { 4, 2, false, TimeEpoch::Tai1958 };
    {
        ParameterDef mode;
        mode.name = "MODE";
        mode.bitOffset = 96;
        mode.bitLength = 8;
        mode.type = DataType::UnsignedInt;
        mode.description = "Operating mode";
        mode.calibrator = EnumerationCalibrator { { { 0, 0, "SAFE" }, { 1, 3, "NOMINAL" },
            { std::numeric_limits<std::int64_t>::min(), -1, "NEGATIVE" },
            { 4, std::numeric_limits<std::int64_t>::max(), "" } } };
        mode.limits = StateLimits { { "NOMINAL", "SAFE", "NOMINAL" }, true };
        hk.parameters.push_back(mode);

        ParameterDef temp;
        temp.name = "TEMP";
        temp.bitOffset = 104;
        temp.bitLength = 16;
        temp.type = DataType::SignedInt;
        temp.byteOrder = ByteOrder::LittleEndian;
        temp.units = "\xC2\xB0"
                     "C";
        temp.description = "Board temperature\nsecond line";
        temp.overlapAllowed = true;
        temp.calibrator = PolynomialCalibrator { { -40.5, 0.1, 1e-300, -2.5e10, 5e-324, 1.0 / 3.0 } };
        temp.limits = NumericLimits { -50, -20.25, 60, 85.125, true };
        hk.parameters.push_back(temp);

        ParameterDef volts;
        volts.name = "VOLTS";
        volts.bitOffset = 120;
        volts.bitLength = 32;
        volts.type = DataType::Float;
        volts.byteOrder = ByteOrder::BigEndian;
        volts.units = "V";
        volts.calibrator = PointPairCalibrator { { { 0, 0 }, { 1.5, 3.75 }, { 1e308, -1.7976931348623157e308 } } };
        volts.limits = NumericLimits { -kInf, -1, 1, kInf, false };
        hk.parameters.push_back(volts);

        ParameterDef name;
        name.name = "NAME";
        name.bitOffset = 152;
        name.bitLength = 64;
        name.type = DataType::String;
        name.description = std::string("embedded\0NUL", 12);
        hk.parameters.push_back(name);

        ParameterDef blob;
        blob.name = "BLOB";
        blob.bitOffset = 216;
        blob.bitLength = 16;
        blob.type = DataType::Bytes;
        blob.limits = StateLimits { {}, false };
        hk.parameters.push_back(blob);

        // The calibrator alternatives with no rows at all still round-trip as their alternative.
        ParameterDef emptyPoly;
        emptyPoly.name = "EMPTY_POLY";
        emptyPoly.bitOffset = 232;
        emptyPoly.bitLength = 1;
        emptyPoly.calibrator = PolynomialCalibrator {};
        hk.parameters.push_back(emptyPoly);

        ParameterDef emptyPoints = emptyPoly;
        emptyPoints.name = "EMPTY_POINTS";
        emptyPoints.bitOffset = 233;
        emptyPoints.calibrator = PointPairCalibrator {};
        hk.parameters.push_back(emptyPoints);

        ParameterDef emptyStates = emptyPoly;
        emptyStates.name = "EMPTY_STATES";
        emptyStates.bitOffset = 4294967295u;
        emptyStates.bitLength = 4294967295u;
        emptyStates.calibrator = EnumerationCalibrator {};
        emptyStates.limits = StateLimits { { "NOWHERE" }, true };
        hk.parameters.push_back(emptyStates);
    }
    db.packets.push_back(hk);

    PacketDef events;
    events.name = "EVENTS";
    events.apid = 2047;
    events.secondaryId = SecondaryId { 48, 64, 0xFEDCBA9876543210ull };
    events.length = 16;
    events.variableLength = true;
    events.maxLength = 4294967295u;
    events.byteOrder = ByteOrder::LittleEndian;
    events.secondaryHeader = CucLayout { 1, 0, true, TimeEpoch::Gps1980 };
    {
        ParameterDef code;
        code.name = "CODE";
        code.bitOffset = 112;
        code.bitLength = 64;
        code.type = DataType::UnsignedInt;
        code.calibrator = PolynomialCalibrator { { 0, 1 } };
        code.limits = NumericLimits { 0, 0, 0, 0, false };
        events.parameters.push_back(code);

        ParameterDef text;
        text.name = "TEXT";
        text.bitOffset = 176;
        text.bitLength = 8 * 100;
        text.type = DataType::String;
        text.byteOrder = ByteOrder::LittleEndian;
        events.parameters.push_back(text);
    }
    db.packets.push_back(events);

    PacketDef empty;
    empty.name = "NO_PARAMETERS";
    empty.apid = 0;
    empty.secondaryId = SecondaryId { 0, 1, 0 };
    empty.length = 7;
    empty.maxLength = 99; // kept even though only variable-length packets use it
    empty.description = "quotes \" and backslash \\ and tab\t";
    db.packets.push_back(empty);

    PacketDef unixTime;
    unixTime.name = "UNIX_TIME";
    unixTime.apid = 2047;
    unixTime.secondaryId = SecondaryId { 50, 8, 0x8000000000000000ull };
    unixTime.length = 65542;
    unixTime.secondaryHeader = CucLayout { 3, 3, true, TimeEpoch::Unix1970 };
    {
        ParameterDef flag;
        flag.name = "FLAG";
        flag.bitOffset = 150;
        flag.bitLength = 1;
        flag.type = DataType::UnsignedInt;
        flag.calibrator = EnumerationCalibrator { { { 0, 0, "OFF" }, { 1, 1, "ON" } } };
        flag.limits = StateLimits { { "ON" }, false };
        unixTime.parameters.push_back(flag);
    }
    db.packets.push_back(unixTime);
    return db;
}

// The generalised model (issue 12): every new field, written in the text language for brevity, then
// values at the edges set in code.
MissionDatabase generalisedDatabase()
{
    const ImportResult r = parseText(
        "MISSION \"XTCE\"\n"
        "PACKET /IDEX/Sci0 APID 1418 LENGTH VARIABLE 24 4000\n"
        "  LONG_DESCRIPTION \"two\\nlines\"\n"
        "  PATH \"/IDEX/Sci0TypeZero\"\n"
        "  ALIAS \"ops\" \"SCI0\"\n"
        "  ALIAS \"\" \"sci-zero\"\n"
        "  MATCH 0 3 == 0\n"
        "  MATCH 56 64 != 18446744073709551615\n"
        "  PARAMETER VERSION 0 3 UINT\n"
        "  PARAMETER TYPE 48 8 UINT\n"
        "  PARAMETER COUNT 56 16 UINT\n"
        "    POLY 0 8\n"
        "    LIMITS -inf -100 100 inf DISABLED\n"
        "  PARAMETER MAG 72 8 INT_SIGN_MAGNITUDE\n"
        "  PARAMETER OC 80 16 INT_ONES_COMPLEMENT LITTLE_ENDIAN\n"
        "    POLY 1 2\n"
        "    CONTEXT TYPE == 1 AND COUNT > 10.5 CALIBRATED\n"
        "    POLY 1 2 3\n"
        "    CONTEXT TYPE <= 0\n"
        "    POINT 0 0\n"
        "    POINT 1 10\n"
        "    CONTEXT VERSION != 7\n"
        "    TIME GPS SCALE 2 OFFSET -1.5\n"
        "    CONTEXT VERSION == 5\n"
        "    POLY 4\n"
        "  PARAMETER T 96 48 UINT\n"
        "    TIME TAI SCALE 1.52587890625e-05\n"
        "  PARAMETER DATA +0 * BYTES\n"
        "    SIZE FROM COUNT SLOPE 8 INTERCEPT -16 MAX 3000\n"
        "    WHEN TYPE == 1\n"
        "    WHEN COUNT < 1000 CALIBRATED\n"
        "    LONG_DESCRIPTION \"long\"\n"
        "    PATH \"/IDEX/DATA\"\n"
        "    ALIAS \"ground\" \"DATA0\"\n"
        "    ALIAS \"ops\" \"DATA\"\n"
        "  PARAMETER Q[0] +4 16 UINT\n"
        "    LIMITS -inf -inf 5 6\n"
        "  PARAMETER NAME +0 * STRING\n"
        "    SIZE TERMINATED 255 MAX 64\n"
        "  PARAMETER NAME2 +0 * STRING\n"
        "    SIZE LEADING 32\n"
        "PACKET /IDEX/Sci1 APID 1418 LENGTH 8\n"
        "  MATCH 48 8 == 1\n"
        "  PARAMETER X 48 16 UINT\n");
    if (!r.ok())
        qFatal("generalisedDatabase: %s", r.diagnostics.front().toString().c_str());
    MissionDatabase db = r.database;
    auto& t = std::get<TimeCalibrator>(db.packets[0].parameters[5].calibrator);
    t.offset = -5e-324;
    // A context without a calibrator yet (not valid, but the store keeps it: calibrator NULL).
    auto& contexts = db.packets[0].parameters[4].contextCalibrators;
    contexts.insert(contexts.begin() + 3, ContextCalibration { { Condition { "VERSION", CompareOp::Equal, 6, false } }, {} });
    db.packets[0].parameters[6].size.sizeSlope = 1.0 / 3.0;
    return db;
}

// Names the first difference, so that a failed comparison says where.
QString firstDifference(const MissionDatabase& a, const MissionDatabase& b)
{
    if (a.name != b.name)
        return QStringLiteral("mission name");
    if (a.packets.size() != b.packets.size())
        return QStringLiteral("packet count %1 vs %2").arg(a.packets.size()).arg(b.packets.size());
    for (std::size_t i = 0; i < a.packets.size(); ++i) {
        const PacketDef& p = a.packets[i];
        const PacketDef& q = b.packets[i];
        const QString where = QStringLiteral("packet %1 (%2)").arg(i).arg(QString::fromStdString(p.name));
        if (p.parameters.size() != q.parameters.size())
            return where + QStringLiteral(": parameter count");
        for (std::size_t j = 0; j < p.parameters.size(); ++j)
            if (!(p.parameters[j] == q.parameters[j]))
                return where
                    + QStringLiteral(": parameter %1 (%2)").arg(j).arg(QString::fromStdString(p.parameters[j].name));
        if (!(p == q))
            return where + QStringLiteral(": packet fields");
    }
    return a == b ? QString() : QStringLiteral("?");
}

QByteArray readBytes(const QString& path)
{
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly))
        return {};
    return f.readAll();
}

bool writeBytes(const QString& path, const QByteArray& bytes)
{
    QFile f(path);
    return f.open(QIODevice::WriteOnly | QIODevice::Truncate) && f.write(bytes) == bytes.size();
}

// Runs SQL on a file with the plain C API (not the code under test). Returns the error, or empty.
QString execSql(const QString& path, const std::string& sql)
{
    sqlite3* db = nullptr;
    int rc = sqlite3_open_v2(path.toUtf8().constData(), &db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, nullptr);
    if (rc != SQLITE_OK) {
        sqlite3_close(db);
        return QStringLiteral("cannot open");
    }
    char* message = nullptr;
    rc = sqlite3_exec(db, sql.c_str(), nullptr, nullptr, &message);
    QString result;
    if (rc != SQLITE_OK)
        result = QString::fromUtf8(message != nullptr ? message : sqlite3_errstr(rc));
    sqlite3_free(message);
    sqlite3_close(db);
    return result;
}

// One integer from a query; `fallback` when it fails.
std::int64_t queryInt(const QString& path, const std::string& sql, std::int64_t fallback = -999)
{
    sqlite3* db = nullptr;
    std::int64_t value = fallback;
    if (sqlite3_open_v2(path.toUtf8().constData(), &db, SQLITE_OPEN_READONLY, nullptr) == SQLITE_OK) {
        sqlite3_stmt* stmt = nullptr;
        if (sqlite3_prepare_v2(db, sql.c_str(), -1, &stmt, nullptr) == SQLITE_OK && sqlite3_step(stmt) == SQLITE_ROW)
            value = sqlite3_column_int64(stmt, 0);
        sqlite3_finalize(stmt);
    }
    sqlite3_close(db);
    return value;
}

// Every column of every table as "table|cid|name|type|notnull|default|pk" lines.
QStringList tableLayout(const QString& path)
{
    QStringList lines;
    sqlite3* db = nullptr;
    if (sqlite3_open_v2(path.toUtf8().constData(), &db, SQLITE_OPEN_READONLY, nullptr) == SQLITE_OK) {
        sqlite3_stmt* stmt = nullptr;
        const char* sql = "SELECT m.name, p.cid, p.name, p.type, p.\"notnull\", ifnull(p.dflt_value, 'NULL'), p.pk"
                          " FROM sqlite_schema m, pragma_table_info(m.name) p WHERE m.type = 'table'"
                          " ORDER BY m.name, p.cid";
        if (sqlite3_prepare_v2(db, sql, -1, &stmt, nullptr) == SQLITE_OK) {
            while (sqlite3_step(stmt) == SQLITE_ROW) {
                QStringList cells;
                for (int i = 0; i < 7; ++i)
                    cells << QString::fromUtf8(reinterpret_cast<const char*>(sqlite3_column_text(stmt, i)));
                lines << cells.join(QLatin1Char('|'));
            }
        }
        sqlite3_finalize(stmt);
    }
    sqlite3_close(db);
    return lines;
}

// A version-1 file made with the historical DDL, with rows as the old Telestation wrote them: ids that
// are not the positions, and positions out of insertion order.
QString makeVersion1File(const QString& path)
{
    std::string sql(test::kMdbSchemaV1);
    sql += R"sql(
INSERT INTO mission VALUES (1, 'Old mission');
INSERT INTO packet (id, position, name, apid, length, variable_length, max_length, byte_order, description,
                    cuc_coarse_bytes, cuc_fine_bytes, cuc_epoch)
VALUES (10, 1, 'HK', 100, 64, 0, 0, 'BIG_ENDIAN', 'Housekeeping', 4, 2, 'GPS'),
       (20, 0, 'EVENTS', 200, 16, 1, 1024, 'LITTLE_ENDIAN', '', NULL, NULL, NULL);
INSERT INTO parameter (id, packet_id, position, name, bit_offset, bit_length, data_type, byte_order, units,
                       description, overlap_allowed, calibrator, limits)
VALUES (1, 10, 1, 'TEMP', 112, 16, 'INT', NULL, 'degC', 'Board temperature', 0, 'POLYNOMIAL', 'NUMERIC'),
       (2, 10, 0, 'MODE', 96, 8, 'UINT', NULL, '', '', 0, 'ENUMERATION', 'EXPECTED_STATES'),
       (3, 10, 2, 'CURVE', 128, 16, 'UINT', 'LITTLE_ENDIAN', 'V', '', 1, 'POINT_PAIRS', NULL),
       (4, 20, 0, 'CODE', 48, 32, 'UINT', NULL, '', '', 0, NULL, NULL);
INSERT INTO polynomial_coefficient VALUES (1, 1, 0.125), (1, 0, -40.0);
INSERT INTO numeric_limits VALUES (1, -30.0, -10.0, 50.0, 70.0);
INSERT INTO state VALUES (2, 1, 1, 2, 'NOMINAL'), (2, 0, 0, 0, 'SAFE');
INSERT INTO expected_state VALUES (2, 0, 'NOMINAL');
INSERT INTO point_pair VALUES (3, 0, 0.0, 0.0), (3, 1, 4095.0, 5.0);
PRAGMA user_version = 1;
)sql";
    return execSql(path, sql);
}

// What makeVersion1File means in the model, with the defaults of the upgrade.
MissionDatabase version1Model()
{
    MissionDatabase db;
    db.name = "Old mission";
    PacketDef events;
    events.name = "EVENTS";
    events.apid = 200;
    events.length = 16;
    events.variableLength = true;
    events.maxLength = 1024;
    events.byteOrder = ByteOrder::LittleEndian;
    ParameterDef code;
    code.name = "CODE";
    code.bitOffset = 48;
    code.bitLength = 32;
    events.parameters.push_back(code);

    PacketDef hk;
    hk.name = "HK";
    hk.apid = 100;
    hk.length = 64;
    hk.description = "Housekeeping";
    hk.secondaryHeader = CucLayout { 4, 2, false, TimeEpoch::Gps1980 };
    ParameterDef mode;
    mode.name = "MODE";
    mode.bitOffset = 96;
    mode.bitLength = 8;
    mode.calibrator = EnumerationCalibrator { { { 0, 0, "SAFE" }, { 1, 2, "NOMINAL" } } };
    mode.limits = StateLimits { { "NOMINAL" }, true };
    ParameterDef temp;
    temp.name = "TEMP";
    temp.bitOffset = 112;
    temp.bitLength = 16;
    temp.type = DataType::SignedInt;
    temp.units = "degC";
    temp.description = "Board temperature";
    temp.calibrator = PolynomialCalibrator { { -40.0, 0.125 } };
    temp.limits = NumericLimits { -30, -10, 50, 70, true };
    ParameterDef curve;
    curve.name = "CURVE";
    curve.bitOffset = 128;
    curve.bitLength = 16;
    curve.byteOrder = ByteOrder::LittleEndian;
    curve.units = "V";
    curve.overlapAllowed = true;
    curve.calibrator = PointPairCalibrator { { { 0, 0 }, { 4095, 5 } } };
    hk.parameters = { mode, temp, curve };

    db.packets = { events, hk };
    return db;
}

// A database big enough to span many pages, for the damage tests.
MissionDatabase largeDatabase()
{
    MissionDatabase db = richDatabase();
    for (int i = 0; i < 40; ++i) {
        PacketDef p = db.packets[0];
        p.name = "COPY_" + std::to_string(i);
        p.apid = static_cast<std::uint16_t>(200 + i);
        db.packets.push_back(p);
    }
    return db;
}

struct BrokenSave {
    const char* name;
    std::function<void(MissionDatabase&)> breakIt;
    const char* expectedMessage;
    const char* expectedObject;
};

// Databases that the schema refuses, each broken after some rows were already inserted.
const std::vector<BrokenSave>& brokenSaves()
{
    static const std::vector<BrokenSave> cases {
        { "APID over 2047", [](MissionDatabase& db) { db.packets[1].apid = 2048; }, "CHECK constraint failed",
            "packet 'EVENTS'" },
        { "bit length 0", [](MissionDatabase& db) { db.packets[3].parameters[0].bitLength = 0; },
            "CHECK constraint failed", "parameter 'UNIX_TIME.FLAG'" },
        { "seven coefficients",
            [](MissionDatabase& db) {
                db.packets[1].parameters[0].calibrator = PolynomialCalibrator { { 1, 2, 3, 4, 5, 6, 7 } };
            },
            "CHECK constraint failed", "parameter 'EVENTS.CODE' coefficient 6" },
        { "limits out of order",
            [](MissionDatabase& db) {
                db.packets[1].parameters[0].limits = NumericLimits { 0, 1, 3, 2, true };
            },
            "CHECK constraint failed", "parameter 'EVENTS.CODE' limits" },
        { "state low above high",
            [](MissionDatabase& db) {
                db.packets[3].parameters[0].calibrator = EnumerationCalibrator { { { 0, 0, "A" }, { 5, 4, "B" } } };
            },
            "CHECK constraint failed", "parameter 'UNIX_TIME.FLAG' state 'B'" },
        { "NaN in a point table",
            [](MissionDatabase& db) {
                std::get<PointPairCalibrator>(db.packets[0].parameters[2].calibrator).points[1].calibrated
                    = std::nan("");
            },
            "NaN cannot be stored", "parameter 'HK_FAST.VOLTS' point 2" },
        { "duplicate parameter name", [](MissionDatabase& db) { db.packets[1].parameters[1].name = "CODE"; },
            "UNIQUE constraint failed", "parameter 'EVENTS.CODE'" },
        { "duplicate packet name", [](MissionDatabase& db) { db.packets[3].name = "HK_FAST"; },
            "UNIQUE constraint failed", "packet 'HK_FAST'" },
        { "CUC coarse bytes 5", [](MissionDatabase& db) { db.packets[3].secondaryHeader->coarseBytes = 5; },
            "CHECK constraint failed", "packet 'UNIX_TIME'" },
        { "CUC fine bytes 4", [](MissionDatabase& db) { db.packets[1].secondaryHeader->fineBytes = 4; },
            "CHECK constraint failed", "packet 'EVENTS'" },
        { "secondary id of 65 bits", [](MissionDatabase& db) { db.packets[2].secondaryId->bitLength = 65; },
            "CHECK constraint failed", "packet 'NO_PARAMETERS'" },
        { "secondary id of 0 bits", [](MissionDatabase& db) { db.packets[2].secondaryId->bitLength = 0; },
            "CHECK constraint failed", "packet 'NO_PARAMETERS'" },
    };
    return cases;
}

// Damage done to a saved file with SQL that bypasses the schema's CHECKs, and what loading must say.
struct Tampering {
    const char* name;
    const char* sql;
    const char* expectedMessage;
};

const std::vector<Tampering>& tamperings()
{
    static const std::vector<Tampering> cases {
        { "unknown data type", "UPDATE parameter SET data_type = 'DOUBLE' WHERE name = 'TEMP'",
            "unknown data type 'DOUBLE'" },
        { "unknown byte order", "UPDATE packet SET byte_order = 'MIDDLE_ENDIAN' WHERE name = 'EVENTS'",
            "unknown byte order 'MIDDLE_ENDIAN'" },
        { "unknown epoch", "UPDATE packet SET cuc_epoch = 'MARS' WHERE name = 'EVENTS'", "unknown time epoch 'MARS'" },
        { "unknown calibrator", "UPDATE parameter SET calibrator = 'SPLINE' WHERE name = 'TEMP'",
            "unknown calibrator 'SPLINE'" },
        { "APID out of range", "UPDATE packet SET apid = 5000 WHERE name = 'EVENTS'", "5000 is out of range 0..2047" },
        { "negative bit offset", "UPDATE parameter SET bit_offset = -1 WHERE name = 'TEMP'",
            "column bit_offset: -1 is out of range" },
        { "flag that is not 0 or 1", "UPDATE parameter SET overlap_allowed = 2 WHERE name = 'TEMP'",
            "column overlap_allowed: 2 is out of range 0..1" },
        { "CUC columns half set", "UPDATE packet SET cuc_fine_bytes = NULL WHERE name = 'EVENTS'",
            "CUC secondary header columns" },
        { "P-field without header", "UPDATE packet SET cuc_p_field = 1 WHERE name = 'NO_PARAMETERS'",
            "cuc_p_field is set without" },
        { "secondary id half set", "UPDATE packet SET secondary_id_value = NULL WHERE name = 'EVENTS'",
            "secondary id columns" },
        { "rows of another calibrator", "INSERT INTO state SELECT id, 0, 0, 0, 'X' FROM parameter WHERE name = 'TEMP'",
            "has rows in table state but no enumeration calibrator" },
        { "numeric limits without their row",
            "DELETE FROM numeric_limits WHERE parameter_id = (SELECT id FROM parameter WHERE name = 'TEMP')",
            "no row in table numeric_limits" },
        { "numeric limits row for expected states",
            "INSERT INTO numeric_limits SELECT id, 0, 0, 0, 0 FROM parameter WHERE name = 'MODE'",
            "its limits are not numeric" },
        { "expected states for numeric limits",
            "INSERT INTO expected_state SELECT id, 0, 'X' FROM parameter WHERE name = 'TEMP'",
            "its limits are not expected states" },
        { "gap in the polynomial",
            "DELETE FROM polynomial_coefficient WHERE position = 2 AND parameter_id = (SELECT id FROM parameter WHERE "
            "name = 'TEMP')",
            "no coefficient for x^2" },
        { "state low above high", "UPDATE state SET low = 10, high = 5 WHERE text = 'SAFE'", "above high" },
        { "limits out of order", "UPDATE numeric_limits SET red_low = 1000", "numeric limits out of order" },
        { "no mission row", "DELETE FROM mission", "table mission has no row" },
        { "unknown placement", "UPDATE parameter SET placement = 'SOMEWHERE' WHERE name = 'TEMP'",
            "unknown placement 'SOMEWHERE'" },
        { "unknown size kind", "UPDATE parameter SET size_kind = 'ELASTIC' WHERE name = 'TEMP'",
            "unknown size kind 'ELASTIC'" },
        { "size terminator out of range", "UPDATE parameter SET size_terminator = 256 WHERE name = 'TEMP'",
            "column size_terminator: 256 is out of range 0..255" },
        { "time values without TIME", "UPDATE parameter SET time_epoch = 0, time_scale = 1, time_offset = 0"
            " WHERE name = 'TEMP'", "set without a TIME calibrator" },
        { "TIME without its values", "UPDATE parameter SET calibrator = 'TIME' WHERE name = 'MODE'",
            "a TIME calibrator needs time_epoch" },
        { "unknown comparison in a criterion",
            "INSERT INTO packet_criterion SELECT id, 0, 48, 8, '=<', 1 FROM packet WHERE name = 'EVENTS'",
            "unknown comparison '=<'" },
        { "criterion of 65 bits",
            "INSERT INTO packet_criterion SELECT id, 0, 48, 65, '==', 1 FROM packet WHERE name = 'EVENTS'",
            "column bit_length: 65 is out of range 1..64" },
        { "condition flag out of range",
            "INSERT INTO include_condition SELECT id, 0, 'MODE', '==', 1.0, 2 FROM parameter WHERE name = 'TEMP'",
            "column calibrated: 2 is out of range 0..1" },
        { "context of an enumeration",
            "INSERT INTO context_calibration SELECT 1, id, 0, 'ENUMERATION', NULL, NULL, NULL FROM parameter"
            " WHERE name = 'TEMP'",
            "a context calibrator cannot be an enumeration" },
        { "context coefficients of a point table",
            "INSERT INTO context_calibration SELECT 1, id, 0, 'POINT_PAIRS', NULL, NULL, NULL FROM parameter"
            " WHERE name = 'TEMP'; INSERT INTO context_polynomial_coefficient VALUES (1, 0, 1.0)",
            "the context has no polynomial calibrator" },
        { "orphan context condition",
            "PRAGMA foreign_keys = OFF; INSERT INTO context_condition VALUES (77, 0, 'A', '==', 1.0, 0)",
            "refers to a row of table context_calibration that does not exist" },
        { "orphan parameter",
            "PRAGMA foreign_keys = OFF; INSERT INTO parameter (id, packet_id, position, name, bit_offset, bit_length,"
            " data_type, units, description, overlap_allowed) VALUES (999, 999, 0, 'LOST', 0, 1, 'UINT', '', '', 0)",
            "refers to a row of table packet that does not exist" },
    };
    return cases;
}

} // namespace

class TestMdbSqliteStore : public QObject {
    Q_OBJECT

private:
    QTemporaryDir m_dir;

    QString path(const QString& name) const { return m_dir.filePath(name); }

private slots:
    void initTestCase() { QVERIFY(m_dir.isValid()); }

    void roundTripRichDatabase()
    {
        const QString file = path(QStringLiteral("rich.mdb"));
        const MissionDatabase original = richDatabase();
        const Status saved = saveDatabase(original, file.toStdString());
        QVERIFY2(saved.ok(), saved.ok() ? "" : saved.error().toString().c_str());
        const auto loaded = loadDatabase(file.toStdString());
        QVERIFY2(loaded.ok(), loaded.ok() ? "" : loaded.error().toString().c_str());
        QVERIFY2(*loaded == original, qPrintable(firstDifference(*loaded, original)));

        // Every double comes back with the same bits (== alone would let 0.1 become 0.1000000001).
        const auto& coefficients
            = std::get<PolynomialCalibrator>(loaded->packets[0].parameters[1].calibrator).coefficients;
        const auto& expected
            = std::get<PolynomialCalibrator>(original.packets[0].parameters[1].calibrator).coefficients;
        for (std::size_t i = 0; i < expected.size(); ++i)
            QCOMPARE(std::bit_cast<std::uint64_t>(coefficients[i]), std::bit_cast<std::uint64_t>(expected[i]));

        // And the file holds them as REAL, the uint64 id as the integer with the same bits.
        QCOMPARE(queryInt(file, "SELECT count(*) FROM polynomial_coefficient WHERE typeof(value) <> 'real'"), 0);
        QCOMPARE(queryInt(file, "SELECT secondary_id_value FROM packet WHERE name = 'EVENTS'"),
            std::bit_cast<std::int64_t>(std::uint64_t { 0xFEDCBA9876543210ull }));

        // Saving what was loaded gives the same database again.
        const QString again = path(QStringLiteral("rich-again.mdb"));
        QVERIFY(saveDatabase(*loaded, again.toStdString()).ok());
        const auto reloaded = loadDatabase(again.toStdString());
        QVERIFY(reloaded.ok());
        QVERIFY(*reloaded == original);
    }

    void roundTripEmptyDatabase()
    {
        const QString file = path(QStringLiteral("empty-model.mdb"));
        QVERIFY(saveDatabase(MissionDatabase {}, file.toStdString()).ok());
        const auto loaded = loadDatabase(file.toStdString());
        QVERIFY2(loaded.ok(), loaded.ok() ? "" : loaded.error().toString().c_str());
        QVERIFY(*loaded == MissionDatabase {});
        QCOMPARE(queryInt(file, "SELECT count(*) FROM mission"), 1);
    }

    // The order of packets and parameters is the model's, not alphabetical nor by APID.
    void orderIsKept()
    {
        MissionDatabase db;
        for (const char* name : { "ZULU", "ALPHA", "MIKE" }) {
            PacketDef p;
            p.name = name;
            p.apid = static_cast<std::uint16_t>(2000 - db.packets.size());
            p.length = 100;
            for (const char* q : { "Z", "A", "M", "B" }) {
                ParameterDef param;
                param.name = q;
                param.bitOffset = 48;
                param.bitLength = 8;
                p.parameters.push_back(param);
            }
            db.packets.push_back(p);
        }
        const QString file = path(QStringLiteral("order.mdb"));
        QVERIFY(saveDatabase(db, file.toStdString()).ok());
        const auto loaded = loadDatabase(file.toStdString());
        QVERIFY(loaded.ok());
        QVERIFY2(*loaded == db, qPrintable(firstDifference(*loaded, db)));
    }

    void fileIsMarkedAsMissionDatabase()
    {
        const QString file = path(QStringLiteral("marked.mdb"));
        QVERIFY(saveDatabase(richDatabase(), file.toStdString()).ok());
        QCOMPARE(queryInt(file, "PRAGMA application_id"), kApplicationId);
        QCOMPARE(queryInt(file, "PRAGMA user_version"), kSchemaVersion);
        const auto version = schemaVersion(file.toStdString());
        QVERIFY(version.ok());
        QCOMPARE(*version, kSchemaVersion);
        QVERIFY(hasSqliteHeader(file.toStdString()));
        QVERIFY(!QFile::exists(file + QStringLiteral("-journal")));
    }

    // The schema itself enforces what it promises, for whoever writes to the file.
    void schemaEnforcesConstraints()
    {
        const QString file = path(QStringLiteral("constraints.mdb"));
        QVERIFY(saveDatabase(richDatabase(), file.toStdString()).ok());
        const std::string fk = "PRAGMA foreign_keys = ON; ";

        QVERIFY(execSql(file, "UPDATE packet SET apid = 2048 WHERE name = 'EVENTS'").contains(QLatin1String("CHECK")));
        QVERIFY(execSql(file, "UPDATE packet SET apid = -1 WHERE name = 'EVENTS'").contains(QLatin1String("CHECK")));
        QVERIFY(
            execSql(file, "UPDATE parameter SET bit_length = 0 WHERE name = 'TEMP'").contains(QLatin1String("CHECK")));
        QVERIFY(execSql(file, "UPDATE parameter SET data_type = 'DOUBLE'").contains(QLatin1String("CHECK")));
        QVERIFY(
            execSql(file, "UPDATE parameter SET name = 'MODE' WHERE name = 'TEMP'").contains(QLatin1String("UNIQUE")));
        QVERIFY(execSql(file, "UPDATE packet SET name = 'EVENTS' WHERE name = 'HK_FAST'")
                    .contains(QLatin1String("UNIQUE")));
        QVERIFY(execSql(file, "UPDATE parameter SET bit_offset = 'twelve'").contains(QLatin1String("cannot store")));
        QVERIFY(execSql(file,
            fk
                + "INSERT INTO parameter (id, packet_id, position, name, bit_offset, bit_length,"
                  " data_type, units, description, overlap_allowed)"
                  " VALUES (999, 999, 0, 'LOST', 0, 1, 'UINT', '', '', 0)")
                    .contains(QLatin1String("FOREIGN KEY")));
        // The same name in another packet is fine.
        QCOMPARE(execSql(file, "UPDATE parameter SET name = 'MODE' WHERE name = 'CODE'"), QString());

        // Deleting a packet removes its parameters and everything below them.
        const std::int64_t before = queryInt(file, "SELECT count(*) FROM state");
        QVERIFY(before > 0);
        QCOMPARE(execSql(file, fk + "DELETE FROM packet WHERE name = 'HK_FAST'"), QString());
        QCOMPARE(queryInt(file, "SELECT count(*) FROM parameter WHERE packet_id NOT IN (SELECT id FROM packet)"), 0);
        QCOMPARE(
            queryInt(file,
                "SELECT count(*) FROM polynomial_coefficient WHERE parameter_id NOT IN (SELECT id FROM parameter)"),
            0);
        QCOMPARE(
            queryInt(file, "SELECT count(*) FROM numeric_limits WHERE parameter_id NOT IN (SELECT id FROM parameter)"),
            0);
        QCOMPARE(
            queryInt(file, "SELECT count(*) FROM expected_state WHERE parameter_id NOT IN (SELECT id FROM parameter)"),
            0);
        QCOMPARE(queryInt(file, "SELECT count(*) FROM state"), 2); // UNIX_TIME.FLAG's
    }

    void saveReplacesWholeContent()
    {
        const QString file = path(QStringLiteral("replace.mdb"));
        QVERIFY(saveDatabase(largeDatabase(), file.toStdString()).ok());
        MissionDatabase small;
        small.name = "small";
        small.packets.push_back(richDatabase().packets[2]);
        QVERIFY(saveDatabase(small, file.toStdString()).ok());
        const auto loaded = loadDatabase(file.toStdString());
        QVERIFY(loaded.ok());
        QVERIFY2(*loaded == small, qPrintable(firstDifference(*loaded, small)));
        QCOMPARE(queryInt(file, "SELECT count(*) FROM parameter"), 0);
    }

    // A version-1 file is replaced by a version-2 one, not patched.
    void saveReplacesOlderSchema()
    {
        const QString file = path(QStringLiteral("replace-v1.mdb"));
        QCOMPARE(makeVersion1File(file), QString());
        const MissionDatabase db = richDatabase();
        QVERIFY(saveDatabase(db, file.toStdString()).ok());
        QCOMPARE(queryInt(file, "PRAGMA user_version"), kSchemaVersion);
        const auto loaded = loadDatabase(file.toStdString());
        QVERIFY(loaded.ok());
        QVERIFY(*loaded == db);
    }

    // A mission database that somebody gave a view, a trigger or a table of their own: saving over it
    // would drop what is not ours (and the names would have to become SQL). Refused, naming them; the
    // file stays as it was and still loads.
    void saveRefusesToDropWhatIsNotOurs()
    {
        const QString file = path(QStringLiteral("with-extras.mdb"));
        const MissionDatabase db = richDatabase();
        QVERIFY(saveDatabase(db, file.toStdString()).ok());
        QCOMPARE(execSql(file, "CREATE VIEW \"my \"\"view\"\"\" AS SELECT name FROM packet;"
                               "CREATE TABLE notes (text TEXT); INSERT INTO notes VALUES ('keep me');"),
                 QString());
        const QByteArray bytes = readBytes(file);
        MissionDatabase other;
        other.name = "other";
        const Status s = saveDatabase(other, file.toStdString());
        QVERIFY(!s.ok());
        QVERIFY2(s.error().message.find("holds more than a mission database (table 'notes', view 'my \"view\"')")
                     != std::string::npos,
                 s.error().message.c_str());
        QCOMPARE(readBytes(file), bytes);
        const auto loaded = loadDatabase(file.toStdString());
        QVERIFY(loaded.ok());
        QVERIFY(*loaded == db);
        QCOMPARE(queryInt(file, "SELECT count(*) FROM notes"), 1);
    }

    void failedSaveLeavesFileUnchanged_data()
    {
        QTest::addColumn<int>("index");
        for (std::size_t i = 0; i < brokenSaves().size(); ++i)
            QTest::newRow(brokenSaves()[i].name) << static_cast<int>(i);
    }
    void failedSaveLeavesFileUnchanged()
    {
        QFETCH(int, index);
        const BrokenSave& broken = brokenSaves()[static_cast<std::size_t>(index)];
        const QString file = path(QStringLiteral("atomic-%1.mdb").arg(index));
        MissionDatabase before;
        before.name = "before";
        before.packets.push_back(richDatabase().packets[1]);
        QVERIFY(saveDatabase(before, file.toStdString()).ok());
        const QByteArray bytes = readBytes(file);
        QVERIFY(!bytes.isEmpty());

        MissionDatabase db = richDatabase();
        db.name = "after";
        broken.breakIt(db);
        const Status s = saveDatabase(db, file.toStdString());
        QVERIFY(!s.ok());
        const std::string message = s.error().toString();
        QCOMPARE(s.error().where.file, file.toStdString());
        QVERIFY2(message.find(broken.expectedMessage) != std::string::npos, message.c_str());
        QVERIFY2(message.find(broken.expectedObject) != std::string::npos, message.c_str());

        QCOMPARE(readBytes(file), bytes);
        QVERIFY(!QFile::exists(file + QStringLiteral("-journal")));
        const auto loaded = loadDatabase(file.toStdString());
        QVERIFY(loaded.ok());
        QVERIFY(*loaded == before);

        // A new file that could not be saved is not left behind.
        const QString fresh = path(QStringLiteral("atomic-new-%1.mdb").arg(index));
        QVERIFY(!saveDatabase(db, fresh.toStdString()).ok());
        QVERIFY(!QFile::exists(fresh));
        QVERIFY(!QFile::exists(fresh + QStringLiteral("-journal")));
    }

    void saveRefusesOtherFiles()
    {
        const QString text = path(QStringLiteral("notes.mdb"));
        QVERIFY(writeBytes(text, "PACKET HK APID 1 LENGTH 8\n"));
        Status s = saveDatabase(richDatabase(), text.toStdString());
        QVERIFY(!s.ok());
        QCOMPARE(s.error().where.file, text.toStdString());
        QCOMPARE(readBytes(text), QByteArray("PACKET HK APID 1 LENGTH 8\n"));

        const QString other = path(QStringLiteral("other-app.db"));
        QCOMPARE(
            execSql(other, "CREATE TABLE customers (id INTEGER, name TEXT); INSERT INTO customers VALUES (1, 'x');"),
            QString());
        const QByteArray otherBytes = readBytes(other);
        s = saveDatabase(richDatabase(), other.toStdString());
        QVERIFY(!s.ok());
        QVERIFY2(s.error().message.find("not a mission database") != std::string::npos, s.error().message.c_str());
        QCOMPARE(readBytes(other), otherBytes);

        const QString dir = path(QStringLiteral("a-directory.mdb"));
        QVERIFY(QDir().mkpath(dir));
        QVERIFY(!saveDatabase(richDatabase(), dir.toStdString()).ok());

        // An empty file (as made by touch) is a new database.
        const QString touched = path(QStringLiteral("touched.mdb"));
        QVERIFY(writeBytes(touched, QByteArray()));
        QVERIFY(saveDatabase(richDatabase(), touched.toStdString()).ok());
        QVERIFY(loadDatabase(touched.toStdString()).ok());
    }

    void saveRefusesReadOnlyFile()
    {
        const QString file = path(QStringLiteral("read-only-save.mdb"));
        QVERIFY(saveDatabase(richDatabase(), file.toStdString()).ok());
        const QByteArray bytes = readBytes(file);
        QVERIFY(QFile::setPermissions(file, QFileDevice::ReadOwner | QFileDevice::ReadGroup | QFileDevice::ReadOther));
        const Status s = saveDatabase(MissionDatabase {}, file.toStdString());
        QVERIFY(QFile::setPermissions(file, QFileDevice::ReadOwner | QFileDevice::WriteOwner));
        QVERIFY(!s.ok());
        QVERIFY2(s.error().message.find("read-only") != std::string::npos, s.error().message.c_str());
        QCOMPARE(readBytes(file), bytes);
    }

    void schemaVersionOfFiles()
    {
        const QString empty = path(QStringLiteral("version-empty.mdb"));
        QVERIFY(writeBytes(empty, QByteArray()));
        auto v = schemaVersion(empty.toStdString());
        QVERIFY(v.ok());
        QCOMPARE(*v, 0);

        const QString emptySqlite = path(QStringLiteral("version-empty-sqlite.mdb"));
        QCOMPARE(execSql(emptySqlite, "PRAGMA page_size = 4096; VACUUM;"), QString());
        QVERIFY(hasSqliteHeader(emptySqlite.toStdString()));
        v = schemaVersion(emptySqlite.toStdString());
        QVERIFY2(v.ok(), v.ok() ? "" : v.error().toString().c_str());
        QCOMPARE(*v, 0);

        const QString v1 = path(QStringLiteral("version-1.mdb"));
        QCOMPARE(makeVersion1File(v1), QString());
        v = schemaVersion(v1.toStdString());
        QVERIFY(v.ok());
        QCOMPARE(*v, 1);
        QCOMPARE(queryInt(v1, "PRAGMA user_version"), 1); // asked, not upgraded

        const QString newer = path(QStringLiteral("version-7.mdb"));
        QVERIFY(saveDatabase(richDatabase(), newer.toStdString()).ok());
        QCOMPARE(execSql(newer, "PRAGMA user_version = 7"), QString());
        v = schemaVersion(newer.toStdString());
        QVERIFY(v.ok());
        QCOMPARE(*v, 7);

        v = schemaVersion(path(QStringLiteral("missing.mdb")).toStdString());
        QVERIFY(!v.ok());
        const QString text = path(QStringLiteral("version-text.mdb"));
        QVERIFY(writeBytes(text, "hello\n"));
        v = schemaVersion(text.toStdString());
        QVERIFY(!v.ok());
        QCOMPARE(v.error().where.file, text.toStdString());
        const QString other = path(QStringLiteral("version-other.db"));
        QCOMPARE(execSql(other, "CREATE TABLE t (x)"), QString());
        QVERIFY(!schemaVersion(other.toStdString()).ok());
    }

    void upgradeVersion1File()
    {
        const QString file = path(QStringLiteral("upgrade-v1.mdb"));
        QCOMPARE(makeVersion1File(file), QString());
        QCOMPARE(queryInt(file, "PRAGMA user_version"), 1);
        QCOMPARE(queryInt(file, "PRAGMA application_id"), 0);

        const auto loaded = loadDatabase(file.toStdString());
        QVERIFY2(loaded.ok(), loaded.ok() ? "" : loaded.error().toString().c_str());
        const MissionDatabase expected = version1Model();
        QVERIFY2(*loaded == expected, qPrintable(firstDifference(*loaded, expected)));

        QCOMPARE(queryInt(file, "PRAGMA user_version"), kSchemaVersion);
        QCOMPARE(queryInt(file, "PRAGMA application_id"), kApplicationId);
        QCOMPARE(queryInt(file, "SELECT count(*) FROM parameter WHERE limits_enabled <> 1"), 0);
        QCOMPARE(
            queryInt(file, "SELECT count(*) FROM packet WHERE cuc_p_field <> 0 OR secondary_id_value IS NOT NULL"), 0);

        // Loaded again as a version-2 file: the same.
        const auto again = loadDatabase(file.toStdString());
        QVERIFY(again.ok());
        QVERIFY(*again == expected);

        // The upgraded tables are the ones a new file gets, column for column.
        const QString fresh = path(QStringLiteral("upgrade-fresh.mdb"));
        QVERIFY(saveDatabase(expected, fresh.toStdString()).ok());
        const QStringList upgradedLayout = tableLayout(file);
        QVERIFY(upgradedLayout.size() > 40);
        QCOMPARE(upgradedLayout, tableLayout(fresh));

        // And they enforce the new columns' constraints.
        QVERIFY(execSql(file,
            "UPDATE packet SET secondary_id_bit_offset = 48, secondary_id_bit_length = 65,"
            " secondary_id_value = 1")
                    .contains(QLatin1String("CHECK")));
        QVERIFY(execSql(file, "UPDATE packet SET secondary_id_bit_offset = 48").contains(QLatin1String("CHECK")));
    }

    void upgradeOfReadOnlyFileFails()
    {
        const QString file = path(QStringLiteral("upgrade-read-only.mdb"));
        QCOMPARE(makeVersion1File(file), QString());
        const QByteArray bytes = readBytes(file);
        QVERIFY(QFile::setPermissions(file, QFileDevice::ReadOwner | QFileDevice::ReadGroup | QFileDevice::ReadOther));
        const auto loaded = loadDatabase(file.toStdString());
        QVERIFY(QFile::setPermissions(file, QFileDevice::ReadOwner | QFileDevice::WriteOwner));
        QVERIFY(!loaded.ok());
        const std::string message = loaded.error().toString();
        QCOMPARE(loaded.error().where.file, file.toStdString());
        QVERIFY2(message.find("schema version 1 must be upgraded to 3") != std::string::npos, message.c_str());
        QVERIFY2(message.find("read-only") != std::string::npos, message.c_str());
        QCOMPARE(readBytes(file), bytes);
        QCOMPARE(queryInt(file, "PRAGMA user_version"), 1);

        // A current file needs no upgrade: read-only is fine.
        const QString current = path(QStringLiteral("read-only-current.mdb"));
        QVERIFY(saveDatabase(richDatabase(), current.toStdString()).ok());
        QVERIFY(
            QFile::setPermissions(current, QFileDevice::ReadOwner | QFileDevice::ReadGroup | QFileDevice::ReadOther));
        const auto ok = loadDatabase(current.toStdString());
        QVERIFY(QFile::setPermissions(current, QFileDevice::ReadOwner | QFileDevice::WriteOwner));
        QVERIFY2(ok.ok(), ok.ok() ? "" : ok.error().toString().c_str());
        QVERIFY(*ok == richDatabase());
    }

    void refusesNewerSchema()
    {
        const QString file = path(QStringLiteral("newer.mdb"));
        QVERIFY(saveDatabase(richDatabase(), file.toStdString()).ok());
        QCOMPARE(execSql(file, "PRAGMA user_version = 4"), QString());
        const QByteArray bytes = readBytes(file);
        const auto loaded = loadDatabase(file.toStdString());
        QVERIFY(!loaded.ok());
        QCOMPARE(QString::fromStdString(loaded.error().toString()),
            file + QStringLiteral(": created by a newer Telestation: schema 4, this build reads up to 3"));
        QCOMPARE(readBytes(file), bytes);
    }

    void refusesFilesThatAreNotMissionDatabases_data()
    {
        QTest::addColumn<QString>("name");
        QTest::addColumn<QByteArray>("content"); // written as is, unless empty
        QTest::addColumn<QString>("sql"); // run on the file, unless empty
        QTest::addColumn<QString>("expected");

        QByteArray random(8192, '\0');
        std::mt19937 generator(20240601);
        for (auto& byte : random)
            byte = static_cast<char>(generator() & 0xFF);
        QByteArray magicThenRandom = QByteArray("SQLite format 3", 16) + random;

        QTest::newRow("missing") << "missing.mdb" << QByteArray() << QString() << "file not found";
        QTest::newRow("text named .mdb") << "text.mdb" << QByteArray("MISSION \"x\"\nPACKET HK APID 1 LENGTH 8\n")
                                         << QString() << "not an SQLite file";
        QTest::newRow("random bytes") << "random.mdb" << random << QString() << "not an SQLite file";
        QTest::newRow("SQLite header then random") << "fake-header.mdb" << magicThenRandom << QString() << "";
        QTest::newRow("short file") << "short.mdb" << QByteArray("SQLite") << QString() << "not an SQLite file";
        QTest::newRow("empty file") << "zero.mdb" << QByteArray() << "-"
                                    << "an empty file";
        QTest::newRow("empty SQLite database") << "empty.db" << QByteArray() << "PRAGMA page_size = 1024; VACUUM;"
                                               << "an empty SQLite database";
        QTest::newRow("other tables") << "other.db" << QByteArray()
                                      << "CREATE TABLE customers (id INTEGER PRIMARY KEY, name TEXT);"
                                      << "without the mission database tables";
        QTest::newRow("another application")
            << "app.db" << QByteArray() << "CREATE TABLE packet (x); PRAGMA application_id = 1234;"
            << "another application (application_id 0x000004D2)";
        QTest::newRow("our id without tables")
            << "id-only.db" << QByteArray()
            << "CREATE TABLE x (y); PRAGMA application_id = 1414745412; PRAGMA user_version = 2;"
            << "without its tables";
        QTest::newRow("no schema version")
            << "version-0.db" << QByteArray()
            << "CREATE TABLE mission (x); CREATE TABLE packet (x); CREATE TABLE parameter (x);"
            << "without a schema version";
    }
    void refusesFilesThatAreNotMissionDatabases()
    {
        QFETCH(QString, name);
        QFETCH(QByteArray, content);
        QFETCH(QString, sql);
        QFETCH(QString, expected);
        const QString file = path(QStringLiteral("refuse-") + name);
        if (!content.isEmpty() || sql == QLatin1String("-"))
            QVERIFY(writeBytes(file, content));
        else if (!sql.isEmpty())
            QCOMPARE(execSql(file, sql.toStdString()), QString());
        const QByteArray before = readBytes(file);

        const auto loaded = loadDatabase(file.toStdString());
        QVERIFY(!loaded.ok());
        const std::string message = loaded.error().toString();
        QCOMPARE(loaded.error().where.file, file.toStdString());
        QVERIFY2(message.rfind(file.toStdString() + ": ", 0) == 0, message.c_str());
        QVERIFY2(message.find(expected.toStdString()) != std::string::npos, message.c_str());
        QCOMPARE(readBytes(file), before);
        QCOMPARE(QFile::exists(file), name != QLatin1String("missing.mdb"));
    }

    void refusesDirectory()
    {
        const QString dir = path(QStringLiteral("dir.mdb"));
        QVERIFY(QDir().mkpath(dir));
        const auto loaded = loadDatabase(dir.toStdString());
        QVERIFY(!loaded.ok());
        QVERIFY(loaded.error().message.find("directory") != std::string::npos);
    }

    void truncatedFileGivesError()
    {
        const QString good = path(QStringLiteral("whole.mdb"));
        const MissionDatabase db = largeDatabase();
        QVERIFY(saveDatabase(db, good.toStdString()).ok());
        const QByteArray bytes = readBytes(good);
        QVERIFY(bytes.size() > 8 * 4096);

        const QString half = path(QStringLiteral("half.mdb"));
        QVERIFY(writeBytes(half, bytes.left(bytes.size() / 2)));
        const auto loaded = loadDatabase(half.toStdString());
        QVERIFY(!loaded.ok());
        QCOMPARE(loaded.error().where.file, half.toStdString());

        // Cut anywhere: an error, or (if only unused pages went) exactly the saved database; never a
        // crash and never a different database.
        const QString cut = path(QStringLiteral("cut.mdb"));
        for (qsizetype size = 0; size < bytes.size(); size += 1531) {
            QVERIFY(writeBytes(cut, bytes.left(size)));
            const auto r = loadDatabase(cut.toStdString());
            if (r.ok())
                QVERIFY2(*r == db, qPrintable(QStringLiteral("cut at %1").arg(size)));
            else
                QCOMPARE(r.error().where.file, cut.toStdString());
        }
    }

    void damagedFileGivesErrorNotCrash()
    {
        const QString good = path(QStringLiteral("undamaged.mdb"));
        const MissionDatabase db = largeDatabase();
        QVERIFY(saveDatabase(db, good.toStdString()).ok());
        const QByteArray bytes = readBytes(good);
        const QString damaged = path(QStringLiteral("damaged.mdb"));
        std::mt19937 generator(7);
        int errors = 0;
        for (qsizetype offset = 100; offset < bytes.size(); offset += 997) {
            QByteArray copy = bytes;
            for (qsizetype i = offset; i < std::min(offset + 64, copy.size()); ++i)
                copy[i] = static_cast<char>(generator() & 0xFF);
            QVERIFY(writeBytes(damaged, copy));
            const auto r = loadDatabase(damaged.toStdString());
            if (r.ok()) {
                // Damage that reached a value, not the structure, shows as a different value; never a crash.
                continue;
            }
            ++errors;
            QCOMPARE(r.error().where.file, damaged.toStdString());
        }
        QVERIFY(errors > 0);
    }

    void rowsThatViolateTheModel_data()
    {
        QTest::addColumn<int>("index");
        for (std::size_t i = 0; i < tamperings().size(); ++i)
            QTest::newRow(tamperings()[i].name) << static_cast<int>(i);
    }
    void rowsThatViolateTheModel()
    {
        QFETCH(int, index);
        const Tampering& t = tamperings()[static_cast<std::size_t>(index)];
        const QString file = path(QStringLiteral("tampered-%1.mdb").arg(index));
        QVERIFY(saveDatabase(richDatabase(), file.toStdString()).ok());
        QCOMPARE(execSql(file, std::string("PRAGMA ignore_check_constraints = ON; ") + t.sql), QString());
        const auto loaded = loadDatabase(file.toStdString());
        QVERIFY(!loaded.ok());
        const std::string message = loaded.error().toString();
        QCOMPARE(loaded.error().where.file, file.toStdString());
        QVERIFY2(message.find(t.expectedMessage) != std::string::npos, message.c_str());
    }

    void roundTripGeneralisedDatabase()
    {
        const MissionDatabase original = generalisedDatabase();
        const QString file = path(QStringLiteral("generalised.mdb"));
        const Status saved = saveDatabase(original, file.toStdString());
        QVERIFY2(saved.ok(), saved.ok() ? "" : saved.error().toString().c_str());
        const auto loaded = loadDatabase(file.toStdString());
        QVERIFY2(loaded.ok(), loaded.ok() ? "" : loaded.error().toString().c_str());
        QVERIFY2(*loaded == original, qPrintable(firstDifference(*loaded, original)));

        // Infinities are stored as REAL and come back as infinities; tiny and awkward values bit for bit.
        QCOMPARE(queryInt(file, "SELECT count(*) FROM numeric_limits WHERE typeof(red_low) = 'real'"
                                " AND red_low = -9e999 AND red_high = 9e999"), 1);
        const auto& limits = std::get<NumericLimits>(loaded->packets[0].parameters[2].limits);
        QVERIFY(std::isinf(limits.redLow) && limits.redLow < 0 && std::isinf(limits.redHigh) && limits.redHigh > 0);
        const auto& t = std::get<TimeCalibrator>(loaded->packets[0].parameters[5].calibrator);
        QCOMPARE(std::bit_cast<std::uint64_t>(t.offset), std::bit_cast<std::uint64_t>(-5e-324));
        QCOMPARE(loaded->packets[0].criteria[1].value, std::numeric_limits<std::uint64_t>::max());
        QCOMPARE(queryInt(file, "SELECT count(*) FROM context_calibration"), 5);
        QCOMPARE(queryInt(file, "SELECT count(*) FROM context_calibration WHERE calibrator IS NULL"), 1);

        // A context of every kind, and a database with none of the new rows, again.
        QVERIFY(saveDatabase(*loaded, file.toStdString()).ok());
        const auto again = loadDatabase(file.toStdString());
        QVERIFY(again.ok());
        QVERIFY(*again == original);

        // Deleting a packet removes the new child rows too.
        QCOMPARE(execSql(file, "PRAGMA foreign_keys = ON; DELETE FROM packet"), QString());
        for (const char* table : { "packet_alias", "packet_criterion", "parameter_alias", "include_condition",
                 "context_calibration", "context_condition", "context_polynomial_coefficient", "context_point_pair" })
            QCOMPARE(queryInt(file, std::string("SELECT count(*) FROM ") + table), 0);
    }

    void schemaEnforcesNewConstraints()
    {
        const QString file = path(QStringLiteral("constraints-v3.mdb"));
        QVERIFY(saveDatabase(generalisedDatabase(), file.toStdString()).ok());
        QCOMPARE(execSql(file, "UPDATE parameter SET data_type = 'INT_ONES_COMPLEMENT' WHERE name = 'VERSION'"),
            QString());
        QVERIFY(execSql(file, "UPDATE packet_criterion SET op = '=<'").contains(QLatin1String("CHECK")));
        QVERIFY(execSql(file, "UPDATE parameter SET bit_length = 8 WHERE name = 'DATA'").contains(QLatin1String("CHECK")));
        QVERIFY(execSql(file, "UPDATE parameter SET bit_length = 0 WHERE name = 'VERSION'").contains(QLatin1String("CHECK")));
        QVERIFY(execSql(file, "UPDATE parameter SET time_epoch = NULL WHERE name = 'T'").contains(QLatin1String("CHECK")));
        QVERIFY(execSql(file, "UPDATE context_calibration SET calibrator = 'ENUMERATION'").contains(QLatin1String("CHECK")));
        QVERIFY(execSql(file, "UPDATE parameter SET size_leading_bits = 256").contains(QLatin1String("CHECK")));
    }

    // A version-2 file made with the historical DDL upgrades in place to version 3: same model (with the
    // defaults of the new columns), same tables as a new file, child rows kept through the rebuild of
    // the parameter table, and its constraints and cascades in force.
    void upgradeVersion2File()
    {
        const QString file = path(QStringLiteral("upgrade-v2.mdb"));
        std::string sql(test::kMdbSchemaV2);
        sql += R"sql(
INSERT INTO mission VALUES (1, 'Version 2');
INSERT INTO packet (id, position, name, apid, length, variable_length, max_length, byte_order, description,
                    cuc_coarse_bytes, cuc_fine_bytes, cuc_epoch, cuc_p_field,
                    secondary_id_bit_offset, secondary_id_bit_length, secondary_id_value)
VALUES (5, 0, 'HK', 100, 64, 0, 0, 'BIG_ENDIAN', 'Housekeeping', 4, 2, 'TAI', 1, 104, 8, -1);
INSERT INTO parameter (id, packet_id, position, name, bit_offset, bit_length, data_type, byte_order, units,
                       description, overlap_allowed, calibrator, limits, limits_enabled)
VALUES (7, 5, 0, 'MODE', 112, 8, 'UINT', NULL, '', '', 0, 'ENUMERATION', 'EXPECTED_STATES', 0),
       (8, 5, 1, 'TEMP', 120, 16, 'INT', 'LITTLE_ENDIAN', 'C', 'Temp', 1, 'POLYNOMIAL', 'NUMERIC', 1),
       (9, 5, 2, 'CURVE', 136, 16, 'UINT', NULL, '', '', 0, 'POINT_PAIRS', NULL, 1);
INSERT INTO state VALUES (7, 0, 0, 0, 'SAFE'), (7, 1, 1, 3, 'NOMINAL');
INSERT INTO expected_state VALUES (7, 0, 'NOMINAL');
INSERT INTO polynomial_coefficient VALUES (8, 0, -40.0), (8, 1, 0.125);
INSERT INTO numeric_limits VALUES (8, -9e999, -10.0, 50.0, 9e999);
INSERT INTO point_pair VALUES (9, 0, 0.0, 0.0), (9, 1, 4095.0, 5.0);
PRAGMA application_id = 1414745412;
PRAGMA user_version = 2;
)sql";
        QCOMPARE(execSql(file, sql), QString());
        QCOMPARE(*schemaVersion(file.toStdString()), 2);

        MissionDatabase expected;
        expected.name = "Version 2";
        PacketDef hk;
        hk.name = "HK";
        hk.apid = 100;
        hk.length = 64;
        hk.description = "Housekeeping";
        hk.secondaryHeader = CucLayout { 4, 2, true, TimeEpoch::Tai1958 };
        hk.secondaryId = SecondaryId { 104, 8, std::numeric_limits<std::uint64_t>::max() };
        ParameterDef mode;
        mode.name = "MODE";
        mode.bitOffset = 112;
        mode.bitLength = 8;
        mode.calibrator = EnumerationCalibrator { { { 0, 0, "SAFE" }, { 1, 3, "NOMINAL" } } };
        mode.limits = StateLimits { { "NOMINAL" }, false };
        ParameterDef temp;
        temp.name = "TEMP";
        temp.bitOffset = 120;
        temp.bitLength = 16;
        temp.type = DataType::SignedInt;
        temp.byteOrder = ByteOrder::LittleEndian;
        temp.units = "C";
        temp.description = "Temp";
        temp.overlapAllowed = true;
        temp.calibrator = PolynomialCalibrator { { -40.0, 0.125 } };
        temp.limits = NumericLimits { -kInf, -10, 50, kInf, true };
        ParameterDef curve;
        curve.name = "CURVE";
        curve.bitOffset = 136;
        curve.bitLength = 16;
        curve.calibrator = PointPairCalibrator { { { 0, 0 }, { 4095, 5 } } };
        hk.parameters = { mode, temp, curve };
        expected.packets = { hk };

        const auto loaded = loadDatabase(file.toStdString());
        QVERIFY2(loaded.ok(), loaded.ok() ? "" : loaded.error().toString().c_str());
        QVERIFY2(*loaded == expected, qPrintable(firstDifference(*loaded, expected)));
        QCOMPARE(queryInt(file, "PRAGMA user_version"), 3);
        QCOMPARE(queryInt(file, "PRAGMA foreign_key_check", 0), 0);

        // The tables of a new file, column for column.
        const QString fresh = path(QStringLiteral("upgrade-v2-fresh.mdb"));
        QVERIFY(saveDatabase(expected, fresh.toStdString()).ok());
        const QStringList upgradedLayout = tableLayout(file);
        QVERIFY(upgradedLayout.size() > 80);
        QCOMPARE(upgradedLayout, tableLayout(fresh));

        // The rebuilt parameter table still has its parent's cascade and its children's references.
        QVERIFY(execSql(file, "UPDATE parameter SET data_type = 'DOUBLE'").contains(QLatin1String("CHECK")));
        QCOMPARE(execSql(file, "UPDATE parameter SET data_type = 'INT_SIGN_MAGNITUDE' WHERE name = 'TEMP'"), QString());
        QVERIFY(execSql(file, "PRAGMA foreign_keys = ON; INSERT INTO state VALUES (99, 0, 0, 0, 'X')")
                    .contains(QLatin1String("FOREIGN KEY")));
        QCOMPARE(execSql(file, "PRAGMA foreign_keys = ON; DELETE FROM packet"), QString());
        QCOMPARE(queryInt(file, "SELECT count(*) FROM parameter"), 0);
        QCOMPARE(queryInt(file, "SELECT count(*) FROM state"), 0);
        QCOMPARE(queryInt(file, "SELECT count(*) FROM polynomial_coefficient"), 0);
    }

    // 10,000 parameters in 50 packets, each with a calibrator, most with limits, some with the new
    // rows: loading reads each table once (the target is < 0.5 s in a release build).
    void loadsLargeDatabaseQuickly()
    {
        MissionDatabase db;
        db.name = "large";
        for (int i = 0; i < 50; ++i) {
            PacketDef p;
            p.name = "P" + std::to_string(i);
            p.apid = static_cast<std::uint16_t>(i);
            p.length = 6 + 200 * 2;
            p.aliases = { Alias { "ops", "p" + std::to_string(i) } };
            for (int j = 0; j < 200; ++j) {
                ParameterDef q;
                q.name = "Q" + std::to_string(j);
                q.bitOffset = static_cast<std::uint32_t>(48 + 16 * j);
                q.bitLength = 16;
                q.description = "parameter " + std::to_string(j);
                if (j % 3 == 0)
                    q.calibrator = PolynomialCalibrator { { 0.5, 2, 1e-3 } };
                else if (j % 3 == 1)
                    q.calibrator = PointPairCalibrator { { { 0, 0 }, { 100, 1 }, { 65535, 7 } } };
                else
                    q.calibrator = EnumerationCalibrator { { { 0, 0, "OFF" }, { 1, 1, "ON" } } };
                if (j % 3 != 2)
                    q.limits = NumericLimits { -kInf, 1, 2, 3, true };
                if (j % 10 == 5) {
                    q.includeWhen = { Condition { "Q0", CompareOp::Equal, 1, false } };
                    q.contextCalibrators = { ContextCalibration { { Condition { "Q0", CompareOp::Equal, 2, true } },
                        PolynomialCalibrator { { 1, 2 } } } };
                }
                p.parameters.push_back(std::move(q));
            }
            db.packets.push_back(std::move(p));
        }
        const QString file = path(QStringLiteral("large.mdb"));
        QVERIFY(saveDatabase(db, file.toStdString()).ok());
        QElapsedTimer timer;
        timer.start();
        const auto loaded = loadDatabase(file.toStdString());
        const qint64 ms = timer.elapsed();
        QVERIFY(loaded.ok());
        QCOMPARE(loaded->parameterCount(), std::size_t { 10000 });
        QVERIFY(*loaded == db);
        // The figure only: timing is bench_mission's (a test must not fail on a busy machine).
        qInfo("loaded 10,000 parameters in 50 packets in %lld ms", static_cast<long long>(ms));
    }

    void summaryDescribesEveryPacket()
    {
        const QString file = path(QStringLiteral("summary.mdb"));
        QVERIFY(saveDatabase(richDatabase(), file.toStdString()).ok());
        const auto loaded = loadDatabase(file.toStdString());
        QVERIFY(loaded.ok());
        const QString summary = QString::fromStdString(summarize(*loaded));
        const QStringList lines = summary.split(QLatin1Char('\n'), Qt::SkipEmptyParts);
        QCOMPARE(lines.size(), 3 + 1 + 4); // counts, header, one line per packet
        QCOMPARE(lines[0], QStringLiteral("Mission: Training mission \u2713 \"quoted\""));
        QCOMPARE(lines[1], QStringLiteral("Packets: 4"));
        QCOMPARE(lines[2], QStringLiteral("Parameters: 11"));
        QVERIFY(lines[3].contains(QLatin1String("APID")));

        const auto fields = [&](int i) { return lines[i].split(QLatin1Char(' '), Qt::SkipEmptyParts); };
        QCOMPARE(fields(4).mid(0, 4), (QStringList { "HK_FAST", "100", "64", "8" }));
        QVERIFY(lines[4].contains(QLatin1String("CUC 4+2 TAI")));
        QVERIFY(lines[4].endsWith(QLatin1String("big-endian")));
        QCOMPARE(fields(5).mid(0, 4), (QStringList { "EVENTS", "2047", "16..4294967295", "2" }));
        QVERIFY(lines[5].contains(QLatin1String("bits 48..111 = 18364758544493064720")));
        QVERIFY(lines[5].contains(QLatin1String("CUC 1+0 P-field GPS")));
        QVERIFY(lines[5].endsWith(QLatin1String("little-endian")));
        QCOMPARE(fields(6).mid(0, 4), (QStringList { "NO_PARAMETERS", "0", "7", "0" }));
        QVERIFY(lines[6].contains(QLatin1String("bits 0..0 = 0")));
        QVERIFY(lines[7].contains(QLatin1String("CUC 3+3 P-field UNIX")));
        // Columns line up: every packet line puts its APID's last digit in the same place.
        const qsizetype apidEnd = lines[4].indexOf(QLatin1String("100")) + 3;
        QCOMPARE(lines[5].indexOf(QLatin1String("2047")) + 4, apidEnd);

        QVERIFY(lines[4].contains(QLatin1String(" fixed ")));

        // Criteria and variable layouts.
        const QString xtce = QString::fromStdString(summarize(generalisedDatabase()));
        const QStringList xtceLines = xtce.split(QLatin1Char('\n'), Qt::SkipEmptyParts);
        QCOMPARE(xtceLines.size(), 3 + 1 + 2);
        QVERIFY(xtceLines[3].contains(QLatin1String("Criteria")));
        QVERIFY2(xtceLines[4].contains(QLatin1String("variable (3 sized by data, 1 conditional)")), qPrintable(xtce));
        QVERIFY2(xtceLines[4].contains(QLatin1String("bits 0..2 == 0, bits 56..119 != 18446744073709551615")),
            qPrintable(xtce));
        QVERIFY2(xtceLines[5].contains(QLatin1String("bits 48..55 == 1")), qPrintable(xtce));
        QVERIFY(xtceLines[5].contains(QLatin1String(" fixed ")));

        MissionDatabase unnamed;
        QCOMPARE(QString::fromStdString(summarize(unnamed)),
            QStringLiteral("Mission: (unnamed)\nPackets: 0\nParameters: 0\n"));
    }
};

QTEST_GUILESS_MAIN(TestMdbSqliteStore)
#include "tst_mdb_sqlite_store.moc"
