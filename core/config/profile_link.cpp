// The station profile's `linkResponder` section (docs/link-test.md): where the link test's responder
// listens and which controllers besides loopback it accepts, read with every problem reported by its
// JSON path, and written back in canonical form.
#include "core/config/profile_detail.hpp"

#include "core/io/endpoint.hpp"
#include "core/json/json_reading.hpp"

#include <array>
#include <string>
#include <string_view>

namespace telestation::config::detail {

namespace {

constexpr std::array<std::string_view, 2> kLinkKeys{"listen", "allow"};

} // namespace

void readLinkResponder(ProfileReader& reader, const Json& value, const std::string& path, LinkResponderOptions& link)
{
    using json::element;
    using json::member;
    if (!reader.expect(value, path, value.is_object(), "an object (the link test's responder)"))
        return;
    reader.checkKeys(value, path, kLinkKeys, "linkResponder");
    if (const auto it = value.find("listen"); it == value.end()) {
        reader.error(member(path, "listen"), "missing (ADDR:PORT where the responder listens, e.g. 0.0.0.0:7700)");
    } else if (reader.readString(*it, member(path, "listen"), link.listen)) {
        // The endpoint parser knows addresses, names, bracketed IPv6 and port ranges.
        if (auto endpoint = io::parseEndpoint("tcp://" + link.listen); !endpoint)
            reader.error(member(path, "listen"), "'" + link.listen + "' is not ADDR:PORT: " + endpoint.error().message);
    }
    if (const auto it = value.find("allow"); it != value.end()) {
        const std::string allowPath = member(path, "allow");
        if (reader.expect(*it, allowPath, it->is_array(), "an array of controller addresses")) {
            for (std::size_t i = 0; i < it->size(); ++i) {
                std::string address;
                if (reader.readString((*it)[i], element(allowPath, i), address)) {
                    if (address.empty())
                        reader.error(element(allowPath, i), "empty (a controller's address or host name)");
                    else
                        link.allow.push_back(std::move(address));
                }
            }
        }
    }
}

OrderedJson linkResponderToJson(const LinkResponderOptions& link)
{
    OrderedJson out = OrderedJson::object();
    if (link.listen.empty())
        return out;
    out["listen"] = link.listen;
    if (!link.allow.empty())
        out["allow"] = link.allow;
    return out;
}

} // namespace telestation::config::detail
