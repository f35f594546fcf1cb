// EncodePlan: see encoder.hpp. Everything the per-value calls need is computed in compile(): field
// positions, byte order, the range of the field, and for each calibrator whether and over which
// converted range it can be inverted. The per-value calls only read those flat arrays.
//
// Inversion range of a polynomial (Field::lo .. Field::hi): the field's converted range (integers:
// the field's integer range; floats: +-FLT_MAX or +-DBL_MAX), narrowed to where every term of the
// polynomial stays below DBL_MAX / (2 * number of non-zero terms), so that the calibrated value —
// and every partial sum of the decoder's Horner evaluation — stays finite. For the polynomials of
// real calibrations on integer fields this narrows nothing. The polynomial is invertible when it is
// strictly monotonic over that range: its derivative p' must not take both signs there. p' is
// monotonic between consecutive roots of p'' (found by recursive root isolation), so its sign at the
// range ends and at those roots decides; samples across the range (linear and logarithmic) are
// checked as well. Inverting solves p(x) = y by safeguarded Newton from a bracket between two
// precompiled knots (to double precision; for integer fields to 1e-7 counts, enough to then pick the
// nearer of the two integers around the root by their calibrated values).
//
// Choices the header leaves open:
//  - Converted values round to nearest with halves away from zero (2.5 -> 3, -2.5 -> -3).
//  - float32: a finite value beyond +-FLT_MAX becomes +-FLT_MAX, not infinity; infinities and NaN
//    are kept.
//  - A NaN calibrated value inverts to a NaN converted value (true): NaN in a float field, 0 in an
//    integer field.
//  - String/Bytes are not invertible; setConverted and setCalibrated leave them alone.
//  - Enumerations of definitions that validation would refuse: a state's code is the lowest one in
//    its range that the field holds and no earlier state claims; setState fails when there is none.
#include "core/decode/encoder.hpp"

#include "core/decode/bits.hpp"
#include "core/decode/decode_plan.hpp"

#include <algorithm>
#include <bit>
#include <cfloat>
#include <cmath>
#include <cstring>
#include <limits>

