// XTCE match criteria (RestrictionCriteria, IncludeCondition, ContextMatch): the conjunctions the
// model can express. A Comparison, a ComparisonList (all must hold), or a BooleanExpression made of one
// Condition or of ANDedConditions of Conditions against a literal Value. ORedConditions, a Condition
// against another parameter, and CustomAlgorithm are unsupported.
#pragma once

#include "core/mdb/model.hpp"
#include "core/xtce/import_report.hpp"
#include "core/xtce/space_system_tree.hpp"

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace telestation::xtce {

// One "parameter OP value" as written: the reference is resolved later, in the packet it applies to.
struct Comparison {
    std::string parameterRef;
    mdb::CompareOp op = mdb::CompareOp::Equal;
    std::string value;
    bool useCalibratedValue = true; // XTCE's default
    XmlElement at;
    const SpaceSystemNode* system = nullptr; // where parameterRef resolves
};

[[nodiscard]] std::optional<mdb::CompareOp> parseCompareOp(std::string_view text);
[[nodiscard]] std::string_view compareOpText(mdb::CompareOp op);

// Reads the criteria that are children of `holder`; nullopt after reporting when they cannot be
// expressed. An empty holder gives an empty list.
[[nodiscard]] std::optional<std::vector<Comparison>> readMatchCriteria(
    const XmlElement& holder, const SpaceSystemNode& system, std::string_view ownerPath, ImportReport& report);

} // namespace telestation::xtce
