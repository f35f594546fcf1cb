#include "core/xtce/match_criteria.hpp"

namespace telestation::xtce {

namespace {

bool parseBoolean(std::string_view text, bool fallback)
{
    if (text == "true" || text == "1")
        return true;
    if (text == "false" || text == "0")
        return false;
    return fallback;
}

std::optional<Comparison> readComparison(
    const XmlElement& element, const SpaceSystemNode& system, std::string_view ownerPath, ImportReport& report)
{
    Comparison c;
    c.at = element;
    c.system = &system;
    c.parameterRef = element.attributeOr("parameterRef", "");
    if (c.parameterRef.empty()) {
        report.error(element, ownerPath, "Comparison without parameterRef");
        return std::nullopt;
    }
    const std::string op = element.attributeOr("comparisonOperator", "==");
    auto parsed = parseCompareOp(op);
    if (!parsed) {
        report.error(element, ownerPath, "Comparison with an unknown comparisonOperator '" + op + "'");
        return std::nullopt;
    }
    c.op = *parsed;
    auto value = element.attribute("value");
    if (!value) {
        report.error(element, ownerPath, "Comparison without value");
        return std::nullopt;
    }
    c.value = *value;
    c.useCalibratedValue = parseBoolean(element.attributeOr("useCalibratedValue", "true"), true);
    if (element.attributeOr("instance", "0") != "0") {
        report.unsupported(
            element, ownerPath, "Comparison on another instance than the latest (instance != 0) is not supported");
        return std::nullopt;
    }
    return c;
}

// A BooleanExpression Condition: ParameterInstanceRef, ComparisonOperator, then Value.
std::optional<Comparison> readCondition(
    const XmlElement& element, const SpaceSystemNode& system, std::string_view ownerPath, ImportReport& report)
{
    const auto refs = element.children("ParameterInstanceRef");
    const XmlElement op = element.child("ComparisonOperator");
    const XmlElement value = element.child("Value");
    if (refs.size() != 1 || !value) {
        report.unsupported(element, ownerPath,
            "a Condition comparing two parameters is not supported (only a parameter against a Value)");
        return std::nullopt;
    }
    if (!op) {
        report.error(element, ownerPath, "Condition without ComparisonOperator");
        return std::nullopt;
    }
    auto parsed = parseCompareOp(op.text());
    if (!parsed) {
        report.error(op, ownerPath, "unknown ComparisonOperator '" + op.text() + "'");
        return std::nullopt;
    }
    Comparison c;
    c.at = element;
    c.system = &system;
    c.parameterRef = refs.front().attributeOr("parameterRef", "");
    c.op = *parsed;
    c.value = value.text();
    c.useCalibratedValue = parseBoolean(refs.front().attributeOr("useCalibratedValue", "true"), true);
    if (c.parameterRef.empty()) {
        report.error(refs.front(), ownerPath, "ParameterInstanceRef without parameterRef");
        return std::nullopt;
    }
    return c;
}

} // namespace

std::optional<mdb::CompareOp> parseCompareOp(std::string_view text)
{
    using mdb::CompareOp;
    if (text == "==" || text == "=" || text == "eq")
        return CompareOp::Equal;
    if (text == "!=" || text == "neq")
        return CompareOp::NotEqual;
    if (text == "<" || text == "lt")
        return CompareOp::Less;
    if (text == "<=" || text == "leq")
        return CompareOp::LessOrEqual;
    if (text == ">" || text == "gt")
        return CompareOp::Greater;
    if (text == ">=" || text == "geq")
        return CompareOp::GreaterOrEqual;
    return std::nullopt;
}

std::string_view compareOpText(mdb::CompareOp op)
{
    switch (op) {
    case mdb::CompareOp::Equal:
        return "==";
    case mdb::CompareOp::NotEqual:
        return "!=";
    case mdb::CompareOp::Less:
        return "<";
    case mdb::CompareOp::LessOrEqual:
        return "<=";
    case mdb::CompareOp::Greater:
        return ">";
    case mdb::CompareOp::GreaterOrEqual:
        return ">=";
    }
    return "?";
}

std::optional<std::vector<Comparison>> readMatchCriteria(
    const XmlElement& holder, const SpaceSystemNode& system, std::string_view ownerPath, ImportReport& report)
{
    std::vector<Comparison> out;
    bool ok = true;
    const auto take = [&](std::optional<Comparison> c) {
        if (c)
            out.push_back(std::move(*c));
        else
            ok = false;
    };
    for (const auto& child : holder.children()) {
        const auto name = child.localName();
        if (name == "Comparison") {
            take(readComparison(child, system, ownerPath, report));
        } else if (name == "ComparisonList") {
            for (const auto& c : child.children("Comparison"))
                take(readComparison(c, system, ownerPath, report));
        } else if (name == "BooleanExpression") {
            for (const auto& part : child.children()) {
                if (part.localName() == "Condition") {
                    take(readCondition(part, system, ownerPath, report));
                } else if (part.localName() == "ANDedConditions") {
                    for (const auto& term : part.children()) {
                        if (term.localName() == "Condition") {
                            take(readCondition(term, system, ownerPath, report));
                        } else {
                            report.unsupported(term, ownerPath,
                                std::string(term.localName())
                                    + " inside ANDedConditions is not supported (only Conditions)");
                            ok = false;
                        }
                    }
                } else {
                    report.unsupported(part, ownerPath,
                        std::string(part.localName())
                            + " is not supported (a BooleanExpression must be a Condition or ANDedConditions)");
                    ok = false;
                }
            }
        } else if (name == "NextContainer") {
            continue; // a hint for stream processing; the criteria themselves decide
        } else {
            report.unsupported(child, ownerPath, std::string(name) + " is not supported as a match criterion");
            ok = false;
        }
    }
    if (!ok)
        return std::nullopt;
    return out;
}

} // namespace telestation::xtce
