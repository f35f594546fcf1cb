#include "sim/engine/value_generator.hpp"

#include "sim/engine/packet_identity.hpp"

#include "core/decode/bits.hpp"

#include <algorithm>
#include <array>
#include <cctype>
#include <cmath>
#include <limits>
#include <optional>
#include <string>
#include <utility>

namespace telestation::sim {

namespace {

constexpr double kPi = 3.14159265358979323846;
constexpr double kTwoPi = 2 * kPi;
constexpr double kUnit53 = 0x1p-53; // 2^-53: a 53-bit integer times this is a double in [0, 1)

// [0, 1) when period > 0: where t falls within its period. A bad period freezes the value at t = 0.
double cyclePosition(double t, double period) noexcept
{
    if (!(period > 0) || !std::isfinite(t))
        return 0;
    const double x = t / period;
    const double f = x - std::floor(x);
    return f < 1 ? f : 0;
}

// floor(t / period) mod count, for count > 0.
std::size_t cycleSlot(double t, double period, std::size_t count) noexcept
{
    if (!(period > 0) || !std::isfinite(t) || count == 0)
        return 0;
    const double k = std::floor(t / period);
    double m = std::fmod(k, static_cast<double>(count));
    if (m < 0)
        m += static_cast<double>(count);
    const auto slot = static_cast<std::size_t>(m);
    return slot < count ? slot : 0;
}

} // namespace

// ---- ValueGenerator --------------------------------------------------------------------------------

ValueGenerator::ValueGenerator(GeneratorSpec spec, std::size_t stateCount)
    : m_spec(std::move(spec))
    , m_stateCount(stateCount)
    , m_rng(m_spec.seed)
{
}

double ValueGenerator::next(double t, std::uint64_t n) noexcept
{
    const GeneratorSpec& s = m_spec;
    switch (s.kind) {
    case GeneratorKind::Constant:
        return s.value;
    case GeneratorKind::Counter:
        return s.start + s.step * static_cast<double>(n);
    case GeneratorKind::Ramp:
        return s.min + (s.max - s.min) * cyclePosition(t, s.period);
    case GeneratorKind::Sine:
        return s.offset + s.amplitude * std::sin(kTwoPi * cyclePosition(t, s.period) + s.phase);
    case GeneratorKind::Square:
        return cyclePosition(t, s.period) < 0.5 ? s.min : s.max;
    case GeneratorKind::Uniform: {
        // Not std::uniform_real_distribution: its algorithm is the library's, and the values of a
        // scenario should not change with the standard library. 53 random bits -> [0, 1).
        if (!(s.max > s.min))
            return s.min;
        const double u = static_cast<double>(m_rng() >> 11) * kUnit53;
        const double v = s.min + (s.max - s.min) * u;
        return v < s.max ? v : std::nextafter(s.max, s.min); // rounding may land on max itself
    }
    case GeneratorKind::Normal: {
        // Box-Muller: two independent deviates from two uniforms; the second is kept for the next call.
        if (m_hasSpareNormal) {
            m_hasSpareNormal = false;
            return s.mean + s.stddev * m_spareNormal;
        }
        const double u1 = static_cast<double>((m_rng() >> 11) + 1) * kUnit53; // (0, 1]: log(u1) is finite
        const double u2 = static_cast<double>(m_rng() >> 11) * kUnit53;
        const double r = std::sqrt(-2.0 * std::log(u1));
        m_spareNormal = r * std::sin(kTwoPi * u2);
        m_hasSpareNormal = true;
        return s.mean + s.stddev * r * std::cos(kTwoPi * u2);
    }
    case GeneratorKind::StateCycle:
        if (!s.values.empty())
            return s.values[cycleSlot(t, s.period, s.values.size())];
        return static_cast<double>(cycleSlot(t, s.period, m_stateCount));
    case GeneratorKind::List:
        if (s.values.empty())
            return 0;
        return s.values[static_cast<std::size_t>(n % s.values.size())];
    case GeneratorKind::Text:
        return 0;
    }
    return 0;
}

std::string_view toString(GeneratorKind kind) noexcept
{
    switch (kind) {
    case GeneratorKind::Constant: return "constant";
    case GeneratorKind::Counter: return "counter";
    case GeneratorKind::Ramp: return "ramp";
    case GeneratorKind::Sine: return "sine";
    case GeneratorKind::Square: return "square";
    case GeneratorKind::Uniform: return "uniform";
    case GeneratorKind::Normal: return "normal";
    case GeneratorKind::StateCycle: return "stateCycle";
    case GeneratorKind::List: return "list";
    case GeneratorKind::Text: return "text";
    }
    return "unknown";
}

std::string_view toString(ValueDomain domain) noexcept
{
    switch (domain) {
    case ValueDomain::Calibrated: return "calibrated";
    case ValueDomain::Converted: return "converted";
    case ValueDomain::Raw: return "raw";
    }
    return "unknown";
}

// ---- Default generators ----------------------------------------------------------------------------

namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();

// Fractions of each period a default sine spends past a limit (see the header).
constexpr double kYellowFractionOneSided = 0.12;
constexpr double kYellowFractionTwoSided = 0.14; // 7 % per side: still a few samples at 2 Hz and 8 s
constexpr double kRedFraction = 0.07;
constexpr double kMaxOutsideWithRed = 0.40; // a red-reaching sine stays within yellow the rest of the time
constexpr std::size_t kRedEvery = 5;
// Generators without limits swing over a part of the field, the field capped to this many counts so
// that the numbers stay readable on a 32- or 64-bit field.
constexpr double kReadableCounts = 1e6;

// A low-discrepancy spread of parameter indexes over [0, 1): consecutive indexes land far apart, so
// neighbouring parameters get unrelated periods and phases.
double spread(std::size_t index, double step)
{
    const double x = 0.5 + static_cast<double>(index % 1'000'003) * step;
    return x - std::floor(x);
}
constexpr double kGoldenStep = 0.6180339887498949;  // 1 / golden ratio
constexpr double kPlasticStep = 0.7548776662466927; // 1 / plastic number: unrelated to the golden steps

double periodFor(std::size_t index, double shortest, double longest)
{
    return shortest + (longest - shortest) * spread(index, kGoldenStep);
}

double phaseFor(std::size_t index)
{
    return kTwoPi * spread(index, kPlasticStep);
}

struct Interval {
    double lo = 0;
    double hi = 0;
};

bool isInteger(const mdb::ParameterDef& p)
{
    return mdb::isInteger(p.type);
}

// The converted values the field can hold (floats: unbounded).
Interval convertedRange(const mdb::ParameterDef& p)
{
    const int bits = static_cast<int>(std::clamp<std::uint32_t>(p.bitLength, 1, 64));
    if (p.type == mdb::DataType::UnsignedInt)
        return {0, std::ldexp(1.0, bits) - 1};
    if (p.type == mdb::DataType::SignedInt)
        return {-std::ldexp(1.0, bits - 1), std::ldexp(1.0, bits - 1) - 1};
    if (mdb::isSignedInteger(p.type)) // sign-magnitude, ones' complement: symmetric
        return {1 - std::ldexp(1.0, bits - 1), std::ldexp(1.0, bits - 1) - 1};
    return {-kInf, kInf};
}

// The numeric calibration of a parameter (none, polynomial or point pairs), as far as the defaults
// need it: evaluate, check that the encoder can invert it, invert it, and find the calibrated size of
// one count.
class Calibration {
public:
    explicit Calibration(const mdb::ParameterDef& p)
        : m_poly(std::get_if<mdb::PolynomialCalibrator>(&p.calibrator))
        , m_table(std::get_if<mdb::PointPairCalibrator>(&p.calibrator))
        , m_range(convertedRange(p))
        , m_integer(isInteger(p))
    {
        if (m_poly && m_poly->coefficients.empty())
            m_poly = nullptr;
        if (m_table && m_table->points.size() < 2)
            m_table = nullptr;
        checkMonotonic();
    }

