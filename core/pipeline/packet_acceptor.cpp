#include "core/pipeline/packet_acceptor.hpp"

#include "core/ccsds/space_packet.hpp"

#include <algorithm>

namespace telestation::pipeline {

PacketVerdict PacketAcceptor::accept(std::span<const std::uint8_t> packet) noexcept
{
    static constexpr ccsds::HeaderPolicy kPolicy{ccsds::PacketType::Telemetry, false, false, false, true};
    const ccsds::HeaderCheck check = ccsds::checkPrimaryHeader(packet, kPolicy);
    PacketVerdict v;
    v.type = packet.size() >= ccsds::kPrimaryHeaderSize ? m_types->classify(packet) : kUnknownType;
    v.apid = check.header.apid;
    v.malformed = !check.ok();
    v.headerError = check.error;
    if (!v.malformed && v.type != kUnknownType) {
        const auto& def = m_types->definition(v.type);
        const std::size_t size = packet.size();
        if (def.variableLength) {
            v.malformed = size < def.length || size > std::max(def.maxLength, def.length);
            v.shorterThanLayout = size < def.length;
        } else {
            v.malformed = size != def.length;
        }
        // A fixed layout's end (or the declared length, if longer) is known here; a variable layout's
        // end when the packet is decoded (the processor counts that).
        const auto& plan = m_types->plan(v.type);
        const std::size_t layoutEnd = std::max<std::size_t>(plan.requiredSize(), def.length);
        if (!v.malformed && plan.fixedLayout() && size > layoutEnd) [[unlikely]]
            v.extraBytes = static_cast<std::uint32_t>(size - layoutEnd);
    }
    if (!v.malformed)
        v.sequence = m_tracker.track(check.header.apid, check.header.sequenceCount);
    return v;
}

} // namespace telestation::pipeline
