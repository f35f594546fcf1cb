#include "core/xtce/xtce_export.hpp"

#include <libxml/parser.h>
#include <libxml/tree.h>

#include <algorithm>
#include <array>
#include <charconv>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <fstream>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <type_traits>
#include <utility>
#include <variant>
#include <vector>

namespace telestation::xtce {

namespace {

using mdb::ByteOrder;
using mdb::CompareOp;
using mdb::DataType;
using mdb::SizeKind;

constexpr std::string_view kXtce12Namespace = "http://www.omg.org/spec/XTCE/20180204";
constexpr std::string_view kFormatVersion = "1";
constexpr std::uint32_t kPrimaryHeaderBits = 48;
constexpr std::uint32_t kMaxDataFieldBits = 65536u * 8u;
// XTCE 1.2 demands a DynamicValue in a Variable string even when only a terminator or a leading size
// ends it; Yamcs reads this reference as "none" (its strings-tm.xml example), so do we.
constexpr std::string_view kIgnoredSizeReference = "_yamcs_ignore";

constexpr std::string_view kHeaderBase = "CCSDSPacket";
constexpr std::string_view kBareBase = "SpacePacket";

// Names of the AncillaryData Telestation writes (docs/xtce.md, "Export").
namespace anc {
constexpr std::string_view kFormat = "telestation.format";
constexpr std::string_view kMission = "telestation.mission";
constexpr std::string_view kPath = "telestation.path";
constexpr std::string_view kLength = "telestation.length";
constexpr std::string_view kByteOrder = "telestation.byteOrder";
constexpr std::string_view kSecondaryHeader = "telestation.secondaryHeader";
constexpr std::string_view kSecondaryId = "telestation.secondaryId";
constexpr std::string_view kRole = "telestation.role";
constexpr std::string_view kPlacement = "telestation.placement";
constexpr std::string_view kOverlapAllowed = "telestation.overlapAllowed";
constexpr std::string_view kMaxBytes = "telestation.maxBytes";
constexpr std::string_view kTime = "telestation.time";
constexpr std::string_view kEpoch = "telestation.epoch";
constexpr std::string_view kUnits = "telestation.units";
constexpr std::string_view kLimits = "telestation.limits";
} // namespace anc

// ---------------------------------------------------------------------------------------------------
// Text

std::string real(double v)
{
    if (std::isnan(v))
        return "NaN";
    if (std::isinf(v))
        return v > 0 ? "INF" : "-INF";
    std::array<char, 64> buffer {};
    const auto result = std::to_chars(buffer.data(), buffer.data() + buffer.size(), v); // shortest round trip
    return std::string(buffer.data(), result.ptr);
}

std::optional<double> parseDouble(std::string_view text)
{
    const auto blank = [](char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; };
    while (!text.empty() && blank(text.front()))
        text.remove_prefix(1);
    while (!text.empty() && blank(text.back()))
        text.remove_suffix(1);
    if (!text.empty() && text.front() == '+')
        text.remove_prefix(1);
    if (text == "INF")
        return HUGE_VAL;
    if (text == "-INF")
        return -HUGE_VAL;
    double value = 0;
    const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
    if (text.empty() || ec != std::errc() || end != text.data() + text.size())
        return std::nullopt;
    return value;
}

template <typename T>
std::optional<T> parseUnsigned(std::string_view text)
{
    T value = 0;
    const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
    if (text.empty() || ec != std::errc() || end != text.data() + text.size())
        return std::nullopt;
    return value;
}

// `text` with what XML 1.0 cannot hold (C0 controls but tab, LF and CR; invalid UTF-8; U+FFFE, U+FFFF)
// replaced by U+FFFD.
std::string xmlSafe(std::string_view text)
{
    constexpr std::string_view kReplacement = "\xEF\xBF\xBD";
    std::string out;
    out.reserve(text.size());
    std::size_t i = 0;
    while (i < text.size()) {
        const auto c = static_cast<unsigned char>(text[i]);
        if (c < 0x80) {
            if (c < 0x20 && c != '\t' && c != '\n' && c != '\r')
                out += kReplacement;
            else
                out += static_cast<char>(c);
            ++i;
            continue;
        }
        std::size_t length = 0;
        std::uint32_t code = 0;
        if (c >= 0xC2 && c <= 0xDF) {
            length = 2;
            code = c & 0x1Fu;
        } else if (c >= 0xE0 && c <= 0xEF) {
            length = 3;
            code = c & 0x0Fu;
        } else if (c >= 0xF0 && c <= 0xF4) {
            length = 4;
            code = c & 0x07u;
        }
        bool ok = length > 0 && i + length <= text.size();
        for (std::size_t k = 1; ok && k < length; ++k) {
            const auto next = static_cast<unsigned char>(text[i + k]);
            ok = (next & 0xC0u) == 0x80u;
            code = (code << 6) | (next & 0x3Fu);
        }
        const std::uint32_t smallest = length == 3 ? 0x800u : length == 4 ? 0x10000u : 0x80u;
        ok = ok && code >= smallest && code <= 0x10FFFFu && !(code >= 0xD800u && code <= 0xDFFFu) && code != 0xFFFEu
            && code != 0xFFFFu;
        if (ok) {
            out.append(text.substr(i, length));
            i += length;
        } else {
            out += kReplacement;
            ++i;
        }
    }
    return out;
}

std::string escapeText(std::string_view text)
{
    std::string out;
    for (const char c : xmlSafe(text)) {
        switch (c) {
        case '&':
            out += "&amp;";
            break;
        case '<':
            out += "&lt;";
            break;
        case '>':
            out += "&gt;";
            break;
        case '\r': // a literal CR would be read back as LF
            out += "&#13;";
            break;
        default:
            out += c;
        }
    }
    return out;
}

std::string escapeAttribute(std::string_view text)
{
    std::string out;
    for (const char c : xmlSafe(text)) {
        switch (c) {
        case '&':
            out += "&amp;";
            break;
        case '<':
            out += "&lt;";
            break;
        case '>':
            out += "&gt;";
            break;
        case '"':
            out += "&quot;";
            break;
        case '\t': // literal blanks in attributes are normalised to spaces by every XML parser
            out += "&#9;";
            break;
        case '\n':
            out += "&#10;";
            break;
        case '\r':
            out += "&#13;";
            break;
        default:
            out += c;
        }
    }
    return out;
}

// A small writer of indented XML in the xtce: prefix; every value is escaped.
class XmlWriter {
public:
    using Attributes = std::vector<std::pair<std::string_view, std::string>>;

    void open(std::string_view name, const Attributes& attributes = {})
    {
        startTag(name, attributes);
        m_out += ">\n";
        m_stack.emplace_back(name);
    }
    void leaf(std::string_view name, const Attributes& attributes = {})
    {
        startTag(name, attributes);
        m_out += "/>\n";
    }
    // Text kept exactly: no indentation inside the element.
    void textElement(std::string_view name, std::string_view text, const Attributes& attributes = {})
    {
        startTag(name, attributes);
        m_out += '>';
        m_out += escapeText(text);
        m_out += "</xtce:";
        m_out += name;
        m_out += ">\n";
    }
    void close()
    {
        const std::string name = std::move(m_stack.back());
        m_stack.pop_back();
        indent();
        m_out += "</xtce:" + name + ">\n";
    }
    void raw(std::string_view text) { m_out += text; }
    [[nodiscard]] std::string take() { return std::move(m_out); }

private:
    void indent() { m_out.append(2 * m_stack.size(), ' '); }
    void startTag(std::string_view name, const Attributes& attributes)
    {
        indent();
        m_out += "<xtce:";
        m_out += name;
        for (const auto& [key, value] : attributes) {
            m_out += ' ';
            m_out += key;
            m_out += "=\"";
            m_out += escapeAttribute(value);
            m_out += '"';
        }
    }

