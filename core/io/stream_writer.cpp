#include "core/io/stream_writer.hpp"

#include "core/io/socket_util.hpp"

#include <sys/socket.h>

#include <algorithm>
#include <cerrno>

namespace telestation::io::detail {

namespace {
// Room for the remainder of the largest CCSDS space packet (6 + 65536 bytes) without reallocating.
constexpr std::size_t kPendingCapacity = 65542;
constexpr int kSendFlags = MSG_NOSIGNAL | MSG_DONTWAIT; // never SIGPIPE; never block inside the call
} // namespace

StreamWriter::StreamWriter()
{
    m_pending.reserve(kPendingCapacity);
}

void StreamWriter::clear() noexcept
{
    m_pending.clear();
    m_pendingOffset = 0;
}

StreamWriter::Flush StreamWriter::flush(int fd, bool blocking, int& error)
{
    while (m_pendingOffset < m_pending.size()) {
        const ssize_t written =
            ::send(fd, m_pending.data() + m_pendingOffset, m_pending.size() - m_pendingOffset, kSendFlags);
        if (written >= 0) {
            m_pendingOffset += static_cast<std::size_t>(written);
            continue;
        }
        const int e = errno;
        if (e == EINTR)
            continue;
        if (e == EAGAIN || e == EWOULDBLOCK) {
            if (!blocking)
                return Flush::WouldBlock;
            if (!waitWritable(fd, kStallTimeout))
                return Flush::Stalled;
            continue;
        }
        error = e;
        return Flush::Broken;
    }
    clear();
    return Flush::Done;
}

StreamWriteResult StreamWriter::write(int fd, std::span<const std::span<const std::uint8_t>> packets, bool blocking)
{
    StreamWriteResult result;
    // Sets the result from a flush that did not finish; true if writing may go on.
    const auto flushed = [&](Flush f) {
        if (f == Flush::Stalled)
            result.stalled = true;
        return f == Flush::Done;
    };
    if (!flushed(flush(fd, blocking, result.error)))
        return result;

    std::size_t next = 0;
    const std::size_t count = packets.size();
    while (next < count) {
        const std::size_t batchEnd = next + std::min(kBatch, count - next);
        std::size_t total = 0;
        for (std::size_t i = next; i < batchEnd; ++i) {
            // iovec has no const variant; sendmsg only reads from it.
            m_iov[i - next] = iovec{const_cast<std::uint8_t*>(packets[i].data()), packets[i].size()};
            total += packets[i].size();
        }
        if (total == 0) { // empty packets: nothing to write
            next = batchEnd;
            continue;
        }
        msghdr message{};
        message.msg_iov = m_iov.data();
        message.msg_iovlen = batchEnd - next;
        const ssize_t written = ::sendmsg(fd, &message, kSendFlags);
        if (written < 0) {
            const int e = errno;
            if (e == EINTR)
                continue;
            if (e == EAGAIN || e == EWOULDBLOCK) {
                if (!blocking)
                    break;
                if (!waitWritable(fd, kStallTimeout)) {
                    result.stalled = true;
                    break;
                }
                continue;
            }
            result.error = e;
            break;
        }
        // Walk the accepted bytes over the packets.
        auto left = static_cast<std::size_t>(written);
        while (next < batchEnd && left >= packets[next].size()) {
            left -= packets[next].size();
            result.bytes += packets[next].size();
            ++next;
        }
        if (left > 0) {
            // Packet `next` is begun: its remainder must go out before any other byte.
            const auto begun = packets[next];
            m_pending.assign(begun.begin() + static_cast<std::ptrdiff_t>(left), begun.end());
            m_pendingOffset = 0;
            result.bytes += begun.size();
            ++next;
            if (!flushed(flush(fd, blocking, result.error)))
                break;
        }
    }
    result.started = next;
    return result;
}

} // namespace telestation::io::detail
