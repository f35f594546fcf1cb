// What the XTCE export writes for each packet, decided before anything is written: XTCE names for
// packets, parameters and types (unique in the one SpaceSystem), the hidden parameters a packet needs
// (CUC secondary header, fields its restriction criteria test), and its restriction criteria.
// docs/xtce.md, "Export": "Names" and "Packets".
#pragma once

#include "core/mdb/model.hpp"

#include <array>
#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace telestation::xtce {

inline constexpr std::uint32_t kPrimaryHeaderBits = 48;
// The abstract base containers: the primary header's parameters, or none (the packet describes it).
inline constexpr std::string_view kHeaderBase = "CCSDSPacket";
inline constexpr std::string_view kBareBase = "SpacePacket";

struct HeaderField {
    std::string_view name;
    std::uint32_t bitOffset;
    std::uint32_t bitLength;
    std::string_view description;
};

inline constexpr std::array<HeaderField, 7> kPrimaryHeader { {
    { "CCSDS_VERSION", 0, 3, "CCSDS packet version number" },
    { "CCSDS_TYPE", 3, 1, "Packet type: 0 telemetry, 1 telecommand" },
    { "CCSDS_SEC_HDR_FLG", 4, 1, "Secondary header flag" },
    { "CCSDS_APID", 5, 11, "Application process identifier" },
    { "CCSDS_SEQ_FLGS", 16, 2, "Sequence flags" },
    { "CCSDS_SRC_SEQ_CTR", 18, 14, "Packet sequence count" },
    { "CCSDS_PKT_LEN", 32, 16, "Packet data length: the bytes after the primary header, minus one" },
} };

// A parameter that is not in the model: a CUC secondary header field or a criterion's field.
struct HiddenField {
    std::string name;
    std::string typeName;
    std::string_view role;
    std::string_view description;
    std::uint32_t bitOffset = 0;
    std::uint32_t bitLength = 0;
    std::optional<mdb::CucLayout> cucTime; // the CUC time as an absolute time
};

struct RestrictionTerm {
    std::string parameterRef;
    mdb::CompareOp op = mdb::CompareOp::Equal;
    std::uint64_t value = 0;
};

struct ParameterPlan {
    const mdb::ParameterDef* def = nullptr;
    std::string name;
    std::string typeName;
};

struct PacketPlan {
    const mdb::PacketDef* def = nullptr;
    std::string containerName;
    bool withHeader = true; // based on kHeaderBase, else on kBareBase
    std::vector<HiddenField> leading;  // before the model's parameters (the CUC secondary header)
    std::vector<ParameterPlan> parameters;
    std::vector<HiddenField> trailing; // after them (fields of criteria), at absolute places
    std::vector<RestrictionTerm> restriction; // the APID, the secondary id, then the criteria
    std::map<std::string, std::string, std::less<>> xtceName; // model parameter name -> XTCE name

    // The XTCE name of a parameter of the packet (a name the packet lacks: sanitised).
    [[nodiscard]] std::string xtceNameOf(const std::string& modelName) const;
    [[nodiscard]] bool hasEntries() const { return !leading.empty() || !parameters.empty() || !trailing.empty(); }
};

struct ExportPlan {
    std::vector<PacketPlan> packets; // pointing into the database, which must outlive the plan
    bool needsHeaderBase = false;
    bool needsBareBase = false;
};

[[nodiscard]] ExportPlan planExport(const mdb::MissionDatabase& db);

// An XTCE NameType: every '.', '/', ':', '[', ']', blank and non-ASCII byte replaced by '_'.
[[nodiscard]] std::string sanitize(std::string_view name);

} // namespace telestation::xtce
