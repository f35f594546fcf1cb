#include "core/ccsds/stream_framer.hpp"

#include <algorithm>
#include <cstring>

namespace telestation::ccsds {

StreamFramer::StreamFramer(const FramerOptions& options)
    : m_options(options)
{
    m_options.maxPacketSize = std::min(options.maxPacketSize, kMaxPacketSize);
    m_headerEnd = m_options.transportHeaderBytes + kPrimaryHeaderSize;
    // The buffer must hold a whole header to judge a candidate even when no packet is accepted.
    m_buffer.resize(m_options.transportHeaderBytes + std::max(m_options.maxPacketSize, kPrimaryHeaderSize));
    if (!m_options.resyncApids.empty()) {
        m_resyncApid.assign(kApidCount, false);
        for (const std::uint16_t apid : m_options.resyncApids)
            m_resyncApid[apid & kMaxApid] = true;
    }
}

std::size_t StreamFramer::frameLength(const std::uint8_t* header, bool& idle) const noexcept
{
    const PrimaryHeader h = readPrimaryHeader(header);
    idle = h.apid == kIdleApid;
    if (h.version != 0 || h.type != m_options.expectedType || (idle && !m_options.acceptIdle)
        || h.packetLength() > m_options.maxPacketSize)
        return 0;
    if (m_hunting && !m_resyncApid.empty() && !m_resyncApid[h.apid])
        return 0;
    return m_options.transportHeaderBytes + h.packetLength();
}

void StreamFramer::rejectCandidate() noexcept
{
    if (!m_hunting) { // one error per episode, however many bytes it takes to find a packet again
        m_hunting = true;
        ++m_stats.framingErrors;
    }
    ++m_stats.skippedBytes;
}

void StreamFramer::acceptCandidate() noexcept
{
    if (m_hunting) {
        m_hunting = false;
        ++m_stats.resyncs;
    }
}

void StreamFramer::deliver(std::span<const std::uint8_t> frame, bool idle, Sink& sink)
{
    if (idle) {
        ++m_stats.idlePackets;
        return;
    }
    ++m_stats.packets;
    sink.onPacket(frame);
}

std::size_t StreamFramer::continueBuffered(const std::uint8_t* in, std::size_t n, Sink& sink)
{
    std::uint8_t* buf = m_buffer.data();
    std::size_t pos = 0;
    std::size_t fromInput = 0; // the last fromInput buffered bytes are copies of in[pos - fromInput, pos)
    for (;;) {
        if (m_size < m_headerEnd) {
            const std::size_t take = std::min(m_headerEnd - m_size, n - pos);
            std::memcpy(buf + m_size, in + pos, take);
            m_size += take;
            pos += take;
            fromInput += take;
            if (m_size < m_headerEnd)
                return pos;
        }
        bool idle = false;
        const std::size_t length = frameLength(buf + m_options.transportHeaderBytes, idle);
        if (length == 0) {
            rejectCandidate();
            std::memmove(buf, buf + 1, m_size - 1);
            --m_size;
            if (fromInput >= m_size) {
                // Nothing from an earlier push is left: hunt on in the input itself, not byte by byte
                // through the buffer.
                pos -= m_size;
                m_size = 0;
                return pos;
            }
            continue;
        }
        acceptCandidate();
        const std::size_t take = std::min(length - m_size, n - pos);
        std::memcpy(buf + m_size, in + pos, take);
        m_size += take;
        pos += take;
        if (m_size < length)
            return pos;
        m_size = 0;
        deliver({buf, length}, idle, sink);
        return pos;
    }
}

void StreamFramer::push(std::span<const std::uint8_t> bytes, Sink& sink)
{
    const std::uint8_t* in = bytes.data();
    const std::size_t n = bytes.size();
    if (n == 0)
        return;
    std::size_t pos = 0;
    if (m_size > 0) {
        pos = continueBuffered(in, n, sink);
        if (m_size > 0)
            return; // all input went into the buffer
    }
    // Frames that lie wholly in the input are delivered from it without a copy.
    while (n - pos >= m_headerEnd) {
        bool idle = false;
        const std::size_t length = frameLength(in + pos + m_options.transportHeaderBytes, idle);
        if (length == 0) {
            rejectCandidate();
            ++pos;
            continue;
        }
        acceptCandidate();
        if (n - pos < length)
            break;
        deliver({in + pos, length}, idle, sink);
        pos += length;
    }
    // A frame's beginning (at most one frame, which fits by construction) or a candidate too short to judge.
    m_size = n - pos;
    if (m_size > 0)
        std::memcpy(m_buffer.data(), in + pos, m_size);
}

void StreamFramer::reset() noexcept
{
    if (m_size > 0) {
        if (m_hunting)
            m_stats.skippedBytes += m_size; // not a packet: the tail of garbage
        else
            ++m_truncated;
    }
    m_size = 0;
    m_hunting = false;
}

} // namespace telestation::ccsds
