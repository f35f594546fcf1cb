// The codes the SQLite store writes in its TEXT columns, shared by loading and saving. Codes are the
// keywords of the text definition language, so that a person reading the file with the sqlite3 shell
// sees the same words. Internal to the store (sqlite_*.cpp).
#pragma once

#include "core/mdb/keywords.hpp"
#include "core/mdb/model.hpp"

#include <array>
#include <cstddef>
#include <optional>
#include <string_view>
#include <utility>
#include <variant>

namespace telestation::mdb::detail {

enum class CalibratorKind { Polynomial, PointPairs, Enumeration, Time };
enum class LimitsKind { Numeric, ExpectedStates };

inline constexpr const auto& kByteOrderCodes = kByteOrderKeywords;
inline constexpr const auto& kDataTypeCodes = kDataTypeKeywords;
inline constexpr const auto& kEpochCodes = kEpochKeywords;
inline constexpr std::array<std::pair<std::string_view, CalibratorKind>, 4> kCalibratorCodes { {
    { "POLYNOMIAL", CalibratorKind::Polynomial },
    { "POINT_PAIRS", CalibratorKind::PointPairs },
    { "ENUMERATION", CalibratorKind::Enumeration },
    { "TIME", CalibratorKind::Time },
} };
inline constexpr std::array<std::pair<std::string_view, LimitsKind>, 2> kLimitsCodes { {
    { "NUMERIC", LimitsKind::Numeric },
    { "EXPECTED_STATES", LimitsKind::ExpectedStates },
} };
inline constexpr const auto& kCompareOpCodes = kCompareOpKeywords;
inline constexpr const auto& kSizeKindCodes = kSizeKindKeywords;
inline constexpr const auto& kPlacementCodes = kPlacementKeywords;

template <typename E, std::size_t N>
[[nodiscard]] std::string_view codeOf(const std::array<std::pair<std::string_view, E>, N>& table, E value)
{
    for (const auto& [code, v] : table)
        if (v == value)
            return code;
    return {}; // unreachable for the enums above; an empty code then fails the CHECK
}

// The code of a calibrator's kind; nothing for none.
[[nodiscard]] inline std::optional<std::string_view> calibratorCode(const Calibrator& calibrator)
{
    if (std::holds_alternative<PolynomialCalibrator>(calibrator))
        return codeOf(kCalibratorCodes, CalibratorKind::Polynomial);
    if (std::holds_alternative<PointPairCalibrator>(calibrator))
        return codeOf(kCalibratorCodes, CalibratorKind::PointPairs);
    if (std::holds_alternative<EnumerationCalibrator>(calibrator))
        return codeOf(kCalibratorCodes, CalibratorKind::Enumeration);
    if (std::holds_alternative<TimeCalibrator>(calibrator))
        return codeOf(kCalibratorCodes, CalibratorKind::Time);
    return std::nullopt;
}

// An empty calibrator of a kind, for the rows of its child tables to fill.
[[nodiscard]] inline Calibrator emptyCalibrator(std::optional<CalibratorKind> kind)
{
    if (!kind)
        return std::monostate {};
    switch (*kind) {
    case CalibratorKind::Polynomial:
        return PolynomialCalibrator {};
    case CalibratorKind::PointPairs:
        return PointPairCalibrator {};
    case CalibratorKind::Enumeration:
        return EnumerationCalibrator {};
    case CalibratorKind::Time:
        return TimeCalibrator {};
    }
    return std::monostate {};
}

} // namespace telestation::mdb::detail
