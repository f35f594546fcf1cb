// Fuzz target: the checks every received packet passes before routing (pipeline::PacketAcceptor) —
// the CCSDS primary header check, classification, the length the definition allows and the APID's
// sequence tracker — over a run of datagrams, as one stream's router sees them. The packet types are
// the training mission's, JPSS-1's and IMAP-IDEX's together, so real packets classify.
//
// Input: datagrams, each a 16-bit big-endian length then that many bytes (fewer at the end).
// Checks: a verdict is tracked exactly when the packet is not malformed, and each APID's sequence
// counters add up to the events the verdicts reported, with `lost` never wrapping below zero.
#include "core/pipeline/packet_acceptor.hpp"
#include "tests/fuzz/fuzz_support.hpp"

#include <map>

using namespace telestation;
using namespace telestation::pipeline;

namespace {

const PacketTypeTable& types()
{
    static const PacketTypeTable table = [] {
        mdb::MissionDatabase all = fuzz::trainingMission();
        for (const auto* db : {&fuzz::jpssMission(), &fuzz::idexMission()})
            all.packets.insert(all.packets.end(), db->packets.begin(), db->packets.end());
        auto built = PacketTypeTable::build(all);
        if (!built)
            fuzz::fail("packet type table: " + built.error().message);
        return std::move(*built);
    }();
    return table;
}

void count(ccsds::SequenceCounters& c, ccsds::SequenceEvent e)
{
    ++c.packets;
    switch (e) {
    case ccsds::SequenceEvent::Gap: ++c.gaps; break;
    case ccsds::SequenceEvent::Duplicate: ++c.duplicates; break;
    case ccsds::SequenceEvent::Late: ++c.late; break;
    case ccsds::SequenceEvent::Resync: ++c.resyncs; break;
    case ccsds::SequenceEvent::First:
    case ccsds::SequenceEvent::InOrder: break;
    }
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    fuzz::FuzzInput in(data, size);
    PacketAcceptor acceptor(types());
    std::map<std::uint16_t, ccsds::SequenceCounters> expected; // per APID tracked
    while (!in.empty()) {
        const auto packet = in.take(in.u16());
        const PacketVerdict v = acceptor.accept(packet);
        fuzz::check(v.type < types().typeCount(), "verdict: type index out of range");
        fuzz::check(!v.malformed || v.extraBytes == 0, "verdict: a malformed packet with extra bytes");
        fuzz::check(v.extraBytes <= packet.size(), "verdict: more extra bytes than the packet has");
        if (v.tracked())
            count(expected[v.apid], v.sequence);
    }
    for (const auto& [apid, want] : expected) {
        const auto& got = acceptor.sequence(apid);
        fuzz::check(got.packets == want.packets && got.gaps == want.gaps && got.duplicates == want.duplicates &&
                         got.late == want.late && got.resyncs == want.resyncs,
                     "sequence counters differ from the events reported");
        fuzz::check(got.lost < (1ull << 62), "sequence counters: lost wrapped below zero");
    }
    return 0;
}