    std::string m_out;
    std::vector<std::string> m_stack;
};

// ---------------------------------------------------------------------------------------------------
// Names

// An XTCE NameType: no '.', '/', ':', '[', ']' or blanks (and, here, ASCII only).
std::string sanitize(std::string_view name)
{
    std::string out;
    for (const char ch : name) {
        const auto c = static_cast<unsigned char>(ch);
        const bool bad = c == '.' || c == '/' || c == ':' || c == '[' || c == ']' || c <= 0x20 || c >= 0x7F;
        out += bad ? '_' : ch;
    }
    return out.empty() ? std::string("_") : out;
}

class NameRegistry {
public:
    [[nodiscard]] bool taken(const std::string& name) const { return m_names.contains(name); }
    std::string claim(const std::string& wanted)
    {
        std::string name = wanted;
        for (int n = 2; m_names.contains(name); ++n)
            name = wanted + "_" + std::to_string(n);
        m_names.insert(name);
        return name;
    }

private:
    std::set<std::string> m_names;
};

std::string_view opText(CompareOp op)
{
    switch (op) {
    case CompareOp::Equal:
        return "==";
    case CompareOp::NotEqual:
        return "!=";
    case CompareOp::Less:
        return "<";
    case CompareOp::LessOrEqual:
        return "<=";
    case CompareOp::Greater:
        return ">";
    case CompareOp::GreaterOrEqual:
        return ">=";
    }
    return "==";
}

std::optional<CompareOp> parseOp(std::string_view text)
{
    for (const CompareOp op : { CompareOp::Equal, CompareOp::NotEqual, CompareOp::Less, CompareOp::LessOrEqual,
             CompareOp::Greater, CompareOp::GreaterOrEqual })
        if (opText(op) == text)
            return op;
    return std::nullopt;
}

std::string_view epochKeyword(mdb::TimeEpoch epoch)
{
    switch (epoch) {
    case mdb::TimeEpoch::Tai1958:
        return "TAI";
    case mdb::TimeEpoch::Gps1980:
        return "GPS";
    case mdb::TimeEpoch::Unix1970:
        return "UNIX";
    }
    return "TAI";
}

std::optional<mdb::TimeEpoch> parseEpochKeyword(std::string_view text)
{
    for (const auto epoch : { mdb::TimeEpoch::Tai1958, mdb::TimeEpoch::Gps1980, mdb::TimeEpoch::Unix1970 })
        if (epochKeyword(epoch) == text)
            return epoch;
    return std::nullopt;
}

// ---------------------------------------------------------------------------------------------------
// Epochs: a name where one is exact, else an xs:dateTime that reads back to the same double through
// the importer's arithmetic (days * 86400 + h * 3600 + m * 60 + s, then + the fraction).

std::int64_t daysFromCivil(std::int64_t y, unsigned m, unsigned d)
{
    y -= m <= 2 ? 1 : 0;
    const std::int64_t era = (y >= 0 ? y : y - 399) / 400;
    const auto yoe = static_cast<unsigned>(y - era * 400);
    const unsigned doy = (153 * (m > 2 ? m - 3 : m + 9) + 2) / 5 + d - 1;
    const unsigned doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    return era * 146097 + static_cast<std::int64_t>(doe) - 719468;
}

struct Civil {
    std::int64_t year = 0;
    unsigned month = 0;
    unsigned day = 0;
};

Civil civilFromDays(std::int64_t z)
{
    z += 719468;
    const std::int64_t era = (z >= 0 ? z : z - 146096) / 146097;
    const auto doe = static_cast<unsigned>(z - era * 146097);
    const unsigned yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
    const std::int64_t y = static_cast<std::int64_t>(yoe) + era * 400;
    const unsigned doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    const unsigned mp = (5 * doy + 2) / 153;
    const unsigned d = doy - (153 * mp + 2) / 5 + 1;
    const unsigned m = mp < 10 ? mp + 3 : mp - 9;
    return Civil { y + (m <= 2 ? 1 : 0), m, d };
}

struct EpochText {
    std::string text;
    bool exact = false;
};

EpochText epochText(double epoch)
{
    if (epoch == mdb::kEpochTai1958)
        return { "TAI", true };
    if (epoch == mdb::kEpochGps1980)
        return { "GPS", true };
    if (epoch == mdb::kEpochUnix1970)
        return { "UNIX", true };
    if (epoch == mdb::kEpochJ2000)
        return { "J2000", true };
    constexpr double kFirst = -62135596800.0; // 0001-01-01T00:00:00Z
    constexpr double kLast = 253402300799.0;  // 9999-12-31T23:59:59Z
    if (!std::isfinite(epoch) || epoch < kFirst || epoch >= kLast + 1)
        return { "UNIX", false };
    const double whole = std::floor(epoch);
    const double fraction = epoch - whole;
    const auto seconds = static_cast<std::int64_t>(whole);
    const std::int64_t days = seconds >= 0 ? seconds / 86400 : -((-seconds + 86399) / 86400);
    const std::int64_t ofDay = seconds - days * 86400;
    const Civil date = civilFromDays(days);
    const int hour = static_cast<int>(ofDay / 3600);
    const int minute = static_cast<int>(ofDay % 3600 / 60);
    const int second = static_cast<int>(ofDay % 60);
    std::array<char, 64> buffer {};
    std::snprintf(buffer.data(), buffer.size(), "%04lld-%02u-%02uT%02d:%02d:%02d", static_cast<long long>(date.year),
        date.month, date.day, hour, minute, second);
    const std::string text(buffer.data());
    double base = static_cast<double>(daysFromCivil(date.year, date.month, date.day)) * 86400.0;
    base += hour * 3600.0 + minute * 60.0 + second;
    if (fraction == 0 && base == epoch)
        return { text + "Z", true };
    for (int digits = 1; digits <= 20; ++digits) {
        const auto result
            = std::to_chars(buffer.data(), buffer.data() + buffer.size(), fraction, std::chars_format::fixed, digits);
        const std::string candidate(buffer.data(), result.ptr);
        if (!candidate.starts_with("0."))
            break;
        const auto parsed = parseDouble(candidate);
        if (parsed && base + *parsed == epoch)
            return { text + candidate.substr(1) + "Z", true };
    }
    return { text + "Z", false };
}

// ---------------------------------------------------------------------------------------------------
// What is written for each packet

struct HeaderField {
    std::string_view name;
    std::uint32_t bitOffset;
    std::uint32_t bitLength;
    std::string_view description;
};

constexpr std::array<HeaderField, 7> kPrimaryHeader { {
    { "CCSDS_VERSION", 0, 3, "CCSDS packet version number" },
    { "CCSDS_TYPE", 3, 1, "Packet type: 0 telemetry, 1 telecommand" },
    { "CCSDS_SEC_HDR_FLG", 4, 1, "Secondary header flag" },
    { "CCSDS_APID", 5, 11, "Application process identifier" },
    { "CCSDS_SEQ_FLGS", 16, 2, "Sequence flags" },
    { "CCSDS_SRC_SEQ_CTR", 18, 14, "Packet sequence count" },
    { "CCSDS_PKT_LEN", 32, 16, "Packet data length: the bytes after the primary header, minus one" },
} };

// A parameter that is not in the model: a CUC secondary header field or a criterion's field.
struct HiddenField {
    std::string name;
    std::string typeName;
    std::string_view role;
    std::string_view description;
    std::uint32_t bitOffset = 0;
    std::uint32_t bitLength = 0;
    std::optional<mdb::CucLayout> cucTime; // the CUC time as an absolute time
};

struct RestrictionTerm {
    std::string parameterRef;
    CompareOp op = CompareOp::Equal;
    std::uint64_t value = 0;
};

struct ParameterPlan {
    const mdb::ParameterDef* def = nullptr;
    std::string name;
    std::string typeName;
};

struct PacketPlan {
    const mdb::PacketDef* def = nullptr;
    std::string containerName;
    bool withHeader = true;
    std::vector<HiddenField> leading;  // before the model's parameters (the CUC secondary header)
    std::vector<ParameterPlan> parameters;
    std::vector<HiddenField> trailing; // after them (fields of criteria), at absolute places
    std::vector<RestrictionTerm> restriction; // the APID, the secondary id, then the criteria
    std::map<std::string, std::string, std::less<>> xtceName; // model parameter name -> XTCE name
};

// Whether the packet's own fixed parameters cover the whole primary header (XTCE imports do).
bool coversPrimaryHeader(const mdb::PacketDef& packet)
{
    std::array<bool, kPrimaryHeaderBits> covered {};
    for (const auto& p : packet.parameters) {
        if (p.placement != mdb::Placement::Absolute || !p.fixedSize() || !p.includeWhen.empty())
            continue;
        const std::uint64_t end
            = std::min<std::uint64_t>(std::uint64_t { p.bitOffset } + p.bitLength, kPrimaryHeaderBits);
        for (std::uint64_t bit = p.bitOffset; bit < end; ++bit)
            covered[bit] = true;
    }
    return std::all_of(covered.begin(), covered.end(), [](bool b) { return b; });
}

enum class TypeKind { Integer, Float, Enumerated, AbsoluteTime, String, Binary };

TypeKind typeKindOf(const mdb::ParameterDef& p)
{
    switch (p.type) {
    case DataType::String:
        return TypeKind::String;
    case DataType::Bytes:
        return TypeKind::Binary;
    case DataType::UnsignedInt:
    case DataType::SignedInt:
    case DataType::SignMagnitudeInt:
    case DataType::OnesComplementInt:
    case DataType::Float:
        break;
    }
    if (std::holds_alternative<mdb::EnumerationCalibrator>(p.calibrator))
        return TypeKind::Enumerated;
    if (std::holds_alternative<mdb::TimeCalibrator>(p.calibrator) && p.contextCalibrators.empty())
        return TypeKind::AbsoluteTime;
    if (p.type == DataType::Float)
        return TypeKind::Float;
    // A calibrated integer has a real engineering value: XTCE says so with a FloatParameterType.
    const bool calibrated = !std::holds_alternative<std::monostate>(p.calibrator) || !p.contextCalibrators.empty();
    return calibrated ? TypeKind::Float : TypeKind::Integer;
}

std::string_view integerEncoding(DataType type)
{
    switch (type) {
    case DataType::UnsignedInt:
        return "unsigned";
    case DataType::SignedInt:
        return "twosComplement";
    case DataType::SignMagnitudeInt:
        return "signMagnitude";
    case DataType::OnesComplementInt:
        return "onesComplement";
    case DataType::Float:
    case DataType::String:
    case DataType::Bytes:
        break;
    }
    return "unsigned";
}

std::string timeText(const mdb::TimeCalibrator& t)
{
    return real(t.epochUnixSeconds) + " " + real(t.scale) + " " + real(t.offset);
}

std::optional<mdb::TimeCalibrator> parseTimeText(std::string_view text)
{
    std::vector<double> values;
    while (!text.empty()) {
        const std::size_t blank = text.find(' ');
        const std::string_view token = text.substr(0, blank);
        auto value = parseDouble(token);
        if (!value)
            return std::nullopt;
        values.push_back(*value);
        text = blank == std::string_view::npos ? std::string_view {} : text.substr(blank + 1);
    }
    if (values.size() != 3)
        return std::nullopt;
    return mdb::TimeCalibrator { values[0], values[1], values[2] };
}

std::string lengthText(const mdb::PacketDef& p)
{
    if (p.variableLength)
        return "VARIABLE " + std::to_string(p.length) + " " + std::to_string(p.maxLength);
    return std::to_string(p.length);
}

std::string cucText(const mdb::CucLayout& cuc)
{
    return "CUC " + std::to_string(cuc.coarseBytes) + " " + std::to_string(cuc.fineBytes)
        + (cuc.hasPField ? " PFIELD" : "") + " EPOCH " + std::string(epochKeyword(cuc.epoch));
}

std::optional<mdb::CucLayout> parseCucText(std::string_view text)
{
    std::vector<std::string_view> tokens;
    while (!text.empty()) {
        const std::size_t blank = text.find(' ');
        tokens.push_back(text.substr(0, blank));
        text = blank == std::string_view::npos ? std::string_view {} : text.substr(blank + 1);
    }
    if (tokens.size() < 5 || tokens[0] != "CUC")
        return std::nullopt;
    mdb::CucLayout cuc;
    auto coarse = parseUnsigned<unsigned>(tokens[1]);
    auto fine = parseUnsigned<unsigned>(tokens[2]);
    std::size_t next = 3;
    cuc.hasPField = tokens[next] == "PFIELD";
    if (cuc.hasPField)
        ++next;
    if (!coarse || !fine || *coarse > 255 || *fine > 255 || next + 2 != tokens.size() || tokens[next] != "EPOCH")
        return std::nullopt;
    auto epoch = parseEpochKeyword(tokens[next + 1]);
    if (!epoch)
        return std::nullopt;
    cuc.coarseBytes = static_cast<std::uint8_t>(*coarse);
    cuc.fineBytes = static_cast<std::uint8_t>(*fine);
    cuc.epoch = *epoch;
    return cuc;
}

std::string_view byteOrderKeyword(ByteOrder order)
{
    return order == ByteOrder::LittleEndian ? "LITTLE_ENDIAN" : "BIG_ENDIAN";
}

// ---------------------------------------------------------------------------------------------------
// The exporter

class Exporter {
public:
    explicit Exporter(const mdb::MissionDatabase& db) : m_db(db) {}