    [[nodiscard]] bool hasCalibrator() const { return m_poly || m_table; }
    [[nodiscard]] bool invertible() const { return m_invertible; }
    [[nodiscard]] const mdb::PointPairCalibrator* table() const { return m_table; }
    [[nodiscard]] Interval fieldRange() const { return m_range; }

    [[nodiscard]] double operator()(double x) const
    {
        if (m_poly) {
            const auto& c = m_poly->coefficients;
            double y = c.back();
            for (std::size_t k = c.size() - 1; k-- > 0;)
                y = y * x + c[k];
            return y;
        }
        if (m_table) {
            // As the decoder: interpolate within the table, extrapolate from the nearest segment.
            const auto& pts = m_table->points;
            std::size_t i = 0;
            while (i + 2 < pts.size() && x > pts[i + 1].raw)
                ++i;
            const double dx = pts[i + 1].raw - pts[i].raw;
            return pts[i].calibrated + (x - pts[i].raw) * (pts[i + 1].calibrated - pts[i].calibrated) / dx;
        }
        return x;
    }

    // The calibrated values the field can hold (for an invertible calibration; floats: unbounded).
    [[nodiscard]] Interval image() const
    {
        if (!m_integer || !hasCalibrator())
            return m_range;
        const double a = (*this)(m_range.lo);
        const double b = (*this)(m_range.hi);
        return {std::min(a, b), std::max(a, b)};
    }

