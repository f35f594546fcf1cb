// Endpoint URLs: where a stream's packets come from (station) or go to (simulator, forwarding).
//   udp://HOST:PORT                 unicast UDP (station: bind; sender: destination)
//   udp://GROUP:PORT?iface=ADDR     multicast (GROUP in 224.0.0.0/4 or ff00::/8); iface: the local
//                                   interface address to join/send on (optional)
//   tcp://HOST:PORT                 TCP client (connects; reconnects with back-off)
//   tcp-listen://HOST:PORT          TCP server (accepts connections)
//   file://PATH[?OPTIONS]           a recording (playback source): a recording directory or one segment
//                                   file. OPTIONS, joined by '&': speed=N (0 = as fast as possible,
//                                   1 = real time), from=T, to=T (integer ns since the Unix epoch or
//                                   ISO-8601 UTC: 2026-11-22T12:00:00Z, 2026-11-22T12:00:00.25Z),
//                                   stream=NAME (may repeat), segment=FILE, repeat=1 (play again from
//                                   the start when done). The first '?' starts the query: write a
//                                   '?' in PATH as %3F ('%' as %25; %XX escapes in PATH are decoded).
// HOST is a name, an IPv4 address, or an IPv6 literal in brackets: udp://[::1]:5000. PORT 0 means
// "any free port" where binding (tests). Errors say which part is wrong and where (character offset).
#pragma once

#include "core/common/result.hpp"

#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace telestation::io {

enum class Scheme : std::uint8_t { Udp, Tcp, TcpListen, File };

// Query options as (key, value) pairs in URL order. For file:// these are the playback options, checked
// by parseEndpoint (known key, value format, at most once except stream) and kept as written; the
// typed conversion is core/record's playbackOptionsFromQuery() (io does not depend on record).
using QueryOptions = std::vector<std::pair<std::string, std::string>>;

struct Endpoint {
    Scheme scheme = Scheme::Udp;
    std::string host;        // without brackets for IPv6
    std::uint16_t port = 0;
    bool multicast = false;  // udp:// with a multicast group as host
    std::string iface;       // multicast interface address ("" = the system's choice)
    std::string path;        // file:// only (percent-escapes decoded)
    QueryOptions query;      // file:// only: speed, from, to, stream
    friend bool operator==(const Endpoint&, const Endpoint&) = default;

    [[nodiscard]] std::string toString() const; // the canonical URL; parseEndpoint(toString()) == *this
};

[[nodiscard]] Result<Endpoint> parseEndpoint(std::string_view url);

} // namespace telestation::io
