#include "core/mdb/validate.hpp"

#include "core/mdb/keywords.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <limits>
#include <string>
#include <string_view>
#include <unordered_map>
#include <unordered_set>
#include <utility>
#include <vector>

namespace telestation::mdb {

namespace {

constexpr std::uint64_t kPrimaryHeaderBytes = 6;
constexpr std::uint64_t kPrimaryHeaderBits = kPrimaryHeaderBytes * 8;
constexpr std::uint64_t kMinPacketBytes = 7;     // primary header + at least one byte of data field
constexpr std::uint64_t kMaxPacketBytes = 65542; // primary header + 65536 bytes of data field
constexpr std::size_t kMaxPolynomialCoefficients = 6;
constexpr std::uint16_t kMaxApid = 2047;

bool isLetter(char c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
}

bool isDigit(char c)
{
    return c >= '0' && c <= '9';
}

// The definition language is line-oriented and has no escape for a line break, so a text holding one
// could not be exported.
bool hasLineBreak(std::string_view text)
{
    return text.find_first_of("\r\n") != std::string_view::npos;
}

std::string bitRange(std::uint64_t offset, std::uint64_t length)
{
    if (length == 0)
        return "bit " + std::to_string(offset);
    return "bits " + std::to_string(offset) + ".." + std::to_string(offset + length - 1);
}

bool isKnown(DataType type)
{
    switch (type) {
    case DataType::UnsignedInt:
    case DataType::SignedInt:
    case DataType::Float:
    case DataType::String:
    case DataType::Bytes:
        return true;
    }
    return false;
}

bool isKnown(ByteOrder order)
{
    return order == ByteOrder::BigEndian || order == ByteOrder::LittleEndian;
}

bool isKnown(TimeEpoch epoch)
{
    return epoch == TimeEpoch::Tai1958 || epoch == TimeEpoch::Gps1980 || epoch == TimeEpoch::Unix1970;
}

std::string formatReal(double value)
{
    // Only for messages; std::to_string would print 1e-300 as 0.000000.
    char buffer[64];
    const int n = std::snprintf(buffer, sizeof buffer, "%.17g", value);
    return std::string(buffer, n > 0 ? static_cast<std::size_t>(n) : 0u);
}

class Validator {
public:
    explicit Validator(const MissionDatabase& db) : m_db(db) {}

    std::vector<ValidationIssue> run()
    {
        if (hasLineBreak(m_db.name))
            add(Severity::Error, -1, -1, "the mission name contains a line break");
        for (int i = 0; i < static_cast<int>(m_db.packets.size()); ++i)
            checkPacket(i);
        checkPacketNames();
        checkApids();
        // Group the issues by packet (stable, so each packet's own order is kept).
        std::stable_sort(m_issues.begin(), m_issues.end(),
            [](const ValidationIssue& a, const ValidationIssue& b) { return a.packetIndex < b.packetIndex; });
        return std::move(m_issues);
    }

private:
    const PacketDef& packet(int i) const { return m_db.packets[static_cast<std::size_t>(i)]; }

    std::string packetLabel(int i) const
    {
        const PacketDef& p = packet(i);
        return "packet " + (p.name.empty() ? "#" + std::to_string(i + 1) : p.name);
    }

    std::string parameterName(int i, int j) const
    {
        const PacketDef& p = packet(i);
        const ParameterDef& q = p.parameters[static_cast<std::size_t>(j)];
        return (p.name.empty() ? "#" + std::to_string(i + 1) : p.name) + '.'
            + (q.name.empty() ? "#" + std::to_string(j + 1) : q.name);
    }

    std::string parameterLabel(int i, int j) const { return "parameter " + parameterName(i, j); }

    void add(Severity severity, int packetIndex, int parameterIndex, std::string message)
    {
        m_issues.push_back(ValidationIssue{severity, std::move(message), packetIndex, parameterIndex});
    }

    void packetError(int i, const std::string& what) { add(Severity::Error, i, -1, packetLabel(i) + ": " + what); }

    void parameterError(int i, int j, const std::string& what)
    {
        add(Severity::Error, i, j, parameterLabel(i, j) + ": " + what);
    }

    // ---- database-wide rules ----

