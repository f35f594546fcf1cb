#include "core/config/station_profile.hpp"

#include "core/common/time_text.hpp"
#include "core/config/profile_detail.hpp"
#include "core/io/endpoint.hpp"
#include "core/json/json_reading.hpp"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstddef>
#include <filesystem>
#include <fstream>
#include <limits>
#include <sstream>
#include <system_error>
#include <utility>

namespace telestation::config {

// ---- detail::ProfileReader: diagnostics and typed values, shared with profile_events.cpp -------

namespace detail {

std::string shown(const Json& value)
{
    return json::shown(value, 48, json::StringStyle::SingleQuoted);
}

void ProfileReader::add(Severity severity, const std::string& path, std::string_view message)
{
    diagnostics.push_back(Diagnostic{severity, path + ": " + std::string(message), SourceLocation{m_file, 0, 0}});
}

bool ProfileReader::expect(const Json& value, const std::string& path, bool ok, std::string_view expected)
{
    if (!ok)
        error(path, "expected " + std::string(expected) + ", got " + json::describe(value));
    return ok;
}

bool ProfileReader::readString(const Json& value, const std::string& path, std::string& out)
{
    if (!expect(value, path, value.is_string(), "a string"))
        return false;
    out = value.get<std::string>();
    return true;
}

bool ProfileReader::readBool(const Json& value, const std::string& path, bool& out)
{
    if (!expect(value, path, value.is_boolean(), "a boolean (true or false)"))
        return false;
    out = value.get<bool>();
    return true;
}

bool ProfileReader::readInteger(const Json& value, const std::string& path, std::uint64_t minimum,
                                std::uint64_t maximum, std::string_view what, std::uint64_t& out)
{
    constexpr double kMaxExactInteger = 9007199254740992.0; // 2^53
    if (!expect(value, path, value.is_number(), what))
        return false;
    bool inRange = false;
    if (value.is_number_unsigned()) {
        out = value.get<std::uint64_t>();
        inRange = true;
    } else if (value.is_number_float()) {
        // 1e6 is a float to the parser but a whole number to the operator.
        const double number = value.get<double>();
        if (std::isfinite(number) && std::floor(number) == number && number >= 0 && number <= kMaxExactInteger) {
            out = static_cast<std::uint64_t>(number);
            inRange = true;
        }
    } // negative integers: nlohmann keeps non-negative ones unsigned
    if (!inRange || out < minimum || out > maximum) {
        error(path, shown(value) + " is not " + std::string(what));
        return false;
    }
    return true;
}

bool ProfileReader::readNumber(const Json& value, const std::string& path, std::string_view what, double& out)
{
    // The JSON parser refuses numbers beyond a double's range already; NaN and infinities have no JSON form.
    if (!expect(value, path, value.is_number() && std::isfinite(value.get<double>()), what))
        return false;
    out = value.get<double>();
    return true;
}

} // namespace detail

namespace {

using detail::Json;
using detail::OrderedJson;
using detail::shown;
namespace fs = std::filesystem;

// ---- Limits (docs/station-profile.md) -----------------------------------------------------------

constexpr std::uint64_t kMinQueueSize = 1;
constexpr std::uint64_t kMaxQueueSize = 16'777'216; // 2^24 packets: far beyond any memory budget we want
constexpr std::uint64_t kMinRecordFileSize = 65'536;
constexpr std::uint64_t kMaxRecordFileSize = 1ull << 40;
constexpr std::uint64_t kMaxApid = 2047;
constexpr std::uint64_t kMaxTransportHeaderBytes = 65'535;
constexpr double kMinStaleSeconds = 0.1; // besides 0 = never
constexpr double kMaxStaleSeconds = 86'400;

constexpr std::array<std::string_view, 11> kTopKeys{"mdb",    "recordingDirectory", "logDirectory", "logLevel",
                                                    "queues", "recording",          "events",       "api",
                                                    "linkResponder", "limits", "streams"};
constexpr std::array<std::string_view, 7> kQueueKeys{
    "networkPacketQueueSize", "networkPacketQueueWarningThreshold", "processPacketQueueSize",
    "recordPacketQueueSize",  "forwardPacketQueueSize",             "processedParameterQueueSize",
    "maxRecordFileSize"};
constexpr std::array<std::string_view, 8> kStreamKeys{
    "name", "source", "transportHeaderBytes", "enabled", "staleAfterSeconds", "playbackPosition", "unknownPackets",
    "packets"};
constexpr std::array<std::string_view, 3> kUnknownKeys{"mode", "record", "forward"};
constexpr std::array<std::string_view, 6> kPacketKeys{"packet", "apid", "secondaryId", "mode", "record", "forward"};
constexpr std::array<std::string_view, 5> kLogLevels{"trace", "debug", "info", "warning", "error"};

// The uint32 queue members in the order of kQueueKeys (maxRecordFileSize, the last, is 64-bit).
constexpr std::array<std::uint32_t QueueOptions::*, 6> kQueueMembers{
    &QueueOptions::networkPacketQueueSize,   &QueueOptions::networkPacketQueueWarningThreshold,
    &QueueOptions::processPacketQueueSize,   &QueueOptions::recordPacketQueueSize,
    &QueueOptions::forwardPacketQueueSize,   &QueueOptions::processedParameterQueueSize};

constexpr std::array<ProcessingMode, 4> kModes{ProcessingMode::PassThru, ProcessingMode::ProcessOnDemand,
                                               ProcessingMode::ProcessEntirePacket, ProcessingMode::Discard};

// ---- Shared JSON reading (core/json) -----------------------------------------------------------

using json::element;
using json::errnoText;
using json::joined;
using json::member;
using json::parseDocument; // parseProfile's parameter `json` hides the namespace there

// ---- Reading the DOM, collecting every problem --------------------------------------------------

class Reader : public detail::ProfileReader {
public:
    using ProfileReader::ProfileReader;

