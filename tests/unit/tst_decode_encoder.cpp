// EncodePlan, checked against the decoder: what the encoder writes, DecodePlan reads back. Every data
// type at aligned and unaligned offsets in both byte orders (raw, converted: rounding and clamping);
// strings and bytes; each calibrator inverted (linear and non-linear polynomials, increasing and
// decreasing, point tables at and beyond their ends), with the decoded calibrated value the nearest
// the field can hold; non-invertible calibrators refused; enumeration states; definitions refused like
// the decoder refuses them; the whole training mission database; and no allocation per call. Every
// write must leave the packet's other bits as they were.
#include "tests/support/allocation_counter.hpp"
#include "tests/support/model_builders.hpp"
#include "core/decode/bits.hpp"
#include "core/decode/decode_plan.hpp"
#include "core/decode/encoder.hpp"
#include "core/mdb/text_format.hpp"
#include "tests/support/training_mission.hpp"

#include <QtTest>

#include <atomic>
#include <bit>
#include <cfloat>
#include <cmath>
#include <cstdlib>
#include <limits>
#include <new>
#include <random>
#include <string>
#include <vector>


using namespace telestation;
using namespace telestation::decode;
using mdb::DataType;

namespace {

using test::makeParameter;

constexpr double kInf = std::numeric_limits<double>::infinity();
constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

std::uint64_t lowBits(unsigned n)
{
    return n >= 64 ? ~std::uint64_t{0} : (std::uint64_t{1} << n) - 1;
}

mdb::ParameterDef param(std::string name, std::uint32_t offset, std::uint32_t bits, DataType type,
                        mdb::Calibrator calibrator = {})
{
    auto p = makeParameter(std::move(name), offset, bits, type);
    p.calibrator = std::move(calibrator);
    return p;
}

mdb::Calibrator poly(std::vector<double> c)
{
    return mdb::PolynomialCalibrator{std::move(c)};
}

mdb::Calibrator points(std::vector<mdb::PointPair> pts)
{
    return mdb::PointPairCalibrator{std::move(pts)};
}

// A packet definition with both plans compiled from it.
struct Codec {
    mdb::PacketDef def;
    EncodePlan enc;
    DecodePlan dec;
    std::size_t size = 0;
};

Codec makeCodec(mdb::PacketDef def, std::size_t size)
{
    auto enc = EncodePlan::compile(def);
    auto dec = DecodePlan::compile(def);
    if (!enc.ok() || !dec.ok())
        qFatal("compile failed: %s", enc.ok() ? dec.error().message.c_str() : enc.error().message.c_str());
    return Codec{std::move(def), std::move(enc).value(), std::move(dec).value(), size};
}

// One parameter in a packet of `size` bytes (default: room after the field).
Codec single(mdb::ParameterDef p, std::size_t size = 0)
{
    if (size == 0)
        size = (std::uint64_t{p.bitOffset} + p.bitLength + 7) / 8 + 16;
    mdb::PacketDef def;
    def.name = "P";
    def.apid = 7;
    def.length = static_cast<std::uint32_t>(size);
    def.parameters.push_back(std::move(p));
    return makeCodec(std::move(def), size);
}

std::vector<std::uint8_t> fieldMask(std::size_t size, const mdb::ParameterDef& p)
{
    std::vector<std::uint8_t> mask(size, 0);
    for (std::uint64_t b = p.bitOffset; b < std::uint64_t{p.bitOffset} + p.bitLength && b / 8 < size; ++b)
        mask[b / 8] |= static_cast<std::uint8_t>(0x80u >> (b % 8));
    return mask;
}

bool othersUnchanged(const std::vector<std::uint8_t>& before, const std::vector<std::uint8_t>& after,
                     const std::vector<std::uint8_t>& mask)
{
    for (std::size_t i = 0; i < before.size(); ++i)
        if ((before[i] ^ after[i]) & ~mask[i] & 0xFF)
            return false;
    return true;
}

// The raw values next to the one decoded (integers +-1, floats the adjacent ones), within the field.
std::vector<std::uint64_t> neighbourRaws(const mdb::ParameterDef& p, const DecodedValue& v)
{
    std::vector<std::uint64_t> out;
    switch (p.type) {
    case DataType::UnsignedInt: {
        const std::uint64_t k = v.converted.u;
        if (k > 0)
            out.push_back(k - 1);
        if (k < lowBits(p.bitLength))
            out.push_back(k + 1);
        break;
    }
    case DataType::SignedInt: {
        const std::int64_t k = v.converted.i;
        const auto max = static_cast<std::int64_t>(lowBits(p.bitLength - 1));
        if (k > -max - 1)
            out.push_back(static_cast<std::uint64_t>(k - 1));
        if (k < max)
            out.push_back(static_cast<std::uint64_t>(k + 1));
        break;
    }
    case DataType::Float:
        if (p.bitLength == 32) {
            const auto f = static_cast<float>(v.converted.f);
            if (std::isfinite(f))
                for (const float dir : {-std::numeric_limits<float>::infinity(), std::numeric_limits<float>::infinity()})
                    out.push_back(std::bit_cast<std::uint32_t>(std::nextafter(f, dir)));
        } else if (std::isfinite(v.converted.f)) {
            for (const double dir : {-kInf, kInf})
                out.push_back(std::bit_cast<std::uint64_t>(std::nextafter(v.converted.f, dir)));
        }
        break;
    case DataType::String:
    case DataType::Bytes:
    case DataType::SignMagnitudeInt: // not generated by this test's random definitions
    case DataType::OnesComplementInt:
        break;
    }
    return out;
}

// The magnitude of what the decoder adds up to get a calibrated value: its rounding errors scale
// with it (polynomials: the sum of |term|).
double evaluationScale(const mdb::ParameterDef& p, double x, double y)
{
    double scale = std::fabs(y);
    if (const auto* c = std::get_if<mdb::PolynomialCalibrator>(&p.calibrator)) {
        double xk = 1;
        for (const double ck : c->coefficients) {
            scale += std::fabs(ck) * xk;
            xk *= std::fabs(x);
        }
    }
    return scale;
}

// What a float field reads back: float32 rounds to nearest, finite values beyond its range become
// +-FLT_MAX.
double expectedFloat(unsigned bits, double x)
{
    if (bits == 64)
        return x;
    if (std::isfinite(x) && std::fabs(x) > FLT_MAX)
        x = std::copysign(double{FLT_MAX}, x);
    return static_cast<float>(x);
}

double converted(const mdb::ParameterDef& p, const DecodedValue& v)
{
    switch (p.type) {
    case DataType::UnsignedInt: return static_cast<double>(v.converted.u);
    case DataType::SignedInt: return static_cast<double>(v.converted.i);
    default: return v.converted.f;
    }
}

// Encodes `y` into parameter i of `bytes` with setCalibrated and checks the decoder's reading: the raw
// bits rawForConverted(convertedForCalibrated(y)), the other bits untouched, and a calibrated value
// at least as near y as the calibrated values of the neighbouring raw values (so within half the
// calibration's resolution at that point, or the end of the reachable range). Returns "" or what
// went wrong.
QString checkCalibrated(const Codec& c, std::size_t i, double y, std::vector<std::uint8_t>& bytes,
                        DecodedValue* decoded = nullptr)
{
    const mdb::ParameterDef& p = c.def.parameters[i];
    const auto where = QStringLiteral("%1 y=%2: ").arg(QString::fromStdString(p.name)).arg(y, 0, 'g', 17);
    const std::vector<std::uint8_t> before = bytes;
    double x = 1234.5;
    if (!c.enc.convertedForCalibrated(i, y, x))
        return where + "convertedForCalibrated refused";
    if (!c.enc.setCalibrated(bytes, i, y))
        return where + "setCalibrated refused";
    const DecodedValue v = c.dec.decodeOne(bytes, i);
    if (decoded)
        *decoded = v;
    if (!v.present)
        return where + "absent";
    if (v.raw != c.enc.rawForConverted(i, x))
        return where + QStringLiteral("raw %1, rawForConverted(%2) %3").arg(v.raw).arg(x).arg(c.enc.rawForConverted(i, x));
    if (!othersUnchanged(before, bytes, fieldMask(bytes.size(), p)))
        return where + "bits outside the field changed";
    if (y != y)
        return {};
    const double got = v.calibrated;
    for (const std::uint64_t n : neighbourRaws(p, v)) {
        std::vector<std::uint8_t> copy = bytes;
        c.enc.setRaw(copy, i, n);
        const double other = c.dec.decodeOne(copy, i).calibrated;
        if (!std::isfinite(other))
            continue;
        const double slack = 1e-9 * std::fabs(got - other) + 16 * DBL_EPSILON * evaluationScale(p, converted(p, v), y);
        if (std::fabs(got - y) > std::fabs(other - y) + slack)
            return where
                + QStringLiteral("decodes to %1 (raw %2), a neighbour (raw %3) to %4")
                      .arg(got, 0, 'g', 17)
                      .arg(v.raw)
                      .arg(n)
                      .arg(other, 0, 'g', 17);
    }
    return {};
}

// The calibrated values at the two ends of an integer field (decoded from its extreme raw values).
std::pair<double, double> integerEnds(const Codec& c, std::size_t i, std::vector<std::uint8_t> bytes)
{
    const auto& p = c.def.parameters[i];
    const std::uint64_t lowRaw = p.type == DataType::SignedInt ? std::uint64_t{1} << (p.bitLength - 1) : 0;
    const std::uint64_t highRaw = p.type == DataType::SignedInt ? lowBits(p.bitLength - 1) : lowBits(p.bitLength);
    c.enc.setRaw(bytes, i, lowRaw);
    const double low = c.dec.decodeOne(bytes, i).calibrated;
    c.enc.setRaw(bytes, i, highRaw);
    const double high = c.dec.decodeOne(bytes, i).calibrated;
    return {low, high};
}

} // namespace

