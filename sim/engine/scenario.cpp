#include "sim/engine/scenario.hpp"

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
#include <optional>
#include <span>
#include <sstream>
#include <string_view>
#include <system_error>
#include <utility>

namespace telestation::sim {

namespace {

using Json = nlohmann::json;
using OrderedJson = nlohmann::ordered_json;

// ---- Shared JSON reading (core/json) -----------------------------------------------------------

using json::describe;
using json::element;
using json::isIdentifier;
using json::member;
using json::parseDocument; // parseScenario's parameter `json` hides the namespace there

// The value as written (strings JSON-quoted), shortened, for messages.
std::string shown(const Json& value)
{
    return json::shown(value, 40, json::StringStyle::JsonQuoted);
}

// ---- Generator kinds and the fields each takes ---------------------------------------------------

struct KindInfo {
    GeneratorKind kind;
    bool takesDomain; // stateCycle picks states and text writes text: no number to place
    std::span<const std::string_view> fields; // besides "kind" and "domain", in the order written
};

constexpr std::array<std::string_view, 1> kConstantFields{"value"};
constexpr std::array<std::string_view, 2> kCounterFields{"start", "step"};
constexpr std::array<std::string_view, 3> kRampFields{"min", "max", "period"};
constexpr std::array<std::string_view, 4> kSineFields{"amplitude", "offset", "period", "phase"};
constexpr std::array<std::string_view, 3> kSquareFields{"min", "max", "period"};
constexpr std::array<std::string_view, 3> kUniformFields{"min", "max", "seed"};
constexpr std::array<std::string_view, 3> kNormalFields{"mean", "stddev", "seed"};
constexpr std::array<std::string_view, 2> kStateCycleFields{"period", "values"};
constexpr std::array<std::string_view, 1> kListFields{"values"};
constexpr std::array<std::string_view, 1> kTextFields{"text"};

// Names in the file are toString(GeneratorKind) and toString(ValueDomain).
const std::array<KindInfo, 10> kKinds{{
    {GeneratorKind::Constant, true, kConstantFields},
    {GeneratorKind::Counter, true, kCounterFields},
    {GeneratorKind::Ramp, true, kRampFields},
    {GeneratorKind::Sine, true, kSineFields},
    {GeneratorKind::Square, true, kSquareFields},
    {GeneratorKind::Uniform, true, kUniformFields},
    {GeneratorKind::Normal, true, kNormalFields},
    {GeneratorKind::StateCycle, false, kStateCycleFields},
    {GeneratorKind::List, true, kListFields},
    {GeneratorKind::Text, false, kTextFields},
}};

constexpr std::array<ValueDomain, 3> kDomains{ValueDomain::Calibrated, ValueDomain::Converted, ValueDomain::Raw};

const KindInfo& kindInfo(GeneratorKind kind)
{
    for (const KindInfo& info : kKinds) {
        if (info.kind == kind)
            return info;
    }
    return kKinds.front();
}

using NumberMember = double GeneratorSpec::*;

// The double members of GeneratorSpec by field name ("values", "text" and "seed" are not doubles).
NumberMember numberField(std::string_view name)
{
    static constexpr std::array<std::pair<std::string_view, NumberMember>, 11> kNumbers{{
        {"value", &GeneratorSpec::value},
        {"start", &GeneratorSpec::start},
        {"step", &GeneratorSpec::step},
        {"min", &GeneratorSpec::min},
        {"max", &GeneratorSpec::max},
        {"period", &GeneratorSpec::period},
        {"amplitude", &GeneratorSpec::amplitude},
        {"offset", &GeneratorSpec::offset},
        {"phase", &GeneratorSpec::phase},
        {"mean", &GeneratorSpec::mean},
        {"stddev", &GeneratorSpec::stddev},
    }};
    for (const auto& [fieldName, pointer] : kNumbers) {
        if (fieldName == name)
            return pointer;
    }
    return nullptr;
}

std::string kindNames()
{
    std::string out;
    for (const KindInfo& info : kKinds) {
        if (!out.empty())
            out += ", ";
        out += toString(info.kind);
    }
    return out;
}

std::string domainNames()
{
    std::string out;
    for (const ValueDomain domain : kDomains) {
        if (!out.empty())
            out += ", ";
        out += toString(domain);
    }
    return out;
}

std::vector<std::string_view> keysOf(const KindInfo& info)
{
    std::vector<std::string_view> keys{"kind"};
    if (info.takesDomain)
        keys.push_back("domain");
    keys.insert(keys.end(), info.fields.begin(), info.fields.end());
    return keys;
}

// ---- Reading the DOM ---------------------------------------------------------------------------

constexpr std::array<std::string_view, 2> kTopKeys{"mdb", "streams"};
constexpr std::array<std::string_view, 10> kStreamKeys{
    "name", "destination", "rate", "mix", "duration", "count", "transportHeaderBytes", "seed", "faults", "generators"};
constexpr std::array<std::string_view, 2> kMixKeys{"packet", "weight"};
constexpr std::array<std::string_view, 6> kFaultKeys{"drop", "duplicate", "reorder", "corruptHeader", "truncate", "garbage"};

constexpr std::uint64_t kMaxApid = 2047;
constexpr double kMaxExactInteger = 9007199254740992.0; // 2^53: larger doubles skip integers
constexpr std::uint64_t kMaxUnsigned = std::numeric_limits<std::uint64_t>::max();
constexpr std::uint64_t kMaxStateIndex = 4294967295; // far more states than any enumeration lists
constexpr std::string_view kSeedRange = "a seed (a whole number, 0..18446744073709551615)";

class Reader {
public:
    explicit Reader(std::string file) : m_file(std::move(file)) {}

