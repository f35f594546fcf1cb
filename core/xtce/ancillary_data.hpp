// The AncillaryData of a Telestation XTCE export (docs/xtce.md, "Export"): their names, and the texts
// of the values XTCE has no element for, written by the exporter and read back by
// applyTelestationAncillary. Each writer has its reader beside it, so that the two cannot drift apart.
#pragma once

#include "core/mdb/model.hpp"

#include <optional>
#include <string>
#include <string_view>

namespace telestation::xtce::anc {

inline constexpr std::string_view kFormat = "telestation.format"; // on the root: marks an export
inline constexpr std::string_view kFormatVersion = "1";
inline constexpr std::string_view kMission = "telestation.mission";
inline constexpr std::string_view kPath = "telestation.path";
inline constexpr std::string_view kLength = "telestation.length";
inline constexpr std::string_view kByteOrder = "telestation.byteOrder";
inline constexpr std::string_view kSecondaryHeader = "telestation.secondaryHeader";
inline constexpr std::string_view kSecondaryId = "telestation.secondaryId";
inline constexpr std::string_view kRole = "telestation.role";
inline constexpr std::string_view kPlacement = "telestation.placement";
inline constexpr std::string_view kOverlapAllowed = "telestation.overlapAllowed";
inline constexpr std::string_view kMaxBytes = "telestation.maxBytes";
inline constexpr std::string_view kTime = "telestation.time";
inline constexpr std::string_view kEpoch = "telestation.epoch";
inline constexpr std::string_view kUnits = "telestation.units";
inline constexpr std::string_view kLimits = "telestation.limits";

// telestation.length: "N" (fixed) or "VARIABLE MIN MAX".
[[nodiscard]] std::string lengthText(const mdb::PacketDef& packet);
struct PacketLength {
    std::uint32_t length = 0;
    bool variableLength = false;
    std::uint32_t maxLength = 0;
};
[[nodiscard]] std::optional<PacketLength> parseLengthText(std::string_view text);

// telestation.secondaryHeader: "CUC COARSE FINE [PFIELD] EPOCH TAI|GPS|UNIX".
[[nodiscard]] std::string_view epochKeyword(mdb::TimeEpoch epoch);
[[nodiscard]] std::string cucText(const mdb::CucLayout& cuc);
[[nodiscard]] std::optional<mdb::CucLayout> parseCucText(std::string_view text);

// telestation.time: "EPOCH SCALE OFFSET", the three reals of a TimeCalibrator.
[[nodiscard]] std::string timeText(const mdb::TimeCalibrator& time);
[[nodiscard]] std::optional<mdb::TimeCalibrator> parseTimeText(std::string_view text);

// telestation.byteOrder: "LITTLE_ENDIAN" or "BIG_ENDIAN".
[[nodiscard]] std::string_view byteOrderKeyword(mdb::ByteOrder order);
[[nodiscard]] mdb::ByteOrder parseByteOrderKeyword(std::string_view text); // anything else: big-endian

} // namespace telestation::xtce::anc
