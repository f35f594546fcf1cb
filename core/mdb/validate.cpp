#include "core/mdb/validate.hpp"

#include "core/mdb/keywords.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <limits>
#include <string>
#include <string_view>
#include <tuple>
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
constexpr std::uint32_t kMaxFieldBytes = 65536;  // FieldSize::maxBytes: a whole data field
constexpr unsigned kMaxLeadingSizeBits = 32;

bool isLetter(char c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
}

bool isDigit(char c)
{
    return c >= '0' && c <= '9';
}

bool isPacketNameChar(char c)
{
    return isLetter(c) || isDigit(c) || c == '-' || c == '/';
}

bool isParameterNameChar(char c)
{
    return isPacketNameChar(c) || c == '.' || c == '[' || c == ']';
}

const char* const kPacketNameRule
    = "packet names are letters, digits, '_', '-' and '/', starting with a letter, '_' or '/'";
const char* const kParameterNameRule
    = "parameter names are letters, digits, '_', '-', '/', '.', '[' and ']', starting with a letter, '_' or '/'";

// The definition language is line-oriented; a one-line text (a name, units, a short description)
// holding a line break would not read as one.
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
    case DataType::SignMagnitudeInt:
    case DataType::OnesComplementInt:
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

bool isKnown(CompareOp op)
{
    switch (op) {
    case CompareOp::Equal:
    case CompareOp::NotEqual:
    case CompareOp::Less:
    case CompareOp::LessOrEqual:
    case CompareOp::Greater:
    case CompareOp::GreaterOrEqual:
        return true;
    }
    return false;
}

bool isKnown(Placement placement)
{
    return placement == Placement::Absolute || placement == Placement::AfterPrevious;
}

bool isKnown(SizeKind kind)
{
    switch (kind) {
    case SizeKind::Fixed:
    case SizeKind::FromParameter:
    case SizeKind::Terminated:
    case SizeKind::LeadingSize:
        return true;
    }
    return false;
}

// Calibrators whose result is a number: those a condition may compare with CALIBRATED, and those a
// context calibration may use.
bool isNumericCalibrator(const Calibrator& c)
{
    return std::holds_alternative<PolynomialCalibrator>(c) || std::holds_alternative<PointPairCalibrator>(c)
        || std::holds_alternative<TimeCalibrator>(c);
}

bool isNumeric(DataType type)
{
    return isInteger(type) || type == DataType::Float;
}

std::string formatReal(double value)
{
    // Only for messages; std::to_string would print 1e-300 as 0.000000.
    char buffer[64];
    const int n = std::snprintf(buffer, sizeof buffer, "%.17g", value);
    return std::string(buffer, n > 0 ? static_cast<std::size_t>(n) : 0u);
}

std::string conditionText(const Condition& c)
{
    return c.parameter + " " + std::string(keyword(c.op)) + " " + formatReal(c.value)
        + (c.calibrated ? " CALIBRATED" : "");
}

// A criterion list as a set, in a canonical order, for comparing packets that share an APID.
using CriterionKey = std::tuple<std::uint32_t, std::uint32_t, int, std::uint64_t>;

