#include "core/pipeline/setting_resolver.hpp"

namespace telestation::pipeline {

SettingScope scopeOf(const config::PacketSettings& settings) noexcept
{
    if (settings.byName())
        return SettingScope::Packet;
    return settings.secondaryId ? SettingScope::SecondaryId : SettingScope::Apid;
}

std::vector<std::uint32_t> typesOf(const PacketTypeTable& types, const config::PacketSettings& settings)
{
    if (settings.byName()) {
        if (const auto type = types.typeByName(settings.packet))
            return {*type};
        return {};
    }
    return types.typesForSetting(settings.apid, settings.secondaryId);
}

std::string describeKey(const config::PacketSettings& settings)
{
    if (settings.byName())
        return "packet type " + settings.packet;
    std::string text = "APID " + std::to_string(settings.apid);
    if (settings.secondaryId)
        text += " secondary id " + std::to_string(*settings.secondaryId);
    return text;
}

config::PacketSettings keyOf(const PacketTypeTable& types, std::uint32_t type)
{
    const mdb::PacketDef& def = types.definition(type);
    config::PacketSettings key;
    key.apid = def.apid;
    if (def.secondaryId)
        key.secondaryId = def.secondaryId->value;
    const auto named = types.typesForSetting(key.apid, key.secondaryId);
    if (named.size() == 1 && named.front() == type)
        return key;
    config::PacketSettings byName;
    byName.packet = def.name;
    return byName;
}

SettingResolver::SettingResolver(const PacketTypeTable& types, std::span<const config::PacketSettings> packets)
    : m_types(types), m_packets(packets), m_applying(types.typeCount()), m_typeCount(packets.size(), 0)
{
    // In profile order, a setting takes a type from an earlier one of the same or a lower scope: the
    // order in which Station::create applies them.
    for (std::size_t i = 0; i < packets.size(); ++i) {
        const auto named = typesOf(types, packets[i]);
        m_typeCount[i] = named.size();
        if (named.empty())
            m_undefined.push_back(i);
        const SettingScope scope = scopeOf(packets[i]);
        for (const std::uint32_t type : named) {
            auto& current = m_applying[type];
            if (!current || scopeOf(packets[*current]) <= scope)
                current = i;
        }
    }
}

std::optional<std::size_t> SettingResolver::applying(std::uint32_t type) const
{
    return type < m_applying.size() ? m_applying[type] : std::nullopt;
}

config::PacketSettings SettingResolver::settingsFor(std::uint32_t type) const
{
    const auto index = applying(type);
    if (index && m_typeCount[*index] == 1)
        return m_packets[*index];
    config::PacketSettings settings = index ? m_packets[*index] : config::PacketSettings{};
    const config::PacketSettings key = keyOf(m_types, type);
    settings.apid = key.apid;
    settings.secondaryId = key.secondaryId;
    settings.packet = key.packet;
    return settings;
}

} // namespace telestation::pipeline
