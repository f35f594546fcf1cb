// One end of the link test's control connection: JSON objects as lines over a connected TCP socket,
// with time limits on every wait, so that neither end can hang on a peer that went quiet.
#pragma once

#include "core/common/result.hpp"
#include "core/io/socket_util.hpp"
#include "core/link/protocol.hpp"

#include <chrono>
#include <string>

namespace telestation::link {

class ControlChannel {
public:
    // A line longer than this is refused: the largest message (a result with 64 flows of samples
    // every 100 ms for a minute) is a few hundred kilobytes.
    static constexpr std::size_t kMaxLineBytes = 8u << 20;

    explicit ControlChannel(io::detail::UniqueFd fd);

    // Connects to HOST:PORT (a name or an address; IPv4 or IPv6), waiting at most `timeout`.
    [[nodiscard]] static Result<ControlChannel> connect(const std::string& hostPort, std::chrono::milliseconds timeout);

    [[nodiscard]] Status send(const Json& message);
    // The next message: an error when none comes within `timeout`, the peer closed the connection, a
    // line is not JSON or is too long.
    [[nodiscard]] Result<Json> receive(std::chrono::milliseconds timeout);
    // Whether the last receive() failed on a line that is not JSON: that line is consumed and the
    // connection can go on (the responder answers it); after any other failure it cannot.
    [[nodiscard]] bool lastLineNotJson() const noexcept { return m_lastLineNotJson; }
    // True when a message (or the peer's closing) is waiting, within `timeout`.
    [[nodiscard]] bool waitReadable(std::chrono::milliseconds timeout);
    // True when the peer has closed (or reset) the connection; does not consume a message.
    [[nodiscard]] bool peerGone();

    [[nodiscard]] int fd() const noexcept { return m_fd.get(); }
    [[nodiscard]] std::string peerAddress() const; // "192.0.2.7:40512"
    [[nodiscard]] std::string localHost() const;   // the local address the connection uses, no port

private:
    io::detail::UniqueFd m_fd;
    std::string m_buffer; // bytes read past the last complete line
    bool m_lastLineNotJson = false;
};

// "HOST:PORT" or "[V6]:PORT" split; an error names what is wrong.
struct HostPort {
    std::string host;
    std::uint16_t port = 0;
};
[[nodiscard]] Result<HostPort> parseHostPort(std::string_view text, bool portZeroAllowed);
// The host of an address as io::detail::SocketAddress prints it: "192.0.2.7:40512" → "192.0.2.7",
// "[::1]:7700" → "::1".
[[nodiscard]] std::string hostOf(const std::string& addressWithPort);

} // namespace telestation::link