    // The calibrated size of one count near the calibrated value y: how far apart the values are that
    // an integer field can hold there (0 for floats).
    [[nodiscard]] double quantum(double y) const
    {
        if (!m_integer)
            return 0;
        if (!hasCalibrator())
            return 1;
        double x = std::round(convertedFor(y));
        x = std::clamp(x, m_range.lo, m_range.hi - 1);
        return std::fabs((*this)(x + 1) - (*this)(x));
    }

private:
    // Bisection over the field's range (integer fields, invertible calibration).
    [[nodiscard]] double convertedFor(double y) const
    {
        double lo = m_range.lo;
        double hi = m_range.hi;
        const bool increasing = (*this)(hi) >= (*this)(lo);
        for (int i = 0; i < 200 && hi - lo > 0.25; ++i) {
            const double mid = lo + (hi - lo) / 2;
            if (((*this)(mid) < y) == increasing)
                lo = mid;
            else
                hi = mid;
        }
        return lo + (hi - lo) / 2;
    }

    void checkMonotonic()
    {
        if (m_table) {
            const auto& pts = m_table->points;
            const bool up = pts[1].calibrated > pts[0].calibrated;
            m_invertible = true;
            for (std::size_t i = 1; i < pts.size(); ++i) {
                const double d = pts[i].calibrated - pts[i - 1].calibrated;
                m_invertible = m_invertible && (up ? d > 0 : d < 0) && pts[i].raw > pts[i - 1].raw;
            }
            return;
        }
        if (!m_poly) {
            m_invertible = true;
            return;
        }
        const auto& c = m_poly->coefficients;
        bool higherOrder = false;
        for (std::size_t k = 2; k < c.size(); ++k)
            higherOrder = higherOrder || c[k] != 0;
        if (!higherOrder) {
            m_invertible = c.size() >= 2 && c[1] != 0;
            return;
        }
        // Sampled: good enough to choose a default; the encoder decides for itself.
        const double lo = m_integer ? m_range.lo : -kReadableCounts;
        const double hi = m_integer ? m_range.hi : kReadableCounts;
        constexpr int kSamples = 256;
        double previous = (*this)(lo);
        int sign = 0;
        m_invertible = true;
        for (int i = 1; i <= kSamples && m_invertible; ++i) {
            const double y = (*this)(lo + (hi - lo) * i / kSamples);
            const int s = y > previous ? 1 : y < previous ? -1 : 0;
            m_invertible = s != 0 && (sign == 0 || s == sign);
            sign = s;
            previous = y;
        }
    }

    const mdb::PolynomialCalibrator* m_poly;
    const mdb::PointPairCalibrator* m_table;
    Interval m_range;
    bool m_integer;
    bool m_invertible = false;
};

struct SineDesign {
    double offset = 0;
    double amplitude = 0;
};

// Numeric limits as a sine sees them: the calibrated values the field can hold, how wide the yellow
// bands are within them, and how coarse the field is near each limit (integer fields round).
struct LimitGeometry {
    mdb::NumericLimits limits;
    Interval field;
    double qYellowLow = 0, qYellowHigh = 0, qRedLow = 0, qRedHigh = 0;