namespace telestation::decode {

namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();

void storeBigEndian64(std::uint8_t* p, std::uint64_t w) noexcept
{
    if constexpr (std::endian::native == std::endian::little)
        w = __builtin_bswap64(w);
    std::memcpy(p, &w, sizeof w);
}

constexpr std::uint64_t lowBits(unsigned n) noexcept
{
    return n >= 64 ? ~std::uint64_t{0} : (std::uint64_t{1} << n) - 1;
}

// Horner over `count` coefficients: the same operations, in the same order, as DecodePlan, so that
// the encoder's idea of a calibrated value is bit for bit the decoder's.
inline double horner(const double* c, std::uint32_t count, double x) noexcept
{
    double y = c[count - 1];
    for (std::uint32_t k = count - 1; k-- > 0;)
        y = y * x + c[k];
    return y;
}

// A point-pair table evaluated as DecodePlan does. Its segment search stops at the first point above
// x; with raw values strictly increasing (which invertible tables have) that is the number of inner
// points below x, counted here without a branch — x is a new random value on every call.
inline double interpolate(const mdb::PointPair* pts, std::uint32_t count, double x) noexcept
{
    std::uint32_t i = 0;
    for (std::uint32_t j = 1; j + 1 < count; ++j)
        i += x > pts[j].raw ? 1 : 0;
    const double dx = pts[i + 1].raw - pts[i].raw;
    return pts[i].calibrated + (x - pts[i].raw) * (pts[i + 1].calibrated - pts[i].calibrated) / dx;
}

// A point strictly inside (a, b) (or a or b when they are adjacent doubles) to split a bracket at.
// Brackets that span orders of magnitude are split geometrically, so that a root anywhere in
// [-DBL_MAX, DBL_MAX] is bracketed within a factor of 16 in a dozen steps; `floor` is the smallest
// magnitude the geometric split goes down to (1 for integer fields, DBL_MIN otherwise).
double splitPoint(double a, double b, double floor) noexcept
{
    if (a < 0 && b > 0)
        return 0.0;
    if (b <= 0)
        return -splitPoint(-b, -a, floor);
    const double low = std::max(a, floor);
    if (b > 16 * low)
        return std::sqrt(low) * std::sqrt(b);
    return a + (b - a) / 2;
}

// The real roots of q (degree `degree` >= 1, q[degree] != 0) strictly inside (a, b), ascending;
// at most `degree` of them. Each root of q is bracketed between consecutive critical points (the
// roots of q', found the same way), where q is monotonic, and found there by bisection.
int rootsInside(const double* q, int degree, double a, double b, double* out) noexcept
{
    if (degree <= 0)
        return 0;
    if (degree == 1) {
        const double r = -q[0] / q[1];
        if (r > a && r < b) {
            out[0] = r;
            return 1;
        }
        return 0;
    }
    double dq[6] = {};
    for (int k = 0; k < degree; ++k)
        dq[k] = (k + 1) * q[k + 1];
    double points[8];
    int n = 0;
    points[n++] = a;
    n += rootsInside(dq, degree - 1, a, b, points + 1);
    points[n++] = b;

    const auto count = static_cast<std::uint32_t>(degree + 1);
    int found = 0;
    for (int i = 0; i + 1 < n; ++i) {
        double u = points[i];
        double v = points[i + 1];
        double fu = horner(q, count, u);
        const double fv = horner(q, count, v);
        if (fu == 0) {
            if (i > 0)
                out[found++] = u; // a critical point that is also a root (a multiple root)
            continue;
        }
        if (fv == 0 || (fu < 0) == (fv < 0))
            continue; // no sign change inside (a root at v is found as the next interval's u)
        for (int iteration = 0; iteration < 4000; ++iteration) {
            const double m = splitPoint(u, v, DBL_MIN);
            if (!(m > u && m < v))
                break;
            const double fm = horner(q, count, m);
            if (fm == 0) {
                u = v = m;
                break;
            }
            if ((fm < 0) == (fu < 0)) {
                u = m;
                fu = fm;
            } else {
                v = m;
            }
        }
        out[found++] = u / 2 + v / 2;
    }
    return found;
}

// Whether the polynomial c (effective degree >= 2, derivative d) is strictly monotonic on [lo, hi]:
// p' does not take both signs there. On the derivative's monotonic pieces — between the roots of p''
// — its extremes are at the pieces' ends, so the range ends and the roots of p'' decide; samples
// across the range are a second look. Sets `increasing`.
bool polynomialMonotonic(const double* d, std::uint32_t degree, double lo, double hi, bool& increasing) noexcept
{
    double dd[5] = {};
    for (std::uint32_t k = 0; k + 1 < degree; ++k)
        dd[k] = (k + 1) * d[k + 1];
    double points[8 + 2 * 64 + 2 * 160];
    int n = 0;
    points[n++] = lo;
    points[n++] = hi;
    n += rootsInside(dd, static_cast<int>(degree) - 2, lo, hi, points + n);
    for (int j = 1; j < 64; ++j) {
        const double t = j / 64.0;
        points[n++] = lo * (1 - t) + hi * t;
    }
    for (int e = -300; e <= 308; e += 4) {
        const double m = std::pow(10.0, e);
        for (const double x : {m, -m})
            if (x > lo && x < hi)
                points[n++] = x;
    }
    bool positive = false;
    bool negative = false;
    for (int i = 0; i < n; ++i) {
        const double s = horner(d, degree, points[i]);
        if (s != s)
            return false;
        positive = positive || s > 0;
        negative = negative || s < 0;
    }
    if (positive == negative)
        return false; // both signs, or a derivative that is zero everywhere we looked
    increasing = positive;
    return true;
}

} // namespace

