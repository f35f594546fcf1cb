#include "core/xtce/packet_builder.hpp"

#include "core/xtce/time_instant.hpp"
#include "core/xtce/xml_numbers.hpp"

#include <algorithm>
#include <cmath>
#include <map>

namespace telestation::xtce {

using mdb::CompareOp;

struct PacketBuilder::Field {
    LayoutEntry::Kind kind = LayoutEntry::Kind::Parameter;
    const LayoutEntry* entry = nullptr;
    Definition parameter;
    std::shared_ptr<const FieldType> type; // keeps `scalar` alive
    const ScalarType* scalar = nullptr;
    std::string suffix;
    bool firstOfEntry = false;
    std::vector<Comparison> includeWhen; // the entry's and those of the ContainerRefEntries around it
    std::string name;
    bool placed = false; // imported into the packet
    bool fixedPlace = false; // at an absolute offset, of fixed size, always present
    std::uint32_t bitOffset = 0;
};

namespace {

std::vector<mdb::Alias> aliasesOf(const XmlElement& element)
{
    std::vector<mdb::Alias> out;
    for (const auto& alias : element.child("AliasSet").children("Alias"))
        out.push_back(mdb::Alias { alias.attributeOr("nameSpace", ""), alias.attributeOr("alias", "") });
    return out;
}

std::uint32_t minimumBits(const ScalarType& s)
{
    switch (s.size.kind) {
    case mdb::SizeKind::Fixed:
        return s.bitLength;
    case mdb::SizeKind::LeadingSize:
        return s.size.leadingSizeBits;
    case mdb::SizeKind::FromParameter:
    case mdb::SizeKind::Terminated:
        return 0;
    }
    return 0;
}

// A comparison value as the model holds it: `real` for a condition (mdb::Condition::value is a
// double), `integer`, exact, for a criterion on raw bits (mdb::FieldCriterion::value is 64 bits: a
// double would lose the low bits of values above 2^53).
struct Term {
    CompareOp op = CompareOp::Equal;
    double real = 0;
    std::optional<WrittenInteger> integer; // set when the value is an integer
};

WrittenInteger exactly(std::int64_t value)
{
    const bool negative = value < 0;
    const auto bits = static_cast<std::uint64_t>(value);
    return WrittenInteger { negative, negative ? 0 - bits : bits };
}

Term termOf(CompareOp op, std::int64_t value)
{
    return Term { op, static_cast<double>(value), exactly(value) };
}

// The value of a plain number: an integer exactly as written, else a finite xs:double (an integral
// double such as "5.0" or "1e3" also counts as that integer).
std::optional<Term> numberTerm(CompareOp op, std::string_view text)
{
    if (auto integer = parseWrittenInteger(text)) {
        const auto magnitude = static_cast<double>(integer->magnitude);
        return Term { op, integer->negative ? -magnitude : magnitude, integer };
    }
    auto real = parseReal(text);
    if (!real)
        return std::nullopt;
    Term out { op, *real, std::nullopt };
    const double magnitude = std::fabs(*real);
    if (magnitude == std::floor(magnitude) && magnitude < 0x1p64)
        out.integer = WrittenInteger { *real < 0, static_cast<std::uint64_t>(magnitude) };
    return out;
}

// The raw bits of an integer in a field of that encoding and size; nullopt when it does not fit.
std::optional<std::uint64_t> rawBits(const WrittenInteger& value, mdb::DataType type, std::uint32_t bits)
{
    if (bits == 0 || bits > 64)
        return std::nullopt;
    const std::uint64_t mask = bits == 64 ? ~std::uint64_t { 0 } : (std::uint64_t { 1 } << bits) - 1;
    if (type == mdb::DataType::UnsignedInt)
        return !value.negative && value.magnitude <= mask ? std::optional(value.magnitude) : std::nullopt;
    // Signed: two's complement holds -2^(bits-1) .. 2^(bits-1)-1; sign-magnitude and ones' complement
    // hold one negative value less (their -2^(bits-1) would be a second zero).
    const std::uint64_t half = std::uint64_t { 1 } << (bits - 1);
    if (!value.negative)
        return value.magnitude < half ? std::optional(value.magnitude) : std::nullopt;
    switch (type) {
    case mdb::DataType::SignedInt:
        return value.magnitude <= half ? std::optional((~value.magnitude + 1) & mask) : std::nullopt;
    case mdb::DataType::OnesComplementInt:
        return value.magnitude < half ? std::optional(~value.magnitude & mask) : std::nullopt;
    case mdb::DataType::SignMagnitudeInt:
        return value.magnitude < half ? std::optional(half | value.magnitude) : std::nullopt;
    case mdb::DataType::UnsignedInt:
    case mdb::DataType::Float:
    case mdb::DataType::String:
    case mdb::DataType::Bytes:
        break;
    }
    return std::nullopt;
}

// "parameter OP value" as comparisons on the number the model compares; an enumeration label with a
// range of codes becomes two comparisons. Empty with `why` set when it cannot be expressed.
struct Terms {
    std::vector<Term> terms;
    bool calibrated = false;
    std::string why;
    bool isError = false;
};

Terms termsOf(const Comparison& c, const ScalarType& s, const std::string& parameterPath)
{
    Terms out;
    if (!mdb::isInteger(s.type) && s.type != mdb::DataType::Float) {
        out.why = "a comparison on " + parameterPath + ", which is not a number, is not supported";
        return out;
    }
    const auto* enumeration = std::get_if<mdb::EnumerationCalibrator>(&s.calibrator);
    if (c.useCalibratedValue && enumeration != nullptr) {
        const auto state = std::find_if(enumeration->states.begin(), enumeration->states.end(),
            [&](const mdb::State& st) { return st.text == c.value; });
        if (state == enumeration->states.end()) {
            out.why = "'" + c.value + "' is not a label of the enumeration of " + parameterPath;
            out.isError = true;
            return out;
        }
        const std::int64_t low = state->low;
        const std::int64_t high = state->high;
        switch (c.op) {
        case CompareOp::Equal:
            if (low == high)
                out.terms = { termOf(CompareOp::Equal, low) };
            else
                out.terms = { termOf(CompareOp::GreaterOrEqual, low), termOf(CompareOp::LessOrEqual, high) };
            break;
        case CompareOp::NotEqual:
            if (low != high) {
                out.why = "'!= " + c.value + "' on a label that stands for a range of codes is not supported";
                return out;
            }
            out.terms = { termOf(CompareOp::NotEqual, low) };
            break;
        case CompareOp::Less:
            out.terms = { termOf(CompareOp::Less, low) };
            break;
        case CompareOp::LessOrEqual:
            out.terms = { termOf(CompareOp::LessOrEqual, high) };
            break;
        case CompareOp::Greater:
            out.terms = { termOf(CompareOp::Greater, high) };
            break;
        case CompareOp::GreaterOrEqual:
            out.terms = { termOf(CompareOp::GreaterOrEqual, low) };
            break;
        }
        return out;
    }
    if (c.useCalibratedValue && std::holds_alternative<mdb::TimeCalibrator>(s.calibrator)) {
        // The calibrated value of a time: an xs:dateTime (or an epoch name), or seconds since 1970.
        auto instant = parseReal(c.value);
        if (!instant)
            instant = parseTimeInstant(c.value);
        if (!instant) {
            out.why = "comparison value '" + c.value + "' for the time " + parameterPath
                + " is neither a date and time nor a number of seconds";
            out.isError = true;
            return out;
        }
        out.calibrated = true;
        out.terms = { Term { c.op, *instant, std::nullopt } };
        return out;
    }
    if (c.useCalibratedValue && !std::holds_alternative<std::monostate>(s.calibrator) && enumeration == nullptr)
        out.calibrated = true;
    auto term = numberTerm(c.op, c.value);
    if (!term) {
        out.why = "comparison value '" + c.value + "' for " + parameterPath + " is not a number";
        out.isError = true;
        return out;
    }
    out.terms = { *term };
    return out;
}

} // namespace

PacketBuilder::Field PacketBuilder::marker(const LayoutEntry& entry)
{
    Field f;
    f.kind = entry.kind;
    f.entry = &entry;
    return f;
}

const PacketBuilder::Field* PacketBuilder::latestBefore(
    const std::vector<Field>& fields, std::size_t before, const std::string& path) const
{
    for (std::size_t i = std::min(before, fields.size()); i > 0; --i) {
        const Field& f = fields[i - 1];
        if (f.kind == LayoutEntry::Kind::Parameter && f.parameter.path == path)
            return &f;
    }
    return nullptr;
}

PacketBuilder::Outcome PacketBuilder::build(const Definition& container, const ContainerLayout& layout)
{
    std::vector<Field> fields;
    mdb::PacketDef packet;
    m_noApid = false;
    const bool built = expand(container, layout, fields) && (name(fields), place(container, fields, packet))
        && criteria(container, layout, fields, packet);
    if (!built) {
        if (m_noApid)
            return Outcome { std::nullopt, true };
        m_report.unsupported(container.element, container.path, "the container is not imported as a packet");
        return {};
    }
    packet.name = container.element.attributeOr("name", "");
    packet.path = container.path;
    packet.description = container.element.attributeOr("shortDescription", "");
    packet.longDescription = container.element.child("LongDescription").text();
    packet.aliases = aliasesOf(container.element);
    packet.byteOrder = mdb::ByteOrder::BigEndian;
    packet.variableLength = true;
    packet.maxLength = kMaxPacketBytes;
    for (const auto& f : fields)
        if (f.kind == LayoutEntry::Kind::Parameter)
            m_used.insert(f.parameter.path);
    return Outcome { std::move(packet), false };
}

bool PacketBuilder::expand(const Definition& container, const ContainerLayout& layout, std::vector<Field>& fields)
{
    std::vector<std::vector<Comparison>> enclosing;
    for (const auto& entry : layout.entries) {
        if (entry.kind == LayoutEntry::Kind::BeginContainer) {
            enclosing.push_back(entry.includeWhen);
            fields.push_back(marker(entry));
            continue;
        }
        if (entry.kind == LayoutEntry::Kind::EndContainer) {
            if (!enclosing.empty())
                enclosing.pop_back();
            fields.push_back(marker(entry));
            continue;
        }
        const Definition& parameter = entry.parameter;
        for (const auto& child : parameter.element.children()) {
            const auto name = child.localName();
            if (name != "LongDescription" && name != "AliasSet" && name != "AncillaryDataSet"
                && name != "ParameterProperties")
                m_report.unsupported(
                    child, parameter.path, std::string(name) + " in a Parameter is not supported; ignored");
        }
        auto typeDef
            = m_tree.resolveOrReport(NameKind::ParameterType, parameter.element.attributeOr("parameterTypeRef", ""),
                *parameter.system, parameter.element, parameter.path, m_report);
        if (!typeDef)
            return false;
        auto type = m_types.convert(*typeDef);
        if (!type)
            return false;
        if (fields.size() + type->scalarCount > kMaxMembers) {
            m_report.error(entry.at, container.path,
                "the packet has more than " + std::to_string(kMaxMembers) + " fields; refused as absurd");
            return false;
        }
        std::vector<FlatScalar> scalars;
        flattenFieldType(*type, "", scalars);
        std::vector<Comparison> includeWhen;
        for (const auto& outer : enclosing)
            includeWhen.insert(includeWhen.end(), outer.begin(), outer.end());
        includeWhen.insert(includeWhen.end(), entry.includeWhen.begin(), entry.includeWhen.end());
        for (std::size_t i = 0; i < scalars.size(); ++i) {
            Field f;
            f.kind = LayoutEntry::Kind::Parameter;
            f.entry = &entry;
            f.parameter = parameter;
            f.type = type;
            f.scalar = scalars[i].scalar;
            f.suffix = scalars[i].suffix;
            f.firstOfEntry = i == 0;
            f.includeWhen = includeWhen;
            fields.push_back(std::move(f));
        }
    }
    return true;
}

// A parameter's short name when no other parameter of the packet has it, else its path; the same
// parameter twice in a packet gets "#2", "#3", ... after its later occurrences.
void PacketBuilder::name(std::vector<Field>& fields)
{
    std::map<std::string, std::set<std::string>> pathsByShortName;
    for (const auto& f : fields)
        if (f.kind == LayoutEntry::Kind::Parameter)
            pathsByShortName[f.parameter.element.attributeOr("name", "")].insert(f.parameter.path);
    std::map<std::string, int> seen;
    for (auto& f : fields) {
        if (f.kind != LayoutEntry::Kind::Parameter)
            continue;
        const std::string shortName = f.parameter.element.attributeOr("name", "");
        const std::string base = pathsByShortName[shortName].size() == 1 ? shortName : f.parameter.path;
        const int n = ++seen[base + f.suffix];
        f.name = base + f.suffix + (n > 1 ? "#" + std::to_string(n) : "");
    }
}

bool PacketBuilder::place(const Definition& container, std::vector<Field>& fields, mdb::PacketDef& packet)
{
    constexpr std::int64_t kMaxBits = std::int64_t { kMaxPacketBytes } * 8;
    bool fixed = true; // every field so far at a known absolute place
    std::int64_t next = 0; // fixed layout: where a field placed after the previous one starts
    std::int64_t gap = 0; // variable layout: bits to skip after the previous imported field
    std::int64_t minEnd = 0; // where the previous field ends in the shortest packet
    std::int64_t longest = 0; // the largest such end
    std::int64_t absoluteEnd = 0; // the end of the fields at absolute places, for intended overlaps
    std::vector<std::optional<std::int64_t>> anchors { 0 }; // container starts, for containerStart

    const auto fail = [&](const XmlElement& at, const std::string& why) {
        m_report.unsupported(at, container.path, why);
        return false;
    };

    for (std::size_t i = 0; i < fields.size(); ++i) {
        Field& f = fields[i];
        const LayoutEntry& entry = *f.entry;
        if (f.kind == LayoutEntry::Kind::EndContainer) {
            anchors.pop_back();
            continue;
        }
        const std::optional<EntryLocation> location
            = f.kind == LayoutEntry::Kind::BeginContainer || f.firstOfEntry ? entry.location : std::nullopt;
        const bool fromStart = location && location->fromContainerStart;
        const std::int64_t offset = location ? location->bits : 0;
        std::optional<std::int64_t> start; // absolute start, when known
        if (fromStart) {
            if (!anchors.back())
                return fail(entry.at,
                    "a location from the start of a container that begins after a variable-size field is not "
                    "supported");
            start = *anchors.back() + offset;
        } else if (fixed) {
            start = next + offset;
        }
        if (start && (*start < 0 || *start > kMaxBits))
            return fail(entry.at, "the entry's location " + std::to_string(*start) + " is outside the largest packet");

        if (f.kind == LayoutEntry::Kind::BeginContainer) {
            if (fromStart && !fixed)
                return fail(entry.at,
                    "a ContainerRefEntry located from the container start after a variable-size field is not "
                    "supported");
            if (!start && offset < 0)
                return fail(entry.at, "a negative location after a variable-size field is not supported");
            anchors.push_back(start);
            if (start)
                next = *start;
            else {
                gap += offset;
                minEnd += offset;
            }
            if (!entry.includeWhen.empty() && fixed) {
                // Its entries are conditional; the layout after them is variable.
                fixed = false;
                gap = 0;
            }
            continue;
        }

        const ScalarType& s = *f.scalar;
        const bool conditional = !f.includeWhen.empty();
        const std::string fieldName = f.parameter.path + f.suffix;
        if (!start && offset + gap < 0)
            return fail(entry.at, "a negative location after a variable-size field is not supported");
        if (!s.imported) {
            // An encoding the model lacks: the field keeps its place, as a gap before the next one.
            if (conditional || !s.fixedSize() || (start && !fixed))
                return fail(
                    entry.at, fieldName + " is not imported, and the fields after it cannot be placed without it");
            if (start) {
                next = *start + s.bitLength;
                minEnd = next;
                absoluteEnd = std::max(absoluteEnd, next);
            } else {
                gap += offset + s.bitLength;
                minEnd += offset + s.bitLength;
            }
            longest = std::max(longest, minEnd);
            continue;
        }

        mdb::ParameterDef p;
        p.name = f.name;
        p.type = s.type;
        p.bitLength = s.fixedSize() ? s.bitLength : 0;
        p.size = s.size;
        p.byteOrder = s.byteOrder;
        p.units = s.units;
        p.description = f.parameter.element.attributeOr("shortDescription", "");
        p.longDescription = f.parameter.element.child("LongDescription").text();
        p.path = fieldName;
        p.aliases = aliasesOf(f.parameter.element);
        p.calibrator = s.calibrator;
        p.limits = s.limits;
        if (start) {
            p.placement = mdb::Placement::Absolute;
            p.bitOffset = static_cast<std::uint32_t>(*start);
            p.overlapAllowed = *start < absoluteEnd; // placed there on purpose by the XTCE author
        } else {
            p.placement = mdb::Placement::AfterPrevious;
            p.bitOffset = static_cast<std::uint32_t>(gap + offset);
        }
        if (start && s.fixedSize() && *start + s.bitLength > kMaxBits)
            return fail(
                entry.at, fieldName + " ends past the largest packet (" + std::to_string(kMaxPacketBytes) + " bytes)");

        if (conditional) {
            auto when = conditions(f.includeWhen, fields, i, container.path + ": " + fieldName);
            if (!when)
                return false;
            p.includeWhen = std::move(*when);
        }
        if (s.sizeFrom) {
            const auto& ref = *s.sizeFrom;
            auto def = m_tree.resolveOrReport(
                NameKind::Parameter, ref.parameterRef, *ref.system, ref.at, s.typePath, m_report);
            if (!def)
                return false;
            const Field* sizer = latestBefore(fields, i, def->path);
            if (sizer == nullptr || !sizer->placed || !mdb::isInteger(sizer->scalar->type))
                return fail(ref.at,
                    fieldName + ": its size parameter " + def->path
                        + " must be an integer parameter that comes before it in the packet");
            p.size.sizeParameter = sizer->name;
        }
        for (const auto& context : s.contexts) {
            auto when = conditions(context.when, fields, i, container.path + ": context calibrator of " + fieldName);
            if (when)
                p.contextCalibrators.push_back(mdb::ContextCalibration { std::move(*when), context.calibrator });
        }

        // Where the next field goes.
        const std::int64_t minBits = minimumBits(s);
        if (start) {
            const bool staysFixed = fixed && s.fixedSize() && !conditional;
            if (!conditional)
                minEnd = *start + minBits;
            if (staysFixed)
                next = *start + s.bitLength;
            fixed = staysFixed;
            f.fixedPlace = s.fixedSize() && !conditional;
            if (f.fixedPlace)
                absoluteEnd = std::max(absoluteEnd, *start + static_cast<std::int64_t>(s.bitLength));
        } else if (!conditional) {
            minEnd += offset + minBits;
        }
        gap = 0;
        longest = std::max(longest, minEnd);
        f.placed = true;
        f.bitOffset = p.bitOffset;
        packet.parameters.push_back(std::move(p));
    }
    packet.length = static_cast<std::uint32_t>(std::max<std::int64_t>(7, (longest + 7) / 8));
    return true;
}

std::optional<std::vector<mdb::Condition>> PacketBuilder::conditions(const std::vector<Comparison>& comparisons,
    const std::vector<Field>& fields, std::size_t before, std::string_view ownerPath)
{
    std::vector<mdb::Condition> out;
    for (const auto& c : comparisons) {
        auto def = m_tree.resolveOrReport(NameKind::Parameter, c.parameterRef, *c.system, c.at, ownerPath, m_report);
        if (!def)
            return std::nullopt;
        const Field* f = latestBefore(fields, before, def->path);
        if (f == nullptr || !f->placed || !f->suffix.empty()) {
            m_report.unsupported(c.at, ownerPath,
                "a condition on " + def->path
                    + ", which is not a scalar parameter before it in the packet, is not supported");
            return std::nullopt;
        }
        Terms terms = termsOf(c, *f->scalar, def->path);
        if (!terms.why.empty()) {
            if (terms.isError)
                m_report.error(c.at, ownerPath, terms.why);
            else
                m_report.unsupported(c.at, ownerPath, terms.why);
            return std::nullopt;
        }
        for (const auto& term : terms.terms)
            out.push_back(mdb::Condition { f->name, term.op, term.real, terms.calibrated });
    }
    return out;
}

bool PacketBuilder::criteria(const Definition& container, const ContainerLayout& layout,
    const std::vector<Field>& fields, mdb::PacketDef& packet)
{
    std::optional<std::uint64_t> apid;
    for (const auto& c : layout.criteria) {
        auto def
            = m_tree.resolveOrReport(NameKind::Parameter, c.parameterRef, *c.system, c.at, container.path, m_report);
        if (!def)
            return false;
        const Field* f = nullptr;
        for (const auto& candidate : fields)
            if (candidate.kind == LayoutEntry::Kind::Parameter && candidate.parameter.path == def->path
                && candidate.placed) {
                f = &candidate;
                break;
            }
        if (f == nullptr || !f->fixedPlace || !f->suffix.empty()) {
            m_report.unsupported(c.at, container.path,
                "a restriction criterion on " + def->path
                    + ", which is not a scalar parameter at a fixed place of the packet, is not supported");
            return false;
        }
        const ScalarType& s = *f->scalar;
        Terms terms = termsOf(c, s, def->path);
        if (terms.why.empty() && (!mdb::isInteger(s.type) || terms.calibrated))
            terms.why = "a restriction criterion on the "
                + std::string(mdb::isInteger(s.type) ? "calibrated value" : "float value") + " of " + def->path
                + " is not supported";
        if (!terms.why.empty()) {
            if (terms.isError)
                m_report.error(c.at, container.path, terms.why);
            else
                m_report.unsupported(c.at, container.path, terms.why);
            return false;
        }
        const std::uint32_t bits = s.bitLength;
        for (const Term& term : terms.terms) {
            const CompareOp op = term.op;
            const std::optional<std::uint64_t> fitted
                = term.integer ? rawBits(*term.integer, s.type, bits) : std::nullopt;
            if (!fitted) {
                m_report.error(c.at, container.path,
                    "restriction criterion value '" + c.value + "' does not fit the " + std::to_string(bits)
                        + "-bit field " + def->path);
                return false;
            }
            if (mdb::isSignedInteger(s.type) && op != CompareOp::Equal && op != CompareOp::NotEqual
                && (term.integer->negative || s.type != mdb::DataType::SignedInt)) {
                m_report.unsupported(c.at, container.path,
                    "an ordering restriction criterion on the signed field " + def->path + " is not supported");
                return false;
            }
            const std::uint64_t raw = *fitted;
            if (f->bitOffset == kApidBitOffset && bits == kApidBitLength && op == CompareOp::Equal) {
                if (apid && *apid != raw) {
                    m_report.error(c.at, container.path,
                        "two different APIDs in the restriction criteria: " + std::to_string(*apid) + " and "
                            + std::to_string(raw));
                    return false;
                }
                apid = raw;
                continue;
            }
            packet.criteria.push_back(mdb::FieldCriterion { f->bitOffset, bits, op, raw });
        }
    }
    if (!apid) {
        m_noApid = true;
        return false;
    }
    packet.apid = static_cast<std::uint16_t>(*apid);
    return true;
}

} // namespace telestation::xtce
