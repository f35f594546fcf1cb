// Value generators: every kind's values at chosen times and packet indexes; seeded kinds reproducible
// and statistically sound; next() allocates nothing. Default generators over the training mission
// database: every parameter moves (but the documented constants), limit-carrying parameters cross
// their yellow limits now and then and a few reach red while mostly staying within yellow,
// enumerations show unexpected states only briefly; and, through the encoder and the decoder, the
// decoded limit states are what the generators aim at.
#include "tests/support/allocation_counter.hpp"
#include "core/decode/bits.hpp"
#include "core/decode/decode_plan.hpp"
#include "core/decode/encoder.hpp"
#include "core/mdb/text_format.hpp"
#include "sim/engine/packet_factory.hpp"
#include "sim/engine/value_generator.hpp"
#include "tests/support/model_builders.hpp"
#include "tests/support/training_mission.hpp"

#include <QtTest>

#include <algorithm>
#include <atomic>
#include <cmath>
#include <cstdlib>
#include <new>
#include <set>
#include <vector>


using namespace telestation;
using sim::GeneratorKind;
using sim::GeneratorSpec;
using sim::ValueDomain;
using sim::ValueGenerator;

namespace {

constexpr double kPi = 3.14159265358979323846;
constexpr double kStep = 0.5;          // seconds between samples of the defaults
constexpr std::size_t kSamples = 241;  // 0 .. 120 s

enum class Band { Normal, YellowLow, YellowHigh, RedLow, RedHigh };

// The limit band of a value, per docs/mission-database.md (a value equal to a limit is on the safe side).
Band bandOf(const mdb::NumericLimits& l, double v)
{
    if (v < l.redLow)
        return Band::RedLow;
    if (v < l.yellowLow)
        return Band::YellowLow;
    if (v > l.redHigh)
        return Band::RedHigh;
    if (v > l.yellowHigh)
        return Band::YellowHigh;
    return Band::Normal;
}

bool isRed(Band b) { return b == Band::RedLow || b == Band::RedHigh; }

bool isInteger(const mdb::ParameterDef& p)
{
    return p.type == mdb::DataType::UnsignedInt || p.type == mdb::DataType::SignedInt;
}

bool hasEnumeration(const mdb::ParameterDef& p)
{
    return std::holds_alternative<mdb::EnumerationCalibrator>(p.calibrator);
}

const mdb::NumericLimits* numericLimits(const mdb::ParameterDef& p)
{
    if (hasEnumeration(p) || !(isInteger(p) || p.type == mdb::DataType::Float))
        return nullptr;
    return std::get_if<mdb::NumericLimits>(&p.limits);
}

bool overlapsSecondaryId(const mdb::PacketDef& packet, const mdb::ParameterDef& p)
{
    if (!packet.secondaryId)
        return false;
    const auto& id = *packet.secondaryId;
    return p.bitOffset < id.bitOffset + id.bitLength && id.bitOffset < p.bitOffset + p.bitLength;
}

// What an integer field without a calibrator holds for a value: the encoder rounds it to nearest and
// clamps it to the field (EncodePlan::rawForConverted). Other fields are taken as given: they hold
// the value to within one count, which the encode-decode test covers for real.
double held(const mdb::ParameterDef& p, double v)
{
    if (!isInteger(p) || !std::holds_alternative<std::monostate>(p.calibrator))
        return v;
    const double bits = p.bitLength;
    const double lo = p.type == mdb::DataType::UnsignedInt ? 0 : -std::ldexp(1.0, int(bits) - 1);
    const double hi = p.type == mdb::DataType::UnsignedInt ? std::ldexp(1.0, int(bits)) - 1 : std::ldexp(1.0, int(bits) - 1) - 1;
    return std::clamp(std::round(v), lo, hi);
}

// The default of a parameter sampled every kStep seconds for 120 s (n = sample index), as held.
std::vector<double> sampleDefault(const mdb::PacketDef& packet, std::size_t index)
{
    const auto& p = packet.parameters[index];
    const auto* e = std::get_if<mdb::EnumerationCalibrator>(&p.calibrator);
    ValueGenerator g(sim::defaultGenerator(packet, p, index), e ? e->states.size() : 0);
    std::vector<double> out(kSamples);
    for (std::size_t k = 0; k < kSamples; ++k)
        out[k] = held(p, g.next(kStep * double(k), k));
    return out;
}

QString nameOf(const mdb::PacketDef& packet, const mdb::ParameterDef& p)
{
    return QString::fromStdString(packet.name + "." + p.name);
}

GeneratorSpec make(GeneratorKind kind)
{
    GeneratorSpec s;
    s.kind = kind;
    return s;
}

double mean(const std::vector<double>& v)
{
    double sum = 0;
    for (double x : v)
        sum += x;
    return sum / double(v.size());
}

double stddev(const std::vector<double>& v)
{
    const double m = mean(v);
    double sum = 0;
    for (double x : v)
        sum += (x - m) * (x - m);
    return std::sqrt(sum / double(v.size() - 1));
}

std::vector<double> draw(const GeneratorSpec& spec, std::size_t count)
{
    ValueGenerator g(spec);
    std::vector<double> out(count);
    for (std::size_t k = 0; k < count; ++k)
        out[k] = g.next(0.001 * double(k), k);
    return out;
}

// A packet built as the simulator builds it, one generator per parameter, then decoded.
class EncodeDecode {
public:
    explicit EncodeDecode(const mdb::PacketDef& def)
        : m_encoder(decode::EncodePlan::compile(def)), m_decoder(decode::DecodePlan::compile(def)), m_def(def)
    {
        if (!ok())
            return;
        const sim::PacketFactory factory(def);
        m_bytes.resize(factory.packetSize());
        factory.build(m_bytes, 0, 0);
        m_values.resize(def.parameters.size());
    }
    [[nodiscard]] bool ok() const { return m_encoder.ok() && m_decoder.ok(); }
    [[nodiscard]] std::size_t stateCount(std::size_t i) const { return m_encoder->stateCount(i); }