Result<EncodePlan> EncodePlan::compile(const mdb::PacketDef& packet)
{
    // Refuse exactly what the decoder refuses: an encoder for packets nobody can read is no use.
    auto decoder = DecodePlan::compile(packet);
    if (!decoder.ok())
        return decoder.error();

    EncodePlan plan;
    plan.m_decoder = std::move(*decoder);
    plan.m_fields.reserve(packet.parameters.size());
    for (std::size_t index = 0; index < packet.parameters.size(); ++index) {
        const auto& p = packet.parameters[index];
        Field f;
        const DecodePlan::Location at = plan.m_decoder.locate({}, index);
        if (index >= plan.m_decoder.fixedCount())
            f.flags |= kVariable;
        f.bitOffset = at.bitOffset;
        f.type = p.type;
        f.endByte = static_cast<std::uint32_t>((std::uint64_t{at.bitOffset} + p.bitLength + 7) / 8);
        f.sizeKind = p.size.kind;
        f.leadingSizeBits = p.size.leadingSizeBits;
        f.terminator = p.size.terminator;
        f.maxBytes = p.size.maxBytes;
        const bool isBytes = mdb::isByteSequence(p.type);
        const std::uint32_t valueBits = isBytes ? 8 * std::min<std::uint32_t>(std::max<std::uint32_t>(p.bitLength / 8, 1), 8)
                                                : p.bitLength;
        f.bitLength = static_cast<std::uint8_t>(valueBits);
        f.byteCount = static_cast<std::uint8_t>(valueBits / 8);
        if (isBytes)
            f.bytesLength = p.bitLength / 8;
        else if (mdb::effectiveByteOrder(packet, p) == mdb::ByteOrder::LittleEndian && p.bitLength % 8 == 0
                 && p.bitLength > 8)
            f.flags |= kLittleEndian;

        // Integer codes the field holds, for enumerations: what the decoder's `code` can be.
        std::int64_t codeLow = 0;
        std::int64_t codeHigh = 0;
        switch (p.type) {
        case mdb::DataType::UnsignedInt:
            f.minConverted = 0;
            f.maxConverted = std::ldexp(1.0, static_cast<int>(p.bitLength)) - 1;
            // A 64-bit unsigned field holds every int64 code through its two's complement bits.
            codeLow = p.bitLength == 64 ? std::numeric_limits<std::int64_t>::min() : 0;
            codeHigh = p.bitLength == 64 ? std::numeric_limits<std::int64_t>::max()
                                         : static_cast<std::int64_t>(lowBits(p.bitLength));
            break;
        case mdb::DataType::SignedInt:
            f.minConverted = -std::ldexp(1.0, static_cast<int>(p.bitLength) - 1);
            f.maxConverted = std::ldexp(1.0, static_cast<int>(p.bitLength) - 1) - 1;
            codeHigh = static_cast<std::int64_t>(lowBits(p.bitLength - 1));
            codeLow = -codeHigh - 1;
            break;
        case mdb::DataType::SignMagnitudeInt:
        case mdb::DataType::OnesComplementInt: // symmetric: -(2^(n-1) - 1) .. 2^(n-1) - 1 (and a negative zero)
            f.maxConverted = std::ldexp(1.0, static_cast<int>(p.bitLength) - 1) - 1;
            f.minConverted = -f.maxConverted;
            codeHigh = static_cast<std::int64_t>(lowBits(p.bitLength - 1));
            codeLow = -codeHigh;
            break;
        case mdb::DataType::Float:
            f.maxConverted = p.bitLength == 32 ? double{FLT_MAX} : DBL_MAX;
            f.minConverted = -f.maxConverted;
            break;
        case mdb::DataType::String:
        case mdb::DataType::Bytes:
            break;
        }
        f.lo = f.minConverted;
        f.hi = f.maxConverted;

        if (const auto* poly = std::get_if<mdb::PolynomialCalibrator>(&p.calibrator)) {
            plan.compilePolynomial(f, poly->coefficients);
        } else if (const auto* time = std::get_if<mdb::TimeCalibrator>(&p.calibrator)) {
            plan.compilePolynomial(f, {time->epochUnixSeconds + time->offset, time->scale}); // the same line
        } else if (const auto* table = std::get_if<mdb::PointPairCalibrator>(&p.calibrator)) {
            f.calKind = CalKind::PointPair;
            f.calIndex = static_cast<std::uint32_t>(plan.m_tables.size());
            plan.m_tables.push_back({static_cast<std::uint32_t>(plan.m_points.size()),
                                     static_cast<std::uint32_t>(table->points.size())});
            plan.m_points.insert(plan.m_points.end(), table->points.begin(), table->points.end());
            const auto& pts = table->points;
            bool rawIncreasing = true;
            bool up = true;
            bool down = true;
            for (std::size_t i = 0; i < pts.size(); ++i) {
                if (!std::isfinite(pts[i].raw) || !std::isfinite(pts[i].calibrated))
                    rawIncreasing = up = down = false;
                if (i > 0) {
                    rawIncreasing = rawIncreasing && pts[i].raw > pts[i - 1].raw;
                    up = up && pts[i].calibrated > pts[i - 1].calibrated;
                    down = down && pts[i].calibrated < pts[i - 1].calibrated;
                }
            }
            if (rawIncreasing && (up || down))
                f.flags |= kInvertible | (up ? kIncreasing : 0);
        } else if (const auto* states = std::get_if<mdb::EnumerationCalibrator>(&p.calibrator)) {
            f.calKind = CalKind::Enumeration;
            f.calIndex = static_cast<std::uint32_t>(plan.m_stateRanges.size());
            plan.m_stateRanges.push_back({static_cast<std::uint32_t>(plan.m_stateCodes.size()),
                                          static_cast<std::uint32_t>(states->states.size())});
            // The code of a state: the lowest one in its range that the field holds and that no
            // earlier state claims (the decoder takes the first match). For a valid definition
            // that is the state's low end.
            const auto& all = states->states;
            for (std::size_t i = 0; i < all.size(); ++i) {
                const std::int64_t highest = std::min(all[i].high, codeHigh);
                std::int64_t code = std::max(all[i].low, codeLow);
                bool writable = code <= highest;
                for (bool moved = true; writable && moved;) {
                    moved = false;
                    for (std::size_t j = 0; j < i && writable; ++j) {
                        if (all[j].low <= code && code <= all[j].high) {
                            if (all[j].high >= highest)
                                writable = false;
                            else
                                code = all[j].high + 1;
                            moved = true;
                        }
                    }
                }
                plan.m_stateCodes.push_back(writable ? static_cast<std::uint64_t>(code) & lowBits(valueBits) : 0);
                plan.m_stateWritable.push_back(writable ? 1 : 0);
            }
        } else if (!isBytes) {
            f.flags |= kInvertible | kIncreasing; // the identity
        }
        plan.m_fields.push_back(f);
    }
    return plan;
}