    [[nodiscard]] double innerLow() const { return std::max(limits.yellowLow, field.lo); }
    [[nodiscard]] double innerHigh() const { return std::min(limits.yellowHigh, field.hi); }
    [[nodiscard]] double span() const { return innerHigh() - innerLow(); }
    // Width of the yellow band outside each yellow limit that the field can hold.
    [[nodiscard]] double bandLow() const { return limits.yellowLow - std::max(limits.redLow, field.lo); }
    [[nodiscard]] double bandHigh() const { return std::min(limits.redHigh, field.hi) - limits.yellowHigh; }
    [[nodiscard]] bool lowCrossable() const { return bandLow() > 0 && bandLow() >= qYellowLow; }
    [[nodiscard]] bool highCrossable() const { return bandHigh() > 0 && bandHigh() >= qYellowHigh; }
    // Values past these read back past the yellow limit once the field rounds them.
    [[nodiscard]] double crossLow() const { return limits.yellowLow - qYellowLow / 2; }
    [[nodiscard]] double crossHigh() const { return limits.yellowHigh + qYellowHigh / 2; }
    // Where a sine turns when it must stay inside a limit: a little inside it, at least a count.
    [[nodiscard]] double insideLow() const { return innerLow() + margin(qYellowLow); }
    [[nodiscard]] double insideHigh() const { return innerHigh() - margin(qYellowHigh); }

