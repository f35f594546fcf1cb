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

std::string_view layoutStatusText(LayoutStatus status) noexcept
{
    switch (status) {
    case LayoutStatus::Complete: return "complete";
    case LayoutStatus::Short: return "shorter than its layout";
    case LayoutStatus::BadSize: return "a size field is out of range";
    }
    return "?";
}

namespace {

Error planError(const mdb::PacketDef& packet, const mdb::ParameterDef& parameter, const std::string& what)
{
    return Error{"cannot decode " + packet.name + "." + parameter.name + ": " + what, {}};
}

// The bits a fixed-size field takes in the packet (String/Bytes: all of them).
std::uint32_t fieldBits(const mdb::ParameterDef& p)
{
    return p.fixedSize() ? p.bitLength : 0;
}

} // namespace

Result<DecodePlan::Calibration> DecodePlan::compileCalibrator(const mdb::Calibrator& calibrator, bool integer)
{
    if (const auto* poly = std::get_if<mdb::PolynomialCalibrator>(&calibrator)) {
        if (poly->coefficients.empty() || poly->coefficients.size() > 6)
            return Error{"a polynomial has 1 to 6 coefficients", {}};
        Poly c{};
        c.count = static_cast<std::uint32_t>(poly->coefficients.size());
        std::copy(poly->coefficients.begin(), poly->coefficients.end(), c.c);
        m_polys.push_back(c);
        return Calibration{CalKind::Polynomial, static_cast<std::uint32_t>(m_polys.size() - 1)};
    }
    if (const auto* table = std::get_if<mdb::PointPairCalibrator>(&calibrator)) {
        if (table->points.size() < 2)
            return Error{"a point-pair table needs at least two points", {}};
        m_pointRanges.push_back({static_cast<std::uint32_t>(m_points.size()), static_cast<std::uint32_t>(table->points.size())});
        m_points.insert(m_points.end(), table->points.begin(), table->points.end());
        return Calibration{CalKind::PointPair, static_cast<std::uint32_t>(m_pointRanges.size() - 1)};
    }
    if (const auto* states = std::get_if<mdb::EnumerationCalibrator>(&calibrator)) {
        if (!integer)
            return Error{"an enumeration needs an integer parameter", {}};
        m_stateRanges.push_back({static_cast<std::uint32_t>(m_states.size()), static_cast<std::uint32_t>(states->states.size())});
        m_states.insert(m_states.end(), states->states.begin(), states->states.end());
        m_stateExpected.resize(m_states.size(), 1);
        return Calibration{CalKind::Enumeration, static_cast<std::uint32_t>(m_stateRanges.size() - 1)};
    }
    if (const auto* time = std::get_if<mdb::TimeCalibrator>(&calibrator)) {
        m_times.push_back({time->epochUnixSeconds + time->offset, time->scale});
        return Calibration{CalKind::Time, static_cast<std::uint32_t>(m_times.size() - 1)};
    }
    return Calibration{CalKind::None, 0};
}

std::uint32_t DecodePlan::compileConditions(const std::vector<mdb::Condition>& conditions, const mdb::PacketDef& packet,
                                            std::size_t self, std::string& error)
{
    const auto first = static_cast<std::uint32_t>(m_conditions.size());
    for (const auto& c : conditions) {
        std::size_t index = self;
        for (std::size_t j = 0; j < self; ++j)
            if (packet.parameters[j].name == c.parameter)
                index = j;
        if (index == self) {
            error = "the condition's parameter " + c.parameter + " is not an earlier parameter of the packet";
            return first;
        }
        m_conditions.push_back({static_cast<std::uint32_t>(index), c.op, c.calibrated, c.value});
    }
    return first;
}

