#include "core/events/event.hpp"

#include "core/common/time_text.hpp"

#include <array>
#include <charconv>
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

void appendJsonString(std::string& out, std::string_view s)
{
    out += '"';
    for (const char c : s) {
        switch (c) {
        case '"': out += "\\\""; break;
        case '\\': out += "\\\\"; break;
        case '\n': out += "\\n"; break;
        case '\r': out += "\\r"; break;
        case '\t': out += "\\t"; break;
        default:
            if (static_cast<unsigned char>(c) < 0x20) {
                char buf[8];
                std::snprintf(buf, sizeof buf, "\\u%04x", static_cast<unsigned>(static_cast<unsigned char>(c)));
                out += buf;
            } else {
                out += c;
            }
        }
    }
    out += '"';
}

void appendField(std::string& out, std::string_view name, std::string_view value)
{
    out += ",\"";
    out += name;
    out += "\":";
    appendJsonString(out, value);
}

void appendNumber(std::string& out, std::string_view name, double value)
{
    if (value != value)
        return;
    // to_chars: the shortest text that reads back the same, and never a locale's decimal comma.
    char buf[40];
    const auto end = std::to_chars(buf, buf + sizeof buf, value).ptr;
    out += ",\"";
    out += name;
    out += "\":";
    out.append(buf, end);
}

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
    std::string out = "{\"number\":" + std::to_string(e.number);
    out += ",\"timeNs\":" + std::to_string(e.timeNs);
    appendField(out, "time", text::formatTimeNs(e.timeNs));
    appendField(out, "severity", severityName(e.severity));
    appendField(out, "kind", eventKindName(e.kind));
    appendField(out, "stream", e.stream);
    if (!e.packetType.empty())
        appendField(out, "packetType", e.packetType);
    if (!e.parameter.empty())
        appendField(out, "parameter", e.parameter);
    if (!e.detail.empty())
        appendField(out, "detail", e.detail);
    appendField(out, "text", e.text);
    out += ",\"count\":" + std::to_string(e.count);
    out += ",\"amount\":" + std::to_string(e.amount);
    appendNumber(out, "value", e.value);
    appendNumber(out, "limit", e.limit);
    if (!e.limitState.empty())
        appendField(out, "limitState", e.limitState);
    if (!e.user.empty())
        appendField(out, "user", e.user);
    out += '}';
    return out;
}

} // namespace telestation::events