void EncodePlan::compilePolynomial(Field& f, const std::vector<double>& coefficients)
{
    Poly q;
    q.count = static_cast<std::uint32_t>(coefficients.size());
    std::copy(coefficients.begin(), coefficients.end(), q.c);
    f.calKind = CalKind::Polynomial;
    f.calIndex = static_cast<std::uint32_t>(m_polys.size());

    bool finite = true;
    int terms = 0;
    for (std::uint32_t k = 0; k < q.count; ++k) {
        finite = finite && std::isfinite(q.c[k]);
        if (q.c[k] != 0) {
            q.degree = k;
            ++terms;
        }
    }
    for (std::uint32_t k = 0; k < q.degree; ++k)
        q.d[k] = (k + 1) * q.c[k + 1];

    // Narrow the range to where each term stays below DBL_MAX / (2 * terms) (see the file comment).
    for (std::uint32_t k = 1; k <= q.degree; ++k) {
        if (q.c[k] == 0)
            continue;
        const double r = std::pow(DBL_MAX / (2.0 * terms * std::fabs(q.c[k])), 1.0 / k);
        f.hi = std::min(f.hi, r);
        f.lo = std::max(f.lo, -r);
    }
    if (f.type == mdb::DataType::Float && f.bitLength == 32) {
        // Ends the field can hold exactly, rounded towards zero.
        const auto inward = [](double v) {
            float r = static_cast<float>(v);
            if (std::fabs(double{r}) > std::fabs(v))
                r = std::nextafter(r, 0.0f);
            return double{r};
        };
        f.lo = inward(f.lo);
        f.hi = inward(f.hi);
    } else if (f.type != mdb::DataType::Float) {
        f.lo = std::ceil(f.lo);
        f.hi = std::floor(f.hi);
    }

    q.yLo = horner(q.c, q.count, f.lo);
    q.yHi = horner(q.c, q.count, f.hi);
    bool increasing = q.yHi > q.yLo;
    bool invertible = finite && q.degree >= 1 && f.lo < f.hi && std::isfinite(q.yLo) && std::isfinite(q.yHi)
        && q.yLo != q.yHi;
    if (invertible && q.degree >= 2)
        invertible = polynomialMonotonic(q.d, q.degree, f.lo, f.hi, increasing);
    // The ends must agree with the derivative's sign (they could disagree only through rounding).
    if (invertible && (q.yHi > q.yLo) != increasing)
        invertible = false;
    if (invertible) {
        f.flags |= kInvertible | (increasing ? kIncreasing : 0);
        if (q.degree == 1)
            q.slopeInverse = 1 / q.c[1];
        else
            addKnots(q, f.lo, f.hi, increasing ? 1.0 : -1.0);
    }
    m_polys.push_back(q);
}