class TestEncoder : public QObject {
    Q_OBJECT

private slots:
    void integerFields()
    {
        std::size_t checked = 0;
        for (const DataType type : {DataType::UnsignedInt, DataType::SignedInt}) {
            for (unsigned bits = 1; bits <= 64; ++bits) {
                for (const unsigned shift : {0u, 1u, 3u, 7u}) {
                    for (const auto order : {mdb::ByteOrder::BigEndian, mdb::ByteOrder::LittleEndian}) {
                        if (order == mdb::ByteOrder::LittleEndian && bits % 8 != 0 && shift + bits > 8)
                            continue; // the decoder refuses it
                        for (const bool tight : {false, true}) {
                            auto p = param("F", 56 + shift, bits, type);
                            p.byteOrder = order;
                            // tight: the field ends the packet (the encoder's byte-wise path)
                            const std::size_t size = (56 + shift + bits + 7) / 8 + (tight ? 0 : 16);
                            const Codec c = single(p, size);
                            checkIntegerField(c, type, bits);
                            if (QTest::currentTestFailed()) {
                                qWarning("type %d, %u bits at %u, %s, %s", int(type), bits, 56 + shift,
                                         order == mdb::ByteOrder::LittleEndian ? "little-endian" : "big-endian",
                                         tight ? "at the packet end" : "room after");
                                return;
                            }
                            ++checked;
                        }
                    }
                }
            }
        }
        QVERIFY(checked > 700);
    }

    void floatFields()
    {
        const float denormal = std::numeric_limits<float>::denorm_min();
        const std::vector<double> values = {0.0, -0.0, 1.0, -1.5, 0.1, 1.0 / 3, 123456.789, -9.87e-20,
            double{FLT_MIN}, double{denormal}, 1e-300, double{FLT_MAX}, -double{FLT_MAX}, 1e39, -1e39,
            DBL_MAX, -DBL_MAX, kInf, -kInf, 5e-324};
        for (const unsigned bits : {32u, 64u}) {
            for (const unsigned shift : {0u, 3u, 8u}) {
                for (const auto order : {mdb::ByteOrder::BigEndian, mdb::ByteOrder::LittleEndian}) {
                    for (const bool tight : {false, true}) {
                        auto p = param("F", 56 + shift, bits, DataType::Float);
                        p.byteOrder = order;
                        const Codec c = single(p, (56 + shift + bits + 7) / 8 + (tight ? 0 : 16));
                        QCOMPARE(c.enc.maxConverted(0), bits == 32 ? double{FLT_MAX} : DBL_MAX);
                        QCOMPARE(c.enc.minConverted(0), bits == 32 ? -double{FLT_MAX} : -DBL_MAX);
                        QVERIFY(c.enc.invertible(0));
                        std::vector<double> all = values;
                        std::uniform_real_distribution<double> mantissa(-10, 10);
                        std::uniform_int_distribution<int> exponent(bits == 32 ? -45 : -320, bits == 32 ? 38 : 307);
                        for (int k = 0; k < 50; ++k)
                            all.push_back(mantissa(m_rng) * std::pow(10.0, exponent(m_rng)));
                        const auto mask = fieldMask(c.size, p);
                        for (const double x : all) {
                            const double expected = expectedFloat(bits, x);
                            for (const bool calibrated : {false, true}) {
                                std::vector<std::uint8_t> bytes = randomBytes(c.size);
                                const auto before = bytes;
                                if (calibrated)
                                    QVERIFY(c.enc.setCalibrated(bytes, 0, x));
                                else
                                    c.enc.setConverted(bytes, 0, x);
                                const DecodedValue v = c.dec.decodeOne(bytes, 0);
                                QVERIFY2(std::bit_cast<std::uint64_t>(v.converted.f) == std::bit_cast<std::uint64_t>(expected),
                                         qPrintable(QStringLiteral("%1 bits: %2 -> %3, expected %4")
                                                        .arg(bits).arg(x).arg(v.converted.f).arg(expected)));
                                QVERIFY(othersUnchanged(before, bytes, mask));
                            }
                        }
                        // NaN stays NaN; raw bits round-trip as they are.
                        std::vector<std::uint8_t> bytes = randomBytes(c.size);
                        c.enc.setConverted(bytes, 0, kNaN);
                        QVERIFY(std::isnan(c.dec.decodeOne(bytes, 0).converted.f));
                        const std::uint64_t raw = m_rng() & lowBits(bits);
                        c.enc.setRaw(bytes, 0, raw);
                        QCOMPARE(c.dec.decodeOne(bytes, 0).raw, raw);
                        QCOMPARE(c.enc.rawForConverted(0, 1.5),
                                 bits == 32 ? std::uint64_t{std::bit_cast<std::uint32_t>(1.5f)} : std::bit_cast<std::uint64_t>(1.5));
                    }
                }
            }
        }
    }

