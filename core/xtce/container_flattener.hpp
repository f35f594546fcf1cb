// Flattens an XTCE SequenceContainer into the ordered list of entries a packet of it holds: the
// entries of its base containers first (the root of the inheritance chain first), then its own; a
// ContainerRefEntry is replaced by the referenced container's entries (with its own bases), between
// Begin/End markers that carry the ContainerRefEntry's location and include condition. Also gathers
// the restriction criteria of the whole inheritance chain. Cycles (in inheritance or through
// ContainerRefEntry) are errors.
#pragma once

#include "core/xtce/import_report.hpp"
#include "core/xtce/match_criteria.hpp"
#include "core/xtce/space_system_tree.hpp"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace telestation::xtce {

// LocationInContainerInBits with a fixed value.
struct EntryLocation {
    bool fromContainerStart = false; // else from the end of the previous entry
    std::int64_t bits = 0;
};

struct LayoutEntry {
    enum class Kind { Parameter, BeginContainer, EndContainer };
    Kind kind = Kind::Parameter;
    Definition parameter; // Parameter: the Parameter element
    XmlElement at; // the ParameterRefEntry or ContainerRefEntry
    std::string ownerPath; // the container whose EntryList holds the entry
    std::optional<EntryLocation> location;
    std::vector<Comparison> includeWhen; // this entry's own IncludeCondition
};

struct ContainerLayout {
    std::vector<LayoutEntry> entries;
    std::vector<Comparison> criteria; // every RestrictionCriteria of the inheritance chain
    std::vector<Definition> chain; // the inheritance chain, root first, the container last
};

class ContainerFlattener {
public:
    ContainerFlattener(const SpaceSystemTree& tree, ImportReport& report)
        : m_tree(tree)
        , m_report(report)
    { }

    // nullopt after reporting (an error, or an unsupported entry: the packet cannot be laid out).
    [[nodiscard]] std::optional<ContainerLayout> flatten(const Definition& container);

    // The inheritance chain, root first; nullopt after reporting a cycle or an unresolved base.
    [[nodiscard]] std::optional<std::vector<Definition>> chainOf(const Definition& container);

private:
    [[nodiscard]] bool appendContainer(
        const Definition& container, std::vector<std::string>& expanding, ContainerLayout& out);
    [[nodiscard]] bool appendEntry(
        const Definition& owner, const XmlElement& entry, std::vector<std::string>& expanding, ContainerLayout& out);
    [[nodiscard]] bool readEntryDetails(const Definition& owner, const XmlElement& entry, LayoutEntry& out);

    const SpaceSystemTree& m_tree;
    ImportReport& m_report;
};

} // namespace telestation::xtce
