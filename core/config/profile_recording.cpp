// The station profile's `recording` section: how often the recorder writes what it buffered to the
// segment files (the most a crash of the station can lose), and whether each of those writes is also
// made durable on the disk (fdatasync). docs/RELIABILITY.md says what each choice costs and protects.
#include "core/config/profile_detail.hpp"

#include <array>
#include <string_view>

namespace telestation::config::detail {

namespace {

using json::member;

// Below 10 ms the write calls of a high-rate stream would be small; above a minute a crash of the
// station could cost a quiet stream's last minute of recording.
constexpr std::uint64_t kMinFlushIntervalMs = 10;
constexpr std::uint64_t kMaxFlushIntervalMs = 60'000;

constexpr std::array<std::string_view, 2> kRecordingKeys{"flushIntervalMs", "syncOnFlush"};

} // namespace

void readRecording(ProfileReader& reader, const Json& value, const std::string& path, RecordingOptions& recording)
{
    if (!reader.expect(value, path, value.is_object(), "an object (recording options)"))
        return;
    reader.checkKeys(value, path, kRecordingKeys, "recording");
    if (const auto it = value.find("flushIntervalMs"); it != value.end()) {
        std::uint64_t ms = 0;
        if (reader.readInteger(*it, member(path, "flushIntervalMs"), kMinFlushIntervalMs, kMaxFlushIntervalMs,
                               "a flush interval in milliseconds (a whole number, 10..60000)", ms))
            recording.flushIntervalMs = static_cast<std::uint32_t>(ms);
    }
    if (const auto it = value.find("syncOnFlush"); it != value.end())
        reader.readBool(*it, member(path, "syncOnFlush"), recording.syncOnFlush);
}

OrderedJson recordingToJson(const RecordingOptions& recording)
{
    const RecordingOptions defaults;
    OrderedJson out = OrderedJson::object();
    if (recording.flushIntervalMs != defaults.flushIntervalMs)
        out["flushIntervalMs"] = recording.flushIntervalMs;
    if (recording.syncOnFlush != defaults.syncOnFlush)
        out["syncOnFlush"] = recording.syncOnFlush;
    return out;
}

} // namespace telestation::config::detail
