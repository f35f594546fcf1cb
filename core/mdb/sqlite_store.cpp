// SQLite storage of the mission database through the SQLite C API. One file = one mission database;
// every save replaces the whole content in one transaction, every load reads it in one read
// transaction after upgrading an older schema in place.
#include "core/mdb/sqlite_store.hpp"

#include "core/mdb/keywords.hpp"

#include <sqlite3.h>

#include <algorithm>
#include <array>
#include <bit>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <limits>
#include <memory>
#include <optional>
#include <system_error>
#include <unordered_map>
#include <utility>
#include <vector>

namespace telestation::mdb {
namespace {

namespace fs = std::filesystem;

// An error without a location yet: the public functions add the file name.
Error fail(std::string message)
{
    return Error { std::move(message), {} };
}

// ---- Schema ---------------------------------------------------------------------------------------
//
// Codes are the keywords of the text definition language, so that a person reading the file with the
// sqlite3 shell sees the same words. Position columns keep the order of packets, parameters, points,
// states and expected states. Tables are STRICT so that a value of the wrong type cannot get in.

// Version 1: the first layout. No secondary ids, no enabled flag on limits, no CUC P-field, and no
// PRAGMA application_id. Kept verbatim: it is the starting point of the upgrade and of its tests.
constexpr std::string_view kSchemaV1 = R"sql(
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
                                 AND cuc_epoch IN ('TAI', 'GPS', 'UNIX'))
) STRICT;

CREATE TABLE parameter (
    id              INTEGER PRIMARY KEY,
    packet_id       INTEGER NOT NULL REFERENCES packet (id) ON DELETE CASCADE,
    position        INTEGER NOT NULL CHECK (position >= 0),
    name            TEXT NOT NULL,
    bit_offset      INTEGER NOT NULL CHECK (bit_offset BETWEEN 0 AND 4294967295),
    bit_length      INTEGER NOT NULL CHECK (bit_length BETWEEN 1 AND 4294967295),
    data_type       TEXT NOT NULL CHECK (data_type IN ('UINT', 'INT', 'FLOAT', 'STRING', 'BYTES')),
    byte_order      TEXT CHECK (byte_order IN ('BIG_ENDIAN', 'LITTLE_ENDIAN')),
    units           TEXT NOT NULL,
    description     TEXT NOT NULL,
    overlap_allowed INTEGER NOT NULL CHECK (overlap_allowed IN (0, 1)),
    calibrator      TEXT CHECK (calibrator IN ('POLYNOMIAL', 'POINT_PAIRS', 'ENUMERATION')),
    limits          TEXT CHECK (limits IN ('NUMERIC', 'EXPECTED_STATES')),
    UNIQUE (packet_id, name),
    UNIQUE (packet_id, position)
) STRICT;

CREATE TABLE polynomial_coefficient (
    parameter_id INTEGER NOT NULL REFERENCES parameter (id) ON DELETE CASCADE,
    position     INTEGER NOT NULL CHECK (position BETWEEN 0 AND 5),
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

// Version 1 -> 2, run in the same transaction as the new user_version. ADD COLUMN appends, so the
// upgraded tables have the same columns in the same order as kSchemaV2 creates (a test checks it).
// Defaults: no secondary id, no P-field, limits enabled: what a version-1 file meant.
constexpr std::string_view kUpgradeV1ToV2 = R"sql(
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

// Version 2: secondary ids, the enabled flag of limits, the CUC P-field, PRAGMA application_id. Kept
// verbatim: the upgrade to version 3 starts from it, and tests build version-2 files with it.
constexpr std::string_view kSchemaV2 = R"sql(
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
    secondary_id_value      INTEGER CHECK ((secondary_id_value IS NULL) = (secondary_id_bit_offset IS NULL))
) STRICT;

CREATE TABLE parameter (
    id              INTEGER PRIMARY KEY,
    packet_id       INTEGER NOT NULL REFERENCES packet (id) ON DELETE CASCADE,
    position        INTEGER NOT NULL CHECK (position >= 0),
    name            TEXT NOT NULL,
    bit_offset      INTEGER NOT NULL CHECK (bit_offset BETWEEN 0 AND 4294967295),
    bit_length      INTEGER NOT NULL CHECK (bit_length BETWEEN 1 AND 4294967295),
    data_type       TEXT NOT NULL CHECK (data_type IN ('UINT', 'INT', 'FLOAT', 'STRING', 'BYTES')),
    byte_order      TEXT CHECK (byte_order IN ('BIG_ENDIAN', 'LITTLE_ENDIAN')), -- NULL: the packet's
    units           TEXT NOT NULL,
    description     TEXT NOT NULL,
    overlap_allowed INTEGER NOT NULL CHECK (overlap_allowed IN (0, 1)),
    calibrator      TEXT CHECK (calibrator IN ('POLYNOMIAL', 'POINT_PAIRS', 'ENUMERATION')),
    limits          TEXT CHECK (limits IN ('NUMERIC', 'EXPECTED_STATES')),
    limits_enabled  INTEGER NOT NULL DEFAULT 1 CHECK (limits_enabled IN (0, 1)),
    UNIQUE (packet_id, name),
    UNIQUE (packet_id, position)
) STRICT;

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

// Version 3 (issue 12, the model generalised for XTCE): packet long descriptions, paths, aliases and
// criteria; parameter placement, sizes from the packet's data, long descriptions, paths, aliases,
// inclusion conditions, time calibrators and context calibrations; two more integer encodings.
// Written in parts: the upgrade from version 2 rebuilds the parameter table from the same text and
// creates the new tables from the same text, so upgraded and new files are alike by construction.

// The mission and packet tables: those of version 2 with long_description and path appended.
constexpr std::string_view kSchemaV3Packets = R"sql(
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

