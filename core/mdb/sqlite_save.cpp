// Saving the mission database into the SQLite store: whatever the file held is dropped, the tables
// of the current schema are created and every row is inserted through statements prepared once per
// save. Ids are assigned in model order; positions keep the model's order.
#include "core/mdb/sqlite_codes.hpp"
#include "core/mdb/sqlite_store.hpp"
#include "core/mdb/sqlite_store_detail.hpp"

#include <algorithm>
#include <bit>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace telestation::mdb::detail {
namespace {

// Binds the parameters of one row in order (?1, ?2, ...), runs the statement and resets it.
class RowWriter {
public:
    explicit RowWriter(sqlite::Statement& stmt)
        : m_stmt(stmt)
    { }

    RowWriter& integer(std::int64_t v)
    {
        m_stmt.bindInteger(++m_index, v);
        return *this;
    }
    RowWriter& boolean(bool v) { return integer(v ? 1 : 0); }
    RowWriter& real(double v)
    {
        m_stmt.bindReal(++m_index, v); // refuses a NaN, which SQLite would turn into NULL
        return *this;
    }
    // The text must stay valid until run(): the statement does not copy it.
    RowWriter& text(std::string_view v)
    {
        m_stmt.bindText(++m_index, v);
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
        m_stmt.bindNull(++m_index);
        return *this;
    }

