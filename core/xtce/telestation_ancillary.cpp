#include "core/xtce/telestation_ancillary.hpp"

#include "core/xtce/ancillary_data.hpp"
#include "core/xtce/match_criteria.hpp"
#include "core/xtce/xml_document.hpp"
#include "core/xtce/xml_numbers.hpp"

#include <limits>
#include <map>
#include <optional>
#include <string>
#include <type_traits>
#include <utility>
#include <variant>
#include <vector>

namespace telestation::xtce {

namespace {

using Ancillary = std::map<std::string, std::string, std::less<>>;

constexpr double kInf = std::numeric_limits<double>::infinity();

// AncillaryData name -> text (exactly as written), the first of each name.
Ancillary ancillaryOf(const XmlElement& element)
{
    Ancillary out;
    for (const auto& data : element.child("AncillaryDataSet").children("AncillaryData"))
        out.emplace(data.attributeOr("name", ""), data.exactText());
    return out;
}

std::optional<std::string> findIn(const Ancillary& map, std::string_view key)
{
    const auto it = map.find(key);
    if (it == map.end())
        return std::nullopt;
    return it->second;
}

// The Telestation name (the first alias in its name space) and the other aliases.
std::pair<std::optional<std::string>, std::vector<mdb::Alias>> aliasesOf(const XmlElement& element)
{
    std::optional<std::string> name;
    std::vector<mdb::Alias> others;
    for (const auto& alias : element.child("AliasSet").children("Alias")) {
        mdb::Alias a { alias.attributeOr("nameSpace", ""), alias.attributeOr("alias", "") };
        if (!name && a.nameSpace == kTelestationAliasNameSpace)
            name = a.alias;
        else
            others.push_back(std::move(a));
    }
    return { name, others };
}

// The Comparisons of a match criteria holder, alone or in a ComparisonList (the forms the export writes).
std::vector<XmlElement> comparisonsIn(const XmlElement& holder)
{
    std::vector<XmlElement> out = holder.children("Comparison");
    for (const auto& c : holder.child("ComparisonList").children("Comparison"))
        out.push_back(c);
    return out;
}

bool isTelestationRoot(const XmlElement& root)
{
    return root.isXtce() && root.localName() == "SpaceSystem" && findIn(ancillaryOf(root), anc::kFormat);
}

class Restorer {
public:
    explicit Restorer(const XmlDocument& document)
        : m_document(document)
        , m_root(document.root())
    { }

    Diagnostics run(mdb::MissionDatabase& db)
    {
        const auto rootAncillary = ancillaryOf(m_root);
        db.name = findIn(rootAncillary, anc::kMission).value_or(db.name);
        m_rootPath = "/" + m_root.attributeOr("name", "");
        const XmlElement tm = m_root.child("TelemetryMetaData");
        for (const auto& type : tm.child("ParameterTypeSet").children())
            m_types.emplace(type.attributeOr("name", ""), type);
        for (const auto& parameter : tm.child("ParameterSet").children("Parameter"))
            m_parameters.emplace(parameter.attributeOr("name", ""), parameter);
        for (const auto& container : tm.child("ContainerSet").children("SequenceContainer"))
            m_containers.emplace_back(container.attributeOr("name", ""), container);
        for (auto& packet : db.packets)
            restorePacket(packet);
        return std::move(m_diagnostics);
    }

private:
    struct Entry {
        std::string name;      // the XTCE parameter's name
        XmlElement entry;      // its ParameterRefEntry
        XmlElement parameter;  // its Parameter
        bool hidden = false;
    };

    void warn(const XmlElement& at, const std::string& message)
    {
        const SourceLocation where = at ? m_document.locationOf(at) : SourceLocation { m_document.fileName(), 0, 0 };
        m_diagnostics.push_back(Diagnostic { Severity::Warning, message, where });
    }

    XmlElement containerNamed(std::string_view name) const
    {
        for (const auto& [n, c] : m_containers)
            if (n == name)
                return c;
        return {};
    }

    XmlElement containerOf(const mdb::PacketDef& packet) const
    {
        for (const auto& [name, c] : m_containers)
            if (m_rootPath + "/" + name == packet.path && c.attributeOr("abstract", "false") != "true")
                return c;
        for (const auto& [name, c] : m_containers)
            if (aliasesOf(c).first == packet.name && c.attributeOr("abstract", "false") != "true")
                return c;
        return {};
    }