// Knots evenly spaced over [lo, hi] and at powers of ten inside it (for ranges that span orders of
// magnitude), kept only where the oriented value strictly increases (rounding could break that).
void EncodePlan::addKnots(Poly& q, double lo, double hi, double sign)
{
    std::vector<double> xs;
    constexpr int kEven = 256;
    for (int j = 0; j <= kEven; ++j) {
        const double t = double(j) / kEven;
        xs.push_back(j == 0 ? lo : j == kEven ? hi : lo * (1 - t) + hi * t);
    }
    for (int e = -300; e <= 308; e += 2) {
        const double m = std::pow(10.0, e);
        for (const double x : {m, -m})
            if (x > lo && x < hi)
                xs.push_back(x);
    }
    std::sort(xs.begin(), xs.end());
    q.knotFirst = static_cast<std::uint32_t>(m_knotX.size());
    double last = -kInf;
    for (const double x : xs) {
        const double value = sign * horner(q.c, q.count, x);
        if (value > last && (m_knotX.size() == q.knotFirst || x > m_knotX.back())) {
            m_knotX.push_back(x);
            m_knotValue.push_back(value);
            last = value;
        }
    }
    q.knotCount = static_cast<std::uint32_t>(m_knotX.size()) - q.knotFirst;
}

std::size_t EncodePlan::parameterCount() const noexcept
{
    return m_fields.size();
}

inline void EncodePlan::writeRaw(std::span<std::uint8_t> packet, const Field& f, std::uint64_t raw) noexcept
{
    const std::size_t size = packet.size();
    if (f.endByte > size)
        return;
    if (f.flags & kLittleEndian)
        raw = reverseBytes(raw, f.byteCount);
    const unsigned n = f.bitLength;
    const unsigned shift = f.bitOffset % 8;
    const std::size_t first = f.bitOffset / 8;
    if (shift + n <= 64 && first + 8 <= size) {
        // One 64-bit read-modify-write covers the field.
        const unsigned low = 64 - shift - n;
        const std::uint64_t mask = lowBits(n) << low;
        std::uint8_t* p = packet.data() + first;
        const std::uint64_t w = loadBigEndian64(p);
        storeBigEndian64(p, (w & ~mask) | ((raw << low) & mask));
    } else {
        insertBits(packet.data(), f.bitOffset, n, raw);
    }
}

inline std::uint64_t EncodePlan::rawFor(const Field& f, double x) noexcept
{
    switch (f.type) {
    case mdb::DataType::UnsignedInt: {
        if (!(x > 0)) // negative, zero or NaN
            return 0;
        // maxConverted + 0.5 is 2^n - 0.5, or 2^n where doubles are that coarse: both round to max.
        if (x >= f.maxConverted + 0.5)
            return lowBits(f.bitLength);
        auto t = static_cast<std::uint64_t>(x);
        if (x - static_cast<double>(t) >= 0.5) // exact below 2^53; above it x is an integer
            ++t;
        return t;
    }
    case mdb::DataType::SignedInt: {
        const auto maxInt = static_cast<std::int64_t>(lowBits(f.bitLength - 1u));
        std::int64_t t;
        if (x != x)
            t = 0;
        else if (x >= f.maxConverted + 0.5)
            t = maxInt;
        else if (x <= f.minConverted)
            t = -maxInt - 1;
        else {
            t = static_cast<std::int64_t>(x);
            const double frac = x - static_cast<double>(t);
            if (frac >= 0.5)
                ++t;
            else if (frac <= -0.5)
                --t;
        }
        return static_cast<std::uint64_t>(t) & lowBits(f.bitLength);
    }
    case mdb::DataType::SignMagnitudeInt:
    case mdb::DataType::OnesComplementInt: {
        double m = x != x ? 0 : std::min(std::fabs(x), f.maxConverted);
        auto magnitude = static_cast<std::uint64_t>(m);
        if (m - static_cast<double>(magnitude) >= 0.5 && static_cast<double>(magnitude) < f.maxConverted)
            ++magnitude;
        if (!(x < 0) || magnitude == 0)
            return magnitude;
        if (f.type == mdb::DataType::SignMagnitudeInt)
            return (std::uint64_t{1} << (f.bitLength - 1)) | magnitude;
        return ~magnitude & lowBits(f.bitLength);
    }
    case mdb::DataType::Float:
        if (f.bitLength == 32) {
            // A finite value beyond the float range becomes the largest float, not infinity.
            if (x > FLT_MAX && x != kInf)
                x = FLT_MAX;
            else if (x < -FLT_MAX && x != -kInf)
                x = -FLT_MAX;
            return std::bit_cast<std::uint32_t>(static_cast<float>(x));
        }
        return std::bit_cast<std::uint64_t>(x);
    case mdb::DataType::String:
    case mdb::DataType::Bytes:
        break;
    }
    return 0;
}

