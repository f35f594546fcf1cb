// Endpoint URL parsing. Every error names the URL, what is wrong and the 0-based character offset
// where it is (Error::where.column holds the same position 1-based).
#include "core/io/endpoint.hpp"

#include "core/common/time_text.hpp"

#include <arpa/inet.h>
#include <netinet/in.h>

#include <algorithm>
#include <array>
#include <cctype>
#include <charconv>
#include <chrono>
#include <cmath>
#include <limits>
#include <optional>
#include <string>

namespace telestation::io {

namespace {

constexpr std::string_view kSchemeSeparator = "://";
constexpr std::size_t kMaxHostNameLength = 253;

[[nodiscard]] Error parseError(std::string_view url, std::string_view what, std::size_t offset)
{
    Error error;
    error.message = std::string(url) + ": " + std::string(what) + " at offset " + std::to_string(offset);
    error.where.column = static_cast<int>(offset) + 1;
    return error;
}

[[nodiscard]] std::string quoted(std::string_view text)
{
    return "'" + std::string(text) + "'";
}

[[nodiscard]] bool equalsIgnoringCase(std::string_view a, std::string_view b)
{
    return a.size() == b.size() && std::equal(a.begin(), a.end(), b.begin(), [](char x, char y) {
               return std::tolower(static_cast<unsigned char>(x)) == std::tolower(static_cast<unsigned char>(y));
           });
}

struct SchemeName {
    std::string_view name;
    Scheme scheme;
};
constexpr std::array<SchemeName, 4> kSchemes{{
    {"udp", Scheme::Udp},
    {"tcp", Scheme::Tcp},
    {"tcp-listen", Scheme::TcpListen},
    {"file", Scheme::File},
}};

[[nodiscard]] std::string_view schemeName(Scheme scheme)
{
    for (const auto& s : kSchemes) {
        if (s.scheme == scheme)
            return s.name;
    }
    return "udp";
}

// An IPv6 literal, optionally with a zone ("fe80::1%eth0"): the part before '%' must parse.
[[nodiscard]] bool parseIpv6(std::string_view text, in6_addr& out)
{
    const auto zone = text.find('%');
    if (zone == 0 || zone + 1 == text.size())
        return false;
    const std::string address(text.substr(0, zone));
    return inet_pton(AF_INET6, address.c_str(), &out) == 1;
}

[[nodiscard]] bool parseIpv4(std::string_view text, in_addr& out)
{
    const std::string address(text);
    return inet_pton(AF_INET, address.c_str(), &out) == 1;
}

[[nodiscard]] bool isIpv4Multicast(const in_addr& a)
{
    return (ntohl(a.s_addr) >> 28) == 0xE; // 224.0.0.0/4
}

[[nodiscard]] bool isIpv6Multicast(const in6_addr& a)
{
    return a.s6_addr[0] == 0xFF; // ff00::/8
}

[[nodiscard]] bool isHostNameChar(char c)
{
    return std::isalnum(static_cast<unsigned char>(c)) != 0 || c == '-' || c == '.' || c == '_';
}

// The family of a host as written: a host name has none until it is resolved.
enum class HostKind : std::uint8_t { Name, Ipv4, Ipv6 };


// ---- file:// ------------------------------------------------------------------------------------

constexpr std::size_t kMaxStreamNameLength = 32; // as core/record's segment header stores it

[[nodiscard]] int hexValue(char c)
{
    if (c >= '0' && c <= '9')
        return c - '0';
    if (c >= 'a' && c <= 'f')
        return c - 'a' + 10;
    if (c >= 'A' && c <= 'F')
        return c - 'A' + 10;
    return -1;
}

[[nodiscard]] bool isStreamName(std::string_view name)
{
    return !name.empty() && name.size() <= kMaxStreamNameLength && std::all_of(name.begin(), name.end(), [](char c) {
               return std::isalnum(static_cast<unsigned char>(c)) != 0 || c == '_' || c == '.' || c == '-';
           });
}

// PATH up to the first '?', with %XX escapes decoded ('%' not followed by two hex digits stays as is).
[[nodiscard]] Result<std::string> decodePath(std::string_view url, std::size_t begin, std::size_t end)
{
    std::string path;
    path.reserve(end - begin);
    for (std::size_t i = begin; i < end; ++i) {
        const bool escape = url[i] == '%' && i + 2 < end && hexValue(url[i + 1]) >= 0 && hexValue(url[i + 2]) >= 0;
        if (!escape) {
            path += url[i];
            continue;
        }
        const char decoded = static_cast<char>(hexValue(url[i + 1]) * 16 + hexValue(url[i + 2]));
        if (decoded == '\0')
            return parseError(url, "%00 (NUL) in the path", i);
        path += decoded;
        i += 2;
    }
    return path;
}

// The path with '%' and '?' escaped, so that it parses back to itself.
[[nodiscard]] std::string encodePath(std::string_view path)
{
    std::string out;
    out.reserve(path.size());
    for (const char c : path) {
        if (c == '%')
            out += "%25";
        else if (c == '?')
            out += "%3F";
        else
            out += c;
    }
    return out;
}

constexpr std::string_view kFileOptions = "speed=N, from=T, to=T, stream=NAME, segment=FILE, repeat=1";
constexpr std::string_view kTimeFormats =
    "integer ns since the Unix epoch, or ISO-8601 UTC such as 2026-11-22T12:00:00Z or 2026-11-22T12:00:00.5Z";

// file://PATH[?speed=N&from=T&to=T&stream=NAME...]; `pos` is just after "file://".
[[nodiscard]] Result<Endpoint> parseFileEndpoint(std::string_view url, std::size_t pos)
{
    Endpoint endpoint;
    endpoint.scheme = Scheme::File;
    const std::size_t queryStart = std::min(url.find('?', pos), url.size());
    if (queryStart == pos)
        return parseError(url, "missing path after file://", pos);
    auto path = decodePath(url, pos, queryStart);
    if (!path)
        return path.error();
    endpoint.path = std::move(*path);
    if (queryStart == url.size())
        return endpoint;

    bool haveSpeed = false, haveRepeat = false;
    std::optional<std::int64_t> from;
    std::optional<std::int64_t> to;
    std::size_t toOffset = 0;
    pos = queryStart + 1;
    while (true) {
        const std::size_t keyOffset = pos;
        const std::size_t end = std::min(url.find('&', pos), url.size());
        const std::string_view option = url.substr(pos, end - pos);
        const auto equals = option.find('=');
        const std::string_view key = option.substr(0, equals);
        const std::size_t valueOffset = keyOffset + key.size() + 1;
        if (key.empty())
            return parseError(url, "empty option in the query (expected " + std::string(kFileOptions) + ")", keyOffset);
        const bool known = key == "speed" || key == "from" || key == "to" || key == "stream" || key == "segment"
                           || key == "repeat";
        if (!known)
            return parseError(
                url, "unknown option " + quoted(key) + " (file:// takes " + std::string(kFileOptions) + ")", keyOffset);
        if (equals == std::string_view::npos)
            return parseError(url, std::string(key) + " needs a value (" + std::string(key) + "=...)",
                              keyOffset + key.size());
        const std::string_view value = option.substr(equals + 1);
        if (value.empty())
            return parseError(url, "empty value for " + std::string(key), valueOffset);
        if (key == "speed") {
            if (haveSpeed)
                return parseError(url, "speed is given twice", keyOffset);
            if (!text::parsePlainDecimal(value).has_value())
                return parseError(url,
                                  "speed " + quoted(value)
                                      + " is not a number >= 0 (e.g. speed=1, speed=0.5; 0 = as fast as possible)",
                                  valueOffset);
            haveSpeed = true;
        } else if (key == "from" || key == "to") {
            std::optional<std::int64_t>& bound = key == "from" ? from : to;
            if (bound)
                return parseError(url, std::string(key) + " is given twice", keyOffset);
            bound = text::parseTimeNs(value);
            if (!bound)
                return parseError(
                    url, std::string(key) + " " + quoted(value) + " is not a time (" + std::string(kTimeFormats) + ")",
                    valueOffset);
            if (key == "to")
                toOffset = valueOffset;
        } else if (key == "repeat") {
            if (haveRepeat)
                return parseError(url, "repeat is given twice", keyOffset);
            if (value != "0" && value != "1")
                return parseError(url, "repeat " + quoted(value) + " is not 0 or 1 (repeat=1: play again from the start when done)",
                                  valueOffset);
            haveRepeat = true;
        } else if (key == "segment") {
            if (value.find('/') != std::string_view::npos)
                return parseError(url, "segment " + quoted(value) + " is a file name in the recording, not a path",
                                  valueOffset);
        } else if (!isStreamName(value)) {
            return parseError(url, "stream name " + quoted(value) + " is not 1 to 32 of A-Z a-z 0-9 _ . -",
                              valueOffset);
        }
        endpoint.query.emplace_back(std::string(key), std::string(value));
        if (end == url.size())
            break;
        pos = end + 1;
    }
    // 0 is "open end" for playback, so only two real bounds can contradict each other.
    if (from && to && *from != 0 && *to != 0 && *from > *to)
        return parseError(url, "to is before from", toOffset);
    return endpoint;
}

} // namespace

std::string Endpoint::toString() const
{
    std::string out(schemeName(scheme));
    out += kSchemeSeparator;
    if (scheme == Scheme::File) {
        out += encodePath(path);
        for (std::size_t i = 0; i < query.size(); ++i)
            out += (i == 0 ? "?" : "&") + query[i].first + '=' + query[i].second;
        return out;
    }
    if (host.find(':') != std::string::npos)
        out += '[' + host + ']';
    else
        out += host;
    out += ':' + std::to_string(port);
    if (!iface.empty())
        out += "?iface=" + iface;
    return out;
}

Result<Endpoint> parseEndpoint(std::string_view url)
{
    if (url.empty())
        return parseError(url, "empty endpoint (expected udp://, tcp://, tcp-listen:// or file://)", 0);

    const auto separator = url.find(kSchemeSeparator);
    if (separator == std::string_view::npos)
        return parseError(url, "missing scheme (expected udp://, tcp://, tcp-listen:// or file://)", 0);

    Endpoint endpoint;
    const std::string_view schemeText = url.substr(0, separator);
    const auto known = std::find_if(kSchemes.begin(), kSchemes.end(),
                                    [&](const SchemeName& s) { return equalsIgnoringCase(s.name, schemeText); });
    if (known == kSchemes.end())
        return parseError(url, "unknown scheme " + quoted(schemeText) + " (expected udp, tcp, tcp-listen or file)", 0);
    endpoint.scheme = known->scheme;

    std::size_t pos = separator + kSchemeSeparator.size();
    // The path starts right after "file://": "file:///abs/x" is "/abs/x", "file://rel/x" is "rel/x".
    if (endpoint.scheme == Scheme::File)
        return parseFileEndpoint(url, pos);

    // Host: [IPv6] or a name / IPv4 address up to ':' or '?'.
    std::size_t hostOffset = pos; // where the address itself starts (inside brackets for IPv6)
    HostKind kind = HostKind::Name;
    in_addr v4{};
    in6_addr v6{};
    if (pos < url.size() && url[pos] == '[') {
        const auto close = url.find(']', pos);
        if (close == std::string_view::npos)
            return parseError(url, "IPv6 address without closing ']'", pos);
        const std::string_view literal = url.substr(pos + 1, close - pos - 1);
        if (literal.empty())
            return parseError(url, "empty IPv6 address in brackets", pos + 1);
        if (!parseIpv6(literal, v6))
            return parseError(url, quoted(literal) + " is not a valid IPv6 address", pos + 1);
        endpoint.host = std::string(literal);
        hostOffset = pos + 1;
        kind = HostKind::Ipv6;
        pos = close + 1;
    } else {
        std::size_t end = pos;
        while (end < url.size() && url[end] != ':' && url[end] != '?')
            ++end;
        const std::string_view host = url.substr(pos, end - pos);
        // "udp://::1:5000" or "udp://fe80::1:5000": more than one ':' before the query.
        const auto queryStart = url.find('?', pos);
        const std::string_view authority = url.substr(pos, queryStart == std::string_view::npos ? std::string_view::npos
                                                                                                  : queryStart - pos);
        if (std::count(authority.begin(), authority.end(), ':') > 1)
            return parseError(url, "an IPv6 address must be in brackets, e.g. udp://[::1]:5000", pos);
        if (host.empty())
            return parseError(url, "missing host", pos);
        if (host.size() > kMaxHostNameLength)
            return parseError(url, "host name longer than 253 characters", pos);
        for (std::size_t i = 0; i < host.size(); ++i) {
            if (!isHostNameChar(host[i]))
                return parseError(url, "invalid character " + quoted(host.substr(i, 1)) + " in host", pos + i);
        }
        const bool numeric = std::all_of(host.begin(), host.end(), [](char c) {
            return c == '.' || std::isdigit(static_cast<unsigned char>(c)) != 0;
        });
        if (numeric) {
            if (!parseIpv4(host, v4))
                return parseError(url, quoted(host) + " is not a valid IPv4 address", pos);
            kind = HostKind::Ipv4;
        }
        endpoint.host = std::string(host);
        pos = end;
    }

    endpoint.multicast = (kind == HostKind::Ipv4 && isIpv4Multicast(v4)) || (kind == HostKind::Ipv6 && isIpv6Multicast(v6));
    if (endpoint.multicast && endpoint.scheme != Scheme::Udp)
        return parseError(url, "multicast group " + quoted(endpoint.host) + " is only valid with udp://", hostOffset);

    // Port.
    if (pos >= url.size() || url[pos] != ':')
        return parseError(url, "missing port (expected ':PORT' after the host)", pos);
    ++pos;
    const std::size_t portOffset = pos;
    while (pos < url.size() && std::isdigit(static_cast<unsigned char>(url[pos])) != 0)
        ++pos;
    const std::string_view digits = url.substr(portOffset, pos - portOffset);
    if (digits.empty()) {
        if (pos < url.size() && url[pos] != '?')
            return parseError(url, "invalid character " + quoted(url.substr(pos, 1)) + " in port", pos);
        return parseError(url, "missing port number", pos);
    }
    if (pos < url.size() && url[pos] != '?')
        return parseError(url, "invalid character " + quoted(url.substr(pos, 1)) + " in port", pos);
    const auto firstSignificant = digits.find_first_not_of('0');
    const std::string_view significant =
        firstSignificant == std::string_view::npos ? std::string_view("0") : digits.substr(firstSignificant);
    if (significant.size() > 5 || std::stoul(std::string(significant)) > 65535)
        return parseError(url, "port " + std::string(digits) + " is out of range (0-65535)", portOffset);
    endpoint.port = static_cast<std::uint16_t>(std::stoul(std::string(significant)));

    // Query: only iface=ADDR, only for a multicast group.
    if (pos < url.size()) {
        ++pos; // '?'
        bool haveIface = false;
        while (true) {
            const std::size_t keyOffset = pos;
            std::size_t end = pos;
            while (end < url.size() && url[end] != '&')
                ++end;
            const std::string_view option = url.substr(pos, end - pos);
            const auto equals = option.find('=');
            const std::string_view key = option.substr(0, equals);
            if (key.empty())
                return parseError(url, "empty option in the query (expected iface=ADDR)", keyOffset);
            if (key != "iface")
                return parseError(url, "unknown option " + quoted(key) + " (the only option is iface=ADDR)", keyOffset);
            if (!endpoint.multicast)
                return parseError(url, "iface is only valid for a multicast group (224.0.0.0/4 or ff00::/8)", keyOffset);
            if (haveIface)
                return parseError(url, "iface is given twice", keyOffset);
            if (equals == std::string_view::npos)
                return parseError(url, "iface needs a value (iface=ADDR)", keyOffset + key.size());
            std::size_t valueOffset = keyOffset + equals + 1;
            std::string_view value = option.substr(equals + 1);
            if (value.size() >= 2 && value.front() == '[' && value.back() == ']') {
                value = value.substr(1, value.size() - 2);
                ++valueOffset;
            }
            if (value.empty())
                return parseError(url, "empty iface address", valueOffset);
            if (kind == HostKind::Ipv4) {
                in_addr ifaceAddress{};
                if (!parseIpv4(value, ifaceAddress))
                    return parseError(url, "iface " + quoted(value) + " is not an IPv4 address (the group is IPv4)", valueOffset);
            } else {
                in6_addr ifaceAddress{};
                if (!parseIpv6(value, ifaceAddress))
                    return parseError(url, "iface " + quoted(value) + " is not an IPv6 address (the group is IPv6)", valueOffset);
            }
            endpoint.iface = std::string(value);
            haveIface = true;
            if (end == url.size())
                break;
            pos = end + 1;
        }
    }
    return endpoint;
}

} // namespace telestation::io
