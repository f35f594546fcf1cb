#include "core/xtce/export_elements.hpp"

#include "core/xtce/match_criteria.hpp"
#include "core/xtce/xml_numbers.hpp"

namespace telestation::xtce {

void writeAncillaryDataSet(XmlWriter& w, const AncillaryList& data)
{
    if (data.empty())
        return;
    w.open("AncillaryDataSet");
    for (const auto& [name, value] : data)
        w.textElement("AncillaryData", value, { { "name", std::string(name) } });
    w.close();
}

void writeComparison(
    XmlWriter& w, const std::string& parameterRef, bool calibrated, mdb::CompareOp op, const std::string& value)
{
    w.leaf("Comparison", { { "parameterRef", parameterRef }, { "useCalibratedValue", calibrated ? "true" : "false" },
                             { "comparisonOperator", std::string(compareOpText(op)) }, { "value", value } });
}

void writeConditions(XmlWriter& w, const PacketPlan& packet, const std::vector<mdb::Condition>& when)
{
    const auto one = [&](const mdb::Condition& c) {
        writeComparison(w, packet.xtceNameOf(c.parameter), c.calibrated, c.op, formatDouble(c.value));
    };
    if (when.size() == 1) {
        one(when.front());
        return;
    }
    w.open("ComparisonList");
    for (const auto& c : when)
        one(c);
    w.close();
}

} // namespace telestation::xtce
