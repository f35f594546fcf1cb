#include "core/xtce/parameter_types.hpp"

#include "core/xtce/alarms.hpp"
#include "core/xtce/calibrators.hpp"
#include "core/xtce/data_encodings.hpp"
#include "core/xtce/time_instant.hpp"
#include "core/xtce/xml_numbers.hpp"

#include <algorithm>
#include <cstdint>
#include <limits>

namespace telestation::xtce {

using mdb::DataType;

namespace {

bool endsWith(std::string_view s, std::string_view suffix)
{
    return s.size() >= suffix.size() && s.substr(s.size() - suffix.size()) == suffix;
}

// Children of a parameter type that change nothing in decoded values (documented in docs/xtce.md).
bool ignoredChild(std::string_view name)
{
    return name == "LongDescription" || name == "AliasSet" || name == "AncillaryDataSet" || name == "UnitSet"
        || name == "ValidRange" || name == "ValidRangeSet" || name == "ToString" || name == "SizeRangeInCharacters";
}

std::optional<double> secondsPerUnit(std::string_view units)
{
    if (units == "seconds")
        return 1.0;
    if (units == "milliSeconds")
        return 1e-3;
    if (units == "microSeconds")
        return 1e-6;
    if (units == "nanoSeconds")
        return 1e-9;
    if (units == "picoSeconds")
        return 1e-12;
    if (units == "minutes")
        return 60.0;
    if (units == "hours")
        return 3600.0;
    if (units == "days")
        return 86400.0;
    return std::nullopt;
}

std::string withArticle(std::string_view word)
{
    const bool vowel = !word.empty() && std::string_view("AEIOU").find(word.front()) != std::string_view::npos;
    return (vowel ? "an " : "a ") + std::string(word);
}

std::int64_t largestCode(std::uint32_t bits)
{
    return bits >= 63 ? std::numeric_limits<std::int64_t>::max() : (std::int64_t { 1 } << bits) - 1;
}

std::string unitsOf(const XmlElement& type)
{
    std::string out;
    for (const auto& unit : type.child("UnitSet").children("Unit")) {
        const std::string text = unit.text();
        if (text.empty())
            continue;
        if (!out.empty())
            out += ' ';
        out += text;
    }
    return out;
}

} // namespace

std::shared_ptr<const FieldType> TypeConverter::convert(const Definition& type)
{
    if (auto it = m_cache.find(type.path); it != m_cache.end())
        return it->second;
    if (m_inProgress.size() > 64) {
        m_report.error(
            type.element, type.path, "array and aggregate types nested more than 64 deep; refused as absurd");
        return nullptr;
    }
    if (m_inProgress.contains(type.path)) {
        m_report.error(
            type.element, type.path, "the parameter type contains itself (a cycle of array or aggregate types)");
        return nullptr;
    }
    m_inProgress.insert(type.path);
    auto converted = convertUncached(type);
    m_inProgress.erase(type.path);
    m_cache[type.path] = converted;
    return converted;
}

std::shared_ptr<const FieldType> TypeConverter::convertUncached(const Definition& type)
{
    const auto kind = type.element.localName();
    if (type.element.attribute("baseType")) {
        m_report.unsupported(type.element, type.path, "baseType (a type derived from another) is not supported");
        return nullptr;
    }
    if (kind == "ArrayParameterType")
        return array(type);
    if (kind == "AggregateParameterType")
        return aggregate(type);
    if (kind == "IntegerParameterType" || kind == "FloatParameterType" || kind == "EnumeratedParameterType"
        || kind == "BooleanParameterType" || kind == "StringParameterType" || kind == "BinaryParameterType"
        || kind == "AbsoluteTimeParameterType")
        return scalar(type);
    m_report.unsupported(type.element, type.path, std::string(kind) + " is not supported");
    return nullptr;
}

void TypeConverter::reportUnknownChildren(const Definition& type)
{
    for (const auto& child : type.element.children()) {
        const auto name = child.localName();
        if (ignoredChild(name) || endsWith(name, "DataEncoding") || name == "DefaultAlarm" || name == "EnumerationList"
            || name == "Encoding" || name == "ReferenceTime" || name == "DimensionList" || name == "MemberList")
            continue;
        if (name == "ContextAlarmList") {
            m_report.unsupported(
                child, type.path, "ContextAlarmList is not supported; only the DefaultAlarm is imported");
            continue;
        }
        m_report.unsupported(
            child, type.path, std::string(name) + " is not supported in " + std::string(type.element.localName()));
    }
}

std::shared_ptr<const FieldType> TypeConverter::scalar(const Definition& type)
{
    const auto kind = type.element.localName();
    const bool time = kind == "AbsoluteTimeParameterType";
    reportUnknownChildren(type);

    XmlElement encodingElement;
    const XmlElement encodingHolder = time ? type.element.child("Encoding") : type.element;
    for (const auto& child : encodingHolder.children())
        if (endsWith(child.localName(), "DataEncoding"))
            encodingElement = child;
    if (!encodingElement) {
        m_report.unsupported(type.element, type.path, "the type has no data encoding, so it cannot be in a packet");
        return nullptr;
    }
    EncodingReader reader(*type.system, type.path, m_report);
    Encoding encoding = reader.read(encodingElement);
    if (encoding.status == Encoding::Status::Failed)
        return nullptr;

    auto field = std::make_shared<FieldType>();
    field->path = type.path;
    field->element = type.element;
    ScalarType& out = field->scalar.emplace();
    out.typePath = type.path;
    out.typeElement = type.element;
    out.type = encoding.type;
    out.bitLength = encoding.bitLength;
    out.size = encoding.size;
    out.sizeFrom = encoding.sizeFrom;
    out.byteOrder = encoding.byteOrder;
    out.units = unitsOf(type.element);
    if (encoding.status == Encoding::Status::Unsupported) {
        out.imported = false;
        return field;
    }

    // Which encodings each kind of type may have; another one keeps its place but is not imported.
    const auto encodingKind = encodingElement.localName();
    const bool numericEncoding = encodingKind == "IntegerDataEncoding" || encodingKind == "FloatDataEncoding";
    bool fits = false;
    if (kind == "IntegerParameterType" || kind == "FloatParameterType" || time)
        fits = numericEncoding;
    else if (kind == "EnumeratedParameterType" || kind == "BooleanParameterType")
        fits = encodingKind == "IntegerDataEncoding";
    else if (kind == "StringParameterType")
        fits = encodingKind == "StringDataEncoding";
    else if (kind == "BinaryParameterType")
        fits = encodingKind == "BinaryDataEncoding";
    if (!fits) {
        m_report.unsupported(
            encodingElement, type.path, withArticle(kind) + " with " + std::string(encodingKind) + " is not supported");
        if (!out.fixedSize())
            return nullptr;
        out.imported = false;
        return field;
    }

    if (numericEncoding)
        readCalibrators(type, encodingElement, out);
    if (kind == "EnumeratedParameterType")
        readEnumeration(type, out);
    else if (kind == "BooleanParameterType")
        readBoolean(type, out);
    else if (time && !readTime(type, encodingElement, out)) {
        out.imported = false;
        return field;
    }
    readAlarm(type, out);
    return field;
}

void TypeConverter::readCalibrators(const Definition& type, const XmlElement& encoding, ScalarType& out)
{
    CalibratorReader reader(*type.system, type.path, m_report);
    if (const XmlElement holder = encoding.child("DefaultCalibrator"))
        if (auto calibrator = reader.read(holder))
            out.calibrator = std::move(*calibrator);
    if (const XmlElement list = encoding.child("ContextCalibratorList"))
        out.contexts = reader.readContexts(list);
    const auto kind = type.element.localName();
    const bool calibrated = !std::holds_alternative<std::monostate>(out.calibrator) || !out.contexts.empty();
    if (calibrated && kind != "IntegerParameterType" && kind != "FloatParameterType") {
        m_report.unsupported(encoding, type.path,
            "a calibrator on " + withArticle(kind) + " is not supported; the calibrator is not imported");
        out.calibrator = std::monostate {};
        out.contexts.clear();
    }
}

void TypeConverter::readEnumeration(const Definition& type, ScalarType& out)
{
    mdb::EnumerationCalibrator enumeration;
    const std::int64_t largest
        = mdb::isSignedInteger(out.type) ? largestCode(out.bitLength - 1) : largestCode(out.bitLength);
    const std::int64_t smallest = mdb::isSignedInteger(out.type) ? -largest - 1 : 0;
    for (const auto& e : type.element.child("EnumerationList").children("Enumeration")) {
        auto value = parseInteger(e.attributeOr("value", ""));
        auto label = e.attribute("label");
        if (!value || !label) {
            m_report.error(e, type.path, "Enumeration needs an integer value and a label");
            continue;
        }
        std::int64_t high = *value;
        if (auto maxValue = e.attribute("maxValue")) {
            auto parsed = parseInteger(*maxValue);
            if (!parsed || *parsed < *value) {
                m_report.error(e, type.path, "Enumeration maxValue '" + *maxValue + "' is not an integer >= value");
                continue;
            }
            high = *parsed;
        }
        if (*value > largest || high < smallest) {
            m_report.warning(e, type.path,
                "Enumeration '" + *label + "' has codes the " + std::to_string(out.bitLength)
                    + "-bit field cannot hold; left out");
            continue;
        }
        if (high > largest || *value < smallest) {
            m_report.warning(e, type.path,
                "Enumeration '" + *label + "' reaches beyond the " + std::to_string(out.bitLength)
                    + "-bit field; its range is cut to what the field can hold");
            high = std::min(high, largest);
        }
        enumeration.states.push_back(mdb::State { std::max(*value, smallest), high, *label });
    }
    if (enumeration.states.empty()) {
        m_report.warning(type.element, type.path, "an enumeration without labels; imported as a plain integer");
        return;
    }
    out.calibrator = std::move(enumeration);
}

void TypeConverter::readBoolean(const Definition& type, ScalarType& out)
{
    mdb::EnumerationCalibrator states;
    states.states.push_back(mdb::State { 0, 0, type.element.attributeOr("zeroStringValue", "False") });
    states.states.push_back(
        mdb::State { 1, largestCode(out.bitLength), type.element.attributeOr("oneStringValue", "True") });
    out.calibrator = std::move(states);
}

bool TypeConverter::readTime(const Definition& type, const XmlElement& encoding, ScalarType& out)
{
    const XmlElement holder = type.element.child("Encoding");
    auto scale = parseReal(holder.attributeOr("scale", "1"));
    auto offset = parseReal(holder.attributeOr("offset", "0"));
    const std::string units = holder.attributeOr("units", "seconds");
    auto unit = secondsPerUnit(units);
    if (!scale || !offset) {
        m_report.error(holder, type.path, "Encoding scale and offset must be numbers");
        return false;
    }
    if (!unit) {
        m_report.unsupported(holder, type.path, "time units '" + units + "' are not supported");
        return false;
    }
    if (!std::holds_alternative<std::monostate>(out.calibrator) || !out.contexts.empty()) {
        m_report.unsupported(encoding, type.path, "a calibrator inside an absolute time encoding is not supported");
        return false;
    }
    const XmlElement reference = type.element.child("ReferenceTime");
    const XmlElement epoch = reference.child("Epoch");
    if (!epoch) {
        if (reference.child("OffsetFrom"))
            m_report.unsupported(
                reference.child("OffsetFrom"), type.path, "ReferenceTime OffsetFrom is not supported (only an Epoch)");
        else
            m_report.unsupported(
                type.element, type.path, "an absolute time without ReferenceTime/Epoch is not supported");
        return false;
    }
    auto epochSeconds = parseTimeInstant(epoch.text());
    if (!epochSeconds) {
        m_report.error(
            epoch, type.path, "Epoch '" + epoch.text() + "' is neither TAI, J2000, UNIX, POSIX, GPS nor a date");
        return false;
    }
    out.calibrator = mdb::TimeCalibrator { *epochSeconds, *scale * *unit, *offset * *unit };
    return true;
}

void TypeConverter::readAlarm(const Definition& type, ScalarType& out)
{
    const XmlElement alarm = type.element.child("DefaultAlarm");
    if (!alarm)
        return;
    AlarmReader reader(type.path, m_report);
    if (const auto* enumeration = std::get_if<mdb::EnumerationCalibrator>(&out.calibrator)) {
        if (auto limits = reader.enumeration(alarm, *enumeration))
            out.limits = std::move(*limits);
        return;
    }
    const bool numeric = mdb::isInteger(out.type) || out.type == DataType::Float;
    if (!numeric || std::holds_alternative<mdb::TimeCalibrator>(out.calibrator)) {
        m_report.unsupported(
            alarm, type.path, "an alarm on a value that is not a number or an enumeration is not supported");
        return;
    }
    if (alarm.child("EnumerationAlarmList")) {
        m_report.unsupported(alarm, type.path, "an enumeration alarm on a type without enumeration is not supported");
        return;
    }
    if (auto limits = reader.numeric(alarm))
        out.limits = *limits;
}

std::shared_ptr<const FieldType> TypeConverter::array(const Definition& type)
{
    reportUnknownChildren(type);
    const std::string elementRef = type.element.attributeOr("arrayTypeRef", "");
    auto elementDef
        = m_tree.resolveOrReport(NameKind::ParameterType, elementRef, *type.system, type.element, type.path, m_report);
    if (!elementDef)
        return nullptr;
    const XmlElement dimensionList = type.element.child("DimensionList");
    if (!dimensionList) {
        m_report.unsupported(type.element, type.path,
            "an array type without DimensionList (XTCE 1.1 gives the sizes in an ArrayParameterRefEntry) is not "
            "supported");
        return nullptr;
    }
    std::vector<std::pair<std::int64_t, std::int64_t>> dimensions; // first and last index
    for (const auto& d : dimensionList.children()) {
        const auto fixed = [&](const XmlElement& holder) -> std::optional<std::int64_t> {
            const XmlElement value = holder.child("FixedValue");
            if (!value) {
                m_report.unsupported(holder, type.path, "an array dimension that is not a FixedValue is not supported");
                return std::nullopt;
            }
            auto parsed = parseInteger(value.text());
            if (!parsed)
                m_report.error(value, type.path, "FixedValue '" + value.text() + "' is not an integer");
            return parsed;
        };
        if (d.localName() == "Dimension") {
            auto first = fixed(d.child("StartingIndex"));
            auto last = fixed(d.child("EndingIndex"));
            if (!first || !last)
                return nullptr;
            if (*last < *first) {
                m_report.error(d, type.path, "EndingIndex is below StartingIndex");
                return nullptr;
            }
            dimensions.emplace_back(*first, *last);
        } else if (d.localName() == "Size") { // an early XTCE 1.2 draft: the number of elements
            auto count = fixed(d);
            if (!count)
                return nullptr;
            if (*count < 1) {
                m_report.error(d, type.path, "an array dimension of " + std::to_string(*count) + " elements");
                return nullptr;
            }
            dimensions.emplace_back(0, *count - 1);
        } else {
            m_report.unsupported(d, type.path, std::string(d.localName()) + " in DimensionList is not supported");
            return nullptr;
        }
    }
    if (dimensions.empty()) {
        m_report.error(dimensionList, type.path, "DimensionList without Dimension");
        return nullptr;
    }
    auto element = convert(*elementDef);
    if (!element)
        return nullptr;
    std::uint64_t count = element->scalarCount;
    for (const auto& [first, last] : dimensions) {
        const std::uint64_t n = static_cast<std::uint64_t>(last) - static_cast<std::uint64_t>(first) + 1;
        if (n > kMaxMembers || count * n > kMaxMembers) {
            m_report.error(dimensionList, type.path,
                "the array has more than " + std::to_string(kMaxMembers) + " members; refused as absurd");
            return nullptr;
        }
        count *= n;
    }
    auto field = std::make_shared<FieldType>();
    field->path = type.path;
    field->element = type.element;
    field->scalarCount = count;
    // Row-major: the first dimension varies slowest.
    std::vector<std::int64_t> index;
    for (const auto& d : dimensions)
        index.push_back(d.first);
    while (true) {
        std::string suffix;
        for (auto i : index)
            suffix += "[" + std::to_string(i) + "]";
        field->members.push_back(FieldType::Member { suffix, element });
        std::size_t d = dimensions.size();
        while (d > 0) {
            --d;
            if (index[d] < dimensions[d].second) {
                ++index[d];
                break;
            }
            index[d] = dimensions[d].first;
            if (d == 0)
                return field;
        }
    }
}

std::shared_ptr<const FieldType> TypeConverter::aggregate(const Definition& type)
{
    reportUnknownChildren(type);
    auto field = std::make_shared<FieldType>();
    field->path = type.path;
    field->element = type.element;
    field->scalarCount = 0;
    std::set<std::string> names;
    for (const auto& member : type.element.child("MemberList").children("Member")) {
        const std::string name = member.attributeOr("name", "");
        if (name.empty() || !names.insert(name).second) {
            m_report.error(
                member, type.path, name.empty() ? "Member without name" : "duplicate Member name '" + name + "'");
            return nullptr;
        }
        auto memberDef = m_tree.resolveOrReport(
            NameKind::ParameterType, member.attributeOr("typeRef", ""), *type.system, member, type.path, m_report);
        if (!memberDef)
            return nullptr;
        auto memberType = convert(*memberDef);
        if (!memberType)
            return nullptr;
        field->scalarCount += memberType->scalarCount;
        if (field->scalarCount > kMaxMembers) {
            m_report.error(member, type.path,
                "the aggregate has more than " + std::to_string(kMaxMembers) + " members; refused as absurd");
            return nullptr;
        }
        field->members.push_back(FieldType::Member { "." + name, std::move(memberType) });
    }
    if (field->members.empty()) {
        m_report.error(type.element, type.path, "an aggregate type without Member");
        return nullptr;
    }
    return field;
}

} // namespace telestation::xtce
