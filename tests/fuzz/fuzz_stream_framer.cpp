// Fuzz target: the TCP stream framer (ccsds::StreamFramer) on an arbitrary byte stream, with the
// options a station gives it (transport header, largest packet, idle packets, resync APIDs).
//
// Input: transport header bytes (1 byte, mod 17), maxPacketSize (2 bytes, 0 = the default), flags
// (1 byte: bit 0 acceptIdle), the number of resync APIDs (1 byte, mod 4) and each (2 bytes), a chunk
// size (1 byte), then the stream.
// Checks what the framer promises (core/ccsds/README.md): every frame is the transport header plus
// exactly the packet its length field gives, within maxPacketSize; the buffer never grows; and the
// frames and counters are the same whether the stream arrives at once or in chunks.
#include "core/ccsds/stream_framer.hpp"
#include "tests/fuzz/fuzz_support.hpp"

#include <algorithm>
#include <vector>

using namespace telestation;
using namespace telestation::ccsds;

namespace {

class Frames final : public StreamFramer::Sink {
public:
    explicit Frames(const FramerOptions& options) : m_options(options) {}
    void onPacket(std::span<const std::uint8_t> frame) override
    {
        const std::size_t n = m_options.transportHeaderBytes;
        fuzz::check(frame.size() >= n + kPrimaryHeaderSize, "frame shorter than a header");
        const PrimaryHeader h = readPrimaryHeader(frame.data() + n);
        fuzz::check(frame.size() == n + h.packetLength(), "frame length differs from the length field");
        fuzz::check(h.packetLength() <= m_options.maxPacketSize, "frame longer than maxPacketSize");
        fuzz::check(h.version == 0 && h.type == m_options.expectedType, "frame with an implausible header");
        all.emplace_back(frame.begin(), frame.end());
    }
    std::vector<std::vector<std::uint8_t>> all;

private:
    FramerOptions m_options;
};

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    fuzz::FuzzInput in(data, size);
    FramerOptions options;
    options.transportHeaderBytes = in.byte() % 17;
    if (const std::uint16_t most = in.u16(); most != 0)
        options.maxPacketSize = most;
    options.acceptIdle = (in.byte() & 1) != 0;
    for (int n = in.byte() % 4; n > 0; --n)
        options.resyncApids.push_back(in.u16() & kMaxApid);
    const std::size_t chunk = 1 + in.byte();
    const auto stream = in.rest();

    StreamFramer whole(options);
    StreamFramer split(options);
    options.maxPacketSize = whole.options().maxPacketSize; // as clamped
    Frames wholeFrames(options);
    Frames splitFrames(options);
    whole.push(stream, wholeFrames);
    for (std::size_t at = 0; at < stream.size(); at += chunk) {
        split.push(stream.subspan(at, std::min(chunk, stream.size() - at)), splitFrames);
        fuzz::check(split.buffered() <= split.capacity(), "buffered more than the capacity");
    }
    fuzz::check(wholeFrames.all == splitFrames.all, "frames depend on how the stream was split");
    fuzz::check(whole.stats() == split.stats(), "counters depend on how the stream was split");
    fuzz::check(whole.buffered() == split.buffered(), "buffered bytes depend on how the stream was split");
    fuzz::check(whole.stats().packets == wholeFrames.all.size(), "packets counted differ from frames delivered");
    whole.reset();
    split.reset();
    fuzz::check(whole.truncated() == split.truncated() && whole.stats() == split.stats(),
                "reset() depends on how the stream was split");
    return 0;
}