    void stringsAndBytes()
    {
        for (const DataType type : {DataType::String, DataType::Bytes}) {
            for (const std::uint32_t length : {1u, 5u, 8u, 12u, 32u}) {
                for (const unsigned shift : {0u, 5u}) {
                    for (const bool tight : {false, true}) {
                        const auto p = param("S", 56 + shift, 8 * length, type);
                        const Codec c = single(p, (56 + shift + 8 * length + 7) / 8 + (tight ? 0 : 16));
                        const auto mask = fieldMask(c.size, p);
                        QVERIFY(!c.enc.invertible(0));
                        double x = 7;
                        QVERIFY(!c.enc.convertedForCalibrated(0, 1.0, x));
                        QCOMPARE(x, 7.0);
                        QCOMPARE(c.enc.rawForConverted(0, 3.0), std::uint64_t{0});
                        for (const std::string& text : {std::string{}, std::string("A"), std::string("hello"),
                                                        std::string("exactly8"), std::string(40, 'x'),
                                                        std::string("with\0nul", 8)}) {
                            std::vector<std::uint8_t> bytes = randomBytes(c.size);
                            const auto before = bytes;
                            if (type == DataType::String) {
                                c.enc.setString(bytes, 0, text);
                            } else {
                                const auto* data = reinterpret_cast<const std::uint8_t*>(text.data());
                                c.enc.setBytes(bytes, 0, std::span(data, text.size()));
                            }
                            std::vector<std::uint8_t> read(length + 4, 0xEE);
                            QCOMPARE(c.dec.extractBytes(bytes, 0, read), std::size_t{length});
                            for (std::size_t k = 0; k < length; ++k)
                                QCOMPARE(read[k], k < text.size() ? static_cast<std::uint8_t>(text[k]) : std::uint8_t{0});
                            if (type == DataType::String) {
                                std::string shown = text.substr(0, std::min<std::size_t>(text.size(), length));
                                while (!shown.empty() && shown.back() == '\0')
                                    shown.pop_back();
                                QCOMPARE(c.dec.stringValue(bytes, 0), shown);
                            }
                            QVERIFY(othersUnchanged(before, bytes, mask));
                            // setConverted and setCalibrated leave a string alone.
                            const auto written = bytes;
                            c.enc.setConverted(bytes, 0, 65.0);
                            QVERIFY(!c.enc.setCalibrated(bytes, 0, 65.0));
                            QVERIFY(bytes == written);
                        }
                        // Raw: the first min(8, length) bytes, right-aligned.
                        std::vector<std::uint8_t> bytes = randomBytes(c.size);
                        const auto before = bytes;
                        const unsigned rawBits = 8 * std::min(length, 8u);
                        const std::uint64_t raw = m_rng() & lowBits(rawBits);
                        c.enc.setRaw(bytes, 0, raw | ~lowBits(rawBits));
                        QCOMPARE(c.dec.decodeOne(bytes, 0).raw, raw);
                        QVERIFY(othersUnchanged(before, bytes, fieldMask(c.size, param("S", 56 + shift, rawBits, type))));
                    }
                }
            }
        }
    }

    void fieldsPastThePacketEndAreLeftAlone()
    {
        const Codec c = single(param("F", 56, 16, DataType::UnsignedInt, poly({0, 2})), 64);
        const Codec s = single(param("S", 56, 64, DataType::String), 64);
        std::vector<std::uint8_t> bytes = randomBytes(8); // the fields need 9 and 15 bytes
        const auto before = bytes;
        c.enc.setRaw(bytes, 0, 0xFFFF);
        c.enc.setConverted(bytes, 0, 7);
        QVERIFY(c.enc.setCalibrated(bytes, 0, 7));
        s.enc.setString(bytes, 0, "text");
        s.enc.setRaw(bytes, 0, 1);
        QVERIFY(bytes == before);
    }

    void linearPolynomials()
    {
        // Increasing, 12 bits across a byte boundary: rounding to the nearest raw value, clamping.
        const Codec flow = single(param("FLOW", 50, 12, DataType::UnsignedInt, poly({0, 0.05})));
        QVERIFY(flow.enc.invertible(0));
        QCOMPARE(calibratedRaw(flow, 1.024), std::uint64_t{20}); // 20.48
        QCOMPARE(calibratedRaw(flow, 1.03), std::uint64_t{21});  // 20.6
        QCOMPARE(calibratedRaw(flow, 0.0), std::uint64_t{0});
        QCOMPARE(calibratedRaw(flow, -5.0), std::uint64_t{0});
        QCOMPARE(calibratedRaw(flow, 204.75), std::uint64_t{4095});
        QCOMPARE(calibratedRaw(flow, 1e9), std::uint64_t{4095});
        QCOMPARE(calibratedRaw(flow, kInf), std::uint64_t{4095});
        QCOMPARE(calibratedRaw(flow, -kInf), std::uint64_t{0});
        double x = 0;
        QVERIFY(flow.enc.convertedForCalibrated(0, kNaN, x));
        QVERIFY(std::isnan(x));
        QCOMPARE(flow.enc.rawForConverted(0, x), std::uint64_t{0});
        QCOMPARE(flow.enc.minConverted(0), 0.0);
        QCOMPARE(flow.enc.maxConverted(0), 4095.0);
        checkEveryRawRoundTrips(flow);

        // Signed, little-endian, negative values.
        auto signedParam = param("TEMP", 48, 16, DataType::SignedInt, poly({0, 0.01}));
        signedParam.byteOrder = mdb::ByteOrder::LittleEndian;
        const Codec temp = single(signedParam);
        QCOMPARE(calibratedConverted(temp, -12.346), -1235.0);
        QCOMPARE(calibratedConverted(temp, -12.344), -1234.0);
        QCOMPARE(calibratedConverted(temp, 12.344), 1234.0);
        QCOMPARE(calibratedConverted(temp, -400.0), -32768.0);
        QCOMPARE(calibratedConverted(temp, 400.0), 32767.0);
        sweep(temp, -327.68, 327.67);

        // Decreasing, with an offset.
        const Codec down = single(param("DOWN", 51, 8, DataType::UnsignedInt, poly({100, -0.5})));
        QVERIFY(down.enc.invertible(0));
        QCOMPARE(calibratedRaw(down, 100.0), std::uint64_t{0});
        QCOMPARE(calibratedRaw(down, 0.0), std::uint64_t{200});
        QCOMPARE(calibratedRaw(down, 37.3), std::uint64_t{125}); // 125.4
        QCOMPARE(calibratedRaw(down, 37.1), std::uint64_t{126}); // 125.8
        QCOMPARE(calibratedRaw(down, -50.0), std::uint64_t{255});
        QCOMPARE(calibratedRaw(down, 200.0), std::uint64_t{0});
        checkEveryRawRoundTrips(down);

        // A 64-bit field: values far beyond 2^53.
        const Codec wide = single(param("WIDE", 48, 64, DataType::UnsignedInt, poly({-1e6, 1e-9})));
        sweep(wide, -1e6, 1.7e10);
        const Codec wideSigned = single(param("WIDE", 52, 64, DataType::SignedInt, poly({5, -3})));
        sweep(wideSigned, -2.7e19, 2.7e19);

        // Floats.
        const Codec f32 = single(param("F32", 51, 32, DataType::Float, poly({1, 3})));
        QCOMPARE(calibratedConverted(f32, 10.0), 3.0);
        sweep(f32, -1e30, 1e30);
        sweep(f32, -10, 10);
        const Codec f64 = single(param("F64", 48, 64, DataType::Float, poly({-2, 0.25})));
        QCOMPARE(calibratedConverted(f64, 0.5), 10.0);
        sweep(f64, -1e300, 1e300);
        sweep(f64, -3, 3);
    }