    std::string run()
    {
        plan();
        m_w.raw("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
        m_w.raw("<!-- Written by Telestation: XTCE 1.2. What XTCE has no element for is kept in AncillaryData\n"
                "     named telestation.*; hidden parameters (telestation.role) are not in the mission database.\n"
                "     See docs/xtce.md, \"Export\". -->\n");
        const std::string rootName = m_db.name.empty() ? std::string("Telestation") : sanitize(m_db.name);
        m_w.open("SpaceSystem", { { "xmlns:xtce", std::string(kXtce12Namespace) }, { "name", rootName } });
        ancillarySet({ { anc::kFormat, std::string(kFormatVersion) }, { anc::kMission, m_db.name } });
        // Every set of XTCE needs at least one member: an empty database has an empty TelemetryMetaData.
        const bool any = !m_plans.empty();
        m_w.open("TelemetryMetaData");
        if (m_needsHeaderBase || std::any_of(m_plans.begin(), m_plans.end(), [](const PacketPlan& p) {
                return !p.leading.empty() || !p.parameters.empty() || !p.trailing.empty();
            })) {
            writeParameterTypes();
            writeParameters();
        }
        if (any)
            writeContainers();
        m_w.close();
        m_w.close();
        return m_w.take();
    }

private:
    using Ancillary = std::vector<std::pair<std::string_view, std::string>>;

    // ---- planning: names, hidden fields, restriction criteria ----

    void plan()
    {
        for (const auto& packet : m_db.packets) {
            PacketPlan p;
            p.def = &packet;
            p.withHeader = !coversPrimaryHeader(packet);
            m_needsHeaderBase = m_needsHeaderBase || p.withHeader;
            m_needsBareBase = m_needsBareBase || !p.withHeader;
            m_plans.push_back(std::move(p));
        }
        if (m_needsHeaderBase)
            for (const auto& field : kPrimaryHeader) {
                m_parameterNames.claim(std::string(field.name));
                m_typeNames.claim(std::string(field.name) + "_Type");
            }
        m_containerNames.claim(std::string(kHeaderBase));
        m_containerNames.claim(std::string(kBareBase));
        for (auto& p : m_plans)
            planPacket(p);
    }

    std::string claimParameter(const PacketPlan& p, const std::string& modelName)
    {
        const std::string plain = sanitize(modelName);
        if (!m_parameterNames.taken(plain))
            return m_parameterNames.claim(plain);
        return m_parameterNames.claim(sanitize(p.def->name) + "__" + plain);
    }

    HiddenField hidden(PacketPlan& p, const std::string& suffix, std::string_view role, std::string_view description,
        std::uint32_t bitOffset, std::uint32_t bitLength)
    {
        HiddenField f;
        f.name = m_parameterNames.claim(sanitize(p.def->name) + "__" + suffix);
        f.typeName = m_typeNames.claim(f.name + "_Type");
        f.role = role;
        f.description = description;
        f.bitOffset = bitOffset;
        f.bitLength = bitLength;
        return f;
    }

    void planPacket(PacketPlan& p)
    {
        const mdb::PacketDef& packet = *p.def;
        p.containerName = m_containerNames.claim(sanitize(packet.name));
        for (const auto& param : packet.parameters) {
            ParameterPlan q;
            q.def = &param;
            q.name = claimParameter(p, param.name);
            q.typeName = m_typeNames.claim(q.name + "_Type");
            p.xtceName.emplace(param.name, q.name); // the first of duplicate names, like validation
            p.parameters.push_back(std::move(q));
        }
        if (packet.secondaryHeader) {
            const mdb::CucLayout& cuc = *packet.secondaryHeader;
            std::uint32_t at = kPrimaryHeaderBits;
            if (cuc.hasPField) {
                p.leading.push_back(hidden(p, "CUC_PFIELD", "secondaryHeader", "CUC P-field", at, 8));
                at += 8;
            }
            HiddenField time = hidden(p, "CUC_TIME", "secondaryHeader",
                "CUC time of the secondary header: coarse seconds and binary fraction", at,
                8u * (cuc.coarseBytes + cuc.fineBytes));
            time.cucTime = cuc;
            p.leading.push_back(std::move(time));
        }
        p.restriction.push_back(
            RestrictionTerm { fieldFor(p, 5, 11, "APID", "APID of the packet type"), CompareOp::Equal, packet.apid });
        if (const auto& id = packet.secondaryId)
            p.restriction.push_back(RestrictionTerm {
                fieldFor(p, id->bitOffset, id->bitLength, "SECONDARY_ID", "Secondary id of the packet type"),
                CompareOp::Equal, id->value });
        for (std::size_t k = 0; k < packet.criteria.size(); ++k) {
            const mdb::FieldCriterion& c = packet.criteria[k];
            const std::string suffix = "criterion" + std::to_string(k + 1);
            const std::string field
                = fieldFor(p, c.bitOffset, c.bitLength, suffix, "A field a criterion of the packet type tests");
            p.restriction.push_back(RestrictionTerm { field, c.op, c.value });
        }
    }

    // The parameter whose raw value is the unsigned integer in those bits: a primary header field, a
    // parameter of the packet, or a new hidden one at the end of the entry list.
    std::string fieldFor(PacketPlan& p, std::uint32_t bitOffset, std::uint32_t bitLength, const std::string& suffix,
        std::string_view description)
    {
        if (p.withHeader)
            for (const auto& field : kPrimaryHeader)
                if (field.bitOffset == bitOffset && field.bitLength == bitLength)
                    return std::string(field.name);
        for (const auto& q : p.parameters) {
            const mdb::ParameterDef& d = *q.def;
            if (d.placement == mdb::Placement::Absolute && d.fixedSize() && d.includeWhen.empty()
                && d.type == DataType::UnsignedInt && d.bitOffset == bitOffset && d.bitLength == bitLength
                && (d.bitLength <= 8 || mdb::effectiveByteOrder(*p.def, d) == ByteOrder::BigEndian))
                return q.name;
        }
        for (const auto& f : p.trailing)
            if (f.bitOffset == bitOffset && f.bitLength == bitLength)
                return f.name;
        p.trailing.push_back(hidden(p, suffix, "criterion", description, bitOffset, bitLength));
        return p.trailing.back().name;
    }

    // ---- shared pieces ----

    void ancillarySet(const Ancillary& data)
    {
        if (data.empty())
            return;
        m_w.open("AncillaryDataSet");
        for (const auto& [name, value] : data)
            m_w.textElement("AncillaryData", value, { { "name", std::string(name) } });
        m_w.close();
    }

    // LongDescription, AliasSet, AncillaryDataSet: the children every NameDescriptionType begins with.
    void descriptionChildren(const std::string& longDescription, const std::string& modelName,
        const std::vector<mdb::Alias>& aliases, const Ancillary& ancillary)
    {
        if (!longDescription.empty())
            m_w.textElement("LongDescription", longDescription);
        if (!modelName.empty() || !aliases.empty()) {
            m_w.open("AliasSet");
            if (!modelName.empty())
                m_w.leaf("Alias", { { "nameSpace", std::string(kTelestationAliasNameSpace) }, { "alias", modelName } });
            for (const auto& a : aliases)
                m_w.leaf("Alias", { { "nameSpace", a.nameSpace }, { "alias", a.alias } });
            m_w.close();
        }
        ancillarySet(ancillary);
    }

    static XmlWriter::Attributes named(const std::string& name, const std::string& shortDescription)
    {
        XmlWriter::Attributes a { { "name", name } };
        if (!shortDescription.empty())
            a.emplace_back("shortDescription", shortDescription);
        return a;
    }

    void comparison(const std::string& parameterRef, bool calibrated, CompareOp op, const std::string& value)
    {
        m_w.leaf("Comparison", { { "parameterRef", parameterRef },
                                   { "useCalibratedValue", calibrated ? "true" : "false" },
                                   { "comparisonOperator", std::string(opText(op)) },
                                   { "value", value } });
    }

    void conditions(const PacketPlan& p, const std::vector<mdb::Condition>& when)
    {
        const auto one = [&](const mdb::Condition& c) {
            const auto it = p.xtceName.find(c.parameter);
            comparison(it != p.xtceName.end() ? it->second : sanitize(c.parameter), c.calibrated, c.op, real(c.value));
        };
        if (when.size() == 1) {
            one(when.front());
            return;
        }
        m_w.open("ComparisonList");
        for (const auto& c : when)
            one(c);
        m_w.close();
    }

    void polynomial(const std::vector<double>& coefficients)
    {
        m_w.open("PolynomialCalibrator");
        for (std::size_t power = 0; power < coefficients.size(); ++power)
            m_w.leaf("Term", { { "coefficient", real(coefficients[power]) }, { "exponent", std::to_string(power) } });
        m_w.close();
    }

    // The calibrator's element (the content of a DefaultCalibrator or a context's Calibrator). A time
    // is written as the polynomial of its value and kept exactly in AncillaryData telestation.time.
    void calibratorContent(const mdb::Calibrator& calibrator)
    {
        if (const auto* poly = std::get_if<mdb::PolynomialCalibrator>(&calibrator)) {
            polynomial(poly->coefficients);
        } else if (const auto* table = std::get_if<mdb::PointPairCalibrator>(&calibrator)) {
            m_w.open("SplineCalibrator", { { "order", "1" }, { "extrapolate", "true" } });
            for (const auto& point : table->points)
                m_w.leaf("SplinePoint", { { "raw", real(point.raw) }, { "calibrated", real(point.calibrated) } });
            m_w.close();
        } else if (const auto* time = std::get_if<mdb::TimeCalibrator>(&calibrator)) {
            ancillarySet({ { anc::kTime, timeText(*time) } });
            polynomial({ time->epochUnixSeconds + time->offset, time->scale });
        }
    }

    void numericEncoding(const PacketPlan& p, const mdb::ParameterDef& d, bool withCalibrators)
    {
        XmlWriter::Attributes a;
        const bool little = mdb::effectiveByteOrder(*p.def, d) == ByteOrder::LittleEndian;
        const std::string_view element = d.type == DataType::Float ? "FloatDataEncoding" : "IntegerDataEncoding";
        if (d.type == DataType::Float)
            a = { { "encoding", "IEEE754_1985" }, { "sizeInBits", std::to_string(d.bitLength) } };
        else
            a = { { "encoding", std::string(integerEncoding(d.type)) }, { "sizeInBits", std::to_string(d.bitLength) } };
        if (little)
            a.emplace_back("byteOrder", "leastSignificantByteFirst");
        const bool hasDefault = withCalibrators && !std::holds_alternative<std::monostate>(d.calibrator)
            && !std::holds_alternative<mdb::EnumerationCalibrator>(d.calibrator);
        const bool hasContexts = withCalibrators && !d.contextCalibrators.empty();
        if (!hasDefault && !hasContexts) {
            m_w.leaf(element, a);
            return;
        }
        m_w.open(element, a);
        if (hasDefault) {
            m_w.open("DefaultCalibrator");
            if (const auto* time = std::get_if<mdb::TimeCalibrator>(&d.calibrator))
                polynomial({ time->epochUnixSeconds + time->offset, time->scale }); // exact in telestation.time
            else
                calibratorContent(d.calibrator);
            m_w.close();
        }
        if (hasContexts) {
            m_w.open("ContextCalibratorList");
            for (const auto& context : d.contextCalibrators) {
                m_w.open("ContextCalibrator");
                m_w.open("ContextMatch");
                conditions(p, context.when);
                m_w.close();
                m_w.open("Calibrator");
                calibratorContent(context.calibrator);
                m_w.close();
                m_w.close();
            }
            m_w.close();
        }
        m_w.close();
    }

    void dynamicValue(const std::string& parameterRef, bool ignored, double slope, double intercept)
    {
        m_w.open("DynamicValue");
        if (ignored) {
            m_w.leaf("ParameterInstanceRef", { { "parameterRef", parameterRef } });
        } else {
            m_w.leaf("ParameterInstanceRef", { { "parameterRef", parameterRef }, { "useCalibratedValue", "false" } });
            m_w.leaf("LinearAdjustment", { { "slope", real(slope) }, { "intercept", real(intercept) } });
        }
        m_w.close();
    }

    std::string sizeReference(const PacketPlan& p, const mdb::ParameterDef& d) const
    {
        const auto it = p.xtceName.find(d.size.sizeParameter);
        return it != p.xtceName.end() ? it->second : sanitize(d.size.sizeParameter);
    }

    static std::uint64_t maxSizeInBits(const mdb::ParameterDef& d)
    {
        return d.size.maxBytes == 0 ? kMaxDataFieldBits : std::uint64_t { d.size.maxBytes } * 8;
    }

    void stringEncoding(const PacketPlan& p, const mdb::ParameterDef& d)
    {
        m_w.open("StringDataEncoding", { { "encoding", "UTF-8" } });
        switch (d.size.kind) {
        case SizeKind::Fixed:
            m_w.open("SizeInBits");
            m_w.open("Fixed");
            m_w.textElement("FixedValue", std::to_string(d.bitLength));
            m_w.close();
            m_w.close();
            break;
        case SizeKind::Terminated: {
            m_w.open("Variable", { { "maxSizeInBits", std::to_string(maxSizeInBits(d)) } });
            dynamicValue(std::string(kIgnoredSizeReference), true, 1, 0);
            std::array<char, 3> hex {};
            std::snprintf(hex.data(), hex.size(), "%02X", static_cast<unsigned>(d.size.terminator));
            m_w.textElement("TerminationChar", hex.data());
            m_w.close();
            break;
        }
        case SizeKind::LeadingSize:
            m_w.open("Variable", { { "maxSizeInBits", std::to_string(maxSizeInBits(d)) } });
            dynamicValue(std::string(kIgnoredSizeReference), true, 1, 0);
            m_w.leaf("LeadingSize", { { "sizeInBitsOfSizeTag", std::to_string(d.size.leadingSizeBits) } });
            m_w.close();
            break;
        case SizeKind::FromParameter:
            m_w.open("Variable", { { "maxSizeInBits", std::to_string(maxSizeInBits(d)) } });
            dynamicValue(sizeReference(p, d), false, d.size.sizeSlope, d.size.sizeIntercept);
            m_w.close();
            break;
        }
        m_w.close();
    }

    void binaryEncoding(const PacketPlan& p, const mdb::ParameterDef& d)
    {
        m_w.open("BinaryDataEncoding");
        m_w.open("SizeInBits");
        switch (d.size.kind) {
        case SizeKind::FromParameter:
            dynamicValue(sizeReference(p, d), false, d.size.sizeSlope, d.size.sizeIntercept);
            break;
        case SizeKind::Fixed:
        case SizeKind::Terminated:  // not valid for bytes: written as the fixed size
        case SizeKind::LeadingSize:
            m_w.textElement("FixedValue", std::to_string(d.bitLength));
            break;
        }
        m_w.close();
        m_w.close();
    }

    void unitSet(const std::string& units)
    {
        if (units.empty())
            return;
        m_w.open("UnitSet");
        m_w.textElement("Unit", units);
        m_w.close();
    }

    void numericAlarm(const mdb::Limits& limits)
    {
        const auto* numeric = std::get_if<mdb::NumericLimits>(&limits);
        if (numeric == nullptr)
            return;
        const auto range = [](double low, double high) {
            XmlWriter::Attributes a;
            if (low != -HUGE_VAL)
                a.emplace_back("minInclusive", real(low));
            if (high != HUGE_VAL)
                a.emplace_back("maxInclusive", real(high));
            return a;
        };
        m_w.open("DefaultAlarm");
        m_w.open("StaticAlarmRanges");
        m_w.leaf("WarningRange", range(numeric->yellowLow, numeric->yellowHigh));
        if (numeric->redLow != -HUGE_VAL || numeric->redHigh != HUGE_VAL)
            m_w.leaf("CriticalRange", range(numeric->redLow, numeric->redHigh));
        m_w.close();
        m_w.close();
    }

    void enumerationAlarm(const mdb::Limits& limits)
    {
        const auto* states = std::get_if<mdb::StateLimits>(&limits);
        if (states == nullptr)
            return;
        // Unexpected states (and codes without a state) are critical.
        if (states->expectedStates.empty()) {
            m_w.leaf("DefaultAlarm", { { "defaultAlarmLevel", "critical" } });
            return;
        }
        m_w.open("DefaultAlarm", { { "defaultAlarmLevel", "critical" } });
        m_w.open("EnumerationAlarmList");
        for (const auto& state : states->expectedStates)
            m_w.leaf("EnumerationAlarm", { { "alarmLevel", "normal" }, { "enumerationLabel", state } });
        m_w.close();
        m_w.close();
    }

    // ---- ParameterTypeSet ----

    void writeParameterTypes()
    {
        m_w.open("ParameterTypeSet");
        if (m_needsHeaderBase)
            for (const auto& field : kPrimaryHeader)
                unsignedType(std::string(field.name) + "_Type", field.bitLength);
        for (const auto& p : m_plans) {
            for (const auto& f : p.leading)
                hiddenType(f);
            for (const auto& q : p.parameters)
                parameterType(p, q);
            for (const auto& f : p.trailing)
                hiddenType(f);
        }
        m_w.close();
    }

    void unsignedType(const std::string& name, std::uint32_t bits)
    {
        m_w.open("IntegerParameterType",
            { { "name", name }, { "signed", "false" }, { "sizeInBits", bits <= 32 ? "32" : "64" } });
        m_w.leaf("IntegerDataEncoding", { { "encoding", "unsigned" }, { "sizeInBits", std::to_string(bits) } });
        m_w.close();
    }

    void hiddenType(const HiddenField& f)
    {
        if (!f.cucTime) {
            unsignedType(f.typeName, f.bitLength);
            return;
        }
        m_w.open("AbsoluteTimeParameterType", { { "name", f.typeName } });
        XmlWriter::Attributes encoding { { "units", "seconds" } };
        if (f.cucTime->fineBytes > 0)
            encoding.emplace_back("scale", real(std::ldexp(1.0, -8 * f.cucTime->fineBytes)));
        m_w.open("Encoding", encoding);
        m_w.leaf("IntegerDataEncoding", { { "encoding", "unsigned" }, { "sizeInBits", std::to_string(f.bitLength) } });
        m_w.close();
        m_w.open("ReferenceTime");
        m_w.textElement("Epoch", epochKeyword(f.cucTime->epoch));
        m_w.close();
        m_w.close();
    }

    void parameterType(const PacketPlan& p, const ParameterPlan& q)
    {
        const mdb::ParameterDef& d = *q.def;
        const TypeKind kind = typeKindOf(d);
        switch (kind) {
        case TypeKind::Integer:
            m_w.open("IntegerParameterType", { { "name", q.typeName },
                                                { "signed", d.type == DataType::UnsignedInt ? "false" : "true" },
                                                { "sizeInBits", d.bitLength <= 32 ? "32" : "64" } });
            unitSet(d.units);
            numericEncoding(p, d, true);
            numericAlarm(d.limits);
            m_w.close();
            return;
        case TypeKind::Float: {
            const bool single = d.type == DataType::Float && d.bitLength == 32;
            m_w.open("FloatParameterType", { { "name", q.typeName }, { "sizeInBits", single ? "32" : "64" } });
            unitSet(d.units);
            numericEncoding(p, d, true);
            numericAlarm(d.limits);
            m_w.close();
            return;
        }
        case TypeKind::Enumerated: {
            m_w.open("EnumeratedParameterType", { { "name", q.typeName } });
            unitSet(d.units);
            numericEncoding(p, d, true); // contexts only: the enumeration is the EnumerationList
            m_w.open("EnumerationList");
            for (const auto& state : std::get<mdb::EnumerationCalibrator>(d.calibrator).states) {
                XmlWriter::Attributes a { { "value", std::to_string(state.low) } };
                if (state.high != state.low)
                    a.emplace_back("maxValue", std::to_string(state.high));
                a.emplace_back("label", state.text);
                m_w.leaf("Enumeration", a);
            }
            m_w.close();
            enumerationAlarm(d.limits);
            m_w.close();
            return;
        }
        case TypeKind::AbsoluteTime: {
            const auto& time = std::get<mdb::TimeCalibrator>(d.calibrator);
            m_w.open("AbsoluteTimeParameterType", { { "name", q.typeName } });
            XmlWriter::Attributes encoding { { "units", "seconds" } };
            if (time.scale != 1)
                encoding.emplace_back("scale", real(time.scale));
            if (time.offset != 0)
                encoding.emplace_back("offset", real(time.offset));
            m_w.open("Encoding", encoding);
            numericEncoding(p, d, false);
            m_w.close();
            m_w.open("ReferenceTime");
            m_w.textElement("Epoch", epochText(time.epochUnixSeconds).text);
            m_w.close();
            m_w.close();
            return;
        }
        case TypeKind::String:
            m_w.open("StringParameterType", { { "name", q.typeName } });
            unitSet(d.units);
            stringEncoding(p, d);
            m_w.close();
            return;
        case TypeKind::Binary:
            m_w.open("BinaryParameterType", { { "name", q.typeName } });
            unitSet(d.units);
            binaryEncoding(p, d);
            m_w.close();
            return;
        }
    }

    // ---- ParameterSet ----

    void writeParameters()
    {
        m_w.open("ParameterSet");
        if (m_needsHeaderBase)
            for (const auto& field : kPrimaryHeader) {
                m_w.open("Parameter", { { "name", std::string(field.name) },
                                          { "parameterTypeRef", std::string(field.name) + "_Type" },
                                          { "shortDescription", std::string(field.description) } });
                ancillarySet({ { anc::kRole, "header" } });
                m_w.close();
            }
        for (const auto& p : m_plans) {
            for (const auto& f : p.leading)
                hiddenParameter(f);
            for (const auto& q : p.parameters)
                parameter(p, q);
            for (const auto& f : p.trailing)
                hiddenParameter(f);
        }
        m_w.close();
    }

    void hiddenParameter(const HiddenField& f)
    {
        m_w.open("Parameter", { { "name", f.name }, { "parameterTypeRef", f.typeName },
                                  { "shortDescription", std::string(f.description) } });
        ancillarySet({ { anc::kRole, std::string(f.role) } });
        m_w.close();
    }

    void parameter(const PacketPlan& p, const ParameterPlan& q)
    {
        const mdb::ParameterDef& d = *q.def;
        Ancillary ancillary;
        if (!d.path.empty())
            ancillary.emplace_back(anc::kPath, d.path);
        if (d.placement == mdb::Placement::AfterPrevious && &d == &p.def->parameters.front())
            ancillary.emplace_back(anc::kPlacement, "AFTER_PREVIOUS");
        if (d.overlapAllowed)
            ancillary.emplace_back(anc::kOverlapAllowed, "true");
        if (d.byteOrder)
            ancillary.emplace_back(anc::kByteOrder, std::string(byteOrderKeyword(*d.byteOrder)));
        const bool variableString = d.type == DataType::String && !d.fixedSize();
        const bool sizedBytes = d.type == DataType::Bytes && d.size.kind == SizeKind::FromParameter;
        if ((variableString && d.size.maxBytes == 0) || (sizedBytes && d.size.maxBytes != 0))
            ancillary.emplace_back(anc::kMaxBytes, std::to_string(d.size.maxBytes));
        const TypeKind kind = typeKindOf(d);
        if (const auto* time = std::get_if<mdb::TimeCalibrator>(&d.calibrator)) {
            if (kind == TypeKind::AbsoluteTime) {
                if (!epochText(time->epochUnixSeconds).exact)
                    ancillary.emplace_back(anc::kEpoch, real(time->epochUnixSeconds));
            } else {
                ancillary.emplace_back(anc::kTime, timeText(*time));
            }
        }
        if (kind == TypeKind::AbsoluteTime && !d.units.empty())
            ancillary.emplace_back(anc::kUnits, d.units);
        const bool disabled = std::visit(
            [](const auto& l) {
                using L = std::decay_t<decltype(l)>;
                if constexpr (std::is_same_v<L, std::monostate>)
                    return false;
                else
                    return !l.enabled;
            },
            d.limits);
        if (disabled)
            ancillary.emplace_back(anc::kLimits, "disabled");
        m_w.open("Parameter", [&] {
            XmlWriter::Attributes a = named(q.name, d.description);
            a.insert(a.begin() + 1, { "parameterTypeRef", q.typeName });
            return a;
        }());
        descriptionChildren(d.longDescription, d.name, d.aliases, ancillary);
        m_w.close();
    }

    // ---- ContainerSet ----

    void location(bool fromStart, std::uint64_t bits)
    {
        m_w.open("LocationInContainerInBits",
            { { "referenceLocation", fromStart ? "containerStart" : "previousEntry" } });
        m_w.textElement("FixedValue", std::to_string(bits));
        m_w.close();
    }

    void hiddenEntry(const HiddenField& f)
    {
        m_w.open("ParameterRefEntry", { { "parameterRef", f.name } });
        location(true, f.bitOffset);
        m_w.close();
    }

    void writeContainers()
    {
        m_w.open("ContainerSet");
        if (m_needsHeaderBase) {
            m_w.open("SequenceContainer", { { "name", std::string(kHeaderBase) }, { "abstract", "true" },
                                              { "shortDescription", "CCSDS space packet: the primary header" } });
            m_w.open("EntryList");
            for (const auto& field : kPrimaryHeader) {
                m_w.open("ParameterRefEntry", { { "parameterRef", std::string(field.name) } });
                location(true, field.bitOffset);
                m_w.close();
            }
            m_w.close();
            m_w.close();
        }
        if (m_needsBareBase) {
            m_w.open("SequenceContainer",
                { { "name", std::string(kBareBase) }, { "abstract", "true" },
                    { "shortDescription", "CCSDS space packet whose types describe the primary header themselves" } });
            m_w.leaf("EntryList");
            m_w.close();
        }
        for (const auto& p : m_plans)
            container(p);
        m_w.close();
    }

    void container(const PacketPlan& p)
    {
        const mdb::PacketDef& packet = *p.def;
        Ancillary ancillary;
        if (!packet.path.empty())
            ancillary.emplace_back(anc::kPath, packet.path);
        ancillary.emplace_back(anc::kLength, lengthText(packet));
        if (packet.byteOrder == ByteOrder::LittleEndian)
            ancillary.emplace_back(anc::kByteOrder, "LITTLE_ENDIAN");
        if (packet.secondaryHeader)
            ancillary.emplace_back(anc::kSecondaryHeader, cucText(*packet.secondaryHeader));
        if (packet.secondaryId)
            ancillary.emplace_back(anc::kSecondaryId, "the second comparison of the restriction criteria");
        m_w.open("SequenceContainer", named(p.containerName, packet.description));
        descriptionChildren(packet.longDescription, packet.name, packet.aliases, ancillary);
        if (p.leading.empty() && p.parameters.empty() && p.trailing.empty()) {
            m_w.leaf("EntryList");
        } else {
            m_w.open("EntryList");
            for (const auto& f : p.leading)
                hiddenEntry(f);
            for (std::size_t i = 0; i < p.parameters.size(); ++i) {
                const ParameterPlan& q = p.parameters[i];
                const mdb::ParameterDef& d = *q.def;
                m_w.open("ParameterRefEntry", { { "parameterRef", q.name } });
                // The first parameter placed after the previous one starts `gap` bits after bit 0: in
                // XTCE, after the header entries, so it is written from the container's start.
                const bool fromStart = d.placement == mdb::Placement::Absolute || i == 0;
                location(fromStart, d.bitOffset);
                if (!d.includeWhen.empty()) {
                    m_w.open("IncludeCondition");
                    conditions(p, d.includeWhen);
                    m_w.close();
                }
                m_w.close();
            }
            for (const auto& f : p.trailing)
                hiddenEntry(f);
            m_w.close();
        }
        m_w.open("BaseContainer", { { "containerRef", std::string(p.withHeader ? kHeaderBase : kBareBase) } });
        m_w.open("RestrictionCriteria");
        if (p.restriction.size() > 1)
            m_w.open("ComparisonList");
        for (const auto& term : p.restriction)
            comparison(term.parameterRef, false, term.op, std::to_string(term.value));
        if (p.restriction.size() > 1)
            m_w.close();
        m_w.close();
        m_w.close();
        m_w.close();
    }

    const mdb::MissionDatabase& m_db;
    XmlWriter m_w;
    std::vector<PacketPlan> m_plans;
    NameRegistry m_parameterNames;
    NameRegistry m_typeNames;
    NameRegistry m_containerNames;
    bool m_needsHeaderBase = false;
    bool m_needsBareBase = false;
};

// ---------------------------------------------------------------------------------------------------
// Reading back (applyTelestationAncillary): a minimal libxml2 view of the document Telestation wrote.

struct DocDeleter {
    void operator()(xmlDoc* doc) const { xmlFreeDoc(doc); }
};
using DocPtr = std::unique_ptr<xmlDoc, DocDeleter>;

DocPtr parseDocument(std::string_view xml, std::string_view fileName)
{
    if (xml.size() > static_cast<std::size_t>(INT32_MAX))
        return nullptr;
    const std::string name(fileName);
    return DocPtr(xmlReadMemory(xml.data(), static_cast<int>(xml.size()), name.c_str(), nullptr,
        XML_PARSE_NONET | XML_PARSE_NOERROR | XML_PARSE_NOWARNING));
}

bool isElement(const xmlNode* node, std::string_view localName)
{
    return node != nullptr && node->type == XML_ELEMENT_NODE && localName == reinterpret_cast<const char*>(node->name);
}

std::vector<const xmlNode*> children(const xmlNode* node, std::string_view localName)
{
    std::vector<const xmlNode*> out;
    if (node == nullptr)
        return out;
    for (const xmlNode* c = node->children; c != nullptr; c = c->next)
        if (isElement(c, localName))
            out.push_back(c);
    return out;
}

const xmlNode* child(const xmlNode* node, std::string_view localName)
{
    if (node == nullptr)
        return nullptr;
    for (const xmlNode* c = node->children; c != nullptr; c = c->next)
        if (isElement(c, localName))
            return c;
    return nullptr;
}

std::optional<std::string> attribute(const xmlNode* node, const char* name)
{
    if (node == nullptr)
        return std::nullopt;
    xmlChar* value = xmlGetNoNsProp(node, reinterpret_cast<const xmlChar*>(name));
    if (value == nullptr)
        return std::nullopt;
    std::string out(reinterpret_cast<const char*>(value));
    xmlFree(value);
    return out;
}

std::string attributeOr(const xmlNode* node, const char* name, std::string_view fallback = {})
{
    auto value = attribute(node, name);
    return value ? *value : std::string(fallback);
}

std::string content(const xmlNode* node)
{
    if (node == nullptr)
        return {};
    xmlChar* value = xmlNodeGetContent(node);
    if (value == nullptr)
        return {};
    std::string out(reinterpret_cast<const char*>(value));
    xmlFree(value);
    return out;
}

// AncillaryData name -> text (exactly as written), the first of each name.
std::map<std::string, std::string, std::less<>> ancillaryOf(const xmlNode* node)
{
    std::map<std::string, std::string, std::less<>> out;
    for (const xmlNode* data : children(child(node, "AncillaryDataSet"), "AncillaryData"))
        out.emplace(attributeOr(data, "name"), content(data));
    return out;
}

std::optional<std::string> findIn(const std::map<std::string, std::string, std::less<>>& map, std::string_view key)
{
    const auto it = map.find(key);
    if (it == map.end())
        return std::nullopt;
    return it->second;
}

// The Telestation name (the first alias in its name space) and the other aliases.
std::pair<std::optional<std::string>, std::vector<mdb::Alias>> aliasesOf(const xmlNode* node)
{
    std::optional<std::string> name;
    std::vector<mdb::Alias> others;
    for (const xmlNode* alias : children(child(node, "AliasSet"), "Alias")) {
        mdb::Alias a { attributeOr(alias, "nameSpace"), attributeOr(alias, "alias") };
        if (!name && a.nameSpace == kTelestationAliasNameSpace)
            name = a.alias;
        else
            others.push_back(std::move(a));
    }
    return { name, others };
}

class Restorer {
public:
    Restorer(const xmlNode* root, std::string fileName) : m_root(root), m_file(std::move(fileName)) {}