    [[nodiscard]] double margin(double q) const { return std::max(0.05 * span(), std::min(q, span() / 2)); }
};

// A field that keeps the packet recognisable (the secondary id, a criterion's field): the parameter
// must hold the identity's bits, not a generated value. Only absolutely placed parameters can overlap
// them (criteria test fields at fixed places).
bool overlapsIdentity(const mdb::PacketDef& packet, const mdb::ParameterDef& p)
{
    if (p.placement != mdb::Placement::Absolute || (!packet.secondaryId && packet.criteria.empty()))
        return false;
    return PacketIdentity(packet).overlaps(p.bitOffset, std::max<std::uint32_t>(p.bitLength, 1));
}

// The geometry when the limits design applies: a number with numeric limits whose calibration the
// encoder can invert and whose yellow range the field can hold at least in part.
std::optional<LimitGeometry> limitGeometry(const mdb::PacketDef& packet, const mdb::ParameterDef& p)
{
    const auto* limits = std::get_if<mdb::NumericLimits>(&p.limits);
    if (!limits || p.type == mdb::DataType::String || p.type == mdb::DataType::Bytes
        || std::holds_alternative<mdb::EnumerationCalibrator>(p.calibrator) || overlapsIdentity(packet, p))
        return std::nullopt;
    const Calibration calibration(p);
    if (!calibration.invertible())
        return std::nullopt;
    LimitGeometry g;
    g.limits = *limits;
    g.field = calibration.image();
    if (!(g.span() >= 0))
        return std::nullopt;
    g.qYellowLow = calibration.quantum(limits->yellowLow);
    g.qYellowHigh = calibration.quantum(limits->yellowHigh);
    g.qRedLow = calibration.quantum(limits->redLow);
    g.qRedHigh = calibration.quantum(limits->redHigh);
    return g;
}

// A sine that crosses the yellow limits about kYellowFraction* of the time without reaching red:
// centred when both sides have room for its overshoot, else over one side only.
SineDesign yellowDesign(const LimitGeometry& g)
{
    if (g.lowCrossable() && g.highCrossable()) {
        const double h = (g.crossHigh() - g.crossLow()) / 2;
        const double a = h / std::cos(kPi * kYellowFractionTwoSided / 2);
        const double overshoot = a - h;
        if (overshoot <= 0.5 * g.bandLow() && overshoot <= 0.5 * g.bandHigh())
            return {(g.crossHigh() + g.crossLow()) / 2, a};
    }
    // One side: the sine turns just inside one limit and just past the other, where it spends
    // kYellowFractionOneSided of its period. Its overshoot stays within half of that side's band.
    const double c = std::cos(kPi * kYellowFractionOneSided);
    std::optional<SineDesign> best;
    if (g.highCrossable()) {
        double a = (g.crossHigh() - g.insideLow()) / (1 + c);
        a = std::min(a, 0.5 * g.bandHigh() / (1 - c));
        best = SineDesign{g.crossHigh() - a * c, a};
    }
    if (g.lowCrossable()) {
        double a = (g.insideHigh() - g.crossLow()) / (1 + c);
        a = std::min(a, 0.5 * g.bandLow() / (1 - c));
        if (!best || a > best->amplitude)
            best = SineDesign{g.crossLow() + a * c, a};
    }
    if (best)
        return *best;
    // No yellow band the field can hold: crossing a yellow limit would mean red. Stay inside.
    return {(g.insideLow() + g.insideHigh()) / 2, std::max(0.0, (g.insideHigh() - g.insideLow()) / 2)};
}

// A sine that turns just inside one yellow limit and just past the other side's red limit, where it
// spends kRedFraction of its period; none when it would then be outside yellow more than
// kMaxOutsideWithRed of the time, when it would cross the yellow band too fast to be seen in yellow
// (a band narrow for the swing: EXPOSURE_TIME's 0.01..0.05 ms), or when the field cannot hold red.
std::optional<SineDesign> redDesign(const LimitGeometry& g)
{
    // Outside yellow = in the yellow band, then red for kRedFraction: at least as long in the band.
    const auto visibleYellow = [](double outside) { return outside >= 2 * kRedFraction; };
    const double c = std::cos(kPi * kRedFraction);
    std::optional<SineDesign> best;
    double bestOutside = kInf;
    if (g.highCrossable()) {
        const double red = g.limits.redHigh + g.qRedHigh / 2;
        const double bottom = g.insideLow();
        const double a = (red - bottom) / (1 + c);
        const double offset = bottom + a;
        const double outside = std::acos(std::clamp((g.crossHigh() - offset) / a, -1.0, 1.0)) / kPi;
        if (a > 0 && offset + a <= g.field.hi && visibleYellow(outside) && outside <= kMaxOutsideWithRed) {
            best = SineDesign{offset, a};
            bestOutside = outside;
        }
    }
    if (g.lowCrossable()) {
        const double red = g.limits.redLow - g.qRedLow / 2;
        const double top = g.insideHigh();
        const double a = (top - red) / (1 + c);
        const double offset = top - a;
        const double outside = std::acos(std::clamp((offset - g.crossLow()) / a, -1.0, 1.0)) / kPi;
        if (a > 0 && offset - a >= g.field.lo && visibleYellow(outside) && outside <= kMaxOutsideWithRed
            && outside < bestOutside)
            best = SineDesign{offset, a};
    }
    return best;
}

bool saysCount(std::string_view name)
{
    std::string upper(name);
    for (char& ch : upper)
        ch = static_cast<char>(std::toupper(static_cast<unsigned char>(ch)));
    const std::string_view u(upper);
    return u.find("COUNT") != std::string_view::npos || (u.size() >= 4 && u.substr(u.size() - 4) == "_CNT");
}

bool contains(std::string_view text, std::string_view word)
{
    return text.find(word) != std::string_view::npos;
}

// The name's hint for a String without an example in its description.
std::string textFromName(std::string_view name, std::size_t index)
{
    if (contains(name, "VERSION"))
        return "v2.4.1";
    if (contains(name, "SCRIPT"))
        return "SCIENCE-A";
    if (contains(name, "COMMAND"))
        return "PING";
    if (contains(name, "TEXT") || contains(name, "MESSAGE"))
        return "All systems nominal";
    // The last word of the name and a letter: "ACTIVE_MODE" -> "MODE-C".
    const auto cut = name.rfind('_');
    std::string word(cut == std::string_view::npos ? name : name.substr(cut + 1));
    if (word.empty())
        word = "TEXT";
    return word + "-" + static_cast<char>('A' + index % 26);
}

// Readable, fixed text for a String parameter: the description's own example ("e.g. BIO-0042-A"),
// else something that fits the name. Cut to the field.
std::string readableText(const mdb::ParameterDef& p, std::size_t index)
{
    std::string text;
    const std::string_view description(p.description);
    if (const auto at = description.find("e.g. "); at != std::string_view::npos) {
        auto rest = description.substr(at + 5);
        rest = rest.substr(0, std::min(rest.find_first_of(" ,;)"), rest.size()));
        while (!rest.empty() && (rest.back() == '.' || rest.back() == ':'))
            rest.remove_suffix(1);
        text = rest;
    }
    if (text.empty())
        text = textFromName(p.name, index);
    text.resize(std::min<std::size_t>(text.size(), p.bitLength / 8));
    return text;
}

// The raw value of a field overlapping the identity when it is set and the other bits are 0.
double identityRaw(const mdb::PacketDef& packet, const mdb::ParameterDef& p)
{
    const bool bytes = mdb::isByteSequence(p.type);
    const unsigned bits = bytes ? 8 * std::min(8u, p.bitLength / 8) : std::min(64u, p.bitLength);
    const bool littleEndian = !bytes && mdb::effectiveByteOrder(packet, p) == mdb::ByteOrder::LittleEndian;
    return static_cast<double>(PacketIdentity(packet).rawAt(p.bitOffset, bits, littleEndian));
}

GeneratorSpec enumerationGenerator(const mdb::ParameterDef& p, const mdb::EnumerationCalibrator& e,
                                   std::size_t index)
{
    GeneratorSpec spec;
    spec.kind = GeneratorKind::StateCycle;
    spec.period = periodFor(index, 5, 30);
    std::vector<std::size_t> expected, unexpected;
    if (const auto* limits = std::get_if<mdb::StateLimits>(&p.limits)) {
        for (std::size_t i = 0; i < e.states.size(); ++i) {
            const bool isExpected = std::find(limits->expectedStates.begin(), limits->expectedStates.end(),
                                              e.states[i].text) != limits->expectedStates.end();
            (isExpected ? expected : unexpected).push_back(i);
        }
    }
    if (expected.empty() || unexpected.empty())
        return spec; // every state in turn
    // Blocks of six slots of expected states (each state two slots, i.e. one period), each followed by
    // one slot of an unexpected state; enough blocks to show every state of both kinds.
    spec.period /= 2;
    const std::size_t blocks = std::max(unexpected.size(), (expected.size() + 2) / 3);
    std::size_t next = 0;
    for (std::size_t b = 0; b < blocks; ++b) {
        for (int k = 0; k < 3; ++k) {
            const auto state = static_cast<double>(expected[next++ % expected.size()]);
            spec.values.push_back(state);
            spec.values.push_back(state);
        }
        spec.values.push_back(static_cast<double>(unexpected[b % unexpected.size()]));
    }
    return spec;
}

GeneratorSpec limitGenerator(const mdb::PacketDef& packet, const LimitGeometry& g, std::size_t index)
{
    GeneratorSpec spec;
    spec.kind = GeneratorKind::Sine;
    spec.domain = ValueDomain::Calibrated;
    spec.phase = phaseFor(index);
    // Every kRedEvery-th parameter of the packet that can reach red briefly does.
    const auto red = redDesign(g);
    if (red) {
        std::size_t ordinal = 0;
        for (std::size_t j = 0; j < index && j < packet.parameters.size(); ++j) {
            const auto other = limitGeometry(packet, packet.parameters[j]);
            ordinal += other && redDesign(*other) ? 1 : 0;
        }
        if (ordinal % kRedEvery == 0) {
            spec.offset = red->offset;
            spec.amplitude = red->amplitude;
            spec.period = periodFor(index, 20, 90); // red for at least 1.4 s at a time
            return spec;
        }
    }
    const SineDesign yellow = yellowDesign(g);
    spec.offset = yellow.offset;
    spec.amplitude = yellow.amplitude;
    spec.period = periodFor(index, 8, 90);
    return spec;
}

// A number with nothing to go by but its field and calibration.
GeneratorSpec numberGenerator(const mdb::ParameterDef& p, std::size_t index)
{
    const Calibration calibration(p);
    Interval x; // converted values to swing over
    if (!isInteger(p)) {
        x = p.units == "%" ? Interval{20, 80} : Interval{10, 30};
    } else if (const auto* table = calibration.table()) {
        const Interval field = calibration.fieldRange();
        const double lo = std::max(table->points.front().raw, field.lo);
        const double hi = std::min(table->points.back().raw, field.hi);
        x = lo < hi ? Interval{lo + 0.2 * (hi - lo), lo + 0.8 * (hi - lo)} : Interval{field.lo, field.lo};
    } else {
        const Interval field = calibration.fieldRange();
        if (p.type == mdb::DataType::UnsignedInt) {
            const double top = std::min(field.hi, kReadableCounts);
            x = {0.1 * top, 0.6 * top};
        } else {
            const double top = std::min(field.hi, kReadableCounts);
            x = {-0.25 * top, 0.25 * top};
        }
    }
    GeneratorSpec spec;
    spec.domain = ValueDomain::Calibrated;
    Interval y = x;
    if (calibration.hasCalibrator()) {
        if (calibration.invertible()) {
            const double a = calibration(x.lo), b = calibration(x.hi);
            y = {std::min(a, b), std::max(a, b)};
        } else {
            spec.domain = ValueDomain::Converted; // the encoder could not place calibrated values
        }
    }
    const std::string_view units(p.units);
    if (units == "s" || units == "Wh" || units == "B") { // accumulates: a sawtooth looks the part
        spec.kind = GeneratorKind::Ramp;
        spec.min = y.lo;
        spec.max = y.hi;
    } else {
        spec.kind = GeneratorKind::Sine;
        spec.offset = (y.lo + y.hi) / 2;
        spec.amplitude = (y.hi - y.lo) / 2;
        spec.phase = phaseFor(index);
    }
    spec.period = periodFor(index, 8, 90);
    return spec;
}

// ---- Limit exercise ----------------------------------------------------------------------------------

// One side of numeric limits in "outward" terms: u = dir * v grows away from the range within limits
// (dir = +1: the high side, -1: the low side), so that one piece of code serves both sides.
struct LimitSide {
    int dir = 1;
    double yellow = 0, red = 0; // the limits, as u
    double qYellow = 0, qRed = 0;
    double edge = 0;            // the farthest u the field holds
    double middle = 0;          // the middle of the range within limits, as u

