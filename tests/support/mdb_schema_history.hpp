// The DDL of the mission database's older schema versions, verbatim as those Telestation builds wrote
// it (without the PRAGMAs), for tests that build such files and check that loading upgrades them. The
// product keeps only the upgrade steps (core/mdb/sqlite_schema.cpp). Never edit these: a file of that
// version looks like this forever.
#pragma once

#include <string_view>

namespace telestation::test {

// Version 1: the first layout. No secondary ids, no enabled flag on limits, no CUC P-field, and no
// PRAGMA application_id.
inline constexpr std::string_view kMdbSchemaV1 = R"sql(
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

// Version 2: secondary ids, the enabled flag of limits, the CUC P-field, PRAGMA application_id.
inline constexpr std::string_view kMdbSchemaV2 = R"sql(
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

} // namespace telestation::test
