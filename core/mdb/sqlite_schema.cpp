// The schema of the SQLite store: the DDL of the current version, the schema version and application
// id a file carries, and the upgrade of files written by an older Telestation. The DDL of older versions
// is not kept here (the tests keep it, to build such files: tests/support/mdb_schema_history.hpp); an
// upgrade only needs its steps.
//
// Position columns keep the order of packets, parameters, points, states and expected states. Tables
// are STRICT so that a value of the wrong type cannot get in. Codes: sqlite_codes.hpp.
#include "core/mdb/sqlite_store.hpp"
#include "core/mdb/sqlite_store_detail.hpp"
#include "core/sqlite/transaction.hpp"

#include <cstdio>
#include <string>
#include <string_view>

namespace telestation::mdb::detail {
namespace {

// ---- Schema version 3 -----------------------------------------------------------------------------

// Version 3 (issue 12, the model generalised for XTCE): packet long descriptions, paths, aliases and
// criteria; parameter placement, sizes from the packet's data, long descriptions, paths, aliases,
// inclusion conditions, time calibrators and context calibrations; two more integer encodings.
// Written in parts: the upgrade from version 2 rebuilds the parameter table from the same text and
// creates the new tables from the same text, so upgraded and new files are alike by construction.

// The mission and packet tables: those of version 2 with long_description and path appended.
constexpr char kSchemaV3Packets[] = R"sql(
CREATE TABLE mission (
    id   INTEGER PRIMARY KEY CHECK (id = 1),
    name TEXT NOT NULL
) STRICT;

CREATE TABLE packet (
    id               INTEGER PRIMARY KEY,
    position         INTEGER NOT NULL UNIQUE CHECK (position >= 0),
    name             TEXT NOT NULL UNIQUE,
    apid             INTEGER NOT NULL CHECK (apid BETWEEN 0 AND 2047),
    length           INTEGER NOT NULL CHECK (length BETWEEN 0 AND 4294967295),
    variable_length  INTEGER NOT NULL CHECK (variable_length IN (0, 1)),
    max_length       INTEGER NOT NULL CHECK (max_length BETWEEN 0 AND 4294967295),
    byte_order       TEXT NOT NULL CHECK (byte_order IN ('BIG_ENDIAN', 'LITTLE_ENDIAN')),
    description      TEXT NOT NULL,
    cuc_coarse_bytes INTEGER CHECK (cuc_coarse_bytes BETWEEN 1 AND 4),
    cuc_fine_bytes   INTEGER CHECK ((cuc_fine_bytes IS NULL) = (cuc_coarse_bytes IS NULL)
                                    AND cuc_fine_bytes BETWEEN 0 AND 3),
    cuc_epoch        TEXT CHECK ((cuc_epoch IS NULL) = (cuc_coarse_bytes IS NULL)
                                 AND cuc_epoch IN ('TAI', 'GPS', 'UNIX')),
    cuc_p_field      INTEGER NOT NULL DEFAULT 0 CHECK (cuc_p_field IN (0, 1)),
    secondary_id_bit_offset INTEGER CHECK (secondary_id_bit_offset BETWEEN 0 AND 4294967295),
    secondary_id_bit_length INTEGER CHECK ((secondary_id_bit_length IS NULL) = (secondary_id_bit_offset IS NULL)
                                           AND secondary_id_bit_length BETWEEN 1 AND 64),
    -- an unsigned 64-bit value, stored as the signed 64-bit integer with the same bits
    secondary_id_value      INTEGER CHECK ((secondary_id_value IS NULL) = (secondary_id_bit_offset IS NULL)),
    long_description TEXT NOT NULL DEFAULT '',
    path             TEXT NOT NULL DEFAULT ''
) STRICT;
)sql";

// The parameter table's columns; the upgrade creates it under a temporary name with the same text.
constexpr char kSchemaV3ParameterColumns[] = R"sql(
    id               INTEGER PRIMARY KEY,
    packet_id        INTEGER NOT NULL REFERENCES packet (id) ON DELETE CASCADE,
    position         INTEGER NOT NULL CHECK (position >= 0),
    name             TEXT NOT NULL,
    bit_offset       INTEGER NOT NULL CHECK (bit_offset BETWEEN 0 AND 4294967295), -- AFTER_PREVIOUS: a gap
    bit_length       INTEGER NOT NULL CHECK (bit_length BETWEEN 0 AND 4294967295), -- 0 unless FIXED
    data_type        TEXT NOT NULL CHECK (data_type IN ('UINT', 'INT', 'FLOAT', 'STRING', 'BYTES',
                                                        'INT_SIGN_MAGNITUDE', 'INT_ONES_COMPLEMENT')),
    byte_order       TEXT CHECK (byte_order IN ('BIG_ENDIAN', 'LITTLE_ENDIAN')), -- NULL: the packet's
    units            TEXT NOT NULL,
    description      TEXT NOT NULL,
    overlap_allowed  INTEGER NOT NULL CHECK (overlap_allowed IN (0, 1)),
    calibrator       TEXT CHECK (calibrator IN ('POLYNOMIAL', 'POINT_PAIRS', 'ENUMERATION', 'TIME')),
    limits           TEXT CHECK (limits IN ('NUMERIC', 'EXPECTED_STATES')),
    limits_enabled   INTEGER NOT NULL DEFAULT 1 CHECK (limits_enabled IN (0, 1)),
    placement        TEXT NOT NULL DEFAULT 'ABSOLUTE' CHECK (placement IN ('ABSOLUTE', 'AFTER_PREVIOUS')),
    size_kind        TEXT NOT NULL DEFAULT 'FIXED' CHECK (size_kind IN ('FIXED', 'FROM', 'TERMINATED', 'LEADING')),
    size_parameter   TEXT NOT NULL DEFAULT '',
    size_slope       REAL NOT NULL DEFAULT 1,
    size_intercept   REAL NOT NULL DEFAULT 0,
    size_terminator  INTEGER NOT NULL DEFAULT 0 CHECK (size_terminator BETWEEN 0 AND 255),
    size_leading_bits INTEGER NOT NULL DEFAULT 0 CHECK (size_leading_bits BETWEEN 0 AND 255),
    size_max_bytes   INTEGER NOT NULL DEFAULT 0 CHECK (size_max_bytes BETWEEN 0 AND 4294967295),
    long_description TEXT NOT NULL DEFAULT '',
    path             TEXT NOT NULL DEFAULT '',
    -- calibrator 'TIME': Unix seconds = time_epoch + time_offset + time_scale * x; all NULL otherwise
    time_epoch       REAL CHECK ((time_epoch IS NULL) = (calibrator IS NOT 'TIME')),
    time_scale       REAL CHECK ((time_scale IS NULL) = (time_epoch IS NULL)),
    time_offset      REAL CHECK ((time_offset IS NULL) = (time_epoch IS NULL)),
    CHECK ((size_kind = 'FIXED') = (bit_length > 0)),
    UNIQUE (packet_id, name),
    UNIQUE (packet_id, position)
) STRICT;
)sql";

