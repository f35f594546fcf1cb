#include "core/pipeline/settings_translation.hpp"

#include "core/io/endpoint.hpp"
#include "core/pipeline/setting_resolver.hpp"

#include <algorithm>
#include <functional>

namespace telestation::pipeline {

using config::ProcessingMode;

namespace {

Status checkForwardDestinations(const std::vector<std::string>& urls)
{
    for (const auto& url : urls)
        if (auto st = checkForwardDestination(url); !st)
            return st;
    return {};
}

Error tooManyDestinations()
{
    return Error{"more than " + std::to_string(kMaxDestinations) + " forward destinations", {}};
}

} // namespace

TypeSettings LiveSettings::toTypeSettings(ProcessingMode mode, bool record, const std::vector<std::string>& forward)
{
    TypeSettings t;
    t.mode = mode;
    t.record = record;
    for (const auto& url : forward) {
        auto it = std::find(destinations.begin(), destinations.end(), url);
        if (it == destinations.end())
            it = destinations.insert(destinations.end(), url);
        t.forwardMask |= std::uint64_t{1} << (it - destinations.begin());
    }
    return t;
}

Status checkForwardDestination(const std::string& url)
{
    auto e = io::parseEndpoint(url);
    if (!e)
        return Error{"forward destination " + url + ": " + e.error().message, {}};
    if (e->scheme == io::Scheme::File)
        return Error{"forward destination " + url + ": file:// cannot be a destination", {}};
    return {};
}

namespace {

// A stream's row of type settings (settings.mutex held; new destinations get their bits). Each packet
// entry that names no packet definition is a problem.
std::vector<TypeSettings> typeSettingsOf(const config::StreamProfile& sp, const PacketTypeTable& types,
                                         LiveSettings& settings, const std::function<void(const std::string&)>& problem)
{
    std::vector<TypeSettings> perType(types.typeCount());
    perType[kUnknownType] = settings.toTypeSettings(sp.unknownMode, sp.recordUnknown, sp.forwardUnknown);
    // APID-only settings first, then (APID, secondary id), then by name: the more specific win
    // (setting_resolver.hpp).
    for (const SettingScope scope : {SettingScope::Apid, SettingScope::SecondaryId, SettingScope::Packet}) {
        for (const auto& ps : sp.packets) {
            if (scopeOf(ps) != scope)
                continue;
            const auto named = typesOf(types, ps);
            if (named.empty()) {
                problem("stream " + sp.name + ": " + describeKey(ps) + " has no packet definition in the mission database");
                continue;
            }
            for (const std::uint32_t type : named)
                perType[type] = settings.toTypeSettings(ps.mode, ps.record, ps.forward);
        }
    }
    return perType;
}

} // namespace

Status translateProfile(const config::StationProfile& profile, const PacketTypeTable& types, LiveSettings& settings)
{
    std::string problems;
    const auto problem = [&](const std::string& text) { problems += (problems.empty() ? "" : "\n") + text; };
    std::lock_guard lock(settings.mutex);
    settings.profile = profile;
    settings.streamIds.clear();
    for (const auto& sp : profile.streams) {
        settings.streamIds.push_back(static_cast<std::uint16_t>(settings.perType.size()));
        settings.perType.push_back(typeSettingsOf(sp, types, settings, problem));
    }
    for (const auto& url : settings.destinations)
        if (auto st = checkForwardDestination(url); !st)
            problem(st.error().message);
    if (settings.destinations.size() > kMaxDestinations)
        problem(tooManyDestinations().message);
    if (!problems.empty())
        return Error{problems, {}};
    return {};
}

Status checkStreamSettings(const config::StreamProfile& sp, const PacketTypeTable& types, const LiveSettings& settings)
{
    std::string problems;
    const auto problem = [&](const std::string& text) { problems += (problems.empty() ? "" : "\n") + text; };
    if (sp.unknownMode != ProcessingMode::PassThru && sp.unknownMode != ProcessingMode::Discard)
        problem("stream " + sp.name + ": unknown packets are passed through or discarded");
    std::vector<std::string> urls = sp.forwardUnknown;
    for (const auto& ps : sp.packets) {
        if (typesOf(types, ps).empty())
            problem("stream " + sp.name + ": " + describeKey(ps) + " has no packet definition in the mission database");
        if (ps.mode == ProcessingMode::Discard)
            problem("stream " + sp.name + ": " + describeKey(ps) + ": discard is only for unknown packets");
        urls.insert(urls.end(), ps.forward.begin(), ps.forward.end());
    }
    std::size_t added = 0;
    {
        std::lock_guard lock(settings.mutex);
        std::vector<std::string> known = settings.destinations;
        for (const auto& url : urls) {
            if (std::find(known.begin(), known.end(), url) != known.end())
                continue;
            if (auto st = checkForwardDestination(url); !st) {
                problem("stream " + sp.name + ": " + st.error().message);
                continue;
            }
            known.push_back(url);
            ++added;
        }
        if (added > 0 && known.size() > kMaxDestinations)
            problem(tooManyDestinations().message);
    }
    if (!problems.empty())
        return Error{problems, {}};
    return {};
}

std::uint64_t installStreamSettings(LiveSettings& settings, const PacketTypeTable& types, std::uint16_t id,
                                    const config::StreamProfile& sp)
{
    std::lock_guard lock(settings.mutex);
    if (settings.perType.size() <= id)
        settings.perType.resize(id + 1u);
    settings.perType[id] = typeSettingsOf(sp, types, settings, [](const std::string&) {});
    const auto at = std::find(settings.streamIds.begin(), settings.streamIds.end(), id);
    if (at != settings.streamIds.end()) {
        settings.profile.streams[static_cast<std::size_t>(at - settings.streamIds.begin())] = sp;
    } else {
        settings.profile.streams.push_back(sp);
        settings.streamIds.push_back(id);
    }
    settings.changed();
    return settings.version.load(std::memory_order_relaxed);
}

void removeStreamSettings(LiveSettings& settings, std::uint16_t id)
{
    std::lock_guard lock(settings.mutex);
    const auto at = std::find(settings.streamIds.begin(), settings.streamIds.end(), id);
    if (at == settings.streamIds.end())
        return;
    settings.profile.streams.erase(settings.profile.streams.begin() + (at - settings.streamIds.begin()));
    settings.streamIds.erase(at);
    settings.changed();
}

Status applyPacketSettings(LiveSettings& settings, const PacketTypeTable& types, std::uint16_t streamId,
                           std::string_view stream, const config::PacketSettings& given)
{
    config::PacketSettings ps = given;
    if (ps.byName()) { // the name alone keys it, as the profile writes it
        ps.apid = 0;
        ps.secondaryId.reset();
    }
    const auto named = typesOf(types, ps);
    if (named.empty()) {
        if (ps.byName())
            return Error{"stream " + std::string(stream) + ": " + describeKey(ps) + " has no packet definition in the mission database", {}};
        return Error{"APID " + std::to_string(ps.apid) + " has no packet definition in the mission database", {}};
    }
    if (ps.mode == ProcessingMode::Discard)
        return Error{"discard is only for unknown packets", {}};
    if (auto st = checkForwardDestinations(ps.forward); !st)
        return st;
    std::lock_guard lock(settings.mutex);
    if (settings.destinations.size() + ps.forward.size() > kMaxDestinations)
        return tooManyDestinations();
    auto& packets = settings.streamProfile(streamId).packets;
    const TypeSettings applied = settings.toTypeSettings(ps.mode, ps.record, ps.forward);
    auto it = std::find_if(packets.begin(), packets.end(), [&](const config::PacketSettings& p) { return p.sameKey(ps); });
    if (it != packets.end()) {
        *it = ps;
    } else {
        packets.push_back(ps);
        it = packets.end() - 1;
    }
    // The types this setting names that have no more specific setting of their own.
    const auto index = static_cast<std::size_t>(it - packets.begin());
    const SettingResolver resolver(types, packets);
    for (const std::uint32_t type : named)
        if (resolver.applying(type) == index)
            settings.perType[streamId][type] = applied;
    settings.changed();
    return {};
}

Status applyUnknownSettings(LiveSettings& settings, std::uint16_t streamId, ProcessingMode mode, bool record,
                            const std::vector<std::string>& forward)
{
    if (mode != ProcessingMode::PassThru && mode != ProcessingMode::Discard)
        return Error{"unknown packets are passed through or discarded", {}};
    if (auto st = checkForwardDestinations(forward); !st)
        return st;
    std::lock_guard lock(settings.mutex);
    settings.perType[streamId][kUnknownType] = settings.toTypeSettings(mode, record, forward);
    auto& sp = settings.streamProfile(streamId);
    sp.unknownMode = mode;
    sp.recordUnknown = record;
    sp.forwardUnknown = forward;
    settings.changed();
    return {};
}

} // namespace telestation::pipeline