Result<DecodePlan> DecodePlan::compile(const mdb::PacketDef& packet)
{
    DecodePlan plan;
    const std::size_t n = packet.parameters.size();
    plan.m_ops.reserve(n);
    plan.m_bytesLength.reserve(n);
    plan.m_contextRanges.reserve(n);

    bool fixedPart = true;
    std::uint32_t cursor = 0; // the end of the previous parameter, while the layout is fixed
    for (std::size_t i = 0; i < n; ++i) {
        const auto& p = packet.parameters[i];
        FieldOp op{};
        op.type = static_cast<std::uint8_t>(p.type);
        const bool integer = mdb::isInteger(p.type);
        const bool isBytes = mdb::isByteSequence(p.type);
        std::uint32_t bytesLength = 0;

        if (!p.fixedSize() && !isBytes)
            return planError(packet, p, "only strings and bytes take their size from the packet");
        if (p.size.kind == mdb::SizeKind::Terminated || p.size.kind == mdb::SizeKind::LeadingSize) {
            if (p.type != mdb::DataType::String)
                return planError(packet, p, "a terminated or counted size is for strings");
        }
        if (p.fixedSize()) {
            const unsigned minBits = p.type == mdb::DataType::SignMagnitudeInt || p.type == mdb::DataType::OnesComplementInt ? 2 : 1;
            if (integer && (p.bitLength < minBits || p.bitLength > 64))
                return planError(packet, p, "integers of this encoding are " + std::to_string(minBits) + " to 64 bits, not "
                                     + std::to_string(p.bitLength));
            if (p.type == mdb::DataType::Float && p.bitLength != 32 && p.bitLength != 64)
                return planError(packet, p, "floats are 32 or 64 bits, not " + std::to_string(p.bitLength));
            if (isBytes) {
                if (p.bitLength == 0 || p.bitLength % 8 != 0)
                    return planError(packet, p, "strings and bytes are a whole number of bytes");
                bytesLength = p.bitLength / 8;
            }
        }
        const std::uint32_t valueBits = isBytes ? 8 * std::min<std::uint32_t>(std::max<std::uint32_t>(bytesLength, 1), 8)
                                                : p.bitLength;
        op.bitLength = static_cast<std::uint8_t>(valueBits);
        op.byteCount = static_cast<std::uint8_t>(valueBits / 8);
        if (!isBytes && mdb::effectiveByteOrder(packet, p) == mdb::ByteOrder::LittleEndian) {
            const bool withinOneByte = p.placement == mdb::Placement::Absolute && p.bitOffset / 8 == (p.bitOffset + p.bitLength - 1) / 8;
            if (p.bitLength % 8 != 0 && !withinOneByte)
                return planError(packet, p, "a little-endian field must be a whole number of bytes");
            if (p.bitLength % 8 == 0 && p.bitLength > 8)
                op.flags |= kLittleEndian;
        }

        auto calibration = plan.compileCalibrator(p.calibrator, integer);
        if (!calibration)
            return planError(packet, p, calibration.error().message);
        op.calKind = calibration->kind;
        op.calIndex = calibration->index;
        if (isBytes && op.calKind != CalKind::None)
            return planError(packet, p, "strings and bytes take no calibrator");

        const auto contextFirst = static_cast<std::uint32_t>(plan.m_contexts.size());
        for (const auto& context : p.contextCalibrators) {
            if (isBytes || std::holds_alternative<mdb::EnumerationCalibrator>(context.calibrator))
                return planError(packet, p, "a context calibrator is a polynomial, point pairs or a time, on a number");
            std::string error;
            const std::uint32_t first = plan.compileConditions(context.when, packet, i, error);
            if (!error.empty())
                return planError(packet, p, error);
            auto c = plan.compileCalibrator(context.calibrator, integer);
            if (!c)
                return planError(packet, p, c.error().message);
            plan.m_contexts.push_back({first, static_cast<std::uint32_t>(context.when.size()), *c});
        }
        plan.m_contextRanges.push_back({contextFirst, static_cast<std::uint32_t>(p.contextCalibrators.size())});
        if (!p.contextCalibrators.empty())
            op.flags |= kContext;

        if (const auto* limits = std::get_if<mdb::NumericLimits>(&p.limits)) {
            if (limits->enabled && !isBytes && op.calKind != CalKind::Enumeration) {
                op.limitKind = LimitKind::Numeric;
                op.limitIndex = static_cast<std::uint32_t>(plan.m_numericLimits.size());
                plan.m_numericLimits.push_back({limits->redLow, limits->yellowLow, limits->yellowHigh, limits->redHigh});
            }
        } else if (const auto* expected = std::get_if<mdb::StateLimits>(&p.limits)) {
            if (op.calKind != CalKind::Enumeration)
                return planError(packet, p, "expected states need an enumeration");
            if (expected->enabled) {
                op.limitKind = LimitKind::States;
                const Range r = plan.m_stateRanges[op.calIndex];
                for (std::uint32_t k = 0; k < r.count; ++k) {
                    const auto& text = plan.m_states[r.first + k].text;
                    plan.m_stateExpected[r.first + k] = static_cast<std::uint8_t>(
                        std::find(expected->expectedStates.begin(), expected->expectedStates.end(), text)
                        != expected->expectedStates.end());
                }
            }
        }

        // The fixed part ends at the first parameter whose place, size or presence the packet decides.
        fixedPart = fixedPart && p.fixedSize() && p.includeWhen.empty();
        if (fixedPart) {
            const std::uint64_t offset = p.placement == mdb::Placement::Absolute ? p.bitOffset : std::uint64_t{cursor} + p.bitOffset;
            const std::uint64_t end = offset + p.bitLength;
            if (end > std::uint64_t{8} * 65536 * 2)
                return planError(packet, p, "the field lies beyond any packet");
            op.bitOffset = static_cast<std::uint32_t>(offset);
            op.endByte = static_cast<std::uint32_t>((end + 7) / 8);
            cursor = static_cast<std::uint32_t>(end);
            plan.m_fixedCount = i + 1;
            plan.m_requiredSize = std::max<std::size_t>(plan.m_requiredSize, op.endByte);
        } else {
            VariableOp v{};
            v.offset = p.bitOffset;
            v.absolute = p.placement == mdb::Placement::Absolute;
            v.sizeKind = p.size.kind;
            v.fixedBits = fieldBits(p);
            v.slope = p.size.sizeSlope;
            v.intercept = p.size.sizeIntercept;
            v.terminator = p.size.terminator;
            v.leadingSizeBits = p.size.leadingSizeBits;
            v.maxBits = static_cast<std::uint32_t>(std::min<std::uint64_t>(std::uint64_t{p.size.maxBytes} * 8, 0xFFFFFFFFu));
            if (p.size.kind == mdb::SizeKind::LeadingSize && (v.leadingSizeBits < 1 || v.leadingSizeBits > 32))
                return planError(packet, p, "a leading size has 1 to 32 bits");
            if (p.size.kind == mdb::SizeKind::FromParameter) {
                v.sizeIndex = static_cast<std::uint32_t>(i);
                for (std::size_t j = 0; j < i; ++j)
                    if (packet.parameters[j].name == p.size.sizeParameter)
                        v.sizeIndex = static_cast<std::uint32_t>(j);
                if (v.sizeIndex == i || !mdb::isInteger(packet.parameters[v.sizeIndex].type))
                    return planError(packet, p, "the size parameter " + p.size.sizeParameter
                                         + " is not an earlier integer parameter of the packet");
                if (!std::isfinite(v.slope) || !std::isfinite(v.intercept))
                    return planError(packet, p, "the size's slope and intercept must be finite");
            }
            std::string error;
            v.conditionFirst = plan.compileConditions(p.includeWhen, packet, i, error);
            v.conditionCount = static_cast<std::uint32_t>(p.includeWhen.size());
            if (!error.empty())
                return planError(packet, p, error);
            plan.m_variable.push_back(v);
        }
        plan.m_ops.push_back(op);
        plan.m_bytesLength.push_back(bytesLength);
    }
    plan.m_fixedCursor = cursor;

    if (packet.secondaryHeader)
        plan.m_time = cucFormat(*packet.secondaryHeader);
    return plan;
}

