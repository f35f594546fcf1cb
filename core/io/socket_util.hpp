// Helpers of core/io for Linux sockets: an owning file descriptor, resolved addresses, socket options,
// bounded waits and rate-limited error logging. Not part of the stream API (receivers, senders); the
// link test (core/link) uses them too, rather than a second copy.
#pragma once

#include "core/common/result.hpp"
#include "core/io/endpoint.hpp"

#include <sys/socket.h>

#include <array>
#include <chrono>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace telestation::io::detail {

using Clock = std::chrono::steady_clock;

// Owns a file descriptor; closes it on destruction. Move-only.
class UniqueFd {
public:
    UniqueFd() = default;
    explicit UniqueFd(int fd) noexcept : m_fd(fd) {}
    ~UniqueFd() { reset(); }
    UniqueFd(UniqueFd&& other) noexcept : m_fd(other.release()) {}
    UniqueFd& operator=(UniqueFd&& other) noexcept
    {
        if (this != &other)
            reset(other.release());
        return *this;
    }
    UniqueFd(const UniqueFd&) = delete;
    UniqueFd& operator=(const UniqueFd&) = delete;

    [[nodiscard]] int get() const noexcept { return m_fd; }
    [[nodiscard]] bool valid() const noexcept { return m_fd >= 0; }
    int release() noexcept
    {
        const int fd = m_fd;
        m_fd = -1;
        return fd;
    }
    void reset(int fd = -1) noexcept;

private:
    int m_fd = -1;
};

struct SocketAddress {
    sockaddr_storage storage{};
    socklen_t length = 0;

    [[nodiscard]] int family() const noexcept { return storage.ss_family; }
    [[nodiscard]] const sockaddr* get() const noexcept { return reinterpret_cast<const sockaddr*>(&storage); }
    // "127.0.0.1:5000" or "[::1]:5000".
    [[nodiscard]] std::string toString() const;
    [[nodiscard]] std::uint16_t port() const noexcept;
};

// The system's message for an errno value, e.g. "Connection refused".
[[nodiscard]] std::string errnoText(int error);
// The same with a lower-case first letter, for use inside a sentence.
[[nodiscard]] std::string errnoPhrase(int error);

// Resolves the endpoint's host and port (getaddrinfo). `passive`: for bind (tcp-listen).
[[nodiscard]] Result<std::vector<SocketAddress>> resolve(const Endpoint& endpoint, int socketType, bool passive);

// A socket's local address (getsockname); length 0 on failure.
[[nodiscard]] SocketAddress localAddress(int fd);

// Requests a send buffer of `bytes`; when the system limit (net.core.wmem_max) caps it, tries
// SO_SNDBUFFORCE (effective with CAP_NET_ADMIN). Returns the kernel's resulting size.
int setSendBuffer(int fd, int bytes);

// Requests a receive buffer of `bytes`; when the system limit (net.core.rmem_max) caps it, tries
// SO_RCVBUFFORCE (effective with CAP_NET_ADMIN). Returns the kernel's resulting size (SO_RCVBUF as the
// kernel reports it: about twice the usable bytes, the rest being its bookkeeping).
int setReceiveBuffer(int fd, int bytes);

// Keep-alive and a user timeout so that a TCP peer that vanished is noticed.
void setTcpLiveness(int fd);

// The index of the local interface that has this IPv6 address; 0 if none.
[[nodiscard]] unsigned interfaceIndexOfIpv6(std::string_view address);

// Waits up to `timeout` for the socket to become writable (or to report an error / hang-up).
// Restarts after EINTR with the remaining time. False on timeout.
[[nodiscard]] bool waitWritable(int fd, std::chrono::milliseconds timeout);

// A bound, listening TCP socket (tcp-listen://) and the address it is bound to (the real port when the
// endpoint asked for port 0).
struct TcpListener {
    UniqueFd fd;
    SocketAddress bound;
    std::string name; // bound.toString(), kept for logs and state()
};

// Resolves the endpoint for binding, creates a non-blocking TCP socket with SO_REUSEADDR (a restart
// must not wait for TIME_WAIT connections of the previous run), lets `configure` set the owner's
// options on it (before bind; may be empty), binds and listens. Errors name the endpoint's URL, what
// failed and the system's message.
[[nodiscard]] Result<TcpListener> listenTcp(const Endpoint& endpoint, int backlog,
                                            const std::function<void(int fd)>& configure = {});

// One accept4(2) on a non-blocking listener; the new socket is non-blocking and close-on-exec.
struct AcceptResult {
    enum class Outcome : std::uint8_t {
        Accepted,    // fd and peer are set
        NonePending, // nothing more to accept now
        Skipped,     // the pending connection went away first, or accept(2) passed on a network error
                     // for it (or EINTR): try the next one
        Failed,      // accept itself failed (e.g. EMFILE: out of file descriptors): see `error`
    };
    Outcome outcome = Outcome::NonePending;
    UniqueFd fd;
    SocketAddress peer;
    int error = 0;
};
[[nodiscard]] AcceptResult acceptConnection(int listener);

// For a stream sender's peer, which normally sends nothing: reads and drops what it sent (at most
// `maxReads` buffers) so that its closing is noticed. nullopt while the connection stays open; else 0
// when the peer closed it, or the errno of the failed read.
[[nodiscard]] std::optional<int> drainPeer(int fd, int maxReads);

// Logs errors without flooding: the first error of each kind (errno) is logged at once, further ones
// are counted and summarised at most once per `kSummaryInterval`. Only runs on error paths.
class ErrorLog {
public:
    explicit ErrorLog(std::string context) : m_context(std::move(context)) {}
    void report(std::string_view operation, int error);

private:
    static constexpr std::chrono::seconds kSummaryInterval{30};
    struct Kind {
        int error = 0;
        std::uint64_t unreported = 0;
        Clock::time_point lastLogged{};
    };
    std::string m_context;
    std::array<Kind, 8> m_kinds{};
    std::size_t m_kindCount = 0;
};

} // namespace telestation::io::detail