    void checkPacketNames()
    {
        std::unordered_map<std::string_view, int> first;
        first.reserve(m_db.packets.size());
        for (int i = 0; i < static_cast<int>(m_db.packets.size()); ++i) {
            const auto [it, inserted] = first.emplace(packet(i).name, i);
            if (!inserted && !packet(i).name.empty())
                packetError(i, "duplicate packet name; the name is already used by packet #"
                        + std::to_string(it->second + 1));
        }
    }

    void checkApids()
    {
        std::unordered_map<std::uint16_t, std::vector<int>> byApid;
        for (int i = 0; i < static_cast<int>(m_db.packets.size()); ++i)
            byApid[packet(i).apid].push_back(i);
        for (const auto& [apid, group] : byApid) {
            if (group.size() > 1)
                checkSharedApid(apid, group);
        }
    }

    // Packets sharing an APID are told apart by a secondary id: every one needs one, all at the same
    // field, with distinct values.
    void checkSharedApid(std::uint16_t apid, const std::vector<int>& group)
    {
        const std::string apidText = "APID " + std::to_string(apid);
        int reference = -1;
        for (const int i : group) {
            if (packet(i).secondaryId) {
                reference = i;
                break;
            }
        }
        for (const int i : group) {
            if (packet(i).secondaryId)
                continue;
            const int other = i == group[0] ? group[1] : group[0];
            packetError(
                i, apidText + " is shared with " + packetLabel(other) + ", but this packet has no SECONDARY_ID");
        }
        if (reference < 0)
            return;
        const SecondaryId& ref = *packet(reference).secondaryId;
        std::vector<std::pair<std::uint64_t, int>> values;
        for (const int i : group) {
            const auto& id = packet(i).secondaryId;
            if (!id)
                continue;
            if (id->bitOffset != ref.bitOffset || id->bitLength != ref.bitLength) {
                packetError(i, "the SECONDARY_ID field (" + bitRange(id->bitOffset, id->bitLength)
                        + ") differs from that of " + packetLabel(reference) + " ("
                        + bitRange(ref.bitOffset, ref.bitLength) + "), which shares " + apidText);
                continue;
            }
            values.emplace_back(id->value, i);
        }
        std::sort(values.begin(), values.end());
        for (std::size_t k = 1; k < values.size(); ++k) {
            if (values[k].first == values[k - 1].first)
                packetError(values[k].second, "the SECONDARY_ID value " + std::to_string(values[k].first)
                        + " is also used by " + packetLabel(values[k - 1].second) + ", which shares " + apidText);
        }
    }

    // ---- packets ----

    void checkPacket(int i)
    {
        const PacketDef& p = packet(i);
        if (!isValidName(p.name))
            packetError(i, p.name.empty() ? std::string("the packet has no name")
                                          : "invalid name '" + p.name
                                    + "': names are letters, digits and '_', starting with a letter or '_'");
        if (p.apid > kMaxApid)
            packetError(i, "APID " + std::to_string(p.apid) + " is out of range (0..2047)");
        if (!isKnown(p.byteOrder))
            packetError(i, "unknown byte order");
        if (hasLineBreak(p.description))
            packetError(i, "the description contains a line break");

        std::uint64_t headerBytes = kPrimaryHeaderBytes;
        bool headerOk = true;
        if (p.secondaryHeader) {
            const CucLayout& cuc = *p.secondaryHeader;
            if (cuc.coarseBytes < 1 || cuc.coarseBytes > 4) {
                packetError(i, "CUC secondary header: " + std::to_string(cuc.coarseBytes)
                        + " coarse time bytes is out of range (1..4)");
                headerOk = false;
            }
            if (cuc.fineBytes > 3) {
                packetError(i, "CUC secondary header: " + std::to_string(cuc.fineBytes)
                        + " fine time bytes is out of range (0..3)");
                headerOk = false;
            }
            if (!isKnown(cuc.epoch))
                packetError(i, "CUC secondary header: unknown epoch");
            headerBytes += cuc.sizeBytes();
        }
        checkLength(i, headerOk ? headerBytes : kPrimaryHeaderBytes);

        if (p.secondaryId)
            checkSecondaryId(i);

        for (int j = 0; j < static_cast<int>(p.parameters.size()); ++j)
            checkParameter(i, j);
        checkParameterNames(i);
        checkOverlaps(i);
        if (p.parameters.empty())
            add(Severity::Warning, i, -1, packetLabel(i) + ": the packet has no parameters");
    }