    [[nodiscard]] Error error(const std::string& path, std::string_view message) const
    {
        return Error{path + ": " + std::string(message), SourceLocation{m_file, 0, 0}};
    }

    [[nodiscard]] Status expect(const Json& value, const std::string& path, bool ok, std::string_view expected) const
    {
        if (ok)
            return {};
        return error(path, "expected " + std::string(expected) + ", got " + describe(value));
    }

    // Rejects keys outside `allowed`; `owner` says whose keys they are ("a stream").
    template <typename Keys>
    [[nodiscard]] Status checkKeys(const Json& object, const std::string& path, const Keys& allowed,
                                   std::string_view owner) const
    {
        for (const auto& [key, value] : object.items()) {
            (void)value;
            if (std::find(std::begin(allowed), std::end(allowed), key) == std::end(allowed))
                return error(member(path, key),
                             "unknown key; " + std::string(owner) + " takes " + json::joined(allowed));
        }
        return {};
    }

    [[nodiscard]] Status readString(const Json& value, const std::string& path, std::string& out) const
    {
        if (auto status = expect(value, path, value.is_string(), "a string"); !status)
            return status;
        out = value.get<std::string>();
        return {};
    }

    [[nodiscard]] Status readNumber(const Json& value, const std::string& path, double& out) const
    {
        if (auto status = expect(value, path, value.is_number(), "a number"); !status)
            return status;
        out = value.get<double>();
        if (!std::isfinite(out))
            return error(path, shown(value) + " is not a finite number");
        return {};
    }

    // A whole number in [minimum, maximum]; a float with an integral value counts ("1e3"). `what`
    // names what the number is, with its range: "a packet count (a whole number greater than 0)".
    [[nodiscard]] Status readInteger(const Json& value, const std::string& path, std::uint64_t minimum,
                                     std::uint64_t maximum, std::string_view what, std::uint64_t& out) const
    {
        if (auto status = expect(value, path, value.is_number(), what); !status)
            return status;
        const Error outOfRange = error(path, shown(value) + " is not " + std::string(what));
        if (value.is_number_unsigned()) {
            out = value.get<std::uint64_t>();
        } else if (value.is_number_integer()) {
            return outOfRange; // negative: nlohmann keeps non-negative integers unsigned
        } else {
            const double number = value.get<double>();
            if (!std::isfinite(number) || std::floor(number) != number || number < 0 || number > kMaxExactInteger)
                return outOfRange;
            out = static_cast<std::uint64_t>(number);
        }
        if (out < minimum || out > maximum)
            return outOfRange;
        return {};
    }

