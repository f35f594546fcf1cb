// SettingResolver: which packet setting of a stream applies to which packet type — the one rule that
// the station, the GUI's packet table and anything else that shows or edits settings follow
// (docs/station-profile.md, "A packet setting"):
//  - a `packet` setting names one type, by its definition's name;
//  - an (APID, secondary id) setting names the APID's types with that secondary id;
//  - an APID-only setting names the APID's type without any condition (no secondary id, no criteria),
//    or else every type of the APID (XTCE missions tell those apart by criteria on other fields);
//  - where several settings name a type, the most specific applies: `packet` > (APID, secondary id) >
//    APID only.
#pragma once

#include "core/config/station_profile.hpp"
#include "core/pipeline/packet_types.hpp"

#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

namespace telestation::pipeline {

// How specific a setting is; a higher scope wins.
enum class SettingScope : std::uint8_t { Apid, SecondaryId, Packet };

[[nodiscard]] SettingScope scopeOf(const config::PacketSettings& settings) noexcept;

// The types a setting names (empty when the mission database defines none of them).
[[nodiscard]] std::vector<std::uint32_t> typesOf(const PacketTypeTable& types, const config::PacketSettings& settings);

// The setting's key as operators write it, for messages: "packet type NAME", "APID A secondary id S".
[[nodiscard]] std::string describeKey(const config::PacketSettings& settings);

// The key of a setting that names `type` and no other: its APID [and secondary id] when that names
// exactly this type (so settings of .tdef missions look as they always did), else its name.
[[nodiscard]] config::PacketSettings keyOf(const PacketTypeTable& types, std::uint32_t type);

class SettingResolver {
public:
    // Both must outlive the resolver.
    SettingResolver(const PacketTypeTable& types, std::span<const config::PacketSettings> packets);

    // The index in `packets` of the setting that applies to `type`, or none (the defaults apply; also
    // for the unknown type).
    [[nodiscard]] std::optional<std::size_t> applying(std::uint32_t type) const;
    // The settings that apply to `type`, keyed so that handing them (changed) to
    // Station::setPacketSettings changes this type only: the applying setting itself when it names
    // this type alone, else a copy of it (or the defaults) under keyOf(type).
    [[nodiscard]] config::PacketSettings settingsFor(std::uint32_t type) const;
    // The indexes in `packets` of the settings that name no defined type.
    [[nodiscard]] const std::vector<std::size_t>& undefined() const noexcept { return m_undefined; }

private:
    const PacketTypeTable& m_types;
    std::span<const config::PacketSettings> m_packets;
    std::vector<std::optional<std::size_t>> m_applying; // per type index
    std::vector<std::size_t> m_typeCount;              // per setting: how many types it names
    std::vector<std::size_t> m_undefined;
};

} // namespace telestation::pipeline