    void readProfile(const Json& root, StationProfile& profile)
    {
        const std::string path = "$";
        if (!expect(root, path, root.is_object(), "an object (a station profile)"))
            return;
        checkKeys(root, path, kTopKeys, "a station profile");

        if (const auto it = root.find("mdb"); it != root.end())
            readString(*it, member(path, "mdb"), profile.mdb);
        readDirectory(root, path, "recordingDirectory", profile.recordingDirectory);
        readDirectory(root, path, "logDirectory", profile.logDirectory);
        if (const auto it = root.find("logLevel"); it != root.end()) {
            std::string level;
            const std::string levelPath = member(path, "logLevel");
            if (readString(*it, levelPath, level)) {
                if (std::find(kLogLevels.begin(), kLogLevels.end(), level) == kLogLevels.end())
                    error(levelPath, shown(*it) + " is not a log level (" + joined(kLogLevels) + ")");
                else
                    profile.logLevel = level;
            }
        }
        if (const auto it = root.find("queues"); it != root.end())
            readQueues(*it, member(path, "queues"), profile.queues);
        if (const auto it = root.find("recording"); it != root.end())
            detail::readRecording(*this, *it, member(path, "recording"), profile.recording);
        if (const auto it = root.find("events"); it != root.end())
            detail::readEvents(*this, *it, member(path, "events"), profile.events);
        if (const auto it = root.find("api"); it != root.end())
            detail::readApi(*this, *it, member(path, "api"), profile.api);
        if (const auto it = root.find("linkResponder"); it != root.end())
            detail::readLinkResponder(*this, *it, member(path, "linkResponder"), profile.linkResponder);
        if (const auto it = root.find("limits"); it != root.end())
            detail::readLimits(*this, *it, member(path, "limits"), profile.limits);

        const std::string streamsPath = member(path, "streams");
        const auto streams = root.find("streams");
        if (streams == root.end()) {
            error(streamsPath, "missing (required: a list of streams, which may be empty)");
            return;
        }
        if (!expect(*streams, streamsPath, streams->is_array(), "an array of streams"))
            return;
        if (streams->empty())
            warning(streamsPath, "empty: the station has no stream to receive");
        readStreams(*streams, streamsPath, profile.streams);
    }

private:
    void readDirectory(const Json& object, const std::string& path, std::string_view key, std::string& out)
    {
        const auto it = object.find(key);
        if (it == object.end())
            return;
        const std::string keyPath = member(path, key);
        std::string directory;
        if (!readString(*it, keyPath, directory))
            return;
        if (directory.empty()) {
            error(keyPath, "empty (leave the key out for the default '" + out + "')");
            return;
        }
        out = std::move(directory);
    }

