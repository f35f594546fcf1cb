// Value generators: what the simulator puts in each parameter of each packet it sends.
#pragma once

#include "core/mdb/model.hpp"

#include <cstdint>
#include <random>
#include <string>
#include <vector>

namespace telestation::sim {

enum class GeneratorKind : std::uint8_t {
    Constant,   // value
    Counter,    // start + step * n for the n-th packet of this type (wraps within the field's range)
    Ramp,       // sawtooth from min to max over `period` seconds
    Sine,       // offset + amplitude * sin(2*pi*t/period + phase)
    Square,     // min for the first half of each period, max for the second
    Uniform,    // uniform in [min, max), seeded
    Normal,     // normal(mean, stddev), seeded
    StateCycle, // enumerations: state k = floor(t/period) mod stateCount (in the calibrator's order)
    List,       // values[n mod size] for the n-th packet
    Text,       // String/Bytes: the text (UTF-8 bytes), NUL-padded or cut to the field
};

// Which value the generator produces: the calibrated (engineering) value — inverted through the
// calibrator by the encoder —, the converted value, or the raw bits.
enum class ValueDomain : std::uint8_t { Calibrated, Converted, Raw };

struct GeneratorSpec {
    GeneratorKind kind = GeneratorKind::Constant;
    ValueDomain domain = ValueDomain::Calibrated;
    double value = 0;                 // Constant
    double start = 0, step = 1;       // Counter
    double min = 0, max = 1;          // Ramp, Square, Uniform
    double period = 10;               // seconds: Ramp, Sine, Square, StateCycle
    double amplitude = 1, offset = 0, phase = 0; // Sine
    double mean = 0, stddev = 1;      // Normal
    std::vector<double> values;       // List
    std::string text;                 // Text
    std::uint64_t seed = 1;           // Uniform, Normal
    friend bool operator==(const GeneratorSpec&, const GeneratorSpec&) = default;
};

// Evaluates a spec. Deterministic: the same spec, times and packet indexes give the same values.
class ValueGenerator {
public:
    // stateCount: the number of states of the parameter's enumeration (StateCycle), else ignored.
    explicit ValueGenerator(GeneratorSpec spec, std::size_t stateCount = 0);

    // The value for the packet with per-type index `n` sent at `t` seconds since the stream started.
    // For StateCycle, the state index (as a double). Not for Text (returns 0).
    [[nodiscard]] double next(double t, std::uint64_t n) noexcept;

    [[nodiscard]] const GeneratorSpec& spec() const noexcept { return m_spec; }

private:
    GeneratorSpec m_spec;
    std::size_t m_stateCount;
    std::mt19937_64 m_rng;
};

// The generator a parameter gets when the scenario names none: something that moves visibly on a
// display. Numeric parameters with limits swing across their yellow limits now and then (and a
// fraction of them, chosen deterministically by index, into red); enumerations cycle through their
// states; names that say COUNT/COUNTER count; strings carry readable text; bytes count.
// `index` is the parameter's position in its packet (spreads periods and phases).
[[nodiscard]] GeneratorSpec defaultGenerator(const mdb::PacketDef& packet, const mdb::ParameterDef& parameter,
                                             std::size_t index);

[[nodiscard]] std::string_view toString(GeneratorKind kind) noexcept;   // "constant", "counter", ...
[[nodiscard]] std::string_view toString(ValueDomain domain) noexcept;   // "calibrated", "converted", "raw"

} // namespace telestation::sim