    void checkLength(int i, std::uint64_t headerBytes)
    {
        const PacketDef& p = packet(i);
        const std::string headers = " is less than the headers (" + std::to_string(headerBytes) + " bytes)";
        if (!p.variableLength) {
            if (p.length < kMinPacketBytes || p.length > kMaxPacketBytes)
                packetError(i, "length " + std::to_string(p.length) + " bytes is out of range (7..65542)");
            else if (p.length < headerBytes)
                packetError(i, "length " + std::to_string(p.length) + " bytes" + headers);
            return;
        }
        if (p.length > p.maxLength)
            packetError(i, "variable length: the minimum " + std::to_string(p.length)
                    + " bytes is greater than the maximum " + std::to_string(p.maxLength) + " bytes");
        if (p.length < headerBytes)
            packetError(i, "variable length: the minimum " + std::to_string(p.length) + " bytes" + headers);
        else if (p.length < kMinPacketBytes)
            packetError(i, "variable length: the minimum " + std::to_string(p.length)
                    + " bytes is under 7, the smallest space packet");
        if (p.maxLength > kMaxPacketBytes)
            packetError(i, "variable length: the maximum " + std::to_string(p.maxLength)
                    + " bytes is over 65542, the largest space packet");
    }

    // The packet's size in bits: its maximum for a variable length.
    std::uint64_t capacityBits(int i) const
    {
        const PacketDef& p = packet(i);
        return 8u * static_cast<std::uint64_t>(p.variableLength ? p.maxLength : p.length);
    }

    std::string lengthText(int i) const
    {
        const PacketDef& p = packet(i);
        if (p.variableLength)
            return "the packet's maximum length of " + std::to_string(p.maxLength) + " bytes";
        return "the packet's length of " + std::to_string(p.length) + " bytes";
    }

    // Checks the placement of a field shared by parameters and the secondary id; returns the problems
    // as text, one per entry.
    std::vector<std::string> placementProblems(int i, std::uint64_t offset, std::uint64_t length) const
    {
        std::vector<std::string> problems;
        const PacketDef& p = packet(i);
        if (offset < kPrimaryHeaderBits)
            problems.push_back("bit offset " + std::to_string(offset)
                + " is inside the primary header (bits 0..47)");
        if (offset + length > capacityBits(i))
            problems.push_back(bitRange(offset, length) + " end past " + lengthText(i));
        if (p.secondaryHeader) {
            const std::uint64_t headerEnd = kPrimaryHeaderBits + 8u * p.secondaryHeader->sizeBytes();
            if (offset < headerEnd && offset + length > kPrimaryHeaderBits && length > 0)
                problems.push_back(bitRange(offset, length) + " overlap the secondary header ("
                    + bitRange(kPrimaryHeaderBits, headerEnd - kPrimaryHeaderBits) + ")");
        }
        return problems;
    }

    void checkSecondaryId(int i)
    {
        const SecondaryId& id = *packet(i).secondaryId;
        if (id.bitLength < 1 || id.bitLength > 64) {
            packetError(i, "SECONDARY_ID bit length " + std::to_string(id.bitLength) + " is out of range (1..64)");
            return;
        }
        for (const auto& problem : placementProblems(i, id.bitOffset, id.bitLength))
            packetError(i, "SECONDARY_ID: " + problem);
        if (id.bitLength < 64 && id.value >> id.bitLength != 0)
            packetError(i, "SECONDARY_ID value " + std::to_string(id.value) + " does not fit in "
                    + std::to_string(id.bitLength) + " bits");
    }

    // ---- parameters ----