    // Every parameter from its generator (null: left as it is) at t seconds, packet k; then decoded.
    // Empty on success, else what went wrong.
    QString build(std::vector<std::optional<ValueGenerator>>& generators, double t, std::size_t k)
    {
        for (std::size_t i = 0; i < generators.size(); ++i) {
            if (!generators[i])
                continue;
            const auto& spec = generators[i]->spec();
            if (spec.kind == GeneratorKind::Text) {
                m_encoder->setString(m_bytes, i, spec.text);
                continue;
            }
            const double v = generators[i]->next(t, k);
            bool set = true;
            if (spec.kind == GeneratorKind::StateCycle)
                set = m_encoder->setState(m_bytes, i, static_cast<std::size_t>(v));
            else if (spec.domain == ValueDomain::Raw)
                m_encoder->setRaw(m_bytes, i, static_cast<std::uint64_t>(v));
            else if (spec.domain == ValueDomain::Converted)
                m_encoder->setConverted(m_bytes, i, v);
            else
                set = m_encoder->setCalibrated(m_bytes, i, v);
            if (!set)
                return nameOf(m_def, m_def.parameters[i]) + QStringLiteral(": the encoder refused ") + QString::number(v);
        }
        if (m_decoder->decode(m_bytes, m_values) != m_values.size())
            return QStringLiteral("decoded too few parameters");
        return {};
    }
    [[nodiscard]] const std::vector<decode::DecodedValue>& values() const { return m_values; }

private:
    Result<decode::EncodePlan> m_encoder;
    Result<decode::DecodePlan> m_decoder;
    const mdb::PacketDef& m_def;
    std::vector<std::uint8_t> m_bytes;
    std::vector<decode::DecodedValue> m_values;
};

} // namespace

class TestValueGenerator : public QObject {
    Q_OBJECT

private slots:
    void initTestCase()
    {
        m_db = test::trainingDefinition();
        QVERIFY(m_db.findPacket("Packet5"));
    }

    // ---- Kinds ---------------------------------------------------------------------------------

    void constant()
    {
        auto s = make(GeneratorKind::Constant);
        s.value = -12.625;
        ValueGenerator g(s);
        QCOMPARE(g.next(0, 0), -12.625);
        QCOMPARE(g.next(37.5, 9), -12.625);
        QCOMPARE(g.next(1e9, 1'000'000'000'000), -12.625);
        QCOMPARE(g.spec(), s);
    }

    void counter()
    {
        auto s = make(GeneratorKind::Counter);
        s.start = 5;
        s.step = 2.5;
        ValueGenerator g(s);
        QCOMPARE(g.next(0, 0), 5.0);
        QCOMPARE(g.next(100, 1), 7.5);   // the packet index counts, not the time
        QCOMPARE(g.next(0, 3), 12.5);
        QCOMPARE(g.next(0, 1'000'000), 2'500'005.0);
        s.step = -1;
        ValueGenerator down(s);
        QCOMPARE(down.next(0, 7), -2.0);  // no wrapping in the generator: the encoder handles the field
    }

    void ramp()
    {
        auto s = make(GeneratorKind::Ramp);
        s.min = -2;
        s.max = 6;
        s.period = 4;
        ValueGenerator g(s);
        QCOMPARE(g.next(0, 0), -2.0);
        QCOMPARE(g.next(1, 0), 0.0);
        QCOMPARE(g.next(3, 5), 4.0);
        QCOMPARE(g.next(4, 0), -2.0);   // back to min at each period
        QCOMPARE(g.next(41, 0), 0.0);
        QCOMPARE(g.next(-1, 0), 4.0);   // before the start: the same sawtooth
        QVERIFY(g.next(3.999, 0) < 6.0);
    }

    void sine()
    {
        auto s = make(GeneratorKind::Sine);
        s.offset = 3;
        s.amplitude = 2;
        s.period = 10;
        s.phase = 0.5;
        ValueGenerator g(s);
        for (double t : {0.0, 2.5, 7.3, 10.0, 1234.5, 86400.25}) {
            const double expected = 3 + 2 * std::sin(2 * kPi * t / 10 + 0.5);
            QVERIFY2(std::fabs(g.next(t, 0) - expected) < 1e-9, qPrintable(QString::number(t)));
        }
        s.phase = 0;
        ValueGenerator plain(s);
        QVERIFY(std::fabs(plain.next(2.5, 0) - 5.0) < 1e-9);  // a quarter period: the top
        QVERIFY(std::fabs(plain.next(7.5, 0) - 1.0) < 1e-9);
    }

