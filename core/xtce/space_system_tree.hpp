// The tree of XTCE SpaceSystems with the parameter types, parameters and sequence containers each
// defines, and the resolution of XTCE name references: a bare name (looked up in the current space
// system, then in each ancestor), a relative path ("Sub/X", "../X", "./X") or an absolute one
// ("/Root/Sub/X"). Every definition has a path "/Root/Sub/Name".
#pragma once

#include "core/xtce/import_report.hpp"
#include "core/xtce/xml_document.hpp"

#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace telestation::xtce {

enum class NameKind { ParameterType, Parameter, Container };

struct SpaceSystemNode {
    std::string name;
    std::string path; // "/Root/Sub"
    XmlElement element;
    const SpaceSystemNode* parent = nullptr;
    std::map<std::string, const SpaceSystemNode*, std::less<>> children;
    std::map<std::string, XmlElement, std::less<>> parameterTypes;
    std::map<std::string, XmlElement, std::less<>> parameters;
    std::map<std::string, XmlElement, std::less<>> containers;

    [[nodiscard]] std::string pathOf(std::string_view childName) const { return path + "/" + std::string(childName); }
};

// A definition found by name: its element, its path and the space system that defines it (against
// which the references inside it resolve).
struct Definition {
    XmlElement element;
    std::string path;
    const SpaceSystemNode* system = nullptr;
};

class SpaceSystemTree {
public:
    // Indexes every SpaceSystem under `root` (which must be a SpaceSystem). Duplicate names within a
    // space system are errors; the first definition is kept.
    SpaceSystemTree(const XmlElement& root, ImportReport& report);

    [[nodiscard]] const SpaceSystemNode& root() const { return *m_nodes.front(); }
    // Every space system, parents before children, in document order.
    [[nodiscard]] std::vector<const SpaceSystemNode*> systems() const;

    [[nodiscard]] std::optional<Definition> resolve(
        NameKind kind, std::string_view reference, const SpaceSystemNode& from) const;

    // Resolves or reports "unresolved <kind> reference 'X'" as an error at `at`, naming `ownerPath`.
    [[nodiscard]] std::optional<Definition> resolveOrReport(NameKind kind, std::string_view reference,
        const SpaceSystemNode& from, const XmlElement& at, std::string_view ownerPath, ImportReport& report) const;

private:
    void index(const XmlElement& element, SpaceSystemNode* parent, ImportReport& report);
    [[nodiscard]] const SpaceSystemNode* walk(const SpaceSystemNode* start, std::string_view systemPath) const;
    [[nodiscard]] std::optional<Definition> lookup(
        NameKind kind, const SpaceSystemNode* system, std::string_view name) const;

    std::vector<std::unique_ptr<SpaceSystemNode>> m_nodes;
};

[[nodiscard]] std::string_view kindName(NameKind kind);

} // namespace telestation::xtce