// The parameter table; "CREATE TABLE parameter (" is replaced by a temporary name in the upgrade.
constexpr std::string_view kSchemaV3Parameter = R"sql(
CREATE TABLE parameter (
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
constexpr std::string_view kSchemaV3Children = R"sql(
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
constexpr std::string_view kSchemaV3NewTables = R"sql(
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

const std::string& schemaV3()
{
    static const std::string ddl = std::string(kSchemaV3Packets) + std::string(kSchemaV3Parameter)
        + std::string(kSchemaV3Children) + std::string(kSchemaV3NewTables);
    return ddl;
}

// Version 2 -> 3. The packet table gains columns (ADD COLUMN appends them, as kSchemaV3Packets has
// them); the parameter table's CHECKs change (new data types, the TIME calibrator, bit length 0 for a
// size from the data), so it is rebuilt: a new table from kSchemaV3Parameter under another name, the
// rows copied, the old table dropped and the new one renamed. Foreign keys are off meanwhile (see
// upgrade()), so dropping the old table does not cascade to its children, whose references then name
// the new table. Defaults keep the old meaning: absolute placement, fixed size, no time calibrator.
const std::string& upgradeV2ToV3()
{
    static const std::string sql = [] {
        std::string parameter(kSchemaV3Parameter);
        const std::string_view create = "CREATE TABLE parameter (";
        parameter.replace(parameter.find(create), create.size(), "CREATE TABLE parameter_v3 (");
        const std::string columns = "id, packet_id, position, name, bit_offset, bit_length, data_type, byte_order,"
                                    " units, description, overlap_allowed, calibrator, limits, limits_enabled";
        return std::string("ALTER TABLE packet ADD COLUMN long_description TEXT NOT NULL DEFAULT '';\n"
                           "ALTER TABLE packet ADD COLUMN path TEXT NOT NULL DEFAULT '';\n")
            + parameter + "INSERT INTO parameter_v3 (" + columns + ") SELECT " + columns + " FROM parameter;\n"
            + "DROP TABLE parameter;\nALTER TABLE parameter_v3 RENAME TO parameter;\n"
            + std::string(kSchemaV3NewTables);
    }();
    return sql;
}

static_assert(kSchemaVersion == 3, "add the DDL and the upgrade step of the new schema version");
static_assert(kApplicationId == 1414745412, "kUpgradeV1ToV2 sets the application id literally");

// The upgrade from version v to v + 1, for v = 1 .. kSchemaVersion - 1.
std::string_view upgradeStep(int fromVersion)
{
    switch (fromVersion) {
    case 1:
        return kUpgradeV1ToV2;
    case 2:
        return upgradeV2ToV3();
    default:
        return {};
    }
}

// Tables of ours, children before parents (the order to drop them in).
constexpr std::array<std::string_view, 16> kTables { "context_point_pair", "context_polynomial_coefficient",
    "context_condition", "context_calibration", "include_condition", "parameter_alias", "packet_criterion",
    "packet_alias", "expected_state", "numeric_limits", "state", "point_pair", "polynomial_coefficient", "parameter",
    "packet", "mission" };

// ---- Codes ----------------------------------------------------------------------------------------

enum class CalibratorKind { Polynomial, PointPairs, Enumeration, Time };
enum class LimitsKind { Numeric, ExpectedStates };

constexpr const auto& kByteOrderCodes = kByteOrderKeywords;
constexpr const auto& kDataTypeCodes = kDataTypeKeywords;
constexpr const auto& kEpochCodes = kEpochKeywords;
constexpr std::array<std::pair<std::string_view, CalibratorKind>, 4> kCalibratorCodes { {
    { "POLYNOMIAL", CalibratorKind::Polynomial },
    { "POINT_PAIRS", CalibratorKind::PointPairs },
    { "ENUMERATION", CalibratorKind::Enumeration },
    { "TIME", CalibratorKind::Time },
} };
constexpr const auto& kCompareOpCodes = kCompareOpKeywords;
constexpr const auto& kSizeKindCodes = kSizeKindKeywords;
constexpr const auto& kPlacementCodes = kPlacementKeywords;

// The code of a calibrator's kind; nothing for none.
std::optional<std::string_view> calibratorCode(const Calibrator& calibrator)
{
    if (std::holds_alternative<PolynomialCalibrator>(calibrator))
        return kCalibratorCodes[0].first;
    if (std::holds_alternative<PointPairCalibrator>(calibrator))
        return kCalibratorCodes[1].first;
    if (std::holds_alternative<EnumerationCalibrator>(calibrator))
        return kCalibratorCodes[2].first;
    if (std::holds_alternative<TimeCalibrator>(calibrator))
        return kCalibratorCodes[3].first;
    return std::nullopt;
}

// An empty calibrator of a kind, for the rows of its child tables to fill.
Calibrator emptyCalibrator(std::optional<CalibratorKind> kind)
{
    if (!kind)
        return std::monostate {};
    switch (*kind) {
    case CalibratorKind::Polynomial:
        return PolynomialCalibrator {};
    case CalibratorKind::PointPairs:
        return PointPairCalibrator {};
    case CalibratorKind::Enumeration:
        return EnumerationCalibrator {};
    case CalibratorKind::Time:
        return TimeCalibrator {};
    }
    return std::monostate {};
}
constexpr std::array<std::pair<std::string_view, LimitsKind>, 2> kLimitsCodes { {
    { "NUMERIC", LimitsKind::Numeric },
    { "EXPECTED_STATES", LimitsKind::ExpectedStates },
} };

template <typename E, std::size_t N>
std::string_view codeOf(const std::array<std::pair<std::string_view, E>, N>& table, E value)
{
    for (const auto& [code, v] : table)
        if (v == value)
            return code;
    return {}; // unreachable for the enums above; an empty code then fails the CHECK
}

// ---- Thin RAII over the C API ---------------------------------------------------------------------

struct DbCloser {
    void operator()(sqlite3* db) const { sqlite3_close_v2(db); }
};
struct StmtFinalizer {
    void operator()(sqlite3_stmt* stmt) const { sqlite3_finalize(stmt); }
};
using StmtHandle = std::unique_ptr<sqlite3_stmt, StmtFinalizer>;

// A message for an SQLite failure that says what it means for the user.
std::string describeSqliteError(sqlite3* db, int rc)
{
    const std::string detail = db != nullptr ? sqlite3_errmsg(db) : sqlite3_errstr(rc);
    switch (rc & 0xFF) {
    case SQLITE_NOTADB:
        return "not a mission database: not an SQLite file (" + detail + ")";
    case SQLITE_CORRUPT:
        return "the file is corrupt (" + detail + ")";
    case SQLITE_READONLY:
        return "the file is read-only (" + detail + ")";
    case SQLITE_BUSY:
    case SQLITE_LOCKED:
        return "the file is locked by another program (" + detail + ")";
    default:
        return detail;
    }
}

class Connection {
public:
    // `flags`: SQLITE_OPEN_READONLY or SQLITE_OPEN_READWRITE [| SQLITE_OPEN_CREATE].
    static Result<Connection> open(const std::string& path, int flags)
    {
        sqlite3* raw = nullptr;
        const int rc = sqlite3_open_v2(path.c_str(), &raw, flags, nullptr);
        Connection c;
        c.m_db.reset(raw);
        if (rc != SQLITE_OK)
            return fail("cannot open: " + describeSqliteError(raw, rc));
        sqlite3_extended_result_codes(raw, 1);
        sqlite3_busy_timeout(raw, 5000);
        // Per connection, and a no-op inside a transaction: so set it first, every time.
        if (auto s = c.exec("PRAGMA foreign_keys = ON"); !s)
            return s.error();
        return c;
    }

    [[nodiscard]] sqlite3* get() const { return m_db.get(); }

    [[nodiscard]] Status exec(std::string_view sql)
    {
        const std::string text(sql);
        const int rc = sqlite3_exec(m_db.get(), text.c_str(), nullptr, nullptr, nullptr);
        if (rc == SQLITE_OK)
            return {};
        return fail(describeSqliteError(m_db.get(), rc));
    }

    [[nodiscard]] Result<StmtHandle> prepare(std::string_view sql)
    {
        sqlite3_stmt* raw = nullptr;
        const int rc = sqlite3_prepare_v2(m_db.get(), sql.data(), static_cast<int>(sql.size()), &raw, nullptr);
        StmtHandle stmt(raw);
        if (rc != SQLITE_OK)
            return fail(describeSqliteError(m_db.get(), rc));
        return stmt;
    }

    // The message of the latest failure on this connection.
    [[nodiscard]] std::string lastError(int rc) const { return describeSqliteError(m_db.get(), rc); }

    // A single integer from a query such as "PRAGMA user_version".
    [[nodiscard]] Result<std::int64_t> queryInteger(std::string_view sql)
    {
        auto stmt = prepare(sql);
        if (!stmt)
            return stmt.error();
        const int rc = sqlite3_step(stmt->get());
        if (rc != SQLITE_ROW)
            return fail(rc == SQLITE_DONE ? "no result from " + std::string(sql) : lastError(rc));
        return static_cast<std::int64_t>(sqlite3_column_int64(stmt->get(), 0));
    }

private:
    Connection() = default;

    std::unique_ptr<sqlite3, DbCloser> m_db;
};

// Rolls back unless committed.
class Transaction {
public:
    explicit Transaction(Connection& c)
        : m_c(c)
    { }
    Transaction(const Transaction&) = delete;
    Transaction& operator=(const Transaction&) = delete;
    ~Transaction()
    {
        if (m_open)
            (void)m_c.exec("ROLLBACK");
    }

    [[nodiscard]] Status begin(std::string_view how)
    {
        auto s = m_c.exec(std::string("BEGIN ") + std::string(how));
        m_open = s.ok();
        return s;
    }
    [[nodiscard]] Status commit()
    {
        auto s = m_c.exec("COMMIT");
        if (s)
            m_open = false;
        return s;
    }

private:
    Connection& m_c;
    bool m_open = false;
};

// Binds the parameters of one row in order (?1, ?2, ...), runs the statement and resets it.
class RowWriter {
public:
    explicit RowWriter(sqlite3_stmt* stmt)
        : m_stmt(stmt)
    { }

    RowWriter& integer(std::int64_t v)
    {
        check(sqlite3_bind_int64(m_stmt, ++m_index, v));
        return *this;
    }
    RowWriter& optionalInteger(std::optional<std::int64_t> v)
    {
        if (v)
            return integer(*v);
        return null();
    }
    RowWriter& boolean(bool v) { return integer(v ? 1 : 0); }
    RowWriter& real(double v)
    {
        // SQLite turns a NaN into NULL; say so instead of a NOT NULL failure.
        if (std::isnan(v) && m_problem.empty())
            m_problem = "NaN cannot be stored";
        check(sqlite3_bind_double(m_stmt, ++m_index, v));
        return *this;
    }
    RowWriter& text(std::string_view v)
    {
        if (v.size() > static_cast<std::size_t>(std::numeric_limits<int>::max()) && m_problem.empty())
            m_problem = "text too long";
        // The bound text must stay valid until the step: run() steps before the caller's data goes.
        check(sqlite3_bind_text(m_stmt, ++m_index, v.data(), static_cast<int>(v.size()), nullptr));
        return *this;
    }
    RowWriter& optionalText(std::optional<std::string_view> v)
    {
        if (v)
            return text(*v);
        return null();
    }
    RowWriter& null()
    {
        check(sqlite3_bind_null(m_stmt, ++m_index));
        return *this;
    }

    // Steps the statement; `what` names the row for the error message.
    [[nodiscard]] Status run(const Connection& c, const std::string& what)
    {
        Status result;
        if (!m_problem.empty()) {
            result = fail("cannot save " + what + ": " + m_problem);
        } else if (m_bindRc != SQLITE_OK) {
            result = fail("cannot save " + what + ": " + c.lastError(m_bindRc));
        } else if (const int rc = sqlite3_step(m_stmt); rc != SQLITE_DONE) {
            result = fail("cannot save " + what + ": " + c.lastError(rc));
        }
        sqlite3_reset(m_stmt);
        sqlite3_clear_bindings(m_stmt);
        return result;
    }

private:
    void check(int rc)
    {
        if (rc != SQLITE_OK && m_bindRc == SQLITE_OK)
            m_bindRc = rc;
    }

    sqlite3_stmt* m_stmt;
    int m_index = 0;
    int m_bindRc = SQLITE_OK;
    std::string m_problem;
};

// Reads the columns of the current row, checking each value against the model; the first problem
// is kept and the getters return a harmless default after it.
class RowReader {
public:
    explicit RowReader(sqlite3_stmt* stmt)
        : m_stmt(stmt)
    { }

    std::int64_t integer(int column, std::int64_t low, std::int64_t high)
    {
        if (sqlite3_column_type(m_stmt, column) != SQLITE_INTEGER) {
            reject(column, "expected an integer, found " + typeName(column));
            return low;
        }
        const std::int64_t v = sqlite3_column_int64(m_stmt, column);
        if (v < low || v > high) {
            reject(column, std::to_string(v) + " is out of range " + std::to_string(low) + ".." + std::to_string(high));
            return low;
        }
        return v;
    }
    std::int64_t integer(int column)
    {
        return integer(column, std::numeric_limits<std::int64_t>::min(), std::numeric_limits<std::int64_t>::max());
    }
    std::optional<std::int64_t> optionalInteger(int column, std::int64_t low, std::int64_t high)
    {
        if (isNull(column))
            return std::nullopt;
        return integer(column, low, high);
    }
    std::uint32_t uint32(int column)
    {
        return static_cast<std::uint32_t>(integer(column, 0, std::numeric_limits<std::uint32_t>::max()));
    }
    bool boolean(int column) { return integer(column, 0, 1) != 0; }

    double real(int column)
    {
        const int type = sqlite3_column_type(m_stmt, column);
        if (type != SQLITE_FLOAT && type != SQLITE_INTEGER) {
            reject(column, "expected a real number, found " + typeName(column));
            return 0;
        }
        return sqlite3_column_double(m_stmt, column);
    }

    std::optional<double> optionalReal(int column)
    {
        if (isNull(column))
            return std::nullopt;
        return real(column);
    }

    std::string text(int column)
    {
        if (sqlite3_column_type(m_stmt, column) != SQLITE_TEXT) {
            reject(column, "expected text, found " + typeName(column));
            return {};
        }
        const auto* data = sqlite3_column_text(m_stmt, column);
        const int size = sqlite3_column_bytes(m_stmt, column);
        return std::string(reinterpret_cast<const char*>(data), static_cast<std::size_t>(size));
    }

    template <typename E, std::size_t N>
    E code(int column, const std::array<std::pair<std::string_view, E>, N>& table, std::string_view what)
    {
        const std::string found = text(column);
        for (const auto& [c, v] : table)
            if (c == found)
                return v;
        if (!failed())
            reject(column, "unknown " + std::string(what) + " '" + found + "'");
        return table[0].second;
    }
    template <typename E, std::size_t N>
    std::optional<E> optionalCode(
        int column, const std::array<std::pair<std::string_view, E>, N>& table, std::string_view what)
    {
        if (isNull(column))
            return std::nullopt;
        return code(column, table, what);
    }

    [[nodiscard]] bool isNull(int column) const { return sqlite3_column_type(m_stmt, column) == SQLITE_NULL; }
    [[nodiscard]] bool failed() const { return !m_problem.empty(); }
    [[nodiscard]] const std::string& problem() const { return m_problem; }

    void reject(int column, const std::string& what)
    {
        if (m_problem.empty())
            m_problem = std::string("column ") + sqlite3_column_name(m_stmt, column) + ": " + what;
    }

private:
    std::string typeName(int column) const
    {
        switch (sqlite3_column_type(m_stmt, column)) {
        case SQLITE_INTEGER:
            return "an integer";
        case SQLITE_FLOAT:
            return "a real number";
        case SQLITE_TEXT:
            return "text";
        case SQLITE_BLOB:
            return "a blob";
        default:
            return "NULL";
        }
    }

    sqlite3_stmt* m_stmt;
    std::string m_problem;
};

// ---- Files ----------------------------------------------------------------------------------------

constexpr std::array<char, 16> kSqliteMagic { 'S', 'Q', 'L', 'i', 't', 'e', ' ', 'f', 'o', 'r', 'm', 'a', 't', ' ', '3',
    '\0' };

enum class FileKind { Missing, Directory, NotRegular, Unreadable, Empty, Sqlite, Other };

FileKind classifyFile(const std::string& path)
{
    std::error_code ec;
    const auto status = fs::status(path, ec);
    if (!fs::exists(status))
        return FileKind::Missing;
    if (fs::is_directory(status))
        return FileKind::Directory;
    if (!fs::is_regular_file(status))
        return FileKind::NotRegular;
    std::ifstream in(path, std::ios::binary);
    if (!in)
        return FileKind::Unreadable;
    std::array<char, 16> head {};
    in.read(head.data(), static_cast<std::streamsize>(head.size()));
    const auto got = in.gcount();
    if (got == 0)
        return FileKind::Empty;
    if (got == static_cast<std::streamsize>(head.size()) && head == kSqliteMagic)
        return FileKind::Sqlite;
    return FileKind::Other;
}

// The error for the kinds that are not an SQLite file at all.
std::optional<Error> notAnSqliteFile(FileKind kind)
{
    switch (kind) {
    case FileKind::Missing:
        return fail("file not found");
    case FileKind::Directory:
        return fail("is a directory, not a mission database file");
    case FileKind::NotRegular:
        return fail("is not a regular file");
    case FileKind::Unreadable:
        return fail("cannot be read (permission denied?)");
    case FileKind::Other:
        return fail("not a mission database: not an SQLite file (no SQLite header)");
    case FileKind::Empty:
    case FileKind::Sqlite:
        return std::nullopt;
    }
    return std::nullopt;
}

// True when nobody has write permission on the file: we then do not modify it, even as root.
bool markedReadOnly(const std::string& path)
{
    std::error_code ec;
    const auto perms = fs::status(path, ec).permissions();
    if (ec)
        return false;
    constexpr auto anyWrite = fs::perms::owner_write | fs::perms::group_write | fs::perms::others_write;
    return (perms & anyWrite) == fs::perms::none;
}

Error inFile(Error e, const std::string& path)
{
    e.where.file = path;
    return e;
}

// ---- Recognising a mission database ---------------------------------------------------------------

struct FileInfo {
    std::int32_t applicationId = 0;
    int userVersion = 0;
    bool hasTables = false; // any table (or view) at all
    bool hasMissionTables = false; // mission, packet and parameter
};

Result<FileInfo> inspect(Connection& c)
{
    FileInfo info;
    // The first read of the file: a file that only looks like SQLite fails here.
    auto stmt = c.prepare(
        "SELECT name FROM sqlite_schema WHERE type IN ('table', 'view') AND name NOT LIKE 'sqlite!_%' ESCAPE '!'");
    if (!stmt)
        return stmt.error();
    int found = 0;
    int rc = SQLITE_OK;
    while ((rc = sqlite3_step(stmt->get())) == SQLITE_ROW) {
        info.hasTables = true;
        const std::string_view name(reinterpret_cast<const char*>(sqlite3_column_text(stmt->get(), 0)));
        if (name == "mission" || name == "packet" || name == "parameter")
            ++found;
    }
    if (rc != SQLITE_DONE)
        return fail(c.lastError(rc));
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

// Not ours at all: another application's database, or an SQLite database without our tables.
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

Error newerSchema(int version)
{
    return fail("created by a newer Telestation: schema " + std::to_string(version) + ", this build reads up to "
        + std::to_string(kSchemaVersion));
}

// Checks that a file that is ours can be loaded by this build (after an upgrade if older).
std::optional<Error> unloadable(const FileInfo& info)
{
    if (auto e = foreignDatabase(info))
        return e;
    if (info.userVersion > kSchemaVersion)
        return newerSchema(info.userVersion);
    if (!info.hasMissionTables)
        return fail("a mission database without its tables (schema " + std::to_string(info.userVersion) + ")");
    if (info.userVersion < 1)
        return fail(
            "a mission database without a schema version (user_version " + std::to_string(info.userVersion) + ")");
    return std::nullopt;
}

// ---- Upgrade --------------------------------------------------------------------------------------

Status upgradeInTransaction(Connection& c)
{
    Transaction t(c);
    if (auto s = t.begin("IMMEDIATE"); !s)
        return fail("cannot upgrade the schema: " + s.error().message);
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
        if (auto s = c.exec("PRAGMA user_version = " + std::to_string(kSchemaVersion)); !s)
            return s.error();
    }
    // Foreign keys were off for the rebuilds: check them before the commit.
    auto fk = c.prepare("PRAGMA foreign_key_check");
    if (!fk)
        return fk.error();
    const int rc = sqlite3_step(fk->get());
    if (rc == SQLITE_ROW)
        return fail("cannot upgrade the schema: a row of table "
            + std::string(reinterpret_cast<const char*>(sqlite3_column_text(fk->get(), 0)))
            + " refers to a row that does not exist");
    if (rc != SQLITE_DONE)
        return fail(c.lastError(rc));
    fk->reset(); // finalized before the commit
    if (auto s = t.commit(); !s)
        return fail("cannot upgrade the schema: " + s.error().message);
    return {};
}

// Upgrades in one transaction. A step may rebuild a table (SQLite's recipe for changing a
// constraint), which needs foreign keys off — a pragma that only takes effect outside a transaction —
// so that dropping the old table does not cascade to its children.
Status upgrade(Connection& c)
{
    if (auto s = c.exec("PRAGMA foreign_keys = OFF"); !s)
        return s;
    Status result = upgradeInTransaction(c);
    if (auto s = c.exec("PRAGMA foreign_keys = ON"); !s && result)
        result = s;
    return result;
}

// ---- Loading --------------------------------------------------------------------------------------

// Where a parameter row went in the model.
struct ParameterSlot {
    std::size_t packet = 0;
    std::size_t parameter = 0;
};

class Loader {
public:
    explicit Loader(Connection& c)
        : m_c(c)
    { }

    Result<MissionDatabase> run()
    {
        if (auto s = checkIntegrity(); !s)
            return s.error();
        using Step = Status (Loader::*)();
        // Each table once, in order, joined in memory through the id maps: no query per row.
        for (Step step : { &Loader::readMission, &Loader::readPackets, &Loader::readPacketAliases,
                 &Loader::readCriteria, &Loader::readParameters, &Loader::readParameterAliases,
                 &Loader::readIncludeConditions, &Loader::readCoefficients, &Loader::readPoints, &Loader::readStates,
                 &Loader::readNumericLimits, &Loader::readExpectedStates, &Loader::readContexts,
                 &Loader::readContextConditions, &Loader::readContextCoefficients, &Loader::readContextPoints,
                 &Loader::checkComplete }) {
            if (auto s = (this->*step)(); !s)
                return s.error();
        }
        return std::move(m_db);
    }

private:
    using RowFunction = Status (Loader::*)(RowReader&);

    // Runs `sql` and hands each row to `onRow`.
    Status forEachRow(std::string_view sql, std::string_view table, RowFunction onRow)
    {
        auto stmt = m_c.prepare(sql);
        if (!stmt)
            return fail("cannot read table " + std::string(table) + ": " + stmt.error().message);
        int rc = SQLITE_OK;
        while ((rc = sqlite3_step(stmt->get())) == SQLITE_ROW) {
            RowReader r(stmt->get());
            if (auto s = (this->*onRow)(r); !s)
                return s;
        }
        if (rc != SQLITE_DONE)
            return fail("cannot read table " + std::string(table) + ": " + m_c.lastError(rc));
        return {};
    }

    Status checkIntegrity()
    {
        auto stmt = m_c.prepare("PRAGMA quick_check");
        if (!stmt)
            return stmt.error();
        int rc = SQLITE_OK;
        std::string problems;
        while ((rc = sqlite3_step(stmt->get())) == SQLITE_ROW) {
            const std::string_view line(reinterpret_cast<const char*>(sqlite3_column_text(stmt->get(), 0)));
            if (line != "ok" && problems.empty())
                problems = line;
        }
        // One line for the message: drop the "*** in database main ***" heading, join the rest.
        if (const auto heading = problems.find("***\n"); heading != std::string::npos)
            problems.erase(0, heading + 4);
        for (char& ch : problems) {
            if (ch == '\n')
                ch = ' ';
        }
        if (rc != SQLITE_DONE)
            return fail(m_c.lastError(rc));
        if (!problems.empty())
            return fail("the file is corrupt (" + problems + ")");

        auto fk = m_c.prepare("PRAGMA foreign_key_check");
        if (!fk)
            return fk.error();
        rc = sqlite3_step(fk->get());
        if (rc == SQLITE_ROW) {
            const std::string table(reinterpret_cast<const char*>(sqlite3_column_text(fk->get(), 0)));
            const std::string parent(reinterpret_cast<const char*>(sqlite3_column_text(fk->get(), 2)));
            return fail("a row of table " + table + " refers to a row of table " + parent + " that does not exist");
        }
        if (rc != SQLITE_DONE)
            return fail(m_c.lastError(rc));
        return {};
    }

    Status readMission()
    {
        auto s = forEachRow("SELECT name FROM mission WHERE id = 1", "mission", &Loader::missionRow);
        if (!s)
            return s;
        if (!m_missionFound)
            return fail("table mission has no row");
        return {};
    }
    Status missionRow(RowReader& r)
    {
        m_db.name = r.text(0);
        if (r.failed())
            return fail("table mission: " + r.problem());
        m_missionFound = true;
        return {};
    }

    Status readPackets()
    {
        return forEachRow("SELECT id, name, apid, length, variable_length, max_length, byte_order, description,"
                          " cuc_coarse_bytes, cuc_fine_bytes, cuc_epoch, cuc_p_field,"
                          " secondary_id_bit_offset, secondary_id_bit_length, secondary_id_value,"
                          " long_description, path"
                          " FROM packet ORDER BY position",
            "packet", &Loader::packetRow);
    }
    Status packetRow(RowReader& r)
    {
        const std::int64_t id = r.integer(0);
        PacketDef p;
        p.name = r.text(1);
        p.apid = static_cast<std::uint16_t>(r.integer(2, 0, 2047));
        p.length = r.uint32(3);
        p.variableLength = r.boolean(4);
        p.maxLength = r.uint32(5);
        p.byteOrder = r.code(6, kByteOrderCodes, "byte order");
        p.description = r.text(7);
        const auto coarse = r.optionalInteger(8, 1, 4);
        const auto fine = r.optionalInteger(9, 0, 3);
        const auto epoch = r.optionalCode(10, kEpochCodes, "time epoch");
        const bool pField = r.boolean(11);
        const auto idOffset = r.optionalInteger(12, 0, std::numeric_limits<std::uint32_t>::max());
        const auto idLength = r.optionalInteger(13, 1, 64);
        const bool hasIdValue = !r.isNull(14);
        const std::int64_t idValue = hasIdValue ? r.integer(14) : 0;
        p.longDescription = r.text(15);
        p.path = r.text(16);
        const std::string what = "packet '" + p.name + "'";
        if (r.failed())
            return fail(what + ": " + r.problem());

        if (coarse.has_value() != fine.has_value() || coarse.has_value() != epoch.has_value())
            return fail(what + ": the CUC secondary header columns must be all set or all NULL");
        if (coarse)
            p.secondaryHeader
                = CucLayout { static_cast<std::uint8_t>(*coarse), static_cast<std::uint8_t>(*fine), pField, *epoch };
        else if (pField)
            return fail(what + ": cuc_p_field is set without a CUC secondary header");

        if (idOffset.has_value() != idLength.has_value() || idOffset.has_value() != hasIdValue)
            return fail(what + ": the secondary id columns must be all set or all NULL");
        if (idOffset)
            p.secondaryId = SecondaryId { static_cast<std::uint32_t>(*idOffset), static_cast<std::uint32_t>(*idLength),
                std::bit_cast<std::uint64_t>(idValue) };

        if (!m_packetIndex.emplace(id, m_db.packets.size()).second)
            return fail(what + ": duplicate packet id " + std::to_string(id));
        m_db.packets.push_back(std::move(p));
        return {};
    }

    Status readParameters()
    {
        // Ordered by position across all packets: each packet then gets its parameters in order.
        return forEachRow("SELECT id, packet_id, name, bit_offset, bit_length, data_type, byte_order, units,"
                          " description, overlap_allowed, calibrator, limits, limits_enabled,"
                          " placement, size_kind, size_parameter, size_slope, size_intercept, size_terminator,"
                          " size_leading_bits, size_max_bytes, long_description, path,"
                          " time_epoch, time_scale, time_offset"
                          " FROM parameter ORDER BY position, id",
            "parameter", &Loader::parameterRow);
    }
    Status parameterRow(RowReader& r)
    {
        const std::int64_t id = r.integer(0);
        const std::int64_t packetId = r.integer(1);
        ParameterDef q;
        q.name = r.text(2);
        q.bitOffset = r.uint32(3);
        q.bitLength = r.uint32(4);
        q.type = r.code(5, kDataTypeCodes, "data type");
        q.byteOrder = r.optionalCode(6, kByteOrderCodes, "byte order");
        q.units = r.text(7);
        q.description = r.text(8);
        q.overlapAllowed = r.boolean(9);
        const auto calibrator = r.optionalCode(10, kCalibratorCodes, "calibrator");
        const auto limits = r.optionalCode(11, kLimitsCodes, "limits kind");
        const bool limitsEnabled = r.boolean(12);
        q.placement = r.code(13, kPlacementCodes, "placement");
        q.size.kind = r.code(14, kSizeKindCodes, "size kind");
        q.size.sizeParameter = r.text(15);
        q.size.sizeSlope = r.real(16);
        q.size.sizeIntercept = r.real(17);
        q.size.terminator = static_cast<std::uint8_t>(r.integer(18, 0, 255));
        q.size.leadingSizeBits = static_cast<std::uint8_t>(r.integer(19, 0, 255));
        q.size.maxBytes = r.uint32(20);
        q.longDescription = r.text(21);
        q.path = r.text(22);
        const auto timeEpoch = r.optionalReal(23);
        const auto timeScale = r.optionalReal(24);
        const auto timeOffset = r.optionalReal(25);

        const auto packet = m_packetIndex.find(packetId);
        const std::string packetName = packet != m_packetIndex.end() ? m_db.packets[packet->second].name : "?";
        const std::string what = "parameter '" + packetName + "." + q.name + "'";
        if (r.failed())
            return fail(what + ": " + r.problem());
        if (packet == m_packetIndex.end())
            return fail(what + ": packet id " + std::to_string(packetId) + " does not exist");

        q.calibrator = emptyCalibrator(calibrator);
        if (auto s = readTime(q.calibrator, timeEpoch, timeScale, timeOffset); !s)
            return fail(what + ": " + s.error().message);
        if (limits == LimitsKind::Numeric)
            q.limits = NumericLimits { 0, 0, 0, 0, limitsEnabled };
        else if (limits == LimitsKind::ExpectedStates)
            q.limits = StateLimits { {}, limitsEnabled };

        auto& parameters = m_db.packets[packet->second].parameters;
        if (!m_parameterIndex.emplace(id, ParameterSlot { packet->second, parameters.size() }).second)
            return fail(what + ": duplicate parameter id " + std::to_string(id));
        m_numericLimitsPending += limits == LimitsKind::Numeric ? 1 : 0;
        parameters.push_back(std::move(q));
        return {};
    }

    // The parameter a child row belongs to, and its name for messages.
    ParameterDef* parameterOf(std::int64_t parameterId, std::string& what)
    {
        const auto it = m_parameterIndex.find(parameterId);
        if (it == m_parameterIndex.end()) {
            what = "parameter id " + std::to_string(parameterId);
            return nullptr;
        }
        auto& packet = m_db.packets[it->second.packet];
        auto& q = packet.parameters[it->second.parameter];
        what = "parameter '" + packet.name + "." + q.name + "'";
        return &q;
    }

    template <typename Calibrator>
    Result<Calibrator*> childCalibrator(RowReader& r, const char* table, const char* kind, std::string& what)
    {
        const std::int64_t parameterId = r.integer(0);
        ParameterDef* q = parameterOf(parameterId, what);
        if (q == nullptr)
            return fail(std::string("table ") + table + ": " + what + " does not exist");
        if (r.failed())
            return fail(what + ", table " + table + ": " + r.problem());
        auto* c = std::get_if<Calibrator>(&q->calibrator);
        if (c == nullptr)
            return fail(what + " has rows in table " + table + " but no " + kind + " calibrator");
        return c;
    }

    Status readCoefficients()
    {
        return forEachRow(
            "SELECT parameter_id, position, value FROM polynomial_coefficient ORDER BY parameter_id, position",
            "polynomial_coefficient", &Loader::coefficientRow);
    }
    Status coefficientRow(RowReader& r)
    {
        std::string what;
        auto c = childCalibrator<PolynomialCalibrator>(r, "polynomial_coefficient", "polynomial", what);
        if (!c)
            return c.error();
        const std::int64_t position = r.integer(1, 0, 5);
        const double value = r.real(2);
        if (r.failed())
            return fail(what + ", table polynomial_coefficient: " + r.problem());
        // The position is the power of x: a gap would change the polynomial.
        if (position != static_cast<std::int64_t>((*c)->coefficients.size()))
            return fail(
                what + ": the polynomial has no coefficient for x^" + std::to_string((*c)->coefficients.size()));
        (*c)->coefficients.push_back(value);
        return {};
    }

    Status readPoints()
    {
        return forEachRow(
            "SELECT parameter_id, position, raw, calibrated FROM point_pair ORDER BY parameter_id, position",
            "point_pair", &Loader::pointRow);
    }
    Status pointRow(RowReader& r)
    {
        std::string what;
        auto c = childCalibrator<PointPairCalibrator>(r, "point_pair", "point-pair", what);
        if (!c)
            return c.error();
        PointPair point { r.real(2), r.real(3) };
        if (r.failed())
            return fail(what + ", table point_pair: " + r.problem());
        (*c)->points.push_back(point);
        return {};
    }

    Status readStates()
    {
        return forEachRow("SELECT parameter_id, position, low, high, text FROM state ORDER BY parameter_id, position",
            "state", &Loader::stateRow);
    }
    Status stateRow(RowReader& r)
    {
        std::string what;
        auto c = childCalibrator<EnumerationCalibrator>(r, "state", "enumeration", what);
        if (!c)
            return c.error();
        State state;
        state.low = r.integer(2);
        state.high = r.integer(3);
        state.text = r.text(4);
        if (r.failed())
            return fail(what + ", table state: " + r.problem());
        if (state.low > state.high)
            return fail(what + ": state '" + state.text + "' has low " + std::to_string(state.low) + " above high "
                + std::to_string(state.high));
        (*c)->states.push_back(std::move(state));
        return {};
    }

    Status readNumericLimits()
    {
        return forEachRow("SELECT parameter_id, red_low, yellow_low, yellow_high, red_high FROM numeric_limits"
                          " ORDER BY parameter_id",
            "numeric_limits", &Loader::numericLimitsRow);
    }
    Status numericLimitsRow(RowReader& r)
    {
        std::string what;
        ParameterDef* q = parameterOf(r.integer(0), what);
        if (q == nullptr)
            return fail("table numeric_limits: " + what + " does not exist");
        auto* limits = std::get_if<NumericLimits>(&q->limits);
        if (limits == nullptr)
            return fail(what + " has a row in table numeric_limits but its limits are not numeric");
        limits->redLow = r.real(1);
        limits->yellowLow = r.real(2);
        limits->yellowHigh = r.real(3);
        limits->redHigh = r.real(4);
        if (r.failed())
            return fail(what + ", table numeric_limits: " + r.problem());
        // The same rule as the table's CHECKs, for a file written without them.
        if (!(limits->redLow <= limits->yellowLow && limits->yellowLow <= limits->yellowHigh
                && limits->yellowHigh <= limits->redHigh))
            return fail(what + ": numeric limits out of order (red low <= yellow low <= yellow high <= red high)");
        --m_numericLimitsPending; // parameter_id is the primary key: at most one row each
        return {};
    }

    Status readExpectedStates()
    {
        return forEachRow("SELECT parameter_id, position, state FROM expected_state ORDER BY parameter_id, position",
            "expected_state", &Loader::expectedStateRow);
    }
    Status expectedStateRow(RowReader& r)
    {
        std::string what;
        ParameterDef* q = parameterOf(r.integer(0), what);
        if (q == nullptr)
            return fail("table expected_state: " + what + " does not exist");
        auto* limits = std::get_if<StateLimits>(&q->limits);
        if (limits == nullptr)
            return fail(what + " has rows in table expected_state but its limits are not expected states");
        std::string state = r.text(2);
        if (r.failed())
            return fail(what + ", table expected_state: " + r.problem());
        limits->expectedStates.push_back(std::move(state));
        return {};
    }

    // The time columns of a parameter or context row: all set for a TIME calibrator, else all NULL.
    static Status readTime(Calibrator& calibrator, std::optional<double> epoch, std::optional<double> scale,
        std::optional<double> offset)
    {
        auto* time = std::get_if<TimeCalibrator>(&calibrator);
        const bool any = epoch || scale || offset;
        if (!time) {
            if (any)
                return fail("time_epoch, time_scale or time_offset is set without a TIME calibrator");
            return {};
        }
        if (!epoch || !scale || !offset)
            return fail("a TIME calibrator needs time_epoch, time_scale and time_offset");
        *time = TimeCalibrator { *epoch, *scale, *offset };
        return {};
    }

    // The packet a child row belongs to, and its name for messages.
    PacketDef* packetOf(std::int64_t packetId, const char* table, std::string& what)
    {
        const auto it = m_packetIndex.find(packetId);
        if (it == m_packetIndex.end()) {
            what = std::string("table ") + table + ": packet id " + std::to_string(packetId) + " does not exist";
            return nullptr;
        }
        PacketDef& p = m_db.packets[it->second];
        what = "packet '" + p.name + "', table " + table;
        return &p;
    }

    Status readPacketAliases()
    {
        return forEachRow("SELECT packet_id, name_space, alias FROM packet_alias ORDER BY packet_id, position",
            "packet_alias", &Loader::packetAliasRow);
    }
    Status packetAliasRow(RowReader& r)
    {
        std::string what;
        PacketDef* p = packetOf(r.integer(0), "packet_alias", what);
        if (p == nullptr)
            return fail(what);
        Alias alias { r.text(1), r.text(2) };
        if (r.failed())
            return fail(what + ": " + r.problem());
        p->aliases.push_back(std::move(alias));
        return {};
    }

    Status readCriteria()
    {
        return forEachRow("SELECT packet_id, bit_offset, bit_length, op, value FROM packet_criterion"
                          " ORDER BY packet_id, position",
            "packet_criterion", &Loader::criterionRow);
    }
    Status criterionRow(RowReader& r)
    {
        std::string what;
        PacketDef* p = packetOf(r.integer(0), "packet_criterion", what);
        if (p == nullptr)
            return fail(what);
        FieldCriterion c;
        c.bitOffset = r.uint32(1);
        c.bitLength = static_cast<std::uint32_t>(r.integer(2, 1, 64));
        c.op = r.code(3, kCompareOpCodes, "comparison");
        c.value = std::bit_cast<std::uint64_t>(r.integer(4));
        if (r.failed())
            return fail(what + ": " + r.problem());
        p->criteria.push_back(c);
        return {};
    }

    // A child row's parameter; `what` names it (or says why there is none).
    ParameterDef* childParameter(RowReader& r, const char* table, std::string& what)
    {
        ParameterDef* q = parameterOf(r.integer(0), what);
        if (q == nullptr) {
            what = std::string("table ") + table + ": " + what + " does not exist";
            return nullptr;
        }
        what += std::string(", table ") + table;
        return q;
    }

    Status readParameterAliases()
    {
        return forEachRow(
            "SELECT parameter_id, name_space, alias FROM parameter_alias ORDER BY parameter_id, position",
            "parameter_alias", &Loader::parameterAliasRow);
    }
    Status parameterAliasRow(RowReader& r)
    {
        std::string what;
        ParameterDef* q = childParameter(r, "parameter_alias", what);
        if (q == nullptr)
            return fail(what);
        Alias alias { r.text(1), r.text(2) };
        if (r.failed())
            return fail(what + ": " + r.problem());
        q->aliases.push_back(std::move(alias));
        return {};
    }

    // The columns parameter, op, value, calibrated from `first` on.
    static Condition readCondition(RowReader& r, int first)
    {
        Condition c;
        c.parameter = r.text(first);
        c.op = r.code(first + 1, kCompareOpCodes, "comparison");
        c.value = r.real(first + 2);
        c.calibrated = r.boolean(first + 3);
        return c;
    }

    Status readIncludeConditions()
    {
        return forEachRow("SELECT parameter_id, parameter, op, value, calibrated FROM include_condition"
                          " ORDER BY parameter_id, position",
            "include_condition", &Loader::includeConditionRow);
    }
    Status includeConditionRow(RowReader& r)
    {
        std::string what;
        ParameterDef* q = childParameter(r, "include_condition", what);
        if (q == nullptr)
            return fail(what);
        Condition c = readCondition(r, 1);
        if (r.failed())
            return fail(what + ": " + r.problem());
        q->includeWhen.push_back(std::move(c));
        return {};
    }

    Status readContexts()
    {
        return forEachRow("SELECT parameter_id, id, calibrator, time_epoch, time_scale, time_offset"
                          " FROM context_calibration ORDER BY parameter_id, position",
            "context_calibration", &Loader::contextRow);
    }
    Status contextRow(RowReader& r)
    {
        std::string what;
        ParameterDef* q = childParameter(r, "context_calibration", what);
        if (q == nullptr)
            return fail(what);
        const std::int64_t id = r.integer(1);
        const auto kind = r.optionalCode(2, kCalibratorCodes, "calibrator");
        const auto epoch = r.optionalReal(3);
        const auto scale = r.optionalReal(4);
        const auto offset = r.optionalReal(5);
        if (r.failed())
            return fail(what + ": " + r.problem());
        if (kind == CalibratorKind::Enumeration)
            return fail(what + ": a context calibrator cannot be an enumeration");
        ContextCalibration context;
        context.calibrator = emptyCalibrator(kind);
        if (auto s = readTime(context.calibrator, epoch, scale, offset); !s)
            return fail(what + ": " + s.error().message);
        q->contextCalibrators.push_back(std::move(context));
        if (!m_contextIndex.emplace(id, &q->contextCalibrators.back() - q->contextCalibrators.data()).second)
            return fail(what + ": duplicate context id " + std::to_string(id));
        m_contextOwner.emplace(id, q);
        return {};
    }

    // The context a child row belongs to, and its name for messages. Valid until the parameter's
    // contexts change, which they do not once readContexts is done.
    ContextCalibration* contextOf(RowReader& r, const char* table, std::string& what)
    {
        const std::int64_t id = r.integer(0);
        const auto owner = m_contextOwner.find(id);
        if (owner == m_contextOwner.end()) {
            what = std::string("table ") + table + ": context id " + std::to_string(id) + " does not exist";
            return nullptr;
        }
        const auto index = static_cast<std::size_t>(m_contextIndex.at(id));
        what = "parameter '" + owner->second->name + "', context " + std::to_string(index + 1) + ", table " + table;
        return &owner->second->contextCalibrators[index];
    }

    Status readContextConditions()
    {
        return forEachRow("SELECT context_id, parameter, op, value, calibrated FROM context_condition"
                          " ORDER BY context_id, position",
            "context_condition", &Loader::contextConditionRow);
    }
    Status contextConditionRow(RowReader& r)
    {
        std::string what;
        ContextCalibration* context = contextOf(r, "context_condition", what);
        if (context == nullptr)
            return fail(what);
        Condition c = readCondition(r, 1);
        if (r.failed())
            return fail(what + ": " + r.problem());
        context->when.push_back(std::move(c));
        return {};
    }

    Status readContextCoefficients()
    {
        return forEachRow("SELECT context_id, position, value FROM context_polynomial_coefficient"
                          " ORDER BY context_id, position",
            "context_polynomial_coefficient", &Loader::contextCoefficientRow);
    }
    Status contextCoefficientRow(RowReader& r)
    {
        std::string what;
        ContextCalibration* context = contextOf(r, "context_polynomial_coefficient", what);
        if (context == nullptr)
            return fail(what);
        auto* poly = std::get_if<PolynomialCalibrator>(&context->calibrator);
        if (poly == nullptr)
            return fail(what + ": the context has no polynomial calibrator");
        const std::int64_t position = r.integer(1, 0, 5);
        const double value = r.real(2);
        if (r.failed())
            return fail(what + ": " + r.problem());
        if (position != static_cast<std::int64_t>(poly->coefficients.size()))
            return fail(what + ": the polynomial has no coefficient for x^" + std::to_string(poly->coefficients.size()));
        poly->coefficients.push_back(value);
        return {};
    }

    Status readContextPoints()
    {
        return forEachRow("SELECT context_id, raw, calibrated FROM context_point_pair ORDER BY context_id, position",
            "context_point_pair", &Loader::contextPointRow);
    }
    Status contextPointRow(RowReader& r)
    {
        std::string what;
        ContextCalibration* context = contextOf(r, "context_point_pair", what);
        if (context == nullptr)
            return fail(what);
        auto* table = std::get_if<PointPairCalibrator>(&context->calibrator);
        if (table == nullptr)
            return fail(what + ": the context has no point-pair calibrator");
        PointPair point { r.real(1), r.real(2) };
        if (r.failed())
            return fail(what + ": " + r.problem());
        table->points.push_back(point);
        return {};
    }

    Status checkComplete()
    {
        if (m_numericLimitsPending == 0)
            return {};
        return fail(std::to_string(m_numericLimitsPending)
            + " parameter(s) with numeric limits have no row in table numeric_limits");
    }

    Connection& m_c;
    MissionDatabase m_db;
    bool m_missionFound = false;
    std::unordered_map<std::int64_t, std::size_t> m_packetIndex;
    std::unordered_map<std::int64_t, ParameterSlot> m_parameterIndex;
    // context_calibration.id -> its parameter and its index among the parameter's contexts
    std::unordered_map<std::int64_t, ParameterDef*> m_contextOwner;
    std::unordered_map<std::int64_t, std::ptrdiff_t> m_contextIndex;
    long m_numericLimitsPending = 0;
};

// ---- Saving ---------------------------------------------------------------------------------------

// Drops whatever the file holds (it is empty or a mission database of any version).
Status dropEverything(Connection& c)
{
    std::vector<std::pair<std::string, std::string>> objects; // type, name
    {
        auto stmt = c.prepare("SELECT type, name FROM sqlite_schema WHERE type IN ('table', 'view', 'trigger')"
                              " AND name NOT LIKE 'sqlite!_%' ESCAPE '!'");
        if (!stmt)
            return stmt.error();
        int rc = SQLITE_OK;
        while ((rc = sqlite3_step(stmt->get())) == SQLITE_ROW) {
            objects.emplace_back(reinterpret_cast<const char*>(sqlite3_column_text(stmt->get(), 0)),
                reinterpret_cast<const char*>(sqlite3_column_text(stmt->get(), 1)));
        }
        if (rc != SQLITE_DONE)
            return fail(c.lastError(rc));
    }
    // Triggers and views first, then our tables children first, then any others; foreign keys are
    // deferred to the commit, so tables of another schema version can go in any order.
    auto rank = [](const std::pair<std::string, std::string>& o) {
        if (o.first != "table")
            return -1;
        for (std::size_t i = 0; i < kTables.size(); ++i)
            if (o.second == kTables[i])
                return static_cast<int>(i);
        return static_cast<int>(kTables.size());
    };
    std::stable_sort(objects.begin(), objects.end(), [&](const auto& a, const auto& b) { return rank(a) < rank(b); });
    for (const auto& [type, name] : objects) {
        std::string quoted;
        for (char ch : name) {
            quoted += ch;
            if (ch == '"')
                quoted += '"';
        }
        const std::string keyword = type == "table" ? "TABLE" : type == "view" ? "VIEW" : "TRIGGER";
        if (auto s = c.exec("DROP " + keyword + " IF EXISTS \"" + quoted + "\""); !s)
            return fail("cannot remove the old content: " + s.error().message);
    }
    return {};
}

// The prepared INSERT statements of a save.
struct Inserts {
    StmtHandle mission, packet, packetAlias, criterion, parameter, parameterAlias, includeCondition, coefficient,
        point, state, numeric, expected, context, contextCondition, contextCoefficient, contextPoint;
};

Result<Inserts> prepareInserts(Connection& c)
{
    Inserts out;
    const std::pair<StmtHandle*, std::string_view> statements[] = {
        { &out.mission, "INSERT INTO mission (id, name) VALUES (1, ?1)" },
        { &out.packet,
            "INSERT INTO packet (id, position, name, apid, length, variable_length, max_length, byte_order,"
            " description, cuc_coarse_bytes, cuc_fine_bytes, cuc_epoch, cuc_p_field,"
            " secondary_id_bit_offset, secondary_id_bit_length, secondary_id_value, long_description, path)"
            " VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15, ?16, ?17, ?18)" },
        { &out.packetAlias, "INSERT INTO packet_alias (packet_id, position, name_space, alias) VALUES (?1, ?2, ?3, ?4)" },
        { &out.criterion,
            "INSERT INTO packet_criterion (packet_id, position, bit_offset, bit_length, op, value)"
            " VALUES (?1, ?2, ?3, ?4, ?5, ?6)" },
        { &out.parameter,
            "INSERT INTO parameter (id, packet_id, position, name, bit_offset, bit_length, data_type, byte_order,"
            " units, description, overlap_allowed, calibrator, limits, limits_enabled, placement, size_kind,"
            " size_parameter, size_slope, size_intercept, size_terminator, size_leading_bits, size_max_bytes,"
            " long_description, path, time_epoch, time_scale, time_offset)"
            " VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15, ?16, ?17, ?18, ?19, ?20,"
            " ?21, ?22, ?23, ?24, ?25, ?26, ?27)" },
        { &out.parameterAlias,
            "INSERT INTO parameter_alias (parameter_id, position, name_space, alias) VALUES (?1, ?2, ?3, ?4)" },
        { &out.includeCondition,
            "INSERT INTO include_condition (parameter_id, position, parameter, op, value, calibrated)"
            " VALUES (?1, ?2, ?3, ?4, ?5, ?6)" },
        { &out.coefficient, "INSERT INTO polynomial_coefficient (parameter_id, position, value) VALUES (?1, ?2, ?3)" },
        { &out.point, "INSERT INTO point_pair (parameter_id, position, raw, calibrated) VALUES (?1, ?2, ?3, ?4)" },
        { &out.state, "INSERT INTO state (parameter_id, position, low, high, text) VALUES (?1, ?2, ?3, ?4, ?5)" },
        { &out.numeric,
            "INSERT INTO numeric_limits (parameter_id, red_low, yellow_low, yellow_high, red_high)"
            " VALUES (?1, ?2, ?3, ?4, ?5)" },
        { &out.expected, "INSERT INTO expected_state (parameter_id, position, state) VALUES (?1, ?2, ?3)" },
        { &out.context,
            "INSERT INTO context_calibration (id, parameter_id, position, calibrator, time_epoch, time_scale,"
            " time_offset) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)" },
        { &out.contextCondition,
            "INSERT INTO context_condition (context_id, position, parameter, op, value, calibrated)"
            " VALUES (?1, ?2, ?3, ?4, ?5, ?6)" },
        { &out.contextCoefficient,
            "INSERT INTO context_polynomial_coefficient (context_id, position, value) VALUES (?1, ?2, ?3)" },
        { &out.contextPoint,
            "INSERT INTO context_point_pair (context_id, position, raw, calibrated) VALUES (?1, ?2, ?3, ?4)" },
    };
    for (const auto& [handle, sql] : statements) {
        auto stmt = c.prepare(sql);
        if (!stmt)
            return stmt.error();
        *handle = std::move(*stmt);
    }
    return out;
}

// Binds the time columns: the calibrator's values for a TIME calibrator, else NULLs.
RowWriter& timeColumns(RowWriter& row, const Calibrator& calibrator)
{
    if (const auto* time = std::get_if<TimeCalibrator>(&calibrator))
        return row.real(time->epochUnixSeconds).real(time->scale).real(time->offset);
    return row.null().null().null();
}

Status writeAliases(const Connection& c, sqlite3_stmt* stmt, std::int64_t ownerId, const std::vector<Alias>& aliases,
    const std::string& what)
{
    for (std::size_t i = 0; i < aliases.size(); ++i) {
        auto s = RowWriter(stmt)
                     .integer(ownerId)
                     .integer(static_cast<std::int64_t>(i))
                     .text(aliases[i].nameSpace)
                     .text(aliases[i].alias)
                     .run(c, what + " alias " + std::to_string(i + 1));
        if (!s)
            return s;
    }
    return {};
}

Status writeConditions(const Connection& c, sqlite3_stmt* stmt, std::int64_t ownerId,
    const std::vector<Condition>& conditions, const std::string& what)
{
    for (std::size_t i = 0; i < conditions.size(); ++i) {
        const Condition& cond = conditions[i];
        auto s = RowWriter(stmt)
                     .integer(ownerId)
                     .integer(static_cast<std::int64_t>(i))
                     .text(cond.parameter)
                     .text(codeOf(kCompareOpCodes, cond.op))
                     .real(cond.value)
                     .boolean(cond.calibrated)
                     .run(c, what + " condition " + std::to_string(i + 1));
        if (!s)
            return s;
    }
    return {};
}

// The child rows of a polynomial or point-pair calibrator (the default one or a context's).
Status writeCalibratorRows(const Connection& c, sqlite3_stmt* coefficient, sqlite3_stmt* point, std::int64_t ownerId,
    const Calibrator& calibrator, const std::string& what)
{
    if (const auto* poly = std::get_if<PolynomialCalibrator>(&calibrator)) {
        for (std::size_t i = 0; i < poly->coefficients.size(); ++i) {
            auto s = RowWriter(coefficient)
                         .integer(ownerId)
                         .integer(static_cast<std::int64_t>(i))
                         .real(poly->coefficients[i])
                         .run(c, what + " coefficient " + std::to_string(i));
            if (!s)
                return s;
        }
    } else if (const auto* table = std::get_if<PointPairCalibrator>(&calibrator)) {
        for (std::size_t i = 0; i < table->points.size(); ++i) {
            auto s = RowWriter(point)
                         .integer(ownerId)
                         .integer(static_cast<std::int64_t>(i))
                         .real(table->points[i].raw)
                         .real(table->points[i].calibrated)
                         .run(c, what + " point " + std::to_string(i + 1));
            if (!s)
                return s;
        }
    }
    return {};
}

Status writeParameter(const Connection& c, Inserts& ins, std::int64_t packetId, std::int64_t parameterId,
    std::size_t position, const ParameterDef& q, const std::string& what, std::int64_t& contextId)
{
    std::optional<std::string_view> limitsCode;
    bool limitsEnabled = true;
    if (const auto* n = std::get_if<NumericLimits>(&q.limits)) {
        limitsCode = codeOf(kLimitsCodes, LimitsKind::Numeric);
        limitsEnabled = n->enabled;
    } else if (const auto* e = std::get_if<StateLimits>(&q.limits)) {
        limitsCode = codeOf(kLimitsCodes, LimitsKind::ExpectedStates);
        limitsEnabled = e->enabled;
    }
    std::optional<std::string_view> byteOrder;
    if (q.byteOrder)
        byteOrder = codeOf(kByteOrderCodes, *q.byteOrder);
    RowWriter row(ins.parameter.get());
    row.integer(parameterId)
        .integer(packetId)
        .integer(static_cast<std::int64_t>(position))
        .text(q.name)
        .integer(q.bitOffset)
        .integer(q.bitLength)
        .text(codeOf(kDataTypeCodes, q.type))
        .optionalText(byteOrder)
        .text(q.units)
        .text(q.description)
        .boolean(q.overlapAllowed)
        .optionalText(calibratorCode(q.calibrator))
        .optionalText(limitsCode)
        .boolean(limitsEnabled)
        .text(codeOf(kPlacementCodes, q.placement))
        .text(codeOf(kSizeKindCodes, q.size.kind))
        .text(q.size.sizeParameter)
        .real(q.size.sizeSlope)
        .real(q.size.sizeIntercept)
        .integer(q.size.terminator)
        .integer(q.size.leadingSizeBits)
        .integer(q.size.maxBytes)
        .text(q.longDescription)
        .text(q.path);
    auto s = timeColumns(row, q.calibrator).run(c, what);
    if (!s)
        return s;
    if (s = writeAliases(c, ins.parameterAlias.get(), parameterId, q.aliases, what); !s)
        return s;
    if (s = writeConditions(c, ins.includeCondition.get(), parameterId, q.includeWhen, what + " WHEN"); !s)
        return s;
    if (s = writeCalibratorRows(c, ins.coefficient.get(), ins.point.get(), parameterId, q.calibrator, what); !s)
        return s;
    if (const auto* enumeration = std::get_if<EnumerationCalibrator>(&q.calibrator)) {
        for (std::size_t i = 0; i < enumeration->states.size(); ++i) {
            const State& st = enumeration->states[i];
            s = RowWriter(ins.state.get())
                    .integer(parameterId)
                    .integer(static_cast<std::int64_t>(i))
                    .integer(st.low)
                    .integer(st.high)
                    .text(st.text)
                    .run(c, what + " state '" + st.text + "'");
            if (!s)
                return s;
        }
    }

    for (std::size_t k = 0; k < q.contextCalibrators.size(); ++k) {
        const ContextCalibration& context = q.contextCalibrators[k];
        const std::string where = what + " context " + std::to_string(k + 1);
        ++contextId;
        RowWriter contextRow(ins.context.get());
        contextRow.integer(contextId)
            .integer(parameterId)
            .integer(static_cast<std::int64_t>(k))
            .optionalText(calibratorCode(context.calibrator));
        if (s = timeColumns(contextRow, context.calibrator).run(c, where); !s)
            return s;
        if (s = writeConditions(c, ins.contextCondition.get(), contextId, context.when, where); !s)
            return s;
        s = writeCalibratorRows(
            c, ins.contextCoefficient.get(), ins.contextPoint.get(), contextId, context.calibrator, where);
        if (!s)
            return s;
    }

    if (const auto* n = std::get_if<NumericLimits>(&q.limits)) {
        // An open side is -inf / inf: SQLite stores infinities as REAL and gives them back.
        s = RowWriter(ins.numeric.get())
                .integer(parameterId)
                .real(n->redLow)
                .real(n->yellowLow)
                .real(n->yellowHigh)
                .real(n->redHigh)
                .run(c, what + " limits");
        if (!s)
            return s;
    } else if (const auto* e = std::get_if<StateLimits>(&q.limits)) {
        for (std::size_t i = 0; i < e->expectedStates.size(); ++i) {
            s = RowWriter(ins.expected.get())
                    .integer(parameterId)
                    .integer(static_cast<std::int64_t>(i))
                    .text(e->expectedStates[i])
                    .run(c, what + " expected state '" + e->expectedStates[i] + "'");
            if (!s)
                return s;
        }
    }
    return {};
}

Status writeAll(Connection& c, const MissionDatabase& db)
{
    if (auto s = c.exec(schemaV3()); !s)
        return fail("cannot create the tables: " + s.error().message);
    auto prepared = prepareInserts(c);
    if (!prepared)
        return prepared.error();
    Inserts& ins = *prepared;

    if (auto s = RowWriter(ins.mission.get()).text(db.name).run(c, "the mission name"); !s)
        return s;

    std::int64_t parameterId = 0;
    std::int64_t contextId = 0;
    for (std::size_t pi = 0; pi < db.packets.size(); ++pi) {
        const PacketDef& p = db.packets[pi];
        const auto packetId = static_cast<std::int64_t>(pi + 1);
        const auto& cuc = p.secondaryHeader;
        const auto& sid = p.secondaryId;
        const std::string what = "packet '" + p.name + "'";
        RowWriter row(ins.packet.get());
        row.integer(packetId)
            .integer(static_cast<std::int64_t>(pi))
            .text(p.name)
            .integer(p.apid)
            .integer(p.length)
            .boolean(p.variableLength)
            .integer(p.maxLength)
            .text(codeOf(kByteOrderCodes, p.byteOrder))
            .text(p.description);
        if (cuc)
            row.integer(cuc->coarseBytes)
                .integer(cuc->fineBytes)
                .text(codeOf(kEpochCodes, cuc->epoch))
                .boolean(cuc->hasPField);
        else
            row.null().null().null().boolean(false);
        if (sid)
            row.integer(sid->bitOffset).integer(sid->bitLength).integer(std::bit_cast<std::int64_t>(sid->value));
        else
            row.null().null().null();
        row.text(p.longDescription).text(p.path);
        if (auto s = row.run(c, what); !s)
            return s;
        if (auto s = writeAliases(c, ins.packetAlias.get(), packetId, p.aliases, what); !s)
            return s;
        for (std::size_t i = 0; i < p.criteria.size(); ++i) {
            const FieldCriterion& fc = p.criteria[i];
            auto s = RowWriter(ins.criterion.get())
                         .integer(packetId)
                         .integer(static_cast<std::int64_t>(i))
                         .integer(fc.bitOffset)
                         .integer(fc.bitLength)
                         .text(codeOf(kCompareOpCodes, fc.op))
                         .integer(std::bit_cast<std::int64_t>(fc.value))
                         .run(c, what + " MATCH " + std::to_string(i + 1));
            if (!s)
                return s;
        }

        for (std::size_t qi = 0; qi < p.parameters.size(); ++qi) {
            const ParameterDef& q = p.parameters[qi];
            ++parameterId;
            auto s = writeParameter(
                c, ins, packetId, parameterId, qi, q, "parameter '" + p.name + "." + q.name + "'", contextId);
            if (!s)
                return s;
        }
    }

    if (auto s = c.exec("PRAGMA application_id = " + std::to_string(kApplicationId)); !s)
        return s;
    return c.exec("PRAGMA user_version = " + std::to_string(kSchemaVersion));
}

Status save(const MissionDatabase& db, const std::string& path, FileKind kind)
{
    if (kind == FileKind::Other)
        return fail("exists and is not an SQLite database; refusing to replace it");
    if (kind != FileKind::Missing) {
        if (auto e = notAnSqliteFile(kind))
            return *e;
        if (markedReadOnly(path))
            return fail("the file is read-only; cannot save");
    }

    auto c = Connection::open(path, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE);
    if (!c)
        return c.error();
    if (sqlite3_db_readonly(c->get(), "main") == 1)
        return fail("the file is read-only; cannot save");

    Transaction t(*c);
    if (auto s = t.begin("IMMEDIATE"); !s)
        return s;
    auto info = inspect(*c);
    if (!info)
        return info.error();
    if (info->hasTables) {
        if (auto e = foreignDatabase(*info))
            return fail("is " + e->message + "; refusing to replace it");
    }
    // The old content may belong to another schema version: check its foreign keys only at the commit,
    // when it is gone and the new rows are all in.
    if (auto s = c->exec("PRAGMA defer_foreign_keys = ON"); !s)
        return s;
    if (auto s = dropEverything(*c); !s)
        return s;
    if (auto s = writeAll(*c, db); !s)
        return s;
    if (auto s = t.commit(); !s)
        return fail("cannot save: " + s.error().message);
    return {};
}

} // namespace