    Diagnostics run(mdb::MissionDatabase& db)
    {
        const auto rootAncillary = ancillaryOf(m_root);
        db.name = findIn(rootAncillary, anc::kMission).value_or(db.name);
        m_rootPath = "/" + attributeOr(m_root, "name");
        const xmlNode* tm = child(m_root, "TelemetryMetaData");
        for (const xmlNode* type : childElements(child(tm, "ParameterTypeSet")))
            m_types.emplace(attributeOr(type, "name"), type);
        for (const xmlNode* parameter : children(child(tm, "ParameterSet"), "Parameter"))
            m_parameters.emplace(attributeOr(parameter, "name"), parameter);
        for (const xmlNode* container : children(child(tm, "ContainerSet"), "SequenceContainer"))
            m_containers.emplace_back(attributeOr(container, "name"), container);
        for (auto& packet : db.packets)
            restorePacket(packet);
        return std::move(m_diagnostics);
    }

private:
    struct Entry {
        std::string name;              // the XTCE parameter's name
        const xmlNode* entry = nullptr;     // its ParameterRefEntry
        const xmlNode* parameter = nullptr; // its Parameter
        bool hidden = false;
    };

    static std::vector<const xmlNode*> childElements(const xmlNode* node)
    {
        std::vector<const xmlNode*> out;
        if (node == nullptr)
            return out;
        for (const xmlNode* c = node->children; c != nullptr; c = c->next)
            if (c->type == XML_ELEMENT_NODE)
                out.push_back(c);
        return out;
    }

