// What only opening can tell about a stream's source (issue 15): the stream dialog's OK opens the
// source the way the station would — binds the UDP port or the TCP listening port, joins a multicast
// group, opens a recording — and closes it again at once; a TCP server's host name is resolved (no
// connection is made). A port another program holds, a host name that does not resolve, a missing
// recording: the dialog stays open with the reason instead of the station finding out later.
//
// A probe, not a promise: the port may be taken between the check and the station's own opening (the
// station then shows the stream's error as before). Resolving a host name may take as long as the
// system's resolver takes: it runs on OK only, never as the operator types.
#pragma once

#include "core/io/endpoint.hpp"

#include <QString>

namespace telestation::ui {

// "" when the source opens now, else the reason (the system's words, naming the endpoint).
[[nodiscard]] QString sourceOpenError(const io::Endpoint& endpoint);

} // namespace telestation::ui
