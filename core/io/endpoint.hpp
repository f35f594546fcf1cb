// Endpoint URLs: where a stream's packets come from (station) or go to (simulator, forwarding).
//   udp://HOST:PORT                 unicast UDP (station: bind; sender: destination)
//   udp://GROUP:PORT?iface=ADDR     multicast (GROUP in 224.0.0.0/4 or ff00::/8); iface: the local
//                                   interface address to join/send on (optional)
//   tcp://HOST:PORT                 TCP client (connects; reconnects with back-off)
//   tcp-listen://HOST:PORT          TCP server (accepts connections)
//   file://PATH                     a recording (playback source)
// HOST is a name, an IPv4 address, or an IPv6 literal in brackets: udp://[::1]:5000. PORT 0 means
// "any free port" where binding (tests). Errors say which part is wrong and where (character offset).
#pragma once

#include "core/common/result.hpp"

#include <cstdint>
#include <string>
#include <string_view>

namespace telestation::io {

enum class Scheme : std::uint8_t { Udp, Tcp, TcpListen, File };

struct Endpoint {
    Scheme scheme = Scheme::Udp;
    std::string host;        // without brackets for IPv6
    std::uint16_t port = 0;
    bool multicast = false;  // udp:// with a multicast group as host
    std::string iface;       // multicast interface address ("" = the system's choice)
    std::string path;        // file:// only
    friend bool operator==(const Endpoint&, const Endpoint&) = default;

    [[nodiscard]] std::string toString() const; // the canonical URL; parseEndpoint(toString()) == *this
};

[[nodiscard]] Result<Endpoint> parseEndpoint(std::string_view url);

} // namespace telestation::io