inline double EncodePlan::calibrate(const Field& f, double x) const noexcept
{
    switch (f.calKind) {
    case CalKind::Polynomial: {
        const Poly& p = m_polys[f.calIndex];
        return horner(p.c, p.count, x);
    }
    case CalKind::PointPair: {
        const Range r = m_tables[f.calIndex];
        return interpolate(m_points.data() + r.first, r.count, x);
    }
    case CalKind::None:
    case CalKind::Enumeration:
        break;
    }
    return x;
}

// Of the values the field holds next to x (x in [lo, hi]), the one whose calibrated value is
// nearest y: for integers floor(x) or floor(x) + 1, for float32 the two floats around x. A float64
// field holds x itself. Only for invertible calibrators (see interpolate).
inline double EncodePlan::nearestRepresentable(const Field& f, double x, double y) const noexcept
{
    if (f.type != mdb::DataType::Float) {
        const double a = std::max(std::floor(x), f.lo);
        const double b = std::min(a + 1, f.hi);
        // Without a branch: which of the two wins is a coin toss.
        const bool takeB = std::fabs(calibrate(f, b) - y) < std::fabs(calibrate(f, a) - y);
        return a + (b - a) * static_cast<double>(takeB);
    }
    if (f.bitLength != 32 || x != x)
        return x;
    const auto near = static_cast<float>(x);
    const double a = near;
    if (a == x)
        return a;
    const double b = std::nextafter(near, a < x ? std::numeric_limits<float>::infinity()
                                                : -std::numeric_limits<float>::infinity());
    if (!(b >= f.lo && b <= f.hi))
        return a;
    return std::fabs(calibrate(f, b) - y) < std::fabs(calibrate(f, a) - y) ? b : a;
}

// Newton's method inside a bracket that every evaluation narrows; a split of the bracket instead
// whenever the Newton step leaves it or did not cut the error to a quarter. The starting bracket is
// the pair of knots around y. Ends when the Newton step is down to a few ulps (for integer fields:
// to 1e-7 counts), when the bracket is down to adjacent doubles, or when the polynomial hits y
// exactly. Returns the best x seen. y lies strictly between p(lo) and p(hi).
double EncodePlan::solvePolynomial(const Field& f, const Poly& p, double y) const noexcept
{
    const double sign = (f.flags & kIncreasing) ? 1.0 : -1.0; // g = sign * (p - y) increases
    const bool isFloat = f.type == mdb::DataType::Float;
    const double floor = isFloat ? DBL_MIN : 1.0;
    const double resolution = isFloat ? 0.0 : 1e-7;
    const double target = sign * y;
    const double* values = m_knotValue.data() + p.knotFirst;
    const double* xs = m_knotX.data() + p.knotFirst;
    // The last knot whose value is <= target (the first knot, lo, is below it): a binary search
    // without branches.
    const double* base = values;
    for (std::uint32_t n = p.knotCount; n > 1;) {
        const std::uint32_t half = n / 2;
        base = base[half] <= target ? base + half : base;
        n -= half;
    }
    const auto j = static_cast<std::size_t>(base - values);
    double a = xs[j];
    double b = f.hi;
    double valueB = sign * p.yHi;
    if (j + 1 < p.knotCount) {
        b = xs[j + 1];
        valueB = values[j + 1];
    }
    // Start where the chord between the knots meets y.
    const double t = (target - values[j]) / (valueB - values[j]);
    double x = (t > 0 && t < 1) ? a * (1 - t) + b * t : splitPoint(a, b, floor);
    if (!(x > a && x < b))
        x = splitPoint(a, b, floor);
    if (!(x > a && x < b))
        return std::fabs(horner(p.c, p.count, b) - y) < std::fabs(horner(p.c, p.count, a) - y) ? b : a;
    double best = x;
    double bestError = kInf;
    double previousError = kInf;
    bool newtonStep = false;
    bool last = false;
    for (int iteration = 0; iteration < 400; ++iteration) {
        const double g = sign * (horner(p.c, p.count, x) - y);
        const double error = std::fabs(g);
        if (error < bestError) {
            bestError = error;
            best = x;
        }
        if (g == 0 || last)
            break;
        (g < 0 ? a : b) = x;
        const double slope = sign * horner(p.d, p.degree, x);
        const double step = g / slope;
        double next = x - step;
        if (slope > 0 && std::fabs(step) <= 4 * DBL_EPSILON * std::fabs(x) + resolution) {
            // A Newton step of a few ulps (or less: then next == x): x is the root to double
            // precision, and the far end of the bracket need not close in. Integer fields only need
            // the root well within one count (the caller picks the integer); floats look at where
            // the step lands too (it may be nearer).
            if (!(next >= a && next <= b) || next == x)
                break;
            if (resolution > 0)
                return next;
            last = true;
            x = next;
            continue;
        }
        const bool slow = newtonStep && error > 0.25 * previousError;
        newtonStep = slope > 0 && next > a && next < b && !slow;
        if (!newtonStep)
            next = splitPoint(a, b, floor);
        previousError = error;
        if (!(next > a && next < b))
            break;
        x = next;
    }
    return best;
}