    [[nodiscard]] double band() const { return red - yellow; }
    // Whether the field holds a value that reads back past the limit (integer fields round to a count).
    [[nodiscard]] bool holdsPast(double limit, double q) const { return edge > limit + q / 2; }
    [[nodiscard]] bool yellowBand() const { return band() > 0 && band() >= qYellow && holdsPast(yellow, qYellow); }
    [[nodiscard]] bool holdsRed() const { return holdsPast(red, qRed); }
};

LimitSide limitSide(const LimitGeometry& g, int dir)
{
    LimitSide s;
    s.dir = dir;
    const auto& l = g.limits;
    s.yellow = dir * (dir > 0 ? l.yellowHigh : l.yellowLow);
    s.red = dir * (dir > 0 ? l.redHigh : l.redLow);
    s.qYellow = dir > 0 ? g.qYellowHigh : g.qYellowLow;
    s.qRed = dir > 0 ? g.qRedHigh : g.qRedLow;
    s.edge = dir * (dir > 0 ? g.field.hi : g.field.lo);
    s.middle = dir * (g.innerLow() + g.innerHigh()) / 2;
    return s;
}

// A sine over [from, to] (calibrated values).
GeneratorSpec sineBetween(double from, double to, double period, std::size_t index)
{
    GeneratorSpec spec;
    spec.kind = GeneratorKind::Sine;
    spec.domain = ValueDomain::Calibrated;
    spec.offset = (from + to) / 2;
    spec.amplitude = std::fabs(to - from) / 2;
    spec.period = period;
    spec.phase = phaseFor(index);
    return spec;
}

std::optional<LimitExerciseGenerator> numericExercise(const LimitGeometry& g, std::size_t index, LimitExercise exercise,
                                                      double period, std::string& why)
{
    if (exercise == LimitExercise::Within)
        return LimitExerciseGenerator{sineBetween(g.insideLow(), g.insideHigh(), period, index), false, false};
    // The side that shows most: a yellow band and red, else red (yellow and red at once), else yellow.
    std::optional<LimitSide> side;
    for (const auto& wanted : {std::pair{true, true}, std::pair{false, true}, std::pair{true, false}}) {
        for (const int dir : {1, -1}) {
            const LimitSide s = limitSide(g, dir);
            if (!side && (!wanted.first || s.yellowBand()) && (!wanted.second || s.holdsRed())
                && (s.yellowBand() || s.holdsRed()))
                side = s;
        }
    }
    if (!side) {
        why = "the field cannot hold a value past its limits";
        return std::nullopt;
    }
    const LimitSide& s = *side;
    // From a band's width inside the yellow limit (at most to the middle of the range within limits)
    // to half a band past red (at least a count), as far as the field holds: at least ~100 ms of each
    // period in the yellow band on the way out and back.
    const double width = std::max(s.band(), std::max(s.qYellow, s.qRed));
    const double from = std::max(s.yellow - width, s.middle);
    const double to = std::min(s.holdsRed() ? s.red + std::max(s.band() / 2, s.qRed) : s.edge, s.edge);
    // A float must come back strictly within its limits; an integer field rounds to a count within them.
    if (!(from < s.yellow || (s.qYellow > 0 && from <= s.yellow))) {
        why = "no room within its limits";
        return std::nullopt;
    }
    return LimitExerciseGenerator{sineBetween(s.dir * from, s.dir * to, period, index), s.yellowBand(), s.holdsRed()};
}

std::optional<LimitExerciseGenerator> enumerationExercise(const mdb::EnumerationCalibrator& e, const mdb::StateLimits& limits,
                                                          LimitExercise exercise, double period, std::string& why)
{
    std::vector<std::size_t> expected, unexpected;
    for (std::size_t i = 0; i < e.states.size(); ++i) {
        const bool isExpected = std::find(limits.expectedStates.begin(), limits.expectedStates.end(), e.states[i].text)
            != limits.expectedStates.end();
        (isExpected ? expected : unexpected).push_back(i);
    }
    if (expected.empty() || (exercise == LimitExercise::Crossing && unexpected.empty())) {
        why = expected.empty() ? "no expected state" : "no unexpected state";
        return std::nullopt;
    }
    GeneratorSpec spec;
    spec.kind = GeneratorKind::StateCycle;
    spec.period = period / 2;
    const std::size_t second = exercise == LimitExercise::Crossing ? unexpected.front() : expected[1 % expected.size()];
    spec.values = {static_cast<double>(expected.front()), static_cast<double>(second)};
    return LimitExerciseGenerator{spec, false, exercise == LimitExercise::Crossing};
}

} // namespace