    // Steps the statement; `what` names the row for the error message.
    [[nodiscard]] Status run(const std::string& what)
    {
        if (auto s = m_stmt.run(); !s)
            return fail("cannot save " + what + ": " + s.error().message);
        return {};
    }

private:
    sqlite::Statement& m_stmt;
    int m_index = 0;
};

// Every table of a mission database of any schema version, children before parents (the order to
// drop them in; their indexes and triggers go with them). Fixed text: nothing read from the file is
// ever made into SQL (core/sqlite/sql.hpp).
constexpr char kDropOurTables[] = "DROP TABLE IF EXISTS context_point_pair;"
                                  "DROP TABLE IF EXISTS context_polynomial_coefficient;"
                                  "DROP TABLE IF EXISTS context_condition;"
                                  "DROP TABLE IF EXISTS context_calibration;"
                                  "DROP TABLE IF EXISTS include_condition;"
                                  "DROP TABLE IF EXISTS parameter_alias;"
                                  "DROP TABLE IF EXISTS packet_criterion;"
                                  "DROP TABLE IF EXISTS packet_alias;"
                                  "DROP TABLE IF EXISTS expected_state;"
                                  "DROP TABLE IF EXISTS numeric_limits;"
                                  "DROP TABLE IF EXISTS state;"
                                  "DROP TABLE IF EXISTS point_pair;"
                                  "DROP TABLE IF EXISTS polynomial_coefficient;"
                                  "DROP TABLE IF EXISTS parameter;"
                                  "DROP TABLE IF EXISTS packet;"
                                  "DROP TABLE IF EXISTS mission;";

// Drops the mission database the file holds (it is empty or a mission database of any version). What
// else it holds — a table, view or trigger somebody added — is not ours to drop: the save is refused
// with its names, and the caller's transaction leaves the file as it was.
Status dropEverything(sqlite::Connection& c)
{
    if (auto s = c.exec(kDropOurTables); !s)
        return fail("cannot remove the old content: " + s.error().message);
    auto stmt = c.prepare("SELECT type, name FROM sqlite_schema WHERE name NOT LIKE 'sqlite!_%' ESCAPE '!'"
                          " ORDER BY type, name");
    if (!stmt)
        return stmt.error();
    std::string others;
    while (stmt->next())
        others += (others.empty() ? "" : ", ") + stmt->text(0) + " '" + stmt->text(1) + "'";
    if (!stmt->status())
        return stmt->status().error();
    if (!others.empty())
        return fail("holds more than a mission database (" + others + "); refusing to replace it");
    return {};
}

// The prepared INSERT statements of a save.
struct Inserts {
    sqlite::Statement mission, packet, packetAlias, criterion, parameter, parameterAlias, includeCondition, coefficient,
        point, state, numeric, expected, context, contextCondition, contextCoefficient, contextPoint;
};

Result<Inserts> prepareInserts(sqlite::Connection& c)
{
    Inserts out;
    struct ToPrepare {
        sqlite::Statement* handle;
        sqlite::Sql sql;
    };
    const ToPrepare statements[] = {
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

Status writeAliases(sqlite::Statement& stmt, std::int64_t ownerId, const std::vector<Alias>& aliases,
    const std::string& what)
{
    for (std::size_t i = 0; i < aliases.size(); ++i) {
        auto s = RowWriter(stmt)
                     .integer(ownerId)
                     .integer(static_cast<std::int64_t>(i))
                     .text(aliases[i].nameSpace)
                     .text(aliases[i].alias)
                     .run(what + " alias " + std::to_string(i + 1));
        if (!s)
            return s;
    }
    return {};
}

Status writeConditions(sqlite::Statement& stmt, std::int64_t ownerId,
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
                     .run(what + " condition " + std::to_string(i + 1));
        if (!s)
            return s;
    }
    return {};
}

// The child rows of a polynomial or point-pair calibrator (the default one or a context's).
Status writeCalibratorRows(sqlite::Statement& coefficient, sqlite::Statement& point, std::int64_t ownerId,
    const Calibrator& calibrator, const std::string& what)
{
    if (const auto* poly = std::get_if<PolynomialCalibrator>(&calibrator)) {
        for (std::size_t i = 0; i < poly->coefficients.size(); ++i) {
            auto s = RowWriter(coefficient)
                         .integer(ownerId)
                         .integer(static_cast<std::int64_t>(i))
                         .real(poly->coefficients[i])
                         .run(what + " coefficient " + std::to_string(i));
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
                         .run(what + " point " + std::to_string(i + 1));
            if (!s)
                return s;
        }
    }
    return {};
}

Status writeParameter(Inserts& ins, std::int64_t packetId, std::int64_t parameterId,
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
    RowWriter row(ins.parameter);
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
    auto s = timeColumns(row, q.calibrator).run(what);
    if (!s)
        return s;
    if (s = writeAliases(ins.parameterAlias, parameterId, q.aliases, what); !s)
        return s;
    if (s = writeConditions(ins.includeCondition, parameterId, q.includeWhen, what + " WHEN"); !s)
        return s;
    if (s = writeCalibratorRows(ins.coefficient, ins.point, parameterId, q.calibrator, what); !s)
        return s;
    if (const auto* enumeration = std::get_if<EnumerationCalibrator>(&q.calibrator)) {
        for (std::size_t i = 0; i < enumeration->states.size(); ++i) {
            const State& st = enumeration->states[i];
            s = RowWriter(ins.state)
                    .integer(parameterId)
                    .integer(static_cast<std::int64_t>(i))
                    .integer(st.low)
                    .integer(st.high)
                    .text(st.text)
                    .run(what + " state '" + st.text + "'");
            if (!s)
                return s;
        }
    }

    for (std::size_t k = 0; k < q.contextCalibrators.size(); ++k) {
        const ContextCalibration& context = q.contextCalibrators[k];
        const std::string where = what + " context " + std::to_string(k + 1);
        ++contextId;
        RowWriter contextRow(ins.context);
        contextRow.integer(contextId)
            .integer(parameterId)
            .integer(static_cast<std::int64_t>(k))
            .optionalText(calibratorCode(context.calibrator));
        if (s = timeColumns(contextRow, context.calibrator).run(where); !s)
            return s;
        if (s = writeConditions(ins.contextCondition, contextId, context.when, where); !s)
            return s;
        s = writeCalibratorRows(
            ins.contextCoefficient, ins.contextPoint, contextId, context.calibrator, where);
        if (!s)
            return s;
    }

    if (const auto* n = std::get_if<NumericLimits>(&q.limits)) {
        // An open side is -inf / inf: SQLite stores infinities as REAL and gives them back.
        s = RowWriter(ins.numeric)
                .integer(parameterId)
                .real(n->redLow)
                .real(n->yellowLow)
                .real(n->yellowHigh)
                .real(n->redHigh)
                .run(what + " limits");
        if (!s)
            return s;
    } else if (const auto* e = std::get_if<StateLimits>(&q.limits)) {
        for (std::size_t i = 0; i < e->expectedStates.size(); ++i) {
            s = RowWriter(ins.expected)
                    .integer(parameterId)
                    .integer(static_cast<std::int64_t>(i))
                    .text(e->expectedStates[i])
                    .run(what + " expected state '" + e->expectedStates[i] + "'");
            if (!s)
                return s;
        }
    }
    return {};
}

Status writeAll(sqlite::Connection& c, const MissionDatabase& db)
{
    if (auto s = c.exec(currentSchemaDdl()); !s)
        return fail("cannot create the tables: " + s.error().message);
    auto prepared = prepareInserts(c);
    if (!prepared)
        return prepared.error();
    Inserts& ins = *prepared;

    if (auto s = RowWriter(ins.mission).text(db.name).run("the mission name"); !s)
        return s;

    std::int64_t parameterId = 0;
    std::int64_t contextId = 0;
    for (std::size_t pi = 0; pi < db.packets.size(); ++pi) {
        const PacketDef& p = db.packets[pi];
        const auto packetId = static_cast<std::int64_t>(pi + 1);
        const auto& cuc = p.secondaryHeader;
        const auto& sid = p.secondaryId;
        const std::string what = "packet '" + p.name + "'";
        RowWriter row(ins.packet);
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
        if (auto s = row.run(what); !s)
            return s;
        if (auto s = writeAliases(ins.packetAlias, packetId, p.aliases, what); !s)
            return s;
        for (std::size_t i = 0; i < p.criteria.size(); ++i) {
            const FieldCriterion& fc = p.criteria[i];
            auto s = RowWriter(ins.criterion)
                         .integer(packetId)
                         .integer(static_cast<std::int64_t>(i))
                         .integer(fc.bitOffset)
                         .integer(fc.bitLength)
                         .text(codeOf(kCompareOpCodes, fc.op))
                         .integer(std::bit_cast<std::int64_t>(fc.value))
                         .run(what + " MATCH " + std::to_string(i + 1));
            if (!s)
                return s;
        }

        for (std::size_t qi = 0; qi < p.parameters.size(); ++qi) {
            const ParameterDef& q = p.parameters[qi];
            ++parameterId;
            auto s = writeParameter(
                ins, packetId, parameterId, qi, q, "parameter '" + p.name + "." + q.name + "'", contextId);
            if (!s)
                return s;
        }
    }

    static constexpr auto kIdentify = sqlite::sqlJoin("PRAGMA application_id = ", sqlite::sqlNumber<kApplicationId>(),
                                                      "; PRAGMA user_version = ", sqlite::sqlNumber<kSchemaVersion>());
    return c.exec(kIdentify.text);
}

} // namespace

Status writeDatabase(sqlite::Connection& c, const MissionDatabase& db)
{
    // The old content may belong to another schema version: check its foreign keys only at the commit,
    // when it is gone and the new rows are all in.
    if (auto s = c.exec("PRAGMA defer_foreign_keys = ON"); !s)
        return s;
    if (auto s = dropEverything(c); !s)
        return s;
    return writeAll(c, db);
}

} // namespace telestation::mdb::detail