    void appendEntries(const XmlElement& container, std::vector<Entry>& out) const
    {
        for (const auto& e : container.child("EntryList").children("ParameterRefEntry")) {
            Entry entry;
            entry.name = e.attributeOr("parameterRef", "");
            entry.entry = e;
            const auto it = m_parameters.find(entry.name);
            if (it != m_parameters.end())
                entry.parameter = it->second;
            entry.hidden = findIn(ancillaryOf(entry.parameter), anc::kRole).has_value();
            out.push_back(std::move(entry));
        }
    }

    static std::string modelName(const Entry& e) { return aliasesOf(e.parameter).first.value_or(e.name); }

    void restorePacket(mdb::PacketDef& packet)
    {
        const XmlElement container = containerOf(packet);
        if (!container) {
            warn({}, "packet " + packet.name + ": no SequenceContainer of the document matches it; not restored");
            return;
        }
        std::vector<Entry> entries; // as the importer flattens them: the base's entries, then the container's
        if (const XmlElement parent
            = containerNamed(container.child("BaseContainer").attributeOr("containerRef", "")))
            appendEntries(parent, entries);
        appendEntries(container, entries);
        std::vector<const Entry*> visible;
        for (const auto& e : entries)
            if (!e.hidden)
                visible.push_back(&e);

        // The importer's view has one parameter per entry, each with the path of its XTCE parameter;
        // a restored packet has the model's names of the visible ones.
        bool raw = packet.parameters.size() == entries.size();
        for (std::size_t i = 0; raw && i < entries.size(); ++i)
            raw = packet.parameters[i].path == m_rootPath + "/" + entries[i].name;
        if (!raw) {
            bool restored = packet.parameters.size() == visible.size();
            for (std::size_t i = 0; restored && i < visible.size(); ++i)
                restored = packet.parameters[i].name == modelName(*visible[i]);
            if (!restored)
                warn(container,
                    "packet " + packet.name + ": the imported parameters (" + std::to_string(packet.parameters.size())
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

    void restorePacketFields(mdb::PacketDef& packet, const XmlElement& container,
        const std::map<std::string, const mdb::ParameterDef*, std::less<>>& rawByName)
    {
        const auto ancillary = ancillaryOf(container);
        auto [name, aliases] = aliasesOf(container);
        packet.name = name.value_or(container.attributeOr("name", ""));
        packet.aliases = std::move(aliases);
        packet.path = findIn(ancillary, anc::kPath).value_or("");
        packet.description = container.attributeOr("shortDescription", "");
        packet.longDescription = container.child("LongDescription").exactText();
        packet.byteOrder = anc::parseByteOrderKeyword(findIn(ancillary, anc::kByteOrder).value_or(""));
        packet.secondaryHeader.reset();
        if (auto cuc = findIn(ancillary, anc::kSecondaryHeader)) {
            packet.secondaryHeader = anc::parseCucText(*cuc);
            if (!packet.secondaryHeader)
                warn(container,
                    "packet " + packet.name + ": unreadable " + std::string(anc::kSecondaryHeader) + " '" + *cuc + "'");
        }
        if (auto text = findIn(ancillary, anc::kLength))
            if (auto length = anc::parseLengthText(*text)) {
                packet.length = length->length;
                packet.variableLength = length->variableLength;
                packet.maxLength = length->maxLength;
            }

        // The restriction criteria: the APID, the secondary id when the container says so, the criteria.
        const auto comparisons = comparisonsIn(container.child("BaseContainer").child("RestrictionCriteria"));
        const bool hasSecondaryId = findIn(ancillary, anc::kSecondaryId).has_value();
        packet.secondaryId.reset();
        packet.criteria.clear();
        for (std::size_t k = 0; k < comparisons.size(); ++k) {
            const XmlElement& c = comparisons[k];
            const auto field = rawByName.find(c.attributeOr("parameterRef", ""));
            const auto value = parseUnsigned(c.attributeOr("value", ""));
            const auto op = parseCompareOp(c.attributeOr("comparisonOperator", "=="));
            if (field == rawByName.end() || !value || !op) {
                warn(c,
                    "packet " + packet.name + ": restriction criterion " + std::to_string(k + 1)
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

    std::vector<mdb::Condition> conditionsOf(const XmlElement& holder) const
    {
        std::vector<mdb::Condition> out;
        for (const auto& c : comparisonsIn(holder)) {
            mdb::Condition condition;
            condition.parameter = renamed(c.attributeOr("parameterRef", ""));
            condition.op = parseCompareOp(c.attributeOr("comparisonOperator", "==")).value_or(mdb::CompareOp::Equal);
            condition.value = parseDouble(c.attributeOr("value", "")).value_or(0.0);
            const std::string calibrated = c.attributeOr("useCalibratedValue", "true");
            condition.calibrated = calibrated == "true" || calibrated == "1";
            out.push_back(std::move(condition));
        }
        return out;
    }

    // A calibrator as written: every polynomial term (zeros included), every spline point, or the time
    // kept in the holder's AncillaryData.
    static std::optional<mdb::Calibrator> calibratorOf(const XmlElement& holder)
    {
        if (!holder)
            return std::nullopt;
        if (auto time = findIn(ancillaryOf(holder), anc::kTime))
            if (auto parsed = anc::parseTimeText(*time))
                return *parsed;
        if (const XmlElement poly = holder.child("PolynomialCalibrator")) {
            mdb::PolynomialCalibrator out;
            for (const auto& term : poly.children("Term")) {
                auto power = parseUnsigned(term.attributeOr("exponent", ""));
                auto coefficient = parseDouble(term.attributeOr("coefficient", ""));
                if (!power || !coefficient || *power > 64)
                    return std::nullopt;
                const auto at = static_cast<std::size_t>(*power);
                if (out.coefficients.size() <= at)
                    out.coefficients.resize(at + 1, 0.0);
                out.coefficients[at] = *coefficient;
            }
            return out;
        }
        if (const XmlElement spline = holder.child("SplineCalibrator")) {
            mdb::PointPairCalibrator out;
            for (const auto& point : spline.children("SplinePoint")) {
                auto raw = parseDouble(point.attributeOr("raw", ""));
                auto calibrated = parseDouble(point.attributeOr("calibrated", ""));
                if (!raw || !calibrated)
                    return std::nullopt;
                out.points.push_back(mdb::PointPair { *raw, *calibrated });
            }
            return out;
        }
        return std::nullopt;
    }

    static XmlElement numericEncodingOf(const XmlElement& type)
    {
        const XmlElement holder = type.localName() == "AbsoluteTimeParameterType" ? type.child("Encoding") : type;
        if (const XmlElement e = holder.child("IntegerDataEncoding"))
            return e;
        return holder.child("FloatDataEncoding");
    }

    void restoreParameter(mdb::ParameterDef& p, const Entry& e, bool first) const
    {
        const XmlElement& parameter = e.parameter;
        const auto ancillary = ancillaryOf(parameter);
        auto [name, aliases] = aliasesOf(parameter);
        p.name = name.value_or(e.name);
        p.aliases = std::move(aliases);
        p.path = findIn(ancillary, anc::kPath).value_or("");
        p.description = parameter.attributeOr("shortDescription", "");
        p.longDescription = parameter.child("LongDescription").exactText();
        p.overlapAllowed = findIn(ancillary, anc::kOverlapAllowed) == "true";
        p.byteOrder.reset();
        if (auto order = findIn(ancillary, anc::kByteOrder))
            p.byteOrder = anc::parseByteOrderKeyword(*order);

        if (const XmlElement location = e.entry.child("LocationInContainerInBits")) {
            const bool fromStart = location.attributeOr("referenceLocation", "previousEntry") == "containerStart";
            const bool afterPrevious = !fromStart || (first && findIn(ancillary, anc::kPlacement) == "AFTER_PREVIOUS");
            p.placement = afterPrevious ? mdb::Placement::AfterPrevious : mdb::Placement::Absolute;
            if (auto bits = parseUnsigned(location.child("FixedValue").exactText()); bits && *bits <= UINT32_MAX)
                p.bitOffset = static_cast<std::uint32_t>(*bits);
        }
        p.includeWhen = conditionsOf(e.entry.child("IncludeCondition"));
        if (!p.size.sizeParameter.empty())
            p.size.sizeParameter = renamed(p.size.sizeParameter);
        if (auto maxBytes = findIn(ancillary, anc::kMaxBytes))
            if (auto value = parseUnsigned(*maxBytes); value && *value <= UINT32_MAX)
                p.size.maxBytes = static_cast<std::uint32_t>(*value);

        const auto typeIt = m_types.find(parameter.attributeOr("parameterTypeRef", ""));
        const XmlElement type = typeIt != m_types.end() ? typeIt->second : XmlElement {};
        if (auto units = findIn(ancillary, anc::kUnits))
            p.units = *units;
        else if (const XmlElement unit = type.child("UnitSet").child("Unit"))
            p.units = unit.exactText();

        restoreCalibrators(p, ancillary, numericEncodingOf(type));
        restoreLimits(p, ancillary, type);
    }

    // The default calibrator as written, a time kept in AncillaryData, an absolute time's exact epoch,
    // and the contexts.
    void restoreCalibrators(mdb::ParameterDef& p, const Ancillary& ancillary, const XmlElement& encoding) const
    {
        if (auto time = findIn(ancillary, anc::kTime)) {
            if (auto parsed = anc::parseTimeText(*time))
                p.calibrator = *parsed;
        } else if (auto calibrator = calibratorOf(encoding.child("DefaultCalibrator"))) {
            p.calibrator = std::move(*calibrator);
        }
        if (auto epoch = findIn(ancillary, anc::kEpoch))
            if (auto* time = std::get_if<mdb::TimeCalibrator>(&p.calibrator))
                time->epochUnixSeconds = parseDouble(*epoch).value_or(time->epochUnixSeconds);
        p.contextCalibrators.clear();
        for (const auto& context : encoding.child("ContextCalibratorList").children("ContextCalibrator"))
            if (auto calibrator = calibratorOf(context.child("Calibrator")))
                p.contextCalibrators.push_back(
                    mdb::ContextCalibration { conditionsOf(context.child("ContextMatch")), std::move(*calibrator) });
    }

    // The ranges as written (an open side has no attribute), expected states in the order written, and
    // whether the limits are enabled.
    static void restoreLimits(mdb::ParameterDef& p, const Ancillary& ancillary, const XmlElement& type)
    {
        const XmlElement alarm = type.child("DefaultAlarm");
        if (auto* numeric = std::get_if<mdb::NumericLimits>(&p.limits)) {
            const XmlElement ranges = alarm.child("StaticAlarmRanges");
            const XmlElement yellow = ranges.child("WarningRange");
            const XmlElement red = ranges.child("CriticalRange");
            const auto bound = [](const XmlElement& range, std::string_view side, double open) {
                return parseDouble(range.attributeOr(side, "")).value_or(open);
            };
            numeric->yellowLow = bound(yellow, "minInclusive", -kInf);
            numeric->yellowHigh = bound(yellow, "maxInclusive", kInf);
            numeric->redLow = bound(red, "minInclusive", -kInf);
            numeric->redHigh = bound(red, "maxInclusive", kInf);
        }
        if (auto* states = std::get_if<mdb::StateLimits>(&p.limits)) {
            states->expectedStates.clear();
            for (const auto& state : alarm.child("EnumerationAlarmList").children("EnumerationAlarm"))
                if (state.attributeOr("alarmLevel", "") == "normal")
                    states->expectedStates.push_back(state.attributeOr("enumerationLabel", ""));
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

    const XmlDocument& m_document;
    XmlElement m_root;
    std::string m_rootPath;
    std::map<std::string, XmlElement, std::less<>> m_types;
    std::map<std::string, XmlElement, std::less<>> m_parameters;
    std::vector<std::pair<std::string, XmlElement>> m_containers;
    std::map<std::string, std::string, std::less<>> m_rename; // XTCE name -> Telestation name, in the packet at hand
    Diagnostics m_diagnostics;
};

} // namespace

bool isTelestationXtce(std::string_view xml)
{
    const auto parsed = XmlDocument::parse(xml, "<string>");
    return parsed.document && isTelestationRoot(parsed.document->root());
}

Diagnostics applyTelestationAncillary(std::string_view xml, mdb::MissionDatabase& imported, std::string_view fileName)
{
    const auto parsed = XmlDocument::parse(xml, std::string(fileName));
    if (!parsed.document)
        return {};
    return applyTelestationAncillary(*parsed.document, imported);
}

Diagnostics applyTelestationAncillary(const XmlDocument& document, mdb::MissionDatabase& imported)
{
    if (!isTelestationRoot(document.root()))
        return {};
    return Restorer(document).run(imported);
}

} // namespace telestation::xtce