// The calibrator and limits tables, unchanged since version 1.
constexpr char kSchemaV3Children[] = R"sql(
CREATE TABLE polynomial_coefficient (
    parameter_id INTEGER NOT NULL REFERENCES parameter (id) ON DELETE CASCADE,
    position     INTEGER NOT NULL CHECK (position BETWEEN 0 AND 5), -- the power of x
    value        REAL NOT NULL,
    PRIMARY KEY (parameter_id, position)
) STRICT;

CREATE TABLE point_pair (
    parameter_id INTEGER NOT NULL REFERENCES parameter (id) ON DELETE CASCADE,
    position     INTEGER NOT NULL CHECK (position >= 0),
    raw          REAL NOT NULL,
    calibrated   REAL NOT NULL,
    PRIMARY KEY (parameter_id, position)
) STRICT;

CREATE TABLE state (
    parameter_id INTEGER NOT NULL REFERENCES parameter (id) ON DELETE CASCADE,
    position     INTEGER NOT NULL CHECK (position >= 0),
    low          INTEGER NOT NULL,
    high         INTEGER NOT NULL CHECK (high >= low),
    text         TEXT NOT NULL,
    PRIMARY KEY (parameter_id, position)
) STRICT;

CREATE TABLE numeric_limits (
    parameter_id INTEGER PRIMARY KEY REFERENCES parameter (id) ON DELETE CASCADE,
    red_low      REAL NOT NULL,
    yellow_low   REAL NOT NULL CHECK (yellow_low >= red_low),
    yellow_high  REAL NOT NULL CHECK (yellow_high >= yellow_low),
    red_high     REAL NOT NULL CHECK (red_high >= yellow_high)
) STRICT;