    void nonLinearPolynomials()
    {
        // The thermistor fit of the training database (increasing over the whole 16-bit range), and
        // its mirror image (decreasing).
        const Codec thermistor =
            single(param("T", 48, 16, DataType::UnsignedInt, poly({-55.2, 0.0621, -1.05e-5, 1.6e-9})));
        QVERIFY(thermistor.enc.invertible(0));
        checkEveryRawRoundTrips(thermistor);
        const auto [low, high] = integerEnds(thermistor, 0, std::vector<std::uint8_t>(thermistor.size));
        sweep(thermistor, low - 10, high + 10);
        const Codec mirror =
            single(param("M", 53, 16, DataType::UnsignedInt, poly({55.2, -0.0621, 1.05e-5, -1.6e-9})));
        QVERIFY(mirror.enc.invertible(0));
        checkEveryRawRoundTrips(mirror);
        QCOMPARE(calibratedRaw(mirror, 1e6), std::uint64_t{0});
        QCOMPARE(calibratedRaw(mirror, -1e6), std::uint64_t{65535});
        sweep(mirror, -high - 10, -low + 10);

        // x^3: the derivative vanishes at 0 but the polynomial is monotonic.
        const Codec cube = single(param("C", 48, 16, DataType::SignedInt, poly({0, 0, 0, 1e-9})));
        QVERIFY(cube.enc.invertible(0));
        checkEveryRawRoundTrips(cube);
        sweep(cube, -40, 40);
        // 5th order, monotonic, on a 32-bit field.
        const Codec quintic = single(param("Q", 61, 32, DataType::SignedInt, poly({3, 1, 0, 0, 0, 1e-40})));
        QVERIFY(quintic.enc.invertible(0));
        sweep(quintic, -5e6, 5e6);
        // A parabola whose vertex is at the end of the field's range (0) is monotonic over it...
        const Codec half = single(param("H", 48, 12, DataType::UnsignedInt, poly({-7, 0, 0.5})));
        QVERIFY(half.enc.invertible(0));
        checkEveryRawRoundTrips(half);
        sweep(half, -10, 9e6);
        // ...one with its vertex outside the range too...
        const Codec shifted = single(param("S", 48, 16, DataType::UnsignedInt, poly({10, 2, 0.001})));
        QVERIFY(shifted.enc.invertible(0));
        sweep(shifted, 0, 4.4e6);
        // ...but not one whose vertex is inside.
        expectNotInvertible(single(param("N", 48, 16, DataType::SignedInt, poly({-7, 0, 0.5}))));
        expectNotInvertible(single(param("N", 48, 16, DataType::UnsignedInt, poly({10, -2, 0.001}))));
        // Two turning points inside (x^3 - 3x at +-1), even on an unsigned field (x = 1).
        expectNotInvertible(single(param("N", 48, 8, DataType::SignedInt, poly({0, -3, 0, 1}))));
        expectNotInvertible(single(param("N", 48, 8, DataType::UnsignedInt, poly({0, -3, 0, 1}))));
        // A dip that no sample point hits, only the root of p'' (100.5) reveals: p' = (x - 100.5)^2 - 0.01
        // is negative on (100.4, 100.6) only.
        expectNotInvertible(single(param("N", 48, 16, DataType::UnsignedInt, poly({0, 10100.24, -100.5, 1.0 / 3}))));
        // Without the dip (p' = (x - 100.5)^2 + 0.01) it is monotonic.
        const Codec noDip = single(param("D", 48, 16, DataType::UnsignedInt, poly({0, 10100.26, -100.5, 1.0 / 3})));
        QVERIFY(noDip.enc.invertible(0));
        sweep(noDip, 0, 1e6);
        // Constants.
        expectNotInvertible(single(param("K", 48, 16, DataType::UnsignedInt, poly({5}))));
        expectNotInvertible(single(param("K", 48, 16, DataType::UnsignedInt, poly({5, 0, 0}))));

        // Floats: increasing and decreasing cubics over huge ranges.
        const Codec f32 = single(param("F", 51, 32, DataType::Float, poly({1, 2, 0, 0.5})));
        QVERIFY(f32.enc.invertible(0));
        sweep(f32, -1e100, 1e100);
        sweep(f32, -100, 100);
        sweep(f32, -1e-3, 1e-3);
        // Beyond the calibrated value of FLT_MAX: clamped to it.
        QCOMPARE(calibratedConverted(f32, 1e200), double{FLT_MAX});
        QCOMPARE(calibratedConverted(f32, -kInf), -double{FLT_MAX});
        const Codec f64 = single(param("G", 48, 64, DataType::Float, poly({4, -1, 0, -1})));
        QVERIFY(f64.enc.invertible(0));
        sweep(f64, -1e300, 1e300);
        sweep(f64, -1e6, 1e6);
        sweep(f64, 3.9, 4.1);
        double x = 0;
        QVERIFY(f64.enc.convertedForCalibrated(0, 4.0, x));
        QCOMPARE(x, 0.0);
        // Beyond what the polynomial reaches with a finite value: the finite end, monotonically.
        double hugeX = 0;
        double hugerX = 0;
        QVERIFY(f64.enc.convertedForCalibrated(0, -1e300, hugeX));
        QVERIFY(f64.enc.convertedForCalibrated(0, -kInf, hugerX));
        QVERIFY(std::isfinite(hugerX) && hugerX >= hugeX && hugeX > 1e99);
        std::vector<std::uint8_t> bytes(f64.size);
        QVERIFY(f64.enc.setCalibrated(bytes, 0, -kInf));
        QVERIFY(std::isfinite(f64.dec.decodeOne(bytes, 0).calibrated));
    }

