#include "core/xtce/parameter_type_writer.hpp"

#include "core/xtce/ancillary_data.hpp"
#include "core/xtce/export_elements.hpp"
#include "core/xtce/time_instant.hpp"
#include "core/xtce/xml_numbers.hpp"

#include <array>
#include <cmath>
#include <cstdio>
#include <limits>
#include <variant>

namespace telestation::xtce {

using mdb::ByteOrder;
using mdb::DataType;
using mdb::SizeKind;

namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();
constexpr std::uint32_t kMaxDataFieldBits = 65536u * 8u;
// XTCE 1.2 demands a DynamicValue in a Variable string even when only a terminator or a leading size
// ends it; Yamcs reads this reference as "none" (its strings-tm.xml example), so does the importer.
constexpr std::string_view kIgnoredSizeReference = "_yamcs_ignore";

std::string_view integerEncoding(DataType type)
{
    switch (type) {
    case DataType::UnsignedInt:
        return "unsigned";
    case DataType::SignedInt:
        return "twosComplement";
    case DataType::SignMagnitudeInt:
        return "signMagnitude";
    case DataType::OnesComplementInt:
        return "onesComplement";
    case DataType::Float:
    case DataType::String:
    case DataType::Bytes:
        break;
    }
    return "unsigned";
}

std::uint64_t maxSizeInBits(const mdb::ParameterDef& d)
{
    return d.size.maxBytes == 0 ? kMaxDataFieldBits : std::uint64_t { d.size.maxBytes } * 8;
}

} // namespace

TypeKind typeKindOf(const mdb::ParameterDef& p)
{
    switch (p.type) {
    case DataType::String:
        return TypeKind::String;
    case DataType::Bytes:
        return TypeKind::Binary;
    case DataType::UnsignedInt:
    case DataType::SignedInt:
    case DataType::SignMagnitudeInt:
    case DataType::OnesComplementInt:
    case DataType::Float:
        break;
    }
    if (std::holds_alternative<mdb::EnumerationCalibrator>(p.calibrator))
        return TypeKind::Enumerated;
    if (std::holds_alternative<mdb::TimeCalibrator>(p.calibrator) && p.contextCalibrators.empty())
        return TypeKind::AbsoluteTime;
    if (p.type == DataType::Float)
        return TypeKind::Float;
    // A calibrated integer has a real engineering value: XTCE says so with a FloatParameterType.
    const bool calibrated = !std::holds_alternative<std::monostate>(p.calibrator) || !p.contextCalibrators.empty();
    return calibrated ? TypeKind::Float : TypeKind::Integer;
}

void ParameterTypeWriter::polynomial(const std::vector<double>& coefficients)
{
    m_w.open("PolynomialCalibrator");
    for (std::size_t power = 0; power < coefficients.size(); ++power)
        m_w.leaf("Term", { { "coefficient", formatDouble(coefficients[power]) }, { "exponent", std::to_string(power) } });
    m_w.close();
}

// The calibrator's element (the content of a DefaultCalibrator or a context's Calibrator). A time
// is written as the polynomial of its value and kept exactly in AncillaryData telestation.time.
void ParameterTypeWriter::calibratorContent(const mdb::Calibrator& calibrator)
{
    if (const auto* poly = std::get_if<mdb::PolynomialCalibrator>(&calibrator)) {
        polynomial(poly->coefficients);
    } else if (const auto* table = std::get_if<mdb::PointPairCalibrator>(&calibrator)) {
        m_w.open("SplineCalibrator", { { "order", "1" }, { "extrapolate", "true" } });
        for (const auto& point : table->points)
            m_w.leaf("SplinePoint", { { "raw", formatDouble(point.raw) }, { "calibrated", formatDouble(point.calibrated) } });
        m_w.close();
    } else if (const auto* time = std::get_if<mdb::TimeCalibrator>(&calibrator)) {
        writeAncillaryDataSet(m_w, { { anc::kTime, anc::timeText(*time) } });
        polynomial({ time->epochUnixSeconds + time->offset, time->scale });
    }
}