// Always inlined: with a second caller (context calibrations) and the time case GCC 12 stopped inlining it
// into decodeField, and the call cost 10-15% of the fixed path (bench_decode, issue 12).
[[gnu::always_inline]] inline double DecodePlan::calibrate(Calibration c, double x, std::int64_t code,
                                                           DecodedValue& v) const noexcept
{
    switch (c.kind) {
    case CalKind::None:
        return x;
    case CalKind::Polynomial: {
        const Poly& p = m_polys[c.index];
        double y = p.c[p.count - 1];
        for (std::uint32_t k = p.count - 1; k-- > 0;)
            y = y * x + p.c[k];
        return y;
    }
    case CalKind::PointPair: {
        const Range r = m_pointRanges[c.index];
        const mdb::PointPair* pts = m_points.data() + r.first;
        // Segment i joins pts[i] and pts[i + 1]; below the table use the first, above it the last.
        std::uint32_t i = 0;
        while (i + 2 < r.count && x > pts[i + 1].raw)
            ++i;
        const double dx = pts[i + 1].raw - pts[i].raw;
        return pts[i].calibrated + (x - pts[i].raw) * (pts[i + 1].calibrated - pts[i].calibrated) / dx;
    }
    case CalKind::Enumeration: {
        const Range r = m_stateRanges[c.index];
        const mdb::State* states = m_states.data() + r.first;
        for (std::uint32_t i = 0; i < r.count; ++i) {
            if (code >= states[i].low && code <= states[i].high) {
                v.state = static_cast<std::int32_t>(i);
                break;
            }
        }
        return x;
    }
    case CalKind::Time: {
        const Time& t = m_times[c.index];
        return t.base + t.scale * x;
    }
    }
    return x;
}