    void pointPairTables()
    {
        // Increasing (the training database's coldplate thermistor), 12 bits of a 16-bit field.
        const Codec cold = single(param("COLD", 48, 12, DataType::UnsignedInt,
                                        points({{0, -10.0}, {1200, 5.0}, {2600, 22.5}, {4095, 41.8}})));
        QVERIFY(cold.enc.invertible(0));
        for (const auto& [raw, cal] : std::vector<std::pair<std::uint64_t, double>>{
                 {0, -10.0}, {1200, 5.0}, {2600, 22.5}, {4095, 41.8}})
            QCOMPARE(calibratedRaw(cold, cal), raw);
        QCOMPARE(calibratedRaw(cold, -10.5), std::uint64_t{0});   // below the table and the field
        QCOMPARE(calibratedRaw(cold, 50.0), std::uint64_t{4095});  // above both
        QCOMPARE(calibratedRaw(cold, 13.75), std::uint64_t{1900}); // between points
        checkEveryRawRoundTrips(cold);
        sweep(cold, -11, 43);

        // Decreasing (the laser diode's), on 16 bits: the field reaches beyond the table at both ends.
        const Codec laser = single(param("LASER", 53, 16, DataType::UnsignedInt,
                                         points({{400, 60.0}, {800, 42.5}, {1400, 30.1}, {2000, 22.0},
                                                 {2800, 12.8}, {3600, 1.5}})));
        QVERIFY(laser.enc.invertible(0));
        QCOMPARE(calibratedRaw(laser, 60.0), std::uint64_t{400});
        QCOMPARE(calibratedRaw(laser, 1.5), std::uint64_t{3600});
        QCOMPARE(calibratedRaw(laser, 42.5), std::uint64_t{800});
        QCOMPARE(calibratedRaw(laser, 70.0), std::uint64_t{171});  // 400 - 10 * 400 / 17.5 = 171.4
        QCOMPARE(calibratedRaw(laser, -5.0), std::uint64_t{4060}); // 3600 + 6.5 * 800 / 11.3 = 4060.2
        QCOMPARE(calibratedRaw(laser, 200.0), std::uint64_t{0});    // clamped: the field ends at 0
        QCOMPARE(calibratedRaw(laser, -1e9), std::uint64_t{65535});
        checkEveryRawRoundTrips(laser);
        sweep(laser, -1000, 80);

        // Signed field, table through zero, extrapolation clamped at the field's ends.
        const Codec s = single(param("S", 48, 8, DataType::SignedInt, points({{-100, -50}, {0, 10}, {100, 50}})));
        QCOMPARE(calibratedConverted(s, -70.0), -128.0);
        QCOMPARE(calibratedConverted(s, 10.0), 0.0);
        QCOMPARE(calibratedConverted(s, 60.0), 125.0);
        QCOMPARE(calibratedConverted(s, 61.0), 127.0);
        checkEveryRawRoundTrips(s);
        sweep(s, -80, 70);

        // Floats.
        const Codec f = single(param("F", 51, 32, DataType::Float, points({{-1, 100}, {0, 0}, {2, -1}})));
        QVERIFY(f.enc.invertible(0));
        QCOMPARE(calibratedConverted(f, 0.0), 0.0);
        QCOMPARE(calibratedConverted(f, -1.0), 2.0);
        QCOMPARE(calibratedConverted(f, -3.0), 6.0);  // beyond the last point
        QCOMPARE(calibratedConverted(f, 300.0), -3.0); // beyond the first
        sweep(f, -1e30, 1e30);
        sweep(f, -5, 150);
        const Codec g = single(param("G", 48, 64, DataType::Float, points({{0, 0}, {1, 1e-3}, {2, 1}})));
        sweep(g, -10, 10);

        // Not strictly monotonic: refused.
        expectNotInvertible(single(param("N", 48, 16, DataType::UnsignedInt, points({{0, 0}, {10, 5}, {20, 3}}))));
        expectNotInvertible(single(param("N", 48, 16, DataType::UnsignedInt, points({{0, 0}, {10, 5}, {20, 5}}))));
    }

    void enumerations()
    {
        mdb::EnumerationCalibrator modes;
        modes.states = {{0, 0, "OFF"}, {1, 1, "BOOT"}, {3, 6, "SCIENCE"}, {9, 14, "SAFE"}, {15, 15, "FAULT"}};
        const Codec c = single(param("MODE", 97, 4, DataType::UnsignedInt, modes));
        QCOMPARE(c.enc.stateCount(0), std::size_t{5});
        QVERIFY(!c.enc.invertible(0));
        const auto mask = fieldMask(c.size, c.def.parameters[0]);
        for (std::size_t s = 0; s < modes.states.size(); ++s) {
            std::vector<std::uint8_t> bytes = randomBytes(c.size);
            const auto before = bytes;
            QVERIFY(c.enc.setState(bytes, 0, s));
            const DecodedValue v = c.dec.decodeOne(bytes, 0);
            QCOMPARE(v.state, static_cast<std::int32_t>(s));
            QCOMPARE(v.raw, static_cast<std::uint64_t>(modes.states[s].low));
            QCOMPARE(c.dec.stateText(0, v), std::string_view(modes.states[s].text));
            QVERIFY(othersUnchanged(before, bytes, mask));
        }
        std::vector<std::uint8_t> bytes = randomBytes(c.size);
        const auto before = bytes;
        QVERIFY(!c.enc.setState(bytes, 0, 5));
        QVERIFY(!c.enc.setState(bytes, 0, 1000));
        double x = 42;
        QVERIFY(!c.enc.convertedForCalibrated(0, 3.0, x));
        QCOMPARE(x, 42.0);
        QVERIFY(!c.enc.setCalibrated(bytes, 0, 3.0));
        QVERIFY(bytes == before);
        // The code itself can still be written as a converted value.
        c.enc.setConverted(bytes, 0, 12);
        QCOMPARE(c.dec.decodeOne(bytes, 0).state, 3);

        // Negative codes in a signed field; a 64-bit unsigned field holding the code -1 as all ones.
        mdb::EnumerationCalibrator signedStates;
        signedStates.states = {{-5, -5, "NEG"}, {-1, 2, "AROUND_ZERO"}, {3, 3, "POS"}};
        const Codec sc = single(param("E", 50, 8, DataType::SignedInt, signedStates));
        mdb::EnumerationCalibrator wideStates;
        wideStates.states = {{-1, -1, "ALL_ONES"}, {0, 0, "ZERO"}, {std::numeric_limits<std::int64_t>::max(),
                                                                    std::numeric_limits<std::int64_t>::max(), "MAX"}};
        const Codec wc = single(param("W", 53, 64, DataType::UnsignedInt, wideStates));
        for (const Codec* e : {&sc, &wc}) {
            for (std::size_t s = 0; s < e->enc.stateCount(0); ++s) {
                std::vector<std::uint8_t> b = randomBytes(e->size);
                QVERIFY(e->enc.setState(b, 0, s));
                QCOMPARE(e->dec.decodeOne(b, 0).state, static_cast<std::int32_t>(s));
            }
        }
        std::vector<std::uint8_t> b = randomBytes(wc.size);
        QVERIFY(wc.enc.setState(b, 0, 0));
        QCOMPARE(wc.dec.decodeOne(b, 0).raw, ~std::uint64_t{0});

        // Definitions validation refuses but the decoder runs: overlapping states (the decoder takes
        // the first match) and codes the field cannot hold.
        mdb::EnumerationCalibrator odd;
        odd.states = {{0, 5, "A"}, {3, 8, "B"}, {1, 2, "INSIDE_A"}, {2, 9, "PART"}, {16, 20, "TOO_BIG"}};
        const Codec oc = single(param("O", 48, 4, DataType::UnsignedInt, odd));
        std::vector<std::uint8_t> ob = randomBytes(oc.size);
        QVERIFY(oc.enc.setState(ob, 0, 0));
        QCOMPARE(oc.dec.decodeOne(ob, 0).state, 0);
        QVERIFY(oc.enc.setState(ob, 0, 1));
        QCOMPARE(oc.dec.decodeOne(ob, 0).raw, std::uint64_t{6});
        QCOMPARE(oc.dec.decodeOne(ob, 0).state, 1);
        QVERIFY(oc.enc.setState(ob, 0, 3));
        QCOMPARE(oc.dec.decodeOne(ob, 0).state, 3);
        QCOMPARE(oc.dec.decodeOne(ob, 0).raw, std::uint64_t{9});
        const auto kept = ob;
        QVERIFY(!oc.enc.setState(ob, 0, 2)); // every code of INSIDE_A belongs to A
        QVERIFY(!oc.enc.setState(ob, 0, 4)); // no code of TOO_BIG fits 4 bits
        QVERIFY(ob == kept);

        // Parameters without an enumeration have no states.
        const Codec plain = single(param("P", 48, 8, DataType::UnsignedInt));
        QCOMPARE(plain.enc.stateCount(0), std::size_t{0});
        std::vector<std::uint8_t> pb(plain.size);
        QVERIFY(!plain.enc.setState(pb, 0, 0));
    }

