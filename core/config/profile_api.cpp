// The station profile's `api` section: where the user API's server listens and who may call it, read
// with every problem reported by its JSON path, and written back in canonical form (defaults left out).
// Whether the files named exist, or the address is this machine's, is the server's to find out.
#include "core/config/profile_detail.hpp"

#include "core/json/json_reading.hpp"

#include <algorithm>
#include <array>
#include <string>
#include <string_view>

namespace telestation::config::detail {

namespace {

using json::element;
using json::member;

constexpr std::array<std::string_view, 6> kApiKeys{"enabled", "address", "port", "tlsCertificate", "tlsKey", "tokens"};
constexpr std::array<std::string_view, 3> kTokenKeys{"token", "name", "control"};
constexpr std::size_t kMinTokenLength = 16; // a token shorter than this is too easy to guess

void readToken(ProfileReader& reader, const Json& entry, const std::string& path, ApiToken& token)
{
    if (!reader.expect(entry, path, entry.is_object(), "an object (an API token)"))
        return;
    reader.checkKeys(entry, path, kTokenKeys, "an API token");
    if (const auto it = entry.find("token"); it == entry.end())
        reader.error(member(path, "token"), "missing (required: the secret the client sends)");
    else if (reader.readString(*it, member(path, "token"), token.token) && token.token.size() < kMinTokenLength)
        reader.error(member(path, "token"), "too short: at least " + std::to_string(kMinTokenLength) + " characters");
    if (const auto it = entry.find("name"); it != entry.end())
        reader.readString(*it, member(path, "name"), token.name);
    if (const auto it = entry.find("control"); it != entry.end())
        reader.readBool(*it, member(path, "control"), token.control);
}

} // namespace

void readApi(ProfileReader& reader, const Json& value, const std::string& path, ApiOptions& api)
{
    if (!reader.expect(value, path, value.is_object(), "an object (the user API's server)"))
        return;
    reader.checkKeys(value, path, kApiKeys, "api");
    if (const auto it = value.find("enabled"); it != value.end())
        reader.readBool(*it, member(path, "enabled"), api.enabled);
    if (const auto it = value.find("address"); it != value.end()) {
        if (reader.readString(*it, member(path, "address"), api.address) && api.address.empty())
            reader.error(member(path, "address"), "empty (an IP address to listen on, e.g. 127.0.0.1)");
    }
    if (const auto it = value.find("port"); it != value.end()) {
        std::uint64_t port = 0;
        if (reader.readInteger(*it, member(path, "port"), 0, 65535, "a TCP port (0..65535; 0 = any free port)", port))
            api.port = static_cast<std::uint16_t>(port);
    }
    if (const auto it = value.find("tlsCertificate"); it != value.end())
        reader.readString(*it, member(path, "tlsCertificate"), api.tlsCertificate);
    if (const auto it = value.find("tlsKey"); it != value.end())
        reader.readString(*it, member(path, "tlsKey"), api.tlsKey);
    if (api.tlsCertificate.empty() != api.tlsKey.empty())
        reader.error(path, "TLS needs both tlsCertificate and tlsKey");
    if (const auto it = value.find("tokens"); it != value.end()) {
        const std::string tokensPath = member(path, "tokens");
        if (reader.expect(*it, tokensPath, it->is_array(), "an array of API tokens")) {
            for (std::size_t i = 0; i < it->size(); ++i) {
                ApiToken token;
                readToken(reader, (*it)[i], element(tokensPath, i), token);
                if (token.name.empty()) // named by its place: "token 2"
                    token.name = "token " + std::to_string(i + 1);
                const bool repeated = std::any_of(api.tokens.begin(), api.tokens.end(),
                                                  [&](const ApiToken& t) { return t.token == token.token; });
                if (repeated)
                    reader.error(member(element(tokensPath, i), "token"), "the same token is given twice");
                else if (!token.token.empty())
                    api.tokens.push_back(std::move(token));
            }
        }
    }
    if (api.enabled && !isLoopbackAddress(api.address) && (api.tlsCertificate.empty() || api.tokens.empty()))
        reader.error(member(path, "address"), "'" + api.address +
                                                  "' is not loopback: the API is served there only with TLS "
                                                  "(tlsCertificate, tlsKey) and at least one token");
}

OrderedJson apiToJson(const ApiOptions& api)
{
    const ApiOptions defaults;
    OrderedJson out = OrderedJson::object();
    if (api.enabled != defaults.enabled)
        out["enabled"] = api.enabled;
    if (api.address != defaults.address)
        out["address"] = api.address;
    if (api.port != defaults.port)
        out["port"] = api.port;
    if (!api.tlsCertificate.empty())
        out["tlsCertificate"] = api.tlsCertificate;
    if (!api.tlsKey.empty())
        out["tlsKey"] = api.tlsKey;
    if (!api.tokens.empty()) {
        OrderedJson tokens = OrderedJson::array();
        for (const ApiToken& t : api.tokens) {
            OrderedJson item = OrderedJson::object();
            item["token"] = t.token;
            item["name"] = t.name;
            if (t.control)
                item["control"] = true;
            tokens.push_back(std::move(item));
        }
        out["tokens"] = std::move(tokens);
    }
    return out;
}

} // namespace telestation::config::detail

namespace telestation::config {

bool isLoopbackAddress(std::string_view address) noexcept
{
    return address == "localhost" || address == "::1" || address.starts_with("127.");
}

} // namespace telestation::config