    [[nodiscard]] Result<Scenario> readScenario(const Json& root) const
    {
        const std::string path = "$";
        if (auto status = expect(root, path, root.is_object(), "an object"); !status)
            return status.error();
        if (auto status = checkKeys(root, path, kTopKeys, "a scenario"); !status)
            return status.error();

        Scenario scenario;
        if (const auto it = root.find("mdb"); it != root.end()) {
            if (auto status = readString(*it, member(path, "mdb"), scenario.mdb); !status)
                return status.error();
        }
        const auto streams = root.find("streams");
        const std::string streamsPath = member(path, "streams");
        if (streams == root.end())
            return error(streamsPath, "missing (required: a list of streams)");
        if (auto status = expect(*streams, streamsPath, streams->is_array(), "an array of streams"); !status)
            return status.error();
        if (streams->empty())
            return error(streamsPath, "empty (at least one stream is required)");

        for (std::size_t i = 0; i < streams->size(); ++i) {
            const std::string streamPath = element(streamsPath, i);
            StreamConfig stream;
            if (auto status = readStream((*streams)[i], streamPath, i, stream); !status)
                return status.error();
            for (std::size_t j = 0; j < scenario.streams.size(); ++j) {
                if (scenario.streams[j].name != stream.name)
                    continue;
                const std::string other = element(streamsPath, j);
                if ((*streams)[i].contains("name"))
                    return error(member(streamPath, "name"), '"' + stream.name + "\" is already the name of " + other);
                return error(streamPath, "its default name \"" + stream.name + "\" is already the name of " + other +
                                             "; give it a \"name\"");
            }
            scenario.streams.push_back(std::move(stream));
        }
        return scenario;
    }

private:
    std::string m_file;

    [[nodiscard]] Status readStream(const Json& value, const std::string& path, std::size_t index,
                                    StreamConfig& stream) const
    {
        if (auto status = expect(value, path, value.is_object(), "an object (a stream)"); !status)
            return status;
        if (auto status = checkKeys(value, path, kStreamKeys, "a stream"); !status)
            return status;

        stream.name = "stream" + std::to_string(index + 1);
        if (const auto it = value.find("name"); it != value.end()) {
            const std::string namePath = member(path, "name");
            if (auto status = readString(*it, namePath, stream.name); !status)
                return status;
            if (stream.name.empty())
                return error(namePath, "empty (leave \"name\" out for the default \"stream" +
                                           std::to_string(index + 1) + "\")");
        }

        const auto destination = value.find("destination");
        const std::string destinationPath = member(path, "destination");
        if (destination == value.end())
            return error(destinationPath, "missing (required: an endpoint URL such as \"udp://127.0.0.1:47001\")");
        if (auto status = readString(*destination, destinationPath, stream.destination); !status)
            return status;
        const auto endpoint = io::parseEndpoint(stream.destination);
        if (!endpoint)
            return error(destinationPath, endpoint.error().message);
        if (endpoint->scheme == io::Scheme::File)
            return error(destinationPath, "\"" + stream.destination +
                                              "\" is a recording; the simulator sends to udp://, tcp:// or tcp-listen://");
        if (endpoint->port == 0 && endpoint->scheme != io::Scheme::TcpListen)
            return error(destinationPath, "\"" + stream.destination +
                                              "\": port 0 is only meaningful for tcp-listen:// (any free port)");

        const auto rate = value.find("rate");
        const std::string ratePath = member(path, "rate");
        if (rate == value.end())
            return error(ratePath, "missing (required: e.g. \"100pps\", \"25.6Mbps\" or \"flood\")");
        std::string rateText;
        if (auto status = readString(*rate, ratePath, rateText); !status)
            return status;
        auto parsedRate = parseRate(rateText);
        if (!parsedRate)
            return error(ratePath, parsedRate.error().message);
        stream.rate = *parsedRate;

        if (auto status = readMix(value, path, stream); !status)
            return status;

        const auto duration = value.find("duration");
        const auto count = value.find("count");
        if (duration != value.end() && count != value.end())
            return error(path, "both \"duration\" and \"count\" given; a stream stops after one of them");
        if (duration != value.end()) {
            const std::string durationPath = member(path, "duration");
            double seconds = 0;
            if (auto status = readNumber(*duration, durationPath, seconds); !status)
                return status;
            if (!(seconds > 0))
                return error(durationPath, shown(*duration) + " is not a duration (seconds, greater than 0)");
            stream.durationSeconds = seconds;
        }
        if (count != value.end()) {
            std::uint64_t packets = 0;
            if (auto status = readInteger(*count, member(path, "count"), 1, kMaxUnsigned,
                                                "a packet count (a whole number greater than 0)", packets); !status)
                return status;
            stream.count = packets;
        }

        if (const auto it = value.find("transportHeaderBytes"); it != value.end()) {
            std::uint64_t bytes = 0;
            if (auto status = readInteger(*it, member(path, "transportHeaderBytes"), 0, 65535,
                                                "a byte count (0..65535)", bytes); !status)
                return status;
            stream.transportHeaderBytes = static_cast<std::uint32_t>(bytes);
        }
        if (const auto it = value.find("seed"); it != value.end()) {
            if (auto status = readInteger(*it, member(path, "seed"), 0, kMaxUnsigned, kSeedRange, stream.seed); !status)
                return status;
        }
        if (const auto it = value.find("faults"); it != value.end()) {
            if (auto status = readFaults(*it, member(path, "faults"), stream.faults); !status)
                return status;
        }
        if (const auto it = value.find("generators"); it != value.end()) {
            if (auto status = readGenerators(*it, member(path, "generators"), stream.generators); !status)
                return status;
        }
        return {};
    }