    void refusesWhatTheDecoderRefuses()
    {
        std::vector<mdb::ParameterDef> bad = {
            param("I65", 48, 65, DataType::UnsignedInt),
            param("I0", 48, 0, DataType::SignedInt),
            param("F16", 48, 16, DataType::Float),
            param("S12", 48, 12, DataType::String),
            param("POLY7", 48, 16, DataType::UnsignedInt, poly({1, 2, 3, 4, 5, 6, 7})),
            param("POLY0", 48, 16, DataType::UnsignedInt, poly({})),
            param("ONEPOINT", 48, 16, DataType::UnsignedInt, points({{0, 1}})),
            param("ENUMFLOAT", 48, 32, DataType::Float, mdb::EnumerationCalibrator{{{0, 0, "A"}}}),
            param("CALSTRING", 48, 16, DataType::String, poly({0, 1})),
        };
        auto le = param("LE12", 52, 12, DataType::UnsignedInt);
        le.byteOrder = mdb::ByteOrder::LittleEndian;
        bad.push_back(le);
        for (const auto& p : bad) {
            mdb::PacketDef def;
            def.name = "P";
            def.length = 64;
            def.parameters = {param("OK", 48, 8, DataType::UnsignedInt), p};
            const auto enc = EncodePlan::compile(def);
            QVERIFY2(!enc.ok(), p.name.c_str());
            QVERIFY(!DecodePlan::compile(def).ok());
            QVERIFY(enc.error().message.find(p.name) != std::string::npos);
        }
        // A little-endian field within one byte has no byte order: accepted by both.
        auto inByte = param("LE3", 50, 3, DataType::UnsignedInt);
        inByte.byteOrder = mdb::ByteOrder::LittleEndian;
        const Codec c = single(inByte);
        std::vector<std::uint8_t> bytes(c.size);
        c.enc.setRaw(bytes, 0, 5);
        QCOMPARE(c.dec.decodeOne(bytes, 0).raw, std::uint64_t{5});
    }

    // Every parameter of every packet of the training mission database, across its range.
    void trainingDatabase()
    {
        const auto& training = test::trainingDefinition();
        std::size_t checkedValues = 0;
        std::size_t checkedParameters = 0;
        for (const auto& def : training.packets) {
            const std::size_t size = def.variableLength ? def.maxLength : def.length;
            const Codec c = makeCodec(def, size);
            QCOMPARE(c.enc.parameterCount(), def.parameters.size());
            for (std::size_t i = 0; i < def.parameters.size(); ++i) {
                const auto& p = def.parameters[i];
                const std::size_t before = checkedValues;
                checkTrainingParameter(c, i, checkedValues);
                if (QTest::currentTestFailed()) {
                    qWarning("in %s.%s", def.name.c_str(), p.name.c_str());
                    return;
                }
                QVERIFY(checkedValues > before);
                ++checkedParameters;
            }
            // Variable length: in a packet of the minimum length, the fields past its end are absent
            // and writing them changes nothing.
            if (def.variableLength) {
                std::vector<std::uint8_t> bytes = randomBytes(def.length);
                const auto kept = bytes;
                std::size_t absent = 0;
                for (std::size_t i = 0; i < def.parameters.size(); ++i) {
                    const auto& p = def.parameters[i];
                    if ((std::uint64_t{p.bitOffset} + p.bitLength + 7) / 8 <= def.length)
                        continue;
                    ++absent;
                    c.enc.setRaw(bytes, i, 0x4142434445464748);
                    c.enc.setConverted(bytes, i, 1);
                    c.enc.setString(bytes, i, "text");
                }
                QVERIFY(absent > 0);
                QVERIFY(bytes == kept);
            }
        }
        QCOMPARE(checkedParameters, training.parameterCount());
        QVERIFY(checkedValues > 20000);
    }

    void noAllocationPerCall()
    {
        const auto& training = test::trainingDefinition();
        std::vector<EncodePlan> plans;
        std::vector<std::vector<std::uint8_t>> packets;
        for (const auto& def : training.packets) {
            auto plan = EncodePlan::compile(def);
            QVERIFY(plan.ok());
            plans.push_back(std::move(plan).value());
            packets.emplace_back(def.variableLength ? def.maxLength : def.length);
        }
        // Non-linear calibrators too, solved numerically.
        const Codec cubic = single(param("T", 48, 16, DataType::UnsignedInt, poly({-55.2, 0.0621, -1.05e-5, 1.6e-9})));
        const Codec f64 = single(param("G", 48, 64, DataType::Float, poly({4, -1, 0, -1})));
        std::vector<std::uint8_t> extra(64);
        const std::uint8_t blob[40] = {1, 2, 3};

        const long before = test::allocations();
        { std::vector<int> probe(10); QVERIFY(!probe.empty()); }
        QVERIFY(test::allocations() > before); // the counter counts

        const long start = test::allocations();
        double sink = 0;
        for (int round = 0; round < 200; ++round) {
            const double t = round / 200.0;
            for (std::size_t k = 0; k < plans.size(); ++k) {
                const EncodePlan& plan = plans[k];
                for (std::size_t i = 0; i < plan.parameterCount(); ++i) {
                    const double y = plan.minConverted(i) * (1 - t) / 1e3 + plan.maxConverted(i) * t / 1e3;
                    plan.setRaw(packets[k], i, static_cast<std::uint64_t>(round) * 0x9E3779B97F4A7C15);
                    plan.setConverted(packets[k], i, y);
                    (void)plan.setCalibrated(packets[k], i, y);
                    double x = 0;
                    if (plan.convertedForCalibrated(i, y, x))
                        sink += static_cast<double>(plan.rawForConverted(i, x));
                    (void)plan.setState(packets[k], i, static_cast<std::size_t>(round) % 4);
                    plan.setString(packets[k], i, "a string of some length, longer than most fields");
                    plan.setBytes(packets[k], i, blob);
                    sink += static_cast<double>(plan.stateCount(i)) + (plan.invertible(i) ? 1 : 0);
                }
            }
            (void)cubic.enc.setCalibrated(extra, 0, -60 + 200 * t);
            (void)f64.enc.setCalibrated(extra, 0, -1e200 + 2e200 * t);
        }
        QCOMPARE(test::allocations() - start, 0L);
        QVERIFY(sink != 0);
    }

private:
    std::vector<std::uint8_t> randomBytes(std::size_t n)
    {
        std::vector<std::uint8_t> bytes(n);
        for (auto& b : bytes)
            b = static_cast<std::uint8_t>(m_rng());
        return bytes;
    }

    std::uint64_t calibratedRaw(const Codec& c, double y)
    {
        std::vector<std::uint8_t> bytes = randomBytes(c.size);
        DecodedValue v;
        const QString error = checkCalibrated(c, 0, y, bytes, &v);
        if (!error.isEmpty())
            qWarning("%s", qPrintable(error));
        return error.isEmpty() ? v.raw : ~std::uint64_t{0};
    }

