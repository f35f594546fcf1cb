// The station profile's settings for the station's events: `events` (the event archive) and `limits`
// (the operators' limits), read with every problem reported by its JSON path, and written back in
// canonical form. Whether a limit's parameter exists is not known here: the profile does not know the
// mission; the station checks that when it applies the profile.
#include "core/config/profile_detail.hpp"

#include "core/json/json_reading.hpp"
#include "core/mdb/validate.hpp"

#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace telestation::config::detail {

namespace {

using json::element;
using json::member;

constexpr std::uint64_t kMaxRetentionDays = 36'500; // a hundred years

constexpr std::array<std::string_view, 3> kEventKeys{"archive", "archiveFile", "retentionDays"};
constexpr std::array<std::string_view, 6> kLimitKeys{"parameter", "enabled",   "redLow",
                                                     "yellowLow", "yellowHigh", "redHigh"};

// The bounds in the order they must be in, lowest first, with their keys.
constexpr std::array<std::optional<double> LimitSetting::*, 4> kBounds{
    &LimitSetting::redLow, &LimitSetting::yellowLow, &LimitSetting::yellowHigh, &LimitSetting::redHigh};
constexpr std::array<std::string_view, 4> kBoundKeys{"redLow", "yellowLow", "yellowHigh", "redHigh"};
constexpr std::string_view kOrder = "redLow <= yellowLow <= yellowHigh <= redHigh";

// "PACKET.PARAMETER" as the mission database names them: the first '.' ends the packet's name.
bool isQualifiedName(std::string_view name)
{
    const std::size_t dot = name.find('.');
    return dot != std::string_view::npos && mdb::isValidPacketName(name.substr(0, dot)) &&
           mdb::isValidParameterName(name.substr(dot + 1));
}

void readParameter(ProfileReader& reader, const Json& entry, const std::string& path, std::string& out)
{
    const std::string parameterPath = member(path, "parameter");
    const auto it = entry.find("parameter");
    if (it == entry.end()) {
        reader.error(parameterPath, "missing (required: the parameter's qualified name, PACKET.PARAMETER)");
        return;
    }
    std::string name;
    if (!reader.readString(*it, parameterPath, name))
        return;
    if (name.empty())
        reader.error(parameterPath, "empty (required: the parameter's qualified name, PACKET.PARAMETER)");
    else if (!isQualifiedName(name))
        reader.error(parameterPath, shown(*it) + " is not a qualified parameter name (PACKET.PARAMETER, e.g. "
                                                 "'Packet5.CPU_LOAD')");
    else
        out = std::move(name);
}

// The bounds given, each a finite number, in the order redLow <= yellowLow <= yellowHigh <= redHigh.
void readBounds(ProfileReader& reader, const Json& entry, const std::string& path, LimitSetting& limit)
{
    const Json* previous = nullptr; // the nearest lower bound read, to compare the next one with
    std::size_t previousIndex = 0;
    for (std::size_t i = 0; i < kBounds.size(); ++i) {
        const auto it = entry.find(kBoundKeys[i]);
        if (it == entry.end())
            continue;
        const std::string boundPath = member(path, kBoundKeys[i]);
        double bound = 0;
        if (!reader.readNumber(*it, boundPath, "a number (a limit on the calibrated value)", bound))
            continue;
        if (previous && bound < previous->get<double>()) {
            reader.error(boundPath, shown(*it) + " is below " + std::string(kBoundKeys[previousIndex]) + " " +
                                        shown(*previous) + " (limits are ordered " + std::string(kOrder) + ")");
        }
        limit.*kBounds[i] = bound;
        previous = &*it;
        previousIndex = i;
    }
}

// False when the entry has no valid parameter name: it cannot be told apart from the others.
bool readLimit(ProfileReader& reader, const Json& entry, const std::string& path, LimitSetting& limit)
{
    if (!reader.expect(entry, path, entry.is_object(), "an object (a limit setting)"))
        return false;
    reader.checkKeys(entry, path, kLimitKeys, "a limit setting");
    readParameter(reader, entry, path, limit.parameter);
    bool enabledKnown = true;
    if (const auto it = entry.find("enabled"); it != entry.end())
        enabledKnown = reader.readBool(*it, member(path, "enabled"), limit.enabled);
    readBounds(reader, entry, path, limit);

    // The bounds written, not those that could be read: a bound of the wrong type is one error, not two.
    std::string given;
    for (const std::string_view key : kBoundKeys) {
        if (entry.contains(key))
            given += (given.empty() ? "" : ", ") + std::string(key);
    }
    if (enabledKnown && limit.enabled && given.empty())
        reader.error(path, "gives no limit; to turn checking off write \"enabled\": false");
    else if (enabledKnown && !limit.enabled && !given.empty())
        reader.warning(path, "checking is off (\"enabled\": false); the limits given (" + given +
                                 ") are kept but not used");
    return !limit.parameter.empty();
}

} // namespace