// ---- Public API -----------------------------------------------------------------------------------

std::string_view schemaDdl(int version)
{
    switch (version) {
    case 1:
        return kSchemaV1;
    case 2:
        return kSchemaV2;
    case 3:
        return schemaV3();
    default:
        return {};
    }
}

bool hasSqliteHeader(const std::string& path)
{
    return classifyFile(path) == FileKind::Sqlite;
}

Result<int> schemaVersion(const std::string& path)
{
    const FileKind kind = classifyFile(path);
    if (kind == FileKind::Empty)
        return 0;
    if (auto e = notAnSqliteFile(kind))
        return inFile(*e, path);
    auto c = Connection::open(path, SQLITE_OPEN_READONLY);
    if (!c)
        return inFile(c.error(), path);
    auto info = inspect(*c);
    if (!info)
        return inFile(info.error(), path);
    if (info->applicationId == 0 && !info->hasTables && info->userVersion == 0)
        return 0;
    if (auto e = foreignDatabase(*info))
        return inFile(*e, path);
    if (info->userVersion > kSchemaVersion)
        return info->userVersion;
    if (auto e = unloadable(*info))
        return inFile(*e, path);
    return info->userVersion;
}

Result<MissionDatabase> loadDatabase(const std::string& path)
{
    const FileKind kind = classifyFile(path);
    if (kind == FileKind::Empty)
        return inFile(fail("an empty file, not a mission database"), path);
    if (auto e = notAnSqliteFile(kind))
        return inFile(*e, path);

    auto c = Connection::open(path, SQLITE_OPEN_READONLY);
    if (!c)
        return inFile(c.error(), path);
    auto info = inspect(*c);
    if (!info)
        return inFile(info.error(), path);
    if (auto e = unloadable(*info))
        return inFile(*e, path);

    if (info->userVersion < kSchemaVersion) {
        const std::string readOnly = "schema version " + std::to_string(info->userVersion) + " must be upgraded to "
            + std::to_string(kSchemaVersion)
            + " before it can be loaded, but the file is read-only; make it writable"
              " (or load a writable copy) to upgrade it";
        if (markedReadOnly(path))
            return inFile(fail(readOnly), path);
        c = Connection::open(path, SQLITE_OPEN_READWRITE);
        if (!c)
            return inFile(c.error(), path);
        if (sqlite3_db_readonly(c->get(), "main") == 1)
            return inFile(fail(readOnly), path);
        if (auto s = upgrade(*c); !s)
            return inFile(s.error(), path);
    }

    Transaction t(*c);
    if (auto s = t.begin("DEFERRED"); !s)
        return inFile(s.error(), path);
    Loader loader(*c);
    auto db = loader.run();
    if (!db)
        return inFile(db.error(), path);
    if (auto s = t.commit(); !s)
        return inFile(s.error(), path);
    return db;
}

Status saveDatabase(const MissionDatabase& db, const std::string& path)
{
    const FileKind kind = classifyFile(path);
    Status s = save(db, path, kind); // closes the connection before we might remove the file
    if (s)
        return s;
    if (kind == FileKind::Missing) {
        // Leave no trace of a failed save of a new file.
        std::error_code ec;
        fs::remove(path, ec);
        fs::remove(path + "-journal", ec);
    }
    return inFile(s.error(), path);
}

} // namespace telestation::mdb