void ParameterTypeWriter::numericEncoding(const PacketPlan& p, const mdb::ParameterDef& d, bool withCalibrators)
{
    XmlWriter::Attributes a;
    const bool little = mdb::effectiveByteOrder(*p.def, d) == ByteOrder::LittleEndian;
    const std::string_view element = d.type == DataType::Float ? "FloatDataEncoding" : "IntegerDataEncoding";
    if (d.type == DataType::Float)
        a = { { "encoding", "IEEE754_1985" }, { "sizeInBits", std::to_string(d.bitLength) } };
    else
        a = { { "encoding", std::string(integerEncoding(d.type)) }, { "sizeInBits", std::to_string(d.bitLength) } };
    if (little)
        a.emplace_back("byteOrder", "leastSignificantByteFirst");
    const bool hasDefault = withCalibrators && !std::holds_alternative<std::monostate>(d.calibrator)
        && !std::holds_alternative<mdb::EnumerationCalibrator>(d.calibrator);
    const bool hasContexts = withCalibrators && !d.contextCalibrators.empty();
    if (!hasDefault && !hasContexts) {
        m_w.leaf(element, a);
        return;
    }
    m_w.open(element, a);
    if (hasDefault) {
        m_w.open("DefaultCalibrator");
        if (const auto* time = std::get_if<mdb::TimeCalibrator>(&d.calibrator))
            polynomial({ time->epochUnixSeconds + time->offset, time->scale }); // exact in telestation.time
        else
            calibratorContent(d.calibrator);
        m_w.close();
    }
    if (hasContexts) {
        m_w.open("ContextCalibratorList");
        for (const auto& context : d.contextCalibrators) {
            m_w.open("ContextCalibrator");
            m_w.open("ContextMatch");
            writeConditions(m_w, p, context.when);
            m_w.close();
            m_w.open("Calibrator");
            calibratorContent(context.calibrator);
            m_w.close();
            m_w.close();
        }
        m_w.close();
    }
    m_w.close();
}

void ParameterTypeWriter::dynamicValue(const std::string& parameterRef, bool ignored, double slope, double intercept)
{
    m_w.open("DynamicValue");
    if (ignored) {
        m_w.leaf("ParameterInstanceRef", { { "parameterRef", parameterRef } });
    } else {
        m_w.leaf("ParameterInstanceRef", { { "parameterRef", parameterRef }, { "useCalibratedValue", "false" } });
        m_w.leaf("LinearAdjustment", { { "slope", formatDouble(slope) }, { "intercept", formatDouble(intercept) } });
    }
    m_w.close();
}

void ParameterTypeWriter::stringEncoding(const PacketPlan& p, const mdb::ParameterDef& d)
{
    m_w.open("StringDataEncoding", { { "encoding", "UTF-8" } });
    switch (d.size.kind) {
    case SizeKind::Fixed:
        m_w.open("SizeInBits");
        m_w.open("Fixed");
        m_w.textElement("FixedValue", std::to_string(d.bitLength));
        m_w.close();
        m_w.close();
        break;
    case SizeKind::Terminated: {
        m_w.open("Variable", { { "maxSizeInBits", std::to_string(maxSizeInBits(d)) } });
        dynamicValue(std::string(kIgnoredSizeReference), true, 1, 0);
        std::array<char, 3> hex {};
        std::snprintf(hex.data(), hex.size(), "%02X", static_cast<unsigned>(d.size.terminator));
        m_w.textElement("TerminationChar", hex.data());
        m_w.close();
        break;
    }
    case SizeKind::LeadingSize:
        m_w.open("Variable", { { "maxSizeInBits", std::to_string(maxSizeInBits(d)) } });
        dynamicValue(std::string(kIgnoredSizeReference), true, 1, 0);
        m_w.leaf("LeadingSize", { { "sizeInBitsOfSizeTag", std::to_string(d.size.leadingSizeBits) } });
        m_w.close();
        break;
    case SizeKind::FromParameter:
        m_w.open("Variable", { { "maxSizeInBits", std::to_string(maxSizeInBits(d)) } });
        dynamicValue(p.xtceNameOf(d.size.sizeParameter), false, d.size.sizeSlope, d.size.sizeIntercept);
        m_w.close();
        break;
    }
    m_w.close();
}