    void readQueues(const Json& value, const std::string& path, QueueOptions& queues)
    {
        if (!expect(value, path, value.is_object(), "an object (queue options)"))
            return;
        checkKeys(value, path, kQueueKeys, "queues");
        for (std::size_t i = 0; i < kQueueMembers.size(); ++i) {
            const auto it = value.find(kQueueKeys[i]);
            std::uint64_t size = 0;
            if (it != value.end() &&
                readInteger(*it, member(path, kQueueKeys[i]), kMinQueueSize, kMaxQueueSize,
                            "a queue size (a whole number of packets, 1..16777216)", size))
                queues.*kQueueMembers[i] = static_cast<std::uint32_t>(size);
        }
        if (const auto it = value.find("maxRecordFileSize"); it != value.end()) {
            std::uint64_t size = 0;
            if (readInteger(*it, member(path, "maxRecordFileSize"), kMinRecordFileSize, kMaxRecordFileSize,
                            "a file size (a whole number of bytes, 65536..1099511627776)", size))
                queues.maxRecordFileSize = size;
        }
        if (queues.networkPacketQueueWarningThreshold > queues.networkPacketQueueSize) {
            error(member(path, "networkPacketQueueWarningThreshold"),
                  std::to_string(queues.networkPacketQueueWarningThreshold) +
                      " is larger than the network packet queue size " +
                      std::to_string(queues.networkPacketQueueSize) + " (the warning could never be given)");
        }
    }

    void readStreams(const Json& streams, const std::string& path, std::vector<StreamProfile>& out)
    {
        // Where each name and source was first given, to report repeats with both places.
        std::vector<std::pair<std::string, std::size_t>> names;
        std::vector<std::pair<io::Endpoint, std::size_t>> sources;
        for (std::size_t i = 0; i < streams.size(); ++i) {
            const std::string streamPath = element(path, i);
            StreamProfile stream;
            std::optional<io::Endpoint> source;
            if (!readStream(streams[i], streamPath, stream, source))
                continue;
            if (!stream.name.empty()) {
                const auto same = std::find_if(names.begin(), names.end(),
                                               [&](const auto& entry) { return entry.first == stream.name; });
                if (same != names.end())
                    error(member(streamPath, "name"), "'" + stream.name + "' is already the name of " +
                                                          element(path, same->second));
                else
                    names.emplace_back(stream.name, i);
            }
            if (source) {
                const auto same = std::find_if(sources.begin(), sources.end(),
                                               [&](const auto& entry) { return entry.first == *source; });
                if (same != sources.end())
                    error(member(streamPath, "source"), "'" + stream.source + "' is already the source of " +
                                                            element(path, same->second));
                else
                    sources.emplace_back(*source, i);
            }
            out.push_back(std::move(stream));
        }
    }

    bool readStream(const Json& value, const std::string& path, StreamProfile& stream,
                    std::optional<io::Endpoint>& source)
    {
        if (!expect(value, path, value.is_object(), "an object (a stream)"))
            return false;
        checkKeys(value, path, kStreamKeys, "a stream");

        const std::string namePath = member(path, "name");
        if (const auto it = value.find("name"); it == value.end()) {
            error(namePath, "missing (required: a name of letters, digits, '-' and '_')");
        } else if (readString(*it, namePath, stream.name) && !isWellFormedName(stream.name)) {
            error(namePath, shown(*it) + " is not a stream name (one or more letters, digits, '-' and '_')");
        }

        const std::string sourcePath = member(path, "source");
        if (const auto it = value.find("source"); it == value.end()) {
            error(sourcePath, "missing (required: an endpoint URL such as \"udp://127.0.0.1:47001\")");
        } else if (readString(*it, sourcePath, stream.source)) {
            source = checkSource(stream.source, sourcePath);
        }

        if (const auto it = value.find("transportHeaderBytes"); it != value.end()) {
            std::uint64_t bytes = 0;
            if (readInteger(*it, member(path, "transportHeaderBytes"), 0, kMaxTransportHeaderBytes,
                            "a byte count (a whole number, 0..65535)", bytes))
                stream.transportHeaderBytes = static_cast<std::uint32_t>(bytes);
        }
        if (const auto it = value.find("enabled"); it != value.end())
            readBool(*it, member(path, "enabled"), stream.enabled);
        if (const auto it = value.find("staleAfterSeconds"); it != value.end())
            readStaleTime(*it, member(path, "staleAfterSeconds"), stream.staleAfterSeconds);
        if (const auto it = value.find("playbackPosition"); it != value.end())
            readPlaybackPosition(*it, member(path, "playbackPosition"), source, stream.playbackPositionNs);
        if (const auto it = value.find("unknownPackets"); it != value.end())
            readUnknown(*it, member(path, "unknownPackets"), stream);
        if (const auto it = value.find("packets"); it != value.end())
            readPackets(*it, member(path, "packets"), stream.packets);
        return true;
    }