    [[nodiscard]] Status readMix(const Json& stream, const std::string& streamPath, StreamConfig& out) const
    {
        const std::string path = member(streamPath, "mix");
        const auto mix = stream.find("mix");
        if (mix == stream.end())
            return error(path, "missing (required: e.g. [{\"packet\": \"Packet5\", \"weight\": 1}])");
        if (auto status = expect(*mix, path, mix->is_array(), "an array of {\"packet\", \"weight\"}"); !status)
            return status;
        if (mix->empty())
            return error(path, "empty (at least one packet type is required)");

        for (std::size_t i = 0; i < mix->size(); ++i) {
            const Json& value = (*mix)[i];
            const std::string entryPath = element(path, i);
            if (auto status = expect(value, entryPath, value.is_object(), "an object {\"packet\", \"weight\"}"); !status)
                return status;
            if (auto status = checkKeys(value, entryPath, kMixKeys, "a mix entry"); !status)
                return status;

            MixEntry entry;
            const std::string packetPath = member(entryPath, "packet");
            const auto packet = value.find("packet");
            if (packet == value.end())
                return error(packetPath, "missing (required: a packet name or an APID)");
            if (auto status = readPacket(*packet, packetPath, entry.packet); !status)
                return status;
            if (const auto weight = value.find("weight"); weight != value.end()) {
                const std::string weightPath = member(entryPath, "weight");
                if (auto status = readNumber(*weight, weightPath, entry.weight); !status)
                    return status;
                if (!(entry.weight > 0))
                    return error(weightPath, shown(*weight) + " is not a weight (greater than 0)");
            }
            for (std::size_t j = 0; j < out.mix.size(); ++j) {
                if (out.mix[j].packet == entry.packet)
                    return error(packetPath, '"' + entry.packet + "\" is already in the mix at " + element(path, j));
            }
            out.mix.push_back(std::move(entry));
        }
        return {};
    }

    // A packet name, or an APID as a number or a string of digits (kept as canonical decimal).
    [[nodiscard]] Status readPacket(const Json& value, const std::string& path, std::string& out) const
    {
        if (value.is_number()) {
            std::uint64_t apid = 0;
            if (auto status = readInteger(value, path, 0, kMaxApid, "an APID (0..2047)", apid); !status)
                return status;
            out = std::to_string(apid);
            return {};
        }
        if (auto status = expect(value, path, value.is_string(), "a packet name or an APID"); !status)
            return status;
        const auto text = value.get<std::string>();
        const bool digits = !text.empty() && std::all_of(text.begin(), text.end(), [](char c) { return c >= '0' && c <= '9'; });
        if (digits) {
            // At most 4 significant digits can be an APID; longer strings would overflow stoull.
            const auto significant = text.find_first_not_of('0');
            const std::string trimmed = significant == std::string::npos ? "0" : text.substr(significant);
            if (trimmed.size() > 4 || std::stoull(trimmed) > kMaxApid)
                return error(path, shown(value) + " is not an APID (0..2047)");
            out = trimmed;
            return {};
        }
        if (!isIdentifier(text))
            return error(path, shown(value) + " is not a packet name or an APID (0..2047)");
        out = text;
        return {};
    }

