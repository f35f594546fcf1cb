#include "core/xtce/container_flattener.hpp"

#include "core/xtce/xml_numbers.hpp"

#include <algorithm>

namespace telestation::xtce {

namespace {

constexpr std::size_t kMaxNesting = 64; // containers included in one another
constexpr std::size_t kMaxEntries = 100000; // entries of one flattened container
constexpr std::int64_t kMaxLocationBits = std::int64_t{65542} * 8;

std::string cycleText(const std::vector<std::string>& paths, const std::string& again)
{
    std::string out;
    bool inCycle = false;
    for (const auto& p : paths) {
        inCycle = inCycle || p == again;
        if (inCycle)
            out += p + " -> ";
    }
    return out + again;
}

} // namespace

std::optional<std::vector<Definition>> ContainerFlattener::chainOf(const Definition& container)
{
    std::vector<Definition> chain { container };
    std::vector<std::string> seen { container.path };
    Definition at = container;
    while (const XmlElement base = at.element.child("BaseContainer")) {
        if (chain.size() > kMaxNesting) {
            m_report.error(base, at.path,
                "an inheritance chain longer than " + std::to_string(kMaxNesting) + "; refused as absurd");
            return std::nullopt;
        }
        const std::string ref = base.attributeOr("containerRef", "");
        auto parent = m_tree.resolveOrReport(NameKind::Container, ref, *at.system, base, at.path, m_report);
        if (!parent)
            return std::nullopt;
        if (std::find(seen.begin(), seen.end(), parent->path) != seen.end()) {
            m_report.error(base, at.path, "cycle in container inheritance: " + cycleText(seen, parent->path));
            return std::nullopt;
        }
        seen.push_back(parent->path);
        chain.push_back(*parent);
        at = *parent;
    }
    std::reverse(chain.begin(), chain.end());
    return chain;
}

std::optional<ContainerLayout> ContainerFlattener::flatten(const Definition& container)
{
    ContainerLayout out;
    auto chain = chainOf(container);
    if (!chain)
        return std::nullopt;
    out.chain = *chain;
    for (const auto& link : out.chain) {
        const XmlElement base = link.element.child("BaseContainer");
        const XmlElement criteria = base.child("RestrictionCriteria");
        if (!criteria)
            continue;
        auto comparisons = readMatchCriteria(criteria, *link.system, link.path, m_report);
        if (!comparisons)
            return std::nullopt;
        out.criteria.insert(out.criteria.end(), comparisons->begin(), comparisons->end());
    }
    std::vector<std::string> expanding;
    if (!appendContainer(container, expanding, out))
        return std::nullopt;
    return out;
}

bool ContainerFlattener::appendContainer(
    const Definition& container, std::vector<std::string>& expanding, ContainerLayout& out)
{
    auto chain = chainOf(container);
    if (!chain)
        return false;
    if (expanding.size() > kMaxNesting) {
        m_report.error(container.element, container.path,
            "containers included in one another more than " + std::to_string(kMaxNesting) + " deep; refused as absurd");
        return false;
    }
    for (const auto& link : *chain) {
        if (std::find(expanding.begin(), expanding.end(), link.path) != expanding.end()) {
            m_report.error(
                link.element, link.path, "cycle through ContainerRefEntry: " + cycleText(expanding, link.path));
            return false;
        }
    }
    for (const auto& link : *chain) {
        for (const auto& child : link.element.children()) {
            const auto name = child.localName();
            if (name == "BinaryEncoding") {
                m_report.unsupported(
                    child, link.path, "a container BinaryEncoding (a fixed container size) is not supported");
                return false;
            }
        }
        expanding.push_back(link.path);
        for (const auto& entry : link.element.child("EntryList").children()) {
            if (!appendEntry(link, entry, expanding, out)) {
                expanding.pop_back();
                return false;
            }
            if (out.entries.size() > kMaxEntries) {
                m_report.error(entry, link.path,
                    "the flattened container has more than " + std::to_string(kMaxEntries)
                        + " entries; refused as absurd");
                expanding.pop_back();
                return false;
            }
        }
        expanding.pop_back();
    }
    return true;
}

bool ContainerFlattener::readEntryDetails(const Definition& owner, const XmlElement& entry, LayoutEntry& out)
{
    for (const auto& child : entry.children()) {
        const auto name = child.localName();
        if (name == "LocationInContainerInBits") {
            const std::string reference = child.attributeOr("referenceLocation", "previousEntry");
            if (reference != "previousEntry" && reference != "containerStart") {
                m_report.unsupported(child, owner.path,
                    "LocationInContainerInBits referenceLocation '" + reference
                        + "' is not supported (only containerStart and previousEntry)");
                return false;
            }
            const XmlElement value = child.child("FixedValue");
            if (!value) {
                m_report.unsupported(
                    child, owner.path, "a LocationInContainerInBits that is not a FixedValue is not supported");
                return false;
            }
            auto bits = parseInteger(value.text());
            if (!bits) {
                m_report.error(value, owner.path, "FixedValue '" + value.text() + "' is not an integer");
                return false;
            }
            if (*bits > kMaxLocationBits || *bits < -kMaxLocationBits) {
                m_report.error(
                    value, owner.path, "a location of " + value.text() + " bits is beyond the largest packet");
                return false;
            }
            out.location = EntryLocation { reference == "containerStart", *bits };
        } else if (name == "IncludeCondition") {
            auto when = readMatchCriteria(child, *owner.system, owner.path, m_report);
            if (!when)
                return false;
            out.includeWhen = std::move(*when);
        } else if (name == "RepeatEntry") {
            m_report.unsupported(child, owner.path, "RepeatEntry is not supported");
            return false;
        } else if (name == "TimeAssociation" || name == "AncillaryDataSet") {
            continue;
        } else {
            m_report.unsupported(
                child, owner.path, std::string(name) + " in " + std::string(entry.localName()) + " is not supported");
            return false;
        }
    }
    return true;
}

bool ContainerFlattener::appendEntry(
    const Definition& owner, const XmlElement& entry, std::vector<std::string>& expanding, ContainerLayout& out)
{
    const auto kind = entry.localName();
    LayoutEntry item;
    item.at = entry;
    item.ownerPath = owner.path;
    if (kind == "ParameterRefEntry") {
        auto parameter = m_tree.resolveOrReport(
            NameKind::Parameter, entry.attributeOr("parameterRef", ""), *owner.system, entry, owner.path, m_report);
        if (!parameter || !readEntryDetails(owner, entry, item))
            return false;
        item.kind = LayoutEntry::Kind::Parameter;
        item.parameter = *parameter;
        out.entries.push_back(std::move(item));
        return true;
    }
    if (kind == "ContainerRefEntry") {
        auto referenced = m_tree.resolveOrReport(
            NameKind::Container, entry.attributeOr("containerRef", ""), *owner.system, entry, owner.path, m_report);
        if (!referenced || !readEntryDetails(owner, entry, item))
            return false;
        item.kind = LayoutEntry::Kind::BeginContainer;
        out.entries.push_back(item);
        if (!appendContainer(*referenced, expanding, out))
            return false;
        LayoutEntry end;
        end.kind = LayoutEntry::Kind::EndContainer;
        end.at = entry;
        end.ownerPath = owner.path;
        out.entries.push_back(std::move(end));
        return true;
    }
    m_report.unsupported(entry, owner.path, std::string(kind) + " is not supported");
    return false;
}

} // namespace telestation::xtce