CREATE TABLE expected_state (
    parameter_id INTEGER NOT NULL REFERENCES parameter (id) ON DELETE CASCADE,
    position     INTEGER NOT NULL CHECK (position >= 0),
    state        TEXT NOT NULL,
    PRIMARY KEY (parameter_id, position)
) STRICT;
)sql";

// The tables new in version 3.
constexpr char kSchemaV3NewTables[] = R"sql(
CREATE TABLE packet_alias (
    packet_id    INTEGER NOT NULL REFERENCES packet (id) ON DELETE CASCADE,
    position     INTEGER NOT NULL CHECK (position >= 0),
    name_space   TEXT NOT NULL,
    alias        TEXT NOT NULL,
    PRIMARY KEY (packet_id, position)
) STRICT;

CREATE TABLE packet_criterion (
    packet_id    INTEGER NOT NULL REFERENCES packet (id) ON DELETE CASCADE,
    position     INTEGER NOT NULL CHECK (position >= 0),
    bit_offset   INTEGER NOT NULL CHECK (bit_offset BETWEEN 0 AND 4294967295),
    bit_length   INTEGER NOT NULL CHECK (bit_length BETWEEN 1 AND 64),
    op           TEXT NOT NULL CHECK (op IN ('==', '!=', '<', '<=', '>', '>=')),
    value        INTEGER NOT NULL, -- unsigned 64-bit, stored as the signed 64-bit integer with the same bits
    PRIMARY KEY (packet_id, position)
) STRICT;

CREATE TABLE parameter_alias (
    parameter_id INTEGER NOT NULL REFERENCES parameter (id) ON DELETE CASCADE,
    position     INTEGER NOT NULL CHECK (position >= 0),
    name_space   TEXT NOT NULL,
    alias        TEXT NOT NULL,
    PRIMARY KEY (parameter_id, position)
) STRICT;

CREATE TABLE include_condition (
    parameter_id INTEGER NOT NULL REFERENCES parameter (id) ON DELETE CASCADE,
    position     INTEGER NOT NULL CHECK (position >= 0),
    parameter    TEXT NOT NULL, -- an earlier parameter of the same packet, by name
    op           TEXT NOT NULL CHECK (op IN ('==', '!=', '<', '<=', '>', '>=')),
    value        REAL NOT NULL,
    calibrated   INTEGER NOT NULL CHECK (calibrated IN (0, 1)),
    PRIMARY KEY (parameter_id, position)
) STRICT;

CREATE TABLE context_calibration (
    id           INTEGER PRIMARY KEY,
    parameter_id INTEGER NOT NULL REFERENCES parameter (id) ON DELETE CASCADE,
    position     INTEGER NOT NULL CHECK (position >= 0),
    calibrator   TEXT CHECK (calibrator IN ('POLYNOMIAL', 'POINT_PAIRS', 'TIME')),
    time_epoch   REAL CHECK ((time_epoch IS NULL) = (calibrator IS NOT 'TIME')),
    time_scale   REAL CHECK ((time_scale IS NULL) = (time_epoch IS NULL)),
    time_offset  REAL CHECK ((time_offset IS NULL) = (time_epoch IS NULL)),
    UNIQUE (parameter_id, position)
) STRICT;

CREATE TABLE context_condition (
    context_id   INTEGER NOT NULL REFERENCES context_calibration (id) ON DELETE CASCADE,
    position     INTEGER NOT NULL CHECK (position >= 0),
    parameter    TEXT NOT NULL,
    op           TEXT NOT NULL CHECK (op IN ('==', '!=', '<', '<=', '>', '>=')),
    value        REAL NOT NULL,
    calibrated   INTEGER NOT NULL CHECK (calibrated IN (0, 1)),
    PRIMARY KEY (context_id, position)
) STRICT;

CREATE TABLE context_polynomial_coefficient (
    context_id   INTEGER NOT NULL REFERENCES context_calibration (id) ON DELETE CASCADE,
    position     INTEGER NOT NULL CHECK (position BETWEEN 0 AND 5), -- the power of x
    value        REAL NOT NULL,
    PRIMARY KEY (context_id, position)
) STRICT;

