// What the parts of the station profile reader give each other; internal to core/config (included by
// its .cpp files only), not part of the module's API. station_profile.cpp reads and writes the profile,
// its queues and streams; profile_events.cpp the settings of the station's events: the event archive
// and the operators' limits.
#pragma once

#include "core/common/diagnostic.hpp"
#include "core/config/station_profile.hpp"
#include "core/json/json_reading.hpp"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace telestation::config::detail {

using Json = nlohmann::json;
using OrderedJson = nlohmann::ordered_json;

// A value as written, for messages: strings in single quotes, others as JSON; long ones shortened.
[[nodiscard]] std::string shown(const Json& value);

// Collects every problem of one profile, each message starting with its JSON path, and reads typed
// values: a read that fails has reported why and leaves `out` unchanged. (station_profile.cpp)
class ProfileReader {
public:
    explicit ProfileReader(std::string file) : m_file(std::move(file)) {}

    Diagnostics diagnostics;

    void error(const std::string& path, std::string_view message) { add(Severity::Error, path, message); }
    void warning(const std::string& path, std::string_view message) { add(Severity::Warning, path, message); }

    // Reports "expected `expected`, got ..." unless `ok`.
    bool expect(const Json& value, const std::string& path, bool ok, std::string_view expected);

    template <typename Keys>
    void checkKeys(const Json& object, const std::string& path, const Keys& allowed, std::string_view owner)
    {
        for (const auto& item : object.items()) {
            if (std::find(allowed.begin(), allowed.end(), item.key()) == allowed.end())
                error(json::member(path, item.key()),
                      "unknown key; " + std::string(owner) + " takes " + json::joined(allowed));
        }
    }

    bool readString(const Json& value, const std::string& path, std::string& out);
    bool readBool(const Json& value, const std::string& path, bool& out);
    // A whole number in [minimum, maximum]; `what` names it with its range for the message.
    bool readInteger(const Json& value, const std::string& path, std::uint64_t minimum, std::uint64_t maximum,
                     std::string_view what, std::uint64_t& out);
    // A finite number; `what` names it for the message. Ranges are the caller's.
    bool readNumber(const Json& value, const std::string& path, std::string_view what, double& out);

private:
    std::string m_file;

    void add(Severity severity, const std::string& path, std::string_view message);
};

// ---- Events and limits (profile_events.cpp) -----------------------------------------------------

// `$.events`: the event archive's options.
void readEvents(ProfileReader& reader, const Json& value, const std::string& path, EventOptions& events);
// `$.limits`: the operators' limits, at most one entry per parameter (a repeat is reported and left out).
void readLimits(ProfileReader& reader, const Json& value, const std::string& path, std::vector<LimitSetting>& limits);

// Canonical JSON, defaults left out: an empty object / array when there is nothing to write.
[[nodiscard]] OrderedJson eventsToJson(const EventOptions& events);
// profile_recording.cpp: `recording`, how the recorder writes.
void readRecording(ProfileReader& reader, const Json& value, const std::string& path, RecordingOptions& recording);
[[nodiscard]] OrderedJson recordingToJson(const RecordingOptions& recording);
// profile_api.cpp: `api`, the user API's server.
void readApi(ProfileReader& reader, const Json& value, const std::string& path, ApiOptions& api);
[[nodiscard]] OrderedJson apiToJson(const ApiOptions& api);
// profile_link.cpp: `linkResponder`, the link test's responder.
void readLinkResponder(ProfileReader& reader, const Json& value, const std::string& path, LinkResponderOptions& link);
[[nodiscard]] OrderedJson linkResponderToJson(const LinkResponderOptions& link);
[[nodiscard]] OrderedJson limitsToJson(const std::vector<LimitSetting>& limits);

} // namespace telestation::config::detail