inline bool EncodePlan::invert(const Field& f, double y, double& x) const noexcept
{
    if (!(f.flags & kInvertible))
        return false;
    if (f.calKind == CalKind::None || y != y) {
        x = y; // the identity; and NaN stays NaN (the field's NaN, or 0 for integers)
        return true;
    }
    const bool increasing = (f.flags & kIncreasing) != 0;
    double r;
    if (f.calKind == CalKind::Polynomial) {
        const Poly& p = m_polys[f.calIndex];
        if (p.degree == 1)
            r = std::clamp((y - p.c[0]) * p.slopeInverse, f.lo, f.hi);
        else if (increasing ? y <= p.yLo : y >= p.yLo)
            r = f.lo;
        else if (increasing ? y >= p.yHi : y <= p.yHi)
            r = f.hi;
        else
            r = solvePolynomial(f, p, y);
    } else { // PointPair: the segment holding y, or the end segment outside the table
        const Range range = m_tables[f.calIndex];
        const mdb::PointPair* pts = m_points.data() + range.first;
        std::uint32_t i = 0; // the segment: how many inner points y is beyond, counted without a branch
        if (increasing)
            for (std::uint32_t k = 1; k + 1 < range.count; ++k)
                i += y > pts[k].calibrated ? 1 : 0;
        else
            for (std::uint32_t k = 1; k + 1 < range.count; ++k)
                i += y < pts[k].calibrated ? 1 : 0;
        r = pts[i].raw
            + (y - pts[i].calibrated) * (pts[i + 1].raw - pts[i].raw) / (pts[i + 1].calibrated - pts[i].calibrated);
        r = std::clamp(r, f.lo, f.hi);
    }
    x = nearestRepresentable(f, r, y);
    return true;
}

EncodePlan::Field EncodePlan::placed(std::span<const std::uint8_t> packet, std::size_t index) const noexcept
{
    Field f = m_fields[index];
    if (!(f.flags & kVariable)) [[likely]]
        return f;
    const DecodePlan::Location at = m_decoder.locate(packet, index);
    if (!at.present) {
        f.endByte = std::numeric_limits<std::uint32_t>::max(); // nowhere: nothing is written
        return f;
    }
    f.bitOffset = at.bitOffset;
    f.endByte = static_cast<std::uint32_t>((std::uint64_t{at.bitOffset} + at.bitLength + 7) / 8);
    if (mdb::isByteSequence(f.type)) {
        f.bytesLength = at.bitLength / 8;
        f.bitLength = static_cast<std::uint8_t>(8 * std::min<std::uint32_t>(std::max<std::uint32_t>(f.bytesLength, 1), 8));
        f.byteCount = static_cast<std::uint8_t>(f.bitLength / 8);
    }
    return f;
}

void EncodePlan::setRaw(std::span<std::uint8_t> packet, std::size_t index, std::uint64_t raw) const noexcept
{
    writeRaw(packet, placed(packet, index), raw);
}

std::uint64_t EncodePlan::rawForConverted(std::size_t index, double converted) const noexcept
{
    return rawFor(m_fields[index], converted);
}

bool EncodePlan::convertedForCalibrated(std::size_t index, double calibrated, double& converted) const noexcept
{
    return invert(m_fields[index], calibrated, converted);
}

void EncodePlan::setConverted(std::span<std::uint8_t> packet, std::size_t index, double converted) const noexcept
{
    if (!mdb::isByteSequence(m_fields[index].type))
        writeRaw(packet, placed(packet, index), rawFor(m_fields[index], converted));
}