CREATE TABLE context_point_pair (
    context_id   INTEGER NOT NULL REFERENCES context_calibration (id) ON DELETE CASCADE,
    position     INTEGER NOT NULL CHECK (position >= 0),
    raw          REAL NOT NULL,
    calibrated   REAL NOT NULL,
    PRIMARY KEY (context_id, position)
) STRICT;
)sql";

// ---- Upgrade steps --------------------------------------------------------------------------------

// Version 1 -> 2, run in the same transaction as the new user_version. ADD COLUMN appends, so the
// upgraded tables have the same columns in the same order as the version-2 DDL creates (a test checks
// it). Defaults: no secondary id, no P-field, limits enabled: what a version-1 file meant.
constexpr char kUpgradeV1ToV2[] = R"sql(
ALTER TABLE packet ADD COLUMN cuc_p_field INTEGER NOT NULL DEFAULT 0 CHECK (cuc_p_field IN (0, 1));
ALTER TABLE packet ADD COLUMN secondary_id_bit_offset INTEGER
    CHECK (secondary_id_bit_offset BETWEEN 0 AND 4294967295);
ALTER TABLE packet ADD COLUMN secondary_id_bit_length INTEGER
    CHECK ((secondary_id_bit_length IS NULL) = (secondary_id_bit_offset IS NULL)
           AND secondary_id_bit_length BETWEEN 1 AND 64);
ALTER TABLE packet ADD COLUMN secondary_id_value INTEGER
    CHECK ((secondary_id_value IS NULL) = (secondary_id_bit_offset IS NULL));
ALTER TABLE parameter ADD COLUMN limits_enabled INTEGER NOT NULL DEFAULT 1 CHECK (limits_enabled IN (0, 1));
PRAGMA application_id = 1414745412;
)sql";

// Version 2 -> 3. The packet table gains columns (ADD COLUMN appends them, as kSchemaV3Packets has
// them); the parameter table's CHECKs change (new data types, the TIME calibrator, bit length 0 for a
// size from the data), so it is rebuilt: a new table from kSchemaV3Parameter under another name, the
// rows copied, the old table dropped and the new one renamed. Foreign keys are off meanwhile (see
// upgrade()), so dropping the old table does not cascade to its children, whose references then name
// the new table. Defaults keep the old meaning: absolute placement, fixed size, no time calibrator.
constexpr char kParameterV3Columns[] = "id, packet_id, position, name, bit_offset, bit_length, data_type, byte_order,"
                                       " units, description, overlap_allowed, calibrator, limits, limits_enabled";
constexpr auto kUpgradeV2ToV3 = sqlite::sqlJoin("ALTER TABLE packet ADD COLUMN long_description TEXT NOT NULL DEFAULT '';\n"
                                                "ALTER TABLE packet ADD COLUMN path TEXT NOT NULL DEFAULT '';\n"
                                                "CREATE TABLE parameter_v3 (",
    kSchemaV3ParameterColumns, "INSERT INTO parameter_v3 (", kParameterV3Columns, ") SELECT ", kParameterV3Columns,
    " FROM parameter;\nDROP TABLE parameter;\nALTER TABLE parameter_v3 RENAME TO parameter;\n", kSchemaV3NewTables);

constexpr auto kSchemaV3 = sqlite::sqlJoin(
    kSchemaV3Packets, "\nCREATE TABLE parameter (", kSchemaV3ParameterColumns, kSchemaV3Children, kSchemaV3NewTables);

constexpr auto kSetUserVersion = sqlite::sqlJoin("PRAGMA user_version = ", sqlite::sqlNumber<kSchemaVersion>());

static_assert(kSchemaVersion == 3, "add the DDL and the upgrade step of the new schema version");
static_assert(kApplicationId == 1414745412, "kUpgradeV1ToV2 sets the application id literally");

// The upgrade from version v to v + 1, for v = 1 .. kSchemaVersion - 1.
sqlite::Sql upgradeStep(int fromVersion)
{
    switch (fromVersion) {
    case 1:
        return kUpgradeV1ToV2;
    case 2:
        return kUpgradeV2ToV3.text;
    default:
        return "";
    }
}

} // namespace

sqlite::Sql currentSchemaDdl()
{
    return kSchemaV3.text;
}

// ---- Recognising a mission database ---------------------------------------------------------------

