// XTCE elements the export writes in several places: AncillaryDataSet (on the root, containers,
// parameters and calibrators) and match criteria (IncludeCondition, ContextMatch, RestrictionCriteria).
#pragma once

#include "core/mdb/model.hpp"
#include "core/xtce/export_plan.hpp"
#include "core/xtce/xml_writer.hpp"

#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace telestation::xtce {

using AncillaryList = std::vector<std::pair<std::string_view, std::string>>; // name, value

// Nothing when the list is empty (an XTCE set needs at least one member).
void writeAncillaryDataSet(XmlWriter& w, const AncillaryList& data);

void writeComparison(
    XmlWriter& w, const std::string& parameterRef, bool calibrated, mdb::CompareOp op, const std::string& value);

// One Comparison, or a ComparisonList for several, on the XTCE names of the packet's parameters.
void writeConditions(XmlWriter& w, const PacketPlan& packet, const std::vector<mdb::Condition>& when);

} // namespace telestation::xtce