    void checkParameterNames(int i)
    {
        const PacketDef& p = packet(i);
        std::unordered_map<std::string_view, int> first;
        first.reserve(p.parameters.size());
        for (int j = 0; j < static_cast<int>(p.parameters.size()); ++j) {
            const std::string& name = p.parameters[static_cast<std::size_t>(j)].name;
            const auto [it, inserted] = first.emplace(name, j);
            if (!inserted && !name.empty())
                parameterError(i, j, "duplicate parameter name; the name is already used by parameter #"
                        + std::to_string(it->second + 1) + " of the packet");
        }
    }

    void checkParameter(int i, int j)
    {
        const PacketDef& p = packet(i);
        const ParameterDef& q = p.parameters[static_cast<std::size_t>(j)];
        if (!isValidName(q.name))
            parameterError(i, j, q.name.empty() ? std::string("the parameter has no name")
                                                : "invalid name '" + q.name
                                       + "': names are letters, digits and '_', starting with a letter or '_'");
        if (hasLineBreak(q.units))
            parameterError(i, j, "the units contain a line break");
        if (hasLineBreak(q.description))
            parameterError(i, j, "the description contains a line break");
        if (!isKnown(q.type)) {
            parameterError(i, j, "unknown data type");
            return;
        }
        if (q.byteOrder && !isKnown(*q.byteOrder))
            parameterError(i, j, "unknown byte order");

        const bool lengthOk = checkBitLength(i, j);
        for (const auto& problem : placementProblems(i, q.bitOffset, q.bitLength))
            parameterError(i, j, problem);
        if (effectiveByteOrder(p, q) == ByteOrder::LittleEndian && q.bitLength >= 8 && q.bitLength % 8 != 0)
            parameterError(i, j, "a little-endian field must be a whole number of bytes, not "
                    + std::to_string(q.bitLength) + " bits");
        checkCalibrator(i, j, lengthOk);
        checkLimits(i, j);
    }

    // Returns whether the bit length suits the data type.
    bool checkBitLength(int i, int j)
    {
        const ParameterDef& q = packet(i).parameters[static_cast<std::size_t>(j)];
        const std::string bits = std::to_string(q.bitLength);
        if (q.bitLength == 0) {
            parameterError(i, j, "bit length 0");
            return false;
        }
        switch (q.type) {
        case DataType::UnsignedInt:
        case DataType::SignedInt:
            if (q.bitLength > 64) {
                parameterError(
                    i, j, std::string(keyword(q.type)) + " of " + bits + " bits: integers have 1 to 64 bits");
                return false;
            }
            break;
        case DataType::Float:
            if (q.bitLength != 32 && q.bitLength != 64) {
                parameterError(i, j, "FLOAT of " + bits + " bits: floats have 32 or 64 bits");
                return false;
            }
            break;
        case DataType::String:
        case DataType::Bytes:
            if (q.bitLength % 8 != 0) {
                parameterError(i, j, std::string(keyword(q.type)) + " of " + bits
                        + " bits: strings and bytes are a whole number of bytes");
                return false;
            }
            break;
        }
        return true;
    }

    void checkCalibrator(int i, int j, bool lengthOk)
    {
        const ParameterDef& q = packet(i).parameters[static_cast<std::size_t>(j)];
        if (std::holds_alternative<std::monostate>(q.calibrator))
            return;
        if (q.type == DataType::String || q.type == DataType::Bytes) {
            parameterError(i, j, "a calibrator on a " + std::string(keyword(q.type)) + " parameter");
            return;
        }
        if (const auto* poly = std::get_if<PolynomialCalibrator>(&q.calibrator)) {
            if (poly->coefficients.empty())
                parameterError(i, j, "a polynomial without coefficients");
            else if (poly->coefficients.size() > kMaxPolynomialCoefficients)
                parameterError(i, j, "a polynomial with " + std::to_string(poly->coefficients.size())
                        + " coefficients; at most 6 (5th order)");
            for (const double c : poly->coefficients) {
                if (!std::isfinite(c)) {
                    parameterError(i, j, "a polynomial coefficient is not a finite number");
                    break;
                }
            }
        } else if (const auto* table = std::get_if<PointPairCalibrator>(&q.calibrator)) {
            checkPointTable(i, j, *table);
        } else if (const auto* enumeration = std::get_if<EnumerationCalibrator>(&q.calibrator)) {
            checkEnumeration(i, j, *enumeration, lengthOk);
        }
    }