    double calibratedConverted(const Codec& c, double y)
    {
        std::vector<std::uint8_t> bytes = randomBytes(c.size);
        DecodedValue v;
        const QString error = checkCalibrated(c, 0, y, bytes, &v);
        if (!error.isEmpty()) {
            qWarning("%s", qPrintable(error));
            return kNaN;
        }
        return converted(c.def.parameters[0], v);
    }

    // Values across [from, to] (evenly spaced and random) encode to the nearest calibrated value.
    void sweep(const Codec& c, double from, double to)
    {
        std::uniform_real_distribution<double> any(from, to);
        std::vector<std::uint8_t> bytes = randomBytes(c.size);
        for (int k = 0; k <= 400; ++k) {
            const double y = k < 200 ? from + (to - from) * k / 199 : any(m_rng);
            const QString error = checkCalibrated(c, 0, y, bytes);
            QVERIFY2(error.isEmpty(), qPrintable(error));
        }
    }

    // For an integer field of up to 16 bits: the calibrated value of every raw value encodes back to
    // that raw value.
    void checkEveryRawRoundTrips(const Codec& c)
    {
        const auto& p = c.def.parameters[0];
        QVERIFY(p.bitLength <= 16);
        std::vector<std::uint8_t> bytes = randomBytes(c.size);
        for (std::uint64_t raw = 0; raw <= lowBits(p.bitLength); ++raw) {
            c.enc.setRaw(bytes, 0, raw);
            const double y = c.dec.decodeOne(bytes, 0).calibrated;
            QVERIFY(c.enc.setCalibrated(bytes, 0, y));
            QVERIFY2(c.dec.decodeOne(bytes, 0).raw == raw,
                     qPrintable(QStringLiteral("%1: raw %2 (calibrated %3) came back as %4")
                                    .arg(QString::fromStdString(p.name)).arg(raw).arg(y, 0, 'g', 17)
                                    .arg(c.dec.decodeOne(bytes, 0).raw)));
        }
    }

    void expectNotInvertible(const Codec& c)
    {
        QVERIFY(!c.enc.invertible(0));
        double x = -3.25;
        QVERIFY(!c.enc.convertedForCalibrated(0, 1.0, x));
        QCOMPARE(x, -3.25);
        std::vector<std::uint8_t> bytes = randomBytes(c.size);
        const auto before = bytes;
        QVERIFY(!c.enc.setCalibrated(bytes, 0, 1.0));
        QVERIFY(bytes == before);
        // Converted values still go in.
        c.enc.setConverted(bytes, 0, 3);
        QCOMPARE(c.dec.decodeOne(bytes, 0).raw, c.enc.rawForConverted(0, 3));
    }

    void checkIntegerField(const Codec& c, DataType type, unsigned bits)
    {
        const bool isSigned = type == DataType::SignedInt;
        const std::uint64_t mask = lowBits(bits);
        const std::int64_t maxInt = isSigned ? static_cast<std::int64_t>(lowBits(bits - 1)) : 0;
        const std::int64_t minInt = -maxInt - 1;
        const auto fieldMaskBytes = fieldMask(c.size, c.def.parameters[0]);
        QCOMPARE(c.enc.minConverted(0), isSigned ? -std::ldexp(1.0, int(bits) - 1) : 0.0);
        QCOMPARE(c.enc.maxConverted(0), isSigned ? std::ldexp(1.0, int(bits) - 1) - 1 : std::ldexp(1.0, int(bits)) - 1);
        QVERIFY(c.enc.invertible(0));

        // Raw: extremes, patterns and random values, with garbage above the field's width.
        std::vector<std::uint64_t> raws = {0, 1, mask, mask - 1, 0x5555555555555555 & mask, 0xAAAAAAAAAAAAAAAA & mask,
                                           (std::uint64_t{1} << (bits - 1))};
        for (int k = 0; k < 24; ++k)
            raws.push_back(m_rng() & mask);
        for (const std::uint64_t raw : raws) {
            std::vector<std::uint8_t> bytes = randomBytes(c.size);
            const auto before = bytes;
            c.enc.setRaw(bytes, 0, raw | (m_rng() & ~mask));
            const DecodedValue v = c.dec.decodeOne(bytes, 0);
            QCOMPARE(v.raw, raw);
            QVERIFY(othersUnchanged(before, bytes, fieldMaskBytes));
        }

        // Converted: integers in range come back (after their conversion to double).
        for (int k = 0; k < 24; ++k) {
            std::vector<std::uint8_t> bytes = randomBytes(c.size);
            const std::uint64_t r = m_rng() & mask;
            if (isSigned) {
                const std::int64_t value = static_cast<std::int64_t>(r << (64 - bits)) >> (64 - bits);
                const auto d = static_cast<double>(value);
                const std::int64_t expected = d >= std::ldexp(1.0, int(bits) - 1) ? maxInt : static_cast<std::int64_t>(d);
                c.enc.setConverted(bytes, 0, d);
                QCOMPARE(c.dec.decodeOne(bytes, 0).converted.i, expected);
            } else {
                const auto d = static_cast<double>(r);
                const std::uint64_t expected = d >= std::ldexp(1.0, int(bits)) ? mask : static_cast<std::uint64_t>(d);
                c.enc.setConverted(bytes, 0, d);
                QCOMPARE(c.dec.decodeOne(bytes, 0).converted.u, expected);
            }
        }

        // Rounding (to nearest, halves away from zero) and clamping.
        std::vector<std::pair<double, std::int64_t>> cases; // unsigned: expected as int64 or -1 for the max
        if (isSigned) {
            cases = {{kNaN, 0}, {-kInf, minInt}, {kInf, maxInt}, {std::ldexp(-1.0, int(bits) - 1) - 1, minInt},
                     {std::ldexp(1.0, int(bits) - 1), maxInt}, {1e300, maxInt}, {-1e300, minInt}, {-0.4, 0},
                     {0.4, 0}, {-0.6, -1}};
            if (bits >= 3)
                cases.insert(cases.end(), {{-1.5, -2}, {1.5, 2}, {-2.5, -3}, {2.5, 3}, {0.6, 1}, {2.4999, 2}});
        } else {
            cases = {{kNaN, 0}, {-kInf, 0}, {-1.0, 0}, {-0.4, 0}, {0.49, 0}, {0.5, 1}, {kInf, -1}, {1e300, -1},
                     {std::ldexp(1.0, int(bits)), -1}};
            if (bits >= 2)
                cases.insert(cases.end(), {{1.5, 2}, {2.4999, 2}, {2.5, 3}});
        }
        for (const auto& [x, expected] : cases) {
            std::vector<std::uint8_t> bytes = randomBytes(c.size);
            const auto before = bytes;
            c.enc.setConverted(bytes, 0, x);
            const DecodedValue v = c.dec.decodeOne(bytes, 0);
            if (isSigned) {
                QVERIFY2(v.converted.i == expected,
                         qPrintable(QStringLiteral("%1 -> %2, expected %3").arg(x).arg(v.converted.i).arg(expected)));
            } else {
                const std::uint64_t want = expected < 0 ? mask : static_cast<std::uint64_t>(expected) & mask;
                QVERIFY2(v.converted.u == want,
                         qPrintable(QStringLiteral("%1 -> %2, expected %3").arg(x).arg(v.converted.u).arg(want)));
            }
            QCOMPARE(c.enc.rawForConverted(0, x), v.raw);
            QVERIFY(othersUnchanged(before, bytes, fieldMaskBytes));
            // Without a calibrator a calibrated value is the converted value.
            std::vector<std::uint8_t> again = bytes;
            QVERIFY(c.enc.setCalibrated(again, 0, x));
            QVERIFY(again == bytes);
        }
    }

