// PacketTypeTable: what the station knows of the mission database at run time — every packet
// definition with its compiled decode plan, a classification table (APID, then the secondary id and
// the criteria on fixed fields → packet definition) and the parameters' stable integer ids. Built once when the station is created and
// immutable afterwards, so every thread may read it without synchronisation.
//
// Type indexes: 0 is "unknown" (no definition matches), 1 + i is mission database packet i.
// Parameter ids: the parameters of packet 0 in definition order, then packet 1's, and so on.
#pragma once

#include "core/common/result.hpp"
#include "core/decode/decode_plan.hpp"
#include "core/mdb/model.hpp"

#include <array>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace telestation::pipeline {

inline constexpr std::uint32_t kUnknownType = 0;

struct ParameterInfo {
    std::string qualifiedName;   // "PACKET.PARAMETER"
    std::uint32_t typeIndex = 0; // 1 + the packet's definition index
    std::uint32_t indexInPacket = 0;
};

class PacketTypeTable {
public:
    [[nodiscard]] static Result<PacketTypeTable> build(const mdb::MissionDatabase& db);

    // The type of a packet (the space packet itself, transport header already skipped; at least the
    // 6-byte primary header). Types sharing an APID are told apart by their conditions (the secondary
    // id and the criteria), tried with the most conditions first (a definition without any matches
    // when no other does); among equally many, in definition order. Hot path: no allocation, no
    // lookup structure other than flat arrays: a table per APID of candidates and their compiled
    // criteria, built once.
    [[nodiscard]] std::uint32_t classify(std::span<const std::uint8_t> packet) const noexcept;

    // Number of type indexes: 1 (unknown) + the number of definitions.
    [[nodiscard]] std::uint32_t typeCount() const noexcept { return static_cast<std::uint32_t>(m_defs.size() + 1); }
    [[nodiscard]] const mdb::PacketDef& definition(std::uint32_t typeIndex) const { return m_defs[typeIndex - 1]; }
    [[nodiscard]] const decode::DecodePlan& plan(std::uint32_t typeIndex) const { return m_plans[typeIndex - 1]; }
    [[nodiscard]] std::uint32_t firstParameterId(std::uint32_t typeIndex) const { return m_firstParameter[typeIndex]; }
    [[nodiscard]] std::uint32_t parameterCount(std::uint32_t typeIndex) const
    {
        return m_firstParameter[typeIndex + 1] - m_firstParameter[typeIndex];
    }
    [[nodiscard]] std::uint32_t maxParametersPerPacket() const noexcept { return m_maxParameters; }
    // Bytes a packet of the type may have at most (the maximum length of a variable-length packet).
    [[nodiscard]] std::uint32_t maxPacketBytes(std::uint32_t typeIndex) const;

    // "unknown" for type 0.
    [[nodiscard]] std::string_view typeName(std::uint32_t typeIndex) const;
    [[nodiscard]] std::optional<std::uint32_t> typeByName(std::string_view packetName) const;
    // The type with this APID and secondary id; without a secondary id, the APID's type that has no
    // condition at all (no secondary id, no criteria). The first one in definition order.
    [[nodiscard]] std::optional<std::uint32_t> typeByKey(std::uint16_t apid, std::optional<std::uint64_t> secondaryId) const;
    // The types an (APID [, secondary id]) packet setting applies to: with a secondary id, every type of
    // the APID with that secondary id; with an APID only, the APID's type without any condition, or
    // else every type of the APID (those with a more specific setting of their own are the caller's to
    // keep: see setting_resolver.hpp). Empty when nothing is defined.
    [[nodiscard]] std::vector<std::uint32_t> typesForSetting(std::uint16_t apid, std::optional<std::uint64_t> secondaryId) const;

    [[nodiscard]] std::uint32_t totalParameters() const noexcept { return static_cast<std::uint32_t>(m_parameters.size()); }
    [[nodiscard]] const ParameterInfo& parameter(std::uint32_t id) const { return m_parameters[id]; }
    [[nodiscard]] std::optional<std::uint32_t> parameterId(std::string_view qualifiedName) const;

private:
    struct Criterion {
        std::uint32_t bitOffset;
        std::uint32_t endByte; // the packet must hold this many bytes for the field to be read
        std::uint8_t bitLength;
        mdb::CompareOp op;
        std::uint64_t value;
    };
    struct Candidate {
        std::uint32_t typeIndex;
        std::uint32_t criteriaFirst; // into m_criteria
        std::uint32_t criteriaCount;
    };
    std::vector<Criterion> m_criteria;
    std::vector<mdb::PacketDef> m_defs;
    std::vector<decode::DecodePlan> m_plans;
    std::vector<std::uint32_t> m_firstParameter; // per type index, plus one past the end
    std::vector<ParameterInfo> m_parameters;
    std::unordered_map<std::string, std::uint32_t> m_parameterIds;
    std::uint32_t m_maxParameters = 0;
    // Per APID: candidates[first .. first + count), those with the most conditions first.
    std::vector<Candidate> m_candidates;
    std::array<std::uint32_t, 2048> m_apidFirst{};
    std::array<std::uint16_t, 2048> m_apidCount{};
};

} // namespace telestation::pipeline