    void checkPointTable(int i, int j, const PointPairCalibrator& table)
    {
        if (table.points.size() < 2)
            parameterError(i, j, "a point table needs at least two points, it has "
                    + std::to_string(table.points.size()));
        for (const auto& point : table.points) {
            if (!std::isfinite(point.raw) || !std::isfinite(point.calibrated)) {
                parameterError(i, j, "a point table value is not a finite number");
                return;
            }
        }
        for (std::size_t k = 1; k < table.points.size(); ++k) {
            if (!(table.points[k].raw > table.points[k - 1].raw)) {
                parameterError(i, j, "point table raw values must be strictly increasing: point "
                        + std::to_string(k + 1) + " (raw " + formatReal(table.points[k].raw)
                        + ") does not follow point " + std::to_string(k) + " (raw "
                        + formatReal(table.points[k - 1].raw) + ")");
                return;
            }
        }
    }

    void checkEnumeration(int i, int j, const EnumerationCalibrator& enumeration, bool lengthOk)
    {
        const ParameterDef& q = packet(i).parameters[static_cast<std::size_t>(j)];
        if (enumeration.states.empty()) {
            parameterError(i, j, "an enumeration without states");
            return;
        }
        auto codes = [](const State& s) {
            return s.low == s.high ? "code " + std::to_string(s.low)
                                   : "codes " + std::to_string(s.low) + ".." + std::to_string(s.high);
        };
        std::vector<std::size_t> order;
        order.reserve(enumeration.states.size());
        for (std::size_t k = 0; k < enumeration.states.size(); ++k) {
            const State& s = enumeration.states[k];
            if (hasLineBreak(s.text))
                parameterError(i, j, "the text of a state contains a line break");
            if (s.low > s.high) {
                parameterError(i, j, "state \"" + s.text + "\": the range " + std::to_string(s.low) + ".."
                        + std::to_string(s.high) + " has its low above its high");
                continue;
            }
            order.push_back(k);
        }

        // Overlaps: sort the ranges by their low code and compare each with the furthest reach so far.
        std::sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
            const State& sa = enumeration.states[a];
            const State& sb = enumeration.states[b];
            return sa.low != sb.low ? sa.low < sb.low : a < b;
        });
        std::size_t reach = enumeration.states.size();
        for (const std::size_t k : order) {
            const State& s = enumeration.states[k];
            if (reach != enumeration.states.size() && s.low <= enumeration.states[reach].high) {
                const State& other = enumeration.states[reach];
                parameterError(i, j, "state \"" + s.text + "\" (" + codes(s) + ") overlaps state \"" + other.text
                        + "\" (" + codes(other) + ")");
            }
            if (reach == enumeration.states.size() || s.high > enumeration.states[reach].high)
                reach = k;
        }

        // The codes the field can hold: integers of its width.
        if (!lengthOk || (q.type != DataType::UnsignedInt && q.type != DataType::SignedInt))
            return;
        std::int64_t lowest = 0;
        std::int64_t highest = std::numeric_limits<std::int64_t>::max();
        if (q.type == DataType::UnsignedInt) {
            if (q.bitLength < 63)
                highest = (std::int64_t{1} << q.bitLength) - 1;
        } else if (q.bitLength < 64) {
            highest = (std::int64_t{1} << (q.bitLength - 1)) - 1;
            lowest = -highest - 1;
        } else {
            lowest = std::numeric_limits<std::int64_t>::min();
        }
        for (const auto& s : enumeration.states) {
            if (s.low <= s.high && (s.low < lowest || s.high > highest))
                parameterError(i, j, "state \"" + s.text + "\": " + codes(s) + " cannot be held by the field ("
                        + std::string(keyword(q.type)) + " of " + std::to_string(q.bitLength) + " bits: " + std::to_string(lowest)
                        + ".." + std::to_string(highest) + ")");
        }
    }