[[gnu::always_inline]] inline LimitState DecodePlan::checkLimits(const FieldOp& op, const DecodedValue& v) const noexcept
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

// Always inlined into the loops (three callers now): a call per parameter costs more than the field.
[[gnu::always_inline]] inline void DecodePlan::decodeField(const FieldOp& op, const std::uint8_t* bytes, bool fast, std::uint32_t bytesLength,
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
    const unsigned n = op.bitLength;
    switch (static_cast<mdb::DataType>(op.type)) {
    case mdb::DataType::UnsignedInt:
        v.converted.u = raw;
        x = static_cast<double>(raw);
        code = static_cast<std::int64_t>(raw);
        break;
    case mdb::DataType::SignedInt: {
        const unsigned unused = 64 - n;
        code = static_cast<std::int64_t>(raw << unused) >> unused;
        v.converted.i = code;
        x = static_cast<double>(code);
        break;
    }
    case mdb::DataType::SignMagnitudeInt: {
        const std::uint64_t magnitude = raw & ((std::uint64_t{1} << (n - 1)) - 1);
        code = (raw >> (n - 1)) != 0 ? -static_cast<std::int64_t>(magnitude) : static_cast<std::int64_t>(magnitude);
        v.converted.i = code;
        x = static_cast<double>(code);
        break;
    }
    case mdb::DataType::OnesComplementInt: {
        const std::uint64_t mask = n == 64 ? ~std::uint64_t{0} : (std::uint64_t{1} << n) - 1;
        code = (raw >> (n - 1)) != 0 ? -static_cast<std::int64_t>(~raw & mask) : static_cast<std::int64_t>(raw);
        v.converted.i = code;
        x = static_cast<double>(code);
        break;
    }
    case mdb::DataType::Float:
        x = n == 32 ? static_cast<double>(std::bit_cast<float>(static_cast<std::uint32_t>(raw))) : std::bit_cast<double>(raw);
        v.converted.f = x;
        code = 0;
        break;
    case mdb::DataType::String:
    case mdb::DataType::Bytes:
    default:
        v.converted.u = bytesLength;
        v.calibrated = 0;
        v.limit = LimitState::None;
        return;
    }
    v.calibrated = calibrate({op.calKind, op.calIndex}, x, code, v);
    v.limit = checkLimits(op, v);
}

namespace {

// A decoded number as a double: the converted value by its type, or the calibrated value.
double numberOf(mdb::DataType type, const DecodedValue& v, bool calibrated) noexcept
{
    if (calibrated)
        return v.calibrated;
    switch (type) {
    case mdb::DataType::UnsignedInt: return static_cast<double>(v.converted.u);
    case mdb::DataType::SignedInt:
    case mdb::DataType::SignMagnitudeInt:
    case mdb::DataType::OnesComplementInt: return static_cast<double>(v.converted.i);
    case mdb::DataType::Float: return v.converted.f;
    case mdb::DataType::String:
    case mdb::DataType::Bytes: return static_cast<double>(v.converted.u);
    }
    return 0;
}

} // namespace

bool DecodePlan::holds(std::uint32_t first, std::uint32_t count, std::span<const DecodedValue> values) const noexcept
{
    for (std::uint32_t k = first; k < first + count; ++k) {
        const Condition& c = m_conditions[k];
        const DecodedValue& v = values[c.index];
        if (!v.present || !mdb::compare(numberOf(dataType(c.index), v, c.calibrated), c.op, c.value))
            return false;
    }
    return true;
}

void DecodePlan::applyContext(const FieldOp& op, std::span<const DecodedValue> values, DecodedValue& v) const noexcept
{
    const Range r = m_contextRanges[static_cast<std::size_t>(&op - m_ops.data())];
    for (std::uint32_t k = r.first; k < r.first + r.count; ++k) {
        const Context& c = m_contexts[k];
        if (!holds(c.conditionFirst, c.conditionCount, values))
            continue;
        const double x = numberOf(static_cast<mdb::DataType>(op.type), v, false);
        v.calibrated = calibrate(c.calibration, x, 0, v);
        v.limit = checkLimits(op, v);
        return;
    }
}