std::vector<CriterionKey> criteriaSet(const std::vector<FieldCriterion>& criteria)
{
    std::vector<CriterionKey> keys;
    keys.reserve(criteria.size());
    for (const auto& c : criteria)
        keys.emplace_back(c.bitOffset, c.bitLength, static_cast<int>(c.op), c.value);
    std::sort(keys.begin(), keys.end());
    keys.erase(std::unique(keys.begin(), keys.end()), keys.end());
    return keys;
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
    const ParameterDef& parameter(int i, int j) const { return packet(i).parameters[static_cast<std::size_t>(j)]; }

    std::string packetLabel(int i) const
    {
        const PacketDef& p = packet(i);
        return "packet " + (p.name.empty() ? "#" + std::to_string(i + 1) : p.name);
    }

    std::string parameterName(int i, int j) const
    {
        const PacketDef& p = packet(i);
        const ParameterDef& q = parameter(i, j);
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

    // Packets sharing an APID are told apart by their secondary id and their criteria; the station
    // tries the type with more conditions first. Two packets with the same secondary id (or none) and
    // the same criteria (as a set) cannot be told apart. Sorting by those keys finds them in O(n log n).
    void checkSharedApid(std::uint16_t apid, const std::vector<int>& group)
    {
        struct Key {
            bool hasId = false;
            std::uint32_t idOffset = 0;
            std::uint32_t idLength = 0;
            std::uint64_t idValue = 0;
            std::vector<CriterionKey> criteria;
            int packet = 0;
            [[nodiscard]] bool sameConditions(const Key& o) const
            {
                return std::tie(hasId, idOffset, idLength, idValue, criteria)
                    == std::tie(o.hasId, o.idOffset, o.idLength, o.idValue, o.criteria);
            }
            [[nodiscard]] bool operator<(const Key& o) const
            {
                return std::tie(hasId, idOffset, idLength, idValue, criteria, packet)
                    < std::tie(o.hasId, o.idOffset, o.idLength, o.idValue, o.criteria, o.packet);
            }
        };
        std::vector<Key> keys;
        keys.reserve(group.size());
        for (const int i : group) {
            Key key;
            if (const auto& id = packet(i).secondaryId) {
                key.hasId = true;
                key.idOffset = id->bitOffset;
                key.idLength = id->bitLength;
                key.idValue = id->value;
            }
            key.criteria = criteriaSet(packet(i).criteria);
            key.packet = i;
            keys.push_back(std::move(key));
        }
        std::sort(keys.begin(), keys.end());
        const std::string apidText = "APID " + std::to_string(apid);
        for (std::size_t begin = 0; begin < keys.size();) {
            std::size_t end = begin + 1;
            while (end < keys.size() && keys[end].sameConditions(keys[begin]))
                ++end;
            for (std::size_t k = begin; end - begin > 1 && k < end; ++k) {
                const int i = keys[k].packet;
                const int other = keys[k == begin ? begin + 1 : begin].packet;
                const std::string criteria = keys[k].criteria.empty() ? "" : ", with the same MATCH criteria";
                if (keys[k].hasId)
                    packetError(i, "the SECONDARY_ID value " + std::to_string(keys[k].idValue) + " is also used by "
                            + packetLabel(other) + ", which shares " + apidText + criteria
                            + "; the two cannot be told apart");
                else if (keys[k].criteria.empty())
                    packetError(i, apidText + " is shared with " + packetLabel(other)
                            + ", but this packet has no SECONDARY_ID and no MATCH to tell them apart");
                else
                    packetError(i, apidText + " is shared with " + packetLabel(other)
                            + ", which has the same MATCH criteria and, like this packet, no SECONDARY_ID;"
                              " the two cannot be told apart");
            }
            begin = end;
        }
    }

    // ---- packets ----

    void checkAliases(int i, int j, const std::vector<Alias>& aliases)
    {
        for (const auto& a : aliases) {
            if (!a.alias.empty())
                continue;
            const std::string what = "an ALIAS in name space \"" + a.nameSpace + "\" is empty";
            if (j < 0)
                packetError(i, what);
            else
                parameterError(i, j, what);
            return;
        }
    }

    void checkPacket(int i)
    {
        const PacketDef& p = packet(i);
        if (!isValidPacketName(p.name))
            packetError(i, p.name.empty() ? std::string("the packet has no name")
                                          : "invalid name '" + p.name + "': " + kPacketNameRule);
        if (p.apid > kMaxApid)
            packetError(i, "APID " + std::to_string(p.apid) + " is out of range (0..2047)");
        if (!isKnown(p.byteOrder))
            packetError(i, "unknown byte order");
        if (hasLineBreak(p.description))
            packetError(i, "the description contains a line break");
        checkAliases(i, -1, p.aliases);

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
        for (const auto& c : p.criteria)
            checkCriterion(i, c);

        indexParameterNames(i);
        for (int j = 0; j < static_cast<int>(p.parameters.size()); ++j)
            checkParameter(i, j);
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

    std::string secondaryHeaderOverlap(int i, std::uint64_t offset, std::uint64_t length) const
    {
        const PacketDef& p = packet(i);
        if (!p.secondaryHeader)
            return {};
        const std::uint64_t headerEnd = kPrimaryHeaderBits + std::uint64_t{8} * p.secondaryHeader->sizeBytes();
        if (offset < headerEnd && offset + length > kPrimaryHeaderBits && length > 0)
            return bitRange(offset, length) + " overlap the secondary header ("
                + bitRange(kPrimaryHeaderBits, headerEnd - kPrimaryHeaderBits) + ")";
        return {};
    }

    // The placement of a fixed field at an absolute offset (a parameter or the secondary id); returns
    // the problems as text, one per entry. Fields may lie in the primary header (XTCE describes its
    // fields as parameters), but not in a CUC secondary header the packet declares.
    std::vector<std::string> placementProblems(int i, std::uint64_t offset, std::uint64_t length) const
    {
        std::vector<std::string> problems;
        if (offset + length > capacityBits(i))
            problems.push_back(bitRange(offset, length) + " end past " + lengthText(i));
        if (auto overlap = secondaryHeaderOverlap(i, offset, length); !overlap.empty())
            problems.push_back(std::move(overlap));
        return problems;
    }

    void checkSecondaryId(int i)
    {
        const SecondaryId& id = *packet(i).secondaryId;
        if (id.bitLength < 1 || id.bitLength > 64) {
            packetError(i, "SECONDARY_ID bit length " + std::to_string(id.bitLength) + " is out of range (1..64)");
            return;
        }
        // The APID tells packets apart before the secondary id does: one in the primary header is a mistake.
        if (id.bitOffset < kPrimaryHeaderBits)
            packetError(i, "SECONDARY_ID: bit offset " + std::to_string(id.bitOffset)
                    + " is inside the primary header (bits 0..47)");
        for (const auto& problem : placementProblems(i, id.bitOffset, id.bitLength))
            packetError(i, "SECONDARY_ID: " + problem);
        if (id.bitLength < 64 && id.value >> id.bitLength != 0)
            packetError(i, "SECONDARY_ID value " + std::to_string(id.value) + " does not fit in "
                    + std::to_string(id.bitLength) + " bits");
    }

    void checkCriterion(int i, const FieldCriterion& c)
    {
        const PacketDef& p = packet(i);
        if (!isKnown(c.op)) {
            packetError(i, "MATCH: unknown comparison operator");
            return;
        }
        const std::string what = "MATCH " + bitRange(c.bitOffset, c.bitLength) + " " + std::string(keyword(c.op))
            + " " + std::to_string(c.value) + ": ";
        if (c.bitLength < 1 || c.bitLength > 64) {
            packetError(i, what + "bit length " + std::to_string(c.bitLength) + " is out of range (1..64)");
            return;
        }
        // Every packet of the type must hold the field: it lies within the minimum length.
        if (std::uint64_t{c.bitOffset} + c.bitLength > 8u * std::uint64_t{p.length})
            packetError(i, what + "the field ends past the packet's "
                    + (p.variableLength ? "minimum length of " : "length of ") + std::to_string(p.length) + " bytes");
        if (c.op == CompareOp::Equal && c.bitLength < 64 && c.value >> c.bitLength != 0)
            packetError(i, what + "the value does not fit in " + std::to_string(c.bitLength)
                    + " bits, so no packet can match");
    }

    // ---- parameters ----

    // Maps each name of packet i to its first index, for duplicate names and for references to
    // earlier parameters (sizes and conditions).
    void indexParameterNames(int i)
    {
        const PacketDef& p = packet(i);
        m_names.clear();
        m_names.reserve(p.parameters.size());
        for (int j = 0; j < static_cast<int>(p.parameters.size()); ++j) {
            const std::string& name = p.parameters[static_cast<std::size_t>(j)].name;
            const auto [it, inserted] = m_names.emplace(name, j);
            if (!inserted && !name.empty())
                parameterError(i, j, "duplicate parameter name; the name is already used by parameter #"
                        + std::to_string(it->second + 1) + " of the packet");
        }
    }

    // The index of the parameter `name` refers to, when it comes before parameter j; else reports why
    // not (prefixed with `what`) and returns -1.
    int earlierParameter(int i, int j, const std::string& name, const std::string& what)
    {
        const auto it = m_names.find(name);
        if (it == m_names.end()) {
            parameterError(i, j, what + " names parameter '" + name + "', which the packet does not have");
            return -1;
        }
        if (it->second >= j) {
            parameterError(i, j, what + " names parameter '" + name
                    + (it->second == j ? "', this parameter itself" : "', which comes after this parameter")
                    + "; it must name an earlier parameter of the packet");
            return -1;
        }
        return it->second;
    }

    void checkCondition(int i, int j, const Condition& c, const std::string& where)
    {
        const std::string what = where + " " + conditionText(c) + ":";
        if (!isKnown(c.op)) {
            parameterError(i, j, where + ": unknown comparison operator");
            return;
        }
        if (!std::isfinite(c.value))
            parameterError(i, j, what + " the value is not a finite number");
        const int k = earlierParameter(i, j, c.parameter, what);
        if (k < 0)
            return;
        const ParameterDef& other = parameter(i, k);
        if (!isNumeric(other.type)) {
            parameterError(i, j, what + " '" + other.name + "' is a " + std::string(keyword(other.type))
                    + " parameter; conditions compare numbers");
            return;
        }
        if (c.calibrated && !isNumericCalibrator(other.calibrator))
            parameterError(i, j, what + " CALIBRATED, but '" + other.name
                    + "' has no numeric calibrator (POLY, POINT or TIME); compare its converted value");
    }

    void checkParameter(int i, int j)
    {
        const PacketDef& p = packet(i);
        const ParameterDef& q = parameter(i, j);
        if (!isValidParameterName(q.name))
            parameterError(i, j, q.name.empty() ? std::string("the parameter has no name")
                                                : "invalid name '" + q.name + "': " + kParameterNameRule);
        if (hasLineBreak(q.units))
            parameterError(i, j, "the units contain a line break");
        if (hasLineBreak(q.description))
            parameterError(i, j, "the description contains a line break");
        checkAliases(i, j, q.aliases);
        if (!isKnown(q.type)) {
            parameterError(i, j, "unknown data type");
            return;
        }
        if (q.byteOrder && !isKnown(*q.byteOrder))
            parameterError(i, j, "unknown byte order");
        if (!isKnown(q.placement)) {
            parameterError(i, j, "unknown placement");
            return;
        }
        if (!isKnown(q.size.kind)) {
            parameterError(i, j, "unknown size kind");
            return;
        }

        const bool lengthOk = q.fixedSize() ? checkBitLength(i, j) : checkVariableSize(i, j);
        checkPlacement(i, j);
        if (q.fixedSize() && effectiveByteOrder(p, q) == ByteOrder::LittleEndian && q.bitLength >= 8
            && q.bitLength % 8 != 0)
            parameterError(i, j, "a little-endian field must be a whole number of bytes, not "
                    + std::to_string(q.bitLength) + " bits");
        for (const auto& c : q.includeWhen)
            checkCondition(i, j, c, "WHEN");
        if (!std::holds_alternative<std::monostate>(q.calibrator)) {
            if (isByteSequence(q.type))
                parameterError(i, j, "a calibrator on a " + std::string(keyword(q.type)) + " parameter");
            else
                checkCalibrator(i, j, q.calibrator, lengthOk, "");
        }
        checkContexts(i, j);
        checkLimits(i, j);
    }

    void checkPlacement(int i, int j)
    {
        const ParameterDef& q = parameter(i, j);
        if (q.placement == Placement::AfterPrevious) {
            // The offset is a gap after the end of the previous parameter (bit 0 for the first).
            if (q.bitOffset > capacityBits(i))
                parameterError(i, j, "a gap of " + std::to_string(q.bitOffset) + " bits after the previous parameter is more than "
                        + lengthText(i));
            return;
        }
        if (q.fixedSize()) {
            for (const auto& problem : placementProblems(i, q.bitOffset, q.bitLength))
                parameterError(i, j, problem);
            return;
        }
        // A variable size at an absolute offset: where it starts is known.
        if (q.bitOffset > capacityBits(i))
            parameterError(i, j, "bit offset " + std::to_string(q.bitOffset) + " is past " + lengthText(i));
        if (auto overlap = secondaryHeaderOverlap(i, q.bitOffset, 1); !overlap.empty())
            parameterError(i, j, "a field starting at bit " + std::to_string(q.bitOffset)
                    + " would overlap the secondary header");
    }

    // Returns whether the bit length suits the data type (a fixed size).
    bool checkBitLength(int i, int j)
    {
        const ParameterDef& q = parameter(i, j);
        const FieldSize& s = q.size;
        if (!s.sizeParameter.empty() || s.sizeSlope != 1 || s.sizeIntercept != 0 || s.terminator != 0
            || s.leadingSizeBits != 0 || s.maxBytes != 0)
            parameterError(i, j, "a fixed size with settings of a variable size (size parameter, slope, intercept,"
                                 " terminator, leading size bits or maximum bytes)");
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
        case DataType::SignMagnitudeInt:
        case DataType::OnesComplementInt:
            if (q.bitLength < 2 || q.bitLength > 64) {
                parameterError(i, j, std::string(keyword(q.type)) + " of " + bits
                        + " bits: sign-magnitude and ones' complement integers have 2 to 64 bits");
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

    // A size that comes from the packet's data. Returns whether it is consistent.
    bool checkVariableSize(int i, int j)
    {
        const ParameterDef& q = parameter(i, j);
        const FieldSize& s = q.size;
        const std::string kind = "SIZE " + std::string(keyword(s.kind));
        bool ok = true;
        const auto problem = [&](const std::string& what) {
            parameterError(i, j, kind + ": " + what);
            ok = false;
        };
        if (q.bitLength != 0)
            problem("the bit length must be 0 (it is " + std::to_string(q.bitLength)
                + "); the size comes from the packet's data");
        if (s.maxBytes > kMaxFieldBytes)
            problem("MAX " + std::to_string(s.maxBytes) + " bytes is over 65536, a whole data field");
        switch (s.kind) {
        case SizeKind::Fixed:
            break;
        case SizeKind::FromParameter: {
            if (!isByteSequence(q.type))
                problem("only a STRING or BYTES parameter takes its size from another parameter, not "
                    + std::string(keyword(q.type)));
            if (!std::isfinite(s.sizeSlope) || !std::isfinite(s.sizeIntercept))
                problem("the slope and the intercept must be finite numbers");
            if (s.terminator != 0 || s.leadingSizeBits != 0)
                problem("a terminator or leading size bits do not apply");
            const int k = earlierParameter(i, j, s.sizeParameter, kind);
            if (k >= 0 && !isInteger(parameter(i, k).type))
                problem("the size parameter '" + s.sizeParameter + "' is " + std::string(keyword(parameter(i, k).type))
                    + ", not an integer");
            if (k < 0)
                ok = false;
            break;
        }
        case SizeKind::Terminated:
        case SizeKind::LeadingSize:
            if (q.type != DataType::String)
                problem("only a STRING parameter has this size kind, not " + std::string(keyword(q.type)));
            if (!s.sizeParameter.empty() || s.sizeSlope != 1 || s.sizeIntercept != 0)
                problem("a size parameter, slope or intercept does not apply");
            if (s.kind == SizeKind::Terminated && s.leadingSizeBits != 0)
                problem("leading size bits do not apply");
            if (s.kind == SizeKind::LeadingSize) {
                if (s.terminator != 0)
                    problem("a terminator does not apply");
                if (s.leadingSizeBits < 1 || s.leadingSizeBits > kMaxLeadingSizeBits)
                    problem(std::to_string(s.leadingSizeBits) + " leading size bits is out of range (1..32)");
            }
            break;
        }
        return ok;
    }

    // One calibrator: the default one or a context's. `where` prefixes messages ("" or "CONTEXT n: ").
    void checkCalibrator(int i, int j, const Calibrator& calibrator, bool lengthOk, const std::string& where)
    {
        if (const auto* poly = std::get_if<PolynomialCalibrator>(&calibrator)) {
            if (poly->coefficients.empty())
                parameterError(i, j, where + "a polynomial without coefficients");
            else if (poly->coefficients.size() > kMaxPolynomialCoefficients)
                parameterError(i, j, where + "a polynomial with " + std::to_string(poly->coefficients.size())
                        + " coefficients; at most 6 (5th order)");
            for (const double c : poly->coefficients) {
                if (!std::isfinite(c)) {
                    parameterError(i, j, where + "a polynomial coefficient is not a finite number");
                    break;
                }
            }
        } else if (const auto* table = std::get_if<PointPairCalibrator>(&calibrator)) {
            checkPointTable(i, j, *table, where);
        } else if (const auto* enumeration = std::get_if<EnumerationCalibrator>(&calibrator)) {
            checkEnumeration(i, j, *enumeration, lengthOk);
        } else if (const auto* time = std::get_if<TimeCalibrator>(&calibrator)) {
            if (!std::isfinite(time->epochUnixSeconds) || !std::isfinite(time->scale) || !std::isfinite(time->offset))
                parameterError(i, j, where + "TIME: the epoch, scale and offset must be finite numbers");
            else if (time->scale == 0)
                parameterError(i, j, where + "TIME: the scale is 0");
        }
    }

    void checkContexts(int i, int j)
    {
        const ParameterDef& q = parameter(i, j);
        if (q.contextCalibrators.empty())
            return;
        if (!isNumeric(q.type)) {
            parameterError(i, j, "a context calibration on a " + std::string(keyword(q.type))
                    + " parameter; only integers and floats are calibrated");
            return;
        }
        for (std::size_t n = 0; n < q.contextCalibrators.size(); ++n) {
            const ContextCalibration& context = q.contextCalibrators[n];
            const std::string where = "CONTEXT " + std::to_string(n + 1);
            if (context.when.empty())
                parameterError(i, j, where + ": no condition");
            for (const auto& c : context.when)
                checkCondition(i, j, c, where);
            if (!isNumericCalibrator(context.calibrator))
                parameterError(i, j, where + ": the calibrator must be a polynomial, a point table or a time (POLY,"
                                             " POINT or TIME lines), not "
                        + (std::holds_alternative<EnumerationCalibrator>(context.calibrator) ? "an enumeration"
                                                                                             : "none"));
            else
                checkCalibrator(i, j, context.calibrator, true, where + ": ");
        }
    }

    void checkPointTable(int i, int j, const PointPairCalibrator& table, const std::string& where)
    {
        if (table.points.size() < 2)
            parameterError(i, j, where + "a point table needs at least two points, it has "
                    + std::to_string(table.points.size()));
        for (const auto& point : table.points) {
            if (!std::isfinite(point.raw) || !std::isfinite(point.calibrated)) {
                parameterError(i, j, where + "a point table value is not a finite number");
                return;
            }
        }
        for (std::size_t k = 1; k < table.points.size(); ++k) {
            if (!(table.points[k].raw > table.points[k - 1].raw)) {
                parameterError(i, j, where + "point table raw values must be strictly increasing: point "
                        + std::to_string(k + 1) + " (raw " + formatReal(table.points[k].raw)
                        + ") does not follow point " + std::to_string(k) + " (raw "
                        + formatReal(table.points[k - 1].raw) + ")");
                return;
            }
        }
    }

    // The codes an integer field of this type and width can hold.
    static std::pair<std::int64_t, std::int64_t> codeRange(DataType type, std::uint32_t bits)
    {
        constexpr std::int64_t kMax = std::numeric_limits<std::int64_t>::max();
        switch (type) {
        case DataType::UnsignedInt:
            return {0, bits < 63 ? (std::int64_t{1} << bits) - 1 : kMax};
        case DataType::SignedInt:
            if (bits < 64) {
                const std::int64_t high = (std::int64_t{1} << (bits - 1)) - 1;
                return {-high - 1, high};
            }
            return {std::numeric_limits<std::int64_t>::min(), kMax};
        case DataType::SignMagnitudeInt:
        case DataType::OnesComplementInt: {
            // Symmetric: both have a negative zero instead of a most negative value.
            const std::int64_t high = bits < 64 ? (std::int64_t{1} << (bits - 1)) - 1 : kMax;
            return {-high, high};
        }
        case DataType::Float:
        case DataType::String:
        case DataType::Bytes:
            break;
        }
        return {std::numeric_limits<std::int64_t>::min(), kMax};
    }

    void checkEnumeration(int i, int j, const EnumerationCalibrator& enumeration, bool lengthOk)
    {
        const ParameterDef& q = parameter(i, j);
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

        // The codes the field can hold: integers of its width (only a fixed width is known).
        if (!lengthOk || !isInteger(q.type) || !q.fixedSize())
            return;
        const auto [lowest, highest] = codeRange(q.type, q.bitLength);
        for (const auto& s : enumeration.states) {
            if (s.low <= s.high && (s.low < lowest || s.high > highest))
                parameterError(i, j, "state \"" + s.text + "\": " + codes(s) + " cannot be held by the field ("
                        + std::string(keyword(q.type)) + " of " + std::to_string(q.bitLength)
                        + " bits: " + std::to_string(lowest) + ".." + std::to_string(highest) + ")");
        }
    }

    void checkLimits(int i, int j)
    {
        const ParameterDef& q = parameter(i, j);
        if (std::holds_alternative<std::monostate>(q.limits))
            return;
        const bool time = std::holds_alternative<TimeCalibrator>(q.calibrator)
            || std::any_of(q.contextCalibrators.begin(), q.contextCalibrators.end(),
                [](const ContextCalibration& c) { return std::holds_alternative<TimeCalibrator>(c.calibrator); });
        if (time)
            parameterError(i, j, "limits on a time parameter (TIME calibrator); a time has no limits");
        const auto* enumeration = std::get_if<EnumerationCalibrator>(&q.calibrator);
        if (const auto* numeric = std::get_if<NumericLimits>(&q.limits)) {
            if (isByteSequence(q.type))
                parameterError(i, j, std::string("numeric LIMITS on a ") + std::string(keyword(q.type)) + " parameter");
            else if (enumeration)
                parameterError(i, j, "numeric LIMITS on an enumeration; use EXPECTED");
            const double values[] = {numeric->redLow, numeric->yellowLow, numeric->yellowHigh, numeric->redHigh};
            // An open side is -inf or inf; only a NaN is no limit at all.
            if (std::any_of(std::begin(values), std::end(values), [](double v) { return std::isnan(v); }))
                parameterError(i, j, "a limit is not a finite number or an infinity (NaN)");
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

    // Two fields overlap when their bit ranges intersect. Only fields of a fixed size at an absolute
    // offset have a known place. Sorting by offset and keeping the field that reaches furthest finds
    // every field that overlaps an earlier one in O(n log n).
    void checkOverlaps(int i)
    {
        const PacketDef& p = packet(i);
        std::vector<int> order;
        order.reserve(p.parameters.size());
        for (int j = 0; j < static_cast<int>(p.parameters.size()); ++j) {
            const ParameterDef& q = p.parameters[static_cast<std::size_t>(j)];
            if (!q.overlapAllowed && q.bitLength > 0 && q.fixedSize() && q.placement == Placement::Absolute)
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
    std::unordered_map<std::string_view, int> m_names; // of the packet being checked
};

} // namespace

bool isValidPacketName(std::string_view name)
{
    if (name.empty() || !(isLetter(name.front()) || name.front() == '/'))
        return false;
    return std::all_of(name.begin(), name.end(), isPacketNameChar);
}

bool isValidParameterName(std::string_view name)
{
    if (name.empty() || !(isLetter(name.front()) || name.front() == '/'))
        return false;
    return std::all_of(name.begin(), name.end(), isParameterNameChar);
}

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