    [[nodiscard]] Status readFaults(const Json& value, const std::string& path, FaultConfig& faults) const
    {
        if (auto status = expect(value, path, value.is_object(), "an object of probabilities"); !status)
            return status;
        if (auto status = checkKeys(value, path, kFaultKeys, "\"faults\""); !status)
            return status;
        const std::array<std::pair<std::string_view, double FaultConfig::*>, 6> fields{{
            {"drop", &FaultConfig::drop},
            {"duplicate", &FaultConfig::duplicate},
            {"reorder", &FaultConfig::reorder},
            {"corruptHeader", &FaultConfig::corruptHeader},
            {"truncate", &FaultConfig::truncate},
            {"garbage", &FaultConfig::garbage},
        }};
        for (const auto& [name, field] : fields) {
            const auto it = value.find(std::string(name));
            if (it == value.end())
                continue;
            const std::string fieldPath = member(path, name);
            double probability = 0;
            if (auto status = readNumber(*it, fieldPath, probability); !status)
                return status;
            if (probability < 0 || probability > 1)
                return error(fieldPath, shown(*it) + " is not a probability (0..1)");
            faults.*field = probability;
        }
        return {};
    }

    [[nodiscard]] Status readGenerators(const Json& value, const std::string& path,
                                        std::map<std::string, GeneratorSpec>& generators) const
    {
        if (auto status = expect(value, path, value.is_object(), "an object {\"PACKET.PARAMETER\": {...}}"); !status)
            return status;
        for (const auto& [key, spec] : value.items()) {
            const std::string specPath = member(path, key);
            const std::size_t dot = key.find('.');
            if (dot == std::string::npos || !isIdentifier(std::string_view(key).substr(0, dot)) ||
                !isIdentifier(std::string_view(key).substr(dot + 1)))
                return error(specPath, "not a parameter name (PACKET.PARAMETER, e.g. \"Packet5.CPU_LOAD\")");
            GeneratorSpec generator;
            if (auto status = readGenerator(spec, specPath, generator); !status)
                return status;
            generators.emplace(key, std::move(generator));
        }
        return {};
    }