LayoutStatus DecodePlan::place(const VariableOp& vop, std::span<const std::uint8_t> packet,
                               std::span<const DecodedValue> values, std::uint32_t cursor, Place& at) const noexcept
{
    const std::uint64_t available = std::uint64_t{packet.size()} * 8;
    const std::uint64_t start = vop.absolute ? vop.offset : std::uint64_t{cursor} + vop.offset;
    at.startBit = static_cast<std::uint32_t>(std::min<std::uint64_t>(start, 0xFFFFFFFFu));
    at.started = true;
    std::uint64_t valueBit = start;
    std::uint64_t valueBits = vop.fixedBits;
    std::uint64_t extraBits = 0; // leading count or terminator
    switch (vop.sizeKind) {
    case mdb::SizeKind::Fixed:
        break;
    case mdb::SizeKind::FromParameter: {
        const DecodedValue& source = values[vop.sizeIndex];
        if (!source.present)
            return LayoutStatus::BadSize;
        const double bits = std::floor(vop.slope * numberOf(dataType(vop.sizeIndex), source, false) + vop.intercept);
        if (!(bits >= 0) || bits > 8.0 * 65536 * 2 || (vop.maxBits != 0 && bits > vop.maxBits))
            return LayoutStatus::BadSize;
        valueBits = static_cast<std::uint64_t>(bits);
        break;
    }
    case mdb::SizeKind::LeadingSize: {
        if (start + vop.leadingSizeBits > available)
            return LayoutStatus::Short;
        const std::uint64_t count = extractBits(packet.data(), static_cast<std::uint32_t>(start), vop.leadingSizeBits);
        valueBits = count * 8;
        if (vop.maxBits != 0 && valueBits > vop.maxBits)
            return LayoutStatus::BadSize;
        valueBit = start + vop.leadingSizeBits;
        extraBits = vop.leadingSizeBits;
        break;
    }
    case mdb::SizeKind::Terminated: {
        std::uint64_t limit = available;
        if (vop.maxBits != 0)
            limit = std::min(limit, start + vop.maxBits + 8);
        std::uint64_t bit = start;
        valueBits = 0;
        bool found = false;
        for (; bit + 8 <= limit; bit += 8) {
            const std::uint64_t byte = start % 8 == 0 ? packet[bit / 8] : extractBits(packet.data(), static_cast<std::uint32_t>(bit), 8);
            if (byte == vop.terminator) {
                found = true;
                break;
            }
            valueBits += 8;
        }
        if (vop.maxBits != 0 && valueBits > vop.maxBits)
            valueBits = vop.maxBits;
        extraBits = found ? 8 : 0;
        break;
    }
    }
    if (valueBit + valueBits + (vop.sizeKind == mdb::SizeKind::Terminated ? extraBits : 0) > available)
        return LayoutStatus::Short;
    at.valueBit = static_cast<std::uint32_t>(valueBit);
    at.valueBits = static_cast<std::uint32_t>(valueBits);
    at.totalBits = static_cast<std::uint32_t>(valueBits + extraBits);
    return LayoutStatus::Complete;
}

std::size_t DecodePlan::decodeUpTo(std::span<const std::uint8_t> packet, std::span<DecodedValue> out, std::size_t last,
                                   LayoutReport* report, std::span<Place> places) const noexcept
{
    const std::uint8_t* bytes = packet.data();
    const std::size_t size = packet.size();
    const std::size_t n = std::min(last + 1, m_ops.size());
    const std::size_t fixedEnd = std::min(n, m_fixedCount);
    std::size_t present = 0;
    for (std::size_t i = 0; i < fixedEnd; ++i) {
        const FieldOp& op = m_ops[i];
        DecodedValue& v = out[i];
        if (op.endByte > size) {
            v = DecodedValue{};
            continue;
        }
        decodeField(op, bytes, op.bitOffset / 8 + 9 <= size, m_bytesLength[i], v);
        if (op.flags & kContext) [[unlikely]]
            applyContext(op, out, v);
        ++present;
    }

    LayoutStatus status = LayoutStatus::Complete;
    std::int32_t failed = -1;
    std::uint32_t cursor = m_fixedCursor;
    for (std::size_t i = fixedEnd; i < n; ++i) {
        const VariableOp& vop = m_variable[i - m_fixedCount];
        DecodedValue& v = out[i];
        v = DecodedValue{};
        if (status != LayoutStatus::Complete)
            continue; // the layout is lost: nothing after a failed parameter can be placed
        if (vop.conditionCount != 0 && !holds(vop.conditionFirst, vop.conditionCount, out))
            continue;
        Place at{};
        status = place(vop, packet, out, cursor, at);
        if (!places.empty())
            places[i - m_fixedCount] = at;
        if (status != LayoutStatus::Complete) {
            failed = static_cast<std::int32_t>(i);
            continue;
        }
        FieldOp op = m_ops[i];
        op.bitOffset = at.valueBit;
        std::uint32_t bytesLength = 0;
        if (mdb::isByteSequence(static_cast<mdb::DataType>(op.type))) {
            bytesLength = at.valueBits / 8;
            op.bitLength = static_cast<std::uint8_t>(8 * std::min<std::uint32_t>(std::max<std::uint32_t>(bytesLength, 1), 8));
        }
        if (mdb::isByteSequence(static_cast<mdb::DataType>(op.type)) && bytesLength == 0) {
            v.present = true; // an empty string or byte field: present, with nothing in it
        } else {
            decodeField(op, bytes, op.bitOffset / 8 + 9 <= size, bytesLength, v);
            if (op.flags & kContext)
                applyContext(m_ops[i], out, v);
        }
        cursor = at.startBit + at.totalBits;
        ++present;
    }
    if (report != nullptr) {
        report->status = status;
        report->failedIndex = failed;
        report->endBit = n > m_fixedCount ? cursor : m_fixedCursor;
    }
    return present;
}

