// XTCE alarms to model limits. Numeric: DefaultAlarm/StaticAlarmRanges, where each range is the band
// within which the value is acceptable at that level (rangeForm "outside", the default): yellow limits
// from the innermost of WatchRange/WarningRange, red limits from the innermost of DistressRange/
// CriticalRange/SevereRange, an open side at -inf/+inf. Enumerations: EnumerationAlarm levels give the
// expected states. Context alarms, custom alarms and change/multi-range alarms are unsupported.
#pragma once

#include "core/mdb/model.hpp"
#include "core/xtce/import_report.hpp"

#include <optional>
#include <string_view>

namespace telestation::xtce {

class AlarmReader {
public:
    AlarmReader(std::string_view typePath, ImportReport& report)
        : m_typePath(typePath)
        , m_report(report)
    { }

    // nullopt: no limits (nothing usable, or reported as unsupported).
    [[nodiscard]] std::optional<mdb::NumericLimits> numeric(const XmlElement& defaultAlarm);
    [[nodiscard]] std::optional<mdb::StateLimits> enumeration(
        const XmlElement& defaultAlarm, const mdb::EnumerationCalibrator& states);

private:
    void reportOtherAlarmForms(const XmlElement& defaultAlarm);

    std::string_view m_typePath;
    ImportReport& m_report;
};

} // namespace telestation::xtce
