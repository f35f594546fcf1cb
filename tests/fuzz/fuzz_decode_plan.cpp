// Fuzz target: the decoder (decode::DecodePlan) run over arbitrary bytes with every packet definition
// of the training mission, JPSS-1 and IMAP-IDEX (fixed layouts, calibrators, limits, CUC time, and
// IDEX's variable-length fields sized by another parameter) — what the processor and the archive
// decode do with a packet whose bytes nobody checked beyond its header.
//
// Input: one packet (the whole space packet, primary header first), decoded with every plan.
// Checks: decode() reports no more parameters present than it has; a present parameter lies inside the
// packet; decodeOne() and locate() agree with decode() on every parameter; a complete variable layout
// ends inside the packet.
#include "core/decode/decode_plan.hpp"
#include "tests/fuzz/fuzz_support.hpp"

#include <vector>

using namespace telestation;
using namespace telestation::decode;

namespace {

const std::vector<DecodePlan>& plans()
{
    static const std::vector<DecodePlan> all = [] {
        std::vector<DecodePlan> out;
        for (const auto* db : {&fuzz::trainingMission(), &fuzz::jpssMission(), &fuzz::idexMission()})
            for (const auto& packet : db->packets) {
                auto plan = DecodePlan::compile(packet);
                if (!plan)
                    fuzz::fail("decode plan of " + packet.name + ": " + plan.error().message);
                out.push_back(std::move(*plan));
            }
        return out;
    }();
    return all;
}

bool sameValue(const DecodedValue& a, const DecodedValue& b)
{
    return a.present == b.present && (!a.present || (a.raw == b.raw && a.state == b.state && a.limit == b.limit));
}

void decodeWith(const DecodePlan& plan, std::span<const std::uint8_t> packet, std::vector<DecodedValue>& values)
{
    values.assign(plan.parameterCount(), DecodedValue{});
    LayoutReport report;
    const std::size_t present = plan.decode(packet, values, &report);
    fuzz::check(present <= plan.parameterCount(), "decode: more parameters present than defined");
    // A variable layout's end (the processor counts the bytes past it); a fixed layout's is its definition's.
    if (!plan.fixedLayout() && report.status == LayoutStatus::Complete)
        fuzz::check(report.endByte() <= packet.size(), "decode: a complete variable layout ends past the packet");
    std::int64_t timeNs = 0;
    (void)plan.packetTime(packet, timeNs);
    std::uint8_t bytes[64];
    for (std::size_t i = 0; i < plan.parameterCount(); ++i) {
        fuzz::check(sameValue(plan.decodeOne(packet, i), values[i]), "decodeOne differs from decode");
        const auto where = plan.locate(packet, i);
        fuzz::check(where.present == values[i].present, "locate differs from decode on presence");
        if (where.present)
            fuzz::check(std::size_t{where.bitOffset} + where.bitLength <= packet.size() * 8,
                        "a present parameter lies past the packet's end");
        (void)plan.stateText(i, values[i]);
        const auto type = plan.dataType(i);
        if (type == mdb::DataType::String || type == mdb::DataType::Bytes)
            fuzz::check(plan.extractBytes(packet, i, bytes) <= sizeof bytes, "extractBytes wrote past its buffer");
        if (type == mdb::DataType::String)
            fuzz::check(plan.stringValue(packet, i).size() <= packet.size(), "a string longer than the packet");
    }
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    static std::vector<DecodedValue> values;
    const std::span<const std::uint8_t> packet(data, size);
    for (const DecodePlan& plan : plans())
        decodeWith(plan, packet, values);
    return 0;
}