void readEvents(ProfileReader& reader, const Json& value, const std::string& path, EventOptions& events)
{
    if (!reader.expect(value, path, value.is_object(), "an object (event options)"))
        return;
    reader.checkKeys(value, path, kEventKeys, "events");
    if (const auto it = value.find("archive"); it != value.end())
        reader.readBool(*it, member(path, "archive"), events.archive);
    // "" is the default: events.sqlite in the recording directory.
    if (const auto it = value.find("archiveFile"); it != value.end())
        reader.readString(*it, member(path, "archiveFile"), events.archiveFile);
    if (const auto it = value.find("retentionDays"); it != value.end()) {
        std::uint64_t days = 0;
        if (reader.readInteger(*it, member(path, "retentionDays"), 0, kMaxRetentionDays,
                               "a number of days (a whole number, 0..36500; 0 = keep forever)", days))
            events.retentionDays = static_cast<int>(days);
    }
}

void readLimits(ProfileReader& reader, const Json& value, const std::string& path, std::vector<LimitSetting>& limits)
{
    if (!reader.expect(value, path, value.is_array(), "an array of limit settings"))
        return;
    std::vector<std::size_t> indexOf; // the element index of each entry of `limits`
    for (std::size_t i = 0; i < value.size(); ++i) {
        const std::string itemPath = element(path, i);
        LimitSetting limit;
        if (!readLimit(reader, value[i], itemPath, limit))
            continue;
        const auto same = std::find_if(limits.begin(), limits.end(), [&](const LimitSetting& other) {
            return other.parameter == limit.parameter;
        });
        if (same != limits.end()) {
            reader.error(member(itemPath, "parameter"),
                         "'" + limit.parameter + "' is already set by " +
                             element(path, indexOf[static_cast<std::size_t>(same - limits.begin())]));
            continue;
        }
        limits.push_back(std::move(limit));
        indexOf.push_back(i);
    }
}

OrderedJson eventsToJson(const EventOptions& events)
{
    const EventOptions defaults;
    OrderedJson out = OrderedJson::object();
    if (events.archive != defaults.archive)
        out["archive"] = events.archive;
    if (events.archiveFile != defaults.archiveFile)
        out["archiveFile"] = events.archiveFile;
    if (events.retentionDays != defaults.retentionDays)
        out["retentionDays"] = events.retentionDays;
    return out;
}

OrderedJson limitsToJson(const std::vector<LimitSetting>& limits)
{
    OrderedJson out = OrderedJson::array();
    for (const LimitSetting& limit : limits) {
        OrderedJson item = OrderedJson::object();
        item["parameter"] = limit.parameter;
        if (!limit.enabled)
            item["enabled"] = false;
        for (std::size_t i = 0; i < kBounds.size(); ++i) {
            if (const auto& bound = limit.*kBounds[i])
                item[std::string(kBoundKeys[i])] = *bound;
        }
        out.push_back(std::move(item));
    }
    return out;
}

} // namespace telestation::config::detail