    [[nodiscard]] Status readGenerator(const Json& value, const std::string& path, GeneratorSpec& spec) const
    {
        if (auto status = expect(value, path, value.is_object(), "an object (a generator)"); !status)
            return status;
        const std::string kindPath = member(path, "kind");
        const auto kind = value.find("kind");
        if (kind == value.end())
            return error(kindPath, "missing (required: one of " + kindNames() + ")");
        std::string kindName;
        if (auto status = readString(*kind, kindPath, kindName); !status)
            return status;
        const auto info = std::find_if(kKinds.begin(), kKinds.end(), [&](const KindInfo& k) { return toString(k.kind) == kindName; });
        if (info == kKinds.end())
            return error(kindPath, shown(*kind) + " is not a generator kind (" + kindNames() + ")");
        spec.kind = info->kind;

        const std::vector<std::string_view> allowed = keysOf(*info);
        if (auto status = checkKeys(value, path, allowed, "a " + std::string(toString(info->kind)) + " generator"); !status)
            return status;

        if (const auto domain = value.find("domain"); domain != value.end()) {
            const std::string domainPath = member(path, "domain");
            std::string domainName;
            if (auto status = readString(*domain, domainPath, domainName); !status)
                return status;
            const auto found = std::find_if(kDomains.begin(), kDomains.end(),
                                            [&](ValueDomain d) { return toString(d) == domainName; });
            if (found == kDomains.end())
                return error(domainPath, shown(*domain) + " is not a value domain (" + domainNames() + ")");
            spec.domain = *found;
        }

        for (const std::string_view field : info->fields) {
            const auto it = value.find(std::string(field));
            const std::string fieldPath = member(path, field);
            if (field == "values") {
                // list: the values, required. stateCycle: optional state indices (0 = the first state
                // of the enumeration), to visit states in another order or dwell longer in some.
                const bool states = spec.kind == GeneratorKind::StateCycle;
                if (it == value.end()) {
                    if (states)
                        continue;
                    return error(fieldPath, "missing (required: a non-empty array of numbers)");
                }
                if (auto status = expect(*it, fieldPath, it->is_array(), states ? "an array of state indices" : "an array of numbers");
                    !status)
                    return status;
                if (it->empty())
                    return error(fieldPath, states ? "empty (leave \"values\" out to cycle through every state)"
                                                   : "empty (at least one value is required)");
                for (std::size_t i = 0; i < it->size(); ++i) {
                    double number = 0;
                    if (states) {
                        std::uint64_t index = 0;
                        if (auto status = readInteger((*it)[i], element(fieldPath, i), 0, kMaxStateIndex,
                                                      "a state index (a whole number from 0)", index);
                            !status)
                            return status;
                        number = static_cast<double>(index);
                    } else if (auto status = readNumber((*it)[i], element(fieldPath, i), number); !status) {
                        return status;
                    }
                    spec.values.push_back(number);
                }
                continue;
            }
            if (it == value.end())
                continue; // every other field has a default
            if (field == "text") {
                if (auto status = readString(*it, fieldPath, spec.text); !status)
                    return status;
            } else if (field == "seed") {
                if (auto status = readInteger(*it, fieldPath, 0, kMaxUnsigned, kSeedRange, spec.seed); !status)
                    return status;
            } else {
                double number = 0;
                if (auto status = readNumber(*it, fieldPath, number); !status)
                    return status;
                if (field == "period" && !(number > 0))
                    return error(fieldPath, shown(*it) + " is not a period (seconds, greater than 0)");
                if (field == "stddev" && !(number > 0))
                    return error(fieldPath, shown(*it) + " is not a standard deviation (greater than 0)");
                spec.*numberField(field) = number;
            }
        }

        if (spec.kind == GeneratorKind::Uniform && !(spec.min < spec.max))
            return error(path, "\"min\" must be less than \"max\"");
        return {};
    }
};

// ---- Writing -----------------------------------------------------------------------------------

// An APID in canonical decimal ("7", not "007") is written as a number, anything else as a string.
bool isCanonicalApid(const std::string& packet)
{
    if (packet.empty() || packet.size() > 4 || (packet.size() > 1 && packet.front() == '0'))
        return false;
    if (!std::all_of(packet.begin(), packet.end(), [](char c) { return c >= '0' && c <= '9'; }))
        return false;
    return std::stoul(packet) <= kMaxApid;
}

OrderedJson generatorToJson(const GeneratorSpec& spec)
{
    const KindInfo& info = kindInfo(spec.kind);
    const GeneratorSpec defaults;
    OrderedJson out = OrderedJson::object();
    out["kind"] = toString(info.kind);
    if (info.takesDomain && spec.domain != defaults.domain)
        out["domain"] = toString(spec.domain);
    for (const std::string_view field : info.fields) {
        const std::string key(field);
        if (field == "values") {
            if (!spec.values.empty() || spec.kind == GeneratorKind::List)
                out[key] = spec.values;
        } else if (field == "text") {
            if (spec.text != defaults.text)
                out[key] = spec.text;
        } else if (field == "seed") {
            if (spec.seed != defaults.seed)
                out[key] = spec.seed;
        } else if (const auto pointer = numberField(field); spec.*pointer != defaults.*pointer) {
            out[key] = spec.*pointer;
        }
    }
    return out;
}

OrderedJson generatorsObject(const std::map<std::string, GeneratorSpec>& generators)
{
    OrderedJson out = OrderedJson::object();
    for (const auto& [name, spec] : generators)
        out[name] = generatorToJson(spec);
    return out;
}

OrderedJson streamToJson(const StreamConfig& stream, std::size_t index)
{
    const StreamConfig defaults;
    OrderedJson out = OrderedJson::object();
    if (stream.name != "stream" + std::to_string(index + 1))
        out["name"] = stream.name;
    out["destination"] = stream.destination;
    out["rate"] = toString(stream.rate);

    OrderedJson mix = OrderedJson::array();
    for (const MixEntry& entry : stream.mix) {
        OrderedJson item = OrderedJson::object();
        if (isCanonicalApid(entry.packet))
            item["packet"] = std::stoul(entry.packet);
        else
            item["packet"] = entry.packet;
        if (entry.weight != MixEntry{}.weight)
            item["weight"] = entry.weight;
        mix.push_back(std::move(item));
    }
    out["mix"] = std::move(mix);

    if (stream.durationSeconds)
        out["duration"] = *stream.durationSeconds;
    if (stream.count)
        out["count"] = *stream.count;
    if (stream.transportHeaderBytes != defaults.transportHeaderBytes)
        out["transportHeaderBytes"] = stream.transportHeaderBytes;
    if (stream.seed != defaults.seed)
        out["seed"] = stream.seed;

    if (stream.faults != FaultConfig{}) {
        OrderedJson faults = OrderedJson::object();
        const auto put = [&](const char* name, double probability) {
            if (probability != 0)
                faults[name] = probability;
        };
        put("drop", stream.faults.drop);
        put("duplicate", stream.faults.duplicate);
        put("reorder", stream.faults.reorder);
        put("corruptHeader", stream.faults.corruptHeader);
        put("truncate", stream.faults.truncate);
        put("garbage", stream.faults.garbage);
        out["faults"] = std::move(faults);
    }

    if (!stream.generators.empty())
        out["generators"] = generatorsObject(stream.generators);
    return out;
}

Error fileError(const std::string& path, std::string_view message)
{
    return Error{std::string(message), SourceLocation{path, 0, 0}};
}

} // namespace

Result<Scenario> parseScenario(std::string_view json, std::string_view fileName)
{
    const auto document = parseDocument(json);
    // The first repeated key is reported even when a syntax error follows it.
    if (!document.repeatedKeys.empty()) {
        return Error{document.repeatedKeys.front() + ": duplicate key (each key may appear once in an object)",
                     SourceLocation{std::string(fileName), 0, 0}};
    }
    if (document.syntaxError) {
        const auto& syntax = *document.syntaxError;
        return Error{syntax.message, SourceLocation{std::string(fileName), syntax.at.line, syntax.at.column}};
    }
    return Reader(std::string(fileName)).readScenario(document.root);
}

Result<Scenario> loadScenarioFile(const std::string& path)
{
    namespace fs = std::filesystem;
    std::error_code ec;
    if (fs::is_directory(path, ec))
        return fileError(path, "is a directory, not a scenario file");
    std::ifstream in(path, std::ios::binary);
    if (!in)
        return fileError(path, "cannot open: " + json::errnoText());
    std::ostringstream text;
    text << in.rdbuf();
    if (in.bad())
        return fileError(path, "cannot read: " + json::errnoText());

    auto scenario = parseScenario(text.str(), path);
    if (!scenario)
        return scenario;
    // A relative database path is relative to the scenario file; made absolute so that saving the
    // scenario elsewhere keeps pointing at the same database.
    if (!scenario->mdb.empty() && fs::path(scenario->mdb).is_relative()) {
        const fs::path resolved = fs::absolute(fs::path(path).parent_path() / scenario->mdb, ec);
        scenario->mdb = (ec ? fs::path(path).parent_path() / scenario->mdb : resolved).lexically_normal().string();
    }
    return scenario;
}

std::string generatorsToJson(const std::map<std::string, GeneratorSpec>& generators)
{
    return generatorsObject(generators).dump();
}

std::string scenarioToJson(const Scenario& scenario)
{
    OrderedJson root = OrderedJson::object();
    if (!scenario.mdb.empty())
        root["mdb"] = scenario.mdb;
    OrderedJson streams = OrderedJson::array();
    for (std::size_t i = 0; i < scenario.streams.size(); ++i)
        streams.push_back(streamToJson(scenario.streams[i], i));
    root["streams"] = std::move(streams);
    return root.dump(2) + '\n';
}

Status saveScenarioFile(const Scenario& scenario, const std::string& path)
{
    // Written next to the target and renamed over it, so that a failed write leaves the old file.
    return json::writeFileReplacing(path, scenarioToJson(scenario), "cannot write: ");
}

} // namespace telestation::sim