    void readStaleTime(const Json& value, const std::string& path, double& out)
    {
        constexpr std::string_view kWhat = "a number of seconds (0 = never stale, or 0.1..86400)";
        double seconds = 0;
        if (!readNumber(value, path, kWhat, seconds))
            return;
        if (seconds != 0 && !(seconds >= kMinStaleSeconds && seconds <= kMaxStaleSeconds)) {
            error(path, shown(value) + " is not " + std::string(kWhat));
            return;
        }
        out = seconds;
    }

    // An ISO-8601 UTC time (or integer ns since the epoch, as a string), for file:// sources only.
    void readPlaybackPosition(const Json& value, const std::string& path, const std::optional<io::Endpoint>& source,
                              std::int64_t& out)
    {
        constexpr std::string_view kWhat = "a time such as \"2026-11-22T12:00:00.25Z\" (where a stopped playback resumes)";
        std::string text;
        if (!readString(value, path, text))
            return;
        const auto time = text::parseTimeNs(text);
        if (!time) {
            error(path, shown(value) + " is not " + std::string(kWhat));
            return;
        }
        if (source && source->scheme != io::Scheme::File) {
            error(path, "only a playback (file://) source has a position");
            return;
        }
        out = *time;
    }

    std::optional<io::Endpoint> checkSource(const std::string& url, const std::string& path)
    {
        auto endpoint = io::parseEndpoint(url);
        if (!endpoint) {
            error(path, endpoint.error().message);
            return std::nullopt;
        }
        if (endpoint->scheme == io::Scheme::Tcp && endpoint->port == 0) {
            error(path, "'" + url + "': a tcp:// source connects and needs a port (1..65535)");
            return std::nullopt;
        }
        return *endpoint;
    }

    void readForward(const Json& value, const std::string& path, std::vector<std::string>& out)
    {
        if (!expect(value, path, value.is_array(), "an array of destination URLs"))
            return;
        for (std::size_t i = 0; i < value.size(); ++i) {
            const std::string itemPath = element(path, i);
            std::string url;
            if (!readString(value[i], itemPath, url))
                continue;
            const auto endpoint = io::parseEndpoint(url);
            if (!endpoint) {
                error(itemPath, endpoint.error().message);
            } else if (endpoint->scheme == io::Scheme::File) {
                error(itemPath, "'" + url + "' is a recording; packets are forwarded to udp://, tcp:// or tcp-listen://");
            } else if (endpoint->port == 0 && endpoint->scheme != io::Scheme::TcpListen) {
                error(itemPath, "'" + url + "': a destination needs a port (1..65535)");
            } else if (std::find(out.begin(), out.end(), url) != out.end()) {
                warning(itemPath, "'" + url + "' is listed twice (packets are forwarded once)");
                continue;
            }
            out.push_back(std::move(url));
        }
    }

    // `allowed`: the modes valid here, for the message.
    template <typename Modes>
    bool readMode(const Json& value, const std::string& path, const Modes& allowed, std::string_view notAllowedWhy,
                  ProcessingMode& out)
    {
        std::string text;
        if (!readString(value, path, text))
            return false;
        std::string names;
        for (const ProcessingMode mode : allowed) {
            names += (names.empty() ? "" : ", ") + std::string(toString(mode));
            if (toString(mode) == text) {
                out = mode;
                return true;
            }
        }
        const bool otherMode = std::any_of(kModes.begin(), kModes.end(),
                                           [&](ProcessingMode mode) { return toString(mode) == text; });
        if (otherMode)
            error(path, shown(value) + " " + std::string(notAllowedWhy) + " (" + names + ")");
        else
            error(path, shown(value) + " is not a processing mode (" + names + ")");
        return false;
    }