    void warn(const std::string& message)
    {
        m_diagnostics.push_back(Diagnostic { Severity::Warning, message, SourceLocation { m_file, 0, 0 } });
    }

    const xmlNode* containerNamed(std::string_view name) const
    {
        for (const auto& [n, c] : m_containers)
            if (n == name)
                return c;
        return nullptr;
    }

    const xmlNode* containerOf(const mdb::PacketDef& packet) const
    {
        for (const auto& [name, c] : m_containers)
            if (m_rootPath + "/" + name == packet.path && attributeOr(c, "abstract", "false") != "true")
                return c;
        for (const auto& [name, c] : m_containers)
            if (aliasesOf(c).first == packet.name && attributeOr(c, "abstract", "false") != "true")
                return c;
        return nullptr;
    }

    void appendEntries(const xmlNode* container, std::vector<Entry>& out) const
    {
        for (const xmlNode* e : children(child(container, "EntryList"), "ParameterRefEntry")) {
            Entry entry;
            entry.name = attributeOr(e, "parameterRef");
            entry.entry = e;
            const auto it = m_parameters.find(entry.name);
            entry.parameter = it != m_parameters.end() ? it->second : nullptr;
            entry.hidden = findIn(ancillaryOf(entry.parameter), anc::kRole).has_value();
            out.push_back(std::move(entry));
        }
    }

