#include "core/xtce/space_system_tree.hpp"

namespace telestation::xtce {

namespace {

bool endsWith(std::string_view s, std::string_view suffix)
{
    return s.size() >= suffix.size() && s.substr(s.size() - suffix.size()) == suffix;
}

// XTCE names may not contain these; a '.' or '/' would also break Telestation's qualified names.
bool validName(std::string_view name)
{
    if (name.empty())
        return false;
    for (char c : name)
        if (c == '/' || c == '.' || c == ':' || c == '[' || c == ']' || c == ' ')
            return false;
    return true;
}

} // namespace

std::string_view kindName(NameKind kind)
{
    switch (kind) {
    case NameKind::ParameterType:
        return "parameter type";
    case NameKind::Parameter:
        return "parameter";
    case NameKind::Container:
        return "container";
    }
    return "name";
}

SpaceSystemTree::SpaceSystemTree(const XmlElement& root, ImportReport& report)
{
    index(root, nullptr, report);
}

void SpaceSystemTree::index(const XmlElement& element, SpaceSystemNode* parent, ImportReport& report)
{
    auto node = std::make_unique<SpaceSystemNode>();
    node->name = element.attributeOr("name", "");
    node->element = element;
    node->parent = parent;
    node->path = (parent != nullptr ? parent->path : std::string()) + "/" + node->name;
    if (!validName(node->name))
        report.error(element, node->path, "a SpaceSystem needs a name without '/', '.', ':', '[', ']' or blanks");
    SpaceSystemNode* self = node.get();
    if (parent != nullptr) {
        if (!parent->children.emplace(self->name, self).second)
            report.error(element, self->path, "duplicate SpaceSystem name in " + parent->path);
    }
    m_nodes.push_back(std::move(node));

    const auto add = [&](std::map<std::string, XmlElement, std::less<>>& into, const XmlElement& definition,
                         std::string_view what) {
        const std::string name = definition.attributeOr("name", "");
        const std::string path = self->pathOf(name);
        if (!validName(name)) {
            report.error(
                definition, path, std::string(what) + " needs a name without '/', '.', ':', '[', ']' or blanks");
            return;
        }
        auto [it, inserted] = into.emplace(name, definition);
        if (!inserted)
            report.error(definition, path,
                "duplicate " + std::string(what) + " name in space system " + self->path + " (first at line "
                    + std::to_string(it->second.line()) + ")");
    };

    std::vector<XmlElement> subsystems;
    for (const auto& child : element.children()) {
        const auto name = child.localName();
        if (name == "SpaceSystem") {
            subsystems.push_back(child);
            continue;
        }
        if (name != "TelemetryMetaData")
            continue;
        for (const auto& set : child.children()) {
            if (set.localName() == "ParameterTypeSet") {
                for (const auto& type : set.children())
                    if (endsWith(type.localName(), "ParameterType"))
                        add(self->parameterTypes, type, "parameter type");
            } else if (set.localName() == "ParameterSet") {
                for (const auto& parameter : set.children("Parameter"))
                    add(self->parameters, parameter, "parameter");
            } else if (set.localName() == "ContainerSet") {
                for (const auto& container : set.children("SequenceContainer"))
                    add(self->containers, container, "container");
            }
        }
    }
    for (const auto& sub : subsystems)
        index(sub, self, report);
}

std::vector<const SpaceSystemNode*> SpaceSystemTree::systems() const
{
    std::vector<const SpaceSystemNode*> out;
    out.reserve(m_nodes.size());
    for (const auto& node : m_nodes)
        out.push_back(node.get());
    return out;
}

const SpaceSystemNode* SpaceSystemTree::walk(const SpaceSystemNode* start, std::string_view systemPath) const
{
    const SpaceSystemNode* at = start;
    while (at != nullptr && !systemPath.empty()) {
        const std::size_t slash = systemPath.find('/');
        const std::string_view step = systemPath.substr(0, slash);
        systemPath = slash == std::string_view::npos ? std::string_view() : systemPath.substr(slash + 1);
        if (step.empty() || step == ".")
            continue;
        if (step == "..") {
            at = at->parent;
            continue;
        }
        auto it = at->children.find(step);
        at = it == at->children.end() ? nullptr : it->second;
    }
    return at;
}

std::optional<Definition> SpaceSystemTree::lookup(
    NameKind kind, const SpaceSystemNode* system, std::string_view name) const
{
    if (system == nullptr)
        return std::nullopt;
    const auto& map = kind == NameKind::ParameterType ? system->parameterTypes
        : kind == NameKind::Parameter                 ? system->parameters
                                                      : system->containers;
    auto it = map.find(name);
    if (it == map.end())
        return std::nullopt;
    return Definition { it->second, system->pathOf(name), system };
}

std::optional<Definition> SpaceSystemTree::resolve(
    NameKind kind, std::string_view reference, const SpaceSystemNode& from) const
{
    if (reference.empty())
        return std::nullopt;
    const std::size_t lastSlash = reference.rfind('/');
    if (lastSlash == std::string_view::npos) {
        for (const SpaceSystemNode* s = &from; s != nullptr; s = s->parent)
            if (auto found = lookup(kind, s, reference))
                return found;
        return std::nullopt;
    }
    const std::string_view systemPath = reference.substr(0, lastSlash);
    const std::string_view name = reference.substr(lastSlash + 1);
    if (reference.front() == '/') {
        // "/Root/Sub/X": the first step names the root itself.
        std::string_view rest = systemPath.substr(1);
        const std::size_t slash = rest.find('/');
        const std::string_view first = rest.substr(0, slash);
        if (first != root().name)
            return std::nullopt;
        rest = slash == std::string_view::npos ? std::string_view() : rest.substr(slash + 1);
        return lookup(kind, walk(&root(), rest), name);
    }
    // Relative: from the current space system; a path that does not start with "." or ".." may also
    // start at an ancestor (as a bare name does).
    const bool explicitlyRelative = reference.starts_with("./") || reference.starts_with("../");
    for (const SpaceSystemNode* s = &from; s != nullptr; s = explicitlyRelative ? nullptr : s->parent)
        if (auto found = lookup(kind, walk(s, systemPath), name))
            return found;
    return std::nullopt;
}

std::optional<Definition> SpaceSystemTree::resolveOrReport(NameKind kind, std::string_view reference,
    const SpaceSystemNode& from, const XmlElement& at, std::string_view ownerPath, ImportReport& report) const
{
    auto found = resolve(kind, reference, from);
    if (!found)
        report.error(at, ownerPath,
            "unresolved " + std::string(kindName(kind)) + " reference '" + std::string(reference)
                + "' (from space system " + from.path + ")");
    return found;
}

} // namespace telestation::xtce