std::size_t DecodePlan::decode(std::span<const std::uint8_t> packet, std::span<DecodedValue> out,
                               LayoutReport* report) const noexcept
{
    return decodeUpTo(packet, out, m_ops.size(), report, {});
}

namespace {

// Per-thread scratch for decoding a packet up to one parameter: grows to the largest packet once.
template <typename T>
std::span<T> scratch(std::size_t n) noexcept
{
    thread_local std::vector<T> buffer;
    if (buffer.size() < n) {
        try {
            buffer.resize(n);
        } catch (...) {
            return {};
        }
    }
    return {buffer.data(), n};
}

} // namespace

DecodedValue DecodePlan::decodeOne(std::span<const std::uint8_t> packet, std::size_t index) const noexcept
{
    DecodedValue v;
    const FieldOp& op = m_ops[index];
    if (index < m_fixedCount && !(op.flags & kContext)) {
        if (op.endByte <= packet.size())
            decodeField(op, packet.data(), op.bitOffset / 8 + 9 <= packet.size(), m_bytesLength[index], v);
        return v;
    }
    const auto values = scratch<DecodedValue>(m_ops.size());
    if (values.empty())
        return v;
    decodeUpTo(packet, values, index, nullptr, {});
    return values[index];
}

DecodePlan::Location DecodePlan::locate(std::span<const std::uint8_t> packet, std::size_t index) const noexcept
{
    if (index < m_fixedCount) {
        const FieldOp& op = m_ops[index];
        const std::uint32_t bits = m_bytesLength[index] != 0 ? 8 * m_bytesLength[index] : op.bitLength;
        return {op.bitOffset, bits, op.endByte <= packet.size(), op.bitOffset, true};
    }
    const auto values = scratch<DecodedValue>(m_ops.size());
    const auto places = scratch<Place>(m_variable.size());
    if (values.empty() || places.empty())
        return {};
    for (auto& p : places)
        p.started = false;
    decodeUpTo(packet, values, index, nullptr, places);
    const Place& at = places[index - m_fixedCount];
    return {at.valueBit, at.valueBits, values[index].present, at.startBit, at.started};
}

std::size_t DecodePlan::extractBytes(std::span<const std::uint8_t> packet, std::size_t index,
                                     std::span<std::uint8_t> out) const noexcept
{
    const Location at = locate(packet, index);
    if (!at.present)
        return 0;
    const std::size_t count = std::min<std::size_t>(at.bitLength / 8, out.size());
    if (at.bitOffset % 8 == 0) {
        std::memcpy(out.data(), packet.data() + at.bitOffset / 8, count);
    } else {
        for (std::size_t i = 0; i < count; ++i)
            out[i] = static_cast<std::uint8_t>(extractBits(packet.data(), at.bitOffset + static_cast<std::uint32_t>(8 * i), 8));
    }
    return count;
}

std::string DecodePlan::stringValue(std::span<const std::uint8_t> packet, std::size_t index) const
{
    std::string text(index < m_fixedCount ? m_bytesLength[index] : decodeOne(packet, index).converted.u, '\0');
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