    std::string modelName(const Entry& e) const { return aliasesOf(e.parameter).first.value_or(e.name); }

    void restorePacket(mdb::PacketDef& packet)
    {
        const xmlNode* container = containerOf(packet);
        if (container == nullptr) {
            warn("packet " + packet.name + ": no SequenceContainer of the document matches it; not restored");
            return;
        }
        std::vector<Entry> entries; // as the importer flattens them: the base's entries, then the container's
        const xmlNode* base = child(container, "BaseContainer");
        if (const xmlNode* parent = containerNamed(attributeOr(base, "containerRef")))
            appendEntries(parent, entries);
        appendEntries(container, entries);
        std::vector<const Entry*> visible;
        for (const auto& e : entries)
            if (!e.hidden)
                visible.push_back(&e);

        bool raw = packet.parameters.size() == entries.size();
        for (std::size_t i = 0; raw && i < entries.size(); ++i)
            raw = packet.parameters[i].path == m_rootPath + "/" + entries[i].name;
        if (!raw) {
            bool restored = packet.parameters.size() == visible.size();
            for (std::size_t i = 0; restored && i < visible.size(); ++i)
                restored = packet.parameters[i].name == modelName(*visible[i]);
            if (!restored)
                warn("packet " + packet.name + ": the imported parameters (" + std::to_string(packet.parameters.size())
                    + ") do not match the " + std::to_string(entries.size())
                    + " entries the document lays out; not restored");
            return;
        }

        std::map<std::string, const mdb::ParameterDef*, std::less<>> rawByName;
        for (std::size_t i = 0; i < entries.size(); ++i)
            rawByName.emplace(entries[i].name, &packet.parameters[i]);
        m_rename.clear();
        for (const Entry* e : visible)
            m_rename.emplace(e->name, modelName(*e));

        restorePacketFields(packet, container, rawByName);

        std::vector<mdb::ParameterDef> parameters;
        for (std::size_t i = 0; i < entries.size(); ++i) {
            if (entries[i].hidden)
                continue;
            mdb::ParameterDef p = packet.parameters[i];
            restoreParameter(p, entries[i], parameters.empty());
            parameters.push_back(std::move(p));
        }
        packet.parameters = std::move(parameters);
    }