Result<FileInfo> inspect(sqlite::Connection& c)
{
    FileInfo info;
    // The first read of the file: a file that only looks like SQLite fails here.
    auto stmt = c.prepare(
        "SELECT name FROM sqlite_schema WHERE type IN ('table', 'view') AND name NOT LIKE 'sqlite!_%' ESCAPE '!'");
    if (!stmt)
        return stmt.error();
    int found = 0;
    while (stmt->next()) {
        info.hasTables = true;
        const std::string name = stmt->text(0);
        if (name == "mission" || name == "packet" || name == "parameter")
            ++found;
    }
    if (!stmt->status())
        return stmt->status().error();
    info.hasMissionTables = found == 3;
    auto appId = c.queryInteger("PRAGMA application_id");
    if (!appId)
        return appId.error();
    auto version = c.queryInteger("PRAGMA user_version");
    if (!version)
        return version.error();
    info.applicationId = static_cast<std::int32_t>(*appId);
    info.userVersion = static_cast<int>(*version);
    return info;
}

std::optional<Error> foreignDatabase(const FileInfo& info)
{
    if (info.applicationId != kApplicationId && info.applicationId != 0) {
        char hex[16];
        std::snprintf(hex, sizeof hex, "0x%08X", static_cast<unsigned>(info.applicationId));
        return fail(std::string("an SQLite database of another application (application_id ") + hex
            + "), not a mission database");
    }
    if (info.applicationId == 0 && !info.hasMissionTables)
        return fail(info.hasTables ? "an SQLite database without the mission database tables, not a mission database"
                                   : "an empty SQLite database, not a mission database");
    return std::nullopt;
}

std::optional<Error> unloadable(const FileInfo& info)
{
    if (auto e = foreignDatabase(info))
        return e;
    if (info.userVersion > kSchemaVersion)
        return fail("created by a newer Telestation: schema " + std::to_string(info.userVersion)
            + ", this build reads up to " + std::to_string(kSchemaVersion));
    if (!info.hasMissionTables)
        return fail("a mission database without its tables (schema " + std::to_string(info.userVersion) + ")");
    if (info.userVersion < 1)
        return fail(
            "a mission database without a schema version (user_version " + std::to_string(info.userVersion) + ")");
    return std::nullopt;
}

// ---- Upgrade --------------------------------------------------------------------------------------

namespace {

// A row that violates a foreign key, after the rebuilds that ran with foreign keys off.
Status checkForeignKeys(sqlite::Connection& c)
{
    auto fk = c.prepare("PRAGMA foreign_key_check");
    if (!fk)
        return fk.error();
    if (fk->next())
        return fail(
            "cannot upgrade the schema: a row of table " + fk->text(0) + " refers to a row that does not exist");
    return fk->status();
}

Status upgradeInTransaction(sqlite::Connection& c)
{
    auto t = sqlite::Transaction::begin(c, sqlite::TransactionKind::Immediate);
    if (!t)
        return fail("cannot upgrade the schema: " + t.error().message);
    // Read again under the write lock: another process may have upgraded it meanwhile.
    auto version = c.queryInteger("PRAGMA user_version");
    if (!version)
        return version.error();
    const int from = static_cast<int>(*version);
    for (int v = from; v < kSchemaVersion; ++v) {
        if (auto s = c.exec(upgradeStep(v)); !s)
            return fail("cannot upgrade the schema from version " + std::to_string(v) + " to " + std::to_string(v + 1)
                + ": " + s.error().message);
    }
    if (from < kSchemaVersion) {
        if (auto s = c.exec(kSetUserVersion.text); !s)
            return s.error();
    }
    if (auto s = checkForeignKeys(c); !s)
        return s;
    if (auto s = t->commit(); !s)
        return fail("cannot upgrade the schema: " + s.error().message);
    return {};
}

} // namespace

// A step may rebuild a table (SQLite's recipe for changing a constraint), which needs foreign keys
// off — a pragma that only takes effect outside a transaction — so that dropping the old table does not
// cascade to its children.
Status upgrade(sqlite::Connection& c)
{
    if (auto s = c.exec("PRAGMA foreign_keys = OFF"); !s)
        return s;
    Status result = upgradeInTransaction(c);
    if (auto s = c.exec("PRAGMA foreign_keys = ON"); !s && result)
        result = s;
    return result;
}

} // namespace telestation::mdb::detail
