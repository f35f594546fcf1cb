// The XTCE export: the document around the parameter types (parameter_type_writer.cpp) — the root SpaceSystem,
// the ParameterSet and the ContainerSet — as planned by export_plan.cpp.
#include "core/xtce/xtce_export.hpp"

#include "core/xtce/ancillary_data.hpp"
#include "core/xtce/export_elements.hpp"
#include "core/xtce/export_plan.hpp"
#include "core/xtce/parameter_type_writer.hpp"
#include "core/xtce/time_instant.hpp"
#include "core/xtce/xml_document.hpp"
#include "core/xtce/xml_numbers.hpp"
#include "core/xtce/xml_writer.hpp"

#include <algorithm>
#include <fstream>
#include <type_traits>
#include <variant>

namespace telestation::xtce {

namespace {

using mdb::ByteOrder;
using mdb::DataType;
using mdb::SizeKind;

class Exporter {
public:
    explicit Exporter(const mdb::MissionDatabase& db)
        : m_db(db)
        , m_plan(planExport(db))
    { }

    std::string run()
    {
        m_w.raw("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
        m_w.raw("<!-- Written by Telestation: XTCE 1.2. What XTCE has no element for is kept in AncillaryData\n"
                "     named telestation.*; hidden parameters (telestation.role) are not in the mission database.\n"
                "     See docs/xtce.md, \"Export\". -->\n");
        const std::string rootName = m_db.name.empty() ? std::string("Telestation") : sanitize(m_db.name);
        m_w.open("SpaceSystem", { { "xmlns:xtce", std::string(kXtceNamespace12) }, { "name", rootName } });
        writeAncillaryDataSet(m_w, { { anc::kFormat, std::string(anc::kFormatVersion) }, { anc::kMission, m_db.name } });
        // Every set of XTCE needs at least one member: an empty database has an empty TelemetryMetaData.
        m_w.open("TelemetryMetaData");
        if (m_plan.needsHeaderBase
            || std::any_of(m_plan.packets.begin(), m_plan.packets.end(), [](const PacketPlan& p) {
                   return p.hasEntries();
               })) {
            ParameterTypeWriter(m_w).write(m_plan);
            writeParameters();
        }
        if (!m_plan.packets.empty())
            writeContainers();
        m_w.close();
        m_w.close();
        return m_w.take();
    }

private:
    // LongDescription, AliasSet, AncillaryDataSet: the children every NameDescriptionType begins with.
    void descriptionChildren(const std::string& longDescription, const std::string& modelName,
        const std::vector<mdb::Alias>& aliases, const AncillaryList& ancillary)
    {
        if (!longDescription.empty())
            m_w.textElement("LongDescription", longDescription);
        if (!modelName.empty() || !aliases.empty()) {
            m_w.open("AliasSet");
            if (!modelName.empty())
                m_w.leaf("Alias", { { "nameSpace", std::string(kTelestationAliasNameSpace) }, { "alias", modelName } });
            for (const auto& a : aliases)
                m_w.leaf("Alias", { { "nameSpace", a.nameSpace }, { "alias", a.alias } });
            m_w.close();
        }
        writeAncillaryDataSet(m_w, ancillary);
    }

    static XmlWriter::Attributes named(const std::string& name, const std::string& shortDescription)
    {
        XmlWriter::Attributes a { { "name", name } };
        if (!shortDescription.empty())
            a.emplace_back("shortDescription", shortDescription);
        return a;
    }

    // ---- ParameterSet ----

    void writeParameters()
    {
        m_w.open("ParameterSet");
        if (m_plan.needsHeaderBase)
            for (const auto& field : kPrimaryHeader) {
                m_w.open("Parameter", { { "name", std::string(field.name) },
                                          { "parameterTypeRef", std::string(field.name) + "_Type" },
                                          { "shortDescription", std::string(field.description) } });
                writeAncillaryDataSet(m_w, { { anc::kRole, "header" } });
                m_w.close();
            }
        for (const auto& p : m_plan.packets) {
            for (const auto& f : p.leading)
                hiddenParameter(f);
            for (const auto& q : p.parameters)
                parameter(p, q);
            for (const auto& f : p.trailing)
                hiddenParameter(f);
        }
        m_w.close();
    }

    void hiddenParameter(const HiddenField& f)
    {
        m_w.open("Parameter", { { "name", f.name }, { "parameterTypeRef", f.typeName },
                                  { "shortDescription", std::string(f.description) } });
        writeAncillaryDataSet(m_w, { { anc::kRole, std::string(f.role) } });
        m_w.close();
    }

    void parameter(const PacketPlan& p, const ParameterPlan& q)
    {
        const mdb::ParameterDef& d = *q.def;
        AncillaryList ancillary;
        if (!d.path.empty())
            ancillary.emplace_back(anc::kPath, d.path);
        if (d.placement == mdb::Placement::AfterPrevious && &d == &p.def->parameters.front())
            ancillary.emplace_back(anc::kPlacement, "AFTER_PREVIOUS");
        if (d.overlapAllowed)
            ancillary.emplace_back(anc::kOverlapAllowed, "true");
        if (d.byteOrder)
            ancillary.emplace_back(anc::kByteOrder, std::string(anc::byteOrderKeyword(*d.byteOrder)));
        const bool variableString = d.type == DataType::String && !d.fixedSize();
        const bool sizedBytes = d.type == DataType::Bytes && d.size.kind == SizeKind::FromParameter;
        if ((variableString && d.size.maxBytes == 0) || (sizedBytes && d.size.maxBytes != 0))
            ancillary.emplace_back(anc::kMaxBytes, std::to_string(d.size.maxBytes));
        const TypeKind kind = typeKindOf(d);
        if (const auto* time = std::get_if<mdb::TimeCalibrator>(&d.calibrator)) {
            if (kind == TypeKind::AbsoluteTime) {
                if (!writeTimeInstant(time->epochUnixSeconds).exact)
                    ancillary.emplace_back(anc::kEpoch, formatDouble(time->epochUnixSeconds));
            } else {
                ancillary.emplace_back(anc::kTime, anc::timeText(*time));
            }
        }
        if (kind == TypeKind::AbsoluteTime && !d.units.empty())
            ancillary.emplace_back(anc::kUnits, d.units);
        const bool disabled = std::visit(
            [](const auto& l) {
                using L = std::decay_t<decltype(l)>;
                if constexpr (std::is_same_v<L, std::monostate>)
                    return false;
                else
                    return !l.enabled;
            },
            d.limits);
        if (disabled)
            ancillary.emplace_back(anc::kLimits, "disabled");
        m_w.open("Parameter", [&] {
            XmlWriter::Attributes a = named(q.name, d.description);
            a.insert(a.begin() + 1, { "parameterTypeRef", q.typeName });
            return a;
        }());
        descriptionChildren(d.longDescription, d.name, d.aliases, ancillary);
        m_w.close();
    }

    // ---- ContainerSet ----

    void location(bool fromStart, std::uint64_t bits)
    {
        m_w.open("LocationInContainerInBits",
            { { "referenceLocation", fromStart ? "containerStart" : "previousEntry" } });
        m_w.textElement("FixedValue", std::to_string(bits));
        m_w.close();
    }

    void hiddenEntry(const HiddenField& f)
    {
        m_w.open("ParameterRefEntry", { { "parameterRef", f.name } });
        location(true, f.bitOffset);
        m_w.close();
    }

    void writeContainers()
    {
        m_w.open("ContainerSet");
        if (m_plan.needsHeaderBase) {
            m_w.open("SequenceContainer", { { "name", std::string(kHeaderBase) }, { "abstract", "true" },
                                              { "shortDescription", "CCSDS space packet: the primary header" } });
            m_w.open("EntryList");
            for (const auto& field : kPrimaryHeader) {
                m_w.open("ParameterRefEntry", { { "parameterRef", std::string(field.name) } });
                location(true, field.bitOffset);
                m_w.close();
            }
            m_w.close();
            m_w.close();
        }
        if (m_plan.needsBareBase) {
            m_w.open("SequenceContainer",
                { { "name", std::string(kBareBase) }, { "abstract", "true" },
                    { "shortDescription", "CCSDS space packet whose types describe the primary header themselves" } });
            m_w.leaf("EntryList");
            m_w.close();
        }
        for (const auto& p : m_plan.packets)
            container(p);
        m_w.close();
    }

    void container(const PacketPlan& p)
    {
        const mdb::PacketDef& packet = *p.def;
        AncillaryList ancillary;
        if (!packet.path.empty())
            ancillary.emplace_back(anc::kPath, packet.path);
        ancillary.emplace_back(anc::kLength, anc::lengthText(packet));
        if (packet.byteOrder == ByteOrder::LittleEndian)
            ancillary.emplace_back(anc::kByteOrder, "LITTLE_ENDIAN");
        if (packet.secondaryHeader)
            ancillary.emplace_back(anc::kSecondaryHeader, anc::cucText(*packet.secondaryHeader));
        if (packet.secondaryId)
            ancillary.emplace_back(anc::kSecondaryId, "the second comparison of the restriction criteria");
        m_w.open("SequenceContainer", named(p.containerName, packet.description));
        descriptionChildren(packet.longDescription, packet.name, packet.aliases, ancillary);
        if (!p.hasEntries()) {
            m_w.leaf("EntryList");
        } else {
            m_w.open("EntryList");
            for (const auto& f : p.leading)
                hiddenEntry(f);
            for (std::size_t i = 0; i < p.parameters.size(); ++i) {
                const ParameterPlan& q = p.parameters[i];
                const mdb::ParameterDef& d = *q.def;
                m_w.open("ParameterRefEntry", { { "parameterRef", q.name } });
                // The first parameter placed after the previous one starts `gap` bits after bit 0: in
                // XTCE, after the header entries, so it is written from the container's start.
                const bool fromStart = d.placement == mdb::Placement::Absolute || i == 0;
                location(fromStart, d.bitOffset);
                if (!d.includeWhen.empty()) {
                    m_w.open("IncludeCondition");
                    writeConditions(m_w, p, d.includeWhen);
                    m_w.close();
                }
                m_w.close();
            }
            for (const auto& f : p.trailing)
                hiddenEntry(f);
            m_w.close();
        }
        m_w.open("BaseContainer", { { "containerRef", std::string(p.withHeader ? kHeaderBase : kBareBase) } });
        m_w.open("RestrictionCriteria");
        if (p.restriction.size() > 1)
            m_w.open("ComparisonList");
        for (const auto& term : p.restriction)
            writeComparison(m_w, term.parameterRef, false, term.op, std::to_string(term.value));
        if (p.restriction.size() > 1)
            m_w.close();
        m_w.close();
        m_w.close();
        m_w.close();
    }

    const mdb::MissionDatabase& m_db;
    ExportPlan m_plan;
    XmlWriter m_w;
};

} // namespace

std::string writeXtce(const mdb::MissionDatabase& db)
{
    return Exporter(db).run();
}

Status writeXtceFile(const mdb::MissionDatabase& db, const std::string& path)
{
    const std::string xml = writeXtce(db);
    std::ofstream out(path, std::ios::binary | std::ios::trunc);
    if (!out)
        return Error { "cannot open the file for writing", SourceLocation { path, 0, 0 } };
    out.write(xml.data(), static_cast<std::streamsize>(xml.size()));
    out.close();
    if (!out)
        return Error { "cannot write the file", SourceLocation { path, 0, 0 } };
    return {};
}

} // namespace telestation::xtce
