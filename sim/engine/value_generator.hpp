// Value generators: what the simulator puts in each parameter of each packet it sends.
#pragma once

#include "core/mdb/model.hpp"

#include <cstdint>
#include <optional>
#include <random>
#include <string>
#include <vector>

namespace telestation::sim {

enum class GeneratorKind : std::uint8_t {
    Constant,   // value
    Counter,    // start + step * n for the n-th packet of this type. next() does not wrap: in the Raw
                // domain the encoder keeps the field's low bits (the counter wraps like a real one);
                // in the Converted/Calibrated domains it clamps to the field's range
    Ramp,       // sawtooth from min to max over `period` seconds
    Sine,       // offset + amplitude * sin(2*pi*t/period + phase)
    Square,     // min for the first half of each period, max for the second
    Uniform,    // uniform in [min, max), seeded
    Normal,     // normal(mean, stddev), seeded
    StateCycle, // enumerations: state k = floor(t/period) mod stateCount (in the calibrator's order);
                // when `values` is not empty, state values[floor(t/period) mod values.size()] instead
                // (state indices, repeated to dwell longer in a state: see defaultGenerator)
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
    std::vector<double> values;       // List; StateCycle (optional: the sequence of state indices)
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
    // For StateCycle, the state index (as a double). Not for Text (returns 0). No allocation.
    // Uniform and Normal draw from a generator seeded with spec.seed alone, so their values depend on
    // how many calls came before, not on t or n. A period <= 0 freezes the time-driven kinds at t = 0.
    [[nodiscard]] double next(double t, std::uint64_t n) noexcept;

    [[nodiscard]] const GeneratorSpec& spec() const noexcept { return m_spec; }

private:
    GeneratorSpec m_spec;
    std::size_t m_stateCount;
    std::mt19937_64 m_rng;
    double m_spareNormal = 0;     // Normal: Box-Muller makes two deviates per draw; the second waits here
    bool m_hasSpareNormal = false;
};

// The generator a parameter gets when the scenario names none: something that moves visibly on a
// display. Numeric parameters with limits swing across their yellow limits now and then (and a
// fraction of them, chosen deterministically by index, into red); enumerations cycle through their
// states; names that say COUNT/COUNTER count; strings carry readable text; bytes count.
// `index` is the parameter's position in its packet (spreads periods and phases). In detail, in order:
//  - a field that overlaps the packet's SECONDARY_ID or a field its criteria test (PacketIdentity):
//    Constant (Raw) holding those bits, so that the packet stays recognisable (the only numeric
//    parameters kept constant);
//  - String: Text, readable and fixed (an "e.g. X" example in the description, else made from the name);
//    Bytes: Counter (Raw);
//  - enumerations: StateCycle, 5..30 s per state. With expected states (limits enabled or not) and
//    unexpected ones, `values` lists state indices: expected states in turn, two slots each, then one
//    unexpected state for one slot, so unexpected states show for 1 slot in 7 (slots of 2.5..15 s);
//  - numeric limits on an invertible calibration: Sine (Calibrated) over 8..90 s crossing the yellow
//    limits about 12-14 % of the time: centred between them when both sides have a yellow band wide
//    enough, else one-sided (e.g. LIMITS 0 0 80 95 only crosses 80). Where a limit coincides with red
//    or lies outside the field, the sine stays inside it (both sides: it never leaves the limits).
//    Every fifth parameter of the packet whose red limit a sine can reach while staying mostly within
//    yellow (<= 40 % outside, and in the yellow band at least as long as in red) reaches past red for
//    ~7 % of its period (20..90 s) instead;
//  - a name containing COUNT (so COUNTER) or ending in _CNT: Counter from 0, step 1 (Raw for integers,
//    so it wraps within the field; Converted for floats);
//  - 1-bit fields: Square 10..40 s; other numbers: Sine (Ramp for accumulating units s, Wh, B) over the
//    calibrated image of 10..60 % (unsigned) or +-25 % (signed) of the field's range capped to
//    +-1e6 counts, or the middle of a point-pair table; floats 10..30 (50 +- 30 for "%").
[[nodiscard]] GeneratorSpec defaultGenerator(const mdb::PacketDef& packet, const mdb::ParameterDef& parameter,
                                             std::size_t index);

// Generators that exercise a parameter's limits, for measuring what limit transitions cost the station
// (telestation-perf limits). Within keeps the value inside its limits; Crossing takes it across them
// and back once every `period` seconds. Both move with the same kind of generator and period, so that
// the two differ only in the limit states they produce:
//  - numeric limits: a sine (Calibrated) of `period`, its phase spread by `index`. Within: over the
//    middle of the range within limits. Crossing: over one side, from inside the limits into the
//    yellow band and past red and back (four transitions a period); the side where the field can hold
//    both a yellow band and red, else where it can hold red (crossing yellow and red at once), else
//    where it can hold yellow;
//  - enumerations with expected states: StateCycle of period / 2 between the first expected state and
//    (Within) the second expected one, or (Crossing) the first unexpected one (two transitions a
//    period).
// nullopt, with the reason in `why`, for a parameter without limits in force (none, disabled), one the
// default generators would hold constant (the packet's identity), one whose calibration the encoder
// cannot invert, or one that the field cannot take past its limits.
enum class LimitExercise : std::uint8_t { Within, Crossing };
struct LimitExerciseGenerator {
    GeneratorSpec spec;
    bool yellow = false; // Crossing: reaches a yellow (warning) state on its way
    bool red = false;    // Crossing: reaches red / an unexpected state (critical)
};
[[nodiscard]] std::optional<LimitExerciseGenerator> limitExerciseGenerator(const mdb::PacketDef& packet,
                                                                           const mdb::ParameterDef& parameter,
                                                                           std::size_t index, LimitExercise exercise,
                                                                           double period, std::string* why = nullptr);

[[nodiscard]] std::string_view toString(GeneratorKind kind) noexcept;   // "constant", "counter", ...
[[nodiscard]] std::string_view toString(ValueDomain domain) noexcept;   // "calibrated", "converted", "raw"

} // namespace telestation::sim