    void restorePacketFields(mdb::PacketDef& packet, const xmlNode* container,
        const std::map<std::string, const mdb::ParameterDef*, std::less<>>& rawByName)
    {
        const auto ancillary = ancillaryOf(container);
        auto [name, aliases] = aliasesOf(container);
        packet.name = name.value_or(attributeOr(container, "name"));
        packet.aliases = std::move(aliases);
        packet.path = findIn(ancillary, anc::kPath).value_or("");
        packet.description = attributeOr(container, "shortDescription");
        packet.longDescription = content(child(container, "LongDescription"));
        const bool little = findIn(ancillary, anc::kByteOrder) == "LITTLE_ENDIAN";
        packet.byteOrder = little ? ByteOrder::LittleEndian : ByteOrder::BigEndian;
        packet.secondaryHeader.reset();
        if (auto cuc = findIn(ancillary, anc::kSecondaryHeader)) {
            packet.secondaryHeader = parseCucText(*cuc);
            if (!packet.secondaryHeader)
                warn("packet " + packet.name + ": unreadable " + std::string(anc::kSecondaryHeader) + " '" + *cuc
                    + "'");
        }
        if (auto length = findIn(ancillary, anc::kLength)) {
            std::string_view text = *length;
            if (text.starts_with("VARIABLE ")) {
                text.remove_prefix(9);
                const std::size_t blank = text.find(' ');
                auto minimum = parseUnsigned<std::uint32_t>(text.substr(0, blank));
                auto maximum = blank == std::string_view::npos ? std::nullopt
                                                               : parseUnsigned<std::uint32_t>(text.substr(blank + 1));
                if (minimum && maximum) {
                    packet.variableLength = true;
                    packet.length = *minimum;
                    packet.maxLength = *maximum;
                }
            } else if (auto fixed = parseUnsigned<std::uint32_t>(text)) {
                packet.variableLength = false;
                packet.length = *fixed;
                packet.maxLength = 0;
            }
        }

        // The restriction criteria: the APID, the secondary id when the container says so, the criteria.
        const xmlNode* restriction = child(child(container, "BaseContainer"), "RestrictionCriteria");
        std::vector<const xmlNode*> comparisons = children(restriction, "Comparison");
        for (const xmlNode* c : children(child(restriction, "ComparisonList"), "Comparison"))
            comparisons.push_back(c);
        const bool hasSecondaryId = findIn(ancillary, anc::kSecondaryId).has_value();
        packet.secondaryId.reset();
        packet.criteria.clear();
        for (std::size_t k = 0; k < comparisons.size(); ++k) {
            const auto field = rawByName.find(attributeOr(comparisons[k], "parameterRef"));
            auto value = parseUnsigned<std::uint64_t>(attributeOr(comparisons[k], "value"));
            auto op = parseOp(attributeOr(comparisons[k], "comparisonOperator", "=="));
            if (field == rawByName.end() || !value || !op) {
                warn("packet " + packet.name + ": restriction criterion " + std::to_string(k + 1)
                    + " is not one Telestation wrote");
                continue;
            }
            const mdb::ParameterDef& f = *field->second;
            if (k == 0)
                packet.apid = static_cast<std::uint16_t>(*value);
            else if (k == 1 && hasSecondaryId)
                packet.secondaryId = mdb::SecondaryId { f.bitOffset, f.bitLength, *value };
            else
                packet.criteria.push_back(mdb::FieldCriterion { f.bitOffset, f.bitLength, *op, *value });
        }
    }

    std::string renamed(const std::string& xtceName) const
    {
        const auto it = m_rename.find(xtceName);
        return it != m_rename.end() ? it->second : xtceName;
    }

    std::vector<mdb::Condition> conditionsOf(const xmlNode* holder) const
    {
        std::vector<const xmlNode*> comparisons = children(holder, "Comparison");
        for (const xmlNode* c : children(child(holder, "ComparisonList"), "Comparison"))
            comparisons.push_back(c);
        std::vector<mdb::Condition> out;
        for (const xmlNode* c : comparisons) {
            mdb::Condition condition;
            condition.parameter = renamed(attributeOr(c, "parameterRef"));
            condition.op = parseOp(attributeOr(c, "comparisonOperator", "==")).value_or(CompareOp::Equal);
            condition.value = parseDouble(attributeOr(c, "value")).value_or(0.0);
            const std::string calibrated = attributeOr(c, "useCalibratedValue", "true");
            condition.calibrated = calibrated == "true" || calibrated == "1";
            out.push_back(std::move(condition));
        }
        return out;
    }

