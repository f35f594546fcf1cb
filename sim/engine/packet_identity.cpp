#include "sim/engine/packet_identity.hpp"

#include "core/decode/bits.hpp"

#include <algorithm>
#include <map>
#include <optional>
#include <utility>

namespace telestation::sim {

namespace {

// A value of a field of `bits` bits that meets every criterion: the criteria's own values and their
// neighbours are the candidates (a range "> 1" is met by 2). The first criterion's value when none is.
std::uint64_t satisfying(const std::vector<mdb::FieldCriterion>& criteria, unsigned bits)
{
    const std::uint64_t max = bits >= 64 ? ~std::uint64_t{0} : (std::uint64_t{1} << bits) - 1;
    std::vector<std::uint64_t> candidates;
    for (const auto& c : criteria) {
        candidates.push_back(c.value);
        if (c.value < max)
            candidates.push_back(c.value + 1);
        if (c.value > 0)
            candidates.push_back(c.value - 1);
    }
    candidates.push_back(0);
    candidates.push_back(max);
    for (const std::uint64_t v : candidates) {
        if (v > max)
            continue;
        if (std::all_of(criteria.begin(), criteria.end(), [&](const auto& c) { return mdb::compare(v, c.op, c.value); }))
            return v;
    }
    return criteria.front().value & max;
}

} // namespace

PacketIdentity::PacketIdentity(const mdb::PacketDef& packet)
{
    if (const auto& id = packet.secondaryId; id && id->bitLength >= 1 && id->bitLength <= 64)
        m_fields.push_back({id->bitOffset, id->bitLength, id->value});
    std::map<std::pair<std::uint32_t, std::uint32_t>, std::vector<mdb::FieldCriterion>> byField;
    for (const auto& c : packet.criteria)
        if (c.bitLength >= 1 && c.bitLength <= 64)
            byField[{c.bitOffset, c.bitLength}].push_back(c);
    for (const auto& [field, criteria] : byField)
        m_fields.push_back({field.first, field.second, satisfying(criteria, field.second)});
}

namespace {

std::size_t conditionCount(const mdb::PacketDef& p)
{
    return p.criteria.size() + (p.secondaryId ? 1 : 0);
}

// A value of the field that fails the criterion, or none (a field of 1 bit tested "!= 0"... has one).
std::optional<std::uint64_t> failing(const mdb::FieldCriterion& c)
{
    const std::uint64_t max = c.bitLength >= 64 ? ~std::uint64_t{0} : (std::uint64_t{1} << c.bitLength) - 1;
    for (const std::uint64_t v : {std::uint64_t{0}, c.value, c.value + 1, c.value - 1, max})
        if (v <= max && !mdb::compare(v, c.op, c.value))
            return v;
    return std::nullopt;
}

} // namespace

PacketIdentity::PacketIdentity(const mdb::PacketDef& packet, const std::vector<mdb::PacketDef>& all)
    : PacketIdentity(packet)
{
    for (const auto& other : all) {
        if (&other == &packet || other.apid != packet.apid || conditionCount(other) <= conditionCount(packet))
            continue;
        for (const auto& c : other.criteria) {
            if (c.bitLength < 1 || c.bitLength > 64 || overlaps(c.bitOffset, c.bitLength))
                continue;
            if (const auto v = failing(c)) {
                m_fields.push_back({c.bitOffset, c.bitLength, *v});
                break;
            }
        }
    }
}

void PacketIdentity::apply(std::span<std::uint8_t> packet) const noexcept
{
    for (const Field& f : m_fields)
        if ((std::uint64_t{f.bitOffset} + f.bitLength + 7) / 8 <= packet.size())
            decode::insertBits(packet.data(), f.bitOffset, f.bitLength, f.value);
}

void PacketIdentity::applyToPrimaryHeader(std::span<std::uint8_t> packet) const noexcept
{
    for (const Field& f : m_fields)
        if (f.bitOffset + f.bitLength <= 16 && packet.size() >= 2)
            decode::insertBits(packet.data(), f.bitOffset, f.bitLength, f.value);
}

bool PacketIdentity::overlaps(std::uint64_t bitOffset, std::uint64_t bitLength) const noexcept
{
    for (const Field& f : m_fields)
        if (bitOffset < std::uint64_t{f.bitOffset} + f.bitLength && f.bitOffset < bitOffset + bitLength)
            return true;
    return false;
}

std::uint64_t PacketIdentity::rawAt(std::uint32_t bitOffset, unsigned bits, bool littleEndian) const
{
    if (bits == 0 || bits > 64)
        return 0;
    std::uint64_t end = std::uint64_t{bitOffset} + bits;
    for (const Field& f : m_fields)
        end = std::max<std::uint64_t>(end, std::uint64_t{f.bitOffset} + f.bitLength);
    std::vector<std::uint8_t> image(static_cast<std::size_t>((end + 7) / 8 + 8), 0);
    apply(image);
    std::uint64_t raw = decode::extractBits(image.data(), bitOffset, bits);
    if (littleEndian && bits % 8 == 0 && bits > 8)
        raw = decode::reverseBytes(raw, bits / 8);
    return raw;
}

} // namespace telestation::sim