void ParameterTypeWriter::binaryEncoding(const PacketPlan& p, const mdb::ParameterDef& d)
{
    m_w.open("BinaryDataEncoding");
    m_w.open("SizeInBits");
    switch (d.size.kind) {
    case SizeKind::FromParameter:
        dynamicValue(p.xtceNameOf(d.size.sizeParameter), false, d.size.sizeSlope, d.size.sizeIntercept);
        break;
    case SizeKind::Fixed:
    case SizeKind::Terminated:  // not valid for bytes: written as the fixed size
    case SizeKind::LeadingSize:
        m_w.textElement("FixedValue", std::to_string(d.bitLength));
        break;
    }
    m_w.close();
    m_w.close();
}

void ParameterTypeWriter::unitSet(const std::string& units)
{
    if (units.empty())
        return;
    m_w.open("UnitSet");
    m_w.textElement("Unit", units);
    m_w.close();
}

void ParameterTypeWriter::numericAlarm(const mdb::Limits& limits)
{
    const auto* numeric = std::get_if<mdb::NumericLimits>(&limits);
    if (numeric == nullptr)
        return;
    const auto range = [](double low, double high) {
        XmlWriter::Attributes a;
        if (low != -kInf)
            a.emplace_back("minInclusive", formatDouble(low));
        if (high != kInf)
            a.emplace_back("maxInclusive", formatDouble(high));
        return a;
    };
    m_w.open("DefaultAlarm");
    m_w.open("StaticAlarmRanges");
    m_w.leaf("WarningRange", range(numeric->yellowLow, numeric->yellowHigh));
    if (numeric->redLow != -kInf || numeric->redHigh != kInf)
        m_w.leaf("CriticalRange", range(numeric->redLow, numeric->redHigh));
    m_w.close();
    m_w.close();
}

void ParameterTypeWriter::enumerationAlarm(const mdb::Limits& limits)
{
    const auto* states = std::get_if<mdb::StateLimits>(&limits);
    if (states == nullptr)
        return;
    // Unexpected states (and codes without a state) are critical.
    if (states->expectedStates.empty()) {
        m_w.leaf("DefaultAlarm", { { "defaultAlarmLevel", "critical" } });
        return;
    }
    m_w.open("DefaultAlarm", { { "defaultAlarmLevel", "critical" } });
    m_w.open("EnumerationAlarmList");
    for (const auto& state : states->expectedStates)
        m_w.leaf("EnumerationAlarm", { { "alarmLevel", "normal" }, { "enumerationLabel", state } });
    m_w.close();
    m_w.close();
}

void ParameterTypeWriter::write(const ExportPlan& plan)
{
    m_w.open("ParameterTypeSet");
    if (plan.needsHeaderBase)
        for (const auto& field : kPrimaryHeader)
            unsignedType(std::string(field.name) + "_Type", field.bitLength);
    for (const auto& p : plan.packets) {
        for (const auto& f : p.leading)
            hiddenType(f);
        for (const auto& q : p.parameters)
            parameterType(p, q);
        for (const auto& f : p.trailing)
            hiddenType(f);
    }
    m_w.close();
}

void ParameterTypeWriter::unsignedType(const std::string& name, std::uint32_t bits)
{
    m_w.open("IntegerParameterType",
        { { "name", name }, { "signed", "false" }, { "sizeInBits", bits <= 32 ? "32" : "64" } });
    m_w.leaf("IntegerDataEncoding", { { "encoding", "unsigned" }, { "sizeInBits", std::to_string(bits) } });
    m_w.close();
}