    static std::optional<mdb::Calibrator> calibratorOf(const xmlNode* holder)
    {
        if (holder == nullptr)
            return std::nullopt;
        if (auto time = findIn(ancillaryOf(holder), anc::kTime))
            if (auto parsed = parseTimeText(*time))
                return *parsed;
        if (const xmlNode* poly = child(holder, "PolynomialCalibrator")) {
            mdb::PolynomialCalibrator out;
            for (const xmlNode* term : children(poly, "Term")) {
                auto power = parseUnsigned<std::size_t>(attributeOr(term, "exponent"));
                auto coefficient = parseDouble(attributeOr(term, "coefficient"));
                if (!power || !coefficient || *power > 64)
                    return std::nullopt;
                if (out.coefficients.size() <= *power)
                    out.coefficients.resize(*power + 1, 0.0);
                out.coefficients[*power] = *coefficient;
            }
            return out;
        }
        if (const xmlNode* spline = child(holder, "SplineCalibrator")) {
            mdb::PointPairCalibrator out;
            for (const xmlNode* point : children(spline, "SplinePoint")) {
                auto raw = parseDouble(attributeOr(point, "raw"));
                auto calibrated = parseDouble(attributeOr(point, "calibrated"));
                if (!raw || !calibrated)
                    return std::nullopt;
                out.points.push_back(mdb::PointPair { *raw, *calibrated });
            }
            return out;
        }
        return std::nullopt;
    }

    static const xmlNode* numericEncodingOf(const xmlNode* type)
    {
        const xmlNode* holder = isElement(type, "AbsoluteTimeParameterType") ? child(type, "Encoding") : type;
        if (const xmlNode* e = child(holder, "IntegerDataEncoding"))
            return e;
        return child(holder, "FloatDataEncoding");
    }

    void restoreParameter(mdb::ParameterDef& p, const Entry& e, bool first) const
    {
        const xmlNode* parameter = e.parameter;
        const auto ancillary = ancillaryOf(parameter);
        auto [name, aliases] = aliasesOf(parameter);
        p.name = name.value_or(e.name);
        p.aliases = std::move(aliases);
        p.path = findIn(ancillary, anc::kPath).value_or("");
        p.description = attributeOr(parameter, "shortDescription");
        p.longDescription = content(child(parameter, "LongDescription"));
        p.overlapAllowed = findIn(ancillary, anc::kOverlapAllowed) == "true";
        p.byteOrder.reset();
        if (auto order = findIn(ancillary, anc::kByteOrder))
            p.byteOrder = *order == "LITTLE_ENDIAN" ? ByteOrder::LittleEndian : ByteOrder::BigEndian;

        if (const xmlNode* location = child(e.entry, "LocationInContainerInBits")) {
            const bool fromStart = attributeOr(location, "referenceLocation", "previousEntry") == "containerStart";
            const bool afterPrevious = !fromStart || (first && findIn(ancillary, anc::kPlacement) == "AFTER_PREVIOUS");
            p.placement = afterPrevious ? mdb::Placement::AfterPrevious : mdb::Placement::Absolute;
            if (auto bits = parseUnsigned<std::uint32_t>(content(child(location, "FixedValue"))))
                p.bitOffset = *bits;
        }
        p.includeWhen = conditionsOf(child(e.entry, "IncludeCondition"));
        if (!p.size.sizeParameter.empty())
            p.size.sizeParameter = renamed(p.size.sizeParameter);
        if (auto maxBytes = findIn(ancillary, anc::kMaxBytes))
            p.size.maxBytes = parseUnsigned<std::uint32_t>(*maxBytes).value_or(p.size.maxBytes);

        const auto typeIt = m_types.find(attributeOr(parameter, "parameterTypeRef"));
        const xmlNode* type = typeIt != m_types.end() ? typeIt->second : nullptr;
        if (auto units = findIn(ancillary, anc::kUnits))
            p.units = *units;
        else if (const xmlNode* unit = child(child(type, "UnitSet"), "Unit"))
            p.units = content(unit);

        // Calibrators: the default one as written (every term, zeros included), a time kept in
        // AncillaryData, an absolute time's exact epoch, and the contexts.
        const xmlNode* encoding = numericEncodingOf(type);
        if (auto time = findIn(ancillary, anc::kTime)) {
            if (auto parsed = parseTimeText(*time))
                p.calibrator = *parsed;
        } else if (auto calibrator = calibratorOf(child(encoding, "DefaultCalibrator"))) {
            p.calibrator = std::move(*calibrator);
        }
        if (auto epoch = findIn(ancillary, anc::kEpoch))
            if (auto* time = std::get_if<mdb::TimeCalibrator>(&p.calibrator))
                time->epochUnixSeconds = parseDouble(*epoch).value_or(time->epochUnixSeconds);
        p.contextCalibrators.clear();
        for (const xmlNode* context : children(child(encoding, "ContextCalibratorList"), "ContextCalibrator")) {
            auto calibrator = calibratorOf(child(context, "Calibrator"));
            if (calibrator)
                p.contextCalibrators.push_back(
                    mdb::ContextCalibration { conditionsOf(child(context, "ContextMatch")), std::move(*calibrator) });
        }

        // Limits: the ranges as written (XTCE readers need not read "INF"), expected states in the
        // order written, and whether they are enabled.
        if (auto* numeric = std::get_if<mdb::NumericLimits>(&p.limits)) {
            const xmlNode* ranges = child(child(type, "DefaultAlarm"), "StaticAlarmRanges");
            const xmlNode* yellow = child(ranges, "WarningRange");
            const xmlNode* red = child(ranges, "CriticalRange");
            const auto bound = [](const xmlNode* range, const char* side, double open) {
                return parseDouble(attributeOr(range, side)).value_or(open);
            };
            numeric->yellowLow = bound(yellow, "minInclusive", -HUGE_VAL);
            numeric->yellowHigh = bound(yellow, "maxInclusive", HUGE_VAL);
            numeric->redLow = bound(red, "minInclusive", -HUGE_VAL);
            numeric->redHigh = bound(red, "maxInclusive", HUGE_VAL);
        }
        if (auto* states = std::get_if<mdb::StateLimits>(&p.limits)) {
            states->expectedStates.clear();
            const xmlNode* list = child(child(type, "DefaultAlarm"), "EnumerationAlarmList");
            for (const xmlNode* alarm : children(list, "EnumerationAlarm"))
                if (attributeOr(alarm, "alarmLevel") == "normal")
                    states->expectedStates.push_back(attributeOr(alarm, "enumerationLabel"));
        }
        const bool enabled = findIn(ancillary, anc::kLimits) != "disabled";
        std::visit(
            [enabled](auto& l) {
                using L = std::decay_t<decltype(l)>;
                if constexpr (!std::is_same_v<L, std::monostate>)
                    l.enabled = enabled;
            },
            p.limits);
    }

    const xmlNode* m_root;
    std::string m_file;
    std::string m_rootPath;
    std::map<std::string, const xmlNode*, std::less<>> m_types;
    std::map<std::string, const xmlNode*, std::less<>> m_parameters;
    std::vector<std::pair<std::string, const xmlNode*>> m_containers;
    std::map<std::string, std::string, std::less<>> m_rename; // XTCE name -> Telestation name, in the packet at hand
    Diagnostics m_diagnostics;
};

const xmlNode* telestationRoot(const xmlDoc* doc)
{
    const xmlNode* root = doc == nullptr ? nullptr : xmlDocGetRootElement(doc);
    if (!isElement(root, "SpaceSystem") || !findIn(ancillaryOf(root), anc::kFormat))
        return nullptr;
    return root;
}

} // namespace

std::string writeXtce(const mdb::MissionDatabase& db)
{
    return Exporter(db).run();
}

Status writeXtceFile(const mdb::MissionDatabase& db, const std::string& path)
{
    const std::string xml = writeXtce(db);
    std::ofstream out(path, std::ios::binary | std::ios::trunc);
    if (!out)
        return Error { "cannot open the file for writing", SourceLocation { path, 0, 0 } };
    out.write(xml.data(), static_cast<std::streamsize>(xml.size()));
    out.close();
    if (!out)
        return Error { "cannot write the file", SourceLocation { path, 0, 0 } };
    return {};
}

bool isTelestationXtce(std::string_view xml)
{
    const DocPtr doc = parseDocument(xml, "<string>");
    return telestationRoot(doc.get()) != nullptr;
}

Diagnostics applyTelestationAncillary(std::string_view xml, mdb::MissionDatabase& imported, std::string_view fileName)
{
    const DocPtr doc = parseDocument(xml, fileName);
    const xmlNode* root = telestationRoot(doc.get());
    if (root == nullptr)
        return {};
    return Restorer(root, std::string(fileName)).run(imported);
}

} // namespace telestation::xtce
