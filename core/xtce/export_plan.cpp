#include "core/xtce/export_plan.hpp"

#include <algorithm>
#include <set>
#include <utility>

namespace telestation::xtce {

std::string sanitize(std::string_view name)
{
    std::string out;
    for (const char ch : name) {
        const auto c = static_cast<unsigned char>(ch);
        const bool bad = c == '.' || c == '/' || c == ':' || c == '[' || c == ']' || c <= 0x20 || c >= 0x7F;
        out += bad ? '_' : ch;
    }
    return out.empty() ? std::string("_") : out;
}

std::string PacketPlan::xtceNameOf(const std::string& modelName) const
{
    const auto it = xtceName.find(modelName);
    return it != xtceName.end() ? it->second : sanitize(modelName);
}

namespace {

using mdb::ByteOrder;
using mdb::CompareOp;
using mdb::DataType;

// Names handed out so far in one XTCE name space; a name already taken gets _2, _3, ...
class NameRegistry {
public:
    [[nodiscard]] bool taken(const std::string& name) const { return m_names.contains(name); }
    std::string claim(const std::string& wanted)
    {
        std::string name = wanted;
        for (int n = 2; m_names.contains(name); ++n)
            name = wanted + "_" + std::to_string(n);
        m_names.insert(name);
        return name;
    }

private:
    std::set<std::string> m_names;
};

// Whether the packet's own fixed parameters cover the whole primary header (XTCE imports do).
bool coversPrimaryHeader(const mdb::PacketDef& packet)
{
    std::array<bool, kPrimaryHeaderBits> covered {};
    for (const auto& p : packet.parameters) {
        if (p.placement != mdb::Placement::Absolute || !p.fixedSize() || !p.includeWhen.empty())
            continue;
        const std::uint64_t end
            = std::min<std::uint64_t>(std::uint64_t { p.bitOffset } + p.bitLength, kPrimaryHeaderBits);
        for (std::uint64_t bit = p.bitOffset; bit < end; ++bit)
            covered[bit] = true;
    }
    return std::all_of(covered.begin(), covered.end(), [](bool b) { return b; });
}

class Planner {
public:
    explicit Planner(const mdb::MissionDatabase& db)
        : m_db(db)
    { }

    ExportPlan run()
    {
        plan();
        return std::move(m_plan);
    }

private:
    void plan()
    {
        for (const auto& packet : m_db.packets) {
            PacketPlan p;
            p.def = &packet;
            p.withHeader = !coversPrimaryHeader(packet);
            m_plan.needsHeaderBase = m_plan.needsHeaderBase || p.withHeader;
            m_plan.needsBareBase = m_plan.needsBareBase || !p.withHeader;
            m_plan.packets.push_back(std::move(p));
        }
        if (m_plan.needsHeaderBase)
            for (const auto& field : kPrimaryHeader) {
                m_parameterNames.claim(std::string(field.name));
                m_typeNames.claim(std::string(field.name) + "_Type");
            }
        m_containerNames.claim(std::string(kHeaderBase));
        m_containerNames.claim(std::string(kBareBase));
        for (auto& p : m_plan.packets)
            planPacket(p);
    }

    std::string claimParameter(const PacketPlan& p, const std::string& modelName)
    {
        const std::string plain = sanitize(modelName);
        if (!m_parameterNames.taken(plain))
            return m_parameterNames.claim(plain);
        return m_parameterNames.claim(sanitize(p.def->name) + "__" + plain);
    }

    HiddenField hidden(PacketPlan& p, const std::string& suffix, std::string_view role, std::string_view description,
        std::uint32_t bitOffset, std::uint32_t bitLength)
    {
        HiddenField f;
        f.name = m_parameterNames.claim(sanitize(p.def->name) + "__" + suffix);
        f.typeName = m_typeNames.claim(f.name + "_Type");
        f.role = role;
        f.description = description;
        f.bitOffset = bitOffset;
        f.bitLength = bitLength;
        return f;
    }

    void planPacket(PacketPlan& p)
    {
        const mdb::PacketDef& packet = *p.def;
        p.containerName = m_containerNames.claim(sanitize(packet.name));
        for (const auto& param : packet.parameters) {
            ParameterPlan q;
            q.def = &param;
            q.name = claimParameter(p, param.name);
            q.typeName = m_typeNames.claim(q.name + "_Type");
            p.xtceName.emplace(param.name, q.name); // the first of duplicate names, like validation
            p.parameters.push_back(std::move(q));
        }
        if (packet.secondaryHeader) {
            const mdb::CucLayout& cuc = *packet.secondaryHeader;
            std::uint32_t at = kPrimaryHeaderBits;
            if (cuc.hasPField) {
                p.leading.push_back(hidden(p, "CUC_PFIELD", "secondaryHeader", "CUC P-field", at, 8));
                at += 8;
            }
            HiddenField time = hidden(p, "CUC_TIME", "secondaryHeader",
                "CUC time of the secondary header: coarse seconds and binary fraction", at,
                8u * (cuc.coarseBytes + cuc.fineBytes));
            time.cucTime = cuc;
            p.leading.push_back(std::move(time));
        }
        p.restriction.push_back(
            RestrictionTerm { fieldFor(p, 5, 11, "APID", "APID of the packet type"), CompareOp::Equal, packet.apid });
        if (const auto& id = packet.secondaryId)
            p.restriction.push_back(RestrictionTerm {
                fieldFor(p, id->bitOffset, id->bitLength, "SECONDARY_ID", "Secondary id of the packet type"),
                CompareOp::Equal, id->value });
        for (std::size_t k = 0; k < packet.criteria.size(); ++k) {
            const mdb::FieldCriterion& c = packet.criteria[k];
            const std::string suffix = "criterion" + std::to_string(k + 1);
            const std::string field
                = fieldFor(p, c.bitOffset, c.bitLength, suffix, "A field a criterion of the packet type tests");
            p.restriction.push_back(RestrictionTerm { field, c.op, c.value });
        }
    }

    // The parameter whose raw value is the unsigned integer in those bits: a primary header field, a
    // parameter of the packet, or a new hidden one at the end of the entry list.
    std::string fieldFor(PacketPlan& p, std::uint32_t bitOffset, std::uint32_t bitLength, const std::string& suffix,
        std::string_view description)
    {
        if (p.withHeader)
            for (const auto& field : kPrimaryHeader)
                if (field.bitOffset == bitOffset && field.bitLength == bitLength)
                    return std::string(field.name);
        for (const auto& q : p.parameters) {
            const mdb::ParameterDef& d = *q.def;
            if (d.placement == mdb::Placement::Absolute && d.fixedSize() && d.includeWhen.empty()
                && d.type == DataType::UnsignedInt && d.bitOffset == bitOffset && d.bitLength == bitLength
                && (d.bitLength <= 8 || mdb::effectiveByteOrder(*p.def, d) == ByteOrder::BigEndian))
                return q.name;
        }
        for (const auto& f : p.trailing)
            if (f.bitOffset == bitOffset && f.bitLength == bitLength)
                return f.name;
        p.trailing.push_back(hidden(p, suffix, "criterion", description, bitOffset, bitLength));
        return p.trailing.back().name;
    }

    const mdb::MissionDatabase& m_db;
    ExportPlan m_plan;
    NameRegistry m_parameterNames;
    NameRegistry m_typeNames;
    NameRegistry m_containerNames;
};

} // namespace

ExportPlan planExport(const mdb::MissionDatabase& db)
{
    return Planner(db).run();
}

} // namespace telestation::xtce