bool EncodePlan::setCalibrated(std::span<std::uint8_t> packet, std::size_t index, double calibrated) const noexcept
{
    const Field& f = m_fields[index];
    double converted;
    if (!invert(f, calibrated, converted))
        return false;
    writeRaw(packet, placed(packet, index), rawFor(f, converted));
    return true;
}

bool EncodePlan::setState(std::span<std::uint8_t> packet, std::size_t index, std::size_t stateIndex) const noexcept
{
    const Field& f = m_fields[index];
    if (f.calKind != CalKind::Enumeration)
        return false;
    const Range r = m_stateRanges[f.calIndex];
    if (stateIndex >= r.count || !m_stateWritable[r.first + stateIndex])
        return false;
    writeRaw(packet, placed(packet, index), m_stateCodes[r.first + stateIndex]);
    return true;
}

std::size_t EncodePlan::stateCount(std::size_t index) const noexcept
{
    const Field& f = m_fields[index];
    return f.calKind == CalKind::Enumeration ? m_stateRanges[f.calIndex].count : 0;
}

namespace {

void writeBytesAt(std::span<std::uint8_t> packet, std::uint64_t bitOffset, std::span<const std::uint8_t> bytes,
                  std::size_t length) noexcept
{
    const std::size_t n = std::min(bytes.size(), length);
    if (bitOffset % 8 == 0) {
        std::uint8_t* out = packet.data() + bitOffset / 8;
        if (n > 0)
            std::memmove(out, bytes.data(), n);
        std::memset(out + n, 0, length - n);
    } else {
        for (std::size_t i = 0; i < length; ++i)
            insertBits(packet.data(), static_cast<std::uint32_t>(bitOffset + 8 * i), 8, i < n ? bytes[i] : 0);
    }
}

} // namespace

// A string whose length the packet carries (a terminator after it, or a count before it): as much of
// the text as its bound and the packet allow.
void EncodePlan::writeCountedString(std::span<std::uint8_t> packet, const Field& f, std::uint64_t start,
                                    std::span<const std::uint8_t> bytes) const noexcept
{
    const std::uint64_t available = std::uint64_t{packet.size()} * 8;
    const bool leading = f.sizeKind == mdb::SizeKind::LeadingSize;
    const std::uint64_t overhead = leading ? f.leadingSizeBits : 8u;
    if (start + overhead > available)
        return;
    std::uint64_t n = std::min<std::uint64_t>(bytes.size(), (available - start - overhead) / 8);
    if (f.maxBytes != 0)
        n = std::min<std::uint64_t>(n, f.maxBytes);
    if (leading) {
        n = std::min<std::uint64_t>(n, lowBits(f.leadingSizeBits));
        insertBits(packet.data(), static_cast<std::uint32_t>(start), f.leadingSizeBits, n);
        writeBytesAt(packet, start + f.leadingSizeBits, bytes, n);
    } else {
        writeBytesAt(packet, start, bytes, n);
        insertBits(packet.data(), static_cast<std::uint32_t>(start + 8 * n), 8, f.terminator);
    }
}

void EncodePlan::setBytes(std::span<std::uint8_t> packet, std::size_t index,
                          std::span<const std::uint8_t> bytes) const noexcept
{
    if (!mdb::isByteSequence(m_fields[index].type))
        return;
    const Field& def = m_fields[index];
    if (def.sizeKind == mdb::SizeKind::Terminated || def.sizeKind == mdb::SizeKind::LeadingSize) {
        // Its start, not its current size: what was written there before does not matter.
        const DecodePlan::Location at = m_decoder.locate(packet, index);
        if (at.startKnown)
            writeCountedString(packet, def, at.startBit, bytes);
        return;
    }
    const Field f = placed(packet, index);
    if (f.endByte > packet.size())
        return;
    writeBytesAt(packet, f.bitOffset, bytes, f.bytesLength);
}

void EncodePlan::setString(std::span<std::uint8_t> packet, std::size_t index, std::string_view text) const noexcept
{
    setBytes(packet, index, std::span(reinterpret_cast<const std::uint8_t*>(text.data()), text.size()));
}

bool EncodePlan::invertible(std::size_t index) const noexcept
{
    return (m_fields[index].flags & kInvertible) != 0;
}

double EncodePlan::minConverted(std::size_t index) const noexcept
{
    return m_fields[index].minConverted;
}

double EncodePlan::maxConverted(std::size_t index) const noexcept
{
    return m_fields[index].maxConverted;
}

} // namespace telestation::decode