void ParameterTypeWriter::hiddenType(const HiddenField& f)
{
    if (!f.cucTime) {
        unsignedType(f.typeName, f.bitLength);
        return;
    }
    m_w.open("AbsoluteTimeParameterType", { { "name", f.typeName } });
    XmlWriter::Attributes encoding { { "units", "seconds" } };
    if (f.cucTime->fineBytes > 0)
        encoding.emplace_back("scale", formatDouble(std::ldexp(1.0, -8 * f.cucTime->fineBytes)));
    m_w.open("Encoding", encoding);
    m_w.leaf("IntegerDataEncoding", { { "encoding", "unsigned" }, { "sizeInBits", std::to_string(f.bitLength) } });
    m_w.close();
    m_w.open("ReferenceTime");
    m_w.textElement("Epoch", anc::epochKeyword(f.cucTime->epoch));
    m_w.close();
    m_w.close();
}

void ParameterTypeWriter::parameterType(const PacketPlan& p, const ParameterPlan& q)
{
    const mdb::ParameterDef& d = *q.def;
    const TypeKind kind = typeKindOf(d);
    switch (kind) {
    case TypeKind::Integer:
        m_w.open("IntegerParameterType", { { "name", q.typeName },
                                            { "signed", d.type == DataType::UnsignedInt ? "false" : "true" },
                                            { "sizeInBits", d.bitLength <= 32 ? "32" : "64" } });
        unitSet(d.units);
        numericEncoding(p, d, true);
        numericAlarm(d.limits);
        m_w.close();
        return;
    case TypeKind::Float: {
        const bool single = d.type == DataType::Float && d.bitLength == 32;
        m_w.open("FloatParameterType", { { "name", q.typeName }, { "sizeInBits", single ? "32" : "64" } });
        unitSet(d.units);
        numericEncoding(p, d, true);
        numericAlarm(d.limits);
        m_w.close();
        return;
    }
    case TypeKind::Enumerated: {
        m_w.open("EnumeratedParameterType", { { "name", q.typeName } });
        unitSet(d.units);
        numericEncoding(p, d, true); // contexts only: the enumeration is the EnumerationList
        m_w.open("EnumerationList");
        for (const auto& state : std::get<mdb::EnumerationCalibrator>(d.calibrator).states) {
            XmlWriter::Attributes a { { "value", std::to_string(state.low) } };
            if (state.high != state.low)
                a.emplace_back("maxValue", std::to_string(state.high));
            a.emplace_back("label", state.text);
            m_w.leaf("Enumeration", a);
        }
        m_w.close();
        enumerationAlarm(d.limits);
        m_w.close();
        return;
    }
    case TypeKind::AbsoluteTime: {
        const auto& time = std::get<mdb::TimeCalibrator>(d.calibrator);
        m_w.open("AbsoluteTimeParameterType", { { "name", q.typeName } });
        XmlWriter::Attributes encoding { { "units", "seconds" } };
        if (time.scale != 1)
            encoding.emplace_back("scale", formatDouble(time.scale));
        if (time.offset != 0)
            encoding.emplace_back("offset", formatDouble(time.offset));
        m_w.open("Encoding", encoding);
        numericEncoding(p, d, false);
        m_w.close();
        m_w.open("ReferenceTime");
        m_w.textElement("Epoch", writeTimeInstant(time.epochUnixSeconds).text);
        m_w.close();
        m_w.close();
        return;
    }
    case TypeKind::String:
        m_w.open("StringParameterType", { { "name", q.typeName } });
        unitSet(d.units);
        stringEncoding(p, d);
        m_w.close();
        return;
    case TypeKind::Binary:
        m_w.open("BinaryParameterType", { { "name", q.typeName } });
        unitSet(d.units);
        binaryEncoding(p, d);
        m_w.close();
        return;
    }
}

} // namespace telestation::xtce