    void square()
    {
        auto s = make(GeneratorKind::Square);
        s.min = 1;
        s.max = 7;
        s.period = 4;
        ValueGenerator g(s);
        QCOMPARE(g.next(0, 0), 1.0);
        QCOMPARE(g.next(1.99, 0), 1.0);
        QCOMPARE(g.next(2, 0), 7.0);
        QCOMPARE(g.next(3.9, 0), 7.0);
        QCOMPARE(g.next(4, 0), 1.0);
        QCOMPARE(g.next(106, 0), 7.0);
    }

    void uniform()
    {
        auto s = make(GeneratorKind::Uniform);
        s.min = -3;
        s.max = 5;
        s.seed = 42;
        const auto a = draw(s, 100'000);
        for (double v : a)
            QVERIFY(v >= -3 && v < 5);
        QVERIFY(std::fabs(mean(a) - 1.0) < 0.05);              // sd of the mean: 0.0073
        QVERIFY(std::fabs(stddev(a) - 8 / std::sqrt(12.0)) < 0.03);
        const auto below = std::count_if(a.begin(), a.end(), [](double v) { return v < -1; });
        QVERIFY(std::abs(double(below) / 1e5 - 0.25) < 0.01);
        QCOMPARE(draw(s, 1000), std::vector<double>(a.begin(), a.begin() + 1000)); // same seed, same values
        s.seed = 43;
        const auto b = draw(s, 1000);
        QVERIFY(b != std::vector<double>(a.begin(), a.begin() + 1000));
        s.max = s.min;
        ValueGenerator empty(s);
        QCOMPARE(empty.next(0, 0), -3.0);
    }

    void normal()
    {
        auto s = make(GeneratorKind::Normal);
        s.mean = 10;
        s.stddev = 3;
        s.seed = 7;
        const auto a = draw(s, 100'000);
        QVERIFY(std::fabs(mean(a) - 10) < 0.05);   // sd of the mean: 0.0095
        QVERIFY(std::fabs(stddev(a) - 3) < 0.04);  // sd of the sd: 0.0067
        const auto within = std::count_if(a.begin(), a.end(), [](double v) { return std::fabs(v - 10) < 3; });
        QVERIFY(std::fabs(double(within) / 1e5 - 0.6827) < 0.01);
        const auto tail = std::count_if(a.begin(), a.end(), [](double v) { return v > 16; });
        QVERIFY(std::fabs(double(tail) / 1e5 - 0.02275) < 0.003);
        QCOMPARE(draw(s, 1001), std::vector<double>(a.begin(), a.begin() + 1001));
        s.seed = 8;
        QVERIFY(draw(s, 1000) != std::vector<double>(a.begin(), a.begin() + 1000));
    }

    void stateCycle()
    {
        auto s = make(GeneratorKind::StateCycle);
        s.period = 2;
        ValueGenerator g(s, 3);
        QCOMPARE(g.next(0, 0), 0.0);
        QCOMPARE(g.next(1.99, 0), 0.0);
        QCOMPARE(g.next(2, 0), 1.0);
        QCOMPARE(g.next(4.5, 0), 2.0);
        QCOMPARE(g.next(6, 0), 0.0);
        QCOMPARE(g.next(-0.5, 0), 2.0);
        QCOMPARE(g.next(2 * 3'000'001 + 1, 0), 1.0);
        ValueGenerator none(s, 0);
        QCOMPARE(none.next(5, 0), 0.0);
        // With a sequence of state indices, the sequence instead.
        s.values = {4, 4, 1};
        ValueGenerator seq(s, 6);
        QCOMPARE(seq.next(0, 0), 4.0);
        QCOMPARE(seq.next(3, 0), 4.0);
        QCOMPARE(seq.next(4, 0), 1.0);
        QCOMPARE(seq.next(6, 0), 4.0);
        QCOMPARE(seq.next(11, 0), 1.0);
    }

    void list()
    {
        auto s = make(GeneratorKind::List);
        s.values = {3, -1, 7.5};
        ValueGenerator g(s);
        QCOMPARE(g.next(0, 0), 3.0);
        QCOMPARE(g.next(50, 1), -1.0);
        QCOMPARE(g.next(0, 2), 7.5);
        QCOMPARE(g.next(0, 3), 3.0);
        QCOMPARE(g.next(0, 1'000'000'000'000), -1.0); // 10^12 mod 3 = 1
        ValueGenerator empty(make(GeneratorKind::List));
        QCOMPARE(empty.next(1, 1), 0.0);
    }

    void text()
    {
        auto s = make(GeneratorKind::Text);
        s.text = "SCIENCE-A";
        ValueGenerator g(s);
        QCOMPARE(g.next(3, 3), 0.0);
        QCOMPARE(g.spec().text, std::string("SCIENCE-A"));
    }

    void badPeriodFreezesTime()
    {
        for (double period : {0.0, -5.0, std::nan("")}) {
            auto s = make(GeneratorKind::Sine);
            s.offset = 1;
            s.amplitude = 2;
            s.phase = kPi / 2;
            s.period = period;
            ValueGenerator sine(s);
            QCOMPARE(sine.next(12.3, 4), 3.0);
            s.kind = GeneratorKind::Ramp;
            s.min = 4;
            ValueGenerator ramp(s);
            QCOMPARE(ramp.next(12.3, 4), 4.0);
            s.kind = GeneratorKind::StateCycle;
            ValueGenerator cycle(s, 5);
            QCOMPARE(cycle.next(12.3, 4), 0.0);
        }
    }

    void nextAllocatesNothing()
    {
        std::vector<ValueGenerator> generators;
        for (auto kind : {GeneratorKind::Constant, GeneratorKind::Counter, GeneratorKind::Ramp, GeneratorKind::Sine,
                          GeneratorKind::Square, GeneratorKind::Uniform, GeneratorKind::Normal,
                          GeneratorKind::StateCycle, GeneratorKind::List, GeneratorKind::Text}) {
            auto s = make(kind);
            s.values = {1, 2, 3};
            s.text = "a text longer than any small-string buffer, to be sure";
            generators.emplace_back(s, 4);
        }
        const long before = test::allocations();
        { std::vector<int> probe(10); QVERIFY(!probe.empty()); }
        QVERIFY(test::allocations() > before); // the counter works

        const long start = test::allocations();
        double sum = 0;
        for (std::uint64_t n = 0; n < 10'000; ++n)
            for (auto& g : generators)
                sum += g.next(0.01 * double(n), n);
        QCOMPARE(test::allocations() - start, 0L);
        QVERIFY(std::isfinite(sum));
    }

    void names()
    {
        QCOMPARE(sim::toString(GeneratorKind::Constant), std::string_view("constant"));
        QCOMPARE(sim::toString(GeneratorKind::Counter), std::string_view("counter"));
        QCOMPARE(sim::toString(GeneratorKind::Ramp), std::string_view("ramp"));
        QCOMPARE(sim::toString(GeneratorKind::Sine), std::string_view("sine"));
        QCOMPARE(sim::toString(GeneratorKind::Square), std::string_view("square"));
        QCOMPARE(sim::toString(GeneratorKind::Uniform), std::string_view("uniform"));
        QCOMPARE(sim::toString(GeneratorKind::Normal), std::string_view("normal"));
        QCOMPARE(sim::toString(GeneratorKind::StateCycle), std::string_view("stateCycle"));
        QCOMPARE(sim::toString(GeneratorKind::List), std::string_view("list"));
        QCOMPARE(sim::toString(GeneratorKind::Text), std::string_view("text"));
        QCOMPARE(sim::toString(ValueDomain::Calibrated), std::string_view("calibrated"));
        QCOMPARE(sim::toString(ValueDomain::Converted), std::string_view("converted"));
        QCOMPARE(sim::toString(ValueDomain::Raw), std::string_view("raw"));
    }

    // ---- Defaults over the training database --------------------------------------------------

    void defaultsAreDeterministic()
    {
        for (const auto& packet : m_db.packets)
            for (std::size_t i = 0; i < packet.parameters.size(); ++i)
                QCOMPARE(sim::defaultGenerator(packet, packet.parameters[i], i),
                         sim::defaultGenerator(packet, packet.parameters[i], i));
    }

    // Which kind each sort of parameter gets.
    void defaultsFollowTheParameter()
    {
        for (const auto& packet : m_db.packets) {
            for (std::size_t i = 0; i < packet.parameters.size(); ++i) {
                const auto& p = packet.parameters[i];
                const auto spec = sim::defaultGenerator(packet, p, i);
                const QString name = nameOf(packet, p);
                std::string upper = p.name;
                std::transform(upper.begin(), upper.end(), upper.begin(), ::toupper);
                const bool count = upper.find("COUNT") != std::string::npos
                    || (upper.size() > 4 && upper.substr(upper.size() - 4) == "_CNT");
                if (overlapsSecondaryId(packet, p)) {
                    // Keeps the id that tells the packet from others on its APID.
                    QVERIFY2(spec.kind == GeneratorKind::Constant && spec.domain == ValueDomain::Raw, qPrintable(name));
                    QCOMPARE(spec.value, double(packet.secondaryId->value));
                } else if (p.type == mdb::DataType::String) {
                    QVERIFY2(spec.kind == GeneratorKind::Text, qPrintable(name));
                    QVERIFY2(!spec.text.empty() && spec.text.size() <= p.bitLength / 8, qPrintable(name));
                    for (char ch : spec.text)
                        QVERIFY2(ch >= 0x20 && ch < 0x7f, qPrintable(name));
                } else if (p.type == mdb::DataType::Bytes) {
                    QVERIFY2(spec.kind == GeneratorKind::Counter && spec.domain == ValueDomain::Raw, qPrintable(name));
                } else if (hasEnumeration(p)) {
                    QVERIFY2(spec.kind == GeneratorKind::StateCycle, qPrintable(name));
                } else if (numericLimits(p)) {
                    QVERIFY2(spec.kind == GeneratorKind::Sine && spec.domain == ValueDomain::Calibrated, qPrintable(name));
                    QVERIFY2(spec.period >= 8 && spec.period <= 90, qPrintable(name));
                } else if (count) {
                    QVERIFY2(spec.kind == GeneratorKind::Counter && spec.step == 1, qPrintable(name));
                } else {
                    QVERIFY2(spec.kind == GeneratorKind::Sine || spec.kind == GeneratorKind::Ramp
                                 || spec.kind == GeneratorKind::Square, qPrintable(name));
                    QVERIFY2(spec.period >= 8 && spec.period <= 90, qPrintable(name));
                }
            }
        }
        // Examples the descriptions give are used as they are.
        const auto* p5 = m_db.findPacket("Packet5");
        for (std::size_t i = 0; i < p5->parameters.size(); ++i) {
            if (p5->parameters[i].name == "SAMPLE_ID")
                QCOMPARE(sim::defaultGenerator(*p5, p5->parameters[i], i).text, std::string("BIO-0042-A"));
            if (p5->parameters[i].name == "SW_VERSION")
                QCOMPARE(sim::defaultGenerator(*p5, p5->parameters[i], i).text, std::string("FSW-3.2.1-flight"));
        }
    }

    // Every parameter moves within two minutes, but for fixed text and secondary-id fields.
    void defaultsMove()
    {
        std::size_t moving = 0;
        for (const auto& packet : m_db.packets) {
            for (std::size_t i = 0; i < packet.parameters.size(); ++i) {
                const auto& p = packet.parameters[i];
                if (p.type == mdb::DataType::String || overlapsSecondaryId(packet, p))
                    continue;
                const auto v = sampleDefault(packet, i);
                const auto [lo, hi] = std::minmax_element(v.begin(), v.end());
                QVERIFY2(*lo < *hi, qPrintable(nameOf(packet, p)));
                for (double x : v)
                    QVERIFY2(std::isfinite(x), qPrintable(nameOf(packet, p)));
                ++moving;
            }
        }
        QVERIFY(moving + 10 > m_db.parameterCount());
    }

    // Numbers with limits: past yellow now and then, red for a few, mostly within yellow.
    void defaultsCrossLimits()
    {
        std::size_t redInPacket5 = 0;
        for (const auto& packet : m_db.packets) {
            std::size_t withLimits = 0, red = 0;
            for (std::size_t i = 0; i < packet.parameters.size(); ++i) {
                const auto& p = packet.parameters[i];
                const auto* l = numericLimits(p);
                if (!l)
                    continue;
                ++withLimits;
                const auto v = sampleDefault(packet, i);
                std::size_t normal = 0, yellow = 0, redSamples = 0;
                for (double x : v) {
                    const Band b = bandOf(*l, x);
                    normal += b == Band::Normal;
                    yellow += b == Band::YellowLow || b == Band::YellowHigh;
                    redSamples += isRed(b);
                }
                const QString why = nameOf(packet, p)
                    + QStringLiteral(": %1 normal, %2 yellow, %3 red").arg(normal).arg(yellow).arg(redSamples);
                QVERIFY2(normal > v.size() / 2, qPrintable(why));
                // Where yellow coincides with red on both sides (a quaternion's -1 -1 1 1), crossing
                // yellow would be red: such parameters stay within their limits.
                const bool yellowBand = l->redLow < l->yellowLow || l->yellowHigh < l->redHigh;
                if (yellowBand)
                    QVERIFY2(yellow > 0, qPrintable(why));
                else
                    QVERIFY2(yellow == 0 && redSamples == 0, qPrintable(why));
                QVERIFY2(redSamples <= v.size() / 8, qPrintable(why)); // red only briefly
                red += redSamples > 0;
            }
            QVERIFY2(red <= (withLimits + 4) / 5, qPrintable(QString::fromStdString(packet.name)));
            if (packet.name == "Packet5")
                redInPacket5 = red;
        }
        QVERIFY(redInPacket5 >= 1);
    }

    // Neighbouring parameters do not move in lockstep.
    void defaultsSpreadPeriodsAndPhases()
    {
        const auto* p5 = m_db.findPacket("Packet5");
        std::set<double> periods, phases;
        std::size_t sines = 0;
        for (std::size_t i = 0; i < p5->parameters.size(); ++i) {
            const auto spec = sim::defaultGenerator(*p5, p5->parameters[i], i);
            if (spec.kind != GeneratorKind::Sine)
                continue;
            ++sines;
            periods.insert(std::round(spec.period * 10));
            phases.insert(std::round(spec.phase * 100));
        }
        QVERIFY(sines >= 20);
        QVERIFY(periods.size() >= sines * 9 / 10);
        QVERIFY(phases.size() >= sines * 9 / 10);
        QVERIFY(*periods.begin() < 200 && *periods.rbegin() > 700); // from under 20 s to over 70 s
    }

    // Enumerations cycle through their states, unexpected ones only now and then and briefly.
    void defaultsShowUnexpectedStatesBriefly()
    {
        std::size_t checked = 0;
        for (const auto& packet : m_db.packets) {
            for (std::size_t i = 0; i < packet.parameters.size(); ++i) {
                const auto& p = packet.parameters[i];
                const auto* e = std::get_if<mdb::EnumerationCalibrator>(&p.calibrator);
                if (!e)
                    continue;
                const QString name = nameOf(packet, p);
                ValueGenerator g(sim::defaultGenerator(packet, p, i), e->states.size());
                const auto* limits = std::get_if<mdb::StateLimits>(&p.limits);
                std::vector<bool> expected(e->states.size(), limits == nullptr);
                if (limits)
                    for (std::size_t s = 0; s < e->states.size(); ++s)
                        expected[s] = std::find(limits->expectedStates.begin(), limits->expectedStates.end(),
                                                e->states[s].text) != limits->expectedStates.end();
                const bool someUnexpected = std::find(expected.begin(), expected.end(), false) != expected.end();
                // One hour at 2 Hz.
                std::set<std::size_t> seen;
                std::size_t unexpected = 0, run = 0, longestRun = 0, firstUnexpected = 0;
                const std::size_t samples = 7200;
                for (std::size_t k = 0; k < samples; ++k) {
                    const double v = g.next(kStep * double(k), k);
                    QVERIFY2(v >= 0 && v < double(e->states.size()) && v == std::floor(v), qPrintable(name));
                    const auto s = static_cast<std::size_t>(v);
                    seen.insert(s);
                    if (!expected[s]) {
                        if (unexpected++ == 0)
                            firstUnexpected = k;
                        longestRun = std::max(longestRun, ++run);
                    } else {
                        run = 0;
                    }
                }
                QVERIFY2(seen.size() == e->states.size(), qPrintable(name)); // every state shows
                if (someUnexpected && std::find(expected.begin(), expected.end(), true) != expected.end()) {
                    QVERIFY2(unexpected > 0 && unexpected < samples / 5, qPrintable(name));
                    QVERIFY2(longestRun * kStep <= 15.5, qPrintable(name));      // a slot of at most 15 s
                    QVERIFY2(firstUnexpected * kStep < 120, qPrintable(name));   // within two minutes
                    ++checked;
                }
            }
        }
        QVERIFY(checked >= 10);
    }

    // Fields that overlap the secondary id keep its bits, as the decoder reads them.
    void defaultsKeepTheSecondaryId()
    {
        mdb::PacketDef packet;
        packet.name = "P";
        packet.length = 16;
        packet.secondaryId = mdb::SecondaryId{48, 8, 0xA5};
        packet.parameters = {test::makeParameter("ID", 48, 8), test::makeParameter("WIDE", 48, 16),
                             test::makeParameter("LOW_NIBBLE", 52, 4), test::makeParameter("WIDE_LE", 48, 16),
                             test::makeParameter("AFTER", 56, 8)};
        packet.parameters[3].byteOrder = mdb::ByteOrder::LittleEndian;
        const double expected[] = {0xA5, 0xA500, 0x5, 0x00A5};
        for (std::size_t i = 0; i < 4; ++i) {
            const auto spec = sim::defaultGenerator(packet, packet.parameters[i], i);
            QCOMPARE(sim::toString(spec.kind), sim::toString(GeneratorKind::Constant));
            QCOMPARE(sim::toString(spec.domain), sim::toString(ValueDomain::Raw));
            QCOMPARE(spec.value, expected[i]);
        }
        QVERIFY(sim::defaultGenerator(packet, packet.parameters[4], 4).kind != GeneratorKind::Constant);
    }

    // Odd definitions (limits outside the field, calibrations that cannot be inverted, 64-bit and
    // 1-bit fields, an enumeration of one state or none) still get finite, sensible generators.
    void defaultsOfUnusualParametersAreSane()
    {
        using mdb::DataType;
        auto limits = [](double rl, double yl, double yh, double rh) { return mdb::NumericLimits{rl, yl, yh, rh, true}; };
        mdb::PacketDef packet;
        packet.name = "ODD";
        packet.length = 200;
        auto& ps = packet.parameters;
        ps.push_back(test::makeParameter("WIDE_U64", 48, 64));
        ps.back().limits = limits(1e3, 1e4, 1e17, 1e18);
        ps.push_back(test::makeParameter("WIDE_S64", 112, 64, DataType::SignedInt));
        ps.push_back(test::makeParameter("FLAG_WITH_LIMITS", 176, 1));
        ps.back().limits = limits(0, 0, 0, 1);
        ps.push_back(test::makeParameter("SIGNED_BIT", 177, 1, DataType::SignedInt));
        ps.push_back(test::makeParameter("OUTSIDE_FIELD", 184, 8));
        ps.back().limits = limits(300, 400, 500, 600);
        ps.push_back(test::makeParameter("FLAT_POLY", 192, 16));
        ps.back().calibrator = mdb::PolynomialCalibrator{{5}};
        ps.back().limits = limits(1, 2, 8, 9);
        ps.push_back(test::makeParameter("BUMPY_POLY", 208, 16));
        ps.back().calibrator = mdb::PolynomialCalibrator{{0, 1, -1e-4}}; // turns at 5000
        ps.back().limits = limits(0, 10, 100, 200);
        ps.push_back(test::makeParameter("ZIGZAG_TABLE", 224, 16));
        ps.back().calibrator = mdb::PointPairCalibrator{{{0, 0}, {100, 50}, {200, 10}}};
        ps.push_back(test::makeParameter("DOWNHILL_TABLE", 240, 12));
        ps.back().calibrator = mdb::PointPairCalibrator{{{0, 100}, {4095, -20}}};
        ps.back().limits = limits(-10, 0, 80, 90);
        ps.push_back(test::makeParameter("ONE_STATE", 256, 8));
        ps.back().calibrator = mdb::EnumerationCalibrator{{{3, 3, "ONLY"}}};
        ps.back().limits = mdb::StateLimits{{"ONLY"}, true};
        ps.push_back(test::makeParameter("NO_STATES", 264, 8));
        ps.back().calibrator = mdb::EnumerationCalibrator{};
        ps.push_back(test::makeParameter("F64_POLY", 272, 64, DataType::Float));
        ps.back().calibrator = mdb::PolynomialCalibrator{{1, 2}};
        ps.back().limits = limits(-100, -50, 50, 100);
        ps.push_back(test::makeParameter("ITEM_CNT", 336, 16));
        ps.push_back(test::makeParameter("FLOAT_COUNTER", 352, 32, DataType::Float));
        ps.push_back(test::makeParameter("TINY_TEXT", 384, 8, DataType::String));
        ps.push_back(test::makeParameter("BLOB", 392, 24, DataType::Bytes));

        for (std::size_t i = 0; i < ps.size(); ++i) {
            const auto spec = sim::defaultGenerator(packet, ps[i], i);
            const QString name = QString::fromStdString(ps[i].name);
            for (double x : {spec.value, spec.start, spec.step, spec.min, spec.max, spec.period, spec.amplitude,
                             spec.offset, spec.phase})
                QVERIFY2(std::isfinite(x), qPrintable(name));
            const auto* e = std::get_if<mdb::EnumerationCalibrator>(&ps[i].calibrator);
            ValueGenerator g(spec, e ? e->states.size() : 0);
            std::set<double> seen;
            for (std::size_t k = 0; k < kSamples; ++k) {
                const double v = g.next(kStep * double(k), k);
                QVERIFY2(std::isfinite(v), qPrintable(name));
                seen.insert(held(ps[i], v));
            }
            // Everything moves but fixed text and an enumeration with fewer than two states.
            if (spec.kind != GeneratorKind::Text && !(e && e->states.size() < 2))
                QVERIFY2(seen.size() > 1, qPrintable(name));
        }
        auto specOf = [&](std::string_view name) {
            for (std::size_t i = 0; i < ps.size(); ++i)
                if (ps[i].name == name)
                    return sim::defaultGenerator(packet, ps[i], i);
            return GeneratorSpec{};
        };
        // A 64-bit field swings over readable numbers, not over 10^19.
        const auto wide = specOf("WIDE_S64");
        QVERIFY(std::fabs(wide.offset) + std::fabs(wide.amplitude) <= 1e6);
        // Calibrations the encoder cannot invert: converted values instead of calibrated ones.
        QCOMPARE(sim::toString(specOf("FLAT_POLY").domain), sim::toString(ValueDomain::Converted));
        QCOMPARE(sim::toString(specOf("BUMPY_POLY").domain), sim::toString(ValueDomain::Converted));
        QCOMPARE(sim::toString(specOf("ZIGZAG_TABLE").domain), sim::toString(ValueDomain::Converted));
        QCOMPARE(sim::toString(specOf("DOWNHILL_TABLE").domain), sim::toString(ValueDomain::Calibrated));
        QCOMPARE(sim::toString(specOf("ITEM_CNT").kind), sim::toString(GeneratorKind::Counter));
        QCOMPARE(sim::toString(specOf("FLOAT_COUNTER").kind), sim::toString(GeneratorKind::Counter));
        QCOMPARE(sim::toString(specOf("FLOAT_COUNTER").domain), sim::toString(ValueDomain::Converted));
        QCOMPARE(sim::toString(specOf("SIGNED_BIT").kind), sim::toString(GeneratorKind::Square));
        QCOMPARE(specOf("TINY_TEXT").text.size(), std::size_t{1});
        // A decreasing table: the sine still crosses the limits in calibrated terms.
        const auto downhill = specOf("DOWNHILL_TABLE");
        QVERIFY(downhill.offset + downhill.amplitude > 80 || downhill.offset - downhill.amplitude < 0);
        QVERIFY(downhill.offset > 0 && downhill.offset < 80);
    }

    // ---- Through the encoder and the decoder ---------------------------------------------------

    // Packet5 built with its defaults as the simulator builds it, 2 packets a second for two minutes:
    // the decoder sees limit-carrying parameters within limits and past yellow, some past red, and
    // enumerations with expected states in expected and, now and then, unexpected states.
    void encodedDefaultsReachTheirLimitStates()
    {
        const auto* def = m_db.findPacket("Packet5");
        EncodeDecode packet(*def);
        QVERIFY(packet.ok());
        const std::size_t count = def->parameters.size();
        std::vector<std::optional<ValueGenerator>> generators;
        for (std::size_t i = 0; i < count; ++i)
            generators.emplace_back(std::in_place, sim::defaultGenerator(*def, def->parameters[i], i), packet.stateCount(i));
        std::vector<std::set<decode::LimitState>> states(count);
        for (std::size_t k = 0; k < kSamples; ++k) {
            const double t = kStep * double(k);
            const QString error = packet.build(generators, t, k);
            QVERIFY2(error.isEmpty(), qPrintable(error));
            const auto& out = packet.values();
            for (std::size_t i = 0; i < count; ++i) {
                states[i].insert(out[i].limit);
                if (generators[i]->spec().kind == GeneratorKind::StateCycle)
                    QCOMPARE(out[i].state, std::int32_t(generators[i]->next(t, k)));
            }
        }

        using decode::LimitState;
        std::size_t red = 0, limited = 0, enumerations = 0;
        for (std::size_t i = 0; i < count; ++i) {
            const auto& p = def->parameters[i];
            const auto& seen = states[i];
            QString why = nameOf(*def, p) + ":";
            for (auto s : seen)
                why += QStringLiteral(" ") + QString::fromUtf8(decode::limitStateName(s).data());
            if (const auto* l = numericLimits(p); l && l->enabled) {
                ++limited;
                QVERIFY2(seen.count(LimitState::Normal), qPrintable(why));
                QVERIFY2(seen.count(LimitState::YellowLow) || seen.count(LimitState::YellowHigh), qPrintable(why));
                red += seen.count(LimitState::RedLow) || seen.count(LimitState::RedHigh);
            } else if (const auto* s = std::get_if<mdb::StateLimits>(&p.limits); s && s->enabled) {
                ++enumerations;
                QVERIFY2(seen.count(LimitState::Normal), qPrintable(why));
                QVERIFY2(seen.count(LimitState::Unexpected), qPrintable(why));
            } else {
                QVERIFY2(seen.size() == 1 && *seen.begin() == LimitState::None, qPrintable(why));
            }
        }
        QVERIFY(limited >= 40);
        QVERIFY(enumerations >= 8);
        QVERIFY(red >= 1 && red <= (limited + 4) / 5);
    }

    // The generators of telestation-perf limits, through the encoder and the decoder, a packet every
    // millisecond for two periods of 1 s: every Packet5 parameter with limits in force gets both; Within
    // never leaves its limits; Crossing goes out and back every period — numbers within limits, into
    // yellow, into red, back through yellow to within limits (4 transitions a period), enumerations
    // from an expected into an unexpected state and back (2).
    void limitExerciseCrossesEveryPeriod()
    {
        using decode::LimitState;
        const auto* def = m_db.findPacket("Packet5");
        EncodeDecode packet(*def);
        QVERIFY(packet.ok());
        const std::size_t count = def->parameters.size();
        std::size_t exercised = 0, numeric = 0;
        for (const auto exercise : {sim::LimitExercise::Within, sim::LimitExercise::Crossing}) {
            std::vector<std::optional<ValueGenerator>> generators(count);
            for (std::size_t i = 0; i < count; ++i) {
                const auto& p = def->parameters[i];
                std::string why;
                const auto g = sim::limitExerciseGenerator(*def, p, i, exercise, 1.0, &why);
                const auto* n = std::get_if<mdb::NumericLimits>(&p.limits);
                const auto* s = std::get_if<mdb::StateLimits>(&p.limits);
                const bool inForce = (n && n->enabled) || (s && s->enabled);
                QVERIFY2(g.has_value() == inForce, qPrintable(nameOf(*def, p) + ": " + QString::fromStdString(why)));
                if (!g)
                    continue;
                if (exercise == sim::LimitExercise::Crossing) {
                    QVERIFY2(g->red, qPrintable(nameOf(*def, p)));
                    QVERIFY2(g->yellow == (n != nullptr), qPrintable(nameOf(*def, p)));
                    ++exercised;
                    numeric += n ? 1 : 0;
                }
                generators[i].emplace(g->spec, packet.stateCount(i));
            }
            std::vector<std::vector<LimitState>> seen(count);
            for (std::size_t k = 0; k < 2000; ++k) {
                const QString error = packet.build(generators, 0.001 * double(k), k);
                QVERIFY2(error.isEmpty(), qPrintable(error));
                for (std::size_t i = 0; i < count; ++i)
                    if (generators[i] && (seen[i].empty() || seen[i].back() != packet.values()[i].limit))
                        seen[i].push_back(packet.values()[i].limit);
            }
            for (std::size_t i = 0; i < count; ++i) {
                if (!generators[i])
                    continue;
                QString states = nameOf(*def, def->parameters[i]) + ":";
                for (const auto s : seen[i])
                    states += QStringLiteral(" ") + QString::fromUtf8(decode::limitStateName(s).data());
                if (exercise == sim::LimitExercise::Within) {
                    QVERIFY2(seen[i].size() == 1 && seen[i][0] == LimitState::Normal, qPrintable(states));
                    continue;
                }
                const bool isNumeric = std::holds_alternative<mdb::NumericLimits>(def->parameters[i].limits);
                // Two periods: 8 transitions (numbers) or 4 (states), give or take the one the phase cuts.
                const std::size_t transitions = seen[i].size() - 1;
                QVERIFY2(transitions >= (isNumeric ? 7u : 3u) && transitions <= (isNumeric ? 9u : 5u), qPrintable(states));
                for (std::size_t j = 1; j < seen[i].size(); ++j) {
                    const auto a = seen[i][j - 1], b = seen[i][j];
                    const bool yellow = b == LimitState::YellowLow || b == LimitState::YellowHigh;
                    const bool red = b == LimitState::RedLow || b == LimitState::RedHigh;
                    // Numbers step one band at a time: normal <-> yellow <-> red.
                    if (isNumeric)
                        QVERIFY2(yellow || (red && a != LimitState::Normal) || (b == LimitState::Normal && a != LimitState::RedLow
                                                                               && a != LimitState::RedHigh),
                                 qPrintable(states));
                    else
                        QVERIFY2(b == LimitState::Normal || b == LimitState::Unexpected, qPrintable(states));
                }
            }
        }
        QVERIFY(numeric >= 45);
        QCOMPARE(exercised - numeric, std::size_t{12}); // Packet5's enumerations with expected states
    }

private:
    mdb::MissionDatabase m_db;
};

QTEST_GUILESS_MAIN(TestValueGenerator)
#include "tst_sim_value_generator.moc"
