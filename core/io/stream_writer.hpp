// Internal to core/io: writes whole packets, in order, to a non-blocking stream socket — the part the
// TCP client and TCP server senders share. Not part of the module's public API.
//
// A packet the kernel takes only part of is "begun": its remainder is kept here and written before
// anything else, so the peer never sees another packet's bytes inside it (only a broken connection can
// tear a packet). Without `blocking`, writing stops at the first packet that is not accepted at once
// (the rest of the batch is left for the caller to count as not sent); with `blocking`, it waits for
// room with poll(), giving up when the peer takes nothing for kStallTimeout.
#pragma once

#include <sys/uio.h>

#include <array>
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

namespace telestation::io::detail {

struct StreamWriteResult {
    std::size_t started = 0; // leading packets handed to the kernel whole, or begun (remainder kept)
    std::uint64_t bytes = 0; // their sizes
    int error = 0;           // errno when the connection broke; 0 if it did not
    bool stalled = false;    // blocking: the peer took nothing for kStallTimeout
};

class StreamWriter {
public:
    static constexpr std::size_t kBatch = 64;
    static constexpr std::chrono::milliseconds kStallTimeout{1000};

    StreamWriter();

    // Writes the remainder of a begun packet, then as many of `packets` as the rules above allow.
    StreamWriteResult write(int fd, std::span<const std::span<const std::uint8_t>> packets, bool blocking);
    // The connection is gone: forget the remainder.
    void clear() noexcept;
    [[nodiscard]] bool hasPending() const noexcept { return m_pendingOffset < m_pending.size(); }

private:
    enum class Flush : std::uint8_t { Done, WouldBlock, Stalled, Broken };
    Flush flush(int fd, bool blocking, int& error);

    std::vector<std::uint8_t> m_pending; // remainder of a begun packet (capacity kept between uses)
    std::size_t m_pendingOffset = 0;
    std::array<iovec, kBatch> m_iov{};
};

} // namespace telestation::io::detail
