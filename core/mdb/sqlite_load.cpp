// Loading the mission database from the SQLite store: each table read once, in order, and joined in
// memory through id maps (no query per row); every value checked against the model as it is read, so
// that a file written by another program or damaged by hand is refused with the row and column named.
#include "core/mdb/sqlite_codes.hpp"
#include "core/mdb/sqlite_store_detail.hpp"

#include <bit>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>

namespace telestation::mdb::detail {
namespace {

// Reads the columns of the current row, checking each value against the model; the first problem
// is kept and the getters return a harmless default after it.
class RowReader {
public:
    explicit RowReader(const sqlite::Statement& stmt)
        : m_stmt(stmt)
    { }

    std::int64_t integer(int column, std::int64_t low, std::int64_t high)
    {
        if (m_stmt.type(column) != sqlite::ColumnType::Integer) {
            reject(column, "expected an integer, found " + typeName(column));
            return low;
        }
        const std::int64_t v = m_stmt.integer(column);
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
        const sqlite::ColumnType type = m_stmt.type(column);
        if (type != sqlite::ColumnType::Real && type != sqlite::ColumnType::Integer) {
            reject(column, "expected a real number, found " + typeName(column));
            return 0;
        }
        return m_stmt.real(column);
    }

    std::optional<double> optionalReal(int column)
    {
        if (isNull(column))
            return std::nullopt;
        return real(column);
    }

    std::string text(int column)
    {
        if (m_stmt.type(column) != sqlite::ColumnType::Text) {
            reject(column, "expected text, found " + typeName(column));
            return {};
        }
        return m_stmt.text(column);
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

    [[nodiscard]] bool isNull(int column) const { return m_stmt.isNull(column); }
    [[nodiscard]] bool failed() const { return !m_problem.empty(); }
    [[nodiscard]] const std::string& problem() const { return m_problem; }

    void reject(int column, const std::string& what)
    {
        if (m_problem.empty())
            m_problem = "column " + m_stmt.columnName(column) + ": " + what;
    }

private:
    std::string typeName(int column) const
    {
        switch (m_stmt.type(column)) {
        case sqlite::ColumnType::Integer:
            return "an integer";
        case sqlite::ColumnType::Real:
            return "a real number";
        case sqlite::ColumnType::Text:
            return "text";
        case sqlite::ColumnType::Blob:
            return "a blob";
        case sqlite::ColumnType::Null:
            break;
        }
        return "NULL";
    }

    const sqlite::Statement& m_stmt;
    std::string m_problem;
};

// Where a parameter row went in the model.
struct ParameterSlot {
    std::size_t packet = 0;
    std::size_t parameter = 0;
};

class Loader {
public:
    explicit Loader(sqlite::Connection& c)
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
    Status forEachRow(sqlite::Sql sql, std::string_view table, RowFunction onRow)
    {
        auto stmt = m_c.prepare(sql);
        if (!stmt)
            return fail("cannot read table " + std::string(table) + ": " + stmt.error().message);
        while (stmt->next()) {
            RowReader r(*stmt);
            if (auto s = (this->*onRow)(r); !s)
                return s;
        }
        if (!stmt->status())
            return fail("cannot read table " + std::string(table) + ": " + stmt->status().error().message);
        return {};
    }

    Status checkIntegrity()
    {
        auto stmt = m_c.prepare("PRAGMA quick_check");
        if (!stmt)
            return stmt.error();
        std::string problems;
        while (stmt->next()) {
            if (problems.empty() && stmt->text(0) != "ok")
                problems = stmt->text(0);
        }
        // One line for the message: drop the "*** in database main ***" heading, join the rest.
        if (const auto heading = problems.find("***\n"); heading != std::string::npos)
            problems.erase(0, heading + 4);
        for (char& ch : problems) {
            if (ch == '\n')
                ch = ' ';
        }
        if (!stmt->status())
            return stmt->status().error();
        if (!problems.empty())
            return fail("the file is corrupt (" + problems + ")");

        auto fk = m_c.prepare("PRAGMA foreign_key_check");
        if (!fk)
            return fk.error();
        if (fk->next())
            return fail("a row of table " + fk->text(0) + " refers to a row of table " + fk->text(2)
                + " that does not exist");
        return fk->status();
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

    sqlite::Connection& m_c;
    MissionDatabase m_db;
    bool m_missionFound = false;
    std::unordered_map<std::int64_t, std::size_t> m_packetIndex;
    std::unordered_map<std::int64_t, ParameterSlot> m_parameterIndex;
    // context_calibration.id -> its parameter and its index among the parameter's contexts
    std::unordered_map<std::int64_t, ParameterDef*> m_contextOwner;
    std::unordered_map<std::int64_t, std::ptrdiff_t> m_contextIndex;
    long m_numericLimitsPending = 0;
};

} // namespace

Result<MissionDatabase> readDatabase(sqlite::Connection& c)
{
    return Loader(c).run();
}

} // namespace telestation::mdb::detail
