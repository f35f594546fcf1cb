#include "core/xtce/alarms.hpp"

#include "core/xtce/xml_numbers.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <string>
#include <vector>

namespace telestation::xtce {

namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();

struct Band {
    double low = -kInf;
    double high = kInf;
    bool present = false;
};

// A bound of a range: an xs:double; -INF and INF are open sides. NaN or junk is reported and ignored.
std::optional<double> boundOf(const XmlElement& range, const char* name, std::string_view typePath, ImportReport& report)
{
    const auto text = range.attribute(name);
    if (!text)
        return std::nullopt;
    const auto value = parseDouble(*text);
    if (!value || std::isnan(*value)) {
        report.warning(range, typePath,
            std::string(range.localName()) + " " + name + " '" + *text + "' is not a number; ignored");
        return std::nullopt;
    }
    return value;
}

// The innermost band of the ranges of one level, side by side (minExclusive/maxExclusive are taken as
// inclusive bounds: docs/xtce.md says why).
Band innermost(const std::vector<XmlElement>& ranges, std::string_view typePath, ImportReport& report)
{
    Band band;
    for (const auto& range : ranges) {
        if (!range)
            continue;
        band.present = true;
        for (const char* name : { "minInclusive", "minExclusive" })
            if (auto value = boundOf(range, name, typePath, report))
                band.low = std::max(band.low, *value);
        for (const char* name : { "maxInclusive", "maxExclusive" })
            if (auto value = boundOf(range, name, typePath, report))
                band.high = std::min(band.high, *value);
    }
    return band;
}

} // namespace

void AlarmReader::reportOtherAlarmForms(const XmlElement& defaultAlarm)
{
    for (const auto& child : defaultAlarm.children()) {
        const auto name = child.localName();
        if (name == "StaticAlarmRanges" || name == "EnumerationAlarmList")
            continue;
        m_report.unsupported(child, m_typePath, std::string(name) + " in DefaultAlarm is not supported");
    }
}

std::optional<mdb::NumericLimits> AlarmReader::numeric(const XmlElement& defaultAlarm)
{
    reportOtherAlarmForms(defaultAlarm);
    const XmlElement ranges = defaultAlarm.child("StaticAlarmRanges");
    if (!ranges)
        return std::nullopt;
    if (ranges.attributeOr("rangeForm", "outside") != "outside") {
        m_report.unsupported(ranges, m_typePath, "StaticAlarmRanges rangeForm 'inside' is not supported");
        return std::nullopt;
    }
    const Band yellow = innermost({ ranges.child("WatchRange"), ranges.child("WarningRange") }, m_typePath, m_report);
    const Band red = innermost(
        { ranges.child("DistressRange"), ranges.child("CriticalRange"), ranges.child("SevereRange") }, m_typePath,
        m_report);
    if (!yellow.present && !red.present)
        return std::nullopt;
    mdb::NumericLimits limits;
    limits.redLow = red.low;
    limits.redHigh = red.high;
    // Only red given: no separate yellow band. A yellow side left open takes the red side.
    limits.yellowLow = yellow.present && yellow.low != -kInf ? yellow.low : red.low;
    limits.yellowHigh = yellow.present && yellow.high != kInf ? yellow.high : red.high;
    if (!(limits.redLow <= limits.yellowLow && limits.yellowLow <= limits.yellowHigh
            && limits.yellowHigh <= limits.redHigh)) {
        m_report.unsupported(ranges, m_typePath, "alarm ranges out of order (a red band inside a yellow one)");
        return std::nullopt;
    }
    return limits;
}

std::optional<mdb::StateLimits> AlarmReader::enumeration(
    const XmlElement& defaultAlarm, const mdb::EnumerationCalibrator& states)
{
    reportOtherAlarmForms(defaultAlarm);
    const XmlElement list = defaultAlarm.child("EnumerationAlarmList");
    const bool defaultNormal = defaultAlarm.attributeOr("defaultAlarmLevel", "normal") == "normal";
    std::vector<std::pair<std::string, bool>> levels; // label, normal
    if (list) {
        for (const auto& alarm : list.children("EnumerationAlarm")) {
            // XTCE 1.2 names the label in enumerationLabel, 1.1 in enumerationValue.
            auto label = alarm.attribute("enumerationLabel");
            if (!label)
                label = alarm.attribute("enumerationValue");
            if (!label) {
                m_report.error(alarm, m_typePath, "EnumerationAlarm without enumerationLabel");
                continue;
            }
            const bool known = std::any_of(
                states.states.begin(), states.states.end(), [&](const mdb::State& s) { return s.text == *label; });
            if (!known)
                m_report.warning(alarm, m_typePath,
                    "EnumerationAlarm names '" + *label + "', which is not a label of the enumeration; ignored");
            levels.emplace_back(*label, alarm.attributeOr("alarmLevel", "normal") == "normal");
        }
    }
    mdb::StateLimits limits;
    for (const auto& state : states.states) {
        bool normal = defaultNormal;
        for (const auto& [label, isNormal] : levels)
            if (label == state.text)
                normal = isNormal;
        if (normal
            && std::find(limits.expectedStates.begin(), limits.expectedStates.end(), state.text)
                == limits.expectedStates.end())
            limits.expectedStates.push_back(state.text);
    }
    return limits;
}

} // namespace telestation::xtce