    void readUnknown(const Json& value, const std::string& path, StreamProfile& stream)
    {
        if (!expect(value, path, value.is_object(), "an object (settings for unknown packets)"))
            return;
        checkKeys(value, path, kUnknownKeys, "unknownPackets");
        constexpr std::array<ProcessingMode, 2> kUnknownModes{ProcessingMode::PassThru, ProcessingMode::Discard};
        if (const auto it = value.find("mode"); it != value.end())
            (void)readMode(*it, member(path, "mode"), kUnknownModes,
                           "cannot be used for unknown packets: they have no definition to decode", stream.unknownMode);
        if (const auto it = value.find("record"); it != value.end())
            readBool(*it, member(path, "record"), stream.recordUnknown);
        if (const auto it = value.find("forward"); it != value.end())
            readForward(*it, member(path, "forward"), stream.forwardUnknown);
        if (stream.unknownMode == ProcessingMode::Discard) {
            if (stream.recordUnknown)
                warning(member(path, "record"), "has no effect: unknown packets are discarded");
            if (!stream.forwardUnknown.empty())
                warning(member(path, "forward"), "has no effect: unknown packets are discarded");
        }
    }

    void readPackets(const Json& value, const std::string& path, std::vector<PacketSettings>& out)
    {
        if (!expect(value, path, value.is_array(), "an array of packet settings"))
            return;
        std::vector<std::size_t> indexOf; // the element index of each entry of `out`
        for (std::size_t i = 0; i < value.size(); ++i) {
            const std::string itemPath = element(path, i);
            PacketSettings settings;
            if (!readPacket(value[i], itemPath, settings))
                continue;
            const auto same = std::find_if(out.begin(), out.end(),
                                           [&](const PacketSettings& other) { return other.sameKey(settings); });
            if (same != out.end()) {
                std::string type = "APID " + std::to_string(settings.apid);
                if (settings.byName())
                    type = "packet type '" + settings.packet + "'";
                else if (settings.secondaryId)
                    type += " secondary id " + std::to_string(*settings.secondaryId);
                error(itemPath, type + " is already set by " +
                                    element(path, indexOf[static_cast<std::size_t>(same - out.begin())]));
                continue;
            }
            out.push_back(std::move(settings));
            indexOf.push_back(i);
        }
    }

