#include "core/pipeline/packet_types.hpp"

#include "core/ccsds/space_packet.hpp"
#include "core/decode/bits.hpp"

#include <algorithm>

namespace telestation::pipeline {

Result<PacketTypeTable> PacketTypeTable::build(const mdb::MissionDatabase& db)
{
    PacketTypeTable t;
    t.m_defs = db.packets;
    t.m_plans.reserve(db.packets.size());
    t.m_firstParameter.push_back(0); // unknown: no parameters
    t.m_firstParameter.push_back(0);
    for (std::size_t i = 0; i < db.packets.size(); ++i) {
        const auto& def = db.packets[i];
        auto plan = decode::DecodePlan::compile(def);
        if (!plan)
            return Error{"packet " + def.name + ": " + plan.error().message, {}};
        t.m_plans.push_back(std::move(*plan));
        const auto typeIndex = static_cast<std::uint32_t>(i + 1);
        for (std::size_t p = 0; p < def.parameters.size(); ++p) {
            const auto id = static_cast<std::uint32_t>(t.m_parameters.size());
            t.m_parameters.push_back({def.name + "." + def.parameters[p].name, typeIndex, static_cast<std::uint32_t>(p)});
            t.m_parameterIds.emplace(t.m_parameters.back().qualifiedName, id);
        }
        t.m_firstParameter.push_back(static_cast<std::uint32_t>(t.m_parameters.size()));
        t.m_maxParameters = std::max<std::uint32_t>(t.m_maxParameters, static_cast<std::uint32_t>(def.parameters.size()));
    }
    // Classification: per APID, the definitions with the most conditions first (most specific), down
    // to one without any (the fallback).
    std::vector<std::vector<Candidate>> perApid(ccsds::kApidCount);
    for (std::size_t i = 0; i < t.m_defs.size(); ++i) {
        const auto& def = t.m_defs[i];
        Candidate c{static_cast<std::uint32_t>(i + 1), static_cast<std::uint32_t>(t.m_criteria.size()), 0};
        const auto add = [&](std::uint32_t bitOffset, std::uint32_t bitLength, mdb::CompareOp op, std::uint64_t value) {
            t.m_criteria.push_back({bitOffset, static_cast<std::uint32_t>((std::uint64_t{bitOffset} + bitLength + 7) / 8),
                                    static_cast<std::uint8_t>(bitLength), op, value});
            ++c.criteriaCount;
        };
        if (def.secondaryId)
            add(def.secondaryId->bitOffset, def.secondaryId->bitLength, mdb::CompareOp::Equal, def.secondaryId->value);
        for (const auto& criterion : def.criteria) {
            if (criterion.bitLength < 1 || criterion.bitLength > 64)
                return Error{"packet " + def.name + ": a criterion's field has 1 to 64 bits", {}};
            add(criterion.bitOffset, criterion.bitLength, criterion.op, criterion.value);
        }
        perApid[def.apid & ccsds::kMaxApid].push_back(c);
    }
    for (std::size_t apid = 0; apid < perApid.size(); ++apid) {
        auto& list = perApid[apid];
        std::stable_sort(list.begin(), list.end(),
                         [](const Candidate& a, const Candidate& b) { return a.criteriaCount > b.criteriaCount; });
        t.m_apidFirst[apid] = static_cast<std::uint32_t>(t.m_candidates.size());
        t.m_apidCount[apid] = static_cast<std::uint16_t>(list.size());
        t.m_candidates.insert(t.m_candidates.end(), list.begin(), list.end());
    }
    return t;
}

std::uint32_t PacketTypeTable::classify(std::span<const std::uint8_t> packet) const noexcept
{
    if (packet.size() < ccsds::kPrimaryHeaderSize)
        return kUnknownType;
    const std::uint16_t apid = static_cast<std::uint16_t>(((packet[0] & 0x07) << 8) | packet[1]);
    const std::uint32_t first = m_apidFirst[apid];
    const std::uint32_t end = first + m_apidCount[apid];
    for (std::uint32_t i = first; i < end; ++i) {
        const Candidate& c = m_candidates[i];
        bool match = true;
        for (std::uint32_t k = c.criteriaFirst; match && k < c.criteriaFirst + c.criteriaCount; ++k) {
            const Criterion& r = m_criteria[k];
            match = r.endByte <= packet.size()
                && mdb::compare(decode::extractBits(packet.data(), r.bitOffset, r.bitLength), r.op, r.value);
        }
        if (match)
            return c.typeIndex;
    }
    return kUnknownType;
}

std::uint32_t PacketTypeTable::maxPacketBytes(std::uint32_t typeIndex) const
{
    if (typeIndex == kUnknownType)
        return static_cast<std::uint32_t>(ccsds::kMaxPacketSize);
    const auto& def = definition(typeIndex);
    return def.variableLength ? std::max(def.maxLength, def.length) : def.length;
}

std::string_view PacketTypeTable::typeName(std::uint32_t typeIndex) const
{
    if (typeIndex == kUnknownType || typeIndex > m_defs.size())
        return "unknown";
    return m_defs[typeIndex - 1].name;
}

std::optional<std::uint32_t> PacketTypeTable::typeByName(std::string_view packetName) const
{
    for (std::size_t i = 0; i < m_defs.size(); ++i)
        if (m_defs[i].name == packetName)
            return static_cast<std::uint32_t>(i + 1);
    return std::nullopt;
}

std::optional<std::uint32_t> PacketTypeTable::typeByKey(std::uint16_t apid, std::optional<std::uint64_t> secondaryId) const
{
    for (std::size_t i = 0; i < m_defs.size(); ++i) {
        const auto& def = m_defs[i];
        if (def.apid != apid)
            continue;
        if (secondaryId ? (def.secondaryId && def.secondaryId->value == *secondaryId)
                        : (!def.secondaryId && def.criteria.empty()))
            return static_cast<std::uint32_t>(i + 1);
    }
    return std::nullopt;
}

std::vector<std::uint32_t> PacketTypeTable::typesForSetting(std::uint16_t apid, std::optional<std::uint64_t> secondaryId) const
{
    std::vector<std::uint32_t> out;
    if (!secondaryId) {
        if (const auto plain = typeByKey(apid, std::nullopt))
            return {*plain};
    }
    for (std::size_t i = 0; i < m_defs.size(); ++i) {
        const auto& def = m_defs[i];
        if (def.apid == apid && (!secondaryId || (def.secondaryId && def.secondaryId->value == *secondaryId)))
            out.push_back(static_cast<std::uint32_t>(i + 1));
    }
    return out;
}

std::optional<std::uint32_t> PacketTypeTable::parameterId(std::string_view qualifiedName) const
{
    const auto it = m_parameterIds.find(std::string(qualifiedName));
    if (it == m_parameterIds.end())
        return std::nullopt;
    return it->second;
}

} // namespace telestation::pipeline
