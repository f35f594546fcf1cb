// XTCE parameter types to field types: Integer, Float, Enumerated, Boolean, String, Binary and
// AbsoluteTime types become scalars (data encoding, calibrators, alarms, units); Array types with fixed
// dimensions and Aggregate types become their members, flattened. Each type is converted once and
// every problem in it is reported once, by the type's path.
#pragma once

#include "core/xtce/field_type.hpp"
#include "core/xtce/import_report.hpp"
#include "core/xtce/space_system_tree.hpp"

#include <map>
#include <memory>
#include <set>
#include <string>

namespace telestation::xtce {

inline constexpr std::uint64_t kMaxMembers = 100000; // scalars of one array or aggregate parameter

class TypeConverter {
public:
    TypeConverter(const SpaceSystemTree& tree, ImportReport& report)
        : m_tree(tree)
        , m_report(report)
    { }

    // nullptr after reporting when a field of this type cannot be laid out at all.
    [[nodiscard]] std::shared_ptr<const FieldType> convert(const Definition& type);

private:
    [[nodiscard]] std::shared_ptr<const FieldType> convertUncached(const Definition& type);
    [[nodiscard]] std::shared_ptr<const FieldType> scalar(const Definition& type);
    [[nodiscard]] std::shared_ptr<const FieldType> array(const Definition& type);
    [[nodiscard]] std::shared_ptr<const FieldType> aggregate(const Definition& type);
    void reportUnknownChildren(const Definition& type);
    void readEnumeration(const Definition& type, ScalarType& out);
    void readBoolean(const Definition& type, ScalarType& out);
    [[nodiscard]] bool readTime(const Definition& type, const XmlElement& encoding, ScalarType& out);
    void readCalibrators(const Definition& type, const XmlElement& encoding, ScalarType& out);
    void readAlarm(const Definition& type, ScalarType& out);

    const SpaceSystemTree& m_tree;
    ImportReport& m_report;
    std::map<std::string, std::shared_ptr<const FieldType>> m_cache; // by path; nullptr = failed
    std::set<std::string> m_inProgress;
};

} // namespace telestation::xtce