std::optional<LimitExerciseGenerator> limitExerciseGenerator(const mdb::PacketDef& packet, const mdb::ParameterDef& parameter,
                                                             std::size_t index, LimitExercise exercise, double period,
                                                             std::string* why)
{
    std::string reason;
    std::optional<LimitExerciseGenerator> out;
    const auto* numeric = std::get_if<mdb::NumericLimits>(&parameter.limits);
    const auto* states = std::get_if<mdb::StateLimits>(&parameter.limits);
    const auto* enumeration = std::get_if<mdb::EnumerationCalibrator>(&parameter.calibrator);
    if (!numeric && !states)
        reason = "no limits";
    else if ((numeric && !numeric->enabled) || (states && !states->enabled))
        reason = "limits disabled";
    else if (overlapsIdentity(packet, parameter))
        reason = "part of the packet's identity";
    else if (states && enumeration)
        out = enumerationExercise(*enumeration, *states, exercise, period, reason);
    else if (states)
        reason = "expected states on a parameter without states";
    else if (const auto geometry = limitGeometry(packet, parameter))
        out = numericExercise(*geometry, index, exercise, period, reason);
    else
        reason = "a calibration the simulator cannot invert, or limits outside the field";
    if (!out && why)
        *why = reason;
    return out;
}

GeneratorSpec defaultGenerator(const mdb::PacketDef& packet, const mdb::ParameterDef& parameter, std::size_t index)
{
    const mdb::ParameterDef& p = parameter;
    GeneratorSpec spec;
    if (overlapsIdentity(packet, p)) {
        // The secondary id and criteria tell this packet type from others on its APID: keep them.
        spec.kind = GeneratorKind::Constant;
        spec.domain = ValueDomain::Raw;
        spec.value = identityRaw(packet, p);
        return spec;
    }
    if (p.type == mdb::DataType::String) {
        spec.kind = GeneratorKind::Text;
        spec.text = readableText(p, index);
        return spec;
    }
    if (p.type == mdb::DataType::Bytes) {
        spec.kind = GeneratorKind::Counter;
        spec.domain = ValueDomain::Raw;
        return spec;
    }
    if (const auto* e = std::get_if<mdb::EnumerationCalibrator>(&p.calibrator))
        return enumerationGenerator(p, *e, index);
    if (const auto geometry = limitGeometry(packet, p))
        return limitGenerator(packet, *geometry, index);
    if (saysCount(p.name)) {
        spec.kind = GeneratorKind::Counter;
        spec.domain = isInteger(p) ? ValueDomain::Raw : ValueDomain::Converted;
        return spec;
    }
    if (isInteger(p) && p.bitLength == 1) {
        const Interval field = convertedRange(p);
        spec.kind = GeneratorKind::Square;
        spec.domain = ValueDomain::Converted;
        spec.min = field.lo;
        spec.max = field.hi;
        spec.period = periodFor(index, 10, 40);
        return spec;
    }
    return numberGenerator(p, index);
}

} // namespace telestation::sim