    void checkLimits(int i, int j)
    {
        const ParameterDef& q = packet(i).parameters[static_cast<std::size_t>(j)];
        const auto* enumeration = std::get_if<EnumerationCalibrator>(&q.calibrator);
        if (const auto* numeric = std::get_if<NumericLimits>(&q.limits)) {
            if (q.type == DataType::String || q.type == DataType::Bytes)
                parameterError(i, j, std::string("numeric LIMITS on a ") + std::string(keyword(q.type)) + " parameter");
            else if (enumeration)
                parameterError(i, j, "numeric LIMITS on an enumeration; use EXPECTED");
            const double values[] = {numeric->redLow, numeric->yellowLow, numeric->yellowHigh, numeric->redHigh};
            if (!std::all_of(std::begin(values), std::end(values), [](double v) { return std::isfinite(v); }))
                parameterError(i, j, "a limit is not a finite number");
            else if (!(numeric->redLow <= numeric->yellowLow && numeric->yellowLow <= numeric->yellowHigh
                         && numeric->yellowHigh <= numeric->redHigh))
                parameterError(i, j, "limits out of order: red low " + formatReal(numeric->redLow) + ", yellow low "
                        + formatReal(numeric->yellowLow) + ", yellow high " + formatReal(numeric->yellowHigh)
                        + ", red high " + formatReal(numeric->redHigh)
                        + "; they must satisfy red low <= yellow low <= yellow high <= red high");
        } else if (const auto* expected = std::get_if<StateLimits>(&q.limits)) {
            if (!enumeration) {
                parameterError(i, j, "EXPECTED states on a parameter without an enumeration (STATE lines)");
                return;
            }
            if (expected->expectedStates.empty())
                parameterError(i, j, "EXPECTED names no state");
            std::unordered_set<std::string_view> names;
            names.reserve(enumeration->states.size());
            for (const auto& s : enumeration->states)
                names.insert(s.text);
            for (const auto& name : expected->expectedStates) {
                if (names.count(name) == 0)
                    parameterError(i, j,
                        "EXPECTED names the state \"" + name + "\", which the enumeration does not have");
            }
        }
    }

    // Two fields overlap when their bit ranges intersect. Sorting by offset and keeping the field that
    // reaches furthest finds every field that overlaps an earlier one in O(n log n).
    void checkOverlaps(int i)
    {
        const PacketDef& p = packet(i);
        std::vector<int> order;
        order.reserve(p.parameters.size());
        for (int j = 0; j < static_cast<int>(p.parameters.size()); ++j) {
            const ParameterDef& q = p.parameters[static_cast<std::size_t>(j)];
            if (!q.overlapAllowed && q.bitLength > 0)
                order.push_back(j);
        }
        auto param = [&](int j) -> const ParameterDef& { return p.parameters[static_cast<std::size_t>(j)]; };
        auto end = [&](int j) { return std::uint64_t{param(j).bitOffset} + param(j).bitLength; };
        std::sort(order.begin(), order.end(), [&](int a, int b) {
            if (param(a).bitOffset != param(b).bitOffset)
                return param(a).bitOffset < param(b).bitOffset;
            return a < b;
        });
        int reach = -1;
        for (const int j : order) {
            if (reach >= 0 && param(j).bitOffset < end(reach))
                add(Severity::Warning, i, j,
                    parameterLabel(i, j) + " (" + bitRange(param(j).bitOffset, param(j).bitLength) + ") overlaps "
                        + parameterName(i, reach) + " ("
                        + bitRange(param(reach).bitOffset, param(reach).bitLength)
                        + "); mark one OVERLAP_OK if that is intended");
            if (reach < 0 || end(j) > end(reach))
                reach = j;
        }
    }

    const MissionDatabase& m_db;
    std::vector<ValidationIssue> m_issues;
};

} // namespace

bool isValidName(std::string_view name)
{
    if (name.empty() || !isLetter(name.front()))
        return false;
    return std::all_of(name.begin(), name.end(), [](char c) { return isLetter(c) || isDigit(c); });
}

std::vector<ValidationIssue> validate(const MissionDatabase& db)
{
    return Validator(db).run();
}

Diagnostics toDiagnostics(const std::vector<ValidationIssue>& issues, const std::string& source)
{
    Diagnostics out;
    out.reserve(issues.size());
    for (const auto& issue : issues)
        out.push_back(Diagnostic{issue.severity, issue.message, SourceLocation{source, 0, 0}});
    return out;
}

} // namespace telestation::mdb
