// Turns a flattened container (ContainerFlattener) into an mdb::PacketDef: expands each parameter into
// its fields (arrays and aggregates flattened), names them, places them (absolute bit offsets while the
// layout is fixed, AfterPrevious after the first variable-size or conditional field), resolves the
// references inside the packet (size parameters, include conditions, context calibrators) and turns the
// restriction criteria into the APID and field criteria.
#pragma once

#include "core/mdb/model.hpp"
#include "core/xtce/container_flattener.hpp"
#include "core/xtce/import_report.hpp"
#include "core/xtce/parameter_types.hpp"
#include "core/xtce/space_system_tree.hpp"

#include <optional>
#include <set>
#include <string>
#include <vector>

namespace telestation::xtce {

inline constexpr std::uint32_t kApidBitOffset = 5;
inline constexpr std::uint32_t kApidBitLength = 11;
inline constexpr std::uint32_t kMaxPacketBytes = 65542;

class PacketBuilder {
public:
    PacketBuilder(const SpaceSystemTree& tree, TypeConverter& types, ImportReport& report)
        : m_tree(tree)
        , m_types(types)
        , m_report(report)
    { }

    struct Outcome {
        std::optional<mdb::PacketDef> packet; // the packet; its name is the container's short name
        bool noApid = false; // no APID criterion (not reported: the caller knows whether that matters)
    };
    // Reports every problem except a missing APID criterion.
    [[nodiscard]] Outcome build(const Definition& container, const ContainerLayout& layout);

    // Paths of the parameters in any packet built so far (imported, or kept as a gap when their
    // encoding is unsupported).
    [[nodiscard]] const std::set<std::string>& usedParameters() const { return m_used; }

private:
    struct Field;
    [[nodiscard]] static Field marker(const LayoutEntry& entry);
    [[nodiscard]] bool expand(const Definition& container, const ContainerLayout& layout, std::vector<Field>& fields);
    void name(std::vector<Field>& fields);
    [[nodiscard]] bool place(const Definition& container, std::vector<Field>& fields, mdb::PacketDef& packet);
    [[nodiscard]] bool criteria(const Definition& container, const ContainerLayout& layout,
        const std::vector<Field>& fields, mdb::PacketDef& packet);
    [[nodiscard]] std::optional<std::vector<mdb::Condition>> conditions(const std::vector<Comparison>& comparisons,
        const std::vector<Field>& fields, std::size_t before, std::string_view ownerPath);
    [[nodiscard]] const Field* latestBefore(
        const std::vector<Field>& fields, std::size_t before, const std::string& path) const;

    const SpaceSystemTree& m_tree;
    TypeConverter& m_types;
    ImportReport& m_report;
    std::set<std::string> m_used;
    bool m_noApid = false;
};

} // namespace telestation::xtce
