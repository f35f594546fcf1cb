// The ParameterTypeSet of the XTCE export: one type per parameter (and per hidden or primary header
// field), with its data encoding, calibrators, units and alarm. docs/xtce.md, "Export", "Parameters".
#pragma once

#include "core/mdb/model.hpp"
#include "core/xtce/export_plan.hpp"
#include "core/xtce/xml_writer.hpp"

#include <cstdint>
#include <string>
#include <vector>

namespace telestation::xtce {

enum class TypeKind { Integer, Float, Enumerated, AbsoluteTime, String, Binary };

// The XTCE parameter type a model parameter is written as: a calibrated integer is a
// FloatParameterType (its engineering value is real); a time with contexts is one too.
[[nodiscard]] TypeKind typeKindOf(const mdb::ParameterDef& p);

class ParameterTypeWriter {
public:
    explicit ParameterTypeWriter(XmlWriter& w)
        : m_w(w)
    { }

    void write(const ExportPlan& plan);

private:
    void unsignedType(const std::string& name, std::uint32_t bits);
    void hiddenType(const HiddenField& f);
    void parameterType(const PacketPlan& p, const ParameterPlan& q);

    void numericEncoding(const PacketPlan& p, const mdb::ParameterDef& d, bool withCalibrators);
    void stringEncoding(const PacketPlan& p, const mdb::ParameterDef& d);
    void binaryEncoding(const PacketPlan& p, const mdb::ParameterDef& d);
    void dynamicValue(const std::string& parameterRef, bool ignored, double slope, double intercept);

    void polynomial(const std::vector<double>& coefficients);
    void calibratorContent(const mdb::Calibrator& calibrator);
    void unitSet(const std::string& units);
    void numericAlarm(const mdb::Limits& limits);
    void enumerationAlarm(const mdb::Limits& limits);

    XmlWriter& m_w;
};

} // namespace telestation::xtce
