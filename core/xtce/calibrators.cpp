#include "core/xtce/calibrators.hpp"

#include "core/xtce/xml_numbers.hpp"

#include <algorithm>
#include <string>

namespace telestation::xtce {

namespace {
constexpr std::int64_t kMaxPolynomialPower = 5;
}

std::optional<mdb::Calibrator> CalibratorReader::read(const XmlElement& holder)
{
    for (const auto& child : holder.children()) {
        const auto name = child.localName();
        if (name == "PolynomialCalibrator")
            return polynomial(child);
        if (name == "SplineCalibrator")
            return spline(child);
        if (name == "MathOperationCalibrator") {
            m_report.unsupported(child, m_typePath, "MathOperationCalibrator is not supported");
            return std::nullopt;
        }
        if (name == "AncillaryDataSet" || name == "LongDescription" || name == "AliasSet")
            continue;
        m_report.unsupported(child, m_typePath, std::string(name) + " is not supported as a calibrator");
        return std::nullopt;
    }
    m_report.unsupported(holder, m_typePath, std::string(holder.localName()) + " without a calibrator");
    return std::nullopt;
}

std::optional<mdb::Calibrator> CalibratorReader::polynomial(const XmlElement& e)
{
    const auto terms = e.children("Term");
    if (terms.empty()) {
        m_report.unsupported(e, m_typePath, "PolynomialCalibrator without Term");
        return std::nullopt;
    }
    std::vector<double> coefficients;
    for (const auto& term : terms) {
        auto exponent = parseInteger(term.attributeOr("exponent", ""));
        auto coefficient = parseReal(term.attributeOr("coefficient", ""));
        if (!exponent || *exponent < 0 || !coefficient) {
            m_report.error(term, m_typePath, "Term needs a non-negative integer exponent and a numeric coefficient");
            return std::nullopt;
        }
        if (*coefficient == 0)
            continue;
        if (*exponent > kMaxPolynomialPower) {
            m_report.unsupported(term, m_typePath,
                "a polynomial of degree " + std::to_string(*exponent) + " is not supported (up to 5)");
            return std::nullopt;
        }
        const auto power = static_cast<std::size_t>(*exponent);
        if (coefficients.size() <= power)
            coefficients.resize(power + 1, 0.0);
        coefficients[power] += *coefficient;
    }
    if (coefficients.empty())
        coefficients.push_back(0.0);
    return mdb::PolynomialCalibrator { std::move(coefficients) };
}

std::optional<mdb::Calibrator> CalibratorReader::spline(const XmlElement& e)
{
    const std::string order = e.attributeOr("order", "1");
    if (parseInteger(order) != 1) {
        m_report.unsupported(
            e, m_typePath, "a SplineCalibrator of order " + order + " is not supported (order 1 only)");
        return std::nullopt;
    }
    mdb::PointPairCalibrator table;
    for (const auto& point : e.children("SplinePoint")) {
        auto raw = parseReal(point.attributeOr("raw", ""));
        auto calibrated = parseReal(point.attributeOr("calibrated", ""));
        if (!raw || !calibrated) {
            m_report.error(point, m_typePath, "SplinePoint needs numeric raw and calibrated values");
            return std::nullopt;
        }
        table.points.push_back(mdb::PointPair { *raw, *calibrated });
    }
    if (table.points.size() < 2) {
        m_report.unsupported(e, m_typePath, "a SplineCalibrator needs at least 2 points");
        return std::nullopt;
    }
    std::stable_sort(table.points.begin(), table.points.end(),
        [](const mdb::PointPair& a, const mdb::PointPair& b) { return a.raw < b.raw; });
    for (std::size_t i = 1; i < table.points.size(); ++i)
        if (table.points[i].raw == table.points[i - 1].raw) {
            m_report.unsupported(e, m_typePath,
                "a SplineCalibrator with two points at raw " + std::to_string(table.points[i].raw)
                    + " (a vertical step) is not supported");
            return std::nullopt;
        }
    return table;
}

std::vector<ContextCalibratorSpec> CalibratorReader::readContexts(const XmlElement& list)
{
    std::vector<ContextCalibratorSpec> out;
    for (const auto& context : list.children("ContextCalibrator")) {
        const XmlElement match = context.child("ContextMatch");
        const XmlElement calibrator = context.child("Calibrator");
        if (!match || !calibrator) {
            m_report.error(context, m_typePath, "ContextCalibrator needs ContextMatch and Calibrator");
            continue;
        }
        auto when = readMatchCriteria(match, m_system, m_typePath, m_report);
        auto calibration = read(calibrator);
        if (!when || !calibration)
            continue;
        if (when->empty()) {
            m_report.error(match, m_typePath, "ContextMatch without a condition");
            continue;
        }
        out.push_back(ContextCalibratorSpec { std::move(*when), std::move(*calibration), context });
    }
    return out;
}

} // namespace telestation::xtce
