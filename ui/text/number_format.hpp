// How the GUI writes counts, rates and values for operators, in one place so that every view writes them the
// same way: counts exact with the locale's digit grouping, rates compact as the headless status line
// writes them (core/stats/status_line.hpp).
#pragma once

#include <QString>

#include <cstdint>

namespace telestation::ui {

// Exact, grouped by the locale: "1,234,567".
[[nodiscard]] QString countText(std::uint64_t value);
// Three significant digits with k/M/G… from 1000 on: "97.1k", "6.31M" (stats::formatCompact).
[[nodiscard]] QString compactText(double value);
// A measured value (converted, calibrated, a limit): up to ten significant digits, no grouping, so that
// it reads back as typed ("182.5", "1e-06"; "nan" and "inf" as they are).
[[nodiscard]] QString valueText(double value);

} // namespace telestation::ui
