#include "core/events/event.hpp"

#include "core/common/time_text.hpp"

#include <nlohmann/json.hpp>

#include <array>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <pwd.h>
#include <unistd.h>

namespace telestation::events {

namespace {

constexpr std::array<std::string_view, kSeverityCount> kSeverityNames{"info", "warning", "error", "critical"};
constexpr std::array<std::string_view, kEventKindCount> kKindNames{
    "station",       "stream",         "sequenceGap",  "duplicate",     "outOfOrder",
    "sequenceReset", "malformed",      "framingError", "kernelDrop",    "queueWarning",
    "queueWarningCleared", "queueDrop", "streamStale", "streamResumed", "limitViolation",
    "limitCleared",  "limitEdited",    "recording",    "recordingError", "playback",
    "forward",       "alarm",          "eventStorage",
};

bool sameDouble(double a, double b) noexcept { return (a != a && b != b) || a == b; }

} // namespace

std::string_view severityName(Severity severity) noexcept
{
    const auto i = static_cast<std::size_t>(severity);
    return i < kSeverityNames.size() ? kSeverityNames[i] : "?";
}

std::string_view eventKindName(EventKind kind) noexcept
{
    const auto i = static_cast<std::size_t>(kind);
    return i < kKindNames.size() ? kKindNames[i] : "?";
}

std::optional<Severity> parseSeverity(std::string_view name) noexcept
{
    for (std::size_t i = 0; i < kSeverityNames.size(); ++i)
        if (kSeverityNames[i] == name)
            return static_cast<Severity>(i);
    return std::nullopt;
}

std::optional<EventKind> parseEventKind(std::string_view name) noexcept
{
    for (std::size_t i = 0; i < kKindNames.size(); ++i)
        if (kKindNames[i] == name)
            return static_cast<EventKind>(i);
    return std::nullopt;
}

bool operator==(const Event& a, const Event& b) noexcept
{
    return a.number == b.number && a.timeNs == b.timeNs && a.severity == b.severity && a.kind == b.kind
        && a.stream == b.stream && a.packetType == b.packetType && a.parameter == b.parameter && a.detail == b.detail
        && a.text == b.text && a.count == b.count && a.amount == b.amount && sameDouble(a.value, b.value)
        && sameDouble(a.limit, b.limit) && a.limitState == b.limitState && a.user == b.user;
}

std::string localUserName()
{
    passwd entry{};
    passwd* found = nullptr;
    char buffer[4096];
    if (getpwuid_r(geteuid(), &entry, buffer, sizeof buffer, &found) == 0 && found && found->pw_name)
        return found->pw_name;
    if (const char* user = std::getenv("USER"); user && *user)
        return user;
    return "uid " + std::to_string(geteuid());
}

std::string toJsonLine(const Event& e)
{
    // nlohmann: escaping and locale-independent numbers, as every other JSON the station writes.
    nlohmann::ordered_json j;
    j["number"] = e.number;
    j["timeNs"] = e.timeNs;
    j["time"] = text::formatTimeNs(e.timeNs);
    j["severity"] = severityName(e.severity);
    j["kind"] = eventKindName(e.kind);
    j["stream"] = e.stream;
    const auto optional = [&](const char* key, const std::string& value) {
        if (!value.empty())
            j[key] = value;
    };
    optional("packetType", e.packetType);
    optional("parameter", e.parameter);
    optional("detail", e.detail);
    j["text"] = e.text;
    j["count"] = e.count;
    j["amount"] = e.amount;
    if (e.value == e.value)
        j["value"] = e.value;
    if (e.limit == e.limit && std::isfinite(e.limit))
        j["limit"] = e.limit;
    optional("limitState", e.limitState);
    optional("user", e.user);
    return j.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
}

} // namespace telestation::events