    void checkTrainingParameter(const Codec& c, std::size_t i, std::size_t& checked)
    {
        const auto& p = c.def.parameters[i];
        const auto mask = fieldMask(c.size, p);
        const bool isInteger = p.type == DataType::UnsignedInt || p.type == DataType::SignedInt;

        // Raw values, whatever the type: random, with garbage above the width.
        const unsigned rawBits = p.type == DataType::String || p.type == DataType::Bytes ? 8 * std::min(p.bitLength / 8, 8u)
                                                                                          : p.bitLength;
        for (int k = 0; k < 20; ++k) {
            std::vector<std::uint8_t> bytes = randomBytes(c.size);
            const auto before = bytes;
            const std::uint64_t raw = m_rng();
            c.enc.setRaw(bytes, i, raw);
            QCOMPARE(c.dec.decodeOne(bytes, i).raw, raw & lowBits(rawBits));
            QVERIFY(othersUnchanged(before, bytes, mask));
            ++checked;
        }

        if (const auto* states = std::get_if<mdb::EnumerationCalibrator>(&p.calibrator)) {
            QCOMPARE(c.enc.stateCount(i), states->states.size());
            QVERIFY(!c.enc.invertible(i));
            for (std::size_t s = 0; s < states->states.size(); ++s) {
                std::vector<std::uint8_t> bytes = randomBytes(c.size);
                const auto before = bytes;
                QVERIFY(c.enc.setState(bytes, i, s));
                const DecodedValue v = c.dec.decodeOne(bytes, i);
                QCOMPARE(v.state, static_cast<std::int32_t>(s));
                QCOMPARE(c.dec.stateText(i, v), std::string_view(states->states[s].text));
                QVERIFY(othersUnchanged(before, bytes, mask));
                double x = 0.5;
                QVERIFY(!c.enc.convertedForCalibrated(i, static_cast<double>(states->states[s].low), x));
                QCOMPARE(x, 0.5);
                ++checked;
            }
            return;
        }
        QCOMPARE(c.enc.stateCount(i), std::size_t{0});

        if (p.type == DataType::String || p.type == DataType::Bytes) {
            const std::size_t length = p.bitLength / 8;
            for (int k = 0; k < 20; ++k) {
                std::vector<std::uint8_t> content(std::uniform_int_distribution<std::size_t>(0, length + 3)(m_rng));
                for (auto& b : content)
                    b = static_cast<std::uint8_t>(1 + m_rng() % 255);
                std::vector<std::uint8_t> bytes = randomBytes(c.size);
                const auto before = bytes;
                c.enc.setBytes(bytes, i, content);
                std::vector<std::uint8_t> read(length);
                QCOMPARE(c.dec.extractBytes(bytes, i, read), length);
                for (std::size_t b = 0; b < length; ++b)
                    QCOMPARE(read[b], b < content.size() ? content[b] : std::uint8_t{0});
                if (p.type == DataType::String)
                    QCOMPARE(c.dec.stringValue(bytes, i).size(), std::min(content.size(), length));
                QVERIFY(othersUnchanged(before, bytes, mask));
                ++checked;
            }
            return;
        }

        // Every numeric calibrator of the training database is invertible.
        QVERIFY(c.enc.invertible(i));
        const bool calibrated = !std::holds_alternative<std::monostate>(p.calibrator);
        std::vector<std::uint8_t> bytes = randomBytes(c.size);
        if (isInteger) {
            const auto [low, high] = integerEnds(c, i, bytes);
            const double from = std::min(low, high);
            const double to = std::max(low, high);
            std::uniform_real_distribution<double> any(from, to);
            // Values within the calibrated range, its ends, and beyond them (clamped to the ends).
            std::vector<double> ys = {from, to, from - 1 - std::fabs(from), to + 1 + std::fabs(to), -kInf, kInf};
            for (int k = 0; k <= 100; ++k)
                ys.push_back(from + (to - from) * k / 100);
            for (int k = 0; k < 100; ++k)
                ys.push_back(any(m_rng));
            for (const double y : ys) {
                DecodedValue v;
                const QString error = checkCalibrated(c, i, y, bytes, &v);
                QVERIFY2(error.isEmpty(), qPrintable(error));
                if (y <= from)
                    QCOMPARE(v.calibrated, from);
                if (y >= to)
                    QCOMPARE(v.calibrated, to);
                ++checked;
            }
            // The calibrated value of a raw value encodes back to that raw value (where no neighbour
            // has the same calibrated value).
            for (int k = 0; k < 50; ++k) {
                const std::uint64_t raw = m_rng() & lowBits(p.bitLength);
                c.enc.setRaw(bytes, i, raw);
                const DecodedValue v = c.dec.decodeOne(bytes, i);
                bool distinct = true;
                for (const std::uint64_t n : neighbourRaws(p, v)) {
                    std::vector<std::uint8_t> copy = bytes;
                    c.enc.setRaw(copy, i, n);
                    distinct = distinct && c.dec.decodeOne(copy, i).calibrated != v.calibrated;
                }
                QVERIFY(c.enc.setCalibrated(bytes, i, v.calibrated));
                if (distinct)
                    QCOMPARE(c.dec.decodeOne(bytes, i).raw, v.raw);
                ++checked;
            }
            if (!calibrated) {
                // Converted values across the range, clamped beyond it.
                const double lo = c.enc.minConverted(i);
                const double hi = c.enc.maxConverted(i);
                for (int k = -2; k <= 52; ++k) {
                    const double x = k == -2 ? lo - 10 : k == 52 ? hi * 2 + 10 : std::round(lo + (hi - lo) * k / 50);
                    c.enc.setConverted(bytes, i, x);
                    const double got = converted(p, c.dec.decodeOne(bytes, i));
                    QCOMPARE(got, std::clamp(x, lo, hi));
                    ++checked;
                }
            }
        } else {
            // Floats (the training database calibrates none): values over the whole range.
            QVERIFY(!calibrated);
            std::vector<double> xs = {0.0, -0.0, 1.0, -1.0, c.enc.minConverted(i), c.enc.maxConverted(i), kInf, -kInf};
            std::uniform_real_distribution<double> mantissa(-10, 10);
            std::uniform_int_distribution<int> exponent(p.bitLength == 32 ? -45 : -320, p.bitLength == 32 ? 38 : 307);
            for (int k = 0; k < 100; ++k)
                xs.push_back(mantissa(m_rng) * std::pow(10.0, exponent(m_rng)));
            for (const double x : xs) {
                const auto before = bytes;
                QVERIFY(c.enc.setCalibrated(bytes, i, x));
                const DecodedValue v = c.dec.decodeOne(bytes, i);
                const double expected = expectedFloat(p.bitLength, x);
                QVERIFY2(std::bit_cast<std::uint64_t>(v.converted.f) == std::bit_cast<std::uint64_t>(expected),
                         qPrintable(QStringLiteral("%1 -> %2").arg(x).arg(v.converted.f)));
                QVERIFY(othersUnchanged(before, bytes, mask));
                ++checked;
            }
        }
    }

    std::mt19937_64 m_rng{20240611};
};

QTEST_GUILESS_MAIN(TestEncoder)
#include "tst_decode_encoder.moc"
