// XTCE calibrators to model calibrators: PolynomialCalibrator (up to the 5th power), SplineCalibrator
// of order 1 (piecewise linear), and ContextCalibratorList (whose conditions are resolved per packet).
// MathOperationCalibrator and splines of other orders are unsupported.
#pragma once

#include "core/mdb/model.hpp"
#include "core/xtce/field_type.hpp"
#include "core/xtce/import_report.hpp"
#include "core/xtce/space_system_tree.hpp"

#include <optional>
#include <string_view>
#include <vector>

namespace telestation::xtce {

class CalibratorReader {
public:
    CalibratorReader(const SpaceSystemNode& system, std::string_view typePath, ImportReport& report)
        : m_system(system)
        , m_typePath(typePath)
        , m_report(report)
    { }

    // `holder` is a DefaultCalibrator or a context's Calibrator. nullopt after reporting when the
    // calibrator cannot be expressed.
    [[nodiscard]] std::optional<mdb::Calibrator> read(const XmlElement& holder);
    // The contexts that can be expressed; each other one is reported.
    [[nodiscard]] std::vector<ContextCalibratorSpec> readContexts(const XmlElement& list);

private:
    [[nodiscard]] std::optional<mdb::Calibrator> polynomial(const XmlElement& e);
    [[nodiscard]] std::optional<mdb::Calibrator> spline(const XmlElement& e);

    const SpaceSystemNode& m_system;
    std::string_view m_typePath;
    ImportReport& m_report;
};

} // namespace telestation::xtce