    // False when the entry names no packet type (no valid `packet` or APID: it cannot be keyed);
    // other problems are reported and the entry is kept.
    bool readPacket(const Json& value, const std::string& path, PacketSettings& settings)
    {
        if (!expect(value, path, value.is_object(), "an object (packet settings)"))
            return false;
        checkKeys(value, path, kPacketKeys, "a packet setting");
        const auto name = value.find("packet");
        const auto apid = value.find("apid");
        const auto secondaryId = value.find("secondaryId");
        bool keyed = true;
        if (name != value.end()) {
            // The mission database decides whether the name exists, when the profile is applied to it.
            const std::string namePath = member(path, "packet");
            if (apid != value.end()) {
                error(path, "both 'packet' and 'apid' are given; a packet setting names its packet type by one "
                            "of them");
                keyed = false;
            }
            if (secondaryId != value.end()) {
                error(member(path, "secondaryId"),
                      "goes with 'apid', not with 'packet' (the name alone names the packet type)");
                keyed = false;
            }
            if (!readString(*name, namePath, settings.packet)) {
                keyed = false;
            } else if (settings.packet.empty()) {
                error(namePath, "empty (required: the name of a packet type of the mission database)");
                keyed = false;
            }
        } else {
            const std::string apidPath = member(path, "apid");
            if (apid == value.end()) {
                error(apidPath, "missing (required: the packet type's APID, 0..2047, or 'packet': its name)");
                keyed = false;
            } else {
                std::uint64_t number = 0;
                keyed = readInteger(*apid, apidPath, 0, kMaxApid, "an APID (a whole number, 0..2047)", number);
                settings.apid = static_cast<std::uint16_t>(number);
            }
            if (secondaryId != value.end()) {
                std::uint64_t id = 0;
                if (secondaryId->is_number_unsigned()) // the whole 64-bit range, beyond what a double holds exactly
                    settings.secondaryId = secondaryId->get<std::uint64_t>();
                else if (readInteger(*secondaryId, member(path, "secondaryId"), 0,
                                     std::numeric_limits<std::uint64_t>::max(),
                                     "a secondary id (a whole number, 0..18446744073709551615)", id))
                    settings.secondaryId = id;
                else
                    keyed = false;
            }
        }
        constexpr std::array<ProcessingMode, 3> kPacketModes{
            ProcessingMode::PassThru, ProcessingMode::ProcessOnDemand, ProcessingMode::ProcessEntirePacket};
        if (const auto it = value.find("mode"); it != value.end())
            (void)readMode(*it, member(path, "mode"), kPacketModes,
                           "is only for unknownPackets; a defined packet type is processed or passed thru",
                           settings.mode);
        if (const auto it = value.find("record"); it != value.end())
            readBool(*it, member(path, "record"), settings.record);
        if (const auto it = value.find("forward"); it != value.end())
            readForward(*it, member(path, "forward"), settings.forward);
        return keyed;
    }
};

// ---- Writing -----------------------------------------------------------------------------------

OrderedJson forwardToJson(const std::vector<std::string>& forward)
{
    OrderedJson out = OrderedJson::array();
    for (const auto& url : forward)
        out.push_back(url);
    return out;
}

OrderedJson streamToJson(const StreamProfile& stream)
{
    const StreamProfile defaults;
    OrderedJson out = OrderedJson::object();
    out["name"] = stream.name;
    out["source"] = stream.source;
    if (stream.transportHeaderBytes != defaults.transportHeaderBytes)
        out["transportHeaderBytes"] = stream.transportHeaderBytes;
    if (stream.enabled != defaults.enabled)
        out["enabled"] = stream.enabled;
    if (stream.staleAfterSeconds != defaults.staleAfterSeconds)
        out["staleAfterSeconds"] = stream.staleAfterSeconds;
    if (stream.playbackPositionNs != defaults.playbackPositionNs)
        out["playbackPosition"] = text::formatTimeNs(stream.playbackPositionNs);
    OrderedJson unknown = OrderedJson::object();
    if (stream.unknownMode != defaults.unknownMode)
        unknown["mode"] = toString(stream.unknownMode);
    if (stream.recordUnknown != defaults.recordUnknown)
        unknown["record"] = stream.recordUnknown;
    if (!stream.forwardUnknown.empty())
        unknown["forward"] = forwardToJson(stream.forwardUnknown);
    if (!unknown.empty())
        out["unknownPackets"] = std::move(unknown);
    if (!stream.packets.empty()) {
        const PacketSettings packetDefaults;
        OrderedJson packets = OrderedJson::array();
        for (const PacketSettings& settings : stream.packets) {
            OrderedJson item = OrderedJson::object();
            if (settings.byName()) {
                item["packet"] = settings.packet;
            } else {
                item["apid"] = settings.apid;
                if (settings.secondaryId)
                    item["secondaryId"] = *settings.secondaryId;
            }
            if (settings.mode != packetDefaults.mode)
                item["mode"] = toString(settings.mode);
            if (settings.record != packetDefaults.record)
                item["record"] = settings.record;
            if (!settings.forward.empty())
                item["forward"] = forwardToJson(settings.forward);
            packets.push_back(std::move(item));
        }
        out["packets"] = std::move(packets);
    }
    return out;
}

Diagnostic fileError(const std::string& path, std::string_view message)
{
    return Diagnostic{Severity::Error, std::string(message), SourceLocation{path, 0, 0}};
}

// `relative` made absolute against `base` (the profile's directory); absolute paths unchanged.
std::string resolved(const fs::path& base, const std::string& relative)
{
    const fs::path path(relative);
    if (path.is_absolute())
        return relative;
    std::error_code ec;
    fs::path absolute = fs::absolute(base / path, ec);
    if (ec)
        absolute = base / path;
    return absolute.lexically_normal().string();
}

} // namespace

std::string_view toString(ProcessingMode mode) noexcept
{
    switch (mode) {
    case ProcessingMode::PassThru:
        return "passThru";
    case ProcessingMode::ProcessOnDemand:
        return "processOnDemand";
    case ProcessingMode::ProcessEntirePacket:
        return "processEntirePacket";
    case ProcessingMode::Discard:
        return "discard";
    }
    return "?";
}

ProfileLoad parseProfile(std::string_view json, std::string_view fileName)
{
    ProfileLoad load;
    const auto document = parseDocument(json);
    if (document.syntaxError) {
        const auto& syntax = *document.syntaxError;
        load.diagnostics.push_back(Diagnostic{Severity::Error, syntax.message,
                                              SourceLocation{std::string(fileName), syntax.at.line, syntax.at.column}});
        return load;
    }
    Reader reader{std::string(fileName)};
    for (const std::string& path : document.repeatedKeys)
        reader.error(path, "duplicate key (each key may appear once in an object; the last one was used)");
    reader.readProfile(document.root, load.profile);
    load.diagnostics = std::move(reader.diagnostics);
    return load;
}

ProfileLoad loadProfileFile(const std::string& path)
{
    ProfileLoad load;
    std::error_code ec;
    if (fs::is_directory(path, ec)) {
        load.diagnostics.push_back(fileError(path, "is a directory, not a station profile"));
        return load;
    }
    std::ifstream in(path, std::ios::binary);
    if (!in) {
        load.diagnostics.push_back(fileError(path, "cannot open the station profile: " + errnoText()));
        return load;
    }
    std::ostringstream text;
    text << in.rdbuf();
    if (in.bad()) {
        load.diagnostics.push_back(fileError(path, "cannot read the station profile: " + errnoText()));
        return load;
    }

    load = parseProfile(text.str(), path);
    // Relative paths are relative to the profile, not to the working directory of whoever loads it; made
    // absolute so that the profile keeps meaning the same files when it is saved elsewhere.
    const fs::path base = fs::path(path).parent_path();
    StationProfile& profile = load.profile;
    if (!profile.mdb.empty()) // "" is the training database, not a path
        profile.mdb = resolved(base, profile.mdb);
    profile.recordingDirectory = resolved(base, profile.recordingDirectory);
    profile.logDirectory = resolved(base, profile.logDirectory);
    if (!profile.events.archiveFile.empty()) // "" is events.sqlite in the recording directory, resolved above
        profile.events.archiveFile = resolved(base, profile.events.archiveFile);
    for (std::string* file : {&profile.api.tlsCertificate, &profile.api.tlsKey})
        if (!file->empty())
            *file = resolved(base, *file);
    for (StreamProfile& stream : profile.streams) {
        auto endpoint = io::parseEndpoint(stream.source);
        if (endpoint && endpoint->scheme == io::Scheme::File) {
            endpoint->path = resolved(base, endpoint->path);
            stream.source = endpoint->toString();
        }
    }
    return load;
}

std::string profileToJson(const StationProfile& profile)
{
    const StationProfile defaults;
    OrderedJson root = OrderedJson::object();
    if (!profile.mdb.empty())
        root["mdb"] = profile.mdb;
    if (profile.recordingDirectory != defaults.recordingDirectory)
        root["recordingDirectory"] = profile.recordingDirectory;
    if (profile.logDirectory != defaults.logDirectory)
        root["logDirectory"] = profile.logDirectory;
    if (profile.logLevel != defaults.logLevel)
        root["logLevel"] = profile.logLevel;

    OrderedJson queues = OrderedJson::object();
    for (std::size_t i = 0; i < kQueueMembers.size(); ++i) {
        if (profile.queues.*kQueueMembers[i] != defaults.queues.*kQueueMembers[i])
            queues[std::string(kQueueKeys[i])] = profile.queues.*kQueueMembers[i];
    }
    if (profile.queues.maxRecordFileSize != defaults.queues.maxRecordFileSize)
        queues["maxRecordFileSize"] = profile.queues.maxRecordFileSize;
    if (!queues.empty())
        root["queues"] = std::move(queues);
    if (OrderedJson recording = detail::recordingToJson(profile.recording); !recording.empty())
        root["recording"] = std::move(recording);
    if (OrderedJson events = detail::eventsToJson(profile.events); !events.empty())
        root["events"] = std::move(events);
    if (OrderedJson api = detail::apiToJson(profile.api); !api.empty())
        root["api"] = std::move(api);
    if (OrderedJson link = detail::linkResponderToJson(profile.linkResponder); !link.empty())
        root["linkResponder"] = std::move(link);
    if (OrderedJson limits = detail::limitsToJson(profile.limits); !limits.empty())
        root["limits"] = std::move(limits);

    OrderedJson streams = OrderedJson::array();
    for (const StreamProfile& stream : profile.streams)
        streams.push_back(streamToJson(stream));
    root["streams"] = std::move(streams);
    return root.dump(2) + '\n';
}

Status saveProfileFile(const StationProfile& profile, const std::string& path)
{
    // Written beside the target and renamed over it: a failed write leaves the old profile intact.
    return json::writeFileReplacing(path, profileToJson(profile), "cannot write the station profile: ");
}

bool isWellFormedName(std::string_view name) noexcept
{
    return !name.empty() && std::all_of(name.begin(), name.end(), [](char c) {
        return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '-' || c == '_';
    });
}

} // namespace telestation::config
