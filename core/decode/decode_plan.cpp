#include "core/decode/decode_plan.hpp"

#include "core/decode/bits.hpp"

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstring>
#include <limits>

namespace telestation::decode {

std::string_view limitStateName(LimitState state) noexcept
{
    switch (state) {
    case LimitState::None: return "none";
    case LimitState::Normal: return "normal";
    case LimitState::YellowLow: return "yellow low";
    case LimitState::YellowHigh: return "yellow high";
    case LimitState::RedLow: return "red low";
    case LimitState::RedHigh: return "red high";
    case LimitState::Unexpected: return "unexpected state";
    case LimitState::Invalid: return "invalid";
    }
    return "?";
}

ccsds::CucFormat cucFormat(const mdb::CucLayout& layout) noexcept
{
    std::int64_t epoch = 0; // Unix1970
    if (layout.epoch == mdb::TimeEpoch::Tai1958)
        epoch = ccsds::kTai1958UnixSeconds;
    else if (layout.epoch == mdb::TimeEpoch::Gps1980)
        epoch = ccsds::kGps1980UnixSeconds;
    return ccsds::CucFormat{layout.coarseBytes, layout.fineBytes, layout.hasPField, epoch};
}

namespace {

Error planError(const mdb::PacketDef& packet, const mdb::ParameterDef& parameter, const std::string& what)
{
    return Error{"cannot decode " + packet.name + "." + parameter.name + ": " + what, {}};
}

} // namespace

Result<DecodePlan> DecodePlan::compile(const mdb::PacketDef& packet)
{
    DecodePlan plan;
    plan.m_ops.reserve(packet.parameters.size());
    plan.m_bytesLength.reserve(packet.parameters.size());

    for (const auto& p : packet.parameters) {
        FieldOp op{};
        op.bitOffset = p.bitOffset;
        op.type = static_cast<std::uint8_t>(p.type);
        std::uint32_t bytesLength = 0;

        switch (p.type) {
        case mdb::DataType::UnsignedInt:
        case mdb::DataType::SignedInt:
            if (p.bitLength < 1 || p.bitLength > 64)
                return planError(packet, p, "integers are 1 to 64 bits, not " + std::to_string(p.bitLength));
            break;
        case mdb::DataType::Float:
            if (p.bitLength != 32 && p.bitLength != 64)
                return planError(packet, p, "floats are 32 or 64 bits, not " + std::to_string(p.bitLength));
            break;
        case mdb::DataType::String:
        case mdb::DataType::Bytes:
            if (p.bitLength == 0 || p.bitLength % 8 != 0)
                return planError(packet, p, "strings and bytes are a whole number of bytes");
            bytesLength = p.bitLength / 8;
            break;
        }
        const bool isBytes = bytesLength > 0;
        const std::uint32_t valueBits = isBytes ? 8 * std::min<std::uint32_t>(bytesLength, 8) : p.bitLength;
        op.bitLength = static_cast<std::uint8_t>(valueBits);
        op.byteCount = static_cast<std::uint8_t>(valueBits / 8);
        op.endByte = static_cast<std::uint32_t>((std::uint64_t{p.bitOffset} + p.bitLength + 7) / 8);
        if (p.type == mdb::DataType::SignedInt)
            op.flags |= kSigned;
        if (!isBytes && mdb::effectiveByteOrder(packet, p) == mdb::ByteOrder::LittleEndian) {
            const bool withinOneByte = p.bitOffset / 8 == (p.bitOffset + p.bitLength - 1) / 8;
            if (p.bitLength % 8 != 0 && !withinOneByte)
                return planError(packet, p, "a little-endian field must be a whole number of bytes");
            if (p.bitLength % 8 == 0 && p.bitLength > 8)
                op.flags |= kLittleEndian;
        }

        if (const auto* poly = std::get_if<mdb::PolynomialCalibrator>(&p.calibrator)) {
            if (poly->coefficients.empty() || poly->coefficients.size() > 6)
                return planError(packet, p, "a polynomial has 1 to 6 coefficients");
            Poly c{};
            c.count = static_cast<std::uint32_t>(poly->coefficients.size());
            std::copy(poly->coefficients.begin(), poly->coefficients.end(), c.c);
            op.calKind = CalKind::Polynomial;
            op.calIndex = static_cast<std::uint32_t>(plan.m_polys.size());
            plan.m_polys.push_back(c);
        } else if (const auto* table = std::get_if<mdb::PointPairCalibrator>(&p.calibrator)) {
            if (table->points.size() < 2)
                return planError(packet, p, "a point-pair table needs at least two points");
            op.calKind = CalKind::PointPair;
            op.calIndex = static_cast<std::uint32_t>(plan.m_pointRanges.size());
            plan.m_pointRanges.push_back({static_cast<std::uint32_t>(plan.m_points.size()),
                                          static_cast<std::uint32_t>(table->points.size())});
            plan.m_points.insert(plan.m_points.end(), table->points.begin(), table->points.end());
        } else if (const auto* states = std::get_if<mdb::EnumerationCalibrator>(&p.calibrator)) {
            if (p.type != mdb::DataType::UnsignedInt && p.type != mdb::DataType::SignedInt)
                return planError(packet, p, "an enumeration needs an integer parameter");
            op.calKind = CalKind::Enumeration;
            op.calIndex = static_cast<std::uint32_t>(plan.m_stateRanges.size());
            plan.m_stateRanges.push_back({static_cast<std::uint32_t>(plan.m_states.size()),
                                          static_cast<std::uint32_t>(states->states.size())});
            plan.m_states.insert(plan.m_states.end(), states->states.begin(), states->states.end());
            plan.m_stateExpected.resize(plan.m_states.size(), 1);
        }
        if (isBytes && op.calKind != CalKind::None)
            return planError(packet, p, "strings and bytes take no calibrator");

        if (const auto* limits = std::get_if<mdb::NumericLimits>(&p.limits)) {
            if (limits->enabled && !isBytes && op.calKind != CalKind::Enumeration) {
                op.limitKind = LimitKind::Numeric;
                op.limitIndex = static_cast<std::uint32_t>(plan.m_numericLimits.size());
                plan.m_numericLimits.push_back(
                    {limits->redLow, limits->yellowLow, limits->yellowHigh, limits->redHigh});
            }
        } else if (const auto* expected = std::get_if<mdb::StateLimits>(&p.limits)) {
            if (op.calKind != CalKind::Enumeration)
                return planError(packet, p, "expected states need an enumeration");
            if (expected->enabled) {
                op.limitKind = LimitKind::States;
                const Range r = plan.m_stateRanges[op.calIndex];
                for (std::uint32_t i = 0; i < r.count; ++i) {
                    const auto& text = plan.m_states[r.first + i].text;
                    plan.m_stateExpected[r.first + i] = static_cast<std::uint8_t>(
                        std::find(expected->expectedStates.begin(), expected->expectedStates.end(), text)
                        != expected->expectedStates.end());
                }
            }
        }

        plan.m_requiredSize = std::max<std::size_t>(plan.m_requiredSize, op.endByte);
        plan.m_ops.push_back(op);
        plan.m_bytesLength.push_back(bytesLength);
    }

    if (packet.secondaryHeader)
        plan.m_time = cucFormat(*packet.secondaryHeader);
    return plan;
}

inline double DecodePlan::calibrate(const FieldOp& op, double x, std::int64_t code, DecodedValue& v) const noexcept
{
    switch (op.calKind) {
    case CalKind::None:
        return x;
    case CalKind::Polynomial: {
        const Poly& p = m_polys[op.calIndex];
        double y = p.c[p.count - 1];
        for (std::uint32_t k = p.count - 1; k-- > 0;)
            y = y * x + p.c[k];
        return y;
    }
    case CalKind::PointPair: {
        const Range r = m_pointRanges[op.calIndex];
        const mdb::PointPair* pts = m_points.data() + r.first;
        // Segment i joins pts[i] and pts[i + 1]; below the table use the first, above it the last.
        std::uint32_t i = 0;
        while (i + 2 < r.count && x > pts[i + 1].raw)
            ++i;
        const double dx = pts[i + 1].raw - pts[i].raw;
        return pts[i].calibrated + (x - pts[i].raw) * (pts[i + 1].calibrated - pts[i].calibrated) / dx;
    }
    case CalKind::Enumeration: {
        const Range r = m_stateRanges[op.calIndex];
        const mdb::State* states = m_states.data() + r.first;
        for (std::uint32_t i = 0; i < r.count; ++i) {
            if (code >= states[i].low && code <= states[i].high) {
                v.state = static_cast<std::int32_t>(i);
                break;
            }
        }
        return x;
    }
    }
    return x;
}

inline LimitState DecodePlan::checkLimits(const FieldOp& op, const DecodedValue& v) const noexcept
{
    switch (op.limitKind) {
    case LimitKind::None:
        return LimitState::None;
    case LimitKind::Numeric: {
        // Branch-free: values near a limit flip between bands, and mispredicted branches would cost
        // more than the four comparisons. Index bits: red low, yellow low, red high, yellow high.
        static constexpr LimitState kBands[16] = {
            LimitState::Normal,    LimitState::YellowHigh, LimitState::Normal,  LimitState::RedHigh,
            LimitState::YellowLow, LimitState::YellowLow,  LimitState::YellowLow, LimitState::YellowLow,
            LimitState::Normal,    LimitState::Normal,     LimitState::Normal,  LimitState::Normal,
            LimitState::RedLow,    LimitState::RedLow,     LimitState::RedLow,  LimitState::RedLow,
        };
        const NumericLimit& l = m_numericLimits[op.limitIndex];
        const double x = v.calibrated;
        if (x != x) [[unlikely]]
            return LimitState::Invalid;
        const unsigned index = (unsigned{x < l.redLow} << 3) | (unsigned{x < l.yellowLow} << 2)
            | (unsigned{x > l.redHigh} << 1) | unsigned{x > l.yellowHigh};
        return kBands[index];
    }
    case LimitKind::States: {
        if (v.state < 0)
            return LimitState::Unexpected;
        const Range r = m_stateRanges[op.calIndex];
        return m_stateExpected[r.first + static_cast<std::uint32_t>(v.state)] ? LimitState::Normal
                                                                              : LimitState::Unexpected;
    }
    }
    return LimitState::None;
}

inline void DecodePlan::decodeField(const FieldOp& op, const std::uint8_t* bytes, bool fast,
                                    DecodedValue& v) const noexcept
{
    std::uint64_t raw;
    if (fast) {
        // At least 9 readable bytes from the field's first byte: one unaligned load (+1 byte).
        const std::uint8_t* p = bytes + op.bitOffset / 8;
        const unsigned shift = op.bitOffset % 8;
        std::uint64_t w = loadBigEndian64(p) << shift;
        if (shift != 0)
            w |= std::uint64_t{p[8]} >> (8 - shift);
        raw = w >> (64 - op.bitLength);
    } else {
        raw = extractBits(bytes, op.bitOffset, op.bitLength);
    }
    if (op.flags & kLittleEndian)
        raw = reverseBytes(raw, op.byteCount);

    v.raw = raw;
    v.state = -1;
    v.present = true;
    double x;
    std::int64_t code;
    switch (static_cast<mdb::DataType>(op.type)) {
    case mdb::DataType::UnsignedInt:
        v.converted.u = raw;
        x = static_cast<double>(raw);
        code = static_cast<std::int64_t>(raw);
        break;
    case mdb::DataType::SignedInt: {
        const unsigned unused = 64 - op.bitLength;
        const std::int64_t s = static_cast<std::int64_t>(raw << unused) >> unused;
        v.converted.i = s;
        x = static_cast<double>(s);
        code = s;
        break;
    }
    case mdb::DataType::Float:
        x = op.bitLength == 32 ? static_cast<double>(std::bit_cast<float>(static_cast<std::uint32_t>(raw)))
                               : std::bit_cast<double>(raw);
        v.converted.f = x;
        code = 0;
        break;
    case mdb::DataType::String:
    case mdb::DataType::Bytes:
    default:
        v.converted.u = m_bytesLength[static_cast<std::size_t>(&op - m_ops.data())];
        v.calibrated = 0;
        v.limit = LimitState::None;
        return;
    }
    v.calibrated = calibrate(op, x, code, v);
    v.limit = checkLimits(op, v);
}

std::size_t DecodePlan::decode(std::span<const std::uint8_t> packet, std::span<DecodedValue> out) const noexcept
{
    const std::uint8_t* bytes = packet.data();
    const std::size_t size = packet.size();
    const std::size_t n = m_ops.size();
    std::size_t present = 0;
    for (std::size_t i = 0; i < n; ++i) {
        const FieldOp& op = m_ops[i];
        DecodedValue& v = out[i];
        if (op.endByte > size) {
            v = DecodedValue{};
            continue;
        }
        decodeField(op, bytes, op.bitOffset / 8 + 9 <= size, v);
        ++present;
    }
    return present;
}

DecodedValue DecodePlan::decodeOne(std::span<const std::uint8_t> packet, std::size_t index) const noexcept
{
    DecodedValue v;
    const FieldOp& op = m_ops[index];
    if (op.endByte <= packet.size())
        decodeField(op, packet.data(), op.bitOffset / 8 + 9 <= packet.size(), v);
    return v;
}

std::size_t DecodePlan::extractBytes(std::span<const std::uint8_t> packet, std::size_t index,
                                     std::span<std::uint8_t> out) const noexcept
{
    const FieldOp& op = m_ops[index];
    if (op.endByte > packet.size())
        return 0;
    const std::size_t count = std::min<std::size_t>(m_bytesLength[index], out.size());
    if (op.bitOffset % 8 == 0) {
        std::memcpy(out.data(), packet.data() + op.bitOffset / 8, count);
    } else {
        for (std::size_t i = 0; i < count; ++i)
            out[i] = static_cast<std::uint8_t>(
                extractBits(packet.data(), op.bitOffset + static_cast<std::uint32_t>(8 * i), 8));
    }
    return count;
}

std::string DecodePlan::stringValue(std::span<const std::uint8_t> packet, std::size_t index) const
{
    std::string text(m_bytesLength[index], '\0');
    const std::size_t n = extractBytes(packet, index,
                                       std::span(reinterpret_cast<std::uint8_t*>(text.data()), text.size()));
    text.resize(n);
    while (!text.empty() && text.back() == '\0')
        text.pop_back();
    return text;
}

std::string_view DecodePlan::stateText(std::size_t index, const DecodedValue& value) const noexcept
{
    const FieldOp& op = m_ops[index];
    if (op.calKind != CalKind::Enumeration || value.state < 0)
        return {};
    const Range r = m_stateRanges[op.calIndex];
    if (static_cast<std::uint32_t>(value.state) >= r.count)
        return {};
    return m_states[r.first + static_cast<std::uint32_t>(value.state)].text;
}

bool DecodePlan::packetTime(std::span<const std::uint8_t> packet, std::int64_t& unixNs) const noexcept
{
    if (!m_time)
        return false;
    constexpr std::size_t kHeader = 6;
    const std::size_t size = ccsds::cucSize(*m_time);
    if (packet.size() < kHeader + size)
        return false;
    return ccsds::decodeCuc(packet.subspan(kHeader, size), *m_time, unixNs);
}

} // namespace telestation::decode
